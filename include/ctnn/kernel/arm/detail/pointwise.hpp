#pragma once
// Pointwise int8 convolutions (unpadded 1x1, stride 1: every pixel one stretch of in_c values) on
// Armv7E-M DSP in blocks of pixels, bit-exact with reference::int8::conv2d; also unpadded strided 1x1
// convs over whole quads (Strided: the block's copy gathers the input pixels under its output pixels). Part of conv_kernel
// (kernel/arm/conv.hpp), which chooses these walks for pointwise calls run in place and, with whole
// quads of input channels, for the others too.
//
// A block's input is first copied to the stack, widened once (SXTAB16: int16 pairs with the input
// offset added, in the order the filters widen into, doubled by SADD16 so that the sums come out as the
// short output stage takes them), then every output channel pair of the block is computed from the
// copy: 2 x 2 blocks of 16 instructions per 16 MACs (21 when each channel pair widens the inputs
// again), the bias and requantization read once per channel pair and block. Where every channel of the
// call takes the short stage (tested once per call) and the input channels are at most 8 quads, each
// 2 x 2 block with its output stage is one piece of assembly (detail/dot.hpp, short_block_2x2_asm). The block's
// outputs go straight to the result: in place, only the block's own input lies under them (copied
// already), and later pixels read nothing below the block's end (the planner's rule,
// memory/in_place_window.hpp). Input channels that are not whole quads: the block's outputs are staged
// on the stack instead and copied out once all its pixels were read, the inputs widened in the loop.
// Each walk uses at most block_bytes of stack.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/dot.hpp>
#include <ctnn/kernel/arm/detail/dsp.hpp>
#include <ctnn/kernel/arm/detail/requantize.hpp>
#include <ctnn/kernel/arm/detail/window.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::detail {

template <kernel_params P, std::int32_t InC, std::int32_t OutC, std::int32_t Pixels, bool Strided = false>
struct pointwise_blocks {
  static constexpr std::int32_t block_bytes = 512;
  static constexpr bool widened = InC % 4 == 0;
  static constexpr std::int32_t bytes_per_pixel = widened ? 2 * InC : OutC;
  static constexpr std::int32_t fitting = block_bytes / bytes_per_pixel & ~1;
  static constexpr std::int32_t block_pixels = fitting < Pixels ? fitting : Pixels;
  // Whether the walk applies: blocks of at least two pixels.
  static constexpr bool applies = block_pixels >= 2;

  static void run(const std::int8_t* input, const std::int8_t* weights, const std::int32_t* bias, const requant_arrays& rq,
                  std::int8_t* output) {
    if constexpr (short_calls) {
      if (every_channel_short(bias, rq)) return walk<true>(input, weights, bias, rq, output);
    }
    walk<false>(input, weights, bias, rq, output);
  }

 private:
  static constexpr std::uint32_t offset_pair = both_halves(P.input_offset);
  static constexpr std::int32_t quads = InC / 4;
  // The largest |sum (x + offset) * w| of one output (short_stage_applies).
  static constexpr std::int64_t product_bound = std::int64_t{255} * 128 * InC;

  // Calls whose every channel takes the short stage (every_channel_short, tested once per call) run channel
  // pairs over the widened copy as short_block_2x2_asm's blocks (detail/dot.hpp), the pair's constants
  // made once per block (short_channels): where the channels were tested per pair and block, the test and
  // the two stages' set-up took some 90 instructions per pair and block (IC's 16-channel shortcut: 11% of it).
  static constexpr bool short_calls = CTNN_ARM_DOT_ASM && widened && OutC % 2 == 0 && output_stage<P>::smmlar_short && quads >= 1 &&
                                      quads <= 8 && asm_widened_fits<2 * InC, InC>;

  static bool every_channel_short(const std::int32_t* bias, const requant_arrays& rq) {
    for (std::int32_t o = 0; o < OutC; ++o)
      if (!output_stage_of<P>(rq.multiplier, rq.shift, o).template short_applies<product_bound>(P.has_bias != 0 ? bias[o] : 0)) return false;
    return true;
  }

  template <bool AllShort>
  static void walk(const std::int8_t* input, const std::int8_t* weights, const std::int32_t* bias, const requant_arrays& rq,
                   std::int8_t* output) {
    constexpr std::int32_t blocks = Pixels / block_pixels;
    for (std::int32_t k = 0; k < blocks; ++k)
      block<AllShort>(input, k * block_pixels, weights, bias, rq, output + static_cast<std::ptrdiff_t>(k) * block_pixels * OutC, block_pixels);
    if constexpr (Pixels % block_pixels != 0)
      block<AllShort>(input, blocks * block_pixels, weights, bias, rq, output + static_cast<std::ptrdiff_t>(blocks) * block_pixels * OutC,
                      Pixels % block_pixels);
  }

