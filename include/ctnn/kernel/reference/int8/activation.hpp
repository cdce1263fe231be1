#pragma once
// int8 activations as ops of their own (TFLM's recipes):
//   relu:     requantized from the input's to the output's quantization (ReluQuantized), clamped below
//             at the output's zero;
//   relu6:    a clamp of the raw values to [quantized 0, quantized 6] of the input's quantization
//             (Relu6Quantized: input and output share one quantization);
//   logistic: the input minus its zero point, saturating to -128 / 127 beyond +-input_radius, otherwise
//             rescaled to Q4 (MultiplyByQuantizedMultiplier), logistic in fixed point (Q0), then
//             RoundingDivideByPOT by 23 and -128 (output scale 1/256, zero point -128);
//   tanh:     the same with tanh, RoundingDivideByPOT by 24 (output scale 1/128, zero point 0).
// The input radius follows from the multiplier's shift (CalculateInputRadius, 4 integer bits).
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/int8/fixed_point.hpp>

namespace ctnn::kernel::reference::int8 {

template <kernel_params P>
constexpr void relu(const std::int8_t* input, std::int8_t* output) {
  namespace q = ctnn::detail::quant;
  for (std::int64_t i = 0; i < P.out.elements(); ++i) {
    std::int32_t v = P.output_offset + q::multiply_by_quantized_multiplier(input[i] + P.input_offset, P.output_multiplier,
                                                                           P.output_shift);
    v = v < P.activation_min ? P.activation_min : v;
    v = v > P.activation_max ? P.activation_max : v;
    output[i] = static_cast<std::int8_t>(v);
  }
}

template <kernel_params P>
constexpr void relu6(const std::int8_t* input, std::int8_t* output) {
  for (std::int64_t i = 0; i < P.out.elements(); ++i) {
    const std::int32_t v = input[i];
    output[i] = static_cast<std::int8_t>(v > P.activation_max ? P.activation_max : (v < P.activation_min ? P.activation_min : v));
  }
}

// Logistic (Sigmoid = true) or tanh of each element.
template <kernel_params P, bool Sigmoid>
constexpr void logistic_or_tanh(const std::int8_t* input, std::int8_t* output) {
  namespace q = ctnn::detail::quant;
  constexpr std::int32_t radius = q::input_radius(4, P.input_shift);
  for (std::int64_t i = 0; i < P.out.elements(); ++i) {
    const std::int32_t x = input[i] + P.input_offset;
    std::int32_t v = 0;
    if (x <= -radius) {
      v = -128;
    } else if (x >= radius) {
      v = 127;
    } else {
      const std::int32_t x_q4 = q::multiply_by_quantized_multiplier(x, P.input_multiplier, P.input_shift);
      if constexpr (Sigmoid) v = q::rounding_divide_by_pot(fixed_point::logistic_q4(x_q4), 31 - 8) - 128;
      else v = q::rounding_divide_by_pot(fixed_point::tanh_q4(x_q4), 31 - 7);
      v = v < -128 ? -128 : (v > 127 ? 127 : v);
    }
    output[i] = static_cast<std::int8_t>(v);
  }
}

}  // namespace ctnn::kernel::reference::int8
