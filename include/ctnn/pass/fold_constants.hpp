#pragma once
// fold_constants: an op whose operands are all constants is computed at compile time. Its result becomes
// a constant tensor with a recipe (the op itself); runtime/constants.hpp materialises it by running the
// same reference kernel in constant evaluation. Results that are model outputs stay ops (their buffer must
// be written at run time).
#include <array>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/pass/detail/graph_edit.hpp>

namespace ctnn::pass {

struct fold_constants {
  static constexpr fact requires_facts = fact::shapes_inferred;

  template <class Module>
  static constexpr Module run(Module m) {
    std::array<bool, Module::node_capacity> erased{};
    for (std::int32_t i = 0; i < m.node_count; ++i) {
      const node& n = m.node_at(i);
      tensor& result = m.tensor_at(n.output);
      if (result.role != tensor_role::intermediate || m.recipe_count >= static_cast<std::int32_t>(Module::node_capacity))
        continue;
      bool all_constant = true;
      for (std::int32_t k = 0; k < n.input_count && all_constant; ++k) {
        const std::int32_t t = n.inputs[static_cast<std::size_t>(k)];
        all_constant = t < 0 || m.tensor_at(t).role == tensor_role::constant;
      }
      if (!all_constant) continue;
      result.role = tensor_role::constant;
      result.recipe = detail::add_recipe(m, constant_recipe{recipe_kind::evaluate_op, n, 1, 0, false});
      erased[static_cast<std::size_t>(i)] = true;
    }
    detail::erase_nodes(m, erased);
    return m;
  }
};

}  // namespace ctnn::pass
