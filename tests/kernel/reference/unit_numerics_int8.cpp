// int8 numerics at the edges (issue #12; docs/numerics.md): TFLite's requantization arithmetic at the ends
// of its ranges, checked against the second implementation in kernels/int8_test_support.hpp (int64 floor
// divisions and <cmath>): int32 extremes, shifts near -31 and +31, multipliers over many binades
// (per-channel weight scales from 2^-40 to 2^8), saturation of outputs at both ends with zero points at
// -128 and 127; ONNX's float-scale quantization at its ends; QLinearMul and QLinearAdd against results recorded
// from onnxruntime 1.30 on x86-64; int8 softmax with equal and extreme logits.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/int8/requantize.hpp>
#include <ctnn/kernel/reference/int16_softmax.hpp>
#include <ctnn/kernel/reference/int8/softmax.hpp>
#include <ctnn/kernel/reference/onnx_quant/add.hpp>
#include <ctnn/kernel/reference/onnx_quant/mul.hpp>
#include <ctnn/kernel/reference/onnx_quant/rounding.hpp>

#include "kernel/int8_test_support.hpp"

namespace {

namespace q = ctnn::detail::quant;
namespace ref = int8_test::ref;
namespace onnx_quant = ctnn::kernel::reference::onnx_quant;

constexpr std::int32_t int32_min = std::numeric_limits<std::int32_t>::min();
constexpr std::int32_t int32_max = std::numeric_limits<std::int32_t>::max();

// Accumulators at and next to the int32 ends, and small ones.
constexpr std::array<std::int32_t, 13> accumulators{int32_min, int32_min + 1, -1073741824, -65536, -129, -1, 0, 1, 127,
                                                    65535, 1073741823, int32_max - 1, int32_max};

}  // namespace

// The int16 softmax's tables are computed in constant evaluation (exp in double, rounded to float); TFLM
// computes them at run time with <cmath>'s expf: the same values on this host, entry for entry.
TEST_CASE("int16 softmax tables equal TFLite's LUTPopulate<int16_t> with <cmath>") {
  namespace r = ctnn::kernel::reference::int16;
  const r::lookup_table exp_table =
      r::detail::populate(10.0f / 65535.0f, 32767, 2.0f / 65535.0f, 0, [](float x) { return std::exp(x); });
  const r::lookup_table one_over_one_plus_x_table =
      r::detail::populate(1.0f / 65535.0f, -32768, 2.0f / 65535.0f, 0, [](float x) { return 1.0f / (1.0f + x); });
  CHECK(exp_table == r::exp_table());
  CHECK(one_over_one_plus_x_table == r::one_over_one_plus_x_table());
  CHECK((r::exp_table()[512] == 32767 && r::one_over_one_plus_x_table()[0] == 32767 && r::one_over_one_plus_x_table()[512] == 16384));
}

TEST_CASE("MultiplyByQuantizedMultiplier at int32's ends and shifts near -31 equals the int64 reference") {
  // Right shifts down to 31 (the multiplier's mantissa in [2^30, 2^31), and 2^31 - 1).
  for (const std::int32_t multiplier : {1 << 30, 1518500250, int32_max})
    for (std::int32_t shift = -31; shift <= 0; ++shift)
      for (const std::int32_t x : accumulators) {
        CAPTURE(x);
        CAPTURE(multiplier);
        CAPTURE(shift);
        REQUIRE(q::multiply_by_quantized_multiplier(x, multiplier, shift) == ref::mbqm(x, multiplier, shift));
      }
  // Left shifts up to 30: the shifted accumulator wraps like int32 arithmetic, as in TFLite.
  for (std::int32_t shift = 1; shift <= 30; ++shift)
    for (const std::int32_t x : accumulators) {
      CAPTURE(x);
      CAPTURE(shift);
      REQUIRE(q::multiply_by_quantized_multiplier(x, 1 << 30, shift) == ref::mbqm(x, 1 << 30, shift));
    }
  // The one saturating product of SaturatingRoundingDoublingHighMul.
  CHECK(q::saturating_rounding_doubling_high_mul(int32_min, int32_min) == int32_max);
  CHECK(q::rounding_divide_by_pot(int32_min, 31) == -1);
  CHECK(q::rounding_divide_by_pot(int32_max, 31) == 1);
  CHECK(q::rounding_divide_by_pot(-(1 << 30), 31) == -1);  // -0.5 rounds away from zero
  CHECK(q::rounding_divide_by_pot((1 << 30) - 1, 31) == 0);
}

