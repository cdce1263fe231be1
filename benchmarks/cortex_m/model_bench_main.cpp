// The Cortex-M benchmark program (benchmarks/cortex_m/run.py builds and runs it): one MLPerf Tiny int8
// model (CTNN_BENCH_MODEL, embedded by ctnn_add_model as bench_model) compiled by ctnn with the firmware
// memory options (memory_reuse, io_in_arena, in_place_windows; other options for run.py --patches), run
// under qemu with -icount shift=0.
// Built twice: cm_bench_<model> as firmware would be (its figures: instructions, sizes, stack), and
// cm_bench_<model>_calls with CTNN_CALL_OBSERVER=cm_bench_observe, the per-call hook of the executor
// (its figures: instructions per call).
//
// It prints one JSON object per line (run.py reads them; nothing else on stdout starts with '{'):
//   {"calibration": ...}         the subs/bne loop: its instructions and the SysTick ticks it took
//   {"case": k, ...}             each TFLM reference case: output equal to TFLM's byte for byte or not
//   {"inference": ...}           ticks of one inference on case 0
//   {"observed_inference": ...}  (_calls) ticks of a second inference on case 0, whether the hook saw every
//                                call once, in order
//   {"call": c, ...}             per kernel call: op kind, result tensor, MACs (from the module's shapes),
//                                output elements, window, in place or not; (_calls) ticks in that inference
//   {"model": ...}               its memory options, MACs, constant and requantization bytes, arena, peak stack of an inference
// and returns 0 when every case equals TFLM's output (and the hook saw every call).
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include <ctnn/ctnn.hpp>
#include <ctnn/models/bench_model.hpp>

#include "../common/layer_macs.hpp"
#include "instruction_counter.hpp"
#include "mlperf_refs.hpp"
#include "stack_meter.hpp"

#define CM_BENCH_STRINGIZE2(x) #x
#define CM_BENCH_STRINGIZE(x) CM_BENCH_STRINGIZE2(x)

namespace {

// The memory options (CMakeLists.txt): the firmware's by default; run.py --patches compares memory_reuse +
// io_in_arena with and without the automatic patch stage, the options under which it is kept on VWW
// (with in_place_windows it is not: docs/memory.md, "Patch execution").
#if defined(CTNN_BENCH_SCHEDULE_patches)
using net = ctnn::compile<ctnn::models::bench_model, ctnn::memory_reuse, ctnn::io_in_arena, ctnn::patch_execution<ctnn::max_extra_macs<10>>>;
constexpr const char* schedule = "reuse+io+patches";
#elif defined(CTNN_BENCH_SCHEDULE_reuse_io)
using net = ctnn::compile<ctnn::models::bench_model, ctnn::memory_reuse, ctnn::io_in_arena>;
constexpr const char* schedule = "reuse+io";
#else
using net = ctnn::compile<ctnn::models::bench_model, ctnn::memory_reuse, ctnn::io_in_arena, ctnn::in_place_windows>;
constexpr const char* schedule = "reuse+io+win";
#endif
static_assert(net::input<0>::bytes == mlperf_refs::input_bytes && net::output<0>::bytes == mlperf_refs::output_bytes,
              "the reference cases do not match the model's interface");

// What the report says about each call, copied out of the module at compile time: the module itself must
// not be read at run time, or its whole value table would land in .rodata and count as the model's.
struct call_info {
  const char* kind = "";
  std::uint32_t macs = 0, elements = 0;
  std::int32_t kernel_h = 0, kernel_w = 0, in_place = 0;
  ctnn::name result{};
};
constexpr auto call_infos = [] {
  std::array<call_info, net::call_count> infos{};
  for (std::size_t c = 0; c < net::call_count; ++c) {
    const auto& call = net::module.calls[c];
    infos[c] = {ctnn::name_of(call.params.kind), static_cast<std::uint32_t>(ctnn_bench::macs_of(call.params)),
                static_cast<std::uint32_t>(call.params.out.elements()), call.params.win.kernel_h, call.params.win.kernel_w,
                call.params.in_place, net::module.tensors[static_cast<std::size_t>(call.result)].label};
  }
  return infos;
}();

// The model's constant bytes as its kernels' operands (each tensor once), and the per-channel
// requantization tables (multiplier and shift, 4 bytes each, per output channel).
constexpr std::int64_t constant_bytes() {
  std::int64_t total = 0;
  const auto& m = net::module;
  for (std::size_t t = 0; t < static_cast<std::size_t>(m.tensor_count); ++t) {
    bool used = false;
    for (std::size_t c = 0; c < net::call_count && !used; ++c)
      for (std::int32_t k = 0; k < m.calls[c].operand_count; ++k)
        used = used || (m.calls[c].operand_at[static_cast<std::size_t>(k)].where == ctnn::storage::constant &&
                        m.calls[c].operands[static_cast<std::size_t>(k)] == static_cast<std::int32_t>(t));
    if (used) total += m.tensors[t].bytes();
  }
  return total;
}
constexpr std::int64_t requantization_bytes() {
  std::int64_t total = 0;
  for (std::size_t c = 0; c < net::call_count; ++c) {
    const ctnn::kernel_params& p = net::module.calls[c].params;
    if (p.per_channel != 0 && p.type == ctnn::dtype::i8 && p.kind != ctnn::op_kind::concat) total += 8 * p.out.last();
  }
  return total;
}
constexpr std::int64_t model_constant_bytes = constant_bytes();
constexpr std::int64_t model_requantization_bytes = requantization_bytes();
constexpr std::int64_t model_macs = ctnn_bench::model_macs<net>();
static_assert(model_macs < (std::int64_t{1} << 32) && model_constant_bytes < (std::int64_t{1} << 32),
              "figures are printed as 32-bit numbers (newlib-nano's printf has no %llu)");

#ifdef CTNN_CALL_OBSERVER
// The per-call hook (CTNN_CALL_OBSERVER): accumulates each call's ticks while `observing`, and checks that
// the executor reports every call once, in order, begin before end (`hook_in_order`).
bool observing = false;
std::uint64_t call_started = 0;
std::uint64_t call_ticks[net::call_count > 0 ? net::call_count : 1]{};
std::size_t hook_events = 0;
bool hook_in_order = true;
#endif

}  // namespace

