#pragma once
// l2_normalization: each vector along attrs.norm.axis divided by its L2 norm, at least attrs.norm.epsilon()
// (TFLite L2_NORMALIZATION: the last axis, epsilon 1e-6; ONNX LpNormalization with p 2: any axis, epsilon 0).
// The descriptor of op_kind::l2_normalization (ops/descriptor.hpp); lp_normalization_op, its float32 part, is
// l1_normalization's too (ops/l1_normalization.hpp).
#include <cmath>
#include <cstdint>

#include <ctnn/detail/math.hpp>
#include <ctnn/detail/quantization.hpp>
#include <ctnn/kernel/reference/int8/fixed_point.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

// The normalisation of each vector along attrs.norm.axis by its L<Order> norm (Order 1 or 2), float32.
template <op_kind K, int Order>
struct lp_normalization_op : op_defaults {
  static constexpr op_kind kind = K;
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32; }

  // The axis normalised (a negative one counts from the end).
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    const std::int32_t axis = n.attrs.norm.axis < 0 ? n.attrs.norm.axis + in.rank : n.attrs.norm.axis;
    if (axis < 0 || axis >= in.rank) {
      m.fail({error_code::invalid_axis, node_id, n.kind, {}, in, {.axis = n.attrs.norm.axis, .rank_actual = in.rank}});
      return in;
    }
    n.attrs.norm.axis = axis;
    return in;
  }
  template <class Module>
  static constexpr void prepare(const Module&, const node& n, kernel_params& p) {
    p.norm = n.attrs.norm;
  }
  template <class Module>
  static constexpr std::int64_t macs(const Module&, const node&, const shape& out) {
    return 2 * out.elements();  // a square (a magnitude) and a division per element
  }

  // Calls row(first, step, depth) for each vector along the axis: its first element and the stride of its
  // elements.
  template <class Params, class Row>
  [[gnu::always_inline]] static constexpr void for_each_vector(Params p, Row&& row) {
    std::int64_t outer = 1, inner = 1;
    for (std::int32_t d = 0; d < p->norm.axis; ++d) outer *= p->in[d];
    for (std::int32_t d = p->norm.axis + 1; d < p->in.rank; ++d) inner *= p->in[d];
    const std::int32_t depth = p->in[p->norm.axis];
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t i = 0; i < inner; ++i) row(o * depth * inner + i, inner, depth);
  }

  // TFLM's reference L2Normalization: the squares summed in float, the square root, at least epsilon, each
  // element divided by it; L1: the magnitudes summed in float (ONNX's test data: np.sum(abs(x))). A norm of 0
  // (epsilon 0, ONNX) gives zeros, as ONNX's reference, not 0/0.
  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    const float* x = operands[0];
    const float epsilon = p->norm.epsilon();
    for_each_vector(p, [&](std::int64_t first, std::int64_t step, std::int32_t depth) {
      float sum = 0.0f;
      for (std::int32_t c = 0; c < depth; ++c) {
        const float v = x[first + c * step];
        sum += Order == 1 ? (v < 0.0f ? -v : v) : v * v;
      }
      float norm = Order == 1 ? sum : static_cast<float>(ctnn::detail::math::either::sqrt(sum));
      norm = norm > epsilon ? norm : epsilon;
      for (std::int32_t c = 0; c < depth; ++c) result[first + c * step] = norm == 0.0f ? 0.0f : x[first + c * step] / norm;
    });
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    put_fields(w, a.norm);
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    put_fields(w, p.norm);
  }
  template <class Writer>
  static void put_fields(Writer& w, const norm_fields& f) {
    w.field("  axis ", f.axis);
    w.real_field(" epsilon ", static_cast<double>(f.epsilon()));
  }
};

// TFLite's L2_NORMALIZATION and ONNX's LpNormalization p 2: float32, and TFLM's int8 kernel.
struct l2_normalization : lp_normalization_op<op_kind::l2_normalization, 2> {
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || type == dtype::i8; }
  // TFLM's reference_integer_ops::L2Normalization: the squared differences from the input zero point summed,
  // their inverse square root (GetInvSqrtQuantizedMultiplierExp) applied to each difference with 7 more left
  // shift (the result in 1/128ths, whatever the output's quantization), clamped to int8.
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    namespace fp = kernel::reference::int8::fixed_point;
    const auto* x = static_cast<const std::int8_t*>(operands[0]);
    auto* out = static_cast<std::int8_t*>(result);
    constexpr std::int32_t output_scale_shift = 7;
    for_each_vector(p, [&](std::int64_t first, std::int64_t step, std::int32_t depth) {
      std::int32_t squared = 0;  // wraps past 2^31 as TFLM's int32 sum does on its targets (depths over 2^15)
      for (std::int32_t c = 0; c < depth; ++c) {
        const std::int32_t centred = x[first + c * step] + p->input_offset;
        squared = ctnn::detail::quant::wrapping_add(squared, centred * centred);
      }
      const fp::inv_sqrt_multiplier inverse = fp::inverse_sqrt_multiplier(squared);
      for (std::int32_t c = 0; c < depth; ++c) {
        const std::int32_t scaled = ctnn::detail::quant::multiply_by_quantized_multiplier(
            x[first + c * step] + p->input_offset, inverse.multiplier, inverse.shift + output_scale_shift);
        out[first + c * step] = static_cast<std::int8_t>(scaled < -128 ? -128 : scaled > 127 ? 127 : scaled);
      }
    });
  }
};

}  // namespace ctnn::ops
