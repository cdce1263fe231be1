#pragma once
// relu6: min(max(x, 0), 6) (TFLite RELU6; ONNX Clip(0, 6) imports as it). The descriptor of op_kind::relu6
// (ops/descriptor.hpp).
#include <cstdint>

#include <ctnn/kernel/reference/int8/activation.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct relu6 : activation_op<op_kind::relu6, activation::relu6> {
  static constexpr bool non_negative_result = true;

  // A raw clamp, as TFLM: to quantized 0 and 6 in the *input's* quantization.
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    p.activation_min = q.in.zero_point;
    p.activation_max = ctnn::detail::quant::float_to_int8(6.0f, q.in.scale, q.in.zero_point);
  }

  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    kernel::reference::int8::clamp(p, static_cast<const std::int8_t*>(operands[0]), static_cast<std::int8_t*>(result));
  }
};

}  // namespace ctnn::ops