// The inference, out of line under a name in ctnn's namespace: run.py counts the code of `ctnn::` symbols
// as ctnn's, so the executor must not be inlined into main.
namespace ctnn::bench_entry {
[[gnu::noinline]] void infer() { net::run(); }
}  // namespace ctnn::bench_entry

#ifdef CTNN_CALL_OBSERVER
// Out of line: inlined into the executor, it would count as ctnn's code.
[[gnu::noinline]] void cm_bench_observe(ctnn::call_event event, std::size_t call) noexcept {
  if (!observing) return;
  // The counter is read last at a call's beginning and first at its end: the bookkeeping stays outside.
  const std::uint64_t now = event == ctnn::call_event::end ? cm_bench::ticks() : 0;
  const ctnn::call_event expected = hook_events % 2 == 0 ? ctnn::call_event::begin : ctnn::call_event::end;
  hook_in_order = hook_in_order && event == expected && call == hook_events / 2 && call < net::call_count;
  ++hook_events;
  if (!hook_in_order) return;
  if (event == ctnn::call_event::begin) call_started = cm_bench::ticks();
  else call_ticks[call] += now - call_started;
}
#endif

namespace {

void load_case(std::size_t k) { std::memcpy(net::input<0>::data(), mlperf_refs::input[k], net::input<0>::bytes); }
bool output_equals_case(std::size_t k) {
  return std::memcmp(net::output<0>::data(), mlperf_refs::output[k], net::output<0>::bytes) == 0;
}

// Prints a name as a JSON string (quotes and backslashes escaped, control characters dropped).
void print_json_string(const ctnn::name& text) {
  std::putchar('"');
  for (const char ch : text.view()) {
    if (ch == '"' || ch == '\\') std::putchar('\\');
    if (static_cast<unsigned char>(ch) >= 0x20) std::putchar(ch);
  }
  std::putchar('"');
}

unsigned long u32(std::uint64_t value) { return static_cast<unsigned long>(value); }  // newlib-nano: no %llu

// A case of a model with state (net::state_bytes > 0) runs CTNN_BENCH_INVOCATIONS times from the initial state (the
// folder's file `invocations`, CMakeLists.txt), its last run timed and compared: these are the runs before it. The
// input is loaded before each run (io_in_arena: a run may reuse its memory).
#ifndef CTNN_BENCH_INVOCATIONS
#define CTNN_BENCH_INVOCATIONS 1
#endif
void prepare_case(std::size_t k) {
  if constexpr (net::state_bytes > 0) {
    net::reset_state();
    for (int run = 1; run < CTNN_BENCH_INVOCATIONS; ++run) {
      load_case(k);
      ctnn::bench_entry::infer();
    }
  }
  load_case(k);
}

// Ticks of one inference on the loaded input.
std::uint64_t timed_inference() {
  const std::uint64_t before = cm_bench::ticks();
  ctnn::bench_entry::infer();
  return cm_bench::ticks() - before;
}

}  // namespace

