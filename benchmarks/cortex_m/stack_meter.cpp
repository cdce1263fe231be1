// Stack painting (stack_meter.hpp).
#include "stack_meter.hpp"

#include "ctnn_baremetal.h"  // CTNN_STACK_PAINT: the start-up code's pattern, which its overflow check expects

extern "C" std::uint32_t __StackLimit[];  // linker script: bottom of the stack reservation

namespace cm_bench {

[[gnu::noinline]] void paint_free_stack() {
  const std::uintptr_t top = stack_pointer() & ~std::uintptr_t{3};
  for (auto address = reinterpret_cast<std::uintptr_t>(__StackLimit); address < top; address += 4)
    *reinterpret_cast<volatile std::uint32_t*>(address) = CTNN_STACK_PAINT;
}

std::size_t stack_used_below(std::uintptr_t caller_sp) {
  auto address = reinterpret_cast<std::uintptr_t>(__StackLimit);
  while (address < caller_sp && *reinterpret_cast<const volatile std::uint32_t*>(address) == CTNN_STACK_PAINT) address += 4;
  return static_cast<std::size_t>(caller_sp - address);
}

}  // namespace cm_bench
