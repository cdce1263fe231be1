#pragma once
// int8 softmax over the last axis on Armv7E-M DSP, bit-exact with reference::int8::softmax (TFLite's recipe,
// which TFLM's reference kernel and CMSIS-NN's arm_softmax_s8 share): per row the max, exp(x - max) in fixed point
// (Q5 in, Q0 out) for each x with x - max >= diff_min, their sum in Q12, its reciprocal, and each output
// RoundingDivideByPOT(reciprocal * exp, bits_over_unit + 23) - 128, clamped; the others -128.
//
// Where the time goes and what this kernel does about it (the reference and CMSIS-NN compute every exp twice,
// once for the sum and once for the output):
//   * each exp is computed once per element: a row's exps are kept in a buffer on the stack (the first
//     row_buffer of a longer row; its other elements are computed again for the output), an element below
//     diff_min kept as exp 0, which yields -128 through the same output arithmetic (no second test);
//   * the fixed-point arithmetic without gemmlowp's saturation tests, none of which can trigger here: every
//     SaturatingRoundingDoublingHighMul has an operand other than INT32_MIN, so it is floor((a b + 2^30) / 2^31)
//     (detail/requantize.hpp), and where one operand is below 2^30 in magnitude SMMULR of twice it (one
//     instruction); the exp's Taylor polynomial and barrel shifter, the reciprocal's Newton-Raphson steps and
//     the roundings of non-negative values follow gemmlowp's steps exactly (reference/int8/fixed_point.hpp);
//   * a call with many elements per distinct exp (rows x depth >= table_reuse x table entries) reads its exps from
//     a table the compiler computes (in flash, only the entries d >= diff_min: 4 bytes each), as the int8
//     LOG_SOFTMAX kernel does. The small softmaxes of classifiers (KWS's 12 classes) compute them: there the
//     table would cost more flash than the call's time it saves.
// In place (output over input) is safe: each row's elements are read before any of the row is written, and an
// element past the buffer is read just before its own output is written.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/dsp.hpp>
#include <ctnn/kernel/arm/detail/requantize.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/reference/int8/fixed_point.hpp>
#include <ctnn/kernel/reference/int8/softmax.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::detail {

