#pragma once
// fold_constants: an op whose operands are all constants is computed at compile time. Its result becomes
// a constant tensor with a recipe (the op itself and its kernel's parameters); runtime/constants.hpp
// materialises it by running the same reference kernel in constant evaluation. Results that are model outputs stay ops (their buffer must
// be written at run time).
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/prepare.hpp>
#include <ctnn/ops/registry.hpp>
#include <ctnn/pass/detail/graph_edit.hpp>

namespace ctnn::pass {

struct fold_constants : detail::op_rewriting_pass<fold_constants> {
  template <class Module, class Uses, class Flags>
  static constexpr void rewrite(Module& m, const Uses&, std::int32_t i, Flags& erased) {
    const node& op = m.node_at(i);
    tensor& folded = m.tensor_at(op.output);
    // Float32 ops are folded (the compiler runs the float reference kernels, invoke_f32), and the integer
    // concatenations that are copies (integer_copy).
    if (folded.role != tensor_role::intermediate || m.recipe_count >= static_cast<std::int32_t>(Module::node_capacity))
      return;
    if (folded.type != dtype::f32 && !integer_copy(m, op)) return;
    // Only an op with a float32 kernel: another (a LOGICAL_NOT of float constants) stays, for lower_te to refuse.
    if (folded.type == dtype::f32 && !ops::has_kernel(op.kind, dtype::f32)) return;
    for (std::int32_t k = 0; k < op.input_count; ++k) {
      const std::int32_t t = op.inputs[static_cast<std::size_t>(k)];
      if (t >= 0 && (m.tensor_at(t).role != tensor_role::constant || m.tensor_at(t).type != folded.type)) return;
    }
    folded.role = tensor_role::constant;
    folded.producer = -1;
    folded.recipe = detail::add_recipe(m, constant_recipe::evaluating(op, kernel::prepare_params(m, op)));
    erased[static_cast<std::size_t>(i)] = true;
  }

  // A concatenation along the first axis of int8 or int32 tensors that copies their integers: its result is not
  // quantized (a packing whose reader keeps each part's scale: sequence_lstm's int8 weights and int32 biases,
  // docs/design.md §2) or every part is quantized as the result. Materialised as the parts' integers one after
  // the other (runtime/constants.hpp, kernel::module_runner).
  template <class Module>
  static constexpr bool integer_copy(const Module& m, const node& op) {
    const tensor& result = m.tensor_at(op.output);
    if (!ops::facts(op.kind).joins_operands || op.attrs.axis != 0 || (result.type != dtype::i8 && result.type != dtype::i32) ||
        result.quant.per_channel())
      return false;
    for (std::int32_t k = 0; k < op.input_count; ++k) {
      const std::int32_t t = op.inputs[static_cast<std::size_t>(k)];
      if (t < 0) return false;
      const quantization& q = m.tensor_at(t).quant;
      if (result.quant.quantized() && (q.per_channel() || q.scale != result.quant.scale || q.zero_point != result.quant.zero_point))
        return false;
    }
    return true;
  }
};

}  // namespace ctnn::pass
