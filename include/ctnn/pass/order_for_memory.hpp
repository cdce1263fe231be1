#pragma once
// order_for_memory: the second step of memory planning (docs/memory.md). With ctnn::memory_aware_order it
// changes the op order to lower the liveness peak: among the ops whose inputs are ready, the one that adds
// the fewest bytes runs first (memory/schedule.hpp). The new order is kept only when its peak, the reuse
// options included, is lower than the original order's (module::reordered says so); nodes, calls and their
// scratch move together. Without that option it leaves the module as it is.
#include <ctnn/ir/module.hpp>
#include <ctnn/memory/buffers.hpp>
#include <ctnn/memory/options.hpp>
#include <ctnn/memory/schedule.hpp>
#include <ctnn/pass/detail/kernel_table.hpp>
#include <ctnn/pass/detail/planning_step.hpp>
#include <ctnn/pass/detail/in_place_pass.hpp>

namespace ctnn::pass {

// The step itself, in place, with the options as a value.
template <class Module>
constexpr void order_ops_for_memory(Module& m, const memory::plan_config& config) {
  if (!config.reorder) return;
  // After lower_te the calls move too: module::kernel(k) must still name a call of kernel k.
  detail::keep_kernel_table_across(m, [&] { memory::order_for_memory(m, config); });
}

// The pass. Options: ctnn::memory_aware_order, and the reuse options, which the peaks it compares include.
template <class... Options>
struct order_for_memory : detail::planning_step<Options...>, detail::in_place_pass<order_for_memory<Options...>> {
  template <class Module>
  static constexpr void run_in_place(Module& m) {
    order_ops_for_memory(m, order_for_memory::config);
  }
};

}  // namespace ctnn::pass
