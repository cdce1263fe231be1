// Unit tests of ctnn's constexpr quantization arithmetic (detail/quantization.hpp): frexp and round
// against <cmath>, QuantizeMultiplier against a <cmath>-based transcription over many values, and the
// integer primitives (SaturatingRoundingDoublingHighMul, RoundingDivideByPOT, MultiplyByQuantizedMultiplier)
// against floor-division formulas (int8_test::ref), with their edge cases. static_asserts pin known pairs.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include <doctest/doctest.h>

#include <ctnn/detail/quantization.hpp>

#include "kernel/int8_test_support.hpp"

namespace {

namespace q = ctnn::detail::quant;
namespace ref = int8_test::ref;
constexpr std::int32_t int32_min = std::numeric_limits<std::int32_t>::min();
constexpr std::int32_t int32_max = std::numeric_limits<std::int32_t>::max();

// Known pairs, at compile time.
static_assert(q::quantize_multiplier(0.0) == q::quantized_multiplier{0, 0});
static_assert(q::quantize_multiplier(0.5) == q::quantized_multiplier{1 << 30, 0});
static_assert(q::quantize_multiplier(1.0) == q::quantized_multiplier{1 << 30, 1});
static_assert(q::quantize_multiplier(0.25) == q::quantized_multiplier{1 << 30, -1});
static_assert(q::quantize_multiplier(-0.5) == q::quantized_multiplier{-(1 << 30), 0});
static_assert(q::quantize_multiplier(0.75) == q::quantized_multiplier{1610612736, 0});
// A mantissa that rounds up to 2^31 becomes 2^30 with the shift one higher (TFLite's q == 2^31 case).
static_assert(q::quantize_multiplier(1.0 - 0x1p-33) == q::quantized_multiplier{1 << 30, 1});
// Below 2^-31: flushed to zero.
static_assert(q::quantize_multiplier(0x1p-40) == q::quantized_multiplier{0, 0});
static_assert(q::quantize_multiplier(0x1p-32) == q::quantized_multiplier{1 << 30, -31});
// A KWS layer: input 0.584702909 (0x3f15af17), weight channel 0 (0x3aae914d), output 0x3da13ac8.
static_assert(q::channel_multiplier(std::bit_cast<float>(0x3f15af17u), std::bit_cast<float>(0x3aae914du),
                                    std::bit_cast<float>(0x3da13ac8u))
                  .shift == -6);

static_assert(q::saturating_rounding_doubling_high_mul(int32_min, int32_min) == int32_max);
static_assert(q::saturating_rounding_doubling_high_mul(int32_min, int32_max) == -int32_max);
static_assert(q::saturating_rounding_doubling_high_mul(1, 1 << 30) == 1);   // 0.5 rounds up
static_assert(q::saturating_rounding_doubling_high_mul(-1, 1 << 30) == 0);  // -0.5 rounds up too
static_assert(q::saturating_rounding_doubling_high_mul(-3, 1 << 30) == -1);  // -1.5 -> -1
static_assert(q::rounding_divide_by_pot(5, 1) == 3);    // 2.5 -> 3
static_assert(q::rounding_divide_by_pot(-5, 1) == -3);  // -2.5 -> -3 (away from zero)
static_assert(q::rounding_divide_by_pot(-6, 2) == -2);  // -1.5 -> -2
static_assert(q::rounding_divide_by_pot(-5, 2) == -1);  // -1.25 -> -1
static_assert(q::rounding_divide_by_pot(int32_min, 31) == -1);
static_assert(q::rounding_divide_by_pot(int32_max, 31) == 1);
static_assert(q::multiply_by_quantized_multiplier(100, 1 << 30, 1) == 100);  // multiplier 1.0
static_assert(q::multiply_by_quantized_multiplier(-7, 1 << 30, -1) == -2);   // -7 * 0.25 = -1.75

static_assert(q::input_radius(5, 0) == 2080374784);  // (2^5 - 1) * 2^26
static_assert(q::input_radius(4, 25) == 60);         // 15 * 2^27 / 2^25

double random_double(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> mantissa(0.5, 1.0);
  std::uniform_int_distribution<int> exponent(-60, 40);
  return std::ldexp(mantissa(rng), exponent(rng));
}

}  // namespace

TEST_CASE("frexp and round agree with <cmath>") {
  std::mt19937_64 rng(1);
  for (int i = 0; i < 200000; ++i) {
    double x = random_double(rng) * (i % 2 ? -1.0 : 1.0);
    if (i % 1000 == 0) x = std::ldexp(1.0, -1060 + i % 40);  // subnormals
    int want_exponent = 0;
    const double want = std::frexp(x, &want_exponent);
    std::int32_t exponent = 0;
    REQUIRE(q::frexp(x, exponent) == want);
    REQUIRE(exponent == want_exponent);
    const double y = std::ldexp(x, 20);
    REQUIRE(q::round(y) == std::round(y));
    const auto f = static_cast<float>(std::ldexp(x, 10));
    REQUIRE(q::round(f) == std::round(f));
  }
  for (double half : {0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 4503599627370495.5, -0.49999999999999994}) CHECK(q::round(half) == std::round(half));
  std::int32_t e = 7;
  CHECK(q::frexp(0.0, e) == 0.0);
  CHECK(e == 0);
}

