#pragma once
// Matrices of 1- or 4-byte elements transposed in blocks of 16-byte SSE registers (16 x 16 bytes: four
// rounds of unpacks, 8-, 16-, 32-, 64-bit interleaves; 4 x 4 words: the last two), the edges element by
// element: NHWC <-> NCHW layout changes, per batch a [rows, cols] <-> [cols, rows] transpose. Used by the
// ONNX int8 kernels (i8/onnx_conv.hpp) and the 8-bit and float32 transposes ONNX models insert around
// their convolutions (i8.hpp, f32/transpose.hpp). Byte moves: the results equal the reference's.
#include <ctnn/kernel/simd/detail/xsimd_config.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <ctnn/ir/module.hpp>

#if XSIMD_WITH_SSE4_1
#include <immintrin.h>
#endif

namespace ctnn::kernel::simd::detail {

// Whether transpose_blocks has its vector blocks here (otherwise it moves element by element).
#if XSIMD_WITH_SSE4_1
inline constexpr bool has_block_transposes = true;
#else
inline constexpr bool has_block_transposes = false;
#endif

// to[c * Rows + r] = from[r * Cols + c] ^ flip, for T of 1 or 4 bytes (flip: 0x80 turns uint8 into int8
// less 128 and back; 0 for a plain transpose).
template <class T, std::int64_t Rows, std::int64_t Cols>
inline void transpose_blocks(const T* from, T* to, T flip = T{}) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 4, "ctnn: transpose_blocks moves 1- or 4-byte elements.");
#if XSIMD_WITH_SSE4_1
  constexpr int side = 16 / static_cast<int>(sizeof(T));  // a block: side x side elements
  constexpr std::int64_t rows_done = Rows / side * side, cols_done = Cols / side * side;
  std::uint32_t flip_bits = 0;
  std::memcpy(&flip_bits, &flip, sizeof(T));
  const __m128i flips = _mm_set1_epi32(static_cast<std::int32_t>(sizeof(T) == 1 ? flip_bits * 0x01010101u : flip_bits));
  for (std::int64_t r0 = 0; r0 < rows_done; r0 += side)
    for (std::int64_t c0 = 0; c0 < cols_done; c0 += side) {
      __m128i x[side], y[side];
      for (int i = 0; i < side; ++i)
        x[i] = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(from + (r0 + i) * Cols + c0)), flips);
      constexpr int half = side / 2;
      if constexpr (sizeof(T) == 1) {
        for (int i = 0; i < half; ++i)
          y[i] = _mm_unpacklo_epi8(x[2 * i], x[2 * i + 1]), y[i + half] = _mm_unpackhi_epi8(x[2 * i], x[2 * i + 1]);
        for (int i = 0; i < half; ++i)
          x[i] = _mm_unpacklo_epi16(y[2 * i], y[2 * i + 1]), x[i + half] = _mm_unpackhi_epi16(y[2 * i], y[2 * i + 1]);
      }
      for (int i = 0; i < half; ++i)
        y[i] = _mm_unpacklo_epi32(x[2 * i], x[2 * i + 1]), y[i + half] = _mm_unpackhi_epi32(x[2 * i], x[2 * i + 1]);
      for (int i = 0; i < half; ++i)
        x[i] = _mm_unpacklo_epi64(y[2 * i], y[2 * i + 1]), x[i + half] = _mm_unpackhi_epi64(y[2 * i], y[2 * i + 1]);
      // Register i now holds column c0 + (i with its bits reversed: four bits for bytes, two for words).
      for (int i = 0; i < side; ++i) {
        const int column = sizeof(T) == 1 ? ((i & 1) << 3 | (i & 2) << 1 | (i & 4) >> 1 | (i & 8) >> 3)
                                          : ((i & 1) << 1 | (i & 2) >> 1);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(to + (c0 + column) * Rows + r0), x[i]);
      }
    }
#else
  constexpr std::int64_t rows_done = 0, cols_done = 0;
#endif
  if constexpr (rows_done == 0 && Rows <= 4) {
    // Fewer rows than a block (an image's 3 channels): column by column, each column's few values stored
    // side by side, which the compiler vectorises as interleaving stores (the row-wise loop below scatters).
    for (std::int64_t c = 0; c < Cols; ++c)
#pragma GCC unroll 4
      for (std::int64_t r = 0; r < Rows; ++r) {
        T v = from[r * Cols + c];
        if constexpr (sizeof(T) == 1) v = static_cast<T>(v ^ flip);
        to[c * Rows + r] = v;
      }
    return;
  }
  for (std::int64_t r = 0; r < Rows; ++r)
    for (std::int64_t c = r < rows_done ? cols_done : 0; c < Cols; ++c) {
      T v = from[r * Cols + c];
      if constexpr (sizeof(T) == 1) v = static_cast<T>(v ^ flip);
      to[c * Rows + r] = v;
    }
}

// A rank-4 transpose that is a batch of matrix transposes: NHWC -> NCHW (perm 0, 3, 1, 2; per batch
// [H * W, C] -> [C, H * W]) or NCHW -> NHWC (perm 0, 2, 3, 1; [C, H * W] -> [H * W, C]).
template <kernel_params P>
struct layout_transpose {
  static constexpr bool to_nchw =
      P.transpose.perm[0] == 0 && P.transpose.perm[1] == 3 && P.transpose.perm[2] == 1 && P.transpose.perm[3] == 2;
  static constexpr bool to_nhwc =
      P.transpose.perm[0] == 0 && P.transpose.perm[1] == 2 && P.transpose.perm[2] == 3 && P.transpose.perm[3] == 1;
  static constexpr bool applies =
      P.kind == op_kind::transpose && P.out_type == P.type && P.in.rank == 4 && P.out.rank == 4 && (to_nchw || to_nhwc);
  static constexpr std::int64_t channels = to_nchw ? P.in[3] : P.in[1];
  static constexpr std::int64_t plane =
      to_nchw ? static_cast<std::int64_t>(P.in[1]) * P.in[2] : static_cast<std::int64_t>(P.in[2]) * P.in[3];
  static constexpr std::int64_t rows = to_nchw ? plane : channels, cols = to_nchw ? channels : plane;

  template <class T>
  static void run(const T* from, T* to) {
    for (std::int32_t n = 0; n < P.in[0]; ++n)
      transpose_blocks<T, rows, cols>(from + n * rows * cols, to + n * rows * cols);
  }
};

}  // namespace ctnn::kernel::simd::detail
