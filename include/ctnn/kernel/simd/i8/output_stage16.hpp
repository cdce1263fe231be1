#pragma once
// The output stage of TFLite's 16x8 convolutions (i8/gemm16.hpp, i8/depthwise.hpp) on a vector of exact int32
// sums: the int64 bias added, TFLite's int64 MultiplyByQuantizedMultiplier (the multiplier reduced to 16 bits, a
// rounding arithmetic shift right by 15 - shift, the low 32 bits kept), clamped and stored as int16; bit-exact
// with the reference's (reference/conv2d.hpp, requantize_wide).
//
// Per channel vector, once per call, s16_stage holds each lane's bias, reduced multiplier, shift and rounding
// as int64 lanes. With AVX-512 the lanes go through in two vectors of eight int64 (the product x * m from the
// 32-bit halves of x: |x| < 2^47 and m < 2^15 as TFLite assumes, and the same low 64 bits whatever x); other
// levels, and channels whose multiplier is a left shift (15 - shift <= 0: no converter writes one), take the
// scalar form lane by lane.
#include <cstdint>
#include <type_traits>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/simd/i8/isa.hpp>

namespace ctnn::kernel::simd::i8_detail {

template <class I>
struct s16_stage {
  alignas(64) std::int64_t bias[I::lanes]{};
  alignas(64) std::int64_t multiplier[I::lanes]{};  // reduced to 16 bits
  alignas(64) std::int64_t shift[I::lanes]{};       // 15 - TFLite's shift
  alignas(64) std::int64_t rounding[I::lanes]{};    // 2^(shift - 1)
  alignas(64) std::int32_t raw_multiplier[I::lanes]{}, raw_shift[I::lanes]{};
  bool right_shifts = true;  // every lane's shift is a right shift (the vector form applies)

  // Lane `lane` serves channel channel_of(lane) (-1: none) with that channel's multiplier and shift and bias (or 0).
  template <class ChannelOf, class BiasOf>
  static s16_stage of(const std::int32_t* multipliers, const std::int32_t* shifts, ChannelOf channel_of, BiasOf bias_of) {
    s16_stage s;
    for (int lane = 0; lane < I::lanes; ++lane) {
      const std::int32_t c = channel_of(lane);
      if (c < 0) continue;
      s.raw_multiplier[lane] = multipliers[c];
      s.raw_shift[lane] = shifts[c];
      s.bias[lane] = bias_of(c);
      s.multiplier[lane] = ctnn::detail::quant::reduced_multiplier(multipliers[c]);
      s.shift[lane] = 15 - shifts[c];
      if (s.shift[lane] <= 0) s.right_shifts = false;
      else s.rounding[lane] = std::int64_t{1} << (s.shift[lane] - 1);
    }
    return s;
  }
};

// Stores the first n lanes of `sums` at `out`, through the 16x8 output stage, clamped to [Min, Max].
template <class I, std::int32_t Min, std::int32_t Max>
[[gnu::always_inline]] inline void store_s16(typename I::vec sums, const s16_stage<I>& s, std::int16_t* out, int n) {
#if XSIMD_WITH_AVX512BW && defined(__AVX512VNNI__)
  if constexpr (std::is_same_v<I, avx512_vnni>) {
    if (s.right_shifts) {
      // The zero-masking forms with every lane selected (isa.hpp: g++ 12's maybe-uninitialized false positive).
      constexpr __mmask8 all = 0xFF;
      const auto half = [&](__m512i x, int first) {
        x = _mm512_maskz_add_epi64(all, x, _mm512_load_si512(s.bias + first));
        const __m512i m = _mm512_load_si512(s.multiplier + first);
        // x * m from x's halves: low (unsigned) * m + (high (signed) * m) << 32.
        const __m512i low = _mm512_maskz_mul_epu32(all, x, m);
        const __m512i high = _mm512_maskz_mul_epi32(all, _mm512_maskz_srai_epi64(all, x, 32), m);
        const __m512i product = _mm512_maskz_add_epi64(all, low, _mm512_maskz_slli_epi64(all, high, 32));
        const __m512i rounded = _mm512_maskz_add_epi64(all, product, _mm512_load_si512(s.rounding + first));
        // The low 32 bits of the arithmetic shift.
        return _mm512_maskz_cvtepi64_epi32(all, _mm512_maskz_srav_epi64(all, rounded, _mm512_load_si512(s.shift + first)));
      };
      const __m256i low = half(_mm512_maskz_cvtepi32_epi64(all, _mm512_maskz_extracti64x4_epi64(all, sums, 0)), 0);
      const __m256i high = half(_mm512_maskz_cvtepi32_epi64(all, _mm512_maskz_extracti64x4_epi64(all, sums, 1)), 8);
      __m512i v = _mm512_maskz_inserti64x4(all, _mm512_maskz_inserti64x4(all, _mm512_setzero_si512(), low, 0), high, 1);
      v = _mm512_maskz_max_epi32(0xFFFF, v, _mm512_set1_epi32(Min));
      v = _mm512_maskz_min_epi32(0xFFFF, v, _mm512_set1_epi32(Max));
      _mm512_mask_cvtepi32_storeu_epi16(out, static_cast<__mmask16>((1u << n) - 1u), v);
      return;
    }
  }
#endif
  alignas(64) std::int32_t lanes[I::lanes];
  I::store(lanes, sums);
  for (int lane = 0; lane < n; ++lane) {
    const std::int64_t total = ctnn::detail::quant::wrapping_add_wide(lanes[lane], s.bias[lane]);
    std::int32_t value = ctnn::detail::quant::multiply_by_quantized_multiplier_int64(total, s.raw_multiplier[lane], s.raw_shift[lane]);
    value = value < Min ? Min : value;
    out[lane] = static_cast<std::int16_t>(value > Max ? Max : value);
  }
}

}  // namespace ctnn::kernel::simd::i8_detail
