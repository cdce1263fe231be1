#pragma once
// float32 conv2d (groups = 1), NHWC, as a register-blocked product: output channels in vector lanes,
// several pixels of an output row per block, OHWI weights packed at compile time per block of output
// channels. A 1x1 stride-1 unpadded conv (pointwise) is one product over all pixels. Pixels whose
// window lies inside the input are read in place; the others (padding, row ends) are gathered first,
// with zeros for the padding taps.
#include <ctnn/kernel/simd/detail/xsimd_config.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/simd/detail/f32_gemm.hpp>
#include <ctnn/kernel/simd/detail/f32_lanes.hpp>

#ifndef XSIMD_NO_SUPPORTED_ARCHITECTURE

namespace ctnn::kernel::simd::f32 {

template <kernel_params P>
struct conv2d {
  static constexpr bool supports = P.kind == op_kind::conv2d && P.type == dtype::f32 && P.in.rank == 4 &&
                                   P.out.rank == 4 && P.groups == 1 && detail::vector_activation(P.fused);

 private:
  static constexpr nhwc in = nhwc::of(P.in);
  static constexpr nhwc out = nhwc::of(P.out);
  static constexpr window win = P.win;
  static constexpr int taps = win.kernel_h * win.kernel_w;
  // A pointwise conv reads its pixels in output order: all pixels form one row.
  static constexpr bool pointwise = taps == 1 && win.stride_h == 1 && win.stride_w == 1 && win.pad_top == 0 &&
                                    win.pad_left == 0 && in.h == out.h && in.w == out.w;
  static constexpr long rows = pointwise ? 1 : static_cast<long>(out.n) * out.h;
  static constexpr long row_length = pointwise ? static_cast<long>(out.n) * out.h * out.w : out.w;
  // Windowed convs keep a block's weights within L1 (detail::l1_weight_bytes). Pointwise ones do not: with
  // narrower blocks MobileNet's pointwise layers ran as fast or faster each called alone, but the whole
  // inference 4 % slower (measured; every block of channels reads the input once more).
  static constexpr detail::gemm_blocking blocking =
      detail::plan_gemm(out.c, row_length, taps > 1 ? static_cast<long>(taps) * in.c : 0);
  // Half a vector of output channels: the pixels read in place go two to a vector (detail::gemm_pixel_pairs),
  // twice as many per block for as many accumulators (MobileNet 0.25's first conv, 3 -> 8 channels).
  static constexpr bool pixel_pairs = detail::pixel_pairs_apply<out.c, out.c>;
  static constexpr int pixels_per_block = pixel_pairs ? 2 * blocking.pixels_per_block : blocking.pixels_per_block;
  // Pixels of a row whose windows lie inside the input horizontally: [inside_begin, inside_end).
  static constexpr long inside_begin =
      pointwise ? 0 : (win.pad_left + win.stride_w - 1) / win.stride_w < row_length ? (win.pad_left + win.stride_w - 1) / win.stride_w : row_length;
  static constexpr long inside_end = [] {
    if (pointwise) return row_length;
    const long last_start = in.w - 1 + win.pad_left - (win.kernel_w - 1) * win.dilation_w;
    const long end = last_start < 0 ? 0 : last_start / win.stride_w + 1;
    return end < inside_begin ? inside_begin : (end > row_length ? row_length : end);
  }();
  // A padded edge of a pixel or two alone would be a block of few accumulator chains (latency-bound, and
  // it reads the block's weights once more for little work): with whole vectors of input channels per
  // tap (cheap to gather), the in-place pixels next to an edge are gathered with it, up to whole blocks of
  // a balanced split of the row (resnet8's first stride-2 conv, 1-pixel edges: 84 % -> 89 % of the peak).
  // With fewer channels, gathering costs about what it feeds (resnet8's 3-channel conv: 5.1 -> 8.1 us).
  static constexpr bool widen_edges = in.c >= detail::lanes;
  // Gathered blocks: at most 16 Ki floats of stack for the gathered windows.
  static constexpr int gathered_pixels = [] {
    const long splits = (row_length + blocking.pixels_per_block - 1) / blocking.pixels_per_block;
    const long balanced = (row_length + splits - 1) / splits;
    const long edge = inside_begin > row_length - inside_end ? inside_begin : row_length - inside_end;
    const long wanted = widen_edges ? balanced : (edge < blocking.pixels_per_block ? edge : blocking.pixels_per_block);
    const long fit = 16384 / (taps * in.c);
    const long pixels = wanted < fit ? wanted : fit;
    return static_cast<int>(pixels < 1 ? 1 : pixels);
  }();
  static constexpr long gathered_edge(long edge) {
    if (!widen_edges || edge == 0) return edge;
    const long whole = (edge + gathered_pixels - 1) / gathered_pixels * gathered_pixels;
    return whole < row_length ? whole : row_length;
  }
  // Pixels [interior_begin, interior_end) are read in place, in blocks of block_pixels or block_pixels - 1
  // (a balanced split: no short block); the others are gathered first (zeros for the padding taps).
  static constexpr long interior_begin = gathered_edge(inside_begin);
  static constexpr long interior_end = [] {
    const long end = row_length - gathered_edge(row_length - inside_end);
    return end < interior_begin ? interior_begin : end;
  }();
  static constexpr long interior = interior_end - interior_begin;
  static constexpr long interior_blocks = (interior + pixels_per_block - 1) / pixels_per_block;
  static constexpr int block_pixels = interior_blocks == 0 ? 1 : static_cast<int>((interior + interior_blocks - 1) / interior_blocks);
  static constexpr long full_blocks = interior - interior_blocks * (block_pixels - 1);  // the others: one pixel less

