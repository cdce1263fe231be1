// Vector depthwise conv2d, dense, pooling, element-wise and resize kernels against the reference kernels on
// random shapes (odd channel counts: every narrower vector tier and the scalar tail, padding at every
// edge, stride 2, dilation).
#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <span>

#include <ctnn/ir/shape_rules.hpp>
#include <ctnn/kernel/simd/f32.hpp>

#include "kernel/simd/simd_f32_support.hpp"

namespace {

using namespace simd_f32_test;

constexpr kernel_params dense(std::int32_t batch, std::int32_t features, std::int32_t units, ctnn::activation act, bool bias) {
  kernel_params p{};
  p.kind = ctnn::op_kind::dense;
  p.in = ctnn::make_shape(batch, features);
  p.out = ctnn::make_shape(batch, units);
  p.fused = act;
  p.has_bias = bias;
  return p;
}

constexpr kernel_params elementwise(ctnn::op_kind kind, ctnn::shape s, ctnn::activation act = ctnn::activation::none) {
  kernel_params p{};
  p.kind = kind;
  p.in = p.in2 = p.out = s;
  p.fused = act;
  return p;
}

// An NHWC image resized along H and W: TFLite's coordinates (align_corners / half_pixel_centers in
// `tflite_options`) or ONNX's (scale out / in per axis; tf_crop_and_resize: the region [0.2, 0.9] on H,
// extrapolation value 7.5).
constexpr kernel_params resize(ctnn::op_kind kind, std::int32_t n, std::int32_t h, std::int32_t w, std::int32_t c,
                               std::int32_t out_h, std::int32_t out_w,
                               ctnn::resize_coordinates coordinates = ctnn::resize_coordinates::tflite,
                               std::uint32_t tflite_options = 0,
                               ctnn::nearest_rounding rounding = ctnn::nearest_rounding::round_prefer_floor) {
  kernel_params p{};
  p.kind = kind;
  p.in = ctnn::make_shape(n, h, w, c);
  p.out = ctnn::make_shape(n, out_h, out_w, c);
  ctnn::resize_fields r{};
  r.coordinates = coordinates;
  r.rounding = rounding;
  r.tflite_options = tflite_options;
  r.resized_axes = 0b0110;
  for (std::int32_t d = 1; d <= 2; ++d) {
    ctnn::resize_fields::to_words(r.scale_words, d, static_cast<double>(p.out[d]) / p.in[d]);
    ctnn::resize_fields::to_words(r.length_words, d, p.out[d]);
    r.roi_bits[static_cast<std::size_t>(2 * d)] = std::bit_cast<std::uint32_t>(d == 1 ? 0.2f : 0.0f);
    r.roi_bits[static_cast<std::size_t>(2 * d + 1)] = std::bit_cast<std::uint32_t>(d == 1 ? 0.9f : 1.0f);
  }
  r.extrapolation_bits = std::bit_cast<std::uint32_t>(7.5f);
  p.set(r);
  return p;
}

// A binary op of operands shaped `a` and `b` (numpy broadcasting).
constexpr kernel_params broadcast(ctnn::op_kind kind, ctnn::shape a, ctnn::shape b) {
  kernel_params p{};
  p.kind = kind;
  p.in = a;
  p.in2 = b;
  ctnn::shape_rules::broadcast(a, b, p.out);
  return p;
}

// p with coefficients alpha, beta, gamma.
constexpr kernel_params with_coefficients(kernel_params p, float alpha, float beta, float gamma) {
  p.coefficients.alpha_bits = std::bit_cast<std::uint32_t>(alpha);
  p.coefficients.beta_bits = std::bit_cast<std::uint32_t>(beta);
  p.coefficients.gamma_bits = std::bit_cast<std::uint32_t>(gamma);
  return p;
}

// An activation with coefficients (hard_sigmoid alpha x + beta, leaky_relu's slope alpha).
constexpr kernel_params activation_with(ctnn::op_kind kind, ctnn::shape s, float alpha, float beta = 0.0f) {
  return with_coefficients(elementwise(kind, s), alpha, beta, 0.0f);
}

constexpr kernel_params unary_function(ctnn::math_function f, ctnn::shape s) {
  kernel_params p = elementwise(ctnn::op_kind::unary_function, s);
  p.coefficients.function = f;
  return p;
}

// selu's (alpha, gamma) or celu's alpha.
constexpr kernel_params unary_function_with(ctnn::math_function f, ctnn::shape s, float alpha, float gamma = 0.0f) {
  return with_coefficients(unary_function(f, s), alpha, 0.0f, gamma);
}

// The mean over the last `axes` axes of `in`.
constexpr kernel_params mean_over_last(ctnn::shape in, std::int32_t axes) {
  kernel_params p = elementwise(ctnn::op_kind::mean, in);
  for (std::int32_t d = in.rank - axes; d < in.rank; ++d) p.mean.reduce_axes |= 1u << d;
  p.out = in;
  for (std::int32_t d = in.rank - axes; d < in.rank; ++d) p.out.dims[static_cast<std::size_t>(d)] = 1;
  return p;
}

}  // namespace

#ifndef XSIMD_NO_SUPPORTED_ARCHITECTURE

