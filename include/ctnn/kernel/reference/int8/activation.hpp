#pragma once
// int8 activations as ops of their own (TFLM's recipes; relu, relu6, clip and leaky_relu also of int16, T the
// element type: TFLM's same templates, clamped to T's range):
//   relu:     requantized from the input's to the output's quantization (ReluQuantized), clamped below
//             at the output's zero;
//   relu6:    a clamp of the raw values to [quantized 0, quantized 6] of the input's quantization
//             (Relu6Quantized: input and output share one quantization);
//   clip:     the same clamp, to its bounds in the input's quantization (plain integers without a scale);
//   logistic: the input minus its zero point, saturating to -128 / 127 beyond +-input_radius, otherwise
//             rescaled to Q4 (MultiplyByQuantizedMultiplier), logistic in fixed point (Q0), then
//             RoundingDivideByPOT by 23 and -128 (output scale 1/256, zero point -128);
//   tanh:     the same with tanh, RoundingDivideByPOT by 24 (output scale 1/128, zero point 0).
// The input radius follows from the multiplier's shift (CalculateInputRadius, 4 integer bits).
//   leaky_relu, prelu: the input minus its zero point; >= 0 rescaled by output_multiplier/output_shift,
//             < 0 (times prelu's alpha minus its zero point) by negative_side; plus the output's zero point;
//   hard_swish: TFLite's int16 fixed-point recipe (reference_ops::HardSwish);
//   elu:      a 256-entry table of the float function, dequantized, rounded and clamped (PopulateLookupTable).
#include <array>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/params.hpp>
#include <ctnn/kernel/reference/activation.hpp>
#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/kernel/reference/int8/fixed_point.hpp>

