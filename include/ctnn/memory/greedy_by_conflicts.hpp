#pragma once
// Greedy-by-conflicts placement (as TVM's USMP greedy_by_conflicts): place first the buffers whose
// lifetime meets the most others (ties: larger first, then lower index), each by first fit.
// The conflict count of every buffer comes from two sorted lists, O(n log n):
//   conflicts(b) = #{c : c.first <= b.last} - #{c : c.last < b.first} - 1.
#include <array>
#include <cstdint>
#include <tuple>

#include <ctnn/memory/buffer_info.hpp>
#include <ctnn/memory/detail/sort.hpp>
#include <ctnn/memory/first_fit.hpp>

namespace ctnn::memory {

namespace order {

template <class Buffers>
constexpr auto conflict_counts(const Buffers& buffers, std::int32_t count) {
  constexpr std::size_t n = std::tuple_size_v<Buffers>;
  const buffer_info* b = buffers.data();
  std::array<std::int64_t, n> first_storage{}, last_storage{};
  std::int64_t* firsts = first_storage.data();
  std::int64_t* lasts = last_storage.data();
  for (std::int32_t i = 0; i < count; ++i) {
    firsts[i] = b[i].first_use;
    lasts[i] = b[i].last_use;
  }
  // Sorted copies of the values (sorting the indices, then reading the values back).
  const auto by_first = detail::sorted_by_key<n>(count, firsts);
  const auto by_last = detail::sorted_by_key<n>(count, lasts);
  std::array<std::int64_t, n> sorted_first_storage{}, sorted_last_storage{};
  std::int64_t* sorted_first = sorted_first_storage.data();
  std::int64_t* sorted_last = sorted_last_storage.data();
  const std::int32_t* bf = by_first.data();
  const std::int32_t* bl = by_last.data();
  for (std::int32_t i = 0; i < count; ++i) {
    sorted_first[i] = firsts[bf[i]];
    sorted_last[i] = lasts[bl[i]];
  }
  std::array<std::int64_t, n> conflicts{};
  std::int64_t* out = conflicts.data();
  for (std::int32_t i = 0; i < count; ++i) {
    // #{first <= b.last}
    std::int32_t lo = 0, hi = count;
    while (lo < hi) {
      const std::int32_t mid = (lo + hi) / 2;
      if (sorted_first[mid] <= b[i].last_use) lo = mid + 1;
      else hi = mid;
    }
    const std::int32_t starting = lo;
    // #{last < b.first}
    lo = 0;
    hi = count;
    while (lo < hi) {
      const std::int32_t mid = (lo + hi) / 2;
      if (sorted_last[mid] < b[i].first_use) lo = mid + 1;
      else hi = mid;
    }
    out[i] = starting - lo - 1;
  }
  return conflicts;
}

// Most conflicts first; ties: larger first, then lower index.
template <class Buffers>
constexpr auto by_conflicts(const Buffers& buffers, std::int32_t count) {
  return descending(buffers, count, conflict_counts(buffers, count));
}

}  // namespace order

struct greedy_by_conflicts {
  template <class Buffers, class Allocations>
  static constexpr std::int64_t plan(const Buffers& buffers, std::int32_t count, Allocations& allocations) {
    return first_fit(buffers, count, order::by_conflicts(buffers, count), allocations);
  }
};

}  // namespace ctnn::memory
