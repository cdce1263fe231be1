// int8 softmax, logistic and tanh against a second, independent implementation of TFLite's fixed-point
// recipe: a literal transcription of gemmlowp's FixedPoint<int32, IntegerBits> class and functions (types
// carry the integer bits, ExactMulByPot changes the type, Rescale saturates or rounds), with the prepare
// steps done with <cmath> (std::frexp, std::floor). ctnn's kernels work on raw int32 values instead.
// Logistic and tanh are checked for every int8 input under many input quantizations; softmax on random
// rows. A float check bounds both to 1 LSB of the true function. (The MLPerf softmax layers are checked
// against TFLM's dumps in tests/kernel/reference/mlperf_layers_test.cpp.)
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/kernel/dispatch.hpp>

#include "kernel/int8_test_support.hpp"

namespace {

using ctnn::kernel_params;
using ctnn::make_shape;
using ctnn::op_kind;
using int8_test::bits;
using int8_test::layer;
using int8_test::scale_of;
namespace ref = int8_test::ref;

// ---------------------------------------------------------------------------------------------------
// gemmlowp's FixedPoint, transcribed.
template <int IntegerBits>
struct fixed {
  static constexpr int fractional_bits = 31 - IntegerBits;
  std::int32_t raw = 0;
  static fixed from_raw(std::int32_t r) { return fixed{r}; }
  static fixed zero() { return fixed{0}; }
  static fixed one() { return fixed{IntegerBits == 0 ? std::numeric_limits<std::int32_t>::max() : std::int32_t{1} << fractional_bits}; }
  template <int Exponent>
  static fixed constant_pot() { return fixed{std::int32_t{1} << (fractional_bits + Exponent)}; }
};
std::int32_t wrap(std::int64_t v) { return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(v))); }
template <int A, int B>
fixed<A + B> operator*(fixed<A> a, fixed<B> b) { return {ref::srdhm(a.raw, b.raw)}; }
template <int I>
fixed<I> operator+(fixed<I> a, fixed<I> b) { return {wrap(std::int64_t{a.raw} + b.raw)}; }
template <int I>
fixed<I> operator-(fixed<I> a, fixed<I> b) { return {wrap(std::int64_t{a.raw} - b.raw)}; }
template <int I>
fixed<I> operator-(fixed<I> a) { return {wrap(-std::int64_t{a.raw})}; }
template <int I>
fixed<I> operator&(fixed<I> a, fixed<I> b) { return {a.raw & b.raw}; }

std::int32_t saturating_rounding_multiply_by_pot(std::int32_t x, int exponent) {
  if (exponent == 0) return x;
  if (exponent < 0) return ref::rdbpot(x, -exponent);
  const std::int64_t v = std::int64_t{x} * (std::int64_t{1} << exponent);
  return static_cast<std::int32_t>(std::max<std::int64_t>(std::numeric_limits<std::int32_t>::min(),
                                                          std::min<std::int64_t>(std::numeric_limits<std::int32_t>::max(), v)));
}
template <int Exponent, int I>
fixed<I> srmbp(fixed<I> a) { return {saturating_rounding_multiply_by_pot(a.raw, Exponent)}; }
template <int Dst, int Src>
fixed<Dst> rescale(fixed<Src> x) { return {saturating_rounding_multiply_by_pot(x.raw, Src - Dst)}; }
template <int Exponent, int I>
fixed<I + Exponent> exact_mul_by_pot(fixed<I> a) { return {a.raw}; }
fixed<0> rounding_half_sum(fixed<0> a, fixed<0> b) {
  const std::int64_t sum = std::int64_t{a.raw} + b.raw;
  return {static_cast<std::int32_t>((sum + (sum >= 0 ? 1 : -1)) / 2)};
}

fixed<0> exp_on_interval_between_negative_one_quarter_and_0_excl(fixed<0> a) {
  const fixed<0> constant_term{1895147668}, constant_1_over_3{715827883};
  const fixed<0> x = a + fixed<0>::constant_pot<-3>();
  const fixed<0> x2 = x * x, x3 = x2 * x, x4 = x2 * x2;
  const fixed<0> x4_over_4 = srmbp<-2>(x4);
  const fixed<0> poly = srmbp<-1>(((x4_over_4 + x3) * constant_1_over_3) + x2);
  return constant_term + constant_term * (x + poly);
}

