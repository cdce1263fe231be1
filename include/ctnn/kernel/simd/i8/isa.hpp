#pragma once
// The vector primitives the int8 kernels are written in, one struct per x86 level (chosen by -march, no
// run-time dispatch; docs/design.md §4). xsimd 8.1 has no int8 dot product, so these are intrinsics:
//   avx512_vnni: 16 int32 lanes; dot() is vpdpbusd, 4 products of u8 inputs (x + 128) and s8 weights per
//                lane, non-saturating (wraps like the reference's int32 accumulator);
//   avx2, sse4_1: 8 / 4 int32 lanes; dot() is pmaddwd on int16 pairs (inputs and weights sign-extended),
//                exact (pmaddubsw would saturate at int16, so it is not used).
// The GEMM's inputs are converted once per call into `input_element` (prepare(): u8 x + 128, or int16),
// so that a reduction group is one 32-bit word to broadcast (i8/padded_input.hpp). dot_words() multiplies
// the low int16 halves of int32 lanes (vpdpwssd / pmaddwd), the depthwise kernel's products.
// `isa` is the best of them for the compile flags, or `no_isa` (the kernels then report supports = false;
// arm-none-eabi and plain x86-64 builds keep the reference kernels; so does defining
// CTNN_I8_REFERENCE_KERNELS).
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <ctnn/kernel/simd/detail/xsimd_config.hpp>

#if XSIMD_WITH_SSE4_1
#include <immintrin.h>
#endif

namespace ctnn::kernel::simd::i8_detail {

struct no_isa {
  static constexpr bool available = false;
  static constexpr int lanes = 1;
  static constexpr int group = 1;
  static constexpr int registers = 0;
  static constexpr std::int32_t input_bias = 0;
};

// Weight j of a group of `Group` consecutive weights along the reduction, placed in the group's packed
// int32 word (one word per lane) where dot() pairs it with its input: byte j (vpdpbusd) or int16 j
// (pmaddwd). A group's word is the OR over its weights.
template <int Group>
constexpr std::uint32_t weight_bits(std::int8_t w, std::int32_t j) {
  if constexpr (Group == 4) return static_cast<std::uint32_t>(static_cast<std::uint8_t>(w)) << (8 * j);
  else return static_cast<std::uint32_t>(static_cast<std::uint16_t>(w)) << (16 * j);
}

#if XSIMD_WITH_SSE4_1

// One 32-bit word of a prepared input (a reduction group), for a broadcast.
[[gnu::always_inline]] inline std::int32_t load_word(const void* p) {
  std::int32_t word;
  std::memcpy(&word, p, 4);
  return word;
}

struct sse4_1 {
  using vec = __m128i;
  static constexpr bool available = true;
  static constexpr int lanes = 4;
  static constexpr int group = 2;
  static constexpr int registers = 16;
  static constexpr std::int32_t input_bias = 0;
  using input_element = std::int16_t;
  static constexpr input_element prepare(std::int8_t x) { return x; }

