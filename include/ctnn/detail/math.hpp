#pragma once
// The few math functions ctnn needs in constant evaluation (clang 14's <cmath> is not constexpr):
// exp, expm1, tanh, sqrt, log, sin, cos, atan, erf in double precision, rounded once to float by the callers; floor and
// ceil of a float, exact. Kernels call std:: at run
// time and these only when std::is_constant_evaluated(), so folded constants may differ from run-time
// results in the last bit; tests compare both with <cmath>.
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

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
  if (k < -1023) {  // 2^-k is beyond double: halve step by step (a subnormal result, not a constant-evaluation overflow)
    for (std::int64_t i = 0; i < -k; ++i) sum *= 0.5;
    return sum;
  }
  double scale = 1.0;
  for (std::int64_t i = 0; i < (k < 0 ? -k : k); ++i) scale *= 2.0;
  return k < 0 ? sum / scale : sum * scale;
}

// e^x - 1 without the cancellation of exp(x) - 1 near 0: its Taylor series there.
constexpr double expm1(double x) {
  if (x > -0.5 && x < 0.5) {
    double term = x, sum = x;
    for (int n = 2; n < 24; ++n) {
      term *= x / n;
      sum += term;
    }
    return sum;
  }
  return exp(x) - 1.0;
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

// sin and cos: x reduced by the nearest multiple k of pi/2 to r in [-pi/4, pi/4], then the Taylor series
// of sin or cos of r by k mod 4. Below 2^19 the reduction is Cody-Waite's (pi/2 in three parts of 33, 33 and
// 53 bits, so k * part is exact); from there to 2^128 (every float) Payne-Hanek's: x = M 2^E exactly, and
// x 2/pi mod 4 is M times a 128-bit window of 2/pi's bits, in integers. Larger doubles give NaN.
namespace detail {
struct quadrant_and_rest {
  std::int64_t quadrant;
  double rest;
};
constexpr quadrant_and_rest reduce_small(double x) {
  constexpr double two_over_pi = 0.636619772367581343075535053490057448;
  constexpr double half_pi_1 = 1.57079632673412561417e+00;  // the first 33 bits of pi/2
  constexpr double half_pi_2 = 6.07710050630396597660e-11;  // the next 33
  constexpr double half_pi_3 = 2.02226624879595063154e-21;  // the rest
  const double kf = x * two_over_pi;
  const auto k = static_cast<std::int64_t>(kf < 0 ? kf - 0.5 : kf + 0.5);
  const double kd = static_cast<double>(k);
  return {k, ((x - kd * half_pi_1) - kd * half_pi_2) - kd * half_pi_3};
}
// The fractional bits of 2/pi, 1 to 256, most significant first.
inline constexpr std::uint32_t two_over_pi_bits[8] = {0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0,
                                                       0xdb629599, 0x3c439041, 0xfe5163ab, 0xdebbc561};
constexpr std::uint32_t two_over_pi_bit(std::int32_t i) {  // bit i (1: the first after the point); 0 outside
  if (i < 1 || i > 256) return 0;
  return (two_over_pi_bits[(i - 1) / 32] >> (31 - (i - 1) % 32)) & 1u;
}
// For 2^19 <= x < 2^128.
constexpr quadrant_and_rest reduce_large(double x) {
  // x = mantissa 2^exponent, mantissa an integer in [2^52, 2^53).
  std::int32_t exponent = 0;
  while (x >= 9007199254740992.0) x *= 0.5, ++exponent;  // 2^53
  while (x < 4503599627370496.0) x *= 2.0, --exponent;   // 2^52
  const auto mantissa = static_cast<std::uint64_t>(x);
  // The bits of 2/pi from exponent - 1 on, as 128 bits in four 32-bit limbs (limb 0 the least significant):
  // mantissa * window / 2^126 is x 2/pi less a multiple of 4, so its low 128 bits hold x 2/pi mod 4 with
  // two integer bits.
  std::uint32_t window[4]{};
  for (std::int32_t b = 0; b < 128; ++b)
    window[(127 - b) / 32] |= two_over_pi_bit(exponent - 1 + b) << ((127 - b) % 32);
  const std::uint64_t m[2] = {mantissa & 0xffffffffu, mantissa >> 32};
  std::uint32_t product[4]{};
  for (std::int32_t i = 0; i < 4; ++i) {  // product = mantissa * window mod 2^128
    std::uint64_t carry = 0;
    for (std::int32_t j = 0; i + j < 4 && j < 2; ++j) {
      const std::uint64_t sum = product[i + j] + m[j] * window[i] + carry;
      product[i + j] = static_cast<std::uint32_t>(sum);
      carry = sum >> 32;
    }
    for (std::int32_t k = i + 2; k < 4 && carry != 0; ++k) {
      const std::uint64_t sum = product[k] + carry;
      product[k] = static_cast<std::uint32_t>(sum);
      carry = sum >> 32;
    }
  }
  std::int64_t quadrant = product[3] >> 30;
  const std::uint64_t fraction = (static_cast<std::uint64_t>(product[3] & 0x3fffffffu) << 34) |
                                 (static_cast<std::uint64_t>(product[2]) << 2) | (product[1] >> 30);  // 64 bits
  double turns = static_cast<double>(fraction) / 18446744073709551616.0;  // in quarter turns, [0, 1)
  if (turns >= 0.5) turns -= 1.0, ++quadrant;
  constexpr double half_pi = 1.57079632679489661923132169163975144;
  return {quadrant, turns * half_pi};
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
// sin(r + quarter_turns pi/2).
constexpr double sin_turned(std::int64_t quarter_turns, double r) {
  switch (quarter_turns & 3) {
    case 0: return sin_taylor(r);
    case 1: return cos_taylor(r);
    case 2: return -sin_taylor(r);
    default: return -cos_taylor(r);
  }
}
// sin(|x| + quarter_turns pi/2), NaN for NaN, infinities and |x| >= 2^128.
constexpr double sin_of_magnitude(double magnitude, std::int64_t quarter_turns) {
  if (!(magnitude < 3.4028236692093846e38)) return std::numeric_limits<double>::quiet_NaN();
  const quadrant_and_rest q = magnitude < 524288.0 ? reduce_small(magnitude) : reduce_large(magnitude);
  return sin_turned(q.quadrant + quarter_turns, q.rest);
}
}  // namespace detail

constexpr double sin(double x) {
  if (x == 0.0) return x;  // keeps -0
  return x < 0 ? -detail::sin_of_magnitude(-x, 0) : detail::sin_of_magnitude(x, 0);
}
constexpr double cos(double x) { return detail::sin_of_magnitude(x < 0 ? -x : x, 1); }

// atan x: |x| > 1 by atan x = pi/2 - atan(1/x), then halved (atan x = 2 atan(x / (1 + sqrt(1 + x^2)))) to
// at most 0.2, where its Taylor series' terms fall below 1e-17 by the 12th.
constexpr double atan(double x) {
  constexpr double half_pi = 1.57079632679489661923132169163975144;
  if (x != x) return x;
  if (x < 0.0) return -atan(-x);
  if (x > 1.0) return half_pi - atan(1.0 / x);  // inf: 1/inf is 0
  double r = x, scale = 1.0;
  while (r > 0.2) r = r / (1.0 + sqrt(1.0 + r * r)), scale *= 2.0;
  const double r2 = r * r;
  double power = r, sum = 0.0;
  for (int k = 1; k < 40; k += 2) {
    sum += (k % 4 == 1 ? power : -power) / k;
    power *= r2;
  }
  return scale * sum;
}

// erf x = 2/sqrt(pi) e^(-x^2) sum 2^n x^(2n+1) / (1 3 5 ... (2n+1)): positive terms, no cancellation (about
// x^2 + 40 of them); from 6 on erf is 1 in double.
constexpr double erf(double x) {
  if (x != x) return x;
  if (x < 0.0) return -erf(-x);
  if (x >= 6.0) return 1.0;
  constexpr double two_over_sqrt_pi = 1.12837916709551257389615890312154517;
  const double x2 = x * x;
  double term = x, sum = x;
  for (int n = 1; n < 200 && term > sum * 1e-18; ++n) {
    term *= 2.0 * x2 / (2 * n + 1);
    sum += term;
  }
  return two_over_sqrt_pi * exp(-x2) * sum;
}

// A double rounded to float, +-inf beyond float's range: in constant evaluation a conversion that overflows
// is not a constant expression.
constexpr float to_float(double x) {
  constexpr double overflow = 3.4028235677973366e38;  // FLT_MAX + half an ulp: rounds to inf
  if (x >= overflow) return std::numeric_limits<float>::infinity();
  if (x <= -overflow) return -std::numeric_limits<float>::infinity();
  return static_cast<float>(x);
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

// The same functions for code that runs both at compile time and at run time (the reference kernels, which
// fold_constants evaluates): these in constant evaluation, <cmath> at run time.
namespace either {
constexpr double exp(double x) { return std::is_constant_evaluated() ? math::exp(x) : std::exp(x); }
constexpr double expm1(double x) { return std::is_constant_evaluated() ? math::expm1(x) : std::expm1(x); }
constexpr double log(double x) { return std::is_constant_evaluated() ? math::log(x) : std::log(x); }
constexpr double sqrt(double x) { return std::is_constant_evaluated() ? math::sqrt(x) : std::sqrt(x); }
constexpr double sin(double x) { return std::is_constant_evaluated() ? math::sin(x) : std::sin(x); }
constexpr double cos(double x) { return std::is_constant_evaluated() ? math::cos(x) : std::cos(x); }
constexpr double tanh(double x) { return std::is_constant_evaluated() ? math::tanh(x) : std::tanh(x); }
constexpr double atan(double x) { return std::is_constant_evaluated() ? math::atan(x) : std::atan(x); }
constexpr double erf(double x) { return std::is_constant_evaluated() ? math::erf(x) : std::erf(x); }
}  // namespace either

}  // namespace ctnn::detail::math
