#pragma once
// The compile-time geometry of a windowed int8 call (conv2d, depthwise_conv2d, avg_pool; dense as a 1x1
// image per batch row) as the DSP kernels walk it: per output row, the kernel rows inside the input;
// per output column, whether the whole kernel row is inside (an interior column: taps at compile-time
// offsets, no bounds tests) or not (a border column: the in-bounds taps, as the reference kernels skip
// the others). Interior columns are contiguous, [interior_begin, interior_end).
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>

namespace ctnn::kernel::arm::detail {

template <kernel_params P>
struct window_geometry {
  static constexpr bool is_dense = P.kind == op_kind::dense;
  static constexpr bool is_global = P.kind == op_kind::global_avg_pool;
  static constexpr std::int32_t batch = P.out[0];
  static constexpr std::int32_t in_h = is_dense ? 1 : P.in[1], in_w = is_dense ? 1 : P.in[2];
  static constexpr auto in_c = static_cast<std::int32_t>(is_dense ? P.in.elements() / batch : P.in[3]);
  static constexpr std::int32_t out_h = is_dense || is_global ? 1 : P.out[1], out_w = is_dense || is_global ? 1 : P.out[2];
  static constexpr std::int32_t out_c = P.out.last();
  static constexpr window win = is_dense ? window{} : (is_global ? window{in_h, in_w, 1, 1, 1, 1, padding::valid, 0, 0, 0, 0} : P.win);
  static constexpr std::int32_t kernel_h = win.kernel_h, kernel_w = win.kernel_w;

  // The first kernel index whose tap lies inside [0, extent) for output position `o`, and one past the last.
  static constexpr std::int32_t first_inside(std::int32_t o, std::int32_t stride, std::int32_t pad, std::int32_t dilation,
                                             std::int32_t kernel, std::int32_t /*extent*/) {
    std::int32_t k = 0;
    while (k < kernel && o * stride - pad + k * dilation < 0) ++k;
    return k;
  }
  static constexpr std::int32_t end_inside(std::int32_t o, std::int32_t stride, std::int32_t pad, std::int32_t dilation,
                                           std::int32_t kernel, std::int32_t extent) {
    std::int32_t k = kernel;
    while (k > 0 && o * stride - pad + (k - 1) * dilation >= extent) --k;
    return k;
  }
  static constexpr bool column_inside(std::int32_t ox) {
    return first_inside(ox, win.stride_w, win.pad_left, win.dilation_w, kernel_w, in_w) == 0 &&
           end_inside(ox, win.stride_w, win.pad_left, win.dilation_w, kernel_w, in_w) == kernel_w;
  }
  static constexpr std::int32_t find_interior_begin() {
    std::int32_t ox = 0;
    while (ox < out_w && !column_inside(ox)) ++ox;
    return ox;
  }
  static constexpr std::int32_t find_interior_end() {
    std::int32_t ox = interior_begin;
    while (ox < out_w && column_inside(ox)) ++ox;
    return ox;
  }
  static constexpr std::int32_t interior_begin = find_interior_begin();
  static constexpr std::int32_t interior_end = find_interior_end();
  // Whether every column after the interior ones is a border column (true of every window with stride
  // and dilation; checked in the kernels' `supports`).
  static constexpr bool columns_well_formed() {
    for (std::int32_t ox = interior_end; ox < out_w; ++ox)
      if (column_inside(ox)) return false;
    return true;
  }
  static constexpr bool unpadded_rows() {
    for (std::int32_t oy = 0; oy < out_h; ++oy)
      if (first_inside(oy, win.stride_h, win.pad_top, win.dilation_h, kernel_h, in_h) != 0 ||
          end_inside(oy, win.stride_h, win.pad_top, win.dilation_h, kernel_h, in_h) != kernel_h)
        return false;
    return true;
  }
  // Every window lies inside the input: no tap is ever skipped.
  static constexpr bool unpadded = interior_begin == 0 && interior_end == out_w && unpadded_rows();
  static constexpr bool valid = P.in.rank >= 2 && (is_dense || (P.in.rank == 4 && (is_global || P.out.rank == 4))) &&
                                P.in[0] == batch && kernel_h >= 1 && kernel_w >= 1 && win.stride_h >= 1 &&
                                win.stride_w >= 1 && win.dilation_h >= 1 && win.dilation_w >= 1 && columns_well_formed();

  // Element offset of input pixel (b, iy, ix).
  static constexpr std::ptrdiff_t input_pixel(std::int32_t b, std::int32_t iy, std::int32_t ix) {
    return ((static_cast<std::ptrdiff_t>(b) * in_h + iy) * in_w + ix) * in_c;
  }
  // The kernel rows [first, end) of output row oy that lie inside the input.
  struct row_range {
    std::int32_t first, end, input_row;  // input_row: the input row of kernel row 0 (may be negative)
  };
  [[gnu::always_inline]] static constexpr row_range rows_inside(std::int32_t oy) {
    return {first_inside(oy, win.stride_h, win.pad_top, win.dilation_h, kernel_h, in_h),
            end_inside(oy, win.stride_h, win.pad_top, win.dilation_h, kernel_h, in_h), oy * win.stride_h - win.pad_top};
  }
  [[gnu::always_inline]] static constexpr row_range columns_inside(std::int32_t ox) {
    return {first_inside(ox, win.stride_w, win.pad_left, win.dilation_w, kernel_w, in_w),
            end_inside(ox, win.stride_w, win.pad_left, win.dilation_w, kernel_w, in_w), ox * win.stride_w - win.pad_left};
  }
};

}  // namespace ctnn::kernel::arm::detail
