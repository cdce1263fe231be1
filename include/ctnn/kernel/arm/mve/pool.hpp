#pragma once
// int8 pooling (avg_pool, global_avg_pool, max_pool) on Armv8.1-M MVE, bit-exact with
// reference::int8::pool2d / global_avg_pool (TFLite's): per output pixel, its in-bounds taps (the
// reference skips the others), channels lane-parallel, the last group of channels predicated (VCTP).
//   * average: eight channels a step in int16 lanes (VLDRB.S16 and VADD per tap: the sums cannot overflow
//     while a window has at most 256 taps, |sum| <= 128 * 256, as the DSP kernel's), then per channel
//     (sum +/- count / 2) / count truncating, i.e. the sign of the sum times (|sum| + count / 2) / count,
//     the division a multiplication by ceil(2^32 / count) keeping the high word (VMULH.U32: exact for
//     dividends below 2^16 and counts up to 256, the error n * (ceil(2^32 / count) * count - 2^32) < 2^24
//     staying below 2^32; a count of 1 divides nothing), then clamped to the activation range;
//   * max: sixteen channels a step in int8 lanes (VLDRB.8 and VMAX per tap), clamped the same way.
// Per pixel, the outputs are written after the pixel's taps are read; the pools are not run in place.
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/window.hpp>
#include <ctnn/kernel/arm/mve/vector.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::mve::detail {

template <kernel_params P>
struct pool_kernel : kernel::detail::reads_constants_as_stored {
  using g = arm::detail::window_geometry<P>;
  static constexpr bool is_max = P.kind == op_kind::max_pool;
  static constexpr std::int32_t channels = g::in_c;
  static constexpr std::int32_t max_taps = 256;  // int16 sums

  static constexpr bool supports = mve_available &&
                                   (P.kind == op_kind::avg_pool || P.kind == op_kind::global_avg_pool || P.kind == op_kind::max_pool) &&
                                   P.type == dtype::i8 && P.in.rank == 4 && P.in_place == 0 && g::valid &&
                                   (g::is_global || (P.out.rank == 4 && P.out[3] == channels)) && (is_max || g::kernel_h * g::kernel_w <= max_taps);

#if CTNN_ARM_MVE
  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    all_pixels(static_cast<const std::int8_t*>(operands[0]), static_cast<std::int8_t*>(result));
  }
#else
  template <std::size_t N>
  static void run(const void* const (&)[N], void*, const requant_arrays&) {}
#endif

 private:
