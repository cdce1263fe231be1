// The onnx_math family's kernels (kernel/reference/unary_function.hpp): every math_function of one operand and
// pow and fmod of two, constant-evaluated (fold_constants: ctnn::detail::math, the limits by hand) against the
// run-time kernel (<cmath> in double) and <cmath>'s own functions; and layer_norm's kernel on a small case.
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>

#include <doctest/doctest.h>

#include <ctnn/ctnn.hpp>
#include <ctnn/kernel/reference/unary_function.hpp>
#include <ctnn/ops/registry.hpp>

namespace {

using ctnn::activation_coefficients;
using ctnn::math_function;
namespace uf = ctnn::kernel::reference::unary_function;

constexpr float inf = std::numeric_limits<float>::infinity();
constexpr float quiet_nan = std::numeric_limits<float>::quiet_NaN();

// Arguments over every function's domain and beyond it: zeros, the domain edges, infinities, NaN, large values.
constexpr std::array<float, 31> samples{0.0f,   -0.0f,  1e-30f, -1e-30f, 1e-5f, -1e-5f, 0.2f,   -0.2f,   0.5f,    -0.5f,  0.9999999f,
                                        1.0f,   -1.0f,  1.5f,   -1.5f,   3.0f,  -3.0f,  10.0f,  -10.0f,  30.0f,   -30.0f, 89.0f,
                                        -89.0f, 100.0f, -100.0f, 1e30f,  -1e30f, 3e38f, inf,    -inf,    quiet_nan};

constexpr activation_coefficients coefficients(math_function f) {
  activation_coefficients c{};
  c.function = f;
  c.alpha_bits = std::bit_cast<std::uint32_t>(f == math_function::shrink ? 0.5f : 1.67326319f);
  c.beta_bits = std::bit_cast<std::uint32_t>(0.25f);
  c.gamma_bits = std::bit_cast<std::uint32_t>(1.05070102f);
  return c;
}

template <math_function F>
constexpr std::array<float, samples.size()> folded() {
  std::array<float, samples.size()> y{};
  for (std::size_t i = 0; i < samples.size(); ++i) y[i] = uf::apply(F, samples[i], coefficients(F));
  return y;
}

// The constant-evaluated results match the run-time ones: NaN where it is NaN, the same infinity, else within
// 2 ulp (plus 1e-30 absolute, for results near 0).
template <math_function F>
void check_folded_matches_run_time() {
  constexpr std::array<float, samples.size()> at_compile_time = folded<F>();
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const float want = uf::apply(F, samples[i], coefficients(F));
    const std::string_view function = ctnn::name_of(F);
    CAPTURE(function);
    CAPTURE(samples[i]);
    if (std::isnan(want)) {
      CHECK(std::isnan(at_compile_time[i]));
    } else if (std::isinf(want)) {
      CHECK(at_compile_time[i] == want);
    } else {
      CHECK(std::fabs(at_compile_time[i] - want) <= 2.4e-7f * std::fabs(want) + 1e-30f);
    }
  }
}

template <std::size_t... I>
void check_every_function(std::index_sequence<I...>) {
  (check_folded_matches_run_time<static_cast<math_function>(I)>(), ...);
}

}  // namespace

TEST_CASE("unary_function: the constant-evaluated functions (fold_constants) agree with the run-time kernel") {
  check_every_function(std::make_index_sequence<static_cast<std::size_t>(math_function::divide) + 1>{});
}

