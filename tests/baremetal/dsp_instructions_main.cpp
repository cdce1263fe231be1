// Instructions per call of an MLPerf Tiny int8 model (CTNN_MLPERF_MODEL, embedded by ctnn_add_model) on
// the Cortex-M4, counted with SysTick under `qemu-system-arm -icount shift=0` (the processor clock there
// is 40 instructions per SysTick count, DESIGN §6), with the Armv7E-M DSP kernels (kernel/arm/i8.hpp) or,
// built with CTNN_ARM_REFERENCE_KERNELS, without them. It runs the model call by call (executor::run_call)
// on TFLM reference case 0, checks the output bit for bit, and prints one line per call (op kind, MACs,
// instructions, instructions per MAC), then per op kind and in all. A calibration loop of known length
// (subs/bne: 2 instructions per turn) is timed first and printed, so the scale can be checked.
// Figures only: nothing here asserts a time; main fails only when the output differs from TFLM's.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include <ctnn/ctnn.hpp>
#include <ctnn/models/mlperf_model.hpp>

#include "mlperf_refs.hpp"

#define CTNN_STRINGIZE2(x) #x
#define CTNN_STRINGIZE(x) CTNN_STRINGIZE2(x)

namespace {

// CTNN_DSP_IN_PLACE: with in-place convolutions too (the calls the planner puts over their input run the
// DSP kernels' pixel-major walk).
#ifdef CTNN_DSP_IN_PLACE
using net = ctnn::compile<ctnn::models::mlperf_model, ctnn::memory_reuse, ctnn::io_in_arena, ctnn::in_place_windows>;
#else
using net = ctnn::compile<ctnn::models::mlperf_model, ctnn::memory_reuse, ctnn::io_in_arena>;
#endif

// SysTick: counts down from LOAD at the processor clock, no interrupt: counts() sees each wrap through
// COUNTFLAG (cleared when read), so it must run at least once per 2^24 counts (671 M instructions).
volatile std::uint32_t* const systick_ctrl = reinterpret_cast<volatile std::uint32_t*>(0xE000E010u);
volatile std::uint32_t* const systick_load = reinterpret_cast<volatile std::uint32_t*>(0xE000E014u);
volatile std::uint32_t* const systick_value = reinterpret_cast<volatile std::uint32_t*>(0xE000E018u);
constexpr std::uint32_t reload = 0x00FFFFFFu;
constexpr std::uint64_t instructions_per_count = 40;
volatile std::uint32_t wraps = 0;

// SysTick counts since start_counting().
std::uint64_t counts() {
  std::uint32_t value = *systick_value;
  if ((*systick_ctrl & (1u << 16)) != 0) {  // COUNTFLAG: wrapped since the last read (maybe after `value`)
    wraps = wraps + 1;
    value = *systick_value;
  }
  return static_cast<std::uint64_t>(wraps) * (reload + 1) + (reload - value);
}

void start_counting() {
  *systick_ctrl = 0;
  *systick_load = reload;
  *systick_value = 0;
  wraps = 0;
  *systick_ctrl = 0x5u;  // processor clock, enable, no interrupt
  while (*systick_value == 0) {
  }  // until the first reload from LOAD (VAL read 0 before it)
  (void)*systick_ctrl;  // clears COUNTFLAG
}

[[gnu::noinline]] void calibration_loop(std::uint32_t turns) {
  __asm volatile("1: subs %0, %0, #1\n bne 1b" : "+r"(turns)::"cc");
}

std::int64_t macs_of(const ctnn::kernel_params& p) {
  switch (p.kind) {
    case ctnn::op_kind::conv2d: return p.out.elements() * p.win.kernel_h * p.win.kernel_w * (p.in[3] / p.groups);
    case ctnn::op_kind::depthwise_conv2d: return p.out.elements() * p.win.kernel_h * p.win.kernel_w;
    case ctnn::op_kind::dense: return p.out.elements() * (p.in.elements() / p.out[0]);
    default: return 0;
  }
}

// A ratio with two decimals, for printf without float support (newlib-nano): "%lu.%02lu".
struct hundredths {
  unsigned long whole, fraction;
};
hundredths ratio(std::uint64_t num, std::int64_t den) {
  if (den <= 0) return {0, 0};
  const std::uint64_t h = (num * 100 + static_cast<std::uint64_t>(den) / 2) / static_cast<std::uint64_t>(den);
  return {static_cast<unsigned long>(h / 100), static_cast<unsigned long>(h % 100)};
}

constexpr int kinds = ctnn::op_kind_count;
std::uint64_t kind_instructions[kinds]{};
std::int64_t kind_macs[kinds]{}, kind_elements[kinds]{};
int kind_calls[kinds]{};

template <std::size_t C>
void time_call(const net::pool_pointers& pools, const void* const* inputs, void* const* outputs) {
  constexpr const ctnn::kernel_params& p = net::module.calls[C].params;
  const std::uint64_t before = counts();
  net::run_call<C>(pools, inputs, outputs);
  const std::uint64_t instructions = (counts() - before) * instructions_per_count;
  const std::int64_t macs = macs_of(p);
  const auto k = static_cast<int>(p.kind);
  kind_instructions[k] += instructions;
  kind_macs[k] += macs;
  kind_elements[k] += p.out.elements();
  ++kind_calls[k];
  const hundredths per_mac = ratio(instructions, macs), per_output = ratio(instructions, p.out.elements());
  std::printf("call %2u %-18s out %6ld  MACs %8ld  instructions %9lu  per MAC %3lu.%02lu  per output %6lu.%02lu%s\n",
              static_cast<unsigned>(C), ctnn::name_of(p.kind), static_cast<long>(p.out.elements()), static_cast<long>(macs),
              static_cast<unsigned long>(instructions), per_mac.whole, per_mac.fraction, per_output.whole, per_output.fraction,
              p.in_place != 0 ? "  in place" : "");
}

}  // namespace

