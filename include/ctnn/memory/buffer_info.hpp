#pragma once
// The memory planner's public data structures (after TVM's USMP): what must be placed (buffer_info); where
// it may go (pool_info), where it went (pool_allocation) and what each pool ended up needing (pool_usage)
// are the module's own vocabulary (ir/pools.hpp, included here). Users may read and write them; docs/memory.md describes every field.
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/pools.hpp>

namespace ctnn::memory {

struct buffer_info {
  std::int32_t tensor = -1;      // tensor id in the module (for names and shapes); -1 for scratch
  std::int64_t bytes = 0;
  std::int32_t alignment = 16;   // offset must be a multiple of this
  std::int32_t first_use = 0;    // op index that writes it first
  std::int32_t last_use = 0;     // op index that reads it last (inclusive)
  buffer_kind kind = buffer_kind::intermediate;
  std::uint32_t candidate_pools = all_pools;  // bit p: may go in pool p (tried in pool order)
  // In place (ctnn::in_place_windows): this buffer may overlap buffer `written_over` (an index in the same
  // list; -1: none), which dies at this buffer's first use, if its offset is at most that buffer's offset
  // + over_shift (<= 0; a convolution's walk then never overwrites input it still reads). Placements
  // that ignore it stay valid (the two conflict as any others); first fit uses it, and the liveness
  // bound counts the pair at that op as in_place_footprint.
  std::int32_t written_over = -1;
  std::int64_t over_shift = 0;

  // Two buffers conflict when their lifetimes share an op: they may not overlap in memory.
  constexpr bool lifetime_overlaps(const buffer_info& other) const {
    return first_use <= other.last_use && other.first_use <= last_use;
  }
};

// The fewest bytes an in-place pair (result y written over input x at shift <= 0) can cover at its op:
// overlapping, max(x - shift, y); apart, x + y.
constexpr std::int64_t in_place_footprint(std::int64_t x_bytes, std::int64_t y_bytes, std::int64_t shift) {
  const std::int64_t overlapping = x_bytes - shift > y_bytes ? x_bytes - shift : y_bytes;
  return overlapping < x_bytes + y_bytes ? overlapping : x_bytes + y_bytes;
}

constexpr std::int64_t align_up(std::int64_t value, std::int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

}  // namespace ctnn::memory
