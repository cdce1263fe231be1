// The element-wise math descriptors of one operand (ops/unary_math.hpp and the 13 kinds built on it): which
// element types have kernels, the float32 kernels in constant evaluation (fold_constants) against <cmath> at
// run time, a folded constant, and the int8 recipes and kernels of ABS and RSQRT against TFLite Micro's.
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include <doctest/doctest.h>

#include <ctnn/ctnn.hpp>
#include <ctnn/frontend/dsl.hpp>
#include <ctnn/ops/registry.hpp>
#include <ctnn/runtime/constants.hpp>

namespace {

using ctnn::dtype;
using ctnn::op_kind;
namespace ops = ctnn::ops;
namespace fp = ctnn::kernel::reference::int8::fixed_point;

constexpr std::array<op_kind, 13> unary_math_kinds{op_kind::abs,   op_kind::neg,   op_kind::sqrt,  op_kind::rsqrt, op_kind::exp,
                                                   op_kind::log,   op_kind::sin,   op_kind::cos,   op_kind::floor, op_kind::ceil,
                                                   op_kind::round, op_kind::square, op_kind::reciprocal};

// float32 for all; int8 only where TFLM has an int8 kernel (ABS, RSQRT); each is element-wise and may write
// its result over its input.
static_assert([] {
  for (const op_kind k : unary_math_kinds) {
    const bool int8 = k == op_kind::abs || k == op_kind::rsqrt;
    if (!ctnn::kernel::has_kernel(k, dtype::f32) || ctnn::kernel::has_kernel(k, dtype::i8) != int8 ||
        ctnn::kernel::has_kernel(k, dtype::u8) || !ctnn::memory::may_write_over(k, 0) ||
        !ops::visit_or(k, false, [](auto d) { return d.elementwise; }))
      return false;
  }
  return true;
}());

// The float32 kernel the dispatch runs for kind K.
template <op_kind K, std::size_t N>
constexpr std::array<float, N> run_f32(const std::array<float, N>& x) {
  ctnn::kernel_params p{};
  p.kind = K;
  p.in = p.out = ctnn::make_shape(static_cast<std::int32_t>(N));
  std::array<float, N> y{};
  const float* operands[] = {x.data()};
  ctnn::kernel::detail::run_f32<K>(&p, operands, y.data());
  return y;
}

constexpr float inf = std::numeric_limits<float>::infinity();
constexpr float nan = std::numeric_limits<float>::quiet_NaN();
constexpr std::uint32_t bits(float x) { return std::bit_cast<std::uint32_t>(x); }

// Exact results in constant evaluation, signs of zero included.
static_assert(run_f32<op_kind::floor>(std::array{-2.5f, -0.5f, 0.5f, -0.0f, 8388609.0f, -inf}) ==
              std::array{-3.0f, -1.0f, 0.0f, -0.0f, 8388609.0f, -inf});
static_assert(bits(run_f32<op_kind::floor>(std::array{-0.0f})[0]) == bits(-0.0f));
static_assert(run_f32<op_kind::ceil>(std::array{-2.5f, -0.5f, 0.5f, 2.0f, -8388609.0f, inf}) ==
              std::array{-2.0f, -0.0f, 1.0f, 2.0f, -8388609.0f, inf});
static_assert(bits(run_f32<op_kind::ceil>(std::array{-0.5f})[0]) == bits(-0.0f));
// ROUND: halves to even (TFLite's RoundToNearest, ONNX Round); beyond 2^23 every float is integral.
static_assert(run_f32<op_kind::round>(std::array{0.5f, 1.5f, 2.5f, -2.5f, -3.5f, 3.7f, -0.49999997f, 8388607.5f, 1e30f}) ==
              std::array{0.0f, 2.0f, 2.0f, -2.0f, -4.0f, 4.0f, 0.0f, 8388608.0f, 1e30f});
static_assert(run_f32<op_kind::abs>(std::array{-3.0f, 2.0f, -inf}) == std::array{3.0f, 2.0f, inf});
static_assert(bits(run_f32<op_kind::abs>(std::array{-0.0f})[0]) == 0 &&
              bits(run_f32<op_kind::abs>(std::array{-nan})[0]) == bits(nan));  // the sign bit cleared, as fabsf
static_assert(run_f32<op_kind::neg>(std::array{-3.0f, 2.0f}) == std::array{3.0f, -2.0f});
static_assert(run_f32<op_kind::square>(std::array{-3.0f, 1e20f}) == std::array{9.0f, inf});
static_assert(run_f32<op_kind::reciprocal>(std::array{4.0f, -0.0f}) == std::array{0.25f, -inf});
static_assert(run_f32<op_kind::sqrt>(std::array{4.0f, 0.0f, inf, 2.25f}) == std::array{2.0f, 0.0f, inf, 1.5f});
static_assert(run_f32<op_kind::rsqrt>(std::array{4.0f, 0.0f, 0.25f}) == std::array{0.5f, inf, 2.0f});
static_assert(run_f32<op_kind::exp>(std::array{0.0f, -inf, 100.0f}) == std::array{1.0f, 0.0f, inf});
static_assert(run_f32<op_kind::log>(std::array{1.0f, 0.0f, inf}) == std::array{0.0f, -inf, inf});
static_assert(run_f32<op_kind::sin>(std::array{0.0f})[0] == 0.0f && run_f32<op_kind::cos>(std::array{0.0f})[0] == 1.0f);
// NaN where <cmath> gives NaN: square roots and logarithms of negatives, sine and cosine of infinities.
static_assert([] {
  const std::array<float, 5> y{run_f32<op_kind::sqrt>(std::array{-1.0f})[0], run_f32<op_kind::rsqrt>(std::array{-1.0f})[0],
                               run_f32<op_kind::log>(std::array{-1.0f})[0], run_f32<op_kind::sin>(std::array{inf})[0],
                               run_f32<op_kind::cos>(std::array{-inf})[0]};
  for (const float v : y)
    if (v == v) return false;
  return true;
}());

// Inputs for the comparison of the constant-evaluated functions with <cmath>.
// Beyond 2^19 sin and cos reduce their argument the Payne-Hanek way (ctnn::detail::math).
constexpr std::array<float, 21> samples{1e-30f, 1e-7f, 0.1f, 0.5f, 0.75f, 1.0f, 1.4142135f, 2.0f, 3.1415927f, 10.0f, 33.3f,
                                        87.0f, 1000.0f, 12345.678f, 524287.9f, 524288.0f, 1e6f, 16777215.0f, 1e10f, 1e20f,
                                        3e38f};
constexpr std::array<float, 2 * samples.size()> signed_samples() {
  std::array<float, 2 * samples.size()> x{};
  for (std::size_t i = 0; i < samples.size(); ++i) {
    x[2 * i] = samples[i];
    x[2 * i + 1] = -samples[i];
  }
  return x;
}

// Folded (constant-evaluated) and run-time results agree to within float rounding of the double result:
// 2 ulp relative, or 1e-7 absolute near the zeros of sin and cos (their arguments are rounded floats).
template <op_kind K>
void check_folded_matches_cmath(float (*reference)(float)) {
  constexpr auto x = signed_samples();
  constexpr auto folded = run_f32<K>(x);
  const auto at_run_time = run_f32<K>(x);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const float want = reference(x[i]);
    CAPTURE(ctnn::name_of(K));
    CAPTURE(x[i]);
    CHECK((at_run_time[i] == want || (std::isnan(want) && std::isnan(at_run_time[i]))));  // <cmath>'s
    if (std::isnan(want)) {
      CHECK(std::isnan(folded[i]));
    } else if (std::isinf(want)) {
      CHECK(folded[i] == want);
    } else {
      CHECK(std::fabs(folded[i] - want) <= 2.4e-7f * std::fabs(want) + 1e-7f);
    }
  }
}

