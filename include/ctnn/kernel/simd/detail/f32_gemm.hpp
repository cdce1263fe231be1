#pragma once
// The register-blocked product shared by conv2d, the Winograd transform domain and dense: output
// channels in vector lanes (Vb vectors per block), R pixels per block, weights packed at compile time
// as [block][tap][input channel][Vb * lanes] so that every load in the inner loop is contiguous.
#include <ctnn/kernel/simd/detail/xsimd_config.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <ctnn/ir/op_kind.hpp>
#include <ctnn/kernel/simd/detail/f32_lanes.hpp>

#ifndef XSIMD_NO_SUPPORTED_ARCHITECTURE

namespace ctnn::kernel::simd::detail {

// How a product with `outputs` output channels is blocked: `pixels_per_block` output pixels (rows of
// the left operand) times `vectors_per_block` vectors of output channels fill the accumulator registers.
struct gemm_blocking {
  int vectors_per_block = 1;
  int blocks = 1;
  int pixels_per_block = 1;
  constexpr int block_width() const { return vectors_per_block * lanes; }
  constexpr int padded_outputs() const { return blocks * block_width(); }
};
static_assert(std::has_unique_object_representations_v<gemm_blocking>,
              "gemm_blocking is a template argument: no padding bytes (clang 14).");

// The weights of one block stay in the L1 data cache while the blocks of pixels that reuse them run
// (48 KiB on the AVX-512 machine measured, Zen 5; the rest is left to the inputs): resnet8's stride-2 conv
// with 3x3x32 taps and 64 outputs ran at 67 % of the peak with 4-vector blocks (74 KiB of weights, read
// from L2 by every block of pixels) and at 90 % with 2-vector blocks (37 KiB).
inline constexpr long l1_weight_bytes = 40 * 1024;

// `pixels`: how many rows the product has (1 for a single-row dense layer: wider blocks then, for more
// independent accumulator chains). `depth`: the products per output (taps x input channels; 0: no
// limit), for the L1 budget of a block's weights when several blocks of pixels reuse them.
constexpr gemm_blocking plan_gemm(int outputs, long pixels, long depth = 0) {
  const int vectors = (outputs + lanes - 1) / lanes;
  const int widest = pixels == 1 ? 8 : 4;
  const int top = vectors < widest ? vectors : widest;
  const auto fits = [&](int v) {
    return depth == 0 || pixels == 1 || depth * v * lanes * static_cast<long>(sizeof(float)) <= l1_weight_bytes;
  };
  // The block width that wastes the fewest padding lanes (wider on ties) among those whose weights fit;
  // one vector only when all outputs are one vector or nothing wider fits (more broadcasts per product).
  int best = 0, best_padded = 0;
  for (int v = top; v >= 1; --v) {
    if (v == 1 && best != 0) break;
    if (!fits(v) && v > 1) continue;
    const int padded = (vectors + v - 1) / v * v;
    if (best == 0 || padded < best_padded) best = v, best_padded = padded;
  }
  gemm_blocking b{};
  b.vectors_per_block = best;
  b.blocks = (vectors + b.vectors_per_block - 1) / b.vectors_per_block;
  const int accumulators = vector_registers * 3 / 4;
  int r = accumulators / b.vectors_per_block;
  r = r > 12 ? 12 : (r < 1 ? 1 : r);
  b.pixels_per_block = pixels < r ? static_cast<int>(pixels) : r;
  return b;
}

// Packs [out][tap][depth] weights (OHWI conv, [units][features] dense) as [block][tap][depth][lane]
// with zeros past `Outputs`. Call-free inner loop (clang's constexpr step budget): `read.f32_values()`;
// the source steps by one output per lane, so that g++ (which interns every integer an evaluation
// computes) evaluates few index expressions per weight.
template <int Outputs, int Taps, int Depth, gemm_blocking B, class Reader>
constexpr auto pack_gemm_weights(const Reader& read) {
  constexpr int width = B.block_width();
  constexpr std::size_t per_output = static_cast<std::size_t>(Taps) * Depth;
  packed_floats<static_cast<std::size_t>(B.blocks) * per_output * width> packed{};
  const float* const values = read.f32_values();
  std::size_t at = 0;
  for (int block = 0; block < B.blocks; ++block) {
    const int outputs = Outputs - block * width < width ? Outputs - block * width : width;
    const std::size_t block_start = static_cast<std::size_t>(block) * width * per_output;
    for (std::size_t tap_depth = 0; tap_depth < per_output; ++tap_depth) {
      std::size_t from = block_start + tap_depth;  // an index: a pointer may not step past the end
      int lane = 0;
      for (; lane < outputs; ++lane, ++at, from += per_output) packed.values[at] = values[from];
      for (; lane < width; ++lane, ++at) packed.values[at] = 0.0f;
    }
  }
  return packed;
}

// A bias padded to whole blocks.
template <int Outputs, gemm_blocking B, class Reader>
constexpr auto pack_gemm_bias(const Reader& read) {
  packed_floats<static_cast<std::size_t>(B.padded_outputs())> packed{};
  const float* const values = read.f32_values();
  for (int out = 0; out < Outputs; ++out) packed.values[out] = values[out];
  return packed;
}

template <gemm_blocking B>
inline constexpr packed_floats<static_cast<std::size_t>(B.padded_outputs())> zero_bias{};

// One block: R pixels times Vb vectors of output channels.
//   acc[r][v] = bias[v] + sum over taps t (tap_base[t] != nullptr) and d < Depth of
//               tap_base[t][r * Step + d] * weights[(t * Depth + d) * Vb * lanes + v * lanes + lane]
// then activation, stored for the first `pixels` pixels (pixel r at out + r * OutStride) and the first
// `channels` channels.
template <int R, int Vb, int Depth, int Taps, int Step, int OutStride, activation A>
inline void gemm_block(const float* const* tap_base, const float* weights, const float* bias, float* out, int pixels,
                       int channels) {
  constexpr int width = Vb * lanes;
  // Every loop over r and v is unrolled (the pragmas; R <= 12, Vb <= 8), so that the accumulators stay in
  // registers.
  wide acc[R][Vb];
#pragma GCC unroll 16
  for (int v = 0; v < Vb; ++v) {
    const wide b = wide::load_aligned(bias + v * lanes);
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) acc[r][v] = b;
  }
  for (int t = 0; t < Taps; ++t) {
    const float* x = tap_base[t];
    if (x == nullptr) continue;
    const float* w = weights + t * Depth * width;
    for (int d = 0; d < Depth; ++d) {
      wide wv[Vb];
#pragma GCC unroll 16
      for (int v = 0; v < Vb; ++v) wv[v] = wide::load_aligned(w + d * width + v * lanes);
#pragma GCC unroll 16
      for (int r = 0; r < R; ++r) {
        const wide xr = wide::broadcast(x[r * Step + d]);
#pragma GCC unroll 16
        for (int v = 0; v < Vb; ++v) acc[r][v] = fmadd(xr, wv[v], acc[r][v]);
      }
    }
  }
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) {
    if (r >= pixels) continue;
    float* o = out + r * OutStride;
#pragma GCC unroll 16
    for (int v = 0; v < Vb; ++v) {
      const wide y = activate<A>(acc[r][v]);
      if (v * lanes + lanes <= channels) {
        y.store_unaligned(o + v * lanes);
      } else if (v * lanes < channels) {
        store_first(y, o + v * lanes, channels - v * lanes);
      }
    }
  }
}

