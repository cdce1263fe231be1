#pragma once
// int8 depthwise conv2d with depth multiplier M >= 2 (any kernel, stride, dilation, padding) on Armv7E-M
// DSP, bit-exact with reference::int8::depthwise_conv2d. Multiplier 1: kernel/arm/depthwise.hpp.
//
// Output channel o = c * M + m reads input channel c. For one m, the output channels c * M + m over c are a
// depthwise convolution of multiplier 1 whose outputs lie M bytes apart, so the walk goes per m and per
// group of 4 input channels c..c+3: per tap, one word of input (the tap's channels c..c+3, as stored)
// widened with SXTAB16 twice (even and odd channels, the input offset added), one packed word of weights
// (pack: the four output channels' weights of the tap, gathered at compile time) widened with SXTB16
// twice, and one SMLABB / SMLATT per output. Each group's bias and output stages (detail/requantize.hpp:
// the short stage where it applies) are read once for all its pixels. Whole windows (every tap inside)
// run their taps unrolled at compile-time offsets, two pixels at a time sharing the widened weights;
// pixels with taps in the padding go over their in-bounds taps (the reference skips the others). Input
// channels left over (C % 4) go one at a time.
//
// Not in place (supports): the walk writes each output channel over every pixel before the next channel,
// which only the pixel-major order of the reference kernel makes safe over an overlapping input.
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/dot.hpp>
#include <ctnn/kernel/arm/detail/dsp.hpp>
#include <ctnn/kernel/arm/detail/requantize.hpp>
#include <ctnn/kernel/arm/detail/window.hpp>
#include <ctnn/kernel/detail/operands.hpp>
#include <ctnn/kernel/detail/output_clamp.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::detail {

template <kernel_params P>
struct depthwise_multiplier_kernel {
  using g = window_geometry<P>;
  static constexpr std::int32_t multiplier = P.depth_multiplier;
  static constexpr std::int32_t in_c = g::in_c, out_c = g::out_c;
  static constexpr std::int32_t kernel_h = g::kernel_h, kernel_w = g::kernel_w;
  static constexpr std::int32_t taps = kernel_h * kernel_w;
  static constexpr std::int32_t quads = in_c / 4;         // groups of four input channels; the others go one by one
  static constexpr std::int32_t groups = (in_c + 3) / 4;  // packed groups, the last one padded with zero weights

  static constexpr bool supports = dsp_available && P.kind == op_kind::depthwise_conv2d && P.type == dtype::i8 && multiplier >= 2 &&
                                   P.in.rank == 4 && P.out.rank == 4 && out_c == in_c * multiplier && P.weights_offset == 0 &&
                                   P.in_place == 0 && g::valid && kernel::detail::is_output_clamp(P.fused);

