#pragma once
// int8 activations as ops of their own (TFLM's recipes):
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
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/int8/fixed_point.hpp>

namespace ctnn::kernel::reference::int8 {
template <class Params>
constexpr void relu(Params p, const std::int8_t* input, std::int8_t* output) {
  namespace q = ctnn::detail::quant;
  const std::int64_t elements = p->out.elements();
  for (std::int64_t i = 0; i < elements; ++i) {
    // TFLite's int32 sum, wrapping as on its targets (the rescaled value is any int32 for a scale ratio up to 2^31).
    const std::int32_t scaled =
        q::multiply_by_quantized_multiplier(input[i] + p->input_offset, p->output_multiplier, p->output_shift);
    std::int32_t v = q::wrapping_add(p->output_offset, scaled);
    v = v < p->activation_min ? p->activation_min : v;
    v = v > p->activation_max ? p->activation_max : v;
    output[i] = static_cast<std::int8_t>(v);
  }
}
// relu6 and clip: the raw values clamped to [activation_min, activation_max].
template <class Params>
constexpr void clamp(Params p, const std::int8_t* input, std::int8_t* output) {
  const std::int64_t elements = p->out.elements();
  for (std::int64_t i = 0; i < elements; ++i) {
    const std::int32_t v = input[i];
    output[i] = static_cast<std::int8_t>(v > p->activation_max ? p->activation_max : (v < p->activation_min ? p->activation_min : v));
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

}  // namespace ctnn::kernel::reference::int8
