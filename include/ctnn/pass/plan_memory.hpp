#pragma once
// plan_memory: gives every buffer of the module a pool and an offset, with the chosen placement
// algorithm (memory/algorithms.hpp), and records what each pool needs, the liveness lower bound and the
// op at the peak. Without options: one pool "arena" without a limit; model inputs and outputs stay in
// the caller's buffers; no reuse beyond views (alias_reshapes). Its options (memory/options.hpp) add
// pools, pins, in-place ops, concat in place, in-place convolutions, a memory-aware op order
// and inputs/outputs in the pools;
// a pool whose limit the plan exceeds is a compile error (errors::pool_budget_exceeded). docs/memory.md.
#include <array>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/pass/detail/graph_edit.hpp>
#include <ctnn/memory/algorithms.hpp>
#include <ctnn/memory/buffer_info.hpp>
#include <ctnn/memory/buffers.hpp>
#include <ctnn/memory/liveness.hpp>
#include <ctnn/memory/options.hpp>
#include <ctnn/memory/pools.hpp>
#include <ctnn/memory/schedule.hpp>

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

namespace detail {

constexpr bool same_text(const char* a, const name& b) {
  if (a == nullptr) return false;
  std::size_t i = 0;
  for (; i < name::capacity && b.text[i] != '\0'; ++i)
    if (a[i] != b.text[i]) return false;
  return a[i] == '\0';
}

// kernel_params::in_place of every call as the plan says. When a call's params change, the kernel table
// is rebuilt (structurally equal calls share one kernel, in call order; no unused kernels): the table
// has room for one kernel per call, not for the old and the new variants side by side.
template <class Module, class Flags>
constexpr void mark_in_place_calls(Module& m, const Flags& in_place_node) {
  bool changed = false;
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    kernel_call& call = m.calls[static_cast<std::size_t>(c)];
    const std::int32_t wanted = in_place_node[static_cast<std::size_t>(call.node)] ? 1 : 0;
    changed = changed || call.params.in_place != wanted;
    call.params.in_place = wanted;
  }
  if (!changed) return;
  for (auto& k : m.kernels) k = kernel_params{};
  m.kernel_count = 0;
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    kernel_call& call = m.calls[static_cast<std::size_t>(c)];
    call.kernel = -1;
    for (std::int32_t k = 0; k < m.kernel_count && call.kernel < 0; ++k)
      if (m.kernels[static_cast<std::size_t>(k)] == call.params) call.kernel = k;
    if (call.kernel < 0) {
      call.kernel = m.kernel_count++;
      m.kernels[static_cast<std::size_t>(call.kernel)] = call.params;
    }
  }
}

}  // namespace detail

