#pragma once
// Instructions executed on a Cortex-M core under `qemu-system-arm -icount shift=0`, counted with SysTick.
//
// With -icount shift=0 QEMU advances its virtual clock by 1 ns per instruction, and SysTick, clocked by
// the processor clock (CLKSOURCE = 1), ticks once per board clock period: 40 instructions on mps2-an386
// (25 MHz), 50 on mps2-an505 (20 MHz). calibrate() measures that ratio on a subs/bne loop of known length
// rather than assuming it. SysTick counts down from its reload value; its interrupt counts the wraps, so
// runs of any length are counted (ticks() reads both with interrupts masked).
#include <cstdint>

namespace cm_bench {

// Starts SysTick from zero on the processor clock, wrap interrupt enabled.
void start_counter();
// Stops SysTick (and its interrupt).
void stop_counter();
// Ticks since start_counter(), wraps included.
std::uint64_t ticks();

struct calibration {
  std::uint32_t loop_instructions = 0;  // instructions of the subs/bne loop (2 per iteration)
  std::uint64_t ticks = 0;              // SysTick ticks it took
  // Instructions per tick, rounded to the nearest integer (the multiplier of every figure).
  std::uint32_t instructions_per_tick() const {
    return ticks == 0 ? 0 : static_cast<std::uint32_t>((2 * std::uint64_t{loop_instructions} + ticks) / (2 * ticks));
  }
};
// Runs a subs/bne loop of `iterations` iterations under the running counter.
calibration calibrate(std::uint32_t iterations);

}  // namespace cm_bench
