#pragma once
// The fused activations an int8 kernel applies as the clamp of its output stage (none, relu, relu6: the
// bounds are kernel_params' activation range); sigmoid and tanh are not clamps, so int8 calls with them
// are refused (kernel/prepare.hpp) and no vectorised kernel supports them.
#include <ctnn/ir/op_kind.hpp>

namespace ctnn::kernel::detail {

constexpr bool is_output_clamp(activation a) {
  return a == activation::none || a == activation::relu || a == activation::relu6;
}

}  // namespace ctnn::kernel::detail
