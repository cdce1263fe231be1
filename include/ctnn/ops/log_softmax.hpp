#pragma once
// log_softmax: TFLite LOG_SOFTMAX in float32, TFLM's reference LogSoftmax (kernel/reference/elementwise.hpp):
// softmax's axis (the last) and shape rule, none of its integer recipes. The descriptor of op_kind::log_softmax
// (ops/descriptor.hpp).
#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/ops/softmax.hpp>

namespace ctnn::ops {

struct log_softmax : softmax {
  static constexpr op_kind kind = op_kind::log_softmax;
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32; }
  static constexpr void requantize(const quantized_operands&, const node&, kernel_params&) {}

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::log_softmax(p, operands[0], result);
  }
};

}  // namespace ctnn::ops