TEST_CASE("QuantizeMultiplier over 70 binades equals frexp/round from <cmath>, flushes below 2^-32") {
  for (std::int32_t e = -45; e <= 24; ++e)
    for (const double mantissa : {0.5, 0.5000000001, 0.70710678118654757, 0.99999999976716936, 0.9999999999}) {
      const double real = std::ldexp(mantissa, e);
      const q::quantized_multiplier got = q::quantize_multiplier(real);
      const ref::multiplier want = ref::quantize_multiplier(real);
      CAPTURE(real);
      REQUIRE(got.multiplier == want.m);
      REQUIRE(got.shift == want.shift);
      if (got.multiplier == 0) continue;
      REQUIRE(got.multiplier >= (1 << 30));
      // real ~= multiplier * 2^(shift - 31), to half a unit of the Q31 mantissa.
      const double back = std::ldexp(static_cast<double>(got.multiplier), got.shift - 31);
      REQUIRE(std::abs(back - real) <= std::ldexp(1.0, got.shift - 32));
    }
  CHECK(q::quantize_multiplier(std::ldexp(1.0, -33)) == q::quantized_multiplier{0, 0});  // shift below -31: flushed
  CHECK(q::quantize_multiplier(std::ldexp(1.0, -32)) == q::quantized_multiplier{1 << 30, -31});
  // A mantissa that rounds up to 2^31 becomes 2^30 with the exponent one higher.
  CHECK(q::quantize_multiplier(0.99999999999) == q::quantized_multiplier{1 << 30, 1});
}

TEST_CASE("per-channel multipliers from weight scales across binades requantize like the reference") {
  const float input_scale = 0.0235f, output_scale = 0.0917f;
  int channels = 0;
  for (std::int32_t e = -40; e <= 8; e += 3) {
    const float weight_scale = std::ldexp(0.731f, e);
    const q::quantized_multiplier got = q::channel_multiplier(input_scale, weight_scale, output_scale);
    const ref::multiplier want = ref::quantize_multiplier(static_cast<double>(input_scale) * weight_scale / output_scale);
    CAPTURE(weight_scale);
    REQUIRE(got.multiplier == want.m);
    REQUIRE(got.shift == want.shift);
    for (const std::int32_t acc : accumulators)
      REQUIRE(q::multiply_by_quantized_multiplier(acc, got.multiplier, got.shift) == ref::mbqm(acc, want.m, want.shift));
    ++channels;
  }
  MESSAGE(channels << " channel scales from 2^-41 to 2^7");
}

namespace {
// The output stage's view of a kernel's parameters (what requantize_output reads).
struct output_stage {
  std::int32_t output_offset = 0;
  std::int32_t activation_min = -128;
  std::int32_t activation_max = 127;
};
}  // namespace