  // Every channel pair of a block of `count` pixels widened (doubled) in `copy`, all channels short.
  static void short_channels(const std::uint32_t* copy, const std::int8_t* weights, const std::int32_t* bias, const requant_arrays& rq,
                             std::int8_t* out, std::int32_t count) {
    const std::uint32_t* const pairs_end = copy + static_cast<std::ptrdiff_t>(count / 2) * InC;
    const std::int8_t* w = weights;
    for (std::int32_t o = 0; o < OutC; o += 2, w += 2 * InC) {
      short_block_constants k;  // every field set below (a zeroing initialiser called memset per pair and block)
#pragma GCC unroll 2
      for (int ch = 0; ch < 2; ++ch) {
        const channel_scale c = output_stage_of<P>(rq.multiplier, rq.shift, o + ch).short_constants();
        k.start[ch] = 2 * (P.has_bias != 0 ? bias[o + ch] : 0);
        k.scale[ch][0] = c.multiplier;
        k.scale[ch][1] = c.rounding;
        k.right[ch] = c.right;
      }
      const std::uint32_t* x = copy;
      const std::int8_t* filters = w;
      std::int8_t* to = out + o;
      for (; x != pairs_end; to += 2 * OutC) {
        std::int32_t scaled[2][2];
        short_block_2x2_asm<2 * InC, InC, quads, output_stage<P>::clamped>(x, filters, k, scaled);
        to[0] = clamp_output<P>(scaled[0][0]), to[1] = clamp_output<P>(scaled[0][1]);
        to[OutC] = clamp_output<P>(scaled[1][0]), to[OutC + 1] = clamp_output<P>(scaled[1][1]);
      }
      if (count % 2 != 0) {
        std::int32_t acc[1][2] = {{k.start[0], k.start[1]}};
        dot<1, 2>(x, w, acc);
        to[0] = output_stage_of<P>(rq.multiplier, rq.shift, o).apply_twice(acc[0][0]);
        to[1] = output_stage_of<P>(rq.multiplier, rq.shift, o + 1).apply_twice(acc[0][1]);
      }
    }
  }

  // Output pixel p's input: pixel p of a pointwise conv, or of a strided 1x1 conv (Strided) the input
  // pixel under it.
  static const std::int8_t* input_of(const std::int8_t* input, std::int32_t p) {
    if constexpr (Strided) {
      using g = window_geometry<P>;
      const std::int32_t b = p / (g::out_h * g::out_w), oy = p / g::out_w % g::out_h, ox = p % g::out_w;
      return input + g::input_pixel(b, oy * g::win.stride_h, ox * g::win.stride_w);
    } else {
      return input + static_cast<std::ptrdiff_t>(p) * InC;
    }
  }

  // `count` pixels from pixel `first`: outputs to `out`.
  template <bool AllShort>
  [[gnu::noinline]] static void block(const std::int8_t* input, std::int32_t first, const std::int8_t* weights, const std::int32_t* bias,
                                      const requant_arrays& rq, std::int8_t* out, std::int32_t count) {
    if constexpr (widened) {
      std::uint32_t copy[block_pixels * InC / 2];
      if constexpr (Strided) {
        // Along an output row the input pixels are stride_w pixels apart: input_of (its divisions) at
        // the block's start and at each new row only.
        using g = window_geometry<P>;
        constexpr std::ptrdiff_t step = static_cast<std::ptrdiff_t>(g::win.stride_w) * InC;
        std::int32_t column = first % g::out_w;
        const std::int8_t* pixel = input_of(input, first);
        for (std::int32_t p = 0; p < count; ++p, ++column, pixel += step) {
          if (column == g::out_w) column = 0, pixel = input_of(input, first + p);
          widen_quads_doubled(pixel, copy + p * InC / 2, quads, offset_pair);
        }
      } else {
        for (std::int32_t p = 0; p < count; ++p) widen_quads_doubled(input_of(input, first + p), copy + p * InC / 2, quads, offset_pair);
      }
      if constexpr (AllShort) short_channels(copy, weights, bias, rq, out, count);
      else channels_of(copy, weights, bias, rq, out, count);
    } else {
      static_assert(!Strided, "ctnn: strided 1x1 convs take the pointwise walk over whole quads only.");
      const std::int8_t* x = input_of(input, first);
      std::int8_t staged[block_pixels * OutC];
      channels_of(x, weights, bias, rq, staged, count);
      std::memcpy(out, staged, static_cast<std::size_t>(count * OutC));
    }
  }