namespace ctnn::kernel::reference::int8 {
template <class Params, class T>
constexpr void relu(Params p, const T* input, T* output) {
  namespace q = ctnn::detail::quant;
  const std::int64_t elements = p->out.elements();
  for (std::int64_t i = 0; i < elements; ++i) {
    // TFLite's int32 sum, wrapping as on its targets (the rescaled value is any int32 for a scale ratio up to 2^31).
    const std::int32_t scaled =
        q::multiply_by_quantized_multiplier(input[i] + p->input_offset, p->output_multiplier, p->output_shift);
    std::int32_t v = q::wrapping_add(p->output_offset, scaled);
    v = v < p->activation_min ? p->activation_min : v;
    v = v > p->activation_max ? p->activation_max : v;
    output[i] = static_cast<T>(v);
  }
}
// relu6 and clip: the raw values clamped to [activation_min, activation_max].
template <class Params, class T>
constexpr void clamp(Params p, const T* input, T* output) {
  const std::int64_t elements = p->out.elements();
  for (std::int64_t i = 0; i < elements; ++i) {
    const std::int32_t v = input[i];
    output[i] = static_cast<T>(v > p->activation_max ? p->activation_max : (v < p->activation_min ? p->activation_min : v));
  }
}

// Logistic (Sigmoid = true) or tanh of each element.
template <bool Sigmoid, class Params>
constexpr void logistic_or_tanh(Params p, const std::int8_t* input, std::int8_t* output) {
  namespace q = ctnn::detail::quant;
  const std::int32_t radius = q::input_radius(4, p->input_shift);
  const std::int64_t elements = p->out.elements();
  for (std::int64_t i = 0; i < elements; ++i) {
    const std::int32_t x = input[i] + p->input_offset;
    std::int32_t v = 0;
    if (x <= -radius) {
      v = -128;
    } else if (x >= radius) {
      v = 127;
    } else {
      const std::int32_t x_q4 = q::multiply_by_quantized_multiplier(x, p->input_multiplier, p->input_shift);
      if constexpr (Sigmoid) v = q::rounding_divide_by_pot(fixed_point::logistic_q4(x_q4), 31 - 8) - 128;
      else v = q::rounding_divide_by_pot(fixed_point::tanh_q4(x_q4), 31 - 7);
      v = v < -128 ? -128 : (v > 127 ? 127 : v);
    }
    output[i] = static_cast<std::int8_t>(v);
  }
}

// One value of leaky_relu or prelu, its input already minus the zero point (`x`) and its negative side's
// factor (leaky_relu: 1, the slope being in the multiplier; prelu: alpha minus its zero point). A negative
// multiplier (leaky_relu's negative alpha) multiplies by its magnitude and negates, as TFLM does.
template <class T, class Params>
constexpr T rectify(Params p, std::int32_t x, std::int32_t negative_factor) {
  namespace q = ctnn::detail::quant;
  std::int32_t scaled = 0;
  if (x >= 0) {
    scaled = q::multiply_by_quantized_multiplier(x, p->output_multiplier, p->output_shift);
  } else {
    const std::int32_t multiplier = p->negative_side().multiplier;
    const std::int32_t magnitude = multiplier < 0 ? q::wrapping_neg(multiplier) : multiplier;
    scaled = q::multiply_by_quantized_multiplier(x * negative_factor, magnitude, p->negative_side().shift);
    if (multiplier < 0) scaled = q::wrapping_neg(scaled);
  }
  const std::int32_t v = q::wrapping_add(p->output_offset, scaled);
  constexpr std::int32_t lowest = std::numeric_limits<T>::min(), highest = std::numeric_limits<T>::max();
  return static_cast<T>(v < lowest ? lowest : (v > highest ? highest : v));
}

template <class Params, class T>
constexpr void leaky_relu(Params p, const T* input, T* output) {
  const std::int64_t elements = p->out.elements();
  for (std::int64_t i = 0; i < elements; ++i) output[i] = rectify<T>(p, input[i] + p->input_offset, 1);
}

// prelu: alpha (the second operand, offset input2_offset) broadcast against the input; int8 or int16 input
// (TFLM's int16 PRELU: an int8 alpha, |(x - zero point) (alpha - zero point)| < 2^24).
template <class Params, class T>
constexpr void prelu(Params p, const T* input, const std::int8_t* alpha, T* output) {
  reference::detail::for_each_broadcast(p, [&](std::int64_t i, std::int64_t ia, std::int64_t ib) {
    output[i] = rectify<T>(p, input[ia] + p->input_offset, alpha[ib] + p->input2_offset);
  });
}

// gemmlowp's and TFLite's int16 fixed-point steps of hard_swish, each result wrapped to int16 as gemmlowp's
// int16 arithmetic does.
namespace int16 {
constexpr std::int16_t wrap(std::int64_t v) {
  return static_cast<std::int16_t>(static_cast<std::uint16_t>(v & 0xffff));
}
// SaturatingRoundingDoublingHighMul: (a b 2) / 2^16, rounded to nearest (ties away from zero).
constexpr std::int16_t rounding_doubling_high_mul(std::int16_t a, std::int16_t b) {
  if (a == b && a == std::numeric_limits<std::int16_t>::min()) return std::numeric_limits<std::int16_t>::max();
  const std::int32_t ab = std::int32_t{a} * std::int32_t{b};
  const std::int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return wrap((ab + nudge) / (1 << 15));
}
// SaturatingDoublingHighMul: the same, truncated towards zero.
constexpr std::int16_t doubling_high_mul(std::int16_t a, std::int16_t b) {
  if (a == b && a == std::numeric_limits<std::int16_t>::min()) return std::numeric_limits<std::int16_t>::max();
  return wrap(std::int32_t{a} * std::int32_t{b} / (1 << 15));
}
// RoundingDivideByPOT on int16 (exponent in [0, 31]: its mask wraps to int16 beyond 15, as gemmlowp's).
constexpr std::int16_t rounding_divide_by_pot(std::int16_t x, std::int32_t exponent) {
  const std::int16_t mask = wrap((std::int64_t{1} << exponent) - 1);
  const std::int16_t remainder = wrap(x & mask);
  const std::int16_t threshold = wrap((mask >> 1) + (x < 0 ? 1 : 0));
  return wrap((x >> exponent) + (remainder > threshold ? 1 : 0));
}
// SaturatingLeftShift: x 2^amount, saturated to int16 (an amount beyond 31 saturates as 31 does).
constexpr std::int16_t saturating_left_shift(std::int16_t x, std::int32_t amount) {
  const std::int64_t shifted = std::int64_t{x} * (std::int64_t{1} << (amount > 31 ? 31 : amount));
  return static_cast<std::int16_t>(shifted > 32767 ? 32767 : (shifted < -32768 ? -32768 : shifted));
}
}  // namespace int16

// hard_swish: output_multiplier/output_shift are the int16 multiplier and exponent (<= 0) of the input on
// the high-resolution scale (input scale / 128) to the output; input_multiplier/input_shift those of the
// same input to the "reluish" scale, on which 3.0 is 32768.
template <class Params>
constexpr void hard_swish(Params p, const std::int8_t* input, std::int8_t* output) {
  const auto output_multiplier = static_cast<std::int16_t>(p->output_multiplier);
  const auto reluish_multiplier = static_cast<std::int16_t>(p->input_multiplier);
  const std::int32_t reluish_exponent = p->input_shift;
  const std::int64_t elements = p->out.elements();
  for (std::int64_t i = 0; i < elements; ++i) {
    const std::int16_t hires = int16::wrap((input[i] + p->input_offset) * (1 << 7));
    const std::int16_t preshift_output = int16::rounding_doubling_high_mul(hires, output_multiplier);
    std::int16_t reluish = hires;
    if (reluish_exponent > 0) reluish = int16::saturating_left_shift(reluish, reluish_exponent - 1);
    reluish = int16::rounding_doubling_high_mul(reluish, reluish_multiplier);
    if (reluish_exponent > 0) reluish = int16::saturating_left_shift(reluish, 1);
    if (reluish_exponent < 0) reluish = int16::rounding_divide_by_pot(reluish, -reluish_exponent);
    reluish = int16::wrap((reluish + (1 << 15)) >> 1);  // [-1, 1] to [0, 1]
    const std::int16_t scaled = int16::doubling_high_mul(reluish, preshift_output);
    const std::int16_t shifted = int16::rounding_divide_by_pot(scaled, -p->output_shift);
    const std::int16_t v = int16::wrap(shifted + p->output_offset);
    output[i] = static_cast<std::int8_t>(v < -128 ? -128 : (v > 127 ? 127 : v));
  }
}

// One entry of TFLM's 256-entry lookup table of an int8 op computing `f` in float (PopulateLookupTable): the
// value dequantized, f, divided by the output scale (as a product with its float inverse), rounded, the
// output zero point added in float, clamped to int8.
template <class F>
constexpr std::int8_t lookup_table_entry(std::int32_t value, float input_scale, std::int32_t input_zero_point,
                                         float output_scale, std::int32_t output_zero_point, F f) {
  const float inverse_scale = 1.0f / output_scale;
  const float dequantized = input_scale * static_cast<float>(value - input_zero_point);
  const float rescaled = ctnn::detail::quant::round(f(dequantized) * inverse_scale);
  const float quantized = rescaled + static_cast<float>(output_zero_point);
  // (TFLM converts to int32 first; beyond int8 both clamp to its bounds, NaN aside: none of its functions gives one.)
  if (quantized < -128.0f) return -128;
  return static_cast<std::int8_t>(quantized > 127.0f ? 127 : static_cast<std::int32_t>(quantized));
}

// The table of `f` for a call (input_offset and output_offset give the zero points), indexed by value + 128.
template <class Params, class F>
constexpr std::array<std::int8_t, 256> lookup_table(Params p, F f) {
  std::array<std::int8_t, 256> table{};
  for (std::int32_t v = -128; v <= 127; ++v)
    table[static_cast<std::size_t>(v + 128)] = lookup_table_entry(v, p->lookup_table().input_scale(), -p->input_offset,
                                                                  p->lookup_table().output_scale(), p->output_offset, f);
  return table;
}

// elu (TFLM's ELU, alpha 1): e^x - 1 in float below zero (std::exp, not expm1, as TFLM's table).
constexpr float elu_of_table(float x) { return x < 0.0f ? reference::exp(x) - 1.0f : x; }

// The table of a call with constant parameters (static_params, the compiled executor): computed by the compiler, in
// flash, as TFLM computes it once in Prepare rather than at each Invoke; with parameters read at run time (ctnn-run),
// computed by the call.
template <kernel_params P>
inline constexpr std::array<std::int8_t, 256> elu_table_v = lookup_table(static_params<P>{}, elu_of_table);
template <class Params>
constexpr std::array<std::int8_t, 256> elu_table(Params p) {
  return lookup_table(p, elu_of_table);
}
// Whether the compiler can compute it: not where the float arithmetic overflows for extreme scales (GCC refuses an
// infinite intermediate in constant evaluation); those calls compute it at run time as TFLM does.
template <kernel_params P>
concept elu_table_is_constant =
    requires { typename std::integral_constant<bool, (lookup_table(static_params<P>{}, elu_of_table), true)>; };
template <kernel_params P>
  requires elu_table_is_constant<P>
constexpr const std::array<std::int8_t, 256>& elu_table(static_params<P>) {
  return elu_table_v<P>;
}

template <class Params>
constexpr void elu(Params p, const std::int8_t* input, std::int8_t* output) {
  const std::array<std::int8_t, 256>& table = elu_table(p);
  const std::int64_t elements = p->out.elements();
  for (std::int64_t i = 0; i < elements; ++i) output[i] = table[static_cast<std::size_t>(input[i] + 128)];
}

}  // namespace ctnn::kernel::reference::int8
