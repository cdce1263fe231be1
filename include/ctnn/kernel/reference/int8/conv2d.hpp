#pragma once
// int8 convolutions, NHWC, TFLite's ConvPerChannel / DepthwiseConvPerChannel semantics: int8 input with
// offset (-input zero point) added to each input value, symmetric int8 weights, int32 bias, an int32
// accumulator requantized per output channel (multiplier/shift arrays, from the executor), plus the output
// zero point, clamped. Padding taps are skipped (they contribute (zero point + offset) * w = 0).
// conv2d: OHWI weights (OHW(I/groups) when grouped); depthwise: 1HWC, output channel = ic * multiplier + m.
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/int8/requantize.hpp>
#include <ctnn/kernel/reference/window.hpp>

namespace ctnn::kernel::reference::int8 {
template <class Params>
constexpr void conv2d(Params p, const std::int8_t* input, const std::int8_t* weights,
                                             const std::int32_t* bias, std::int8_t* output, const std::int32_t* multiplier,
                                             const std::int32_t* shift) {
  const auto in = nhwc::of(p->in);
  const std::int32_t in_per_group = in.c / p->groups;
  const std::int32_t out_per_group = p->out[3] / p->groups;
  for_each_output_element(p, [&](std::int32_t b, std::int32_t oy, std::int32_t ox, std::int32_t oc,
                                 std::int64_t at) {
    const std::int32_t first_ic = (oc / out_per_group) * in_per_group;
    std::int32_t acc = 0;
    for_each_window_tap(p, oy, ox, [&](std::int32_t iy, std::int32_t ix, std::int32_t ky,
                                       std::int32_t kx) {
      const std::int8_t* pixel = input + ((b * in.h + iy) * in.w + ix) * in.c + first_ic;
      const std::int8_t* filter = weights + ((oc * p->win.kernel_h + ky) * p->win.kernel_w + kx) * in_per_group;
      for (std::int32_t ic = 0; ic < in_per_group; ++ic)
        acc += (filter[ic] + p->weights_offset) * (pixel[ic] + p->input_offset);
    });
    if (p->has_bias != 0) acc += bias[oc];
    output[at] = requantize_output(p, acc, multiplier[oc], shift[oc]);
  });
}
template <class Params>
constexpr void depthwise_conv2d(Params p, const std::int8_t* input,
                                                       const std::int8_t* weights, const std::int32_t* bias,
                                                       std::int8_t* output, const std::int32_t* multiplier,
                                                       const std::int32_t* shift) {
  const auto in = nhwc::of(p->in);
  const std::int32_t channels = p->out[3];
  for_each_output_element(p, [&](std::int32_t b, std::int32_t oy, std::int32_t ox, std::int32_t oc,
                                 std::int64_t at) {
    const std::int32_t ic = oc / p->depth_multiplier;
    std::int32_t acc = 0;
    for_each_window_tap(p, oy, ox, [&](std::int32_t iy, std::int32_t ix, std::int32_t ky,
                                       std::int32_t kx) {
      acc += (weights[(ky * p->win.kernel_w + kx) * channels + oc] + p->weights_offset) *
             (input[((b * in.h + iy) * in.w + ix) * in.c + ic] + p->input_offset);
    });
    if (p->has_bias != 0) acc += bias[oc];
    output[at] = requantize_output(p, acc, multiplier[oc], shift[oc]);
  });
}

}  // namespace ctnn::kernel::reference::int8
