#pragma once
// int8 ADD of two equal shapes on Armv8.1-M MVE, bit-exact with ops::add (reference::int8::add_one,
// TFLite's recipe): each input plus its offset, shifted left by left_shift, rescaled by its own multiplier
// (MultiplyByQuantizedMultiplier, vector.hpp); the wrapping sum rescaled by the output multiplier, plus the
// output zero point, clamped. Four elements a step in int32 lanes (VLDRB.S32), the offset and the left
// shift in one VMLA ((x + offset) * 2^left = x * 2^left + offset * 2^left, wrapping as TFLite's int32
// product), the last step predicated (VCTP). A step reads its elements of both inputs before it writes
// them, so the planner's in-place ADD (an input's buffer reused for the result) stays safe.
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/mve/vector.hpp>
#include <ctnn/kernel/detail/operands.hpp>
#include <ctnn/kernel/detail/output_clamp.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::mve::detail {

template <kernel_params P>
struct add_kernel : kernel::detail::reads_constants_as_stored {
  static constexpr std::int64_t elements = P.out.elements();
  static constexpr bool supports = mve_available && P.kind == op_kind::add && P.type == dtype::i8 && P.in == P.out && P.in2 == P.out &&
                                   P.left_shift >= 0 && P.left_shift < 32 && kernel::detail::is_output_clamp(P.fused) &&
                                   elements < (std::int64_t{1} << 31);

#if CTNN_ARM_MVE
  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    const auto [a, b, out] = kernel::detail::binary_operands_of(operands, result);
    const int32x4_t a_offset = vdupq_n_s32(shifted(P.input_offset)), b_offset = vdupq_n_s32(shifted(P.input2_offset));
    constexpr std::int64_t steps = elements / 4;
    for (std::int64_t k = 0; k < steps; ++k) vstrbq_s32(out + 4 * k, sum_of(vldrbq_s32(a + 4 * k), vldrbq_s32(b + 4 * k), a_offset, b_offset));
    if constexpr (elements % 4 != 0) {
      const mve_pred16_t lanes = vctp32q(elements % 4);
      vstrbq_p_s32(out + 4 * steps, sum_of(vldrbq_z_s32(a + 4 * steps, lanes), vldrbq_z_s32(b + 4 * steps, lanes), a_offset, b_offset), lanes);
    }
  }
#else
  template <std::size_t N>
  static void run(const void* const (&)[N], void*, const requant_arrays&) {}
#endif

 private:
  // offset * 2^left_shift, wrapping as the int32 product it stands for.
  static constexpr std::int32_t shifted(std::int32_t offset) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(offset) << P.left_shift);
  }
#if CTNN_ARM_MVE
  static constexpr std::int32_t scale = static_cast<std::int32_t>(std::uint32_t{1} << P.left_shift);
  [[gnu::always_inline]] static inline int32x4_t sum_of(int32x4_t a, int32x4_t b, int32x4_t a_offset, int32x4_t b_offset) {
    const int32x4_t a_scaled = multiply_by_quantized_multiplier<P.input_multiplier, P.input_shift>(vmlaq_n_s32(a_offset, a, scale));
    const int32x4_t b_scaled = multiply_by_quantized_multiplier<P.input2_multiplier, P.input2_shift>(vmlaq_n_s32(b_offset, b, scale));
    return requantize<P>(vaddq_s32(a_scaled, b_scaled));
  }
#endif
};

}  // namespace ctnn::kernel::arm::mve::detail
