// The per-call hook of benchmarks/cortex_m/op_table.py's programs (CTNN_CALL_OBSERVER=op_table_observe): the
// instructions of an op case's kernel calls, the executor's work between them left out (as run.py counts calls).
#include "op_table_counter.hpp"

#include "instruction_counter.hpp"

namespace op_table {
bool observing = false;
std::uint64_t call_ticks = 0;
std::uint32_t calls = 0;
namespace {
std::uint64_t started = 0;
}  // namespace
}  // namespace op_table

// Out of line: the counter is read last at a call's beginning and first at its end.
[[gnu::noinline]] void op_table_observe(ctnn::call_event event, std::size_t) noexcept {
  if (!op_table::observing) return;
  if (event == ctnn::call_event::begin) {
    ++op_table::calls;
    op_table::started = cm_bench::ticks();
  } else {
    op_table::call_ticks += cm_bench::ticks() - op_table::started;
  }
}
