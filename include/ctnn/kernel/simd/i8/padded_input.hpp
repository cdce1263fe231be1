#pragma once
// The input of a windowed int8 kernel (conv2d, depthwise_conv2d; dense as a 1x1 image) copied once per
// call into a buffer of the element type the kernel reads, with borders holding the input zero point.
// Every window tap then lies inside the buffer, so the kernels need no bounds tests and no per-tap
// address tables: an output pixel's taps sit at compile-time offsets from its first tap. The copy also
// makes the kernels safe when their result was placed over their input (kernel_params::in_place).
//
// Layout: [batch][rows][cols][channels], rows = pad_top + in_h + bottom, cols = pad_left + in_w + right,
// where bottom / right cover the last window (stride and dilation included), plus `slack` elements at the
// end that the kernels may read past the last tap (multiplied by zero weights or never stored).
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <ctnn/ir/module.hpp>

namespace ctnn::kernel::simd::i8_detail {

// The geometry of a windowed call as the vectorised kernels see it (dense: a 1x1 image per batch row).
template <kernel_params P>
struct window_geometry {
  static constexpr bool is_dense = P.kind == op_kind::dense;
  static constexpr std::int32_t batch = P.out[0];
  static constexpr std::int32_t in_h = is_dense ? 1 : P.in[1], in_w = is_dense ? 1 : P.in[2];
  static constexpr auto channels = static_cast<std::int32_t>(is_dense ? P.in.elements() / batch : P.in[3]);
  static constexpr std::int32_t out_h = is_dense ? 1 : P.out[1], out_w = is_dense ? 1 : P.out[2];
  static constexpr window win = is_dense ? window{} : P.win;
  static constexpr std::int32_t kernel_h = win.kernel_h, kernel_w = win.kernel_w;
  static constexpr std::int32_t top = win.pad_top, left = win.pad_left;

  static constexpr std::int32_t beyond(std::int32_t outputs, std::int32_t stride, std::int32_t pad, std::int32_t kernel,
                                       std::int32_t dilation, std::int32_t inputs) {
    const std::int32_t last = (outputs - 1) * stride - pad + (kernel - 1) * dilation;
    return last >= inputs ? last - inputs + 1 : 0;
  }
  static constexpr std::int32_t bottom = beyond(out_h, win.stride_h, top, kernel_h, win.dilation_h, in_h);
  static constexpr std::int32_t right = beyond(out_w, win.stride_w, left, kernel_w, win.dilation_w, in_w);
  static constexpr std::int32_t rows = top + in_h + bottom, cols = left + in_w + right;
  static constexpr bool padded = top > 0 || left > 0 || bottom > 0 || right > 0;
  static constexpr bool valid = top >= 0 && left >= 0;

  static constexpr std::int32_t slack = 64;
  static constexpr std::int64_t elements = static_cast<std::int64_t>(batch) * rows * cols * channels + slack;

  // Element offset, in the buffer, of the first tap of output pixel (b, y, x).
  static constexpr std::ptrdiff_t pixel_offset(std::int32_t b, std::int32_t y, std::int32_t x) {
    return ((static_cast<std::ptrdiff_t>(b) * rows + static_cast<std::ptrdiff_t>(y) * win.stride_h) * cols +
            static_cast<std::ptrdiff_t>(x) * win.stride_w) *
           channels;
  }
  // Element offset of tap (ky, kx) from the first tap.
  static constexpr std::ptrdiff_t tap_offset(std::int32_t ky, std::int32_t kx) {
    return (static_cast<std::ptrdiff_t>(ky) * win.dilation_h * cols + static_cast<std::ptrdiff_t>(kx) * win.dilation_w) *
           channels;
  }
};

// Buffers up to this size live on the stack (the largest in the MLPerf Tiny models: 80 KiB); larger calls
// keep the reference kernels.
inline constexpr std::int64_t max_padded_bytes = 256 * 1024;

// Copies `input` (int8, or int16 for the 16x8 kernels) into `buffer` (window_geometry<P>::elements of Element),
// each value through `convert`, the borders and the slack filled with convert(input zero point).
template <kernel_params P, class Input, class Element, class Convert>
[[gnu::always_inline]] inline void copy_padded(const Input* input, Element* buffer, Convert convert) {
  using g = window_geometry<P>;
  const Element zero_point = convert(static_cast<Input>(-P.input_offset));
  constexpr std::ptrdiff_t row_elements = static_cast<std::ptrdiff_t>(g::in_w) * g::channels;
  constexpr std::ptrdiff_t image_elements = static_cast<std::ptrdiff_t>(g::batch) * g::rows * g::cols * g::channels;
  if constexpr (g::padded) {
    for (std::int64_t i = 0; i < g::elements; ++i) buffer[i] = zero_point;
  } else {
    for (std::int64_t i = image_elements; i < g::elements; ++i) buffer[i] = zero_point;
  }
  for (std::int32_t b = 0; b < g::batch; ++b)
    for (std::int32_t y = 0; y < g::in_h; ++y) {
      const Input* from = input + (static_cast<std::ptrdiff_t>(b) * g::in_h + y) * row_elements;
      Element* to = buffer + ((static_cast<std::ptrdiff_t>(b) * g::rows + g::top + y) * g::cols + g::left) * g::channels;
      for (std::ptrdiff_t i = 0; i < row_elements; ++i) to[i] = convert(from[i]);
    }
}

}  // namespace ctnn::kernel::simd::i8_detail
