#pragma once
// place_buffers: the third step of memory planning, the placement itself (docs/memory.md). It makes the
// buffer list (memory::buffers_to_place: intermediates, each call's scratch, and with the reuse options the
// merged and in-place buffers), restricts each buffer to the writable pools and to its pins
// (module::pins, from assign_pools), and places it with the algorithm, pool by pool in fallback order
// (memory::plan_pools). With in-place convolutions it places the buffers with and without the in-place
// pairs and keeps the pairs only if the pools get smaller. It records where every tensor and scratch
// went, what each pool needs (a read-only pool: the constants the kernels read), the liveness lower
// bound and the op at the peak, and per op whether its result now lies over its dying input
// (module::result_over_input, which mark_in_place_calls turns into kernel parameters); a call whose kernel
// makes its input its scratch (memory::scratch_made_in_place) and whose input is read later gets
// kernel_params::input_restored (the kernel table rebuilt). A pool over its
// limit is left recorded in pool_usage for check_budgets. A pin that names no buffer is an error
// (memory_error::pin_unknown_tensor at the pin's `position`), and so is a pin by a tensor name that two
// tensors with buffers of their own share (memory_error::pin_ambiguous_tensor_name: the pin, the name, the
// two tensors).
#include <array>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/memory/algorithms.hpp>
#include <ctnn/memory/buffer_info.hpp>
#include <ctnn/memory/buffers.hpp>
#include <ctnn/memory/liveness.hpp>
#include <ctnn/memory/options.hpp>
#include <ctnn/memory/pools.hpp>
#include <ctnn/pass/detail/graph_edit.hpp>
#include <ctnn/pass/detail/planning_step.hpp>
#include <ctnn/pass/detail/in_place_pass.hpp>
#include <ctnn/pass/detail/kernel_table.hpp>

