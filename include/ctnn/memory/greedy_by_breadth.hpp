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
#include <ctnn/memory/detail/lifetimes.hpp>
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
  const detail::lifetimes<n> lives{buffers, count};
  const std::int64_t* firsts = lives.first.data();
  const std::int64_t* lasts = lives.last.data();
  const std::int32_t* starts = lives.by_first.data();
  const std::int32_t* ends = lives.by_last.data();
  const std::int64_t* sorted_first = lives.sorted_first.data();
  const std::int64_t* sorted_last = lives.sorted_last.data();
  // Distinct start ops and the bytes live there.
  std::array<std::int64_t, n> point_storage{};
  std::int64_t* point_op = point_storage.data();
  std::array<std::array<std::int64_t, n>, levels> table{};
  std::int64_t* level0 = table[0].data();
  std::int32_t points = 0;
  std::int64_t live = 0;
  for (std::int32_t s = 0, e = 0; s < count;) {
    const std::int64_t op = sorted_first[s];
    for (; s < count && sorted_first[s] == op; ++s) live += b[starts[s]].bytes;
    for (; e < count && sorted_last[e] < op; ++e) live -= b[ends[e]].bytes;
    point_op[points] = op;
    level0[points++] = live;
  }
  for (std::size_t l = 1; l < levels; ++l) {
    const std::int64_t* below = table[l - 1].data();
    std::int64_t* here = table[l].data();
    const std::int32_t half = 1 << (l - 1);
    for (std::int32_t i = 0; i + 2 * half <= points; ++i) here[i] = below[i] > below[i + half] ? below[i] : below[i + half];
  }
  std::array<std::int64_t, n> widest{};
  std::int64_t* w = widest.data();
  for (std::int32_t i = 0; i < count; ++i) {
    // The points in [first, last]: [lo, hi).
    const std::int32_t lo = detail::first_at_least(point_op, 0, points, firsts[i]);
    const std::int32_t hi = detail::first_at_least(point_op, 0, points, lasts[i] + 1);
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
struct by_breadth_order {
  template <class Buffers>
  constexpr auto operator()(const Buffers& buffers, std::int32_t count) const {
    return descending(buffers, count, widest_breadth(buffers, count), true);
  }
};
inline constexpr by_breadth_order by_breadth{};

}  // namespace order

struct greedy_by_breadth : detail::greedy_first_fit<order::by_breadth_order> {};

}  // namespace ctnn::memory
