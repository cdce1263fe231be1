#pragma once
// equal: a == b into a bool, numpy broadcasting (TFLite EQUAL, ONNX Equal). The descriptor of
// op_kind::equal (ops/comparison.hpp).
#include <functional>

#include <ctnn/ops/comparison.hpp>

namespace ctnn::ops {

struct equal : comparison_op<op_kind::equal, std::equal_to<>, true> {};

}  // namespace ctnn::ops
