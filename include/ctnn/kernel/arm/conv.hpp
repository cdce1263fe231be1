#pragma once
// int8 conv2d (groups 1; any kernel, stride, dilation, padding) and dense on Armv7E-M DSP, bit-exact with
// reference::int8::conv2d / dense.
//
// An output pixel's accumulator is a sum of dot products over contiguous stretches of the input and of
// its filter (OHWI): per kernel row inside the input, the taps inside it side by side (dilation_w 1), or
// per tap. Four values at a time: one word of input, widened with SXTAB16 twice (which also adds the
// input offset to each value, so padding taps are simply skipped, as in the reference), one word of
// weights, widened with SXTB16 twice (the same even/odd byte split as the input, so the weights need no
// re-layout: they are read as stored, 8-bit), and two SMLADs. Register blocking, chosen at compile
// time: 2 pixels x 2 output channels (each input and weight word serves two products: 20 instructions
// per 16 MACs), or 1 pixel x 4 channels for dense layers of one row and calls run in place. The pixels
// of a block are consecutive interior pixels of one output row (all of the image for unpadded 1x1
// convs with stride 1 and for dense layers), at a compile-time distance from each other; border pixels
// go one at a time over their in-bounds taps.
//
// In place (kernel_params::in_place): with 1-pixel blocks the kernel walks output pixels row-major and
// finishes each before the next, reading only its window, as the reference kernel does
// (memory/in_place_window.hpp), so it runs such calls too.
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/dsp.hpp>
#include <ctnn/kernel/arm/detail/requantize.hpp>
#include <ctnn/kernel/arm/detail/window.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::detail {

// acc[p][c] += sum_k (x[p * XStep + k] + offset) * w[c * WStep + k], k < length.
template <int Pixels, int Channels, std::ptrdiff_t XStep, std::ptrdiff_t WStep>
[[gnu::always_inline]] inline void dot_block(const std::int8_t* x, const std::int8_t* w, std::int32_t length,
                                             std::uint32_t offset_pair, std::int32_t offset, std::int32_t (&acc)[Pixels][Channels]) {
  const std::int32_t quads = length >> 2;
#pragma GCC unroll 4
  for (std::int32_t q = 0; q < quads; ++q, x += 4, w += 4) {
    std::uint32_t even[Pixels], odd[Pixels];
#pragma GCC unroll 4
    for (int p = 0; p < Pixels; ++p) {
      const std::uint32_t word = load_word(x + p * XStep);
      odd[p] = sxtab16_ror8(offset_pair, word);
      even[p] = sxtab16(offset_pair, word);
    }
#pragma GCC unroll 4
    for (int c = 0; c < Channels; ++c) {
      const std::uint32_t word = load_word(w + c * WStep);
      const std::uint32_t w_odd = sxtb16_ror8(word), w_even = sxtb16(word);
#pragma GCC unroll 4
      for (int p = 0; p < Pixels; ++p) acc[p][c] = smlad(odd[p], w_odd, smlad(even[p], w_even, acc[p][c]));
    }
  }
  const std::int32_t rest = length & 3;
#pragma GCC unroll 1
  for (std::int32_t k = 0; k < rest; ++k)
#pragma GCC unroll 4
    for (int p = 0; p < Pixels; ++p) {
      const std::int32_t xv = x[p * XStep + k] + offset;
#pragma GCC unroll 4
      for (int c = 0; c < Channels; ++c) acc[p][c] += xv * w[c * WStep + k];
    }
}

template <kernel_params P>
struct conv_kernel {
  using g = window_geometry<P>;
  static constexpr std::int32_t in_c = g::in_c, out_c = g::out_c;
  static constexpr std::int32_t kernel_h = g::kernel_h, kernel_w = g::kernel_w;
  static constexpr std::int32_t reduction = kernel_h * kernel_w * in_c;
  // Unpadded 1x1 convs with stride 1 and dense layers: every pixel is one stretch of in_c values, all
  // pixels evenly spaced, so blocks run over the whole image.
  static constexpr bool flat = g::is_dense || (kernel_h == 1 && kernel_w == 1 && g::win.stride_h == 1 && g::win.stride_w == 1 && g::unpadded);
  static constexpr std::int32_t pixels = g::batch * g::out_h * g::out_w;
  static constexpr std::int32_t block_pixels = P.in_place != 0 || (flat && pixels == 1) ? 1 : 2;
  static constexpr std::int32_t block_channels = block_pixels == 1 ? 4 : 2;
  static constexpr std::ptrdiff_t pixel_step = flat ? in_c : static_cast<std::ptrdiff_t>(g::win.stride_w) * in_c;
  // Kernel rows are one stretch (dilation_w 1) or kernel_w stretches of in_c values.
  static constexpr bool row_stretch = g::win.dilation_w == 1;

