#pragma once
// depthwise_conv2d: each input channel convolved with depth_multiplier filters of its own, NHWC data,
// weights [1, kh, kw, channels * multiplier] (TFLite DEPTHWISE_CONV_2D, ONNX Conv with group = channels).
// The descriptor of op_kind::depthwise_conv2d (ops/weighted.hpp); fast paths: kernel/simd and
// kernel/arm/depthwise.hpp.
#include <cstdint>

#include <ctnn/ir/shape_rules.hpp>
#include <ctnn/kernel/reference/conv2d.hpp>
#include <ctnn/ops/weighted.hpp>

namespace ctnn::ops {

struct depthwise_conv2d : windowed_weighted_op {
  static constexpr op_kind kind = op_kind::depthwise_conv2d;
  static constexpr operand_range operands{2, 3};

  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    namespace rules = shape_rules;
    node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    const std::int32_t channels = (in.rank == 4 ? in[3] : 0) * n.attrs.depth_multiplier;
    const shape out = rules::windowed_output(m, node_id, n.attrs.win, in, channels);
    rules::expect_constant(m, node_id, n.inputs[1], make_shape(1, n.attrs.win.kernel_h, n.attrs.win.kernel_w, channels),
                           error_code::weight_count_mismatch);
    if (n.input_count > 2) rules::expect_constant(m, node_id, n.inputs[2], make_shape(channels), error_code::bias_count_mismatch);
    return out;
  }
  // Per output element: the window's taps.
  template <class Module>
  static constexpr std::int64_t macs(const Module&, const node& n, const shape& out) {
    return out.elements() * n.attrs.win.kernel_h * n.attrs.win.kernel_w;
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::depthwise_conv2d(p, operands[0], operands[1], operands[2], result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays& rq) {
    with_integer_operands(
        p, operands, result, [&](const auto* input, const std::int8_t* weights, const auto* bias, auto* output) {
          kernel::reference::depthwise_conv2d(p, input, weights, bias, output, rq.multiplier, rq.shift);
        });
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op& op) {
    w.put("  ");
    put_window(w, a.win, op.pads_resolved);
    w.field(" multiplier ", a.depth_multiplier);
  }
};

}  // namespace ctnn::ops