#if XSIMD_WITH_AVX512F
// Whether gemm_pixel_pairs applies: half a 512-bit vector of output channels, pixels stored contiguously.
template <int Outputs, int OutStride>
inline constexpr bool pixel_pairs_apply = sizeof(wide) == 64 && Outputs * 2 == lanes && OutStride == Outputs;

// gemm_block for Outputs = lanes / 2 (MobileNet 0.25's first conv: 8 channels), two pixels per vector:
// lanes [0, 8) pixel 2j, lanes [8, 16) pixel 2j + 1 (x broadcast to each half, weights repeated), so no
// lane is padding. The same sums in the same order as gemm_block's. `weights`, `bias`: packed for one
// vector per block (pack_gemm_weights / pack_gemm_bias), lanes [Outputs, lanes) unused. Pixel r reads
// tap_base[t][r * Step + d] for r < R only (an odd R's last vector repeats its pixel, stored once).
template <int R, int Depth, int Taps, int Step, int Outputs, activation A>
inline void gemm_pixel_pairs(const float* const* tap_base, const float* weights, const float* bias, float* out) {
  constexpr int pairs = (R + 1) / 2;
  constexpr __mmask16 upper = static_cast<__mmask16>(0xFF00);
  // Lanes [0, 8) twice (the zero-masked form: GCC 12 warns on the plain one's undefined source).
  const auto repeat_half = [](__m512 v) { return _mm512_maskz_shuffle_f32x4(static_cast<__mmask16>(0xFFFF), v, v, 0x44); };
  __m512 acc[pairs];
  const __m512 b = repeat_half(_mm512_load_ps(bias));
#pragma GCC unroll 16
  for (int j = 0; j < pairs; ++j) acc[j] = b;
  for (int t = 0; t < Taps; ++t) {
    const float* x = tap_base[t];
    if (x == nullptr) continue;
    const float* w = weights + t * Depth * lanes;
    if constexpr (Step + Depth <= lanes) {
      // A pair's inputs of this tap in one masked load (lanes [0, Depth) and [Step, Step + Depth); the others
      // are not read), spread to the halves by a permutation per input channel.
      constexpr __mmask16 used = static_cast<__mmask16>(((1u << Depth) - 1u) | ((1u << Depth) - 1u) << Step);
      constexpr __mmask16 first_only = static_cast<__mmask16>((1u << Depth) - 1u);
      __m512 xs[pairs];
#pragma GCC unroll 16
      for (int j = 0; j < pairs; ++j) xs[j] = _mm512_maskz_loadu_ps(2 * j + 1 < R ? used : first_only, x + 2 * j * Step);
#pragma GCC unroll 16
      for (int d = 0; d < Depth; ++d) {
        const __m512 wv = repeat_half(_mm512_load_ps(w + d * lanes));
        const __m512i pick = _mm512_mask_set1_epi32(_mm512_set1_epi32(d), upper, Step + d);
#pragma GCC unroll 16
        for (int j = 0; j < pairs; ++j) {
          const __m512i from = 2 * j + 1 < R ? pick : _mm512_set1_epi32(d);
          acc[j] = _mm512_fmadd_ps(_mm512_maskz_permutexvar_ps(static_cast<__mmask16>(0xFFFF), from, xs[j]), wv, acc[j]);
        }
      }
    } else {
      for (int d = 0; d < Depth; ++d) {
        const __m512 wv = repeat_half(_mm512_load_ps(w + d * lanes));
#pragma GCC unroll 16
        for (int j = 0; j < pairs; ++j) {
          const int second = 2 * j + 1 < R ? 2 * j + 1 : 2 * j;
          const __m512 xv = _mm512_mask_broadcastss_ps(_mm512_set1_ps(x[2 * j * Step + d]), upper,
                                                       _mm_set_ss(x[second * Step + d]));
          acc[j] = _mm512_fmadd_ps(xv, wv, acc[j]);
        }
      }
    }
  }
#pragma GCC unroll 16
  for (int j = 0; j < pairs; ++j) {
    const wide y = activate<A>(wide(acc[j]));
    if (2 * j + 1 < R) y.store_unaligned(out + 2 * j * Outputs);
    else store_first(y, out + 2 * j * Outputs, Outputs);
  }
}
#else
template <int Outputs, int OutStride>
inline constexpr bool pixel_pairs_apply = false;
#endif

// Every block of output channels of R pixels (gemm_block): Outputs channels, B's blocks, weights packed by
// pack_gemm_weights<Outputs, Taps, Depth, B> and the bias by pack_gemm_bias.
template <int R, gemm_blocking B, int Depth, int Taps, int Step, int OutStride, int Outputs, activation A>
inline void gemm_blocks(const float* const* tap_base, const float* weights, const float* bias, float* out, int pixels) {
  constexpr int width = B.block_width();
  for (int block = 0; block < B.blocks; ++block) {
    const int channels = Outputs - block * width < width ? Outputs - block * width : width;
    gemm_block<R, B.vectors_per_block, Depth, Taps, Step, OutStride, A>(tap_base, weights + block * Taps * Depth * width,
                                                                         bias + block * width, out + block * width, pixels,
                                                                         channels);
  }
}

}  // namespace ctnn::kernel::simd::detail

#endif  // XSIMD_NO_SUPPORTED_ARCHITECTURE
