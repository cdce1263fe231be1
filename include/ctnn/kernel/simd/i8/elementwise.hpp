#pragma once
// int8 ADD (equal shapes) and average pooling, vectorised with int32 lanes, bit-exact with
// ops::add (reference::int8::add_one) and reference::int8::pool2d / global_avg_pool.
//   add: TFLite's two-input rescale, lane for lane: (x + offset) << left_shift, each input's
//        MultiplyByQuantizedMultiplier, a wrapping sum, the output stage (with AVX512-VBMI the input
//        rescales are looked up in tables computed at compile time).
//   avg pool: int32 sums over the in-bounds taps, then the reference's rounded division
//        (sum +/- count/2) / count (truncating) in float: |sum +/- count/2| <= 128.5 * count < 2^24 is
//        exact, the quotient is correctly rounded, and its error (<= 129 * 2^-24) is below the distance
//        1/count from a non-integer quotient to the next integer, so truncation gives the same integer
//        (count < 2^16, checked in `supports`).
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/detail/operands.hpp>
#include <ctnn/kernel/detail/output_clamp.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/requant_arrays.hpp>
#include <ctnn/kernel/simd/i8/depthwise.hpp>
#include <ctnn/kernel/simd/i8/isa.hpp>
#include <ctnn/kernel/simd/i8/output_stage.hpp>
#include <ctnn/kernel/simd/i8/requantize.hpp>

namespace ctnn::kernel::simd::i8_detail {

// One input's rescale in ADD, MultiplyByQuantizedMultiplier((x + offset) << left_shift, multiplier, shift).
// Its SaturatingRoundingDoublingHighMul, (a * 2^L * m + 2^30) >> 31 with a = x + offset (|a| <= 255),
// equals (a * m + 2^(30-L)) >> (31-L); with m = mh * 2^16 + ml and 15 <= L <= 22 that is
// ((a * mh) << (L-15)) + ((a * ml + 2^(30-L)) >> (31-L)), every term within int32 (|a * mh| < 2^23,
// |a * ml| < 2^24): two 32-bit multiplies instead of the even/odd 64-bit products.
template <class I, std::int32_t Multiplier, std::int32_t LeftShift>
struct input_rescale {
  static constexpr bool split = LeftShift >= 15 && LeftShift <= 22;
  typename I::vec high = I::set1(Multiplier >> 16), low = I::set1(Multiplier & 0xFFFF);
  typename I::vec round = I::set1(split ? std::int32_t{1} << (30 - LeftShift) : 0);
  typename I::vec left = I::set1(LeftShift);

