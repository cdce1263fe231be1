#pragma once
// QUANTIZE and DEQUANTIZE (TFLM's reference recipes):
//   float -> int8:  round(x / scale) (in float, halves away from zero) + zero point, clamped (AffineQuantize);
//   int8 -> int8:   MultiplyByQuantizedMultiplier(x - zero point in, input_scale / output_scale) + zero point
//                   out, clamped (Requantize);
//   int8 -> float:  scale * (x - zero point), in float (Dequantize).
// The scale of the int8 side is kernel_params::quantize.int8_scale_bits (pass::compute_requantization).
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::kernel::reference::int8 {
template <class Params>
constexpr void quantize(Params p, const float* input, std::int8_t* output) {
  const float scale = p->quantize.int8_scale();
  const std::int64_t elements = p->out.elements();
  for (std::int64_t i = 0; i < elements; ++i) {
    const std::int64_t v = ctnn::detail::quant::round_to_int(input[i] / scale) + p->output_offset;
    output[i] = static_cast<std::int8_t>(v < -128 ? -128 : (v > 127 ? 127 : v));
  }
}
template <class Params>
constexpr void requantize(Params p, const std::int8_t* input, std::int8_t* output) {
  const std::int64_t elements = p->out.elements();
  for (std::int64_t i = 0; i < elements; ++i) {
    namespace q = ctnn::detail::quant;
    const std::int32_t scaled = q::multiply_by_quantized_multiplier(input[i] + p->input_offset, p->output_multiplier,
                                                                    p->output_shift);
    const std::int32_t v = q::wrapping_add(scaled, p->output_offset);  // as TFLite's int32 on its targets: wrapping
    output[i] = static_cast<std::int8_t>(v < -128 ? -128 : (v > 127 ? 127 : v));
  }
}
template <class Params>
constexpr void dequantize(Params p, const std::int8_t* input, float* output) {
  const float scale = p->quantize.int8_scale();
  const std::int64_t elements = p->out.elements();
  for (std::int64_t i = 0; i < elements; ++i) output[i] = scale * static_cast<float>(input[i] + p->input_offset);
}

}  // namespace ctnn::kernel::reference::int8
