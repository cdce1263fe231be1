#pragma once
// The loops of the convolutions, shared by the float32 and int8 reference kernels, which differ only in
// their arithmetic, an object with three members, each given the call's parameters p (the walk's own:
// a copy inside the object would be a second pointer the compiler cannot merge with p, and extra loads):
//   start(p, oc): the accumulator of output channel oc before any product;
//   multiply_add(p, acc, x, w): acc plus the product of input value x and weight w, as one expression
//     (so that a compiler contracts float ones as it would `acc += x * w`);
//   finish(p, acc, oc): the output value.
// NHWC input; conv2d: OHWI weights (OHW(I/groups) when grouped); depthwise: 1HWC weights, output channel
// = input channel * multiplier + m (TFLite). Padding taps are skipped.
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/window.hpp>

namespace ctnn::kernel::reference {

// Output element (b, y, x, oc): the products over the window's taps and the input channels of oc's group.
template <class Params, class Input, class Weight, class Output, class Arithmetic>
[[gnu::always_inline]] constexpr void grouped_conv2d_walk(Params p, const Input* input, const Weight* weights,
                                                          Output* output, Arithmetic arithmetic) {
  const auto in = nhwc::of(p->in);
  const std::int32_t in_per_group = in.c / p->groups;
  const std::int32_t out_per_group = p->out[3] / p->groups;
  for_each_output_element(p, [&](std::int32_t b, std::int32_t oy, std::int32_t ox, std::int32_t oc, std::int64_t at) {
    const std::int32_t first_ic = (oc / out_per_group) * in_per_group;
    auto acc = arithmetic.start(p, oc);
    for_each_window_tap(p, oy, ox, [&](std::int32_t iy, std::int32_t ix, std::int32_t ky, std::int32_t kx) {
      const Input* pixel = input + ((b * in.h + iy) * in.w + ix) * in.c + first_ic;
      const Weight* filter = weights + ((oc * p->win.kernel_h + ky) * p->win.kernel_w + kx) * in_per_group;
      for (std::int32_t ic = 0; ic < in_per_group; ++ic) acc = arithmetic.multiply_add(p, acc, pixel[ic], filter[ic]);
    });
    output[at] = arithmetic.finish(p, acc, oc);
  });
}

// The same for a depthwise convolution: one input channel per output channel.
template <class Params, class Input, class Weight, class Output, class Arithmetic>
[[gnu::always_inline]] constexpr void depthwise_conv2d_walk(Params p, const Input* input, const Weight* weights,
                                                            Output* output, Arithmetic arithmetic) {
  const auto in = nhwc::of(p->in);
  const std::int32_t channels = p->out[3];
  for_each_output_element(p, [&](std::int32_t b, std::int32_t oy, std::int32_t ox, std::int32_t oc, std::int64_t at) {
    const std::int32_t ic = oc / p->depth_multiplier;
    auto acc = arithmetic.start(p, oc);
    for_each_window_tap(p, oy, ox, [&](std::int32_t iy, std::int32_t ix, std::int32_t ky, std::int32_t kx) {
      const Input x = input[((b * in.h + iy) * in.w + ix) * in.c + ic];
      acc = arithmetic.multiply_add(p, acc, x, weights[(ky * p->win.kernel_w + kx) * channels + oc]);
    });
    output[at] = arithmetic.finish(p, acc, oc);
  });
}

}  // namespace ctnn::kernel::reference
