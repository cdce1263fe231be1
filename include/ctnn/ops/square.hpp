#pragma once
// square: x * x (TFLite SQUARE).
// The descriptor of op_kind::square (ops/descriptor.hpp); float32 only, as TFLM.
#include <ctnn/ops/unary_math.hpp>

namespace ctnn::ops {

struct square : unary_math_op<op_kind::square, kernel::reference::unary_math::squared> {};

}  // namespace ctnn::ops
