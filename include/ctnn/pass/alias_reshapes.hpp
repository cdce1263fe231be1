#pragma once
// alias_reshapes: a reshape (or flatten) does not move data, so its result becomes a view of its input
// (tensor::alias_of) and the op disappears: no kernel, no copy, no buffer of its own. A reshape that
// writes a model output stays a copy (the caller's buffer must be filled).
#include <array>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/pass/detail/graph_edit.hpp>

namespace ctnn::pass {

struct alias_reshapes {
  static constexpr fact requires_facts = fact::shapes_inferred;

  template <class Module>
  static constexpr Module run(Module m) {
    std::array<bool, Module::node_capacity> erased{};
    for (std::int32_t i = 0; i < m.node_count; ++i) {
      const node& n = m.node_at(i);
      tensor& result = m.tensor_at(n.output);
      if (n.kind != op_kind::reshape || result.role != tensor_role::intermediate) continue;
      result.alias_of = n.inputs[0];
      erased[static_cast<std::size_t>(i)] = true;
    }
    detail::erase_nodes(m, erased);
    return m;
  }
};

}  // namespace ctnn::pass
