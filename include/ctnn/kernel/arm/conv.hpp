#pragma once
// int8 conv2d (groups 1; any kernel, stride, dilation, padding) and dense on Armv7E-M DSP, bit-exact with
// reference::int8::conv2d / dense.
//
// An output pixel's accumulator is a sum of dot products over contiguous stretches of the input and of
// its filter (OHWI): per kernel row inside the input, the taps inside it side by side (dilation_w 1), or
// per tap. Four values at a time: one word of input widened with SXTB16 twice, one word of weights
// widened the same way (the same even/odd byte split on both sides, so the weights need no re-layout:
// they are read as stored, 8-bit), and two SMLADs.
//
// The input offset: where a pixel's whole window lies inside the input, sum((x + offset) * w) is
// sum(x * w) + offset * sum(w), and the second term (computed once per output channel, at the start of
// its channel block) starts the accumulator. Where taps fall in the padding (the reference skips them),
// the inputs are widened with SXTAB16 instead, which adds the offset for free, and only the taps inside
// are read.
//
// Order and register blocking, chosen at compile time:
//   * by default, channel-major: per block of 2 output channels (their bias, offset term and
//     requantization read once), every pixel, 2 at a time (each input and weight word serves two
//     products: 20 instructions per 16 MACs). The pixels of a block are consecutive interior pixels of
//     one output row (all of the image for dense layers of several rows), at a compile-time distance;
//     border pixels go one at a time over their in-bounds taps.
//   * pointwise convs (unpadded 1x1, stride 1; strided too over whole quads): blocks of pixels whose
//     input is widened once on the stack (detail/pointwise.hpp);
//   * small windows over few input channels (first layers), and windows of at most 144 values over whole
//     quads of channels (gathered widened): pixel pairs gathered (detail/gathered.hpp);
//   * dense layers of one row: 1 pixel x 4 channels, the weights packed per 4-channel group at compile
//     time (pack), the input widened once where it is short (else the offset terms packed too).
// Calls run in place (kernel_params::in_place) write a block of output pixels only after every pixel of
// the block was read, which the planner's rule makes safe (memory/in_place_window.hpp: pixels after the
// block read nothing below the block's end): pointwise blocks and gathered pairs as out of place; other
// windows pixel-major, as the reference kernel walks, 1 pixel x 4 channels.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/dot.hpp>
#include <ctnn/kernel/arm/detail/dsp.hpp>
#include <ctnn/kernel/arm/detail/gathered.hpp>
#include <ctnn/kernel/arm/detail/pointwise.hpp>
#include <ctnn/kernel/arm/detail/requantize.hpp>
#include <ctnn/kernel/arm/detail/window.hpp>
#include <ctnn/kernel/detail/operands.hpp>
#include <ctnn/kernel/detail/output_clamp.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::detail {

