#pragma once
// One element of int8 and int16 ADD and MUL (ops/add.hpp, ops/mul.hpp: the walk over the broadcast), TFLite's
// integer recipes (docs/design.md §4), the same at both types:
//   add: each input plus its offset (-zero point), shifted left by left_shift (int8 20, int16 15), rescaled by
//        its own multiplier (MultiplyByQuantizedMultiplierSmallerThanOneExp), summed, rescaled by the output
//        multiplier, plus the output zero point, clamped (TFLM's general AddElementwise at both types: its
//        int16 ADD never takes TFLite's power-of-two path);
//   mul: (x1 + offset1) * (x2 + offset2) rescaled by one multiplier, plus the output zero point, clamped
//        (int16: |product| <= 2^30, no overflow).
#include <array>
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/kernel/reference/int8/requantize.hpp>

namespace ctnn::kernel::reference::int8 {
// An input of add (and sub: ops/sub.hpp): plus its offset, shifted left by left_shift, rescaled by its own multiplier.
template <class Params>
[[gnu::always_inline]] constexpr std::int32_t scaled_input(Params p, std::int32_t x, std::int32_t offset,
                                                           std::int32_t multiplier, std::int32_t shift) {
  namespace q = ctnn::detail::quant;
  return q::multiply_by_quantized_multiplier(q::wrapping_shift_left(x + offset, p->left_shift), multiplier, shift);
}
// The result of add and mul, clamped to the activation's range (within the element type).
template <class Params>
[[gnu::always_inline]] constexpr std::int32_t add_one(Params p, std::int32_t x1, std::int32_t x2) {
  const std::int32_t scaled1 = scaled_input(p, x1, p->input_offset, p->input_multiplier, p->input_shift);
  const std::int32_t scaled2 = scaled_input(p, x2, p->input2_offset, p->input2_multiplier, p->input2_shift);
  return requantize_clamped(p, ctnn::detail::quant::wrapping_add(scaled1, scaled2), p->output_multiplier,
                            p->output_shift);
}
template <class Params>
[[gnu::always_inline]] constexpr std::int32_t mul_one(Params p, std::int32_t x1, std::int32_t x2) {
  return requantize_clamped(p, (x1 + p->input_offset) * (x2 + p->input2_offset), p->output_multiplier, p->output_shift);
}
}  // namespace ctnn::kernel::reference::int8