  static constexpr bool supports =
      dsp_available && (P.kind == op_kind::dense || (P.kind == op_kind::conv2d && P.groups == 1 && P.in.rank == 4 && P.out.rank == 4)) &&
      P.type == dtype::i8 && P.weights_offset == 0 && g::valid &&
      (P.fused == activation::none || P.fused == activation::relu || P.fused == activation::relu6);

  static constexpr bool packs(std::size_t) { return false; }  // OHWI is the order the stretches read
  template <std::size_t K, class Reader>
  static constexpr int pack(const Reader&) { return 0; }

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays& rq) {
    const auto* input = static_cast<const std::int8_t*>(operands[0]);
    const auto* weights = static_cast<const std::int8_t*>(operands[N > 1 ? 1 : 0]);
    const std::int32_t* bias = nullptr;
    if constexpr (P.has_bias != 0 && N > 2) bias = static_cast<const std::int32_t*>(operands[N > 2 ? 2 : 0]);
    auto* output = static_cast<std::int8_t*>(result);
    const context c{bias, rq.multiplier, rq.shift};
    if constexpr (flat) {
      constexpr std::int32_t blocks = pixels / block_pixels;
      for (std::int32_t k = 0; k < blocks; ++k)
        full_block<block_pixels>(c, input, static_cast<std::ptrdiff_t>(k) * block_pixels * in_c, weights,
                                 output + static_cast<std::ptrdiff_t>(k) * block_pixels * out_c, 0, 1);
      if constexpr (pixels % block_pixels != 0)
        full_block<1>(c, input, static_cast<std::ptrdiff_t>(pixels - 1) * in_c, weights, output + static_cast<std::ptrdiff_t>(pixels - 1) * out_c, 0, 1);
    } else {
      for (std::int32_t b = 0; b < g::batch; ++b)
        for (std::int32_t oy = 0; oy < g::out_h; ++oy) row(c, input, weights, output, b, oy);
    }
  }

 private:
  struct context {
    const std::int32_t* bias;
    const std::int32_t* multiplier;
    const std::int32_t* shift;
  };

  static void row(const context& c, const std::int8_t* input, const std::int8_t* weights, std::int8_t* output, std::int32_t b,
                  std::int32_t oy) {
    const auto rows = g::rows_inside(oy);
    std::int8_t* row_output = output + (static_cast<std::ptrdiff_t>(b) * g::out_h + oy) * g::out_w * out_c;
    // Offset of the pixel's tap (0, 0), which may lie outside the input (only taps inside are read).
    const auto first_tap = [&](std::int32_t ox) { return g::input_pixel(b, rows.input_row, ox * g::win.stride_w - g::win.pad_left); };
    for (std::int32_t ox = 0; ox < g::interior_begin; ++ox) border_pixel(c, input, weights, row_output + ox * out_c, b, rows, ox);
    constexpr std::int32_t blocks = (g::interior_end - g::interior_begin) / block_pixels;
    for (std::int32_t k = 0; k < blocks; ++k) {
      const std::int32_t ox = g::interior_begin + k * block_pixels;
      full_block<block_pixels>(c, input, first_tap(ox), weights, row_output + ox * out_c, rows.first, rows.end);
    }
    if constexpr ((g::interior_end - g::interior_begin) % block_pixels != 0)
      full_block<1>(c, input, first_tap(g::interior_end - 1), weights, row_output + (g::interior_end - 1) * out_c, rows.first, rows.end);
    for (std::int32_t ox = g::interior_end; ox < g::out_w; ++ox) border_pixel(c, input, weights, row_output + ox * out_c, b, rows, ox);
  }

  // Pixels [0, Pixels) of a block of interior columns, their taps (0, 0) at input offset first_tap +
  // p * pixel_step (maybe outside the input: only kernel rows [first_row, end_row) are read).
  template <int Pixels>
  [[gnu::always_inline]] static inline void full_block(const context& c, const std::int8_t* x, std::ptrdiff_t first_tap,
                                                       const std::int8_t* weights, std::int8_t* out, std::int32_t first_row,
                                                       std::int32_t end_row) {
    constexpr int channels = Pixels == block_pixels ? block_channels : 4;
    constexpr std::int32_t blocks = out_c / channels;
    const std::int8_t* w = weights;
    for (std::int32_t k = 0; k < blocks; ++k, w += channels * reduction)
      full_channels<Pixels, channels>(c, x, first_tap, w, out, first_row, end_row, k * channels);
    if constexpr (out_c % channels >= 2) {
      full_channels<Pixels, 2>(c, x, first_tap, w, out, first_row, end_row, blocks * channels);
      w += 2 * reduction;
    }
    if constexpr (out_c % 2 != 0) full_channels<Pixels, 1>(c, x, first_tap, w, out, first_row, end_row, out_c - 1);
  }

  // Channels [o, o + Channels) of the block, their filters from `w`.
  template <int Pixels, int Channels>
  [[gnu::always_inline]] static inline void full_channels(const context& c, const std::int8_t* x, std::ptrdiff_t first_tap,
                                                          const std::int8_t* w, std::int8_t* out, std::int32_t first_row,
                                                          std::int32_t end_row, std::int32_t o) {
    std::int32_t acc[Pixels][Channels];
    start(c, acc, o);
    for (std::int32_t ky = first_row; ky < end_row; ++ky) {
      const std::ptrdiff_t row_x = first_tap + static_cast<std::ptrdiff_t>(ky) * g::win.dilation_h * g::in_w * in_c;
      const std::ptrdiff_t row_w = static_cast<std::ptrdiff_t>(ky) * kernel_w * in_c;
      if constexpr (row_stretch) {
        dot_block<Pixels, Channels, pixel_step, reduction>(x + row_x, w + row_w, kernel_w * in_c, offset_pair, P.input_offset, acc);
      } else {
#pragma GCC unroll 1
        for (std::int32_t kx = 0; kx < kernel_w; ++kx)
          dot_block<Pixels, Channels, pixel_step, reduction>(x + row_x + static_cast<std::ptrdiff_t>(kx) * g::win.dilation_w * in_c,
                                                             w + row_w + kx * in_c, in_c, offset_pair, P.input_offset, acc);
      }
    }
    finish(c, acc, out, o);
  }

  // One pixel of a border column (some kernel columns outside the input): all channels, 4 at a time.
  [[gnu::noinline]] static void border_pixel(const context& c, const std::int8_t* input, const std::int8_t* weights, std::int8_t* out,
                                             std::int32_t b, typename g::row_range rows, std::int32_t ox) {
    const auto columns = g::columns_inside(ox);
    constexpr std::int32_t quads = out_c / 4;
    const std::int8_t* w = weights;
    for (std::int32_t q = 0; q < quads; ++q, w += 4 * reduction) border_channels<4>(c, input, w, out, b, rows, columns, 4 * q);
    for (std::int32_t o = 4 * quads; o < out_c; ++o, w += reduction) border_channels<1>(c, input, w, out, b, rows, columns, o);
  }

  // Channels [o, o + Channels), their filters from `w`.
  template <int Channels>
  [[gnu::always_inline]] static inline void border_channels(const context& c, const std::int8_t* input, const std::int8_t* w,
                                                            std::int8_t* out, std::int32_t b, typename g::row_range rows,
                                                            typename g::row_range columns, std::int32_t o) {
    std::int32_t acc[1][Channels];
    start(c, acc, o);
    for (std::int32_t ky = rows.first; ky < rows.end; ++ky) {
      const std::int32_t iy = rows.input_row + ky * g::win.dilation_h;
      if constexpr (row_stretch) {
        dot_block<1, Channels, 0, reduction>(input + g::input_pixel(b, iy, columns.input_row + columns.first),
                                             w + (ky * kernel_w + columns.first) * in_c, (columns.end - columns.first) * in_c,
                                             offset_pair, P.input_offset, acc);
      } else {
        for (std::int32_t kx = columns.first; kx < columns.end; ++kx)
          dot_block<1, Channels, 0, reduction>(input + g::input_pixel(b, iy, columns.input_row + kx * g::win.dilation_w),
                                               w + (ky * kernel_w + kx) * in_c, in_c, offset_pair, P.input_offset, acc);
      }
    }
    finish(c, acc, out, o);
  }

  static constexpr std::uint32_t offset_pair = both_halves(P.input_offset);

  template <int Pixels, int Channels>
  [[gnu::always_inline]] static inline void start(const context& c, std::int32_t (&acc)[Pixels][Channels], std::int32_t o) {
#pragma GCC unroll 4
    for (int ch = 0; ch < Channels; ++ch) {
      const std::int32_t first = P.has_bias != 0 ? c.bias[o + ch] : 0;
#pragma GCC unroll 4
      for (int p = 0; p < Pixels; ++p) acc[p][ch] = first;
    }
  }

  template <int Pixels, int Channels>
  [[gnu::always_inline]] static inline void finish(const context& c, const std::int32_t (&acc)[Pixels][Channels], std::int8_t* out,
                                                   std::int32_t o) {
#pragma GCC unroll 4
    for (int ch = 0; ch < Channels; ++ch) {
      if constexpr (P.per_channel != 0) {
        const std::int32_t multiplier = c.multiplier[o + ch], shift = c.shift[o + ch];
#pragma GCC unroll 4
        for (int p = 0; p < Pixels; ++p) out[p * out_c + o + ch] = to_output<P>(scale(acc[p][ch], multiplier, shift));
      } else {
#pragma GCC unroll 4
        for (int p = 0; p < Pixels; ++p)
          out[p * out_c + o + ch] = to_output<P>(scale<P.output_multiplier, P.output_shift>(acc[p][ch]));
      }
    }
  }
};

}  // namespace ctnn::kernel::arm::detail