  static vec zero() { return _mm_setzero_si128(); }
  static vec set1(std::int32_t v) { return _mm_set1_epi32(v); }
  static vec load(const std::int32_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
  static void store(std::int32_t* p, vec v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }
  static vec add(vec a, vec b) { return _mm_add_epi32(a, b); }
  static vec sub(vec a, vec b) { return _mm_sub_epi32(a, b); }
  static vec mullo(vec a, vec b) { return _mm_mullo_epi32(a, b); }
  static vec bit_and(vec a, vec b) { return _mm_and_si128(a, b); }
  static vec min(vec a, vec b) { return _mm_min_epi32(a, b); }
  static vec max(vec a, vec b) { return _mm_max_epi32(a, b); }
  static vec cmpgt(vec a, vec b) { return _mm_cmpgt_epi32(a, b); }
  static vec shift_right_one(vec a) { return _mm_srli_epi32(a, 1); }
  // SSE has no per-lane shifts: lane by lane (x86-64-v2 is the compatibility level, not the fast one).
  static vec shift_left(vec a, vec counts) {
    alignas(16) std::int32_t x[4], c[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(x), a);
    _mm_store_si128(reinterpret_cast<__m128i*>(c), counts);
    for (int i = 0; i < 4; ++i) x[i] = static_cast<std::int32_t>(static_cast<std::uint32_t>(x[i]) << c[i]);
    return _mm_load_si128(reinterpret_cast<const __m128i*>(x));
  }
  static vec shift_right(vec a, vec counts) {
    alignas(16) std::int32_t x[4], c[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(x), a);
    _mm_store_si128(reinterpret_cast<__m128i*>(c), counts);
    for (int i = 0; i < 4; ++i) x[i] >>= c[i];
    return _mm_load_si128(reinterpret_cast<const __m128i*>(x));
  }
  // (a * b + 2^30) >> 31 per lane, from the 64-bit products of even and odd lanes.
  // (a * b + 2^30) >> 31 per lane, from the 64-bit products of even and odd lanes (b_odd: odd_lanes(b)).
  static vec mul_high_rounded(vec a, vec b, vec b_odd) {
    const vec round = _mm_set1_epi64x(std::int64_t{1} << 30);
    const vec even = _mm_srli_epi64(_mm_add_epi64(_mm_mul_epi32(a, b), round), 31);
    const vec odd = _mm_slli_epi64(_mm_add_epi64(_mm_mul_epi32(_mm_srli_epi64(a, 32), b_odd), round), 1);
    return _mm_blend_epi16(even, odd, 0xCC);
  }
  static vec odd_lanes(vec a) { return _mm_srli_epi64(a, 32); }
  static vec sign(vec a) { return _mm_srai_epi32(a, 31); }
  static vec add_one_where_greater(vec r, vec a, vec b) { return _mm_sub_epi32(r, _mm_cmpgt_epi32(a, b)); }
  static vec broadcast_word(const void* p) { return _mm_set1_epi32(load_word(p)); }
  static vec dot(vec acc, vec inputs, vec weights) { return _mm_add_epi32(acc, _mm_madd_epi16(inputs, weights)); }
  static vec dot_words(vec acc, vec inputs, vec weights) { return dot(acc, inputs, weights); }
  static vec widen(const std::int8_t* x) {
    std::int32_t word;
    std::memcpy(&word, x, 4);
    return _mm_cvtepi8_epi32(_mm_cvtsi32_si128(word));
  }
  // Truncating (sum / count) of exact integers in floats (see pool.hpp for why it is exact).
  // ONNX's rounding (i8/output_stage.hpp, i8/onnx_quantize.hpp): round_clamped(x) is round_half_even(x)
  // per lane, x first clamped to [-limit, limit] (an integer power of two: clamping commutes with
  // rounding) and NaN made 0; cvtps2dq rounds half to even in the default rounding mode, as std::nearbyint.
  // multiply_round(acc, m): round_clamped(float(acc) * m).
  using floats = __m128;
  static floats load_floats(const float* p) { return _mm_loadu_ps(p); }
  static floats set1_floats(float v) { return _mm_set1_ps(v); }
  static floats divide_floats(floats a, floats b) { return _mm_div_ps(a, b); }
  static vec round_clamped(floats x, float limit) {
    x = _mm_and_ps(x, _mm_cmpord_ps(x, x));
    return _mm_cvtps_epi32(_mm_min_ps(_mm_max_ps(x, _mm_set1_ps(-limit)), _mm_set1_ps(limit)));
  }
  static vec multiply_round(vec acc, floats multiplier, float limit) {
    return round_clamped(_mm_mul_ps(_mm_cvtepi32_ps(acc), multiplier), limit);
  }
  static vec divide(vec sum, float count) {
    return _mm_cvttps_epi32(_mm_div_ps(_mm_cvtepi32_ps(sum), _mm_set1_ps(count)));
  }
  // Lanes already within int8: the first n as bytes.
  static void store_i8(std::int8_t* out, vec v, int n) {
    const vec bytes = _mm_packs_epi16(_mm_packs_epi32(v, v), v);
    const auto word = static_cast<std::uint32_t>(_mm_cvtsi128_si32(bytes));
    if (n == 4) std::memcpy(out, &word, 4);
    else
      for (int i = 0; i < n; ++i) out[i] = static_cast<std::int8_t>(word >> (8 * i));
  }
  // Four vectors narrowed with saturation (int32 -> int16 -> int8), clamped to [lo, hi], stored as 4 * lanes
  // consecutive bytes (requantize_store_four): the clamp of the int32 values, as lo and hi lie within int8.
  static void store_i8_four(std::int8_t* out, vec a, vec b, vec c, vec d, std::int8_t lo, std::int8_t hi) {
    const vec narrow = _mm_packs_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d));
    const vec bytes = _mm_min_epi8(_mm_max_epi8(narrow, _mm_set1_epi8(lo)), _mm_set1_epi8(hi));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), bytes);
  }
};

#endif  // XSIMD_WITH_SSE4_1

