#pragma once
// Reference float32 pooling, NHWC. Average pooling divides by the number of in-bounds elements
// (TFLite's semantics; padding never counts).
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/window.hpp>

namespace ctnn::kernel::reference {

template <kernel_params P, bool Max>
constexpr void pool2d(const float* input, float* output) {
  constexpr auto in = nhwc::of(P.in);
  for_each_output_element<P>([&](std::int32_t b, std::int32_t oy, std::int32_t ox, std::int32_t c, std::int64_t at) {
    float acc = Max ? -3.402823466e38f : 0.0f;
    std::int32_t count = 0;
    for_each_window_tap<P>(oy, ox, [&](std::int32_t iy, std::int32_t ix, std::int32_t, std::int32_t) {
      const float v = input[((b * in.h + iy) * in.w + ix) * in.c + c];
      if constexpr (Max) acc = v > acc ? v : acc;
      else acc += v;
      ++count;
    });
    output[at] = Max ? acc : acc / static_cast<float>(count);
  });
}

template <kernel_params P>
constexpr void global_avg_pool(const float* input, float* output) {
  constexpr auto in = nhwc::of(P.in);
  constexpr std::int32_t pixels = in.h * in.w;
  for (std::int32_t b = 0; b < in.n; ++b)
    for (std::int32_t c = 0; c < in.c; ++c) {
      float acc = 0.0f;
      for (std::int32_t p = 0; p < pixels; ++p) acc += input[(b * pixels + p) * in.c + c];
      output[b * in.c + c] = acc / static_cast<float>(pixels);
    }
}

}  // namespace ctnn::kernel::reference
