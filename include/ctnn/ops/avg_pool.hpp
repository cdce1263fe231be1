#pragma once
// avg_pool: the mean of each window's in-bounds elements, padding never counted (TFLite AVERAGE_POOL_2D,
// ONNX AveragePool with count_include_pad 0). The descriptor of op_kind::avg_pool (ops/window_pool.hpp).
#include <ctnn/ops/window_pool.hpp>

namespace ctnn::ops {

using avg_pool = window_pool<op_kind::avg_pool, false>;

}  // namespace ctnn::ops
