#pragma once
// Shared by the int8 kernel tests:
//   * build_layer_module: a one-op ctnn::module described by an mlperf::layer, through infer_types and
//     lower_te (so the tests get kernel_params exactly as a compiled model would);
//   * ref::*: TFLite's integer arithmetic written a second time, independently of ctnn's
//     detail/quantization.hpp: floor-division formulas on int64 and <cmath> (std::frexp, std::round), at
//     run time only;
//   * a constexpr xorshift generator for randomised shapes.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include <ctnn/ir/module.hpp>
#include <ctnn/pass/infer_types.hpp>
#include <ctnn/pass/lower_te.hpp>

#include "kernel/mlperf_layer_table.hpp"

namespace int8_test {

using ctnn::op_kind;
using mlperf::layer;

constexpr bool has_weights(op_kind k) { return k == op_kind::conv2d || k == op_kind::depthwise_conv2d || k == op_kind::dense; }
constexpr bool two_inputs(op_kind k) { return k == op_kind::add || k == op_kind::mul || k == op_kind::concat; }

constexpr ctnn::quantization per_tensor(std::uint32_t scale_bits, std::int32_t zero_point) {
  ctnn::quantization q{};
  q.scale = std::bit_cast<float>(scale_bits);
  q.zero_point = zero_point;
  return q;
}

// Tensors: 0 input, 1 second input or weights, 2 bias, 3 output. Per-channel weight scales: `scales`
// (may be nullptr when only kernel_params are needed).
constexpr ctnn::module<4, 1> build_layer_module(const layer& l, const float* scales = nullptr) {
  ctnn::module<4, 1> m{};
  ctnn::tensor in{};
  in.dims = l.in;
  in.type = l.in_type;
  in.role = ctnn::tensor_role::input;
  in.io_index = 0;
  if (l.in_type == ctnn::dtype::i8) in.quant = per_tensor(l.in_scale, l.in_zero_point);
  m.add_tensor(in);
  ctnn::node n{};
  n.kind = l.kind;
  n.inputs = {0, -1, -1, -1, -1, -1, -1, -1};
  n.input_count = 1;
  n.attrs.fused = l.fused;
  if (has_weights(l.kind)) {
    ctnn::tensor w{};
    w.dims = l.weights;
    w.type = ctnn::dtype::i8;
    w.role = ctnn::tensor_role::constant;
    w.quant = per_tensor(l.weight_scale, 0);
    if (l.weight_channels > 1) {
      w.quant.channel_count = l.weight_channels;
      w.quant.axis = l.kind == op_kind::depthwise_conv2d ? 3 : 0;
      w.quant.scales = scales;
    }
    m.add_tensor(w);
    ctnn::tensor b{};
    const std::int32_t units = l.kind == op_kind::depthwise_conv2d ? l.weights[3] : l.weights[0];
    b.dims = ctnn::make_shape(units);
    b.type = ctnn::dtype::i32;
    b.role = ctnn::tensor_role::constant;
    m.add_tensor(b);
    n.inputs[1] = 1;
    n.inputs[2] = l.has_bias ? 2 : -1;
    n.input_count = 3;
    n.attrs.units = units;
  } else if (two_inputs(l.kind)) {
    ctnn::tensor in2{};
    in2.dims = l.in2;
    in2.type = ctnn::dtype::i8;
    in2.role = ctnn::tensor_role::input;
    in2.io_index = 1;
    in2.quant = per_tensor(l.in2_scale, l.in2_zero_point);
    m.add_tensor(in2);
    m.add_tensor(ctnn::tensor{});
    n.inputs[1] = 1;
    n.input_count = 2;
  } else {
    m.add_tensor(ctnn::tensor{});
    m.add_tensor(ctnn::tensor{});
  }
  ctnn::tensor out{};
  out.type = l.out_type;
  out.role = ctnn::tensor_role::output;
  out.io_index = 0;
  out.producer = 0;
  if (l.out_type == ctnn::dtype::i8) out.quant = per_tensor(l.out_scale, l.out_zero_point);
  n.output = m.add_tensor(out);
  auto& w = n.attrs.win;
  w.kernel_h = l.kernel_h, w.kernel_w = l.kernel_w, w.stride_h = l.stride_h, w.stride_w = l.stride_w;
  w.dilation_h = l.dilation_h, w.dilation_w = l.dilation_w, w.mode = l.pad;
  w.pad_top = l.pad_top, w.pad_left = l.pad_left, w.pad_bottom = l.pad_bottom, w.pad_right = l.pad_right;
  n.attrs.groups = l.groups;
  n.attrs.depth_multiplier = l.depth_multiplier;
  n.attrs.target = l.kind == op_kind::reshape ? l.out : ctnn::shape{};
  n.attrs.pad.before_after = l.pads;
  n.attrs.pad.fill_value_bits = std::bit_cast<std::uint32_t>(l.pad_value);
  n.attrs.axis = l.axis;
  n.attrs.mean.reduce_axes = l.reduce_axes;
  n.attrs.keep_dims = l.keep_dims;
  n.attrs.out_type = l.out_type;
  m.nodes[0] = n;
  m.node_count = 1;
  m.inputs[0] = 0;
  m.input_count = 1;
  m.outputs[0] = 3;
  m.output_count = 1;
  return ctnn::pass::lower_te::run(ctnn::pass::infer_types::run(m));
}

// The lowered module of layer I of a table (one constant evaluation per layer).
template <const auto& Table, std::size_t I>
inline constexpr auto layer_module_v = build_layer_module(Table[I]);

template <const auto& Table, std::size_t I>
constexpr ctnn::kernel_params layer_params() {
  constexpr const auto& m = layer_module_v<Table, I>;
  static_assert(!m.error.failed(), "a test layer did not go through infer_types + lower_te");
  static_assert(Table[I].out.rank == 0 || m.tensor_at(3).dims == Table[I].out,
                "infer_types disagrees with the layer table on an output shape");
  return m.calls[0].params;
}

// ---------------------------------------------------------------------------------------------------
// A constexpr xorshift32 generator (for shapes and scales chosen at compile time).
struct xorshift {
  std::uint32_t state;
  constexpr std::uint32_t next() {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state;
  }
  constexpr std::int32_t uniform(std::int32_t lo, std::int32_t hi) {  // [lo, hi]; hi - lo may exceed INT32_MAX
    const std::uint32_t span = static_cast<std::uint32_t>(hi) - static_cast<std::uint32_t>(lo) + 1u;
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(lo) + next() % span);
  }
  constexpr float uniform_float(float lo, float hi) {
    return lo + (hi - lo) * static_cast<float>(next() >> 8) / 16777216.0f;
  }
};
constexpr std::uint32_t bits(float f) { return std::bit_cast<std::uint32_t>(f); }

