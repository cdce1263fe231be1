#pragma once
// int8 conv2d (groups 1; any kernel, stride, dilation, padding) and dense on Armv8.1-M MVE, bit-exact with
// reference::int8::conv2d / dense.
//
// Pixel by pixel, every output channel four at a time (dot_four: one 16-byte chunk of the pixel's window
// serves four filters, VMLADAVA). The window is R = kernel_h x kernel_w x in_c values, in the filters'
// OHWI order, read in ceil(R / 16) chunks:
//   * read in place where it is one stretch of the input whose length is a multiple of 16 (pointwise
//     convs at any stride, dense layers) and the call is not run in place;
//   * else gathered into a buffer on the stack first: padding taps hold the input zero point (x + offset
//     = 0, as if skipped, which is what the reference does), the chunk tail beyond R holds zeros. A call
//     run in place (kernel_params::in_place) writes a pixel's outputs after its window was gathered, and
//     later pixels read nothing below them (the planner's rule, memory/in_place_window.hpp).
// The input offset: sum((x + offset) * w) = sum(x * w) + offset * sum(w), the second term a per-channel
// constant. Both come from pack<1> at compile time: the offset terms, then the filters re-laid out for
// dot_four, per group of four output channels chunk by chunk (chunk j of the group's filter c at 64 j +
// 16 c), each filter padded with zeros to whole chunks (so a gathered window's tail and the filters' agree
// on zero) and the last group with zero filters to four. Requantization on four lanes: vector.hpp, or
// ONNX's output stage (onnx_output.hpp) in the calls onnx_conv.hpp restates ONNX's integer convolutions as.
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/window.hpp>
#include <ctnn/kernel/arm/mve/onnx_output.hpp>
#include <ctnn/kernel/arm/mve/vector.hpp>
#include <ctnn/kernel/detail/operands.hpp>
#include <ctnn/kernel/detail/output_clamp.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::mve::detail {

template <kernel_params P>
struct conv_kernel {
  using g = arm::detail::window_geometry<P>;
  static constexpr std::int32_t in_c = g::in_c, out_c = g::out_c;
  static constexpr std::int32_t kernel_h = g::kernel_h, kernel_w = g::kernel_w;
  static constexpr std::int32_t reduction = kernel_h * kernel_w * in_c;
  static constexpr std::int32_t chunks = (reduction + 15) / 16;
  static constexpr std::int32_t pixels = g::batch * g::out_h * g::out_w;
  // Every pixel's window is one stretch of in_c values, pixels evenly spaced.
  static constexpr bool flat = g::is_dense || (kernel_h == 1 && kernel_w == 1 && g::win.stride_h == 1 && g::win.stride_w == 1 && g::unpadded);
  // Unpadded strided 1x1 convs: every pixel's window is one stretch of in_c values too, a row's pixels
  // stride_w * in_c apart.
  static constexpr bool strided_pointwise = !flat && kernel_h == 1 && kernel_w == 1 && g::unpadded;
  static constexpr bool gathers = !(flat || strided_pointwise) || P.in_place != 0 || reduction % 16 != 0;
  // The largest window gathered on the stack.
  static constexpr std::int32_t max_window_bytes = 1024;

  static constexpr bool supports =
      mve_available && (P.kind == op_kind::dense || (P.kind == op_kind::conv2d && P.groups == 1 && P.in.rank == 4 && P.out.rank == 4)) &&
      P.type == dtype::i8 && P.weights_offset == 0 && g::valid && kernel::detail::is_output_clamp(P.fused) && output_stage_available<P> &&
      (!gathers || 16 * chunks <= max_window_bytes);

  // Packed weights: words [0, 4 * groups) the offset terms input_offset * sum(filter o), wrapping as the
  // accumulator does (zero past out_c); then the groups' filters chunk by chunk, little-endian in words.
  static constexpr std::int32_t groups = (out_c + 3) / 4;
  static constexpr std::size_t group_words = 16 * static_cast<std::size_t>(chunks);  // 4 filters x 16 * chunks bytes
  static constexpr std::size_t packed_words = 4 * groups + groups * group_words;

  static constexpr bool packs(std::size_t k) { return k == 1; }

