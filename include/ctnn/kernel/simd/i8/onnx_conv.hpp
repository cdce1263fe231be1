#pragma once
// ONNX's integer convolutions and matrix products (QLinearConv, QLinearMatMul, and QDQ groups lowered to
// them; kernel_params::requantization == onnx) on the vectorised int8 kernels: bit-exact with
// kernel::reference::onnx_quant (conv, matmul), with ONNX's output stage (onnx_output,
// i8/output_stage.hpp). The accumulation is the int8 kernels' own: the call is restated as the int8 call
// in ctnn's layouts that computes the same accumulators (`inner_params`):
//   conv2d, groups 1               -> gemm_kernel (conv2d, NHWC, OHWI weights);
//   conv2d, groups = in = out channels, one input channel per group -> depthwise_kernel (1HWC weights);
//   dense (MatMul, one weight matrix) -> gemm_kernel (dense, [out][in] weights).
// The weights are re-laid out at compile time by the inner kernel's pack, read through an index map from
// ONNX's layouts (OIHW, MatMul's [K, N]). At run time an NCHW input (layout onnx) is transposed into an NHWC
// buffer and the NHWC result back (simd/detail/transpose_blocks.hpp); an NHWC one (layout onnx_nhwc: the
// importer holds integer activations in NHWC between convolutions) and dense need neither. uint8 activations
// become int8 on the way in (x - 128, the top bit flipped, with the input zero point moved by 128:
// (x - 128) + (128 - zero point) = x - zero point) and back on the way out (onnx_output writes y - 128).
//
// Supported: int8 weights with zero point 0 (per tensor, or per channel and equal: pass
// compute_requantization records them per tensor), int8 or uint8 activations and results, per-tensor or
// per-channel weight scales, the inner kernel's shapes; the rest keeps the reference.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/onnx_integer.hpp>
#include <ctnn/kernel/reference/onnx_quant/rounding.hpp>
#include <ctnn/kernel/requant_arrays.hpp>
#include <ctnn/kernel/simd/detail/transpose_blocks.hpp>
#include <ctnn/kernel/simd/i8/depthwise.hpp>
#include <ctnn/kernel/simd/i8/gemm.hpp>
#include <ctnn/kernel/simd/i8/isa.hpp>
#include <ctnn/kernel/simd/i8/output_stage.hpp>
#include <ctnn/kernel/simd/i8/padded_input.hpp>

namespace ctnn::kernel::simd::i8_detail {

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

template <kernel_params P, class I>
struct onnx_conv_kernel {
  using shape = onnx_call_shape<P>;
  static constexpr kernel_params inner_p = shape::inner_params();
  using stage = onnx_output<P, I>;
  using inner =
      std::conditional_t<shape::is_depthwise, depthwise_kernel<inner_p, I, stage>, gemm_kernel<inner_p, I, stage>>;
  static constexpr std::int32_t channels = shape::mapped ? inner_p.out.last() : 0;
  static constexpr std::int64_t in_elements = P.in.elements(), out_elements = P.out.elements();
  // NCHW <-> NHWC buffers (layout onnx), and uint8 inputs made int8.
  static constexpr bool transposes = shape::is_conv && !shape::is_nhwc;
  static constexpr bool stages_input = transposes || shape::unsigned_input;
  static constexpr bool stages_output = transposes;

  static constexpr bool check() {
    if constexpr (!shape::mapped || !I::available)
      return false;
    else
      return inner::supports && in_elements <= max_padded_bytes && out_elements <= max_padded_bytes;
  }
  static constexpr bool supports = check();

  static constexpr bool packs(std::size_t k) { return k == 1; }
  template <std::size_t K, class Reader>
  static constexpr auto pack(const Reader& read) {
    static_assert(K == 1, "ctnn: the ONNX int8 kernels pack their weights only.");
    return inner::template pack<1>(onnx_weights_reader<P, Reader>{read});
  }

  // Operands: x, packed w, bias (int32, may be unaligned), w_scale (float32), w_zero_point (unused: zero).
  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    static_assert(N >= 2, "ctnn: an ONNX integer convolution reads x and w.");
    constexpr std::uint8_t flip = shape::unsigned_input ? 0x80 : 0;
    const auto* x = static_cast<const std::uint8_t*>(operands[0]);
    alignas(64) std::int8_t input[stages_input ? in_elements : 1];
    if constexpr (transposes) {  // NCHW -> NHWC: per batch, [C, H * W] -> [H * W, C]
      constexpr std::int64_t c_count = P.in[1], plane = static_cast<std::int64_t>(P.in[2]) * P.in[3];
      for (std::int32_t n = 0; n < P.in[0]; ++n)
        simd::detail::transpose_blocks<std::uint8_t, c_count, plane>(
            x + n * c_count * plane, reinterpret_cast<std::uint8_t*>(input) + n * c_count * plane, flip);
    } else if constexpr (stages_input) {
      for (std::int64_t i = 0; i < in_elements; ++i) input[i] = static_cast<std::int8_t>(x[i] ^ flip);
    }
    alignas(64) std::int32_t bias[P.has_bias != 0 ? channels : 1];
    if constexpr (P.has_bias != 0) std::memcpy(bias, operands[N > 2 ? 2 : 0], sizeof bias);
    alignas(64) float multipliers[shape::quantized && P.onnx.scale_count > 1 ? channels : 1];
    if constexpr (P.onnx.scale_count > 1) {  // as the reference's multiplier_of
      const float input_scale = std::bit_cast<float>(P.onnx.input_scale_bits);
      const float output_scale = std::bit_cast<float>(P.onnx.output_scale_bits);
      for (std::int32_t o = 0; o < channels; ++o) {
        float weight_scale = 0.0f;
        std::memcpy(&weight_scale, static_cast<const unsigned char*>(operands[N > 3 ? 3 : 0]) + 4 * o,
                    sizeof weight_scale);
        multipliers[o] = reference::onnx_quant::output_multiplier(input_scale, weight_scale, output_scale);
      }
    }
    alignas(64) std::int8_t staged_output[stages_output ? out_elements : 1];
    auto* y = static_cast<std::uint8_t*>(result);
    std::int8_t* out = stages_output ? staged_output : static_cast<std::int8_t*>(result);
    inner::compute(stages_input ? input : static_cast<const std::int8_t*>(operands[0]),
                   static_cast<const std::int32_t*>(operands[1]), P.has_bias != 0 ? bias : nullptr, out,
                   typename stage::source{multipliers});
    constexpr std::uint8_t flip_out = shape::unsigned_output ? 0x80 : 0;
    if constexpr (stages_output) {  // NHWC -> NCHW: per batch, [OH * OW, O] -> [O, OH * OW]
      constexpr std::int64_t c_count = P.out[1], plane = static_cast<std::int64_t>(P.out[2]) * P.out[3];
      for (std::int32_t n = 0; n < P.out[0]; ++n)
        simd::detail::transpose_blocks<std::uint8_t, plane, c_count>(
            reinterpret_cast<const std::uint8_t*>(staged_output) + n * c_count * plane, y + n * c_count * plane,
            flip_out);
    } else if constexpr (shape::unsigned_output) {
      for (std::int64_t i = 0; i < out_elements; ++i) y[i] ^= flip_out;
    }
  }
};

}  // namespace ctnn::kernel::simd::i8_detail
