#pragma once
// floor: the largest integer not above x (TFLite FLOOR, ONNX Floor).
// The descriptor of op_kind::floor (ops/descriptor.hpp); float32 only, as TFLM.
#include <ctnn/ops/unary_math.hpp>

namespace ctnn::ops {

struct floor : unary_math_op<op_kind::floor, kernel::reference::unary_math::round_down> {};

}  // namespace ctnn::ops
