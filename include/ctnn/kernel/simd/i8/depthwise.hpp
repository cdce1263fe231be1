#pragma once
// int8 depthwise conv2d (depth multiplier 1), vectorised with int32 lanes, bit-exact with
// reference::int8::depthwise_conv2d. The products (x + input_offset) * w are formed as x * w (exact in
// int32 lanes: dot_words multiplies the low 16 bits of each lane, x sign-extended, w zero-extended in the
// packed word, the high half 0) plus a per-channel correction input_offset * sum(w) packed at compile
// time. The input is first copied into a padded buffer (i8/padded_input.hpp) whose borders hold the input
// zero point, so padding taps add nothing, as the reference's skipped taps, and every tap of an output
// row sits at a compile-time offset from the row's start.
//
// An output row is cut into lane-wide chunks, computed `chunk_block` at a time (independent accumulator
// chains), the last block moved back to end at the row's end:
//   flat rows (stride_w 1, and channels dividing or divided by the lane count): chunk k covers the row's
//     values [k * lanes, (k + 1) * lanes) in (x, channel) order, which read the input row at the same
//     offsets: pixels need no lane of their own, e.g. 8 channels fill 16 lanes with two pixels;
//   otherwise chunk k is channel vector k % channel_vectors of pixel k / channel_vectors.
// Packed weights (pack<1>): words[(tap * channel_vectors + v) * lanes + lane], lane's channel being
// lane % channels (flat rows with fewer channels than lanes) or v * lanes + lane, then the corrections.
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/requant_arrays.hpp>
#include <ctnn/kernel/simd/i8/isa.hpp>
#include <ctnn/kernel/simd/i8/padded_input.hpp>
#include <ctnn/kernel/simd/i8/requantize.hpp>

namespace ctnn::kernel::simd::i8_detail {

// A lane group of int8 values widened to int32: whole-vector loads where they stay inside [x, end) of
// readable memory, a copy otherwise (lanes past `n` are read but never used).
template <class I>
[[gnu::always_inline]] inline typename I::vec widen_within(const std::int8_t* x, const std::int8_t* end, int n) {
  if (end - x >= 16) return I::widen(x);
  return widen_partial<I>(x, n);
}

template <kernel_params P, class I>
struct depthwise_kernel {
  using geometry = window_geometry<P>;
  static constexpr std::int32_t channels = P.out.last();
  static constexpr std::int32_t out_w = geometry::out_w;
  static constexpr std::int32_t taps = geometry::kernel_h * geometry::kernel_w;
  static constexpr bool flat = geometry::win.stride_w == 1 && (I::lanes % channels == 0 || channels % I::lanes == 0);
  static constexpr bool lanes_repeat_channels = flat && channels < I::lanes;
  static constexpr std::int32_t channel_vectors = lanes_repeat_channels ? 1 : (channels + I::lanes - 1) / I::lanes;
  static constexpr std::int32_t row_values = out_w * channels;
  static constexpr std::int32_t chunks = flat ? (row_values + I::lanes - 1) / I::lanes : out_w * channel_vectors;
  static constexpr std::int32_t chunk_block = chunks < 8 ? chunks : 8;
  static constexpr std::size_t weight_words = static_cast<std::size_t>(taps) * channel_vectors * I::lanes;

  static constexpr bool supports =
      I::available && P.kind == op_kind::depthwise_conv2d && P.depth_multiplier == 1 && P.in.rank == 4 &&
      P.out.rank == 4 && P.in[3] == channels && P.weights_offset == 0 && geometry::valid &&
      geometry::elements <= max_padded_bytes &&
      (P.fused == activation::none || P.fused == activation::relu || P.fused == activation::relu6);

  static constexpr bool packs(std::size_t k) { return k == 1; }
  using vec = typename I::vec;

  // The channel of lane `lane` of channel vector v, or -1 (a lane past the channels).
  static constexpr std::int32_t channel_of(std::int32_t v, std::int32_t lane) {
    if constexpr (lanes_repeat_channels) return lane % channels;
    else return v * I::lanes + lane < channels ? v * I::lanes + lane : -1;
  }

