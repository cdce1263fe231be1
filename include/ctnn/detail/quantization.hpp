#pragma once
// The integer arithmetic of TFLite's quantized kernels (docs/design.md §4), as constexpr functions: the
// compile-time preparation (QuantizeMultiplier and friends, which TFLite runs in each op's Prepare) and
// the run-time requantization primitives the kernels share (gemmlowp's SaturatingRoundingDoublingHighMul
// and RoundingDivideByPOT, and TFLite's double-rounding MultiplyByQuantizedMultiplier).
//
// Everything here is written from the published semantics of those functions (TFLite / TFLM reference
// kernels, gemmlowp fixedpoint), so that results are bit-exact with TFLM. Two details matter for that:
//   * QuantizeMultiplier uses frexp and rounds half away from zero (TfLiteRound = std::round); <cmath>
//     is not constexpr on clang 14, so frexp and round are ctnn's own (std::bit_cast), tested against
//     <cmath> at run time (tests/kernel/reference/unit_int8_quantization.cpp).
//   * Integer overflow that TFLite leaves to the hardware (x * (1 << left_shift), fixed-point adds) wraps
//     here explicitly (two's complement through uint32), never undefined behaviour.
#include <bit>
#include <cstdint>
#include <limits>

#include <ctnn/detail/math.hpp>
#include <ctnn/ir/op_kind.hpp>

