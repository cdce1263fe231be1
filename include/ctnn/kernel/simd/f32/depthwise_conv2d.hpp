#pragma once
// float32 depthwise conv2d (depth multiplier 1), NHWC, 1HWC weights read as stored: vectorised over
// channels. R neighbouring output pixels of a row are computed together so that each input vector is
// loaded once for every tap that reads it (not load-bound). The blocks at the row ends (horizontal
// padding) sit at compile-time positions, so their taps over the padding are dropped at compile time;
// short rows (DS-CNN's 5 columns) are such blocks only. Rows over the vertical padding skip those taps.
#include <ctnn/kernel/simd/detail/xsimd_config.hpp>

#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/simd/detail/f32_lanes.hpp>

#ifndef XSIMD_NO_SUPPORTED_ARCHITECTURE

namespace ctnn::kernel::simd::f32 {

template <kernel_params P>
struct depthwise_conv2d : kernel::detail::reads_constants_as_stored {
  static constexpr bool supports = P.kind == op_kind::depthwise_conv2d && P.type == dtype::f32 && P.in.rank == 4 &&
                                   P.out.rank == 4 && P.depth_multiplier == 1 && P.in[3] == P.out[3] &&
                                   detail::vector_activation(P.fused) &&
                                   P.in_place == 0;  // blocks of pixels: unsafe over its own input

 private:
  static constexpr nhwc in = nhwc::of(P.in);
  static constexpr nhwc out = nhwc::of(P.out);
  static constexpr window win = P.win;
  static constexpr int channels = in.c;
  // Output pixels per register block: accumulators + a row of inputs + the weights of a row of taps.
  static constexpr int block_pixels = detail::lanes == 16 ? 8 : 4;
  // Output columns whose windows lie inside the input horizontally: [interior_begin, interior_end).
  static constexpr int interior_begin = [] {
    const int first = (win.pad_left + win.stride_w - 1) / win.stride_w;
    return first < out.w ? first : out.w;
  }();
  static constexpr int interior_end = [] {
    const int last_start = in.w - 1 + win.pad_left - (win.kernel_w - 1) * win.dilation_w;
    const int end = last_start < 0 ? 0 : last_start / win.stride_w + 1;
    return end < interior_begin ? interior_begin : (end > out.w ? out.w : end);
  }();
  // A row of at most two blocks is computed by edge blocks only (all taps resolved at compile time).
  static constexpr bool whole_row_at_compile_time = out.w <= 2 * block_pixels;
  // Otherwise the edge blocks are whole blocks, columns [0, middle_begin) and [middle_end, out.w), and the
  // interior columns between them are read without checks. A 1-pixel padded edge alone was one
  // accumulator chain (latency-bound): MobileNet 0.25's 24x24x32 depthwise took as long for its 8 edge
  // and remainder columns as for the 16 in whole blocks.
  static constexpr int middle_begin = interior_begin > block_pixels ? interior_begin : block_pixels;
  static constexpr int middle_end = [] {
    const int end = out.w - interior_end > block_pixels ? interior_end : out.w - block_pixels;
    return end < middle_begin ? middle_begin : end;
  }();
  // Fewer channels than a 512-bit vector's lanes (MobileNet 0.25's first depthwise: 8): with stride 1 the
  // inputs of neighbouring output pixels are contiguous, so one vector holds `pixels_per_vector` pixels'
  // channels (weights and bias repeated) instead of a half-empty narrower vector. Same sums, same order.
#if XSIMD_WITH_AVX512F
  static constexpr int pixels_per_vector =
      sizeof(detail::wide) == 64 && channels < detail::lanes && detail::lanes % channels == 0 && win.stride_w == 1
          ? detail::lanes / channels
          : 1;
#else
  static constexpr int pixels_per_vector = 1;
#endif

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
        detail::for_each_channel_chunk<channels>([&](auto lanes, int c) __attribute__((always_inline)) {
          using V = decltype(lanes);
          if constexpr (whole_row_at_compile_time) {
            fixed_blocks<V, 0, out.w>(tap_rows, weights, bias, out_row, c);
          } else {
            fixed_blocks<V, 0, middle_begin>(tap_rows, weights, bias, out_row, c);
            int ox = middle_begin;
            // Steps of block_pixels * pixels_per_vector leave the same remainder for the blocks below.
            if constexpr (pixels_per_vector > 1)
              for (; ox + block_pixels * pixels_per_vector <= middle_end; ox += block_pixels * pixels_per_vector)
                packed_block(tap_rows, ox, weights, bias, out_row);
            for (; ox + block_pixels <= middle_end; ox += block_pixels)
              block<V, block_pixels, -1>(tap_rows, ox, weights, bias, out_row, c);
            if constexpr ((middle_end - middle_begin) % block_pixels != 0)
              block<V, (middle_end - middle_begin) % block_pixels, -1>(tap_rows, ox, weights, bias, out_row, c);
            fixed_blocks<V, middle_end, out.w - middle_end>(tap_rows, weights, bias, out_row, c);
          }
        });
      }
  }

 private:
  // Output columns [First, First + Count) in blocks whose positions are compile-time constants.
  template <class V, int First, int Count>
  [[gnu::always_inline]] static void fixed_blocks(const float* const* tap_rows, const float* weights, const float* bias,
                                                  float* out_row, int c) {
    if constexpr (Count > 0) {
      constexpr int r = Count < block_pixels ? Count : block_pixels;
      block<V, r, First>(tap_rows, First, weights, bias, out_row, c);
      fixed_blocks<V, First + r, Count - r>(tap_rows, weights, bias, out_row, c);
    }
  }

  // R output columns from ox on, channels [c, c + V::size). Fixed >= 0: ox == Fixed is known at compile
  // time and the taps over the left or right padding are skipped; Fixed < 0: every tap is inside.
  template <class V, int R, int Fixed>
  static void block(const float* const* tap_rows, int ox, const float* weights, const float* bias, float* out_row, int c) {
    // Every loop over r and kx is unrolled (the pragmas), so that the accumulators stay in registers.
    V acc[R];
    const V b = bias != nullptr ? V::load_unaligned(bias + c) : V::broadcast(0.0f);
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) acc[r] = b;
    const int first_ix = ox * win.stride_w - win.pad_left;
    for (int ky = 0; ky < win.kernel_h; ++ky) {
      if (tap_rows[ky] == nullptr) continue;
      const float* x = tap_rows[ky] + first_ix * channels + c;
      const float* w = weights + ky * win.kernel_w * channels + c;
      // Same-address loads (r * stride + kx * dilation equal) are merged by the compiler once unrolled.
#pragma GCC unroll 16
      for (int kx = 0; kx < win.kernel_w; ++kx) {
        const V wv = V::load_unaligned(w + kx * channels);
#pragma GCC unroll 16
        for (int r = 0; r < R; ++r) {
          const int offset = r * win.stride_w + kx * win.dilation_w;
          if constexpr (Fixed >= 0) {
            const int ix = Fixed * win.stride_w - win.pad_left + offset;
            if (ix < 0 || ix >= in.w) continue;
          }
          acc[r] = detail::fmadd(V::load_unaligned(x + offset * channels), wv, acc[r]);
        }
      }
    }
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) detail::activate<P.fused>(acc[r]).store_unaligned(out_row + (ox + r) * channels + c);
  }

