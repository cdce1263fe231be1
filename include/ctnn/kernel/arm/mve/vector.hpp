#pragma once
// The Armv8.1-M MVE (Helium) primitives of the int8 kernels in kernel/arm/mve (<arm_mve.h>, ACLE):
//   mve_available          __ARM_FEATURE_MVE's integer vectors and the DSP extension, and no
//                          CTNN_ARM_REFERENCE_KERNELS (then every MVE `supports` is false)
//   dot_four               four int8 dot products over 16-byte chunks of one input stretch (VMLADAVA)
//   requantize / clamp     TFLite's MultiplyByQuantizedMultiplier on four lanes, bit-exact with the
//                          reference kernels' requantize_output (below)
//   copy_bytes / fill      predicated byte moves (VCTP), for gathering windows
// Without MVE this header declares only mve_available (false): the kernels are not compiled.
#include <cstdint>

#include <ctnn/ir/module.hpp>

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP && \
    !defined(CTNN_ARM_REFERENCE_KERNELS)
#define CTNN_ARM_MVE 1
#include <arm_mve.h>
#else
#define CTNN_ARM_MVE 0
#endif

namespace ctnn::kernel::arm::mve::detail {

inline constexpr bool mve_available = CTNN_ARM_MVE != 0;

#if CTNN_ARM_MVE

// dot_four's assembly, one text for its loop and its unrolled form: a chunk (one input load, four filters'
// chunks; "" starts the sums with VMLADAV, "a" adds to them with VMLADAVA), and the four sums into the lanes.
#define CTNN_DETAIL_MVE_DOT_FOUR_CHUNK(accumulate)                                                         \
  "vldrb.8 q0, [%[x]], #16\n\t"                                                                           \
  "vldrb.8 q1, [%[w], #16]\n\t"                                                                           \
  "vldrb.8 q2, [%[w], #32]\n\t"                                                                           \
  "vldrb.8 q3, [%[w], #48]\n\t"                                                                           \
  "vldrb.8 q4, [%[w]], #64\n\t"                                                                           \
  "vmladav" accumulate ".s8 %[a0], q0, q4\n\t"                                                           \
  "vmladav" accumulate ".s8 %[a1], q0, q1\n\t"                                                           \
  "vmladav" accumulate ".s8 %[a2], q0, q2\n\t"                                                           \
  "vmladav" accumulate ".s8 %[a3], q0, q3\n\t"
#define CTNN_DETAIL_MVE_DOT_FOUR_LANES              \
  "vmov %q[v][2], %q[v][0], %[a0], %[a2]\n\t" \
  "vmov %q[v][3], %q[v][1], %[a1], %[a3]\n\t"

// The four sums sum_k x[k] * w_c[k] over `chunks` chunks of 16 bytes (k < 16 * chunks) as the lanes of a
// vector (lane c: filter c), the filters interleaved by chunk: chunk j of filter c at w + 64 j + 16 c (one
// pointer with immediate offsets; w ends one group further). One input load serves four filters: 9
// instructions per 64 MACs plus the loop's LE (a low-overhead loop); the first chunk starts the sums
// (VMLADAV), the others add to them (VMLADAVA). The accumulators must be even registers (VMLADAV's RdaHi
// field: constraint "Te"); assembly because g++ 12 neither keeps four filter pointers nor uses
// post-increments here (14 instructions per 64 MACs). chunks >= 1.
[[gnu::always_inline]] inline int32x4_t dot_four(const std::int8_t* x, const std::int8_t*& w, std::int32_t chunks) {
  std::int32_t a0, a1, a2, a3;
  int32x4_t sums;
  __asm volatile(
      CTNN_DETAIL_MVE_DOT_FOUR_CHUNK("")
      "wls lr, %[n], 2f\n"
      "1:\n\t"
      CTNN_DETAIL_MVE_DOT_FOUR_CHUNK("a")
      "le lr, 1b\n"
      "2:\n\t"
      CTNN_DETAIL_MVE_DOT_FOUR_LANES
      : [a0] "=&Te"(a0), [a1] "=&Te"(a1), [a2] "=&Te"(a2), [a3] "=&Te"(a3), [x] "+r"(x), [w] "+r"(w), [v] "=&w"(sums)
      : [n] "r"(chunks - 1)
      : "q0", "q1", "q2", "q3", "q4", "lr", "memory");
  return sums;
}

// The same over a compile-time number of chunks: up to max_unrolled_chunks, the chunks unrolled (.rept: no
// WLS/LE, 4 instructions fewer per group of four filters on KWS's 1x1 layers, four chunks); beyond, the
// loop above (code size).
inline constexpr std::int32_t max_unrolled_chunks = 8;
template <std::int32_t Chunks>
[[gnu::always_inline]] inline int32x4_t dot_four(const std::int8_t* x, const std::int8_t*& w) {
  static_assert(Chunks >= 1);
  if constexpr (Chunks > max_unrolled_chunks) {
    return dot_four(x, w, Chunks);
  } else {
    std::int32_t a0, a1, a2, a3;
    int32x4_t sums;
    __asm volatile(
        CTNN_DETAIL_MVE_DOT_FOUR_CHUNK("")
        ".rept %c[n]\n\t"
        CTNN_DETAIL_MVE_DOT_FOUR_CHUNK("a")
        ".endr\n\t"
        CTNN_DETAIL_MVE_DOT_FOUR_LANES
        : [a0] "=&Te"(a0), [a1] "=&Te"(a1), [a2] "=&Te"(a2), [a3] "=&Te"(a3), [x] "+r"(x), [w] "+r"(w), [v] "=&w"(sums)
        : [n] "n"(Chunks - 1)
        : "q0", "q1", "q2", "q3", "q4", "memory");
    return sums;
  }
}

// The fused activation's clamp (at least the int8 range) after the output zero point.
template <kernel_params P>
[[gnu::always_inline]] inline int32x4_t clamp_output(int32x4_t v) {
  constexpr std::int32_t low = P.activation_min > -128 ? P.activation_min : -128;
  constexpr std::int32_t high = P.activation_max < 127 ? P.activation_max : 127;
  return vminq_s32(vmaxq_s32(v, vdupq_n_s32(low)), vdupq_n_s32(high));
}

// MultiplyByQuantizedMultiplier(acc, multiplier, shift) + output zero point, clamped, per lane, with TFLite's
// double rounding (TFLITE_SINGLE_ROUNDING undefined), as reference::int8::requantize_output:
//   * the left shift (shift > 0) multiplies in int32, wrapping (VSHL; TFLite's x * (1 << left));
//   * SaturatingRoundingDoublingHighMul(a, m) = floor((a * m + 2^30) / 2^31), saturated for
//     a = m = INT32_MIN, is VQRDMULH exactly ((2 a m + 2^31) >> 32, saturating);
//   * RoundingDivideByPOT(x, e) rounds half away from zero; VRSHL by -e rounds half up, so negative x
//     is first lowered by one (saturating: INT32_MIN stays, and divides exactly): for x < 0,
//     floor((x - 1 + 2^(e-1)) / 2^e) is floor(x / 2^e) + [x mod 2^e > 2^(e-1)], TFLite's result. The
//     -1 is (x & -e) >> 31, zero where e = 0;
//   * the zero point added in int32, wrapping as on TFLite's targets (VADD).
// Per channel: the lanes' multipliers and shifts, the shifts split into the left one and minus the right
// one (set up once by kernels that requantize many pixels of the same channels). Left: whether any
// channel of the call shifts left (has_left_shift, asked once per call); without, the shift is the
// right one as it is, and the left shift is not made.
struct channel_scales {
  int32x4_t multiplier, left, right;
};
template <bool Left>
[[gnu::always_inline]] inline channel_scales scales_of(int32x4_t multiplier, int32x4_t shift) {
  const int32x4_t zero = vdupq_n_s32(0);
  if constexpr (Left) return {multiplier, vmaxq_s32(shift, zero), vminq_s32(shift, zero)};
  else return {multiplier, zero, shift};
}
// The largest of `count` >= 1 shifts.
inline std::int32_t largest_shift(const std::int32_t* shift, std::int32_t count) {
  std::int32_t largest = shift[0];
  for (std::int32_t k = 1; k < count; ++k) largest = shift[k] > largest ? shift[k] : largest;
  return largest;
}
inline bool has_left_shift(const std::int32_t* shift, std::int32_t count) { return largest_shift(shift, count) > 0; }

// The rescaled value plus the output zero point, not clamped.
template <kernel_params P, bool Left>
[[gnu::always_inline]] inline int32x4_t scale_plus_offset(int32x4_t acc, const channel_scales& s) {
  if constexpr (Left) acc = vshlq_s32(acc, s.left);
  int32x4_t v = vqrdmulhq_s32(acc, s.multiplier);
  v = vrshlq_s32(vqaddq_s32(v, vshrq_n_s32(vandq_s32(v, s.right), 31)), s.right);
  return vaddq_n_s32(v, P.output_offset);
}
// The same where every lane shifts right by at least one (scales_of<false>; largest_shift < 0): the
// mask's sign bit is set in every lane, so (x & -e) >> 31 is x >> 31.
template <kernel_params P>
[[gnu::always_inline]] inline int32x4_t scale_right_plus_offset(int32x4_t acc, const channel_scales& s) {
  int32x4_t v = vqrdmulhq_s32(acc, s.multiplier);
  v = vrshlq_s32(vqaddq_s32(v, vshrq_n_s32(v, 31)), s.right);
  return vaddq_n_s32(v, P.output_offset);
}
template <kernel_params P, bool Left>
[[gnu::always_inline]] inline int32x4_t requantize(int32x4_t acc, const channel_scales& s) {
  return clamp_output<P>(scale_plus_offset<P, Left>(acc, s));
}
template <kernel_params P, bool Left>
[[gnu::always_inline]] inline int32x4_t requantize(int32x4_t acc, int32x4_t multiplier, int32x4_t shift) {
  return requantize<P, Left>(acc, scales_of<Left>(multiplier, shift));
}

// MultiplyByQuantizedMultiplier with a compile-time multiplier and shift (per-tensor calls, ADD's inputs).
template <std::int32_t Multiplier, std::int32_t Shift>
[[gnu::always_inline]] inline int32x4_t multiply_by_quantized_multiplier(int32x4_t x) {
  if constexpr (Shift > 0) x = vshlq_n_s32(x, Shift > 0 ? Shift : 1);
  int32x4_t v = vqrdmulhq_n_s32(x, Multiplier);
  if constexpr (Shift < 0) v = vrshrq_n_s32(vqaddq_s32(v, vshrq_n_s32(v, 31)), Shift < 0 ? -Shift : 1);
  return v;
}
// Per tensor: the call's multiplier and shift.
template <kernel_params P>
[[gnu::always_inline]] inline int32x4_t scale_plus_offset(int32x4_t acc) {
  const int32x4_t scaled = multiply_by_quantized_multiplier<P.output_multiplier, P.output_shift>(acc);  // (arm_mve.h's names are macros)
  return vaddq_n_s32(scaled, P.output_offset);
}
template <kernel_params P>
[[gnu::always_inline]] inline int32x4_t requantize(int32x4_t acc) {
  return clamp_output<P>(scale_plus_offset<P>(acc));
}

// Eight outputs from the even channels' lanes and the odd ones' (rescaled, plus the zero point, in int32),
// narrowed into channel order with saturation to int16 (VQMOVNB/VQMOVNT: the clamp to the activation's
// range, inside int16, gives what it gives in int32), clamped on eight lanes, stored as bytes.
template <kernel_params P>
[[gnu::always_inline]] inline int16x8_t narrow_eight(int32x4_t even, int32x4_t odd) {
  constexpr std::int16_t low = P.activation_min > -128 ? P.activation_min : -128;
  constexpr std::int16_t high = P.activation_max < 127 ? P.activation_max : 127;
  int16x8_t v;  // (assembly: the intrinsics narrow into a copy of a live or zeroed vector, one VMOV more)
  __asm("vqmovnb.s32 %q[v], %q[even]\n\tvqmovnt.s32 %q[v], %q[odd]" : [v] "=&w"(v) : [even] "w"(even), [odd] "w"(odd));
  return vminq_s16(vmaxq_s16(v, vdupq_n_s16(low)), vdupq_n_s16(high));
}
template <kernel_params P>
[[gnu::always_inline]] inline void store_eight(int32x4_t even, int32x4_t odd, std::int8_t* out) {
  vstrbq_s16(out, narrow_eight<P>(even, odd));
}
// The same, only the int16 lanes of `lanes` stored (fewer than eight channels).
template <kernel_params P>
[[gnu::always_inline]] inline void store_eight(int32x4_t even, int32x4_t odd, std::int8_t* out, mve_pred16_t lanes) {
  vstrbq_p_s16(out, narrow_eight<P>(even, odd), lanes);
}

// n bytes from `from` to `to` (any n >= 0), 16 a step, the last step predicated.
[[gnu::always_inline]] inline void copy_bytes(std::int8_t* to, const std::int8_t* from, std::int32_t n) {
#pragma GCC unroll 1
  for (; n > 0; n -= 16, to += 16, from += 16) {
    const mve_pred16_t p = vctp8q(static_cast<std::uint32_t>(n));
    vstrbq_p_s8(to, vldrbq_z_s8(from, p), p);
  }
}

// N bytes (a compile-time count): one load and store per 16 bytes, the tail predicated, or one word move
// for 1, 2, 4 or 8 bytes (a plain memcpy of another length calls newlib's byte loop).
template <std::int32_t N>
[[gnu::always_inline]] inline void copy_fixed(std::int8_t* to, const std::int8_t* from) {
  if constexpr (N == 1 || N == 2 || N == 4 || N == 8) {
    __builtin_memcpy(to, from, N);
  } else {
#pragma GCC unroll 64
    for (std::int32_t k = 0; k + 16 <= N; k += 16) vstrbq_s8(to + k, vldrbq_s8(from + k));
    if constexpr (N % 16 != 0) {
      const mve_pred16_t p = vctp8q(N % 16);
      vstrbq_p_s8(to + N / 16 * 16, vldrbq_z_s8(from + N / 16 * 16, p), p);
    }
  }
}

// n bytes of `value` at `to`.
[[gnu::always_inline]] inline void fill(std::int8_t* to, std::int8_t value, std::int32_t n) {
  const int8x16_t v = vdupq_n_s8(value);
#pragma GCC unroll 1
  for (; n > 0; n -= 16, to += 16) vstrbq_p_s8(to, v, vctp8q(static_cast<std::uint32_t>(n)));
}

#endif

}  // namespace ctnn::kernel::arm::mve::detail
