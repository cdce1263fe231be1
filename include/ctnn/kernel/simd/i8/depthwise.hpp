#pragma once
// int8 depthwise conv2d (depth multiplier 1), vectorised with int32 lanes, bit-exact with
// reference::int8::depthwise_conv2d. The products (x + input_offset) * w are formed as x * w (exact:
// dot_words multiplies the low 16 bits of each int32 lane, x sign-extended, w zero-extended in the packed
// word, so the high halves add 0 * x's sign) plus a per-channel correction input_offset * sum(w) packed at
// compile time. The accumulators wrap in 32 bits, as the reference's do (vector adds; the scalar
// correction plus bias with wrapping_add: a bias near INT32_MIN/MAX). The input is first copied into a
// padded buffer (i8/padded_input.hpp) whose borders hold the input zero point, so padding taps add
// nothing, as the reference's skipped taps, and every tap of an output row sits at a compile-time offset.
// With stride_w 1 the buffer holds int32 (each value widened once, not once per tap, as every input value
// is read by several taps); with larger strides it holds the int8 values (most of a widened copy would go
// unread) and taps widen as they read.
//
// An output row is a sequence of `items`, each one lane-wide vector per channel vector, computed
// `item_block` at a time with the channel vector's weights held in registers, the last block moved back
// to end at the row's end:
//   lanes repeating channels (stride_w 1, channels dividing the lane count, e.g. 8 channels: two pixels
//     per 16 lanes): item k is the row's values [k * lanes, (k + 1) * lanes) in (x, channel) order, which
//     read the input row at the same offsets;
//   otherwise item k is pixel k, once per channel vector.
// Packed weights (pack<1>): words[(tap * channel_vectors + v) * lanes + lane], the lane's channel being
// lane % channels (lanes repeating channels) or v * lanes + lane, then the corrections.
//
// TFLite's 16x8 form (int16 data, zero points 0, an int64 bias) runs the same walk: the int16 values widened
// to int32 in the buffer (a product x * w is exact in a lane as above, x being int16), no correction, and
// windows of at most 511 taps so that the int32 sums are exact (each product is at most 2^22 in magnitude),
// and the reference's int64 output stage (i8/output_stage16.hpp).
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/detail/operands.hpp>
#include <ctnn/kernel/detail/output_clamp.hpp>
#include <ctnn/kernel/requant_arrays.hpp>
#include <ctnn/kernel/simd/i8/isa.hpp>
#include <ctnn/kernel/simd/i8/output_stage.hpp>
#include <ctnn/kernel/simd/i8/output_stage16.hpp>
#include <ctnn/kernel/simd/i8/padded_input.hpp>

namespace ctnn::kernel::simd::i8_detail {

// A lane group of int8 values widened to int32: whole-vector loads where they stay inside [x, end) of
// readable memory, a copy otherwise (lanes past `n` are read but never used).
template <class I>
[[gnu::always_inline]] inline typename I::vec widen_within(const std::int8_t* x, const std::int8_t* end, int n) {
  if (end - x >= 16) return I::widen(x);
  return widen_partial<I>(x, n);
}

// Stage: the output stage (i8/output_stage.hpp), TFLite's unless the call follows ONNX (i8/onnx_conv.hpp).
template <kernel_params P, class I, class Stage = tflite_output<P, I>>
struct depthwise_kernel {
  using geometry = window_geometry<P>;
  static constexpr std::int32_t channels = P.out.last();
  static constexpr std::int32_t out_w = geometry::out_w;
  static constexpr std::int32_t taps = geometry::kernel_h * geometry::kernel_w;
  static constexpr bool lanes_repeat_channels = geometry::win.stride_w == 1 && I::lanes % channels == 0;
  static constexpr std::int32_t channel_vectors = lanes_repeat_channels ? 1 : (channels + I::lanes - 1) / I::lanes;
  static constexpr std::int32_t row_values = out_w * channels;
  static constexpr std::int32_t items = lanes_repeat_channels ? (row_values + I::lanes - 1) / I::lanes : out_w;
  static constexpr std::ptrdiff_t item_input_step =
      lanes_repeat_channels ? I::lanes : static_cast<std::ptrdiff_t>(geometry::win.stride_w) * channels;
  static constexpr std::ptrdiff_t item_output_step = lanes_repeat_channels ? I::lanes : channels;
  static constexpr std::int32_t item_block = items < 8 ? items : 8;
  static constexpr std::size_t weight_words = static_cast<std::size_t>(taps) * channel_vectors * I::lanes;
  static constexpr bool s16 = P.type == dtype::i16;  // TFLite's 16x8 form
  using data = std::conditional_t<s16, std::int16_t, std::int8_t>;
  using bias_element = std::conditional_t<s16, std::int64_t, std::int32_t>;
  static constexpr bool widened_input = s16 || geometry::win.stride_w == 1;
  using element = std::conditional_t<widened_input, std::int32_t, std::int8_t>;

  static constexpr bool supports =
      I::available && P.kind == op_kind::depthwise_conv2d && P.depth_multiplier == 1 && P.in.rank == 4 &&
      P.out.rank == 4 && P.in[3] == channels && P.weights_offset == 0 && geometry::valid &&
      geometry::elements * static_cast<std::int64_t>(sizeof(element)) <= max_padded_bytes &&
      kernel::detail::is_output_clamp(P.fused) &&
      (!s16 || (P.out_type == dtype::i16 && P.requantization == requantization_policy::tflite && P.input_offset == 0 &&
                P.output_offset == 0 && taps <= 511));

