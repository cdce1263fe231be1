#pragma once
// Reference float32 convolutions, NHWC. conv2d: OHWI weights (OHW(I/groups) when grouped);
// depthwise_conv2d: 1HWC weights, output channel = input channel * multiplier + m (TFLite).
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/activation.hpp>
#include <ctnn/kernel/reference/window.hpp>

namespace ctnn::kernel::reference {
template <class Params>
constexpr void conv2d(Params p, const float* input, const float* weights, const float* bias,
                                             float* output) {
  const auto in = nhwc::of(p->in);
  const std::int32_t in_per_group = in.c / p->groups;
  const std::int32_t out_per_group = p->out[3] / p->groups;
  for_each_output_element(p, [&](std::int32_t b, std::int32_t oy, std::int32_t ox, std::int32_t oc,
                                 std::int64_t at) {
    const std::int32_t first_ic = (oc / out_per_group) * in_per_group;
    float acc = p->has_bias ? bias[oc] : 0.0f;
    for_each_window_tap(p, oy, ox, [&](std::int32_t iy, std::int32_t ix, std::int32_t ky,
                                       std::int32_t kx) {
      const float* pixel = input + ((b * in.h + iy) * in.w + ix) * in.c + first_ic;
      const float* filter = weights + ((oc * p->win.kernel_h + ky) * p->win.kernel_w + kx) * in_per_group;
      for (std::int32_t ic = 0; ic < in_per_group; ++ic) acc += pixel[ic] * filter[ic];
    });
    output[at] = activate(p->fused, acc);
  });
}
template <class Params>
constexpr void depthwise_conv2d(Params p, const float* input, const float* weights,
                                                       const float* bias, float* output) {
  const auto in = nhwc::of(p->in);
  const std::int32_t channels = p->out[3];
  for_each_output_element(p, [&](std::int32_t b, std::int32_t oy, std::int32_t ox, std::int32_t oc,
                                 std::int64_t at) {
    const std::int32_t ic = oc / p->depth_multiplier;
    float acc = p->has_bias ? bias[oc] : 0.0f;
    for_each_window_tap(p, oy, ox, [&](std::int32_t iy, std::int32_t ix, std::int32_t ky,
                                       std::int32_t kx) {
      acc += input[((b * in.h + iy) * in.w + ix) * in.c + ic] * weights[(ky * p->win.kernel_w + kx) * channels + oc];
    });
    output[at] = activate(p->fused, acc);
  });
}

}  // namespace ctnn::kernel::reference
