#pragma once
// conv2d: a grouped 2-D convolution, NHWC data, OHWI weights (TFLite CONV_2D, ONNX Conv; attrs.layout onnx:
// QLinearConv/ConvInteger on NCHW/OIHW, onnx_nhwc: on NHWC/OIHW). The descriptor of op_kind::conv2d (ops/weighted.hpp); fast paths:
// kernel/simd (f32 conv2d, i8 gemm) and kernel/arm/conv.hpp.
#include <cstdint>

#include <ctnn/ir/shape_rules.hpp>
#include <ctnn/kernel/reference/conv2d.hpp>
#include <ctnn/ops/weighted.hpp>

namespace ctnn::ops {

struct conv2d : windowed_weighted_op {
  static constexpr op_kind kind = op_kind::conv2d;
  // ONNX QLinearConv and ConvInteger (NCHW, OIHW) run ONNX's integer kernel.
  static constexpr onnx_integer_kernel onnx_integer = onnx_integer_kernel::convolution;

  // Groups divide the input and output channels; weights [units, kh, kw, channels / groups].
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    namespace rules = shape_rules;
    node& n = m.node_at(node_id);
    if (is_onnx_layout(n.attrs.layout)) return rules::infer_onnx_conv(m, node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    const std::int32_t units = rules::output_units(m, n);
    const std::int32_t channels = in.rank == 4 ? in[3] : 0;
    if (n.attrs.groups <= 0 || channels % n.attrs.groups != 0 || units % n.attrs.groups != 0) {
      // Names the count the groups do not divide: input channels first, else output channels.
      const std::int32_t undivided = n.attrs.groups > 0 && channels % n.attrs.groups == 0 ? units : channels;
      m.fail({error_code::channels_not_divisible, node_id, n.kind, {}, in, {.channels = undivided, .groups = n.attrs.groups}});
      return in;
    }
    const window& w = n.attrs.win;
    const shape out = rules::windowed_output(m, node_id, n.attrs.win, in, units);
    if (!rules::weights_agree_with_bias(m, node_id, make_shape(w.kernel_h, w.kernel_w, channels / n.attrs.groups))) return out;
    rules::expect_constant(m, node_id, n.inputs[1], make_shape(units, w.kernel_h, w.kernel_w, channels / n.attrs.groups),
                           error_code::weight_count_mismatch);
    if (n.input_count > 2) rules::expect_constant(m, node_id, n.inputs[2], make_shape(units), error_code::bias_count_mismatch);
    return out;
  }
  // Per output element: the window's taps over the group's input channels.
  template <class Module>
  static constexpr std::int64_t macs(const Module& m, const node& n, const shape& out) {
    const shape& in = m.tensor_at(n.inputs[0]).dims;
    const std::int32_t in_channels = n.attrs.layout == data_layout::onnx && in.rank > 1 ? in[1] : in.last();
    return out.elements() * n.attrs.win.kernel_h * n.attrs.win.kernel_w * (in_channels / (n.attrs.groups > 0 ? n.attrs.groups : 1));
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::conv2d(p, operands[0], operands[1], operands[2], result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays& rq) {
    with_integer_operands(p, operands, result,
                          [&](const auto* input, const std::int8_t* weights, const auto* bias, auto* output) {
                            kernel::reference::conv2d(p, input, weights, bias, output, rq.multiplier, rq.shift);
                          });
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op& op) {
    w.put("  ");
    put_window(w, a.win, op.pads_resolved);
    w.field(" groups ", a.groups);
  }
};

}  // namespace ctnn::ops
