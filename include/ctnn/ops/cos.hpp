#pragma once
// cos: the cosine (TFLite COS, ONNX Cos).
// The descriptor of op_kind::cos (ops/descriptor.hpp); float32 only, as TFLM.
#include <ctnn/ops/unary_math.hpp>

namespace ctnn::ops {

struct cos : unary_math_op<op_kind::cos, kernel::reference::unary_math::cosine> {};

}  // namespace ctnn::ops
