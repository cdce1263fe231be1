#pragma once
// The packing interface of a kernel family (kernel/kernel_family.hpp: packs(k), pack<K>(read)) for a kernel
// that reads every constant operand as stored: kernels without a re-layout derive from it.
#include <cstddef>

namespace ctnn::kernel::detail {

struct reads_constants_as_stored {
  static constexpr bool packs(std::size_t) { return false; }
  template <std::size_t K, class Reader>
  static constexpr int pack(const Reader&) { return 0; }
};

}  // namespace ctnn::kernel::detail
