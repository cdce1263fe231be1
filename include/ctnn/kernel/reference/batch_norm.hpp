#pragma once
// Reference float32 batch normalisation (inference), per channel of the last axis:
//   y = (x - mean) * scale / sqrt(variance + epsilon) + offset
// Usually folded into the preceding conv/dense by fold_batch_norm; this kernel runs when it cannot be.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include <ctnn/detail/math.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::kernel::reference {
template <class Params>
constexpr void batch_norm(Params p, const float* input, const float* scale,
                                                 const float* offset, const float* mean,
                          const float* variance, float* output) {
  const std::int32_t channels = p->in.last();
  const std::int64_t rows = p->in.elements() / channels;
  const float epsilon = p->batch_norm.epsilon();
  for (std::int32_t c = 0; c < channels; ++c) {
    const float deviation = std::is_constant_evaluated()
                                ? static_cast<float>(ctnn::detail::math::sqrt(static_cast<double>(variance[c] + epsilon)))
                                : std::sqrt(variance[c] + epsilon);
    const float factor = scale[c] / deviation;
    for (std::int64_t r = 0; r < rows; ++r) output[r * channels + c] = (input[r * channels + c] - mean[c]) * factor + offset[c];
  }
}

}  // namespace ctnn::kernel::reference