namespace softmax_math {

namespace fp = reference::int8::fixed_point;

// SaturatingRoundingDoublingHighMul(a, b) for |a| < 2^30: SMMULR(2a, b) = floor((2ab + 2^31) / 2^32).
[[gnu::always_inline]] inline std::int32_t mul_small(std::int32_t a, std::int32_t b) { return rounding_high_mul(a * 2, b); }

// RoundingDivideByPOT(x, Exponent) for x >= 0: floor((x + 2^(Exponent-1)) / 2^Exponent), unsigned (x may be near 2^31).
template <int Exponent>
[[gnu::always_inline]] inline std::int32_t divide_non_negative(std::int32_t x) {
  return static_cast<std::int32_t>((static_cast<std::uint32_t>(x) + (std::uint32_t{1} << (Exponent - 1))) >> Exponent);
}

// fixed_point::exp_on_negative_values<5>(a), a <= 0 in Q5, exp(a) in Q0.
[[gnu::always_inline]] inline std::int32_t exp_q5(std::int32_t a) {
  constexpr std::int32_t one_quarter = std::int32_t{1} << 24;  // 1/4 in Q5
  constexpr std::int32_t exp_minus_one_eighth = 1895147668, one_third = 715827883;
  const std::int32_t a_mod_quarter_minus_one_quarter = (a & (one_quarter - 1)) - one_quarter;  // [-2^24, 0)
  // exp on [-1/4, 0): x = a' + 1/8 in Q0, in [-2^28, 2^28); x^2 in [0, 2^25]: every product has a small operand.
  const std::int32_t x = a_mod_quarter_minus_one_quarter * 32 + (std::int32_t{1} << 28);
  const std::int32_t x2 = mul_small(x, x);
  const std::int32_t x3 = mul_small(x2, x);
  const std::int32_t x4 = mul_small(x2, x2);
  const std::int32_t x4_over_4 = divide_non_negative<2>(x4);
  // (x^4/4 + x^3) / 3 + x^2, halved rounding half away from zero (it may be negative only in principle).
  const std::int32_t twice_poly = mul_small(x4_over_4 + x3, one_third) + x2;
  const std::int32_t poly = ctnn::detail::quant::rounding_divide_by_pot(twice_poly, 1);
  std::int32_t result = rounding_high_mul_add((x + poly) * 2, exp_minus_one_eighth, exp_minus_one_eighth);
  // exp(-2^e) for each set bit e = -2..4 of the remainder (multiples of 1/4 in Q5: bits 24..30). result is in
  // (0, 2^31): the two multipliers above 2^30 take the full product, the others SMMULR of twice them.
  const auto remainder = static_cast<std::uint32_t>(a_mod_quarter_minus_one_quarter) - static_cast<std::uint32_t>(a);
  if (remainder & (1u << 24)) result = doubling_high_mul(result, 1672461947);
  if (remainder & (1u << 25)) result = doubling_high_mul(result, 1302514674);
  if (remainder & (1u << 26)) result = rounding_high_mul(result, 2 * 790015084);
  if (remainder & (1u << 27)) result = rounding_high_mul(result, 2 * 290630308);
  if (remainder & (1u << 28)) result = rounding_high_mul(result, 2 * 39332535);
  if (remainder & (1u << 29)) result = rounding_high_mul(result, 2 * 720401);
  if (remainder & (1u << 30)) result = rounding_high_mul(result, 2 * 242);
  return a == 0 ? fp::raw_max : result;
}

// fixed_point::get_reciprocal<12>(sum) for sum > 0: the scale and bits_over_unit.
inline fp::reciprocal reciprocal_of_sum(std::int32_t sum) {
  const auto headroom_plus_one = static_cast<std::int32_t>(std::countl_zero(static_cast<std::uint32_t>(sum)));
  const std::uint32_t a = (static_cast<std::uint32_t>(sum) << headroom_plus_one) - (std::uint32_t{1} << 31);  // [0, 2^31)
  // one_over_one_plus_x_for_x_in_0_1(a): half_denominator = RoundingHalfSum(a, raw_max) in [2^30, 2^31).
  const auto half_denominator = static_cast<std::int32_t>((a + (std::uint32_t{1} << 31)) >> 1);
  constexpr std::int32_t forty_eight_seventeenths = 1515870810, minus_thirty_two_seventeenths = -1010580540;
  constexpr std::int32_t one_q2 = 1 << 29;
  std::int32_t x = forty_eight_seventeenths + doubling_high_mul(half_denominator, minus_thirty_two_seventeenths);
  for (int i = 0; i < 3; ++i) {
    const std::int32_t one_minus_half_denominator_times_x = one_q2 - doubling_high_mul(half_denominator, x);
    x = x + fp::rescale<4, 2>(doubling_high_mul(x, one_minus_half_denominator_times_x));
  }
  return {fp::rescale<1, 0>(x), 12 - headroom_plus_one};
}

}  // namespace softmax_math

template <kernel_params P>
struct softmax_kernel : kernel::detail::reads_constants_as_stored {
  static constexpr std::int32_t depth = P.in.rank > 0 ? P.in.last() : 0;
  static constexpr std::int64_t rows = depth > 0 ? P.in.elements() / depth : 0;
  static constexpr bool shift_in_range = P.input_shift >= 0 && P.input_shift <= 31;  // TFLite's left shift
  static constexpr std::int32_t diff_min = shift_in_range ? -ctnn::detail::quant::input_radius(5, P.input_shift) : 0;
  // The exps of the d = x - max >= diff_min: d in [-entries + 1, 0].
  static constexpr std::int32_t entries = diff_min > -255 ? 1 - diff_min : 256;
  static constexpr std::int32_t row_buffer = 64;
  static constexpr std::int64_t table_reuse = 4;

  static constexpr bool supports = dsp_available && P.kind == op_kind::softmax && P.type == dtype::i8 &&
                                   P.out_type == dtype::i8 && reference::int8::softmax_output_is_supported(P) &&
                                   shift_in_range && P.out.elements() == P.in.elements();

