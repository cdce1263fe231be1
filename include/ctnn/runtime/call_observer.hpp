#pragma once
// An opt-in hook around every kernel call of the executor, for profilers (benchmarks/cortex_m counts the
// instructions of each call with SysTick). Define CTNN_CALL_OBSERVER to the name of a function in the
// global namespace, e.g. -DCTNN_CALL_OBSERVER=my_profiler_hook, and define that function once:
//
//   void my_profiler_hook(ctnn::call_event event, std::size_t call) noexcept { ... }
//
// The executor calls it with call_event::begin just before call `call` (its index in module.calls) and
// with call_event::end right after it. Without the macro the hook is an empty inline function and the
// executor's code is unchanged. The macro must be the same in every translation unit of a program (the
// executor's functions are inline: one definition rule).
#include <cstddef>

namespace ctnn {

enum class call_event : unsigned char { begin, end };

}  // namespace ctnn

#ifdef CTNN_CALL_OBSERVER
void CTNN_CALL_OBSERVER(ctnn::call_event event, std::size_t call) noexcept;
#endif

namespace ctnn::detail {

[[gnu::always_inline]] inline void observe_call([[maybe_unused]] call_event event, [[maybe_unused]] std::size_t call) noexcept {
#ifdef CTNN_CALL_OBSERVER
  ::CTNN_CALL_OBSERVER(event, call);
#endif
}

}  // namespace ctnn::detail
