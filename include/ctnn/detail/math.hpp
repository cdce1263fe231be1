#pragma once
// The few math functions ctnn needs in constant evaluation (clang 14's <cmath> is not constexpr):
// exp, tanh, sqrt, log, sin, cos in double precision, rounded once to float by the callers; floor and ceil
// of a float, exact. Kernels call std:: at run
// time and these only when std::is_constant_evaluated(), so folded constants may differ from run-time
// results in the last bit; tests compare both with <cmath>.
#include <cstdint>
#include <limits>

namespace ctnn::detail::math {

// e^x: x = k ln2 + r with |r| <= ln2/2, e^r by its Taylor series (terms < 1e-17 by n = 18), times 2^k.
constexpr double exp(double x) {
  if (x != x) return x;
  if (x > 709.0) return std::numeric_limits<double>::infinity();
  if (x < -745.0) return 0.0;
  constexpr double ln2 = 0.693147180559945309417232121458176568;
  const double kf = x / ln2;
  const auto k = static_cast<std::int64_t>(kf < 0 ? kf - 0.5 : kf + 0.5);
  const double r = x - static_cast<double>(k) * ln2;
  double term = 1.0, sum = 1.0;
  for (int n = 1; n < 20; ++n) {
    term *= r / n;
    sum += term;
  }
  double scale = 1.0;
  for (std::int64_t i = 0; i < (k < 0 ? -k : k); ++i) scale *= 2.0;
  return k < 0 ? sum / scale : sum * scale;
}

constexpr double tanh(double x) {
  if (x > 20.0) return 1.0;
  if (x < -20.0) return -1.0;
  if (x > -1e-4 && x < 1e-4) return x - x * x * x / 3.0;  // avoids cancellation in (e - 1)
  const double e = exp(2.0 * x);
  return (e - 1.0) / (e + 1.0);
}

// Newton's iteration from a power-of-two estimate; exact to double precision for x >= 0.
constexpr double sqrt(double x) {
  if (x <= 0.0 || x != x) return x == 0.0 ? 0.0 : std::numeric_limits<double>::quiet_NaN();
  if (x == std::numeric_limits<double>::infinity()) return x;
  double guess = 1.0;
  while (guess * guess < x) guess *= 2.0;
  while (guess * guess > 4.0 * x) guess *= 0.5;
  for (int i = 0; i < 60; ++i) {
    const double next = 0.5 * (guess + x / guess);
    if (next == guess) break;
    guess = next;
  }
  return guess;
}

// ln x: x = m 2^e with m in [sqrt(1/2), sqrt(2)), ln m = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.172
// (the series' terms fall below 1e-17 by the 11th); x < 0 and NaN give NaN, 0 gives -inf.
constexpr double log(double x) {
  if (x != x || x < 0.0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0.0) return -std::numeric_limits<double>::infinity();
  if (x == std::numeric_limits<double>::infinity()) return x;
  constexpr double sqrt2 = 1.41421356237309504880168872420969808;
  std::int32_t e = 0;
  while (x >= sqrt2) x *= 0.5, ++e;
  while (x < sqrt2 / 2) x *= 2.0, --e;
  const double s = (x - 1.0) / (x + 1.0), s2 = s * s;
  double power = s, sum = 0.0;
  for (int k = 1; k < 40; k += 2) {
    sum += power / k;
    power *= s2;
  }
  constexpr double ln2 = 0.693147180559945309417232121458176568;
  return 2.0 * sum + e * ln2;
}

// sin and cos: x reduced by the nearest multiple k of pi/2 (Cody-Waite: pi/2 in three parts of 33, 33 and
// 53 bits, so k * part is exact for |k| < 2^20: |x| below about 1.6e6; beyond, the reduction loses
// precision and a folded value may differ from <cmath>'s), then the Taylor series on [-pi/4, pi/4].
namespace detail {
struct quadrant_and_rest {
  std::int64_t quadrant;
  double rest;
};
constexpr quadrant_and_rest reduce_by_half_pi(double x) {
  constexpr double two_over_pi = 0.636619772367581343075535053490057448;
  constexpr double half_pi_1 = 1.57079632673412561417e+00;  // the first 33 bits of pi/2
  constexpr double half_pi_2 = 6.07710050630396597660e-11;  // the next 33
  constexpr double half_pi_3 = 2.02226624879595063154e-21;  // the rest
  const double kf = x * two_over_pi;
  const auto k = static_cast<std::int64_t>(kf < 0 ? kf - 0.5 : kf + 0.5);
  const double kd = static_cast<double>(k);
  return {k, ((x - kd * half_pi_1) - kd * half_pi_2) - kd * half_pi_3};
}
constexpr double sin_taylor(double r) {
  double term = r, sum = r;
  for (int n = 1; n < 14; ++n) {
    term *= -r * r / ((2 * n) * (2 * n + 1));
    sum += term;
  }
  return sum;
}
constexpr double cos_taylor(double r) {
  double term = 1.0, sum = 1.0;
  for (int n = 1; n < 14; ++n) {
    term *= -r * r / ((2 * n - 1) * (2 * n));
    sum += term;
  }
  return sum;
}
// sin(x + quarter_turns * pi/2) for the reduced x.
constexpr double sin_turned(std::int64_t quarter_turns, double r) {
  switch (quarter_turns & 3) {
    case 0: return sin_taylor(r);
    case 1: return cos_taylor(r);
    case 2: return -sin_taylor(r);
    default: return -cos_taylor(r);
  }
}
}  // namespace detail

constexpr double sin(double x) {
  if (x != x || x == std::numeric_limits<double>::infinity() || x == -std::numeric_limits<double>::infinity())
    return std::numeric_limits<double>::quiet_NaN();
  if (x == 0.0) return x;  // keeps -0
  const detail::quadrant_and_rest q = detail::reduce_by_half_pi(x);
  return detail::sin_turned(q.quadrant, q.rest);
}
constexpr double cos(double x) {
  if (x != x || x == std::numeric_limits<double>::infinity() || x == -std::numeric_limits<double>::infinity())
    return std::numeric_limits<double>::quiet_NaN();
  const detail::quadrant_and_rest q = detail::reduce_by_half_pi(x);
  return detail::sin_turned(q.quadrant + 1, q.rest);
}

// floor and ceil of a float, as <cmath>'s: a float of magnitude 2^23 or more (and inf, NaN) is integral
// already; a result of 0 keeps the argument's sign (ceil(-0.5) is -0).
constexpr float floor(float x) {
  if (!(x > -8388608.0f && x < 8388608.0f)) return x;
  float t = static_cast<float>(static_cast<std::int64_t>(x));  // toward zero
  if (t > x) t -= 1.0f;
  return t == 0.0f ? (x < 0.0f ? -0.0f : x * 0.0f) : t;
}
constexpr float ceil(float x) {
  if (!(x > -8388608.0f && x < 8388608.0f)) return x;
  float t = static_cast<float>(static_cast<std::int64_t>(x));
  if (t < x) t += 1.0f;
  return t == 0.0f ? (x < 0.0f ? -0.0f : x * 0.0f) : t;
}

}  // namespace ctnn::detail::math
