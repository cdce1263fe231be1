#pragma once
// QUANTIZE and DEQUANTIZE (TFLM's reference recipes):
//   float -> int8:  round(x / scale) (in float, halves away from zero) + zero point, clamped (AffineQuantize);
//   int8 -> int8:   MultiplyByQuantizedMultiplier(x - zero point in, input_scale / output_scale) + zero point
//                   out, clamped (Requantize);
//   int8 -> float:  scale * (x - zero point), in float (Dequantize).
// The float scale travels in kernel_params::pad_value_bits (lower_te).
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::kernel::reference::int8 {

template <kernel_params P>
constexpr void quantize(const float* input, std::int8_t* output) {
  constexpr float scale = P.pad_value();
  for (std::int64_t i = 0; i < P.out.elements(); ++i) {
    const std::int64_t v = ctnn::detail::quant::round_to_int(input[i] / scale) + P.output_offset;
    output[i] = static_cast<std::int8_t>(v < -128 ? -128 : (v > 127 ? 127 : v));
  }
}

template <kernel_params P>
constexpr void requantize(const std::int8_t* input, std::int8_t* output) {
  for (std::int64_t i = 0; i < P.out.elements(); ++i) {
    const std::int32_t v = ctnn::detail::quant::multiply_by_quantized_multiplier(input[i] + P.input_offset, P.output_multiplier,
                                                                           P.output_shift) +
                           P.output_offset;
    output[i] = static_cast<std::int8_t>(v < -128 ? -128 : (v > 127 ? 127 : v));
  }
}

template <kernel_params P>
constexpr void dequantize(const std::int8_t* input, float* output) {
  constexpr float scale = P.pad_value();
  for (std::int64_t i = 0; i < P.out.elements(); ++i) output[i] = scale * static_cast<float>(input[i] + P.input_offset);
}

}  // namespace ctnn::kernel::reference::int8
