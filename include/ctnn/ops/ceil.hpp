#pragma once
// ceil: the smallest integer not below x (TFLite CEIL, ONNX Ceil).
// The descriptor of op_kind::ceil (ops/descriptor.hpp); float32 only, as TFLM.
#include <ctnn/ops/unary_math.hpp>

namespace ctnn::ops {

struct ceil : unary_math_op<op_kind::ceil, kernel::reference::unary_math::round_up> {};

}  // namespace ctnn::ops
