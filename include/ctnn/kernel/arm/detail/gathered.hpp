#pragma once
// Convolutions over small windows of few input channels (first layers: KWS's 10x4x1, 3x3x3 on images)
// on Armv7E-M DSP, bit-exact with reference::int8::conv2d. Part of conv_kernel (kernel/arm/conv.hpp).
// Their kernel rows are too short for the stretch loops, so each pair of output pixels has its windows
// gathered into a buffer on the stack (padding taps hold the input zero point, which adds zero once the
// offset term bias + input_offset * sum of the filter is in the accumulator), then dotted with every
// filter as one stretch. In place too: a pair's outputs are written after both its windows were copied,
// and later pixels read nothing below the pair's end (the planner's rule, memory/in_place_window.hpp).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/dot.hpp>
#include <ctnn/kernel/arm/detail/requantize.hpp>
#include <ctnn/kernel/arm/detail/window.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::detail {

// Widened: windows over whole quads of input channels (in_c % 4 == 0) gathered widened (SXTAB16: the
// offset added, padding taps zero), so that every filter reads them with one LDRD per quad (the 2 x 2
// widened loop, 16 instructions per 16 MACs) from the bias: 3 x 3 layers of 16 channels, whose pixels
// are otherwise walked one at a time in place.
template <kernel_params P, bool Widened = false>
struct gathered_windows {
  using g = window_geometry<P>;
  static constexpr std::int32_t in_c = g::in_c, out_c = g::out_c;
  static constexpr std::int32_t kernel_h = g::kernel_h, kernel_w = g::kernel_w;
  static constexpr std::int32_t reduction = kernel_h * kernel_w * in_c;
  static constexpr std::int32_t pixels = g::batch * g::out_h * g::out_w;
  // Whether the walk applies: short kernel rows, small windows, few channels (the per-channel offset
  // terms live on the stack); widened, whole quads and two windows within 576 B of stack.
  static constexpr bool applies = Widened ? in_c % 4 == 0 && reduction <= 144 && out_c <= 256 && asm_widened_fits<2 * reduction, reduction>
                                          : kernel_w * in_c < 16 && reduction <= 128 && out_c <= 128;
  // The accumulators' start per channel: the bias (widened windows add the offset), or with it the offset
  // term (the gathered windows are whole).
  static constexpr std::int32_t started_c = Widened ? 1 : out_c;

  // Out of line: its buffers are on the stack during this call only, not in the executor's frame.
  [[gnu::noinline]] static void run(const std::int8_t* input, const std::int8_t* weights, const std::int32_t* bias, const requant_arrays& rq,
                                    std::int8_t* output) {
    // Per channel: bias + input_offset * sum of the filter (the gathered windows are whole).
    std::int32_t folded[started_c];
    if constexpr (!Widened)
      for (std::int32_t o = 0; o < out_c; ++o) {
        const std::int32_t sum = filter_sum<reduction>(weights + o * reduction);
        folded[o] = wrapping_add(bias_of(bias, o), offset_term(P.input_offset, sum));
      }
    // Per channel pair: whether both take the short output stage.
    bool short_pair[out_c / 2 + 1];
    for (std::int32_t o = 0; o + 1 < out_c; o += 2)
      short_pair[o / 2] = output_stage_of<P>(rq.multiplier, rq.shift, o).template short_applies<product_bound>(bias_of(bias, o)) &&
                          output_stage_of<P>(rq.multiplier, rq.shift, o + 1).template short_applies<product_bound>(bias_of(bias, o + 1));
    // + 4: the dot's last word may read past a stretch's end (never used); widened: 2 words a quad.
    using element = std::conditional_t<Widened, std::uint32_t, std::int8_t>;
    element window[2][Widened ? reduction / 2 : reduction + 4];
    constexpr std::int32_t pairs = pixels / 2;
    for (std::int32_t k = 0; k <= pairs; ++k) {
      const std::int32_t first = 2 * k;
      const std::int32_t count = first + 1 < pixels ? 2 : (first < pixels ? 1 : 0);
      for (std::int32_t p = 0; p < count; ++p) {
        const std::int32_t pixel = first + p;
        gather(input, window[p], pixel / (g::out_h * g::out_w), pixel / g::out_w % g::out_h, pixel % g::out_w);
      }
      std::int8_t* out = output + static_cast<std::ptrdiff_t>(first) * out_c;
      if (count == 2) all_channels<2>(window[0], weights, bias, short_pair, folded, rq, out);
      else if (count == 1) all_channels<1>(window[0], weights, bias, short_pair, folded, rq, out);
    }
  }

 private:
  // The largest |sum (x + offset) * w| of one output (short_stage_applies).
  static constexpr std::int64_t product_bound = std::int64_t{255} * 128 * reduction;

  static std::int32_t bias_of(const std::int32_t* bias, std::int32_t o) { return P.has_bias != 0 ? bias[o] : 0; }
  [[gnu::always_inline]] static inline std::int32_t start_of(const std::int32_t* bias, const std::int32_t (&folded)[started_c], std::int32_t o) {
    if constexpr (Widened) return bias_of(bias, o);
    else return folded[o];
  }

