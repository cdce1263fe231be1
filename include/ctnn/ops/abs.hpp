#pragma once
// abs: |x| (TFLite ABS, ONNX Abs). The descriptor of op_kind::abs (ops/descriptor.hpp); float32 and int8, as
// TFLM.
#include <cstdint>

#include <ctnn/ops/unary_math.hpp>

namespace ctnn::ops {

struct abs : unary_math_op<op_kind::abs, kernel::reference::unary_math::absolute> {
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || type == dtype::i8; }

  // TFLM's PrepareAbsRsqrt: the rescale by input / output scale (a ratio in float). TFLM skips it when the
  // scales are equal; then the ratio is 1, whose multiplier (2^30, shift 1) gives every magnitude back
  // exactly, so one path serves both. (A ratio below 2^-32 gives multiplier 0, as TFLM: the zero point.)
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    q.set_multiplier(p.output_multiplier, p.output_shift, static_cast<double>(q.in.scale / q.out.scale));
  }

  // TFLM's AbsEvalQuantized: |x - input zero point| rescaled, plus the output's zero point, saturated to int8.
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    namespace q = ctnn::detail::quant;
    const auto* in = static_cast<const std::int8_t*>(operands[0]);
    auto* out = static_cast<std::int8_t*>(result);
    const std::int64_t elements = p->out.elements();
    for (std::int64_t i = 0; i < elements; ++i) {
      const std::int32_t centred = in[i] + p->input_offset;
      const std::int32_t magnitude = centred < 0 ? -centred : centred;
      const std::int32_t rescaled = q::multiply_by_quantized_multiplier(magnitude, p->output_multiplier, p->output_shift);
      const std::int32_t v = q::wrapping_add(rescaled, p->output_offset);  // TFLM's int sum
      out[i] = static_cast<std::int8_t>(v < -128 ? -128 : (v > 127 ? 127 : v));
    }
  }
};

}  // namespace ctnn::ops
