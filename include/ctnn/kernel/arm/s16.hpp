#pragma once
// TFLite 16x8 conv2d (groups 1; any kernel, stride, dilation, padding), dense and depthwise_conv2d
// (multiplier 1) on Armv7E-M DSP: int16 data, int8 weights read as stored, an int64 bias; bit-exact with the
// reference kernels (reference/conv2d.hpp: TFLM's int64 sums and int64 MultiplyByQuantizedMultiplier).
// Sums in int32 where exact, else flushed into int64 (detail/wide.hpp).
//
// conv2d and dense: a word of int16 inputs holds two SMLAD operands; a word of four weights widens with
// SXTB16 into (w0, w2) and (w1, w3), so each pixel's inputs are regrouped to match, (x0, x2) and (x1, x3)
// (PKHBT / PKHTB of two words). Three walks, chosen at compile time:
//   * blocks (windows of whole quads and at most 128 values: 1x1 convs, dense layers, first layers over few
//     channels): a block of pixels' windows regrouped once onto the stack (zeros for padding taps: the zero
//     point is 0), then channel-major over the block with the int8 kernels' widened 2 x 2 assembly loop (16
//     instructions per 16 MACs: the regrouped words are their widened ones); in place too, as the int8
//     pointwise blocks (a block's outputs are written after its inputs are copied);
//   * other calls out of place: channel-major as the int8 kernel (conv.hpp), per block of 2 output channels
//     (bias and output stage read once) every pixel, interior pixels of a row two at a time (20 instructions
//     per 16 MACs), border pixels one at a time over their in-bounds taps;
//   * other calls in place: pixel-major, one pixel x 4 channels, each block's outputs written after its window
//     is read (the reference kernel's order, which memory/in_place_window.hpp's rule makes safe).
//
// depthwise_conv2d: four channels a step: per tap two words of inputs (channels c..c+3), one word of weights
// widened with SXTB16 into (w0, w2) and (w1, w3), and SMLABB / SMLATB / SMLABT / SMLATT, one per channel (9
// instructions per 4 MACs); leftover channels one at a time. Channel-major (each group's stages read once),
// interior pixels' taps at compile-time offsets; in place, pixel-major where the result does not lie a whole
// number of pixels from the input.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/dot.hpp>
#include <ctnn/kernel/arm/detail/dsp.hpp>
#include <ctnn/kernel/arm/detail/wide.hpp>
#include <ctnn/kernel/arm/detail/window.hpp>
#include <ctnn/kernel/detail/output_clamp.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::detail {

// The operands of a 16x8 call.
struct s16_operands {
  const std::int16_t* input;
  const std::int8_t* weights;
  const std::int64_t* bias;  // nullptr without one
  std::int16_t* output;
};
template <kernel_params P, std::size_t N>
[[gnu::always_inline]] inline s16_operands s16_operands_of(const void* const (&operands)[N], void* result) {
  const std::int64_t* bias = nullptr;
  if constexpr (P.has_bias != 0 && N > 2) bias = static_cast<const std::int64_t*>(operands[N > 2 ? 2 : 0]);
  return {static_cast<const std::int16_t*>(operands[0]), static_cast<const std::int8_t*>(operands[N > 1 ? 1 : 0]), bias,
          static_cast<std::int16_t*>(result)};
}

// What every 16x8 DSP kernel asks of a call.
template <kernel_params P>
inline constexpr bool s16_call = dsp_available&& P.type == dtype::i16&& P.requantization ==
                                     requantization_policy::tflite&& P.input_offset == 0 &&
                                 P.weights_offset == 0 && P.output_offset == 0 &&
                                 window_geometry<P>::valid&& kernel::detail::is_output_clamp(P.fused);