template <kernel_params P>
struct conv_kernel : kernel::detail::reads_constants_as_stored {
  using g = window_geometry<P>;
  static constexpr std::int32_t in_c = g::in_c, out_c = g::out_c;
  static constexpr std::int32_t kernel_h = g::kernel_h, kernel_w = g::kernel_w;
  static constexpr std::int32_t reduction = kernel_h * kernel_w * in_c;
  // Unpadded 1x1 convs with stride 1 and dense layers: every pixel is one stretch of in_c values, all
  // pixels evenly spaced, so blocks run over the whole image.
  static constexpr bool flat = g::is_dense || (kernel_h == 1 && kernel_w == 1 && g::win.stride_h == 1 && g::win.stride_w == 1 && g::unpadded);
  static constexpr std::int32_t pixels = g::batch * g::out_h * g::out_w;
  static constexpr bool pixel_major = P.in_place != 0;
  // One pixel (dense layers of one row): output channels four at a time, one input word serving four
  // filters, the offset added by SXTAB16 (an offset term would cost as much as the dot product here).
  static constexpr bool single_pixel = !pixel_major && flat && pixels == 1;
  // Small windows over few input channels (first layers): pixel pairs gathered (detail/gathered.hpp).
  static constexpr bool gathered = !flat && gathered_windows<P>::applies;
  // Windows over whole quads of channels, gathered widened (detail/gathered.hpp); strided 1x1 convs take
  // the pointwise blocks (strided_pointwise_walk), which gather whole blocks.
  static constexpr bool gathered_widened = !flat && !gathered && !(kernel_h == 1 && kernel_w == 1) && gathered_windows<P, true>::applies;
  static constexpr std::ptrdiff_t pixel_step = flat ? in_c : static_cast<std::ptrdiff_t>(g::win.stride_w) * in_c;
  // Pointwise convs in blocks of pixels (detail/pointwise.hpp): in place, and with whole quads of input
  // channels (widened once per block) also out of place.
  using pointwise = pointwise_blocks<P, in_c, out_c, pixels>;
  static constexpr bool pointwise_walk =
      flat && P.kind == op_kind::conv2d && !single_pixel && pointwise::applies && (pixel_major || pointwise::widened);
  // Unpadded strided 1x1 convs over whole quads, out of place: the same blocks, each block's copy gathering
  // the input pixels under its output pixels.
  using strided_pointwise = pointwise_blocks<P, in_c, out_c, pixels, true>;
  static constexpr bool strided_pointwise_walk = !flat && P.kind == op_kind::conv2d && !pixel_major && kernel_h == 1 && kernel_w == 1 &&
                                                 g::unpadded && strided_pointwise::widened && strided_pointwise::applies;
  // Kernel rows are one stretch (dilation_w 1) or kernel_w stretches of in_c values.
  static constexpr bool row_stretch = g::win.dilation_w == 1;

  static constexpr bool supports =
      dsp_available && (P.kind == op_kind::dense || (P.kind == op_kind::conv2d && P.groups == 1 && P.in.rank == 4 && P.out.rank == 4)) &&
      P.type == dtype::i8 && P.weights_offset == 0 && g::valid && kernel::detail::is_output_clamp(P.fused);

