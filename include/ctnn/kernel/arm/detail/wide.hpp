#pragma once
// What the 16x8 DSP kernels (kernel/arm/s16.hpp) share: exact sums of int16 x int8 products in int32, and
// the int64 output stage.
//
// Sums: a product is at most 32768 * 128 = 2^22 in magnitude, so 511 of them add up exactly in an int32
// (SMLAD, SMLABB...), where TFLM's reference sums in int64. A call whose windows are longer flushes its int32
// sums into int64 ones every `exact_terms` products (a whole number of quads), which is the same sum.
//
// The output stage is TFLite's MultiplyByQuantizedMultiplier of an int64 (ctnn::detail::quant: the multiplier
// reduced to 16 bits, one rounding shift by 15 - shift, truncated to int32), with the reduced multiplier and
// the shift read once per output channel, clamped to the fused activation's range.
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#include <arm_acle.h>
#endif

namespace ctnn::kernel::arm::detail {

// The most int16 x int8 products an int32 holds exactly (511 * 2^22 < 2^31), rounded down to whole quads.
inline constexpr std::int32_t exact_terms = 508;

// Int32 partial sums of Pixels x Channels outputs and, where a window has more than exact_terms products
// (Wide), their int64 totals.
template <int Pixels, int Channels, bool Wide>
struct wide_sums {
  std::int32_t part[Pixels][Channels]{};
  std::int64_t total[Pixels][Channels]{};
  [[gnu::always_inline]] void flush() {
    if constexpr (Wide) {
#pragma GCC unroll 4
      for (int p = 0; p < Pixels; ++p)
#pragma GCC unroll 4
        for (int c = 0; c < Channels; ++c) {
          total[p][c] += part[p][c];
          part[p][c] = 0;
        }
    }
  }
  // The whole sum of output (p, c).
  [[gnu::always_inline]] std::int64_t sum(int p, int c) const { return Wide ? total[p][c] + part[p][c] : part[p][c]; }
};

// One output channel's int64 output stage. apply_short: the same for a sum that int32 holds with its bias
// (short_bias) and a multiplier below 2^31 (short_multiplier), where acc * multiplier + rounding is one SMLAL.
template <kernel_params P>
struct wide_stage {
  std::int32_t multiplier;  // reduced to 16 bits
  std::int32_t shift;       // 15 - TFLite's shift: a right shift of 8 to 46
  std::int64_t rounding;    // 2^(shift - 1)
  [[gnu::always_inline]] static wide_stage of(std::int32_t multiplier, std::int32_t shift) {
    const std::int32_t reduced = ctnn::detail::quant::reduced_multiplier(multiplier);
    if (shift < 15) return {reduced, 15 - shift, std::int64_t{1} << (14 - shift)};
    // A left shift (multiplier_wide's case): reduced * 2^(shift - 14), shifted right by 1 after adding 1, is
    // the same product. Up to 2^32 (shift 31): the bits of an unsigned multiplier for apply, which keeps the
    // low 32 bits of the product exact; negative as int32, it keeps such a channel off the short stage.
    return {static_cast<std::int32_t>(static_cast<std::uint32_t>(reduced) << (shift - 14)), 1, 1};
  }
  [[gnu::always_inline]] std::int16_t apply(std::int64_t acc) const {
    const std::uint64_t product =
        static_cast<std::uint64_t>(acc) * std::uint64_t{static_cast<std::uint32_t>(multiplier)};
    const auto rounded = static_cast<std::int64_t>(product + static_cast<std::uint64_t>(rounding));
    return clamp(static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(rounded >> shift))));
  }
  [[gnu::always_inline]] bool short_multiplier() const { return multiplier >= 0; }
  [[gnu::always_inline]] std::int16_t apply_short(std::int32_t acc) const {
    const std::int64_t rounded = static_cast<std::int64_t>(acc) * multiplier + rounding;
    // The low 32 bits of rounded >> shift, from its two words (the compiler's 64-bit shift by a variable
    // tests both ranges): the high word alone where the shift takes all of the low one.
    const auto high = static_cast<std::int32_t>(rounded >> 32);
    if (shift >= 32) return clamp(high >> (shift - 32));
    const auto low = static_cast<std::uint32_t>(static_cast<std::uint64_t>(rounded));
    return clamp(static_cast<std::int32_t>((low >> shift) | (static_cast<std::uint32_t>(high) << (32 - shift))));
  }
  [[gnu::always_inline]] static std::int16_t clamp(std::int32_t v) {
    if constexpr (P.activation_min > -32768) v = v < P.activation_min ? P.activation_min : v;
    if constexpr (P.activation_max < 32767) v = v > P.activation_max ? P.activation_max : v;
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
    return static_cast<std::int16_t>(__ssat(v, 16));
#else
    return static_cast<std::int16_t>(v < -32768 ? -32768 : (v > 32767 ? 32767 : v));
#endif
  }
};

// Whether every sum of Terms products plus `bias` fits in int32 (then apply_short applies).
template <std::int64_t Terms>
[[gnu::always_inline]] inline bool short_bias(std::int64_t bias) {
  constexpr std::int64_t limit = std::int64_t{0x7FFFFFFF} - Terms * (std::int64_t{1} << 22);
  if constexpr (limit < 0)
    return false;
  else
    return bias >= -limit && bias <= limit;
}

// Output channel `channel`'s stage: the call's per-channel arrays, or its one multiplier (per-tensor dense).
template <kernel_params P>
[[gnu::always_inline]] inline wide_stage<P> wide_stage_of(const std::int32_t* multiplier, const std::int32_t* shift,
                                                          std::int32_t channel) {
  if constexpr (P.per_channel != 0)
    return wide_stage<P>::of(multiplier[channel], shift[channel]);
  else
    return wide_stage<P>::of(P.output_multiplier, P.output_shift);
}

}  // namespace ctnn::kernel::arm::detail
