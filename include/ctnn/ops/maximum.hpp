#pragma once
// maximum: max(a, b), numpy broadcasting (TFLite MAXIMUM, ONNX Max of two operands). The descriptor of
// op_kind::maximum (ops/descriptor.hpp); ops/extremum.hpp has its kernels.
#include <functional>

#include <ctnn/ops/extremum.hpp>

namespace ctnn::ops {

struct maximum : extremum_op<op_kind::maximum, std::greater<>> {};

}  // namespace ctnn::ops
