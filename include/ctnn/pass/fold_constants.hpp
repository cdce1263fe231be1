#pragma once
// fold_constants: an op whose operands are all constants is computed at compile time. Its result becomes
// a constant tensor with a recipe (the op itself); runtime/constants.hpp materialises it by running the
// same reference kernel in constant evaluation. Results that are model outputs stay ops (their buffer must
// be written at run time).
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/pass/detail/graph_edit.hpp>

namespace ctnn::pass {

struct fold_constants {
  static constexpr fact requires_facts = fact::shapes_inferred;

  template <class Module>
  static constexpr Module run(Module m) {
    return detail::rewrite_ops(m, [](Module& mod, std::int32_t i, auto& erased) {
      const node& n = mod.node_at(i);
      tensor& result = mod.tensor_at(n.output);
      if (result.role != tensor_role::intermediate || mod.recipe_count >= static_cast<std::int32_t>(Module::node_capacity))
        return;
      for (std::int32_t k = 0; k < n.input_count; ++k) {
        const std::int32_t t = n.inputs[static_cast<std::size_t>(k)];
        if (t >= 0 && mod.tensor_at(t).role != tensor_role::constant) return;
      }
      result.role = tensor_role::constant;
      result.recipe = detail::add_recipe(mod, constant_recipe{recipe_kind::evaluate_op, n, 1, 0, false});
      erased[static_cast<std::size_t>(i)] = true;
    });
  }
};

}  // namespace ctnn::pass
