#pragma once
// Activations applied element by element (fused into conv/dense/add, or as ops of their own).
// Kernels are constexpr so that fold_constants can run them at compile time.
#include <cmath>
#include <type_traits>

#include <ctnn/detail/math.hpp>
#include <ctnn/ir/op_kind.hpp>

namespace ctnn::kernel::reference {

// exp and tanh: <cmath> at run time, ctnn's constexpr versions in constant evaluation.
constexpr float exp(float x) {
  if (std::is_constant_evaluated()) return static_cast<float>(detail::math::exp(x));
  return std::exp(x);
}
constexpr float tanh(float x) {
  if (std::is_constant_evaluated()) return static_cast<float>(detail::math::tanh(x));
  return std::tanh(x);
}

template <activation A>
constexpr float activate(float x) {
  if constexpr (A == activation::relu) return x > 0.0f ? x : 0.0f;
  else if constexpr (A == activation::relu6) return x < 0.0f ? 0.0f : (x > 6.0f ? 6.0f : x);
  else if constexpr (A == activation::sigmoid) return 1.0f / (1.0f + reference::exp(-x));
  else if constexpr (A == activation::tanh) return reference::tanh(x);
  else return x;
}

template <activation A, long Elements>
constexpr void activate_all(const float* in, float* out) {
  for (long i = 0; i < Elements; ++i) out[i] = activate<A>(in[i]);
}

}  // namespace ctnn::kernel::reference