#if CTNN_ARM_MVE
  // Out of line: its calls' arguments (the window's rows and columns) stay out of the executor's frame.
  [[gnu::noinline]] static void all_pixels(const std::int8_t* input, std::int8_t* output) {
    for (std::int32_t b = 0; b < g::batch; ++b)
      for (std::int32_t oy = 0; oy < g::out_h; ++oy) {
        const auto rows = g::rows_inside(oy);
        for (std::int32_t ox = 0; ox < g::out_w; ++ox)
          pixel(input, output + ((static_cast<std::ptrdiff_t>(b) * g::out_h + oy) * g::out_w + ox) * channels, b, rows, g::columns_inside(ox));
      }
  }

  static constexpr std::int32_t low = P.activation_min > -128 ? P.activation_min : -128;
  static constexpr std::int32_t high = P.activation_max < 127 ? P.activation_max : 127;
  static constexpr std::int32_t lanes = is_max ? 16 : 8;
  static constexpr std::int32_t steps = channels / lanes, tail = channels % lanes;

  [[gnu::noinline]] static void pixel(const std::int8_t* input, std::int8_t* out, std::int32_t b, typename g::row_range rows,
                                      typename g::row_range columns) {
    const std::int8_t* first = input + g::input_pixel(b, rows.input_row + rows.first * g::win.dilation_h,
                                                      columns.input_row + columns.first * g::win.dilation_w);
    const std::int32_t height = rows.end - rows.first, width = columns.end - columns.first;
    if constexpr (is_max) {
      for (std::int32_t k = 0; k < steps; ++k) vstrbq_s8(out + 16 * k, largest(first + 16 * k, height, width, vctp8q(16)));
      if constexpr (tail != 0) {
        const mve_pred16_t p = vctp8q(tail);
        vstrbq_p_s8(out + 16 * steps, largest(first + 16 * steps, height, width, p), p);
      }
    } else {
      const std::int32_t count = height * width;
      const std::uint32_t reciprocal = count > 1 ? 0xFFFFFFFFu / static_cast<std::uint32_t>(count) + 1 : 0;  // ceil(2^32 / count)
      for (std::int32_t k = 0; k < steps; ++k)
        vstrbq_s16(out + 8 * k, average(sum(first + 8 * k, height, width, vctp16q(8)), count, reciprocal));
      if constexpr (tail != 0) {
        const mve_pred16_t p = vctp16q(tail);
        vstrbq_p_s16(out + 8 * steps, average(sum(first + 8 * steps, height, width, p), count, reciprocal), p);
      }
    }
  }

  // The window's taps (height x width from x) of eight channels, summed in int16 lanes (lanes: those read).
  [[gnu::always_inline]] static inline int16x8_t sum(const std::int8_t* x, std::int32_t height, std::int32_t width, mve_pred16_t lanes) {
    int16x8_t acc = vdupq_n_s16(0);
    for (std::int32_t ky = 0; ky < height; ++ky, x += static_cast<std::ptrdiff_t>(g::win.dilation_h) * g::in_w * channels) {
      const std::int8_t* tap = x;
      for (std::int32_t kx = 0; kx < width; ++kx, tap += g::win.dilation_w * channels) acc = vaddq_s16(acc, vldrbq_z_s16(tap, lanes));
    }
    return acc;
  }
  // The same, the largest of sixteen channels.
  [[gnu::always_inline]] static inline int8x16_t largest(const std::int8_t* x, std::int32_t height, std::int32_t width, mve_pred16_t lanes) {
    int8x16_t acc = vdupq_n_s8(-128);
    for (std::int32_t ky = 0; ky < height; ++ky, x += static_cast<std::ptrdiff_t>(g::win.dilation_h) * g::in_w * channels) {
      const std::int8_t* tap = x;
      for (std::int32_t kx = 0; kx < width; ++kx, tap += g::win.dilation_w * channels) acc = vmaxq_s8(acc, vldrbq_z_s8(tap, lanes));
    }
    return vminq_s8(vmaxq_s8(acc, vdupq_n_s8(static_cast<std::int8_t>(low))), vdupq_n_s8(static_cast<std::int8_t>(high)));
  }

  // (sum +/- count / 2) / count per lane, clamped, in int16 lanes.
  [[gnu::always_inline]] static inline int16x8_t average(int16x8_t sums, std::int32_t count, std::uint32_t reciprocal) {
    int16x8_t v;
    if (count > 1) {
      const int32x4_t even = divide(vmovlbq_s16(sums), count, reciprocal), odd = divide(vmovltq_s16(sums), count, reciprocal);
      v = vmovntq_s32(vreinterpretq_s16_s32(even), odd);  // (every lane inside int16)
    } else {
      v = sums;
    }
    return vminq_s16(vmaxq_s16(v, vdupq_n_s16(static_cast<std::int16_t>(low))), vdupq_n_s16(static_cast<std::int16_t>(high)));
  }
  [[gnu::always_inline]] static inline int32x4_t divide(int32x4_t sum, std::int32_t count, std::uint32_t reciprocal) {
    const uint32x4_t magnitude = vreinterpretq_u32_s32(vaddq_n_s32(vabsq_s32(sum), count / 2));
    const int32x4_t quotient = vreinterpretq_s32_u32(vmulhq_u32(magnitude, vdupq_n_u32(reciprocal)));
    return vpselq_s32(vnegq_s32(quotient), quotient, vcmpltq_n_s32(sum, 0));
  }
#endif
};

}  // namespace ctnn::kernel::arm::mve::detail
