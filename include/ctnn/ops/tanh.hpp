#pragma once
// tanh (TFLite TANH, ONNX Tanh). The descriptor of op_kind::tanh (ops/descriptor.hpp); its recipe and int8 kernel are
// ops/logistic_tanh.hpp's.
#include <ctnn/ops/logistic_tanh.hpp>

namespace ctnn::ops {

struct tanh : logistic_or_tanh_op<op_kind::tanh, activation::tanh> {};

}  // namespace ctnn::ops
