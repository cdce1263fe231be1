#pragma once
// int8 and int16 MEAN and SUM (T: the element type; TFLM's one template) as TFLM 90b983c2b runs them: reference_ops::QuantizedMeanOrSum (integer version) for
// every axis set and quantization (TFLM's EvalIntegerMean has no other path: neither the H,W
// reference_integer_ops::Mean nor the raw sum-and-divide of older TFLite). The sum of the raw values minus
// zero point * count is rescaled by input scale / output scale -- for MEAN with 1/count absorbed in the
// multiplier --, plus the output zero point, clamped.
// TFLM's sums, products and zero point additions are int32 and wrap on its targets; here too
// (detail/quantization.hpp's wrapping arithmetic), never undefined: a rescaled sum near INT32_MIN/MAX
// (an input scale far above the output's), or more than 2^23 elements averaged.
#include <bit>
#include <cstdint>
#include <limits>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/reduce.hpp>

namespace ctnn::kernel::reference::int8 {

// reference_ops::QuantizedMeanOrSum's last step, shared by MEAN and SUM: per output, the int32 sum of the
// raw inputs minus zero point * count, rescaled by `scale`, plus the output zero point, clamped.
template <class Params, class T>
constexpr void rescaled_sums(Params p, const reference::detail::reduction_plan& plan, const T* input, T* output,
                             ctnn::detail::quant::quantized_multiplier scale) {
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
        constexpr std::int32_t lowest = std::numeric_limits<T>::min(), highest = std::numeric_limits<T>::max();
        output[o] = static_cast<T>(result < lowest ? lowest : (result > highest ? highest : result));
      });
}

// int8 MEAN: the multiplier absorbs 1 / count (shifted by floor(log2(count)), capped as TFLM caps it).
template <class Params, class T>
constexpr void mean(Params p, const T* input, T* output) {
  const reference::detail::reduction_plan plan = reference::detail::plan_reduction(p->in, p->mean.reduce_axes);
  const auto count = static_cast<std::int32_t>(plan.count);
  std::int32_t shift = 63 - static_cast<std::int32_t>(std::countl_zero(static_cast<std::uint64_t>(count)));
  shift = shift < 32 ? shift : 32;
  shift = shift < 31 + p->output_shift ? shift : 31 + p->output_shift;
  rescaled_sums(p, plan, input, output,
                {static_cast<std::int32_t>((static_cast<std::int64_t>(p->output_multiplier) << shift) / count),
                 p->output_shift - shift});
}

// int8 SUM (reference_ops::QuantizedMeanOrSum with compute_sum): the rescaled sums with the output multiplier.
template <class Params, class T>
constexpr void sum(Params p, const T* input, T* output) {
  rescaled_sums(p, reference::detail::plan_reduction(p->in, p->mean.reduce_axes), input, output,
                {p->output_multiplier, p->output_shift});
}

}  // namespace ctnn::kernel::reference::int8
