#pragma once
// Greedy-by-conflicts placement (as TVM's USMP greedy_by_conflicts): place first the buffers whose
// lifetime meets the most others (ties: larger first, then lower index), each by first fit.
// The conflict count of every buffer comes from two sorted lists, O(n log n):
//   conflicts(b) = #{c : c.first <= b.last} - #{c : c.last < b.first} - 1.
#include <array>
#include <cstdint>
#include <tuple>

#include <ctnn/memory/buffer_info.hpp>
#include <ctnn/memory/detail/lifetimes.hpp>
#include <ctnn/memory/detail/sort.hpp>
#include <ctnn/memory/first_fit.hpp>

namespace ctnn::memory {

namespace order {

template <class Buffers>
constexpr auto conflict_counts(const Buffers& buffers, std::int32_t count) {
  constexpr std::size_t n = std::tuple_size_v<Buffers>;
  const detail::lifetimes<n> lives{buffers, count};
  const std::int64_t* sorted_first = lives.sorted_first.data();
  const std::int64_t* sorted_last = lives.sorted_last.data();
  std::array<std::int64_t, n> conflicts{};
  std::int64_t* out = conflicts.data();
  const buffer_info* b = buffers.data();
  for (std::int32_t i = 0; i < count; ++i) {
    const std::int32_t starting = detail::first_at_least(sorted_first, 0, count, std::int64_t{b[i].last_use} + 1);
    const std::int32_t ended = detail::first_at_least(sorted_last, 0, count, std::int64_t{b[i].first_use});
    out[i] = starting - ended - 1;
  }
  return conflicts;
}

// Most conflicts first; ties: larger first, then lower index.
struct by_conflicts_order {
  template <class Buffers>
  constexpr auto operator()(const Buffers& buffers, std::int32_t count) const {
    return descending(buffers, count, conflict_counts(buffers, count));
  }
};
inline constexpr by_conflicts_order by_conflicts{};

}  // namespace order

struct greedy_by_conflicts : detail::greedy_first_fit<order::by_conflicts_order> {};

}  // namespace ctnn::memory