TEST_CASE("int8 outputs saturate at both ends, with zero points at -128 and 127") {
  const q::quantized_multiplier m = q::quantize_multiplier(0.75);
  for (const std::int32_t zero_point : {-128, -1, 0, 127}) {
    const output_stage stage{zero_point};
    const output_stage* p = &stage;
    for (const std::int32_t acc : accumulators) {
      const std::int64_t exact = static_cast<std::int64_t>(ref::mbqm(acc, m.multiplier, m.shift)) + zero_point;
      const std::int32_t want = ref::clamp(exact, -128, 127);
      CAPTURE(acc);
      CAPTURE(zero_point);
      REQUIRE(ctnn::kernel::reference::int8::requantize_output(p, acc, m.multiplier, m.shift) == want);
    }
    CHECK(ctnn::kernel::reference::int8::requantize_output(p, int32_max, m.multiplier, m.shift) == 127);
    CHECK(ctnn::kernel::reference::int8::requantize_output(p, int32_min, m.multiplier, m.shift) == -128);
  }
  // A fused relu6 range in the output's quantization (zero point -128: 0.0 is -128).
  const q::activation_bounds relu6 = q::quantized_activation_range(ctnn::activation::relu6, 6.0f / 255.0f, -128);
  CHECK(relu6.min == -128);
  CHECK(relu6.max == 127);
  const q::activation_bounds high_zero = q::quantized_activation_range(ctnn::activation::relu, 0.1f, 127);
  CHECK(high_zero.min == 127);  // relu with zero point 127: every output is 0.0
  // Float inputs quantized to int8 (TFLM's FloatToQuantizedType): saturation, NaN to the zero point.
  CHECK(q::float_to_int8(1e30f, 0.01f, 127) == 127);
  CHECK(q::float_to_int8(-1e30f, 0.01f, -128) == -128);
  CHECK(q::float_to_int8(std::numeric_limits<float>::infinity(), 0.5f, 0) == 127);
  CHECK(q::float_to_int8(-std::numeric_limits<float>::infinity(), 0.5f, 0) == -128);
  CHECK(q::float_to_int8(std::numeric_limits<float>::quiet_NaN(), 0.5f, 5) == 5);
  CHECK(q::float_to_int8(-0.0f, 0.5f, -128) == -128);
  CHECK(q::float_to_int8(-1.25f, 0.5f, 0) == -3);  // round half away from zero
}

TEST_CASE("ONNX's float-scale quantization at its ends: round half to even, saturation, NaN") {
  using onnx_quant::quantize_value;
  CHECK(quantize_value<std::int8_t>(2.5f, 1.0f, 0) == 2);  // half to even
  CHECK(quantize_value<std::int8_t>(-2.5f, 1.0f, 0) == -2);
  CHECK(quantize_value<std::int8_t>(3.5f, 1.0f, 0) == 4);
  CHECK(quantize_value<std::int8_t>(1e9f, 0.01f, 127) == 127);
  CHECK(quantize_value<std::int8_t>(-1e9f, 0.01f, -128) == -128);
  CHECK(quantize_value<std::int8_t>(0.0f, 1.0f, 127) == 127);
  CHECK(quantize_value<std::int8_t>(1.0f, 1.0f, 127) == 127);  // zero point at the top: saturates at once
  CHECK(quantize_value<std::uint8_t>(-1.0f, 1.0f, 0) == 0);
  CHECK(quantize_value<std::uint8_t>(1e38f, 1e-38f, 255) == 255);  // x / scale overflows to +inf
  CHECK(quantize_value<std::uint8_t>(std::numeric_limits<float>::quiet_NaN(), 1.0f, 17) == 17);
  CHECK(quantize_value<std::int8_t>(-std::numeric_limits<float>::infinity(), 1.0f, 0) == -128);
  CHECK(quantize_value<std::int8_t>(std::ldexp(1.0f, -140), 1.0f, 0) == 0);  // a denormal
  // The requantization of QLinearConv/QLinearMatMul: an infinite multiplier (a denormal output scale)
  // saturates, a zero accumulator stays the zero point.
  const float huge = onnx_quant::output_multiplier(1.0f, 1.0f, std::ldexp(1.0f, -140));
  CHECK(onnx_quant::requantize_value<std::uint8_t>(5, huge, 10) == 255);
  CHECK(onnx_quant::requantize_value<std::int8_t>(-5, huge, 10) == -128);
  CHECK(onnx_quant::dequantize_value(-128, 0.5f, 127) == -127.5f);
}

