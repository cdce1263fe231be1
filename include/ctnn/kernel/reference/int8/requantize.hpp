#pragma once
// The output stage every int8 kernel with an int32 accumulator shares (TFLite's recipe, docs/design.md §4):
// MultiplyByQuantizedMultiplier (double rounding), plus the output zero point, clamped to the fused
// activation's range [activation_min, activation_max]. Defined for every int32 accumulator: the rescale
// saturates INT32_MIN * INT32_MIN (SaturatingRoundingDoublingHighMul) and the zero point is added
// wrapping, as TFLite's int32 `acc += output_offset` does on its targets (a rescaled value within 128 of
// INT32_MIN/MAX wraps to the other end, then clamps there).
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/params.hpp>

namespace ctnn::kernel::reference::int8 {

template <class Params>
[[gnu::always_inline]] constexpr std::int32_t requantize_clamped(Params p, std::int32_t acc, std::int32_t multiplier,
                                                                std::int32_t shift) {
  namespace q = ctnn::detail::quant;
  std::int32_t v = q::wrapping_add(q::multiply_by_quantized_multiplier(acc, multiplier, shift), p->output_offset);
  v = v < p->activation_min ? p->activation_min : v;
  return v > p->activation_max ? p->activation_max : v;
}
template <class Params>
[[gnu::always_inline]] constexpr std::int8_t requantize_output(Params p, std::int32_t acc, std::int32_t multiplier,
                                                              std::int32_t shift) {
  return static_cast<std::int8_t>(requantize_clamped(p, acc, multiplier, shift));
}
template <kernel_params P>
[[gnu::always_inline]] constexpr std::int8_t requantize_output(std::int32_t acc, std::int32_t multiplier, std::int32_t shift) {
  return requantize_output(static_params<P>{}, acc, multiplier, shift);
}

// int8 kernels apply relu/relu6 as the clamp above; other fused activations cannot be expressed there
// (kernel::invoke_i8 asserts it at compile time, kernel::invoke_dynamic refuses the call).
constexpr bool fused_activation_is_a_clamp(const kernel_params& p) {
  return p.fused == activation::none || p.fused == activation::relu || p.fused == activation::relu6;
}
template <kernel_params P>
constexpr bool fused_activation_is_a_clamp() {
  return fused_activation_is_a_clamp(P);
}

}  // namespace ctnn::kernel::reference::int8
