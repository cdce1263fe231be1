#pragma once
// int8 depthwise conv2d (depth multiplier 1; any kernel, stride, dilation, padding) on Armv7E-M DSP,
// bit-exact with reference::int8::depthwise_conv2d.
//
// Channels go four at a time: per tap, one word of input (channels c..c+3 of the tap's pixel) widened
// with SXTB16 twice (even and odd channels), one word of weights (1HWC: the tap's channels c..c+3, read
// as stored) widened the same way, and one SMLABB / SMLATT per channel.
//
// By default the walk is channel-major: per group of 4 channels (their bias, requantization and
// input-offset term offset * sum of the filter read or computed once), every pixel. Pixels whose window
// lies inside the input go two at a time, sharing each widened weight word (17 instructions per tap for
// 8 MACs, as one inline-assembly step per tap at compile-time offsets: the C++ form spills), their
// accumulators starting from the offset term. Pixels with taps in the padding go one at a time over
// their in-bounds taps (the reference skips the others), the inputs widened with SXTAB16, which adds
// the offset. Channels left over (C % 4) go one at a time.
//
// In place (kernel_params::in_place) the channel-major walk stays safe when the result lies a whole
// number of pixels from the input (checked at run time; the planner places it so, docs/memory.md).
// Output (p, c) then overwrites input (i, c) of one pixel i, and only channel c's outputs read input
// channel c. The planner's rule (memory/in_place_window.hpp) puts i at least p + 1 - S(p) pixels below p
// (S(p): the lowest input pixel read by output pixels >= p), so every output pixel that reads i comes
// before p, and the walk visits each channel's pixels in ascending order (a pair read before either is
// written). Otherwise the walk is pixel-major, as the reference kernel's: output pixels row-major, each
// finished before the next, reading only its window.
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
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::detail {

template <kernel_params P>
struct depthwise_kernel : kernel::detail::reads_constants_as_stored {
  using g = window_geometry<P>;
  static constexpr std::int32_t channels = g::out_c;
  static constexpr std::int32_t kernel_h = g::kernel_h, kernel_w = g::kernel_w;
  static constexpr std::int32_t taps = kernel_h * kernel_w;
  static constexpr std::int32_t quads = channels / 4;  // groups of four channels; the others go one by one

  static constexpr bool supports = dsp_available && P.kind == op_kind::depthwise_conv2d && P.type == dtype::i8 &&
                                   P.depth_multiplier == 1 && P.in.rank == 4 && P.out.rank == 4 && P.in[3] == channels &&
                                   P.weights_offset == 0 && g::valid &&
                                   kernel::detail::is_output_clamp(P.fused);

  // Constants are read as stored (reads_constants_as_stored): in 1HWC a tap's channels are consecutive.

  // Narrow maps at stride 1 walk padded rows (see "Narrow maps" below); public for the tests.
  static constexpr std::int32_t padded_w = g::out_w - 1 + kernel_w;  // pixels: the columns output pixels read
  static constexpr std::int32_t padded_bytes = 512;
  static constexpr std::int32_t ring_words = 2 * kernel_h * padded_w * 2;
#if defined(__OPTIMIZE_SIZE__)
  static constexpr bool padded_walk = false;  // -Os: the run-time windows (compile_time_windows)
#else
  static constexpr bool padded_walk = g::win.stride_h == 1 && g::win.stride_w == 1 && g::win.dilation_h == 1 && g::win.dilation_w == 1 &&
                                      ring_words * 4 <= padded_bytes && asm_depthwise_fits<0, 0> &&
                                      ((kernel_h - 1) * padded_w + kernel_w) * 8 <= 1020 && taps * 8 <= 1020;
#endif

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays& rq) {
    const auto [input, weights, bias, output] = kernel::detail::weighted_operands_of<P, std::int8_t>(operands, result);
    if constexpr (P.in_place == 0) {
      channel_major(input, weights, bias, rq, output);
    } else {
      const auto distance = reinterpret_cast<std::intptr_t>(output) - reinterpret_cast<std::intptr_t>(input);
      if (distance % channels == 0) channel_major(input, weights, bias, rq, output);
      else pixel_major(input, weights, bias, rq, output);
    }
  }

 private:
  static void channel_major(const std::int8_t* input, const std::int8_t* weights, const std::int32_t* bias, const requant_arrays& rq,
                            std::int8_t* output) {
    for (std::int32_t q = 0; q < quads; ++q) channel_group(input, weights, bias, rq, output, 4 * q);
    if constexpr (channels % 4 != 0) {
      for (std::int32_t b = 0; b < g::batch; ++b)
        for (std::int32_t oy = 0; oy < g::out_h; ++oy)
          for (std::int32_t ox = 0; ox < g::out_w; ++ox)
            border_pixel<4 * quads>(input, weights, bias, rq, output + ((static_cast<std::ptrdiff_t>(b) * g::out_h + oy) * g::out_w + ox) * channels,
                                    b, g::rows_inside(oy), ox);
    }
  }

  [[gnu::noinline]] static void pixel_major(const std::int8_t* input, const std::int8_t* weights, const std::int32_t* bias,
                                            const requant_arrays& rq, std::int8_t* output) {
    for (std::int32_t b = 0; b < g::batch; ++b)
      for (std::int32_t oy = 0; oy < g::out_h; ++oy) {
        const auto rows = g::rows_inside(oy);
        std::int8_t* row_output = output + (static_cast<std::ptrdiff_t>(b) * g::out_h + oy) * g::out_w * channels;
        for (std::int32_t ox = 0; ox < g::out_w; ++ox) {
          const bool interior = ox >= g::interior_begin && ox < g::interior_end && rows.first == 0 && rows.end == kernel_h;
          const std::ptrdiff_t first_tap = g::input_pixel(b, rows.input_row, ox * g::win.stride_w - g::win.pad_left);
          if (interior) interior_pixel(input, first_tap, weights, bias, rq, row_output + ox * channels);
          else border_pixel<0>(input, weights, bias, rq, row_output + ox * channels, b, rows, ox);
        }
      }
  }

  static constexpr std::uint32_t offset_pair = both_halves(P.input_offset);
  static constexpr std::ptrdiff_t tap_offset(std::int32_t ky, std::int32_t kx) {
    return (static_cast<std::ptrdiff_t>(ky) * g::win.dilation_h * g::in_w + static_cast<std::ptrdiff_t>(kx) * g::win.dilation_w) * channels;
  }

  // acc[0..3] += (x[k] + offset) * w[k] for the four channels at x and w.
  [[gnu::always_inline]] static inline void tap4(const std::int8_t* x, const std::int8_t* w, std::int32_t (&acc)[4]) {
    depthwise_tap_1x4(x, w, offset_pair, acc);
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
      for (std::int32_t t = 0; t < taps; ++t) {
        const std::int32_t value = x[tap_offset(t / kernel_w, t % kernel_w) + c] + P.input_offset;
        acc[0] = wrapping_add(acc[0], value * weights[t * channels + c]);
      }
      finish(rq, c, acc, out);
    }
  }

  // Channels [FirstChannel, channels) of a pixel, over its in-bounds taps.
  template <std::int32_t FirstChannel>
  [[gnu::noinline]] static void border_pixel(const std::int8_t* input, const std::int8_t* weights, const std::int32_t* bias,
                                             const requant_arrays& rq, std::int8_t* out, std::int32_t b, typename g::row_range rows,
                                             std::int32_t ox) {
    const auto columns = g::columns_inside(ox);
    for (std::int32_t q = FirstChannel / 4; q < quads; ++q) {
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
        for (std::int32_t kx = columns.first; kx < columns.end; ++kx) {
          const std::ptrdiff_t at =
              g::input_pixel(b, rows.input_row + ky * g::win.dilation_h, columns.input_row + kx * g::win.dilation_w);
          acc[0] = wrapping_add(acc[0], (input[at + c] + P.input_offset) * weights[(ky * kernel_w + kx) * channels + c]);
        }
      finish(rq, c, acc, out);
    }
  }

  // ---- Channel-major order -------------------------------------------------------------------------

  // A group of 4 channels: what their accumulators start from, and their output stages.
  struct group_state {
    std::int32_t bias[4];    // pixels with taps in the padding
    std::int32_t folded[4];  // whole windows: bias + input_offset * sum of the filter
    output_stage<P> out[4];
  };

  [[gnu::noinline]] static void channel_group(const std::int8_t* input, const std::int8_t* weights, const std::int32_t* bias,
                                              const requant_arrays& rq, std::int8_t* output, std::int32_t c) {
    group_state state;
    for (int k = 0; k < 4; ++k) {
      std::int32_t sum = 0;
      for (std::int32_t t = 0; t < taps; ++t) sum += weights[t * channels + c + k];
      state.bias[k] = P.has_bias != 0 ? bias[c + k] : 0;
      state.folded[k] = wrapping_add(state.bias[k], offset_term(P.input_offset, sum));
      state.out[k] = output_stage_of<P>(rq.multiplier, rq.shift, c + k);
    }
    bool short_stage = true;
    for (int k = 0; k < 4; ++k) short_stage = short_stage && state.out[k].template short_applies<product_bound>(state.bias[k]);
    if (short_stage) walk<true>(state, input, weights + c, output, c);
    else walk<false>(state, input, weights + c, output, c);
  }

  // The largest |sum (x + offset) * w| of one output (short_stage_applies).
  static constexpr std::int64_t product_bound = std::int64_t{255} * 128 * taps;

  // Output rows [whole_rows_begin, whole_rows_end) have every kernel row inside the input; the others
  // (the few rows along the top and bottom padding) get one compile-time walk each, when there are few.
  static constexpr bool whole_row(std::int32_t oy) {
    const auto rows = g::rows_inside(oy);
    return rows.first == 0 && rows.end == kernel_h;
  }
  static constexpr std::int32_t find_whole_rows_begin() {
    std::int32_t oy = 0;
    while (oy < g::out_h && !whole_row(oy)) ++oy;
    return oy;
  }
  static constexpr std::int32_t whole_rows_begin = find_whole_rows_begin();
  static constexpr std::int32_t find_whole_rows_end() {
    std::int32_t oy = whole_rows_begin;
    while (oy < g::out_h && whole_row(oy)) ++oy;
    return oy;
  }
  static constexpr std::int32_t whole_rows_end = find_whole_rows_end();
  // Size-optimised builds (-Os) walk every pixel outside the interior pairs with its window known at run
  // time (partial_window): one function instead of one per compile-time window class.
