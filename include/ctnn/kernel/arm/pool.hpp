#pragma once
// int8 average pooling (avg_pool, global_avg_pool) on Armv7E-M DSP, bit-exact with
// reference::int8::pool2d<false> / global_avg_pool: the in-bounds taps summed, then divided by their count
// rounding half away from zero, clamped to the activation range.
//
// Channels go four at a time: one word of input per tap, added to two words of int16 sums with SXTAB16
// (even and odd channels): 3 instructions per 4 values. The int16 sums cannot overflow while a window
// has at most 256 taps (|sum| <= 128 * 256); larger windows keep the reference kernel.
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/dsp.hpp>
#include <ctnn/kernel/arm/detail/window.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::detail {

template <kernel_params P>
struct avg_pool_kernel : kernel::detail::reads_constants_as_stored {
  using g = window_geometry<P>;
  static constexpr std::int32_t channels = g::in_c;

  static constexpr bool supports = dsp_available && (P.kind == op_kind::avg_pool || P.kind == op_kind::global_avg_pool) &&
                                   P.type == dtype::i8 && P.in.rank == 4 && g::valid && g::kernel_h * g::kernel_w <= 256 &&
                                   (g::is_global || P.out[3] == channels);

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    const auto* input = static_cast<const std::int8_t*>(operands[0]);
    auto* output = static_cast<std::int8_t*>(result);
    for (std::int32_t b = 0; b < g::batch; ++b)
      for (std::int32_t oy = 0; oy < g::out_h; ++oy) {
        const auto rows = g::rows_inside(oy);
        for (std::int32_t ox = 0; ox < g::out_w; ++ox)
          pixel(input, output + ((static_cast<std::ptrdiff_t>(b) * g::out_h + oy) * g::out_w + ox) * channels, b, rows, g::columns_inside(ox));
      }
  }

 private:
  [[gnu::always_inline]] static inline std::int8_t average(std::int32_t sum, std::int32_t count) {
    std::int32_t v = sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
    v = v < P.activation_min ? P.activation_min : v;
    v = v > P.activation_max ? P.activation_max : v;
    return static_cast<std::int8_t>(v);
  }

  static void pixel(const std::int8_t* input, std::int8_t* out, std::int32_t b, typename g::row_range rows, typename g::row_range columns) {
    const std::int32_t count = (rows.end - rows.first) * (columns.end - columns.first);
    const auto at = [&](std::int32_t ky, std::int32_t kx) {
      return g::input_pixel(b, rows.input_row + ky * g::win.dilation_h, columns.input_row + kx * g::win.dilation_w);
    };
    for (std::int32_t q = 0; q < channels / 4; ++q) {
      const std::int32_t c = 4 * q;
      std::uint32_t even = 0, odd = 0;  // int16 sums of channels c, c+2 and c+1, c+3
      for (std::int32_t ky = rows.first; ky < rows.end; ++ky)
        for (std::int32_t kx = columns.first; kx < columns.end; ++kx) {
          const std::uint32_t word = load_word(input + at(ky, kx) + c);
          even = sxtab16(even, word);
          odd = sxtab16_ror8(odd, word);
        }
      out[c] = average(static_cast<std::int16_t>(even & 0xFFFFu), count);
      out[c + 1] = average(static_cast<std::int16_t>(odd & 0xFFFFu), count);
      out[c + 2] = average(static_cast<std::int16_t>(even >> 16), count);
      out[c + 3] = average(static_cast<std::int16_t>(odd >> 16), count);
    }
    for (std::int32_t c = channels / 4 * 4; c < channels; ++c) {
      std::int32_t sum = 0;
      for (std::int32_t ky = rows.first; ky < rows.end; ++ky)
        for (std::int32_t kx = columns.first; kx < columns.end; ++kx) sum += input[at(ky, kx) + c];
      out[c] = average(sum, count);
    }
  }
};

}  // namespace ctnn::kernel::arm::detail
