// The vector transpose_conv2d kernel (gather form by stride phase) against the reference kernel on random
// shapes: odd sizes and channel counts, strides 1-3, dilation, padding at every edge, output padding,
// with and without bias, fused activations; and the layers of the tconv op family.
#include <cstdio>

#include <ctnn/kernel/simd/f32.hpp>

#include "kernel/simd/simd_f32_support.hpp"

namespace {

using namespace simd_f32_test;

// A transposed convolution: each input pixel spread over a k x k window `stride` apart, `pad` cut from the
// top/left, `pad_end` from the bottom/right, `output_padding` added there (ONNX's output_padding).
constexpr kernel_params tconv(std::int32_t n, std::int32_t h, std::int32_t w, std::int32_t c, std::int32_t oc, std::int32_t k,
                              std::int32_t stride, std::int32_t pad, std::int32_t pad_end, std::int32_t output_padding = 0,
                              ctnn::activation act = ctnn::activation::none, bool bias = true) {
  kernel_params p{};
  p.kind = ctnn::op_kind::transpose_conv2d;
  p.in = ctnn::make_shape(n, h, w, c);
  p.win.kernel_h = p.win.kernel_w = k;
  p.win.stride_h = p.win.stride_w = stride;
  p.win.pad_top = p.win.pad_left = pad;
  p.win.pad_bottom = p.win.pad_right = pad_end;
  p.fused = act;
  p.has_bias = bias ? 1 : 0;
  const std::int32_t oh = (h - 1) * stride + k - pad - pad_end + output_padding;
  const std::int32_t ow = (w - 1) * stride + k - pad - pad_end + output_padding;
  p.out = ctnn::make_shape(n, oh, ow, oc);
  return p;
}

// Random shape, window (1-5 x 1-5), strides 1-3 and dilations 1-2 per axis, padding 0..extent-1 at each
// edge, output padding below the stride, activation and bias.
constexpr kernel_params random_tconv(std::uint32_t seed) {
  kernel_params p{};
  p.kind = ctnn::op_kind::transpose_conv2d;
  auto& w = p.win;
  w.kernel_h = pick(seed, 1, 1, 5);
  w.kernel_w = pick(seed, 2, 1, 5);
  w.stride_h = pick(seed, 3, 1, 3);
  w.stride_w = pick(seed, 4, 1, 3);
  w.dilation_h = pick(seed, 5, 1, 2);
  w.dilation_w = pick(seed, 6, 1, 2);
  const std::int32_t extent_h = (w.kernel_h - 1) * w.dilation_h + 1, extent_w = (w.kernel_w - 1) * w.dilation_w + 1;
  w.pad_top = pick(seed, 7, 0, extent_h - 1);
  w.pad_bottom = pick(seed, 8, 0, extent_h - 1);
  w.pad_left = pick(seed, 9, 0, extent_w - 1);
  w.pad_right = pick(seed, 10, 0, extent_w - 1);
  const std::int32_t in_h = pick(seed, 11, 1, 9), in_w = pick(seed, 12, 1, 11);
  p.in = ctnn::make_shape(pick(seed, 13, 1, 2), in_h, in_w, pick(seed, 14, 1, 37));
  const std::int32_t out_h = (in_h - 1) * w.stride_h + extent_h - w.pad_top - w.pad_bottom + pick(seed, 15, 0, w.stride_h - 1);
  const std::int32_t out_w = (in_w - 1) * w.stride_w + extent_w - w.pad_left - w.pad_right + pick(seed, 16, 0, w.stride_w - 1);
  p.out = ctnn::make_shape(p.in[0], out_h < 1 ? 1 : out_h, out_w < 1 ? 1 : out_w, pick(seed, 17, 1, 45));
  p.fused = static_cast<ctnn::activation>(pick(seed, 18, 0, 2));  // none, relu, relu6
  p.has_bias = pick(seed, 19, 0, 3) != 0;
  return p;
}

}  // namespace

#ifndef XSIMD_NO_SUPPORTED_ARCHITECTURE

namespace {

namespace f32 = ctnn::kernel::simd::f32;

template <kernel_params P>
void check_tconv(std::uint32_t seed) {
  CAPTURE(seed);
  static_assert(ctnn::kernel::simd::f32_kernel<P>::supports);
  check_kernel<f32::transpose_conv2d<P>, P>(direct_tolerance, seed);
}

template <std::size_t... I>
void check_random_tconvs(std::index_sequence<I...>) {
  (check_tconv<random_tconv(static_cast<std::uint32_t>(I))>(static_cast<std::uint32_t>(100 + I)), ...);
}

}  // namespace

TEST_CASE("transpose_conv2d: random shapes, strides 1-3, dilations, padding at every edge, output padding") {
  check_random_tconvs(std::make_index_sequence<48>{});
}

TEST_CASE("transpose_conv2d: decoder layers, channel counts around the vector width") {
  check_tconv<tconv(1, 16, 16, 32, 16, 4, 2, 1, 1)>(1);                                // 16x16x32 -> 32x32x16
  check_tconv<tconv(1, 7, 9, 16, 17, 3, 2, 1, 1, 1, ctnn::activation::relu)>(2);         // ONNX output_padding
  check_tconv<tconv(2, 5, 6, 13, 40, 3, 2, 0, 0, 0, ctnn::activation::relu6, false)>(3);  // VALID, no bias
  check_tconv<tconv(1, 4, 5, 8, 3, 5, 3, 2, 1, 2)>(4);                                   // stride 3, 3 outputs
  check_tconv<tconv(1, 6, 6, 9, 24, 3, 1, 1, 1)>(5);                                     // stride 1 SAME
  check_tconv<tconv(1, 3, 3, 5, 7, 2, 3, 0, 0)>(6);                                      // stride > kernel: bias-only pixels
  check_tconv<tconv(1, 1, 1, 64, 70, 4, 2, 0, 0)>(7);                                    // one input pixel
}

TEST_CASE("transpose_conv2d: grouped and sigmoid calls stay with the reference kernel") {
  constexpr kernel_params grouped = [] {
    kernel_params p = tconv(1, 5, 5, 8, 8, 3, 2, 1, 1);
    p.groups = 2;
    return p;
  }();
  static_assert(!ctnn::kernel::simd::f32_kernel<grouped>::supports);
  static_assert(!ctnn::kernel::simd::f32_kernel<tconv(1, 5, 5, 8, 8, 3, 2, 1, 1, 0, ctnn::activation::sigmoid)>::supports);
}

#else
TEST_CASE("no SIMD architecture: transpose_conv2d calls get the reference kernel") {
  check_reference_kernel_chosen<tconv(1, 16, 16, 32, 16, 4, 2, 1, 1)>();
}
#endif
