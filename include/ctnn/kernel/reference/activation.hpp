#pragma once
// Activations applied element by element (fused into conv/dense/add, or as ops of their own).
// Kernels are constexpr so that fold_constants can run them at compile time.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include <ctnn/detail/math.hpp>
#include <ctnn/ir/op_kind.hpp>

namespace ctnn::kernel::reference {

// exp and tanh: <cmath> at run time, ctnn's constexpr versions in constant evaluation.
constexpr float exp(float x) {
  if (std::is_constant_evaluated()) return static_cast<float>(ctnn::detail::math::exp(x));
  return std::exp(x);
}
constexpr float expm1(float x) {
  if (std::is_constant_evaluated()) return static_cast<float>(ctnn::detail::math::expm1(x));
  return std::expm1(x);
}
constexpr float tanh(float x) {
  if (std::is_constant_evaluated()) return static_cast<float>(ctnn::detail::math::tanh(x));
  return std::tanh(x);
}

[[gnu::always_inline]] constexpr float activate(activation a, float x) {
  switch (a) {
    case activation::relu: return x > 0.0f ? x : 0.0f;
    case activation::relu6: return x < 0.0f ? 0.0f : (x > 6.0f ? 6.0f : x);
    case activation::sigmoid: return 1.0f / (1.0f + reference::exp(-x));
    case activation::tanh: return reference::tanh(x);
    default: return x;
  }
}

template <activation A>
[[gnu::always_inline]] constexpr float activate(float x) {
  return activate(A, x);
}

[[gnu::always_inline]] constexpr void activate_all(activation a, std::int64_t elements, const float* in, float* out) {
  for (std::int64_t i = 0; i < elements; ++i) out[i] = activate(a, in[i]);
}

// Clip: min(max(x, low), high), as numpy.clip and ONNX: low > high gives high everywhere; NaN stays NaN;
// -0.0 and denormals pass unchanged when inside the bounds.
template <class Params>
constexpr void clip(Params p, const float* in, float* out) {
  const float low = p->clip.min(), high = p->clip.max();
  const std::int64_t elements = p->out.elements();
  for (std::int64_t i = 0; i < elements; ++i) {
    const float raised = in[i] < low ? low : in[i];
    out[i] = raised > high ? high : raised;
  }
}

// The parametrised activations, one element each (TFLite's reference formulas; ONNX's where they agree).
// leaky_relu: the slope alpha below zero (any sign, also > 1).
constexpr float leaky_relu(float x, float alpha) { return x > 0.0f ? x : x * alpha; }
// elu: alpha (e^x - 1) below zero (TFLite's alpha is 1: TfLiteExpm1 itself).
constexpr float elu(float x, float alpha) { return x < 0.0f ? alpha * reference::expm1(x) : x; }
// hard_swish: x * relu6(x + 3) / 6, in TFLite's order.
constexpr float hard_swish(float x) {
  const float raised = x + 3.0f;
  return x * (raised > 6.0f ? 6.0f : (raised < 0.0f ? 0.0f : raised)) / 6.0f;
}
// hard_sigmoid: max(0, min(1, alpha x + beta)) (ONNX HardSigmoid).
constexpr float hard_sigmoid(float x, float alpha, float beta) {
  const float y = alpha * x + beta;
  return y > 1.0f ? 1.0f : (y < 0.0f ? 0.0f : y);
}
// prelu: x >= 0 ? x : x * alpha (TFLM's BroadcastPrelu4DSlowFloat; ONNX PRelu).
constexpr float prelu(float x, float alpha) { return x >= 0.0f ? x : x * alpha; }
// A clamp to whole-number bounds in TFLite's order (Relu1, Relu0To1: upper first; NaN passes).
constexpr float clamp_between(float x, float lower, float upper) { return x > upper ? upper : (x < lower ? lower : x); }

// f(x) of each element of a unary op.
template <class Params, class F>
constexpr void unary_with(Params p, const float* in, float* out, F f) {
  const std::int64_t elements = p->out.elements();
  for (std::int64_t i = 0; i < elements; ++i) out[i] = f(in[i]);
}

template <activation A, long Elements>
constexpr void activate_all(const float* in, float* out) {
  activate_all(A, Elements, in, out);
}

}  // namespace ctnn::kernel::reference
