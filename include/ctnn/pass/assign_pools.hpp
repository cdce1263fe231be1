#pragma once
// assign_pools: the first step of memory planning (docs/memory.md). It sets the pools the plan may use, in
// fallback order: those of ctnn::pools<> when given, else the module's own, else one pool "arena" without
// a limit; raises every pool's alignment to the module's; and resolves the pins (ctnn::pin<>, pin_op<>,
// pin_kind<>) into module::pins: pool names become pool indices, and an op pin becomes the op's result
// tensor (before any reordering: an op pin names the op as the user wrote it). A pin that names no
// writable pool is an error (memory_error::pin_unknown_pool at the pin's `position`). Which buffers
// the pins actually name is checked where the buffers are known (place_buffers).
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/memory/options.hpp>
#include <ctnn/pass/detail/planning_step.hpp>
#include <ctnn/pass/detail/in_place_pass.hpp>

namespace ctnn::pass {

namespace detail {

constexpr bool same_text(const char* a, const name& b) {
  if (a == nullptr) return false;
  std::size_t i = 0;
  for (; i < name::capacity && b.text[i] != '\0'; ++i)
    if (a[i] != b.text[i]) return false;
  return a[i] == '\0';
}

}  // namespace detail

// The step itself, in place, with the options as a value (tools and tests build the config at run time).
// In place, not by value: a module can be megabytes, and plan_module chains five steps.
template <class Module>
constexpr void assign_pools_and_pins(Module& m, const memory::plan_config& config) {
  if (config.pool_count > 0) {
    m.pools = config.pools;
    m.pool_count = config.pool_count;
  }
  if (m.pool_count <= 0) {
    m.pools[0] = memory::pool_info{"arena", -1, m.arena_alignment, false};
    m.pool_count = 1;
  }
  for (std::int32_t p = 0; p < m.pool_count; ++p) {
    memory::pool_info& pool = m.pools[static_cast<std::size_t>(p)];
    if (pool.alignment < m.arena_alignment) pool.alignment = m.arena_alignment;
  }
  m.pins = {};
  m.pin_count = config.pin_count;
  for (std::int32_t k = 0; k < config.pin_count; ++k) {
    const memory::pin_rule& rule = config.pins[static_cast<std::size_t>(k)];
    memory::pool_pin& pin = m.pins[static_cast<std::size_t>(k)];
    for (std::int32_t p = 0; p < m.pool_count && pin.pool < 0; ++p) {
      const memory::pool_info& pool = m.pools[static_cast<std::size_t>(p)];
      if (!pool.read_only && detail::same_text(pool.name, rule.pool)) pin.pool = p;
    }
    if (pin.pool < 0) {
      m.fail({code_of(memory_error::pin_unknown_pool), -1, op_kind::none, {}, {}, {.position = k}});
      return;
    }
    pin.by_kind = rule.target == memory::pin_target::kind;
    pin.kind = rule.kind;
    pin.by_name = rule.target == memory::pin_target::tensor;
    if (pin.by_name) pin.tensor_name = rule.tensor;
    if (rule.target == memory::pin_target::op && rule.op >= 0 && rule.op < m.node_count) pin.tensor = m.node_at(rule.op).output;
  }
}

// The pass. Options: ctnn::pools<>, ctnn::pin<>, ctnn::pin_op<>, ctnn::pin_kind<> (others are ignored here).
template <class... Options>
struct assign_pools : detail::planning_step<Options...>, detail::in_place_pass<assign_pools<Options...>> {
  template <class Module>
  static constexpr void run_in_place(Module& m) {
    assign_pools_and_pins(m, assign_pools::config);
  }
};

}  // namespace ctnn::pass
