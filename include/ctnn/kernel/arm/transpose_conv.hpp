#pragma once
// TFLite TRANSPOSE_CONV (transpose_conv2d, groups 1, no dilation) on Armv7E-M DSP, int8 and 16x8 (int16 data, zero
// points 0, int64 bias), bit-exact with reference/transpose_conv2d.hpp.
//
// Gather form: result pixel (oy, ox) sums, over the taps (ky, kx) with (oy + pad_top - ky) and (ox + pad_left - kx)
// multiples of the strides and inside the input, input pixel ((oy + pad_top - ky) / stride_h, ...) dotted with the
// OHWI filter row (oc, ky, kx, :), which is in_c contiguous bytes as the pixel is in_c contiguous values: each tap is a
// convolution's inner product, run by the int8 convolution's dot block (detail/dot.hpp: SXTAB16 widening with the
// input offset, SMLAD, its 2 x 2 assembly loop) or the 16x8 one (s16.hpp's dot_s16: int32 sums, flushed into int64
// where a window may pass exact_terms products). The result pixels ox and ox + stride_w of one row have the same
// taps on neighbouring input pixels, so they pair (2 pixels x 2 channels, every filter word read once for both)
// wherever their taps are both inside the input; the others run alone. Integer sums wrap in 32 bits as the
// reference's do (int8) or are exact (16x8), so the order of the taps does not matter. Per result element: the bias,
// then TFLite's per-channel requantization (detail/requantize.hpp, detail/wide.hpp), clamped. Not in place (the
// result is larger than the input).
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/dot.hpp>
#include <ctnn/kernel/arm/detail/dsp.hpp>
#include <ctnn/kernel/arm/detail/requantize.hpp>
#include <ctnn/kernel/arm/detail/wide.hpp>
#include <ctnn/kernel/arm/s16.hpp>
#include <ctnn/kernel/detail/output_clamp.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::detail {

template <kernel_params P>
struct transpose_conv_kernel : kernel::detail::reads_constants_as_stored {
  static constexpr bool s16 = P.type == dtype::i16;
  static constexpr std::int32_t batch = P.in[0], in_h = P.in[1], in_w = P.in[2], in_c = P.in[3];
  static constexpr std::int32_t out_h = P.out[1], out_w = P.out[2], out_c = P.out[3];
  static constexpr std::int32_t kernel_h = P.win.kernel_h, kernel_w = P.win.kernel_w;
  static constexpr std::int32_t stride_h = P.win.stride_h, stride_w = P.win.stride_w;
  static constexpr std::int32_t pad_top = P.win.pad_top, pad_left = P.win.pad_left;
  static constexpr std::int32_t taps = kernel_h * kernel_w;
  static constexpr std::ptrdiff_t filter_step = static_cast<std::ptrdiff_t>(taps) * in_c;  // one output channel's filter
  // The most taps that reach one result pixel: every stride-th kernel row and column.
  static constexpr std::int32_t max_rows = stride_h > 0 ? (kernel_h + stride_h - 1) / stride_h : 1;
  static constexpr std::int32_t max_columns = stride_w > 0 ? (kernel_w + stride_w - 1) / stride_w : 1;
  // 16x8: whether a result element's products may pass exact_terms; its int32 sums are then flushed into int64
  // after every tap.
  static constexpr bool wide = s16 && static_cast<std::int64_t>(max_rows) * max_columns * in_c > exact_terms;

  static constexpr bool supports =
      dsp_available && P.kind == op_kind::transpose_conv2d && P.groups == 1 && P.in.rank == 4 && P.out.rank == 4 &&
      P.in_place == 0 && P.requantization == requantization_policy::tflite && kernel::detail::is_output_clamp(P.fused) &&
      (P.type == dtype::i8 || (s16 && P.input_offset == 0 && P.output_offset == 0)) && P.win.dilation_h == 1 &&
      P.win.dilation_w == 1 && stride_h >= 1 && stride_w >= 1 && kernel_h >= 1 && kernel_w >= 1 && in_c >= 1 &&
      pad_top >= 0 && pad_left >= 0 && P.in[0] == P.out[0];