// sums.part[p][c] += sum_k x[p * XStep + k] * w[c * WStep + k], k < length (XStep in int16 elements, WStep in
// bytes), flushed every exact_terms products when the sums are Wide.
template <int Pixels, int Channels, std::ptrdiff_t XStep, std::ptrdiff_t WStep, bool Wide>
[[gnu::always_inline]] inline void dot_s16(const std::int16_t* x, const std::int8_t* w, std::int32_t length,
                                           wide_sums<Pixels, Channels, Wide>& sums) {
  while (true) {
    const std::int32_t piece = Wide && length > exact_terms ? exact_terms : length;
    const std::int32_t quads = piece >> 2;
#pragma GCC unroll 2
    for (std::int32_t q = 0; q < quads; ++q, x += 4, w += 4) {
      std::uint32_t even[Pixels], odd[Pixels];
#pragma GCC unroll 4
      for (int p = 0; p < Pixels; ++p) {
        const std::uint32_t x01 = load_word(x + p * XStep), x23 = load_word(x + p * XStep + 2);
        even[p] = low_halves(x01, x23);
        odd[p] = high_halves(x01, x23);
      }
#pragma GCC unroll 4
      for (int c = 0; c < Channels; ++c) {
        const std::uint32_t word = load_word(w + c * WStep);
        const std::uint32_t w_even = sxtb16(word), w_odd = sxtb16_ror8(word);
#pragma GCC unroll 4
        for (int p = 0; p < Pixels; ++p)
          sums.part[p][c] = smlad(odd[p], w_odd, smlad(even[p], w_even, sums.part[p][c]));
      }
    }
    const std::int32_t rest = piece & 3;
#pragma GCC unroll 1
    for (std::int32_t k = 0; k < rest; ++k)
#pragma GCC unroll 4
      for (int p = 0; p < Pixels; ++p)
#pragma GCC unroll 4
        for (int c = 0; c < Channels; ++c) sums.part[p][c] += x[p * XStep + k] * w[c * WStep + k];
    if constexpr (!Wide) {
      return;
    } else {
      sums.flush();
      length -= piece;
      if (length == 0) return;
      x += rest;
      w += rest;
    }
  }
}

template <kernel_params P>
struct conv_s16_kernel : kernel::detail::reads_constants_as_stored {
  using g = window_geometry<P>;
  static constexpr std::int32_t in_c = g::in_c, out_c = g::out_c;
  static constexpr std::int32_t kernel_h = g::kernel_h, kernel_w = g::kernel_w;
  static constexpr std::int32_t reduction = kernel_h * kernel_w * in_c;
  static constexpr bool wide = reduction > exact_terms;
  // Dense layers and unpadded 1x1 convs with stride 1: every pixel one stretch of in_c values, evenly spaced.
  static constexpr bool flat =
      g::is_dense || (kernel_h == 1 && kernel_w == 1 && g::win.stride_h == 1 && g::win.stride_w == 1 && g::unpadded);
  static constexpr std::int32_t pixels = g::batch * g::out_h * g::out_w;
  static constexpr std::ptrdiff_t pixel_step = flat ? in_c : static_cast<std::ptrdiff_t>(g::win.stride_w) * in_c;
  static constexpr bool row_stretch = g::win.dilation_w == 1;  // a kernel row's taps are one stretch
  template <int Pixels, int Channels>
  using sums = wide_sums<Pixels, Channels, wide>;

  static constexpr bool supports =
      s16_call<P> &&
      (P.kind == op_kind::dense || (P.kind == op_kind::conv2d && P.groups == 1 && P.in.rank == 4 && P.out.rank == 4));

