#pragma once
// sin: the sine (TFLite SIN, ONNX Sin).
// The descriptor of op_kind::sin (ops/descriptor.hpp); float32 only, as TFLM.
#include <ctnn/ops/unary_math.hpp>

namespace ctnn::ops {

struct sin : unary_math_op<op_kind::sin, kernel::reference::unary_math::sine> {};

}  // namespace ctnn::ops