namespace {

namespace simd = ctnn::kernel::simd;

template <kernel_params P>
void check(double tolerance, std::uint32_t seed) {
  CAPTURE(seed);
  check_kernel<simd::f32_kernel<P>, P>(tolerance, seed);
}

// erf, gelu: double functions other than <cmath>'s, both rounded to float: one float rounding apart at most.
inline constexpr double function_tolerance = 1.2e-7;

// The kernel of P (a unary_function over elements) against the reference's function on [-8, 8] evenly;
// the largest error relative to the reference's value.
template <kernel_params P>
double sweep() {
  const auto n = static_cast<std::size_t>(P.out.elements());
  std::vector<float> x(n), got(n), want(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = -8.0f + 16.0f * static_cast<float>(i) / static_cast<float>(n - 1);
  const float* operands[] = {x.data(), nullptr};
  simd::f32_kernel<P>::run(operands, got.data());
  ctnn::kernel::invoke_f32<P>(operands, want.data());
  double worst = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double error = std::fabs(static_cast<double>(got[i]) - want[i]);
    if (want[i] != 0.0f) worst = std::fmax(worst, error / std::fabs(static_cast<double>(want[i])));
    else CHECK(got[i] == 0.0f);
  }
  return worst;
}

// layer_norm over the last axes of `in` (`axes` of them) with `operands` - 1 of the scale and bias shaped `affine`.
constexpr kernel_params layer_norm(ctnn::shape in, std::int32_t axes, ctnn::shape affine, std::int32_t operands) {
  kernel_params p = elementwise(ctnn::op_kind::layer_norm, in);
  p.in2 = p.in3 = affine;
  p.operand_count = operands;
  for (std::int32_t d = in.rank - axes; d < in.rank; ++d) p.mean.reduce_axes |= 1u << d;
  p.norm.epsilon_bits = std::bit_cast<std::uint32_t>(1e-5f);
  return p;
}

// The layer_norm kernel of P against the reference on random operands (x offset from 0 by 3, so that the mean
// matters); the largest error relative to max(|reference|, 1) (outputs are of order 1, a cancellation of
// normalised * scale against bias leaves no scale to be relative to).
template <kernel_params P>
double check_layer_norm(std::uint32_t seed) {
  static_assert(simd::f32_kernel<P>::supports);
  std::vector<float> x = random_values(static_cast<std::size_t>(P.in.elements()), seed);
  for (auto& v : x) v = 3.0f + 2.0f * v;
  const std::vector<float> scale = random_values(static_cast<std::size_t>(P.in2.elements()), seed + 1),
                           bias = random_values(static_cast<std::size_t>(P.in3.elements()), seed + 2);
  const float* operands[] = {x.data(), scale.data(), bias.data(), nullptr};
  std::vector<float> got(x.size()), want(x.size());
  simd::f32_kernel<P>::run(operands, got.data());
  ctnn::kernel::invoke_f32<P>(operands, want.data());
  double worst = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i)
    worst = std::fmax(worst, std::fabs(static_cast<double>(got[i]) - want[i]) / std::fmax(std::fabs(want[i]), 1.0));
  return worst;
}

// The softmax kernel of P against the reference on random rows in [-4, 4]; the largest error relative to the
// reference's value.
template <kernel_params P>
double check_softmax(std::uint32_t seed) {
  static_assert(simd::f32_kernel<P>::supports);
  std::vector<float> x = random_values(static_cast<std::size_t>(P.in.elements()), seed);
  for (auto& v : x) v *= 4.0f;
  const float* operands[] = {x.data(), nullptr};
  std::vector<float> got(x.size()), want(x.size());
  simd::f32_kernel<P>::run(operands, got.data());
  ctnn::kernel::invoke_f32<P>(operands, want.data());
  double worst = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i)
    worst = std::fmax(worst, std::fabs(static_cast<double>(got[i]) - want[i]) / std::fabs(static_cast<double>(want[i])));
  return worst;
}

// Values that reach every branch of the kernels: signs, zeros, tiny and huge magnitudes, infinities, NaN,
// points where hard_swish / hard_sigmoid / relu6 clamp, and random values in [-5, 5] (where tanh is not yet 1).
inline std::vector<float> probe_values(std::size_t n, std::uint32_t seed) {
  constexpr float specials[] = {0.0f, -0.0f, 1.0f, -1.0f, -3.0f, 3.0f, 6.0f, 2.5f, -2.5f, 1e-30f, -1e-30f, 88.0f, -104.0f,
                                std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                                std::numeric_limits<float>::quiet_NaN()};
  std::vector<float> v = random_values(n, seed);
  for (std::size_t i = 0; i < n; ++i) v[i] = i % 3 == 1 ? specials[(i / 3 + seed) % std::size(specials)] : 5.0f * v[i];
  return v;
}

// The same float to the bit (-0 is not +0), any NaN being the same as any other: which NaN an operation on two
// of them gives depends on the order of its operands, which the compiler may swap in one inlined copy of the
// vector code and not in another (IEEE 754 leaves the payload open).
inline bool same_bits(float x, float y) {
  return (x != x && y != y) || std::bit_cast<std::uint32_t>(x) == std::bit_cast<std::uint32_t>(y);
}