  using element = std::conditional_t<s16, std::int16_t, std::int8_t>;
  using bias_type = std::conditional_t<s16, std::int64_t, std::int32_t>;

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays& rq) {
    const auto* input = static_cast<const element*>(operands[0]);
    const auto* weights = static_cast<const std::int8_t*>(operands[N > 1 ? 1 : 0]);
    const bias_type* bias = nullptr;
    if constexpr (P.has_bias != 0 && N > 2) bias = static_cast<const bias_type*>(operands[N > 2 ? 2 : 0]);
    auto* output = static_cast<element*>(result);
    for (std::int32_t b = 0; b < batch; ++b)
      for (std::int32_t oy = 0; oy < out_h; ++oy) row(input, weights, bias, output, rq, b, oy);
  }

 private:
  // The taps of one result pixel: input offsets (elements) and filter offsets (bytes, within a channel's filter).
  struct tap_list {
    std::int32_t count = 0;
    std::int32_t input[max_rows * max_columns]{};
    std::int32_t filter[max_rows * max_columns]{};
  };

  // Kernel columns kx reaching result column ox, and their input columns: kx = first, first + stride_w, ...
  static constexpr std::int32_t first_column_tap(std::int32_t ox) { return (ox + pad_left) % stride_w; }

  [[gnu::noinline]] static void row(const element* input, const std::int8_t* weights, const bias_type* bias, element* output,
                                    const requant_arrays& rq, std::int32_t b, std::int32_t oy) {
    // The kernel rows of this result row and their input rows.
    std::int32_t row_ky[max_rows]{}, row_iy[max_rows]{}, rows = 0;
    for (std::int32_t ky = (oy + pad_top) % stride_h; ky < kernel_h; ky += stride_h) {
      const std::int32_t iy = (oy + pad_top - ky) / stride_h;
      if (iy >= 0 && iy < in_h) {
        row_ky[rows] = ky;
        row_iy[rows++] = iy;
      }
    }
    element* out_row = output + (static_cast<std::ptrdiff_t>(b) * out_h + oy) * out_w * out_c;
    for (std::int32_t phase = 0; phase < stride_w && phase < out_w; ++phase) {
      std::int32_t ox = phase;
      while (ox < out_w) {
        // The column taps of ox, and whether ox + stride_w has the same ones one input pixel further.
        std::int32_t col_kx[max_columns]{}, col_ix[max_columns]{}, columns = 0;
        bool pairs = ox + stride_w < out_w;
        for (std::int32_t kx = first_column_tap(ox); kx < kernel_w; kx += stride_w) {
          const std::int32_t ix = (ox + pad_left - kx) / stride_w;
          const bool inside = ix >= 0 && ix < in_w, next_inside = ix + 1 >= 0 && ix + 1 < in_w;
          pairs = pairs && inside == next_inside;
          if (inside) {
            col_kx[columns] = kx;
            col_ix[columns++] = ix;
          }
        }
        tap_list list;
        for (std::int32_t r = 0; r < rows; ++r)
          for (std::int32_t c = 0; c < columns; ++c) {
            list.input[list.count] = ((b * in_h + row_iy[r]) * in_w + col_ix[c]) * in_c;
            list.filter[list.count++] = (row_ky[r] * kernel_w + col_kx[c]) * in_c;
          }
        if (pairs) {
          pixels<2>(input, weights, bias, out_row + static_cast<std::ptrdiff_t>(ox) * out_c, list, rq);
          ox += 2 * stride_w;
        } else {
          pixels<1>(input, weights, bias, out_row + static_cast<std::ptrdiff_t>(ox) * out_c, list, rq);
          ox += stride_w;
        }
      }
    }
  }

  // Pixels result pixels (the second stride_w columns after the first) over every output channel.
  template <int Pixels>
  [[gnu::always_inline]] static void pixels(const element* input, const std::int8_t* weights, const bias_type* bias, element* out,
                                            const tap_list& list, const requant_arrays& rq) {
    constexpr std::ptrdiff_t out_step = static_cast<std::ptrdiff_t>(stride_w) * out_c;
    std::int32_t oc = 0;
    for (; oc + 2 <= out_c; oc += 2) channels<Pixels, 2>(input, weights + oc * filter_step, bias, out + oc, list, rq, oc, out_step);
    if constexpr (out_c % 2 != 0) channels<Pixels, 1>(input, weights + oc * filter_step, bias, out + oc, list, rq, oc, out_step);
  }

  template <int Pixels, int Channels>
  [[gnu::always_inline]] static void channels(const element* input, const std::int8_t* w, const bias_type* bias, element* out,
                                              const tap_list& list, const requant_arrays& rq, std::int32_t oc,
                                              std::ptrdiff_t out_step) {
    if constexpr (s16) {
      wide_sums<Pixels, Channels, wide> sums;
      for (std::int32_t t = 0; t < list.count; ++t)
        dot_s16<Pixels, Channels, in_c, filter_step, wide>(input + list.input[t], w + list.filter[t], in_c, sums);
#pragma GCC unroll 2
      for (int c = 0; c < Channels; ++c) {
        const wide_stage<P> stage = wide_stage<P>::of(rq.multiplier[oc + c], rq.shift[oc + c]);
        const std::int64_t b = P.has_bias != 0 ? bias[oc + c] : 0;
#pragma GCC unroll 2
        for (int p = 0; p < Pixels; ++p)
          out[p * out_step + c] = stage.apply(ctnn::detail::quant::wrapping_add_wide(sums.sum(p, c), b));
      }
    } else {
      std::int32_t acc[Pixels][Channels];
#pragma GCC unroll 2
      for (int c = 0; c < Channels; ++c)
#pragma GCC unroll 2
        for (int p = 0; p < Pixels; ++p) acc[p][c] = P.has_bias != 0 ? bias[oc + c] : 0;
      const std::uint32_t offset_pair = both_halves(P.input_offset);
      for (std::int32_t t = 0; t < list.count; ++t)
        dot_block<Pixels, Channels, in_c, filter_step>(input + list.input[t], w + list.filter[t], in_c, offset_pair, P.input_offset, acc);
#pragma GCC unroll 2
      for (int c = 0; c < Channels; ++c) {
        const channel_scale s = channel_scale_of(rq.multiplier[oc + c], rq.shift[oc + c], P.output_offset);
#pragma GCC unroll 2
        for (int p = 0; p < Pixels; ++p) out[p * out_step + c] = clamp_output<P>(scale_plus(acc[p][c], s, P.output_offset));
      }
    }
  }
};

}  // namespace ctnn::kernel::arm::detail