// The whole planning step, callable at run time too (tools, benchmarks, property tests).
template <class Algorithm, class Module>
constexpr Module plan_module(Module m, const memory::plan_config& config) {
  if (config.pool_count > 0) {
    m.pools = config.pools;
    m.pool_count = config.pool_count;
  }
  if (m.pool_count <= 0) {
    m.pools[0] = memory::pool_info{"arena", -1, m.arena_alignment, false};
    m.pool_count = 1;
  }
  std::uint32_t writable = 0;
  for (std::int32_t p = 0; p < m.pool_count; ++p) {
    memory::pool_info& pool = m.pools[static_cast<std::size_t>(p)];
    if (pool.alignment < m.arena_alignment) pool.alignment = m.arena_alignment;
    if (!pool.read_only) writable |= 1u << p;
  }

  // Pins: pools by name, ops by index (before any reordering: op pins name the op the user wrote).
  std::array<std::int32_t, memory::max_pins> pin_pool{}, pin_tensor{};
  for (std::int32_t k = 0; k < config.pin_count; ++k) {
    const memory::pin_rule& pin = config.pins[static_cast<std::size_t>(k)];
    std::int32_t& pool = pin_pool[static_cast<std::size_t>(k)];
    pool = -1;
    for (std::int32_t p = 0; p < m.pool_count && pool < 0; ++p)
      if (((writable >> p) & 1u) != 0 && detail::same_text(m.pools[static_cast<std::size_t>(p)].name, pin.pool)) pool = p;
    if (pool < 0) {
      m.fail({code_of(memory_error::pin_unknown_pool), -1, op_kind::conv2d, {}, {}, k, 0});
      return m;
    }
    pin_tensor[static_cast<std::size_t>(k)] =
        pin.target == memory::pin_target::op && pin.op >= 0 && pin.op < m.node_count ? m.node_at(pin.op).output : -1;
  }

  // Scratch: what each call's kernel declares (kernel_params::scratch_bytes), or more if a pass asked.
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    std::int64_t& bytes = m.scratch_bytes[static_cast<std::size_t>(c)];
    const std::int64_t declared = m.calls[static_cast<std::size_t>(c)].params.scratch_bytes;
    if (declared > bytes) bytes = declared;
  }

  if (config.reorder) m = memory::order_for_memory(m, config);
  const auto set = memory::buffers_to_place(m, config);
  auto buffers = set.buffers;
  for (std::int32_t b = 0; b < set.count; ++b) buffers[static_cast<std::size_t>(b)].candidate_pools = writable;
  for (std::int32_t k = 0; k < config.pin_count; ++k) {
    const memory::pin_rule& pin = config.pins[static_cast<std::size_t>(k)];
    const std::uint32_t only = 1u << pin_pool[static_cast<std::size_t>(k)];
    std::int32_t matched = 0;
    if (pin.target == memory::pin_target::kind) {
      for (std::int32_t b = 0; b < set.count; ++b)
        if (buffers[static_cast<std::size_t>(b)].kind == pin.kind) buffers[static_cast<std::size_t>(b)].candidate_pools = only;
      matched = 1;  // pinning a kind that has no buffer is not an error
    } else {
      for (std::int32_t t = 0; t < m.tensor_count; ++t) {
        const bool named = pin.target == memory::pin_target::tensor ? m.tensor_at(t).label == pin.tensor
                                                                     : t == pin_tensor[static_cast<std::size_t>(k)];
        if (!named) continue;
        const std::int32_t root = m.storage_root(t);
        const std::int32_t b = set.buffer_of[static_cast<std::size_t>(root)];
        if (b < 0) continue;
        buffers[static_cast<std::size_t>(b)].candidate_pools = only;
        ++matched;
      }
    }
    if (matched == 0) {
      m.fail({code_of(memory_error::pin_unknown_tensor), -1, op_kind::conv2d, {}, {}, k, 0});
      return m;
    }
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
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    const std::int32_t b = set.scratch_of[static_cast<std::size_t>(c)];
    if (b >= 0) m.scratch[static_cast<std::size_t>(c)] = placed.allocations[static_cast<std::size_t>(b)];
  }
  // Convolutions whose result the placement put over their input (a pair that overlaps) run in place.
  std::array<bool, Module::node_capacity> in_place_node{};
  std::int32_t windows_in_place = 0;
  for (std::int32_t b = 0; b < set.count; ++b) {
    const memory::buffer_info& y = buffers[static_cast<std::size_t>(b)];
    if (y.written_over < 0) continue;
    const memory::buffer_info& x = buffers[static_cast<std::size_t>(y.written_over)];
    const memory::pool_allocation& at_y = placed.allocations[static_cast<std::size_t>(b)];
    const memory::pool_allocation& at_x = placed.allocations[static_cast<std::size_t>(y.written_over)];
    if (at_y.pool != at_x.pool || at_y.offset >= at_x.offset + x.bytes || at_x.offset >= at_y.offset + y.bytes) continue;
    in_place_node[static_cast<std::size_t>(y.first_use)] = true;
    ++windows_in_place;
  }
  detail::mark_in_place_calls(m, in_place_node);
  m.pool_usage = placed.usage;
  m.arena_bytes = m.pool_usage[0].bytes;
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
  m.io_bytes_outside = set.io_bytes_outside;

  if (placed.failed_pool >= 0) {
    const op_kind kind = placed.peak_op >= 0 ? m.node_at(placed.peak_op).kind : op_kind::conv2d;
    m.fail({code_of(memory_error::pool_budget_exceeded), placed.peak_op, kind, make_shape(placed.failed_pool), {}, placed.needed, placed.limit});
    return m;
  }
  // Read-only pools hold the constants the kernels read (they stay where they are: .rodata or the
  // embedded model file); their limit bounds those bytes.
  if (writable != (1u << m.pool_count) - 1u) {
    const std::int64_t constant_bytes = detail::constant_bytes_read(m);
    for (std::int32_t p = 0; p < m.pool_count; ++p) {
      const memory::pool_info& pool = m.pools[static_cast<std::size_t>(p)];
      if (!pool.read_only) continue;
      m.pool_usage[static_cast<std::size_t>(p)] = memory::pool_usage{constant_bytes, constant_bytes, -1, 0};
      if (pool.size_limit >= 0 && constant_bytes > pool.size_limit) {
        m.fail({code_of(memory_error::pool_budget_exceeded), -1, op_kind::conv2d, make_shape(p), {}, constant_bytes, pool.size_limit});
        return m;
      }
    }
  }
  m.establish(fact::memory_planned);
  return m;
}

// The pass. Algorithm: a placement algorithm (memory::default_planner: the best of several, within a
// fixed compile-time cost); Options: ctnn::pools<>, ctnn::pin<>, ctnn::pin_op<>, ctnn::pin_kind<>,
// ctnn::in_place_ops, ctnn::concat_in_place, ctnn::memory_aware_order, ctnn::memory_reuse,
// ctnn::io_in_arena, ctnn::in_place_depthwise, ctnn::in_place_conv, ctnn::in_place_windows (memory/options.hpp).
template <class Algorithm = memory::default_planner, class... Options>
struct plan_memory {
  static_assert((memory::memory_option<Options> && ...),
                "ctnn::pass::plan_memory<Algorithm, Options...>: an option is not a memory option (ctnn::pools<>, "
                "ctnn::pin<>, ctnn::pin_op<>, ctnn::pin_kind<>, ctnn::in_place_ops, ctnn::concat_in_place, "
                "ctnn::memory_aware_order, ctnn::memory_reuse, ctnn::io_in_arena, ctnn::in_place_depthwise, "
                "ctnn::in_place_conv, ctnn::in_place_windows).");
  static constexpr fact requires_facts = fact::kernels_lowered;
  static constexpr fact establishes = fact::memory_planned;
  static constexpr memory::plan_config config = memory::make_plan_config<Options...>();

  template <class Module>
  static constexpr Module run(Module m) {
    return plan_module<Algorithm>(m, config);
  }
};

}  // namespace ctnn::pass
