#pragma once
// minimum: min(a, b), numpy broadcasting (TFLite MINIMUM, ONNX Min of two operands). The descriptor of
// op_kind::minimum (ops/descriptor.hpp); ops/extremum.hpp has its kernels.
#include <ctnn/detail/function_objects.hpp>

#include <ctnn/ops/extremum.hpp>

namespace ctnn::ops {

struct minimum : extremum_op<op_kind::minimum, decltype(ctnn::detail::less)> {};

}  // namespace ctnn::ops