TEST_CASE("quantize_multiplier agrees with a <cmath> QuantizeMultiplier over many values") {
  std::mt19937_64 rng(2);
  int checked = 0;
  for (int i = 0; i < 300000; ++i) {
    const double real = random_double(rng);
    const ref::multiplier want = ref::quantize_multiplier(real);
    const q::quantized_multiplier got = q::quantize_multiplier(real);
    REQUIRE(got.multiplier == want.m);
    REQUIRE(got.shift == want.shift);
    ++checked;
  }
  // Values just below a power of two, where the mantissa rounds to 2^31.
  for (int e = -40; e < 30; ++e) {
    for (double eps : {0x1p-32, 0x1p-33, 0x1p-34, 0x1p-40}) {
      const double real = std::ldexp(1.0 - eps, e);
      const ref::multiplier want = ref::quantize_multiplier(real);
      CHECK(q::quantize_multiplier(real).multiplier == want.m);
      CHECK(q::quantize_multiplier(real).shift == want.shift);
      ++checked;
    }
  }
  MESSAGE(checked << " multipliers checked");
}

TEST_CASE("the logistic/tanh and softmax input scaling agree with <cmath>") {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<float> scale(1e-4f, 1.0f);
  for (int i = 0; i < 50000; ++i) {
    const float s = scale(rng);
    int shift = 0;
    const double mantissa = std::frexp(static_cast<double>(s) * static_cast<double>(1 << 27), &shift);
    const auto multiplier = static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::int64_t>(std::round(mantissa * 2147483648.0))));
    const q::quantized_multiplier got = q::logistic_tanh_input_multiplier(s);
    REQUIRE(got.multiplier == multiplier);
    REQUIRE(got.shift == shift);
    REQUIRE(q::input_radius(4, shift) ==
            static_cast<std::int32_t>(std::floor(15.0 * static_cast<double>(1LL << 27) / static_cast<double>(1LL << shift))));
    const double beta_real = std::min(static_cast<double>(s) * static_cast<double>(1 << 26), 2147483647.0);
    const ref::multiplier want = ref::quantize_multiplier(beta_real);
    REQUIRE(q::softmax_input_multiplier(1.0, s, 5).multiplier == want.m);
    REQUIRE(q::softmax_input_multiplier(1.0, s, 5).shift == want.shift);
  }
}

TEST_CASE("the activation range agrees with CalculateActivationRangeQuantized") {
  std::mt19937_64 rng(4);
  std::uniform_real_distribution<float> scale(1e-3f, 0.5f);
  std::uniform_int_distribution<int> zero_point(-128, 127);
  for (int i = 0; i < 20000; ++i) {
    const float s = scale(rng);
    const int zp = zero_point(rng);
    for (ctnn::activation a : {ctnn::activation::none, ctnn::activation::relu, ctnn::activation::relu6}) {
      std::int32_t lo = 0, hi = 0;
      ref::activation_range(a, s, zp, lo, hi);
      const q::activation_bounds got = q::quantized_activation_range(a, s, zp);
      REQUIRE(got.min == lo);
      REQUIRE(got.max == hi);
    }
  }
}

TEST_CASE("SaturatingRoundingDoublingHighMul, RoundingDivideByPOT and MultiplyByQuantizedMultiplier") {
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<std::int32_t> any(int32_min, int32_max);
  std::uniform_int_distribution<std::int32_t> small(-(1 << 20), 1 << 20);
  std::uniform_int_distribution<int> exponent(0, 31);
  std::uniform_int_distribution<int> shift(-31, 7);
  const std::int32_t edges[] = {int32_min, int32_min + 1, -(1 << 30), -3, -2, -1, 0, 1, 2, 3, 1 << 30, int32_max - 1, int32_max};
  for (std::int32_t a : edges)
    for (std::int32_t b : edges) REQUIRE(q::saturating_rounding_doubling_high_mul(a, b) == ref::srdhm(a, b));
  for (std::int32_t x : edges)
    for (int e = 0; e <= 31; ++e) REQUIRE(q::rounding_divide_by_pot(x, e) == ref::rdbpot(x, e));
  for (int i = 0; i < 500000; ++i) {
    const std::int32_t a = any(rng), b = any(rng);
    REQUIRE(q::saturating_rounding_doubling_high_mul(a, b) == ref::srdhm(a, b));
    const int e = exponent(rng);
    REQUIRE(q::rounding_divide_by_pot(a, e) == ref::rdbpot(a, e));
    // Ties: exactly half way between two multiples of 2^e.
    if (e > 0 && e < 18) {
      const std::int64_t k = small(rng) >> 8;  // |k| <= 4096
      const auto tie = static_cast<std::int32_t>(k * (std::int64_t{1} << e) + (std::int64_t{1} << (e - 1)));
      REQUIRE(q::rounding_divide_by_pot(tie, e) == ref::rdbpot(tie, e));
      REQUIRE(q::rounding_divide_by_pot(-tie, e) == ref::rdbpot(-tie, e));
    }
    const std::int32_t m = (1 << 30) + static_cast<std::int32_t>(static_cast<std::uint32_t>(b) >> 2);  // [2^30, 2^31)
    const int s = shift(rng);
    const std::int32_t x = s > 0 ? small(rng) : a;
    REQUIRE(q::multiply_by_quantized_multiplier(x, m, s) == ref::mbqm(x, m, s));
  }
}
