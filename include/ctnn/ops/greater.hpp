#pragma once
// greater: a > b into a bool, numpy broadcasting (TFLite GREATER, ONNX Greater). The descriptor of
// op_kind::greater (ops/comparison.hpp).
#include <ctnn/detail/function_objects.hpp>

#include <ctnn/ops/comparison.hpp>

namespace ctnn::ops {

struct greater : comparison_op<op_kind::greater, decltype(ctnn::detail::greater)> {};

}  // namespace ctnn::ops
