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

// The float32 kernels, with typed operands: also run by the compiler (fold_constants).
template <kernel_params P>
constexpr void invoke_f32(const float* const* operands, float* result) {
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

// Whether a kernel exists for an op kind with this element type (lower_te asks before lowering).
constexpr bool has_kernel(op_kind, dtype type) { return type == dtype::f32; }

// The executor's entry: operands as untyped addresses (activations, weights and biases of a quantized
// op have different element types), cast here to what the kernel for P.type takes.
template <kernel_params P, std::size_t N>
void invoke(const void* const (&operands)[N], void* result) {
  if constexpr (P.type == dtype::f32) {
    const float* typed[N]{};
    for (std::size_t k = 0; k < N; ++k) typed[k] = static_cast<const float*>(operands[k]);
    invoke_f32<P>(typed, static_cast<float*>(result));
  } else {
    static_assert(P.type == dtype::f32, "ctnn: no kernel for this element type (kernel/dispatch.hpp).");
  }
}

}  // namespace ctnn::kernel