// The vector kernel of P (an element-wise op) on sets of values, each rotated by every count of positions so
// that each value goes through every lane, the vector body and the tail, with operands and result 0..7
// floats into their buffers (every alignment for the first set, one each for the others): each element's
// result bit for bit the same wherever it is computed, and no float written outside the result. Operands of
// fewer elements than the result (a scalar) are not rotated. 64 sets: e^x and tanh in double lanes rounded to
// float differ from <cmath>'s expf and tanhf on about 1 in 1600 and 1 in 15 values, so that a tail on
// <cmath>'s functions shows.
template <kernel_params P>
void check_same_wherever(std::uint32_t seed) {
  const auto n = static_cast<std::size_t>(P.out.elements());
  static_assert(simd::f32_kernel<P>::supports);
  CAPTURE(seed);
  CAPTURE(n);
  constexpr float untouched = -12345.0f;
  std::size_t differences = 0;
  for (std::uint32_t set = 0; set < 64; ++set) {
    CAPTURE(set);
    std::vector<std::vector<float>> values;
    for (std::size_t size : operand_sizes<P>()) values.push_back(probe_values(size, seed + 100 * set + static_cast<std::uint32_t>(values.size())));
    std::vector<float> first;  // at rotation 0
    for (std::size_t rotation = 0; rotation < n; ++rotation)
      for (std::size_t shift = set == 0 ? 0 : set % 8; shift < (set == 0 ? 8 : set % 8 + 1); ++shift) {
        std::vector<std::vector<float>> buffers;
        std::vector<const float*> operands;
        for (const auto& v : values) {
          auto& b = buffers.emplace_back(v.size() + 8, untouched);
          for (std::size_t i = 0; i < v.size(); ++i) b[shift + i] = v.size() == n ? v[(i + rotation) % n] : v[i];
          operands.push_back(b.data() + shift);
        }
        operands.push_back(nullptr);
        std::vector<float> out(n + 8, untouched);
        simd::f32_kernel<P>::run(operands.data(), out.data() + shift);
        if (first.empty()) first.assign(out.begin() + static_cast<std::ptrdiff_t>(shift), out.begin() + static_cast<std::ptrdiff_t>(shift + n));
        for (std::size_t i = 0; i < out.size(); ++i) {
          const bool inside = i >= shift && i < shift + n;
          const bool same = inside ? same_bits(out[i], first[(i - shift + rotation) % n]) : same_bits(out[i], untouched);
          if (!same && differences++ < 3) {
            CAPTURE(rotation);
            CAPTURE(shift);
            CAPTURE(i);
            CAPTURE(out[i]);
            CHECK(same);
          }
        }
      }
  }
  CHECK(differences == 0);
}

// Infinities, NaN, huge finite values and values beyond where e^x, tanh and erf saturate in double (the kernels
// limit their arguments there: kernel/simd/f32/unary.hpp).
inline constexpr float extremes[] = {-std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity(),
                                     std::numeric_limits<float>::quiet_NaN(), 1e30f, -1e30f,
                                     std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(),
                                     800.0f, -800.0f, 400.0f, -400.0f, 0.0f, -0.0f};

// The vector kernel of P (an element-wise function) on the extremes, each at every position of long_row
// elements (vector body and tail): the reference's value to the bit (any NaN for NaN).
template <kernel_params P>
void check_extremes() {
  static_assert(simd::f32_kernel<P>::supports);
  const auto n = static_cast<std::size_t>(P.out.elements());
  for (std::size_t rotation = 0; rotation < n; ++rotation) {
    std::vector<float> x(n), got(n), want(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = extremes[(i + rotation) % std::size(extremes)];
    const float* operands[] = {x.data(), nullptr};
    simd::f32_kernel<P>::run(operands, got.data());
    ctnn::kernel::invoke_f32<P>(operands, want.data());
    for (std::size_t i = 0; i < n; ++i) {
      CAPTURE(x[i]);
      CAPTURE(got[i]);
      CAPTURE(want[i]);
      CHECK(same_bits(got[i], want[i]));
    }
  }
}

// softmax and layer_norm over rows of `depth`: two rows, each with two probes (a at position j and b at the next,
// wrapping) among fillers that add nothing (softmax: -200, whose e^ rounds to 0 in float; layer_norm: 0 with
// b = -a, mean 0), so that the row's largest, sum, mean and variance are exact whatever the probes' positions:
// each probe's result then must not depend on j, on the row, or on the buffers' offsets.
template <kernel_params P>
void check_rows_same_wherever(float filler, std::span<const std::array<float, 2>> probes) {
  static_assert(simd::f32_kernel<P>::supports && P.in.elements() == 2 * P.in.last());
  const auto depth = static_cast<std::size_t>(P.in.last());
  std::size_t differences = 0;
  for (const auto& probe : probes) {
    const float a = probe[0], b = probe[1];  // not a structured binding: clang 14's CAPTURE cannot capture one
    CAPTURE(a);
    CAPTURE(b);
    float result_a = 0.0f, result_b = 0.0f;
    bool first = true;
    for (std::size_t j = 0; j < depth; ++j)
      for (std::size_t shift = 0; shift < 8; ++shift) {
        std::vector<float> in(2 * depth + 8, filler), out(2 * depth + 8, 0.0f);
        const std::size_t positions[2][2] = {{j, (j + 1) % depth}, {(depth - 1 - j), (2 * depth - 2 - j) % depth}};
        for (std::size_t row = 0; row < 2; ++row) {
          in[shift + row * depth + positions[row][0]] = a;
          if (depth > 1) in[shift + row * depth + positions[row][1]] = b;
        }
        const float* operands[] = {in.data() + shift, nullptr};
        simd::f32_kernel<P>::run(operands, out.data() + shift);
        for (std::size_t row = 0; row < 2; ++row) {
          const float got_a = out[shift + row * depth + positions[row][0]];
          const float got_b = depth > 1 ? out[shift + row * depth + positions[row][1]] : result_b;
          if (first) {
            result_a = got_a;
            result_b = got_b;
            first = false;
          }
          const bool same = same_bits(got_a, result_a) && same_bits(got_b, result_b);
          if (!same && differences++ < 3) {
            CAPTURE(j);
            CAPTURE(shift);
            CAPTURE(row);
            CAPTURE(got_a);
            CAPTURE(got_b);
            CHECK(same);
          }
        }
      }
  }
  CHECK(differences == 0);
}

// The lengths the position checks run at: one element (all in the padded tail), and three vectors and one.
inline constexpr std::int32_t long_row = 3 * simd::detail::lanes + 1;

// The tolerance is an argument: clang 14 has no floating-point template parameters.
template <ctnn::op_kind Kind, std::size_t... I>
void check_random(double tolerance, std::index_sequence<I...>) {
  (check<random_window_op(Kind, I + 100, 45)>(tolerance, static_cast<std::uint32_t>(I)), ...);
}

}  // namespace

