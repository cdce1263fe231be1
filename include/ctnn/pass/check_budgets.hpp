#pragma once
// check_budgets: the last step of memory planning. Every pool with a limit (ctnn::pool<Name, Bytes>,
// ctnn::read_only_pool<Name, Bytes>) must hold what place_buffers put there: a writable pool the bytes
// its plan needs, a read-only pool the constants the kernels read. The first pool over its limit fails
// the module with memory_error::pool_budget_exceeded (the pool's index and name, the bytes needed, the limit
// and the op at the pool's liveness peak, -1 for constants), which ctnn::compile turns into a compile error
// carrying them (errors::pool_budget_exceeded). Otherwise the plan is complete: it establishes
// fact::memory_planned.
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/pass/detail/in_place_pass.hpp>

namespace ctnn::pass {

struct check_budgets : detail::in_place_pass<check_budgets> {
  static constexpr fact requires_facts = fact::kernels_lowered;
  static constexpr fact establishes = fact::memory_planned;

  template <class Module>
  static constexpr void run_in_place(Module& m) {
    for (const bool read_only : {false, true}) {  // the activations' pools first, then the constants'
      for (std::int32_t p = 0; p < m.pool_count; ++p) {
        const memory::pool_info& pool = m.pools[static_cast<std::size_t>(p)];
        const memory::pool_usage& usage = m.pool_usage[static_cast<std::size_t>(p)];
        if (pool.read_only != read_only || pool.size_limit < 0 || usage.bytes <= pool.size_limit) continue;
        const std::int32_t op = read_only ? -1 : usage.peak_node;
        const op_kind kind = op >= 0 ? m.node_at(op).kind : op_kind::none;
        m.fail({code_of(memory_error::pool_budget_exceeded), op, kind, make_shape(p), diagnostic_name(pool.name),
                {.bytes_needed = usage.bytes, .bytes_available = pool.size_limit}});
        return;
      }
    }
    m.establish(fact::memory_planned);
  }
};

}  // namespace ctnn::pass
