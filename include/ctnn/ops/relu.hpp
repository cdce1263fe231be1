#pragma once
// relu: max(x, 0) (TFLite RELU, ONNX Relu). The descriptor of op_kind::relu (ops/descriptor.hpp).
#include <cstdint>

#include <ctnn/kernel/reference/int8/activation.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct relu : activation_op<op_kind::relu, activation::relu> {
  static constexpr bool non_negative_result = true;

  // TFLite's ReluQuantized: requantized from the input's to the output's quantization, clamped below at
  // the output's zero.
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    q.set_multiplier(p.output_multiplier, p.output_shift, static_cast<double>(q.in.scale) / static_cast<double>(q.out.scale));
    const std::int64_t zero = q.out.zero_point + ctnn::detail::quant::round_to_int(0.0f / q.out.scale);
    p.activation_min = zero > -128 ? static_cast<std::int32_t>(zero) : -128;
    p.activation_max = 127;
  }

  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    kernel::reference::int8::relu(p, static_cast<const std::int8_t*>(operands[0]), static_cast<std::int8_t*>(result));
  }
};

}  // namespace ctnn::ops