TEST_CASE("depthwise_conv2d: random shapes, padding at every edge, strides, dilations") {
  check_random<ctnn::op_kind::depthwise_conv2d>(direct_tolerance, std::make_index_sequence<24>{});
}

TEST_CASE("depthwise_conv2d: MobileNet and DS-CNN shapes; multipliers other than 1 use the reference") {
  constexpr auto depthwise = [](std::int32_t h, std::int32_t c, std::int32_t stride) {
    kernel_params p{};
    p.kind = ctnn::op_kind::depthwise_conv2d;
    p.in = ctnn::make_shape(1, h, h, c);
    p.win = {3, 3, stride, stride, 1, 1, ctnn::padding::same, stride == 1 ? 1 : 0, stride == 1 ? 1 : 0, 1, 1};
    p.fused = ctnn::activation::relu6;
    p.has_bias = 1;
    set_output(p, c);
    return p;
  };
  check<depthwise(48, 8, 1)>(direct_tolerance, 1);
  check<depthwise(48, 16, 2)>(direct_tolerance, 2);
  check<depthwise(6, 256, 1)>(direct_tolerance, 3);
  // Rows of whole edge blocks around the interior; channels a fraction of the vector (several pixels per
  // vector in the interior with AVX-512), odd widths.
  check<depthwise(24, 32, 1)>(direct_tolerance, 4);
  check<depthwise(37, 4, 1)>(direct_tolerance, 5);
  check<depthwise(29, 8, 1)>(direct_tolerance, 6);
  check<depthwise(35, 8, 2)>(direct_tolerance, 7);
  check<depthwise(19, 2, 1)>(direct_tolerance, 8);
  constexpr kernel_params multiplier = [] {
    kernel_params p = random_window_op(ctnn::op_kind::depthwise_conv2d, 7, 9);
    p.depth_multiplier = 2;
    set_output(p, 2 * p.in[3]);
    return p;
  }();
  static_assert(!simd::f32_kernel<multiplier>::supports);
}

TEST_CASE("dense: batch rows, unit counts around the vector width, no bias") {
  check<dense(1, 640, 128, ctnn::activation::relu, true)>(direct_tolerance, 1);  // the FC autoencoder
  check<dense(1, 64, 12, ctnn::activation::none, true)>(direct_tolerance, 2);
  check<dense(3, 37, 29, ctnn::activation::relu6, false)>(direct_tolerance, 3);
  check<dense(17, 5, 200, ctnn::activation::none, true)>(direct_tolerance, 4);
  check<dense(1, 1, 1, ctnn::activation::relu, true)>(direct_tolerance, 5);
  static_assert(!simd::f32_kernel<dense(1, 8, 8, ctnn::activation::tanh, true)>::supports);
}

TEST_CASE("max_pool and avg_pool: identical to the reference (same arithmetic, same order)") {
  check_random<ctnn::op_kind::max_pool>(0.0, std::make_index_sequence<10>{});
  check_random<ctnn::op_kind::avg_pool>(0.0, std::make_index_sequence<10>{});
}

TEST_CASE("global_avg_pool, add, mul, relu, relu6: identical to the reference") {
  constexpr auto global = [](std::int32_t n, std::int32_t h, std::int32_t w, std::int32_t c) {
    kernel_params p{};
    p.kind = ctnn::op_kind::global_avg_pool;
    p.in = ctnn::make_shape(n, h, w, c);
    p.out = ctnn::make_shape(n, 1, 1, c);
    return p;
  };
  check<global(1, 8, 8, 64)>(0.0, 1);
  check<global(2, 5, 3, 29)>(0.0, 2);
  check<elementwise(ctnn::op_kind::add, ctnn::make_shape(1, 7, 5, 31), ctnn::activation::relu)>(0.0, 3);
  check<elementwise(ctnn::op_kind::mul, ctnn::make_shape(2, 3, 3, 16), ctnn::activation::relu6)>(0.0, 4);
  check<elementwise(ctnn::op_kind::relu, ctnn::make_shape(1, 77))>(0.0, 5);
  check<elementwise(ctnn::op_kind::relu6, ctnn::make_shape(1, 4, 4, 13))>(0.0, 6);
}

