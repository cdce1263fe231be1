#pragma once
// gemmlowp-style fixed-point math on raw int32 values, as TFLite's int8 SOFTMAX, LOGISTIC and TANH use
// it (docs/design.md §4). A value "in Qi" is raw / 2^(31 - i): i integer bits, 31 - i fractional bits. The
// algorithms follow gemmlowp's published ones step by step (same constants, same order of rounding and
// saturation), so the results are bit-exact:
//   * exp(x) for x < 0: x = -k/4 - r, exp(-r) on [-1/4, 0) by a 4th-order Taylor polynomial around -1/8,
//     times exp(-2^e) for each set bit e of the multiple of 1/4 (a barrel shifter of Q0 constants);
//   * 1/(1+x) and (1-x)/(1+x) for x in [0, 1): three Newton-Raphson steps from 48/17 - 32/17 * d;
//   * logistic(x) = 1/(1 + exp(-|x|)) mirrored for x < 0; tanh(x) = (1 - e)/(1 + e), e = exp(-2|x|).
#include <bit>
#include <cstdint>
#include <limits>

#include <ctnn/detail/quantization.hpp>

namespace ctnn::kernel::reference::int8::fixed_point {

namespace q = ctnn::detail::quant;

inline constexpr std::int32_t raw_max = std::numeric_limits<std::int32_t>::max();
inline constexpr std::int32_t raw_min = std::numeric_limits<std::int32_t>::min();

// The product of a Qa and a Qb value is in Q(a+b).
constexpr std::int32_t mul(std::int32_t a, std::int32_t b) { return q::saturating_rounding_doubling_high_mul(a, b); }

// x * 2^Exponent, keeping the format: saturating for Exponent > 0, rounding for Exponent < 0.
template <int Exponent>
constexpr std::int32_t saturating_rounding_multiply_by_pot(std::int32_t x) {
  if constexpr (Exponent == 0) {
    return x;
  } else if constexpr (Exponent > 0) {
    constexpr std::int32_t threshold = (1 << (31 - Exponent)) - 1;
    if (x > threshold) return raw_max;
    if (x < -threshold) return raw_min;
    return q::wrapping_shift_left(x, Exponent);
  } else {
    return q::rounding_divide_by_pot(x, -Exponent);
  }
}

// A Q(From) value re-expressed in Q(To).
template <int From, int To>
constexpr std::int32_t rescale(std::int32_t x) {
  return saturating_rounding_multiply_by_pot<From - To>(x);
}

// (a + b) / 2 rounded to nearest, ties away from zero.
constexpr std::int32_t rounding_half_sum(std::int32_t a, std::int32_t b) {
  const std::int64_t sum = static_cast<std::int64_t>(a) + b;
  return static_cast<std::int32_t>((sum + (sum >= 0 ? 1 : -1)) / 2);
}

// exp(a) for a (Q0) in [-1/4, 0).
constexpr std::int32_t exp_on_interval_between_negative_one_quarter_and_0_excl(std::int32_t a) {
  constexpr std::int32_t exp_minus_one_eighth = 1895147668;  // exp(-1/8) in Q0
  constexpr std::int32_t one_third = 715827883;              // 1/3 in Q0
  const std::int32_t x = q::wrapping_add(a, 1 << 28);        // a + 1/8
  const std::int32_t x2 = mul(x, x);
  const std::int32_t x3 = mul(x2, x);
  const std::int32_t x4 = mul(x2, x2);
  const std::int32_t x4_over_4 = saturating_rounding_multiply_by_pot<-2>(x4);
  const std::int32_t poly =  // x^4/24 + x^3/6 + x^2/2
      saturating_rounding_multiply_by_pot<-1>(q::wrapping_add(mul(q::wrapping_add(x4_over_4, x3), one_third), x2));
  return q::wrapping_add(exp_minus_one_eighth, mul(exp_minus_one_eighth, q::wrapping_add(x, poly)));
}

// exp(a) in Q0 for a (Q IntegerBits) <= 0.
template <int IntegerBits>
constexpr std::int32_t exp_on_negative_values(std::int32_t a) {
  constexpr int fractional_bits = 31 - IntegerBits;
  constexpr std::int32_t one_quarter = std::int32_t{1} << (fractional_bits - 2);
  const std::int32_t a_mod_quarter_minus_one_quarter = q::wrapping_sub(a & (one_quarter - 1), one_quarter);
  std::int32_t result =
      exp_on_interval_between_negative_one_quarter_and_0_excl(rescale<IntegerBits, 0>(a_mod_quarter_minus_one_quarter));
  const std::int32_t remainder = q::wrapping_sub(a_mod_quarter_minus_one_quarter, a);
  // exp(-2^e) in Q0 for e = -2..4: applied for each bit of the remainder (multiples of 1/4).
  constexpr std::int32_t exponents[7] = {-2, -1, 0, 1, 2, 3, 4};
  constexpr std::int32_t multipliers[7] = {1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
  for (int k = 0; k < 7; ++k) {
    if (IntegerBits > exponents[k] && (remainder & (std::int32_t{1} << (fractional_bits + exponents[k]))) != 0)
      result = mul(result, multipliers[k]);
  }
  if constexpr (IntegerBits > 5) {
    if (a < -(std::int32_t{1} << (36 - IntegerBits))) result = 0;  // below -32: exp rounds to 0
  }
  return a == 0 ? raw_max : result;
}

// The Newton-Raphson iteration for 1 / (1 + a), a (Q0) in [0, 1): x in Q2 approximates 1 / half_denominator.
constexpr std::int32_t newton_reciprocal_q2(std::int32_t half_denominator) {
  constexpr std::int32_t forty_eight_seventeenths = 1515870810;   // 48/17 in Q2
  constexpr std::int32_t minus_thirty_two_seventeenths = -1010580540;  // -32/17 in Q2
  constexpr std::int32_t one_q2 = 1 << 29;
  std::int32_t x = q::wrapping_add(forty_eight_seventeenths, mul(half_denominator, minus_thirty_two_seventeenths));
  for (int i = 0; i < 3; ++i) {
    const std::int32_t one_minus_half_denominator_times_x = q::wrapping_sub(one_q2, mul(half_denominator, x));
    x = q::wrapping_add(x, rescale<4, 2>(mul(x, one_minus_half_denominator_times_x)));
  }
  return x;
}

// 1 / (1 + a) in Q0, a (Q0) in [0, 1).
constexpr std::int32_t one_over_one_plus_x_for_x_in_0_1(std::int32_t a) {
  const std::int32_t x = newton_reciprocal_q2(rounding_half_sum(a, raw_max));
  return rescale<1, 0>(x);  // x / 2 (the same raw value read as Q1), back in Q0
}

// (1 - a) / (1 + a) in Q0, a (Q0) in [0, 1).
constexpr std::int32_t one_minus_x_over_one_plus_x_for_x_in_0_1(std::int32_t a) {
  const std::int32_t x = newton_reciprocal_q2(rounding_half_sum(a, raw_max));
  return rescale<2, 0>(q::wrapping_sub(x, 1 << 29));  // x - 1, back in Q0
}

// SaturatingRoundingMultiplyByPOTParam: x * 2^exponent for a run-time exponent >= 0, saturating.
constexpr std::int32_t saturating_multiply_by_pot(std::int32_t x, std::int32_t exponent) {
  if (exponent == 0) return x;
  const std::int32_t threshold = static_cast<std::int32_t>((std::int64_t{1} << (31 - exponent)) - 1);
  if (x > threshold) return raw_max;
  if (x < -threshold) return raw_min;
  return q::wrapping_shift_left(x, exponent);
}
// a + b and a - b saturated to int32 (TFLite's SaturatingAddNonGemmlowp, SaturatingSub).
constexpr std::int32_t saturating_add(std::int64_t a, std::int64_t b) {
  const std::int64_t sum = a + b;
  return static_cast<std::int32_t>(sum > raw_max ? raw_max : sum < raw_min ? raw_min : sum);
}

// TFLite's log_x_for_x_greater_than_or_equal_to_1_impl: ln(x) in Q(Output) for x (Q(Input)) >= 1. x = 2^k * z
// with z in [sqrt(1/2), sqrt(2)), split as the larger of the two candidate exponents and a rational
// approximation of ln(z) around 2^(-1/4) (TFLite's constants and steps).
template <int Output, int Input>
constexpr std::int32_t log_x_for_x_greater_than_or_equal_to_1(std::int32_t x) {
  constexpr int accum = Output + 1;  // a bit of headroom: z_pow_2_adj * log_2 may saturate
  constexpr std::int32_t log_2 = 1488522236, sqrt_sqrt_half = 1805811301, sqrt_half = 1518500250;
  constexpr std::int32_t one_quarter = 536870912;
  constexpr std::int32_t alpha_n = 117049297, alpha_d = 127690142, alpha_i = 1057819769, alpha_f = 638450708;
  const std::int32_t shifted_quarter = rescale<0, accum>(one_quarter);
  const std::int32_t z_a = x;  // read as Q0: the shift is found here
  const std::int32_t z_a_headroom_plus_1 = std::countl_zero(static_cast<std::uint32_t>(z_a));
  const std::int32_t r_a_tmp = saturating_multiply_by_pot(z_a, z_a_headroom_plus_1 - 1);
  const std::int32_t r_a_raw = saturating_multiply_by_pot(mul(r_a_tmp, sqrt_half), 1);
  const std::int32_t z_a_pow_2_adj =
      saturating_add(saturating_multiply_by_pot(Input - z_a_headroom_plus_1, 31 - accum), shifted_quarter);
  const std::int32_t z_b = mul(z_a, sqrt_half);
  const std::int32_t z_b_headroom = std::countl_zero(static_cast<std::uint32_t>(z_b)) - 1;
  const std::int32_t r_b_raw = saturating_multiply_by_pot(z_a, z_b_headroom);
  const std::int32_t z_b_pow_2_adj =
      saturating_add(saturating_multiply_by_pot(Input - z_b_headroom, 31 - accum), -std::int64_t{shifted_quarter});
  const std::int32_t r = r_a_raw < r_b_raw ? r_a_raw : r_b_raw;
  const std::int32_t z_pow_2_adj = z_a_pow_2_adj > z_b_pow_2_adj ? z_a_pow_2_adj : z_b_pow_2_adj;
  const std::int32_t p = rounding_half_sum(r, sqrt_sqrt_half);
  std::int32_t qv = q::wrapping_sub(r, sqrt_sqrt_half);
  qv = q::wrapping_add(qv, qv);
  const std::int32_t common_sq = mul(qv, qv);
  const std::int32_t num = q::wrapping_add(mul(qv, r), mul(mul(qv, common_sq), alpha_n));
  const std::int32_t denom_minus_one_0 =
      q::wrapping_add(mul(p, q::wrapping_add(q::wrapping_add(alpha_i, qv), mul(alpha_d, common_sq))), mul(alpha_f, qv));
  const std::int32_t recip_denom = one_over_one_plus_x_for_x_in_0_1(denom_minus_one_0);
  const std::int32_t num_scaled = rescale<0, accum>(num);
  return rescale<accum, Output>(q::wrapping_add(mul(z_pow_2_adj, log_2), mul(num_scaled, recip_denom)));
}

// logistic(a) in Q0 for a in Q4.
constexpr std::int32_t logistic_q4(std::int32_t a) {
  if (a == 0) return 1 << 30;  // 1/2
  const std::int32_t magnitude = a > 0 ? a : q::wrapping_neg(a);
  const std::int32_t positive = one_over_one_plus_x_for_x_in_0_1(exp_on_negative_values<4>(q::wrapping_neg(magnitude)));
  return a > 0 ? positive : q::wrapping_sub(raw_max, positive);
}

// tanh(a) in Q0 for a in Q4.
constexpr std::int32_t tanh_q4(std::int32_t a) {
  if (a == 0) return 0;
  const std::int32_t non_positive = a < 0 ? a : q::wrapping_neg(a);
  // exp(2 * non_positive): the same raw value read in Q5 is twice the Q4 value.
  const std::int32_t t = one_minus_x_over_one_plus_x_for_x_in_0_1(exp_on_negative_values<5>(non_positive));
  return a < 0 ? q::wrapping_neg(t) : t;
}

// TFLite's GetReciprocal: 1 / x for x > 0 in Q(IntegerBits), as a Q0 scale and a count of bits above one.
struct reciprocal {
  std::int32_t scale = 0;            // Q0
  std::int32_t bits_over_unit = 0;   // 1/x = scale / 2^bits_over_unit
};
template <int IntegerBits>
constexpr reciprocal get_reciprocal(std::int32_t x) {
  const auto headroom_plus_one = static_cast<std::int32_t>(std::countl_zero(static_cast<std::uint32_t>(x)));
  const auto shifted_sum_minus_one =
      static_cast<std::int32_t>((static_cast<std::uint32_t>(x) << headroom_plus_one) - (std::uint32_t{1} << 31));
  return {one_over_one_plus_x_for_x_in_0_1(shifted_sum_minus_one), IntegerBits - headroom_plus_one};
}

// TFLite's GetInvSqrtQuantizedMultiplierExp with reverse shift -1 (int8 RSQRT): 1 / sqrt(x) for x >= 0 as a
// multiplier and a left shift (<= 0). x <= 1 gives the largest multiplier and shift 0 (TFLite treats 0 as
// 1). Otherwise x is scaled by 4^n into [2^27, 2^29), five Newton-Raphson steps x' = 3/2 x - x^3 input/2
// from 1 run in Q3, and the result times sqrt(2)/2 (Q0) is the multiplier; a negative shift is folded
// into it by a (wrapping) left shift, as TFLite.
struct inv_sqrt_multiplier {
  std::int32_t multiplier = 0;
  std::int32_t shift = 0;
};
constexpr inv_sqrt_multiplier inverse_sqrt_multiplier(std::int32_t x) {
  if (x <= 1) return {raw_max, 0};
  std::int32_t right_shift = 11;
  while (x >= (1 << 29)) {
    x /= 4;
    ++right_shift;
  }
  const auto max_left_shift_bits = static_cast<std::int32_t>(std::countl_zero(static_cast<std::uint32_t>(x))) - 1;
  const std::int32_t left_shift_bit_pairs = max_left_shift_bits / 2 - 1;
  right_shift -= left_shift_bit_pairs;
  x <<= 2 * left_shift_bit_pairs;
  const std::int32_t input_q3 = x >> 1;
  const std::int32_t half_input_q3 = saturating_rounding_multiply_by_pot<-1>(input_q3);
  constexpr std::int32_t three_halves_q3 = (1 << 28) + (1 << 27);
  std::int32_t estimate_q3 = 1 << 28;  // 1
  for (int i = 0; i < 5; ++i) {
    const std::int32_t cube_q3 = rescale<9, 3>(mul(mul(estimate_q3, estimate_q3), estimate_q3));
    estimate_q3 = rescale<6, 3>(q::wrapping_sub(mul(three_halves_q3, estimate_q3), mul(half_input_q3, cube_q3)));
  }
  constexpr std::int32_t half_sqrt2_q0 = 1518500250;
  std::int32_t multiplier = mul(estimate_q3, half_sqrt2_q0);
  if (right_shift < 0) {
    multiplier = q::wrapping_shift_left(multiplier, -right_shift);
    right_shift = 0;
  }
  return {multiplier, -right_shift};
}

}  // namespace ctnn::kernel::reference::int8::fixed_point
