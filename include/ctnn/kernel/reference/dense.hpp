#pragma once
// Reference float32 fully connected layer: out[b][u] = act(bias[u] + sum_i in[b][i] * w[u][i]).
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/activation.hpp>

namespace ctnn::kernel::reference {
template <class Params>
constexpr void dense(Params p, const float* input, const float* weights, const float* bias,
                                            float* output) {
  const std::int32_t batch = p->out[0];
  const std::int32_t units = p->out[1];
  const auto features = static_cast<std::int32_t>(p->in.elements() / batch);
  for (std::int32_t b = 0; b < batch; ++b)
    for (std::int32_t u = 0; u < units; ++u) {
      float acc = p->has_bias ? bias[u] : 0.0f;
      const float* row = weights + u * features;
      const float* x = input + b * features;
      for (std::int32_t i = 0; i < features; ++i) acc += x[i] * row[i];
      output[b * units + u] = activate(p->fused, acc);
    }
}

}  // namespace ctnn::kernel::reference