  static constexpr bool packs(std::size_t k) { return k == 1; }
  using vec = typename I::vec;
  // A channel vector's scale serves every item of every row.
  static constexpr bool scale_reused = P.out[0] * geometry::out_h * items > 1;
  using scale_type = typename Stage::template scale<scale_reused>;

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
        std::int32_t sum = 0;  // |sum| <= 128 * taps
        for (std::int32_t t = 0; t < taps; ++t) {
          const std::int8_t w = read.i8(static_cast<std::size_t>(t * channels + c));
          words[static_cast<std::size_t>((t * channel_vectors + v) * I::lanes + lane)] = w & 0xFFFF;
          sum += w;
        }
        words[weight_words + static_cast<std::size_t>(v * I::lanes + lane)] =  // wraps as the accumulator does
            static_cast<std::int32_t>(static_cast<std::uint32_t>(P.input_offset) * static_cast<std::uint32_t>(sum));
      }
    return words;
  }

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays& rq) {
    if constexpr (s16) {
      const bias_element* bias = nullptr;
      if constexpr (P.has_bias != 0 && N > 2) bias = static_cast<const bias_element*>(operands[N > 2 ? 2 : 0]);
      compute(static_cast<const data*>(operands[0]), static_cast<const std::int32_t*>(operands[N > 1 ? 1 : 0]), bias,
              static_cast<data*>(result), rq);
    } else {
      const auto [input, words, bias, output] = kernel::detail::weighted_operands_of<P, std::int32_t>(operands, result);
      compute(input, words, bias, output, rq);
    }
  }

  // The call on its operands (weights packed), the stage's scales read from `source`.
  static void compute(const data* input, const std::int32_t* words, const bias_element* bias, data* output,
                      const typename Stage::source& source) {
    alignas(64) element padded[geometry::elements];
    copy_padded<P>(input, padded, [](data x) { return element{x}; });
    for (std::int32_t v = 0; v < channel_vectors; ++v) {
      // The channel vector's output scale, and its correction plus the bias.
      const scale_type scale = Stage::template scale_of<scale_reused>(source, [&](int lane) { return channel_of(v, lane); });
      alignas(64) std::int32_t correction[I::lanes]{};
      for (std::int32_t lane = 0; lane < I::lanes; ++lane) {
        const std::int32_t c = channel_of(v, lane);
        if (c < 0) continue;
        correction[lane] = words[weight_words + static_cast<std::size_t>(v * I::lanes + lane)];
        if constexpr (P.has_bias != 0 && !s16) correction[lane] = ctnn::detail::quant::wrapping_add(correction[lane], bias[c]);
      }
      const vec offset = I::load(correction);
      // The 16x8 output stage of the channel vector (unused by the int8 form).
      s16_stage<I> wide{};
      if constexpr (s16)
        wide = s16_stage<I>::of(source.multiplier, source.shift, [&](int lane) { return channel_of(v, lane); },
                                [&](std::int32_t c) { return P.has_bias != 0 ? bias[c] : std::int64_t{0}; });
      const int lanes = lanes_repeat_channels || channels - v * I::lanes >= I::lanes ? I::lanes : channels - v * I::lanes;
      for (std::int32_t row = 0; row < P.out[0] * geometry::out_h; ++row) {
        const element* row_input =
            padded + geometry::pixel_offset(row / geometry::out_h, row % geometry::out_h, 0) + v * I::lanes;
        data* row_output = output + static_cast<std::ptrdiff_t>(row) * row_values + v * I::lanes;
        for (std::int32_t first = 0; first < items; first += item_block) {
          const std::int32_t start = first + item_block <= items ? first : items - item_block;
          block(row_input + start * item_input_step, words + static_cast<std::size_t>(v) * I::lanes, scale, offset,
                row_output + start * item_output_step, lanes, start, wide);
        }
      }
    }
  }

 private:
  // Items [start, start + item_block) of one row and channel vector: `input` is the first item's first
  // tap, `words` the channel vector's weights of tap 0, `lanes` the lanes stored of each item but the
  // row's last.
  [[gnu::always_inline]] static inline vec load_input(const element* x) {
    if constexpr (widened_input) return I::load(x);
    else return I::widen(x);
  }

  [[gnu::always_inline]] static inline void block(const element* input, const std::int32_t* words,
                                                  const scale_type& scale, vec offset, data* out, int lanes,
                                                  std::int32_t start, const s16_stage<I>& wide) {
    vec acc[item_block];
#pragma GCC unroll 8
    for (std::int32_t b = 0; b < item_block; ++b) acc[b] = offset;
    for (std::int32_t ky = 0; ky < geometry::kernel_h; ++ky)
      for (std::int32_t kx = 0; kx < geometry::kernel_w; ++kx) {
        const element* tap_input = input + geometry::tap_offset(ky, kx);
        const vec w = I::load(words + static_cast<std::size_t>((ky * geometry::kernel_w + kx) * channel_vectors) * I::lanes);
#pragma GCC unroll 8
        for (std::int32_t b = 0; b < item_block; ++b) acc[b] = I::dot_words(acc[b], load_input(tap_input + b * item_input_step), w);
      }
#pragma GCC unroll 8
    for (std::int32_t b = 0; b < item_block; ++b) {
      int n = lanes;
      if constexpr (lanes_repeat_channels)  // the row's last item may hold fewer values
        if (start + b == items - 1 && row_values % I::lanes != 0) n = row_values % I::lanes;
      if constexpr (s16) store_s16<I, P.activation_min, P.activation_max>(acc[b], wide, out + b * item_output_step, n);
      else store_output<Stage, I>(acc[b], scale, out + b * item_output_step, n);
    }
  }
};

}  // namespace ctnn::kernel::simd::i8_detail