TEST_CASE("unary math: the constant-evaluated float32 kernels (fold_constants) agree with <cmath>") {
  check_folded_matches_cmath<op_kind::sqrt>([](float v) { return std::sqrt(v); });
  check_folded_matches_cmath<op_kind::rsqrt>([](float v) { return 1.0f / std::sqrt(v); });
  check_folded_matches_cmath<op_kind::exp>([](float v) { return std::exp(v); });
  check_folded_matches_cmath<op_kind::log>([](float v) { return std::log(v); });
  check_folded_matches_cmath<op_kind::sin>([](float v) { return std::sin(v); });
  check_folded_matches_cmath<op_kind::cos>([](float v) { return std::cos(v); });
  check_folded_matches_cmath<op_kind::floor>([](float v) { return std::floor(v); });
  check_folded_matches_cmath<op_kind::ceil>([](float v) { return std::ceil(v); });
  check_folded_matches_cmath<op_kind::round>([](float v) { return std::nearbyint(v); });  // halves to even
}

// fold_constants computes a unary math op of a constant at compile time: y = x + log(c).
inline constexpr float c4[4] = {1.0f, 2.718281828f, 0.5f, 100.0f};
struct log_layer {
  static constexpr ctnn::dsl::layer_spec spec() { return {op_kind::log, {}, {}, 0, 1}; }
};
using log_of_constant =
    ctnn::dsl::graph<ctnn::dsl::outputs<"y">, ctnn::dsl::node<"x", ctnn::dsl::input<ctnn::f32, 1, 4>>,
                     ctnn::dsl::node<"c", ctnn::dsl::constant<c4, 1, 4>>, ctnn::dsl::node<"l", log_layer, "c">,
                     ctnn::dsl::node<"y", ctnn::dsl::add<>, "x", "l">>;
