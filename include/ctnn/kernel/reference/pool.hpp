#pragma once
// Reference pooling, NHWC. Average pooling (float32) divides by the number of in-bounds elements
// (TFLite's semantics; padding never counts); max pooling also runs on plain integers (ONNX's uint8/int8
// MaxPool: kernel/onnx_integer.hpp), padding ignored. L2 pooling (float32, TFLite's L2Pool): the
// square root of the mean of the squares over the in-bounds elements.
#include <cstdint>
#include <limits>
#include <type_traits>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/unary_math.hpp>
#include <ctnn/kernel/reference/window.hpp>

namespace ctnn::kernel::reference {

template <bool Max, class Params, class T>
constexpr void pool2d(Params p, const T* input, T* output) {
  static_assert(Max || std::is_floating_point_v<T>, "ctnn: average pooling is float32 (int8: reference/int8/pool.hpp).");
  const auto in = nhwc::of(p->in);
  for_each_output_element(p, [&](std::int32_t b, std::int32_t oy, std::int32_t ox, std::int32_t c,
                                 std::int64_t at) {
    T acc = Max ? std::numeric_limits<T>::lowest() : T{};
    std::int32_t count = 0;
    for_each_window_tap(p, oy, ox, [&](std::int32_t iy, std::int32_t ix, std::int32_t,
                                       std::int32_t) {
      const T v = input[((b * in.h + iy) * in.w + ix) * in.c + c];
      if constexpr (Max) acc = v > acc ? v : acc;
      else acc += v;
      ++count;
    });
    if constexpr (Max) output[at] = acc;
    else output[at] = acc / static_cast<T>(count);
  });
}
template <class Params>
constexpr void l2_pool2d(Params p, const float* input, float* output) {
  const auto in = nhwc::of(p->in);
  for_each_output_element(p, [&](std::int32_t b, std::int32_t oy, std::int32_t ox, std::int32_t c, std::int64_t at) {
    float sum_squares = 0.0f;
    std::int32_t count = 0;
    for_each_window_tap(p, oy, ox, [&](std::int32_t iy, std::int32_t ix, std::int32_t, std::int32_t) {
      const float v = input[((b * in.h + iy) * in.w + ix) * in.c + c];
      sum_squares += v * v;
      ++count;
    });
    output[at] = unary_math::square_root(sum_squares / static_cast<float>(count));
  });
}
template <class Params>
constexpr void global_avg_pool(Params p, const float* input, float* output) {
  const auto in = nhwc::of(p->in);
  const std::int32_t pixels = in.h * in.w;
  for (std::int32_t b = 0; b < in.n; ++b)
    for (std::int32_t c = 0; c < in.c; ++c) {
      float acc = 0.0f;
      for (std::int32_t p = 0; p < pixels; ++p) acc += input[(b * pixels + p) * in.c + c];
      output[b * in.c + c] = acc / static_cast<float>(pixels);
    }
}

}  // namespace ctnn::kernel::reference
