#pragma once
// The per-call requantization data that does not fit in kernel_params (a template argument, so it holds
// only scalars): per-output-channel multipliers and shifts of a per-channel conv / depthwise / dense, and
// the per-input rescaling of a concat whose inputs are quantized differently. The executor passes them
// to kernel::invoke (runtime/requantization.hpp computes them at compile time, one `inline constexpr`
// array per module and call, in .rodata). Calls whose kernel_params::per_channel is 0 get none.
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::kernel {

struct requant_arrays {
  const std::int32_t* multiplier = nullptr;  // conv/depthwise/dense: per output channel (QuantizeMultiplier)
  const std::int32_t* shift = nullptr;       // ... and its shift (> 0: left)
  const float* scale = nullptr;              // concat: per input, input_scale * (1 / output_scale)
  const float* bias = nullptr;               // concat: per input, -input_zero_point * scale
  const std::int32_t* requantize = nullptr;  // concat: per input, 1 if its quantization differs from the output's
};

// The entries of these arrays, one formula each, for whoever fills them: pass::requantization at compile time
// (runtime/requantization.hpp's tables), kernel::module_runner at run time (ctnn-run).

// Output channel `channel` of a per-channel conv / depthwise / dense (TFLite's
// PopulateConvolutionQuantizationParams): QuantizeMultiplier of input_scale * weight_scale[channel] /
// output_scale in double; a per-tensor weight scale is broadcast (quantization::scale_of).
constexpr ctnn::detail::quant::quantized_multiplier channel_requantization(float input_scale, const quantization& weights,
                                                                          std::int32_t channel, float output_scale) {
  return ctnn::detail::quant::channel_multiplier(input_scale, weights.scale_of(channel), output_scale);
}

// One input of a concat (TFLite's ConcatenationWithScaling): scale = input_scale * (1 / output_scale) and
// bias = -input_zero_point * scale, in float; requantize 0 when the input is quantized as the output.
struct concat_input_requantization {
  float scale = 0.0f;
  float bias = 0.0f;
  std::int32_t requantize = 0;
};
constexpr concat_input_requantization concat_input_requantization_of(const quantization& input, const quantization& output) {
  const float scale = input.scale * (1.0f / output.scale);
  return {scale, static_cast<float>(-input.zero_point) * scale,
          input.scale == output.scale && input.zero_point == output.zero_point ? 0 : 1};
}

}  // namespace ctnn::kernel
