#pragma once
// Data movement for any element type (int8 here; the float kernels have their own): reshape is a copy
// (or nothing when alias_reshapes made it a view), concat copies rows, or requantizes an input whose
// quantization differs from the output's (TFLite's ConcatenationWithScaling: float scale and bias per
// input, round half away from zero, plus the output zero point, clamped), pad fills with the quantized
// fill value (pad.quantized_fill; the output zero point for a zero pad).
#include <array>
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/data_movement.hpp>

namespace ctnn::kernel::reference::int8 {

using reference::copy;

template <class Params, class T>
constexpr void concat(Params p, const T* const* inputs, T* output,
                                             const std::int32_t* requantize = nullptr, const float* scale = nullptr,
                                             const float* bias = nullptr) {
  reference::detail::for_each_concat_run(p, [&](std::int32_t i, std::int64_t from, std::int64_t to,
                                                std::int64_t length) {
    const T* source = inputs[i] + from;
    if (p->concat().rescales_inputs == 0 || requantize[i] == 0) {
      for (std::int64_t k = 0; k < length; ++k) output[to + k] = source[k];
    } else {  // TFLite's ConcatenationWithScaling: requantize this input to the output's scale
      for (std::int64_t k = 0; k < length; ++k) {
        const std::int64_t v =
            ctnn::detail::quant::round_to_int(static_cast<float>(source[k]) * scale[i] + bias[i]) + p->output_offset;
        output[to + k] = static_cast<T>(v < -128 ? -128 : (v > 127 ? 127 : v));
      }
    }
  });
}

template <class Params, class T>
constexpr void pad(Params p, const T* input, T* output, T fill) {
  reference::detail::pad_with(p, input, output, fill);
}

}  // namespace ctnn::kernel::reference::int8
