#pragma once
// reciprocal: 1 / x (ONNX Reciprocal; TFLite has no such operator).
// The descriptor of op_kind::reciprocal (ops/descriptor.hpp); float32 only (ONNX has no int8 Reciprocal without QDQ).
#include <ctnn/ops/unary_math.hpp>

namespace ctnn::ops {

struct reciprocal : unary_math_op<op_kind::reciprocal, kernel::reference::unary_math::reciprocal> {};

}  // namespace ctnn::ops
