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
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/dsp.hpp>

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
[[gnu::always_inline]] inline std::int32_t scale_short_clamped(std::int32_t acc, std::int32_t multiplier, std::int32_t rounding,
                                                               std::int32_t right) {
  return rounding_high_mul_add(acc * 2, multiplier, rounding) >> right;
}
// (2 * output_offset + 1) * 2^(right - 1); for right outside [1, max_clamped_right] some value the
// short stage does not use (short_applies).
[[gnu::always_inline]] constexpr std::int32_t clamped_rounding(std::int32_t right, std::int32_t output_offset) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(2 * output_offset + 1) << ((right - 1) & 31));
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

// The output stage of one output channel, its multiplier and shift read once (per-channel calls) or
// compile-time constants (per-tensor calls), for kernels that walk many pixels of one channel.
// apply<true> is the short stage (scale_short), for channels where short_stage_applies.
template <kernel_params P>
struct output_stage {
  channel_scale s;
  // The clamped short stage (scale_short_clamped): per channel where the channel's right shift allows
  // it (short_applies), per tensor where the call's does.
  static constexpr bool clamped = P.activation_min >= P.output_offset &&
                                  (P.per_channel != 0 || (P.output_shift <= -1 && -P.output_shift <= max_clamped_right));
  static constexpr std::int32_t tensor_rounding = clamped_rounding(-P.output_shift, P.output_offset);
  template <bool Short>
  [[gnu::always_inline]] std::int8_t apply(std::int32_t acc) const {
    if constexpr (Short && clamped) {
      if constexpr (P.per_channel != 0) return clamp_output<P>(scale_short_clamped(acc, s.multiplier, s.rounding, s.right));
      else return clamp_output<P>(scale_short_clamped(acc, P.output_multiplier, tensor_rounding, -P.output_shift));
    } else if constexpr (Short) {
      if constexpr (P.per_channel != 0) return to_output<P>(scale_short(acc, s.multiplier, s.right - 1));
      else return to_output<P>(scale_short(acc, P.output_multiplier, -P.output_shift - 1));
    } else {
      if constexpr (P.per_channel != 0) return clamp_output<P>(scale_plus(acc, s, P.output_offset));
      else return clamp_output<P>(scale_plus<P.output_multiplier, P.output_shift, P.output_offset>(acc));
    }
  }
  template <std::int64_t ProductBound>
  [[gnu::always_inline]] bool short_applies(std::int32_t bias) const {
    if constexpr (clamped && P.per_channel != 0)
      return short_stage_applies<ProductBound>(bias, -s.right + s.left) && s.right <= max_clamped_right;
    else return short_stage_applies<ProductBound>(bias, P.per_channel != 0 ? -s.right + s.left : P.output_shift);
  }
};
template <kernel_params P>
[[gnu::always_inline]] inline output_stage<P> output_stage_of(const std::int32_t* multiplier, const std::int32_t* shift, std::int32_t channel) {
  if constexpr (P.per_channel != 0) return {channel_scale_of(multiplier[channel], shift[channel], P.output_offset)};
  else return {};
}

// The output stage of output channel `channel`: the call's multiplier and shift, per channel or per tensor.
template <kernel_params P>
[[gnu::always_inline]] inline std::int8_t requantize(std::int32_t acc, const std::int32_t* multiplier, const std::int32_t* shift,
                                                     std::int32_t channel) {
  if constexpr (P.per_channel != 0)
    return clamp_output<P>(scale_plus(acc, multiplier[channel], shift[channel], P.output_offset));
  else return clamp_output<P>(scale_plus<P.output_multiplier, P.output_shift, P.output_offset>(acc));
}

}  // namespace ctnn::kernel::arm::detail
