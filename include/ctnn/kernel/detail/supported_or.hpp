#pragma once
// The kernel families' select(): a kernel when it supports the call, else the family's fallback.
namespace ctnn::kernel::detail {

template <class Kernel, class Fallback>
constexpr auto supported_or() {
  if constexpr (Kernel::supports) return Kernel{};
  else return Fallback{};
}

}  // namespace ctnn::kernel::detail