template <int I>
fixed<0> exp_on_negative_values(fixed<I> a) {
  constexpr int fractional_bits = fixed<I>::fractional_bits;
  const fixed<I> one_quarter = fixed<I>::template constant_pot<-2>();
  const fixed<I> mask = one_quarter - fixed<I>::from_raw(1);
  const fixed<I> a_mod_quarter_minus_one_quarter = (a & mask) - one_quarter;
  fixed<0> result = exp_on_interval_between_negative_one_quarter_and_0_excl(rescale<0>(a_mod_quarter_minus_one_quarter));
  const std::int32_t remainder = (a_mod_quarter_minus_one_quarter - a).raw;
  const auto barrel = [&](int exponent, std::int32_t multiplier) {
    if (I > exponent && (remainder & (std::int32_t{1} << (fractional_bits + exponent))) != 0) result = result * fixed<0>{multiplier};
  };
  barrel(-2, 1672461947);
  barrel(-1, 1302514674);
  barrel(+0, 790015084);
  barrel(+1, 290630308);
  barrel(+2, 39332535);
  barrel(+3, 720401);
  barrel(+4, 242);
  if (I > 5 && a.raw < -(std::int32_t{1} << (I > 5 ? 36 - I : 0))) result = fixed<0>::zero();
  if (a.raw == 0) result = fixed<0>::one();
  return result;
}

fixed<2> newton(fixed<0> half_denominator) {
  const fixed<2> c48_17{1515870810}, cm32_17{-1010580540};
  fixed<2> x = c48_17 + half_denominator * cm32_17;
  for (int i = 0; i < 3; ++i) {
    const fixed<2> half_denominator_times_x = half_denominator * x;
    const fixed<2> one_minus = fixed<2>::one() - half_denominator_times_x;
    x = x + rescale<2>(x * one_minus);
  }
  return x;
}
fixed<0> one_over_one_plus_x_for_x_in_0_1(fixed<0> a) {
  return rescale<0>(exact_mul_by_pot<-1>(newton(rounding_half_sum(a, fixed<0>::one()))));
}
fixed<0> one_minus_x_over_one_plus_x_for_x_in_0_1(fixed<0> a) {
  return rescale<0>(newton(rounding_half_sum(a, fixed<0>::one())) - fixed<2>::one());
}
fixed<0> logistic(fixed<4> a) {
  const bool positive = a.raw > 0;
  const fixed<4> abs_input = positive ? a : -a;
  const fixed<0> result_if_positive = one_over_one_plus_x_for_x_in_0_1(exp_on_negative_values(-abs_input));
  const fixed<0> result_if_negative = fixed<0>::one() - result_if_positive;
  if (a.raw == 0) return fixed<0>{1 << 30};
  return positive ? result_if_positive : result_if_negative;
}
fixed<0> tanh(fixed<4> a) {
  const bool negative = a.raw < 0;
  const fixed<4> n = negative ? a : -a;
  const fixed<0> t = one_minus_x_over_one_plus_x_for_x_in_0_1(exp_on_negative_values(exact_mul_by_pot<1>(n)));
  if (a.raw == 0) return fixed<0>::zero();
  return negative ? -t : t;
}

// TFLite's prepare steps with <cmath>.
int input_radius(int integer_bits, int left_shift) {
  return static_cast<int>(std::floor(1.0 * ((1 << integer_bits) - 1) * static_cast<double>(1LL << (31 - integer_bits)) /
                                     static_cast<double>(1LL << left_shift)));
}

std::vector<std::int8_t> reference_logistic_or_tanh(const std::vector<std::int8_t>& x, float scale, std::int32_t zero_point, bool sigmoid) {
  int shift = 0;
  const double q = std::frexp(static_cast<double>(scale) * static_cast<double>(1 << 27), &shift);
  const auto multiplier = static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::int64_t>(std::round(q * 2147483648.0))));
  const int radius = input_radius(4, shift);
  std::vector<std::int8_t> out;
  for (std::int8_t v : x) {
    const std::int32_t input = v - zero_point;
    std::int32_t o = 0;
    if (input <= -radius) o = -128;
    else if (input >= radius) o = 127;
    else {
      const fixed<4> in_q4{ref::mbqm(input, multiplier, shift)};
      o = sigmoid ? ref::rdbpot(logistic(in_q4).raw, 23) - 128 : ref::rdbpot(tanh(in_q4).raw, 24);
      o = std::min(127, std::max(-128, o));
    }
    out.push_back(static_cast<std::int8_t>(o));
  }
  return out;
}