constexpr auto& folded_log = ctnn::stage_v<log_of_constant, ctnn::default_pipeline, 2>;
static_assert(folded_log.node_count == 1 && folded_log.node_at(0).kind == op_kind::add && folded_log.recipe_count == 1 &&
              folded_log.recipes[0].params().kind == op_kind::log);

TEST_CASE("unary math: fold_constants computes log of a constant at compile time") {
  constexpr auto& values = ctnn::constant_values_v<folded_log, 2>;
  REQUIRE(values.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) CHECK(values[i] == doctest::Approx(std::log(c4[i])).epsilon(1e-6));
}

// TFLM 90b983c2b's GetInvSqrtQuantizedMultiplierExp(x, kReverseShift, ...), printed by a scratch program
// linked with the oracle's libtensorflow-microlite.a.
static_assert(fp::inverse_sqrt_multiplier(0).multiplier == 2147483647 && fp::inverse_sqrt_multiplier(0).shift == 0);
static_assert(fp::inverse_sqrt_multiplier(1).multiplier == 2147483647 && fp::inverse_sqrt_multiplier(1).shift == 0);
static_assert(fp::inverse_sqrt_multiplier(2).multiplier == 1518498372 && fp::inverse_sqrt_multiplier(2).shift == 0);
static_assert(fp::inverse_sqrt_multiplier(3).multiplier == 1239850284 && fp::inverse_sqrt_multiplier(3).shift == 0);
static_assert(fp::inverse_sqrt_multiplier(4).multiplier == 1073741828 && fp::inverse_sqrt_multiplier(4).shift == 0);
static_assert(fp::inverse_sqrt_multiplier(7).multiplier == 811672556 && fp::inverse_sqrt_multiplier(7).shift == 0);
static_assert(fp::inverse_sqrt_multiplier(100).multiplier == 214748363 && fp::inverse_sqrt_multiplier(100).shift == 0);
static_assert(fp::inverse_sqrt_multiplier(255).multiplier == 268961290 && fp::inverse_sqrt_multiplier(255).shift == -1);
static_assert(fp::inverse_sqrt_multiplier(1000).multiplier == 271637587 && fp::inverse_sqrt_multiplier(1000).shift == -2);
static_assert(fp::inverse_sqrt_multiplier(123456).multiplier == 195579683 && fp::inverse_sqrt_multiplier(123456).shift == -5);
static_assert(fp::inverse_sqrt_multiplier(536870912).multiplier == 379624593 &&
              fp::inverse_sqrt_multiplier(536870912).shift == -12);
static_assert(fp::inverse_sqrt_multiplier(2147483647).multiplier == 189812531 &&
              fp::inverse_sqrt_multiplier(2147483647).shift == -12);

struct expected_multiplier {
  float input_scale, output_scale;
  std::int32_t multiplier, shift;
};

}  // namespace

TEST_CASE("abs's int8 recipe is TFLite Micro's (PrepareAbsRsqrt: input / output scale in float; none for equal scales)") {
  // TFLM 90b983c2b's QuantizeMultiplier(static_cast<double>(input_scale / output_scale)), printed by a
  // scratch program linked with the oracle's library (the scales of tests/data/ops/unary/abs_i8_*).
  for (const expected_multiplier e : {expected_multiplier{0.1f, 0.07f, 1533916928, 1}, {0.5f, 0.9f, 1193046528, 0},
                                      {1e-6f, 2e-6f, 1073741824, 0}, {100.0f, 201.0f, 2136799616, -1}}) {
    ctnn::kernel_params p{};
    ops::descriptor_of<op_kind::abs>::requantize({{e.input_scale, 0}, {}, {e.output_scale, 0}}, ctnn::node{}, p);
    CAPTURE(e.input_scale);
    CHECK(p.output_multiplier == e.multiplier);
    CHECK(p.output_shift == e.shift);
  }
  // Equal scales (TFLM: no rescale): the multiplier of 1, which gives every magnitude back exactly.
  ctnn::kernel_params same{};
  ops::descriptor_of<op_kind::abs>::requantize({{0.05f, 3}, {}, {0.05f, -7}}, ctnn::node{}, same);
  CHECK(same.output_multiplier == 1 << 30);
  CHECK(same.output_shift == 1);
  for (std::int32_t magnitude = 0; magnitude <= 256; ++magnitude)
    CHECK(ctnn::detail::quant::multiply_by_quantized_multiplier(magnitude, same.output_multiplier, same.output_shift) ==
          magnitude);
  // A ratio below 2^-32: multiplier 0, every result the output's zero point (TFLM's MultiplyByQuantizedMultiplier
  // of multiplier 0).
  ctnn::kernel_params tiny{};
  ops::descriptor_of<op_kind::abs>::requantize({{1e-6f, 0}, {}, {1e4f, 5}}, ctnn::node{}, tiny);
  CHECK(tiny.output_multiplier == 0);
}