TEST_CASE("sub, div, maximum, minimum and broadcast operands: identical to the reference") {
  using ctnn::make_shape;
  using ctnn::op_kind;
  check<elementwise(op_kind::sub, make_shape(1, 5, 37), ctnn::activation::relu)>(0.0, 1);
  check<elementwise(op_kind::div, make_shape(2, 3, 3, 19), ctnn::activation::relu6)>(0.0, 2);
  check<elementwise(op_kind::maximum, make_shape(1, 53))>(0.0, 3);
  check<elementwise(op_kind::minimum, make_shape(3, 7, 11))>(0.0, 4);
  // LayerNormalization's decomposition: x - mean, / sqrt(variance), * scale, + bias; a bias first.
  check<broadcast(op_kind::sub, make_shape(1, 8, 37), make_shape(1, 8, 1))>(0.0, 5);
  check<broadcast(op_kind::div, make_shape(1, 9, 37), make_shape(1, 9, 1))>(0.0, 6);
  check<broadcast(op_kind::mul, make_shape(1, 8, 37), make_shape(37))>(0.0, 7);
  check<broadcast(op_kind::add, make_shape(67), make_shape(1, 8, 67))>(0.0, 8);
  // Scalars either side (attention's scale, GELU's constants), a row repeated against a column repeated.
  check<broadcast(op_kind::div, make_shape(4, 8, 9), make_shape())>(0.0, 9);
  check<broadcast(op_kind::sub, make_shape(1), make_shape(2, 3, 21))>(0.0, 10);
  check<broadcast(op_kind::maximum, make_shape(5, 1), make_shape(1, 23))>(0.0, 11);
  check<broadcast(op_kind::minimum, make_shape(3, 4, 1, 1), make_shape(3, 4, 5, 7))>(0.0, 12);
  // A middle axis repeated: the reference walks it.
  static_assert(!simd::f32_kernel<broadcast(op_kind::add, make_shape(1, 4, 4, 8), make_shape(4, 1, 8))>::supports);
  static_assert(!simd::f32_kernel<broadcast(op_kind::add, make_shape(8, 1, 32), make_shape(8, 4, 32))>::supports);
}

TEST_CASE("hard_swish, hard_sigmoid, leaky_relu, abs, neg, square, reciprocal, sqrt, rsqrt: the reference's arithmetic; sigmoid, tanh, erf, gelu in double") {
  using ctnn::make_shape;
  using ctnn::op_kind;
  check<elementwise(op_kind::hard_swish, make_shape(1, 5, 5, 37))>(0.0, 1);
  // alpha x + beta: clang may contract the reference's into one fused multiply-add.
  check<activation_with(op_kind::hard_sigmoid, make_shape(1, 3, 3, 43), 0.2f, 0.5f)>(direct_tolerance, 2);
  check<activation_with(op_kind::leaky_relu, make_shape(1, 99), 0.1f)>(0.0, 3);
  check<elementwise(op_kind::abs, make_shape(2, 37))>(0.0, 7);
  check<elementwise(op_kind::neg, make_shape(1, 7, 13))>(0.0, 8);
  check<elementwise(op_kind::square, make_shape(61))>(0.0, 9);
  check<elementwise(op_kind::reciprocal, make_shape(3, 23))>(0.0, 10);
  check<elementwise(op_kind::sqrt, make_shape(1, 8, 1))>(0.0, 11);  // NaN below 0: both NaN
  check<elementwise(op_kind::rsqrt, make_shape(5, 19))>(0.0, 12);
  // e^-x and tanh from double lanes against <cmath>'s expf and tanhf (not exactly rounded): on 4 x 2^20 values
  // in [-20, 20] and narrower, 2.4e-7 and 2.1e-7 relative at most (two float roundings).
  check<elementwise(op_kind::sigmoid, make_shape(1, 7, 7, 37))>(3e-7, 13);
  check<elementwise(op_kind::tanh, make_shape(3, 45))>(3e-7, 14);
  // Within a float rounding of the reference's double values, over [-1, 1] and a sweep out to +-8.
  constexpr std::array functions{ctnn::math_function::erf, ctnn::math_function::gelu, ctnn::math_function::gelu_tanh};
  check<unary_function(functions[0], make_shape(1, 8, 67))>(function_tolerance, 4);
  check<unary_function(functions[1], make_shape(1, 8, 67))>(function_tolerance, 5);
  check<unary_function(functions[2], make_shape(3, 41))>(function_tolerance, 6);
  const double worst = std::max({sweep<unary_function(functions[0], make_shape(4001))>(),
                                 sweep<unary_function(functions[1], make_shape(4001))>(),
                                 sweep<unary_function(functions[2], make_shape(4001))>()});
  MESSAGE("erf, gelu, gelu_tanh: largest error relative to the reference's value ", worst);
  CHECK(worst <= function_tolerance);
  static_assert(!simd::f32_kernel<unary_function(ctnn::math_function::softsign, make_shape(8))>::supports);
  // softplus, selu, celu (double lanes as the reference's double formulas) and elu (the reference's float
  // alpha * expm1f: within two float roundings, as sigmoid).
  check<unary_function(ctnn::math_function::softplus, make_shape(3, 41))>(function_tolerance, 15);
  check<unary_function_with(ctnn::math_function::selu, make_shape(2, 29), 1.6732632f, 1.0507010f)>(function_tolerance, 16);
  check<unary_function_with(ctnn::math_function::celu, make_shape(37), 0.7f)>(function_tolerance, 17);
  check<activation_with(op_kind::elu, make_shape(1, 5, 43), 1.0f)>(3e-7, 18);
}