#if defined(__OPTIMIZE_SIZE__)
  static constexpr bool compile_time_windows = false;
#else
  static constexpr bool compile_time_windows = true;
#endif
  static constexpr bool rows_by_class() {
    if (!compile_time_windows) return false;
    for (std::int32_t oy = whole_rows_end; oy < g::out_h; ++oy)
      if (whole_row(oy)) return false;
    return g::out_h - (whole_rows_end - whole_rows_begin) <= 8;
  }

  template <bool Short>
  static void walk(const group_state& state, const std::int8_t* input, const std::int8_t* w, std::int8_t* output, std::int32_t c) {
    for (std::int32_t b = 0; b < g::batch; ++b) {
      if constexpr (padded_walk) {
        padded_rows<Short>(state, input, w, output, b, c);
      } else if constexpr (rows_by_class()) {
        known_rows<Short, 0>(state, input, w, output, b, c, std::make_integer_sequence<std::int32_t, whole_rows_begin>{});
        for (std::int32_t oy = whole_rows_begin; oy < whole_rows_end; ++oy) row_of_whole_windows<Short>(state, input, w, output, b, oy, c);
        known_rows<Short, whole_rows_end>(state, input, w, output, b, c, std::make_integer_sequence<std::int32_t, g::out_h - whole_rows_end>{});
      } else {
        for (std::int32_t oy = 0; oy < g::out_h; ++oy) {
          if (whole_row(oy)) {
            row_of_whole_windows<Short>(state, input, w, output, b, oy, c);
          } else {
            const auto rows = g::rows_inside(oy);
            std::int8_t* out = output + (static_cast<std::ptrdiff_t>(b) * g::out_h + oy) * g::out_w * channels + c;
            for (std::int32_t ox = 0; ox < g::out_w; ++ox) partial_window<Short>(state, input, w, out + ox * channels, b, rows, ox, c);
          }
        }
      }
    }
  }

  // ---- Narrow maps: padded rows ------------------------------------------------------------------------
  // Stride 1, no dilation, and rows short enough that 2 * kernel_h padded rows of a group's 4 channels
  // take at most padded_bytes of stack (KWS's 25 x 5 maps; VWW's 6 x 6 and 3 x 3): most pixels of such
  // maps have taps in the padding, which cost a call and a window each, and neighbours read the same
  // input words. Instead each input row of the group is widened once (two words a pixel, the input offset
  // added by SXTAB16) into a row padded with zeros (a padding tap adds nothing), rows above and below the
  // input all zeros, the group's filters widened once too, and every pixel runs every tap at
  // compile-time offsets from the bias, two pixels at a time (depthwise_widened_tap_2x4_asm: 11
  // instructions for 8 MACs). Each row goes into slots r % kernel_h and r % kernel_h + kernel_h of the
  // ring, so that the kernel_h rows of any output row lie contiguous. In place (channel-major, the result
  // whole pixels from the input), a row is copied before the output row above the pixels that read it is
  // written, and the planner's rule makes every output that reads an input pixel come before the one
  // overwriting it.

  // Padded row r (input row r - pad_top) of channels c..c+3, widened, into its two ring slots.
  [[gnu::always_inline]] static inline void copy_padded_row(const std::int8_t* input, std::int32_t b, std::int32_t r, std::int32_t c,
                                                            std::uint32_t* ring) {
    std::uint32_t* first = ring + (r % kernel_h) * padded_w * 2;
    std::uint32_t* second = first + kernel_h * padded_w * 2;
    const std::int32_t iy = r - g::win.pad_top;
    if (iy < 0 || iy >= g::in_h) {
#pragma GCC unroll 32
      for (std::int32_t j = 0; j < 2 * padded_w; ++j) first[j] = second[j] = 0;
      return;
    }
    const std::int8_t* x = input + g::input_pixel(b, iy, 0) + c;
#pragma GCC unroll 16
    for (std::int32_t j = 0; j < padded_w; ++j) {
      const std::int32_t ix = j - g::win.pad_left;
      if (ix >= 0 && ix < g::in_w) {  // the padding columns are zero already (padded_rows)
        const std::uint32_t word = load_word(x + static_cast<std::ptrdiff_t>(ix) * channels);
        first[2 * j] = second[2 * j] = sxtab16(offset_pair, word);
        first[2 * j + 1] = second[2 * j + 1] = sxtab16_ror8(offset_pair, word);
      }
    }
  }

  template <bool Short>
  [[gnu::noinline]] static void padded_rows(const group_state& state, const std::int8_t* input, const std::int8_t* w, std::int8_t* output,
                                            std::int32_t b, std::int32_t c) {
    // The filters widened (doubled for the short stage: 2 * w fits the halves, and the accumulators then
    // hold the 2 * acc it multiplies).
    std::uint32_t filters[2 * taps];
#pragma GCC unroll 25
    for (std::int32_t t = 0; t < taps; ++t) {
      const std::uint32_t word = load_word(w + t * channels);
      const std::uint32_t even = sxtb16(word), odd = sxtb16_ror8(word);
      filters[2 * t] = Short ? sxtab16(even, word) : even;
      filters[2 * t + 1] = Short ? sxtab16_ror8(odd, word) : odd;
    }
    std::uint32_t ring[ring_words];
    // The padding columns: zero in every slot, written once.
#pragma GCC unroll 16
    for (std::int32_t r = 0; r < 2 * kernel_h; ++r)
#pragma GCC unroll 16
      for (std::int32_t j = 0; j < padded_w; ++j)
        if (j < g::win.pad_left || j - g::win.pad_left >= g::in_w) ring[(r * padded_w + j) * 2] = ring[(r * padded_w + j) * 2 + 1] = 0;
    for (std::int32_t r = 0; r + 1 < kernel_h; ++r) copy_padded_row(input, b, r, c, ring);
    std::int32_t slot = 0;  // oy % kernel_h
    for (std::int32_t oy = 0; oy < g::out_h; ++oy) {
      copy_padded_row(input, b, oy + kernel_h - 1, c, ring);
      const std::uint32_t* x = ring + slot * padded_w * 2;
      std::int8_t* out = output + (static_cast<std::ptrdiff_t>(b) * g::out_h + oy) * g::out_w * channels + c;
#pragma GCC unroll 8
      for (std::int32_t ox = 0; ox + 1 < g::out_w; ox += 2) padded_pair<Short>(state, x + 2 * ox, filters, out + ox * channels);
      if constexpr (g::out_w % 2 != 0) padded_single<Short>(state, x + 2 * (g::out_w - 1), filters, out + (g::out_w - 1) * channels);
      slot = slot + 1 == kernel_h ? 0 : slot + 1;
    }
  }

  // Tap t's input pair, in bytes from the pixel's tap (0, 0) in the ring.
  static constexpr std::ptrdiff_t padded_tap(std::int32_t t) {
    return (static_cast<std::ptrdiff_t>(t / kernel_w) * padded_w + t % kernel_w) * 8;
  }
  template <std::int32_t... T>
  [[gnu::always_inline]] static inline void padded_taps(const std::uint32_t* x, const std::uint32_t* w, std::int32_t (&a)[4],
                                                        std::int32_t (&b)[4], std::integer_sequence<std::int32_t, T...>) {
    (depthwise_widened_tap_2x4_asm<padded_tap(T), padded_tap(T) + 8, static_cast<std::ptrdiff_t>(T) * 8>(x, w, a, b), ...);
  }

  // Two neighbouring pixels of the ring (x: pixel 0's tap (0, 0)). Out of line: the assembly taps need
  // 14 registers.
  // The accumulators' start and output stage in the ring walk: with the short stage, twice the sum (the
  // filters doubled; |acc| < 2^30 there).
  template <bool Short>
  [[gnu::always_inline]] static inline std::int32_t padded_start(std::int32_t bias) {
    return Short ? static_cast<std::int32_t>(static_cast<std::uint32_t>(bias) * 2u) : bias;
  }
  template <bool Short>
  [[gnu::always_inline]] static inline std::int8_t padded_output(const output_stage<P>& stage, std::int32_t acc) {
    if constexpr (Short) return stage.apply_twice(acc);
    else return stage.template apply<false>(acc);
  }

  template <bool Short>
  [[gnu::noinline]] static void padded_pair(const group_state& state, const std::uint32_t* x, const std::uint32_t* w, std::int8_t* out) {
    std::int32_t a[4], b[4];
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) a[k] = b[k] = padded_start<Short>(state.bias[k]);
    padded_taps(x, w, a, b, std::make_integer_sequence<std::int32_t, taps>{});
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) {
      out[k] = padded_output<Short>(state.out[k], a[k]);
      out[channels + k] = padded_output<Short>(state.out[k], b[k]);
    }
  }

  // One pixel of the ring.
  template <bool Short>
  static void padded_single(const group_state& state, const std::uint32_t* x, const std::uint32_t* w, std::int8_t* out) {
    std::int32_t acc[4];
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) acc[k] = padded_start<Short>(state.bias[k]);
#pragma GCC unroll 25
    for (std::int32_t t = 0; t < taps; ++t) {
      const std::uint32_t x_even = x[padded_tap(t) / 4], x_odd = x[padded_tap(t) / 4 + 1], w_even = w[2 * t], w_odd = w[2 * t + 1];
      acc[0] = smlabb(x_even, w_even, acc[0]);
      acc[1] = smlabb(x_odd, w_odd, acc[1]);
      acc[2] = smlatt(x_even, w_even, acc[2]);
      acc[3] = smlatt(x_odd, w_odd, acc[3]);
    }
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) out[k] = padded_output<Short>(state.out[k], acc[k]);
  }

  // A row whose kernel rows are all inside: border columns (compile-time windows; -Os: run-time ones), interior pixels two
  // at a time.
  template <bool Short>
  static void row_of_whole_windows(const group_state& state, const std::int8_t* input, const std::int8_t* w, std::int8_t* output,
                                   std::int32_t b, std::int32_t oy, std::int32_t c) {
    std::int8_t* out = output + (static_cast<std::ptrdiff_t>(b) * g::out_h + oy) * g::out_w * channels + c;
    const std::int32_t input_row = oy * g::win.stride_h - g::win.pad_top;
    const auto first_tap = [&](std::int32_t ox) { return input + g::input_pixel(b, input_row, ox * g::win.stride_w - g::win.pad_left) + c; };
    const auto run_time_window = [&](std::int32_t ox) { partial_window<Short>(state, input, w, out + ox * channels, b, g::rows_inside(oy), ox, c); };
    if constexpr (compile_time_windows)
      known_columns<Short, 0, kernel_h, 0>(state, input, w, out, b, input_row, c, std::make_integer_sequence<std::int32_t, g::interior_begin>{});
    else
      for (std::int32_t ox = 0; ox < g::interior_begin; ++ox) run_time_window(ox);
    constexpr std::int32_t pairs = (g::interior_end - g::interior_begin) / 2;
    for (std::int32_t k = 0; k < pairs; ++k) {
      const std::int32_t ox = g::interior_begin + 2 * k;
      whole_windows<Short>(state, first_tap(ox), w, out + ox * channels);
    }
    if constexpr ((g::interior_end - g::interior_begin) % 2 != 0) {
      if constexpr (compile_time_windows) whole_window<Short>(state, first_tap(g::interior_end - 1), w, out + (g::interior_end - 1) * channels);
      else run_time_window(g::interior_end - 1);
    }
    if constexpr (compile_time_windows)
      known_columns<Short, 0, kernel_h, g::interior_end>(state, input, w, out, b, input_row, c,
                                                         std::make_integer_sequence<std::int32_t, g::out_w - g::interior_end>{});
    else
      for (std::int32_t ox = g::interior_end; ox < g::out_w; ++ox) run_time_window(ox);
  }

  // Rows First + i (compile-time), some of whose kernel rows fall in the padding.
  template <bool Short, std::int32_t First, std::int32_t... I>
  [[gnu::always_inline]] static inline void known_rows([[maybe_unused]] const group_state& state, [[maybe_unused]] const std::int8_t* input,
                                                       [[maybe_unused]] const std::int8_t* w, [[maybe_unused]] std::int8_t* output,
                                                       [[maybe_unused]] std::int32_t b, [[maybe_unused]] std::int32_t c,
                                                       std::integer_sequence<std::int32_t, I...>) {
    (known_row<Short, First + I>(state, input, w, output, b, c), ...);
  }

  template <bool Short, std::int32_t OY>
  static void known_row(const group_state& state, const std::int8_t* input, const std::int8_t* w, std::int8_t* output, std::int32_t b,
                        std::int32_t c) {
    constexpr auto rows = g::rows_inside(OY);
    std::int8_t* out = output + (static_cast<std::ptrdiff_t>(b) * g::out_h + OY) * g::out_w * channels + c;
    known_columns<Short, rows.first, rows.end, 0>(state, input, w, out, b, rows.input_row, c,
                                                  std::make_integer_sequence<std::int32_t, g::interior_begin>{});
    for (std::int32_t ox = g::interior_begin; ox < g::interior_end; ++ox)
      known_window<Short, rows.first, rows.end, 0, kernel_w>(state, input, w, out + ox * channels, b, rows.input_row, ox, c);
    known_columns<Short, rows.first, rows.end, g::interior_end>(state, input, w, out, b, rows.input_row, c,
                                                                std::make_integer_sequence<std::int32_t, g::out_w - g::interior_end>{});
  }

  // Columns First + i (compile-time) of a row whose kernel rows [R0, R1) are inside.
  template <bool Short, std::int32_t R0, std::int32_t R1, std::int32_t First, std::int32_t... I>
  [[gnu::always_inline]] static inline void known_columns([[maybe_unused]] const group_state& state, [[maybe_unused]] const std::int8_t* input,
                                                          [[maybe_unused]] const std::int8_t* w, [[maybe_unused]] std::int8_t* out,
                                                          [[maybe_unused]] std::int32_t b, [[maybe_unused]] std::int32_t input_row,
                                                          [[maybe_unused]] std::int32_t c, std::integer_sequence<std::int32_t, I...>) {
    (known_window<Short, R0, R1, g::columns_inside(First + I).first, g::columns_inside(First + I).end>(
         state, input, w, out + (First + I) * channels, b, input_row, First + I, c),
     ...);
  }

  // Pixel (b, row whose tap row 0 is input_row, ox) whose taps inside are kernel rows [R0, R1) x kernel
  // columns [C0, C1), known at compile time: those taps unrolled at fixed offsets, the offset added by
  // SXTAB16 (the others are skipped).
  template <bool Short, std::int32_t R0, std::int32_t R1, std::int32_t C0, std::int32_t C1>
  [[gnu::noinline]] static void known_window(const group_state& state, const std::int8_t* input, const std::int8_t* w, std::int8_t* out,
                                             [[maybe_unused]] std::int32_t b, [[maybe_unused]] std::int32_t input_row,
                                             [[maybe_unused]] std::int32_t ox, [[maybe_unused]] std::int32_t c) {
    std::int32_t acc[4];
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) acc[k] = state.bias[k];
    if constexpr (R0 < R1 && C0 < C1) {
      const std::int8_t* x =
          input + g::input_pixel(b, input_row + R0 * g::win.dilation_h, ox * g::win.stride_w - g::win.pad_left + C0 * g::win.dilation_w) + c;
#pragma GCC unroll 16
      for (std::int32_t ky = R0; ky < R1; ++ky)
#pragma GCC unroll 16
        for (std::int32_t kx = C0; kx < C1; ++kx) tap4(x + tap_offset(ky - R0, kx - C0), w + (ky * kernel_w + kx) * channels, acc);
    }
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) out[k] = state.out[k].template apply<Short>(acc[k]);
  }

  // Two pixels x 4 channels at tap t: x is pixel 0's tap (0, 0), pixel 1's is XStep further.
  static constexpr std::ptrdiff_t pixel_distance = static_cast<std::ptrdiff_t>(g::win.stride_w) * channels;
  static constexpr bool asm_taps = asm_depthwise_fits<tap_offset(kernel_h - 1, kernel_w - 1) + pixel_distance, (taps - 1) * channels>;

  template <std::int32_t T>
  [[gnu::always_inline]] static inline void tap_pair(const std::int8_t* x, const std::int8_t* w, std::int32_t (&a)[4], std::int32_t (&b)[4]) {
    constexpr std::ptrdiff_t at = tap_offset(T / kernel_w, T % kernel_w);
    depthwise_tap_2x4<asm_taps, at, at + pixel_distance, static_cast<std::ptrdiff_t>(T) * channels>(x, w, a, b);
  }

  template <std::int32_t... T>
  [[gnu::always_inline]] static inline void all_taps(const std::int8_t* x, const std::int8_t* w, std::int32_t (&a)[4], std::int32_t (&b)[4],
                                                     std::integer_sequence<std::int32_t, T...>) {
    (tap_pair<T>(x, w, a, b), ...);
  }

  // Two neighbouring pixels whose windows lie inside the input. Out of line: the assembly taps need 14
  // registers, which a caller with more values live could not give them.
  template <bool Short>
  [[gnu::noinline]] static void whole_windows(const group_state& state, const std::int8_t* x, const std::int8_t* w,
                                                          std::int8_t* out) {
    std::int32_t a[4], b[4];
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) a[k] = b[k] = state.folded[k];
    all_taps(x, w, a, b, std::make_integer_sequence<std::int32_t, taps>{});
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) {
      out[k] = state.out[k].template apply<Short>(a[k]);
      out[channels + k] = state.out[k].template apply<Short>(b[k]);
    }
  }


  // One pixel whose window lies inside the input.
  template <bool Short>
  static void whole_window(const group_state& state, const std::int8_t* x, const std::int8_t* w, std::int8_t* out) {
    std::int32_t acc[4];
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) acc[k] = state.folded[k];
#pragma GCC unroll 25
    for (std::int32_t t = 0; t < taps; ++t) {
      const std::uint32_t xw = load_word(x + tap_offset(t / kernel_w, t % kernel_w)), ww = load_word(w + t * channels);
      const std::uint32_t x_even = sxtb16(xw), x_odd = sxtb16_ror8(xw), w_even = sxtb16(ww), w_odd = sxtb16_ror8(ww);
      acc[0] = smlabb(x_even, w_even, acc[0]);
      acc[1] = smlabb(x_odd, w_odd, acc[1]);
      acc[2] = smlatt(x_even, w_even, acc[2]);
      acc[3] = smlatt(x_odd, w_odd, acc[3]);
    }
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) out[k] = state.out[k].template apply<Short>(acc[k]);
  }

  // One pixel with taps in the padding: its in-bounds taps, the offset added by SXTAB16.
  template <bool Short>
  [[gnu::noinline]] static void partial_window(const group_state& state, const std::int8_t* input, const std::int8_t* w, std::int8_t* out,
                                               std::int32_t b, typename g::row_range rows, std::int32_t ox, std::int32_t c) {
    const auto columns = g::columns_inside(ox);
    std::int32_t acc[4];
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) acc[k] = state.bias[k];
    for (std::int32_t ky = rows.first; ky < rows.end; ++ky)
      for (std::int32_t kx = columns.first; kx < columns.end; ++kx)
        tap4(input + g::input_pixel(b, rows.input_row + ky * g::win.dilation_h, columns.input_row + kx * g::win.dilation_w) + c,
             w + (ky * kernel_w + kx) * channels, acc);
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) out[k] = state.out[k].template apply<Short>(acc[k]);
  }
};

}  // namespace ctnn::kernel::arm::detail