int main() {
  cm_bench::start_counter();
  const cm_bench::calibration calibration = cm_bench::calibrate(4000000);  // 8 M instructions: 3 or more wraps
  std::printf("{\"calibration\": {\"cpu\": \"%s\", \"loop_instructions\": %lu, \"ticks\": %lu, \"instructions_per_tick\": %lu}}\n",
              CM_BENCH_STRINGIZE(CTNN_BENCH_CPU), u32(calibration.loop_instructions), u32(calibration.ticks),
              u32(calibration.instructions_per_tick()));

  // Every reference case, byte for byte; case 0 (the ramp, as TFLM's figures) last, the one timed.
  unsigned equal = 0;
  std::uint64_t inference_ticks = 0;
  for (std::size_t k = mlperf_refs::case_count; k-- > 0;) {
    prepare_case(k);
    inference_ticks = timed_inference();
    const bool same = output_equals_case(k);
    equal += same ? 1 : 0;
    std::printf("{\"case\": %u, \"equal\": %s}\n", static_cast<unsigned>(k), same ? "true" : "false");
  }
  std::printf("{\"inference\": {\"ticks\": %lu}}\n", u32(inference_ticks));

#ifdef CTNN_CALL_OBSERVER
  prepare_case(0);
  observing = true;
  const std::uint64_t observed_ticks = timed_inference();
  observing = false;
  const bool observed_equal = output_equals_case(0);
  const bool hook_complete = hook_in_order && hook_events == 2 * net::call_count;
  std::printf("{\"observed_inference\": {\"ticks\": %lu, \"equal\": %s, \"hook_events\": %u, \"hook_complete\": %s}}\n",
              u32(observed_ticks), observed_equal ? "true" : "false", static_cast<unsigned>(hook_events), hook_complete ? "true" : "false");
#else
  constexpr bool observed_equal = true, hook_complete = true;
#endif
  for (std::size_t c = 0; c < net::call_count; ++c) {
    const call_info& call = call_infos[c];
    std::printf("{\"call\": %u, \"kind\": \"%s\", \"result\": ", static_cast<unsigned>(c), call.kind);
    print_json_string(call.result);
    std::printf(", \"macs\": %lu, \"elements\": %lu, \"kernel\": [%d, %d], \"in_place\": %d", static_cast<unsigned long>(call.macs),
                static_cast<unsigned long>(call.elements), static_cast<int>(call.kernel_h), static_cast<int>(call.kernel_w),
                static_cast<int>(call.in_place));
#ifdef CTNN_CALL_OBSERVER
    std::printf(", \"ticks\": %lu", u32(call_ticks[c]));
#endif
    std::printf("}\n");
  }

  // Peak stack of one inference, SysTick stopped (its exception frames would count).
  cm_bench::stop_counter();
  prepare_case(0);
  const std::uintptr_t sp = cm_bench::stack_pointer();
  cm_bench::paint_free_stack();
  ctnn::bench_entry::infer();
  const std::size_t stack_peak = cm_bench::stack_used_below(sp);

  std::printf("{\"model\": {\"name\": \"%s\", \"options\": \"%s\", \"calls\": %u, \"macs\": %lu, \"constant_bytes\": %lu, \"requantization_bytes\": %lu, "
              "\"arena_bytes\": %lu, \"total_ram\": %lu, \"stack_peak\": %lu, \"cases_equal\": %u, \"cases\": %u}}\n",
              CM_BENCH_STRINGIZE(CTNN_BENCH_MODEL), schedule, static_cast<unsigned>(net::call_count), u32(static_cast<std::uint64_t>(model_macs)),
              u32(static_cast<std::uint64_t>(model_constant_bytes)), u32(static_cast<std::uint64_t>(model_requantization_bytes)),
              u32(net::arena_bytes), u32(net::total_ram_bytes), u32(stack_peak), equal, static_cast<unsigned>(mlperf_refs::case_count));
  return equal == mlperf_refs::case_count && observed_equal && hook_complete ? 0 : 1;
}
