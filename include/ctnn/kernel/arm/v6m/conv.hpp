#pragma once
// int8 conv2d (groups 1; any kernel, stride, dilation, padding) and dense for Armv6-M (Thumb-1: MULS, no
// SMLAD, no multiply-accumulate), bit-exact with reference::int8::conv2d / dense.
//
// Every call is a matrix product: out[p][o] = bias[o] + sum_k (x[p][k] + input_offset) * w[o][k] over a
// pixel's window (k over OHWI's HWI). The input offset leaves the loop: sum (x + offset) * w = sum x * w +
// offset * sum w, and offset * sum w of each channel is a compile-time constant (pack<1> stores it before
// the weights). Taps in the padding, which the reference skips, are gathered as the input's zero point
// (-input_offset, an int8 value): their (x + offset) is 0, so that every pixel's sum is the full window's.
//
// The inner loop (four_channels): one pixel by four output channels. pack<1> lays the weights of each group
// of four channels out per k, the four bytes side by side (one LDM reads the four filters' weights at k;
// LSLS / ASRS / SXTB split them), and each input value serves four MULS: 4.3 instructions per MAC where
// the reference takes eleven. Output channels past the last whole group: one at a time.
//
// Each pixel's window is first copied (gathered) into a word-aligned buffer on the stack, rounded up to
// whole words with zeros (Armv6-M faults on unaligned word loads; at most max_gathered bytes: the row
// kernel_decline::window_over_1024_bytes), a cost of one pass over the window against out_c passes over
// it. Calls run in place (kernel_params::in_place) write a pixel's outputs only after its window was
// gathered, the reference kernel's order.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/decline.hpp>
#include <ctnn/kernel/arm/detail/window.hpp>
#include <ctnn/kernel/arm/v6m/requantize.hpp>
#include <ctnn/kernel/detail/operands.hpp>
#include <ctnn/kernel/detail/output_clamp.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::v6m {

// The largest window the kernel gathers on the stack (within the MVE family's bound, which the rows restate:
// decline_detail::mve_window_too_large; a longer flat window runs the reference kernel, other_shape).
inline constexpr std::int32_t max_gathered = 1024;

// Byte `Index` of a word of four weights, sign-extended (SXTB, or LSLS + ASRS, or ASRS).
template <int Index>
[[gnu::always_inline]] inline std::int32_t weight_byte(std::uint32_t word) {
  if constexpr (Index == 3) return static_cast<std::int32_t>(word) >> 24;
  else return static_cast<std::int32_t>(word << (24 - 8 * Index)) >> 24;
}

