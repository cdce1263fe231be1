#pragma once
// rsqrt: 1 / sqrt(x) (TFLite RSQRT). The descriptor of op_kind::rsqrt (ops/descriptor.hpp); float32 and int8,
// as TFLM.
#include <cstdint>

#include <ctnn/detail/math.hpp>
#include <ctnn/kernel/reference/int8/fixed_point.hpp>
#include <ctnn/ops/unary_math.hpp>

namespace ctnn::ops {

struct rsqrt : unary_math_op<op_kind::rsqrt, kernel::reference::unary_math::reciprocal_square_root, true> {
  // TFLM's PrepareAbsRsqrt: 1 / (sqrt(input scale) * output scale), the square root and the product in
  // float, the quotient in double. (A float's square root through double is sqrtf's, correctly rounded.)
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    const auto root = static_cast<float>(ctnn::detail::math::sqrt(static_cast<double>(q.in.scale)));
    q.set_multiplier(p.output_multiplier, p.output_shift, 1.0 / static_cast<double>(root * q.out.scale));
  }

  // TFLM's RsqrtEvalQuantized: x - input zero point = 0 gives 127 (the largest value); otherwise its inverse
  // square root as a multiplier (inverse_sqrt_multiplier), applied to 1 shifted left by 20 and rescaled by
  // the recipe's multiplier with 20 less shift. TFLM's Invoke fails on an input below the zero point (a
  // negative real: "Rsqrt is only defined for positive values"); a kernel here cannot fail, so such inputs
  // get what the arithmetic gives without that check (inverse_sqrt_multiplier takes them as 1).
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    kernel::reference::unary_math::apply_i8_of(
        p, static_cast<const std::int8_t*>(operands[0]), static_cast<std::int8_t*>(result), [](auto p, std::int32_t centred) {
          namespace q = ctnn::detail::quant;
          namespace fp = kernel::reference::int8::fixed_point;
          constexpr std::int32_t integer_shift = 20;  // keeps 1 / sqrt(x) an integer
          // A right shift beyond 31 (an output scale over 2^12 / sqrt(input scale)) is undefined in TFLM's arithmetic
          // (its gemmlowp asserts); the rescaled value, below 2^21 / 2^32, rounds to 0 there.
          const std::int32_t shift = p->output_shift - integer_shift;
          if (centred == 0) return std::int32_t{127};
          const fp::inv_sqrt_multiplier inverse = fp::inverse_sqrt_multiplier(centred);
          const std::int32_t scaled = q::multiply_by_quantized_multiplier(1, inverse.multiplier, inverse.shift + integer_shift);
          const std::int32_t rescaled = shift < -31 ? 0 : q::multiply_by_quantized_multiplier(scaled, p->output_multiplier, shift);
          return q::wrapping_add(rescaled, p->output_offset);
        });
  }
};

}  // namespace ctnn::ops
