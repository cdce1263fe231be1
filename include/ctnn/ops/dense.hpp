#pragma once
// dense: a fully connected layer, [batch, features] x weights [units, features] (TFLite FULLY_CONNECTED,
// ONNX Gemm/MatMul with constant weights; attrs.layout onnx: QLinearMatMul/MatMulInteger, A [..., M, K] x
// B [..., K, N]). The descriptor of op_kind::dense (ops/weighted.hpp); fast paths: kernel/simd (f32, i8 gemm)
// and kernel/arm.
#include <cstdint>

#include <ctnn/ir/shape_rules.hpp>
#include <ctnn/kernel/reference/dense.hpp>
#include <ctnn/kernel/reference/int8/dense.hpp>
#include <ctnn/ops/weighted.hpp>

namespace ctnn::ops {

struct dense : weighted_op {
  static constexpr op_kind kind = op_kind::dense;
  // ONNX QLinearMatMul and MatMulInteger run ONNX's integer kernel.
  static constexpr onnx_integer_kernel onnx_integer = onnx_integer_kernel::matmul;

  // Every input element past the batch is a feature.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    namespace rules = shape_rules;
    const node& n = m.node_at(node_id);
    if (n.attrs.layout == data_layout::onnx) return rules::infer_onnx_matmul(m, node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    const std::int32_t batch = in.rank > 0 ? in[0] : 1;
    const auto features = static_cast<std::int32_t>(in.elements() / batch);
    const std::int32_t units = rules::output_units(m, n);
    if (!rules::weights_agree_with_bias(m, node_id, make_shape(features))) return make_shape(batch, units);
    rules::expect_constant(m, node_id, n.inputs[1], make_shape(units, features), error_code::weight_count_mismatch);
    if (n.input_count > 2) rules::expect_constant(m, node_id, n.inputs[2], make_shape(units), error_code::bias_count_mismatch);
    return make_shape(batch, units);
  }
  template <class Module>
  static constexpr void prepare(const Module&, const node& n, kernel_params& p) {
    p.has_bias = n.input_count > 2 && n.inputs[2] >= 0;
  }
  // Per output element: every feature (ONNX's A [..., M, K] x B [K, N]: K).
  template <class Module>
  static constexpr std::int64_t macs(const Module& m, const node& n, const shape& out) {
    const shape& in = m.tensor_at(n.inputs[0]).dims;
    if (n.attrs.layout == data_layout::onnx) return out.elements() * in.last();
    return out.elements() * (in.elements() / (out.rank > 0 && out[0] > 0 ? out[0] : 1));
  }
  // TFLite's FULLY_CONNECTED: per-channel weights take the call's table; per-tensor ones one multiplier,
  // double(float(input_scale * weight_scale)) / double(output_scale) (GetQuantizedConvolutionMultipler).
  static constexpr void requantize(const quantized_operands& q, const node& n, kernel_params& p) {
    if (q.in2.per_channel()) {
      requantize_with_channel_table(q, n, p);
      return;
    }
    p.weights_offset = ctnn::detail::quant::wrapping_neg(q.in2.zero_point);
    q.set_multiplier(p.output_multiplier, p.output_shift, static_cast<double>(q.in.scale * q.in2.scale) / static_cast<double>(q.out.scale));
    q.set_activation_range(n.attrs.fused, p);
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::dense(p, operands[0], operands[1], operands[2], result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays& rq) {
    with_integer_operands(p, operands, result,
                          [&](const auto* input, const std::int8_t* weights, const auto* bias, auto* output) {
                            kernel::reference::int8::dense(p, input, weights, bias, output, rq.multiplier, rq.shift);
                          });
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    if (a.units > 0) w.field("  units ", a.units);
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    if (p.has_bias != 0) w.put(", with bias");
  }
};

}  // namespace ctnn::ops
