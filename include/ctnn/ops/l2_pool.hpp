#pragma once
// l2_pool: TFLite L2_POOL_2D, float32 only as TFLM: the window of max_pool and avg_pool (ops/window_pool.hpp),
// the square root of the mean of the squares over its in-bounds elements (kernel/reference/pool.hpp). The
// descriptor of op_kind::l2_pool (ops/descriptor.hpp).
#include <ctnn/kernel/reference/pool.hpp>
#include <ctnn/ops/window_pool.hpp>

namespace ctnn::ops {

struct l2_pool : window_pool<op_kind::l2_pool, false> {
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32; }
  static constexpr bool non_negative_result = true;

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::l2_pool2d(p, operands[0], result);
  }
};

}  // namespace ctnn::ops
