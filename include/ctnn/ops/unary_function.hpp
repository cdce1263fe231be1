#pragma once
// unary_function: one function of each element, attrs.coefficients.function (math_function: ONNX Erf, Gelu,
// Softplus, Softsign, Selu, Celu, ThresholdedRelu, Sign, Tan, Sinh, Cosh, Asin, Acos, Atan, Asinh, Acosh,
// Atanh, Shrink), float32 only: one op kind for the ONNX operators of one operand that neither TFLM nor a
// quantized recipe needs, the function and its coefficients being attributes (kernel/reference/unary_function.hpp).
// The descriptor of op_kind::unary_function (ops/descriptor.hpp).
#include <ctnn/kernel/reference/activation.hpp>
#include <ctnn/kernel/reference/unary_function.hpp>
#include <ctnn/ops/coefficients.hpp>

namespace ctnn::ops {

struct unary_function : parametrised_activation<op_kind::unary_function> {
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32; }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    put_function(w, a.coefficients);
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    put_function(w, p.coefficients);
  }
  // The function and the coefficients it reads.
  template <class Writer>
  static void put_function(Writer& w, const activation_coefficients& c) {
    w.put("  ");
    w.put(name_of(c.function));
    const bool alpha = c.function == math_function::selu || c.function == math_function::celu ||
                       c.function == math_function::thresholded_relu || c.function == math_function::shrink;
    if (alpha) w.real_field(" alpha ", static_cast<double>(c.alpha()));
    if (c.function == math_function::shrink) w.real_field(" beta ", static_cast<double>(c.beta()));
    if (c.function == math_function::selu) w.real_field(" gamma ", static_cast<double>(c.gamma()));
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    const activation_coefficients c = p->coefficients;
    kernel::reference::unary_with(p, operands[0], result,
                                  [c](float x) { return kernel::reference::unary_function::apply(c.function, x, c); });
  }
};

}  // namespace ctnn::ops
