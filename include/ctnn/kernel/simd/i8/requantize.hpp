#pragma once
// TFLite's output stage on vectors, lane for lane equal to reference::int8::requantize_output (docs/design.md §4):
// MultiplyByQuantizedMultiplier = RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(x << left, m), right),
// plus the output zero point, clamped. Two identities make it branch-free:
//   * SRDHM(a, b) = (a * b + 2^30) >> 31 (arithmetic): the reference's nudge (1 - 2^30 when a * b < 0)
//     and truncating division by 2^31 give the same floor. Its one saturating case, a = b = INT32_MIN,
//     cannot occur: multipliers come from QuantizeMultiplier and lie in [0, 2^31).
//   * RDBPOT(x, e) = (x >> e) + (remainder > threshold), threshold = (mask >> 1) + (x < 0), as the reference;
//     that is floor((x + 2^(e-1) - [x < 0]) / 2^e) for e >= 1.
// With 64-bit arithmetic shifts (AVX-512) the two roundings become one: nested floors of divisions by
// powers of two compose (floor(floor(y / 2^31) / 2^e) = floor(y / 2^(31+e)), integers added in between
// move inside), so with p = (x << left) * m (|p| < 2^62, no int64 overflow below)
//     result = floor((p + 2^30 + 2^(30+e) - [t < 0] 2^31) / 2^(31+e))   (e >= 1; e = 0: floor((p + 2^30) / 2^31))
// where t = SRDHM; [t < 0] may be read as [p < 0], since for -2^30 <= p < 0 both nudges give 0.
// tests/kernel/simd/simd_i8_elementwise.cpp checks every shift on edge and random values.
#include <cstdint>
#include <type_traits>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/simd/i8/isa.hpp>

namespace ctnn::kernel::simd::i8_detail {

// One lane group's multiplier, split into the left and right shifts of the double rounding, with what
// the rounding needs precomputed (once per call, not once per vector): the multiplier's odd lanes for
// the 64-bit products, the remainder mask of the right shift and half of it.
template <class I>
struct output_scale {
  typename I::vec multiplier, odd_multiplier, left, right, mask, half;

  static output_scale of(typename I::vec multiplier, typename I::vec shift) {
    const auto zero = I::zero(), one = I::set1(1);
    const auto right = I::max(I::sub(zero, shift), zero);
    const auto mask = I::sub(I::shift_left(one, right), one);
    return {multiplier, I::odd_lanes(multiplier), I::max(shift, zero), right, mask, I::shift_right_one(mask)};
  }
  static output_scale uniform(std::int32_t multiplier, std::int32_t shift) {
    return of(I::set1(multiplier), I::set1(shift));
  }
};

// RDBPOT(x, right): (x >> right) + 1 where the remainder exceeds half the divisor (or equals it, x < 0).
template <class I>
[[gnu::always_inline]] inline typename I::vec rounding_divide_by_pot(typename I::vec x, const output_scale<I>& s) {
  const auto remainder = I::bit_and(x, s.mask);
  const auto threshold = I::sub(s.half, I::sign(x));  // sign: -1 where x < 0
  return I::add_one_where_greater(I::shift_right(x, s.right), remainder, threshold);
}

template <class I>
[[gnu::always_inline]] inline typename I::vec multiply_by_quantized_multiplier(typename I::vec x, const output_scale<I>& s) {
  return rounding_divide_by_pot<I>(I::mul_high_rounded(I::shift_left(x, s.left), s.multiplier, s.odd_multiplier), s);
}

// The single-rounding form (top of the file), where the level has 64-bit arithmetic shifts (AVX-512): per
// 64-bit half of the lanes (even lanes' products, odd lanes' products), the nudge 2^30 + 2^(30+e), the
// step 2^31 taken off negative products (e >= 1) and the shift 31 + e, as 64-bit lanes. Two fewer
// instructions per vector than output_scale, but three times the set-up: for scales that serve many vectors.
template <class I>
struct single_rounding_scale;

#if XSIMD_WITH_AVX512BW && defined(__AVX512VNNI__)
template <>
struct single_rounding_scale<avx512_vnni> {
  __m512i multiplier, odd_multiplier, left;
  __m512i nudge[2], negative_step[2], right[2];

  static single_rounding_scale of(__m512i multiplier, __m512i shift) {
    using I = avx512_vnni;
    const __m512i right = I::max(I::sub(I::zero(), shift), I::zero());  // e
    single_rounding_scale scale{multiplier, I::odd_lanes(multiplier), I::max(shift, I::zero()), {}, {}, {}};
    // The 64-bit lanes of half 0 take e of the even lanes, those of half 1 of the odd lanes.
    const __m512i halves[2] = {_mm512_maskz_mov_epi32(0x5555, right), I::odd_lanes(right)};
    for (int half = 0; half < 2; ++half) {
      const __m512i e = halves[half];
      const __mmask8 rounds = _mm512_cmpgt_epi64_mask(e, I::zero());  // e >= 1
      scale.nudge[half] = _mm512_add_epi64(
          _mm512_set1_epi64(std::int64_t{1} << 30),
          _mm512_maskz_sllv_epi64(rounds, _mm512_set1_epi64(1), _mm512_add_epi64(e, _mm512_set1_epi64(30))));
      scale.negative_step[half] = _mm512_maskz_mov_epi64(rounds, _mm512_set1_epi64(std::int64_t{1} << 31));
      scale.right[half] = _mm512_add_epi64(e, _mm512_set1_epi64(31));
    }
    return scale;
  }
  static single_rounding_scale uniform(std::int32_t multiplier, std::int32_t shift) {
    return of(_mm512_set1_epi32(multiplier), _mm512_set1_epi32(shift));
  }
};

// floor((p + nudge - [p < 0] step) / 2^right) of one half's 64-bit products.
[[gnu::always_inline]] inline __m512i round_products(__m512i products, const single_rounding_scale<avx512_vnni>& s, int half) {
  const __m512i nudged = _mm512_add_epi64(products, s.nudge[half]);
  const __m512i stepped = _mm512_mask_sub_epi64(nudged, _mm512_cmplt_epi64_mask(products, _mm512_setzero_si512()), nudged,
                                                 s.negative_step[half]);
  return _mm512_maskz_srav_epi64(avx512_vnni::all64, stepped, s.right[half]);
}

template <class I>
[[gnu::always_inline]] inline __m512i multiply_by_quantized_multiplier(__m512i x, const single_rounding_scale<I>& s) {
  const __m512i a = I::shift_left(x, s.left);
  const __m512i even = round_products(_mm512_maskz_mul_epi32(I::all64, a, s.multiplier), s, 0);
  const __m512i odd = round_products(_mm512_maskz_mul_epi32(I::all64, I::odd_lanes(a), s.odd_multiplier), s, 1);
  // The results are the low halves of the 64-bit lanes: the odd ones move up into the odd lanes.
  return _mm512_mask_shuffle_epi32(even, 0xAAAA, odd, _MM_PERM_CDAB);
}

template <class I>
inline constexpr bool has_single_rounding = std::is_same_v<I, avx512_vnni>;
#else
template <class I>
inline constexpr bool has_single_rounding = false;
#endif

// The scale a kernel uses: single_rounding_scale where the level has it and each scale serves many
// vectors (`Reused`), output_scale otherwise (a single-row dense layer uses each scale once).
template <class I, bool Reused>
using scale_for = std::conditional_t<Reused && has_single_rounding<I>, single_rounding_scale<I>, output_scale<I>>;

}  // namespace ctnn::kernel::simd::i8_detail