TEST_CASE("sigmoid, tanh, elu and unary_function's erf, gelu, softplus, selu, celu at infinities, NaN and huge values: the reference's") {
  using ctnn::make_shape;
  using ctnn::op_kind;
  constexpr auto row = make_shape(long_row);
  check_extremes<elementwise(op_kind::sigmoid, row)>();
  check_extremes<elementwise(op_kind::tanh, row)>();
  check_extremes<activation_with(op_kind::elu, row, 0.5f)>();
  check_extremes<unary_function(ctnn::math_function::erf, row)>();
  check_extremes<unary_function(ctnn::math_function::gelu, row)>();
  check_extremes<unary_function(ctnn::math_function::gelu_tanh, row)>();
  check_extremes<unary_function(ctnn::math_function::softplus, row)>();
  check_extremes<unary_function_with(ctnn::math_function::selu, row, 1.6732632f, 1.0507010f)>();
  check_extremes<unary_function_with(ctnn::math_function::celu, row, 0.7f)>();
}

TEST_CASE("mean over the last axes: the sum in double lanes, within the reference's float sum's rounding") {
  using ctnn::make_shape;
  // The reference's float sum in row order: (count - 1) roundings of 2^-24 relative to the sum of magnitudes.
  check<mean_over_last(make_shape(1, 8, 32), 1)>(32 * 6e-8, 1);
  check<mean_over_last(make_shape(2, 5, 67), 1)>(67 * 6e-8, 2);
  check<mean_over_last(make_shape(3, 4, 7), 2)>(28 * 6e-8, 3);
  static_assert(!simd::f32_kernel<[] {
    kernel_params p = mean_over_last(make_shape(2, 6, 5), 1);
    p.mean.reduce_axes = 0b010;  // a middle axis: the reference
    return p;
  }()>::supports);
  // The same row gives the same mean wherever it is (row 0 or 1, 0..7 floats into the buffer).
  constexpr kernel_params two_rows = mean_over_last(make_shape(2, long_row), 1);
  const std::vector<float> row = probe_values(static_cast<std::size_t>(long_row), 3);
  float first = 0.0f;
  for (std::size_t shift = 0; shift < 8; ++shift) {
    std::vector<float> in(2 * row.size() + 8, 0.0f), out(2 + 8, 0.0f);
    std::vector<float> finite = row;
    for (auto& v : finite) v = std::isfinite(v) ? v : 1.5f;
    std::copy(finite.begin(), finite.end(), in.begin() + static_cast<std::ptrdiff_t>(shift));
    std::copy(finite.begin(), finite.end(), in.begin() + static_cast<std::ptrdiff_t>(shift + row.size()));
    const float* operands[] = {in.data() + shift, nullptr};
    simd::f32_kernel<two_rows>::run(operands, out.data() + shift);
    if (shift == 0) first = out[0];
    CHECK(same_bits(out[shift], first));
    CHECK(same_bits(out[shift + 1], first));
  }
}

TEST_CASE("pow by one exponent: x * x at 2, identical to the reference; other exponents the reference's") {
  using ctnn::make_shape;
  constexpr kernel_params power = [] {
    kernel_params p = broadcast(ctnn::op_kind::binary_function, make_shape(1, 8, 37), make_shape());
    p.coefficients.function = ctnn::math_function::pow;
    return p;
  }();
  static_assert(simd::f32_kernel<power>::supports);
  std::vector<float> x = random_values(static_cast<std::size_t>(power.in.elements()), 7);
  x[3] = -0.0f;
  x[5] = std::numeric_limits<float>::infinity();
  x[6] = std::nanf("");
  for (const float exponent : {2.0f, 3.0f, 0.5f}) {
    CAPTURE(exponent);
    const float* operands[] = {x.data(), &exponent, nullptr};
    std::vector<float> got(x.size()), want(x.size());
    simd::f32_kernel<power>::run(operands, got.data());
    ctnn::kernel::invoke_f32<power>(operands, want.data());
    for (std::size_t i = 0; i < x.size(); ++i)
      CHECK(std::bit_cast<std::uint32_t>(got[i]) == std::bit_cast<std::uint32_t>(want[i]));
  }
}

TEST_CASE("softmax over the last axis: exp in double lanes, within a float rounding of the reference") {
  using ctnn::make_shape;
  const double worst = std::max({check_softmax<elementwise(ctnn::op_kind::softmax, make_shape(4, 8, 8))>(1),
                                 check_softmax<elementwise(ctnn::op_kind::softmax, make_shape(3, 37))>(2),
                                 check_softmax<elementwise(ctnn::op_kind::softmax, make_shape(1, 1001))>(3)});
  MESSAGE("softmax: largest error relative to the reference's value ", worst);
  CHECK(worst <= 2.0 * function_tolerance);
  static_assert(!simd::f32_kernel<elementwise(ctnn::op_kind::softmax, make_shape(5, 1))>::supports);  // fewer than a vector
}

