#pragma once
// hard_sigmoid: max(0, min(1, alpha x + beta)) (ONNX HardSigmoid; float32 only: TFLite has no such op). The
// descriptor of op_kind::hard_sigmoid (ops/descriptor.hpp).
#include <ctnn/kernel/reference/activation.hpp>
#include <ctnn/ops/coefficients.hpp>

namespace ctnn::ops {

struct hard_sigmoid : parametrised_activation<op_kind::hard_sigmoid, true> {
  static constexpr bool non_negative_result = true;
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32; }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    const float alpha = p->coefficients.alpha(), beta = p->coefficients.beta();
    kernel::reference::unary_with(p, operands[0], result,
                                  [alpha, beta](float x) { return kernel::reference::hard_sigmoid(x, alpha, beta); });
  }
};

}  // namespace ctnn::ops
