#pragma once
// int8 (and uint8) resize on Armv7E-M, bit-exact with the reference kernels (kernel/reference/resize.hpp). The call's
// shapes are constants, so the compiler maps every output row and column to its source once, in tables:
//   nearest neighbour (TFLite's RESIZE_NEAREST_NEIGHBOR, ONNX's Resize nearest of int8 or uint8, rank 4, any
//   coordinates but tf_crop_and_resize): each output run (the trailing dims that are not resized: NHWC's pixel
//   depth, a single byte in NCHW) is a copy of constant length from a tabled offset; an output row whose source row
//   is the previous row's (an upscale repeats rows) is a copy of that output row. The reference kernel maps each
//   row and pixel through float arithmetic and copies a byte at a time.
//   bilinear (TFLite's RESIZE_BILINEAR, TFLM's ResizeBilinearInteger): per output row and column its neighbours
//   and weights in 1/1024ths, tabled; four channels a turn, a word load per neighbour, each pair of rows blended
//   by two halfword multiply-accumulates (SMLABB/SMLABT on the sign-extended bytes, the row weights packed as
//   int16 halves), the two blends weighted by the column's in 32 bits (|sum| <= 2^29: the weights of an axis sum
//   to 1024, each within [-512, 1536]; the same integer sum as TFLM's) and TFLM's rounding half away from zero as
//   a shift. Where the output keeps at least half the input's columns (and a row's depth is at most 1024 values)
//   the two source rows of an output row are blended once, whole, into a stack row (and kept for the next output
//   row where it has the same sources and weights), each pixel then two loads and the column's weighting. The
//   reference computes the coordinates per pixel and the sum in 64 bits.
// Calls the plan runs in place are left to the reference kernel.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/dsp.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/reference/resize.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::detail {

namespace resize_detail {

// The number of leading dims of P (those before the trailing run that is not resized).
template <kernel_params P>
constexpr std::int32_t leading_dims() {
  std::int32_t leading = P.out.rank;
  while (leading > 0 && (P.resize().resized_axes >> (leading - 1) & 1u) == 0) --leading;
  return leading;
}

// Per leading dim d and output index i, the byte offset of its source in the input (the input's stride of d times
// the reference's source index), at [start[d] + i].
template <kernel_params P>
struct nearest_tables {
  static constexpr std::size_t total = [] {
    std::size_t n = 0;
    for (std::int32_t d = 0; d < P.out.rank; ++d) n += static_cast<std::size_t>(P.out[d]);
    return n;
  }();
  std::array<std::size_t, 4> start{};
  std::array<std::int32_t, total> offset{};
};
template <kernel_params P>
constexpr nearest_tables<P> make_nearest_tables() {
  nearest_tables<P> t{};
  std::int64_t stride = 1;
  std::array<std::int64_t, 4> strides{};
  for (std::int32_t d = P.in.rank - 1; d >= 0; --d) {
    strides[static_cast<std::size_t>(d)] = stride;
    stride *= P.in[d];
  }
  std::size_t at = 0;
  const resize_fields r = P.resize();
  for (std::int32_t d = 0; d < P.out.rank; ++d) {
    t.start[static_cast<std::size_t>(d)] = at;
    for (std::int32_t i = 0; i < P.out[d]; ++i) {
      const auto source = reference::resize_detail::nearest_source(r, d, i, P.in[d], P.out[d]);
      t.offset[at++] = static_cast<std::int32_t>(source.at * strides[static_cast<std::size_t>(d)]);
    }
  }
  return t;
}

// One output row or column of a bilinear call: its two neighbours' offsets (elements) and weights (1/1024ths).
struct bilinear_tap {
  std::int32_t low, high, weight_low, weight_high;
};
template <std::size_t N>
constexpr std::array<bilinear_tap, N> bilinear_taps(const resize_fields& r, std::int32_t in, std::int32_t stride) {
  namespace bd = reference::int8::bilinear_detail;
  std::array<bilinear_tap, N> taps{};
  if (N == 0) return taps;
  const std::int32_t scale = bd::scale_10(r, in, static_cast<std::int32_t>(N));
  for (std::size_t x = 0; x < N; ++x) {
    const bd::coordinate c = bd::source(r, static_cast<std::int32_t>(x), scale, in);
    const std::int32_t fraction = c.at - (1 << 10) * c.low;
    taps[x] = {c.low * stride, c.high * stride, (1 << 10) - fraction, fraction};
  }
  return taps;
}
// Whether every neighbour is inside the axis (TFLM clamps the upper one only; its scale rounds to nearest) and the
// weights' magnitudes sum to at most 2048 (the fraction is at least -512: half a pixel before the first), so that a
// pixel's sum, at most 128 * 2048^2 in magnitude, fits 32 bits.
template <std::size_t N>
constexpr bool taps_inside(const std::array<bilinear_tap, N>& taps, std::int32_t in, std::int32_t stride) {
  const auto magnitude = [](std::int32_t w) { return w < 0 ? -w : w; };
  for (const bilinear_tap& t : taps)
    if (t.low < 0 || t.low > (in - 1) * stride || magnitude(t.weight_low) + magnitude(t.weight_high) > 2048)
      return false;
  return true;
}

}  // namespace resize_detail