namespace ctnn::detail::quant {

// ---------------------------------------------------------------------------------------------------
// constexpr <cmath> replacements.

// std::frexp: x = mantissa * 2^exponent with |mantissa| in [0.5, 1); 0, inf and NaN come back unchanged
// with exponent 0. Subnormals are normalised first.
constexpr double frexp(double x, std::int32_t& exponent) {
  exponent = 0;
  if (x == 0.0 || x != x || x == std::numeric_limits<double>::infinity() || x == -std::numeric_limits<double>::infinity())
    return x;
  std::uint64_t bits = std::bit_cast<std::uint64_t>(x);
  auto biased = static_cast<std::int32_t>((bits >> 52) & 0x7ffu);
  std::int32_t adjust = 0;
  if (biased == 0) {  // subnormal: scale into the normal range (exact), remember the scale
    bits = std::bit_cast<std::uint64_t>(x * 18014398509481984.0);  // 2^54
    biased = static_cast<std::int32_t>((bits >> 52) & 0x7ffu);
    adjust = -54;
  }
  exponent = biased - 1022 + adjust;
  bits = (bits & ~(std::uint64_t{0x7ff} << 52)) | (std::uint64_t{1022} << 52);
  return std::bit_cast<double>(bits);
}

// std::round (TfLiteRound): to nearest, halves away from zero.
constexpr double round(double x) {
  const double magnitude = x < 0 ? -x : x;
  if (!(magnitude < 4503599627370496.0)) return x;  // >= 2^52 (already integral), or NaN
  auto whole = static_cast<double>(static_cast<std::int64_t>(magnitude));
  if (magnitude - whole >= 0.5) whole += 1.0;  // exact: both are below 2^52
  return x < 0 ? -whole : whole;
}
constexpr float round(float x) {
  const float magnitude = x < 0 ? -x : x;
  if (!(magnitude < 8388608.0f)) return x;  // >= 2^23 (already integral), or NaN
  auto whole = static_cast<float>(static_cast<std::int64_t>(magnitude));
  if (magnitude - whole >= 0.5f) whole += 1.0f;
  return x < 0 ? -whole : whole;
}

// A float rounded to an integer and clamped to int32 (TFLite casts; clamping only avoids UB where TFLite
// would overflow anyway).
constexpr std::int64_t round_to_int(float x) {
  const float r = round(x);
  if (!(r == r)) return 0;
  if (r >= 2147483648.0f) return std::numeric_limits<std::int32_t>::max();
  if (r <= -2147483648.0f) return std::numeric_limits<std::int32_t>::min();
  return static_cast<std::int64_t>(r);
}

// ---------------------------------------------------------------------------------------------------
// Preparation (TFLite's quantization_util), run at compile time by lower_te and runtime/requantization.

// A real multiplier as TFLite stores it: real ~= multiplier / 2^31 * 2^shift (shift > 0: left).
struct quantized_multiplier {
  std::int32_t multiplier = 0;
  std::int32_t shift = 0;
  friend constexpr bool operator==(const quantized_multiplier&, const quantized_multiplier&) = default;
};

// QuantizeMultiplier: frexp, the mantissa rounded to Q31 (a mantissa that rounds up to 2^31 becomes 2^30
// with the exponent one higher), and multipliers below 2^-31 flushed to zero (double rounding, not
// TFLITE_SINGLE_ROUNDING). A shift above 31 is returned as it is (TFLite's TFLITE_CHECK fails there; the
// frontends reject such scales: the run-time primitives below need shifts in [-31, 31]); an infinite or NaN
// real, which no valid scales give, returns {0, 0} rather than converting infinity to an integer.
constexpr quantized_multiplier quantize_multiplier(double real) {
  if (real == 0.0 || !(real - real == 0.0)) return {0, 0};
  std::int32_t shift = 0;
  const double mantissa = frexp(real, shift);
  auto fixed = static_cast<std::int64_t>(round(mantissa * 2147483648.0));
  if (fixed == (std::int64_t{1} << 31)) {
    fixed /= 2;
    ++shift;
  }
  if (shift < -31) {
    shift = 0;
    fixed = 0;
  }
  return {static_cast<std::int32_t>(fixed), shift};
}

// The per-output-channel multiplier of a conv / depthwise / per-channel dense (TFLite's
// PopulateConvolutionQuantizationParams): input_scale * weight_scale / output_scale in double.
constexpr quantized_multiplier channel_multiplier(float input_scale, float weight_scale, float output_scale) {
  return quantize_multiplier(static_cast<double>(input_scale) * static_cast<double>(weight_scale) /
                             static_cast<double>(output_scale));
}

// The input scaling of LOGISTIC and TANH (int8, 4 integer bits): frexp and a Q31 rounding *without* the
// 2^31 fix-up of quantize_multiplier (TFLM's Prepare does it inline); a mantissa rounding to 2^31 wraps
// to INT32_MIN, as the float-to-int conversion does on the targets TFLM runs on.
constexpr quantized_multiplier logistic_tanh_input_multiplier(float input_scale) {
  std::int32_t shift = 0;
  const double mantissa = frexp(static_cast<double>(input_scale) * static_cast<double>(1 << (31 - 4)), shift);
  const auto fixed = static_cast<std::int64_t>(round(mantissa * 2147483648.0));
  return {static_cast<std::int32_t>(static_cast<std::uint32_t>(fixed)), shift};
}

// CheckedLog2 (TFLite's quantization_util): log2 x rounded (halves away from zero), and whether x is within
// 1e-3 (in log2) of that power of two. TFLite computes the logarithm in float, this in double: they can only
// disagree about a scale 2^(k +- 1e-3) to within a float's rounding.
struct rounded_log2 {
  std::int32_t exponent = 0;
  bool power_of_two = false;
};
constexpr rounded_log2 checked_log2(float x) {
  if (!(x > 0.0f) || x > 3.4028234663852886e38f) return {};  // 0, negative, NaN, inf: no power of two
  const double log2 = math::log(static_cast<double>(x)) / math::log(2.0);
  const double rounded = log2 < 0 ? -static_cast<double>(static_cast<std::int64_t>(-log2 + 0.5))
                                  : static_cast<double>(static_cast<std::int64_t>(log2 + 0.5));
  const double fraction = log2 - rounded;
  return {static_cast<std::int32_t>(rounded), (fraction < 0 ? -fraction : fraction) < 1e-3};
}

// The input scaling of int16 LOGISTIC and TANH (TFLM's Prepare; 3 integer bits): a power-of-two input scale
// that needs a left shift in [0, largest_pot_shift] (logistic 0, tanh 0 or 1) is multiplier 0 and that shift;
// any other, the input scale times 3 * 4096 doubled until above 32767 / 2 (at most 31 times), truncated.
constexpr quantized_multiplier int16_logistic_tanh_input_multiplier(float input_scale, std::int32_t largest_pot_shift) {
  const rounded_log2 log2 = checked_log2(input_scale);
  const std::int32_t pot_shift = (15 - 3) + log2.exponent;
  if (log2.power_of_two && pot_shift >= 0 && pot_shift <= largest_pot_shift) return {0, pot_shift};
  double multiplier = static_cast<double>(input_scale) * 4096.0 * 3.0;
  std::int32_t shift = 0;
  while (multiplier <= 32767.0 / 2.0 && shift <= 30) {
    ++shift;
    multiplier *= 2.0;
  }
  return {multiplier < 2147483648.0 ? static_cast<std::int32_t>(multiplier) : std::numeric_limits<std::int32_t>::max(), shift};
}

// CalculateInputRadius: the largest input difference whose rescaled value still fits in
// `integer_bits` integer bits, floor((2^integer_bits - 1) * 2^(total_bits - integer_bits) / 2^left_shift).
constexpr std::int32_t input_radius(std::int32_t integer_bits, std::int32_t left_shift, std::int32_t total_bits = 31) {
  const double rescaled = 1.0 * static_cast<double>((1 << integer_bits) - 1) *
                          static_cast<double>(std::int64_t{1} << (total_bits - integer_bits)) /
                          static_cast<double>(std::int64_t{1} << left_shift);
  return static_cast<std::int32_t>(static_cast<std::int64_t>(rescaled));  // floor: rescaled >= 0
}

// PreprocessSoftmaxScaling (double rounding): beta * input_scale in Q(integer_bits), capped at 2^31 - 1.
constexpr quantized_multiplier softmax_input_multiplier(double beta, double input_scale, std::int32_t integer_bits) {
  double real = beta * input_scale * static_cast<double>(1 << (31 - integer_bits));
  const double cap = static_cast<double>((std::int64_t{1} << 31) - 1);
  if (real > cap) real = cap;
  return quantize_multiplier(real);
}

// PreprocessLogSoftmaxScalingExp (LOG_SOFTMAX, beta 1): the input multiplier as softmax's, and the reverse
// scaling divisor, QuantizeMultiplier of 2^(31 - left shift) / multiplier (a shift <= 0).
constexpr quantized_multiplier log_softmax_reverse_multiplier(const quantized_multiplier& input) {
  return quantize_multiplier(static_cast<double>(std::int64_t{1} << (31 - input.shift)) / static_cast<double>(input.multiplier));
}

// CalculateActivationRangeQuantized for an int8 output: the fused activation's bounds in the output's
// quantization, quantize(f) = zero_point + round(f / scale) in float.
struct activation_bounds {
  std::int32_t min = std::numeric_limits<std::int8_t>::min();
  std::int32_t max = std::numeric_limits<std::int8_t>::max();
};
// Of an int16 output (16x8): the same within [lowest, highest] = int16's.
constexpr activation_bounds quantized_activation_range(activation fused, float scale, std::int32_t zero_point,
                                                       std::int32_t lowest = std::numeric_limits<std::int8_t>::min(),
                                                       std::int32_t highest = std::numeric_limits<std::int8_t>::max()) {
  const std::int64_t qmin = lowest;
  const std::int64_t qmax = highest;
  const auto quantize = [&](float f) { return zero_point + round_to_int(f / scale); };
  std::int64_t low = qmin, high = qmax;
  if (fused == activation::relu) {
    low = quantize(0.0f) > qmin ? quantize(0.0f) : qmin;
  } else if (fused == activation::relu6) {
    low = quantize(0.0f) > qmin ? quantize(0.0f) : qmin;
    high = quantize(6.0f) < qmax ? quantize(6.0f) : qmax;
  }
  return {static_cast<std::int32_t>(low), static_cast<std::int32_t>(high)};
}

// FloatToQuantizedType<T> (TFLM micro_utils): round(value / scale) + zero_point, clamped to T's values
// [lowest, highest].
constexpr std::int32_t float_to_quantized(float value, float scale, std::int32_t zero_point, std::int32_t lowest,
                                          std::int32_t highest) {
  const std::int64_t q = round_to_int(value / scale) + zero_point;
  return static_cast<std::int32_t>(q < lowest ? lowest : (q > highest ? highest : q));
}
constexpr std::int32_t float_to_int8(float value, float scale, std::int32_t zero_point) {
  return float_to_quantized(value, scale, zero_point, -128, 127);
}

// ---------------------------------------------------------------------------------------------------
// Run-time integer primitives (gemmlowp fixedpoint / TFLite common), shared by the int8 kernels.

// Two's-complement wrapping arithmetic on int32 (what TFLite's plain int32 expressions do on its targets).
constexpr std::int32_t wrapping_add(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}
constexpr std::int32_t wrapping_sub(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b));
}
constexpr std::int32_t wrapping_neg(std::int32_t a) { return static_cast<std::int32_t>(0u - static_cast<std::uint32_t>(a)); }
constexpr std::int32_t wrapping_shift_left(std::int32_t a, std::int32_t shift) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) << shift);
}

