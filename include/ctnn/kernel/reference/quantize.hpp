#pragma once
// QUANTIZE and DEQUANTIZE (TFLM's reference recipes), for each pair of element types TFLM runs:
//   float -> int8, int16:  round(x / scale) (in float, halves away from zero) + zero point, clamped
//                          (AffineQuantize);
//   integer -> integer:    MultiplyByQuantizedMultiplier(x - zero point in, input_scale / output_scale) + zero
//                          point out, clamped to the result's type (Requantize; its uint8 <-> int8 shortcut for
//                          equal scales and zero points 128 apart, x ^ 0x80, is the same arithmetic);
//   int8, uint8, int16 -> float: scale * (x - zero point) (Dequantize: TFLM multiplies in double; for these
//                          operands that product is exact, so the float product, rounded once, is equal).
// The scale of the quantized side is kernel_params::quantize.scale_bits (ops/quantize.hpp, ops/dequantize.hpp).
#include <cstdint>
#include <limits>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::kernel::reference {

namespace detail {
template <class Out>
constexpr Out saturate(std::int64_t v) {
  constexpr std::int64_t lowest = std::numeric_limits<Out>::min(), highest = std::numeric_limits<Out>::max();
  return static_cast<Out>(v < lowest ? lowest : (v > highest ? highest : v));
}
}  // namespace detail

template <class Out, class Params>
constexpr void quantize(Params p, const float* input, Out* output) {
  const float scale = p->quantize().scale();
  const std::int64_t elements = p->out.elements();
  for (std::int64_t i = 0; i < elements; ++i)
    output[i] = detail::saturate<Out>(ctnn::detail::quant::round_to_int(input[i] / scale) + p->output_offset);
}

template <class In, class Out, class Params>
constexpr void requantize(Params p, const In* input, Out* output) {
  namespace q = ctnn::detail::quant;
  const std::int64_t elements = p->out.elements();
  for (std::int64_t i = 0; i < elements; ++i) {
    // As TFLite's int32 on its targets: the differences and sums wrap (an int32 input, a zero point of INT32_MIN).
    const std::int32_t scaled = q::multiply_by_quantized_multiplier(
        q::wrapping_add(static_cast<std::int32_t>(input[i]), p->input_offset), p->output_multiplier, p->output_shift);
    output[i] = detail::saturate<Out>(q::wrapping_add(scaled, p->output_offset));
  }
}

template <class In, class Params>
constexpr void dequantize(Params p, const In* input, float* output) {
  const float scale = p->quantize().scale();
  const std::int64_t elements = p->out.elements();
  for (std::int64_t i = 0; i < elements; ++i) output[i] = scale * static_cast<float>(input[i] + p->input_offset);
}

}  // namespace ctnn::kernel::reference
