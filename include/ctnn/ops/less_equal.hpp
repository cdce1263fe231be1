#pragma once
// less_equal: a <= b into a bool, numpy broadcasting (TFLite LESS_EQUAL, ONNX LessOrEqual). The descriptor of
// op_kind::less_equal (ops/comparison.hpp).
#include <ctnn/detail/function_objects.hpp>

#include <ctnn/ops/comparison.hpp>

namespace ctnn::ops {

struct less_equal : comparison_op<op_kind::less_equal, decltype(ctnn::detail::less_equal)> {};

}  // namespace ctnn::ops
