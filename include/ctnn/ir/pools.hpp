#pragma once
// The memory vocabulary the module holds (docs/design.md §3): the pools a plan may use (pool_info), where a
// buffer went (pool_allocation) and what each pool needs (pool_usage). They live in ir/ because the module
// stores them; the planner (memory/) fills them. The namespace stays ctnn::memory, where users look.
#include <cstddef>
#include <cstdint>

namespace ctnn::memory {

// At most this many pools per model (SRAM, DTCM, external RAM, ...); buffer_info::candidate_pools is a
// bit mask over them.
inline constexpr std::size_t max_pools = 8;
inline constexpr std::uint32_t all_pools = (1u << max_pools) - 1u;

struct pool_info {
  const char* name = "arena";
  std::int64_t size_limit = -1;  // -1: no limit
  std::int32_t alignment = 16;   // of the pool's start, and of every offset in it
  bool read_only = false;        // read-only pools (flash) hold no planned buffer
};

struct pool_allocation {
  std::int32_t pool = 0;
  std::int64_t offset = -1;  // -1: not placed in a pool (caller's inputs and outputs, constants, views)
};

// What one pool needs after planning.
struct pool_usage {
  std::int64_t bytes = 0;        // the pool's size: highest placed byte, rounded up to its alignment
  std::int64_t lower_bound = 0;  // liveness lower bound of the buffers placed in it
  std::int32_t peak_node = -1;   // the op where that bound is reached (-1: empty pool)
  std::int32_t buffer_count = 0;
};

}  // namespace ctnn::memory