  // Flat calls over whole quads of at most 128 input channels: blocks of pixels whose inputs are regrouped
  // once onto the stack (512 bytes), then read by every filter of the channel-major walk. In place too: a block's outputs are written after its inputs are
  // copied, and pixels after the block read nothing below its end (as the int8 pointwise blocks).
  // Other windows of whole quads and at most 128 values (first layers over few channels) likewise, each
  // pixel's window gathered in the same order, zeros for its taps in the padding (the zero point is 0).
  static constexpr bool gathered = !flat && reduction % 4 == 0 && reduction <= 128;
  static constexpr std::int32_t block =
      (flat && in_c % 4 == 0 && in_c <= 128) || gathered ? (reduction <= 32 ? 8 : 256 / reduction) : 0;

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays& rq) {
    const s16_operands o = s16_operands_of<P>(operands, result);
    if constexpr (block >= 2) {
      blocks(o, rq);
    } else if constexpr (P.in_place != 0) {
      for (std::int32_t b = 0; b < g::batch; ++b)
        for (std::int32_t oy = 0; oy < g::out_h; ++oy) {
          const auto rows = g::rows_inside(oy);
          for (std::int32_t ox = 0; ox < g::out_w; ++ox) {
            std::int16_t* out = o.output + ((static_cast<std::ptrdiff_t>(b) * g::out_h + oy) * g::out_w + ox) * out_c;
            pixel_channels(o, rq, out, g::input_pixel(b, rows.input_row, ox * g::win.stride_w - g::win.pad_left), rows,
                           g::columns_inside(ox));
          }
        }
    } else {
      const std::int8_t* w = o.weights;
      constexpr std::int32_t pairs = out_c / 2;
      for (std::int32_t k = 0; k < pairs; ++k, w += 2 * reduction) channel_block<2>(o, w, rq, 2 * k);
      if constexpr (out_c % 2 != 0) channel_block<1>(o, w, rq, out_c - 1);
    }
  }

 private:
  // ---- Blocks of pixels, regrouped --------------------------------------------------------------------

  [[gnu::noinline]] static void blocks(const s16_operands& o, const requant_arrays& rq) {
    std::uint32_t regrouped[block * reduction / 2];
    for (std::int32_t first = 0; first < pixels; first += block) {
      const std::int32_t count = pixels - first < block ? pixels - first : block;
      if constexpr (gathered) {
        for (std::int32_t k = 0; k < count; ++k) gather(o.input, first + k, regrouped + k * (reduction / 2));
      } else {
        const std::int16_t* x = o.input + static_cast<std::ptrdiff_t>(first) * in_c;
        for (std::int32_t q = 0; q < count * (in_c / 4); ++q, x += 4) {
          const std::uint32_t x01 = load_word(x), x23 = load_word(x + 2);
          regrouped[2 * q] = low_halves(x01, x23);
          regrouped[2 * q + 1] = high_halves(x01, x23);
        }
      }
      std::int16_t* out = o.output + static_cast<std::ptrdiff_t>(first) * out_c;
      const std::int8_t* w = o.weights;
      for (std::int32_t k = 0; k < out_c / 2; ++k, w += 2 * reduction)
        block_channels<2>(o, rq, regrouped, count, w, out, 2 * k);
      if constexpr (out_c % 2 != 0) block_channels<1>(o, rq, regrouped, count, w, out, out_c - 1);
    }
  }

  // Pixel p's window (OHWI order, zeros outside the input) regrouped into reduction / 2 words: value k of a quad
  // goes to half (k & 1) * 2 + (k >> 1) of its two words.
  static void gather(const std::int16_t* input, std::int32_t p, std::uint32_t* to) {
    const std::int32_t ox = p % g::out_w, oy = (p / g::out_w) % g::out_h, b = p / (g::out_w * g::out_h);
    char* halves = reinterpret_cast<char*>(to);
    std::int32_t k = 0;
    for (std::int32_t ky = 0; ky < kernel_h; ++ky) {
      const std::int32_t iy = oy * g::win.stride_h - g::win.pad_top + ky * g::win.dilation_h;
      for (std::int32_t kx = 0; kx < kernel_w; ++kx) {
        const std::int32_t ix = ox * g::win.stride_w - g::win.pad_left + kx * g::win.dilation_w;
        const bool inside = iy >= 0 && iy < g::in_h && ix >= 0 && ix < g::in_w;
        const std::int16_t* x = inside ? input + g::input_pixel(b, iy, ix) : nullptr;
        for (std::int32_t c = 0; c < in_c; ++c, ++k) {
          const std::int16_t v = inside ? x[c] : std::int16_t{0};
          std::memcpy(halves + 2 * ((k & ~3) | ((k & 1) << 1) | ((k >> 1) & 1)), &v, 2);
        }
      }
    }
  }

  template <int Channels>
  [[gnu::always_inline]] static inline void block_channels(const s16_operands& o, const requant_arrays& rq,
                                                           const std::uint32_t* regrouped, std::int32_t count,
                                                           const std::int8_t* w, std::int16_t* out,
                                                           std::int32_t first) {
    const block_state<Channels> state = state_of<Channels>(o, rq, first);
    std::int32_t p = 0;
    for (; p + 2 <= count; p += 2) {
      sums<2, Channels> s;
      dot_regrouped<2, Channels>(regrouped + p * (reduction / 2), w, s);
      store(state, s, out + p * out_c + first);
    }
    if (p < count) {
      sums<1, Channels> s;
      dot_regrouped<1, Channels>(regrouped + p * (reduction / 2), w, s);
      store(state, s, out + p * out_c + first);
    }
  }

  // sums.part[p][c] += pixel p's regrouped inputs (reduction / 2 words from x + p * reduction / 2) times filter c (at w +
  // c * reduction). The regrouped words are the int8 kernels' widened ones ((x0, x2), (x1, x3) per quad: detail/dot.hpp,
  // widen_quads), so their dot products serve: the 2 x 2 block as one assembly loop, 16 instructions per 16 MACs.
  template <int Pixels, int Channels>
  [[gnu::always_inline]] static inline void dot_regrouped(const std::uint32_t* x, const std::int8_t* w,
                                                          sums<Pixels, Channels>& s) {
    dot_widened<Pixels, Channels, 2 * reduction, reduction>(x, w, reduction / 4, s.part);
  }

  // ---- Pixel-major (in place) -----------------------------------------------------------------------

  // Every output channel of one pixel, 4 at a time (one regrouped input quad serves four filters).
  [[gnu::noinline]] static void pixel_channels(const s16_operands& o, const requant_arrays& rq, std::int16_t* out,
                                               std::ptrdiff_t origin, typename g::row_range rows,
                                               typename g::row_range columns) {
    constexpr std::int32_t quads = out_c / 4;
    const std::int8_t* w = o.weights;
    for (std::int32_t q = 0; q < quads; ++q, w += 4 * reduction)
      pixel_block<4>(o, rq, out, origin, rows, columns, w, 4 * q);
    if constexpr (out_c % 4 >= 2) pixel_block<2>(o, rq, out, origin, rows, columns, w, 4 * quads);
    if constexpr (out_c % 2 != 0)
      pixel_block<1>(o, rq, out, origin, rows, columns, o.weights + (out_c - 1) * reduction, out_c - 1);
  }
  template <int Channels>
  [[gnu::always_inline]] static inline void pixel_block(const s16_operands& o, const requant_arrays& rq,
                                                        std::int16_t* out, std::ptrdiff_t origin,
                                                        typename g::row_range rows, typename g::row_range columns,
                                                        const std::int8_t* w, std::int32_t first) {
    const block_state<Channels> state = state_of<Channels>(o, rq, first);
    sums<1, Channels> s;
    taps<1, Channels>(o.input, origin, w, rows.first, rows.end, columns.first, columns.end, s);
    store(state, s, out + first);
  }

  // ---- Channel-major (out of place) -----------------------------------------------------------------

  // What output channels [first, first + Channels) start from: their biases and stages, and whether every
  // sum plus its bias fits in int32 (the short stage).
  template <int Channels>
  struct block_state {
    std::int64_t bias[Channels];
    wide_stage<P> stage[Channels];
    bool short_sums;
  };
  template <int Channels>
  [[gnu::always_inline]] static inline block_state<Channels> state_of(const s16_operands& o, const requant_arrays& rq,
                                                                      std::int32_t first) {
    block_state<Channels> state;
    state.short_sums = !wide;
#pragma GCC unroll 4
    for (int ch = 0; ch < Channels; ++ch) {
      state.bias[ch] = P.has_bias != 0 ? o.bias[first + ch] : 0;
      state.stage[ch] = wide_stage_of<P>(rq.multiplier, rq.shift, first + ch);
      state.short_sums =
          state.short_sums && state.stage[ch].short_multiplier() && short_bias<reduction>(state.bias[ch]);
    }
    return state;
  }

  // Output channels [first, first + Channels) of every pixel; `w` is channel first's filter.
  template <int Channels>
  [[gnu::noinline]] static void channel_block(const s16_operands& o, const std::int8_t* w, const requant_arrays& rq,
                                              std::int32_t first) {
    const block_state<Channels> state = state_of<Channels>(o, rq, first);
    std::int16_t* out = o.output + first;
    if constexpr (flat) {
      const std::int16_t* x = o.input;
      for (std::int32_t k = 0; k < pixels / 2; ++k, x += 2 * in_c, out += 2 * out_c) {
        sums<2, Channels> s;
        dot_s16<2, Channels, in_c, reduction>(x, w, in_c, s);
        store(state, s, out);
      }
      if constexpr (pixels % 2 != 0) {
        sums<1, Channels> s;
        dot_s16<1, Channels, in_c, reduction>(x, w, in_c, s);
        store(state, s, out);
      }
    } else {
      for (std::int32_t b = 0; b < g::batch; ++b)
        for (std::int32_t oy = 0; oy < g::out_h; ++oy)
          row(state, o.input, w, out + (static_cast<std::ptrdiff_t>(b) * g::out_h + oy) * g::out_w * out_c, b, oy);
    }
  }

  template <int Channels>
  static void row(const block_state<Channels>& state, const std::int16_t* input, const std::int8_t* w,
                  std::int16_t* out, std::int32_t b, std::int32_t oy) {
    const auto rows = g::rows_inside(oy);
    // Offset of pixel ox's tap (0, 0) (which may lie outside the input: only taps inside are read).
    const auto origin = [&](std::int32_t ox) {
      return g::input_pixel(b, rows.input_row, ox * g::win.stride_w - g::win.pad_left);
    };
    for (std::int32_t ox = 0; ox < g::interior_begin; ++ox)
      pixel<Channels>(state, input, w, out + ox * out_c, origin(ox), rows, ox);
    constexpr std::int32_t interior = g::interior_end - g::interior_begin;
    for (std::int32_t k = 0; k < interior / 2; ++k) {
      const std::int32_t ox = g::interior_begin + 2 * k;
      sums<2, Channels> s;
      taps<2, Channels>(input, origin(ox), w, rows.first, rows.end, 0, kernel_w, s);
      store(state, s, out + ox * out_c);
    }
    if constexpr (interior % 2 != 0) {
      constexpr std::int32_t ox = g::interior_end - 1;
      pixel<Channels>(state, input, w, out + ox * out_c, origin(ox), rows, ox);
    }
    for (std::int32_t ox = g::interior_end; ox < g::out_w; ++ox)
      pixel<Channels>(state, input, w, out + ox * out_c, origin(ox), rows, ox);
  }

  // One pixel over its in-bounds taps.
  template <int Channels>
  [[gnu::noinline]] static void pixel(const block_state<Channels>& state, const std::int16_t* input,
                                      const std::int8_t* w, std::int16_t* out, std::ptrdiff_t origin,
                                      typename g::row_range rows, std::int32_t ox) {
    const auto columns = g::columns_inside(ox);
    sums<1, Channels> s;
    taps<1, Channels>(input, origin, w, rows.first, rows.end, columns.first, columns.end, s);
    store(state, s, out);
  }

  // Kernel rows [first_row, end_row) x kernel columns [first_column, end_column) of Pixels pixels whose taps
  // (0, 0) lie at input offset origin + p * pixel_step.
  template <int Pixels, int Channels>
  [[gnu::always_inline]] static inline void taps(const std::int16_t* input, std::ptrdiff_t origin, const std::int8_t* w,
                                                 std::int32_t first_row, std::int32_t end_row,
                                                 std::int32_t first_column, std::int32_t end_column,
                                                 sums<Pixels, Channels>& s) {
    for (std::int32_t ky = first_row; ky < end_row; ++ky) {
      const std::ptrdiff_t row_x = origin + static_cast<std::ptrdiff_t>(ky) * g::win.dilation_h * g::in_w * in_c;
      const std::ptrdiff_t row_w = static_cast<std::ptrdiff_t>(ky) * kernel_w * in_c;
      if constexpr (row_stretch) {
        dot_s16<Pixels, Channels, pixel_step, reduction>(
            input + row_x + static_cast<std::ptrdiff_t>(first_column) * in_c, w + row_w + first_column * in_c,
            (end_column - first_column) * in_c, s);
      } else {
        for (std::int32_t kx = first_column; kx < end_column; ++kx)
          dot_s16<Pixels, Channels, pixel_step, reduction>(
              input + row_x + static_cast<std::ptrdiff_t>(kx) * g::win.dilation_w * in_c, w + row_w + kx * in_c, in_c,
              s);
      }
    }
  }

  template <int Pixels, int Channels>
  [[gnu::always_inline]] static inline void store(const block_state<Channels>& state, const sums<Pixels, Channels>& s,
                                                  std::int16_t* out) {
    if (!wide && state.short_sums) {
#pragma GCC unroll 4
      for (int ch = 0; ch < Channels; ++ch)
#pragma GCC unroll 4
        for (int p = 0; p < Pixels; ++p)
          out[p * out_c + ch] = state.stage[ch].apply_short(s.part[p][ch] + static_cast<std::int32_t>(state.bias[ch]));
    } else {
#pragma GCC unroll 4
      for (int ch = 0; ch < Channels; ++ch)
#pragma GCC unroll 4
        for (int p = 0; p < Pixels; ++p)
          out[p * out_c + ch] =
              state.stage[ch].apply(ctnn::detail::quant::wrapping_add_wide(s.sum(p, ch), state.bias[ch]));
    }
  }
};