// (a * b * 2) / 2^32 rounded to nearest (ties away from zero), saturating INT32_MIN * INT32_MIN (ARM VQRDMULH).
constexpr std::int32_t saturating_rounding_doubling_high_mul(std::int32_t a, std::int32_t b) {
  if (a == b && a == std::numeric_limits<std::int32_t>::min()) return std::numeric_limits<std::int32_t>::max();
  const std::int64_t ab = static_cast<std::int64_t>(a) * static_cast<std::int64_t>(b);
  const std::int64_t nudge = ab >= 0 ? (std::int64_t{1} << 30) : (1 - (std::int64_t{1} << 30));
  return static_cast<std::int32_t>((ab + nudge) / (std::int64_t{1} << 31));  // truncating division
}

// x / 2^exponent rounded to nearest, ties away from zero (exponent in [0, 31]). Above 31 (an int8 softmax row
// summing to 2^28 or more, where TFLite's exponent leaves gemmlowp's range): what gemmlowp's steps give on Arm, where
// TFLM runs (the mask all ones, a shift by 32 or more filling with the sign), without the C++ shift's UB.
constexpr std::int32_t rounding_divide_by_pot(std::int32_t x, std::int32_t exponent) {
  if (exponent > 31) return x >= 0 ? 1 : -1;
  const auto mask = static_cast<std::int32_t>((std::int64_t{1} << exponent) - 1);
  const std::int32_t remainder = x & mask;
  const std::int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

// TFLite's double-rounding MultiplyByQuantizedMultiplier: x * multiplier / 2^31 * 2^shift.
constexpr std::int32_t multiply_by_quantized_multiplier(std::int32_t x, std::int32_t multiplier, std::int32_t shift) {
  const std::int32_t left = shift > 0 ? shift : 0;
  const std::int32_t right = shift > 0 ? 0 : -shift;
  return rounding_divide_by_pot(saturating_rounding_doubling_high_mul(wrapping_shift_left(x, left), multiplier), right);
}

// TFLite's MultiplyByQuantizedMultiplier of an int64 accumulator (the 16x8 convolutions, fully connected layers
// and transpose convolutions with an int64 bias): the multiplier reduced to 16 bits (rounded; 0x7FFF from
// 0x7FFF0000 up), one rounding shift by 15 - shift (TFLM's shifts, -31 to 7, give 8 to 46), the result's low 32
// bits. TFLite assumes |x| < 2^47; beyond, its int64 arithmetic wraps on its targets, and so does this (unsigned
// arithmetic, not undefined behaviour). Named apart from the int32 forms: int32_t is `long` on Arm's EABI, where an
// `int` argument would fit both.
constexpr std::int64_t wrapping_add_wide(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}
constexpr std::int32_t reduced_multiplier(std::int32_t multiplier) {
  return multiplier < 0x7FFF0000 ? (multiplier + (1 << 15)) >> 16 : 0x7FFF;
}
constexpr std::int32_t multiply_by_quantized_multiplier_int64(std::int64_t x, std::int32_t multiplier, std::int32_t shift) {
  const std::int32_t total_shift = 15 - shift;
  const std::uint64_t product =
      static_cast<std::uint64_t>(x) * static_cast<std::uint64_t>(std::int64_t{reduced_multiplier(multiplier)});
  // A multiplier of 2^15 or more (shift >= 15, a model no converter writes) is a left shift without rounding
  // here, defined rather than a negative shift count.
  if (total_shift <= 0) return static_cast<std::int32_t>(static_cast<std::uint32_t>(product << -total_shift));
  const auto rounded = static_cast<std::int64_t>(product + (std::uint64_t{1} << (total_shift - 1)));
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(rounded >> total_shift)));
}

// MultiplyByQuantizedMultiplierGreaterThanOne (softmax): no rounding right shift.
constexpr std::int32_t multiply_by_quantized_multiplier_greater_than_one(std::int32_t x, std::int32_t multiplier,
                                                                         std::int32_t left_shift) {
  return saturating_rounding_doubling_high_mul(wrapping_shift_left(x, left_shift), multiplier);
}

}  // namespace ctnn::detail::quant
