#pragma once
// logical_or: a || b on bools, numpy broadcasting (TFLite LOGICAL_OR, ONNX Or). The descriptor of op_kind::logical_or
// (ops/logical.hpp).
#include <ctnn/detail/function_objects.hpp>

#include <ctnn/ops/logical.hpp>

namespace ctnn::ops {

struct logical_or : logical_binary_op<op_kind::logical_or, decltype(ctnn::detail::logical_or)> {};

}  // namespace ctnn::ops
