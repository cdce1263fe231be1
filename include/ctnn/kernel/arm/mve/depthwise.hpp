#pragma once
// int8 depthwise conv2d (any depth multiplier, any channel count; any kernel, stride, dilation, padding)
// on Armv8.1-M MVE, bit-exact with reference::int8::depthwise_conv2d.
//
// Lane-parallel over output channels, eight at a time: per tap, eight input bytes and eight weights (1HWC:
// a tap's channels are consecutive) widened to int16 lanes (VLDRB.S16), their products widened to int32 in two
// vectors, the even channels' (VMULLB) and the odd channels' (VMULLT), each added to its accumulator: 6
// instructions per 8 MACs (MVE has no vector-by-vector VMLA; four channels in int32 lanes take 4 per 4).
// The output stage requantizes both vectors (TFLite's, or ONNX's in the calls onnx_conv.hpp restates ONNX's
// integer depthwise convolutions as: onnx_output.hpp) and interleaves them back into channel order (store_eight).
// With a depth multiplier M != 1, output channel o reads input channel o / M: the group's eight input
// bytes are one gather load (VLDRB.S16 with int16 offsets (c + k) / M - c / M from input channel c / M,
// set up once per group), as many instructions as the contiguous load. Channels past the last whole
// eight (out_c % 8) go in one group of fewer lanes: its filters, biases and scales loaded predicated (the
// lanes past the end zero), its inputs predicated or gathered at offset 0 (read, never used), its outputs
// stored predicated.
// Channel-major, as the DSP kernel (kernel/arm/depthwise.hpp): per group of eight channels, their bias,
// requantization (deinterleaved by VLD2) and input-offset term (offset * the sum of their filters over
// every tap) set up once, then every pixel in ascending order, in one of two walks:
//   * narrow maps with few taps (`buffered`: the ring below fits in max_buffer_bytes of stack, at most
//     16 taps), the ring walk: the span_h input rows a window spans, the group's eight bytes a pixel,
//     are copied into a ring of rows padded on both sides with -input_offset (x + offset = 0, what the
//     reference's skipped taps add), one new row per output row at stride 1; every pixel then runs every
//     tap from bias + term, unrolled, at immediate offsets from its kernel rows' pointers and from the
//     group's filters (copied eight bytes a tap). No pixel is a border pixel: on KWS (25 x 5 pixels, 3 x 3)
//     45 % of them are;
//   * otherwise: pixels whose window lies inside the input: every tap, the accumulators starting from
//     bias + term; pixels with taps in the padding: their in-bounds taps (the reference skips the
//     others), the offset added to the inputs (VADD, in int16).
//
// In place (kernel_params::in_place), with multiplier 1, the DSP kernel's argument holds for both walks
// when the result lies a whole number of pixels from the input (checked at run time): output (p, c)
// overwrites input (i, c) of one pixel i below everything output pixels >= p read (the planner's rule),
// and each pixel is written after all its reads (the ring walk copies an input row before the first
// output row that reads it, after the output rows before; what it copies and no window reads may be
// overwritten already, and is never read). Otherwise (another distance, or a multiplier: an output pixel
// is wider than an input one) the call walks pixel-major, as the reference kernel: every group of a pixel
// over its in-bounds taps (border_pixel), then the next pixel; the planner's rule puts the whole output
// pixel below everything it and later pixels read.
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/window.hpp>
#include <ctnn/kernel/arm/mve/onnx_output.hpp>
#include <ctnn/kernel/arm/mve/vector.hpp>
#include <ctnn/kernel/detail/operands.hpp>
#include <ctnn/kernel/detail/output_clamp.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::mve::detail {

template <kernel_params P>
struct depthwise_kernel : kernel::detail::reads_constants_as_stored {
  using g = arm::detail::window_geometry<P>;
  static constexpr std::int32_t channels = g::out_c, in_c = g::in_c;
  static constexpr std::int32_t multiplier = P.depth_multiplier;
  static constexpr std::int32_t kernel_h = g::kernel_h, kernel_w = g::kernel_w;
  static constexpr std::int32_t taps = kernel_h * kernel_w;
  static constexpr std::int32_t groups = channels / 8;  // whole groups of eight
  static constexpr std::int32_t tail = channels % 8;    // the last group's lanes, if any
  // The filters' sums over the taps are taken in int16 lanes: |sum| <= 128 * taps.
  static constexpr std::int32_t max_taps = 32767 / 128;

