#pragma once
// relu6: min(max(x, 0), 6) (TFLite RELU6; ONNX Clip(0, 6) imports as it). The descriptor of op_kind::relu6
// (ops/descriptor.hpp).
#include <cstdint>

#include <ctnn/kernel/reference/int8/activation.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct relu6 : activation_op<op_kind::relu6, activation::relu6> {
  static constexpr bool non_negative_result = true;
  static constexpr bool has_kernel(dtype type) { return unary_elementwise::has_kernel(type) || type == dtype::i16; }

  // A raw clamp, as TFLM (int8, int16): to quantized 0 and 6 in the *input's* quantization.
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    p.activation_min = q.in.zero_point;
    p.activation_max = ctnn::detail::quant::float_to_quantized(6.0f, q.in.scale, q.in.zero_point, lowest_value(p.type),
                                                               highest_value(p.type));
  }

  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    with_activation_type(p, [&]<class T>(T) {
      kernel::reference::int8::clamp(p, static_cast<const T*>(operands[0]), static_cast<T*>(result));
    });
  }
};

}  // namespace ctnn::ops
