#pragma once
// ONNX's output stage (kernel_params::requantization == onnx) on four MVE lanes, for the MVE int8 convolution
// kernels (conv.hpp, depthwise.hpp) where they run the int8 calls that kernel/arm/mve/onnx_conv.hpp restates
// ONNX's integer convolutions as. Bit-exact with the DSP kernels' onnx_output (kernel/arm/detail/requantize.hpp),
// so with reference::onnx_quant::requantize_value, lane by lane:
//   float(acc)        VCVT.F32.S32, round to nearest (the DSP kernels' scalar VCVT in FPSCR's default mode);
//   * multiplier      VMUL.F32 (the per-channel multipliers are float bits in requant_arrays::multiplier,
//                     the per-tensor one P.onnx.multiplier_bits). Flushing denormals or not changes nothing:
//                     float(acc) is an integer, and a product below 2^-126 rounds to 0 either way;
//   rounded           VCVTN.S32.F32: to nearest, ties to even, saturated to int32, NaN to 0 (the DSP
//                     kernels' VCVTR);
//   + zero point      VQADD (QADD); the caller clamps (clamp_output, or store_eight's narrowing and clamp).
// Needs MVE's floating-point vectors (__ARM_FEATURE_MVE bit 1: the Cortex-M55's and M85's MVE-F); without,
// mve_onnx_available is false and the ONNX calls keep the DSP kernels.
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/mve/vector.hpp>

namespace ctnn::kernel::arm::mve::detail {

#if CTNN_ARM_MVE && (__ARM_FEATURE_MVE & 2)
inline constexpr bool mve_onnx_available = true;
#else
inline constexpr bool mve_onnx_available = false;
#endif

template <kernel_params P>
inline constexpr bool onnx_output_stage = P.requantization == requantization_policy::onnx;

// Whether an MVE int8 kernel can run P's output stage: TFLite's always, ONNX's with MVE-F.
template <kernel_params P>
inline constexpr bool output_stage_available = !onnx_output_stage<P> || mve_onnx_available;

#if CTNN_ARM_MVE && (__ARM_FEATURE_MVE & 2)

// round_half_even(float(acc) * multiplier) + zero point, saturated to int32, per lane (multiplier: float bits).
template <kernel_params P>
[[gnu::always_inline]] inline int32x4_t onnx_scale_plus_offset(int32x4_t acc, int32x4_t multiplier_bits) {
  const float32x4_t product = vmulq_f32(vcvtq_f32_s32(acc), vreinterpretq_f32_s32(multiplier_bits));
  return vqaddq_n_s32(vcvtnq_s32_f32(product), P.output_offset);
}
// The call's multipliers as float bits on four lanes: per channel those of channels [o, o + 4) (with `lanes`:
// those that exist, the others zero), per tensor P's.
template <kernel_params P>
[[gnu::always_inline]] inline int32x4_t onnx_multipliers(const std::int32_t* multiplier, std::int32_t o) {
  if constexpr (P.per_channel != 0) return vldrwq_s32(multiplier + o);
  else return vdupq_n_s32(static_cast<std::int32_t>(P.onnx.multiplier_bits));
}
template <kernel_params P>
[[gnu::always_inline]] inline int32x4_t onnx_multipliers(const std::int32_t* multiplier, std::int32_t o, mve_pred16_t lanes) {
  if constexpr (P.per_channel != 0) return vldrwq_z_s32(multiplier + o, lanes);
  else return vdupq_n_s32(static_cast<std::int32_t>(P.onnx.multiplier_bits));
}

#elif CTNN_ARM_MVE
// Declared only (the kernels name them in branches that need MVE-F; without it they decline ONNX's calls).
template <kernel_params P>
int32x4_t onnx_scale_plus_offset(int32x4_t acc, int32x4_t multiplier_bits);
template <kernel_params P>
int32x4_t onnx_multipliers(const std::int32_t* multiplier, std::int32_t o);
template <kernel_params P>
int32x4_t onnx_multipliers(const std::int32_t* multiplier, std::int32_t o, mve_pred16_t lanes);
#endif

}  // namespace ctnn::kernel::arm::mve::detail
