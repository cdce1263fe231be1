#pragma once
// ONNX's QLinearAdd (a QDQ model's DequantizeLinear -> Add -> QuantizeLinear; kernel_params::requantization
// onnx) of two equal shapes on four MVE-F lanes, bit-exact with kernel::reference::onnx_quant::add, whose float
// operations it repeats lane by lane (the call's three coefficients computed once, in the reference's own
// function: arm::detail::onnx_add_coefficients):
//   float(b)        VLDRB.U32 / VLDRB.S32 (widening load), VCVT.F32.S32 (exact: an 8-bit integer)
//   inner           VFMAS: float(b) * b_ratio + fixed, rounded once (the reference's fma(b, b_ratio, fixed))
//   sum             VFMA: inner + float(a) * a_ratio, rounded once (its fma(a, a_ratio, inner))
//   rounded         VCVTN.S32.F32: to nearest, ties to even, saturated to int32, NaN to 0 (the reference's
//                   nearbyint in the default mode; the FPU kernel's VCVTR)
//   saturated       VMAX / VMIN to the 8-bit type's range, VSTRB.32 of the low bytes.
// MVE's float lanes flush denormals (their operations use the standard FPSCR value, where the reference's scalar ones
// keep FPSCR.FZ 0): the kernel takes the calls whose scale ratios are at least 2^-100, whose coefficients, products
// and partial sums are then never denormal (arm::onnx_add_ratios_normal, kernel/arm/decline.hpp); the FPU kernel the
// others. Four elements a step, the last one predicated (VCTP). A step reads its elements of both inputs before it
// writes them, so a result placed over an input (the planner's in-place binary op) stays correct. Needs MVE's
// floating-point vectors (__ARM_FEATURE_MVE bit 1: the Cortex-M55's and M85's MVE-F); without, `supports` is false
// and the DSP family's FPU kernel (kernel/arm/onnx_add.hpp) runs the call.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/decline.hpp>
#include <ctnn/kernel/arm/onnx_add.hpp>
#include <ctnn/kernel/arm/mve/onnx_output.hpp>
#include <ctnn/kernel/arm/mve/vector.hpp>
#include <ctnn/kernel/detail/operands.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/reference/onnx_quant/add.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::mve::detail {

template <kernel_params P>
struct onnx_add_kernel : kernel::detail::reads_constants_as_stored {
  static constexpr std::int64_t elements = P.out.elements();
  static constexpr bool supports = mve_onnx_available && reference::onnx_quant::is_quantized_add(P) &&
                                   reference::onnx_quant::quantized_add_supported(P) && onnx_add_ratios_normal(P);

#if CTNN_ARM_MVE && (__ARM_FEATURE_MVE & 2)
  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    auto [a, b, out] = kernel::detail::binary_operands_of<element>(operands, result);
    const reference::onnx_quant::add_coefficients c = arm::detail::onnx_add_coefficients<P>();
    const step_constants k{vdupq_n_f32(c.b_ratio), c.a_ratio, c.fixed};
    // A step reads its four elements of both inputs before it writes their results (in place: out may be a or b).
    // One step a turn, the pointers stepped by the loads and the store (post-indexed): 11 instructions per four
    // elements with the loop's LE (unrolled, g++ 12 gives no fewer: separate pointer adds, or SUBS/BNE for LE).
    constexpr std::int64_t steps = elements / 4;
    for (std::int64_t t = 0; t < steps; ++t) {
      const int32x4_t a_step = load(a), b_step = load(b);
      a += 4, b += 4;
      store(out, sum_step(a_step, b_step, k));
      out += 4;
    }
    if constexpr (elements % 4 != 0) {
      const mve_pred16_t lanes = vctp32q(static_cast<std::uint32_t>(elements % 4));
      store(out, sum_step(load(a, lanes), load(b, lanes), k), lanes);
    }
  }
#else
  template <std::size_t N>
  static void run(const void* const (&)[N], void*, const requant_arrays&) {}
#endif

 private:
  using element = std::conditional_t<P.type == dtype::u8, std::uint8_t, std::int8_t>;

#if CTNN_ARM_MVE && (__ARM_FEATURE_MVE & 2)
  static constexpr std::int32_t lowest = P.type == dtype::u8 ? 0 : -128, highest = P.type == dtype::u8 ? 255 : 127;

  // The coefficients as the steps use them: b_ratio on the lanes (VFMAS's multiplier), a_ratio and fixed scalars.
  struct step_constants {
    float32x4_t b_ratio;
    float a_ratio, fixed;
  };

  // Four elements widened to int32 (those of `lanes` only: the others 0).
  [[gnu::always_inline]] static inline int32x4_t load(const element* p) {
    if constexpr (P.type == dtype::u8) return vreinterpretq_s32_u32(vldrbq_u32(p));
    else return vldrbq_s32(p);
  }
  [[gnu::always_inline]] static inline int32x4_t load(const element* p, mve_pred16_t lanes) {
    if constexpr (P.type == dtype::u8) return vreinterpretq_s32_u32(vldrbq_z_u32(p, lanes));
    else return vldrbq_z_s32(p, lanes);
  }
  // round_half_even(fma(a, a_ratio, fma(b, b_ratio, fixed))) saturated to the 8-bit type, in int32 lanes.
  [[gnu::always_inline]] static inline int32x4_t sum_step(int32x4_t a, int32x4_t b, const step_constants& k) {
    const float32x4_t inner = vfmasq_n_f32(vcvtq_f32_s32(b), k.b_ratio, k.fixed);
    const float32x4_t sum = vfmaq_n_f32(inner, vcvtq_f32_s32(a), k.a_ratio);
    return vminq_s32(vmaxq_s32(vcvtnq_s32_f32(sum), vdupq_n_s32(lowest)), vdupq_n_s32(highest));
  }
  [[gnu::always_inline]] static inline void store(element* p, int32x4_t v) {
    if constexpr (P.type == dtype::u8) vstrbq_u32(p, vreinterpretq_u32_s32(v));
    else vstrbq_s32(p, v);
  }
  [[gnu::always_inline]] static inline void store(element* p, int32x4_t v, mve_pred16_t lanes) {
    if constexpr (P.type == dtype::u8) vstrbq_p_u32(p, vreinterpretq_u32_s32(v), lanes);
    else vstrbq_p_s32(p, v, lanes);
  }
#endif
};

}  // namespace ctnn::kernel::arm::mve::detail
