#pragma once
// max_pool: the largest element of each window (TFLite MAX_POOL_2D, ONNX MaxPool). The descriptor of
// op_kind::max_pool (ops/window_pool.hpp).
#include <ctnn/ops/window_pool.hpp>

namespace ctnn::ops {

using max_pool = window_pool<op_kind::max_pool, true>;

}  // namespace ctnn::ops