namespace ctnn::pass {

namespace detail {

// The bit mask of the module's pools that can hold buffers.
template <class Module>
constexpr std::uint32_t writable_pools(const Module& m) {
  std::uint32_t writable = 0;
  for (std::int32_t p = 0; p < m.pool_count; ++p)
    if (!m.pools[static_cast<std::size_t>(p)].read_only) writable |= 1u << p;
  return writable;
}

// What applying the pins found wrong: the pin (-1: nothing) and, when its tensor name is shared by two
// tensors with buffers of their own (which one it means is unclear), those two tensors.
struct pin_problem {
  std::int32_t pin = -1;
  std::int32_t first_tensor = -1;
  std::int32_t second_tensor = -1;
};

// Applies module::pins to the candidate pools of `buffers`; returns the first pin that names no buffer, or
// whose name two placed tensors share.
template <class Module, class Set, class Buffers>
constexpr pin_problem apply_pins(const Module& m, const Set& set, Buffers& buffers) {
  for (std::int32_t k = 0; k < m.pin_count; ++k) {
    const memory::pool_pin& pin = m.pins[static_cast<std::size_t>(k)];
    const std::uint32_t only = 1u << pin.pool;
    if (pin.by_kind) {  // pinning a kind that has no buffer is not an error
      for (std::int32_t b = 0; b < set.count; ++b)
        if (buffers[static_cast<std::size_t>(b)].kind == pin.kind) buffers[static_cast<std::size_t>(b)].candidate_pools = only;
      continue;
    }
    std::int32_t first_tensor = -1;
    std::int32_t first_buffer = -1;
    for (std::int32_t t = 0; t < m.tensor_count; ++t) {
      const bool named = pin.by_name ? m.tensor_at(t).label == pin.tensor_name : t == pin.tensor;
      if (!named) continue;
      const std::int32_t b = set.buffer_of[static_cast<std::size_t>(m.storage_root(t))];
      if (b < 0) continue;
      if (first_tensor >= 0 && b != first_buffer) return {k, first_tensor, t};
      if (first_tensor < 0) first_tensor = t, first_buffer = b;
      buffers[static_cast<std::size_t>(b)].candidate_pools = only;
    }
    if (first_tensor < 0) return {k};
  }
  return {};
}

}  // namespace detail

// The step itself, in place, with the options as a value.
template <class Algorithm, class Module>
constexpr void place_module_buffers(Module& m, const memory::plan_config& config) {
  if (m.pool_count <= 0) {  // no assign_pools before: the module's documented default, one unlimited arena
    m.pools[0] = memory::pool_info{"arena", -1, m.arena_alignment, false};
    m.pool_count = 1;
  }
  const std::uint32_t writable = detail::writable_pools(m);
  const auto set = memory::buffers_to_place(m, config);
  auto buffers = set.buffers;
  for (std::int32_t b = 0; b < set.count; ++b) buffers[static_cast<std::size_t>(b)].candidate_pools = writable;
  if (const detail::pin_problem problem = detail::apply_pins(m, set, buffers); problem.pin >= 0) {
    if (problem.second_tensor >= 0)
      m.fail({code_of(memory_error::pin_ambiguous_tensor_name), -1, op_kind::none, {},
              diagnostic_name(m.pins[static_cast<std::size_t>(problem.pin)].tensor_name.view()),
              {.tensor = problem.first_tensor, .other_tensor = problem.second_tensor, .position = problem.pin}});
    else
      m.fail({code_of(memory_error::pin_unknown_tensor), -1, op_kind::none, {}, {}, {.position = problem.pin}});
    return;
  }

  auto placed = memory::plan_pools<Algorithm>(buffers, set.count, m.pools.data(), m.pool_count, m.node_count);
  if (set.windows_in_place > 0) {
    // In-place pairs only where the placement gets smaller with them (else the same buffers without).
    auto apart = buffers;
    for (std::int32_t b = 0; b < set.count; ++b) apart[static_cast<std::size_t>(b)].written_over = -1;
    const auto placed_apart = memory::plan_pools<Algorithm>(apart, set.count, m.pools.data(), m.pool_count, m.node_count);
    const auto total = [&](const auto& p) {
      std::int64_t bytes = 0;
      for (std::int32_t k = 0; k < m.pool_count; ++k)
        if (!m.pools[static_cast<std::size_t>(k)].read_only) bytes += p.usage[static_cast<std::size_t>(k)].bytes;
      return bytes;
    };
    if ((placed.failed_pool >= 0) == (placed_apart.failed_pool >= 0) ? total(placed_apart) <= total(placed) : placed.failed_pool >= 0) {
      placed = placed_apart;
      buffers = apart;
    }
  }
  for (auto& a : m.allocations) a = memory::pool_allocation{};
  for (auto& a : m.scratch) a = memory::pool_allocation{};
  for (std::int32_t t = 0; t < m.tensor_count; ++t) {
    const std::int32_t b = set.buffer_of[static_cast<std::size_t>(t)];
    if (b < 0) continue;
    const memory::pool_allocation& a = placed.allocations[static_cast<std::size_t>(b)];
    m.allocations[static_cast<std::size_t>(t)] = {a.pool, a.offset + set.offset_in_buffer[static_cast<std::size_t>(t)]};
  }
  bool params_changed = false;
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    const std::int32_t b = set.scratch_of[static_cast<std::size_t>(c)];
    if (b >= 0) {
      m.scratch[static_cast<std::size_t>(c)] = placed.allocations[static_cast<std::size_t>(b)];
    } else if (m.scratch_bytes[static_cast<std::size_t>(c)] > 0) {
      // None needed: the kernel makes its input the scratch (memory::scratch_made_in_place) and, where that input
      // is read after the call, restores it (kernel_params::input_restored).
      m.scratch_bytes[static_cast<std::size_t>(c)] = 0;
      kernel_call& call = m.calls[static_cast<std::size_t>(c)];
      const std::int32_t input = m.storage_root(m.node_at(call.node).inputs[0]);
      const std::int32_t over = input >= 0 ? set.buffer_of[static_cast<std::size_t>(input)] : -1;
      if (over >= 0 && buffers[static_cast<std::size_t>(over)].last_use > call.node && call.params.input_restored == 0) {
        call.params.input_restored = 1;
        params_changed = true;
      }
    }
  }
  if (params_changed) detail::rebuild_kernel_table(m);
  // Convolutions whose result the placement put over their input (a pair that overlaps) run in place.
  for (auto& over : m.result_over_input) over = false;
  std::int32_t windows_in_place = 0;
  for (std::int32_t b = 0; b < set.count; ++b) {
    const memory::buffer_info& y = buffers[static_cast<std::size_t>(b)];
    if (y.written_over < 0) continue;
    const memory::buffer_info& x = buffers[static_cast<std::size_t>(y.written_over)];
    const memory::pool_allocation& at_y = placed.allocations[static_cast<std::size_t>(b)];
    const memory::pool_allocation& at_x = placed.allocations[static_cast<std::size_t>(y.written_over)];
    if (at_y.pool != at_x.pool || at_y.offset >= at_x.offset + x.bytes || at_x.offset >= at_y.offset + y.bytes) continue;
    m.result_over_input[static_cast<std::size_t>(y.first_use)] = true;
    ++windows_in_place;
  }
  m.pool_usage = placed.usage;
  if (m.pool_count == 1) {  // the pool's own bound (plan_pools computed it)
    m.liveness_lower_bound = m.pool_usage[0].lower_bound;
    m.peak_node = m.pool_usage[0].peak_node;
  } else {
    const auto peak = memory::liveness_lower_bound(buffers, set.count, m.node_count);
    m.liveness_lower_bound = peak.bytes;
    m.peak_node = peak.op;
  }
  m.in_place_ops = set.in_place_ops + windows_in_place;
  m.concats_in_place = set.concats_in_place;
  m.slices_in_place = set.slices_in_place;
  m.io_bytes_outside = set.io_bytes_outside;
  // Read-only pools hold the constants the kernels read (they stay where they are: .rodata or the
  // embedded model file). After a failed pool, plan_pools placed nothing further: they stay empty too.
  if (placed.failed_pool < 0 && writable != (1u << m.pool_count) - 1u) {
    const std::int64_t constant_bytes = detail::constant_bytes_read(m);
    for (std::int32_t p = 0; p < m.pool_count; ++p)
      if (m.pools[static_cast<std::size_t>(p)].read_only)
        m.pool_usage[static_cast<std::size_t>(p)] = memory::pool_usage{constant_bytes, constant_bytes, -1, 0};
  }
}

// The pass. Algorithm: a placement algorithm (memory::default_planner: the best of several); Options: the
// reuse options (ctnn::in_place_ops, concat_in_place, memory_reuse, io_in_arena, in_place_depthwise,
// in_place_conv, in_place_windows; memory/options.hpp).
template <class Algorithm = memory::default_planner, class... Options>
struct place_buffers : detail::planning_step<Options...>, detail::in_place_pass<place_buffers<Algorithm, Options...>> {
  template <class Module>
  static constexpr void run_in_place(Module& m) {
    place_module_buffers<Algorithm>(m, place_buffers::config);
  }
};

}  // namespace ctnn::pass