namespace {
// A QLinearMul / QLinearAdd element recorded from onnxruntime 1.30.0 (onnxruntime-node, x86-64 with AVX2) on a
// DequantizeLinear -> Mul/Add -> QuantizeLinear model of all 65,536 pairs of one scale set: y of (a, b).
struct recorded_pair {
  bool is_u8;
  float a_scale;
  std::int32_t a_zero_point;
  float b_scale;
  std::int32_t b_zero_point;
  float y_scale;
  std::int32_t y_zero_point;
  std::int32_t a, b, y;
};
// Mul: pairs where an fma of the product and the zero point (4 per set), or MLAS's portable kernel (2 per set),
// gives another result.
constexpr recorded_pair recorded_mul[] = {
    {true, 0x1.99999ap-4f, 144, 0x1.99999ap-4f, 73, 0x1.47ae14p-6f, 8, 123, 72, 18},
    {true, 0x1.99999ap-4f, 144, 0x1.99999ap-4f, 73, 0x1.47ae14p-6f, 8, 127, 72, 16},
    {true, 0x1.99999ap-4f, 144, 0x1.99999ap-4f, 73, 0x1.47ae14p-6f, 8, 135, 72, 12},
    {true, 0x1.99999ap-4f, 144, 0x1.99999ap-4f, 73, 0x1.47ae14p-6f, 8, 137, 70, 18},
    {true, 0x1.99999ap-4f, 144, 0x1.99999ap-4f, 73, 0x1.47ae14p-6f, 8, 7, 72, 77},
    {true, 0x1.99999ap-4f, 144, 0x1.99999ap-4f, 73, 0x1.47ae14p-6f, 8, 11, 72, 75},
    {false, 0x1.47ae14p-6f, 90, 0x1.0624dep-8f, -97, 0x1.a36e2ep-10f, -119, -124, -102, -66},
    {false, 0x1.47ae14p-6f, 90, 0x1.0624dep-8f, -97, 0x1.a36e2ep-10f, -119, -116, -102, -68},
    {false, 0x1.47ae14p-6f, 90, 0x1.0624dep-8f, -97, 0x1.a36e2ep-10f, -119, -108, -102, -70},
    {false, 0x1.47ae14p-6f, 90, 0x1.0624dep-8f, -97, 0x1.a36e2ep-10f, -119, -100, -102, -72},
    {false, 0x1.47ae14p-6f, 90, 0x1.0624dep-8f, -97, 0x1.a36e2ep-10f, -119, -125, -115, 75},
    {false, 0x1.47ae14p-6f, 90, 0x1.0624dep-8f, -97, 0x1.a36e2ep-10f, -119, -121, -107, -13},
    {false, 0x1.eb851ep-6f, 89, 0x1.1eb852p-4f, -43, 0x1p-1f, 7, -36, -23, -4},
    {false, 0x1.eb851ep-6f, 89, 0x1.1eb852p-4f, -43, 0x1p-1f, 7, -11, -18, -4},
    {false, 0x1.eb851ep-6f, 89, 0x1.1eb852p-4f, -43, 0x1p-1f, 7, 39, 7, -4},
    {false, 0x1.eb851ep-6f, 89, 0x1.1eb852p-4f, -43, 0x1p-1f, 7, 64, 57, -4},
    {false, 0x1.eb851ep-6f, 89, 0x1.1eb852p-4f, -43, 0x1p-1f, 7, 69, 82, -4},
};
// Add of a first operand broadcast along the result's innermost dim ([256, 1] + [256, 256]): pairs where
// the formula with the operands in ONNX's order gives another result than onnxruntime, which swaps them.
constexpr recorded_pair recorded_add_first_scalar[] = {
    {true, 0x1p+0f, 65, 0x1.24924ap-1f, 100, 0x1.24924ap-1f, 38, 3, 171, 0},
    {true, 0x1p+0f, 65, 0x1.24924ap-1f, 100, 0x1.24924ap-1f, 38, 3, 173, 2},
    {true, 0x1p+0f, 65, 0x1.24924ap-1f, 100, 0x1.24924ap-1f, 38, 3, 175, 4},
    {true, 0x1p+0f, 65, 0x1.24924ap-1f, 100, 0x1.24924ap-1f, 38, 3, 177, 6},
    {true, 0x1p+0f, 65, 0x1.24924ap-1f, 100, 0x1.24924ap-1f, 38, 3, 179, 8},
    {false, 0x1.2aaaaap+0f, 74, 0x1.555556p-1f, -103, 0x1.555556p-1f, -66, 4, -42, -127},
    {false, 0x1.2aaaaap+0f, 74, 0x1.555556p-1f, -103, 0x1.555556p-1f, -66, 4, -40, -125},
    {false, 0x1.2aaaaap+0f, 74, 0x1.555556p-1f, -103, 0x1.555556p-1f, -66, 4, -38, -123},
    {false, 0x1.2aaaaap+0f, 74, 0x1.555556p-1f, -103, 0x1.555556p-1f, -66, 4, -36, -121},
    {false, 0x1.2aaaaap+0f, 74, 0x1.555556p-1f, -103, 0x1.555556p-1f, -66, 8, -49, -127},
};

ctnn::kernel_params binary_params(ctnn::op_kind kind, const recorded_pair& r, const ctnn::shape& a, const ctnn::shape& b,
                                  const ctnn::shape& y) {
  ctnn::kernel_params p{};
  p.kind = kind;
  p.type = p.out_type = r.is_u8 ? ctnn::dtype::u8 : ctnn::dtype::i8;
  p.in = a, p.in2 = b, p.out = y;
  p.input_offset = -r.a_zero_point, p.input2_offset = -r.b_zero_point, p.output_offset = r.y_zero_point;
  p.onnx.input_scale_bits = std::bit_cast<std::uint32_t>(r.a_scale);
  p.onnx.input2_scale_bits = std::bit_cast<std::uint32_t>(r.b_scale);
  p.onnx.output_scale_bits = std::bit_cast<std::uint32_t>(r.y_scale);
  return p;
}

// The kernel of `kind` on one pair of T (with `swapped`, the second operand and its quantization first).
template <class T>
std::int32_t run_pair(ctnn::op_kind kind, recorded_pair r, bool swapped) {
  if (swapped) r = {r.is_u8, r.b_scale, r.b_zero_point, r.a_scale, r.a_zero_point, r.y_scale, r.y_zero_point, r.b, r.a, r.y};
  const ctnn::shape one = ctnn::make_shape(1);
  const ctnn::kernel_params p = binary_params(kind, r, one, one, one);
  const T a = static_cast<T>(r.a), b = static_cast<T>(r.b);
  T y{};
  if (kind == ctnn::op_kind::mul) onnx_quant::mul(&p, &a, &b, &y);
  else onnx_quant::add(&p, &a, &b, &y);
  return y;
}
std::int32_t run_pair(ctnn::op_kind kind, const recorded_pair& r, bool swapped = false) {
  return r.is_u8 ? run_pair<std::uint8_t>(kind, r, swapped) : run_pair<std::int8_t>(kind, r, swapped);
}
}  // namespace

