#pragma once
// Greedy-by-size placement (as TVM's USMP greedy_by_size and TFLM's GreedyMemoryPlanner): place the
// largest buffers first, each at the lowest offset that does not overlap a placed buffer whose lifetime
// overlaps its own.
#include <array>
#include <cstdint>

#include <ctnn/memory/buffer_info.hpp>

namespace ctnn::memory {

struct greedy_by_size {
  // Writes one allocation per buffer and returns the pool size the plan needs.
  template <class Buffers, class Allocations>
  static constexpr std::int64_t plan(const Buffers& buffers, std::int32_t count, Allocations& allocations) {
    constexpr std::size_t capacity = std::tuple_size_v<Buffers>;
    std::array<std::int32_t, capacity> order{};
    for (std::int32_t i = 0; i < count; ++i) order[static_cast<std::size_t>(i)] = i;
    // Insertion sort: stable and constexpr; larger first, then earlier first.
    for (std::int32_t i = 1; i < count; ++i) {
      const std::int32_t key = order[static_cast<std::size_t>(i)];
      std::int32_t j = i - 1;
      while (j >= 0 && buffers[static_cast<std::size_t>(order[static_cast<std::size_t>(j)])].bytes <
                           buffers[static_cast<std::size_t>(key)].bytes) {
        order[static_cast<std::size_t>(j + 1)] = order[static_cast<std::size_t>(j)];
        --j;
      }
      order[static_cast<std::size_t>(j + 1)] = key;
    }

    std::int64_t pool_bytes = 0;
    for (std::int32_t placed = 0; placed < count; ++placed) {
      const std::int32_t b = order[static_cast<std::size_t>(placed)];
      const buffer_info& me = buffers[static_cast<std::size_t>(b)];
      std::int64_t offset = 0;
      // Retry until a full scan finds no conflict; each retry moves past one conflicting buffer.
      for (bool moved = true; moved;) {
        moved = false;
        for (std::int32_t k = 0; k < placed; ++k) {
          const std::int32_t o = order[static_cast<std::size_t>(k)];
          const buffer_info& other = buffers[static_cast<std::size_t>(o)];
          const std::int64_t other_offset = allocations[static_cast<std::size_t>(o)].offset;
          if (!me.lifetime_overlaps(other)) continue;
          if (offset < other_offset + other.bytes && other_offset < offset + me.bytes) {
            offset = align_up(other_offset + other.bytes, me.alignment);
            moved = true;
          }
        }
      }
      allocations[static_cast<std::size_t>(b)] = pool_allocation{0, offset};
      if (offset + me.bytes > pool_bytes) pool_bytes = offset + me.bytes;
    }
    return pool_bytes;
  }
};

}  // namespace ctnn::memory