#if XSIMD_WITH_AVX2

struct avx2 {
  using vec = __m256i;
  static constexpr bool available = true;
  static constexpr int lanes = 8;
  static constexpr int group = 2;
  static constexpr int registers = 16;
  static constexpr std::int32_t input_bias = 0;
  using input_element = std::int16_t;
  static constexpr input_element prepare(std::int8_t x) { return x; }

  static vec zero() { return _mm256_setzero_si256(); }
  static vec set1(std::int32_t v) { return _mm256_set1_epi32(v); }
  static vec load(const std::int32_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  static void store(std::int32_t* p, vec v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
  static vec add(vec a, vec b) { return _mm256_add_epi32(a, b); }
  static vec sub(vec a, vec b) { return _mm256_sub_epi32(a, b); }
  static vec mullo(vec a, vec b) { return _mm256_mullo_epi32(a, b); }
  static vec bit_and(vec a, vec b) { return _mm256_and_si256(a, b); }
  static vec min(vec a, vec b) { return _mm256_min_epi32(a, b); }
  static vec max(vec a, vec b) { return _mm256_max_epi32(a, b); }
  static vec cmpgt(vec a, vec b) { return _mm256_cmpgt_epi32(a, b); }
  static vec shift_right_one(vec a) { return _mm256_srli_epi32(a, 1); }
  static vec shift_left(vec a, vec counts) { return _mm256_sllv_epi32(a, counts); }
  static vec shift_right(vec a, vec counts) { return _mm256_srav_epi32(a, counts); }
  static vec mul_high_rounded(vec a, vec b, vec b_odd) {
    const vec round = _mm256_set1_epi64x(std::int64_t{1} << 30);
    const vec even = _mm256_srli_epi64(_mm256_add_epi64(_mm256_mul_epi32(a, b), round), 31);
    const vec odd = _mm256_slli_epi64(_mm256_add_epi64(_mm256_mul_epi32(_mm256_srli_epi64(a, 32), b_odd), round), 1);
    return _mm256_blend_epi32(even, odd, 0xAA);
  }
  static vec odd_lanes(vec a) { return _mm256_srli_epi64(a, 32); }
  static vec sign(vec a) { return _mm256_srai_epi32(a, 31); }
  static vec add_one_where_greater(vec r, vec a, vec b) { return _mm256_sub_epi32(r, _mm256_cmpgt_epi32(a, b)); }
  static vec broadcast_word(const void* p) { return _mm256_set1_epi32(load_word(p)); }
  static vec dot(vec acc, vec inputs, vec weights) { return _mm256_add_epi32(acc, _mm256_madd_epi16(inputs, weights)); }
  static vec dot_words(vec acc, vec inputs, vec weights) { return dot(acc, inputs, weights); }
  static vec widen(const std::int8_t* x) {
    return _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(x)));
  }
  using floats = __m256;
  static floats load_floats(const float* p) { return _mm256_loadu_ps(p); }
  static floats set1_floats(float v) { return _mm256_set1_ps(v); }
  static floats divide_floats(floats a, floats b) { return _mm256_div_ps(a, b); }
  static vec round_clamped(floats x, float limit) {  // as sse4_1's
    x = _mm256_and_ps(x, _mm256_cmp_ps(x, x, _CMP_ORD_Q));
    return _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(x, _mm256_set1_ps(-limit)), _mm256_set1_ps(limit)));
  }
  static vec multiply_round(vec acc, floats multiplier, float limit) {
    return round_clamped(_mm256_mul_ps(_mm256_cvtepi32_ps(acc), multiplier), limit);
  }
  static vec divide(vec sum, float count) {
    return _mm256_cvttps_epi32(_mm256_div_ps(_mm256_cvtepi32_ps(sum), _mm256_set1_ps(count)));
  }
  static void store_i8(std::int8_t* out, vec v, int n) {
    const vec words = _mm256_packs_epi32(v, v);          // per 128-bit half: lanes 0-3 (4-7) as int16, twice
    const vec bytes = _mm256_packs_epi16(words, words);  // ... as int8, four times
    const __m128i both = _mm_unpacklo_epi32(_mm256_castsi256_si128(bytes), _mm256_extracti128_si256(bytes, 1));
    const auto eight = static_cast<std::uint64_t>(_mm_cvtsi128_si64(both));
    if (n == 8) std::memcpy(out, &eight, 8);
    else
      for (int i = 0; i < n; ++i) out[i] = static_cast<std::int8_t>(eight >> (8 * i));
  }
  static void store_i8_four(std::int8_t* out, vec a, vec b, vec c, vec d, std::int8_t lo, std::int8_t hi) {
    // Per 128-bit half h the packs give dwords a_h, b_h, c_h, d_h (4 bytes each): back into vector order.
    const vec narrow = _mm256_packs_epi16(_mm256_packs_epi32(a, b), _mm256_packs_epi32(c, d));
    const vec bytes = _mm256_permutevar8x32_epi32(narrow, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out),
                        _mm256_min_epi8(_mm256_max_epi8(bytes, _mm256_set1_epi8(lo)), _mm256_set1_epi8(hi)));
  }
};