template <kernel_params P>
struct depthwise_s16_kernel : kernel::detail::reads_constants_as_stored {
  using g = window_geometry<P>;
  static constexpr std::int32_t channels = g::out_c;
  static constexpr std::int32_t kernel_h = g::kernel_h, kernel_w = g::kernel_w;

  // Each sum has one product per tap: int32 holds 511 of them exactly. In place the pixel-major walk is the
  // reference's order, each group of four channels written after its taps are read.
  static constexpr bool supports = s16_call<P> && P.kind == op_kind::depthwise_conv2d && P.depth_multiplier == 1 &&
                                   P.in.rank == 4 && P.out.rank == 4 && P.in[3] == channels &&
                                   kernel_h * kernel_w <= 511;

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays& rq) {
    const s16_operands o = s16_operands_of<P>(operands, result);
    // Channel-major (four channels' stages read once, every pixel) out of place, and in place where the result
    // lies a whole number of pixels from the input: output (p, c) then overwrites input (i, c) of one pixel i,
    // which only channel c's outputs read, and the walk visits each channel's pixels in ascending order, as
    // the reference (the int8 kernel's argument, depthwise.hpp).
    if (P.in_place == 0 ||
        (reinterpret_cast<std::uintptr_t>(o.input) - reinterpret_cast<std::uintptr_t>(o.output)) % (2 * channels) ==
            0) {
      constexpr std::int32_t quads = channels / 4;
      for (std::int32_t q = 0; q < quads; ++q) channel_group<4>(o, rq, 4 * q);
      for (std::int32_t c = 4 * quads; c < channels; ++c) channel_group<1>(o, rq, c);
      return;
    }
    std::int16_t* out = o.output;
    for (std::int32_t b = 0; b < g::batch; ++b)
      for (std::int32_t oy = 0; oy < g::out_h; ++oy) {
        const auto rows = g::rows_inside(oy);
        for (std::int32_t ox = 0; ox < g::out_w; ++ox, out += channels)
          pixel(o, rq, out, b, rows, g::columns_inside(ox));
      }
  }

 private:
  [[gnu::noinline]] static void pixel(const s16_operands& o, const requant_arrays& rq, std::int16_t* out,
                                      std::int32_t b, typename g::row_range rows, typename g::row_range columns) {
    const std::int16_t* first_tap = o.input + g::input_pixel(b, rows.input_row + rows.first * g::win.dilation_h,
                                                             columns.input_row + columns.first * g::win.dilation_w);
    const std::int8_t* first_weights = o.weights + (rows.first * kernel_w + columns.first) * channels;
    constexpr std::int32_t quads = channels / 4;
    for (std::int32_t q = 0; q < quads; ++q) {
      const std::int32_t c = 4 * q;
      std::int32_t acc[4]{};
      const std::int16_t* x_row = first_tap + c;
      const std::int8_t* w_row = first_weights + c;
      for (std::int32_t ky = rows.first; ky < rows.end; ++ky, x_row += row_step, w_row += kernel_w * channels) {
        const std::int16_t* x = x_row;
        const std::int8_t* w = w_row;
        for (std::int32_t kx = columns.first; kx < columns.end; ++kx, x += column_step, w += channels) tap<4>(x, w, acc);
      }
#pragma GCC unroll 4
      for (int k = 0; k < 4; ++k) out[c + k] = result(o, rq, acc[k], c + k);
    }
    if constexpr (channels % 4 != 0) {
      for (std::int32_t c = 4 * quads; c < channels; ++c) {
        std::int32_t acc = 0;
        for (std::int32_t ky = rows.first; ky < rows.end; ++ky)
          for (std::int32_t kx = columns.first; kx < columns.end; ++kx)
            acc += first_tap[(ky - rows.first) * row_step + (kx - columns.first) * column_step + c] *
                   first_weights[((ky - rows.first) * kernel_w + kx - columns.first) * channels + c];
        out[c] = result(o, rq, acc, c);
      }
    }
  }

  // Channels [first, first + Channels) (4, or 1) of every pixel.
  template <int Channels>
  [[gnu::noinline]] static void channel_group(const s16_operands& o, const requant_arrays& rq, std::int32_t first) {
    wide_stage<P> stage[Channels];
    std::int32_t bias[Channels];
    bool short_sums = true;
    std::int64_t wide_bias[Channels];
#pragma GCC unroll 4
    for (int k = 0; k < Channels; ++k) {
      stage[k] = wide_stage_of<P>(rq.multiplier, rq.shift, first + k);
      wide_bias[k] = P.has_bias != 0 ? o.bias[first + k] : 0;
      bias[k] = static_cast<std::int32_t>(wide_bias[k]);
      short_sums = short_sums && stage[k].short_multiplier() && short_bias<kernel_h * kernel_w>(wide_bias[k]);
    }
    std::int16_t* out = o.output + first;
    const std::int8_t* weights = o.weights + first;
    for (std::int32_t b = 0; b < g::batch; ++b)
      for (std::int32_t oy = 0; oy < g::out_h; ++oy) {
        const auto rows = g::rows_inside(oy);
        const bool whole_rows = rows.first == 0 && rows.end == kernel_h;
        for (std::int32_t ox = 0; ox < g::out_w; ++ox, out += channels) {
          const auto columns = g::columns_inside(ox);
          std::int32_t acc[Channels]{};
          if (whole_rows && columns.first == 0 && columns.end == kernel_w) {
            // Every tap inside: compile-time offsets.
            const std::int16_t* x = o.input + g::input_pixel(b, rows.input_row, columns.input_row) + first;
            if constexpr (Channels == 4 && asm_taps) {
              interior_taps_asm(x, weights, acc, std::make_index_sequence<kernel_h * kernel_w>{});
            } else {
#pragma GCC unroll 9
              for (std::int32_t t = 0; t < kernel_h * kernel_w; ++t)
                tap<Channels>(x + (t / kernel_w) * row_step + (t % kernel_w) * column_step, weights + t * channels,
                              acc);
            }
          } else {
            for (std::int32_t ky = rows.first; ky < rows.end; ++ky)
              for (std::int32_t kx = columns.first; kx < columns.end; ++kx)
                tap<Channels>(o.input +
                                  g::input_pixel(b, rows.input_row + ky * g::win.dilation_h,
                                                 columns.input_row + kx * g::win.dilation_w) +
                                  first,
                              weights + (ky * kernel_w + kx) * channels, acc);
          }
#pragma GCC unroll 4
          for (int k = 0; k < Channels; ++k)
            out[k] = short_sums ? stage[k].apply_short(acc[k] + bias[k])
                                : stage[k].apply(ctnn::detail::quant::wrapping_add_wide(acc[k], wide_bias[k]));
        }
      }
  }
  static constexpr std::ptrdiff_t row_step = static_cast<std::ptrdiff_t>(g::win.dilation_h) * g::in_w * channels;
  static constexpr std::ptrdiff_t column_step = static_cast<std::ptrdiff_t>(g::win.dilation_w) * channels;

  // The interior taps of four channels as one assembly step each, at compile-time offsets (LDR's immediates):
  // 9 instructions a tap, where the compiler's schedule of the unrolled C++ taps spills (about 16).
  static constexpr bool asm_taps = CTNN_ARM_DOT_ASM && kernel_h * kernel_w <= 16 &&
                                   2 * ((kernel_h - 1) * row_step + (kernel_w - 1) * column_step) + 4 <= 4095 &&
                                   (kernel_h * kernel_w - 1) * channels <= 4095;
  template <std::size_t... T>
  [[gnu::always_inline]] static inline void interior_taps_asm(const std::int16_t* x, const std::int8_t* w,
                                                              std::int32_t (&acc)[4], std::index_sequence<T...>) {
    (tap_asm<2 * ((static_cast<std::ptrdiff_t>(T) / kernel_w) * row_step +
                  (static_cast<std::ptrdiff_t>(T) % kernel_w) * column_step),
             static_cast<std::ptrdiff_t>(T) * channels>(x, w, acc),
     ...);
  }
