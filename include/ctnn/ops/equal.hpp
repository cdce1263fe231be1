#pragma once
// equal: a == b into a bool, numpy broadcasting (TFLite EQUAL, ONNX Equal). The descriptor of
// op_kind::equal (ops/comparison.hpp).
#include <ctnn/detail/function_objects.hpp>

#include <ctnn/ops/comparison.hpp>

namespace ctnn::ops {

struct equal : comparison_op<op_kind::equal, decltype(ctnn::detail::equal_to), true> {};

}  // namespace ctnn::ops