// acc[j] += sum_k x[k] * w[k][j] over `words` words of input (four values each) and 4 * words words of
// weights (the four channels' bytes of one k). Thumb-1: each input word split into its four values, each
// weight word into its four weights (SXTB, LSLS + ASRS, ASRS), a MULS and an ADD per MAC: 69 instructions per
// 16 MACs (g++ makes 21 per 4 of the plain loop).
[[gnu::always_inline]] inline void four_channels(const std::uint32_t* x, const std::uint32_t* w, std::int32_t words,
                                                 std::int32_t (&acc)[4]) {
#if defined(__thumb__) && !defined(__thumb2__)
  std::int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  const std::uint32_t* end = x + words;
  std::uint32_t xw, v, wt, t;
#define CTNN_V6M_FOUR_MACS                                                                   \
  "ldm %[w]!, {%[wt]}\n\t"                                                                  \
  "sxtb %[t], %[wt]\n\t"                                                                    \
  "muls %[t], %[v], %[t]\n\t"                                                               \
  "add %[a0], %[t]\n\t"                                                                     \
  "lsls %[t], %[wt], #16\n\t"                                                               \
  "asrs %[t], %[t], #24\n\t"                                                                \
  "muls %[t], %[v], %[t]\n\t"                                                               \
  "add %[a1], %[t]\n\t"                                                                     \
  "lsls %[t], %[wt], #8\n\t"                                                                \
  "asrs %[t], %[t], #24\n\t"                                                                \
  "muls %[t], %[v], %[t]\n\t"                                                               \
  "add %[a2], %[t]\n\t"                                                                     \
  "asrs %[wt], %[wt], #24\n\t"                                                              \
  "muls %[wt], %[v], %[wt]\n\t"                                                             \
  "add %[a3], %[wt]\n\t"
  // Unified syntax (MULS, LSLS, ASRS with three operands), the compiler's own restored after.
  __asm volatile(
      ".syntax unified\n\t"
      "1:\n\t"
      "ldm %[x]!, {%[xw]}\n\t"
      "sxtb %[v], %[xw]\n\t" CTNN_V6M_FOUR_MACS
      "lsls %[v], %[xw], #16\n\t"
      "asrs %[v], %[v], #24\n\t" CTNN_V6M_FOUR_MACS
      "lsls %[v], %[xw], #8\n\t"
      "asrs %[v], %[v], #24\n\t" CTNN_V6M_FOUR_MACS
      "asrs %[v], %[xw], #24\n\t" CTNN_V6M_FOUR_MACS
      "cmp %[x], %[end]\n\t"
      "bne 1b\n\t"
      ".syntax divided\n\t"
      : [x] "+l"(x), [w] "+l"(w), [a0] "+h"(a0), [a1] "+h"(a1), [a2] "+h"(a2), [a3] "+h"(a3), [xw] "=&l"(xw), [v] "=&l"(v),
        [wt] "=&l"(wt), [t] "=&l"(t)
      : [end] "h"(end)
      : "cc", "memory");
#undef CTNN_V6M_FOUR_MACS
  acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
#else
  for (std::int32_t i = 0; i < 4 * words; ++i) {
    const std::int32_t v = reinterpret_cast<const std::int8_t*>(x)[i];
    const std::uint32_t word = w[i];
    acc[0] += v * weight_byte<0>(word);
    acc[1] += v * weight_byte<1>(word);
    acc[2] += v * weight_byte<2>(word);
    acc[3] += v * weight_byte<3>(word);
  }
#endif
}

template <kernel_params P>
struct conv_kernel {
  using g = arm::detail::window_geometry<P>;
  static constexpr std::int32_t in_c = g::in_c, out_c = g::out_c;
  static constexpr std::int32_t reduction = g::kernel_h * g::kernel_w * in_c;
  static constexpr std::int32_t pixels = g::batch * g::out_h * g::out_w;
  static constexpr bool flat =
      g::is_dense || (g::kernel_h == 1 && g::kernel_w == 1 && g::win.stride_h == 1 && g::win.stride_w == 1 && g::unpadded);
  static constexpr std::int32_t groups = out_c / 4, grouped = groups * 4;

  static constexpr bool supports =
      (P.kind == op_kind::dense || (P.kind == op_kind::conv2d && P.groups == 1 && P.in.rank == 4 && P.out.rank == 4)) &&
      P.type == dtype::i8 && P.requantization == requantization_policy::tflite && P.weights_offset == 0 && g::valid &&
      kernel::detail::is_output_clamp(P.fused) && P.input_offset >= -127 && P.input_offset <= 128 && reduction >= 1 &&
      (reduction + 3) / 4 * 4 <= max_gathered;

  // The reduction rounded up to whole words: the gathered window ends in zeros, the filters in zero weights.
  static constexpr std::int32_t padded = (reduction + 3) / 4 * 4;

  // Operand 1: the channels' offset terms (input_offset * sum of the filter, int32), then the weights: per
  // group of four channels, per k, the four channels' bytes in one word; then the remaining channels, each
  // filter padded to whole words.
  static constexpr std::size_t packed_words = static_cast<std::size_t>(out_c) + static_cast<std::size_t>(out_c) * padded / 4;
  static constexpr bool packs(std::size_t k) { return k == 1; }
  template <std::size_t K, class Reader>
  static constexpr std::array<std::int32_t, packed_words> pack(const Reader& read) {
    static_assert(K == 1, "ctnn: the Armv6-M conv kernel packs its weights only.");
    std::array<std::int32_t, packed_words> words{};
    for (std::int32_t o = 0; o < out_c; ++o) {
      std::int64_t sum = 0;
      for (std::int32_t k = 0; k < reduction; ++k) {
        const std::int8_t value = read.i8(static_cast<std::size_t>(o) * reduction + k);
        sum += value;
        const std::size_t byte = o < grouped ? (static_cast<std::size_t>(o / 4) * padded + k) * 4 + o % 4
                                             : static_cast<std::size_t>(o) * padded + k;
        const std::size_t word = static_cast<std::size_t>(out_c) + byte / 4;
        words[word] = static_cast<std::int32_t>(static_cast<std::uint32_t>(words[word]) |
                                                static_cast<std::uint32_t>(static_cast<std::uint8_t>(value)) << (8 * (byte % 4)));
      }
      words[static_cast<std::size_t>(o)] = static_cast<std::int32_t>(static_cast<std::uint32_t>(sum * P.input_offset));
    }
    return words;
  }