int main() {
  start_counting();
  constexpr std::uint32_t turns = 1'000'000;
  const std::uint64_t before = counts();
  calibration_loop(turns);
  const std::uint64_t loop = (counts() - before) * instructions_per_count;
  std::printf("model %s, kernels %s%s\ncalibration: %lu turns of subs/bne = %lu instructions, counted %lu\n",
              CTNN_STRINGIZE(CTNN_MLPERF_MODEL),
#ifdef CTNN_ARM_REFERENCE_KERNELS
              "reference",
#else
              "arm-dsp",
#endif
#ifdef CTNN_DSP_IN_PLACE
              ", in-place convolutions",
#else
              "",
#endif
              static_cast<unsigned long>(turns), static_cast<unsigned long>(2 * turns), static_cast<unsigned long>(loop));

  const auto pools = net::static_pools();
  std::memcpy(net::input<0>::data(), mlperf_refs::input[0], net::input<0>::bytes);
  net::run();  // warm-up (and the calls before each timed one have run, as run_call requires)
  std::memcpy(net::input<0>::data(), mlperf_refs::input[0], net::input<0>::bytes);
  const void* inputs[1] = {net::input<0>::data()};
  void* outputs[1] = {net::output<0>::data()};
  [&]<std::size_t... C>(std::index_sequence<C...>) {
    (time_call<C>(pools, inputs, outputs), ...);
  }(std::make_index_sequence<static_cast<std::size_t>(net::module.call_count)>{});
  std::uint64_t total = 0;  // the calls' own instructions (not the printing between them)
  std::int64_t all_macs = 0;
  for (int k = 0; k < kinds; ++k) {
    if (kind_calls[k] == 0) continue;
    all_macs += kind_macs[k];
    total += kind_instructions[k];
    const hundredths per_mac = ratio(kind_instructions[k], kind_macs[k]);
    const hundredths per_output = ratio(kind_instructions[k], kind_elements[k]);
    std::printf("kind %-18s calls %2d  MACs %8ld  instructions %9lu  per MAC %3lu.%02lu  per output %6lu.%02lu\n",
                ctnn::name_of(static_cast<ctnn::op_kind>(k)), kind_calls[k], static_cast<long>(kind_macs[k]),
                static_cast<unsigned long>(kind_instructions[k]), per_mac.whole, per_mac.fraction, per_output.whole,
                per_output.fraction);
  }
  const bool same = std::memcmp(net::output<0>::data(), mlperf_refs::output[0], net::output<0>::bytes) == 0;
  const hundredths per_mac = ratio(total, all_macs);
  std::printf("total: MACs %ld  instructions %lu  per MAC %lu.%02lu; output %s\n", static_cast<long>(all_macs),
              static_cast<unsigned long>(total), per_mac.whole, per_mac.fraction, same ? "equal to TFLM" : "DIFFERS from TFLM");
  return same ? 0 : 1;
}