#endif  // XSIMD_WITH_AVX2

#if XSIMD_WITH_AVX512BW && defined(__AVX512VNNI__)

struct avx512_vnni {
  using vec = __m512i;
  static constexpr bool available = true;
  static constexpr int lanes = 16;
  static constexpr int group = 4;
  static constexpr int registers = 32;
  static constexpr std::int32_t input_bias = 128;
  using input_element = std::uint8_t;
  static constexpr input_element prepare(std::int8_t x) { return static_cast<std::uint8_t>(x ^ -128); }  // x + 128
  // The zero-masking forms with every lane selected: g++ 12 reports the _mm512_undefined_* operand of
  // the plain forms as maybe-uninitialized once inlined (a false positive); these compile the same.
  static constexpr __mmask16 all = 0xFFFF;
  static constexpr __mmask8 all64 = 0xFF;

  static vec zero() { return _mm512_setzero_si512(); }
  static vec set1(std::int32_t v) { return _mm512_set1_epi32(v); }
  static vec load(const std::int32_t* p) { return _mm512_loadu_si512(p); }
  static void store(std::int32_t* p, vec v) { _mm512_storeu_si512(p, v); }
  static vec add(vec a, vec b) { return _mm512_add_epi32(a, b); }
  static vec sub(vec a, vec b) { return _mm512_sub_epi32(a, b); }
  static vec mullo(vec a, vec b) { return _mm512_mullo_epi32(a, b); }
  static vec bit_and(vec a, vec b) { return _mm512_and_si512(a, b); }
  static vec min(vec a, vec b) { return _mm512_maskz_min_epi32(all, a, b); }
  static vec max(vec a, vec b) { return _mm512_maskz_max_epi32(all, a, b); }
  static vec cmpgt(vec a, vec b) { return _mm512_movm_epi32(_mm512_cmpgt_epi32_mask(a, b)); }
  static vec shift_right_one(vec a) { return _mm512_maskz_srli_epi32(all, a, 1); }
  static vec shift_left(vec a, vec counts) { return _mm512_maskz_sllv_epi32(all, a, counts); }
  static vec shift_right(vec a, vec counts) { return _mm512_maskz_srav_epi32(all, a, counts); }
  static vec mul_high_rounded(vec a, vec b, vec b_odd) {
    const vec round = _mm512_set1_epi64(std::int64_t{1} << 30);
    const vec even = _mm512_maskz_srli_epi64(all64, _mm512_add_epi64(_mm512_maskz_mul_epi32(all64, a, b), round), 31);
    const vec odd = _mm512_maskz_slli_epi64(
        all64, _mm512_add_epi64(_mm512_maskz_mul_epi32(all64, _mm512_maskz_srli_epi64(all64, a, 32), b_odd), round), 1);
    return _mm512_mask_blend_epi32(0xAAAA, even, odd);
  }
  static vec odd_lanes(vec a) { return _mm512_maskz_srli_epi64(all64, a, 32); }
  static vec sign(vec a) { return _mm512_maskz_srai_epi32(all, a, 31); }
  static vec add_one_where_greater(vec r, vec a, vec b) {
    return _mm512_mask_add_epi32(r, _mm512_cmpgt_epi32_mask(a, b), r, _mm512_set1_epi32(1));
  }
  static vec broadcast_word(const void* p) { return _mm512_set1_epi32(load_word(p)); }
  static vec dot(vec acc, vec inputs, vec weights) {
#if defined(__GNUC__) && !defined(__clang__)
    // g++ 12 gives the intrinsic's result a new register and copies it back into the accumulator's
    // (one extra move per instruction in blocked loops, and slower kernels); the asm accumulates in place.
    asm("vpdpbusd %2, %1, %0" : "+v"(acc) : "v"(inputs), "v"(weights));
    return acc;
#else
    return _mm512_dpbusd_epi32(acc, inputs, weights);
#endif
  }
  static vec dot_words(vec acc, vec inputs, vec weights) {
#if defined(__GNUC__) && !defined(__clang__)
    asm("vpdpwssd %2, %1, %0" : "+v"(acc) : "v"(inputs), "v"(weights));  // as in dot()
    return acc;
#else
    return _mm512_dpwssd_epi32(acc, inputs, weights);
#endif
  }
  static vec widen(const std::int8_t* x) {
    return _mm512_maskz_cvtepi8_epi32(all, _mm_loadu_si128(reinterpret_cast<const __m128i*>(x)));
  }
  using floats = __m512;
  static floats load_floats(const float* p) { return _mm512_loadu_ps(p); }
  static floats set1_floats(float v) { return _mm512_set1_ps(v); }
  static floats divide_floats(floats a, floats b) { return _mm512_div_ps(a, b); }
  static vec round_clamped(floats x, float limit) {  // as sse4_1's
    x = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(x, x, _CMP_ORD_Q), x);
    x = _mm512_maskz_min_ps(all, _mm512_maskz_max_ps(all, x, _mm512_set1_ps(-limit)), _mm512_set1_ps(limit));
    return _mm512_maskz_cvtps_epi32(all, x);
  }
  static vec multiply_round(vec acc, floats multiplier, float limit) {
    return round_clamped(_mm512_mul_ps(_mm512_maskz_cvtepi32_ps(all, acc), multiplier), limit);
  }
  static vec divide(vec sum, float count) {
    return _mm512_maskz_cvttps_epi32(all, _mm512_div_ps(_mm512_maskz_cvtepi32_ps(all, sum), _mm512_set1_ps(count)));
  }
  static void store_i8(std::int8_t* out, vec v, int n) {
    _mm512_mask_cvtepi32_storeu_epi8(out, static_cast<__mmask16>((1u << n) - 1u), v);
  }
  // As store_i8_four, but the bytes in the packs' order: per 128-bit quarter q, the quarters q of a, b, c, d.
  static vec narrow_four(vec a, vec b, vec c, vec d, std::int8_t lo, std::int8_t hi) {
    const vec bytes = _mm512_packs_epi16(_mm512_packs_epi32(a, b), _mm512_packs_epi32(c, d));
    return _mm512_min_epi8(_mm512_max_epi8(bytes, _mm512_set1_epi8(lo)), _mm512_set1_epi8(hi));
  }
  static void store_i8_four(std::int8_t* out, vec a, vec b, vec c, vec d, std::int8_t lo, std::int8_t hi) {
    // Per 128-bit quarter q the packs give dwords a_q, b_q, c_q, d_q (4 bytes each): back into vector order.
    const vec order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    _mm512_storeu_si512(out, _mm512_maskz_permutexvar_epi32(all, order, narrow_four(a, b, c, d, lo, hi)));
  }
};

