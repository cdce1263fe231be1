// Stack painting (stack_meter.hpp).
#include "stack_meter.hpp"

#include "ctnn_baremetal.h"  // CTNN_STACK_PAINT: the start-up code's pattern, which its overflow check expects

extern "C" std::uint32_t __StackLimit[];  // linker script: bottom of the stack reservation

namespace cm_bench {

// Paints up to a margin below the stack pointer: g++ may read it before this function's own prologue
// pushes (shrink-wrapping; seen with -mcpu=cortex-m55, where the loop's pushed return address was painted
// over). The margin stays unpainted, which is harmless: an inference goes far deeper.
constexpr std::uintptr_t own_frame_margin = 64;

[[gnu::noinline]] void paint_free_stack() {
  const std::uintptr_t top = (stack_pointer() - own_frame_margin) & ~std::uintptr_t{3};
  for (auto address = reinterpret_cast<std::uintptr_t>(__StackLimit); address < top; address += 4)
    *reinterpret_cast<volatile std::uint32_t*>(address) = CTNN_STACK_PAINT;
}

std::size_t stack_used_below(std::uintptr_t caller_sp) {
  auto address = reinterpret_cast<std::uintptr_t>(__StackLimit);
  while (address < caller_sp && *reinterpret_cast<const volatile std::uint32_t*>(address) == CTNN_STACK_PAINT) address += 4;
  return static_cast<std::size_t>(caller_sp - address);
}

}  // namespace cm_bench
