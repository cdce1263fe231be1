#pragma once
// How far a windowed op's result may be shifted over its input when it is computed in place
// (ctnn::in_place_windows: conv2d and depthwise_conv2d). The reference convolution kernels
// (kernel/reference/conv2d.hpp, int8/conv2d.hpp: for_each_output_element) walk output pixels row-major
// (batch, row, column) and finish every channel of a pixel before the next pixel; a pixel reads only
// input pixels of its window (a grouped conv: some of their channels). So whatever the order inside a
// pixel, computing in place is safe when every output pixel p lies below the lowest input byte that
// any pixel q >= p still reads (Cin and Cout may differ):
//
//   out_offset + (p + 1) * Cout * e  <=  in_offset + first_read(q) * Cin * e   for all q >= p,
//
// i.e. out_offset - in_offset <= e * min_p (S(p) * Cin - (p + 1) * Cout), with S(p) the smallest input
// pixel read by any pixel >= p (the input's pixel count when none is). For a 3x3 window, stride 1,
// padding 1 and Cin = Cout = C, this is -(W + 2) * C * e: the result starts one input row and two
// pixels below the input. For a 1x1 conv, stride 1, over P pixels, it is
// min(-Cout, (P - 1) * (Cin - Cout) - Cout) * e: with Cin < Cout the input sits at the result's tail
// (VWW's 48x48x8 -> 48x48x16 needs 36,872 B, not 55,296), with Cin >= Cout the result starts one output
// pixel below the input. The minimum is computed exactly, in O(rows + columns) (a pixel's lowest read
// is its row's lowest read row times W plus its column's lowest read column; the suffix minimum over
// later pixels is the row's own suffix or the next rows' first pixel).
#include <array>
#include <cstdint>

#include <ctnn/ir/attributes.hpp>
#include <ctnn/ir/shape.hpp>

namespace ctnn::memory {

namespace detail {

// The first in-bounds tap of a window along one axis (-1: none), for output position `o`.
constexpr std::int32_t first_tap(std::int32_t o, std::int32_t stride, std::int32_t pad, std::int32_t kernel,
                                 std::int32_t dilation, std::int32_t extent) {
  for (std::int32_t k = 0; k < kernel; ++k) {
    const std::int32_t i = o * stride - pad + k * dilation;
    if (i >= 0 && i < extent) return i;
  }
  return -1;
}

}  // namespace detail

// The largest (often negative) shift, in elements of the input's type (multiply by its byte size),
// of an NHWC result `out` over its NHWC input `in` under window `win` such that the pixel walk above
// never overwrites input it has yet to read. `in` and `out` have rank 4 and the same batch.
constexpr std::int64_t in_place_window_shift(const shape& in, const shape& out, const window& win) {
  const std::int64_t height = in[1], width = in[2], in_channels = in[3];
  const std::int64_t out_height = out[1], out_width = out[2], out_channels = out[3];
  const std::int64_t none = static_cast<std::int64_t>(in[0]) * height * width;  // "reads nothing": the input's end

  // Per output column, the lowest input column its window reads, as a suffix minimum over later
  // columns (later pixels of the same row), and min over columns of (suffix * Cin - column * Cout).
  std::int64_t column_term = INT64_MAX;
  std::int64_t first_column_suffix = none;  // the row's first pixel: its suffix over the whole row
  {
    std::int64_t suffix = none;
    for (std::int32_t ox = static_cast<std::int32_t>(out_width) - 1; ox >= 0; --ox) {
      const std::int32_t ix = detail::first_tap(ox, win.stride_w, win.pad_left, win.kernel_w, win.dilation_w, in[2]);
      if (ix >= 0 && ix < suffix) suffix = ix;
      if (suffix < none) {
        const std::int64_t term = suffix * in_channels - ox * out_channels;
        if (term < column_term) column_term = term;
      }
    }
    first_column_suffix = suffix;
  }

  // Rows from the last: S_next is the lowest input pixel read by any later row (its first pixel).
  std::int64_t shift = INT64_MAX;
  std::int64_t later_rows = none;
  for (std::int64_t row = static_cast<std::int64_t>(out[0]) * out_height - 1; row >= 0; --row) {
    const std::int64_t b = row / out_height;
    const std::int32_t oy = static_cast<std::int32_t>(row % out_height);
    const std::int32_t iy = detail::first_tap(oy, win.stride_h, win.pad_top, win.kernel_h, win.dilation_h, in[1]);
    const std::int64_t first_pixel = row * out_width;
    // Pixels of this row whose suffix is a later row's first read; the last pixel of the row is the worst.
    const std::int64_t from_later = later_rows * in_channels - (first_pixel + out_width) * out_channels;
    if (from_later < shift) shift = from_later;
    if (iy >= 0 && first_column_suffix < none) {
      const std::int64_t row_base = (b * height + iy) * width;
      const std::int64_t own = row_base * in_channels - (first_pixel + 1) * out_channels + column_term;
      if (own < shift) shift = own;
      const std::int64_t row_first_read = row_base + first_column_suffix;
      if (row_first_read < later_rows) later_rows = row_first_read;
    }
  }
  return shift;
}

// The same rule by brute force, pixel by pixel: what the tests check the fast one against.
constexpr std::int64_t in_place_window_shift_per_pixel(const shape& in, const shape& out, const window& win) {
  const std::int64_t width = in[2], height = in[1];
  const std::int64_t none = static_cast<std::int64_t>(in[0]) * height * width;
  const std::int64_t pixels = static_cast<std::int64_t>(out[0]) * out[1] * out[2];
  std::int64_t shift = INT64_MAX, suffix = none;
  for (std::int64_t p = pixels - 1; p >= 0; --p) {
    const std::int64_t b = p / (static_cast<std::int64_t>(out[1]) * out[2]);
    const std::int32_t oy = static_cast<std::int32_t>((p / out[2]) % out[1]);
    const std::int32_t ox = static_cast<std::int32_t>(p % out[2]);
    for (std::int32_t ky = 0; ky < win.kernel_h; ++ky)
      for (std::int32_t kx = 0; kx < win.kernel_w; ++kx) {
        const std::int32_t iy = oy * win.stride_h - win.pad_top + ky * win.dilation_h;
        const std::int32_t ix = ox * win.stride_w - win.pad_left + kx * win.dilation_w;
        if (iy < 0 || iy >= in[1] || ix < 0 || ix >= in[2]) continue;
        const std::int64_t read = (b * height + iy) * width + ix;
        if (read < suffix) suffix = read;
      }
    const std::int64_t term = suffix * in[3] - (p + 1) * out[3];
    if (term < shift) shift = term;
  }
  return shift;
}

}  // namespace ctnn::memory
