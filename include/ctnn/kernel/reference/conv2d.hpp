#pragma once
// Reference float32 convolutions, NHWC. conv2d: OHWI weights (OHW(I/groups) when grouped);
// depthwise_conv2d: 1HWC weights, output channel = input channel * multiplier + m (TFLite).
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/activation.hpp>
#include <ctnn/kernel/reference/window.hpp>

namespace ctnn::kernel::reference {

template <kernel_params P>
constexpr void conv2d(const float* input, const float* weights, const float* bias, float* output) {
  constexpr auto in = nhwc::of(P.in);
  constexpr std::int32_t in_per_group = in.c / P.groups;
  constexpr std::int32_t out_per_group = P.out[3] / P.groups;
  for_each_output_element<P>([&](std::int32_t b, std::int32_t oy, std::int32_t ox, std::int32_t oc, std::int64_t at) {
    const std::int32_t first_ic = (oc / out_per_group) * in_per_group;
    float acc = P.has_bias ? bias[oc] : 0.0f;
    for_each_window_tap<P>(oy, ox, [&](std::int32_t iy, std::int32_t ix, std::int32_t ky, std::int32_t kx) {
      const float* pixel = input + ((b * in.h + iy) * in.w + ix) * in.c + first_ic;
      const float* filter = weights + ((oc * P.win.kernel_h + ky) * P.win.kernel_w + kx) * in_per_group;
      for (std::int32_t ic = 0; ic < in_per_group; ++ic) acc += pixel[ic] * filter[ic];
    });
    output[at] = activate<P.fused>(acc);
  });
}

template <kernel_params P>
constexpr void depthwise_conv2d(const float* input, const float* weights, const float* bias, float* output) {
  constexpr auto in = nhwc::of(P.in);
  constexpr std::int32_t channels = P.out[3];
  for_each_output_element<P>([&](std::int32_t b, std::int32_t oy, std::int32_t ox, std::int32_t oc, std::int64_t at) {
    const std::int32_t ic = oc / P.depth_multiplier;
    float acc = P.has_bias ? bias[oc] : 0.0f;
    for_each_window_tap<P>(oy, ox, [&](std::int32_t iy, std::int32_t ix, std::int32_t ky, std::int32_t kx) {
      acc += input[((b * in.h + iy) * in.w + ix) * in.c + ic] * weights[(ky * P.win.kernel_w + kx) * channels + oc];
    });
    output[at] = activate<P.fused>(acc);
  });
}

}  // namespace ctnn::kernel::reference
