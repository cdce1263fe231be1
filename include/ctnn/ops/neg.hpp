#pragma once
// neg: -x (TFLite NEG, ONNX Neg).
// The descriptor of op_kind::neg (ops/descriptor.hpp); float32 only, as TFLM.
#include <ctnn/ops/unary_math.hpp>

namespace ctnn::ops {

struct neg : unary_math_op<op_kind::neg, kernel::reference::unary_math::negated> {};

}  // namespace ctnn::ops
