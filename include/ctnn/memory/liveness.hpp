#pragma once
// Buffer lifetimes and the liveness lower bound: no plan can use fewer bytes than the largest sum of
// bytes live at one op.
#include <cstdint>

#include <ctnn/memory/buffer_info.hpp>

namespace ctnn::memory {

struct liveness_peak {
  std::int64_t bytes = 0;
  std::int32_t op = -1;
};

// O(ops * buffers); both are model-sized and the work is plain constexpr loops over values.
template <class Buffers>
constexpr liveness_peak liveness_lower_bound(const Buffers& buffers, std::int32_t buffer_count, std::int32_t op_count) {
  liveness_peak peak{};
  for (std::int32_t op = 0; op < op_count; ++op) {
    std::int64_t live = 0;
    for (std::int32_t b = 0; b < buffer_count; ++b) {
      const buffer_info& info = buffers[static_cast<std::size_t>(b)];
      if (info.first_use <= op && op <= info.last_use) live += info.bytes;
    }
    if (live > peak.bytes) peak = {live, op};
  }
  return peak;
}

}  // namespace ctnn::memory
