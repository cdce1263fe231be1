#pragma once
// How an ONNX integer conv2d or dense (kernel_params::requantization == onnx: QLinearConv, QLinearMatMul, QDQ
// groups lowered to them) maps onto an int8 kernel in ctnn's layouts that computes the same accumulators:
// the x86 kernels (kernel/simd/i8/onnx_conv.hpp) and the Armv7E-M DSP ones (kernel/arm/onnx_conv.hpp) restate
// the call with `inner_params` and read ONNX's weights (OIHW, MatMul's [K, N]) re-laid out at compile time
// through `onnx_weights_reader`:
//   conv2d, groups 1               -> conv2d, NHWC, OHWI weights;
//   conv2d, groups = in = out channels -> depthwise_conv2d, 1HWC weights;
//   dense (MatMul, one weight matrix) -> dense, [out][in] weights.
// uint8 activations become int8 (x - 128: the top bit flipped, the input zero point moved by 128); the output
// stage stays ONNX's (each family's own: `float(acc) * multiplier`, round half to even, saturated).
// Mapped: int8 weights with zero point 0 (per tensor, or per channel and equal: pass compute_requantization
// records them per tensor), int8 or uint8 activations and results, per-tensor or per-channel weight scales.
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/onnx_integer.hpp>

namespace ctnn::kernel::detail {

// How an ONNX integer call maps onto an int8 kernel in ctnn's layouts.
template <kernel_params P>
struct onnx_call_shape {
  static constexpr bool quantized =
      P.requantization == requantization_policy::onnx && onnx_integer::is_8_bit(P.type) && onnx_integer::is_8_bit(P.out_type) &&
      is_onnx_layout(P.onnx.layout) && P.onnx.weights_type == dtype::i8 && P.weights_offset == 0 &&
      P.onnx.zero_point_count <= 1 && P.onnx.scale_count >= 1 && onnx_integer::supports(P);
  static constexpr bool is_conv = quantized && P.kind == op_kind::conv2d;
  static constexpr bool is_nhwc = P.onnx.layout == data_layout::onnx_nhwc;
  // A conv's dims as NHWC (the inner kernel's layout).
  static constexpr shape nhwc_in = is_nhwc ? P.in : make_shape(P.in[0], P.in[2], P.in[3], P.in[1]);
  static constexpr shape nhwc_out = is_nhwc ? P.out : make_shape(P.out[0], P.out[2], P.out[3], P.out[1]);
  static constexpr bool is_depthwise = is_conv && P.groups > 1 && P.groups == nhwc_in[3] && P.groups == nhwc_out[3];
  // MatMul: a [..., M, K] x one b [K, N].
  static constexpr bool is_dense = quantized && P.kind == op_kind::dense && P.in2.rank == 2 && P.in.last() > 0 &&
                                   P.out.last() > 0 && P.in.last() == P.in2[0] && P.out.last() == P.in2[1] &&
                                   P.out.elements() / P.out.last() == P.in.elements() / P.in.last();
  static constexpr bool mapped = (is_conv && (P.groups == 1 || is_depthwise)) || is_dense;
  static constexpr bool unsigned_input = P.type == dtype::u8;
  static constexpr bool unsigned_output = P.out_type == dtype::u8;

  // The int8 call in ctnn's layouts with the same accumulators (a default call where none maps).
  static constexpr kernel_params inner_params() {
    kernel_params q{};
    if constexpr (mapped) {
      q.type = q.out_type = dtype::i8;
      q.has_bias = P.has_bias;
      q.input_offset = P.input_offset + (unsigned_input ? 128 : 0);
      q.per_channel = P.onnx.scale_count > 1 ? 1 : 0;
      q.activation_min = -128;
      q.activation_max = 127;
      q.depth_multiplier = 1;
      q.groups = 1;
      if constexpr (is_dense) {
        const std::int32_t rows = static_cast<std::int32_t>(P.in.elements() / P.in.last());
        q.kind = op_kind::dense;
        q.in = make_shape(rows, P.in.last());
        q.out = make_shape(rows, P.out.last());
      } else {
        q.kind = is_depthwise ? op_kind::depthwise_conv2d : op_kind::conv2d;
        q.win = P.win;
        q.in = nhwc_in;
        q.out = nhwc_out;
      }
    }
    return q;
  }
  static constexpr std::int32_t kernel_h = P.win.kernel_h, kernel_w = P.win.kernel_w;

  // The index, in ONNX's weight layout, of element i of the inner kernel's layout.
  static constexpr std::size_t onnx_weight_index(std::size_t i) {
    if constexpr (is_dense) {  // [out][in] -> [K, N]
      const auto depth = static_cast<std::size_t>(P.in.last()), columns = static_cast<std::size_t>(P.out.last());
      return i % depth * columns + i / depth;
    } else if constexpr (is_depthwise) {  // 1HWC -> [C, 1, kh, kw]
      const auto channels = static_cast<std::size_t>(nhwc_in[3]), taps = static_cast<std::size_t>(kernel_h * kernel_w);
      return i % channels * taps + i / channels;
    } else {  // OHWI -> OIHW
      const auto channels = static_cast<std::size_t>(nhwc_in[3]), taps = static_cast<std::size_t>(kernel_h * kernel_w);
      const std::size_t o = i / (taps * channels), tap = i / channels % taps, c = i % channels;
      return (o * channels + c) * taps + tap;
    }
  }
};

// A constant reader (kernel::pack_operand) over ONNX's weights that presents them in the inner layout.
template <kernel_params P, class Reader>
struct onnx_weights_reader {
  const Reader& read;
  constexpr std::size_t count() const { return read.count(); }
  constexpr std::int8_t i8(std::size_t i) const { return read.i8(onnx_call_shape<P>::onnx_weight_index(i)); }
};

}  // namespace ctnn::kernel::detail
