#pragma once
// binary_function: attrs.coefficients.function of each pair of elements, numpy broadcasting, then the fused
// activation (math_function pow: ONNX Pow; fmod: ONNX Mod with fmod 1), float32 only: one op kind for the ONNX
// operators of two operands that neither TFLM nor a quantized recipe needs (kernel/reference/unary_function.hpp).
// The descriptor of op_kind::binary_function (ops/descriptor.hpp).
#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/kernel/reference/unary_function.hpp>
#include <ctnn/ops/binary.hpp>

namespace ctnn::ops {

struct binary_function : binary_elementwise {
  static constexpr op_kind kind = op_kind::binary_function;
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32; }

  template <class Module>
  static constexpr void prepare(const Module& m, const node& n, kernel_params& p) {
    binary_elementwise::prepare(m, n, p);
    p.coefficients = n.attrs.coefficients;
  }
  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    w.put("  ");
    w.put(name_of(a.coefficients.function));
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    w.put("  ");
    w.put(name_of(p.coefficients.function));
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    const math_function f = p->coefficients.function;
    kernel::reference::binary_with(p, operands[0], operands[1], result, [&](float a, float b) {
      return kernel::reference::unary_function::apply_binary(f, a, b);
    });
  }
};

}  // namespace ctnn::ops
