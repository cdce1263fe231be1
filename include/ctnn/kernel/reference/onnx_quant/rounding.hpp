#pragma once
// ONNX's requantization arithmetic (docs/design.md §4), as onnxruntime's MLAS kernels do it: a float scale,
// round half to even, saturation to the 8-bit type. constexpr (no <cmath>: not constexpr on clang 14), so
// the unit tests check it with static_asserts too.
//   QuantizeLinear:     q = saturate(round_half_even(x / scale) + zero_point)
//   DequantizeLinear:   x = float(q - zero_point) * scale
//   QLinearConv/MatMul: y = saturate(round_half_even(float(acc) * multiplier) + y_zero_point), with
//                       multiplier = float(x_scale * w_scale) / y_scale in float (onnxruntime's order)
#include <cstdint>
#include <limits>

#include <ctnn/ir/dtype.hpp>

namespace ctnn::kernel::reference::onnx_quant {

// Rounds to the nearest integer, ties to even (std::nearbyint in the default rounding mode). Floats of
// magnitude >= 2^23 are integers already; NaN stays NaN.
constexpr float round_half_even(float x) {
  if (!(x > -8388608.0f && x < 8388608.0f)) return x;
  const auto truncated = static_cast<std::int32_t>(x);
  const float fraction = x - static_cast<float>(truncated);  // exact
  const bool odd = (truncated & 1) != 0;
  std::int32_t rounded = truncated;
  if (fraction > 0.5f || (fraction == 0.5f && odd)) ++rounded;
  else if (fraction < -0.5f || (fraction == -0.5f && odd)) --rounded;
  return static_cast<float>(rounded);
}

// The value range of an 8-bit integer type.
template <class T>
inline constexpr float lowest_value = static_cast<float>(std::numeric_limits<T>::lowest());
template <class T>
inline constexpr float highest_value = static_cast<float>(std::numeric_limits<T>::max());

// A rounded float plus a zero point, saturated to T (NaN gives the zero point).
template <class T>
constexpr T saturate(float rounded, std::int32_t zero_point) {
  float v = rounded + static_cast<float>(zero_point);
  if (v != v) v = static_cast<float>(zero_point);
  if (v < lowest_value<T>) v = lowest_value<T>;
  if (v > highest_value<T>) v = highest_value<T>;
  return static_cast<T>(static_cast<std::int32_t>(v));
}

template <class T>
constexpr T quantize_value(float x, float scale, std::int32_t zero_point) {
  return saturate<T>(round_half_even(x / scale), zero_point);
}

constexpr float dequantize_value(std::int32_t q, float scale, std::int32_t zero_point) {
  return static_cast<float>(q - zero_point) * scale;
}

template <class T>
constexpr T requantize_value(std::int32_t acc, float multiplier, std::int32_t zero_point) {
  return saturate<T>(round_half_even(static_cast<float>(acc) * multiplier), zero_point);
}

// QLinear*'s multiplier, in onnxruntime's order of float operations.
constexpr float output_multiplier(float input_scale, float weight_scale, float output_scale) {
  const float product = input_scale * weight_scale;
  return product / output_scale;
}

}  // namespace ctnn::kernel::reference::onnx_quant
