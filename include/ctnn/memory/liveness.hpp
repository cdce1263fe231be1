#pragma once
// Buffer lifetimes and the liveness lower bound: no plan can use fewer bytes than the largest sum of
// bytes live at one op.
#include <array>
#include <cstdint>
#include <tuple>

#include <ctnn/memory/buffer_info.hpp>
#include <ctnn/memory/detail/sort.hpp>

namespace ctnn::memory {

struct liveness_peak {
  std::int64_t bytes = 0;
  std::int32_t op = -1;  // the first op (of 0 .. op_count - 1) where `bytes` are live; -1 when nothing is
};

// The largest sum of bytes live at one op, and the first op where it is reached. Sweeps the lifetimes
// sorted by start and by end: O(n log n) in the number of buffers, independent of the number of ops
// (the live sum only grows where a buffer starts). A buffer whose last use is before its first is
// never live. An in-place pair (buffer_info::written_over) counts its smallest footprint at its op.

namespace detail {
// What an in-place pair saves at the op where buffer i starts (0: i is not the result of a live pair).
constexpr std::int64_t in_place_saving(const buffer_info* b, std::int32_t i) {
  const std::int32_t x = b[i].written_over;
  if (x < 0 || b[x].last_use != b[i].first_use || b[x].first_use > b[i].first_use || b[x].bytes <= 0) return 0;
  return b[x].bytes + b[i].bytes - in_place_footprint(b[x].bytes, b[i].bytes, b[i].over_shift);
}
}  // namespace detail

template <class Buffers>
constexpr liveness_peak liveness_lower_bound(const Buffers& buffers, std::int32_t buffer_count, std::int32_t op_count) {
  constexpr std::size_t n = std::tuple_size_v<Buffers>;
  const buffer_info* b = buffers.data();
  std::array<std::int32_t, n> index_storage{};
  std::array<std::int64_t, n> start_storage{}, end_storage{};
  std::int32_t* index = index_storage.data();
  std::int64_t* start = start_storage.data();
  std::int64_t* end = end_storage.data();
  std::int32_t count = 0;
  for (std::int32_t i = 0; i < buffer_count; ++i) {
    if (b[i].first_use > b[i].last_use || b[i].bytes <= 0) continue;
    index[count] = i;
    start[count] = b[i].first_use < 0 ? 0 : b[i].first_use;
    end[count++] = b[i].last_use;
  }
  const auto starts_storage = detail::sorted_by_key<n>(count, start);
  const auto ends_storage = detail::sorted_by_key<n>(count, end);
  const std::int32_t* starts = starts_storage.data();
  const std::int32_t* ends = ends_storage.data();

  liveness_peak peak{};
  std::int64_t live = 0;
  std::int32_t s = 0, e = 0;
  while (s < count) {
    const std::int64_t op = start[starts[s]];
    if (op >= op_count) break;
    std::int64_t saved = 0;
    for (; s < count && start[starts[s]] == op; ++s) {
      live += b[index[starts[s]]].bytes;
      saved += detail::in_place_saving(b, index[starts[s]]);
    }
    for (; e < count && end[ends[e]] < op; ++e) live -= b[index[ends[e]]].bytes;
    if (live - saved > peak.bytes) peak = {live - saved, static_cast<std::int32_t>(op)};
  }
  return peak;
}

// The bytes live at each op: live[op] for op in 0 .. op_count - 1 (`live` has op_count + 1 elements at
// least), the profile whose largest value is the bound above. O(buffers + ops).
template <class Buffers, class Live>
constexpr void live_bytes_per_op(const Buffers& buffers, std::int32_t buffer_count, std::int32_t op_count, Live& live) {
  const buffer_info* b = buffers.data();
  for (std::int32_t op = 0; op <= op_count; ++op) live[static_cast<std::size_t>(op)] = 0;
  for (std::int32_t i = 0; i < buffer_count; ++i) {
    if (b[i].first_use > b[i].last_use || b[i].bytes <= 0) continue;
    const std::int32_t first = b[i].first_use < 0 ? 0 : b[i].first_use;
    const std::int32_t end = b[i].last_use + 1 < op_count ? b[i].last_use + 1 : op_count;
    if (first >= end) continue;
    live[static_cast<std::size_t>(first)] += b[i].bytes;
    live[static_cast<std::size_t>(end)] -= b[i].bytes;
    if (b[i].first_use >= 0) {  // the pair's saving, at its op only
      const std::int64_t saved = detail::in_place_saving(b, i);
      live[static_cast<std::size_t>(first)] -= saved;
      live[static_cast<std::size_t>(first + 1)] += saved;
    }
  }
  for (std::int32_t op = 1; op < op_count; ++op) live[static_cast<std::size_t>(op)] += live[static_cast<std::size_t>(op - 1)];
}

// The number of ops a lifetime list spans (1 + the largest last use), for calls that have no module.
template <class Buffers>
constexpr std::int32_t op_span(const Buffers& buffers, std::int32_t buffer_count) {
  const buffer_info* b = buffers.data();
  std::int32_t ops = 0;
  for (std::int32_t i = 0; i < buffer_count; ++i)
    if (b[i].last_use + 1 > ops) ops = b[i].last_use + 1;
  return ops;
}

}  // namespace ctnn::memory
