#pragma once
// What conv2d, depthwise_conv2d and dense share (ops/conv2d.hpp, ops/depthwise_conv2d.hpp, ops/dense.hpp):
// data, constant weights and an optional bias; a fused activation; TFLite's int8 recipe (the weights'
// offset, per-channel multipliers in a table of the call: pass::compute_requantization's channel_multipliers,
// or dense's one per-tensor multiplier). ONNX's integer forms of these kinds (attrs.layout onnx: QLinearConv,
// ConvInteger, QLinearMatMul, MatMulInteger) run the onnx_quant kernels instead (kernel/reference/onnx_quant).
#include <cstddef>
#include <cstdint>

#include <ctnn/kernel/reference/conv2d.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct weighted_op : op_defaults {
  // ONNX's integer forms add the weights' per-axis scales and zero points (operands 3 and 4).
  static constexpr operand_range operands{2, 5};
  static constexpr bool takes_fused_activation = true;
  static constexpr bool has_weights = true;
  // int16: TFLite's 16x8 layers (int8 weights, an int64 bias; TFLM's Prepare wants zero points 0).
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || type == dtype::i8 || type == dtype::i16; }
  static constexpr bool int16_symmetric = true;
  // run(input, weights, bias or nullptr, output) with an integer call's operands typed: int8 or int16 data
  // (the bias int32 or int64: reference::conv_accumulator), int8 weights.
  template <class Params, class Run>
  [[gnu::always_inline]] static void with_integer_operands(Params p, const void* const* operands, void* result,
                                                           Run&& run) {
    with_activation_type(p, [&](auto data) {
      using Data = decltype(data);
      run(static_cast<const Data*>(operands[0]), static_cast<const std::int8_t*>(operands[1]),
          p->has_bias != 0 ? static_cast<const kernel::reference::conv_accumulator<Data>*>(operands[2]) : nullptr,
          static_cast<Data*>(result));
    });
  }
  // Data, weights and the bias if any.
  static constexpr std::size_t operands_read(const kernel_params& p) { return p.has_bias != 0 ? 3 : 2; }

  // The weights' offset and the activation range; the channels' multipliers are the call's table.
  static constexpr void requantize_with_channel_table(const quantized_operands& q, const node& n, kernel_params& p) {
    p.weights_offset = ctnn::detail::quant::wrapping_neg(q.in2.zero_point);
    p.per_channel = 1;
    q.set_activation_range(n.attrs.fused, p);
  }
};

// conv2d and depthwise_conv2d: the window is theirs too.
struct windowed_weighted_op : weighted_op {
  template <class Module>
  static constexpr void prepare(const Module&, const node& n, kernel_params& p) {
    p.win = n.attrs.win;
    p.groups = n.attrs.groups;
    p.depth_multiplier = n.attrs.depth_multiplier;
    p.has_bias = n.input_count > 2 && n.inputs[2] >= 0;
  }
  // TFLite broadcasts a per-tensor weight scale over the channels: always a table (per_channel 1).
  static constexpr void requantize(const quantized_operands& q, const node& n, kernel_params& p) {
    requantize_with_channel_table(q, n, p);
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    w.put("  ");
    put_window(w, p.win, true);
    if (p.kind == op_kind::conv2d && p.groups != 1) w.field(" groups ", p.groups);
    if (p.kind == op_kind::depthwise_conv2d && p.depth_multiplier != 1) w.field(" multiplier ", p.depth_multiplier);
    if (p.has_bias != 0) w.put(", with bias");
  }
};

}  // namespace ctnn::ops
