#pragma once
// relu: max(x, 0) (TFLite RELU, ONNX Relu). The descriptor of op_kind::relu (ops/descriptor.hpp).
#include <cstdint>
#include <limits>

#include <ctnn/kernel/reference/int8/activation.hpp>
#include <ctnn/ops/relu_range.hpp>

namespace ctnn::ops {

struct relu : activation_op<op_kind::relu, activation::relu> {
  static constexpr bool non_negative_result = true;
  static constexpr bool int16_symmetric = true;
  static constexpr bool has_kernel(dtype type) { return unary_elementwise::has_kernel(type) || type == dtype::i16; }

  // TFLite's ReluQuantized (int8, int16): requantized from the input's to the output's quantization, clamped
  // below at the output's zero.
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    requantize_relu_range(q, 0.0f, std::numeric_limits<float>::infinity(), p);
  }

  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    with_activation_type(p, [&]<class T>(T) {
      kernel::reference::int8::relu(p, static_cast<const T*>(operands[0]), static_cast<T*>(result));
    });
  }
};

}  // namespace ctnn::ops
