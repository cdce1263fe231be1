// Vector depthwise conv2d, dense, pooling and element-wise kernels against the reference kernels on
// random shapes (odd channel counts: every narrower vector tier and the scalar tail, padding at every
// edge, stride 2, dilation).
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

#else
TEST_CASE("no SIMD architecture: depthwise, dense, pool and element-wise calls get the reference kernel") {
  check_reference_kernel_chosen<random_window_op(ctnn::op_kind::depthwise_conv2d, 100, 45)>();
  check_reference_kernel_chosen<dense(4, 37, 19, ctnn::activation::relu, true)>();
  check_reference_kernel_chosen<random_window_op(ctnn::op_kind::max_pool, 101, 45)>();
  check_reference_kernel_chosen<elementwise(ctnn::op_kind::add, ctnn::make_shape(1, 4, 4, 13))>();
  check_reference_kernel_chosen<elementwise(ctnn::op_kind::relu6, ctnn::make_shape(1, 77))>();
}
#endif