  // The weights (1HWC, [tap][c * M + m]) re-laid out per m, per group of 4 input channels, per tap: one
  // word holding the weights of output channels (4q + k) * M + m, k = 0..3, byte k (little-endian).
  static constexpr std::size_t packed_words = static_cast<std::size_t>(multiplier) * groups * taps;
  static constexpr bool packs(std::size_t k) { return k == 1; }
  template <std::size_t K, class Reader>
  static constexpr std::array<std::int32_t, packed_words> pack(const Reader& read) {
    static_assert(K == 1, "ctnn: the DSP depthwise kernel of multiplier >= 2 packs the weights only.");
    std::array<std::int32_t, packed_words> words{};
    for (std::int32_t m = 0; m < multiplier; ++m)
      for (std::int32_t c = 0; c < in_c; ++c)
        for (std::int32_t t = 0; t < taps; ++t) {
          const std::int8_t value = read.i8(static_cast<std::size_t>(t) * out_c + static_cast<std::size_t>(c) * multiplier + m);
          const std::size_t word = packed_word(m, c / 4, t);
          words[word] = static_cast<std::int32_t>(static_cast<std::uint32_t>(words[word]) |
                                                  static_cast<std::uint32_t>(static_cast<std::uint8_t>(value)) << (8 * (c % 4)));
        }
    return words;
  }

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays& rq) {
    const auto [input, weights, bias, output] = kernel::detail::weighted_operands_of<P, std::int8_t>(operands, result);
    for (std::int32_t m = 0; m < multiplier; ++m) {
      for (std::int32_t q = 0; q < quads; ++q) channel_group(input, weights + 4 * packed_word(m, q, 0), bias, rq, output, m, q);
      for (std::int32_t c = 4 * quads; c < in_c; ++c) single_channel(input, weights + 4 * packed_word(m, c / 4, 0) + c % 4, bias, rq, output, m, c);
    }
  }

 private:
  static constexpr std::size_t packed_word(std::int32_t m, std::int32_t q, std::int32_t t) {
    return (static_cast<std::size_t>(m) * groups + static_cast<std::size_t>(q)) * taps + static_cast<std::size_t>(t);
  }
  static constexpr std::uint32_t offset_pair = both_halves(P.input_offset);
  static constexpr std::ptrdiff_t tap_offset(std::int32_t ky, std::int32_t kx) {
    return (static_cast<std::ptrdiff_t>(ky) * g::win.dilation_h * g::in_w + static_cast<std::ptrdiff_t>(kx) * g::win.dilation_w) * in_c;
  }
  static constexpr std::ptrdiff_t pixel_distance = static_cast<std::ptrdiff_t>(g::win.stride_w) * in_c;
  // The largest |sum (x + offset) * w| of one output (short_stage_applies).
  static constexpr std::int64_t product_bound = std::int64_t{255} * 128 * taps;

  // Output channel of the group's k-th input channel: 4q + k, times M, plus m.
  struct group_state {
    std::int32_t bias[4];
    output_stage<P> out[4];
  };

  // acc[k] += (x[k] + offset) * w[k] for the group's four channels (w: the tap's packed word).
  [[gnu::always_inline]] static inline void tap4(const std::int8_t* x, const std::int8_t* w, std::int32_t (&acc)[4]) {
    const std::uint32_t xw = load_word(x), ww = load_word(w);
    const std::uint32_t x_even = sxtab16(offset_pair, xw), x_odd = sxtab16_ror8(offset_pair, xw);
    const std::uint32_t w_even = sxtb16(ww), w_odd = sxtb16_ror8(ww);
    acc[0] = smlabb(x_even, w_even, acc[0]);
    acc[1] = smlabb(x_odd, w_odd, acc[1]);
    acc[2] = smlatt(x_even, w_even, acc[2]);
    acc[3] = smlatt(x_odd, w_odd, acc[3]);
  }

  template <bool Short>
  [[gnu::always_inline]] static inline void finish(const group_state& state, const std::int32_t (&acc)[4], std::int8_t* out) {
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) out[k * multiplier] = state.out[k].template apply<Short>(acc[k]);
  }

  [[gnu::noinline]] static void channel_group(const std::int8_t* input, const std::int8_t* w, const std::int32_t* bias, const requant_arrays& rq,
                                              std::int8_t* output, std::int32_t m, std::int32_t q) {
    group_state state;
    bool short_stage = true;
    for (std::int32_t k = 0; k < 4; ++k) {
      const std::int32_t o = (4 * q + k) * multiplier + m;
      state.bias[k] = P.has_bias != 0 ? bias[o] : 0;
      state.out[k] = output_stage_of<P>(rq.multiplier, rq.shift, o);
      short_stage = short_stage && state.out[k].template short_applies<product_bound>(state.bias[k]);
    }
    if (short_stage) walk<true>(state, input + 4 * q, w, output + 4 * q * multiplier + m);
    else walk<false>(state, input + 4 * q, w, output + 4 * q * multiplier + m);
  }

  // input: channel c of pixel 0; output: channel (c * M + m) of pixel 0.
  template <bool Short>
  static void walk(const group_state& state, const std::int8_t* input, const std::int8_t* w, std::int8_t* output) {
    for (std::int32_t b = 0; b < g::batch; ++b)
      for (std::int32_t oy = 0; oy < g::out_h; ++oy) {
        const auto rows = g::rows_inside(oy);
        std::int8_t* out = output + (static_cast<std::ptrdiff_t>(b) * g::out_h + oy) * g::out_w * out_c;
        if (rows.first == 0 && rows.end == kernel_h) {
          for (std::int32_t ox = 0; ox < g::interior_begin; ++ox) partial_window<Short>(state, input, w, out + ox * out_c, b, rows, ox);
          const std::int8_t* x = input + g::input_pixel(b, rows.input_row, g::interior_begin * g::win.stride_w - g::win.pad_left);
          std::int32_t ox = g::interior_begin;
          for (; ox + 1 < g::interior_end; ox += 2, x += 2 * pixel_distance) whole_windows<Short>(state, x, w, out + ox * out_c);
          if constexpr ((g::interior_end - g::interior_begin) % 2 != 0) whole_window<Short>(state, x, w, out + ox * out_c);
          for (ox = g::interior_end; ox < g::out_w; ++ox) partial_window<Short>(state, input, w, out + ox * out_c, b, rows, ox);
        } else {
          for (std::int32_t ox = 0; ox < g::out_w; ++ox) partial_window<Short>(state, input, w, out + ox * out_c, b, rows, ox);
        }
      }
  }

  // Two neighbouring pixels whose windows lie inside the input (x: pixel 0's tap (0, 0)), sharing each
  // widened weight word. Out of line: its 8 accumulators want every register.
  template <bool Short>
  [[gnu::noinline]] static void whole_windows(const group_state& state, const std::int8_t* x, const std::int8_t* w, std::int8_t* out) {
    std::int32_t a[4], c[4];
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) a[k] = c[k] = state.bias[k];
#pragma GCC unroll 25
    for (std::int32_t t = 0; t < taps; ++t) {
      const std::ptrdiff_t at = tap_offset(t / kernel_w, t % kernel_w);
      const std::uint32_t ww = load_word(w + 4 * t);
      const std::uint32_t w_even = sxtb16(ww), w_odd = sxtb16_ror8(ww);
      const std::uint32_t x0 = load_word(x + at), x1 = load_word(x + at + pixel_distance);
      const std::uint32_t x0_even = sxtab16(offset_pair, x0), x0_odd = sxtab16_ror8(offset_pair, x0);
      a[0] = smlabb(x0_even, w_even, a[0]);
      a[1] = smlabb(x0_odd, w_odd, a[1]);
      a[2] = smlatt(x0_even, w_even, a[2]);
      a[3] = smlatt(x0_odd, w_odd, a[3]);
      const std::uint32_t x1_even = sxtab16(offset_pair, x1), x1_odd = sxtab16_ror8(offset_pair, x1);
      c[0] = smlabb(x1_even, w_even, c[0]);
      c[1] = smlabb(x1_odd, w_odd, c[1]);
      c[2] = smlatt(x1_even, w_even, c[2]);
      c[3] = smlatt(x1_odd, w_odd, c[3]);
    }
    finish<Short>(state, a, out);
    finish<Short>(state, c, out + out_c);
  }

  // One pixel whose window lies inside the input.
  template <bool Short>
  [[gnu::noinline]] static void whole_window(const group_state& state, const std::int8_t* x, const std::int8_t* w, std::int8_t* out) {
    std::int32_t acc[4];
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) acc[k] = state.bias[k];
#pragma GCC unroll 25
    for (std::int32_t t = 0; t < taps; ++t) tap4(x + tap_offset(t / kernel_w, t % kernel_w), w + 4 * t, acc);
    finish<Short>(state, acc, out);
  }

  // One pixel with taps in the padding: its in-bounds taps.
  template <bool Short>
  [[gnu::noinline]] static void partial_window(const group_state& state, const std::int8_t* input, const std::int8_t* w, std::int8_t* out,
                                               std::int32_t b, typename g::row_range rows, std::int32_t ox) {
    const auto columns = g::columns_inside(ox);
    std::int32_t acc[4];
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) acc[k] = state.bias[k];
    for (std::int32_t ky = rows.first; ky < rows.end; ++ky)
      for (std::int32_t kx = columns.first; kx < columns.end; ++kx)
        tap4(input + g::input_pixel(b, rows.input_row + ky * g::win.dilation_h, columns.input_row + kx * g::win.dilation_w),
             w + 4 * (ky * kernel_w + kx), acc);
    finish<Short>(state, acc, out);
  }

  // Input channel c (one of the C % 4 left over) and its output channel c * M + m over every pixel; w: its
  // weight of tap 0 in the packed words (the next tap's 4 bytes further).
  [[gnu::noinline]] static void single_channel(const std::int8_t* input, const std::int8_t* w, const std::int32_t* bias, const requant_arrays& rq,
                                               std::int8_t* output, std::int32_t m, std::int32_t c) {
    const std::int32_t o = c * multiplier + m;
    const std::int32_t start = P.has_bias != 0 ? bias[o] : 0;
    const output_stage<P> stage = output_stage_of<P>(rq.multiplier, rq.shift, o);
    for (std::int32_t b = 0; b < g::batch; ++b)
      for (std::int32_t oy = 0; oy < g::out_h; ++oy) {
        const auto rows = g::rows_inside(oy);
        for (std::int32_t ox = 0; ox < g::out_w; ++ox) {
          const auto columns = g::columns_inside(ox);
          std::int32_t acc = start;
          for (std::int32_t ky = rows.first; ky < rows.end; ++ky)
            for (std::int32_t kx = columns.first; kx < columns.end; ++kx) {
              const std::ptrdiff_t at =
                  g::input_pixel(b, rows.input_row + ky * g::win.dilation_h, columns.input_row + kx * g::win.dilation_w) + c;
              acc = wrapping_add(acc, (input[at] + P.input_offset) * w[4 * (ky * kernel_w + kx)]);
            }
          output[((static_cast<std::ptrdiff_t>(b) * g::out_h + oy) * g::out_w + ox) * out_c + o] = stage.template apply<false>(acc);
        }
      }
  }
};

}  // namespace ctnn::kernel::arm::detail
