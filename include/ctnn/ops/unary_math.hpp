#pragma once
// What the element-wise math ops of one operand share (ops/abs.hpp, neg.hpp, sqrt.hpp, rsqrt.hpp, exp.hpp,
// log.hpp, sin.hpp, cos.hpp, floor.hpp, ceil.hpp, round.hpp, square.hpp, reciprocal.hpp): the result shaped
// as the operand, possibly over it, and a float32 kernel applying F (kernel/reference/unary_math.hpp) to
// each element. One op kind per function, as TFLite and ONNX have one operator per function: which element
// types have a kernel (TFLM runs ABS and RSQRT on int8, the others on float32 only) and the int8 recipe
// are the op's own.
#include <cstdint>

#include <ctnn/kernel/reference/unary_math.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

// Int8: whether the op has an int8 kernel too (its descriptor then gives `requantize` and `run_i8`).
template <op_kind K, float (*F)(float), bool Int8 = false>
struct unary_math_op : unary_elementwise {
  static constexpr op_kind kind = K;
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || (Int8 && type == dtype::i8); }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::unary_math::apply<F>(p->out.elements(), operands[0], result);
  }
};

}  // namespace ctnn::ops