#if XSIMD_WITH_AVX512F
  // The `channels` floats at p repeated across a 512-bit vector.
  [[gnu::always_inline]] static detail::wide repeated(const float* p) {
    alignas(64) static constexpr std::int32_t lane_channel[16] = {0 % channels,  1 % channels,  2 % channels,  3 % channels,
                                                                 4 % channels,  5 % channels,  6 % channels,  7 % channels,
                                                                 8 % channels,  9 % channels,  10 % channels, 11 % channels,
                                                                 12 % channels, 13 % channels, 14 % channels, 15 % channels};
    const __m512 first = _mm512_maskz_loadu_ps(static_cast<__mmask16>((1u << channels) - 1u), p);
    // The zero-masked form: GCC 12 warns on the plain one's undefined source.
    return detail::wide(_mm512_maskz_permutexvar_ps(static_cast<__mmask16>(0xFFFF), _mm512_load_si512(lane_channel), first));
  }

  // block_pixels vectors of pixels_per_vector output pixels each, from ox on (all taps inside, stride 1).
  static void packed_block(const float* const* tap_rows, int ox, const float* weights, const float* bias, float* out_row) {
    using V = detail::wide;
    V acc[block_pixels];
    const V b = bias != nullptr ? repeated(bias) : V::broadcast(0.0f);
#pragma GCC unroll 16
    for (int r = 0; r < block_pixels; ++r) acc[r] = b;
    const int first_ix = ox - win.pad_left;
    for (int ky = 0; ky < win.kernel_h; ++ky) {
      if (tap_rows[ky] == nullptr) continue;
      const float* x = tap_rows[ky] + first_ix * channels;
      const float* w = weights + ky * win.kernel_w * channels;
#pragma GCC unroll 16
      for (int kx = 0; kx < win.kernel_w; ++kx) {
        const V wv = repeated(w + kx * channels);
#pragma GCC unroll 16
        for (int r = 0; r < block_pixels; ++r)
          acc[r] = detail::fmadd(V::load_unaligned(x + (r * pixels_per_vector + kx * win.dilation_w) * channels), wv, acc[r]);
      }
    }
#pragma GCC unroll 16
    for (int r = 0; r < block_pixels; ++r)
      detail::activate<P.fused>(acc[r]).store_unaligned(out_row + (ox + r * pixels_per_vector) * channels);
  }
#endif
};

}  // namespace ctnn::kernel::simd::f32

#endif  // XSIMD_NO_SUPPORTED_ARCHITECTURE
