#pragma once
// int8 MEAN, TFLM's three paths:
//   * 4-D input averaged over H and W with keep_dims (the common case; reference_integer_ops::Mean):
//     sum of (x - input zero point), rescaled by input_scale / output_scale (MultiplyByQuantizedMultiplier),
//     divided by the count rounding half away from zero, plus the output zero point, clamped;
//   * input and output with the same scale and zero point (lower_te sets left_shift = 1): the int32 sum of
//     the raw values divided by the count, truncating (reference_ops::Mean);
//   * otherwise (reference_ops::QuantizedMeanOrSum, integer version): the multiplier absorbs 1/count
//     (shifted by floor(log2(count)), capped), then sum - zero point * count is rescaled, plus the output
//     zero point, clamped.
#include <bit>
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/int8/pool.hpp>
#include <ctnn/kernel/reference/reduce.hpp>

namespace ctnn::kernel::reference::int8 {

template <kernel_params P>
constexpr void mean(const std::int8_t* input, std::int8_t* output) {
  namespace q = ctnn::detail::quant;
  constexpr auto plan = reference::detail::plan_reduction(P.in, static_cast<std::uint32_t>(P.axis));
  constexpr auto count = static_cast<std::int32_t>(plan.count);
  constexpr bool height_and_width = P.in.rank == 4 && P.out.rank == 4 && P.axis == 0b0110;
  std::int32_t sum = 0;
  const auto clamp = [](std::int32_t v) { return static_cast<std::int8_t>(v < -128 ? -128 : (v > 127 ? 127 : v)); };
  if constexpr (height_and_width) {
    reference::detail::for_each_reduction<P>([&] { sum = 0; }, [&](std::int64_t at) { sum += input[at] + P.input_offset; },
                                             [&](std::int64_t o) {
                                               const std::int32_t scaled = q::multiply_by_quantized_multiplier(
                                                   sum, P.output_multiplier, P.output_shift);
                                               output[o] = clamp(rounded_average(scaled, count) + P.output_offset);
                                             });
  } else if constexpr (P.left_shift == 1) {
    reference::detail::for_each_reduction<P>([&] { sum = 0; }, [&](std::int64_t at) { sum += input[at]; },
                                             [&](std::int64_t o) { output[o] = static_cast<std::int8_t>(sum / count); });
  } else {
    constexpr q::quantized_multiplier per_element = [] {
      std::int32_t shift = 63 - static_cast<std::int32_t>(std::countl_zero(static_cast<std::uint64_t>(count)));
      shift = shift < 32 ? shift : 32;
      shift = shift < 31 + P.output_shift ? shift : 31 + P.output_shift;
      return q::quantized_multiplier{
          static_cast<std::int32_t>((static_cast<std::int64_t>(P.output_multiplier) << shift) / count), P.output_shift - shift};
    }();
    reference::detail::for_each_reduction<P>(
        [&] { sum = 0; }, [&](std::int64_t at) { sum += input[at]; },
        [&](std::int64_t o) {
          const std::int32_t shifted = sum + P.input_offset * count;  // sum - zero point * count
          output[o] = clamp(q::multiply_by_quantized_multiplier(shifted, per_element.multiplier, per_element.shift) +
                            P.output_offset);
        });
  }
}

}  // namespace ctnn::kernel::reference::int8
