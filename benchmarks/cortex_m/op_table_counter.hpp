#pragma once
// benchmarks/cortex_m/op_table.py's programs: one op case (tests/data/ops/<family>/<case>) compiled by ctnn for the
// Cortex-M, run and checked by tests/baremetal/op_case.hpp, the SysTick ticks of its kernel calls summed by the
// executor's per-call hook (op_table_counter.cpp) and printed as one JSON line: instructions per run of the case.
#include <cstdint>
#include <cstdio>

#include <ctnn/runtime/call_observer.hpp>

#include "instruction_counter.hpp"
#include "op_case.hpp"

namespace op_table {
extern bool observing;
extern std::uint64_t call_ticks;
extern std::uint32_t calls;

// Runs the case (all its invocations) with the hook on; prints the instructions of its calls per invocation.
template <class Net>
bool measure(const char* name, const char* dir, ctnn_tools::tolerance tolerance, std::uint32_t instructions_per_tick) {
  call_ticks = 0;
  calls = 0;
  observing = true;
  const bool equal = op_case::check<Net>(name, dir, tolerance);
  observing = false;
  const auto runs = static_cast<std::uint64_t>(op_case::invocations(dir));
  std::printf("{\"case\": \"%s\", \"instructions\": %lu, \"calls\": %lu, \"equal\": %s}\n", name,
              static_cast<unsigned long>(call_ticks * instructions_per_tick / runs), static_cast<unsigned long>(calls / runs),
              equal ? "true" : "false");
  return equal;
}
}  // namespace op_table
