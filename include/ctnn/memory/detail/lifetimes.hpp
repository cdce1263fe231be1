#pragma once
// The buffers' lifetimes as sort keys, the buffer indices sorted by each end and the ends in sorted
// order: what the greedy orders that measure overlapping lifetimes (by breadth, by conflicts) start from.
// Hot loops index raw pointers (docs/design.md §6: clang counts every statement).
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/memory/buffer_info.hpp>
#include <ctnn/memory/detail/sort.hpp>

namespace ctnn::memory::detail {

template <std::size_t N>
struct lifetimes {
  std::array<std::int64_t, N> first{}, last{};                // per buffer: first and last use
  std::array<std::int32_t, N> by_first{}, by_last{};          // buffer indices by first use, by last use (stable)
  std::array<std::int64_t, N> sorted_first{}, sorted_last{};  // the first (last) uses in ascending order

  template <class Buffers>
  constexpr lifetimes(const Buffers& buffers, std::int32_t count) {
    const buffer_info* b = buffers.data();
    std::int64_t* f = first.data();
    std::int64_t* l = last.data();
    for (std::int32_t i = 0; i < count; ++i) {
      f[i] = b[i].first_use;
      l[i] = b[i].last_use;
    }
    by_first = sorted_by_key<N>(count, f);
    by_last = sorted_by_key<N>(count, l);
    const std::int32_t* bf = by_first.data();
    const std::int32_t* bl = by_last.data();
    std::int64_t* sf = sorted_first.data();
    std::int64_t* sl = sorted_last.data();
    for (std::int32_t i = 0; i < count; ++i) {
      sf[i] = f[bf[i]];
      sl[i] = l[bl[i]];
    }
  }
};

}  // namespace ctnn::memory::detail
