#pragma once
// fold_constants: an op whose operands are all constants is computed at compile time. Its result becomes
// a constant tensor with a recipe (the op itself and its kernel's parameters); runtime/constants.hpp
// materialises it by running the same reference kernel in constant evaluation. Results that are model outputs stay ops (their buffer must
// be written at run time).
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/prepare.hpp>
#include <ctnn/pass/detail/graph_edit.hpp>

namespace ctnn::pass {

struct fold_constants : detail::op_rewriting_pass<fold_constants> {
  template <class Module, class Uses, class Flags>
  static constexpr void rewrite(Module& m, const Uses&, std::int32_t i, Flags& erased) {
    const node& op = m.node_at(i);
    tensor& folded = m.tensor_at(op.output);
    // Only float32 ops are folded: the compiler runs the float reference kernels (invoke_f32).
    if (folded.role != tensor_role::intermediate || folded.type != dtype::f32 ||
        m.recipe_count >= static_cast<std::int32_t>(Module::node_capacity))
      return;
    for (std::int32_t k = 0; k < op.input_count; ++k) {
      const std::int32_t t = op.inputs[static_cast<std::size_t>(k)];
      if (t >= 0 && (m.tensor_at(t).role != tensor_role::constant || m.tensor_at(t).type != dtype::f32)) return;
    }
    folded.role = tensor_role::constant;
    folded.producer = -1;
    folded.recipe = detail::add_recipe(m, constant_recipe::evaluating(op, kernel::prepare_params(m, op)));
    erased[static_cast<std::size_t>(i)] = true;
  }
};

}  // namespace ctnn::pass
