#pragma once
// int8 depthwise_conv2d (channel multiplier 1; any kernel, stride, dilation, padding) for Armv6-M, bit-exact
// with reference::int8::depthwise_conv2d.
//
// Pixel-major, as the reference walks (so calls run in place write in its order), one channel's taps at a
// time. pack<1> lays each channel's taps out side by side (its kernel_h * kernel_w weights one after the
// other: the weights of a channel read at compile-time offsets from one pointer), after the channels'
// offset terms (input_offset * the sum of the channel's taps). Pixels whose window lies inside the input
// start their accumulators at bias + offset term and read the taps at compile-time distances without the
// offset; border pixels add the offset to each tap inside the input, as the reference does.
// (Interior pixels four at a time, channel by channel, each weight read once for four MULS, took 2.7 % fewer
// instructions on KWS and VWW at -O2 and 1.6 / 19 KB more code: not kept.)
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

  template <std::size_t... T>
  [[gnu::always_inline]] static std::int32_t interior_taps(const std::int8_t* x, const std::int8_t* w, std::int32_t acc,
                                                           std::index_sequence<T...>) {
    ((acc += x[tap_offsets[T]] * w[T]), ...);
    return acc;
  }

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays& rq) {
    const auto [input, packed, bias, output] = kernel::detail::weighted_operands_of<P, std::int32_t>(operands, result);
    const std::int8_t* weights = reinterpret_cast<const std::int8_t*>(packed + channels);
    std::int8_t* out = output;
    for (std::int32_t b = 0; b < g::batch; ++b) {
      for (std::int32_t oy = 0; oy < g::out_h; ++oy) {
        const auto rows = g::rows_inside(oy);
        const bool rows_whole = rows.first == 0 && rows.end == g::kernel_h;
        for (std::int32_t ox = 0; ox < g::out_w; ++ox, out += channels) {
          const auto columns = g::columns_inside(ox);
          if (rows_whole && ox >= g::interior_begin && ox < g::interior_end) {
            const std::int8_t* x = input + g::input_pixel(b, rows.input_row, columns.input_row);
            const std::int8_t* w = weights;
            for (std::int32_t c = 0; c < channels; ++c, ++x, w += taps) {
              const std::int32_t start = wrapping_add(bias != nullptr ? bias[c] : 0, packed[c]);
              out[c] = requantize<P>(interior_taps(x, w, start, std::make_index_sequence<static_cast<std::size_t>(taps)>{}), rq.multiplier,
                                     rq.shift, c);
            }
          } else {
            for (std::int32_t c = 0; c < channels; ++c) {
              std::int32_t acc = bias != nullptr ? bias[c] : 0;
              const std::int8_t* w = weights + static_cast<std::ptrdiff_t>(c) * taps;
              for (std::int32_t ky = rows.first; ky < rows.end; ++ky) {
                const std::int32_t iy = rows.input_row + ky * g::win.dilation_h;
                for (std::int32_t kx = columns.first; kx < columns.end; ++kx) {
                  const std::int32_t ix = columns.input_row + kx * g::win.dilation_w;
                  acc += (input[g::input_pixel(b, iy, ix) + c] + P.input_offset) * w[ky * g::kernel_w + kx];
                }
              }
              out[c] = requantize<P>(acc, rq.multiplier, rq.shift, c);
            }
          }
        }
      }
    }
  }
};

}  // namespace ctnn::kernel::arm::v6m
