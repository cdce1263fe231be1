#pragma once
// Pointwise int8 convolutions (unpadded 1x1, stride 1: every pixel one stretch of in_c values) on
// Armv7E-M DSP in blocks of pixels, bit-exact with reference::int8::conv2d; also unpadded strided 1x1
// convs over whole quads (Strided: the block's copy gathers the input pixels under its output pixels). Part of conv_kernel
// (kernel/arm/conv.hpp), which chooses these walks for pointwise calls run in place and, with whole
// quads of input channels, for the others too.
//
// A block's input is first copied to the stack, widened once (SXTAB16: int16 pairs with the input
// offset added, in the order the filters widen into), then every output channel pair of the block is
// computed from the copy: 2 x 2 blocks of 16 instructions per 16 MACs (21 when each channel pair widens
// the inputs again), the bias and requantization read once per channel pair and block. The block's
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
    constexpr std::int32_t blocks = Pixels / block_pixels;
    for (std::int32_t k = 0; k < blocks; ++k)
      block(input, k * block_pixels, weights, bias, rq, output + static_cast<std::ptrdiff_t>(k) * block_pixels * OutC, block_pixels);
    if constexpr (Pixels % block_pixels != 0)
      block(input, blocks * block_pixels, weights, bias, rq, output + static_cast<std::ptrdiff_t>(blocks) * block_pixels * OutC,
            Pixels % block_pixels);
  }

 private:
  static constexpr std::uint32_t offset_pair = both_halves(P.input_offset);
  static constexpr std::int32_t quads = InC / 4;
  // The largest |sum (x + offset) * w| of one output (short_stage_applies).
  static constexpr std::int64_t product_bound = std::int64_t{255} * 128 * InC;

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
          widen_quads(pixel, copy + p * InC / 2, quads, offset_pair);
        }
      } else {
        for (std::int32_t p = 0; p < count; ++p) widen_quads(input_of(input, first + p), copy + p * InC / 2, quads, offset_pair);
      }
      channels_of(copy, weights, bias, rq, out, count);
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

  // Channels [o, o + Channels) of the block's pixels; `w` is channel o's filter.
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
    if (short_stage) pixels_of<Channels, true>(start, stages, x, w, out + o, count);
    else pixels_of<Channels, false>(start, stages, x, w, out + o, count);
  }

  // Pixels two at a time (x: widened words or the int8 input).
  template <int Channels, bool Short, class Input>
  [[gnu::always_inline]] static inline void pixels_of(const std::int32_t (&start)[Channels], const output_stage<P> (&stages)[Channels],
                                                      const Input* x, const std::int8_t* w, std::int8_t* out, std::int32_t count) {
    constexpr std::ptrdiff_t pixel_values = widened ? InC / 2 : InC;  // per pixel, in elements of Input
    for (std::int32_t j = 0; j + 2 <= count; j += 2, x += 2 * pixel_values, out += 2 * OutC) {
      std::int32_t acc[2][Channels];
#pragma GCC unroll 2
      for (int ch = 0; ch < Channels; ++ch) acc[0][ch] = acc[1][ch] = start[ch];
      dot<2, Channels>(x, w, acc);
#pragma GCC unroll 2
      for (int ch = 0; ch < Channels; ++ch)
        out[ch] = stages[ch].template apply<Short>(acc[0][ch]), out[OutC + ch] = stages[ch].template apply<Short>(acc[1][ch]);
    }
    if (count % 2 != 0) {
      std::int32_t acc[1][Channels];
#pragma GCC unroll 2
      for (int ch = 0; ch < Channels; ++ch) acc[0][ch] = start[ch];
      dot<1, Channels>(x, w, acc);
#pragma GCC unroll 2
      for (int ch = 0; ch < Channels; ++ch) out[ch] = stages[ch].template apply<Short>(acc[0][ch]);
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
