#pragma once
// Activations applied element by element (fused into conv/dense/add, or as ops of their own).
#include <cmath>

#include <ctnn/ir/op_kind.hpp>

namespace ctnn::kernel::reference {

template <activation A>
inline float activate(float x) {
  if constexpr (A == activation::relu) return x > 0.0f ? x : 0.0f;
  else if constexpr (A == activation::relu6) return x < 0.0f ? 0.0f : (x > 6.0f ? 6.0f : x);
  else if constexpr (A == activation::sigmoid) return 1.0f / (1.0f + std::exp(-x));
  else if constexpr (A == activation::tanh) return std::tanh(x);
  else return x;
}

template <activation A, long Elements>
inline void activate_all(const float* in, float* out) {
  for (long i = 0; i < Elements; ++i) out[i] = activate<A>(in[i]);
}

}  // namespace ctnn::kernel::reference
