#pragma once
// The Armv7E-M DSP instructions the int8 kernels are written in (ACLE, <arm_acle.h>), each with a plain
// C++ twin of the same semantics for targets without the DSP extension, so that the kernels compile (and
// can be checked) everywhere; kernel/arm/i8.hpp only selects them where `dsp_available` holds.
//   sxtb16(w)            bytes 0 and 2 of w, sign-extended to the two int16 halves
//   sxtb16_ror8(w)       bytes 1 and 3 (SXTB16 with its rotation operand: inline asm, ACLE has no __ror
//                        and a C rotate is not folded into the instruction; docs/design.md §6)
//   sxtab16(a, w)        a's int16 halves plus bytes 0 and 2 of w (SXTAB16: the input offset added for free)
//   sxtab16_ror8(a, w)   ... plus bytes 1 and 3
//   smlad(x, y, acc)     acc + x.lo * y.lo + x.hi * y.hi (int16 halves)
//   smlabb / smlatt      acc + x.lo * y.lo, acc + x.hi * y.hi
//   smlabt / smlatb      acc + x.lo * y.hi, acc + x.hi * y.lo
//   low_halves(a, b)     (a.lo, b.lo) (PKHBT with LSL 16), high_halves(a, b): (a.hi, b.hi) (PKHTB with ASR 16)
//   load_word(p)         four bytes at any address (LDR: Armv7-M allows unaligned word loads)
// SMLAD/SMLABB/SMLATT wrap in 32 bits (the Q flag they may set is never read), as the reference kernels'
// int32 accumulators do; the kernels' own C++ accumulator arithmetic (bias plus offset term, scalar
// tails, the output zero point) wraps too, with wrapping_add (detail/quantization.hpp: one ADD or MLA).
#include <cstdint>
#include <cstring>

#include <ctnn/detail/quantization.hpp>

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#include <arm_acle.h>
#endif

