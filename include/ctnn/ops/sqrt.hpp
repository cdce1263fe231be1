#pragma once
// sqrt: the square root, NaN below 0 (TFLite SQRT, ONNX Sqrt).
// The descriptor of op_kind::sqrt (ops/descriptor.hpp); float32 only, as TFLM.
#include <ctnn/ops/unary_math.hpp>

namespace ctnn::ops {

struct sqrt : unary_math_op<op_kind::sqrt, kernel::reference::unary_math::square_root> {};

}  // namespace ctnn::ops
