// Vector conv2d kernels (direct register-blocked, pointwise, Winograd) against the reference conv2d on
// random shapes: odd sizes and channel counts, padding at every edge, stride 2, dilation, activations.
#include <cstdio>

#include <ctnn/kernel/simd/f32.hpp>

#include "kernels/simd_f32_support.hpp"

#ifndef XSIMD_NO_SUPPORTED_ARCHITECTURE

namespace {

using namespace simd_f32_test;
namespace f32 = ctnn::kernel::simd::f32;

constexpr kernel_params conv(std::int32_t n, std::int32_t h, std::int32_t w, std::int32_t c, std::int32_t oc, std::int32_t k,
                             std::int32_t stride, std::int32_t pad, ctnn::activation act = ctnn::activation::relu) {
  kernel_params p{};
  p.kind = ctnn::op_kind::conv2d;
  p.in = ctnn::make_shape(n, h, w, c);
  p.win.kernel_h = p.win.kernel_w = k;
  p.win.stride_h = p.win.stride_w = stride;
  p.win.pad_top = p.win.pad_left = p.win.pad_bottom = p.win.pad_right = pad;
  p.fused = act;
  p.has_bias = 1;
  set_output(p, oc);
  return p;
}

template <kernel_params P>
void check_conv(std::uint32_t seed) {
  CAPTURE(seed);
  double worst = check_kernel<f32::conv2d<P>, P>(direct_tolerance, seed);
  if constexpr (f32::winograd_conv2d<P>::supports) {
    worst = check_kernel<f32::winograd_conv2d<P>, P>(winograd_tolerance, seed);
    MESSAGE("winograd: largest error / magnitude " << worst);
  }
  static_assert(ctnn::kernel::simd::f32_kernel<P>::supports);
}

template <std::size_t... I>
void check_random_convs(std::index_sequence<I...>) {
  (check_conv<random_window_op(ctnn::op_kind::conv2d, I, 37)>(static_cast<std::uint32_t>(I)), ...);
}

}  // namespace

TEST_CASE("conv2d: random shapes, padding at every edge, strides, dilations") {
  check_random_convs(std::make_index_sequence<40>{});
}

TEST_CASE("conv2d: pointwise (1x1) as one product, channel counts around the vector width") {
  check_conv<conv(1, 7, 9, 16, 32, 1, 1, 0)>(1);
  check_conv<conv(2, 5, 5, 13, 45, 1, 1, 0, ctnn::activation::relu6)>(2);
  check_conv<conv(1, 25, 5, 64, 64, 1, 1, 0)>(3);  // DS-CNN's pointwise layers
  check_conv<conv(1, 6, 6, 8, 200, 1, 1, 0, ctnn::activation::none)>(4);
  check_conv<conv(1, 9, 9, 3, 5, 1, 2, 0)>(5);  // 1x1 stride 2: not one product
}

TEST_CASE("conv2d: 3x3 stride 1 (Winograd), odd output sizes, no bias") {
  check_conv<conv(1, 32, 32, 16, 16, 3, 1, 1)>(11);  // ResNet-8
  check_conv<conv(2, 7, 5, 9, 17, 3, 1, 1, ctnn::activation::relu6)>(12);
  check_conv<conv(1, 6, 9, 33, 8, 3, 1, 0, ctnn::activation::none)>(13);
  constexpr kernel_params no_bias = [] {
    kernel_params p = conv(1, 11, 4, 24, 40, 3, 1, 1);
    p.has_bias = 0;
    return p;
  }();
  check_conv<no_bias>(14);
}

TEST_CASE("conv2d: DS-CNN's first layer (10x4, stride 2, one input channel)") {
  constexpr kernel_params first = [] {
    kernel_params p{};
    p.kind = ctnn::op_kind::conv2d;
    p.in = ctnn::make_shape(1, 49, 10, 1);
    p.win = {10, 4, 2, 2, 1, 1, ctnn::padding::same, 4, 1, 5, 2};
    p.fused = ctnn::activation::relu;
    p.has_bias = 1;
    set_output(p, 64);
    return p;
  }();
  check_conv<first>(21);
}

TEST_CASE("conv2d: grouped convolutions and sigmoid stay with the reference kernel") {
  constexpr kernel_params grouped = [] {
    kernel_params p = conv(1, 5, 5, 8, 8, 3, 1, 1);
    p.groups = 2;
    return p;
  }();
  static_assert(!ctnn::kernel::simd::f32_kernel<grouped>::supports);
  static_assert(!ctnn::kernel::simd::f32_kernel<conv(1, 5, 5, 8, 8, 3, 1, 1, ctnn::activation::sigmoid)>::supports);
  static_assert(ctnn::kernel::simd::f32_kernel<conv(1, 5, 5, 8, 8, 3, 1, 1, ctnn::activation::relu6)>::supports);
}

#else
TEST_CASE("no SIMD architecture: every call uses the reference kernels") {}
#endif
