#pragma once
// ONNX's QLinearAdd (a QDQ model's DequantizeLinear -> Add -> QuantizeLinear; kernel_params::requantization
// onnx) of two equal shapes on the Armv7E-M single-precision FPU (FPv4: VFMA, VCVTR), bit-exact with
// kernel::reference::onnx_quant::add, whose float operations it repeats: per element two fused multiply-adds
// (VFMA rounds once, as x86's vfmadd does), VCVTR in FPSCR's mode (round to nearest even from reset) and a
// saturation (USAT/SSAT) to the 8-bit type. The call's three coefficients are computed once per call, in the
// reference's own function. Element i of both inputs is read before element i of the result is written
// (the planner may place the result over a dying input).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <ctnn/ir/kernel_params.hpp>
#include <ctnn/kernel/arm/detail/dsp.hpp>
#include <ctnn/kernel/arm/detail/requantize.hpp>
#include <ctnn/kernel/detail/operands.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/reference/onnx_quant/add.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::detail {

#if defined(__ARM_FP) && (__ARM_FP & 4) && defined(__ARM_FEATURE_FMA) && defined(__thumb2__)
inline constexpr bool fpu_fma_available = true;
#else
inline constexpr bool fpu_fma_available = false;
#endif

// The call's three coefficients, by the reference's own function from P's scales and zero points (shared with the
// MVE kernel, kernel/arm/mve/onnx_add.hpp).
template <kernel_params P>
[[gnu::always_inline]] inline reference::onnx_quant::add_coefficients onnx_add_coefficients() {
  return reference::onnx_quant::add_coefficients_of(std::bit_cast<float>(P.onnx.input_scale_bits), -P.input_offset,
                                                    std::bit_cast<float>(P.onnx.input2_scale_bits), -P.input2_offset,
                                                    std::bit_cast<float>(P.onnx.output_scale_bits), P.output_offset);
}

template <kernel_params P>
struct onnx_add_kernel : kernel::detail::reads_constants_as_stored {
  static constexpr bool supports = dsp_available && fpu_fma_available && reference::onnx_quant::is_quantized_add(P) &&
                                   reference::onnx_quant::quantized_add_supported(P);
  using element = std::conditional_t<P.type == dtype::u8, std::uint8_t, std::int8_t>;
  static constexpr std::int64_t elements = P.out.elements();

  [[gnu::always_inline]] static element saturated(std::int32_t r) {
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
    if constexpr (P.type == dtype::u8) return static_cast<element>(__usat(r, 8));
    else return static_cast<element>(__ssat(r, 8));
#else
    constexpr std::int32_t lowest = P.type == dtype::u8 ? 0 : -128, highest = P.type == dtype::u8 ? 255 : 127;
    return static_cast<element>(r < lowest ? lowest : r > highest ? highest : r);
#endif
  }

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    auto [a, b, out] = kernel::detail::binary_operands_of<element>(operands, result);
    const reference::onnx_quant::add_coefficients c = onnx_add_coefficients<P>();
    // Pointers stepped by the loads and the store themselves (post-indexed), two elements a turn.
    const element* const end = a + elements / 2 * 2;
    while (a != end) {
      const std::int32_t a0 = *a++, b0 = *b++;
      *out++ = saturated(round_to_int32(reference::onnx_quant::add_sum(c, a0, b0)));
      const std::int32_t a1 = *a++, b1 = *b++;
      *out++ = saturated(round_to_int32(reference::onnx_quant::add_sum(c, a1, b1)));
    }
    if constexpr (elements % 2 != 0) *out = saturated(round_to_int32(reference::onnx_quant::add_sum(c, *a, *b)));
  }
};

}  // namespace ctnn::kernel::arm::detail