TEST_CASE("QLinearMul equals onnxruntime 1.30's x86-64 results where other roundings differ; its conversion's ends") {
  for (const recorded_pair& r : recorded_mul) {
    CAPTURE(r.a);
    CAPTURE(r.b);
    CHECK(run_pair(ctnn::op_kind::mul, r) == r.y);
    CHECK(run_pair(ctnn::op_kind::mul, r, true) == r.y);  // symmetric: a broadcast scalar may come first
  }
  // A scaled product beyond int32 converts to INT_MIN (_mm_cvtps_epi32), the type's lowest value, not its highest.
  const float ratio = onnx_quant::mul_ratio(100.0f, 100.0f, 0.1f);
  CHECK(onnx_quant::converted<std::uint8_t>(onnx_quant::mul_value(ratio, 0.0f, 255 * 255)) == 0);
  CHECK(onnx_quant::converted<std::uint8_t>(onnx_quant::mul_value(ratio, 0.0f, 20)) == 255);
  CHECK(onnx_quant::converted<std::int8_t>(onnx_quant::mul_value(ratio, 0.0f, -255 * 128)) == -128);
  CHECK(onnx_quant::converted<std::int8_t>(std::numeric_limits<float>::quiet_NaN()) == -128);
  CHECK(onnx_quant::converted<std::int8_t>(2.5f) == 2);  // half to even
  CHECK(onnx_quant::converted<std::uint8_t>(3.5f) == 4);
}

