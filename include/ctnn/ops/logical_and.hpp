#pragma once
// logical_and: a && b on bools, numpy broadcasting (TFLite LOGICAL_AND, ONNX And). The descriptor of
// op_kind::logical_and (ops/logical.hpp).
#include <functional>

#include <ctnn/ops/logical.hpp>

namespace ctnn::ops {

struct logical_and : logical_binary_op<op_kind::logical_and, std::logical_and<>> {};

}  // namespace ctnn::ops