#if CTNN_ARM_DOT_ASM
  template <std::ptrdiff_t XOffset, std::ptrdiff_t WOffset>
  [[gnu::always_inline]] static inline void tap_asm(const std::int16_t* x, const std::int8_t* w,
                                                    std::int32_t (&acc)[4]) {
    std::uint32_t t0, t1, t2, t3;
    __asm(
        "ldr %[t0], [%[x], %[x0]]\n\t"
        "ldr %[t1], [%[x], %[x1]]\n\t"
        "ldr %[t2], [%[w], %[w0]]\n\t"
        "sxtb16 %[t3], %[t2], ror #8\n\t"
        "sxtb16 %[t2], %[t2]\n\t"
        "smlabb %[a0], %[t0], %[t2], %[a0]\n\t"
        "smlatb %[a1], %[t0], %[t3], %[a1]\n\t"
        "smlabt %[a2], %[t1], %[t2], %[a2]\n\t"
        "smlatt %[a3], %[t1], %[t3], %[a3]\n\t"
        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [a0] "+r"(acc[0]), [a1] "+r"(acc[1]),
          [a2] "+r"(acc[2]), [a3] "+r"(acc[3])
        : [x] "r"(x), [w] "r"(w), [x0] "i"(XOffset), [x1] "i"(XOffset + 4), [w0] "i"(WOffset)
        : "memory");
  }
