#pragma once
// The logical ops on bools (TFLite LOGICAL_AND, LOGICAL_OR, LOGICAL_NOT; ONNX And, Or, Xor, Not): one
// template for the binary ones, logical_binary_op<K, Combine>, with numpy broadcasting (ops/logical_and.hpp,
// logical_or.hpp, logical_xor.hpp are one line each), and logical_not. kernel/reference/logic.hpp has the
// kernel. Bools only, as TFLM and ONNX run them; the result is bool as the operands.
#include <cstdint>

#include <ctnn/kernel/reference/logic.hpp>
#include <ctnn/ops/binary.hpp>

namespace ctnn::ops {

template <op_kind K, class Combine>
struct logical_binary_op : binary_elementwise {
  static constexpr op_kind kind = K;
  static constexpr bool takes_fused_activation = false;
  static constexpr bool plain_integer_kernel = true;
  static constexpr bool has_kernel(dtype type) { return type == dtype::b8; }

  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result,
                                            const kernel::requant_arrays&) {
    kernel::reference::logic::combine<Combine>(p, operands, result);
  }
};

}  // namespace ctnn::ops