// ONNX's output stage (float(acc) * multiplier, round half to even): a power of two near the multiplier that
// brings `terms` products of 8-bit values into 8 bits, so that products land on .5 ties often
// (tests/kernel/simd/simd_i8_onnx.cpp, tests/baremetal/arm_kernels_onnx.cpp).
constexpr float typical_onnx_multiplier(std::int64_t terms) {
  float m = 1.0f;
  const double target = 64.0 / (128.0 * 128.0 * (terms < 4 ? 2.0 : static_cast<double>(terms) / 2.0));
  while (m > target) m *= 0.5f;
  return m;
}
constexpr float scale_of(std::uint32_t b) { return std::bit_cast<float>(b); }

// ---------------------------------------------------------------------------------------------------
// TFLite's arithmetic, second implementation (run time).
namespace ref {

inline std::int64_t floor_div(std::int64_t a, std::int64_t b) {  // b > 0
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// SaturatingRoundingDoublingHighMul = floor((a * b + 2^30) / 2^31), saturating only at INT32_MIN^2.
inline std::int32_t srdhm(std::int32_t a, std::int32_t b) {
  if (a == std::numeric_limits<std::int32_t>::min() && b == a) return std::numeric_limits<std::int32_t>::max();
  return static_cast<std::int32_t>(floor_div(static_cast<std::int64_t>(a) * b + (std::int64_t{1} << 30), std::int64_t{1} << 31));
}

// RoundingDivideByPOT = x / 2^e rounded to nearest, halves away from zero.
inline std::int32_t rdbpot(std::int32_t x, int e) {
  if (e == 0) return x;
  const std::int64_t half = std::int64_t{1} << (e - 1);
  const std::int64_t magnitude = x < 0 ? -static_cast<std::int64_t>(x) : x;
  const std::int64_t q = (magnitude + half) >> e;
  return static_cast<std::int32_t>(x < 0 ? -q : q);
}

// MultiplyByQuantizedMultiplier (double rounding); x * 2^left wraps like int32 arithmetic.
inline std::int32_t mbqm(std::int32_t x, std::int32_t multiplier, int shift) {
  const int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  const auto shifted = static_cast<std::int32_t>(static_cast<std::uint32_t>(x) * (std::uint32_t{1} << left));
  return rdbpot(srdhm(shifted, multiplier), right);
}

struct multiplier {
  std::int32_t m = 0;
  int shift = 0;
};

// QuantizeMultiplier with <cmath>.
inline multiplier quantize_multiplier(double real) {
  if (real == 0.0) return {};
  int shift = 0;
  const double q = std::frexp(real, &shift);
  auto fixed = static_cast<std::int64_t>(std::round(q * static_cast<double>(std::int64_t{1} << 31)));
  if (fixed == (std::int64_t{1} << 31)) fixed /= 2, ++shift;
  if (shift < -31) shift = 0, fixed = 0;
  return {static_cast<std::int32_t>(fixed), shift};
}

inline std::int32_t clamp(std::int64_t v, std::int32_t lo, std::int32_t hi) {
  return static_cast<std::int32_t>(v < lo ? lo : (v > hi ? hi : v));
}

// CalculateActivationRangeQuantized (int8) with <cmath>.
inline void activation_range(ctnn::activation a, float scale, std::int32_t zp, std::int32_t& lo, std::int32_t& hi) {
  const auto quantize = [&](float f) { return zp + static_cast<std::int32_t>(std::round(f / scale)); };
  lo = -128, hi = 127;
  if (a == ctnn::activation::relu || a == ctnn::activation::relu6) lo = std::max(std::int32_t{-128}, quantize(0.0f));
  if (a == ctnn::activation::relu6) hi = std::min(std::int32_t{127}, quantize(6.0f));
}

}  // namespace ref

// Random int8 / int32 data.
inline std::vector<std::int8_t> random_int8(std::size_t n, std::mt19937& rng) {
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<std::int8_t> v(n);
  for (auto& x : v) x = static_cast<std::int8_t>(d(rng));
  return v;
}
inline std::vector<std::int32_t> random_int32(std::size_t n, std::int32_t lo, std::int32_t hi, std::mt19937& rng) {
  std::uniform_int_distribution<std::int32_t> d(lo, hi);
  std::vector<std::int32_t> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

}  // namespace int8_test
