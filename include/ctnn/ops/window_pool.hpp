#pragma once
// What max_pool and avg_pool share (ops/max_pool.hpp, ops/avg_pool.hpp): an NHWC window slid over the
// input, per channel; input and output share one quantization (TFLite requires it), so the int8 recipe is
// only the fused activation's range. int16 (16x8) runs TFLM's int16 pools, the int8 template at int16 (any zero
// point: TFLM only asks input and output to share it). Fast paths: kernel/simd (f32, i8) and kernel/arm/pool.hpp
// (int8 only).
#include <cstdint>

#include <ctnn/ir/shape_rules.hpp>
#include <ctnn/kernel/reference/int8/pool.hpp>
#include <ctnn/kernel/reference/pool.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

template <op_kind K, bool Max>
struct window_pool : op_defaults {
  static constexpr op_kind kind = K;
  static constexpr onnx_integer_kernel onnx_integer = Max ? onnx_integer_kernel::window_max : onnx_integer_kernel::window_average;
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || type == dtype::i8 || type == dtype::i16; }

  // The window's output shape; a window made only of padding has nothing to pool (avg would divide by 0).
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    const shape out = shape_rules::windowed_output(m, node_id, n.attrs.win, in, in.rank == 4 ? in[3] : 0);
    const window& w = n.attrs.win;
    if (m.error.failed()) return out;
    const std::int32_t empty_h =
        shape_rules::first_window_in_padding(in[1], out[1], w.kernel_h, w.stride_h, w.dilation_h, w.pad_top);
    const std::int32_t empty_w =
        shape_rules::first_window_in_padding(in[2], out[2], w.kernel_w, w.stride_w, w.dilation_w, w.pad_left);
    if (empty_h >= 0)
      m.fail({error_code::window_all_padding, node_id, n.kind, {}, in, {.axis = 1, .output_position = empty_h}});
    else if (empty_w >= 0)
      m.fail({error_code::window_all_padding, node_id, n.kind, {}, in, {.axis = 2, .output_position = empty_w}});
    return out;
  }
  template <class Module>
  static constexpr void prepare(const Module&, const node& n, kernel_params& p) {
    p.win = n.attrs.win;
    p.groups = n.attrs.groups;
    p.depth_multiplier = n.attrs.depth_multiplier;
  }
  static constexpr void requantize(const quantized_operands& q, const node& n, kernel_params& p) {
    q.set_activation_range(n.attrs.fused, p);
  }
  // One per window tap.
  template <class Module>
  static constexpr std::int64_t macs(const Module&, const node& n, const shape& out) {
    return out.elements() * n.attrs.win.kernel_h * n.attrs.win.kernel_w;
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::pool2d<Max>(p, operands[0], result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    with_activation_type(p, [&]<class T>(T) {
      kernel::reference::int8::pool2d<Max>(p, static_cast<const T*>(operands[0]), static_cast<T*>(result));
    });
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op& op) {
    w.put("  ");
    put_window(w, a.win, op.pads_resolved);
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    w.put("  ");
    put_window(w, p.win, true);
  }
};

}  // namespace ctnn::ops
