#pragma once
// The memory planner's public data structures (after TVM's USMP): what must be placed (buffer_info),
// where it may go (pool_info) and where it went (pool_allocation). Users may read and write them.
#include <cstdint>

namespace ctnn::memory {

enum class buffer_kind : std::uint8_t { input, output, intermediate, scratch, constant };

struct buffer_info {
  std::int32_t tensor = -1;      // tensor id in the module (for names and shapes)
  std::int64_t bytes = 0;
  std::int32_t alignment = 16;   // offset must be a multiple of this
  std::int32_t first_use = 0;    // op index that writes it first
  std::int32_t last_use = 0;     // op index that reads it last (inclusive)
  buffer_kind kind = buffer_kind::intermediate;

  // Two buffers conflict when their lifetimes share an op: they may not overlap in memory.
  constexpr bool lifetime_overlaps(const buffer_info& other) const {
    return first_use <= other.last_use && other.first_use <= last_use;
  }
};

struct pool_info {
  const char* name = "arena";
  std::int64_t size_limit = -1;  // -1: no limit
  std::int32_t alignment = 16;
  bool read_only = false;
};

struct pool_allocation {
  std::int32_t pool = 0;
  std::int64_t offset = -1;  // -1: not placed in a pool (inputs, outputs, constants)
};

constexpr std::int64_t align_up(std::int64_t value, std::int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

}  // namespace ctnn::memory
