#pragma once
// Memory-aware operator order for DAGs. Any topological order of the ops computes the same results, but
// the bytes live at once differ. memory::memory_aware_order lists the ops greedily: among the ops whose
// inputs are ready, the one that adds the fewest bytes (its result's bytes minus the bytes of operands
// it reads last; ties: the lowest original index), which finishes branches before it opens new ones.
// plan_memory keeps that order only when its liveness peak (of the very buffers it will place, reuse
// included) is lower than the original order's: the default order never gets worse, and sequential
// models are never touched. O(n * ready ops + edges), deterministic.
#include <array>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/memory/buffers.hpp>
#include <ctnn/memory/liveness.hpp>

namespace ctnn::memory {

// order[k]: the op (node index) to run k-th; false when the module cannot be reordered (a call that is
// not its node's, or a cycle).
template <class Module>
constexpr bool memory_aware_order(const Module& m, const plan_config& config, std::array<std::int32_t, Module::node_capacity>& order) {
  constexpr std::size_t nodes = Module::node_capacity;
  constexpr std::size_t tensors = Module::tensor_capacity;
  const std::int32_t count = m.node_count;
  if (m.call_count != count) return false;
  for (std::int32_t c = 0; c < count; ++c)
    if (m.calls[static_cast<std::size_t>(c)].node != c) return false;
  const node* n = m.nodes.data();
  const tensor* t = m.tensors.data();
  // A state tensor that several ops use (a resource variable's reads and assignments): their order is the
  // model's, which producer edges do not say; such a module keeps its order.
  for (std::int32_t i = 0; i < count; ++i)
    for (std::int32_t k = 0; k < n[i].input_count; ++k) {
      const std::int32_t s = n[i].inputs[static_cast<std::size_t>(k)];
      if (s < 0 || t[s].role != tensor_role::state) continue;
      for (std::int32_t j = i + 1; j < count; ++j)
        for (std::int32_t l = 0; l < n[j].input_count; ++l)
          if (n[j].inputs[static_cast<std::size_t>(l)] == s) return false;
    }
  const auto streamed = streamed_inputs(m);
  // Bytes held by a tensor root while it lives (0 for what the plan does not place).
  const auto held = [&](std::int32_t root) -> std::int64_t {
    const tensor& x = t[root];
    if (x.alias_of >= 0) return 0;  // a view an op writes (a paste): its root's bytes are counted once
    if (x.role == tensor_role::intermediate && x.producer >= 0) return x.bytes();
    if (x.role == tensor_role::input && x.io_index >= 0 && streamed[static_cast<std::size_t>(x.io_index)]) return 0;
    if (config.io_in_arena && (x.role == tensor_role::input || x.role == tensor_role::output)) return x.bytes();
    return 0;
  };
  std::array<std::int32_t, tensors> uses_storage{};     // reads left per root (one per reading op)
  std::array<std::int32_t, nodes> waiting_storage{};    // producers not run yet, per op
  std::array<std::int32_t, nodes * max_node_inputs> edge_storage{};  // consumers, grouped by producer
  std::array<std::int32_t, nodes + 1> edge_begin_storage{};
  std::int32_t* uses = uses_storage.data();
  std::int32_t* waiting = waiting_storage.data();
  std::int32_t* edge = edge_storage.data();
  std::int32_t* edge_begin = edge_begin_storage.data();
  // Distinct roots read by each op, and the op each waits for: the producer of the operand itself when it
  // has one (a view that an op writes: patch execution's pastes), else the root's.
  std::array<std::int32_t, nodes * max_node_inputs> root_storage{}, writer_storage{};
  std::int32_t* roots = root_storage.data();
  std::int32_t* writers = writer_storage.data();
  for (std::int32_t i = 0; i < count; ++i) {
    for (std::int32_t k = n[i].input_count; k < static_cast<std::int32_t>(max_node_inputs); ++k)
      roots[i * static_cast<std::int32_t>(max_node_inputs) + k] = -1;
    for (std::int32_t k = 0; k < n[i].input_count; ++k) {
      const std::int32_t r = m.storage_root(n[i].inputs[static_cast<std::size_t>(k)]);
      bool repeated = false;
      for (std::int32_t j = 0; j < k; ++j) repeated = repeated || roots[i * static_cast<std::int32_t>(max_node_inputs) + j] == r;
      roots[i * static_cast<std::int32_t>(max_node_inputs) + k] = repeated ? -1 : r;
      if (r < 0 || repeated) continue;
      const std::int32_t own = t[n[i].inputs[static_cast<std::size_t>(k)]].producer;
      const std::int32_t writer = own >= 0 ? own : t[r].producer;
      writers[i * static_cast<std::int32_t>(max_node_inputs) + k] = writer;
      ++uses[r];
      if (writer >= 0) {
        ++waiting[i];
        ++edge_begin[writer + 1];
      }
    }
  }
  for (std::int32_t i = 0; i < count; ++i) edge_begin[i + 1] += edge_begin[i];
  std::array<std::int32_t, nodes + 1> fill_storage = edge_begin_storage;
  std::int32_t* fill = fill_storage.data();
  for (std::int32_t i = 0; i < count; ++i)
    for (std::int32_t k = 0; k < n[i].input_count; ++k) {
      const std::int32_t r = roots[i * static_cast<std::int32_t>(max_node_inputs) + k];
      const std::int32_t writer = writers[i * static_cast<std::int32_t>(max_node_inputs) + k];
      if (r >= 0 && writer >= 0) edge[fill[writer]++] = i;
    }
  for (std::int32_t o = 0; o < m.output_count; ++o) ++uses[m.outputs[static_cast<std::size_t>(o)]];  // read by the caller

  std::array<std::int32_t, nodes> ready_storage{};
  std::int32_t* ready = ready_storage.data();
  std::int32_t ready_count = 0;
  for (std::int32_t i = 0; i < count; ++i)
    if (waiting[i] == 0) ready[ready_count++] = i;
  std::int32_t* out = order.data();
  for (std::int32_t step = 0; step < count; ++step) {
    if (ready_count == 0) return false;
    std::int32_t pick = -1;
    std::int64_t pick_delta = 0;
    for (std::int32_t r = 0; r < ready_count; ++r) {
      const std::int32_t i = ready[r];
      std::int64_t delta = held(n[i].output);
      for (std::int32_t k = 0; k < n[i].input_count; ++k) {
        const std::int32_t root = roots[i * static_cast<std::int32_t>(max_node_inputs) + k];
        if (root >= 0 && uses[root] == 1) delta -= held(root);
      }
      if (pick < 0 || delta < pick_delta || (delta == pick_delta && i < ready[pick])) {
        pick = r;
        pick_delta = delta;
      }
    }
    const std::int32_t i = ready[pick];
    ready[pick] = ready[--ready_count];
    out[step] = i;
    for (std::int32_t k = 0; k < n[i].input_count; ++k) {
      const std::int32_t root = roots[i * static_cast<std::int32_t>(max_node_inputs) + k];
      if (root >= 0) --uses[root];
    }
    for (std::int32_t e = edge_begin[i]; e < edge_begin[i + 1]; ++e)
      if (--waiting[edge[e]] == 0) ready[ready_count++] = edge[e];
  }
  return true;
}

// Runs the ops in `order` (op k becomes the op that was at order[k]): nodes, calls and per-call scratch
// move together, in place, one cycle of the permutation at a time (a module can be megabytes: no copy of
// it); producers follow.
template <class Module>
constexpr void apply_op_order(Module& m, const std::array<std::int32_t, Module::node_capacity>& order) {
  std::array<bool, Module::node_capacity> moved{};
  for (std::int32_t start = 0; start < m.node_count; ++start) {
    if (moved[static_cast<std::size_t>(start)]) continue;
    const node first_node = m.nodes[static_cast<std::size_t>(start)];
    const kernel_call first_call = m.calls[static_cast<std::size_t>(start)];
    const std::int64_t first_scratch = m.scratch_bytes[static_cast<std::size_t>(start)];
    std::int32_t to = start;
    for (std::int32_t from = order[static_cast<std::size_t>(to)]; from != start; from = order[static_cast<std::size_t>(to)]) {
      m.nodes[static_cast<std::size_t>(to)] = m.nodes[static_cast<std::size_t>(from)];
      m.calls[static_cast<std::size_t>(to)] = m.calls[static_cast<std::size_t>(from)];
      m.scratch_bytes[static_cast<std::size_t>(to)] = m.scratch_bytes[static_cast<std::size_t>(from)];
      moved[static_cast<std::size_t>(to)] = true;
      to = from;
    }
    m.nodes[static_cast<std::size_t>(to)] = first_node;
    m.calls[static_cast<std::size_t>(to)] = first_call;
    m.scratch_bytes[static_cast<std::size_t>(to)] = first_scratch;
    moved[static_cast<std::size_t>(to)] = true;
  }
  for (std::int32_t k = 0; k < m.node_count; ++k) {
    m.calls[static_cast<std::size_t>(k)].node = k;
    m.tensor_at(m.nodes[static_cast<std::size_t>(k)].output).producer = k;
  }
}

// Gives the module the op order of lower liveness peak, in place (leaves it as it is when it already has
// it; module::reordered says whether the order changed).
template <class Module>
constexpr void order_for_memory(Module& m, const plan_config& config) {
  std::array<std::int32_t, Module::node_capacity> order{};
  if (!memory_aware_order(m, config, order)) return;
  bool same = true;
  for (std::int32_t k = 0; k < m.node_count; ++k) same = same && order[static_cast<std::size_t>(k)] == k;
  if (same) return;
  const auto peak_of = [&config](const Module& x) {
    const auto set = buffers_to_place(x, config);
    return liveness_lower_bound(set.buffers, set.count, x.node_count).bytes;
  };
  const std::int64_t peak_before = peak_of(m);
  apply_op_order(m, order);
  if (peak_of(m) < peak_before) {
    m.reordered = 1;
    return;
  }
  std::array<std::int32_t, Module::node_capacity> back{};  // the inverse permutation: the original order
  for (std::int32_t k = 0; k < m.node_count; ++k) back[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])] = k;
  apply_op_order(m, back);
}

}  // namespace ctnn::memory
