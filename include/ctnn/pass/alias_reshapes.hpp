#pragma once
// alias_reshapes: a reshape (or flatten) does not move data, so its result becomes a view of its input
// (tensor::alias_of) and the op disappears: no kernel, no copy, no buffer of its own. The same holds for
// an op whose descriptor says its result is its input's bytes (is_view: a transpose that moves only
// extent-1 dims). Such an op that writes a model output stays a copy (the caller's buffer must be filled), and so
// does one of a state tensor (a READ_VARIABLE: the state may change after it).
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/ops/registry.hpp>
#include <ctnn/pass/detail/graph_edit.hpp>

namespace ctnn::pass {

struct alias_reshapes : detail::op_rewriting_pass<alias_reshapes> {
  template <class Module, class Uses, class Flags>
  static constexpr void rewrite(Module& m, const Uses&, std::int32_t i, Flags& erased) {
    const node& reshape = m.node_at(i);
    tensor& view = m.tensor_at(reshape.output);
    const bool moves_nothing = ops::visit_or(reshape.kind, false, [&](auto d) { return d.is_view(m, reshape); });
    // A state's copy stays a copy: an op after it may write the state (a resource variable's assignment).
    if (!moves_nothing || view.role != tensor_role::intermediate || m.tensor_at(reshape.inputs[0]).role == tensor_role::state)
      return;
    view.alias_of = reshape.inputs[0];
    erased[static_cast<std::size_t>(i)] = true;
  }
};

}  // namespace ctnn::pass
