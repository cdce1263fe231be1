#pragma once
// ONNX's integer convolutions and matrix products (QLinearConv, QLinearMatMul, and QDQ groups lowered to
// them; kernel_params::requantization == onnx) on the vectorised int8 kernels: bit-exact with
// kernel::reference::onnx_quant (conv, matmul), with ONNX's output stage (onnx_output,
// i8/output_stage.hpp). The accumulation is the int8 kernels' own: the call is restated as the int8 call
// in ctnn's layouts that computes the same accumulators (kernel/detail/onnx_call_shape.hpp): gemm_kernel for
// conv2d of groups 1 and dense, depthwise_kernel for a depthwise conv2d. The weights are re-laid out at
// compile time by the inner kernel's pack, read through an index map from ONNX's layouts (OIHW, MatMul's
// [K, N]). At run time an NCHW input (layout onnx) is transposed into an NHWC buffer and the NHWC result back
// (simd/detail/transpose_blocks.hpp); an NHWC one (layout onnx_nhwc: the importer holds integer activations
// in NHWC between convolutions) and dense need neither. uint8 activations become int8 on the way in (x - 128,
// the top bit flipped, with the input zero point moved by 128: (x - 128) + (128 - zero point) = x - zero
// point) and back on the way out (onnx_output writes y - 128).
//
// Supported: what onnx_call_shape maps, within the inner kernel's shapes; the rest keeps the reference.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/detail/onnx_call_shape.hpp>
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

using kernel::detail::onnx_call_shape;
using kernel::detail::onnx_weights_reader;

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