  // The buffered walk (narrow maps, few taps): the input rows a window spans, eight channels a pixel,
  // copied into a ring of span_h rows padded on both sides with -input_offset (a padded tap then adds
  // (x + offset) * w = 0, as the reference's skipped tap), so that every pixel runs every tap from
  // bias + term; the group's filters copied eight bytes a tap (immediate offsets from one pointer).
  static constexpr std::int32_t span_h = (kernel_h - 1) * g::win.dilation_h + 1;
  static constexpr std::int32_t padded_w = (g::out_w - 1) * g::win.stride_w + (kernel_w - 1) * g::win.dilation_w + 1;
  static constexpr std::int32_t row_bytes = 8 * padded_w;
  static constexpr std::int32_t buffer_bytes = span_h * row_bytes;
  // The ring's stack: KWS's 25 x 5 maps take 168 B, VWW's 6 x 6 and 3 x 3 ones up to 192; its 12 x 12 x 64
  // layers (336 B) keep the other walk, which would raise the peak stack of its inference from 1,304 B to
  // 1,448 (1,136 B without the ring walk). The taps: the filters' offsets (VLDRB's immediates).
  static constexpr std::int32_t max_buffer_bytes = 256, max_buffered_taps = 16;
  static constexpr bool buffered = buffer_bytes <= max_buffer_bytes && taps <= max_buffered_taps;

  static constexpr bool supports = mve_available && P.kind == op_kind::depthwise_conv2d && P.type == dtype::i8 &&
                                   multiplier >= 1 && P.in.rank == 4 && P.out.rank == 4 && std::int64_t{in_c} * multiplier == channels &&
                                   taps <= max_taps && P.weights_offset == 0 && g::valid && kernel::detail::is_output_clamp(P.fused) &&
                                   output_stage_available<P>;
  // Per-channel shifts to look at (TFLite's; ONNX's output stage has float multipliers only).
  static constexpr bool shifts_per_channel = P.per_channel != 0 && !onnx_output_stage<P>;

#if CTNN_ARM_MVE
  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays& rq) {
    const auto [input, weights, bias, output] = kernel::detail::weighted_operands_of<P, std::int8_t>(operands, result);
    if constexpr (P.in_place != 0) {
      const auto distance = reinterpret_cast<std::intptr_t>(output) - reinterpret_cast<std::intptr_t>(input);
      if (multiplier != 1 || distance % channels != 0) {
        pixel_major(operands, result, rq);
        return;
      }
    }
    if constexpr (buffered) {
      alignas(8) std::int8_t rows[buffer_bytes];
      fill_padding(rows);
      const std::int32_t largest = shifts_per_channel ? largest_shift(rq.shift, channels) : 0;
      if (largest > 0) buffered_groups<scaling::left>(input, weights, bias, rq, output, rows);
      else if (largest < 0) buffered_groups<scaling::right>(input, weights, bias, rq, output, rows);
      else buffered_groups<scaling::no_left>(input, weights, bias, rq, output, rows);
    } else if (shifts_per_channel && has_left_shift(rq.shift, channels)) {
      for (std::int32_t q = 0; q < groups; ++q) channel_group<true, false>(input, weights, bias, rq, output, 8 * q);
      if constexpr (tail != 0) channel_group<true, true>(input, weights, bias, rq, output, 8 * groups);
    } else {
      for (std::int32_t q = 0; q < groups; ++q) channel_group<false, false>(input, weights, bias, rq, output, 8 * q);
      if constexpr (tail != 0) channel_group<false, true>(input, weights, bias, rq, output, 8 * groups);
    }
  }
#else
  template <std::size_t N>
  static void run(const void* const (&)[N], void*, const requant_arrays&) {}
#endif

 private:
