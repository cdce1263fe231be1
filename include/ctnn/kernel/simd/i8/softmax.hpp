#pragma once
// int8 softmax over the last axis with its exponentials looked up, bit-exact with reference::int8::softmax
// (TFLite's recipe). Every difference d = x - max lies in [-255, 0], so exp(d) in Q0 and its Q12 term of
// the sum are computed at compile time for all 256 values by the reference's own fixed-point arithmetic;
// a row then costs a max, a sum of table entries, one reciprocal and a multiply per output, instead of
// two fixed-point exponentials per element. Differences below diff_min hold 0: they add nothing to the
// sum and their output, (0 * scale) / 2^exponent - 128, is the -128 the reference gives them.
#include <cstddef>
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/reference/int8/fixed_point.hpp>
#include <ctnn/kernel/requant_arrays.hpp>
#include <ctnn/kernel/simd/i8/elementwise.hpp>

namespace ctnn::kernel::simd::i8_detail {

template <kernel_params P, class I>
struct softmax_kernel : kernel::detail::reads_constants_as_stored {
  // TFLite's output quantization (scale 1/256, zero point -128), as the reference requires.
  static constexpr bool supports = I::available && P.kind == op_kind::softmax && P.in == P.out && P.output_offset == -128;

  // Indexed by max - x.
  struct exponentials {
    std::int32_t q0[256];
    std::int32_t q12[256];
  };
  static constexpr exponentials table = [] {
    namespace q = ctnn::detail::quant;
    namespace fp = reference::int8::fixed_point;
    exponentials t{};
    const std::int32_t diff_min = -q::input_radius(5, P.input_shift);  // 5: the integer bits of the rescaled d
    for (std::int32_t below = 0; below < 256; ++below) {
      if (-below < diff_min) continue;
      const std::int32_t scaled = q::multiply_by_quantized_multiplier_greater_than_one(-below, P.input_multiplier, P.input_shift);
      t.q0[below] = fp::exp_on_negative_values<5>(scaled);
      t.q12[below] = fp::rescale<0, 12>(t.q0[below]);
    }
    return t;
  }();

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    namespace q = ctnn::detail::quant;
    namespace fp = reference::int8::fixed_point;
    constexpr std::int32_t depth = P.in.last();
    constexpr std::int64_t rows = depth == 0 ? 0 : P.in.elements() / depth;  // an empty last axis: no element
    const auto* input = static_cast<const std::int8_t*>(operands[0]);
    auto* output = static_cast<std::int8_t*>(result);
    for (std::int64_t r = 0; r < rows; ++r) {
      const std::int8_t* x = input + r * depth;
      std::int8_t* y = output + r * depth;
      std::int32_t largest = -128;
      for (std::int32_t c = 0; c < depth; ++c) largest = x[c] > largest ? x[c] : largest;
      std::int32_t sum_of_exps = 0;  // Q12, wrapping as the reference's
      for (std::int32_t c = 0; c < depth; ++c) sum_of_exps = q::wrapping_add(sum_of_exps, table.q12[largest - x[c]]);
      const fp::reciprocal inverse = fp::get_reciprocal<12>(sum_of_exps);
      const std::int32_t exponent = inverse.bits_over_unit + 31 - 8;
      for (std::int32_t c = 0; c < depth; ++c) {
        const std::int32_t v = q::rounding_divide_by_pot(fp::mul(inverse.scale, table.q0[largest - x[c]]), exponent) - 128;
        y[c] = static_cast<std::int8_t>(v < -128 ? -128 : (v > 127 ? 127 : v));
      }
    }
  }
};

}  // namespace ctnn::kernel::simd::i8_detail
