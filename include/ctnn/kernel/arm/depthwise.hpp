#pragma once
// int8 depthwise conv2d (depth multiplier 1; any kernel, stride, dilation, padding) on Armv7E-M DSP,
// bit-exact with reference::int8::depthwise_conv2d.
//
// Channels go four at a time: per tap, one word of input (channels c..c+3 of the tap's pixel), widened
// with SXTAB16 twice (even and odd channels, the input offset added), one word of weights (1HWC: the
// tap's channels c..c+3, read as stored), widened with SXTB16 twice, and one SMLABB / SMLATT per channel
// (10 instructions per 4 MACs). Interior pixels (the whole window inside the input) run the taps at
// compile-time offsets, fully unrolled for small kernels (3x3: 9 taps); border pixels loop over their
// in-bounds taps, as the reference skips the others. Channels left over (C % 4) go one at a time.
//
// In place (kernel_params::in_place): output pixels are walked row-major, each finished before the next,
// reading only its window, as the reference kernel does (memory/in_place_window.hpp): such calls run here.
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/dsp.hpp>
#include <ctnn/kernel/arm/detail/requantize.hpp>
#include <ctnn/kernel/arm/detail/window.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::detail {

template <kernel_params P>
struct depthwise_kernel {
  using g = window_geometry<P>;
  static constexpr std::int32_t channels = g::out_c;
  static constexpr std::int32_t kernel_h = g::kernel_h, kernel_w = g::kernel_w;
  static constexpr std::int32_t taps = kernel_h * kernel_w;
  static constexpr std::int32_t quads = channels / 4;  // groups of four channels; the others go one by one

  static constexpr bool supports = dsp_available && P.kind == op_kind::depthwise_conv2d && P.type == dtype::i8 &&
                                   P.depth_multiplier == 1 && P.in.rank == 4 && P.out.rank == 4 && P.in[3] == channels &&
                                   P.weights_offset == 0 && g::valid &&
                                   (P.fused == activation::none || P.fused == activation::relu || P.fused == activation::relu6);

