#pragma once
// int8 ADD (equal shapes) and average pooling, vectorised with int32 lanes, bit-exact with
// reference::int8::binary and pool2d / global_avg_pool.
//   add: TFLite's two-input rescale, lane for lane: (x + offset) << left_shift, each input's
//        MultiplyByQuantizedMultiplier, a wrapping sum, the output stage.
//   avg pool: int32 sums over the in-bounds taps, then the reference's rounded division
//        (sum +/- count/2) / count (truncating) in float: |sum +/- count/2| <= 128.5 * count < 2^24 is
//        exact, the quotient is correctly rounded, and its error (<= 129 * 2^-24) is below the distance
//        1/count from a non-integer quotient to the next integer, so truncation gives the same integer
//        (count < 2^16, checked in `supports`).
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/requant_arrays.hpp>
#include <ctnn/kernel/simd/i8/depthwise.hpp>
#include <ctnn/kernel/simd/i8/isa.hpp>
#include <ctnn/kernel/simd/i8/requantize.hpp>

namespace ctnn::kernel::simd::i8_detail {

// Constant operands are never re-laid out by these kernels.
struct packs_nothing {
  static constexpr bool packs(std::size_t) { return false; }
  template <std::size_t K, class Reader>
  static constexpr int pack(const Reader&) { return 0; }
};

template <kernel_params P, class I>
struct add_kernel : packs_nothing {
  static constexpr std::int64_t elements = P.out.elements();
  static constexpr bool supports = I::available && P.kind == op_kind::add && P.in == P.out && P.in2 == P.out &&
                                   (P.fused == activation::none || P.fused == activation::relu || P.fused == activation::relu6);

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    const auto* a = static_cast<const std::int8_t*>(operands[0]);
    const auto* b = static_cast<const std::int8_t*>(operands[N > 1 ? 1 : 0]);
    auto* out = static_cast<std::int8_t*>(result);
    const auto scale_a = output_scale<I>::uniform(P.input_multiplier, P.input_shift);
    const auto scale_b = output_scale<I>::uniform(P.input2_multiplier, P.input2_shift);
    const auto scale_out = output_scale<I>::uniform(P.output_multiplier, P.output_shift);
    const auto left = I::set1(P.left_shift);
    const auto offset_a = I::set1(P.input_offset), offset_b = I::set1(P.input2_offset);
    for (std::int64_t i = 0; i < elements; i += I::lanes) {
      const int n = elements - i < I::lanes ? static_cast<int>(elements - i) : I::lanes;
      const auto xa = I::shift_left(I::add(widen_within<I>(a + i, a + elements, n), offset_a), left);
      const auto xb = I::shift_left(I::add(widen_within<I>(b + i, b + elements, n), offset_b), left);
      const auto sum = I::add(multiply_by_quantized_multiplier<I>(xa, scale_a), multiply_by_quantized_multiplier<I>(xb, scale_b));
      requantize_store<P, I>(sum, scale_out, out + i, n);
    }
  }
};

template <kernel_params P, class I>
struct avg_pool_kernel : packs_nothing {
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
