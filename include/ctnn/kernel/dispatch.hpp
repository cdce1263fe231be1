#pragma once
// Chooses the kernel for a call's compile-time parameters. Operands arrive in the op's input order
// (conv/dense: data, weights, bias).
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/activation.hpp>
#include <ctnn/kernel/reference/batch_norm.hpp>
#include <ctnn/kernel/reference/conv2d.hpp>
#include <ctnn/kernel/reference/data_movement.hpp>
#include <ctnn/kernel/reference/dense.hpp>
#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/kernel/reference/pool.hpp>

namespace ctnn::kernel {

template <kernel_params P>
constexpr void invoke(const float* const* operands, float* result) {
  namespace ref = reference;
  constexpr long elements = static_cast<long>(P.out.elements());
  if constexpr (P.kind == op_kind::conv2d) ref::conv2d<P>(operands[0], operands[1], operands[2], result);
  else if constexpr (P.kind == op_kind::depthwise_conv2d) ref::depthwise_conv2d<P>(operands[0], operands[1], operands[2], result);
  else if constexpr (P.kind == op_kind::dense) ref::dense<P>(operands[0], operands[1], operands[2], result);
  else if constexpr (P.kind == op_kind::max_pool) ref::pool2d<P, true>(operands[0], result);
  else if constexpr (P.kind == op_kind::avg_pool) ref::pool2d<P, false>(operands[0], result);
  else if constexpr (P.kind == op_kind::global_avg_pool) ref::global_avg_pool<P>(operands[0], result);
  else if constexpr (P.kind == op_kind::add || P.kind == op_kind::mul) ref::binary<P>(operands[0], operands[1], result);
  else if constexpr (P.kind == op_kind::relu) ref::activate_all<activation::relu, elements>(operands[0], result);
  else if constexpr (P.kind == op_kind::relu6) ref::activate_all<activation::relu6, elements>(operands[0], result);
  else if constexpr (P.kind == op_kind::sigmoid) ref::activate_all<activation::sigmoid, elements>(operands[0], result);
  else if constexpr (P.kind == op_kind::tanh) ref::activate_all<activation::tanh, elements>(operands[0], result);
  else if constexpr (P.kind == op_kind::softmax) ref::softmax<P>(operands[0], result);
  else if constexpr (P.kind == op_kind::reshape) ref::reshape<P>(operands[0], result);
  else if constexpr (P.kind == op_kind::concat) ref::concat<P>(operands, result);
  else if constexpr (P.kind == op_kind::pad) ref::pad<P>(operands[0], result);
  else if constexpr (P.kind == op_kind::batch_norm)
    ref::batch_norm<P>(operands[0], operands[1], operands[2], operands[3], operands[4], result);
  else static_assert(P.kind == op_kind::conv2d, "ctnn: no kernel for this op kind (add it to kernel/dispatch.hpp).");
}

}  // namespace ctnn::kernel
