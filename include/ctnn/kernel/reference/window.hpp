#pragma once
// The sliding-window walk shared by convolution and pooling: every in-bounds tap of the window of one
// output pixel (padding taps are skipped, which is what both conv and TFLite's pooling need).
//
// Kernels read their parameters through `p->` (kernel/params.hpp): one source for both specialisation
// policies (docs/design.md §4). With static_params<P> (kernel::invoke<P>) each call gets a kernel of its own
// whose every parameter is a constant; with a `const kernel_params*` (kernel/dynamic.hpp) one kernel
// per op kind serves every call. The walks are always inlined into the kernel that uses them.
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/params.hpp>

namespace ctnn::kernel::reference {

// Calls tap(iy, ix, ky, kx) for each window position (ky, kx) of output pixel (oy, ox) inside the input.
template <class Params, class Tap>
[[gnu::always_inline]] constexpr void for_each_window_tap(Params p, std::int32_t oy, std::int32_t ox, Tap&& tap) {
  const window& w = p->win;
  for (std::int32_t ky = 0; ky < w.kernel_h; ++ky) {
    const std::int32_t iy = oy * w.stride_h - w.pad_top + ky * w.dilation_h;
    if (iy < 0 || iy >= p->in[1]) continue;
    for (std::int32_t kx = 0; kx < w.kernel_w; ++kx) {
      const std::int32_t ix = ox * w.stride_w - w.pad_left + kx * w.dilation_w;
      if (ix < 0 || ix >= p->in[2]) continue;
      tap(iy, ix, ky, kx);
    }
  }
}

// Calls pixel(b, oy, ox, c, at) for every element of the NHWC output, `at` being its flat index.
template <class Params, class Pixel>
[[gnu::always_inline]] constexpr void for_each_output_element(Params p, Pixel&& pixel) {
  const auto out = nhwc::of(p->out);
  std::int64_t at = 0;
  for (std::int32_t b = 0; b < out.n; ++b)
    for (std::int32_t oy = 0; oy < out.h; ++oy)
      for (std::int32_t ox = 0; ox < out.w; ++ox)
        for (std::int32_t c = 0; c < out.c; ++c) pixel(b, oy, ox, c, at++);
}

// The same walks for parameters known at compile time (vectorised kernels use these).
template <kernel_params P, class Tap>
[[gnu::always_inline]] constexpr void for_each_window_tap(std::int32_t oy, std::int32_t ox, Tap&& tap) {
  for_each_window_tap(static_params<P>{}, oy, ox, static_cast<Tap&&>(tap));
}
template <kernel_params P, class Pixel>
[[gnu::always_inline]] constexpr void for_each_output_element(Pixel&& pixel) {
  for_each_output_element(static_params<P>{}, static_cast<Pixel&&>(pixel));
}

}  // namespace ctnn::kernel::reference
