#pragma once
// The kernel families' select(): a kernel when it supports the call, else the family's fallback; and
// the int8 families' fallback itself.
#include <cstddef>

#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::detail {

template <class Kernel, class Fallback>
constexpr auto supported_or() {
  if constexpr (Kernel::supports) return Kernel{};
  else return Fallback{};
}

// No int8 kernel of the family for the call (supports = false): the reference kernel runs it.
struct unsupported_i8 : reads_constants_as_stored {
  static constexpr bool supports = false;
  template <std::size_t N>
  static void run(const void* const (&)[N], void*, const requant_arrays&) {}
};

}  // namespace ctnn::kernel::detail