TEST_CASE("softmax: masked entries (-inf) give 0, a row of -inf or with +inf or NaN gives NaN, as the reference") {
  constexpr float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  constexpr kernel_params p = elementwise(ctnn::op_kind::softmax, ctnn::make_shape(6, long_row));
  const auto depth = static_cast<std::size_t>(long_row);
  std::vector<float> x = random_values(6 * depth, 7);
  for (std::size_t i = 0; i < depth; ++i) {
    if (i % 3 != 0) x[i] = -inf;         // row 0: two thirds masked (a causal mask's)
    if (i + 1 < depth) x[depth + i] = -inf;  // row 1: all masked but the last
    x[2 * depth + i] = -inf;             // row 2: all masked: -inf - -inf is NaN
  }
  x[3 * depth + 2] = inf;                // row 3: +inf - +inf is NaN
  x[4 * depth + depth - 1] = nan;        // row 4: NaN in the tail
  x[5 * depth] = -3e38f;                 // row 5: a huge finite value (e^ of it less the largest is 0)
  const float* operands[] = {x.data(), nullptr};
  std::vector<float> got(x.size()), want(x.size());
  simd::f32_kernel<p>::run(operands, got.data());
  ctnn::kernel::invoke_f32<p>(operands, want.data());
  for (std::size_t i = 0; i < x.size(); ++i) {
    CAPTURE(i);
    CAPTURE(got[i]);
    CAPTURE(want[i]);
    if (want[i] != want[i] || want[i] == 0.0f) CHECK(same_bits(got[i], want[i]));
    else CHECK(std::fabs(static_cast<double>(got[i]) - want[i]) <= 2.0 * function_tolerance * want[i]);
  }
  CHECK(want[2 * depth] != want[2 * depth]);
  CHECK(want[0] != 0.0f);
  CHECK(want[1] == 0.0f);
  CHECK(want[2 * depth - 1] == 1.0f);
}

TEST_CASE("layer_norm over the last axes: mean and variance in double, within a float rounding of the reference") {
  using ctnn::make_shape;
  const double worst = std::max({check_layer_norm<layer_norm(make_shape(1, 8, 32), 1, make_shape(32), 3)>(1),
                                 check_layer_norm<layer_norm(make_shape(2, 5, 67), 1, make_shape(67), 2)>(2),
                                 check_layer_norm<layer_norm(make_shape(3, 4, 7), 2, make_shape(4, 7), 3)>(3),
                                 check_layer_norm<layer_norm(make_shape(4, 9), 1, make_shape(), 3)>(4),
                                 check_layer_norm<layer_norm(make_shape(3, 37), 1, make_shape(3, 37), 1)>(5)});
  MESSAGE("layer_norm: largest error relative to max(|reference|, 1) ", worst);
  CHECK(worst <= 2.0 * function_tolerance);
  // Axes not at the end (InstanceNormalization's layout NCHW over H, W is at the end; over C it is not).
  static_assert(!simd::f32_kernel<[] {
    kernel_params p = layer_norm(make_shape(2, 6, 5), 1, make_shape(6, 1), 3);
    p.mean.reduce_axes = 0b010;
    return p;
  }()>::supports);
}

TEST_CASE("every element computed by one formula: results independent of position, vector body or tail, and offsets") {
  using ctnn::make_shape;
  using ctnn::op_kind;
  // Element-wise functions (float lanes and double lanes), at 1 and 3 vectors + 1 elements.
  static constexpr std::array kinds{op_kind::sigmoid, op_kind::tanh, op_kind::hard_swish, op_kind::leaky_relu, op_kind::abs,
                                    op_kind::neg,     op_kind::square, op_kind::reciprocal, op_kind::sqrt,      op_kind::rsqrt};
  []<std::size_t... K>(std::index_sequence<K...>) {
    (check_same_wherever<activation_with(kinds[K], make_shape(1), 0.1f)>(static_cast<std::uint32_t>(K)), ...);
    (check_same_wherever<activation_with(kinds[K], make_shape(long_row), 0.1f)>(static_cast<std::uint32_t>(K)), ...);
  }(std::make_index_sequence<kinds.size()>{});
  check_same_wherever<activation_with(op_kind::hard_sigmoid, make_shape(long_row), 0.2f, 0.5f)>(20);
  check_same_wherever<activation_with(op_kind::elu, make_shape(long_row), 1.0f)>(21);
  check_same_wherever<unary_function(ctnn::math_function::softplus, make_shape(long_row))>(22);
  check_same_wherever<unary_function_with(ctnn::math_function::selu, make_shape(long_row), 1.6732632f, 1.0507010f)>(23);
  check_same_wherever<unary_function_with(ctnn::math_function::celu, make_shape(long_row), 0.7f)>(24);
  static constexpr std::array functions{ctnn::math_function::erf, ctnn::math_function::gelu, ctnn::math_function::gelu_tanh};
  []<std::size_t... K>(std::index_sequence<K...>) {
    (check_same_wherever<unary_function(functions[K], make_shape(1))>(static_cast<std::uint32_t>(30 + K)), ...);
    (check_same_wherever<unary_function(functions[K], make_shape(long_row))>(static_cast<std::uint32_t>(30 + K)), ...);
  }(std::make_index_sequence<functions.size()>{});
  // Binary ops, whole operands and a scalar; pow by 2 (x * x, as the vector code's).
  check_same_wherever<elementwise(op_kind::sub, make_shape(long_row), ctnn::activation::relu6)>(40);
  check_same_wherever<elementwise(op_kind::div, make_shape(long_row))>(41);
  check_same_wherever<elementwise(op_kind::maximum, make_shape(long_row))>(42);
  check_same_wherever<elementwise(op_kind::minimum, make_shape(long_row))>(43);
  check_same_wherever<broadcast(op_kind::div, make_shape(long_row), make_shape())>(44);
  constexpr kernel_params square = [] {
    kernel_params p = broadcast(op_kind::binary_function, make_shape(long_row), make_shape());
    p.coefficients.function = ctnn::math_function::pow;
    return p;
  }();
  std::vector<float> x = probe_values(static_cast<std::size_t>(long_row), 45), power(x.size());
  const float exponent = 2.0f;
  const float* operands[] = {x.data(), &exponent, nullptr};
  simd::f32_kernel<square>::run(operands, power.data());
  for (std::size_t i = 0; i < x.size(); ++i) CHECK(same_bits(power[i], x[i] * x[i]));
  // softmax (from the shortest row it takes) and layer_norm over the last axis.
  constexpr auto shortest = static_cast<std::int32_t>(simd::detail::double_vector::size);
  constexpr std::array<std::array<float, 2>, 4> softmax_probes{{{0.0f, -1.0f}, {3.25f, 2.0f}, {-7.5f, -0.1f}, {1e-3f, 60.0f}}};
  check_rows_same_wherever<elementwise(op_kind::softmax, make_shape(2, shortest))>(-200.0f, softmax_probes);
  check_rows_same_wherever<elementwise(op_kind::softmax, make_shape(2, long_row))>(-200.0f, softmax_probes);
  constexpr std::array<std::array<float, 2>, 3> norm_probes{{{1.0f, -1.0f}, {0.3f, -0.3f}, {1234.5f, -1234.5f}}};
  check_rows_same_wherever<layer_norm(make_shape(2, 2), 1, make_shape(), 1)>(0.0f, norm_probes);
  check_rows_same_wherever<layer_norm(make_shape(2, long_row), 1, make_shape(), 1)>(0.0f, norm_probes);
}