  template <std::size_t K, class Reader>
  static constexpr std::array<std::int32_t, weight_words + channel_vectors * I::lanes> pack(const Reader& read) {
    static_assert(K == 1, "ctnn: the int8 depthwise kernel packs its weights only.");
    std::array<std::int32_t, weight_words + channel_vectors * I::lanes> words{};
    for (std::int32_t v = 0; v < channel_vectors; ++v)
      for (std::int32_t lane = 0; lane < I::lanes; ++lane) {
        const std::int32_t c = channel_of(v, lane);
        if (c < 0) continue;
        std::int32_t sum = 0;
        for (std::int32_t t = 0; t < taps; ++t) {
          const std::int8_t w = read.i8(static_cast<std::size_t>(t * channels + c));
          words[static_cast<std::size_t>((t * channel_vectors + v) * I::lanes + lane)] = w & 0xFFFF;
          sum += w;
        }
        words[weight_words + static_cast<std::size_t>(v * I::lanes + lane)] = P.input_offset * sum;  // |sum| <= 128 * taps
      }
    return words;
  }

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays& rq) {
    const auto* words = static_cast<const std::int32_t*>(operands[1]);
    const std::int32_t* bias = nullptr;
    if constexpr (P.has_bias != 0 && N > 2) bias = static_cast<const std::int32_t*>(operands[N > 2 ? 2 : 0]);
    auto* output = static_cast<std::int8_t*>(result);

    alignas(64) std::int8_t padded[geometry::elements];
    copy_padded<P>(static_cast<const std::int8_t*>(operands[0]), padded, [](std::int8_t x) { return x; });
    // Per channel vector, once per call: the output scale, and the correction plus the bias.
    output_scale<I> scales[channel_vectors];
    vec offsets[channel_vectors];
    for (std::int32_t v = 0; v < channel_vectors; ++v) {
      alignas(64) std::int32_t multiplier[I::lanes]{}, shift[I::lanes]{}, correction[I::lanes]{};
      for (std::int32_t lane = 0; lane < I::lanes; ++lane) {
        const std::int32_t c = channel_of(v, lane);
        if (c < 0) continue;
        if constexpr (P.per_channel != 0) multiplier[lane] = rq.multiplier[c], shift[lane] = rq.shift[c];
        correction[lane] = words[weight_words + static_cast<std::size_t>(v * I::lanes + lane)];
        if constexpr (P.has_bias != 0) correction[lane] += bias[c];
      }
      if constexpr (P.per_channel != 0) scales[v] = output_scale<I>::of(I::load(multiplier), I::load(shift));
      else scales[v] = output_scale<I>::uniform(P.output_multiplier, P.output_shift);
      offsets[v] = I::load(correction);
    }

    for (std::int32_t row = 0; row < P.out[0] * geometry::out_h; ++row) {
      const std::int8_t* row_input = padded + geometry::pixel_offset(row / geometry::out_h, row % geometry::out_h, 0);
      std::int8_t* row_output = output + static_cast<std::ptrdiff_t>(row) * row_values;
      for (std::int32_t first = 0; first < chunks; first += chunk_block) {
        const std::int32_t start = first + chunk_block <= chunks ? first : chunks - chunk_block;
        block(row_input, words, scales, offsets, row_output, start);
      }
    }
  }

 private:
  struct chunk {
    std::ptrdiff_t input, output;  // offsets from the row's first tap / first output value
    std::int32_t vector, lanes;
  };
  [[gnu::always_inline]] static inline chunk chunk_at(std::int32_t k) {
    if constexpr (flat) {
      const std::int32_t first = k * I::lanes;
      return {first, first, lanes_repeat_channels ? 0 : k % channel_vectors,
              row_values - first < I::lanes ? row_values - first : I::lanes};
    } else {
      const std::int32_t x = k / channel_vectors, v = k % channel_vectors;
      return {static_cast<std::ptrdiff_t>(x) * geometry::win.stride_w * channels + v * I::lanes,
              static_cast<std::ptrdiff_t>(x) * channels + v * I::lanes, v,
              channels - v * I::lanes < I::lanes ? channels - v * I::lanes : I::lanes};
    }
  }

  // Chunks [start, start + chunk_block) of one output row.
  [[gnu::always_inline]] static inline void block(const std::int8_t* row_input, const std::int32_t* words,
                                                  const output_scale<I> (&scales)[channel_vectors],
                                                  const vec (&offsets)[channel_vectors], std::int8_t* row_output,
                                                  std::int32_t start) {
    chunk at[chunk_block];
    vec acc[chunk_block];
#pragma GCC unroll 8
    for (std::int32_t b = 0; b < chunk_block; ++b) {
      at[b] = chunk_at(start + b);
      acc[b] = offsets[at[b].vector];
    }
    for (std::int32_t ky = 0; ky < geometry::kernel_h; ++ky)
      for (std::int32_t kx = 0; kx < geometry::kernel_w; ++kx) {
        const std::int8_t* tap_input = row_input + geometry::tap_offset(ky, kx);
        const std::int32_t* tap_words = words + static_cast<std::size_t>((ky * geometry::kernel_w + kx) * channel_vectors) * I::lanes;
#pragma GCC unroll 8
        for (std::int32_t b = 0; b < chunk_block; ++b)
          acc[b] = I::dot_words(acc[b], I::widen(tap_input + at[b].input), I::load(tap_words + at[b].vector * I::lanes));
      }
#pragma GCC unroll 8
    for (std::int32_t b = 0; b < chunk_block; ++b)
      requantize_store<P, I>(acc[b], scales[at[b].vector], row_output + at[b].output, at[b].lanes);
  }
};

}  // namespace ctnn::kernel::simd::i8_detail
