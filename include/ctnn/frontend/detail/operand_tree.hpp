#pragma once
// Variadic ops with more operands than an IR node holds (issue #28: DenseNet-121's Concat of 25 inputs; ONNX
// Concat, Sum, Max, Min, Mean; TFLite CONCATENATION, ADD_N): both importers join them through nodes of at most
// max_node_inputs operands each (raising max_node_inputs would grow every node of every model).
#include <array>
#include <cstdint>

#include <ctnn/ir/op_kind.hpp>

namespace ctnn::frontend_detail {

// How the nodes nest.
//  balanced: the first max_node_inputs operands one node, the next ones another, ..., their results joined the
//    same way a level up (a concat of concats along one axis is the concat: each element is copied once a level);
//  chained: the first max_node_inputs operands one node, whose result is the first operand of the next node with
//    the following operands, ... (each operand reaches the op in its order, as one node folding them would take
//    it: a float sum adds in the same order, so the result is the same to the bit).
enum class operand_tree { balanced, chained };

inline constexpr std::uint32_t operand_tree_levels = 4;
// The most operands a balanced tree of operand_tree_levels levels joins.
inline constexpr std::uint32_t max_tree_operands = static_cast<std::uint32_t>(max_node_inputs * max_node_inputs * max_node_inputs * max_node_inputs);

// The most nodes join_operands adds besides the op's own (each takes max_node_inputs operands, but for the
// remainders of the levels below the top), for the importers' capacities.
constexpr std::uint32_t added_joins(std::uint32_t count) {
  return count > max_node_inputs ? count / static_cast<std::uint32_t>(max_node_inputs - 1) + operand_tree_levels : 0;
}

// Joins operands 0..count-1 in their order: read(k) gives operand k's id, join(parts, n, last) makes a node of
// parts[0, n) and gives its result's id (last: the node whose result is the op's own). Either gives -1 after a
// diagnostic, which ends the walk. Returns the last join's id (-1 after a diagnostic, or more than
// max_tree_operands operands for a balanced tree: the caller refuses those first).
template <class Read, class Join>
constexpr std::int32_t join_operands(std::uint32_t count, operand_tree form, Read&& read, Join&& join) {
  std::array<std::array<std::int32_t, max_node_inputs>, operand_tree_levels> pending{};
  std::array<std::uint32_t, operand_tree_levels> held{};
  // `item` at `level`: a full level first joins into the level above it (whose operands all come before), the
  // full levels above it first.
  const auto add = [&](std::uint32_t level, std::int32_t item) -> bool {
    std::uint32_t free = level;
    while (free < operand_tree_levels && held[free] == max_node_inputs) ++free;
    if (free == operand_tree_levels) return false;
    for (std::uint32_t l = free; l-- > level;) {
      const std::int32_t joined = join(pending[l], held[l], false);
      if (joined < 0) return false;
      held[l] = 0;
      pending[l + 1][held[l + 1]++] = joined;
    }
    pending[level][held[level]++] = item;
    return true;
  };
  for (std::uint32_t k = 0; k < count; ++k) {
    const std::int32_t item = read(k);
    if (item < 0) return -1;
    if (form == operand_tree::chained && held[0] == max_node_inputs) {
      const std::int32_t joined = join(pending[0], held[0], false);
      if (joined < 0) return -1;
      pending[0][0] = joined;
      held[0] = 1;
    }
    if (!add(0, item)) return -1;
  }
  // The lower levels' remainders join the level above (a single operand moves up as it is), up to the top.
  std::uint32_t level = 0;
  for (; level + 1 < operand_tree_levels; ++level) {
    bool above = false;
    for (std::uint32_t l = level + 1; l < operand_tree_levels; ++l) above = above || held[l] > 0;
    if (!above) break;
    if (held[level] == 0) continue;
    const std::int32_t carried = held[level] == 1 ? pending[level][0] : join(pending[level], held[level], false);
    held[level] = 0;
    if (carried < 0 || !add(level + 1, carried)) return -1;
  }
  return join(pending[level], held[level], true);
}

}  // namespace ctnn::frontend_detail
