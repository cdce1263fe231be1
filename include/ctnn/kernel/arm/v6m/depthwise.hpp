#pragma once
// int8 depthwise_conv2d (channel multiplier 1; any kernel, stride, dilation, padding) for Armv6-M, bit-exact
// with reference::int8::depthwise_conv2d.
//
// pack<1> lays each channel's taps out side by side (its kernel_h * kernel_w weights one after the other:
// the weights of a channel read at compile-time offsets from one pointer), after the channels' offset
// terms (input_offset * the sum of the channel's taps). Pixels whose window lies inside the input start
// their accumulators at bias + offset term and read the taps at compile-time distances without the offset;
// border pixels add the offset to each tap inside the input, as the reference does.
//
// A depthwise MAC has no operand another MAC of the same pixel shares, so the interior pixels of a row go
// four at a time, channel by channel: each weight read once serves four MULS. Border pixels (and calls run in
// place at a distance of no whole number of pixels) go pixel by pixel, the reference's order.
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/window.hpp>
#include <ctnn/kernel/arm/v6m/requantize.hpp>
#include <ctnn/kernel/detail/operands.hpp>
#include <ctnn/kernel/detail/output_clamp.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::v6m {

template <kernel_params P>
struct depthwise_kernel {
  using g = arm::detail::window_geometry<P>;
  static constexpr std::int32_t channels = g::out_c;
  static constexpr std::int32_t taps = g::kernel_h * g::kernel_w;

  static constexpr bool supports = P.kind == op_kind::depthwise_conv2d && P.type == dtype::i8 &&
                                   P.requantization == requantization_policy::tflite && P.in.rank == 4 && P.out.rank == 4 &&
                                   P.depth_multiplier == 1 && g::in_c == channels && P.weights_offset == 0 && g::valid &&
                                   kernel::detail::is_output_clamp(P.fused);

  // Operand 1: the channels' offset terms (int32), then per channel its taps (int8).
  static constexpr std::size_t packed_words = static_cast<std::size_t>(channels) + (static_cast<std::size_t>(channels) * taps + 3) / 4;
  static constexpr bool packs(std::size_t k) { return k == 1; }
  template <std::size_t K, class Reader>
  static constexpr std::array<std::int32_t, packed_words> pack(const Reader& read) {
    static_assert(K == 1, "ctnn: the Armv6-M depthwise kernel packs its weights only.");
    std::array<std::int32_t, packed_words> words{};
    for (std::int32_t c = 0; c < channels; ++c) {
      std::int64_t sum = 0;
      for (std::int32_t t = 0; t < taps; ++t) {
        const std::int8_t value = read.i8(static_cast<std::size_t>(t) * channels + c);
        sum += value;
        const std::size_t byte = static_cast<std::size_t>(c) * taps + t;
        const std::size_t word = static_cast<std::size_t>(channels) + byte / 4;
        words[word] = static_cast<std::int32_t>(static_cast<std::uint32_t>(words[word]) |
                                                static_cast<std::uint32_t>(static_cast<std::uint8_t>(value)) << (8 * (byte % 4)));
      }
      words[static_cast<std::size_t>(c)] = static_cast<std::int32_t>(static_cast<std::uint32_t>(sum * P.input_offset));
    }
    return words;
  }

  // The input's distance from a window's first tap to tap t.
  static constexpr std::array<std::ptrdiff_t, static_cast<std::size_t>(taps)> tap_offsets = [] {
    std::array<std::ptrdiff_t, static_cast<std::size_t>(taps)> offsets{};
    for (std::int32_t ky = 0; ky < g::kernel_h; ++ky)
      for (std::int32_t kx = 0; kx < g::kernel_w; ++kx)
        offsets[static_cast<std::size_t>(ky * g::kernel_w + kx)] =
            (static_cast<std::ptrdiff_t>(ky) * g::win.dilation_h * g::in_w + static_cast<std::ptrdiff_t>(kx) * g::win.dilation_w) * channels;
    return offsets;
  }();

  // Interior pixels of one output row, Pixels at a time (each weight read once for them all), channel by
  // channel: x is the window origin of the first pixel, at channel 0.
  static constexpr std::ptrdiff_t pixel_step = static_cast<std::ptrdiff_t>(g::win.stride_w) * channels;
  template <std::int32_t Pixels, std::size_t... T, std::size_t... R>
  [[gnu::always_inline]] static void interior_block(const std::int8_t* x, const std::int32_t* terms, const std::int8_t* weights,
                                                    const std::int32_t* bias, const requant_arrays& rq, std::int8_t* out,
                                                    std::index_sequence<T...>, std::index_sequence<R...>) {
    for (std::int32_t c = 0; c < channels; ++c, ++x, weights += taps) {
      const std::int32_t start = wrapping_add(bias != nullptr ? bias[c] : 0, terms[c]);
      std::int32_t acc[Pixels] = {(static_cast<void>(R), start)...};
      const auto tap = [&](std::size_t t) {
        const std::int32_t w = weights[t];
        const std::int8_t* xt = x + tap_offsets[t];
        ((acc[R] += xt[static_cast<std::ptrdiff_t>(R) * pixel_step] * w), ...);
      };
      (tap(T), ...);
      ((out[static_cast<std::ptrdiff_t>(R) * channels + c] = requantize<P>(acc[R], rq.multiplier, rq.shift, c)), ...);
    }
  }
  static constexpr std::int32_t block = 4;
  static constexpr std::int32_t interior = g::interior_end - g::interior_begin;
  template <std::int32_t Pixels>
  static void interior_pixels(const std::int8_t* x, const std::int32_t* terms, const std::int8_t* weights, const std::int32_t* bias,
                              const requant_arrays& rq, std::int8_t* out) {
    interior_block<Pixels>(x, terms, weights, bias, rq, out, std::make_index_sequence<static_cast<std::size_t>(taps)>{},
                           std::make_index_sequence<static_cast<std::size_t>(Pixels)>{});
  }

