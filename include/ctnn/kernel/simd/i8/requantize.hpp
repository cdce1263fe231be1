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

// One lane group's multiplier, split into the left and right shifts of the double rounding.
template <class I>
struct output_scale {
  typename I::vec multiplier, left, right;

  static output_scale of(typename I::vec multiplier, typename I::vec shift) {
    const auto zero = I::zero();
    return {multiplier, I::max(shift, zero), I::max(I::sub(zero, shift), zero)};
  }
  static output_scale uniform(std::int32_t multiplier, std::int32_t shift) {
    return {I::set1(multiplier), I::set1(shift > 0 ? shift : 0), I::set1(shift > 0 ? 0 : -shift)};
  }
};

template <class I>
[[gnu::always_inline]] inline typename I::vec rounding_divide_by_pot(typename I::vec x, typename I::vec exponent) {
  const auto one = I::set1(1);
  const auto mask = I::sub(I::shift_left(one, exponent), one);
  const auto remainder = I::bit_and(x, mask);
  const auto threshold = I::sub(I::shift_right_one(mask), I::cmpgt(I::zero(), x));  // cmpgt: -1 where x < 0
  return I::sub(I::shift_right(x, exponent), I::cmpgt(remainder, threshold));
}

template <class I>
[[gnu::always_inline]] inline typename I::vec multiply_by_quantized_multiplier(typename I::vec x, const output_scale<I>& s) {
  return rounding_divide_by_pot<I>(I::mul_high_rounded(I::shift_left(x, s.left), s.multiplier), s.right);
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
