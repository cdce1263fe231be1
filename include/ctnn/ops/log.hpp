#pragma once
// log: the natural logarithm, NaN below 0 and -inf at 0 (TFLite LOG, ONNX Log).
// The descriptor of op_kind::log (ops/descriptor.hpp); float32 only, as TFLM.
#include <ctnn/ops/unary_math.hpp>

namespace ctnn::ops {

struct log : unary_math_op<op_kind::log, kernel::reference::unary_math::natural_log> {};

}  // namespace ctnn::ops