TEST_CASE("resize_nearest: identical to the reference (TFLite's and ONNX's coordinates, up and down)") {
  using ctnn::op_kind;
  using rc = ctnn::resize_coordinates;
  constexpr std::uint32_t align = ctnn::resize_fields::align_corners_bit, half = ctnn::resize_fields::half_pixel_centers_bit;
  check<resize(op_kind::resize_nearest, 1, 8, 8, 32, 16, 16)>(0.0, 1);
  check<resize(op_kind::resize_nearest, 2, 5, 7, 13, 11, 3, rc::tflite, align)>(0.0, 2);
  check<resize(op_kind::resize_nearest, 1, 6, 4, 3, 9, 13, rc::tflite, half)>(0.0, 3);
  check<resize(op_kind::resize_nearest, 1, 7, 5, 19, 4, 12, rc::half_pixel, 0, ctnn::nearest_rounding::round_prefer_ceil)>(0.0, 4);
  check<resize(op_kind::resize_nearest, 1, 4, 6, 8, 10, 9, rc::asymmetric, 0, ctnn::nearest_rounding::floor)>(0.0, 5);
  check<resize(op_kind::resize_nearest, 2, 6, 5, 17, 7, 8, rc::tf_crop_and_resize)>(0.0, 6);  // extrapolated rows
  constexpr kernel_params channels_too = [] {
    kernel_params p = resize(op_kind::resize_nearest, 1, 4, 4, 8, 8, 8);
    ctnn::resize_fields r = p.resize();
    r.resized_axes = 0b1110;
    p.set(r);
    p.out = ctnn::make_shape(1, 8, 8, 16);
    return p;
  }();
  static_assert(!simd::f32_kernel<channels_too>::supports);
}

TEST_CASE("resize_linear (TFLite's bilinear): the reference's arithmetic in its order") {
  using ctnn::op_kind;
  using rc = ctnn::resize_coordinates;
  constexpr std::uint32_t align = ctnn::resize_fields::align_corners_bit, half = ctnn::resize_fields::half_pixel_centers_bit;
  // Not 0: compilers may contract the reference's coordinate and weighting arithmetic into fused
  // multiply-adds at run time (g++'s default -ffp-contract=fast), while the kernel's coordinates are folded
  // at compile time unfused: one rounding of a coordinate moves a result by ~1e-6 of its magnitude. The
  // op-family suites' relative tolerance.
  constexpr double coordinate_tolerance = 1e-5;
  check<resize(op_kind::resize_linear, 1, 8, 8, 32, 16, 16)>(coordinate_tolerance, 11);
  check<resize(op_kind::resize_linear, 2, 5, 7, 13, 11, 3, rc::tflite, align)>(coordinate_tolerance, 12);
  check<resize(op_kind::resize_linear, 1, 6, 4, 3, 9, 13, rc::tflite, half)>(coordinate_tolerance, 13);
  check<resize(op_kind::resize_linear, 1, 9, 9, 21, 4, 5, rc::tflite, half)>(coordinate_tolerance, 14);  // shrinking
  static_assert(!simd::f32_kernel<resize(op_kind::resize_linear, 1, 4, 4, 8, 8, 8, rc::half_pixel)>::supports,
                "ONNX's linear mode (summed in double) stays with the reference kernel");
}

#else
TEST_CASE("no SIMD architecture: depthwise, dense, pool, element-wise and resize calls get the reference kernel") {
  check_reference_kernel_chosen<random_window_op(ctnn::op_kind::depthwise_conv2d, 100, 45)>();
  check_reference_kernel_chosen<dense(4, 37, 19, ctnn::activation::relu, true)>();
  check_reference_kernel_chosen<random_window_op(ctnn::op_kind::max_pool, 101, 45)>();
  check_reference_kernel_chosen<elementwise(ctnn::op_kind::add, ctnn::make_shape(1, 4, 4, 13))>();
  check_reference_kernel_chosen<elementwise(ctnn::op_kind::relu6, ctnn::make_shape(1, 77))>();
  check_reference_kernel_chosen<resize(ctnn::op_kind::resize_nearest, 1, 8, 8, 32, 16, 16)>();
  check_reference_kernel_chosen<resize(ctnn::op_kind::resize_linear, 1, 8, 8, 32, 16, 16)>();
}
#endif
