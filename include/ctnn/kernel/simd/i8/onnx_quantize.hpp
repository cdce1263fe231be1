#pragma once
// ONNX's QuantizeLinear per tensor (float32 to int8 or uint8; kernel_params::requantization == onnx), vectorised,
// bit-exact with kernel::reference::onnx_quant::quantize_linear: saturate(round_half_even(x / scale) +
// zero_point), x / scale a float division as the reference's (not a product with 1 / scale). uint8 results
// are computed less 128 as int8, then their top bit flipped.
#include <bit>
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/requant_arrays.hpp>
#include <ctnn/kernel/simd/i8/isa.hpp>

namespace ctnn::kernel::simd::i8_detail {

template <kernel_params P, class I>
struct onnx_quantize_kernel : kernel::detail::reads_constants_as_stored {
  static constexpr bool unsigned_result = P.out_type == dtype::u8;
  static constexpr bool supports = I::available && P.kind == op_kind::quantize &&
                                   P.requantization == requantization_policy::onnx && P.type == dtype::f32 &&
                                   (P.out_type == dtype::i8 || unsigned_result) && P.onnx.scale_count <= 1;
  static constexpr std::int64_t elements = P.out.elements();
  static constexpr float limit = 1073741824.0f;  // 2^30: beyond it every result saturates

  // Operands: x (float32), y_scale, y_zero_point (per tensor: in P).
  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    const auto* x = static_cast<const float*>(operands[0]);
    auto* y = static_cast<std::int8_t*>(result);
    const auto scale = I::set1_floats(std::bit_cast<float>(P.onnx.output_scale_bits));
    const auto zero_point = I::set1(P.output_offset - (unsigned_result ? 128 : 0));
    const auto lo = I::set1(-128), hi = I::set1(127);
    const auto quantize = [&](const float* from, std::int8_t* to, int n) {
      const auto q = I::add(I::round_clamped(I::divide_floats(I::load_floats(from), scale), limit), zero_point);
      I::store_i8(to, I::min(I::max(q, lo), hi), n);
    };
    std::int64_t i = 0;
    for (; i + I::lanes <= elements; i += I::lanes) quantize(x + i, y + i, I::lanes);
    if (i < elements) {  // the tail through a zeroed buffer: never read past the input
      alignas(64) float tail[I::lanes]{};
      const auto n = static_cast<int>(elements - i);
      for (int k = 0; k < n; ++k) tail[k] = x[i + k];
      quantize(tail, y + i, n);
    }
    if constexpr (unsigned_result)
      for (std::int64_t k = 0; k < elements; ++k)
        y[k] = static_cast<std::int8_t>(static_cast<std::uint8_t>(y[k]) ^ 0x80u);
  }
};

}  // namespace ctnn::kernel::simd::i8_detail
