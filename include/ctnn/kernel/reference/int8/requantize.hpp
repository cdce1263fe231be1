#pragma once
// The output stage every int8 kernel with an int32 accumulator shares (TFLite's recipe, DESIGN §4):
// MultiplyByQuantizedMultiplier (double rounding), plus the output zero point, clamped to the fused
// activation's range [activation_min, activation_max].
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::kernel::reference::int8 {

template <kernel_params P>
[[gnu::always_inline]] constexpr std::int8_t requantize_output(std::int32_t acc, std::int32_t multiplier, std::int32_t shift) {
  std::int32_t v = ctnn::detail::quant::multiply_by_quantized_multiplier(acc, multiplier, shift) + P.output_offset;
  v = v < P.activation_min ? P.activation_min : v;
  v = v > P.activation_max ? P.activation_max : v;
  return static_cast<std::int8_t>(v);
}

// int8 kernels apply relu/relu6 as the clamp above; other fused activations cannot be expressed there.
template <kernel_params P>
constexpr bool fused_activation_is_a_clamp() {
  return P.fused == activation::none || P.fused == activation::relu || P.fused == activation::relu6;
}

}  // namespace ctnn::kernel::reference::int8