template <kernel_params P>
struct resize_nearest_kernel : kernel::detail::reads_constants_as_stored {
  static constexpr std::int32_t leading = resize_detail::leading_dims<P>();
  static constexpr bool supports =
      dsp_available && P.kind == op_kind::resize_nearest && (P.type == dtype::i8 || P.type == dtype::u8) &&
      P.requantization == requantization_policy::tflite && P.in_place == 0 && P.in.rank == 4 && P.out.rank == 4 &&
      leading >= 2 && P.resize().coordinates != resize_coordinates::tf_crop_and_resize &&
      P.in.elements() < (std::int64_t{1} << 31) && P.out.elements() < (std::int64_t{1} << 31);

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    static constexpr resize_detail::nearest_tables<P> tables = resize_detail::make_nearest_tables<P>();
    // The run copied per output position: the trailing dims that are not resized; a row: the last leading dim.
    constexpr auto run_bytes = static_cast<std::size_t>(P.out.elements() / [] {
      std::int64_t n = 1;
      for (std::int32_t d = 0; d < leading; ++d) n *= P.out[d];
      return n;
    }());
    constexpr std::int32_t columns = P.out[leading - 1], rows = P.out[leading - 2];
    constexpr std::size_t row_bytes = static_cast<std::size_t>(columns) * run_bytes;
    constexpr std::int32_t outer = [] {
      std::int32_t n = 1;
      for (std::int32_t d = 0; d < leading - 2; ++d) n *= P.out[d];
      return n;
    }();
    const auto* input = static_cast<const std::uint8_t*>(operands[0]);
    auto* to = static_cast<std::uint8_t*>(result);
    const std::int32_t* row_offset = &tables.offset[tables.start[static_cast<std::size_t>(leading - 2)]];
    const std::int32_t* column_offset = &tables.offset[tables.start[static_cast<std::size_t>(leading - 1)]];
    std::array<std::int32_t, 2> index{};  // the outer leading dims' indices (at most two: rank 4)
    for (std::int32_t o = 0; o < outer; ++o) {
      std::int32_t base = 0;
      for (std::int32_t d = 0; d < leading - 2; ++d)
        base += tables.offset[tables.start[static_cast<std::size_t>(d)] +
                              static_cast<std::size_t>(index[static_cast<std::size_t>(d)])];
      for (std::int32_t y = 0; y < rows; ++y, to += row_bytes) {
        if (y > 0 && row_offset[y] == row_offset[y - 1]) {
          std::memcpy(to, to - row_bytes, row_bytes);
          continue;
        }
        const std::uint8_t* source_row = input + base + row_offset[y];
        std::uint8_t* out = to;
        for (std::int32_t x = 0; x < columns; ++x, out += run_bytes) {
          if constexpr (run_bytes == 1)
            *out = source_row[column_offset[x]];
          else
            std::memcpy(out, source_row + column_offset[x], run_bytes);
        }
      }
      for (std::int32_t d = leading - 3; d >= 0; --d) {
        const auto du = static_cast<std::size_t>(d);
        if (++index[du] < P.out[d]) break;
        index[du] = 0;
      }
    }
  }
};

template <kernel_params P>
struct resize_bilinear_kernel : kernel::detail::reads_constants_as_stored {
  static constexpr bool shaped =
      P.kind == op_kind::resize_linear && P.type == dtype::i8 && P.requantization == requantization_policy::tflite &&
      P.resize().coordinates == resize_coordinates::tflite && P.in_place == 0 && P.in.rank == 4 && P.out.rank == 4 &&
      P.in[0] == P.out[0] && P.in[3] == P.out[3] && P.in.elements() < (std::int64_t{1} << 31) &&
      P.out.elements() < (std::int64_t{1} << 31);
  static constexpr std::int32_t depth = shaped ? P.out[3] : 1;
  static constexpr std::size_t out_h = shaped ? static_cast<std::size_t>(P.out[1]) : 0,
                               out_w = shaped ? static_cast<std::size_t>(P.out[2]) : 0;
  static constexpr std::array<resize_detail::bilinear_tap, out_h> rows =
      resize_detail::bilinear_taps<out_h>(P.resize(), P.in[1], P.in[2] * depth);
  static constexpr std::array<resize_detail::bilinear_tap, out_w> columns =
      resize_detail::bilinear_taps<out_w>(P.resize(), P.in[2], depth);
  static constexpr bool supports = dsp_available && shaped &&
                                   resize_detail::taps_inside(rows, P.in[1], P.in[2] * depth) &&
                                   resize_detail::taps_inside(columns, P.in[2], depth);

