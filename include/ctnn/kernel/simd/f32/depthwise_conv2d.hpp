#pragma once
// float32 depthwise conv2d (depth multiplier 1), NHWC, 1HWC weights read as stored: vectorised over
// channels. Inside the input, R neighbouring output pixels of a row are computed together so that each
// input vector is loaded once for every tap that reads it (not load-bound); pixels whose window crosses
// the border (padding) take the per-pixel path.
#include <xsimd/config/xsimd_config.hpp>

#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/simd/detail/f32_window.hpp>
#include <ctnn/kernel/simd/detail/f32_lanes.hpp>

#ifndef XSIMD_NO_SUPPORTED_ARCHITECTURE

namespace ctnn::kernel::simd::f32 {

template <kernel_params P>
struct depthwise_conv2d {
  static constexpr bool supports = P.kind == op_kind::depthwise_conv2d && P.type == dtype::f32 && P.in.rank == 4 &&
                                   P.out.rank == 4 && P.depth_multiplier == 1 && P.in[3] == P.out[3] &&
                                   detail::vector_activation(P.fused) &&
                                   P.in_place == 0;  // blocks of pixels: unsafe over its own input
  static constexpr bool packs(std::size_t) { return false; }
  template <std::size_t K, class Reader>
  static constexpr auto pack(const Reader&) { return 0; }

 private:
  static constexpr nhwc in = nhwc::of(P.in);
  static constexpr nhwc out = nhwc::of(P.out);
  static constexpr window win = P.win;
  static constexpr int channels = in.c;
  // Output pixels per register block: accumulators + a row of inputs + the weights of a row of taps.
  static constexpr int block_pixels = detail::lanes == 16 ? 8 : 4;

 public:
  static void run(const float* const* operands, float* result) {
    const float* input = operands[0];
    const float* weights = operands[1];
    const float* bias = P.has_bias ? operands[2] : nullptr;
    for (int b = 0; b < out.n; ++b)
      for (int oy = 0; oy < out.h; ++oy) {
        const float* tap_rows[win.kernel_h];
        for (int ky = 0; ky < win.kernel_h; ++ky) {
          const int iy = oy * win.stride_h - win.pad_top + ky * win.dilation_h;
          tap_rows[ky] = iy >= 0 && iy < in.h ? input + (static_cast<long>(b) * in.h + iy) * in.w * channels : nullptr;
        }
        float* out_row = result + (static_cast<long>(b) * out.h + oy) * out.w * channels;
        for (int ox = 0; ox < out.w;) {
          const int first_ix = ox * win.stride_w - win.pad_left;
          const int last_ix = (ox + block_pixels - 1) * win.stride_w - win.pad_left + (win.kernel_w - 1) * win.dilation_w;
          if (ox + block_pixels <= out.w && first_ix >= 0 && last_ix < in.w) {
            detail::for_each_channel_chunk<channels>([&](auto lanes, int c) {
              block<decltype(lanes)>(tap_rows, first_ix, weights, bias, out_row + ox * channels, c);
            });
            ox += block_pixels;
          } else {
            detail::for_each_channel_chunk<channels>([&](auto lanes, int c) {
              pixel<decltype(lanes)>(b, oy, ox, input, weights, bias, out_row + ox * channels, c);
            });
            ++ox;
          }
        }
      }
  }

 private:
  template <class V>
  [[gnu::always_inline]] static V bias_of(const float* bias, int c) {
    return bias != nullptr ? V::load_unaligned(bias + c) : V::broadcast(0.0f);
  }

  // block_pixels output pixels whose windows lie inside the input horizontally, channels [c, c + V::size).
  template <class V>
  static void block(const float* const* tap_rows, int first_ix, const float* weights, const float* bias, float* out_pixels,
                    int c) {
    V acc[block_pixels];
    const V b = bias_of<V>(bias, c);
    detail::unroll<block_pixels>([&](auto r) { acc[r] = b; });
    for (int ky = 0; ky < win.kernel_h; ++ky) {
      if (tap_rows[ky] == nullptr) continue;
      const float* x = tap_rows[ky] + first_ix * channels + c;
      const float* w = weights + ky * win.kernel_w * channels + c;
      // Same-address loads (r * stride + kx * dilation equal) are merged by the compiler once unrolled.
      detail::unroll<win.kernel_w>([&](auto kx) {
        const V wv = V::load_unaligned(w + kx * channels);
        detail::unroll<block_pixels>([&](auto r) {
          acc[r] = detail::fmadd(V::load_unaligned(x + (r * win.stride_w + kx * win.dilation_w) * channels), wv, acc[r]);
        });
      });
    }
    detail::unroll<block_pixels>([&](auto r) { detail::activate<P.fused>(acc[r]).store_unaligned(out_pixels + r * channels + c); });
  }

  // One output pixel, any position (taps over padding skipped).
  template <class V>
  static void pixel(int b, int oy, int ox, const float* input, const float* weights, const float* bias, float* out_pixel,
                    int c) {
    V acc = bias_of<V>(bias, c);
    detail::for_each_inside_tap<P>(oy, ox, [&](std::int32_t iy, std::int32_t ix, std::int32_t ky, std::int32_t kx) {
      const V x = V::load_unaligned(input + ((static_cast<long>(b) * in.h + iy) * in.w + ix) * channels + c);
      acc = detail::fmadd(x, V::load_unaligned(weights + (ky * win.kernel_w + kx) * channels + c), acc);
    });
    detail::activate<P.fused>(acc).store_unaligned(out_pixel + c);
  }
};

}  // namespace ctnn::kernel::simd::f32

#endif  // XSIMD_NO_SUPPORTED_ARCHITECTURE
