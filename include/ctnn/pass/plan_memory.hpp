#pragma once
// plan_memory: gives every intermediate tensor an offset in the arena, with the chosen placement
// algorithm, and records the liveness lower bound and the op at the peak. Model inputs and outputs
// stay in the caller's buffers.
#include <array>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/memory/buffer_info.hpp>
#include <ctnn/memory/greedy_by_size.hpp>
#include <ctnn/memory/liveness.hpp>

namespace ctnn::pass {

// The buffers the planner must place, with lifetimes in op (call) order.
template <class Module>
constexpr std::array<memory::buffer_info, Module::tensor_capacity> arena_buffers(const Module& m,
                                                                                 std::int32_t& count) {
  std::array<memory::buffer_info, Module::tensor_capacity> buffers{};
  std::array<std::int32_t, Module::tensor_capacity> slot{};
  count = 0;
  for (std::int32_t t = 0; t < m.tensor_count; ++t) {
    slot[static_cast<std::size_t>(t)] = -1;
    const tensor& info = m.tensor_at(t);
    if (info.role != tensor_role::intermediate || info.producer < 0) continue;
    slot[static_cast<std::size_t>(t)] = count;
    buffers[static_cast<std::size_t>(count++)] =
        memory::buffer_info{t, info.bytes(), m.arena_alignment, info.producer, info.producer,
                            memory::buffer_kind::intermediate};
  }
  for (std::int32_t op = 0; op < m.node_count; ++op) {
    const node& n = m.node_at(op);
    for (std::int32_t i = 0; i < n.input_count; ++i) {
      const std::int32_t t = m.storage_root(n.inputs[static_cast<std::size_t>(i)]);  // a view keeps its root alive
      if (t < 0 || slot[static_cast<std::size_t>(t)] < 0) continue;
      auto& b = buffers[static_cast<std::size_t>(slot[static_cast<std::size_t>(t)])];
      if (op > b.last_use) b.last_use = op;
    }
  }
  return buffers;
}

template <class Algorithm = memory::greedy_by_size>
struct plan_memory {
  static constexpr fact requires_facts = fact::kernels_lowered;
  static constexpr fact establishes = fact::memory_planned;

  template <class Module>
  static constexpr Module run(Module m) {
    std::int32_t count = 0;
    const auto buffers = arena_buffers(m, count);
    std::array<memory::pool_allocation, Module::tensor_capacity> placed{};
    m.arena_bytes = memory::align_up(Algorithm::plan(buffers, count, placed), m.arena_alignment);
    for (auto& a : m.allocations) a = memory::pool_allocation{};
    for (std::int32_t b = 0; b < count; ++b)
      m.allocations[static_cast<std::size_t>(buffers[static_cast<std::size_t>(b)].tensor)] = placed[static_cast<std::size_t>(b)];
    const auto peak = memory::liveness_lower_bound(buffers, count, m.node_count);
    m.liveness_lower_bound = peak.bytes;
    m.peak_node = peak.op;
    m.establish(fact::memory_planned);
    return m;
  }
};

}  // namespace ctnn::pass
