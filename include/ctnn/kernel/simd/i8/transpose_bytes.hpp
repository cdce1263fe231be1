#pragma once
// Byte matrices transposed in 16 x 16 blocks of SSE registers (four rounds of unpacks: 8-, 16-, 32-, 64-bit
// interleaves), the edges byte by byte: the layout changes of ONNX's NCHW integer calls (i8/onnx_conv.hpp)
// and 8-bit NHWC <-> NCHW transposes (the byte moves ONNX models insert around them).
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/requant_arrays.hpp>
#include <ctnn/kernel/simd/i8/isa.hpp>

namespace ctnn::kernel::simd::i8_detail {

// to[c * Rows + r] = from[r * Cols + c] ^ flip (flip 0x80: uint8 <-> int8 less 128).
template <std::int64_t Rows, std::int64_t Cols>
inline void transpose_bytes(const std::uint8_t* from, std::uint8_t* to, std::uint8_t flip) {
#if XSIMD_WITH_SSE4_1
  constexpr std::int64_t block_rows = Rows / 16 * 16, block_cols = Cols / 16 * 16;
  const __m128i flips = _mm_set1_epi8(static_cast<char>(flip));
  for (std::int64_t r0 = 0; r0 < block_rows; r0 += 16)
    for (std::int64_t c0 = 0; c0 < block_cols; c0 += 16) {
      __m128i x[16], y[16];
      for (int i = 0; i < 16; ++i)
        x[i] = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(from + (r0 + i) * Cols + c0)), flips);
      for (int i = 0; i < 8; ++i) y[i] = _mm_unpacklo_epi8(x[2 * i], x[2 * i + 1]), y[i + 8] = _mm_unpackhi_epi8(x[2 * i], x[2 * i + 1]);
      for (int i = 0; i < 8; ++i) x[i] = _mm_unpacklo_epi16(y[2 * i], y[2 * i + 1]), x[i + 8] = _mm_unpackhi_epi16(y[2 * i], y[2 * i + 1]);
      for (int i = 0; i < 8; ++i) y[i] = _mm_unpacklo_epi32(x[2 * i], x[2 * i + 1]), y[i + 8] = _mm_unpackhi_epi32(x[2 * i], x[2 * i + 1]);
      for (int i = 0; i < 8; ++i) x[i] = _mm_unpacklo_epi64(y[2 * i], y[2 * i + 1]), x[i + 8] = _mm_unpackhi_epi64(y[2 * i], y[2 * i + 1]);
      // Register i now holds column c0 + (i with its four bits reversed).
      for (int i = 0; i < 16; ++i) {
        const int column = (i & 1) << 3 | (i & 2) << 1 | (i & 4) >> 1 | (i & 8) >> 3;
        _mm_storeu_si128(reinterpret_cast<__m128i*>(to + (c0 + column) * Rows + r0), x[i]);
      }
    }
  constexpr std::int64_t rows_done = block_rows, cols_done = block_cols;
#else
  constexpr std::int64_t rows_done = 0, cols_done = 0;
#endif
  for (std::int64_t r = 0; r < Rows; ++r)
    for (std::int64_t c = r < rows_done ? cols_done : 0; c < Cols; ++c)
      to[c * Rows + r] = static_cast<std::uint8_t>(from[r * Cols + c] ^ flip);
}

// An 8-bit transpose that is a batch of matrix transposes: NHWC -> NCHW (perm 0, 3, 1, 2) or NCHW -> NHWC
// (perm 0, 2, 3, 1).
template <kernel_params P, class I>
struct transpose_kernel : kernel::detail::reads_constants_as_stored {
  static constexpr bool to_nchw = P.transpose.perm[0] == 0 && P.transpose.perm[1] == 3 && P.transpose.perm[2] == 1 &&
                                  P.transpose.perm[3] == 2;
  static constexpr bool to_nhwc = P.transpose.perm[0] == 0 && P.transpose.perm[1] == 2 && P.transpose.perm[2] == 3 &&
                                  P.transpose.perm[3] == 1;
  static constexpr bool supports = I::available && P.kind == op_kind::transpose &&
                                   (P.type == dtype::i8 || P.type == dtype::u8) && P.out_type == P.type &&
                                   P.in.rank == 4 && P.out.rank == 4 && (to_nchw || to_nhwc);
  // Per batch: a [Rows, Cols] matrix; NHWC -> NCHW: [H * W, C]; NCHW -> NHWC: [C, H * W].
  static constexpr std::int64_t channels = to_nchw ? P.in[3] : P.in[1];
  static constexpr std::int64_t plane = to_nchw ? static_cast<std::int64_t>(P.in[1]) * P.in[2]
                                                : static_cast<std::int64_t>(P.in[2]) * P.in[3];
  static constexpr std::int64_t rows = to_nchw ? plane : channels, cols = to_nchw ? channels : plane;

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    const auto* from = static_cast<const std::uint8_t*>(operands[0]);
    auto* to = static_cast<std::uint8_t*>(result);
    for (std::int32_t n = 0; n < P.in[0]; ++n) transpose_bytes<rows, cols>(from + n * rows * cols, to + n * rows * cols, 0);
  }
};

}  // namespace ctnn::kernel::simd::i8_detail