 public:
  static constexpr bool packs(std::size_t k) { return k == 1 || k == 2; }
  template <std::size_t K, class Reader>
  static constexpr auto pack(const Reader& read) {
    if constexpr (K == 1) return detail::pack_gemm_weights<out.c, taps, in.c, blocking>(read);
    else return detail::pack_gemm_bias<out.c, blocking>(read);
  }

  static void run(const float* const* operands, float* result) {
    const float* input = operands[0];
    const float* weights = operands[1];
    const float* bias = P.has_bias ? operands[2] : detail::zero_bias<blocking>.data();
    for (long row = 0; row < rows; ++row) {
      // Input rows of the window taps (nullptr: padding).
      const float* tap_rows[win.kernel_h];
      if constexpr (pointwise) {
        tap_rows[0] = input;
      } else {
        const long b = row / out.h, oy = row % out.h;
        for (int ky = 0; ky < win.kernel_h; ++ky) {
          const long iy = oy * win.stride_h - win.pad_top + ky * win.dilation_h;
          tap_rows[ky] = iy >= 0 && iy < in.h ? input + (b * in.h + iy) * in.w * in.c : nullptr;
        }
      }
      float* out_row = result + row * row_length * out.c;
      gather_and_compute(tap_rows, 0, interior_begin, weights, bias, out_row);
      long x = interior_begin;
      for (long block = 0; block < interior_blocks; ++block) {
        const float* tap_base[taps];
        for (int t = 0; t < taps; ++t) {
          const float* r = tap_rows[t / win.kernel_w];
          const long ix = x * win.stride_w - win.pad_left + (t % win.kernel_w) * win.dilation_w;
          tap_base[t] = r == nullptr ? nullptr : r + ix * in.c;
        }
        if (block < full_blocks) {
          in_place_block<block_pixels>(tap_base, weights, bias, out_row + x * out.c);
          x += block_pixels;
        } else if constexpr (block_pixels > 1) {
          in_place_block<block_pixels - 1>(tap_base, weights, bias, out_row + x * out.c);
          x += block_pixels - 1;
        }
      }
      gather_and_compute(tap_rows, interior_end, row_length, weights, bias, out_row);
    }
  }

 private:
  // Pixels [begin, end) of a row, windows gathered first (padding taps as zeros).
  static void gather_and_compute(const float* const* tap_rows, long begin, long end, const float* weights, const float* bias,
                                 float* out_row) {
    for (long x = begin; x < end; x += gathered_pixels) {
      const int pixels = end - x < gathered_pixels ? static_cast<int>(end - x) : gathered_pixels;
      alignas(64) float gathered[taps * gathered_pixels * in.c];
      gather(tap_rows, x, pixels, gathered);
      const float* tap_base[taps];
      for (int t = 0; t < taps; ++t) tap_base[t] = gathered + t * gathered_pixels * in.c;
      for_each_block<gathered_pixels, in.c>(tap_base, weights, bias, out_row + x * out.c, pixels);
    }
  }

  template <int R>
  static void in_place_block(const float* const* tap_base, const float* weights, const float* bias, float* out_pixels) {
    constexpr int step = win.stride_w * in.c;
#if XSIMD_WITH_AVX512F
    if constexpr (pixel_pairs) {
      detail::gemm_pixel_pairs<R, in.c, taps, step, out.c, P.fused>(tap_base, weights, bias, out_pixels);
      return;
    }
#endif
    for_each_block<R, step>(tap_base, weights, bias, out_pixels, R);
  }

  template <int R, int Step>
  static void for_each_block(const float* const* tap_base, const float* weights, const float* bias, float* out_pixels,
                             int pixels) {
    detail::gemm_blocks<R, blocking, in.c, taps, Step, out.c, out.c, P.fused>(tap_base, weights, bias, out_pixels, pixels);
  }

  // The windows of `pixels` output pixels from x on, as [tap][pixel][channel] (zeros for padding).
  static void gather(const float* const* tap_rows, long x, int pixels, float* gathered) {
    for (int t = 0; t < taps; ++t) {
      const float* row = tap_rows[t / win.kernel_w];
      for (int p = 0; p < gathered_pixels; ++p) {
        float* to = gathered + (t * gathered_pixels + p) * in.c;
        const long ix = (x + p) * win.stride_w - win.pad_left + (t % win.kernel_w) * win.dilation_w;
        const bool inside = p < pixels && row != nullptr && ix >= 0 && ix < (pointwise ? row_length : in.w);
        // memcpy/memset: GCC 12 -O3 miscompiles the equivalent element loops here (vectoriser).
        if (inside) std::memcpy(to, row + ix * in.c, sizeof(float) * in.c);
        else std::memset(to, 0, sizeof(float) * in.c);
      }
    }
  }
};

}  // namespace ctnn::kernel::simd::f32

#endif  // XSIMD_NO_SUPPORTED_ARCHITECTURE
