#pragma once
// int8 ADD and MUL with numpy broadcasting, TFLite's integer recipes (DESIGN §4):
//   add: each input plus its offset (-zero point), shifted left by left_shift (20), rescaled by its own
//        multiplier (MultiplyByQuantizedMultiplierSmallerThanOneExp), summed, rescaled by the output
//        multiplier, plus the output zero point, clamped;
//   mul: (x1 + offset1) * (x2 + offset2) rescaled by one multiplier, plus the output zero point, clamped.
#include <array>
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/kernel/reference/int8/requantize.hpp>

namespace ctnn::kernel::reference::int8 {

template <kernel_params P>
[[gnu::always_inline]] constexpr std::int8_t add_one(std::int32_t x1, std::int32_t x2) {
  namespace q = ctnn::detail::quant;
  const std::int32_t shifted1 = q::wrapping_shift_left(x1 + P.input_offset, P.left_shift);
  const std::int32_t shifted2 = q::wrapping_shift_left(x2 + P.input2_offset, P.left_shift);
  const std::int32_t scaled1 = q::multiply_by_quantized_multiplier(shifted1, P.input_multiplier, P.input_shift);
  const std::int32_t scaled2 = q::multiply_by_quantized_multiplier(shifted2, P.input2_multiplier, P.input2_shift);
  return requantize_output<P>(q::wrapping_add(scaled1, scaled2), P.output_multiplier, P.output_shift);
}

template <kernel_params P>
[[gnu::always_inline]] constexpr std::int8_t mul_one(std::int32_t x1, std::int32_t x2) {
  return requantize_output<P>((x1 + P.input_offset) * (x2 + P.input2_offset), P.output_multiplier, P.output_shift);
}

template <kernel_params P>
constexpr void binary(const std::int8_t* a, const std::int8_t* b, std::int8_t* output) {
  static_assert(fused_activation_is_a_clamp<P>(), "ctnn: an int8 add/mul can only fuse relu or relu6.");
  constexpr auto combine = [](std::int32_t x, std::int32_t y) {
    if constexpr (P.kind == op_kind::mul) return mul_one<P>(x, y);
    else return add_one<P>(x, y);
  };
  reference::detail::for_each_broadcast<P>(
      [&](std::int64_t i, std::int64_t ia, std::int64_t ib) { output[i] = combine(a[ia], b[ib]); });
}

}  // namespace ctnn::kernel::reference::int8
