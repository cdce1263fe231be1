#pragma once
// round: the nearest integer, halves to even (TFLite ROUND, ONNX Round).
// The descriptor of op_kind::round (ops/descriptor.hpp); float32 only, as TFLM.
#include <ctnn/ops/unary_math.hpp>

namespace ctnn::ops {

struct round : unary_math_op<op_kind::round, kernel::reference::unary_math::round_half_to_even> {};

}  // namespace ctnn::ops
