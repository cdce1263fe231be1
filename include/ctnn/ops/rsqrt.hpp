#pragma once
// rsqrt: 1 / sqrt(x) (TFLite RSQRT). The descriptor of op_kind::rsqrt (ops/descriptor.hpp); float32 and int8,
// as TFLM.
#include <cstdint>

#include <ctnn/detail/math.hpp>
#include <ctnn/kernel/reference/int8/fixed_point.hpp>
#include <ctnn/ops/unary_math.hpp>

namespace ctnn::ops {

struct rsqrt : unary_math_op<op_kind::rsqrt, kernel::reference::unary_math::reciprocal_square_root> {
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || type == dtype::i8; }

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
    namespace q = ctnn::detail::quant;
    namespace fp = kernel::reference::int8::fixed_point;
    constexpr std::int32_t integer_shift = 20;  // keeps 1 / sqrt(x) an integer
    const auto* in = static_cast<const std::int8_t*>(operands[0]);
    auto* out = static_cast<std::int8_t*>(result);
    const std::int64_t elements = p->out.elements();
    for (std::int64_t i = 0; i < elements; ++i) {
      const std::int32_t centred = in[i] + p->input_offset;
      if (centred == 0) {
        out[i] = 127;
        continue;
      }
      const fp::inv_sqrt_multiplier inverse = fp::inverse_sqrt_multiplier(centred);
      const std::int32_t scaled = q::multiply_by_quantized_multiplier(1, inverse.multiplier, inverse.shift + integer_shift);
      // A right shift beyond 31 (an output scale over 2^11 / sqrt(input scale)) is undefined in TFLM's
      // arithmetic; the rescaled value, below 2^21 / 2^32, rounds to 0 there.
      const std::int32_t shift = p->output_shift - integer_shift;
      const std::int32_t rescaled = shift < -31 ? 0 : q::multiply_by_quantized_multiplier(scaled, p->output_multiplier, shift);
      const std::int32_t v = q::wrapping_add(rescaled, p->output_offset);
      out[i] = static_cast<std::int8_t>(v < -128 ? -128 : (v > 127 ? 127 : v));
    }
  }
};

}  // namespace ctnn::ops
