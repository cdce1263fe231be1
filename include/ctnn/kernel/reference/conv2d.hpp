#pragma once
// The reference convolutions, NHWC, float32 and int8 in one source (int8/conv2d.hpp names them for int8):
// the same loops, and the arithmetic chosen by the element type where it differs (the accumulator's start,
// the product, the output value), inline with `if constexpr`. So a call's parameters make one function
// (and its loops' lambdas), not one per arithmetic step: an arithmetic object with three member templates
// cost three more instantiations per call, each emitted and inlined again (benchmarks/RESULTS.md,
// "Compiler memory, the last 5 %").
//   float32: the accumulator starts at the bias; the fused activation finishes it.
//   int16 (TFLite's 16x8 ConvPerChannel / DepthwiseConvPerChannel: int16 data, int8 weights, an int64 bias):
//   no offsets (zero points 0), an int64 accumulator, the int64 MultiplyByQuantizedMultiplier, clamped.
//   int8 (TFLite's ConvPerChannel / DepthwiseConvPerChannel): offsets (-zero points) added to inputs and
//   weights, an int32 accumulator, the bias added last, requantized per output channel (multiplier/shift
//   arrays, from the executor), plus the output zero point, clamped. The accumulator wraps in 32 bits, as
//   TFLite's int32 sums do on its targets (ctnn::detail::quant::wrapping_add: one add), rather than
//   overflow (undefined in C++): TFLite allows any int32 bias, and 33,026 products of 255 * 255 exceed int32.
// conv2d: OHWI weights (OHW(I/groups) when grouped); depthwise: 1HWC weights, output channel = input
// channel * multiplier + m (TFLite). Padding taps are skipped (int8: they would add (zero point + offset) *
// w = 0).
#include <cstdint>
#include <type_traits>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/activation.hpp>
#include <ctnn/kernel/reference/int8/requantize.hpp>
#include <ctnn/kernel/reference/window.hpp>

namespace ctnn::kernel::reference {

// What a convolution accumulates in, and its bias's type: float for float32, int32 for int8, int64 for int16.
template <class Output>
using conv_accumulator =
    std::conditional_t<std::is_same_v<Output, float>, float,
                       std::conditional_t<std::is_same_v<Output, std::int16_t>, std::int64_t, std::int32_t>>;

// The int16 output of an int64 accumulator (bias included): rescaled and clamped, no zero point (TFLM's 16x8 kernels).
template <class Params>
[[gnu::always_inline]] constexpr std::int16_t requantize_wide(Params p, std::int64_t acc, std::int32_t multiplier,
                                                              std::int32_t shift) {
  std::int32_t v = ctnn::detail::quant::multiply_by_quantized_multiplier_int64(acc, multiplier, shift);
  v = v < p->activation_min ? p->activation_min : v;
  return static_cast<std::int16_t>(v > p->activation_max ? p->activation_max : v);
}

// An integer accumulator plus one product, wrapping (int32 as TFLite's int8 sums on its targets; int64).
[[gnu::always_inline]] constexpr std::int32_t accumulate(std::int32_t acc, std::int32_t product) {
  return ctnn::detail::quant::wrapping_add(acc, product);
}
[[gnu::always_inline]] constexpr std::int64_t accumulate(std::int64_t acc, std::int32_t product) {
  return ctnn::detail::quant::wrapping_add_wide(acc, product);
}

// An integer convolution's result: the bias added (wrapping, as on TFLite's targets), requantized.
template <class Output, class Params, class Accumulator>
[[gnu::always_inline]] constexpr Output integer_result(Params p, Accumulator acc, const Accumulator* bias,
                                                       std::int32_t oc, std::int32_t multiplier, std::int32_t shift) {
  namespace q = ctnn::detail::quant;
  if constexpr (std::is_same_v<Output, std::int16_t>) {
    if (p->has_bias != 0) acc = q::wrapping_add_wide(acc, bias[oc]);
    return requantize_wide(p, acc, multiplier, shift);
  } else {
    if (p->has_bias != 0) acc = q::wrapping_add(acc, bias[oc]);
    return int8::requantize_output(p, acc, multiplier, shift);
  }
}

// Output element (b, y, x, oc): the products over the window's taps and the input channels of oc's group.
// multiplier/shift: the integer kernels only (per output channel).
template <class Params, class Input, class Weight, class Output>
constexpr void conv2d(Params p, const Input* input, const Weight* weights, const conv_accumulator<Output>* bias,
                      Output* output, const std::int32_t* multiplier = nullptr, const std::int32_t* shift = nullptr) {
  constexpr bool float32 = std::is_same_v<Output, float>;  // else int8 or int16
  const auto in = nhwc::of(p->in);
  const std::int32_t in_per_group = in.c / p->groups;
  const std::int32_t out_per_group = p->out[3] / p->groups;
  for_each_output_element(p, [&](std::int32_t b, std::int32_t oy, std::int32_t ox, std::int32_t oc, std::int64_t at) {
    const std::int32_t first_ic = (oc / out_per_group) * in_per_group;
    conv_accumulator<Output> acc = 0;
    if constexpr (float32)
      if (p->has_bias) acc = bias[oc];
    for_each_window_tap(p, oy, ox, [&](std::int32_t iy, std::int32_t ix, std::int32_t ky, std::int32_t kx) {
      const Input* pixel = input + ((b * in.h + iy) * in.w + ix) * in.c + first_ic;
      const Weight* filter = weights + ((oc * p->win.kernel_h + ky) * p->win.kernel_w + kx) * in_per_group;
      for (std::int32_t ic = 0; ic < in_per_group; ++ic) {
        if constexpr (float32) acc += pixel[ic] * filter[ic];
        else
          acc = accumulate(acc, (filter[ic] + p->weights_offset) * (pixel[ic] + p->input_offset));
      }
    });
    if constexpr (float32)
      output[at] = activate(p->fused, acc);
    else
      output[at] = integer_result<Output>(p, acc, bias, oc, multiplier[oc], shift[oc]);
  });
}

// The same for a depthwise convolution: one input channel per output channel.
template <class Params, class Input, class Weight, class Output>
constexpr void depthwise_conv2d(Params p, const Input* input, const Weight* weights,
                                const conv_accumulator<Output>* bias, Output* output,
                                const std::int32_t* multiplier = nullptr, const std::int32_t* shift = nullptr) {
  constexpr bool float32 = std::is_same_v<Output, float>;  // else int8 or int16
  const auto in = nhwc::of(p->in);
  const std::int32_t channels = p->out[3];
  for_each_output_element(p, [&](std::int32_t b, std::int32_t oy, std::int32_t ox, std::int32_t oc, std::int64_t at) {
    const std::int32_t ic = oc / p->depth_multiplier;
    conv_accumulator<Output> acc = 0;
    if constexpr (float32)
      if (p->has_bias) acc = bias[oc];
    for_each_window_tap(p, oy, ox, [&](std::int32_t iy, std::int32_t ix, std::int32_t ky, std::int32_t kx) {
      const Input x = input[((b * in.h + iy) * in.w + ix) * in.c + ic];
      const Weight w = weights[(ky * p->win.kernel_w + kx) * channels + oc];
      if constexpr (float32) acc += x * w;
      else
        acc = accumulate(acc, (w + p->weights_offset) * (x + p->input_offset));
    });
    if constexpr (float32)
      output[at] = activate(p->fused, acc);
    else
      output[at] = integer_result<Output>(p, acc, bias, oc, multiplier[oc], shift[oc]);
  });
}

}  // namespace ctnn::kernel::reference
