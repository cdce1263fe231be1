#pragma once
// less: a < b into a bool, numpy broadcasting (TFLite LESS, ONNX Less). The descriptor of
// op_kind::less (ops/comparison.hpp).
#include <ctnn/detail/function_objects.hpp>

#include <ctnn/ops/comparison.hpp>

namespace ctnn::ops {

struct less : comparison_op<op_kind::less, decltype(ctnn::detail::less)> {};

}  // namespace ctnn::ops
