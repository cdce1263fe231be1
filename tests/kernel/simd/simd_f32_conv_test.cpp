// Vector conv2d kernels (direct register-blocked, pointwise, Winograd) against the reference conv2d on
// random shapes: odd sizes and channel counts, padding at every edge, stride 2, dilation, activations.
#include <cstdio>

#include <ctnn/kernel/simd/f32.hpp>

#include "kernel/simd/simd_f32_support.hpp"

namespace {

using namespace simd_f32_test;

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

}  // namespace

#ifndef XSIMD_NO_SUPPORTED_ARCHITECTURE

namespace {

namespace f32 = ctnn::kernel::simd::f32;

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

// A conv with each edge's padding of its own.
constexpr kernel_params padded_conv(std::int32_t n, std::int32_t h, std::int32_t w, std::int32_t c, std::int32_t oc,
                                    std::int32_t k, std::int32_t stride, std::int32_t top, std::int32_t left,
                                    std::int32_t bottom, std::int32_t right) {
  kernel_params p = conv(n, h, w, c, oc, k, stride, 0);
  p.win.pad_top = top, p.win.pad_left = left, p.win.pad_bottom = bottom, p.win.pad_right = right;
  set_output(p, oc);
  return p;
}

TEST_CASE("conv2d: stride 2 over vector-wide input channels (edges gathered with in-place pixels, blocks within L1)") {
  check_conv<conv(1, 16, 16, 32, 64, 3, 2, 1)>(31);  // ResNet-8's stride-2 convs
  check_conv<conv(1, 32, 32, 16, 32, 3, 2, 1)>(32);
  check_conv<padded_conv(1, 15, 13, 19, 70, 3, 2, 0, 1, 1, 0)>(33);  // odd sizes and channel counts, one pad per edge
  check_conv<padded_conv(2, 9, 11, 40, 33, 3, 2, 1, 0, 0, 1)>(34);
  check_conv<padded_conv(1, 7, 23, 48, 20, 5, 2, 2, 2, 1, 2)>(35);  // 5x5x48 taps: the narrowest blocks
  check_conv<padded_conv(1, 6, 40, 17, 24, 3, 1, 1, 2, 1, 2)>(36);  // stride 1 with dilation: the direct kernel
}

TEST_CASE("conv2d: half a vector of output channels (two pixels per 512-bit vector), odd rows and blocks") {
  check_conv<conv(1, 96, 96, 3, 8, 3, 2, 1, ctnn::activation::relu6)>(41);  // MobileNet 0.25's first conv
  check_conv<padded_conv(1, 13, 29, 3, 8, 3, 2, 0, 1, 1, 0)>(42);
  check_conv<padded_conv(2, 9, 31, 5, 8, 3, 1, 1, 0, 0, 1)>(43);  // stride 1: Step + Depth = 10 lanes
  check_conv<conv(1, 7, 21, 7, 8, 3, 2, 1)>(44);                 // a pair's inputs wider than a vector
  check_conv<conv(1, 5, 7, 16, 8, 1, 1, 0, ctnn::activation::none)>(45);  // pointwise, 35 pixels
}

// The block planning: with a depth, a block's weights fit the L1 budget (or the block is one vector)
// without wasting more lanes; without one (dense, Winograd) and for single-row products nothing changes.
namespace plan {
using ctnn::kernel::simd::detail::gemm_blocking;
using ctnn::kernel::simd::detail::l1_weight_bytes;
using ctnn::kernel::simd::detail::lanes;
using ctnn::kernel::simd::detail::plan_gemm;
constexpr bool same(gemm_blocking a, gemm_blocking b) {
  return a.vectors_per_block == b.vectors_per_block && a.blocks == b.blocks && a.pixels_per_block == b.pixels_per_block;
}
constexpr bool within_l1(gemm_blocking b, long depth) {
  return depth * b.block_width() * static_cast<long>(sizeof(float)) <= l1_weight_bytes || b.vectors_per_block == 1;
}
constexpr gemm_blocking resnet8_stride2 = plan_gemm(64, 8, 3 * 3 * 32);
static_assert(within_l1(resnet8_stride2, 3 * 3 * 32) && resnet8_stride2.padded_outputs() == 64);
static_assert(resnet8_stride2.pixels_per_block * resnet8_stride2.vectors_per_block >= 8, "enough accumulator chains");
static_assert(within_l1(plan_gemm(200, 49, 3 * 3 * 64), 3 * 3 * 64));
static_assert(same(plan_gemm(64, 8, 3), plan_gemm(64, 8)), "small depths keep the widest block");
static_assert(same(plan_gemm(640, 1, 1 << 20), plan_gemm(640, 1)), "a single row reads each weight once anyway");
static_assert(plan_gemm(3 * lanes, 100, 1 << 20).vectors_per_block == 1, "nothing wider fits: one vector");
}  // namespace plan

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
TEST_CASE("no SIMD architecture: conv2d calls the vector kernels run elsewhere get the reference kernel") {
  check_reference_kernel_chosen<conv(1, 5, 5, 8, 8, 3, 1, 1, ctnn::activation::relu6)>();  // direct, 3x3
  check_reference_kernel_chosen<conv(1, 7, 7, 16, 24, 1, 1, 0)>();                         // pointwise
  check_reference_kernel_chosen<conv(1, 9, 9, 8, 8, 3, 2, 1)>();                           // stride 2
}
#endif
