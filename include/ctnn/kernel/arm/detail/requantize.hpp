#pragma once
// The int8 output stage of the DSP kernels, bit-exact with reference::int8::requantize_output (TFLite's
// double-rounding MultiplyByQuantizedMultiplier, plus the output zero point in int32, wrapping as on
// TFLite's targets, clamped), in fewer instructions than its literal form:
//   * SaturatingRoundingDoublingHighMul(a, m) is floor((a * m + 2^30) / 2^31) for every a, m other than
//     a = m = INT32_MIN (m >= 0 here): for a * m < 0 gemmlowp's truncating (a * m + 1 - 2^30) / 2^31
//     is the same floor. One SMULL and a 64-bit add and shift, no sign test.
//   * RoundingDivideByPOT(x, e >= 1) rounds half away from zero: with y = x - (x < 0) (no overflow: x >
//     INT32_MIN, as |a * m| < 2^62) and q = y >> (e - 1), it is ceil(q / 2) = (q >> 1) + (q & 1), which
//     cannot overflow where (x + 2^(e-1)) >> e would.
// Per-tensor calls have the multiplier and shift as compile-time constants; per-channel calls read them
// from the executor's arrays (requant_arrays) at run time.
//
// ONNX's output stage (kernel_params::requantization == onnx: the int8 calls kernel/arm/onnx_conv.hpp restates
// ONNX's integer convolutions as), bit-exact with reference::onnx_quant::requantize_value:
// saturate(round_half_even(float(acc) * multiplier) + zero point). The multiplier: P.onnx.multiplier_bits per
// tensor; per channel, float bits in requant_arrays::multiplier (onnx_conv.hpp packs them at compile time).
#include <bit>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/dsp.hpp>
#include <ctnn/kernel/reference/onnx_quant/rounding.hpp>

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#include <arm_acle.h>
#endif

