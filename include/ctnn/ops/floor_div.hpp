#pragma once
// floor_div: floor(a / b), numpy broadcasting (TFLite FLOOR_DIV; float32, as TFLM). The descriptor of
// op_kind::floor_div (ops/descriptor.hpp); kernel/reference/logic.hpp has the arithmetic.
#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/kernel/reference/logic.hpp>
#include <ctnn/ops/binary.hpp>

namespace ctnn::ops {

// TFLM fails at a zero divisor (its Eval checks every one); this kernel gives IEEE's floor(+-inf) or NaN.
struct floor_div : binary_elementwise {
  static constexpr op_kind kind = op_kind::floor_div;
  // Integers known at import (TFLite's int32 shape arithmetic): the quotient rounded down; min / -1 wraps.
  static constexpr integer_evaluation on_known_integers{
      [](std::int64_t a, std::int64_t b) {
        if (b == -1) return static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(a));
        const std::int64_t q = a / b;
        return q * b != a && (a < 0) != (b < 0) ? q - 1 : q;
      },
      false, true};
  static constexpr bool takes_fused_activation = false;
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32; }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::binary_with(p, operands[0], operands[1], result, kernel::reference::logic::floor_divided);
  }
};

}  // namespace ctnn::ops