  static constexpr bool packs(std::size_t) { return false; }  // 1HWC: a tap's channels are consecutive
  template <std::size_t K, class Reader>
  static constexpr int pack(const Reader&) { return 0; }

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays& rq) {
    const auto* input = static_cast<const std::int8_t*>(operands[0]);
    const auto* weights = static_cast<const std::int8_t*>(operands[N > 1 ? 1 : 0]);
    const std::int32_t* bias = nullptr;
    if constexpr (P.has_bias != 0 && N > 2) bias = static_cast<const std::int32_t*>(operands[N > 2 ? 2 : 0]);
    auto* output = static_cast<std::int8_t*>(result);
    for (std::int32_t b = 0; b < g::batch; ++b)
      for (std::int32_t oy = 0; oy < g::out_h; ++oy) {
        const auto rows = g::rows_inside(oy);
        std::int8_t* row_output = output + (static_cast<std::ptrdiff_t>(b) * g::out_h + oy) * g::out_w * channels;
        for (std::int32_t ox = 0; ox < g::out_w; ++ox) {
          const bool interior = ox >= g::interior_begin && ox < g::interior_end && rows.first == 0 && rows.end == kernel_h;
          const std::ptrdiff_t first_tap = g::input_pixel(b, rows.input_row, ox * g::win.stride_w - g::win.pad_left);
          if (interior) interior_pixel(input, first_tap, weights, bias, rq, row_output + ox * channels);
          else border_pixel(input, weights, bias, rq, row_output + ox * channels, b, rows, ox);
        }
      }
  }

 private:
  static constexpr std::uint32_t offset_pair = both_halves(P.input_offset);
  static constexpr std::ptrdiff_t tap_offset(std::int32_t ky, std::int32_t kx) {
    return (static_cast<std::ptrdiff_t>(ky) * g::win.dilation_h * g::in_w + static_cast<std::ptrdiff_t>(kx) * g::win.dilation_w) * channels;
  }

  // acc[0..3] += (x[k] + offset) * w[k] for the four channels at x and w.
  [[gnu::always_inline]] static inline void tap4(const std::int8_t* x, const std::int8_t* w, std::int32_t (&acc)[4]) {
    const std::uint32_t xw = load_word(x), ww = load_word(w);
    const std::uint32_t x_even = sxtab16(offset_pair, xw), x_odd = sxtab16_ror8(offset_pair, xw);
    const std::uint32_t w_even = sxtb16(ww), w_odd = sxtb16_ror8(ww);
    acc[0] = smlabb(x_even, w_even, acc[0]);
    acc[1] = smlabb(x_odd, w_odd, acc[1]);
    acc[2] = smlatt(x_even, w_even, acc[2]);
    acc[3] = smlatt(x_odd, w_odd, acc[3]);
  }

  template <int Count>
  [[gnu::always_inline]] static inline void start(const std::int32_t* bias, std::int32_t c, std::int32_t (&acc)[Count]) {
#pragma GCC unroll 4
    for (int k = 0; k < Count; ++k) acc[k] = P.has_bias != 0 ? bias[c + k] : 0;
  }
  template <int Count>
  [[gnu::always_inline]] static inline void finish(const requant_arrays& rq, std::int32_t c, const std::int32_t (&acc)[Count],
                                                   std::int8_t* out) {
#pragma GCC unroll 4
    for (int k = 0; k < Count; ++k) out[c + k] = requantize<P>(acc[k], rq.multiplier, rq.shift, c + k);
  }

  static void interior_pixel(const std::int8_t* input, std::ptrdiff_t first_tap, const std::int8_t* weights, const std::int32_t* bias,
                             const requant_arrays& rq, std::int8_t* out) {
    const std::int8_t* x = input + first_tap;
    for (std::int32_t q = 0; q < quads; ++q) {
      const std::int32_t c = 4 * q;
      std::int32_t acc[4];
      start(bias, c, acc);
#pragma GCC unroll 25
      for (std::int32_t t = 0; t < taps; ++t)
        tap4(x + tap_offset(t / kernel_w, t % kernel_w) + c, weights + t * channels + c, acc);
      finish(rq, c, acc, out);
    }
    for (std::int32_t c = 4 * quads; c < channels; ++c) {
      std::int32_t acc[1];
      start(bias, c, acc);
      for (std::int32_t t = 0; t < taps; ++t)
        acc[0] += (x[tap_offset(t / kernel_w, t % kernel_w) + c] + P.input_offset) * weights[t * channels + c];
      finish(rq, c, acc, out);
    }
  }

  [[gnu::noinline]] static void border_pixel(const std::int8_t* input, const std::int8_t* weights, const std::int32_t* bias,
                                             const requant_arrays& rq, std::int8_t* out, std::int32_t b, typename g::row_range rows,
                                             std::int32_t ox) {
    const auto columns = g::columns_inside(ox);
    for (std::int32_t q = 0; q < quads; ++q) {
      const std::int32_t c = 4 * q;
      std::int32_t acc[4];
      start(bias, c, acc);
      for (std::int32_t ky = rows.first; ky < rows.end; ++ky)
        for (std::int32_t kx = columns.first; kx < columns.end; ++kx)
          tap4(input + g::input_pixel(b, rows.input_row + ky * g::win.dilation_h, columns.input_row + kx * g::win.dilation_w) + c,
               weights + (ky * kernel_w + kx) * channels + c, acc);
      finish(rq, c, acc, out);
    }
    for (std::int32_t c = 4 * quads; c < channels; ++c) {
      std::int32_t acc[1];
      start(bias, c, acc);
      for (std::int32_t ky = rows.first; ky < rows.end; ++ky)
        for (std::int32_t kx = columns.first; kx < columns.end; ++kx)
          acc[0] += (input[g::input_pixel(b, rows.input_row + ky * g::win.dilation_h, columns.input_row + kx * g::win.dilation_w) + c] +
                     P.input_offset) *
                    weights[(ky * kernel_w + kx) * channels + c];
      finish(rq, c, acc, out);
    }
  }
};

}  // namespace ctnn::kernel::arm::detail
