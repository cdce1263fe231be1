#pragma once
// transpose_conv2d: a grouped 2-D transposed convolution, NHWC data, OHWI weights [out channels, kh, kw, in
// channels / groups], the result's shape attrs.target (TFLite TRANSPOSE_CONV, whose output_shape is a
// constant; ONNX ConvTranspose, its weights re-laid out by the importer). Pads are explicit (the importers
// resolve TFLite's SAME/VALID and ONNX's auto_pad and output_padding into pad_top/pad_left and the result's
// extents). Float32, int8 and int16 (16x8: int64 bias) as TFLM's reference kernels
// (kernel/reference/transpose_conv2d.hpp). The descriptor of op_kind::transpose_conv2d (ops/weighted.hpp).
#include <cstdint>

#include <ctnn/ir/shape_rules.hpp>
#include <ctnn/kernel/reference/transpose_conv2d.hpp>
#include <ctnn/ops/weighted.hpp>

namespace ctnn::ops {

struct transpose_conv2d : windowed_weighted_op {
  static constexpr op_kind kind = op_kind::transpose_conv2d;
  static constexpr operand_range operands{2, 3};
  static constexpr bool has_kernel(dtype type) { return weighted_op::has_kernel(type) || type == dtype::i16; }
  // TFLM's 16x8 kernel adds no input or output offset.
  static constexpr bool int16_symmetric = true;

  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    const shape out = n.attrs.target;
    if (in.rank != 4 || out.rank != 4) {
      const std::int32_t rank = in.rank != 4 ? in.rank : out.rank;
      m.fail({error_code::unsupported_rank, node_id, n.kind, {}, in.rank != 4 ? in : out, {.rank_expected = 4, .rank_actual = rank}});
      return in;
    }
    if (in[0] != out[0]) {
      m.fail({error_code::input_shapes_differ, node_id, n.kind, in, out, {}});
      return in;
    }
    const std::int32_t groups = n.attrs.groups;
    if (groups <= 0 || in[3] % groups != 0 || out[3] % groups != 0) {
      const std::int32_t undivided = groups > 0 && in[3] % groups == 0 ? out[3] : in[3];
      m.fail({error_code::channels_not_divisible, node_id, n.kind, {}, in, {.channels = undivided, .groups = groups}});
      return in;
    }
    const window& w = n.attrs.win;
    shape_rules::expect_constant(m, node_id, n.inputs[1], make_shape(out[3], w.kernel_h, w.kernel_w, in[3] / groups),
                                 error_code::weight_count_mismatch);
    if (n.input_count > 2) shape_rules::expect_constant(m, node_id, n.inputs[2], make_shape(out[3]), error_code::bias_count_mismatch);
    return out;
  }
  // Every input element meets every tap of the window for each output channel of its group (the taps that
  // fall outside the result included: an upper bound).
  template <class Module>
  static constexpr std::int64_t macs(const Module& m, const node& n, const shape& out) {
    const std::int32_t groups = n.attrs.groups > 0 ? n.attrs.groups : 1;
    return m.tensor_at(n.inputs[0]).dims.elements() * n.attrs.win.kernel_h * n.attrs.win.kernel_w * (out.last() / groups);
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::transpose_conv2d(p, operands[0], operands[1], operands[2], result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays& rq) {
    with_activation_type(p, [&]<class T>(T) {
      using bias_type = kernel::reference::transpose_conv_accumulator<T>;
      kernel::reference::transpose_conv2d(p, static_cast<const T*>(operands[0]), static_cast<const std::int8_t*>(operands[1]),
                                          p->has_bias != 0 ? static_cast<const bias_type*>(operands[2]) : nullptr,
                                          static_cast<T*>(result), rq.multiplier, rq.shift);
    });
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    w.put("  ");
    put_window(w, a.win, true);
    if (a.groups != 1) w.field(" groups ", a.groups);
    w.put(" output ");
    put_shape(w, a.target);
  }
};

}  // namespace ctnn::ops
