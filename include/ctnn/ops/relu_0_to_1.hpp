#pragma once
// relu_0_to_1: min(max(x, 0), 1) (TFLite RELU_0_TO_1; int8 as TFLite's QuantizedReluX, since TFLite Micro
// has no kernel of it). The descriptor of op_kind::relu_0_to_1 (ops/descriptor.hpp).
#include <ctnn/ops/relu_range.hpp>

namespace ctnn::ops {

struct relu_0_to_1 : relu_range_op<op_kind::relu_0_to_1, 0, 1> {};

}  // namespace ctnn::ops
