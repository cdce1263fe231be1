#pragma once
// logical_xor: a != b on bools, numpy broadcasting (ONNX Xor). The descriptor of op_kind::logical_xor
// (ops/logical.hpp).
#include <ctnn/detail/function_objects.hpp>

#include <ctnn/ops/logical.hpp>

namespace ctnn::ops {

struct logical_xor : logical_binary_op<op_kind::logical_xor, decltype(ctnn::detail::not_equal_to)> {};

}  // namespace ctnn::ops
