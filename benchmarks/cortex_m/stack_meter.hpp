#pragma once
// Peak stack use of one piece of code, by stack painting: fill the free stack with a pattern, run the
// code, then find the lowest word that changed. (A function that reserves stack without writing to it is
// not counted; interrupt frames are, so stop interrupts that should not count.)
//
//   const std::uintptr_t sp = cm_bench::stack_pointer();
//   cm_bench::paint_free_stack();
//   code();
//   const std::size_t peak = cm_bench::stack_used_below(sp);
#include <cstddef>
#include <cstdint>

namespace cm_bench {

[[gnu::always_inline]] inline std::uintptr_t stack_pointer() {
  std::uintptr_t sp;
  __asm volatile("mov %0, sp" : "=r"(sp));
  return sp;
}

// Paints the stack from its limit (the linker script's __StackLimit) up to this function's own stack
// pointer (nothing lives below it: it calls nothing, and Arm has no red zone).
void paint_free_stack();
// Bytes of stack used below `caller_sp` since paint_free_stack() (caller_sp: the caller's stack pointer,
// the same at both calls).
std::size_t stack_used_below(std::uintptr_t caller_sp);

}  // namespace cm_bench
