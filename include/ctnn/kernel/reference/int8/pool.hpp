#pragma once
// int8 and int16 pooling, NHWC, TFLite's reference_integer_ops::AveragePool / MaxPool (pool2d: one template over
// the element type, as TFLM's int16 overloads repeat the int8 ones with an int32 sum). Input and output share one
// quantization (TFLite requires it), so no requantization: average pooling divides the int32 sum of the
// in-bounds taps by their count, rounding half away from zero ((sum +/- count/2) / count, truncating), then
// clamps to the fused activation's range; max pooling clamps the maximum the same way. The int32 sums wrap
// (wrapping_add), as TFLite's do on its targets: only windows of over 2^24 taps (int16: 2^16) could
// overflow.
#include <cstdint>
#include <limits>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/window.hpp>

namespace ctnn::kernel::reference::int8 {

// (sum +/- count/2) / count, truncating; count > 0. Shared with mean.hpp, whose sum is a rescaled one (any int32).
constexpr std::int32_t rounded_average(std::int32_t sum, std::int32_t count) {
  namespace q = ctnn::detail::quant;
  return sum > 0 ? q::wrapping_add(sum, count / 2) / count : q::wrapping_sub(sum, count / 2) / count;
}

template <bool Max, class Params, class T>
constexpr void pool2d(Params p, const T* input, T* output) {
  const auto in = nhwc::of(p->in);
  for_each_output_element(p, [&](std::int32_t b, std::int32_t oy, std::int32_t ox, std::int32_t c, std::int64_t at) {
    std::int32_t acc = Max ? std::int32_t{std::numeric_limits<T>::lowest()} : 0;
    std::int32_t count = 0;
    for_each_window_tap(p, oy, ox, [&](std::int32_t iy, std::int32_t ix, std::int32_t,
                                       std::int32_t) {
      const std::int32_t v = input[((b * in.h + iy) * in.w + ix) * in.c + c];
      if constexpr (Max) acc = v > acc ? v : acc;
      else acc = ctnn::detail::quant::wrapping_add(acc, v);
      ++count;
    });
    if constexpr (!Max) acc = rounded_average(acc, count);
    acc = acc < p->activation_min ? p->activation_min : acc;
    acc = acc > p->activation_max ? p->activation_max : acc;
    output[at] = static_cast<T>(acc);
  });
}

// Average over all of H x W (an AVERAGE_POOL_2D whose window is the whole input).
template <class Params>
constexpr void global_avg_pool(Params p, const std::int8_t* input, std::int8_t* output) {
  const auto in = nhwc::of(p->in);
  const std::int32_t pixels = in.h * in.w;
  for (std::int32_t b = 0; b < in.n; ++b)
    for (std::int32_t c = 0; c < in.c; ++c) {
      std::int32_t acc = 0;
      for (std::int32_t p = 0; p < pixels; ++p)
        acc = ctnn::detail::quant::wrapping_add(acc, input[(b * pixels + p) * in.c + c]);
      acc = rounded_average(acc, pixels);
      acc = acc < p->activation_min ? p->activation_min : acc;
      acc = acc > p->activation_max ? p->activation_max : acc;
      output[b * in.c + c] = static_cast<std::int8_t>(acc);
    }
}

}  // namespace ctnn::kernel::reference::int8