  [[gnu::always_inline]] typename I::vec operator()(typename I::vec a, const output_scale<I>& scale) const {
    if constexpr (split) {
      const auto high_part = I::shift_left(I::mullo(a, high), I::set1(LeftShift - 15));
      const auto low_part = I::shift_right(I::add(I::mullo(a, low), round), I::set1(31 - LeftShift));
      return rounding_divide_by_pot<I>(I::add(high_part, low_part), scale);
    } else {
      return multiply_by_quantized_multiplier<I>(I::shift_left(a, left), scale);
    }
  }
};

#if XSIMD_WITH_AVX512BW && defined(__AVX512VNNI__) && defined(__AVX512VBMI__)
// With AVX512-VBMI (vpermt2b: 64 byte lookups in a 128-byte table per instruction), ADD's input rescale is a
// table over the input's 256 values, computed at compile time by the reference's own arithmetic (bit-exact
// by construction); its int32 values are kept as four byte planes indexed by x + 128.

struct rescale_table {
  std::uint8_t planes[4][256];
};

constexpr rescale_table make_rescale_table(std::int32_t offset, std::int32_t multiplier, std::int32_t shift,
                                           std::int32_t left_shift) {
  namespace q = ctnn::detail::quant;
  rescale_table table{};
  for (std::int32_t index = 0; index < 256; ++index) {
    const auto value = static_cast<std::uint32_t>(
        q::multiply_by_quantized_multiplier(q::wrapping_shift_left(index - 128 + offset, left_shift), multiplier, shift));
    for (int plane = 0; plane < 4; ++plane) table.planes[plane][index] = static_cast<std::uint8_t>(value >> (8 * plane));
  }
  return table;
}

// The table's values for 64 inputs, as four int32 vectors in the packs' order (avx512_vnni::narrow_four):
// 128-bit quarter q of vector k holds inputs 16 q + 4 k .. 16 q + 4 k + 3.
[[gnu::always_inline]] inline void look_up(const rescale_table& table, __m512i inputs, __m512i (&values)[4]) {
  const __m512i index = _mm512_xor_si512(inputs, _mm512_set1_epi8(-128));  // x + 128
  const __mmask64 upper = _mm512_movepi8_mask(index);                       // index >= 128
  __m512i bytes[4];
  for (int plane = 0; plane < 4; ++plane) {
    const std::uint8_t* p = table.planes[plane];
    const __m512i low = _mm512_permutex2var_epi8(_mm512_loadu_si512(p), index, _mm512_loadu_si512(p + 64));
    const __m512i high = _mm512_permutex2var_epi8(_mm512_loadu_si512(p + 128), index, _mm512_loadu_si512(p + 192));
    bytes[plane] = _mm512_mask_blend_epi8(upper, low, high);
  }
  const __m512i low01 = _mm512_unpacklo_epi8(bytes[0], bytes[1]), high01 = _mm512_unpackhi_epi8(bytes[0], bytes[1]);
  const __m512i low23 = _mm512_unpacklo_epi8(bytes[2], bytes[3]), high23 = _mm512_unpackhi_epi8(bytes[2], bytes[3]);
  values[0] = _mm512_unpacklo_epi16(low01, low23);
  values[1] = _mm512_unpackhi_epi16(low01, low23);
  values[2] = _mm512_unpacklo_epi16(high01, high23);
  values[3] = _mm512_unpackhi_epi16(high01, high23);
}
#endif

template <kernel_params P, class I>
struct add_kernel : kernel::detail::reads_constants_as_stored {
  static constexpr std::int64_t elements = P.out.elements();
  // The input scales are below one (shift <= 0), as TFLite's ADD makes them; others keep the reference.
  static constexpr bool supports = I::available && P.kind == op_kind::add && P.in == P.out && P.in2 == P.out &&
                                   P.input_shift <= 0 && P.input2_shift <= 0 &&
                                   kernel::detail::is_output_clamp(P.fused);

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    const auto [a, b, out] = kernel::detail::binary_operands_of(operands, result);
    const auto scale_a = output_scale<I>::uniform(P.input_multiplier, P.input_shift);
    const auto scale_b = output_scale<I>::uniform(P.input2_multiplier, P.input2_shift);
    const auto scale_out = scale_for<I, (elements > I::lanes)>::uniform(P.output_multiplier, P.output_shift);
    const input_rescale<I, P.input_multiplier, P.left_shift> rescale_a;
    const input_rescale<I, P.input2_multiplier, P.left_shift> rescale_b;
    const auto offset_a = I::set1(P.input_offset), offset_b = I::set1(P.input2_offset);
    const auto add_lanes = [&](typename I::vec xa, typename I::vec xb, std::int8_t* to, int n) {
      const auto sum = I::add(rescale_a(I::add(xa, offset_a), scale_a), rescale_b(I::add(xb, offset_b), scale_b));
      store_output<tflite_output<P, I>, I>(sum, scale_out, to, n);
    };
    std::int64_t i = 0;
#if XSIMD_WITH_AVX512BW && defined(__AVX512VNNI__) && defined(__AVX512VBMI__)
    if constexpr (std::is_same_v<I, avx512_vnni>) {  // 64 elements at a time, then the others below
      static constexpr rescale_table table_a = make_rescale_table(P.input_offset, P.input_multiplier, P.input_shift, P.left_shift);
      static constexpr rescale_table table_b =
          make_rescale_table(P.input2_offset, P.input2_multiplier, P.input2_shift, P.left_shift);
      const auto zero_point = I::set1(P.output_offset);
      for (; i + 64 <= elements; i += 64) {
        __m512i values_a[4], values_b[4];
        look_up(table_a, _mm512_loadu_si512(a + i), values_a);
        look_up(table_b, _mm512_loadu_si512(b + i), values_b);
        __m512i sums[4];  // rescaled, plus the output zero point (wrapping, as tflite_output::apply)
        for (int k = 0; k < 4; ++k)
          sums[k] = I::add(multiply_by_quantized_multiplier<I>(I::add(values_a[k], values_b[k]), scale_out), zero_point);
        _mm512_storeu_si512(out + i, I::narrow_four(sums[0], sums[1], sums[2], sums[3], static_cast<std::int8_t>(P.activation_min),
                                                    static_cast<std::int8_t>(P.activation_max)));
      }
    }
#endif
    for (; i + I::lanes <= elements; i += I::lanes) add_lanes(I::widen(a + i), I::widen(b + i), out + i, I::lanes);
    if (i < elements) {
      const int n = static_cast<int>(elements - i);
      // n < I::lanes <= 16 values are left: a whole 16-byte load would pass the end (widen_within's test,
      // which g++ -O2 cannot prove false and flags with -Warray-bounds).
      add_lanes(widen_partial<I>(a + i, n), widen_partial<I>(b + i, n), out + i, n);
    }
  }
};

