#pragma once
// The float32 functions of the element-wise math ops of one operand (ops/unary_math.hpp): each as TFLM's
// reference kernel computes it in float, <cmath> at run time and ctnn::detail::math in constant evaluation
// (fold_constants; clang 14's <cmath> is not constexpr), so a folded constant may differ from the run-time
// result in the last bit.
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <ctnn/detail/math.hpp>
#include <ctnn/kernel/params.hpp>

namespace ctnn::kernel::reference::unary_math {

namespace math = ctnn::detail::math;

// |x| with the sign bit cleared, as fabsf (-0 and -NaN too).
constexpr float absolute(float x) { return std::bit_cast<float>(std::bit_cast<std::uint32_t>(x) & 0x7fffffffu); }
// -x with the sign bit flipped (-NaN too).
constexpr float negated(float x) { return std::bit_cast<float>(std::bit_cast<std::uint32_t>(x) ^ 0x80000000u); }
// In constant evaluation a float operation that overflows, divides by zero or gives NaN is not a constant
// expression (g++, clang), so there x * x and 1 / x are computed in double (exactly, or rounded once: the
// float result) and rounded by math::to_float; 1 / +-0 is +-inf and NaN stays NaN by hand.
constexpr float squared(float x) {
  if (std::is_constant_evaluated()) return x != x ? x : math::to_float(static_cast<double>(x) * x);
  return x * x;
}
// 1 / x (ONNX Reciprocal): +-inf at +-0.
constexpr float reciprocal(float x) {
  if (std::is_constant_evaluated()) {
    constexpr float inf = std::numeric_limits<float>::infinity();
    if (x != x) return x;
    if (x == 0.0f) return std::bit_cast<std::uint32_t>(x) == 0 ? inf : -inf;
    return math::to_float(1.0 / static_cast<double>(x));
  }
  return 1.0f / x;
}
// NaN below 0 (and for NaN), as sqrtf.
constexpr float square_root(float x) {
  if (std::is_constant_evaluated()) return x == 0.0f ? x : static_cast<float>(math::sqrt(x));
  return std::sqrt(x);
}
// TFLM's float RSQRT: 1.f / std::sqrt(f) (+inf at 0, NaN below 0).
constexpr float reciprocal_square_root(float x) { return reciprocal(square_root(x)); }
constexpr float exponential(float x) {
  if (std::is_constant_evaluated()) return math::to_float(math::exp(x));
  return std::exp(x);
}
// NaN below 0, -inf at 0, as logf.
constexpr float natural_log(float x) {
  if (std::is_constant_evaluated()) return static_cast<float>(math::log(x));
  return std::log(x);
}
constexpr float sine(float x) {
  if (std::is_constant_evaluated()) return static_cast<float>(math::sin(x));
  return std::sin(x);
}
constexpr float cosine(float x) {
  if (std::is_constant_evaluated()) return static_cast<float>(math::cos(x));
  return std::cos(x);
}
constexpr float round_down(float x) {
  if (std::is_constant_evaluated()) return math::floor(x);
  return std::floor(x);
}
constexpr float round_up(float x) {
  if (std::is_constant_evaluated()) return math::ceil(x);
  return std::ceil(x);
}
// TFLite's RoundToNearest (ROUND; also ONNX Round): halves to even. A float of magnitude 2^23 or more is
// integral, and inf and NaN stay (TFLite's arithmetic gives the same).
constexpr float round_half_to_even(float x) {
  if (!(x > -8388608.0f && x < 8388608.0f)) return x;
  const float below = round_down(x);
  const float fraction = x - below;
  if (fraction < 0.5f || (fraction == 0.5f && static_cast<std::int32_t>(below) % 2 == 0)) return below;
  return below + 1.0f;
}

// F applied to each of `elements` values.
template <float (*F)(float)>
[[gnu::always_inline]] constexpr void apply(std::int64_t elements, const float* in, float* out) {
  for (std::int64_t i = 0; i < elements; ++i) out[i] = F(in[i]);
}

// The int8 kernels of one operand (ABS, RSQRT; ABS's int16 one, T int16): each result is F(x - input zero
// point), which includes the output's zero point, saturated to T as TFLM's EvalImplQuantized.
template <class Params, class T, class F>
[[gnu::always_inline]] constexpr void apply_i8(Params p, const T* in, T* out, F f) {
  constexpr std::int32_t lowest = std::numeric_limits<T>::min(), highest = std::numeric_limits<T>::max();
  const std::int64_t elements = p->out.elements();
  for (std::int64_t i = 0; i < elements; ++i) {
    const std::int32_t v = f(in[i] + p->input_offset);
    out[i] = static_cast<T>(v < lowest ? lowest : (v > highest ? highest : v));
  }
}

// The 256 results of an int8 op of one operand, F{}(p, x - input zero point) saturated to int8 for each int8 x,
// computed by the compiler for a call with constant parameters (in flash: issue #25, TFLM computes no less in its
// Prepare or per element).
template <kernel_params P, class F>
constexpr std::array<std::int8_t, 256> make_int8_table() {
  std::array<std::int8_t, 256> table{};
  for (std::int32_t x = -128; x <= 127; ++x) {
    const std::int32_t v = F{}(static_params<P>{}, x + P.input_offset);
    table[static_cast<std::size_t>(x + 128)] = static_cast<std::int8_t>(v < -128 ? -128 : (v > 127 ? 127 : v));
  }
  return table;
}
template <kernel_params P, class F>
inline constexpr std::array<std::int8_t, 256> int8_table_v = make_int8_table<P, F>();

// apply_i8 of a captureless F taking (p, x - input zero point): with constant parameters and int8 elements a lookup in
// int8_table_v, otherwise F per element.
// Whether the compiler can compute int8_table_v<P, F> (no arithmetic outside what a constant expression allows).
template <class Params, class F>
constexpr bool int8_table_is_constant = false;
template <kernel_params P, class F>
  requires requires { typename std::integral_constant<bool, (make_int8_table<P, F>(), true)>; }
constexpr bool int8_table_is_constant<static_params<P>, F> = true;

template <class Params, class T, class F>
[[gnu::always_inline]] constexpr void apply_i8_of(Params p, const T* in, T* out, F f) {
  if constexpr (sizeof(T) == 1 && int8_table_is_constant<Params, F>) {
    const std::array<std::int8_t, 256>& table = int8_table_v<constant_params<Params>::params, F>;
    const std::int64_t elements = p->out.elements();
    for (std::int64_t i = 0; i < elements; ++i) out[i] = static_cast<T>(table[static_cast<std::size_t>(in[i] + 128)]);
  } else {
    apply_i8(p, in, out, [&](std::int32_t centred) { return f(p, centred); });
  }
}

}  // namespace ctnn::kernel::reference::unary_math