  template <std::size_t K, class Reader>
  static constexpr std::array<std::int32_t, packed_words> pack(const Reader& read) {
    static_assert(K == 1, "ctnn: the MVE int8 convolution packs its weights only.");
    std::array<std::int32_t, packed_words> words{};
    std::size_t at = 0;  // OHWI
    for (std::int32_t o = 0; o < out_c; ++o) {
      std::int32_t sum = 0;
      // Byte k of filter o: group o / 4, chunk k / 16, lane o % 4, byte k % 16 of that chunk.
      const std::size_t filter_byte = 4 * (4 * groups + static_cast<std::size_t>(o / 4) * group_words) + 16 * static_cast<std::size_t>(o % 4);
      for (std::int32_t k = 0; k < reduction; ++k, ++at) {
        const std::int8_t w = read.i8(at);
        sum += w;
        const std::size_t byte = filter_byte + 64 * static_cast<std::size_t>(k / 16) + static_cast<std::size_t>(k % 16);
        words[byte / 4] = static_cast<std::int32_t>(static_cast<std::uint32_t>(words[byte / 4]) |
                                                    (static_cast<std::uint32_t>(static_cast<std::uint8_t>(w)) << (8 * (byte % 4))));
      }
      words[static_cast<std::size_t>(o)] =
          static_cast<std::int32_t>(static_cast<std::uint32_t>(P.input_offset) * static_cast<std::uint32_t>(sum));
    }
    return words;
  }

#if CTNN_ARM_MVE
  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays& rq) {
    const auto [input, packed, bias, output] = kernel::detail::weighted_operands_of<P, std::int32_t>(operands, result);
    const channels c{packed, reinterpret_cast<const std::int8_t*>(packed + 4 * groups), bias, rq.multiplier, rq.shift};
    if (P.per_channel != 0 && !onnx_output_stage<P> && has_left_shift(rq.shift, out_c)) all_pixels<true>(c, input, output);
    else all_pixels<false>(c, input, output);
  }
#else
  template <std::size_t N>
  static void run(const void* const (&)[N], void*, const requant_arrays&) {}
#endif

 private:
