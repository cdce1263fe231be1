#pragma once
// TFLite's output stage on vectors, lane for lane equal to reference::int8::requantize_output (DESIGN §4):
// MultiplyByQuantizedMultiplier = RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(x << left, m), right),
// plus the output zero point, clamped. Two identities make it branch-free:
//   * SRDHM(a, b) = (a * b + 2^30) >> 31 (arithmetic): the reference's nudge (1 - 2^30 when a * b < 0)
//     and truncating division by 2^31 give the same floor. Its one saturating case, a = b = INT32_MIN,
//     cannot occur: multipliers come from QuantizeMultiplier and lie in [0, 2^31).
//   * RDBPOT(x, e) = (x >> e) + (remainder > threshold), threshold = (mask >> 1) + (x < 0), as the reference.
#include <cstdint>

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

// requantize_output<P> on a vector of accumulators; stores the first n lanes.
template <kernel_params P, class I>
[[gnu::always_inline]] inline void requantize_store(typename I::vec acc, const output_scale<I>& s, std::int8_t* out, int n) {
  auto v = I::add(multiply_by_quantized_multiplier<I>(acc, s), I::set1(P.output_offset));
  v = I::min(I::max(v, I::set1(P.activation_min)), I::set1(P.activation_max));
  I::store_i8(out, v, n);
}

// The per-channel (rq arrays) or per-tensor (kernel_params) scale of channels [first, first + n).
template <kernel_params P, class I>
[[gnu::always_inline]] inline output_scale<I> channel_scale(const std::int32_t* multiplier, const std::int32_t* shift,
                                                           std::int32_t first, int n) {
  if constexpr (P.per_channel != 0)
    return output_scale<I>::of(load_partial<I>(multiplier + first, n), load_partial<I>(shift + first, n));
  else
    return output_scale<I>::uniform(P.output_multiplier, P.output_shift);
}

}  // namespace ctnn::kernel::simd::i8_detail
