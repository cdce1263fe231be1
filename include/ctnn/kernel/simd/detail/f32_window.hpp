#pragma once
// The taps of one output pixel's window that fall inside the input (padding taps skipped), for the
// per-pixel paths of the vector depthwise and pooling kernels.
#include <cstdint>

#include <ctnn/ir/module.hpp>

namespace ctnn::kernel::simd::detail {

// tap(iy, ix, ky, kx) for each window position (ky, kx) of output pixel (oy, ox) inside the input.
template <kernel_params P, class Tap>
[[gnu::always_inline]] inline void for_each_inside_tap(std::int32_t oy, std::int32_t ox, Tap&& tap) {
  constexpr window w = P.win;
  for (std::int32_t ky = 0; ky < w.kernel_h; ++ky) {
    const std::int32_t iy = oy * w.stride_h - w.pad_top + ky * w.dilation_h;
    if (iy < 0 || iy >= P.in[1]) continue;
    for (std::int32_t kx = 0; kx < w.kernel_w; ++kx) {
      const std::int32_t ix = ox * w.stride_w - w.pad_left + kx * w.dilation_w;
      if (ix < 0 || ix >= P.in[2]) continue;
      tap(iy, ix, ky, kx);
    }
  }
}

}  // namespace ctnn::kernel::simd::detail
