#pragma once
// logical_and: a && b on bools, numpy broadcasting (TFLite LOGICAL_AND, ONNX And). The descriptor of
// op_kind::logical_and (ops/logical.hpp).
#include <ctnn/detail/function_objects.hpp>

#include <ctnn/ops/logical.hpp>

namespace ctnn::ops {

struct logical_and : logical_binary_op<op_kind::logical_and, decltype(ctnn::detail::logical_and)> {};

}  // namespace ctnn::ops