  // Where every output row's two source rows are blended once, whole (a scratch row of int32 blends on the stack,
  // at most 4 KB), and each output pixel weighs two of those blends: where the output has at least half the input's
  // columns (each blend is read about twice or more; else each pixel blends its own two columns' rows).
  static constexpr std::int32_t row_elements = shaped ? P.in[2] * depth : 0;
  static constexpr bool blends_whole_rows = depth % 4 == 0 && row_elements <= 1024 && P.in[2] <= 2 * P.out[2];

  // The pixel's value from its two row blends (1/1024ths) weighted by the column's: TFLM's (sum +- 2^19) / 2^20,
  // rounding half away from zero, as an arithmetic shift of sum + 2^19, less one where sum is negative (the shift floors).
  [[gnu::always_inline]] static std::int8_t rounded(std::int32_t low_blend, std::int32_t high_blend,
                                                    std::int32_t weight_low, std::int32_t weight_high) {
    const std::int32_t sum = low_blend * weight_low + high_blend * weight_high;
    return static_cast<std::int8_t>((sum + (1 << 19) + (sum >> 31)) >> 20);
  }
  // Four channels of the upper and lower rows (a word of each) blended by the row weights (int16 halves: low the
  // upper row's, high the lower row's): bytes sign-extended in pairs, two halfword multiplies per channel.
  [[gnu::always_inline]] static void blend_quad(std::uint32_t upper, std::uint32_t lower, std::uint32_t weights,
                                                std::int32_t* blends) {
    const std::uint32_t upper_even = sxtb16(upper), lower_even = sxtb16(lower);
    const std::uint32_t upper_odd = sxtb16_ror8(upper), lower_odd = sxtb16_ror8(lower);
    blends[0] = smlabt(lower_even, weights, smlabb(upper_even, weights, 0));
    blends[1] = smlabt(lower_odd, weights, smlabb(upper_odd, weights, 0));
    blends[2] = smlatt(lower_even, weights, smlatb(upper_even, weights, 0));
    blends[3] = smlatt(lower_odd, weights, smlatb(upper_odd, weights, 0));
  }

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    const auto* input = static_cast<const std::int8_t*>(operands[0]);
    auto* out = static_cast<std::int8_t*>(result);
    constexpr std::int32_t batch_elements = P.in[1] * P.in[2] * depth;
    [[maybe_unused]] std::int32_t blended[blends_whole_rows ? row_elements : 1];  // blends_whole_rows: a row's blends
    for (std::int32_t b = 0; b < P.out[0]; ++b, input += batch_elements) {
      resize_detail::bilinear_tap blended_for{-1, -1, 0, 0};  // the row whose blends `blended` holds (none yet)
      // Rows and columns by value: the int8 stores could alias a referenced table entry (its weights reloaded).
      for (const resize_detail::bilinear_tap row : rows) {
        const std::int8_t* low_row = input + row.low;
        const std::int8_t* high_row = input + row.high;
        const std::uint32_t rows_weight =
            static_cast<std::uint16_t>(row.weight_low) | static_cast<std::uint32_t>(row.weight_high) << 16;
        if constexpr (blends_whole_rows) {
          static_assert(row_elements % 4 == 0);
          if (blended_for.low != row.low || blended_for.high != row.high || blended_for.weight_low != row.weight_low) {
            for (std::int32_t k = 0; k < row_elements; k += 4)
              blend_quad(load_word(low_row + k), load_word(high_row + k), rows_weight, blended + k);
            blended_for = row;
          }
          for (const resize_detail::bilinear_tap column : columns) {
            const std::int32_t* left = blended + column.low;
            const std::int32_t* right = blended + column.high;
            for (std::int32_t k = 0; k < depth; ++k)
              *out++ = rounded(left[k], right[k], column.weight_low, column.weight_high);
          }
        } else {
          for (const resize_detail::bilinear_tap column : columns) {
            const std::int8_t* a = low_row + column.low;
            const std::int8_t* b1 = high_row + column.low;
            const std::int8_t* c = low_row + column.high;
            const std::int8_t* d1 = high_row + column.high;
            std::int32_t k = 0;
            for (; k + 4 <= depth; k += 4, out += 4) {
              std::int32_t left[4], right[4];
              blend_quad(load_word(a + k), load_word(b1 + k), rows_weight, left);
              blend_quad(load_word(c + k), load_word(d1 + k), rows_weight, right);
              for (std::int32_t j = 0; j < 4; ++j)
                out[j] = rounded(left[j], right[j], column.weight_low, column.weight_high);
            }
            for (; k < depth; ++k)
              *out++ = rounded(a[k] * row.weight_low + b1[k] * row.weight_high,
                               c[k] * row.weight_low + d1[k] * row.weight_high, column.weight_low, column.weight_high);
          }
        }
      }
    }
  }
};

}  // namespace ctnn::kernel::arm::detail
