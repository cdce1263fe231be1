#pragma once
// Greedy-by-breadth placement (after Pisarchyk & Lee, "Efficient Memory Management for Deep Neural Net
// Inference", 2020): the op with the most bytes live ("breadth") has its buffers placed first, largest
// first; then the next broadest op's remaining buffers, and so on. Written as one sort: a buffer's key
// is the largest breadth over its lifetime (ties: larger first, then lower index), found with a sparse
// table over the ops where buffers start (the breadth only grows there). O(n log n).
#include <array>
#include <cstdint>
#include <tuple>

#include <ctnn/memory/buffer_info.hpp>
#include <ctnn/memory/detail/sort.hpp>
#include <ctnn/memory/first_fit.hpp>

namespace ctnn::memory {

namespace order {

// For each buffer, the largest number of bytes live at one op of its lifetime.
template <class Buffers>
constexpr auto widest_breadth(const Buffers& buffers, std::int32_t count) {
  constexpr std::size_t n = std::tuple_size_v<Buffers>;
  constexpr std::size_t levels = [] {
    std::size_t l = 1;
    while ((std::size_t{1} << l) < n) ++l;
    return l + 1;
  }();
  const buffer_info* b = buffers.data();
  std::array<std::int64_t, n> first_storage{}, last_storage{};
  std::int64_t* firsts = first_storage.data();
  std::int64_t* lasts = last_storage.data();
  for (std::int32_t i = 0; i < count; ++i) {
    firsts[i] = b[i].first_use;
    lasts[i] = b[i].last_use;
  }
  const auto starts_storage = detail::sorted_by_key<n>(count, firsts);
  const auto ends_storage = detail::sorted_by_key<n>(count, lasts);
  const std::int32_t* starts = starts_storage.data();
  const std::int32_t* ends = ends_storage.data();
  // Distinct start ops and the bytes live there.
  std::array<std::int64_t, n> point_storage{};
  std::int64_t* point_op = point_storage.data();
  std::array<std::array<std::int64_t, n>, levels> table{};
  std::int64_t* level0 = table[0].data();
  std::int32_t points = 0;
  std::int64_t live = 0;
  for (std::int32_t s = 0, e = 0; s < count;) {
    const std::int64_t op = firsts[starts[s]];
    for (; s < count && firsts[starts[s]] == op; ++s) live += b[starts[s]].bytes;
    for (; e < count && lasts[ends[e]] < op; ++e) live -= b[ends[e]].bytes;
    point_op[points] = op;
    level0[points++] = live;
  }
  for (std::size_t l = 1; l < levels; ++l) {
    const std::int64_t* below = table[l - 1].data();
    std::int64_t* here = table[l].data();
    const std::int32_t half = 1 << (l - 1);
    for (std::int32_t i = 0; i + 2 * half <= points; ++i) here[i] = below[i] > below[i + half] ? below[i] : below[i + half];
  }
  // First point with op >= v (binary search).
  const auto point_at_or_after = [&](std::int64_t v) {
    std::int32_t lo = 0, hi = points;
    while (lo < hi) {
      const std::int32_t mid = (lo + hi) / 2;
      if (point_op[mid] < v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  std::array<std::int64_t, n> widest{};
  std::int64_t* w = widest.data();
  for (std::int32_t i = 0; i < count; ++i) {
    const std::int32_t lo = point_at_or_after(firsts[i]), hi = point_at_or_after(lasts[i] + 1);  // [lo, hi)
    if (lo >= hi) continue;
    std::size_t l = 0;
    while ((1 << (l + 1)) <= hi - lo) ++l;
    const std::int64_t* row = table[l].data();
    const std::int64_t x = row[lo], y = row[hi - (1 << l)];
    w[i] = x > y ? x : y;
  }
  return widest;
}

// Broadest lifetime first; ties: larger first, then lower index; chains of in-place pairs from their
// last result up (results_first).
template <class Buffers>
constexpr auto by_breadth(const Buffers& buffers, std::int32_t count) {
  return descending(buffers, count, widest_breadth(buffers, count), true);
}

}  // namespace order

struct greedy_by_breadth {
  template <class Buffers, class Allocations>
  static constexpr std::int64_t plan(const Buffers& buffers, std::int32_t count, Allocations& allocations) {
    return first_fit(buffers, count, order::by_breadth(buffers, count), allocations);
  }
};

}  // namespace ctnn::memory
