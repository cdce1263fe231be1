#pragma once
// maximum: max(a, b), numpy broadcasting (TFLite MAXIMUM, ONNX Max of two operands). The descriptor of
// op_kind::maximum (ops/descriptor.hpp); ops/extremum.hpp has its kernels.
#include <ctnn/detail/function_objects.hpp>

#include <ctnn/ops/extremum.hpp>

namespace ctnn::ops {

struct maximum : extremum_op<op_kind::maximum, decltype(ctnn::detail::greater)> {};

}  // namespace ctnn::ops
