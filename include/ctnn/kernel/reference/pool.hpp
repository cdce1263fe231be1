#pragma once
// Reference float32 pooling, NHWC. Average pooling divides by the number of in-bounds elements
// (TFLite's semantics; padding never counts).
#include <cstdint>

#include <ctnn/ir/module.hpp>

namespace ctnn::kernel::reference {

template <kernel_params P, bool Max>
void pool2d(const float* input, float* output) {
  constexpr auto in = nhwc::of(P.in);
  constexpr auto out = nhwc::of(P.out);
  constexpr window w = P.win;
  for (std::int32_t b = 0; b < out.n; ++b)
    for (std::int32_t oy = 0; oy < out.h; ++oy)
      for (std::int32_t ox = 0; ox < out.w; ++ox)
        for (std::int32_t c = 0; c < out.c; ++c) {
          float acc = Max ? -3.402823466e38f : 0.0f;
          std::int32_t count = 0;
          for (std::int32_t ky = 0; ky < w.kernel_h; ++ky) {
            const std::int32_t iy = oy * w.stride_h - w.pad_top + ky * w.dilation_h;
            if (iy < 0 || iy >= in.h) continue;
            for (std::int32_t kx = 0; kx < w.kernel_w; ++kx) {
              const std::int32_t ix = ox * w.stride_w - w.pad_left + kx * w.dilation_w;
              if (ix < 0 || ix >= in.w) continue;
              const float v = input[((b * in.h + iy) * in.w + ix) * in.c + c];
              if constexpr (Max) acc = v > acc ? v : acc;
              else acc += v;
              ++count;
            }
          }
          output[((b * out.h + oy) * out.w + ox) * out.c + c] = Max ? acc : acc / static_cast<float>(count);
        }
}

template <kernel_params P>
void global_avg_pool(const float* input, float* output) {
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
