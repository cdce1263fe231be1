#pragma once
// prelu: x >= 0 ? x : x alpha, alpha the second operand broadcast against x (TFLite PRELU, ONNX PRelu). The
// descriptor of op_kind::prelu (ops/descriptor.hpp).
#include <cstdint>

#include <ctnn/kernel/reference/activation.hpp>
#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/kernel/reference/int8/activation.hpp>
#include <ctnn/ops/binary.hpp>
#include <ctnn/ops/negative_side.hpp>

namespace ctnn::ops {

struct prelu : binary_elementwise {
  static constexpr op_kind kind = op_kind::prelu;
  static constexpr bool takes_fused_activation = false;

  // TFLM's CalculatePreluParams: input scale / output scale (the positive side) and input scale x alpha
  // scale / output scale (the negative side), in double; alpha's zero point negated.
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    p.input2_offset = ctnn::detail::quant::wrapping_neg(q.in2.zero_point);
    q.set_multiplier(p.output_multiplier, p.output_shift,
                     static_cast<double>(q.in.scale) / static_cast<double>(q.out.scale));
    q.set_multiplier(
        p.negative_side.multiplier, p.negative_side.shift,
        static_cast<double>(q.in.scale) * static_cast<double>(q.in2.scale) / static_cast<double>(q.out.scale));
  }
  static constexpr recipe_shift checked_shift(const kernel_params& recipe) {
    return negative_side::checked_shift(recipe);
  }
  template <class Writer>
  static void put_requantization(Writer& w, const kernel_params& p) {
    negative_side::put_requantization(w, p);
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::binary_with(p, operands[0], operands[1], result, kernel::reference::prelu);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result,
                                            const kernel::requant_arrays&) {
    kernel::reference::int8::prelu(p, static_cast<const std::int8_t*>(operands[0]),
                                   static_cast<const std::int8_t*>(operands[1]), static_cast<std::int8_t*>(result));
  }
};

}  // namespace ctnn::ops