namespace ctnn::kernel::arm::detail {

// v clamped to a signed Bits-bit range (SSAT).
template <int Bits>
[[gnu::always_inline]] inline std::int32_t saturate(std::int32_t v) {
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  return __ssat(v, Bits);
#else
  constexpr std::int32_t highest = (std::int32_t{1} << (Bits - 1)) - 1;
  return v < -highest - 1 ? -highest - 1 : (v > highest ? highest : v);
#endif
}

[[gnu::always_inline]] inline std::int32_t doubling_high_mul(std::int32_t a, std::int32_t m) {
  return static_cast<std::int32_t>((static_cast<std::int64_t>(a) * m + (std::int64_t{1} << 30)) >> 31);
}

// x / 2^exponent rounded half away from zero, exponent >= 1.
[[gnu::always_inline]] inline std::int32_t divide_by_pot_rounding(std::int32_t x, std::int32_t exponent) {
  const std::int32_t y = x + (x >> 31);
  const std::int32_t q = y >> (exponent - 1);
  return (q >> 1) + (q & 1);
}

// MultiplyByQuantizedMultiplier(acc, multiplier, shift) plus the output zero point, shift > 0 a left shift.
// TFLite adds the zero point in int32, which wraps on its targets (so does the reference's
// requantize_output): without a right shift the rescaled value may lie within 128 of INT32_MIN /
// INT32_MAX, and the zero point is added wrapping (wrapping_add); after a right shift of at least 1 it
// lies within +-2^30, where the plain add cannot overflow. The add in each branch rather than one wrapping
// add after them: g++ schedules that better (Cortex-M4 -O2, KWS 4.926 -> 4.906 M instructions, VWW
// 14.271 -> 14.247 M; one wrapping add after the branches: VWW 14.305 M).
[[gnu::always_inline]] inline std::int32_t scale_plus(std::int32_t acc, std::int32_t multiplier, std::int32_t shift,
                                                      std::int32_t offset) {
  if (shift > 0) {
    const auto shifted = static_cast<std::int32_t>(static_cast<std::uint32_t>(acc) << shift);
    return wrapping_add(doubling_high_mul(shifted, multiplier), offset);
  }
  const std::int32_t x = doubling_high_mul(acc, multiplier);
  return shift == 0 ? wrapping_add(x, offset) : divide_by_pot_rounding(x, -shift) + offset;
}

// (a * b + 2^31) >> 32 (SMMULR).
[[gnu::always_inline]] inline std::int32_t rounding_high_mul(std::int32_t a, std::int32_t b) {
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP && defined(__thumb2__)
  std::int32_t r;
  __asm("smmulr %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
  return r;
#else
  return static_cast<std::int32_t>((static_cast<std::int64_t>(a) * b + (std::int64_t{1} << 31)) >> 32);
#endif
}

// The short output stage: where |acc| < 2^30 and the shift is a right shift of at least 1 (a
// multiplier below one half: nearly every conv channel), doubling_high_mul(acc, m) is
// rounding_high_mul(2 * acc, m) exactly (floor((2 a m + 2^31) / 2^32)), one instruction instead of
// five, and the rounding division needs no test for a zero exponent.
[[gnu::always_inline]] inline std::int32_t scale_short(std::int32_t acc, std::int32_t multiplier, std::int32_t right_minus_one) {
  const std::int32_t x = rounding_high_mul(acc * 2, multiplier);
  const std::int32_t q = (x + (x >> 31)) >> right_minus_one;
  return (q >> 1) + (q & 1);
}

// (a * b + c * 2^32 + 2^31) >> 32 (SMMLAR).
[[gnu::always_inline]] inline std::int32_t rounding_high_mul_add(std::int32_t a, std::int32_t b, std::int32_t c) {
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP && defined(__thumb2__)
  std::int32_t r;
  __asm("smmlar %0, %1, %2, %3" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
#else
  return static_cast<std::int32_t>((static_cast<std::int64_t>(a) * b + static_cast<std::int64_t>(c) * (std::int64_t{1} << 32) +
                                    (std::int64_t{1} << 31)) >> 32);
#endif
}

// The short stage where the result is clamped at the output zero point or above (a fused ReLU:
// activation_min >= output_offset), with the zero point added. For x >= 0 the rounding division is
// floor((x + 2^(right-1)) / 2^right); for x < 0 both it and TFLite's rounding are <= 0, so both outputs
// clamp to activation_min. rounding = 2^(right-1) + output_offset * 2^right rides in SMMLAR's
// accumulator (the zero point passes the floor exactly, being a multiple of 2^right): two instructions
// where the plain short stage takes six. |x + rounding| < 2^30 + 2^(right+7) + 2^(right-1) stays below
// 2^31 for right <= max_clamped_right.
inline constexpr std::int32_t max_clamped_right = 22;
// Both short stages take twice the accumulator (2 * acc, exact for |acc| < 2^30), which some kernels
// accumulate directly (filters widened doubled).
[[gnu::always_inline]] inline std::int32_t scale_short_clamped(std::int32_t twice, std::int32_t multiplier, std::int32_t rounding,
                                                               std::int32_t right) {
  return rounding_high_mul_add(twice, multiplier, rounding) >> right;
}
// (2 * output_offset + 1) * 2^(right - 1); for right outside [1, max_clamped_right] some value the
// short stage does not use (short_applies).
[[gnu::always_inline]] constexpr std::int32_t clamped_rounding(std::int32_t right, std::int32_t output_offset) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(2 * output_offset + 1) << ((right - 1) & 31));
}

// The short stage with the zero point added, for results of either sign: RoundingDivideByPOT's half away
// from zero is floor((x + 2^(right-1) - [x < 0]) / 2^right), and the zero point rides in the same constant
// as in the clamped stage (rounding: clamped_rounding; a multiple of 2^right, it passes the floor
// exactly), inside SMMLAR's accumulator as there. [x < 0] is taken as [twice < 0] (its sign bit, a
// shifted operand of the subtraction): x has the sign of twice * multiplier (multiplier >= 0) or is 0,
// and at x = 0 both give the zero point (rounding - 1 and rounding floor alike: right >= 1). Three
// instructions where SMMULR and the add and correction after it took four; |x + rounding| <
// 2^30 + 2^(right+7) + 2^(right-1) stays below 2^31 for right <= max_clamped_right.
[[gnu::always_inline]] inline std::int32_t scale_short_plus(std::int32_t twice, std::int32_t multiplier, std::int32_t rounding,
                                                            std::int32_t right) {
  const std::int32_t x_plus = rounding_high_mul_add(twice, multiplier, rounding);
  return (x_plus - static_cast<std::int32_t>(static_cast<std::uint32_t>(twice) >> 31)) >> right;
}

// Whether a channel's accumulators are below 2^30 in magnitude for any input: |bias| plus the largest
// possible |sum (x + offset) * w| (255 * 128 per product: ProductBound), with a right shift.
template <std::int64_t ProductBound>
[[gnu::always_inline]] inline bool short_stage_applies(std::int32_t bias, std::int32_t shift) {
  if constexpr (ProductBound >= (std::int64_t{1} << 30)) {
    return false;
  } else {
    const std::int64_t magnitude = bias < 0 ? -static_cast<std::int64_t>(bias) : bias;
    return shift <= -1 && magnitude < (std::int64_t{1} << 30) - ProductBound;
  }
}

// One output channel's multiplier with its shift split into the left and right parts, read once per
// channel by kernels that walk many pixels of the same channel.
struct channel_scale {
  std::int32_t multiplier, left, right, rounding;  // rounding: scale_short_clamped's (clamped_rounding)
};
[[gnu::always_inline]] inline channel_scale channel_scale_of(std::int32_t multiplier, std::int32_t shift, std::int32_t output_offset) {
  const std::int32_t right = shift > 0 ? 0 : -shift;
  return {multiplier, shift > 0 ? shift : 0, right, clamped_rounding(right, output_offset)};
}
[[gnu::always_inline]] inline std::int32_t scale_plus(std::int32_t acc, const channel_scale& s, std::int32_t offset) {
  const std::int32_t x = doubling_high_mul(static_cast<std::int32_t>(static_cast<std::uint32_t>(acc) << s.left), s.multiplier);
  return s.right == 0 ? wrapping_add(x, offset) : divide_by_pot_rounding(x, s.right) + offset;
}

// The same with a compile-time multiplier, shift and zero point.
template <std::int32_t Multiplier, std::int32_t Shift, std::int32_t Offset>
[[gnu::always_inline]] inline std::int32_t scale_plus(std::int32_t acc) {
  if constexpr (Shift > 0) {
    const auto shifted = static_cast<std::int32_t>(static_cast<std::uint32_t>(acc) << Shift);
    return wrapping_add(doubling_high_mul(shifted, Multiplier), Offset);
  } else {
    const std::int32_t x = doubling_high_mul(acc, Multiplier);
    if constexpr (Shift == 0) return wrapping_add(x, Offset);
    else return divide_by_pot_rounding(x, -Shift) + Offset;
  }
}

// A value clamped to the fused activation's range, as int8.
template <kernel_params P>
[[gnu::always_inline]] inline std::int8_t clamp_output(std::int32_t v) {
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  v = __ssat(v, 8);
#else
  v = v < -128 ? -128 : (v > 127 ? 127 : v);
#endif
  if constexpr (P.activation_min > -128) v = v < P.activation_min ? P.activation_min : v;
  if constexpr (P.activation_max < 127) v = v > P.activation_max ? P.activation_max : v;
  return static_cast<std::int8_t>(v);
}

// A value after a right shift of at least 1 (|scaled| <= 2^30: the short stages) plus the output zero
// point, which cannot overflow there (scale_plus), clamped to the fused activation's range, as int8.
template <kernel_params P>
[[gnu::always_inline]] inline std::int8_t to_output(std::int32_t scaled) {
  return clamp_output<P>(scaled + P.output_offset);
}

// x rounded to the nearest integer, ties to even, saturated to int32; NaN gives 0. On the FPU, VCVTR rounds in
// FPSCR's mode, round to nearest even from reset (nothing in ctnn changes it), saturates and gives 0 for NaN.
[[gnu::always_inline]] inline std::int32_t round_to_int32(float x) {
#if defined(__ARM_FP) && (__ARM_FP & 4) && defined(__thumb2__)
  float r;
  __asm("vcvtr.s32.f32 %0, %1" : "=t"(r) : "t"(x));
  return std::bit_cast<std::int32_t>(r);
#else
  const float r = reference::onnx_quant::round_half_even(x);
  if (r != r) return 0;
  if (r >= 2147483648.0f) return INT32_MAX;
  if (r < -2147483648.0f) return INT32_MIN;
  return static_cast<std::int32_t>(r);
#endif
}

// a + b saturated to int32 (QADD).
[[gnu::always_inline]] inline std::int32_t saturating_add(std::int32_t a, std::int32_t b) {
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  return __qadd(a, b);
#else
  const std::int64_t sum = static_cast<std::int64_t>(a) + b;
  return sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : static_cast<std::int32_t>(sum);
#endif
}

// ONNX's output stage: the reference adds the zero point to the rounded float and saturates; the rounded
// value is an integer, exact in float where it matters (|r| < 2^24; beyond, both saturate), and a NaN product
// gives the zero point (0 + zero point) there as here.
template <kernel_params P>
[[gnu::always_inline]] inline std::int8_t onnx_output(std::int32_t acc, float multiplier) {
  return clamp_output<P>(saturating_add(round_to_int32(static_cast<float>(acc) * multiplier), P.output_offset));
}
template <kernel_params P>
inline constexpr bool onnx_stage = P.requantization == requantization_policy::onnx;

// The output stage of one output channel, its multiplier and shift read once (per-channel calls) or
// compile-time constants (per-tensor calls), for kernels that walk many pixels of one channel.
// apply<true> is the short stage (scale_short_clamped, scale_short_plus), for channels where short_applies.
template <kernel_params P>
struct output_stage {
  channel_scale s;
  // The clamped short stage (scale_short_clamped): per channel where the channel's right shift allows
  // it (short_applies), per tensor where the call's does.
  static constexpr bool clamped = !onnx_stage<P> && P.activation_min >= P.output_offset &&
                                  (P.per_channel != 0 || (P.output_shift <= -1 && -P.output_shift <= max_clamped_right));
  static constexpr std::int32_t tensor_rounding = clamped_rounding(-P.output_shift, P.output_offset);
  // ONNX's float multiplier of this channel (per-channel calls) or of the call.
  [[gnu::always_inline]] float onnx_multiplier() const {
    return std::bit_cast<float>(P.per_channel != 0 ? static_cast<std::uint32_t>(s.multiplier) : P.onnx.multiplier_bits);
  }
  template <bool Short>
  [[gnu::always_inline]] std::int8_t apply(std::int32_t acc) const {
    if constexpr (onnx_stage<P>) {
      return onnx_output<P>(acc, onnx_multiplier());
    } else if constexpr (Short) {
      return apply_twice(acc * 2);
    } else {
      if constexpr (P.per_channel != 0) return clamp_output<P>(scale_plus(acc, s, P.output_offset));
      else return clamp_output<P>(scale_plus<P.output_multiplier, P.output_shift, P.output_offset>(acc));
    }
  }
  // The short stage of twice the accumulator.
  [[gnu::always_inline]] std::int8_t apply_twice(std::int32_t twice) const {
    if constexpr (onnx_stage<P>) {
      return onnx_output<P>(twice / 2, onnx_multiplier());  // not reached: short_applies is false for it
    } else if constexpr (clamped) {
      if constexpr (P.per_channel != 0) return clamp_output<P>(scale_short_clamped(twice, s.multiplier, s.rounding, s.right));
      else return clamp_output<P>(scale_short_clamped(twice, P.output_multiplier, tensor_rounding, -P.output_shift));
    } else {
      if constexpr (P.per_channel != 0) return clamp_output<P>(scale_short_plus(twice, s.multiplier, s.rounding, s.right));
      else if constexpr (-P.output_shift <= max_clamped_right)
        return clamp_output<P>(scale_short_plus(twice, P.output_multiplier, tensor_rounding, -P.output_shift));
      else return to_output<P>(scale_short(twice >> 1, P.output_multiplier, -P.output_shift - 1));
    }
  }
  // Whether the short stage is SMMLAR and a shift (plus the sign correction where not clamped): its
  // multiplier, rounding and right shift (short_constants), for kernels that run it themselves.
  static constexpr bool smmlar_short = !onnx_stage<P> && (P.per_channel != 0 || clamped || -P.output_shift <= max_clamped_right);
  [[gnu::always_inline]] channel_scale short_constants() const {
    if constexpr (P.per_channel != 0) return s;
    else return {P.output_multiplier, 0, -P.output_shift, tensor_rounding};
  }
  template <std::int64_t ProductBound>
  [[gnu::always_inline]] bool short_applies(std::int32_t bias) const {
    if constexpr (onnx_stage<P>)
      return false;  // ONNX's float stage has no short form (apply<false> runs it; no walk doubles its sums)
    else if constexpr (P.per_channel != 0)  // both short stages add a rounding constant that needs right <= max_clamped_right
      return short_stage_applies<ProductBound>(bias, -s.right + s.left) && s.right <= max_clamped_right;
    else return short_stage_applies<ProductBound>(bias, P.per_channel != 0 ? -s.right + s.left : P.output_shift);
  }
};
template <kernel_params P>
[[gnu::always_inline]] inline output_stage<P> output_stage_of(const std::int32_t* multiplier, const std::int32_t* shift, std::int32_t channel) {
  if constexpr (onnx_stage<P> && P.per_channel != 0) return {channel_scale{multiplier[channel], 0, 0, 0}};  // float bits
  else if constexpr (P.per_channel != 0) return {channel_scale_of(multiplier[channel], shift[channel], P.output_offset)};
  else return {};
}

// The output stage of output channel `channel`: the call's multiplier and shift, per channel or per tensor.
template <kernel_params P>
[[gnu::always_inline]] inline std::int8_t requantize(std::int32_t acc, const std::int32_t* multiplier, const std::int32_t* shift,
                                                     std::int32_t channel) {
  if constexpr (onnx_stage<P>)
    return onnx_output<P>(acc, std::bit_cast<float>(P.per_channel != 0 ? static_cast<std::uint32_t>(multiplier[channel]) : P.onnx.multiplier_bits));
  else if constexpr (P.per_channel != 0)
    return clamp_output<P>(scale_plus(acc, multiplier[channel], shift[channel], P.output_offset));
  else return clamp_output<P>(scale_plus<P.output_multiplier, P.output_shift, P.output_offset>(acc));
}

}  // namespace ctnn::kernel::arm::detail