  template <int Pixels, int Channels>
  [[gnu::always_inline]] static inline void dot(const std::int8_t* x, const std::int8_t* w, std::int32_t (&acc)[Pixels][Channels]) {
    dot_block<Pixels, Channels, reduction + 4, reduction, false>(x, w, reduction, 0, 0, acc);
  }
  template <int Pixels, int Channels>
  [[gnu::always_inline]] static inline void dot(const std::uint32_t* x, const std::int8_t* w, std::int32_t (&acc)[Pixels][Channels]) {
    dot_widened<Pixels, Channels, 2 * reduction, reduction>(x, w, reduction / 4, acc);
  }

  // Copies pixel (b, oy, ox)'s window into `to` (reduction values, OHWI order), the zero point where
  // it lies outside the input.
  static void gather(const std::int8_t* input, std::int8_t* to, std::int32_t b, std::int32_t oy, std::int32_t ox) {
    const auto rows = g::rows_inside(oy);
    const auto columns = g::columns_inside(ox);
    constexpr auto zero_point = static_cast<std::int8_t>(-P.input_offset);
    for (std::int32_t ky = 0; ky < kernel_h; ++ky, to += kernel_w * in_c) {
      if (ky < rows.first || ky >= rows.end || columns.first >= columns.end) {
        for (std::int32_t k = 0; k < kernel_w * in_c; ++k) to[k] = zero_point;
        continue;
      }
      const std::int8_t* row = input + g::input_pixel(b, rows.input_row + ky * g::win.dilation_h, columns.input_row);
      if (g::win.dilation_w == 1 && columns.first == 0 && columns.end == kernel_w) {
        std::memcpy(to, row, static_cast<std::size_t>(kernel_w * in_c));  // the whole kernel row: a compile-time size
        continue;
      }
      for (std::int32_t kx = 0; kx < kernel_w; ++kx)
        for (std::int32_t i = 0; i < in_c; ++i)
          to[kx * in_c + i] = kx >= columns.first && kx < columns.end ? row[kx * g::win.dilation_w * in_c + i] : zero_point;
    }
  }

  // The same window widened: whole quads of values plus the offset, zero in the padding.
  static void gather(const std::int8_t* input, std::uint32_t* to, std::int32_t b, std::int32_t oy, std::int32_t ox) {
    const auto rows = g::rows_inside(oy);
    const auto columns = g::columns_inside(ox);
    constexpr std::uint32_t offset_pair = both_halves(P.input_offset);
    for (std::int32_t ky = 0; ky < kernel_h; ++ky) {
      const std::int8_t* row =
          ky >= rows.first && ky < rows.end ? input + g::input_pixel(b, rows.input_row + ky * g::win.dilation_h, columns.input_row) : nullptr;
      for (std::int32_t kx = 0; kx < kernel_w; ++kx, to += in_c / 2) {
        if (row != nullptr && kx >= columns.first && kx < columns.end) {
          widen_quads(row + static_cast<std::ptrdiff_t>(kx) * g::win.dilation_w * in_c, to, in_c / 4, offset_pair);
        } else {
          for (std::int32_t k = 0; k < in_c / 2; ++k) to[k] = 0;
        }
      }
    }
  }

  template <int Pixels, class Window>
  [[gnu::always_inline]] static inline void all_channels(const Window* x, const std::int8_t* weights, const std::int32_t* bias,
                                                         const bool* short_pair, const std::int32_t (&folded)[started_c],
                                                         const requant_arrays& rq, std::int8_t* out) {
    const std::int8_t* w = weights;
    for (std::int32_t o = 0; o + 2 <= out_c; o += 2, w += 2 * reduction) {
      std::int32_t acc[Pixels][2];
#pragma GCC unroll 2
      for (int p = 0; p < Pixels; ++p) acc[p][0] = start_of(bias, folded, o), acc[p][1] = start_of(bias, folded, o + 1);
      dot<Pixels, 2>(x, w, acc);
      const output_stage<P> first = output_stage_of<P>(rq.multiplier, rq.shift, o), second = output_stage_of<P>(rq.multiplier, rq.shift, o + 1);
      if (short_pair[o / 2]) {
#pragma GCC unroll 2
        for (int p = 0; p < Pixels; ++p)
          out[p * out_c + o] = first.template apply<true>(acc[p][0]), out[p * out_c + o + 1] = second.template apply<true>(acc[p][1]);
      } else {
#pragma GCC unroll 2
        for (int p = 0; p < Pixels; ++p)
          out[p * out_c + o] = first.template apply<false>(acc[p][0]), out[p * out_c + o + 1] = second.template apply<false>(acc[p][1]);
      }
    }
    if constexpr (out_c % 2 != 0) {
      std::int32_t acc[Pixels][1];
#pragma GCC unroll 2
      for (int p = 0; p < Pixels; ++p) acc[p][0] = start_of(bias, folded, out_c - 1);
      dot<Pixels, 1>(x, w, acc);
      const output_stage<P> last = output_stage_of<P>(rq.multiplier, rq.shift, out_c - 1);
#pragma GCC unroll 2
      for (int p = 0; p < Pixels; ++p) out[p * out_c + out_c - 1] = last.template apply<false>(acc[p][0]);
    }
  }
};

}  // namespace ctnn::kernel::arm::detail