TEST_CASE("rsqrt's int8 recipe is TFLite Micro's (PrepareAbsRsqrt: 1 / (sqrtf(input scale) * output scale))") {
  for (const expected_multiplier e : {expected_multiplier{0.05f, 0.02f, 1875749740, 8}, {0.2f, 0.01f, 1875749740, 8},
                                      {1e-6f, 10.0f, 1677721481, 7}, {100.0f, 0.001f, 1677721481, 7}}) {
    ctnn::kernel_params p{};
    ops::descriptor_of<op_kind::rsqrt>::requantize({{e.input_scale, 0}, {}, {e.output_scale, 0}}, ctnn::node{}, p);
    CAPTURE(e.input_scale);
    CHECK(p.output_multiplier == e.multiplier);
    CHECK(p.output_shift == e.shift);
  }
}

namespace {
template <op_kind K, std::size_t N>
std::array<std::int8_t, N> run_i8(const ops::quantized_operands& q, const std::array<std::int8_t, N>& x) {
  ctnn::kernel_params p{};
  p.kind = K;
  p.type = p.out_type = dtype::i8;
  p.in = p.out = ctnn::make_shape(static_cast<std::int32_t>(N));
  p.input_offset = -q.in.zero_point;  // compute_requantization's offsets
  p.output_offset = q.out.zero_point;
  ops::descriptor_of<K>::requantize(q, ctnn::node{}, p);
  std::array<std::int8_t, N> y{};
  const void* operands[] = {x.data()};
  ctnn::kernel::detail::run_i8<K>(&p, operands, y.data(), ctnn::kernel::requant_arrays{});
  return y;
}
}  // namespace

TEST_CASE("abs's int8 kernel: |x - zero point| rescaled when the scales differ, plus the output zero point, saturated") {
  // Equal scales: raw magnitudes, shifted to the output's zero point, saturated at 127.
  CHECK(run_i8<op_kind::abs>({{0.05f, 3}, {}, {0.05f, -7}}, std::array<std::int8_t, 5>{3, 4, 0, -128, 127}) ==
        std::array<std::int8_t, 5>{-7, -6, -4, 124, 117});
  CHECK(run_i8<op_kind::abs>({{0.05f, -128}, {}, {0.05f, 0}}, std::array<std::int8_t, 2>{-128, 127}) ==
        std::array<std::int8_t, 2>{0, 127});
  // Half the scale: the magnitude doubles (an exact multiplier: 2^30 * 2^1 / 2^31).
  CHECK(run_i8<op_kind::abs>({{0.1f, 0}, {}, {0.05f, -100}}, std::array<std::int8_t, 4>{0, -10, 10, 127}) ==
        std::array<std::int8_t, 4>{-100, -80, -80, 127});
  CHECK(run_i8<op_kind::abs>({{1e-6f, 0}, {}, {1e4f, 5}}, std::array<std::int8_t, 3>{0, -128, 127}) ==
        std::array<std::int8_t, 3>{5, 5, 5});
}

TEST_CASE("rsqrt's int8 kernel: 127 at the zero point, else 1 / sqrt in fixed point, saturated") {
  // Input scale 1/4, output scale 1/64, zero points -128 and -100: x - zp = 4, 16, 64 are the reals 1, 4, 16,
  // whose inverse square roots 1, 1/2, 1/4 are 64, 32, 16 steps above -100. At the zero point: 127.
  const auto y = run_i8<op_kind::rsqrt>({{0.25f, -128}, {}, {1.0f / 64, -100}}, std::array<std::int8_t, 4>{-124, -112, -64, -128});
  CHECK(y == std::array<std::int8_t, 4>{-36, -68, -84, 127});
  // Large results saturate: x - zp = 1 (real 1/4096): 64 * 64 steps.
  CHECK(run_i8<op_kind::rsqrt>({{1.0f / 4096, -128}, {}, {1.0f / 64, 0}}, std::array<std::int8_t, 1>{-127}) ==
        std::array<std::int8_t, 1>{127});
  // An output scale so large that the rescale shifts right by more than 31: the zero point.
  CHECK(run_i8<op_kind::rsqrt>({{1.0f, -128}, {}, {65536.0f, 3}}, std::array<std::int8_t, 2>{-127, 127}) ==
        std::array<std::int8_t, 2>{3, 3});
}
