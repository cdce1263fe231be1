// Vector depthwise conv2d, dense, pooling, element-wise and resize kernels against the reference kernels on
// random shapes (odd channel counts: every narrower vector tier and the scalar tail, padding at every
// edge, stride 2, dilation).
#include <bit>

#include <ctnn/kernel/simd/f32.hpp>

#include "kernels/simd_f32_support.hpp"

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
  auto& r = p.resize;
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
  constexpr kernel_params broadcast = [] {
    kernel_params p = elementwise(ctnn::op_kind::add, ctnn::make_shape(1, 4, 4, 8));
    p.in2 = ctnn::make_shape(8);
    return p;
  }();
  static_assert(!simd::f32_kernel<broadcast>::supports);
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
    p.resize.resized_axes = 0b1110;
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
