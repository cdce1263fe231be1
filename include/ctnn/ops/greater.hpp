#pragma once
// greater: a > b into a bool, numpy broadcasting (TFLite GREATER, ONNX Greater). The descriptor of
// op_kind::greater (ops/comparison.hpp).
#include <functional>

#include <ctnn/ops/comparison.hpp>

namespace ctnn::ops {

struct greater : comparison_op<op_kind::greater, std::greater<>> {};

}  // namespace ctnn::ops
