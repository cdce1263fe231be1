#pragma once
// l1_normalization: each vector along attrs.norm.axis divided by the sum of its magnitudes (ONNX
// LpNormalization with p 1: any axis; a vector of zeros gives zeros). The descriptor of
// op_kind::l1_normalization (ops/descriptor.hpp); its kernel is lp_normalization_op's (ops/l2_normalization.hpp).
#include <ctnn/ops/l2_normalization.hpp>

namespace ctnn::ops {

struct l1_normalization : lp_normalization_op<op_kind::l1_normalization, 1> {};

}  // namespace ctnn::ops