#if CTNN_ARM_MVE
  struct channels {
    const std::int32_t* offset_terms;
    const std::int8_t* filters;
    const std::int32_t* bias;
    const std::int32_t* multiplier;
    const std::int32_t* shift;
  };

  static constexpr std::int8_t input_zero_point = static_cast<std::int8_t>(-P.input_offset);

  // Left: whether a channel's shift is a left shift (requantize).
  template <bool Left>
  [[gnu::noinline]] static void all_pixels(const channels& c, const std::int8_t* input, std::int8_t* output) {
    if constexpr (gathers) {
      alignas(16) std::int8_t window[16 * chunks];
      fill(window + reduction, 0, 16 * chunks - reduction);
      for (std::int32_t p = 0; p < pixels; ++p) {
        gather(input, p, window);
        all_channels<Left>(c, window, output + static_cast<std::ptrdiff_t>(p) * out_c);
      }
    } else if constexpr (flat) {
      for (std::int32_t p = 0; p < pixels; ++p)
        all_channels<Left>(c, input + static_cast<std::ptrdiff_t>(p) * in_c, output + static_cast<std::ptrdiff_t>(p) * out_c);
    } else {  // strided_pointwise
      for (std::int32_t b = 0; b < g::batch; ++b)
        for (std::int32_t oy = 0; oy < g::out_h; ++oy) {
          const std::int8_t* x = input + g::input_pixel(b, oy * g::win.stride_h, 0);
          for (std::int32_t ox = 0; ox < g::out_w; ++ox, x += static_cast<std::ptrdiff_t>(g::win.stride_w) * in_c, output += out_c)
            all_channels<Left>(c, x, output);
        }
    }
  }

  // Pixel p's window in OHWI order, padding taps at the input zero point.
  [[gnu::noinline]] static void gather(const std::int8_t* input, std::int32_t p, std::int8_t* window) {
    if constexpr (flat) {
      copy_fixed<in_c>(window, input + static_cast<std::ptrdiff_t>(p) * in_c);
    } else if constexpr (strided_pointwise) {
      const std::int32_t b = p / (g::out_h * g::out_w), oy = p / g::out_w % g::out_h, ox = p % g::out_w;
      copy_fixed<in_c>(window, input + g::input_pixel(b, oy * g::win.stride_h, ox * g::win.stride_w));
    } else {
      const std::int32_t b = p / (g::out_h * g::out_w), oy = p / g::out_w % g::out_h, ox = p % g::out_w;
      const auto rows = g::rows_inside(oy);
      const auto columns = g::columns_inside(ox);
      constexpr std::int32_t row_values = kernel_w * in_c;
      std::int8_t* to = window;
      if (rows.first > 0) fill(to, input_zero_point, rows.first * row_values);
      to += rows.first * row_values;
      const bool whole_columns = columns.first == 0 && columns.end == kernel_w;
      for (std::int32_t ky = rows.first; ky < rows.end; ++ky, to += row_values) {
        const std::int32_t iy = rows.input_row + ky * g::win.dilation_h;
        if constexpr (g::win.dilation_w == 1) {
          if (whole_columns) {  // a stretch of compile-time length (a few loads and stores, no predication)
            copy_fixed<row_values>(to, input + g::input_pixel(b, iy, columns.input_row));
            continue;
          }
        }
        if (columns.first > 0) fill(to, input_zero_point, columns.first * in_c);
        if constexpr (g::win.dilation_w == 1) {
          copy_bytes(to + columns.first * in_c, input + g::input_pixel(b, iy, columns.input_row + columns.first),
                     (columns.end - columns.first) * in_c);
        } else {
          for (std::int32_t kx = columns.first; kx < columns.end; ++kx)
            copy_bytes(to + kx * in_c, input + g::input_pixel(b, iy, columns.input_row + kx * g::win.dilation_w), in_c);
        }
        if (columns.end < kernel_w) fill(to + columns.end * in_c, input_zero_point, (kernel_w - columns.end) * in_c);
      }
      if (rows.end < kernel_h) fill(to, input_zero_point, (kernel_h - rows.end) * row_values);
    }
  }

  // Every output channel of one pixel from its window x (16 * chunks readable bytes).
  template <bool Left>
  [[gnu::always_inline]] static inline void all_channels(const channels& c, const std::int8_t* x, std::int8_t* out) {
    constexpr std::int32_t quads = out_c / 4;
    const std::int8_t* w = c.filters;
    for (std::int32_t q = 0; q < quads; ++q) four_channels<4, Left>(c, x, w, out, 4 * q);
    if constexpr (out_c % 4 != 0) four_channels<out_c % 4, Left>(c, x, w, out, 4 * quads);
  }

  // Channels [o, o + Count), Count <= 4 (the lanes past Count have zero filters and are not stored); w is
  // their group's filters, left at the next group's.
  template <std::int32_t Count, bool Left>
  [[gnu::always_inline]] static inline void four_channels(const channels& c, const std::int8_t* x, const std::int8_t*& w, std::int8_t* out,
                                                          std::int32_t o) {
    int32x4_t acc = dot_four<chunks>(x, w);
    if constexpr (Count == 4) {
      acc = vaddq_s32(acc, vldrwq_s32(c.offset_terms + o));
      if constexpr (P.has_bias != 0) acc = vaddq_s32(acc, vldrwq_s32(c.bias + o));
      if constexpr (onnx_output_stage<P>) acc = clamp_output<P>(onnx_scale_plus_offset<P>(acc, onnx_multipliers<P>(c.multiplier, o)));
      else if constexpr (P.per_channel != 0) acc = requantize<P, Left>(acc, vldrwq_s32(c.multiplier + o), vldrwq_s32(c.shift + o));
      else acc = requantize<P>(acc);
      vstrbq_s32(out + o, acc);
    } else {
      const mve_pred16_t lanes = vctp32q(Count);
      acc = vaddq_s32(acc, vldrwq_s32(c.offset_terms + o));
      if constexpr (P.has_bias != 0) acc = vaddq_s32(acc, vldrwq_z_s32(c.bias + o, lanes));
      if constexpr (onnx_output_stage<P>) acc = clamp_output<P>(onnx_scale_plus_offset<P>(acc, onnx_multipliers<P>(c.multiplier, o, lanes)));
      else if constexpr (P.per_channel != 0) acc = requantize<P, Left>(acc, vldrwq_z_s32(c.multiplier + o, lanes), vldrwq_z_s32(c.shift + o, lanes));
      else acc = requantize<P>(acc);
      vstrbq_p_s32(out + o, acc, lanes);
    }
  }
#endif
};

}  // namespace ctnn::kernel::arm::mve::detail
