#pragma once
// The output stages of the vectorised int8 kernels (i8/gemm.hpp, i8/depthwise.hpp): what turns a vector of
// int32 accumulators into int8 outputs. A kernel takes its stage as a template argument; its accumulation
// is the same for every stage (docs/design.md §4).
//   tflite_output<P, I>: TFLite's Q31 multiplier and double rounding (i8/requantize.hpp), the output zero
//     point, the fused activation's clamp; the scales are the call's requant_arrays (per channel) or P's.
//   onnx_output<P, I>: ONNX's, as kernel::reference::onnx_quant::requantize_value (onnx_quant/rounding.hpp):
//     saturate(round_half_even(float(acc) * multiplier) + zero_point), the multiplier a float per tensor
//     (P.onnx.multiplier_bits) or per channel (an array the caller fills with output_multiplier, the
//     reference's float operations). Int8 results, or uint8 ones less 128 (the caller flips their top bit:
//     i8/onnx_conv.hpp). Per vector: convert, multiply, round half to even (I::multiply_round, i8/isa.hpp:
//     intrinsics, as xsimd 8.1's AVX-512 conversions trip g++ 12's -Wuninitialized), add, clamp.
// A stage has:
//   source                                  what a call's scales are read from
//   scale<Reused>                           one channel vector's scale, prepared once per call (Reused: it
//                                           serves many vectors; TFLite's then has a cheaper form)
//   scale_of<Reused>(source, channel_of)    the scale of the lanes' channels (channel_of(lane), -1: none)
//   apply(acc, scale)                       int32 results with the zero point added, to clamp to [lo, hi]
//   lo, hi                                  the clamp (within int8)
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/requant_arrays.hpp>
#include <ctnn/kernel/simd/i8/isa.hpp>
#include <ctnn/kernel/simd/i8/requantize.hpp>

#include <bit>

namespace ctnn::kernel::simd::i8_detail {

template <kernel_params P, class I>
struct tflite_output {
  using vec = typename I::vec;
  using source = requant_arrays;
  template <bool Reused>
  using scale = scale_for<I, Reused>;
  static constexpr std::int32_t lo = P.activation_min, hi = P.activation_max;

  template <bool Reused, class ChannelOf>
  [[gnu::always_inline]] static inline scale<Reused> scale_of(const source& rq, ChannelOf channel_of) {
    if constexpr (P.per_channel != 0) {
      alignas(64) std::int32_t multiplier[I::lanes]{}, shift[I::lanes]{};
      for (int lane = 0; lane < I::lanes; ++lane) {
        const std::int32_t c = channel_of(lane);
        if (c >= 0) multiplier[lane] = rq.multiplier[c], shift[lane] = rq.shift[c];
      }
      return scale<Reused>::of(I::load(multiplier), I::load(shift));
    } else {
      return scale<Reused>::uniform(P.output_multiplier, P.output_shift);
    }
  }
  // Plus the output zero point in int32 lanes (wrapping, as the reference's wrapping_add).
  template <class Scale>
  [[gnu::always_inline]] static inline vec apply(vec acc, const Scale& s) {
    return I::add(multiply_by_quantized_multiplier<I>(acc, s), I::set1(P.output_offset));
  }
};

template <kernel_params P, class I>
struct onnx_output {  // I: an available level
  using vec = typename I::vec;
  static constexpr bool per_channel = P.onnx.scale_count > 1;
  static constexpr bool unsigned_result = P.out_type == dtype::u8;
  // uint8 results come out less 128, as int8 (the caller flips the top bit).
  static constexpr std::int32_t zero_point = P.output_offset - (unsigned_result ? 128 : 0);
  static constexpr std::int32_t lo = -128, hi = 127;
  // Products beyond it saturate whatever the zero point (|zero point| <= 255), and convert to int32 exactly.
  static constexpr float limit = 1073741824.0f;  // 2^30

  struct source {
    const float* multiplier = nullptr;  // per channel: output_multiplier of each channel's weight scale
  };
  struct channel_scale {
    typename I::floats multiplier;
  };
  template <bool>
  using scale = channel_scale;

  template <bool Reused, class ChannelOf>
  [[gnu::always_inline]] static inline channel_scale scale_of(const source& s, ChannelOf channel_of) {
    if constexpr (per_channel) {
      alignas(64) float multiplier[I::lanes]{};
      for (int lane = 0; lane < I::lanes; ++lane) {
        const std::int32_t c = channel_of(lane);
        if (c >= 0) multiplier[lane] = s.multiplier[c];
      }
      return {I::load_floats(multiplier)};
    } else {
      return {I::set1_floats(std::bit_cast<float>(P.onnx.multiplier_bits))};
    }
  }
  // round_half_even(float(acc) * m) + zero point, for the caller to clamp to [lo, hi]; a
  // NaN product (a non-finite multiplier) gives the zero point, as the reference's saturate.
  [[gnu::always_inline]] static inline vec apply(vec acc, const channel_scale& s) {
    return I::add(I::multiply_round(acc, s.multiplier, limit), I::set1(zero_point));
  }
};

// A stage's results of one vector, clamped, the first n lanes stored.
template <class Stage, class I, class Scale>
[[gnu::always_inline]] inline void store_output(typename I::vec acc, const Scale& s, std::int8_t* out, int n) {
  auto v = Stage::apply(acc, s);
  v = I::min(I::max(v, I::set1(Stage::lo)), I::set1(Stage::hi));
  I::store_i8(out, v, n);
}

// store_output on four vectors whose outputs are consecutive (4 * lanes bytes at out): the int32 results
// narrow with saturation to int16, then to int8, and are clamped as bytes. Equal to the clamp of the int32
// values: the bounds lie within int8, and a value saturated at either step stays beyond them.
template <class Stage, class I, class Scale>
[[gnu::always_inline]] inline void store_output_four(const typename I::vec (&acc)[4], const Scale* const (&s)[4],
                                                     std::int8_t* out) {
  I::store_i8_four(out, Stage::apply(acc[0], *s[0]), Stage::apply(acc[1], *s[1]), Stage::apply(acc[2], *s[2]),
                   Stage::apply(acc[3], *s[3]), static_cast<std::int8_t>(Stage::lo),
                   static_cast<std::int8_t>(Stage::hi));
}

}  // namespace ctnn::kernel::simd::i8_detail