#endif

#if defined(CTNN_I8_REFERENCE_KERNELS)  // the reference kernels everywhere (baselines for measurements)
using isa = no_isa;
#elif XSIMD_WITH_AVX512BW && defined(__AVX512VNNI__)
using isa = avx512_vnni;
#elif XSIMD_WITH_AVX2
using isa = avx2;
#elif XSIMD_WITH_SSE4_1
using isa = sse4_1;
#else
using isa = no_isa;
#endif

// Whether blocked kernels run their output stage out of line. g++ 12 hoists the output stage's constants
// out of the accumulation loops, where they take the registers of the accumulators and weights (up to 2x
// slower); clang keeps them apart, and an out-of-line call would make it keep the accumulators in memory.
#if defined(__clang__)
inline constexpr bool output_stage_out_of_line = false;
#else
inline constexpr bool output_stage_out_of_line = true;
#endif

// Loads of fewer than `lanes` elements (channel tails), through a zeroed buffer: never past the end.
template <class I>
[[gnu::always_inline]] inline typename I::vec load_partial(const std::int32_t* p, int n) {
  if (n == I::lanes) return I::load(p);
  std::int32_t lanes[I::lanes]{};
  std::memcpy(lanes, p, static_cast<std::size_t>(n) * sizeof(std::int32_t));
  return I::load(lanes);
}
template <class I>
[[gnu::always_inline]] inline typename I::vec widen_partial(const std::int8_t* x, int n) {
  if (n == I::lanes) return I::widen(x);
  alignas(64) std::int8_t bytes[64]{};
  std::memcpy(bytes, x, static_cast<std::size_t>(n));
  return I::widen(bytes);
}

}  // namespace ctnn::kernel::simd::i8_detail