std::vector<std::int8_t> reference_softmax(const std::vector<std::int8_t>& x, int depth, float input_scale) {
  const ref::multiplier m = ref::quantize_multiplier(std::min(1.0 * input_scale * (1 << 26), 2147483647.0));
  const int diff_min = -input_radius(5, m.shift);
  std::vector<std::int8_t> out(x.size());
  for (std::size_t row = 0; row < x.size() / static_cast<std::size_t>(depth); ++row) {
    const std::int8_t* in = x.data() + row * static_cast<std::size_t>(depth);
    int largest = -128;
    for (int c = 0; c < depth; ++c) largest = std::max<int>(largest, in[c]);
    const auto exp_of = [&](int c) {
      const std::int32_t diff = in[c] - largest;
      const auto shifted = static_cast<std::int32_t>(static_cast<std::uint32_t>(diff) << m.shift);
      return exp_on_negative_values(fixed<5>{ref::srdhm(shifted, m.m)});
    };
    fixed<12> sum = fixed<12>::zero();
    for (int c = 0; c < depth; ++c)
      if (in[c] - largest >= diff_min) sum = sum + rescale<12>(exp_of(c));
    int headroom_plus_one = 0;
    while ((static_cast<std::uint32_t>(sum.raw) << headroom_plus_one & 0x80000000u) == 0) ++headroom_plus_one;
    const int bits_over_unit = 12 - headroom_plus_one;
    const auto shifted_sum_minus_one = static_cast<std::int32_t>((static_cast<std::uint32_t>(sum.raw) << headroom_plus_one) - 0x80000000u);
    const fixed<0> scale = one_over_one_plus_x_for_x_in_0_1(fixed<0>{shifted_sum_minus_one});
    for (int c = 0; c < depth; ++c) {
      std::int32_t o = -128;
      if (in[c] - largest >= diff_min) o = std::min(127, std::max(-128, ref::rdbpot((scale * exp_of(c)).raw, bits_over_unit + 23) - 128));
      out[row * static_cast<std::size_t>(depth) + static_cast<std::size_t>(c)] = static_cast<std::int8_t>(o);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------

constexpr layer activation_layer(op_kind kind, float scale, std::int32_t zero_point) {
  layer l{};
  l.kind = kind;
  l.in = make_shape(256);
  l.in_scale = bits(scale), l.in_zero_point = zero_point;
  l.out_scale = bits(kind == op_kind::tanh ? 1.0f / 128 : 1.0f / 256), l.out_zero_point = kind == op_kind::tanh ? 0 : -128;
  return l;
}
template <std::size_t N>
constexpr std::array<layer, N> activation_layers(op_kind kind) {
  std::array<layer, N> a{};
  int8_test::xorshift r{kind == op_kind::tanh ? 11u : 13u};
  for (std::size_t i = 0; i < N; ++i) {
    // Scales from 2^-9 to 2: inputs from well inside to far beyond the saturation radius.
    float scale = r.uniform_float(0.5f, 1.0f);
    for (int e = r.uniform(-9, 1); e < 0; ++e) scale *= 0.5f;
    if (i % 2 == 1) scale *= 2.0f;
    a[i] = activation_layer(kind, scale, r.uniform(-128, 127));
  }
  return a;
}
inline constexpr auto logistics = activation_layers<40>(op_kind::sigmoid);
inline constexpr auto tanhs = activation_layers<40>(op_kind::tanh);

constexpr std::array<layer, 24> softmax_layers() {
  std::array<layer, 24> a{};
  int8_test::xorshift r{17u};
  for (std::size_t i = 0; i < a.size(); ++i) {
    layer l{};
    l.kind = op_kind::softmax;
    l.in = make_shape(r.uniform(1, 5), r.uniform(1, 40));
    l.in_scale = bits(r.uniform_float(0.002f, 0.5f)), l.in_zero_point = r.uniform(-128, 127);
    l.out_scale = bits(1.0f / 256), l.out_zero_point = -128;
    a[i] = l;
  }
  return a;
}
inline constexpr auto softmaxes = softmax_layers();

template <const auto& Table, std::size_t I>
std::vector<std::int8_t> run(const std::vector<std::int8_t>& x) {
  constexpr kernel_params p = int8_test::layer_params<Table, I>();
  std::vector<std::int8_t> out(static_cast<std::size_t>(p.out.elements()));
  const void* const operands[] = {x.data(), nullptr};
  ctnn::kernel::invoke<p>(operands, out.data());
  return out;
}

template <const auto& Table, std::size_t... I>
void check_activations(bool sigmoid, std::index_sequence<I...>) {
  std::vector<std::int8_t> all(256);
  for (int v = 0; v < 256; ++v) all[static_cast<std::size_t>(v)] = static_cast<std::int8_t>(v - 128);
  int worst = 0;
  const auto one = [&](auto index) {
    constexpr std::size_t i = decltype(index)::value;
    constexpr const layer& l = Table[i];
    const std::vector<std::int8_t> got = run<Table, i>(all);
    CHECK_MESSAGE(got == reference_logistic_or_tanh(all, scale_of(l.in_scale), l.in_zero_point, sigmoid), std::string
                  (sigmoid ? "logistic" : "tanh") << " #" << i << " scale " << scale_of(l.in_scale) << " zp " << l.in_zero_point);
    for (int v = 0; v < 256; ++v) {
      const double real = scale_of(l.in_scale) * (v - 128 - l.in_zero_point);
      const double ideal = sigmoid ? 1.0 / (1.0 + std::exp(-real)) * 256.0 - 128.0 : std::tanh(real) * 128.0;
      worst = std::max(worst, static_cast<int>(std::ceil(std::abs(got[static_cast<std::size_t>(v)] - std::min(127.0, std::round(ideal))))));
    }
  };
  (one(std::integral_constant<std::size_t, I>{}), ...);
  CHECK(worst <= 1);
  MESSAGE(std::string(sigmoid ? "logistic" : "tanh") << ": " << sizeof...(I) << " quantizations x 256 inputs; at most " << worst << " LSB from the real function");
}

template <std::size_t... I>
void check_softmaxes(std::index_sequence<I...>) {
  std::mt19937 rng(23);
  int rows = 0;
  const auto one = [&](auto index) {
    constexpr std::size_t i = decltype(index)::value;
    constexpr const layer& l = softmaxes[i];
    std::vector<std::int8_t> x = int8_test::random_int8(static_cast<std::size_t>(l.in.elements()), rng);
    if (i % 3 == 0) for (auto& v : x) v = static_cast<std::int8_t>(v / 16);  // close values: no saturation
    const std::vector<std::int8_t> got = run<softmaxes, i>(x);
    CHECK_MESSAGE(got == reference_softmax(x, l.in.last(), scale_of(l.in_scale)), "softmax #" << i);
    rows += l.in[0];
  };
  (one(std::integral_constant<std::size_t, I>{}), ...);
  MESSAGE("softmax: " << rows << " random rows");
}

}  // namespace

TEST_CASE("int8 logistic equals TFLite's fixed-point recipe for every input, many quantizations") {
  check_activations<logistics>(true, std::make_index_sequence<logistics.size()>{});
}

TEST_CASE("int8 tanh equals TFLite's fixed-point recipe for every input, many quantizations") {
  check_activations<tanhs>(false, std::make_index_sequence<tanhs.size()>{});
}

TEST_CASE("int8 softmax equals TFLite's fixed-point recipe") {
  check_softmaxes(std::make_index_sequence<softmaxes.size()>{});
}

TEST_CASE("fixed-point building blocks at compile time") {
  namespace fp = ctnn::kernel::reference::int8::fixed_point;
  static_assert(fp::exp_on_negative_values<5>(0) == std::numeric_limits<std::int32_t>::max());  // exp(0) = 1
  static_assert(fp::logistic_q4(0) == 1 << 30);                                                 // 1/2
  static_assert(fp::tanh_q4(0) == 0);
  static_assert(fp::exp_on_negative_values<5>(-(1 << 26)) > 790000000 && fp::exp_on_negative_values<5>(-(1 << 26)) < 790030000);  // exp(-1)
  CHECK(fp::exp_on_negative_values<5>(-(1 << 26)) == exp_on_negative_values(fixed<5>{-(1 << 26)}).raw);
  CHECK(std::abs(fp::exp_on_negative_values<5>(-(3 << 25)) / 2147483648.0 - std::exp(-1.5)) < 1e-6);
}
