#pragma once
// Matrices of 1- or 4-byte elements transposed in blocks of 16-byte SSE registers (16 x 16 bytes: four
// rounds of unpacks, 8-, 16-, 32-, 64-bit interleaves; 4 x 4 words: the last two), the blocks at the edges
// (and matrices with fewer than 16 rows or columns, such as few channels) loaded and stored in part:
// NHWC <-> NCHW layout changes, per batch a [rows, cols] <-> [cols, rows] transpose. Used by the
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

#if XSIMD_WITH_SSE4_1
// One block: rows [r0, r0 + BlockRows) x columns [c0, c0 + BlockCols) of a Rows x Cols matrix, at most
// side x side elements (fewer at the matrix's edges: partial loads and stores of constant sizes).
template <class T, std::int64_t Rows, std::int64_t Cols, int BlockRows, int BlockCols>
[[gnu::always_inline]] inline void transpose_block(const T* from, T* to, std::int64_t r0, std::int64_t c0, __m128i flips) {
  constexpr int side = 16 / static_cast<int>(sizeof(T)), half = side / 2;
  __m128i x[side], y[side];
  for (int i = 0; i < side; ++i) {
    if (i >= BlockRows) {
      x[i] = _mm_setzero_si128();  // past the matrix: never stored
    } else if constexpr (BlockCols == side) {
      x[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + (r0 + i) * Cols + c0));
    } else {
      alignas(16) T row[side]{};
      std::memcpy(row, from + (r0 + i) * Cols + c0, BlockCols * sizeof(T));
      x[i] = _mm_load_si128(reinterpret_cast<const __m128i*>(row));
    }
    x[i] = _mm_xor_si128(x[i], flips);
  }
  if constexpr (sizeof(T) == 1) {
    for (int i = 0; i < half; ++i) y[i] = _mm_unpacklo_epi8(x[2 * i], x[2 * i + 1]), y[i + half] = _mm_unpackhi_epi8(x[2 * i], x[2 * i + 1]);
    for (int i = 0; i < half; ++i) x[i] = _mm_unpacklo_epi16(y[2 * i], y[2 * i + 1]), x[i + half] = _mm_unpackhi_epi16(y[2 * i], y[2 * i + 1]);
  }
  for (int i = 0; i < half; ++i) y[i] = _mm_unpacklo_epi32(x[2 * i], x[2 * i + 1]), y[i + half] = _mm_unpackhi_epi32(x[2 * i], x[2 * i + 1]);
  for (int i = 0; i < half; ++i) x[i] = _mm_unpacklo_epi64(y[2 * i], y[2 * i + 1]), x[i + half] = _mm_unpackhi_epi64(y[2 * i], y[2 * i + 1]);
  // Register i now holds column c0 + (i with its bits reversed: four bits for bytes, two for words).
  for (int i = 0; i < side; ++i) {
    const int column = sizeof(T) == 1 ? ((i & 1) << 3 | (i & 2) << 1 | (i & 4) >> 1 | (i & 8) >> 3) : ((i & 1) << 1 | (i & 2) >> 1);
    if (column >= BlockCols) continue;
    T* out = to + (c0 + column) * Rows + r0;
    if constexpr (BlockRows == side) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out), x[i]);
    } else {
      alignas(16) T values[side];
      _mm_store_si128(reinterpret_cast<__m128i*>(values), x[i]);
      std::memcpy(out, values, BlockRows * sizeof(T));
    }
  }
}
#endif

// to[c * Rows + r] = from[r * Cols + c] ^ flip, for T of 1 or 4 bytes (flip: 0x80 turns uint8 into int8
// less 128 and back; 0 for a plain transpose).
template <class T, std::int64_t Rows, std::int64_t Cols>
inline void transpose_blocks(const T* from, T* to, T flip = T{}) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 4, "ctnn: transpose_blocks moves 1- or 4-byte elements.");
#if XSIMD_WITH_SSE4_1
  constexpr int side = 16 / static_cast<int>(sizeof(T));  // a block: side x side elements
  constexpr std::int64_t whole_rows = Rows / side * side, whole_cols = Cols / side * side;
  constexpr int rows_left = static_cast<int>(Rows - whole_rows), cols_left = static_cast<int>(Cols - whole_cols);
  std::uint32_t flip_bits = 0;
  std::memcpy(&flip_bits, &flip, sizeof(T));
  const __m128i flips = _mm_set1_epi32(static_cast<std::int32_t>(sizeof(T) == 1 ? flip_bits * 0x01010101u : flip_bits));
  for (std::int64_t r0 = 0; r0 < whole_rows; r0 += side) {
    for (std::int64_t c0 = 0; c0 < whole_cols; c0 += side) transpose_block<T, Rows, Cols, side, side>(from, to, r0, c0, flips);
    if constexpr (cols_left > 0) transpose_block<T, Rows, Cols, side, cols_left>(from, to, r0, whole_cols, flips);
  }
  if constexpr (rows_left > 0) {
    for (std::int64_t c0 = 0; c0 < whole_cols; c0 += side) transpose_block<T, Rows, Cols, rows_left, side>(from, to, whole_rows, c0, flips);
    if constexpr (cols_left > 0) transpose_block<T, Rows, Cols, rows_left, cols_left>(from, to, whole_rows, whole_cols, flips);
  }
#else
  for (std::int64_t r = 0; r < Rows; ++r)
    for (std::int64_t c = 0; c < Cols; ++c) {
      T v = from[r * Cols + c];
      if constexpr (sizeof(T) == 1) v = static_cast<T>(v ^ flip);
      to[c * Rows + r] = v;
    }
#endif
}

// A rank-4 transpose that is a batch of matrix transposes: NHWC -> NCHW (perm 0, 3, 1, 2; per batch
// [H * W, C] -> [C, H * W]) or NCHW -> NHWC (perm 0, 2, 3, 1; [C, H * W] -> [H * W, C]).
template <kernel_params P>
struct layout_transpose {
  static constexpr bool to_nchw = P.transpose.perm[0] == 0 && P.transpose.perm[1] == 3 && P.transpose.perm[2] == 1 &&
                                  P.transpose.perm[3] == 2;
  static constexpr bool to_nhwc = P.transpose.perm[0] == 0 && P.transpose.perm[1] == 2 && P.transpose.perm[2] == 3 &&
                                  P.transpose.perm[3] == 1;
  static constexpr bool applies = P.kind == op_kind::transpose && P.out_type == P.type && P.in.rank == 4 &&
                                  P.out.rank == 4 && (to_nchw || to_nhwc);
  static constexpr std::int64_t channels = to_nchw ? P.in[3] : P.in[1];
  static constexpr std::int64_t plane = to_nchw ? static_cast<std::int64_t>(P.in[1]) * P.in[2]
                                                : static_cast<std::int64_t>(P.in[2]) * P.in[3];
  static constexpr std::int64_t rows = to_nchw ? plane : channels, cols = to_nchw ? channels : plane;

  template <class T>
  static void run(const T* from, T* to) {
    for (std::int32_t n = 0; n < P.in[0]; ++n) transpose_blocks<T, rows, cols>(from + n * rows * cols, to + n * rows * cols);
  }
};

}  // namespace ctnn::kernel::simd::detail
