#pragma once
// The per-call requantization data that does not fit in kernel_params (a template argument, so it holds
// only scalars): per-output-channel multipliers and shifts of a per-channel conv / depthwise / dense, and
// the per-input rescaling of a concat whose inputs are quantized differently. The executor passes them
// to kernel::invoke (runtime/requantization.hpp computes them at compile time, one `inline constexpr`
// array per module and call, in .rodata). Calls whose kernel_params::per_channel is 0 get none.
#include <cstdint>

namespace ctnn::kernel {

struct requant_arrays {
  const std::int32_t* multiplier = nullptr;  // conv/depthwise/dense: per output channel (QuantizeMultiplier)
  const std::int32_t* shift = nullptr;       // ... and its shift (> 0: left)
  const float* scale = nullptr;              // concat: per input, input_scale * (1 / output_scale)
  const float* bias = nullptr;               // concat: per input, -input_zero_point * scale
  const std::int32_t* requantize = nullptr;  // concat: per input, 1 if its quantization differs from the output's
};

}  // namespace ctnn::kernel
