#pragma once
// The int8 output stage of the Armv6-M kernels, bit-exact with reference::int8::requantize_output (TFLite's
// MultiplyByQuantizedMultiplier, plus the output zero point in int32, wrapping, clamped), in 32-bit
// operations only: Armv6-M's MULS gives the low 32 bits of a product, and a 64-bit product is a call to
// __aeabi_lmul, so SaturatingRoundingDoublingHighMul(a, m) = floor((a * m + 2^30) / 2^31) (exact for
// m >= 0; arm/detail/requantize.hpp says why no saturation test is needed) is formed from 16-bit halves:
//   a = ah * 2^16 + al, m = mh * 2^16 + ml   (al, ml in [0, 2^16); ah in [-2^15, 2^15); mh in [0, 2^15))
//   a * m = ah*mh * 2^32 + (ah*ml + al*mh) * 2^16 + al*ml
// and, the low 16 bits of al*ml never carrying past the floor (floor((n + f) / d) = floor(n / d) for an
// integer n and 0 <= f < 1),
//   floor((a * m + 2^30) / 2^31) = 2*ah*mh + floor((ah*ml + s) / 2^15),  s = al*mh + (al*ml >> 16) + 2^14
// where s < 2^31 and ah*ml is split at bit 15 so that no sum leaves 32 bits: four MULS and a few shifts.
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/requantize.hpp>

namespace ctnn::kernel::arm::v6m {

using ctnn::detail::quant::wrapping_add;

// floor((a * m + 2^30) / 2^31) for 0 <= m < 2^31, in 32-bit arithmetic.
[[gnu::always_inline]] constexpr std::int32_t doubling_high_mul(std::int32_t a, std::int32_t m) {
  const std::uint32_t al = static_cast<std::uint32_t>(a) & 0xFFFFu;
  const std::int32_t ah = a >> 16;
  const std::uint32_t ml = static_cast<std::uint32_t>(m) & 0xFFFFu;
  const auto mh = static_cast<std::int32_t>(static_cast<std::uint32_t>(m) >> 16);
  const std::uint32_t low = al * ml;
  const auto cross = static_cast<std::int32_t>(static_cast<std::uint32_t>(ah) * ml);  // |ah * ml| < 2^31
  const std::uint32_t s = al * static_cast<std::uint32_t>(mh) + (low >> 16) + (1u << 14);
  const std::int32_t high = static_cast<std::int32_t>(static_cast<std::uint32_t>(ah * mh) << 1);
  return high + (cross >> 15) + static_cast<std::int32_t>((static_cast<std::uint32_t>(cross & 0x7FFF) + s) >> 15);
}

// MultiplyByQuantizedMultiplier(acc, multiplier, shift) plus the output zero point (arm::detail::scale_plus's
// steps, this file's product). Per-tensor calls pass compile-time constants, which fold the tests on the shift.
[[gnu::always_inline]] inline std::int32_t scale_plus(std::int32_t acc, std::int32_t multiplier, std::int32_t shift, std::int32_t offset) {
  if (shift > 0) {
    const auto shifted = static_cast<std::int32_t>(static_cast<std::uint32_t>(acc) << shift);
    return wrapping_add(doubling_high_mul(shifted, multiplier), offset);
  }
  const std::int32_t x = doubling_high_mul(acc, multiplier);
  return shift == 0 ? wrapping_add(x, offset) : arm::detail::divide_by_pot_rounding(x, -shift) + offset;
}

// The output of channel `channel` for accumulator acc (multiplier and shift per channel or per tensor).
template <kernel_params P>
[[gnu::always_inline]] inline std::int8_t requantize(std::int32_t acc, const std::int32_t* multiplier, const std::int32_t* shift,
                                                     std::int32_t channel) {
  if constexpr (P.per_channel != 0)
    return arm::detail::clamp_output<P>(scale_plus(acc, multiplier[channel], shift[channel], P.output_offset));
  else return arm::detail::clamp_output<P>(scale_plus(acc, P.output_multiplier, P.output_shift, P.output_offset));
}

}  // namespace ctnn::kernel::arm::v6m
