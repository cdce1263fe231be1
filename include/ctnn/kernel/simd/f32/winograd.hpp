#pragma once
// float32 3x3 stride-1 conv2d by Winograd F(2x2, 3x3): each 2x2 output tile takes 16 products per
// (input, output) channel pair instead of 36. The filter transform U = G g G^T is done at compile time
// (pack<1>), laid out as [transform position][block][input channel][lanes]; at run time, a block of
// tiles is transformed (V = B^T d B, vectorised over channels), multiplied per transform position by the
// shared register-blocked product, and transformed back (Y = A^T M A) with bias and activation.
// Rounding differs from the direct sum (the transforms add and halve): see tests/kernel/simd/simd_f32_*.
#include <ctnn/kernel/simd/detail/xsimd_config.hpp>

#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/simd/detail/f32_gemm.hpp>
#include <ctnn/kernel/simd/detail/f32_lanes.hpp>
#include <ctnn/kernel/simd/f32/conv2d.hpp>

#ifndef XSIMD_NO_SUPPORTED_ARCHITECTURE

namespace ctnn::kernel::simd::f32 {

template <kernel_params P>
struct winograd_conv2d {
  // A conv the direct kernel (f32/conv2d.hpp) runs, 3x3, stride 1, undilated. Used where it pays
  // (measured: build/simd-f32 timing, docs in the final report): enough channels on both sides for the
  // transforms to be small next to the products.
  static constexpr bool supports = conv2d<P>::supports &&
                                   P.win.kernel_h == 3 && P.win.kernel_w == 3 && P.win.stride_h == 1 &&
                                   P.win.stride_w == 1 && P.win.dilation_h == 1 && P.win.dilation_w == 1 &&
                                   P.in[3] >= 8 && P.out[3] >= 8;

 private:
  static constexpr nhwc in = nhwc::of(P.in);
  static constexpr nhwc out = nhwc::of(P.out);
  static constexpr int tiles_h = (out.h + 1) / 2;
  static constexpr int tiles_w = (out.w + 1) / 2;
  static constexpr long tiles = static_cast<long>(out.n) * tiles_h * tiles_w;
  static constexpr detail::gemm_blocking blocking = [] {
    detail::gemm_blocking b = detail::plan_gemm(out.c, tiles);
    // The transformed tiles of one block stay on the stack: at most 32 Ki floats per buffer.
    const int widest = in.c > b.padded_outputs() ? in.c : b.padded_outputs();
    const int fit = 32768 / (16 * widest);
    if (fit < b.pixels_per_block) b.pixels_per_block = fit < 1 ? 1 : fit;
    return b;
  }();
  static constexpr int block_tiles = blocking.pixels_per_block;
  static constexpr int width = blocking.block_width();
  static constexpr int padded = blocking.padded_outputs();

 public:
  static constexpr bool packs(std::size_t k) { return k == 1 || k == 2; }
  template <std::size_t K, class Reader>
  static constexpr auto pack(const Reader& read) {
    if constexpr (K == 1) return transform_filters(read);
    else return detail::pack_gemm_bias<out.c, blocking>(read);
  }

  static void run(const float* const* operands, float* result) {
    const float* input = operands[0];
    const float* filters = operands[1];
    const float* bias = P.has_bias ? operands[2] : detail::zero_bias<blocking>.data();
    alignas(64) float transformed[16 * block_tiles * in.c];  // [position][tile][input channel]
    alignas(64) float products[16 * block_tiles * padded];   // [position][tile][output channel]
    for (long first = 0; first < tiles; first += block_tiles) {
      const int count = tiles - first < block_tiles ? static_cast<int>(tiles - first) : block_tiles;
      for (int t = 0; t < block_tiles; ++t) transform_input(input, first + t, t < count, transformed + t * in.c);
      for (int position = 0; position < 16; ++position) {
        const float* rows[1] = {transformed + position * block_tiles * in.c};
        for (int block = 0; block < blocking.blocks; ++block)
          detail::gemm_block<block_tiles, blocking.vectors_per_block, in.c, 1, in.c, padded, activation::none>(
              rows, filters + (position * blocking.blocks + block) * in.c * width, detail::zero_bias<blocking>.data(),
              products + position * block_tiles * padded + block * width, block_tiles, width);
      }
      for (int t = 0; t < count; ++t) transform_output(products + t * padded, bias, first + t, result);
    }
  }

