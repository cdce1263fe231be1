#pragma once
// sigmoid: 1 / (1 + exp(-x)) (TFLite LOGISTIC, ONNX Sigmoid). The descriptor of op_kind::sigmoid (ops/descriptor.hpp); its recipe and int8 kernel are
// ops/logistic_tanh.hpp's.
#include <ctnn/ops/logistic_tanh.hpp>

namespace ctnn::ops {

struct sigmoid : logistic_or_tanh_op<op_kind::sigmoid, activation::sigmoid> {};

}  // namespace ctnn::ops