  // The window of output pixel `pixel` as `reduction` contiguous bytes, the padding as the zero point.
  static void gather(const std::int8_t* input, std::int32_t pixel, std::int8_t* to) {
    if constexpr (flat) {
      std::memcpy(to, input + static_cast<std::ptrdiff_t>(pixel) * in_c, static_cast<std::size_t>(in_c));
    } else {
      const std::int32_t ox = pixel % g::out_w, oy = pixel / g::out_w % g::out_h, b = pixel / (g::out_w * g::out_h);
      const auto zero_point = static_cast<std::int8_t>(-P.input_offset);
      for (std::int32_t ky = 0; ky < g::kernel_h; ++ky) {
        const std::int32_t iy = oy * g::win.stride_h - g::win.pad_top + ky * g::win.dilation_h;
        for (std::int32_t kx = 0; kx < g::kernel_w; ++kx) {
          const std::int32_t ix = ox * g::win.stride_w - g::win.pad_left + kx * g::win.dilation_w;
          if (iy >= 0 && iy < g::in_h && ix >= 0 && ix < g::in_w)
            std::memcpy(to, input + g::input_pixel(b, iy, ix), static_cast<std::size_t>(in_c));
          else std::memset(to, zero_point, static_cast<std::size_t>(in_c));
          to += in_c;
        }
      }
    }
  }

  static void pixel(const std::uint32_t* x, const std::int32_t* terms, const std::uint32_t* weights, const std::int32_t* bias,
                    const requant_arrays& rq, std::int8_t* out) {
    const std::uint32_t* w = weights;
    for (std::int32_t o = 0; o < grouped; o += 4, w += padded) {
      std::int32_t acc[4];
      for (std::int32_t j = 0; j < 4; ++j) acc[j] = wrapping_add(bias != nullptr ? bias[o + j] : 0, terms[o + j]);
      four_channels(x, w, padded / 4, acc);
      for (std::int32_t j = 0; j < 4; ++j) out[o + j] = requantize<P>(acc[j], rq.multiplier, rq.shift, o + j);
    }
    const auto* bytes = reinterpret_cast<const std::int8_t*>(x);
    for (std::int32_t o = grouped; o < out_c; ++o, w += padded / 4) {
      const auto* filter = reinterpret_cast<const std::int8_t*>(w);
      std::int32_t acc = wrapping_add(bias != nullptr ? bias[o] : 0, terms[o]);
      for (std::int32_t k = 0; k < reduction; ++k) acc += bytes[k] * filter[k];
      out[o] = requantize<P>(acc, rq.multiplier, rq.shift, o);
    }
  }

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays& rq) {
    const auto [input, packed, bias, output] = kernel::detail::weighted_operands_of<P, std::int32_t>(operands, result);
    const auto* weights = reinterpret_cast<const std::uint32_t*>(packed + out_c);
    std::uint32_t window[padded / 4];
    window[padded / 4 - 1] = 0;  // the bytes past the reduction (zero weights)
    for (std::int32_t p = 0; p < pixels; ++p) {
      gather(input, p, reinterpret_cast<std::int8_t*>(window));
      pixel(window, packed, weights, bias, rq, output + static_cast<std::ptrdiff_t>(p) * out_c);
    }
  }
};

}  // namespace ctnn::kernel::arm::v6m