 private:
  // U = G g G^T for every (output, input) channel pair, G = [1 0 0; .5 .5 .5; .5 -.5 .5; 0 0 1].
  template <class Reader>
  static constexpr auto transform_filters(const Reader& read) {
    detail::packed_floats<static_cast<std::size_t>(16) * padded * in.c> packed{};
    const float* const values = read.f32_values();
    for (int o = 0; o < out.c; ++o)
      for (int i = 0; i < in.c; ++i) {
        float g[3][3]{};
        for (int k = 0; k < 9; ++k) g[k / 3][k % 3] = values[(o * 9 + k) * in.c + i];
        float gg[4][3]{};  // G g
        for (int c = 0; c < 3; ++c) {
          gg[0][c] = g[0][c];
          gg[1][c] = 0.5f * (g[0][c] + g[1][c] + g[2][c]);
          gg[2][c] = 0.5f * (g[0][c] - g[1][c] + g[2][c]);
          gg[3][c] = g[2][c];
        }
        const int block = o / width, lane = o % width;
        for (int r = 0; r < 4; ++r) {
          const float u[4] = {gg[r][0], 0.5f * (gg[r][0] + gg[r][1] + gg[r][2]), 0.5f * (gg[r][0] - gg[r][1] + gg[r][2]), gg[r][2]};
          for (int c = 0; c < 4; ++c)
            packed.values[static_cast<std::size_t>((((r * 4 + c) * blocking.blocks + block) * in.c + i) * width + lane)] = u[c];
        }
      }
    return packed;
  }

  // V = B^T d B of the 4x4 input tile of `tile` (zeros outside the input), B^T = [1 0 -1 0; 0 1 1 0;
  // 0 -1 1 0; 0 1 0 -1]; position p of the tile at to[p * block_tiles * in.c].
  static void transform_input(const float* input, long tile, bool valid, float* to) {
    const long b = tile / (tiles_h * tiles_w), ty = tile / tiles_w % tiles_h, tx = tile % tiles_w;
    const long y0 = 2 * ty - P.win.pad_top, x0 = 2 * tx - P.win.pad_left;
    const float* rows[4];
    bool inside_x[4];
    for (int k = 0; k < 4; ++k) {
      rows[k] = valid && y0 + k >= 0 && y0 + k < in.h ? input + ((b * in.h + y0 + k) * in.w + x0) * in.c : nullptr;
      inside_x[k] = x0 + k >= 0 && x0 + k < in.w;
    }
    detail::for_each_channel_chunk<in.c>([&](auto lanes, int c) __attribute__((always_inline)) {
      using V = decltype(lanes);
      V d[4][4];
      for (int r = 0; r < 4; ++r)
        for (int k = 0; k < 4; ++k)
          d[r][k] = rows[r] != nullptr && inside_x[k] ? V::load_unaligned(rows[r] + k * in.c + c) : V::broadcast(0.0f);
      V t[4][4];  // B^T d
      for (int k = 0; k < 4; ++k) {
        t[0][k] = d[0][k] - d[2][k];
        t[1][k] = d[1][k] + d[2][k];
        t[2][k] = d[2][k] - d[1][k];
        t[3][k] = d[1][k] - d[3][k];
      }
      constexpr int stride = block_tiles * in.c;
      for (int r = 0; r < 4; ++r) {  // (B^T d) B
        (t[r][0] - t[r][2]).store_unaligned(to + (r * 4 + 0) * stride + c);
        (t[r][1] + t[r][2]).store_unaligned(to + (r * 4 + 1) * stride + c);
        (t[r][2] - t[r][1]).store_unaligned(to + (r * 4 + 2) * stride + c);
        (t[r][1] - t[r][3]).store_unaligned(to + (r * 4 + 3) * stride + c);
      }
    });
  }

  // Y = A^T M A + bias, A^T = [1 1 1 0; 0 1 -1 -1], activation, the output pixels of the tile that exist.
  static void transform_output(const float* m, const float* bias, long tile, float* result) {
    const long b = tile / (tiles_h * tiles_w), ty = tile / tiles_w % tiles_h, tx = tile % tiles_w;
    const long y0 = 2 * ty, x0 = 2 * tx;
    constexpr int stride = block_tiles * padded;
    detail::for_each_channel_chunk<out.c>([&](auto lanes, int c) __attribute__((always_inline)) {
      using V = decltype(lanes);
      V s[2][4];  // A^T M
      for (int k = 0; k < 4; ++k) {
        const V m1 = V::load_unaligned(m + (4 + k) * stride + c), m2 = V::load_unaligned(m + (8 + k) * stride + c);
        s[0][k] = V::load_unaligned(m + k * stride + c) + m1 + m2;
        s[1][k] = m1 - m2 - V::load_unaligned(m + (12 + k) * stride + c);
      }
      const V bv = V::load_unaligned(bias + c);
      for (int r = 0; r < 2; ++r) {
        if (y0 + r >= out.h) break;
        float* row = result + ((b * out.h + y0 + r) * out.w + x0) * out.c + c;
        detail::activate<P.fused>(s[r][0] + s[r][1] + s[r][2] + bv).store_unaligned(row);
        if (x0 + 1 < out.w) detail::activate<P.fused>(s[r][1] - s[r][2] - s[r][3] + bv).store_unaligned(row + out.c);
      }
    });
  }
};

}  // namespace ctnn::kernel::simd::f32

#endif  // XSIMD_NO_SUPPORTED_ARCHITECTURE
