#pragma once
// greater_equal: a >= b into a bool, numpy broadcasting (TFLite GREATER_EQUAL, ONNX GreaterOrEqual). The descriptor of
// op_kind::greater_equal (ops/comparison.hpp).
#include <ctnn/detail/function_objects.hpp>

#include <ctnn/ops/comparison.hpp>

namespace ctnn::ops {

struct greater_equal : comparison_op<op_kind::greater_equal, decltype(ctnn::detail::greater_equal)> {};

}  // namespace ctnn::ops