  // One pixel, every channel, in the reference's order (pixel-major): border pixels, and calls run in place
  // at a distance of no whole number of pixels.
  static void one_pixel(const std::int8_t* input, const std::int32_t* packed, const std::int8_t* weights, const std::int32_t* bias,
                        const requant_arrays& rq, std::int8_t* out, std::int32_t b, const typename g::row_range& rows, std::int32_t ox) {
    const auto columns = g::columns_inside(ox);
    const bool whole = rows.first == 0 && rows.end == g::kernel_h && columns.first == 0 && columns.end == g::kernel_w;
    for (std::int32_t c = 0; c < channels; ++c) {
      const std::int8_t* w = weights + static_cast<std::ptrdiff_t>(c) * taps;
      std::int32_t acc = bias != nullptr ? bias[c] : 0;
      if (whole) {
        acc = wrapping_add(acc, packed[c]);
        const std::int8_t* x = input + g::input_pixel(b, rows.input_row, columns.input_row) + c;
        for (std::int32_t t = 0; t < taps; ++t) acc += x[tap_offsets[static_cast<std::size_t>(t)]] * w[t];
      } else {
        for (std::int32_t ky = rows.first; ky < rows.end; ++ky) {
          const std::int32_t iy = rows.input_row + ky * g::win.dilation_h;
          for (std::int32_t kx = columns.first; kx < columns.end; ++kx) {
            const std::int32_t ix = columns.input_row + kx * g::win.dilation_w;
            acc += (input[g::input_pixel(b, iy, ix) + c] + P.input_offset) * w[ky * g::kernel_w + kx];
          }
        }
      }
      out[c] = requantize<P>(acc, rq.multiplier, rq.shift, c);
    }
  }

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays& rq) {
    const auto [input, packed, bias, output] = kernel::detail::weighted_operands_of<P, std::int32_t>(operands, result);
    const std::int8_t* weights = reinterpret_cast<const std::int8_t*>(packed + channels);
    // Blocks of interior pixels channel by channel write channel c of a block before later blocks read
    // channel c: in place, that is the reference's order only where the output lies whole pixels from the
    // input (then a pixel's channel c overwrites channel c of another pixel, and no channel's reads see another's
    // writes; the planner's rule covers the rest).
    const std::ptrdiff_t distance = output - input;
    const bool blocks = P.in_place == 0 || distance % channels == 0;
    for (std::int32_t b = 0; b < g::batch; ++b) {
      for (std::int32_t oy = 0; oy < g::out_h; ++oy) {
        const auto rows = g::rows_inside(oy);
        std::int8_t* row_out = output + ((static_cast<std::ptrdiff_t>(b) * g::out_h + oy) * g::out_w) * channels;
        if (!blocks || rows.first != 0 || rows.end != g::kernel_h || interior <= 0) {
          for (std::int32_t ox = 0; ox < g::out_w; ++ox)
            one_pixel(input, packed, weights, bias, rq, row_out + static_cast<std::ptrdiff_t>(ox) * channels, b, rows, ox);
          continue;
        }
        for (std::int32_t ox = 0; ox < g::interior_begin; ++ox)
          one_pixel(input, packed, weights, bias, rq, row_out + static_cast<std::ptrdiff_t>(ox) * channels, b, rows, ox);
        std::int32_t ox = g::interior_begin;
        for (; ox + block <= g::interior_end; ox += block)
          interior_pixels<block>(input + g::input_pixel(b, rows.input_row, g::columns_inside(ox).input_row), packed, weights, bias, rq,
                                 row_out + static_cast<std::ptrdiff_t>(ox) * channels);
        if constexpr (interior > 0 && interior % block != 0)
          interior_pixels<interior % block>(input + g::input_pixel(b, rows.input_row, g::columns_inside(ox).input_row), packed, weights,
                                            bias, rq, row_out + static_cast<std::ptrdiff_t>(ox) * channels);
        for (ox = g::interior_end; ox < g::out_w; ++ox)
          one_pixel(input, packed, weights, bias, rq, row_out + static_cast<std::ptrdiff_t>(ox) * channels, b, rows, ox);
      }
    }
  }
};

}  // namespace ctnn::kernel::arm::v6m
