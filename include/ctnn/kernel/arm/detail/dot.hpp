#pragma once
// The dot products of the int8 convolution kernels: Pixels x Channels accumulators over a stretch of
// input and of filters, four values a step (SXTB16/SXTAB16 widening, SMLAD), in C++ (detail/dsp.hpp),
// and the 2 x 2 block as one inline-assembly loop on Armv7E-M. The compiler keeps at most ~11 values
// in registers around the C++ form of that block (it schedules loads early and spills two
// accumulators: 30 instructions a step instead of 22, measured on KWS's 1x1 convs); the loop below
// holds its 4 accumulators, 6 temporaries and 3 pointers/counters in 13 registers, two steps per turn:
// 21 instructions per 16 MACs.
#include <cstddef>
#include <cstdint>

#include <ctnn/kernel/arm/detail/dsp.hpp>

// The assembly loops hold 11 to 14 values in registers: optimised builds only (at -O0, r7 is the frame
// pointer and such a loop may not find its registers; the C++ forms then run).
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP && defined(__thumb2__) && defined(__OPTIMIZE__)
#define CTNN_ARM_DOT_ASM 1
#else
#define CTNN_ARM_DOT_ASM 0
#endif

namespace ctnn::kernel::arm::detail {

// The constants of short_block_2x2_asm (pointwise_blocks): two output channels' start and short stage.
struct short_block_constants {
  std::int32_t start[2];        // twice the biases
  std::int32_t scale[2][2];     // per channel: multiplier, rounding
  std::int32_t right[2];
};

// Declared for every target (pointwise_blocks names it under `if constexpr`), defined for the assembly's.
template <std::ptrdiff_t XStep, std::ptrdiff_t WStep, std::int32_t Steps, bool Clamped>
void short_block_2x2_asm(const std::uint32_t*& x, const std::int8_t*& w, const short_block_constants& k, std::int32_t (&acc)[2][2]);

// Whether the assembly 2 x 2 block serves a stretch with these distances (LDR's immediate offsets).
template <std::ptrdiff_t XStep, std::ptrdiff_t WStep>
inline constexpr bool asm_block_fits =
#if CTNN_ARM_DOT_ASM
    XStep >= 0 && XStep <= 4095 && WStep >= 4 && WStep - 4 <= 4095;
#else
    false;
#endif

#if CTNN_ARM_DOT_ASM
// One step: inputs of pixels 0 and 1 (x, x + XStep), filters of channels 0 and 1 (w, w + WStep); x and
// w advance by 4. AddOffset: the inputs widened with SXTAB16 (plus the offset pair), else SXTB16.
#define CTNN_ARM_DOT_2X2_STEP(WIDEN_ODD, WIDEN_EVEN)           \
  "ldr %[b], [%[x], %[xs]]\n\t"                                \
  "ldr %[a], [%[x]], #4\n\t" WIDEN_ODD(c, a) WIDEN_EVEN(a, a)  \
      WIDEN_ODD(d, b) WIDEN_EVEN(b, b) CTNN_ARM_DOT_2X2_PRODUCTS
// The products of a step: pixel 0's even and odd words in a and c, pixel 1's in b and d; the filters of
// channels 0 and 1 at w and w + WStep (w advances by 4), widened here.
#define CTNN_ARM_DOT_2X2_PRODUCTS                              \
  "ldr %[e], [%[w]], #4\n\t"                                   \
  "sxtb16 %[f], %[e], ror #8\n\t"                              \
  "sxtb16 %[e], %[e]\n\t"                                      \
  "smlad %[a00], %[a], %[e], %[a00]\n\t"                       \
  "smlad %[a00], %[c], %[f], %[a00]\n\t"                       \
  "smlad %[a10], %[b], %[e], %[a10]\n\t"                       \
  "smlad %[a10], %[d], %[f], %[a10]\n\t"                       \
  "ldr %[e], [%[w], %[ws]]\n\t"                                \
  "sxtb16 %[f], %[e], ror #8\n\t"                              \
  "sxtb16 %[e], %[e]\n\t"                                      \
  "smlad %[a01], %[a], %[e], %[a01]\n\t"                       \
  "smlad %[a01], %[c], %[f], %[a01]\n\t"                       \
  "smlad %[a11], %[b], %[e], %[a11]\n\t"                       \
  "smlad %[a11], %[d], %[f], %[a11]\n\t"
#define CTNN_ARM_SXTB16_ODD(to, from) "sxtb16 %[" #to "], %[" #from "], ror #8\n\t"
#define CTNN_ARM_SXTB16_EVEN(to, from) "sxtb16 %[" #to "], %[" #from "]\n\t"
#define CTNN_ARM_SXTAB16_ODD(to, from) "sxtab16 %[" #to "], %[off], %[" #from "], ror #8\n\t"
#define CTNN_ARM_SXTAB16_EVEN(to, from) "sxtab16 %[" #to "], %[off], %[" #from "]\n\t"
// `steps` steps of STEP (`pairs` = steps / 2, the loop counter %[n]): an odd one first, then two a turn.
#define CTNN_ARM_DOT_STEPS(STEP, OPERANDS)      \
  if (steps & 1) __asm volatile(STEP OPERANDS); \
  if (pairs > 0) __asm volatile("1:\n\t" STEP STEP "subs %[n], %[n], #1\n\tbne 1b\n\t" OPERANDS)

#define CTNN_ARM_DOT_2X2_OUTPUTS                                                                                                 \
  : [a] "=&r"(a), [b] "=&r"(b), [c] "=&r"(c), [d] "=&r"(d), [e] "=&r"(e), [f] "=&r"(f), [x] "+r"(x), [w] "+r"(w), [n] "+r"(pairs), \
    [a00] "+r"(acc[0][0]), [a01] "+r"(acc[0][1]), [a10] "+r"(acc[1][0]), [a11] "+r"(acc[1][1])

template <std::ptrdiff_t XStep, std::ptrdiff_t WStep, bool AddOffset>
[[gnu::always_inline]] inline void dot_2x2_asm(const std::int8_t*& x, const std::int8_t*& w, std::int32_t steps, std::uint32_t offset_pair,
                                               std::int32_t (&acc)[2][2]) {
  std::uint32_t a, b, c, d, e, f;
  std::int32_t pairs = steps >> 1;
  // The operands of both loops; "memory": the asm reads the stretches.
#define CTNN_ARM_DOT_2X2_OPERANDS CTNN_ARM_DOT_2X2_OUTPUTS : [xs] "i"(XStep), [ws] "i"(WStep - 4), [off] "r"(offset_pair) : "cc", "memory"
  if constexpr (AddOffset) {
    CTNN_ARM_DOT_STEPS(CTNN_ARM_DOT_2X2_STEP(CTNN_ARM_SXTAB16_ODD, CTNN_ARM_SXTAB16_EVEN), CTNN_ARM_DOT_2X2_OPERANDS);
  } else {
    CTNN_ARM_DOT_STEPS(CTNN_ARM_DOT_2X2_STEP(CTNN_ARM_SXTB16_ODD, CTNN_ARM_SXTB16_EVEN), CTNN_ARM_DOT_2X2_OPERANDS);
  }
#undef CTNN_ARM_DOT_2X2_OPERANDS
}

// One step over inputs widened beforehand (widen_quads): pixel 0's even and odd words at x, pixel 1's
// XStep bytes further, each read by one LDRD; filters of channels 0 and 1 at w and w + WStep, widened
// here. 16 instructions per 16 MACs (21 when the inputs are widened in the loop), 13 registers.
#define CTNN_ARM_DOT_WIDENED_STEP     \
  "ldrd %[a], %[c], [%[x]], #8\n\t"   \
  "ldrd %[b], %[d], [%[x], %[xs]]\n\t" CTNN_ARM_DOT_2X2_PRODUCTS

template <std::ptrdiff_t XStep, std::ptrdiff_t WStep>
[[gnu::always_inline]] inline void dot_widened_2x2_asm(const std::uint32_t* x, const std::int8_t* w, std::int32_t steps,
                                                       std::int32_t (&acc)[2][2]) {
  std::uint32_t a, b, c, d, e, f;
  std::int32_t pairs = steps >> 1;
#define CTNN_ARM_DOT_WIDENED_OPERANDS CTNN_ARM_DOT_2X2_OUTPUTS : [xs] "i"(XStep - 8), [ws] "i"(WStep - 4) : "cc", "memory"
  CTNN_ARM_DOT_STEPS(CTNN_ARM_DOT_WIDENED_STEP, CTNN_ARM_DOT_WIDENED_OPERANDS);
#undef CTNN_ARM_DOT_WIDENED_OPERANDS
}
// The same for a compile-time count of at most 8 steps, no loop: every step inline, two per statement
// (no counter, no branch: 16 instructions per 16 MACs exactly). Pointwise convs over few input channels,
// where the loop's counter and branches were 5 of every 69 instructions.
#define CTNN_ARM_DOT_2X2_UNROLLED_OUTPUTS                                                                               \
  : [a] "=&r"(a), [b] "=&r"(b), [c] "=&r"(c), [d] "=&r"(d), [e] "=&r"(e), [f] "=&r"(f), [x] "+r"(x), [w] "+r"(w), \
    [a00] "+r"(acc[0][0]), [a01] "+r"(acc[0][1]), [a10] "+r"(acc[1][0]), [a11] "+r"(acc[1][1])
template <std::ptrdiff_t XStep, std::ptrdiff_t WStep, std::int32_t Steps>
[[gnu::always_inline]] inline void dot_widened_2x2_unrolled_asm(const std::uint32_t* x, const std::int8_t* w, std::int32_t (&acc)[2][2]) {
  static_assert(Steps >= 1 && Steps <= 8);
  std::uint32_t a, b, c, d, e, f;
#define CTNN_ARM_DOT_UNROLLED_OPERANDS CTNN_ARM_DOT_2X2_UNROLLED_OUTPUTS : [xs] "i"(XStep - 8), [ws] "i"(WStep - 4) : "memory"
  if constexpr (Steps % 2 != 0) __asm volatile(CTNN_ARM_DOT_WIDENED_STEP CTNN_ARM_DOT_UNROLLED_OPERANDS);
#pragma GCC unroll 4
  for (std::int32_t k = 0; k < Steps / 2; ++k) __asm volatile(CTNN_ARM_DOT_WIDENED_STEP CTNN_ARM_DOT_WIDENED_STEP CTNN_ARM_DOT_UNROLLED_OPERANDS);
#undef CTNN_ARM_DOT_UNROLLED_OPERANDS
}
#undef CTNN_ARM_DOT_2X2_UNROLLED_OUTPUTS

// A whole 2 x 2 block of doubled sums (inputs widened doubled, widen_quads_doubled) and its short output
// stage, for Steps <= 8 quads: the accumulators start from twice the biases, and after the last step each
// is scaled by its channel's SMMLAR (multiplier, rounding) minus its sign bit (scale_short_plus; Clamped:
// without it, scale_short_clamped) and shifted right. The channels' constants come from `c` (short_block_
// constants), two LDRDs at a time, into the registers the products freed: the compiler, holding them
// across the loop with the pointers and counters, spilled and reloaded them (37 instructions after the
// products where these take 19). x ends at the next pixel pair, w where it started.
#define CTNN_ARM_SHORT_SCALE(TO, ACC, M, R, SIGN) \
  "smmlar %[" #TO "], %[" #ACC "], %[" #M "], %[" #R "]\n\t" SIGN(TO, ACC)
#define CTNN_ARM_SIGN_FIX(TO, ACC) "sub %[" #TO "], %[" #TO "], %[" #ACC "], lsr #31\n\t"
#define CTNN_ARM_NO_SIGN_FIX(TO, ACC)
#define CTNN_ARM_SHORT_BLOCK_STAGE(SIGN)                         \
  "ldrd %[a], %[b], [%[k], #8]\n\t"                              \
  CTNN_ARM_SHORT_SCALE(c, a00, a, b, SIGN)                       \
  CTNN_ARM_SHORT_SCALE(d, a10, a, b, SIGN)                       \
  "ldrd %[a], %[b], [%[k], #16]\n\t"                             \
  CTNN_ARM_SHORT_SCALE(e, a01, a, b, SIGN)                       \
  CTNN_ARM_SHORT_SCALE(f, a11, a, b, SIGN)                       \
  "ldrd %[a], %[b], [%[k], #24]\n\t"                             \
  "asr %[a00], %[c], %[a]\n\t"                                   \
  "asr %[a10], %[d], %[a]\n\t"                                   \
  "asr %[a01], %[e], %[b]\n\t"                                   \
  "asr %[a11], %[f], %[b]\n\t"                                   \
  "add %[x], %[x], %[xs] + 8\n\t"                                \
  "sub %[w], %[w], %[wback]\n\t"
template <std::ptrdiff_t XStep, std::ptrdiff_t WStep, std::int32_t Steps, bool Clamped>
[[gnu::always_inline]] inline void short_block_2x2_asm(const std::uint32_t*& x, const std::int8_t*& w, const short_block_constants& k,
                                                       std::int32_t (&acc)[2][2]) {
  static_assert(Steps >= 1 && Steps <= 8);
  std::uint32_t a, b, c, d, e, f;
  const short_block_constants* kp = &k;
#pragma GCC unroll 2
  for (int ch = 0; ch < 2; ++ch) acc[0][ch] = acc[1][ch] = k.start[ch];
#define CTNN_ARM_SHORT_BLOCK_OPERANDS                                                                                    \
  : [a] "=&r"(a), [b] "=&r"(b), [c] "=&r"(c), [d] "=&r"(d), [e] "=&r"(e), [f] "=&r"(f), [x] "+r"(x), [w] "+r"(w),   \
    [a00] "+r"(acc[0][0]), [a01] "+r"(acc[0][1]), [a10] "+r"(acc[1][0]), [a11] "+r"(acc[1][1])                      \
  : [xs] "i"(XStep - 8), [ws] "i"(WStep - 4), [k] "r"(kp), [wback] "i"(4 * Steps) : "memory"
  if constexpr (Steps % 2 != 0) __asm volatile(CTNN_ARM_DOT_WIDENED_STEP CTNN_ARM_SHORT_BLOCK_OPERANDS);
#pragma GCC unroll 4
  for (std::int32_t s = 0; s < Steps / 2; ++s) __asm volatile(CTNN_ARM_DOT_WIDENED_STEP CTNN_ARM_DOT_WIDENED_STEP CTNN_ARM_SHORT_BLOCK_OPERANDS);
  if constexpr (Clamped) __asm volatile(CTNN_ARM_SHORT_BLOCK_STAGE(CTNN_ARM_NO_SIGN_FIX) CTNN_ARM_SHORT_BLOCK_OPERANDS);
  else __asm volatile(CTNN_ARM_SHORT_BLOCK_STAGE(CTNN_ARM_SIGN_FIX) CTNN_ARM_SHORT_BLOCK_OPERANDS);
#undef CTNN_ARM_SHORT_BLOCK_OPERANDS
}
#undef CTNN_ARM_SHORT_BLOCK_STAGE
#undef CTNN_ARM_SHORT_SCALE
#undef CTNN_ARM_SIGN_FIX
#undef CTNN_ARM_NO_SIGN_FIX
#undef CTNN_ARM_DOT_WIDENED_STEP

// One pixel x 4 channels (dense layers of one row): one input word, widened with the offset added
// (SXTAB16), serves four filters (w, w + WStep, ...). 23 instructions per 16 MACs, 12 registers.
#define CTNN_ARM_DOT_1X4_CHANNEL(ACC, LOAD)    \
  LOAD                                         \
  "sxtb16 %[d], %[c], ror #8\n\t"             \
  "sxtb16 %[c], %[c]\n\t"                     \
  "smlad %[" #ACC "], %[a], %[c], %[" #ACC "]\n\t" \
  "smlad %[" #ACC "], %[b], %[d], %[" #ACC "]\n\t"
#define CTNN_ARM_DOT_1X4_STEP                                                  \
  "ldr %[a], [%[x]], #4\n\t"                                                  \
  "sxtab16 %[b], %[off], %[a], ror #8\n\t"                                    \
  "sxtab16 %[a], %[off], %[a]\n\t"                                            \
  CTNN_ARM_DOT_1X4_CHANNEL(a1, "ldr %[c], [%[w], %[w1]]\n\t")                 \
  CTNN_ARM_DOT_1X4_CHANNEL(a2, "ldr %[c], [%[w], %[w2]]\n\t")                 \
  CTNN_ARM_DOT_1X4_CHANNEL(a3, "ldr %[c], [%[w], %[w3]]\n\t")                 \
  CTNN_ARM_DOT_1X4_CHANNEL(a0, "ldr %[c], [%[w]], #4\n\t")

#define CTNN_ARM_DOT_1X4_OUTPUTS                                                                                           \
  : [a] "=&r"(a), [b] "=&r"(b), [c] "=&r"(c), [d] "=&r"(d), [x] "+r"(x), [w] "+r"(w), [n] "+r"(pairs), [a0] "+r"(acc[0][0]), \
    [a1] "+r"(acc[0][1]), [a2] "+r"(acc[0][2]), [a3] "+r"(acc[0][3])

template <std::ptrdiff_t WStep>
[[gnu::always_inline]] inline void dot_1x4_asm(const std::int8_t*& x, const std::int8_t*& w, std::int32_t steps, std::uint32_t offset_pair,
                                              std::int32_t (&acc)[1][4]) {
  std::uint32_t a, b, c, d;
  std::int32_t pairs = steps >> 1;
#define CTNN_ARM_DOT_1X4_OPERANDS \
  CTNN_ARM_DOT_1X4_OUTPUTS : [w1] "i"(WStep), [w2] "i"(2 * WStep), [w3] "i"(3 * WStep), [off] "r"(offset_pair) : "cc", "memory"
  CTNN_ARM_DOT_STEPS(CTNN_ARM_DOT_1X4_STEP, CTNN_ARM_DOT_1X4_OPERANDS);
#undef CTNN_ARM_DOT_1X4_OPERANDS
}

// The same over an input widened beforehand (widen_quads): one LDRD per step instead of a load and two
// SXTAB16. 21 instructions per 16 MACs, 11 registers.
#define CTNN_ARM_DOT_WIDENED_1X4_STEP                               \
  "ldrd %[a], %[b], [%[x]], #8\n\t"                                  \
  CTNN_ARM_DOT_1X4_CHANNEL(a1, "ldr %[c], [%[w], %[w1]]\n\t")      \
  CTNN_ARM_DOT_1X4_CHANNEL(a2, "ldr %[c], [%[w], %[w2]]\n\t")      \
  CTNN_ARM_DOT_1X4_CHANNEL(a3, "ldr %[c], [%[w], %[w3]]\n\t")      \
  CTNN_ARM_DOT_1X4_CHANNEL(a0, "ldr %[c], [%[w]], #4\n\t")

template <std::ptrdiff_t WStep>
[[gnu::always_inline]] inline void dot_widened_1x4_asm(const std::uint32_t* x, const std::int8_t* w, std::int32_t steps,
                                                       std::int32_t (&acc)[1][4]) {
  std::uint32_t a, b, c, d;
  std::int32_t pairs = steps >> 1;
#define CTNN_ARM_DOT_WIDENED_1X4_OPERANDS \
  CTNN_ARM_DOT_1X4_OUTPUTS : [w1] "i"(WStep), [w2] "i"(2 * WStep), [w3] "i"(3 * WStep) : "cc", "memory"
  CTNN_ARM_DOT_STEPS(CTNN_ARM_DOT_WIDENED_1X4_STEP, CTNN_ARM_DOT_WIDENED_1X4_OPERANDS);
#undef CTNN_ARM_DOT_WIDENED_1X4_OPERANDS
}
#undef CTNN_ARM_DOT_WIDENED_1X4_STEP

// Four filters re-laid out per quad (conv_kernel::pack: the 4 channels' words of a quad side by side):
// Quads quads, a compile-time count: the steps past a multiple of 4 unrolled first, then 4 a turn.
#define CTNN_ARM_DOT_PACKED_CHANNEL(ACC, WORD, TEMP)       \
  "sxtb16 %[" #TEMP "], %[" #WORD "], ror #8\n\t"          \
  "sxtb16 %[" #WORD "], %[" #WORD "]\n\t"                  \
  "smlad %[" #ACC "], %[a], %[" #WORD "], %[" #ACC "]\n\t" \
  "smlad %[" #ACC "], %[b], %[" #TEMP "], %[" #ACC "]\n\t"
#define CTNN_ARM_DOT_PACKED_QUADS(STEP, LOOP_END, OPERANDS)                                       \
  if constexpr (Quads % 2 != 0) __asm volatile(STEP OPERANDS);                                    \
  if constexpr (Quads % 4 >= 2) __asm volatile(STEP STEP OPERANDS);                               \
  if constexpr (Quads >= 8) __asm volatile("1:\n\t" STEP STEP STEP STEP LOOP_END "bne 1b\n\t" OPERANDS); \
  else if constexpr (Quads >= 4) __asm volatile(STEP STEP STEP STEP OPERANDS);

// Over an input widened beforehand: one LDRD and one LDM per quad, 18 instructions per 16 MACs, all 14
// registers (LDM fills registers in ascending order: the weight words live in r0-r3, c0 the first
// channel's).
#define CTNN_ARM_DOT_PACKED_WIDENED_STEP        \
  "ldrd %[a], %[b], [%[x]], #8\n\t"             \
  "ldm %[w]!, {%[c0], %[c1], %[c2], %[c3]}\n\t" \
  CTNN_ARM_DOT_PACKED_CHANNEL(a0, c0, t)         \
  CTNN_ARM_DOT_PACKED_CHANNEL(a1, c1, c0)        \
  CTNN_ARM_DOT_PACKED_CHANNEL(a2, c2, c1)        \
  CTNN_ARM_DOT_PACKED_CHANNEL(a3, c3, c2)

// Both pinned loops' operands: every operand in a register chosen here (left to the allocator, 13 or 14
// operands next to the callers' values failed to allocate in some callers: "impossible constraints").
#define CTNN_ARM_DOT_PACKED_OPERANDS                                                                                     \
  : [a] "=&r"(a), [b] "=&r"(b), [t] "=&r"(t), [c0] "=&r"(c0), [c1] "=&r"(c1), [c2] "=&r"(c2), [c3] "=&r"(c3), [x] "+r"(xr),     \
    [w] "+r"(wr), [n] "+r"(turns), [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3)                               \
  :                                                                                                                           \
  : "cc", "memory"

// Over the int8 input with the offset folded into the accumulators (conv_kernel::pack's terms): the
// input widened in the loop by SXTB16, one LDR and one LDM per quad, 20 instructions per 16 MACs, the
// same registers.
#define CTNN_ARM_DOT_PACKED_FOLDED_STEP         \
  "ldr %[a], [%[x]], #4\n\t"                    \
  "sxtb16 %[b], %[a], ror #8\n\t"               \
  "sxtb16 %[a], %[a]\n\t"                       \
  "ldm %[w]!, {%[c0], %[c1], %[c2], %[c3]}\n\t" \
  CTNN_ARM_DOT_PACKED_CHANNEL(a0, c0, t)         \
  CTNN_ARM_DOT_PACKED_CHANNEL(a1, c1, c0)        \
  CTNN_ARM_DOT_PACKED_CHANNEL(a2, c2, c1)        \
  CTNN_ARM_DOT_PACKED_CHANNEL(a3, c3, c2)

template <std::int32_t Quads, class Input>
[[gnu::always_inline]] inline void dot_packed_pinned_1x4_asm(const Input* x, const std::int8_t* w, std::int32_t (&acc)[1][4]) {
  register std::uint32_t c0 asm("r0");
  register std::uint32_t c1 asm("r1");
  register std::uint32_t c2 asm("r2");
  register std::uint32_t c3 asm("r3");
  register std::uint32_t a asm("r4");
  register std::uint32_t b asm("r5");
  register std::uint32_t t asm("r6");
  register std::int32_t a0 asm("r8") = acc[0][0];
  register std::int32_t a1 asm("r9") = acc[0][1];
  register std::int32_t a2 asm("r10") = acc[0][2];
  register std::int32_t a3 asm("r11") = acc[0][3];
  register const Input* xr asm("r12") = x;
  register const std::int8_t* wr asm("lr") = w;
  register std::int32_t turns asm("r7") = Quads / 4;
  if constexpr (sizeof(Input) == 4) {
    CTNN_ARM_DOT_PACKED_QUADS(CTNN_ARM_DOT_PACKED_WIDENED_STEP, "subs %[n], %[n], #1\n\t", CTNN_ARM_DOT_PACKED_OPERANDS)
  } else {
    CTNN_ARM_DOT_PACKED_QUADS(CTNN_ARM_DOT_PACKED_FOLDED_STEP, "subs %[n], %[n], #1\n\t", CTNN_ARM_DOT_PACKED_OPERANDS)
  }
  acc[0][0] = a0, acc[0][1] = a1, acc[0][2] = a2, acc[0][3] = a3;
}
#undef CTNN_ARM_DOT_PACKED_OPERANDS
#undef CTNN_ARM_DOT_PACKED_FOLDED_STEP
#undef CTNN_ARM_DOT_PACKED_WIDENED_STEP

#undef CTNN_ARM_DOT_PACKED_QUADS
#undef CTNN_ARM_DOT_PACKED_CHANNEL
#undef CTNN_ARM_DOT_1X4_STEP
#undef CTNN_ARM_DOT_1X4_CHANNEL
#undef CTNN_ARM_DOT_1X4_OUTPUTS
#undef CTNN_ARM_DOT_STEPS
#undef CTNN_ARM_DOT_2X2_STEP
#undef CTNN_ARM_DOT_2X2_PRODUCTS
#undef CTNN_ARM_DOT_2X2_OUTPUTS
#undef CTNN_ARM_SXTB16_ODD
#undef CTNN_ARM_SXTB16_EVEN
#undef CTNN_ARM_SXTAB16_ODD
#undef CTNN_ARM_SXTAB16_EVEN
#endif

// Whether the assembly 2 x 2 block over widened inputs serves these distances (LDRD's and LDR's
// immediate offsets; XStep in bytes of the widened buffer).
template <std::ptrdiff_t XStep, std::ptrdiff_t WStep>
inline constexpr bool asm_widened_fits =
#if CTNN_ARM_DOT_ASM
    XStep >= 8 && XStep - 8 <= 1020 && XStep % 4 == 0 && WStep >= 4 && WStep - 4 <= 4095;
#else
    false;
#endif


// Four int8 values per quad plus the input offset, widened for SMLAD against filters widened with
// SXTB16: per quad, the even word (values 0 and 2) then the odd word (1 and 3).
[[gnu::always_inline]] inline void widen_quads(const std::int8_t* x, std::uint32_t* to, std::int32_t quads, std::uint32_t offset_pair) {
#pragma GCC unroll 4
  for (std::int32_t q = 0; q < quads; ++q, x += 4, to += 2) {
    const std::uint32_t word = load_word(x);
    to[0] = sxtab16(offset_pair, word);
    to[1] = sxtab16_ror8(offset_pair, word);
  }
}

// The same doubled (2 * (x + offset) per int16 half: at most 510 in magnitude): kernels whose output stage
// takes twice the sum (output_stage::apply_twice) read it from the dot product directly.
[[gnu::always_inline]] inline void widen_quads_doubled(const std::int8_t* x, std::uint32_t* to, std::int32_t quads, std::uint32_t offset_pair) {
#pragma GCC unroll 4
  for (std::int32_t q = 0; q < quads; ++q, x += 4, to += 2) {
    const std::uint32_t word = load_word(x);
    to[0] = doubled_halves(sxtab16(offset_pair, word));
    to[1] = doubled_halves(sxtab16_ror8(offset_pair, word));
  }
}

// acc[p][c] += sum over `quads` quads of widened inputs (pixel p's at x + p * XStep bytes) times the
// filters at w + c * WStep.
template <int Pixels, int Channels, std::ptrdiff_t XStep, std::ptrdiff_t WStep>
[[gnu::always_inline]] inline void dot_widened(const std::uint32_t* x, const std::int8_t* w, std::int32_t quads,
                                               std::int32_t (&acc)[Pixels][Channels]) {
#if CTNN_ARM_DOT_ASM
  if constexpr (Pixels == 2 && Channels == 2 && asm_widened_fits<XStep, WStep>) {
    if (quads > 0) dot_widened_2x2_asm<XStep, WStep>(x, w, quads, acc);
    return;
  } else if constexpr (Pixels == 1 && Channels == 4 && 3 * WStep <= 4095) {
    if (quads > 0) dot_widened_1x4_asm<WStep>(x, w, quads, acc);
    return;
  }
#endif
  constexpr std::ptrdiff_t x_words = XStep / 4;
#pragma GCC unroll 2
  for (std::int32_t q = 0; q < quads; ++q, x += 2, w += 4) {
#pragma GCC unroll 4
    for (int c = 0; c < Channels; ++c) {
      const std::uint32_t word = load_word(w + c * WStep);
      const std::uint32_t w_odd = sxtb16_ror8(word), w_even = sxtb16(word);
#pragma GCC unroll 4
      for (int p = 0; p < Pixels; ++p) acc[p][c] = smlad(x[p * x_words + 1], w_odd, smlad(x[p * x_words], w_even, acc[p][c]));
    }
  }
}

// The same for a compile-time count of quads: 2 x 2 blocks over at most 8 quads without a loop.
template <int Pixels, int Channels, std::ptrdiff_t XStep, std::ptrdiff_t WStep, std::int32_t Quads>
[[gnu::always_inline]] inline void dot_widened_quads(const std::uint32_t* x, const std::int8_t* w, std::int32_t (&acc)[Pixels][Channels]) {
#if CTNN_ARM_DOT_ASM
  if constexpr (Pixels == 2 && Channels == 2 && asm_widened_fits<XStep, WStep> && Quads >= 1 && Quads <= 8) {
    dot_widened_2x2_unrolled_asm<XStep, WStep, Quads>(x, w, acc);
    return;
  }
#endif
  dot_widened<Pixels, Channels, XStep, WStep>(x, w, Quads, acc);
}

// acc[0][c] += the dot products of Quads quads of widened input with 4 filters re-laid out per quad
// (conv_kernel::pack: the 4 channels' words of a quad side by side, word-aligned).
template <std::int32_t Quads>
[[gnu::always_inline]] inline void dot_packed_1x4(const std::uint32_t* x, const std::int8_t* w, std::int32_t (&acc)[1][4]) {
#if CTNN_ARM_DOT_ASM
  dot_packed_pinned_1x4_asm<Quads>(x, w, acc);
#else
  for (std::int32_t q = 0; q < Quads; ++q, x += 2, w += 16)
    for (int c = 0; c < 4; ++c) {
      const std::uint32_t word = load_word(w + 4 * c);
      acc[0][c] = smlad(x[1], sxtb16_ror8(word), smlad(x[0], sxtb16(word), acc[0][c]));
    }
#endif
}
// The same over int8 inputs without their offset (folded into acc beforehand).
template <std::int32_t Quads>
[[gnu::always_inline]] inline void dot_packed_folded_1x4(const std::int8_t* x, const std::int8_t* w, std::int32_t (&acc)[1][4]) {
#if CTNN_ARM_DOT_ASM
  dot_packed_pinned_1x4_asm<Quads>(x, w, acc);
#else
  for (std::int32_t q = 0; q < Quads; ++q, x += 4, w += 16) {
    const std::uint32_t in = load_word(x), even = sxtb16(in), odd = sxtb16_ror8(in);
    for (int c = 0; c < 4; ++c) {
      const std::uint32_t word = load_word(w + 4 * c);
      acc[0][c] = smlad(odd, sxtb16_ror8(word), smlad(even, sxtb16(word), acc[0][c]));
    }
  }
#endif
}

// Whether the assembly depthwise tap serves offsets up to these (LDR's immediate offsets).
template <std::ptrdiff_t MaxInputOffset, std::ptrdiff_t MaxWeightOffset>
inline constexpr bool asm_depthwise_fits =
#if CTNN_ARM_DOT_ASM
    MaxInputOffset <= 4095 && MaxWeightOffset <= 4095;
#else
    false;
#endif

#if CTNN_ARM_DOT_ASM
// One depthwise tap for 2 pixels x 4 channels: the weight word at w + WOffset widened once, the input
// words at x + X0 and x + X1, a[k] / b[k] += x * w per channel (SMLABB / SMLATT). 17 instructions, 14
// registers (8 accumulators, 4 temporaries, 2 pointers).
template <std::ptrdiff_t X0, std::ptrdiff_t X1, std::ptrdiff_t WOffset>
[[gnu::always_inline]] inline void depthwise_tap_2x4_asm(const std::int8_t* x, const std::int8_t* w, std::int32_t (&a)[4], std::int32_t (&b)[4]) {
  std::uint32_t t0, t1, t2, t3;
  __asm("ldr %[t0], [%[w], %[wo]]\n\t"
        "sxtb16 %[t1], %[t0], ror #8\n\t"
        "sxtb16 %[t0], %[t0]\n\t"
        "ldr %[t2], [%[x], %[x0]]\n\t"
        "sxtb16 %[t3], %[t2], ror #8\n\t"
        "sxtb16 %[t2], %[t2]\n\t"
        "smlabb %[a0], %[t2], %[t0], %[a0]\n\t"
        "smlatt %[a2], %[t2], %[t0], %[a2]\n\t"
        "smlabb %[a1], %[t3], %[t1], %[a1]\n\t"
        "smlatt %[a3], %[t3], %[t1], %[a3]\n\t"
        "ldr %[t2], [%[x], %[x1]]\n\t"
        "sxtb16 %[t3], %[t2], ror #8\n\t"
        "sxtb16 %[t2], %[t2]\n\t"
        "smlabb %[b0], %[t2], %[t0], %[b0]\n\t"
        "smlatt %[b2], %[t2], %[t0], %[b2]\n\t"
        "smlabb %[b1], %[t3], %[t1], %[b1]\n\t"
        "smlatt %[b3], %[t3], %[t1], %[b3]\n\t"
        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [a0] "+r"(a[0]), [a1] "+r"(a[1]), [a2] "+r"(a[2]),
          [a3] "+r"(a[3]), [b0] "+r"(b[0]), [b1] "+r"(b[1]), [b2] "+r"(b[2]), [b3] "+r"(b[3])
        : [x] "r"(x), [w] "r"(w), [x0] "i"(X0), [x1] "i"(X1), [wo] "i"(WOffset)
        : "memory");
}

// The same tap over inputs and weights widened beforehand (even word: channels 0 and 2, odd: 1 and 3),
// each pair read by one LDRD at a byte offset from x or w: 11 instructions for 8 MACs, 14 registers.
template <std::ptrdiff_t X0, std::ptrdiff_t X1, std::ptrdiff_t WOffset>
[[gnu::always_inline]] inline void depthwise_widened_tap_2x4_asm(const std::uint32_t* x, const std::uint32_t* w, std::int32_t (&a)[4],
                                                                 std::int32_t (&b)[4]) {
  std::uint32_t we, wo, xe, xo;
  __asm("ldrd %[we], %[wo], [%[w], %[wo_at]]\n\t"
        "ldrd %[xe], %[xo], [%[x], %[x0]]\n\t"
        "smlabb %[a0], %[xe], %[we], %[a0]\n\t"
        "smlatt %[a2], %[xe], %[we], %[a2]\n\t"
        "smlabb %[a1], %[xo], %[wo], %[a1]\n\t"
        "smlatt %[a3], %[xo], %[wo], %[a3]\n\t"
        "ldrd %[xe], %[xo], [%[x], %[x1]]\n\t"
        "smlabb %[b0], %[xe], %[we], %[b0]\n\t"
        "smlatt %[b2], %[xe], %[we], %[b2]\n\t"
        "smlabb %[b1], %[xo], %[wo], %[b1]\n\t"
        "smlatt %[b3], %[xo], %[wo], %[b3]\n\t"
        : [we] "=&r"(we), [wo] "=&r"(wo), [xe] "=&r"(xe), [xo] "=&r"(xo), [a0] "+r"(a[0]), [a1] "+r"(a[1]), [a2] "+r"(a[2]),
          [a3] "+r"(a[3]), [b0] "+r"(b[0]), [b1] "+r"(b[1]), [b2] "+r"(b[2]), [b3] "+r"(b[3])
        : [x] "r"(x), [w] "r"(w), [x0] "i"(X0), [x1] "i"(X1), [wo_at] "i"(WOffset)
        : "memory");
}
#else
template <std::ptrdiff_t X0, std::ptrdiff_t X1, std::ptrdiff_t WOffset>
void depthwise_widened_tap_2x4_asm(const std::uint32_t*, const std::uint32_t*, std::int32_t (&)[4], std::int32_t (&)[4]);  // never used here
template <std::ptrdiff_t X0, std::ptrdiff_t X1, std::ptrdiff_t WOffset>
void depthwise_tap_2x4_asm(const std::int8_t*, const std::int8_t*, std::int32_t (&)[4], std::int32_t (&)[4]);  // never used here
#endif

// The sum of a filter's Length values: SXTB16 pairs dotted with (1, 1).
template <std::int32_t Length>
[[gnu::always_inline]] inline std::int32_t filter_sum(const std::int8_t* w) {
  std::int32_t sum = 0;
  constexpr std::int32_t quads = Length / 4;
  for (std::int32_t q = 0; q < quads; ++q, w += 4) {
    const std::uint32_t word = load_word(w);
    sum = smlad(sxtb16(word), 0x00010001u, smlad(sxtb16_ror8(word), 0x00010001u, sum));
  }
  for (std::int32_t k = 0; k < Length % 4; ++k) sum += w[k];
  return sum;
}

// acc[p][c] += sum_k (x[p * XStep + k] + offset) * w[c * WStep + k], k < length; without AddOffset,
// acc[p][c] += sum_k x[p * XStep + k] * w[c * WStep + k] (the offset term is in the accumulator already).
template <int Pixels, int Channels, std::ptrdiff_t XStep, std::ptrdiff_t WStep, bool AddOffset = true>
[[gnu::always_inline]] inline void dot_block(const std::int8_t* x, const std::int8_t* w, std::int32_t length,
                                             std::uint32_t offset_pair, std::int32_t offset, std::int32_t (&acc)[Pixels][Channels]) {
  const std::int32_t quads = length >> 2;
#if CTNN_ARM_DOT_ASM
  if constexpr (Pixels == 2 && Channels == 2 && asm_block_fits<XStep, WStep>) {
    if (quads > 0) dot_2x2_asm<XStep, WStep, AddOffset>(x, w, quads, offset_pair, acc);
  } else if constexpr (Pixels == 1 && Channels == 4 && AddOffset && 3 * WStep <= 4095) {
    if (quads > 0) dot_1x4_asm<WStep>(x, w, quads, offset_pair, acc);
  } else
#endif
  {
#pragma GCC unroll 4
    for (std::int32_t q = 0; q < quads; ++q, x += 4, w += 4) {
      std::uint32_t even[Pixels], odd[Pixels];
#pragma GCC unroll 4
      for (int p = 0; p < Pixels; ++p) {
        const std::uint32_t word = load_word(x + p * XStep);
        if constexpr (AddOffset) {
          odd[p] = sxtab16_ror8(offset_pair, word);
          even[p] = sxtab16(offset_pair, word);
        } else {
          odd[p] = sxtb16_ror8(word);
          even[p] = sxtb16(word);
        }
      }
#pragma GCC unroll 4
      for (int c = 0; c < Channels; ++c) {
        const std::uint32_t word = load_word(w + c * WStep);
        const std::uint32_t w_odd = sxtb16_ror8(word), w_even = sxtb16(word);
#pragma GCC unroll 4
        for (int p = 0; p < Pixels; ++p) acc[p][c] = smlad(odd[p], w_odd, smlad(even[p], w_even, acc[p][c]));
      }
    }
  }
  const std::int32_t rest = length & 3;
#pragma GCC unroll 1
  for (std::int32_t k = 0; k < rest; ++k)
#pragma GCC unroll 4
    for (int p = 0; p < Pixels; ++p) {
      const std::int32_t xv = x[p * XStep + k] + (AddOffset ? offset : 0);
#pragma GCC unroll 4
      for (int c = 0; c < Channels; ++c) acc[p][c] = wrapping_add(acc[p][c], xv * w[c * WStep + k]);
    }
}

#if CTNN_ARM_DOT_ASM
// One quad of widened input (r8: values 0 and 2, r9: 1 and 3) against 4 rows' int16 pairs (LDM: 2 rows a load, into
// r4, r5, r6, r10: ascending, as LDM wants): 11 instructions per 16 MACs, where the compiler's form loads each weight
// word on its own.
#define CTNN_ARM_PAIR_ROWS_STEP        \
  "ldrd r8, r9, [%[x]], #8\n\t"        \
  "ldm %[w]!, {r4, r5, r6, r10}\n\t"   \
  "smlad %[a0], r8, r4, %[a0]\n\t"     \
  "smlad %[a0], r9, r5, %[a0]\n\t"     \
  "smlad %[a1], r8, r6, %[a1]\n\t"     \
  "smlad %[a1], r9, r10, %[a1]\n\t"    \
  "ldm %[w]!, {r4, r5, r6, r10}\n\t"   \
  "smlad %[a2], r8, r4, %[a2]\n\t"     \
  "smlad %[a2], r9, r5, %[a2]\n\t"     \
  "smlad %[a3], r8, r6, %[a3]\n\t"     \
  "smlad %[a3], r9, r10, %[a3]\n\t"
#define CTNN_ARM_PAIR_ROWS_OPERANDS                                                                                    \
  : [x] "+r"(x_reg), [w] "+r"(w_reg), [n] "+r"(pairs), [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3) \
  :                                                                                                              \
  : "r4", "r5", "r6", "r8", "r9", "r10", "cc", "memory"
#endif

// acc[r] += row r . v for 4 rows of Quads quads: v widened (widen_quads' order: (v0, v2), (v1, v3) per quad), the
// rows re-laid out at compile time as int16 pairs in the same order, per quad row 0's two words, then rows 1, 2, 3
// (the SVDF's 4 filters, svdf_kernel::pack; an LSTM unit's 4 gates, lstm_gate_rows). w advances past them. The
// assembly's operands in registers of its own choosing too (r0-r3 the sums, r11, r12 and lr the pointers and the
// count): with operands left to it, g++ reports impossible constraints where the LSTM kernel inlines this.
template <std::int32_t Quads>
[[gnu::always_inline]] inline void dot_4_pair_rows(const std::uint32_t* x, const std::int32_t*& w, std::int32_t (&acc)[4]) {
#if CTNN_ARM_DOT_ASM
  register std::int32_t a0 asm("r0") = acc[0];
  register std::int32_t a1 asm("r1") = acc[1];
  register std::int32_t a2 asm("r2") = acc[2];
  register std::int32_t a3 asm("r3") = acc[3];
  register const std::uint32_t* x_reg asm("r11") = x;
  register const std::int32_t* w_reg asm("r12") = w;
  register std::int32_t pairs asm("lr") = Quads / 2;
  if constexpr (Quads <= 16) {
    // Short rows unrolled (no loop count: 2 instructions per 2 quads fewer; the LSTM's rows of 28 and 64 values).
#pragma GCC unroll 16
    for (std::int32_t q = 0; q < Quads; ++q) __asm volatile(CTNN_ARM_PAIR_ROWS_STEP CTNN_ARM_PAIR_ROWS_OPERANDS);
  } else {
    if constexpr (Quads % 2 != 0) __asm volatile(CTNN_ARM_PAIR_ROWS_STEP CTNN_ARM_PAIR_ROWS_OPERANDS);
    __asm volatile("1:\n\t" CTNN_ARM_PAIR_ROWS_STEP CTNN_ARM_PAIR_ROWS_STEP "subs %[n], %[n], #1\n\tbne 1b\n\t" CTNN_ARM_PAIR_ROWS_OPERANDS);
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
  w = w_reg;
#else
  for (std::int32_t q = 0; q < Quads; ++q, w += 8) {
    const std::uint32_t even = x[2 * q], odd = x[2 * q + 1];
    for (int c = 0; c < 4; ++c)
      acc[c] = smlad(odd, static_cast<std::uint32_t>(w[2 * c + 1]), smlad(even, static_cast<std::uint32_t>(w[2 * c]), acc[c]));
  }
#endif
}
#if CTNN_ARM_DOT_ASM
#undef CTNN_ARM_PAIR_ROWS_STEP
#undef CTNN_ARM_PAIR_ROWS_OPERANDS
#endif

}  // namespace ctnn::kernel::arm::detail