  // exp(d) in Q0 for d = -index, index in [0, entries): TFLite's arithmetic, computed by the compiler.
  static constexpr std::array<std::int32_t, static_cast<std::size_t>(entries)> make_table() {
    std::array<std::int32_t, static_cast<std::size_t>(entries)> table{};
    for (std::int32_t index = 0; index < entries; ++index)
      table[static_cast<std::size_t>(index)] = reference::int8::fixed_point::exp_on_negative_values<5>(
          ctnn::detail::quant::multiply_by_quantized_multiplier_greater_than_one(-index, P.input_multiplier, P.input_shift));
    return table;
  }
  static constexpr bool use_table = rows * depth >= table_reuse * entries;

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    const auto* input = static_cast<const std::int8_t*>(operands[0]);
    auto* output = static_cast<std::int8_t*>(result);
    if constexpr (depth > 0)
      for (std::int64_t r = 0; r < rows; ++r) row(input + r * depth, output + r * depth);
  }

 private:
  // exp(x - largest) in Q0, 0 below diff_min.
  [[gnu::always_inline]] static inline std::int32_t exp_of(std::int32_t x, std::int32_t largest) {
    const std::int32_t distance = largest - x;  // [0, 255]
    if constexpr (use_table) {
      static constexpr auto table = make_table();
      return distance < entries ? table[static_cast<std::size_t>(distance)] : 0;
    } else {
      if (distance > -diff_min) return 0;
      // MultiplyByQuantizedMultiplierGreaterThanOne(-distance): its shift wraps as the reference's (it cannot at
      // or above diff_min).
      const auto shifted = static_cast<std::int32_t>(static_cast<std::uint32_t>(-distance) << P.input_shift);
      return softmax_math::exp_q5(doubling_high_mul(shifted, P.input_multiplier));
    }
  }

  // exp * scale / 2^exponent rounded, minus 128, clamped (exp 0 gives -128).
  [[gnu::always_inline]] static inline std::int8_t output_of(std::int32_t exp, std::int32_t scale, std::int32_t exponent) {
    const std::int32_t product = doubling_high_mul(scale, exp);  // >= 0
    std::int32_t v;
    if (exponent <= 31) [[likely]]
      v = static_cast<std::int32_t>((static_cast<std::uint32_t>(product) + (std::uint32_t{1} << (exponent - 1))) >> exponent);
    else
      v = ctnn::detail::quant::rounding_divide_by_pot(product, exponent);  // a row summing to 2^28 or more: as the reference
    return static_cast<std::int8_t>((v > 255 ? 255 : v) - 128);
  }

  static void row(const std::int8_t* x, std::int8_t* y) {
    std::int32_t largest = -128;
    for (std::int32_t c = 0; c < depth; ++c) largest = x[c] > largest ? x[c] : largest;
    constexpr std::int32_t buffered = depth < row_buffer ? depth : row_buffer;
    std::int32_t exps[buffered];
    std::uint32_t sum = 0;  // Q12, wrapping as the reference's
    for (std::int32_t c = 0; c < buffered; ++c) {
      exps[c] = exp_of(x[c], largest);
      sum += static_cast<std::uint32_t>(softmax_math::divide_non_negative<12>(exps[c]));
    }
    for (std::int32_t c = buffered; c < depth; ++c)
      sum += static_cast<std::uint32_t>(softmax_math::divide_non_negative<12>(exp_of(x[c], largest)));
    const auto inverse = softmax_math::reciprocal_of_sum(static_cast<std::int32_t>(sum));
    const std::int32_t exponent = inverse.bits_over_unit + 23;
    for (std::int32_t c = 0; c < buffered; ++c) y[c] = output_of(exps[c], inverse.scale, exponent);
    for (std::int32_t c = buffered; c < depth; ++c) y[c] = output_of(exp_of(x[c], largest), inverse.scale, exponent);
  }
};

}  // namespace ctnn::kernel::arm::detail
