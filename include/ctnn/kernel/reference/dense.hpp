#pragma once
// Reference float32 fully connected layer: out[b][u] = act(bias[u] + sum_i in[b][i] * w[u][i]).
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/activation.hpp>

namespace ctnn::kernel::reference {

template <kernel_params P>
constexpr void dense(const float* input, const float* weights, const float* bias, float* output) {
  constexpr std::int32_t batch = P.out[0];
  constexpr std::int32_t units = P.out[1];
  constexpr auto features = static_cast<std::int32_t>(P.in.elements() / batch);
  for (std::int32_t b = 0; b < batch; ++b)
    for (std::int32_t u = 0; u < units; ++u) {
      float acc = P.has_bias ? bias[u] : 0.0f;
      const float* row = weights + u * features;
      const float* x = input + b * features;
      for (std::int32_t i = 0; i < features; ++i) acc += x[i] * row[i];
      output[b * units + u] = activate<P.fused>(acc);
    }
}

}  // namespace ctnn::kernel::reference
