#pragma once
// What the memory-planning passes that take options share (plan_memory and its steps assign_pools,
// order_for_memory, place_buffers): the options checked, as one value (memory::plan_config), and the fact
// they read.
#include <ctnn/ir/module.hpp>
#include <ctnn/memory/options.hpp>

namespace ctnn::pass::detail {

template <class... Options>
struct planning_step {
  static_assert((memory::memory_option<Options> && ...),
                "ctnn::pass::plan_memory (or one of its steps): an option is not a memory option (ctnn::pools<>, "
                "ctnn::pin<>, ctnn::pin_op<>, ctnn::pin_kind<>, ctnn::in_place_ops, ctnn::concat_in_place, ctnn::slice_in_place, "
                "ctnn::memory_aware_order, ctnn::memory_reuse, ctnn::io_in_arena, ctnn::in_place_depthwise, "
                "ctnn::in_place_conv, ctnn::in_place_windows).");
  static constexpr fact requires_facts = fact::kernels_lowered;
  static constexpr memory::plan_config config = memory::make_plan_config<Options...>();
};

}  // namespace ctnn::pass::detail
