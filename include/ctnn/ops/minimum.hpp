#pragma once
// minimum: min(a, b), numpy broadcasting (TFLite MINIMUM, ONNX Min of two operands). The descriptor of
// op_kind::minimum (ops/descriptor.hpp); ops/extremum.hpp has its kernels.
#include <functional>

#include <ctnn/ops/extremum.hpp>

namespace ctnn::ops {

struct minimum : extremum_op<op_kind::minimum, std::less<>> {};

}  // namespace ctnn::ops
