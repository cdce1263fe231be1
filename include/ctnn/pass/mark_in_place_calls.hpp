#pragma once
// mark_in_place_calls: the fourth step of memory planning. A call whose result place_buffers put over its
// dying input (module::result_over_input: an in-place convolution, ctnn::in_place_windows) gets
// kernel_params::in_place = 1, which the kernels read (the x86 vectorised ones refuse such calls, so the
// reference kernel runs there; the Armv7E-M DSP kernels take them; docs/memory.md); every other call gets 0. When a call's parameters change, the
// kernel table is rebuilt: structurally equal calls share one kernel, in call order, and no kernel is left
// unused (the table has room for one kernel per call, not for the old and the new variants side by side).
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/pass/detail/in_place_pass.hpp>
#include <ctnn/pass/detail/kernel_table.hpp>

namespace ctnn::pass {

struct mark_in_place_calls : detail::in_place_pass<mark_in_place_calls> {
  static constexpr fact requires_facts = fact::kernels_lowered;

  template <class Module>
  static constexpr void run_in_place(Module& m) {
    bool changed = false;
    for (std::int32_t c = 0; c < m.call_count; ++c) {
      kernel_call& call = m.calls[static_cast<std::size_t>(c)];
      const std::int32_t wanted = m.result_over_input[static_cast<std::size_t>(call.node)] ? 1 : 0;
      changed = changed || call.params.in_place != wanted;
      call.params.in_place = wanted;
    }
    if (changed) detail::rebuild_kernel_table(m);
  }
};

}  // namespace ctnn::pass