namespace ctnn::kernel::arm::detail {

using ctnn::detail::quant::wrapping_add;

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP && !defined(CTNN_ARM_REFERENCE_KERNELS)
inline constexpr bool dsp_available = true;
#else
inline constexpr bool dsp_available = false;
#endif

[[gnu::always_inline]] inline std::uint32_t load_word(const std::int8_t* p) {
  std::uint32_t word;
  std::memcpy(&word, p, 4);
  return word;
}
// Two int16 values (p[0] in the low half): one LDR.
[[gnu::always_inline]] inline std::uint32_t load_word(const std::int16_t* p) {
  std::uint32_t word;
  std::memcpy(&word, p, 4);
  return word;
}

// The halves of two words regrouped (the compiler emits one PKHBT / PKHTB for each, on every Arm target).
[[gnu::always_inline]] inline std::uint32_t low_halves(std::uint32_t a, std::uint32_t b) {
  return (a & 0xFFFFu) | (b << 16);
}
[[gnu::always_inline]] inline std::uint32_t high_halves(std::uint32_t a, std::uint32_t b) {
  return (b & 0xFFFF0000u) | (a >> 16);
}

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP

[[gnu::always_inline]] inline std::uint32_t sxtb16(std::uint32_t w) { return __sxtb16(w); }
[[gnu::always_inline]] inline std::uint32_t sxtb16_ror8(std::uint32_t w) {
  std::uint32_t r;
  __asm("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(w));
  return r;
}
[[gnu::always_inline]] inline std::uint32_t sxtab16(std::uint32_t a, std::uint32_t w) { return __sxtab16(a, w); }
[[gnu::always_inline]] inline std::uint32_t sxtab16_ror8(std::uint32_t a, std::uint32_t w) {
  std::uint32_t r;
  __asm("sxtab16 %0, %1, %2, ror #8" : "=r"(r) : "r"(a), "r"(w));
  return r;
}
[[gnu::always_inline]] inline std::int32_t smlad(std::uint32_t x, std::uint32_t y, std::int32_t acc) {
  return __smlad(x, y, acc);
}
// Both int16 halves doubled (SADD16 of the word with itself).
[[gnu::always_inline]] inline std::uint32_t doubled_halves(std::uint32_t x) {
  return static_cast<std::uint32_t>(__sadd16(static_cast<std::int32_t>(x), static_cast<std::int32_t>(x)));
}
[[gnu::always_inline]] inline std::int32_t smlabb(std::uint32_t x, std::uint32_t y, std::int32_t acc) {
  return __smlabb(x, y, acc);
}
[[gnu::always_inline]] inline std::int32_t smlatt(std::uint32_t x, std::uint32_t y, std::int32_t acc) {
  return __smlatt(x, y, acc);
}
[[gnu::always_inline]] inline std::int32_t smlabt(std::uint32_t x, std::uint32_t y, std::int32_t acc) {
  return __smlabt(x, y, acc);
}
[[gnu::always_inline]] inline std::int32_t smlatb(std::uint32_t x, std::uint32_t y, std::int32_t acc) {
  return __smlatb(x, y, acc);
}

#else

namespace portable {
constexpr std::int32_t low(std::uint32_t x) { return static_cast<std::int16_t>(x & 0xFFFFu); }
constexpr std::int32_t high(std::uint32_t x) { return static_cast<std::int16_t>(x >> 16); }
constexpr std::int32_t byte(std::uint32_t x, int k) { return static_cast<std::int8_t>((x >> (8 * k)) & 0xFFu); }
constexpr std::uint32_t halves(std::int32_t lo, std::int32_t hi) {
  return (static_cast<std::uint32_t>(lo) & 0xFFFFu) | (static_cast<std::uint32_t>(hi) << 16);
}
}  // namespace portable

inline std::uint32_t sxtb16(std::uint32_t w) { return portable::halves(portable::byte(w, 0), portable::byte(w, 2)); }
inline std::uint32_t sxtb16_ror8(std::uint32_t w) { return portable::halves(portable::byte(w, 1), portable::byte(w, 3)); }
inline std::uint32_t sxtab16(std::uint32_t a, std::uint32_t w) {
  return portable::halves(portable::low(a) + portable::byte(w, 0), portable::high(a) + portable::byte(w, 2));
}
inline std::uint32_t sxtab16_ror8(std::uint32_t a, std::uint32_t w) {
  return portable::halves(portable::low(a) + portable::byte(w, 1), portable::high(a) + portable::byte(w, 3));
}
inline std::int32_t smlad(std::uint32_t x, std::uint32_t y, std::int32_t acc) {
  return wrapping_add(wrapping_add(acc, portable::low(x) * portable::low(y)), portable::high(x) * portable::high(y));
}
inline std::uint32_t doubled_halves(std::uint32_t x) { return portable::halves(2 * portable::low(x), 2 * portable::high(x)); }
inline std::int32_t smlabb(std::uint32_t x, std::uint32_t y, std::int32_t acc) {
  return wrapping_add(acc, portable::low(x) * portable::low(y));
}
inline std::int32_t smlatt(std::uint32_t x, std::uint32_t y, std::int32_t acc) {
  return wrapping_add(acc, portable::high(x) * portable::high(y));
}
inline std::int32_t smlabt(std::uint32_t x, std::uint32_t y, std::int32_t acc) {
  return wrapping_add(acc, portable::low(x) * portable::high(y));
}
inline std::int32_t smlatb(std::uint32_t x, std::uint32_t y, std::int32_t acc) {
  return wrapping_add(acc, portable::high(x) * portable::low(y));
}

#endif

// The input offset's term of a filter, offset * sum(w), wrapping as the accumulator it starts does (one MUL).
constexpr std::int32_t offset_term(std::int32_t offset, std::int32_t filter_sum) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(offset) * static_cast<std::uint32_t>(filter_sum));
}

// A 16-bit value in both halves of a word (the input offset for sxtab16).
constexpr std::uint32_t both_halves(std::int32_t v) {
  return (static_cast<std::uint32_t>(v) & 0xFFFFu) | (static_cast<std::uint32_t>(v) << 16);
}

}  // namespace ctnn::kernel::arm::detail
