#pragma once
// alias_reshapes: a reshape (or flatten) does not move data, so its result becomes a view of its input
// (tensor::alias_of) and the op disappears: no kernel, no copy, no buffer of its own. A reshape that
// writes a model output stays a copy (the caller's buffer must be filled).
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/pass/detail/graph_edit.hpp>

namespace ctnn::pass {

struct alias_reshapes {
  static constexpr fact requires_facts = fact::shapes_inferred;

  template <class Module>
  static constexpr Module run(Module m) {
    return detail::rewrite_ops(m, [](Module& mod, std::int32_t i, auto& erased) {
      const node& n = mod.node_at(i);
      tensor& result = mod.tensor_at(n.output);
      if (n.kind != op_kind::reshape || result.role != tensor_role::intermediate) return;
      result.alias_of = n.inputs[0];
      erased[static_cast<std::size_t>(i)] = true;
    });
  }
};

}  // namespace ctnn::pass
