#pragma once
// hard_swish: x relu6(x + 3) / 6 (TFLite HARD_SWISH, ONNX HardSwish). The descriptor of op_kind::hard_swish
// (ops/descriptor.hpp).
#include <cstdint>
#include <limits>

#include <ctnn/kernel/reference/activation.hpp>
#include <ctnn/kernel/reference/int8/activation.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

// DownScaleInt32ToInt16Multiplier: a Q31 multiplier rounded to Q15 (saturating at int16's largest).
constexpr std::int32_t int16_multiplier(std::int32_t multiplier) {
  constexpr std::int32_t rounding_offset = 1 << 15;
  if (multiplier >= std::numeric_limits<std::int32_t>::max() - rounding_offset)
    return std::numeric_limits<std::int16_t>::max();
  return (multiplier + rounding_offset) >> 16;
}

struct hard_swish : unary_elementwise {
  static constexpr op_kind kind = op_kind::hard_swish;

  // TFLM's HardSwishPrepare: the input on a high-resolution scale (input scale / 128, in float) rescaled
  // to the output (output_multiplier, output_shift) and to the "reluish" scale 3 / 32768 (input_multiplier,
  // input_shift); each ratio in float, widened, QuantizeMultiplier'd and rounded to an int16 multiplier.
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    const float hires_input_scale = (1.0f / 128.0f) * q.in.scale;
    const float reluish_scale = 3.0f / 32768.0f;
    q.set_multiplier(p.output_multiplier, p.output_shift, static_cast<double>(hires_input_scale / q.out.scale));
    p.output_multiplier = int16_multiplier(p.output_multiplier);
    q.set_multiplier(p.input_multiplier, p.input_shift, static_cast<double>(hires_input_scale / reluish_scale));
    p.input_multiplier = int16_multiplier(p.input_multiplier);
  }
  // TFLM requires the output exponent to be <= 0 (an output scale at least input scale / 128).
  static constexpr recipe_shift checked_shift(const kernel_params& recipe) { return {recipe.output_shift, false, 0}; }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::unary_with(p, operands[0], result, [](float x) { return kernel::reference::hard_swish(x); });
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result,
                                            const kernel::requant_arrays&) {
    kernel::reference::int8::hard_swish(p, static_cast<const std::int8_t*>(operands[0]),
                                        static_cast<std::int8_t*>(result));
  }
};

}  // namespace ctnn::ops