#else
  template <std::ptrdiff_t XOffset, std::ptrdiff_t WOffset>
  static void tap_asm(const std::int16_t*, const std::int8_t*, std::int32_t (&)[4]);  // never used here
#endif

  // acc[k] += x[k] * w[k], k < Channels (4: two input words, one weight word widened; 1: one product).
  template <int Channels>
  [[gnu::always_inline]] static inline void tap(const std::int16_t* x, const std::int8_t* w,
                                                std::int32_t (&acc)[Channels]) {
    if constexpr (Channels == 4) {
      const std::uint32_t x01 = load_word(x), x23 = load_word(x + 2);
      const std::uint32_t word = load_word(w);
      const std::uint32_t w02 = sxtb16(word), w13 = sxtb16_ror8(word);
      acc[0] = smlabb(x01, w02, acc[0]);
      acc[1] = smlatb(x01, w13, acc[1]);
      acc[2] = smlabt(x23, w02, acc[2]);
      acc[3] = smlatt(x23, w13, acc[3]);
    } else {
      acc[0] += x[0] * w[0];
    }
  }

  [[gnu::always_inline]] static inline std::int16_t result(const s16_operands& o, const requant_arrays& rq,
                                                           std::int32_t sum, std::int32_t c) {
    const std::int64_t acc =
        P.has_bias != 0 ? ctnn::detail::quant::wrapping_add_wide(sum, o.bias[c]) : std::int64_t{sum};
    return wide_stage_of<P>(rq.multiplier, rq.shift, c).apply(acc);
  }
};

}  // namespace ctnn::kernel::arm::detail
