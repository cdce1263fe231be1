#pragma once
// The float32 kernels of the unary_function and binary_function kinds (ops/unary_function.hpp): each math_function computed in
// double and rounded once to float, as ONNX's reference (NumPy in float64) computes it; <cmath> at run time,
// ctnn::detail::math in constant evaluation (fold_constants; clang 14's <cmath> is not constexpr), where a
// float operation giving an infinity or NaN is not a constant expression: there an infinite argument and
// an argument outside the function's domain take their limit by hand.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <ctnn/detail/math.hpp>
#include <ctnn/ir/attributes.hpp>

namespace ctnn::kernel::reference::unary_function {

namespace detail {

namespace math = ctnn::detail::math;

using math::either::atan, math::either::cos, math::either::erf, math::either::exp, math::either::expm1,
    math::either::log, math::either::sin, math::either::sqrt, math::either::tanh;

inline constexpr float infinity = std::numeric_limits<float>::infinity();
inline constexpr float not_a_number = std::numeric_limits<float>::quiet_NaN();
inline constexpr double half_pi = 1.57079632679489661923132169163975144;

// f at +inf (negative: -inf), as the run-time formulas give it.
constexpr float at_infinity(math_function f, bool negative, const activation_coefficients& c) {
  const float sign = negative ? -1.0f : 1.0f;
  const auto scaled_infinity = [](float factor) { return factor > 0 ? infinity : factor < 0 ? -infinity : not_a_number; };
  switch (f) {
    case math_function::erf:
    case math_function::sign: return sign;
    case math_function::softsign: return not_a_number;  // inf / inf, as NumPy's x / (1 + |x|)
    case math_function::gelu:
    case math_function::gelu_tanh: return negative ? not_a_number : infinity;  // -inf * 0
    case math_function::softplus:
    case math_function::thresholded_relu: return negative ? 0.0f : infinity;
    case math_function::mish: return negative ? not_a_number : infinity;  // -inf * tanh(0), as NumPy's formula
    case math_function::selu: return negative ? -c.gamma() * c.alpha() : scaled_infinity(c.gamma());
    case math_function::celu: return negative ? -c.alpha() : infinity;
    case math_function::sinh:
    case math_function::asinh:
    case math_function::shrink: return sign * infinity;
    case math_function::cosh: return infinity;
    case math_function::acosh: return negative ? not_a_number : infinity;
    case math_function::atan: return static_cast<float>(sign * half_pi);
    case math_function::tan:
    case math_function::asin:
    case math_function::acos:
    case math_function::atanh: return not_a_number;
    case math_function::divide: return scaled_infinity(sign / c.alpha());
    case math_function::inverse_sqrt: return negative ? not_a_number : 0.0f;
    case math_function::pow:
    case math_function::fmod: break;  // binary: apply_binary
  }
  return not_a_number;
}

// Whether x is outside f's domain or where f overflows in double's arithmetic, and f's value there.
constexpr bool outside_domain(math_function f, double x, const activation_coefficients& c, float& value) {
  const double magnitude = x < 0 ? -x : x;
  switch (f) {
    case math_function::asin:
    case math_function::acos:
      if (magnitude > 1.0) return value = not_a_number, true;
      return false;
    case math_function::acosh:
      if (x < 1.0) return value = not_a_number, true;
      return false;
    case math_function::atanh:
      if (magnitude > 1.0) return value = not_a_number, true;
      if (magnitude == 1.0) return value = x < 0 ? -infinity : infinity, true;
      return false;
    case math_function::sinh:  // beyond 90 both overflow float
      if (magnitude > 90.0) return value = x < 0 ? -infinity : infinity, true;
      return false;
    case math_function::cosh:
      if (magnitude > 90.0) return value = infinity, true;
      return false;
    case math_function::inverse_sqrt:  // x is the variance, alpha epsilon: below 0 nothing (NaN), at 0 +inf
      if (x + c.alpha() < 0.0) return value = not_a_number, true;
      if (x + c.alpha() == 0.0) return value = infinity, true;
      return false;
    default: return false;
  }
}

}  // namespace detail

// f(x) in double with coefficients c (math_function names the ones each reads).
constexpr double evaluate(math_function f, double x, const activation_coefficients& c) {
  using namespace detail;
  constexpr double sqrt_half = 0.707106781186547524400844362104849039;
  constexpr double sqrt_two_over_pi = 0.797884560802865355879892119868763737;
  switch (f) {
    case math_function::erf: return erf(x);
    case math_function::gelu: return 0.5 * x * (1.0 + erf(x * sqrt_half));
    case math_function::gelu_tanh: return 0.5 * x * (1.0 + tanh(sqrt_two_over_pi * (x + 0.044715 * x * x * x)));
    case math_function::softplus: return x > 0 ? x + log(1.0 + exp(-x)) : log(1.0 + exp(x));
    case math_function::softsign: return x / (1.0 + (x < 0 ? -x : x));
    case math_function::selu: return c.gamma() * (x > 0 ? x : c.alpha() * expm1(x));
    case math_function::celu: return x > 0 ? x : c.alpha() * expm1(x / c.alpha());
    case math_function::thresholded_relu: return x > c.alpha() || x != x ? x : 0.0;  // NaN stays (NumPy's clip)
    case math_function::sign: return x > 0 ? 1.0 : x < 0 ? -1.0 : x;
    case math_function::tan: return sin(x) / cos(x);
    case math_function::sinh: return 0.5 * (expm1(x) - expm1(-x));
    case math_function::cosh: return 0.5 * (exp(x) + exp(-x));
    case math_function::asin: return x == 1.0 || x == -1.0 ? x * half_pi : atan(x / sqrt(1.0 - x * x));
    case math_function::acos: return half_pi - (x == 1.0 || x == -1.0 ? x * half_pi : atan(x / sqrt(1.0 - x * x)));
    case math_function::atan: return atan(x);
    case math_function::asinh: {
      const double magnitude = x < 0 ? -x : x;
      // Below 1e-4 the series x - x^3/6 (log(1 + x) loses x's low bits).
      const double y = magnitude < 1e-4 ? magnitude - magnitude * magnitude * magnitude / 6.0
                                         : log(magnitude + sqrt(magnitude * magnitude + 1.0));
      return x < 0 ? -y : y;
    }
    case math_function::acosh: return x < 1.0 ? std::numeric_limits<double>::quiet_NaN() : log(x + sqrt(x * x - 1.0));
    case math_function::atanh:
      return x > -1e-4 && x < 1e-4 ? x + x * x * x / 3.0 : 0.5 * log((1.0 + x) / (1.0 - x));
    case math_function::shrink: return x < -c.alpha() ? x + c.beta() : x > c.alpha() ? x - c.beta() : 0.0;  // NaN: 0
    case math_function::divide: return x / c.alpha();
    case math_function::inverse_sqrt: return 1.0 / sqrt(x + c.alpha());
    case math_function::mish: {
      // ln(1 + e^x): below -20 e^x itself (within e^2x / 2, where 1 + e^x would lose e^x's low bits).
      const double softplus = x < -20.0 ? exp(x) : x > 0 ? x + log(1.0 + exp(-x)) : log(1.0 + exp(x));
      return x * tanh(softplus);
    }
    case math_function::pow:
    case math_function::fmod: break;  // binary: apply_binary
  }
  return x;
}

namespace detail {

// Whether finite y is an integer, and an odd one.
constexpr bool is_integral(double y) {
  const double magnitude = y < 0 ? -y : y;
  return magnitude >= 4503599627370496.0 || static_cast<double>(static_cast<std::int64_t>(y)) == y;  // from 2^52 on
}
constexpr bool is_odd_integer(double y) {
  const double magnitude = y < 0 ? -y : y;
  return magnitude < 9007199254740992.0 && is_integral(y) && static_cast<std::int64_t>(y) % 2 != 0;
}

// a^b as <cmath>'s pow (C's special cases), in constant evaluation: e^(b ln |a|) with a's sign for an odd
// integer b; the infinities, zeros and NaNs by hand.
constexpr double constant_pow(double a, double b) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (b == 0.0 || a == 1.0) return 1.0;
  if (a != a || b != b) return std::numeric_limits<double>::quiet_NaN();
  const double magnitude = a < 0 ? -a : a;
  if (b == inf || b == -inf) {
    if (magnitude == 1.0) return 1.0;
    return (magnitude > 1.0) == (b > 0) ? inf : 0.0;
  }
  const bool odd = is_odd_integer(b);
  if (a == 0.0 || magnitude == inf) {  // 0 or inf, its sign kept for an odd b
    const double value = (a == 0.0) == (b < 0) ? inf : 0.0;
    return odd && (a < 0 || (a == 0.0 && std::bit_cast<std::uint64_t>(a) >> 63 != 0)) ? -value : value;
  }
  if (a < 0 && !is_integral(b)) return std::numeric_limits<double>::quiet_NaN();
  const double value = math::exp(b * math::log(magnitude));
  return a < 0 && odd ? -value : value;
}

// a - trunc(a / b) b exactly (fmod), in constant evaluation: |b| times the largest power of two that fits
// taken from |a| until less than |b| is left (each difference is exact: Sterbenz).
constexpr double constant_fmod(double a, double b) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (a != a || b != b || b == 0.0 || a == inf || a == -inf) return std::numeric_limits<double>::quiet_NaN();
  if (b == inf || b == -inf) return a;
  double rest = a < 0 ? -a : a;
  const double step = b < 0 ? -b : b;
  while (rest >= step) {
    double taken = step;
    while (taken * 2.0 <= rest) taken *= 2.0;
    rest -= taken;
  }
  return a < 0 ? -rest : rest;
}

}  // namespace detail

// f(a, b) of a binary function (pow, fmod) rounded to float.
constexpr float apply_binary(math_function f, float a, float b) {
  const double x = a, y = b;
  if (std::is_constant_evaluated())
    return detail::math::to_float(f == math_function::pow ? detail::constant_pow(x, y) : detail::constant_fmod(x, y));
  return detail::math::to_float(f == math_function::pow ? std::pow(x, y) : std::fmod(x, y));
}

// f(x) rounded to float (+-inf beyond its range: a double past float's range does not convert).
constexpr float apply(math_function f, float x, const activation_coefficients& c) {
  if (std::is_constant_evaluated()) {
    if (x != x) return f == math_function::shrink ? 0.0f : x;  // NaN stays, but for Shrink (ONNX's reference: 0)
    if (x == detail::infinity || x == -detail::infinity) return detail::at_infinity(f, x < 0, c);
    if (float value = 0.0f; detail::outside_domain(f, x, c, value)) return value;
  }
  return detail::math::to_float(evaluate(f, x, c));
}

}  // namespace ctnn::kernel::reference::unary_function