  // Constants are read as stored (reads_constants_as_stored): OHWI is the order the stretches read; but
  // for one pixel over whole quads (dense layers of one row), the weights are re-laid out at compile time
  // per group of 4 output channels, per quad of inputs, the 4 channels' words side by side (one LDM reads
  // a quad's filters); the channels past the last whole group follow as stored. The same bytes, as words
  // (word-aligned). Where the input is too long to widen on the stack (folded_terms), the grouped
  // channels' offset terms (input_offset * sum of the filter) come first: the loop then widens the input
  // without the offset, which frees the register LDM needs (4 bytes per channel).
  static constexpr bool packed_rows = single_pixel && reduction % 4 == 0 && out_c >= 4;
  static constexpr bool folded_terms = packed_rows && reduction > 256;
  static constexpr std::int32_t grouped = out_c / 4 * 4;
  static constexpr std::size_t packed_words = static_cast<std::size_t>(out_c) * reduction / 4 + (folded_terms ? grouped : 0);
  static constexpr bool packs(std::size_t k) { return packed_rows && k == 1; }
  template <std::size_t K, class Reader>
  static constexpr std::array<std::int32_t, packed_words> pack(const Reader& read) {
    static_assert(K == 1 && packed_rows, "ctnn: the DSP dense kernel packs the weights of one-row layers only.");
    std::array<std::int32_t, packed_words> words{};
    constexpr std::size_t first = folded_terms ? grouped : 0;
    for (std::int32_t o = 0; o < out_c; ++o) {
      std::int32_t sum = 0;
      for (std::int32_t k = 0; k < reduction; ++k) {
        const std::int8_t value = read.i8(static_cast<std::size_t>(o) * reduction + k);
        const std::size_t word = first + (o < grouped ? static_cast<std::size_t>(((o / 4) * (reduction / 4) + k / 4) * 4 + o % 4)
                                                      : static_cast<std::size_t>((o * reduction + k) / 4));
        words[word] = static_cast<std::int32_t>(static_cast<std::uint32_t>(words[word]) |
                                                static_cast<std::uint32_t>(static_cast<std::uint8_t>(value)) << (8 * (k % 4)));
        sum += value;
      }
      if (folded_terms && o < grouped) words[static_cast<std::size_t>(o)] = offset_term(P.input_offset, sum);
    }
    return words;
  }

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays& rq) {
    const auto [input, weights, bias, output] = kernel::detail::weighted_operands_of<P, std::int8_t>(operands, result);
    if constexpr (single_pixel && widened_single_pixel) {
      widened_single_pixel_channels(input, weights, bias, rq, output);
    } else if constexpr (single_pixel) {
      all_single_pixel_channels(input, weights, bias, rq, output);
    } else if constexpr (gathered) {
      gathered_windows<P>::run(input, weights, bias, rq, output);
    } else if constexpr (gathered_widened) {
      gathered_windows<P, true>::run(input, weights, bias, rq, output);
    } else if constexpr (pointwise_walk) {
      pointwise::run(input, weights, bias, rq, output);
    } else if constexpr (strided_pointwise_walk) {
      strided_pointwise::run(input, weights, bias, rq, output);
    } else if constexpr (pixel_major) {
      const context c{bias, rq.multiplier, rq.shift};
      for (std::int32_t p = 0; p < pixels; ++p) pixel(c, input, weights, output + static_cast<std::ptrdiff_t>(p) * out_c, p);
    } else {
      constexpr std::int32_t pairs = out_c / 2;
      const std::int8_t* w = weights;
      for (std::int32_t k = 0; k < pairs; ++k, w += 2 * reduction) channel_block<2>(input, w, bias, rq, output, 2 * k);
      if constexpr (out_c % 2 != 0) channel_block<1>(input, w, bias, rq, output, out_c - 1);
    }
  }

 private:
  static constexpr std::uint32_t offset_pair = both_halves(P.input_offset);

  // ---- Channel-major order --------------------------------------------------------------------------

  // What an output channel's accumulators start from, and its requantization.
  struct channel_start {
    std::int32_t bias;    // windows with taps in the padding (SXTAB16 adds the offset)
    std::int32_t folded;  // whole windows: bias + input_offset * sum of the filter
  };

  [[gnu::always_inline]] static inline channel_start start_of(const std::int8_t* w, const std::int32_t* bias, std::int32_t o) {
    const std::int32_t first = P.has_bias != 0 ? bias[o] : 0;
    return {first, wrapping_add(first, offset_term(P.input_offset, filter_sum<reduction>(w)))};
  }

  template <int Channels>
  struct block_state {
    channel_start start[Channels];
    output_stage<P> out[Channels];
  };

  // Output channels [o, o + Channels) of every pixel; `w` is channel o's filter.
  template <int Channels>
  [[gnu::noinline]] static void channel_block(const std::int8_t* input, const std::int8_t* w, const std::int32_t* bias,
                                              const requant_arrays& rq, std::int8_t* output, std::int32_t o) {
    block_state<Channels> state;
#pragma GCC unroll 4
    for (int ch = 0; ch < Channels; ++ch) {
      state.start[ch] = start_of(w + ch * reduction, bias, o + ch);
      state.out[ch] = output_stage_of<P>(rq.multiplier, rq.shift, o + ch);
    }
    bool short_stage = true;
#pragma GCC unroll 4
    for (int ch = 0; ch < Channels; ++ch)
      short_stage = short_stage && state.out[ch].template short_applies<product_bound>(P.has_bias != 0 ? bias[o + ch] : 0);
    if (short_stage) walk<Channels, true>(state, input, w, output + o);
    else walk<Channels, false>(state, input, w, output + o);
  }

  // The largest |sum (x + offset) * w| of one output (short_stage_applies).
  static constexpr std::int64_t product_bound = std::int64_t{255} * 128 * reduction;

  template <int Channels, bool Short>
  static void walk(const block_state<Channels>& state, const std::int8_t* input, const std::int8_t* w, std::int8_t* out) {
    if constexpr (flat) {
      constexpr std::int32_t pairs = pixels / 2;
      const std::int8_t* x = input;
      for (std::int32_t k = 0; k < pairs; ++k, x += 2 * in_c, out += 2 * out_c) whole_windows<2, Channels, Short>(state, x, w, out);
      if constexpr (pixels % 2 != 0) whole_windows<1, Channels, Short>(state, x, w, out);
    } else {
      for (std::int32_t b = 0; b < g::batch; ++b)
        for (std::int32_t oy = 0; oy < g::out_h; ++oy)
          row_of_channels<Channels, Short>(state, input, w, out + (static_cast<std::ptrdiff_t>(b) * g::out_h + oy) * g::out_w * out_c, b, oy);
    }
  }

  template <int Channels, bool Short>
  static void row_of_channels(const block_state<Channels>& state, const std::int8_t* input, const std::int8_t* w, std::int8_t* out,
                              std::int32_t b, std::int32_t oy) {
    const auto rows = g::rows_inside(oy);
    const bool whole_rows = rows.first == 0 && rows.end == kernel_h;
    // Offset of a pixel's tap (0, 0), which may lie outside the input (only taps inside are read).
    const auto first_tap = [&](std::int32_t ox) { return g::input_pixel(b, rows.input_row, ox * g::win.stride_w - g::win.pad_left); };
    for (std::int32_t ox = 0; ox < g::interior_begin; ++ox) partial_window<Channels, Short>(state, input, w, out + ox * out_c, b, rows, ox);
    constexpr std::int32_t pairs = (g::interior_end - g::interior_begin) / 2;
    if (whole_rows) {
      for (std::int32_t k = 0; k < pairs; ++k) {
        const std::int32_t ox = g::interior_begin + 2 * k;
        whole_windows<2, Channels, Short>(state, input + first_tap(ox), w, out + ox * out_c);
      }
      if constexpr ((g::interior_end - g::interior_begin) % 2 != 0)
        whole_windows<1, Channels, Short>(state, input + first_tap(g::interior_end - 1), w, out + (g::interior_end - 1) * out_c);
    } else {
      for (std::int32_t k = 0; k < pairs; ++k) {
        const std::int32_t ox = g::interior_begin + 2 * k;
        some_rows<2, Channels, Short>(state, input, first_tap(ox), w, out + ox * out_c, rows.first, rows.end);
      }
      if constexpr ((g::interior_end - g::interior_begin) % 2 != 0)
        some_rows<1, Channels, Short>(state, input, first_tap(g::interior_end - 1), w, out + (g::interior_end - 1) * out_c, rows.first, rows.end);
    }
    for (std::int32_t ox = g::interior_end; ox < g::out_w; ++ox) partial_window<Channels, Short>(state, input, w, out + ox * out_c, b, rows, ox);
  }

  template <bool Short, int Pixels, int Channels>
  [[gnu::always_inline]] static inline void store(const block_state<Channels>& state, const std::int32_t (&acc)[Pixels][Channels],
                                                  std::int8_t* out) {
#pragma GCC unroll 4
    for (int ch = 0; ch < Channels; ++ch)
#pragma GCC unroll 4
      for (int p = 0; p < Pixels; ++p) out[p * out_c + ch] = state.out[ch].template apply<Short>(acc[p][ch]);
  }

  // Pixels whose windows lie wholly inside the input, their taps (0, 0) at x + p * pixel_step.
  template <int Pixels, int Channels, bool Short>
  [[gnu::always_inline]] static inline void whole_windows(const block_state<Channels>& state, const std::int8_t* x, const std::int8_t* w,
                                                          std::int8_t* out) {
    std::int32_t acc[Pixels][Channels];
#pragma GCC unroll 4
    for (int ch = 0; ch < Channels; ++ch)
#pragma GCC unroll 4
      for (int p = 0; p < Pixels; ++p) acc[p][ch] = state.start[ch].folded;
    if constexpr (flat) {
      dot_block<Pixels, Channels, pixel_step, reduction, false>(x, w, in_c, 0, 0, acc);
    } else {
#pragma GCC unroll 1
      for (std::int32_t ky = 0; ky < kernel_h; ++ky) {
        const std::ptrdiff_t row_x = static_cast<std::ptrdiff_t>(ky) * g::win.dilation_h * g::in_w * in_c;
        const std::ptrdiff_t row_w = static_cast<std::ptrdiff_t>(ky) * kernel_w * in_c;
        if constexpr (row_stretch) {
          dot_block<Pixels, Channels, pixel_step, reduction, false>(x + row_x, w + row_w, kernel_w * in_c, 0, 0, acc);
        } else {
#pragma GCC unroll 1
          for (std::int32_t kx = 0; kx < kernel_w; ++kx)
            dot_block<Pixels, Channels, pixel_step, reduction, false>(x + row_x + static_cast<std::ptrdiff_t>(kx) * g::win.dilation_w * in_c,
                                                                      w + row_w + kx * in_c, in_c, 0, 0, acc);
        }
      }
    }
    store<Short>(state, acc, out);
  }

  // Interior columns of a row whose top or bottom kernel rows fall in the padding: kernel rows
  // [first_row, end_row) only, the offset added by SXTAB16. Out of line: the assembly 2 x 2 block with
  // the offset needs 14 registers, which a caller with more values live could not give it.
  template <int Pixels, int Channels, bool Short>
  [[gnu::noinline]] static void some_rows(const block_state<Channels>& state, const std::int8_t* input, std::ptrdiff_t first_tap,
                                                      const std::int8_t* w, std::int8_t* out, std::int32_t first_row, std::int32_t end_row) {
    std::int32_t acc[Pixels][Channels];
#pragma GCC unroll 4
    for (int ch = 0; ch < Channels; ++ch)
#pragma GCC unroll 4
      for (int p = 0; p < Pixels; ++p) acc[p][ch] = state.start[ch].bias;
    accumulate_rows<Pixels, Channels>(input, first_tap, w, first_row, end_row, acc);
    store<Short>(state, acc, out);
  }

  // One pixel of a border column (some kernel columns outside the input), the offset added by SXTAB16.
  template <int Channels, bool Short>
  [[gnu::noinline]] static void partial_window(const block_state<Channels>& state, const std::int8_t* input, const std::int8_t* w,
                                               std::int8_t* out, std::int32_t b, typename g::row_range rows, std::int32_t ox) {
    std::int32_t acc[1][Channels];
#pragma GCC unroll 4
    for (int ch = 0; ch < Channels; ++ch) acc[0][ch] = state.start[ch].bias;
    accumulate_columns<Channels>(input, w, b, rows, g::columns_inside(ox), acc);
    store<Short>(state, acc, out);
  }

  // ---- One pixel ------------------------------------------------------------------------------------

  // Whole quads of at most 256 values: the input widened once on the stack (detail/dot.hpp, widen_quads),
  // read by every filter with one LDRD per quad.
  static constexpr bool widened_single_pixel = reduction % 4 == 0 && reduction <= 256;

  // Out of line: the buffer is on the stack during this call only (inlined, it would sit in the
  // executor's frame during every call).
  [[gnu::noinline]] static void widened_single_pixel_channels(const std::int8_t* input, const std::int8_t* weights, const std::int32_t* bias,
                                                              const requant_arrays& rq, std::int8_t* output) {
    std::uint32_t widened[reduction / 2];
    widen_quads(input, widened, reduction / 4, offset_pair);
    all_single_pixel_channels(widened, weights, bias, rq, output);
  }

  // Out of line: the packed dot's assembly holds all 14 registers; inlined into a caller with more values
  // live, it failed to allocate.
  template <class Input>
  [[gnu::noinline]] static void all_single_pixel_channels(const Input* input, const std::int8_t* weights, const std::int32_t* bias, const requant_arrays& rq,
                                        std::int8_t* output) {
    constexpr std::int32_t quads = out_c / 4;
    const std::int32_t* terms = folded_terms ? reinterpret_cast<const std::int32_t*>(weights) : nullptr;
    const std::int8_t* w = weights + (folded_terms ? 4 * grouped : 0);
    const bool known_short = every_channel_short(bias);
    for (std::int32_t q = 0; q < quads; ++q, w += 4 * reduction)
      single_pixel_channels<4>(input, w, bias, rq, output, 4 * q, known_short, folded_terms ? terms + 4 * q : nullptr);
    for (std::int32_t o = 4 * quads; o < out_c; ++o, w += reduction) single_pixel_channels<1>(input, w, bias, rq, output, o, false, nullptr);
  }

  // Per-tensor calls with a bias: whether every channel takes the short output stage (short_applies), from
  // one pass over the biases: the OR of b ^ (b >> 31) (|b| or |b| - 1) below a power of two 2^k, with
  // 2^k below the bound on |b|. Sufficient, not necessary: false sends each channel group to its own
  // test. Where it holds, the groups skip their tests (four loads and compares each).
  static bool every_channel_short(const std::int32_t* bias) {
    if constexpr (P.per_channel != 0 || P.has_bias == 0 || product_bound >= (std::int64_t{1} << 29)) {
      return false;
    } else {
      if (!output_stage<P>{}.template short_applies<product_bound>(0)) return false;
      constexpr std::int64_t limit = (std::int64_t{1} << 30) - product_bound;  // |b| < limit (short_stage_applies)
      constexpr int k = std::bit_width(static_cast<std::uint64_t>(limit - 1)) - 1;  // 2^k < limit
      std::uint32_t magnitudes = 0;
      for (std::int32_t o = 0; o < out_c; ++o) magnitudes |= static_cast<std::uint32_t>(bias[o] ^ (bias[o] >> 31));
      return magnitudes >> k == 0;
    }
  }

  template <int Channels>
  [[gnu::always_inline]] static inline void single_pixel_dot(const std::int8_t* input, const std::int8_t* w, std::int32_t (&acc)[1][Channels]) {
    dot_block<1, Channels, 0, reduction>(input, w, reduction, offset_pair, P.input_offset, acc);
  }
  template <int Channels>
  [[gnu::always_inline]] static inline void single_pixel_dot(const std::uint32_t* input, const std::int8_t* w, std::int32_t (&acc)[1][Channels]) {
    if constexpr (Channels == 4 && packed_rows) dot_packed_1x4<reduction / 4>(input, w, acc);
    else dot_widened<1, Channels, 0, reduction>(input, w, reduction / 4, acc);
  }

  // Output channels [o, o + Channels) of the only pixel; `w` is channel o's filter.
  // known_short: every channel takes the short output stage (every_channel_short), no test needed.
  template <int Channels, class Input>
  static void single_pixel_channels(const Input* input, const std::int8_t* w, const std::int32_t* bias, const requant_arrays& rq,
                                    std::int8_t* output, std::int32_t o, bool known_short, const std::int32_t* terms) {
    std::int32_t acc[1][Channels];
    output_stage<P> stages[Channels];
    bool short_stage = true;
#pragma GCC unroll 4
    for (int ch = 0; ch < Channels; ++ch) {
      acc[0][ch] = bias_of(bias, o + ch);
      stages[ch] = output_stage_of<P>(rq.multiplier, rq.shift, o + ch);
    }
    if (!known_short) {
#pragma GCC unroll 4
      for (int ch = 0; ch < Channels; ++ch) short_stage = short_stage && stages[ch].template short_applies<product_bound>(acc[0][ch]);
    }
    if constexpr (Channels == 4 && folded_terms) {
      std::int32_t folded[1][4];
#pragma GCC unroll 4
      for (int ch = 0; ch < 4; ++ch) folded[0][ch] = wrapping_add(acc[0][ch], terms[ch]);
      dot_packed_folded_1x4<reduction / 4>(input, w, folded);
#pragma GCC unroll 4
      for (int ch = 0; ch < 4; ++ch) acc[0][ch] = folded[0][ch];
    } else {
      single_pixel_dot<Channels>(input, w, acc);
    }
    if (short_stage) {
#pragma GCC unroll 4
      for (int ch = 0; ch < Channels; ++ch) output[o + ch] = stages[ch].template apply<true>(acc[0][ch]);
    } else {
#pragma GCC unroll 4
      for (int ch = 0; ch < Channels; ++ch) output[o + ch] = stages[ch].template apply<false>(acc[0][ch]);
    }
  }

  static std::int32_t bias_of(const std::int32_t* bias, std::int32_t o) { return P.has_bias != 0 ? bias[o] : 0; }

  // ---- Pixel-major order (in place; single pixels) ---------------------------------------------------

  struct context {
    const std::int32_t* bias;
    const std::int32_t* multiplier;
    const std::int32_t* shift;
  };

  // Every channel of pixel p, 4 at a time.
  [[gnu::noinline]] static void pixel(const context& c, const std::int8_t* input, const std::int8_t* weights, std::int8_t* out,
                                      std::int32_t p) {
    const std::int32_t b = p / (g::out_h * g::out_w), oy = p / g::out_w % g::out_h, ox = p % g::out_w;
    const auto rows = g::rows_inside(oy);
    const auto columns = g::columns_inside(ox);
    constexpr std::int32_t quads = out_c / 4;
    const std::int8_t* w = weights;
    for (std::int32_t q = 0; q < quads; ++q, w += 4 * reduction) pixel_channels<4>(c, input, w, out, b, rows, columns, 4 * q);
    for (std::int32_t o = 4 * quads; o < out_c; ++o, w += reduction) pixel_channels<1>(c, input, w, out, b, rows, columns, o);
  }

  // Channels [o, o + Channels), their filters from `w`.
  template <int Channels>
  [[gnu::always_inline]] static inline void pixel_channels(const context& c, const std::int8_t* input, const std::int8_t* w,
                                                           std::int8_t* out, std::int32_t b, typename g::row_range rows,
                                                           typename g::row_range columns, std::int32_t o) {
    std::int32_t acc[1][Channels];
#pragma GCC unroll 4
    for (int ch = 0; ch < Channels; ++ch) acc[0][ch] = P.has_bias != 0 ? c.bias[o + ch] : 0;
    accumulate_columns<Channels>(input, w, b, rows, columns, acc);
#pragma GCC unroll 4
    for (int ch = 0; ch < Channels; ++ch) out[o + ch] = requantize<P>(acc[0][ch], c.multiplier, c.shift, o + ch);
  }

  // ---- Shared walks over in-bounds taps (the offset added by SXTAB16) -------------------------------

  // Kernel rows [first_row, end_row) of Pixels interior pixels (taps (0, 0) at input + first_tap + p * pixel_step).
  template <int Pixels, int Channels>
  [[gnu::always_inline]] static inline void accumulate_rows(const std::int8_t* input, std::ptrdiff_t first_tap, const std::int8_t* w,
                                                            std::int32_t first_row, std::int32_t end_row, std::int32_t (&acc)[Pixels][Channels]) {
    for (std::int32_t ky = first_row; ky < end_row; ++ky) {
      const std::ptrdiff_t row_x = first_tap + static_cast<std::ptrdiff_t>(ky) * g::win.dilation_h * g::in_w * in_c;
      const std::ptrdiff_t row_w = static_cast<std::ptrdiff_t>(ky) * kernel_w * in_c;
      if constexpr (row_stretch) {
        dot_block<Pixels, Channels, pixel_step, reduction>(input + row_x, w + row_w, kernel_w * in_c, offset_pair, P.input_offset, acc);
      } else {
#pragma GCC unroll 1
        for (std::int32_t kx = 0; kx < kernel_w; ++kx)
          dot_block<Pixels, Channels, pixel_step, reduction>(input + row_x + static_cast<std::ptrdiff_t>(kx) * g::win.dilation_w * in_c,
                                                             w + row_w + kx * in_c, in_c, offset_pair, P.input_offset, acc);
      }
    }
  }

  // The in-bounds taps of one pixel (kernel rows `rows`, kernel columns `columns`).
  template <int Channels>
  [[gnu::always_inline]] static inline void accumulate_columns(const std::int8_t* input, const std::int8_t* w, std::int32_t b,
                                                               typename g::row_range rows, typename g::row_range columns,
                                                               std::int32_t (&acc)[1][Channels]) {
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
  }
};

}  // namespace ctnn::kernel::arm::detail