  template <class Input>
  [[gnu::always_inline]] static inline void channels_of(const Input* x, const std::int8_t* weights, const std::int32_t* bias,
                                                        const requant_arrays& rq, std::int8_t* out, std::int32_t count) {
    const std::int8_t* w = weights;
    for (std::int32_t k = 0; k < OutC / 2; ++k, w += 2 * InC) channel_block<2>(x, w, bias, rq, out, 2 * k, count);
    if constexpr (OutC % 2 != 0) channel_block<1>(x, w, bias, rq, out, OutC - 1, count);
  }

  // Channels [o, o + Channels) of the block's pixels; `w` is channel o's filter. Over the widened copy
  // (doubled) the sums come out doubled: the short stage takes them as they are (from twice the bias),
  // the long one from 0, halved (exact: twice the sum is even and far from overflow) plus the bias.
  template <int Channels, class Input>
  [[gnu::always_inline]] static inline void channel_block(const Input* x, const std::int8_t* w, const std::int32_t* bias,
                                                          const requant_arrays& rq, std::int8_t* out, std::int32_t o, std::int32_t count) {
    std::int32_t start[Channels];
    output_stage<P> stages[Channels];
    bool short_stage = true;
#pragma GCC unroll 2
    for (int ch = 0; ch < Channels; ++ch) {
      start[ch] = P.has_bias != 0 ? bias[o + ch] : 0;
      stages[ch] = output_stage_of<P>(rq.multiplier, rq.shift, o + ch);
      short_stage = short_stage && stages[ch].template short_applies<product_bound>(start[ch]);
    }
    if (short_stage) {
      if constexpr (widened) {
#pragma GCC unroll 2
        for (int ch = 0; ch < Channels; ++ch) start[ch] *= 2;
      }
      pixels_of<Channels, true>(start, stages, x, w, out + o, count);
    } else {
      pixels_of<Channels, false>(start, stages, x, w, out + o, count);
    }
  }

  // The result of one output from its accumulator (doubled over the widened copy; the long stage's
  // accumulator started from 0 there, its bias `start`).
  template <bool Short>
  [[gnu::always_inline]] static inline std::int8_t output_of(const output_stage<P>& stage, std::int32_t acc, std::int32_t start) {
    if constexpr (!widened) return stage.template apply<Short>(acc);
    else if constexpr (Short) return stage.apply_twice(acc);
    else return stage.template apply<false>(wrapping_add(start, acc >> 1));
  }

  // Pixels two at a time (x: widened words or the int8 input).
  template <int Channels, bool Short, class Input>
  [[gnu::always_inline]] static inline void pixels_of(const std::int32_t (&start)[Channels], const output_stage<P> (&stages)[Channels],
                                                      const Input* x, const std::int8_t* w, std::int8_t* out, std::int32_t count) {
    constexpr std::ptrdiff_t pixel_values = widened ? InC / 2 : InC;  // per pixel, in elements of Input
    std::int32_t first[Channels];  // the accumulators' start
#pragma GCC unroll 2
    for (int ch = 0; ch < Channels; ++ch) first[ch] = widened && !Short ? 0 : start[ch];
    const Input* const pairs_end = x + static_cast<std::ptrdiff_t>(count / 2) * 2 * pixel_values;
    for (; x != pairs_end; x += 2 * pixel_values, out += 2 * OutC) {
      std::int32_t acc[2][Channels];
#pragma GCC unroll 2
      for (int ch = 0; ch < Channels; ++ch) acc[0][ch] = acc[1][ch] = first[ch];
      dot<2, Channels>(x, w, acc);
#pragma GCC unroll 2
      for (int ch = 0; ch < Channels; ++ch)
        out[ch] = output_of<Short>(stages[ch], acc[0][ch], start[ch]), out[OutC + ch] = output_of<Short>(stages[ch], acc[1][ch], start[ch]);
    }
    if (count % 2 != 0) {
      std::int32_t acc[1][Channels];
#pragma GCC unroll 2
      for (int ch = 0; ch < Channels; ++ch) acc[0][ch] = first[ch];
      dot<1, Channels>(x, w, acc);
#pragma GCC unroll 2
      for (int ch = 0; ch < Channels; ++ch) out[ch] = output_of<Short>(stages[ch], acc[0][ch], start[ch]);
    }
  }

  template <int Pixels2, int Channels>
  [[gnu::always_inline]] static inline void dot(const std::uint32_t* x, const std::int8_t* w, std::int32_t (&acc)[Pixels2][Channels]) {
    dot_widened_quads<Pixels2, Channels, 2 * InC, InC, quads>(x, w, acc);
  }
  template <int Pixels2, int Channels>
  [[gnu::always_inline]] static inline void dot(const std::int8_t* x, const std::int8_t* w, std::int32_t (&acc)[Pixels2][Channels]) {
    dot_block<Pixels2, Channels, InC, InC>(x, w, InC, offset_pair, P.input_offset, acc);
  }
};

}  // namespace ctnn::kernel::arm::detail
