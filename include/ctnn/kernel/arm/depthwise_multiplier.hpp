#pragma once
// int8 depthwise conv2d with depth multiplier M >= 2 (any kernel, stride, dilation, padding) on Armv7E-M
// DSP, bit-exact with reference::int8::depthwise_conv2d. Multiplier 1: kernel/arm/depthwise.hpp.
//
// Output channel o = c * M + m reads input channel c. For one m, the output channels c * M + m over c are a
// depthwise convolution of multiplier 1 whose outputs lie M bytes apart, so the walk goes per m and per
// group of 4 input channels c..c+3, as the multiplier-1 kernel's: per tap, one word of input (the tap's
// channels c..c+3, as stored) widened with SXTB16 twice (even and odd channels), one packed word of
// weights (pack: the four output channels' weights of the tap, gathered at compile time) widened the same
// way, and one SMLABB / SMLATT per output (detail/depthwise_tap.hpp). Each group's bias, output stages
// (detail/requantize.hpp: the short stage where it applies) and offset term (input_offset * sum of the
// filter) are read or computed once for all its pixels. Whole windows (every tap inside) run their taps
// unrolled at compile-time offsets, two pixels at a time sharing the widened weights (the assembly tap,
// 17 instructions for 8 MACs), the accumulators starting from the offset term; pixels with taps in the
// padding go over their in-bounds taps (the reference skips the others), SXTAB16 adding the offset. Input
// channels left over (C % 4) go one at a time, with up to 4 of their output channels per pass (each tap's
// input read once for them).
//
// In place (kernel_params::in_place) the walk is pixel-major instead, as the reference kernel's: output
// pixels row-major, each finished before the next, reading only its window (memory/in_place_window.hpp:
// then any order inside a pixel is safe); per pixel the same 4-channel taps, the output stage read per
// output (requantize).
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/dot.hpp>
#include <ctnn/kernel/arm/detail/dsp.hpp>
#include <ctnn/kernel/arm/detail/depthwise_tap.hpp>
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
                                   g::valid && kernel::detail::is_output_clamp(P.fused);

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
    if constexpr (P.in_place != 0) {
      pixel_major(input, weights, bias, rq, output);
      return;
    }
    for (std::int32_t m = 0; m < multiplier; ++m)
      for (std::int32_t q = 0; q < quads; ++q) channel_group(input, weights + 4 * packed_word(m, q, 0), bias, rq, output, m, q);
    for (std::int32_t c = 4 * quads; c < in_c; ++c)
      for (std::int32_t m0 = 0; m0 < multiplier; m0 += tail_chunk)
        tail_channel(input, weights + 4 * packed_word(m0, c / 4, 0) + c % 4, bias, rq, output, m0, c);
  }

 private:
  [[gnu::noinline]] static void pixel_major(const std::int8_t* input, const std::int8_t* weights, const std::int32_t* bias,
                                            const requant_arrays& rq, std::int8_t* output) {
    for (std::int32_t b = 0; b < g::batch; ++b)
      for (std::int32_t oy = 0; oy < g::out_h; ++oy) {
        const auto rows = g::rows_inside(oy);
        for (std::int32_t ox = 0; ox < g::out_w; ++ox) {
          const auto columns = g::columns_inside(ox);
          std::int8_t* out = output + ((static_cast<std::ptrdiff_t>(b) * g::out_h + oy) * g::out_w + ox) * out_c;
          for (std::int32_t m = 0; m < multiplier; ++m)
            for (std::int32_t q = 0; q < groups; ++q) {
              const std::int8_t* w = weights + 4 * packed_word(m, q, 0);
              const std::int32_t lanes = q < quads ? 4 : in_c % 4;
              std::int32_t acc[4];
#pragma GCC unroll 4
              for (std::int32_t k = 0; k < 4; ++k) acc[k] = P.has_bias != 0 && k < lanes ? bias[(4 * q + k) * multiplier + m] : 0;
              for (std::int32_t ky = rows.first; ky < rows.end; ++ky)
                for (std::int32_t kx = columns.first; kx < columns.end; ++kx) {
                  const std::int8_t* x =
                      input + g::input_pixel(b, rows.input_row + ky * g::win.dilation_h, columns.input_row + kx * g::win.dilation_w) + 4 * q;
                  const std::int8_t* tap = w + 4 * (ky * kernel_w + kx);
                  if (q < quads) {
                    tap4(x, tap, acc);
                  } else {  // the channels left over: one byte each (a word could read past the input)
                    for (std::int32_t k = 0; k < lanes; ++k) acc[k] = wrapping_add(acc[k], (x[k] + P.input_offset) * tap[k]);
                  }
                }
              for (std::int32_t k = 0; k < lanes; ++k) {
                const std::int32_t o = (4 * q + k) * multiplier + m;
                out[o] = requantize<P>(acc[k], rq.multiplier, rq.shift, o);
              }
            }
        }
      }
  }

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

  // A group (m, q): its input channel 4q + k feeds output channel (4q + k) * M + m, k < 4.
  struct group_state {
    std::int32_t bias[4];    // pixels with taps in the padding
    std::int32_t folded[4];  // whole windows: bias + input_offset * sum of the filter
    output_stage<P> out[4];
  };

  // acc[k] += (x[k] + offset) * w[k] for the group's four channels (w: the tap's packed word).
  [[gnu::always_inline]] static inline void tap4(const std::int8_t* x, const std::int8_t* w, std::int32_t (&acc)[4]) {
    depthwise_tap_1x4(x, w, offset_pair, acc);
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
      std::int32_t sum = 0;
      for (std::int32_t t = 0; t < taps; ++t) sum += w[4 * t + k];
      state.folded[k] = wrapping_add(state.bias[k], offset_term(P.input_offset, sum));
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

  // tap T of two pixels x 4 channels, the offset term already in the accumulators (x: pixel 0's tap (0, 0)).
  static constexpr bool asm_taps = asm_depthwise_fits<tap_offset(kernel_h - 1, kernel_w - 1) + pixel_distance, 4 * (taps - 1)>;
  template <std::int32_t T>
  [[gnu::always_inline]] static inline void tap_pair(const std::int8_t* x, const std::int8_t* w, std::int32_t (&a)[4], std::int32_t (&b)[4]) {
    constexpr std::ptrdiff_t at = tap_offset(T / kernel_w, T % kernel_w);
    depthwise_tap_2x4<asm_taps, at, at + pixel_distance, static_cast<std::ptrdiff_t>(T) * 4>(x, w, a, b);
  }

  template <std::int32_t... T>
  [[gnu::always_inline]] static inline void all_taps(const std::int8_t* x, const std::int8_t* w, std::int32_t (&a)[4], std::int32_t (&b)[4],
                                                     std::integer_sequence<std::int32_t, T...>) {
    (tap_pair<T>(x, w, a, b), ...);
  }

  // Two neighbouring pixels whose windows lie inside the input (x: pixel 0's tap (0, 0)), sharing each
  // widened weight word, their accumulators starting from the offset term (17 instructions per tap for
  // 8 MACs, depthwise_tap_2x4_asm). Out of line: the assembly taps need 14 registers.
  template <bool Short>
  [[gnu::noinline]] static void whole_windows(const group_state& state, const std::int8_t* x, const std::int8_t* w, std::int8_t* out) {
    std::int32_t a[4], b[4];
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) a[k] = b[k] = state.folded[k];
    all_taps(x, w, a, b, std::make_integer_sequence<std::int32_t, taps>{});
    // Each stage copied before the two stores that use it (a byte store may alias the state: read once).
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) {
      const output_stage<P> stage = state.out[k];
      out[k * multiplier] = stage.template apply<Short>(a[k]);
      out[out_c + k * multiplier] = stage.template apply<Short>(b[k]);
    }
  }

  // One pixel whose window lies inside the input (the offset term in the accumulators: no offset added).
  template <bool Short>
  [[gnu::noinline]] static void whole_window(const group_state& state, const std::int8_t* x, const std::int8_t* w, std::int8_t* out) {
    std::int32_t acc[4];
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) acc[k] = state.folded[k];
#pragma GCC unroll 25
    for (std::int32_t t = 0; t < taps; ++t) depthwise_tap_1x4(x + tap_offset(t / kernel_w, t % kernel_w), w + 4 * t, 0u, acc);
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

  // Input channel c (one of the C % 4 left over) and its output channels c * M + m for m in [m0, m0 +
  // tail_chunk) together, pixel by pixel: each tap's input read once for all of them. w: the weight of
  // output channel c * M + m0 at tap 0 in the packed words (the next tap's 4 bytes further, the next m's
  // groups * taps words).
  static constexpr std::int32_t tail_chunk = multiplier % 4 == 0 ? 4 : (multiplier % 3 == 0 ? 3 : (multiplier % 2 == 0 ? 2 : 1));
  static constexpr std::ptrdiff_t m_distance = std::ptrdiff_t{4} * groups * taps;  // bytes between the packed weights of m and m + 1
  [[gnu::noinline]] static void tail_channel(const std::int8_t* input, const std::int8_t* w, const std::int32_t* bias, const requant_arrays& rq,
                                             std::int8_t* output, std::int32_t m0, std::int32_t c) {
    std::int32_t start[tail_chunk];
    output_stage<P> stage[tail_chunk];
#pragma GCC unroll 4
    for (std::int32_t k = 0; k < tail_chunk; ++k) {
      const std::int32_t o = c * multiplier + m0 + k;
      start[k] = P.has_bias != 0 ? bias[o] : 0;
      stage[k] = output_stage_of<P>(rq.multiplier, rq.shift, o);
    }
    std::int8_t* out = output + c * multiplier + m0;
    for (std::int32_t b = 0; b < g::batch; ++b)
      for (std::int32_t oy = 0; oy < g::out_h; ++oy) {
        const auto rows = g::rows_inside(oy);
        for (std::int32_t ox = 0; ox < g::out_w; ++ox, out += out_c) {
          const auto columns = g::columns_inside(ox);
          std::int32_t acc[tail_chunk];
#pragma GCC unroll 4
          for (std::int32_t k = 0; k < tail_chunk; ++k) acc[k] = start[k];
          for (std::int32_t ky = rows.first; ky < rows.end; ++ky)
            for (std::int32_t kx = columns.first; kx < columns.end; ++kx) {
              const std::int32_t x =
                  input[g::input_pixel(b, rows.input_row + ky * g::win.dilation_h, columns.input_row + kx * g::win.dilation_w) + c] + P.input_offset;
              const std::int8_t* tap = w + 4 * (ky * kernel_w + kx);
#pragma GCC unroll 4
              for (std::int32_t k = 0; k < tail_chunk; ++k) acc[k] = wrapping_add(acc[k], x * tap[k * m_distance]);
            }
#pragma GCC unroll 4
          for (std::int32_t k = 0; k < tail_chunk; ++k) out[k] = stage[k].template apply<false>(acc[k]);
        }
      }
  }
};

}  // namespace ctnn::kernel::arm::detail
