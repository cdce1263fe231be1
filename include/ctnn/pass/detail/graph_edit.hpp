#pragma once
// Graph rewriting shared by the passes that fuse, fold or remove ops: use counts, rewiring an op's
// result, and compacting the node list once a pass has marked the ops it removed.
#include <array>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/pass/detail/in_place_pass.hpp>

namespace ctnn::pass::detail {

// How many op operand slots read each tensor (model outputs count as one more use: their buffer must be
// written as it is).
template <class Module>
constexpr std::array<std::int32_t, Module::tensor_capacity> use_counts(const Module& m) {
  std::array<std::int32_t, Module::tensor_capacity> uses{};
  for (std::int32_t i = 0; i < m.node_count; ++i) {
    const node& n = m.node_at(i);
    for (std::int32_t k = 0; k < n.input_count; ++k)
      if (n.inputs[static_cast<std::size_t>(k)] >= 0) ++uses[static_cast<std::size_t>(n.inputs[static_cast<std::size_t>(k)])];
  }
  for (std::int32_t o = 0; o < m.output_count; ++o) ++uses[static_cast<std::size_t>(m.outputs[static_cast<std::size_t>(o)])];
  return uses;
}

// The op that produces `tensor_id`, if the tensor is an intermediate read by exactly one op slot.
template <class Module, class Uses>
constexpr std::int32_t sole_producer(const Module& m, const Uses& uses, std::int32_t tensor_id) {
  if (tensor_id < 0) return -1;
  const tensor& t = m.tensor_at(tensor_id);
  if (t.role != tensor_role::intermediate || uses[static_cast<std::size_t>(tensor_id)] != 1) return -1;
  return t.producer;
}

// Makes `node_id` write `tensor_id` (the result of an op it absorbs).
template <class Module>
constexpr void redirect_output(Module& m, std::int32_t node_id, std::int32_t tensor_id) {
  const std::int32_t old = m.node_at(node_id).output;
  if (old >= 0) m.tensor_at(old).producer = -1;
  m.node_at(node_id).output = tensor_id;
  m.tensor_at(tensor_id).producer = node_id;
}

// Removes the nodes marked in `erased`, keeping the order of the others, and renumbers producers.
template <class Module, class Flags>
constexpr void erase_nodes(Module& m, const Flags& erased) {
  std::int32_t kept = 0;
  for (std::int32_t i = 0; i < m.node_count; ++i) {
    if (erased[static_cast<std::size_t>(i)]) continue;
    m.nodes[static_cast<std::size_t>(kept++)] = m.node_at(i);
  }
  for (std::int32_t i = kept; i < m.node_count; ++i) m.nodes[static_cast<std::size_t>(i)] = node{};
  m.node_count = kept;
  for (std::int32_t t = 0; t < m.tensor_count; ++t)
    if (m.tensor_at(t).role != tensor_role::constant) m.tensor_at(t).producer = -1;
  for (std::int32_t i = 0; i < m.node_count; ++i) m.tensor_at(m.node_at(i).output).producer = i;
}

// The shape of every pass that removes ops: visit each op in order with `rewrite(m, i, erased)`, which
// may change the module and mark ops in `erased`; then compact the node list. In place.
template <class Module, class Rewrite>
constexpr void rewrite_ops(Module& m, Rewrite&& rewrite) {
  std::array<bool, Module::node_capacity> erased{};
  for (std::int32_t i = 0; i < m.node_count; ++i) rewrite(m, i, erased);
  erase_nodes(m, erased);
}

// Base of the graph-level passes that rewrite ops one by one (fold_constants, fold_batch_norm, fuse_ops,
// alias_reshapes): Pass::rewrite(m, uses, i, erased) sees each op in order with the use counts taken
// before the pass started.
template <class Pass>
struct op_rewriting_pass : in_place_pass<Pass> {
  static constexpr fact requires_facts = fact::shapes_inferred;

  template <class Module>
  static constexpr void run_in_place(Module& m) {
    const auto uses = use_counts(m);
    rewrite_ops(m, [&uses](Module& mod, std::int32_t i, auto& erased) { Pass::rewrite(mod, uses, i, erased); });
  }
};

// Bytes of the constants that kernel calls read (constants that passes folded away are not in the
// image; a view counts as its root).
template <class Module>
constexpr std::int64_t constant_bytes_read(const Module& m) {
  std::array<bool, Module::tensor_capacity> read{};
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    const kernel_call& call = m.calls[static_cast<std::size_t>(c)];
    for (std::int32_t k = 0; k < call.operand_count; ++k)
      if (call.operands[static_cast<std::size_t>(k)] >= 0)
        read[static_cast<std::size_t>(m.storage_root(call.operands[static_cast<std::size_t>(k)]))] = true;
  }
  std::int64_t bytes = 0;
  for (std::int32_t t = 0; t < m.tensor_count; ++t)
    if (m.tensor_at(t).role == tensor_role::constant && read[static_cast<std::size_t>(t)]) bytes += m.tensor_at(t).bytes();
  return bytes;
}

template <class Module>
constexpr std::int32_t add_recipe(Module& m, const constant_recipe& r) {
  m.recipes[static_cast<std::size_t>(m.recipe_count)] = r;
  return m.recipe_count++;
}

}  // namespace ctnn::pass::detail
