#pragma once
// exp: e^x (TFLite EXP, ONNX Exp).
// The descriptor of op_kind::exp (ops/descriptor.hpp); float32 only, as TFLM.
#include <ctnn/ops/unary_math.hpp>

namespace ctnn::ops {

struct exp : unary_math_op<op_kind::exp, kernel::reference::unary_math::exponential> {};

}  // namespace ctnn::ops
