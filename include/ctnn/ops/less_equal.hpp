#pragma once
// less_equal: a <= b into a bool, numpy broadcasting (TFLite LESS_EQUAL, ONNX LessOrEqual). The descriptor of
// op_kind::less_equal (ops/comparison.hpp).
#include <functional>

#include <ctnn/ops/comparison.hpp>

namespace ctnn::ops {

struct less_equal : comparison_op<op_kind::less_equal, std::less_equal<>> {};

}  // namespace ctnn::ops