template <kernel_params P, class I>
struct avg_pool_kernel : kernel::detail::reads_constants_as_stored {
  static constexpr bool global = P.kind == op_kind::global_avg_pool;
  static constexpr std::int32_t in_h = P.in[1], in_w = P.in[2], channels = P.in[3];
  static constexpr std::int32_t out_h = global ? 1 : P.out[1], out_w = global ? 1 : P.out[2];
  static constexpr window win = global ? window{in_h, in_w, 1, 1, 1, 1, padding::valid, 0, 0, 0, 0} : P.win;
  static constexpr std::int32_t pixels = P.in[0] * out_h * out_w;
  static constexpr bool supports = I::available && (P.kind == op_kind::avg_pool || global) && P.in.rank == 4 &&
                                   win.kernel_h * win.kernel_w < 65536;

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    const auto* input = static_cast<const std::int8_t*>(operands[0]);
    const std::int8_t* input_end = input + P.in.elements();
    auto* output = static_cast<std::int8_t*>(result);
    for (std::int32_t pixel = 0; pixel < pixels; ++pixel) {
      const std::int32_t x = pixel % out_w, y = (pixel / out_w) % out_h, b = pixel / (out_w * out_h);
      const std::int32_t y0 = y * win.stride_h - win.pad_top, x0 = x * win.stride_w - win.pad_left;
      for (std::int32_t c = 0; c < channels; c += I::lanes) {
        const int n = channels - c < I::lanes ? channels - c : I::lanes;
        auto sum = I::zero();
        std::int32_t count = 0;
        for (std::int32_t ky = 0; ky < win.kernel_h; ++ky) {
          const std::int32_t iy = y0 + ky * win.dilation_h;
          if (iy < 0 || iy >= in_h) continue;
          for (std::int32_t kx = 0; kx < win.kernel_w; ++kx) {
            const std::int32_t ix = x0 + kx * win.dilation_w;
            if (ix < 0 || ix >= in_w) continue;
            const std::int8_t* at = input + (static_cast<std::ptrdiff_t>(b * in_h + iy) * in_w + ix) * channels + c;
            sum = I::add(sum, widen_within<I>(at, input_end, n));
            ++count;
          }
        }
        // (sum + count/2) where sum > 0, (sum - count/2) elsewhere, then the truncating division.
        const std::int32_t half = count / 2;
        const auto adjusted = I::add(sum, I::add(I::bit_and(I::cmpgt(sum, I::zero()), I::set1(2 * half)), I::set1(-half)));
        auto v = I::divide(adjusted, static_cast<float>(count));
        v = I::min(I::max(v, I::set1(P.activation_min)), I::set1(P.activation_max));
        I::store_i8(output + static_cast<std::ptrdiff_t>(pixel) * channels + c, v, n);
      }
    }
  }
};

}  // namespace ctnn::kernel::simd::i8_detail
