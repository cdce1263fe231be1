#pragma once
// Reference float32 convolutions, NHWC. conv2d: OHWI weights (OHW(I/groups) when grouped);
// depthwise_conv2d: 1HWC weights, output channel = input channel * multiplier + m (TFLite).
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/activation.hpp>

namespace ctnn::kernel::reference {

template <kernel_params P>
void conv2d(const float* input, const float* weights, const float* bias, float* output) {
  constexpr auto in = nhwc::of(P.in);
  constexpr auto out = nhwc::of(P.out);
  constexpr window w = P.win;
  constexpr std::int32_t in_per_group = in.c / P.groups;
  constexpr std::int32_t out_per_group = out.c / P.groups;
  for (std::int32_t b = 0; b < out.n; ++b)
    for (std::int32_t oy = 0; oy < out.h; ++oy)
      for (std::int32_t ox = 0; ox < out.w; ++ox)
        for (std::int32_t oc = 0; oc < out.c; ++oc) {
          const std::int32_t first_ic = (oc / out_per_group) * in_per_group;
          float acc = P.has_bias ? bias[oc] : 0.0f;
          for (std::int32_t ky = 0; ky < w.kernel_h; ++ky) {
            const std::int32_t iy = oy * w.stride_h - w.pad_top + ky * w.dilation_h;
            if (iy < 0 || iy >= in.h) continue;
            for (std::int32_t kx = 0; kx < w.kernel_w; ++kx) {
              const std::int32_t ix = ox * w.stride_w - w.pad_left + kx * w.dilation_w;
              if (ix < 0 || ix >= in.w) continue;
              const float* pixel = input + ((b * in.h + iy) * in.w + ix) * in.c + first_ic;
              const float* filter = weights + ((oc * w.kernel_h + ky) * w.kernel_w + kx) * in_per_group;
              for (std::int32_t ic = 0; ic < in_per_group; ++ic) acc += pixel[ic] * filter[ic];
            }
          }
          output[((b * out.h + oy) * out.w + ox) * out.c + oc] = activate<P.fused>(acc);
        }
}

template <kernel_params P>
void depthwise_conv2d(const float* input, const float* weights, const float* bias, float* output) {
  constexpr auto in = nhwc::of(P.in);
  constexpr auto out = nhwc::of(P.out);
  constexpr window w = P.win;
  for (std::int32_t b = 0; b < out.n; ++b)
    for (std::int32_t oy = 0; oy < out.h; ++oy)
      for (std::int32_t ox = 0; ox < out.w; ++ox)
        for (std::int32_t oc = 0; oc < out.c; ++oc) {
          const std::int32_t ic = oc / P.depth_multiplier;
          float acc = P.has_bias ? bias[oc] : 0.0f;
          for (std::int32_t ky = 0; ky < w.kernel_h; ++ky) {
            const std::int32_t iy = oy * w.stride_h - w.pad_top + ky * w.dilation_h;
            if (iy < 0 || iy >= in.h) continue;
            for (std::int32_t kx = 0; kx < w.kernel_w; ++kx) {
              const std::int32_t ix = ox * w.stride_w - w.pad_left + kx * w.dilation_w;
              if (ix < 0 || ix >= in.w) continue;
              acc += input[((b * in.h + iy) * in.w + ix) * in.c + ic] * weights[(ky * w.kernel_w + kx) * out.c + oc];
            }
          }
          output[((b * out.h + oy) * out.w + ox) * out.c + oc] = activate<P.fused>(acc);
        }
}

}  // namespace ctnn::kernel::reference
