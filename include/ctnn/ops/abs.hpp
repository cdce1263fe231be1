#pragma once
// abs: |x| (TFLite ABS, ONNX Abs). The descriptor of op_kind::abs (ops/descriptor.hpp); float32, int8 and
// int16 (zero points 0), as TFLM.
#include <cstdint>

#include <ctnn/ops/unary_math.hpp>

namespace ctnn::ops {

struct abs : unary_math_op<op_kind::abs, kernel::reference::unary_math::absolute, true> {
  static constexpr bool has_kernel(dtype type) { return unary_math_op::has_kernel(type) || type == dtype::i16; }
  static constexpr bool int16_symmetric = true;

  // TFLM's PrepareAbsRsqrt: the rescale by input / output scale (a ratio in float). TFLM skips it when the
  // scales are equal; then the ratio is 1, whose multiplier (2^30, shift 1) gives every magnitude back
  // exactly, so one path serves both. (A ratio below 2^-32 gives multiplier 0, as TFLM: the zero point.)
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    q.set_multiplier(p.output_multiplier, p.output_shift, static_cast<double>(q.in.scale / q.out.scale));
  }

  // TFLM's AbsEvalQuantized: |x - input zero point| rescaled, plus the output's zero point (TFLM's int sum).
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    with_activation_type(p, [&]<class T>(T) {
      kernel::reference::unary_math::apply_i8_of(p, static_cast<const T*>(operands[0]), static_cast<T*>(result),
                                              [](auto p, std::int32_t centred) {
                                                namespace q = ctnn::detail::quant;
                                                const std::int32_t magnitude = centred < 0 ? -centred : centred;
                                                return q::wrapping_add(q::multiply_by_quantized_multiplier(
                                                                           magnitude, p->output_multiplier, p->output_shift),
                                                                       p->output_offset);
                                              });
    });
  }
};

}  // namespace ctnn::ops
