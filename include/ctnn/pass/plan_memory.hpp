#pragma once
// plan_memory: memory planning as one pass of the pipeline, made of five steps with one job each, each a
// pass of its own (its own header and unit tests), run in this order in one constant evaluation:
//
//   assign_pools<Options...>             the pools (ctnn::pools<>; default one "arena" without a limit), pins
//   order_for_memory<Options...>         a memory-aware op order (ctnn::memory_aware_order)
//   place_buffers<Algorithm, Options...> the buffers, their pools and offsets, the liveness lower bound
//   mark_in_place_calls                  calls whose result lies over their input: kernel_params::in_place
//   check_budgets                        every pool within its limit (errors::pool_budget_exceeded)
//
// A pipeline may list the five steps itself instead (with a pass of its own between them). Without options:
// one pool "arena" without a limit; model inputs and outputs stay in the caller's buffers; no reuse beyond
// views (alias_reshapes). The options (memory/options.hpp) add pools, pins, in-place ops, concat in place,
// in-place convolutions, a memory-aware op order and inputs/outputs in the pools. docs/memory.md.
#include <array>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/memory/algorithms.hpp>
#include <ctnn/memory/buffer_info.hpp>
#include <ctnn/memory/options.hpp>
#include <ctnn/pass/assign_pools.hpp>
#include <ctnn/pass/check_budgets.hpp>
#include <ctnn/pass/detail/in_place_pass.hpp>
#include <ctnn/pass/mark_in_place_calls.hpp>
#include <ctnn/pass/order_for_memory.hpp>
#include <ctnn/pass/place_buffers.hpp>

namespace ctnn::pass {

// The intermediate tensors (one buffer each, views included in their root's lifetime), with lifetimes
// in op order: what a plan without options places. memory::plan_buffers gives the full set.
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

// The whole planning step, the options as a value: callable at run time too (tools, benchmarks, property
// tests). The steps work on one module in place (it can be megabytes); a step that fails the module ends
// the sequence.
template <class Algorithm, class Module>
constexpr void plan_module_in_place(Module& m, const memory::plan_config& config) {
  assign_pools_and_pins(m, config);
  if (!m.error.failed()) order_ops_for_memory(m, config);
  if (!m.error.failed()) place_module_buffers<Algorithm>(m, config);
  if (!m.error.failed()) mark_in_place_calls::run_in_place(m);
  if (!m.error.failed()) check_budgets::run_in_place(m);
}

// The same on a module value.
template <class Algorithm, class Module>
constexpr Module plan_module(Module m, const memory::plan_config& config) {
  plan_module_in_place<Algorithm>(m, config);
  return m;
}

// The pass. Algorithm: a placement algorithm (memory::default_planner: the best of several, within a
// fixed compile-time cost); Options: the memory options (memory/options.hpp; docs/design.md §0 lists them).
template <class Algorithm = memory::default_planner, class... Options>
struct plan_memory : detail::planning_step<Options...>, detail::in_place_pass<plan_memory<Algorithm, Options...>> {
  using algorithm = Algorithm;
  static constexpr fact establishes = fact::memory_planned;

  template <class Module>
  static constexpr void run_in_place(Module& m) {
    plan_module_in_place<Algorithm>(m, plan_memory::config);
  }
};

}  // namespace ctnn::pass
