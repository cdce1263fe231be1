#pragma once
// int8 MEAN, TFLM's three paths:
//   * 4-D input averaged over H and W with keep_dims (the common case; reference_integer_ops::Mean):
//     sum of (x - input zero point), rescaled by input_scale / output_scale (MultiplyByQuantizedMultiplier),
//     divided by the count rounding half away from zero, plus the output zero point, clamped;
//   * input and output with the same scale and zero point (mean.same_quantization, set by compute_requantization): the int32 sum of
//     the raw values divided by the count, truncating (reference_ops::Mean);
//   * otherwise (reference_ops::QuantizedMeanOrSum, integer version): the multiplier absorbs 1/count
//     (shifted by floor(log2(count)), capped), then sum - zero point * count is rescaled, plus the output
//     zero point, clamped.
// SUM is the last path without the 1 / count (sum below).
// TFLM's sums, products and zero point additions are int32 and wrap on its targets; here too
// (detail/quantization.hpp's wrapping arithmetic), never undefined: a rescaled sum near INT32_MIN/MAX
// (an input scale far above the output's), or more than 2^23 elements averaged.
#include <bit>
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/int8/pool.hpp>
#include <ctnn/kernel/reference/reduce.hpp>

namespace ctnn::kernel::reference::int8 {

// reference_ops::QuantizedMeanOrSum's last step, shared by MEAN and SUM: per output, the int32 sum of the
// raw inputs minus zero point * count, rescaled by `scale`, plus the output zero point, clamped.
template <class Params>
constexpr void rescaled_sums(Params p, const reference::detail::reduction_plan& plan, const std::int8_t* input,
                             std::int8_t* output, ctnn::detail::quant::quantized_multiplier scale) {
  namespace q = ctnn::detail::quant;
  const auto count = static_cast<std::int32_t>(plan.count);
  const auto zero_point_sum =  // input_offset * count, wrapping
      static_cast<std::int32_t>(static_cast<std::uint32_t>(p->input_offset) * static_cast<std::uint32_t>(count));
  std::int32_t sum = 0;
  reference::detail::for_each_reduction(
      plan, [&] { sum = 0; }, [&](std::int64_t at) { sum = q::wrapping_add(sum, input[at]); },
      [&](std::int64_t o) {
        const std::int32_t shifted = q::wrapping_add(sum, zero_point_sum);  // sum - zero point * count
        const std::int32_t rescaled = q::multiply_by_quantized_multiplier(shifted, scale.multiplier, scale.shift);
        const std::int32_t result = q::wrapping_add(rescaled, p->output_offset);
        output[o] = static_cast<std::int8_t>(result < -128 ? -128 : (result > 127 ? 127 : result));
      });
}

template <class Params>
constexpr void mean(Params p, const std::int8_t* input, std::int8_t* output) {
  namespace q = ctnn::detail::quant;
  namespace ref = reference::detail;
  const ref::reduction_plan plan = ref::plan_reduction(p->in, p->mean.reduce_axes);
  const auto count = static_cast<std::int32_t>(plan.count);
  const bool height_and_width = p->in.rank == 4 && p->out.rank == 4 && p->mean.reduce_axes == 0b0110u;
  std::int32_t sum = 0;
  const auto clamp = [](std::int32_t v) { return static_cast<std::int8_t>(v < -128 ? -128 : (v > 127 ? 127 : v)); };
  const auto start = [&] { sum = 0; };
  const auto add_raw = [&](std::int64_t at) { sum = q::wrapping_add(sum, input[at]); };
  if (height_and_width) {
    const auto add_offset = [&](std::int64_t at) { sum = q::wrapping_add(sum, input[at] + p->input_offset); };
    ref::for_each_reduction(plan, start, add_offset, [&](std::int64_t o) {
      const std::int32_t scaled = q::multiply_by_quantized_multiplier(sum, p->output_multiplier, p->output_shift);
      output[o] = clamp(q::wrapping_add(rounded_average(scaled, count), p->output_offset));
    });
  } else if (p->mean.same_quantization != 0) {
    ref::for_each_reduction(plan, start, add_raw, [&](std::int64_t o) {
      output[o] = static_cast<std::int8_t>(sum / count);
    });
  } else {
    // The multiplier absorbs 1 / count.
    std::int32_t shift = 63 - static_cast<std::int32_t>(std::countl_zero(static_cast<std::uint64_t>(count)));
    shift = shift < 32 ? shift : 32;
    shift = shift < 31 + p->output_shift ? shift : 31 + p->output_shift;
    rescaled_sums(p, plan, input, output,
                  {static_cast<std::int32_t>((static_cast<std::int64_t>(p->output_multiplier) << shift) / count),
                   p->output_shift - shift});
  }
}

// int8 SUM (reference_ops::QuantizedMeanOrSum with compute_sum): the rescaled sums with the output multiplier.
template <class Params>
constexpr void sum(Params p, const std::int8_t* input, std::int8_t* output) {
  rescaled_sums(p, reference::detail::plan_reduction(p->in, p->mean.reduce_axes), input, output,
                {p->output_multiplier, p->output_shift});
}

}  // namespace ctnn::kernel::reference::int8