#if CTNN_ARM_MVE
  // Even channels' lanes, odd channels' lanes.
  struct pair {
    int32x4_t even, odd;
  };

  struct no_offsets {};  // (two types: two empty members of one type would need two addresses)
  struct no_lanes {};
  struct group_state {
    pair bias;   // windows with taps in the padding
    pair start;  // whole windows: bias + input_offset * sum of the filters
    channel_scales even, odd;
    // Only where used (the stack of the models' calls stays as it was): multiplier != 1, lane k's input
    // byte from the group's first input channel; a last group of fewer than eight, its lanes (int16).
    [[no_unique_address]] std::conditional_t<multiplier != 1, uint16x8_t, no_offsets> offsets;
    [[no_unique_address]] std::conditional_t<tail != 0, mve_pred16_t, no_lanes> lanes;
  };

  // Eight channels' int32 values (biases, multipliers, shifts) deinterleaved, even channels and odd; Tail:
  // the first `tail` (the others zero, not read).
  template <bool Tail>
  [[gnu::always_inline]] static inline pair load_pair(const std::int32_t* p) {
    if constexpr (Tail) {
      const uint32x4_t even_at = vidupq_n_u32(0, 2);
      return {vldrwq_gather_shifted_offset_z_s32(p, even_at, vctp32q((tail + 1) / 2)),
              vldrwq_gather_shifted_offset_z_s32(p + 1, even_at, vctp32q(tail / 2))};
    } else {
      const int32x4x2_t v = vld2q_s32(p);
      return {v.val[0], v.val[1]};
    }
  }

  // A tap's eight input bytes (x: the group's first input channel) and eight filter bytes, in int16 lanes.
  template <bool Tail>
  [[gnu::always_inline]] static inline int16x8_t input_at(const group_state& s, const std::int8_t* x) {
    if constexpr (multiplier != 1) return vldrbq_gather_offset_s16(x, s.offsets);
    else if constexpr (Tail) return vldrbq_z_s16(x, s.lanes);
    else return vldrbq_s16(x);
  }
  template <bool Tail>
  [[gnu::always_inline]] static inline int16x8_t filter_at(const group_state& s, const std::int8_t* w) {
    if constexpr (Tail) return vldrbq_z_s16(w, s.lanes);
    else return vldrbq_s16(w);
  }

  // Output channels [c, c + 8) (Tail: [c, c + tail)): their biases, the input offsets of their lanes, the
  // lanes; the scales (set_scales) and the start (set_start) after (in the order that keeps the fewest
  // vectors live: the group's stack as before these were added).
  template <bool Tail>
  [[gnu::always_inline]] static inline group_state group_of(const std::int32_t* bias, std::int32_t c) {
    group_state s{};
    s.bias = P.has_bias != 0 ? load_pair<Tail>(bias + c) : pair{vdupq_n_s32(0), vdupq_n_s32(0)};
    if constexpr (multiplier != 1) {
      alignas(16) std::uint16_t offsets[8];
      for (std::int32_t k = 0; k < 8; ++k)
        offsets[k] = static_cast<std::uint16_t>(!Tail || k < tail ? (c + k) / multiplier - c / multiplier : 0);
      s.offsets = vld1q_u16(offsets);
    }
    if constexpr (Tail) s.lanes = vctp16q(tail);
    return s;
  }
  // Their multipliers and shifts (Left: scales_of); ONNX's: their multipliers' float bits.
  template <bool Tail, bool Left>
  [[gnu::always_inline]] static inline void set_scales(group_state& s, const requant_arrays& rq, std::int32_t c) {
    if constexpr (onnx_output_stage<P> && P.per_channel != 0) {
      const pair multipliers = load_pair<Tail>(rq.multiplier + c);
      s.even.multiplier = multipliers.even;
      s.odd.multiplier = multipliers.odd;
    } else if constexpr (P.per_channel != 0) {
      const pair multipliers = load_pair<Tail>(rq.multiplier + c), shifts = load_pair<Tail>(rq.shift + c);
      s.even = scales_of<Left>(multipliers.even, shifts.even);
      s.odd = scales_of<Left>(multipliers.odd, shifts.odd);
    }
  }
  // The group's start: its bias plus input_offset * the sum of its filters over every tap (w: the group's
  // filters at tap 0; |sum| <= 128 * taps, in int16 lanes).
  template <bool Tail>
  [[gnu::always_inline]] static inline void set_start(group_state& s, const std::int8_t* w) {
    int16x8_t sum = vdupq_n_s16(0);
#pragma GCC unroll 1
    for (std::int32_t t = 0; t < taps; ++t) sum = vaddq_s16(sum, filter_at<Tail>(s, w + t * channels));
    s.start = {vmlaq_n_s32(s.bias.even, vmovlbq_s16(sum), P.input_offset), vmlaq_n_s32(s.bias.odd, vmovltq_s16(sum), P.input_offset)};
  }

  // acc += x * w per channel, x and w eight channels' int16 lanes.
  [[gnu::always_inline]] static inline void multiply_add(pair& acc, int16x8_t x, int16x8_t w) {
    acc.even = vaddq_s32(acc.even, vmullbq_int_s16(x, w));
    acc.odd = vaddq_s32(acc.odd, vmulltq_int_s16(x, w));
  }

  // How the call's per-channel shifts go (asked once per call): some channel shifts left; none does; every
  // channel shifts right (the rounding's -1 for negative values then needs no mask: scale_right_plus_offset).
  enum class scaling { left, no_left, right };

  template <scaling S, bool Tail>
  [[gnu::always_inline]] static inline void store(const group_state& s, pair acc, std::int8_t* out) {
    int32x4_t even, odd;
    if constexpr (onnx_output_stage<P>) {
      const int32x4_t tensor_multiplier = vdupq_n_s32(static_cast<std::int32_t>(P.onnx.multiplier_bits));
      even = onnx_scale_plus_offset<P>(acc.even, P.per_channel != 0 ? s.even.multiplier : tensor_multiplier);
      odd = onnx_scale_plus_offset<P>(acc.odd, P.per_channel != 0 ? s.odd.multiplier : tensor_multiplier);
    } else if constexpr (P.per_channel == 0) {
      even = scale_plus_offset<P>(acc.even), odd = scale_plus_offset<P>(acc.odd);
    } else if constexpr (S == scaling::right) {
      even = scale_right_plus_offset<P>(acc.even, s.even), odd = scale_right_plus_offset<P>(acc.odd, s.odd);
    } else {
      even = scale_plus_offset<P, S == scaling::left>(acc.even, s.even), odd = scale_plus_offset<P, S == scaling::left>(acc.odd, s.odd);
    }
    if constexpr (Tail) store_eight<P>(even, odd, out, s.lanes);
    else store_eight<P>(even, odd, out);
  }
  template <bool Left, bool Tail>
  [[gnu::always_inline]] static inline void store(const group_state& s, pair acc, std::int8_t* out) {
    store<Left ? scaling::left : scaling::no_left, Tail>(s, acc, out);
  }

  // Channels [c, c + 8) (Tail: [c, c + tail)) of every pixel (Left: requantize with left shifts, scales_of).
  template <bool Left, bool Tail>
  [[gnu::noinline]] static void channel_group(const std::int8_t* input, const std::int8_t* weights, const std::int32_t* bias,
                                              const requant_arrays& rq, std::int8_t* output, std::int32_t c) {
    const std::int8_t* w = weights + c;
    group_state s = group_of<Tail>(bias, c);
    set_start<Tail>(s, w);
    set_scales<Tail, Left>(s, rq, c);
    const std::int8_t* x = input + c / multiplier;
    for (std::int32_t b = 0; b < g::batch; ++b)
      for (std::int32_t oy = 0; oy < g::out_h; ++oy)
        row<Left, Tail>(s, x, w, output + c + (static_cast<std::ptrdiff_t>(b) * g::out_h + oy) * g::out_w * channels, b, g::rows_inside(oy));
  }

  // In place at a distance that is not whole pixels, or with a multiplier: pixel by pixel, every group of
  // a pixel over its in-bounds taps. Out of line with run's arguments (none on the executor's stack).
  template <std::size_t N>
  [[gnu::noinline]] static void pixel_major(const void* const (&operands)[N], void* result, const requant_arrays& rq) {
    const auto [input, weights, bias, output] = kernel::detail::weighted_operands_of<P, std::int8_t>(operands, result);
    if (shifts_per_channel && has_left_shift(rq.shift, channels)) pixels<true>(input, weights, bias, rq, output);
    else pixels<false>(input, weights, bias, rq, output);
  }
  template <bool Left>
  [[gnu::noinline]] static void pixels(const std::int8_t* input, const std::int8_t* weights, const std::int32_t* bias,
                                            const requant_arrays& rq, std::int8_t* output) {
    for (std::int32_t b = 0; b < g::batch; ++b)
      for (std::int32_t oy = 0; oy < g::out_h; ++oy) {
        const auto rows = g::rows_inside(oy);
        for (std::int32_t ox = 0; ox < g::out_w; ++ox) {
          std::int8_t* out = output + ((static_cast<std::ptrdiff_t>(b) * g::out_h + oy) * g::out_w + ox) * channels;
          for (std::int32_t c = 0; c < 8 * groups; c += 8) {
            group_state s = group_of<false>(bias, c);
            set_scales<false, Left>(s, rq, c);
            border_pixel<Left, false>(s, input + c / multiplier, weights + c, out + c, b, rows, ox);
          }
          if constexpr (tail != 0) {
            group_state s = group_of<true>(bias, 8 * groups);
            set_scales<true, Left>(s, rq, 8 * groups);
            border_pixel<Left, true>(s, input + 8 * groups / multiplier, weights + 8 * groups, out + 8 * groups, b, rows, ox);
          }
        }
      }
  }

  // One output row. Out of line, the group's state reached through a reference: its vectors are then
  // loaded with one instruction each (inlined into channel_group, g++ 12 spills them to its frame and
  // reloads each with two).
  template <bool Left, bool Tail>
  [[gnu::noinline]] static void row(const group_state& s, const std::int8_t* x, const std::int8_t* w, std::int8_t* out, std::int32_t b,
                                    typename g::row_range rows) {
    const bool whole_rows = rows.first == 0 && rows.end == kernel_h;
    for (std::int32_t ox = 0; ox < g::out_w; ++ox) {
      if (whole_rows && ox >= g::interior_begin && ox < g::interior_end)
        whole_window<Left, Tail>(s, x + g::input_pixel(b, rows.input_row, ox * g::win.stride_w - g::win.pad_left), w, out + ox * channels);
      else border_pixel<Left, Tail>(s, x, w, out + ox * channels, b, rows, ox);
    }
  }

  // A pixel whose window lies inside the input, its tap (0, 0) at x.
  template <bool Left, bool Tail>
  [[gnu::always_inline]] static inline void whole_window(const group_state& s, const std::int8_t* x, const std::int8_t* w, std::int8_t* out) {
    pair acc = s.start;
#pragma GCC unroll 1
    for (std::int32_t ky = 0; ky < kernel_h; ++ky, x += static_cast<std::ptrdiff_t>(g::win.dilation_h) * g::in_w * in_c) {
      const std::int8_t* tap = x;
#pragma GCC unroll 16
      for (std::int32_t kx = 0; kx < kernel_w; ++kx, tap += g::win.dilation_w * in_c, w += channels)
        multiply_add(acc, input_at<Tail>(s, tap), filter_at<Tail>(s, w));
    }
    store<Left, Tail>(s, acc, out);
  }

  // The padding value: the input that adds nothing once offset (-input_offset lies in [-128, 127]).
  static constexpr std::int16_t padding_value = static_cast<std::int16_t>(-P.input_offset);

  [[gnu::always_inline]] static inline void fill_padding(std::int8_t* to) {
    const int16x8_t v = vdupq_n_s16(padding_value);
#pragma GCC unroll 1
    for (std::int32_t k = 0; k < buffer_bytes; k += 8) vstrbq_s16(to + k, v);
  }

  // Input row r (any, padding rows included) of batch b into the ring: its columns inside the input
  // (the padding columns keep fill_padding's value), or every column of a padding row.
  template <bool Tail>
  [[gnu::always_inline]] static inline void copy_row(const group_state& s, std::int8_t* to, const std::int8_t* x, std::int32_t b,
                                                     std::int32_t r) {
    constexpr std::int32_t first = g::win.pad_left;
    constexpr std::int32_t end = first + g::in_w < padded_w ? first + g::in_w : padded_w;
    if (r < 0 || r >= g::in_h) {
      const int16x8_t v = vdupq_n_s16(padding_value);
#pragma GCC unroll 1
      for (std::int32_t j = first; j < end; ++j) vstrbq_s16(to + 8 * j, v);
      return;
    }
    const std::int8_t* from = x + g::input_pixel(b, r, 0);
    to += 8 * first;
#pragma GCC unroll 1
    for (std::int32_t j = first; j < end; ++j, from += in_c, to += 8) vstrbq_s16(to, input_at<Tail>(s, from));
  }

  // Every group through the ring `rows`.
  template <scaling S>
  static void buffered_groups(const std::int8_t* input, const std::int8_t* weights, const std::int32_t* bias, const requant_arrays& rq,
                              std::int8_t* output, std::int8_t* rows) {
    for (std::int32_t q = 0; q < groups; ++q) buffered_group<S, false>(input, weights, bias, rq, output, 8 * q, rows);
    if constexpr (tail != 0) buffered_group<S, true>(input, weights, bias, rq, output, 8 * groups, rows);
  }

  // Channels [c, c + 8) (Tail: [c, c + tail)) of every pixel through the ring `rows` (buffer_bytes).
  template <scaling S, bool Tail>
  [[gnu::noinline]] static void buffered_group(const std::int8_t* input, const std::int8_t* weights, const std::int32_t* bias,
                                               const requant_arrays& rq, std::int8_t* output, std::int32_t c, std::int8_t* rows) {
    group_state s = group_of<Tail>(bias, c);
    alignas(8) std::int8_t w[8 * taps];
    {
      int16x8_t sum = vdupq_n_s16(0);  // |sum| <= 128 * taps
#pragma GCC unroll 1
      for (std::int32_t t = 0; t < taps; ++t) {
        const int16x8_t tap = filter_at<Tail>(s, weights + c + t * channels);
        sum = vaddq_s16(sum, tap);
        vstrbq_s16(w + 8 * t, tap);
      }
      s.start = {vmlaq_n_s32(s.bias.even, vmovlbq_s16(sum), P.input_offset), vmlaq_n_s32(s.bias.odd, vmovltq_s16(sum), P.input_offset)};
      set_scales<Tail, S == scaling::left>(s, rq, c);
    }
    const std::int8_t* x = input + c / multiplier;
    std::int8_t* out = output + c;
    for (std::int32_t b = 0; b < g::batch; ++b) {
      // Input row r lives in slot (r + pad_top) % span_h, both counted along (no division).
      std::int32_t next = -g::win.pad_top, next_slot = 0;  // the next input row to copy, its slot
      std::int32_t top_slot = 0;                              // the slot of the output row's kernel row 0
      for (std::int32_t oy = 0; oy < g::out_h; ++oy) {
        const std::int32_t top = oy * g::win.stride_h - g::win.pad_top;
        if (next < top) {  // rows no window reads (stride_h > span_h)
          next_slot = top_slot;
          next = top;
        }
        for (; next < top + span_h; ++next) {
          copy_row<Tail>(s, rows + next_slot * row_bytes, x, b, next);
          next_slot = next_slot + 1 == span_h ? 0 : next_slot + 1;
        }
        buffered_row<S, Tail>(s, rows, w, out, top_slot);
        out += g::out_w * channels;
        top_slot += g::win.stride_h % span_h;
        if (top_slot >= span_h) top_slot -= span_h;
      }
    }
  }

  // One output row, its kernel row 0 in ring slot `slot`: per pixel, its kernel rows' pointers into the
  // ring, advanced by the stride (in registers), every tap unrolled.
  template <scaling S, bool Tail>
  [[gnu::noinline]] static void buffered_row(const group_state& s, const std::int8_t* rows, const std::int8_t* w, std::int8_t* out,
                                             std::int32_t slot) {
    const std::int8_t* row[kernel_h];
#pragma GCC unroll 16
    for (std::int32_t ky = 0; ky < kernel_h; ++ky) {
      const std::int32_t at = slot + ky * g::win.dilation_h;  // < 2 * span_h
      row[ky] = rows + (at >= span_h ? at - span_h : at) * row_bytes;
    }
#pragma GCC unroll 1
    for (std::int32_t ox = 0; ox < g::out_w; ++ox, out += channels) {
      pair acc = s.start;
      every_tap(acc, row, w, std::make_integer_sequence<std::int32_t, taps>{});
      store<S, Tail>(s, acc, out);
#pragma GCC unroll 16
      for (std::int32_t ky = 0; ky < kernel_h; ++ky) row[ky] += 8 * g::win.stride_w;
    }
  }

  // Every tap of a pixel, `row` its kernel rows' first input bytes, `w` the group's filters (8 bytes a tap):
  // per tap, its input and filter bytes at immediate offsets (widening VLDRB takes low registers: "l"),
  // multiply_add. Assembly: as C++, g++ 12 hoists every load of the pixel to the top and spills them to
  // the stack (two instructions more per tap).
  template <std::int32_t... T>
  [[gnu::always_inline]] static inline void every_tap(pair& acc, const std::int8_t* const (&row)[kernel_h], const std::int8_t* w,
                                                      std::integer_sequence<std::int32_t, T...>) {
    (multiply_add_at<8 * (T % kernel_w) * g::win.dilation_w, 8 * T>(acc, row[T / kernel_w], w), ...);
  }
  template <std::int32_t InputOffset, std::int32_t FilterOffset>
  [[gnu::always_inline]] static inline void multiply_add_at(pair& acc, const std::int8_t* x, const std::int8_t* w) {
    static_assert(InputOffset <= 127 && FilterOffset <= 127, "VLDRB's immediate offsets");
    int16x8_t xv, wv;
    int32x4_t even, odd;
    __asm(
        "vldrb.s16 %q[xv], [%[x], %[xo]]\n\t"
        "vldrb.s16 %q[wv], [%[w], %[wo]]\n\t"
        "vmullb.s16 %q[even], %q[xv], %q[wv]\n\t"
        "vmullt.s16 %q[odd], %q[xv], %q[wv]\n\t"
        "vadd.i32 %q[ae], %q[ae], %q[even]\n\t"
        "vadd.i32 %q[ao], %q[ao], %q[odd]"
        : [ae] "+w"(acc.even), [ao] "+w"(acc.odd), [xv] "=&w"(xv), [wv] "=&w"(wv), [even] "=&w"(even), [odd] "=&w"(odd)
        : [x] "l"(x), [w] "l"(w), [xo] "n"(InputOffset), [wo] "n"(FilterOffset)
        : "memory");
  }

  // One pixel with taps in the padding: its in-bounds taps, the offset added to the inputs.
  template <bool Left, bool Tail>
  [[gnu::noinline]] static void border_pixel(const group_state& s, const std::int8_t* x, const std::int8_t* w, std::int8_t* out,
                                             std::int32_t b, typename g::row_range rows, std::int32_t ox) {
    const auto columns = g::columns_inside(ox);
    pair acc = s.bias;
    for (std::int32_t ky = rows.first; ky < rows.end; ++ky) {
      const std::int8_t* tap = x + g::input_pixel(b, rows.input_row + ky * g::win.dilation_h, columns.input_row + columns.first * g::win.dilation_w);
      const std::int8_t* wk = w + (ky * kernel_w + columns.first) * channels;
      for (std::int32_t kx = columns.first; kx < columns.end; ++kx, tap += g::win.dilation_w * in_c, wk += channels)
        multiply_add(acc, vaddq_n_s16(input_at<Tail>(s, tap), static_cast<std::int16_t>(P.input_offset)), filter_at<Tail>(s, wk));
    }
    store<Left, Tail>(s, acc, out);
  }
#endif
};

}  // namespace ctnn::kernel::arm::mve::detail
