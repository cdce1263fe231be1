#pragma once
// not_equal: a != b into a bool, numpy broadcasting (TFLite NOT_EQUAL). The descriptor of
// op_kind::not_equal (ops/comparison.hpp).
#include <ctnn/detail/function_objects.hpp>

#include <ctnn/ops/comparison.hpp>

namespace ctnn::ops {

struct not_equal : comparison_op<op_kind::not_equal, decltype(ctnn::detail::not_equal_to), true> {};

}  // namespace ctnn::ops