TEST_CASE("unary_function: the run-time kernel agrees with <cmath>") {
  for (const float x : samples) {
    CAPTURE(x);
    const auto same = [](float got, double want) {
      const auto w = static_cast<float>(want);
      return (std::isnan(got) && std::isnan(w)) || got == w || std::fabs(got - w) <= 1.2e-7f * std::fabs(w);
    };
    const double d = x;
    CHECK(same(uf::apply(math_function::erf, x, {}), std::erf(d)));
    CHECK(same(uf::apply(math_function::tan, x, {}), std::tan(d)));
    CHECK(same(uf::apply(math_function::atan, x, {}), std::atan(d)));
    CHECK(same(uf::apply(math_function::asinh, x, {}), std::asinh(d)));
    if (std::fabs(d) <= 1.0) CHECK(same(uf::apply(math_function::asin, x, {}), std::asin(d)));
    if (std::fabs(d) < 1.0) CHECK(same(uf::apply(math_function::atanh, x, {}), std::atanh(d)));
    if (d >= 1.0) CHECK(same(uf::apply(math_function::acosh, x, {}), std::acosh(d)));
  }
}

// pow's and fmod's special cases (C's), folded and at run time.
constexpr std::array<std::array<float, 2>, 16> pairs{{{2, 3}, {-2, 3}, {-8, 1.0f / 3}, {0, -1}, {-0.0f, -3}, {inf, -2},
                                                      {-inf, 3}, {0.5f, inf}, {2, -inf}, {1, quiet_nan}, {quiet_nan, 0}, {7, 3},
                                                      {-7, 3}, {5, 0}, {1e30f, 7}, {3, inf}}};
template <math_function F>
constexpr std::array<float, pairs.size()> folded_pairs() {
  std::array<float, pairs.size()> y{};
  for (std::size_t i = 0; i < pairs.size(); ++i) y[i] = uf::apply_binary(F, pairs[i][0], pairs[i][1]);
  return y;
}

TEST_CASE("binary_function: pow and fmod folded agree with <cmath>") {
  constexpr auto pow_folded = folded_pairs<math_function::pow>();
  constexpr auto fmod_folded = folded_pairs<math_function::fmod>();
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const double a = pairs[i][0], b = pairs[i][1];
    CAPTURE(a);
    CAPTURE(b);
    const auto pow_want = static_cast<float>(std::pow(a, b)), fmod_want = static_cast<float>(std::fmod(a, b));
    CHECK(((std::isnan(pow_want) && std::isnan(pow_folded[i])) ||
           std::fabs(pow_folded[i] - pow_want) <= 2.4e-7f * std::fabs(pow_want) || pow_folded[i] == pow_want));
    CHECK(((std::isnan(fmod_want) && std::isnan(fmod_folded[i])) || fmod_folded[i] == fmod_want));
    CHECK(((std::isnan(pow_want) && std::isnan(uf::apply_binary(math_function::pow, pairs[i][0], pairs[i][1]))) ||
           uf::apply_binary(math_function::pow, pairs[i][0], pairs[i][1]) == pow_want));
  }
}

// layer_norm over the last axis of [2, 3] with a scale and a bias broadcast from [3] (NumPy: (x - mean) /
// sqrt(var + eps) * scale + bias).
TEST_CASE("layer_norm: each row normalised, scaled and shifted") {
  ctnn::kernel_params p{};
  p.kind = ctnn::op_kind::layer_norm;
  p.in = p.out = ctnn::make_shape(2, 3);
  p.in2 = p.in3 = ctnn::make_shape(3);
  p.mean.reduce_axes = 0b10u;
  p.norm.epsilon_bits = std::bit_cast<std::uint32_t>(0.0f);
  p.operand_count = 3;
  const float x[6] = {1, 2, 3, -4, 0, 4}, scale[3] = {1, 2, -1}, bias[3] = {0, 1, 10};
  const float* operands[3] = {x, scale, bias};
  float y[6]{};
  ctnn::ops::layer_norm::run_f32(&p, operands, y);
  const float r = 1.2247448713915890f;  // 1 / sqrt(2/3) for the first row, the same for the second (scaled by 4)
  const float want[6] = {-r, 1, 10 - r, -r, 1, 10 - r};
  for (std::size_t i = 0; i < 6; ++i) CHECK(y[i] == doctest::Approx(want[i]).epsilon(1e-6));
}
