// SysTick as an instruction counter (instruction_counter.hpp). Register addresses: Armv7-M/Armv8-M
// System Control Space (the same on Cortex-M4 and, in the secure state, on Cortex-M33).
#include "instruction_counter.hpp"

namespace {

constexpr std::uintptr_t syst_csr = 0xE000E010u;  // control and status
constexpr std::uintptr_t syst_rvr = 0xE000E014u;  // reload value
constexpr std::uintptr_t syst_cvr = 0xE000E018u;  // current value (counts down)
constexpr std::uintptr_t scb_icsr = 0xE000ED04u;  // interrupt control and state
constexpr std::uint32_t csr_enable = 1u << 0, csr_tickint = 1u << 1, csr_processor_clock = 1u << 2;
constexpr std::uint32_t icsr_pendstset = 1u << 26;  // SysTick exception pending
// A wrap every 2^16 ticks (2.6 M instructions on mps2-an386), not the full 24 bits: the wrap counting is
// then exercised by every run, the calibration loop included (its figure is only right if wraps are
// counted), for ~20 instructions of handler per wrap (< 0.001 % of the figures).
constexpr std::uint32_t reload = 0x0000FFFFu;

volatile std::uint32_t& reg(std::uintptr_t address) { return *reinterpret_cast<volatile std::uint32_t*>(address); }

volatile std::uint32_t wraps = 0;

}  // namespace

extern "C" void SysTick_Handler() { wraps = wraps + 1; }

namespace cm_bench {

void start_counter() {
  reg(syst_csr) = 0;
  wraps = 0;
  reg(syst_rvr) = reload;
  reg(syst_cvr) = 0;  // any write clears the counter; it reloads on the next tick
  reg(syst_csr) = csr_enable | csr_tickint | csr_processor_clock;
  // The first tick loads the reload value into the cleared counter without a wrap; count from there.
  while (reg(syst_cvr) == 0) {
  }
}

void stop_counter() { reg(syst_csr) = 0; }

std::uint64_t ticks() {
  std::uint32_t primask;
  __asm volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask)::"memory");
  std::uint32_t wrapped = wraps;
  std::uint32_t value = reg(syst_cvr);
  if ((reg(scb_icsr) & icsr_pendstset) != 0) {  // a wrap whose interrupt has not run yet: count it,
    wrapped += 1;                                // and read the value after it
    value = reg(syst_cvr);
  }
  if ((primask & 1u) == 0) __asm volatile("cpsie i" ::: "memory");
  return std::uint64_t{wrapped} * (std::uint64_t{reload} + 1) + (reload - value);
}

calibration calibrate(std::uint32_t iterations) {
  calibration result;
  result.loop_instructions = 2 * iterations;
  std::uint32_t count = iterations;
  const std::uint64_t before = ticks();
  // GCC reads Thumb-1 (Armv6-M) inline assembly in divided syntax: the loop is written in unified syntax there too.
#if defined(__ARM_ARCH_6M__)
#define CM_BENCH_UNIFIED ".syntax unified\n\t"
#define CM_BENCH_DIVIDED "\n\t.syntax divided"
#else
#define CM_BENCH_UNIFIED ""
#define CM_BENCH_DIVIDED ""
#endif
  __asm volatile(
      CM_BENCH_UNIFIED
      "1:\n\t"
      "subs %0, %0, #1\n\t"
      "bne 1b" CM_BENCH_DIVIDED
      : "+r"(count)
      :
      : "cc");
  result.ticks = ticks() - before;
  return result;
}

}  // namespace cm_bench