TEST_CASE("QLinearAdd with a broadcast first operand: onnxruntime's swapped operands, recorded") {
  for (const recorded_pair& r : recorded_add_first_scalar) {
    CAPTURE(r.a);
    CAPTURE(r.b);
    CHECK(run_pair(ctnn::op_kind::add, r, true) == r.y);   // as the importer builds it
    CHECK(run_pair(ctnn::op_kind::add, r, false) != r.y);  // ONNX's order: another rounding
  }
}

TEST_CASE("QLinearMul and QLinearAdd broadcast: each result from its operands' elements") {
  // a [2, 1, 3] x b [4, 1] -> y [2, 4, 3] (a row of recorded_mul's first scale set), against one-pair calls.
  const recorded_pair& r = recorded_mul[0];
  const std::array<std::uint8_t, 6> a{123, 127, 135, 137, 7, 11};
  const std::array<std::uint8_t, 4> b{72, 70, 0, 255};
  for (const ctnn::op_kind kind : {ctnn::op_kind::mul, ctnn::op_kind::add}) {
    const ctnn::kernel_params p = binary_params(kind, r, ctnn::make_shape(2, 1, 3), ctnn::make_shape(4, 1), ctnn::make_shape(2, 4, 3));
    std::array<std::uint8_t, 24> y{};
    if (kind == ctnn::op_kind::mul) onnx_quant::mul(&p, a.data(), b.data(), y.data());
    else onnx_quant::add(&p, a.data(), b.data(), y.data());
    for (std::size_t i = 0; i < 2; ++i)
      for (std::size_t j = 0; j < 4; ++j)
        for (std::size_t k = 0; k < 3; ++k) {
          recorded_pair one = r;
          one.a = a[i * 3 + k], one.b = b[j];
          CHECK(y[(i * 4 + j) * 3 + k] == run_pair(kind, one));
        }
  }
}

namespace {
// The softmax kernel's parameters for an int8 input of `scale` (beta 1; the output is TFLite's 1/256, -128).
ctnn::kernel_params softmax_params(std::int32_t depth, float scale) {
  ctnn::kernel_params p{};
  p.in = p.out = ctnn::make_shape(1, depth);
  const q::quantized_multiplier m = q::softmax_input_multiplier(1.0, static_cast<double>(scale), 5);
  p.input_multiplier = m.multiplier;
  p.input_shift = m.shift;
  p.output_offset = -128;
  return p;
}
std::vector<std::int8_t> softmax(const std::vector<std::int8_t>& logits, float scale) {
  const ctnn::kernel_params p = softmax_params(static_cast<std::int32_t>(logits.size()), scale);
  std::vector<std::int8_t> out(logits.size());
  ctnn::kernel::reference::int8::softmax(&p, logits.data(), out.data());
  return out;
}
}  // namespace

TEST_CASE("int8 softmax: equal logits share the probability, extreme logits saturate") {
  for (const std::int8_t value : {std::int8_t{-128}, std::int8_t{0}, std::int8_t{127}})
    for (const std::size_t depth : {1u, 2u, 3u, 4u, 10u, 256u}) {
      const std::vector<std::int8_t> out = softmax(std::vector<std::int8_t>(depth, value), 0.1f);
      const double share = 256.0 / static_cast<double>(depth) - 128.0;  // 1/depth in the output quantization
      CAPTURE(int{value});
      CAPTURE(depth);
      for (const std::int8_t y : out) {
        REQUIRE(y == out[0]);
        REQUIRE(std::abs(y - std::min(share, 127.0)) <= 1.0);
      }
    }
  // One logit far above the others: it takes everything (1.0 saturates at 127), the rest are 0 (-128).
  for (const float scale : {0.05f, 1.0f, 16.0f}) {
    std::vector<std::int8_t> logits(8, -128);
    logits[3] = 127;
    const std::vector<std::int8_t> out = softmax(logits, scale);
    CAPTURE(scale);
    CHECK(out[3] == 127);
    for (std::size_t c = 0; c < out.size(); ++c)
      if (c != 3) CHECK(out[c] == -128);
  }
  // Two logits at the top: half each (0.5 = 0 in the output quantization).
  const std::vector<std::int8_t> two = softmax({127, -128, 127, -128}, 1.0f);
  CHECK(two == std::vector<std::int8_t>{0, -128, 0, -128});
}
