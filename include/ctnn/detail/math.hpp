#pragma once
// The few math functions ctnn needs in constant evaluation (clang 14's <cmath> is not constexpr):
// exp, expm1, tanh, sqrt, in double precision, rounded once to float by the callers. Kernels call std:: at run
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

}  // namespace ctnn::detail::math
