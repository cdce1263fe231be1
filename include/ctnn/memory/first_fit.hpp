#pragma once
// First-fit placement in a given order, the engine under every ordering-based algorithm: each buffer
// goes to the lowest offset (a multiple of its alignment) where it overlaps no already placed buffer
// whose lifetime meets its own, except as an in-place pair allows (buffer_info::written_over: the
// result at most over_shift above its input, i.e. a placed input forbids the result's offsets in
// (input + over_shift, input end), a placed result the input's offsets in (result - input bytes,
// result - over_shift).
//
// Finding those buffers must not cost O(n) per buffer (docs/design.md §6: clang counts every statement), so
// conflict_index groups the buffers by lifetime length (level k: at most 2^k ops) and sorts each group
// by first use: in level k, the buffers whose lifetime can meet [first, last] start in
// [first - 2^k, last], found by binary search. On a chain this is O(n log n) in all, and a few
// long-lived buffers (skip connections) do not make every placement look at every buffer.
// Hot loops index raw pointers (a std::array::operator[] call costs clang several steps).
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/memory/buffer_info.hpp>
#include <ctnn/memory/detail/sort.hpp>

namespace ctnn::memory {

template <std::size_t N>
struct conflict_index {
  static constexpr std::int32_t max_levels = 32;
  std::array<std::int32_t, N> by_first{};  // buffer indices: level 0 by first use, then level 1, ...
  std::array<std::int32_t, N> first_of{};  // their first uses, in that order
  std::array<std::int32_t, max_levels + 1> level_begin{};  // level k: [level_begin[k], level_begin[k + 1])
  std::int32_t levels = 0;

  template <class Buffers>
  constexpr conflict_index(const Buffers& buffers, std::int32_t count) {
    const buffer_info* b = buffers.data();
    std::array<std::int64_t, N> level_key{}, first_key{};
    std::int64_t* lk = level_key.data();
    std::int64_t* fk = first_key.data();
    for (std::int32_t i = 0; i < count; ++i) {
      const std::int64_t length = b[i].last_use > b[i].first_use ? b[i].last_use - b[i].first_use : 0;
      std::int32_t level = 0;
      while ((std::int64_t{1} << level) < length) ++level;
      lk[i] = level;
      fk[i] = b[i].first_use;
      if (level + 1 > levels) levels = level + 1;
    }
    by_first = detail::sorted_by_key<N>(count, lk, fk);
    const std::int32_t* order = by_first.data();
    std::int32_t* f = first_of.data();
    std::int32_t* begin = level_begin.data();
    std::int32_t level = 0;
    for (std::int32_t i = 0; i < count; ++i) {
      f[i] = b[order[i]].first_use;
      while (level < lk[order[i]]) begin[++level] = i;
    }
    while (level < levels) begin[++level] = count;
  }
};

// Work space of first_fit, kept across calls (hill_climb places thousands of times).
template <std::size_t N>
struct first_fit_state {
  std::array<bool, N> placed{};
  std::array<std::int64_t, N> low{};   // conflicting placed buffers: [low, high), by low
  std::array<std::int64_t, N> high{};
  std::int64_t work = 0;  // 4 per placement + 1 per level searched and per candidate: ~1/15 of clang's steps
};

// Places order[from, to) in that order, after order[0, from), which must be placed already (their
// `placed` flags set); writes allocations (pool 0) and returns the highest end among the new ones.
template <class Buffers, class Allocations, std::size_t N>
constexpr std::int64_t first_fit_range(const Buffers& buffers, const std::array<std::int32_t, N>& order, std::int32_t from,
                                       std::int32_t to, const conflict_index<N>& index, Allocations& allocations,
                                       first_fit_state<N>& s) {
  const buffer_info* buf = buffers.data();
  const std::int32_t* ord = order.data();
  pool_allocation* at = allocations.data();
  bool* placed = s.placed.data();
  std::int64_t* low = s.low.data();
  std::int64_t* high = s.high.data();
  const std::int32_t* by_first = index.by_first.data();
  const std::int32_t* first_of = index.first_of.data();
  const std::int32_t* level_begin = index.level_begin.data();
  for (std::int32_t i = from; i < to; ++i) placed[ord[i]] = false;
  std::int64_t pool = 0;
  std::int64_t work = 0;
  for (std::int32_t p = from; p < to; ++p) {
    const std::int32_t b = ord[p];
    const std::int32_t first = buf[b].first_use, last = buf[b].last_use;
    std::int32_t k = 0;
    // Candidates: in each level, the buffers starting in [first - 2^level, last].
    for (std::int32_t level = 0; level < index.levels; ++level) {
      const std::int32_t end = level_begin[level + 1];
      std::int32_t c_at = detail::first_at_least(first_of, level_begin[level], end, first - (1 << level));
      ++work;
      for (; c_at < end && first_of[c_at] <= last; ++c_at) {
        const std::int32_t c = by_first[c_at];
        ++work;
        if (!placed[c] || buf[c].last_use < first) continue;
        // The offsets c forbids: o with [o, o + bytes) meeting [lo, hi) (lo may exceed hi for a pair).
        std::int64_t lo = at[c].offset, hi = lo + buf[c].bytes;
        if (buf[b].written_over == c && buf[c].last_use == first) lo += buf[b].over_shift + buf[b].bytes;
        else if (buf[c].written_over == b && buf[b].last_use == buf[c].first_use) hi = at[c].offset - buf[c].over_shift;
        // Insertion by low end: the lists are short (the buffers live at the same time as this one).
        std::int32_t j = k++;
        for (; j > 0 && low[j - 1] > lo; --j) {
          low[j] = low[j - 1];
          high[j] = high[j - 1];
        }
        low[j] = lo;
        high[j] = hi;
      }
    }
    // The lowest aligned offset below, between or above them.
    const std::int64_t bytes = buf[b].bytes, alignment = buf[b].alignment;
    std::int64_t offset = 0;
    for (std::int32_t j = 0; j < k && low[j] < offset + bytes; ++j)
      if (high[j] > offset) offset = (high[j] + alignment - 1) / alignment * alignment;
    at[b] = pool_allocation{0, offset};
    placed[b] = true;
    work += 4;
    if (offset + bytes > pool) pool = offset + bytes;
  }
  s.work += work;
  return pool;
}

// Places order[0, count) in that order; writes allocations (pool 0) and returns the highest end.
template <class Buffers, class Allocations, std::size_t N>
constexpr std::int64_t first_fit(const Buffers& buffers, std::int32_t count, const std::array<std::int32_t, N>& order,
                                 const conflict_index<N>& index, Allocations& allocations, first_fit_state<N>& s) {
  return first_fit_range(buffers, order, 0, count, index, allocations, s);
}

// The same, with its own index and work space.
template <class Buffers, class Allocations, std::size_t N>
constexpr std::int64_t first_fit(const Buffers& buffers, std::int32_t count, const std::array<std::int32_t, N>& order,
                                 Allocations& allocations) {
  const conflict_index<N> index{buffers, count};
  first_fit_state<N> state{};
  return first_fit(buffers, count, order, index, allocations, state);
}

namespace detail {

// A greedy algorithm: first fit in the order `Order{}(buffers, count)` gives.
template <class Order>
struct greedy_first_fit {
  // Writes one allocation per buffer and returns the pool size the plan needs.
  template <class Buffers, class Allocations>
  static constexpr std::int64_t plan(const Buffers& buffers, std::int32_t count, Allocations& allocations) {
    return first_fit(buffers, count, Order{}(buffers, count), allocations);
  }
};

}  // namespace detail

namespace order {

// `order` with the result of each in-place pair moved just before its input (when it came later):
// first fit can then put the input over the result's tail (a placed input at offset 0 leaves the
// result no room below it). `chains`: a result's own result before it too, and so on (a chain of
// layers in place then goes from its last layer up: KWS's 8,000 B layers one above the other, a few
// hundred bytes apart); else one level (VWW: a chain would stack its large shifts).
template <class Buffers, std::size_t N>
constexpr std::array<std::int32_t, N> results_first(const Buffers& buffers, std::int32_t count, const std::array<std::int32_t, N>& order,
                                                    bool chains = false) {
  const buffer_info* b = buffers.data();
  std::array<std::int32_t, N> result_of{}, out{};
  std::array<bool, N> done{};
  for (std::int32_t i = 0; i < count; ++i) result_of[static_cast<std::size_t>(i)] = -1;
  bool any = false;
  for (std::int32_t i = 0; i < count; ++i)
    if (b[i].written_over >= 0) result_of[static_cast<std::size_t>(b[i].written_over)] = i, any = true;
  if (!any) return order;
  std::int32_t k = 0;
  for (std::int32_t p = 0; p < count; ++p) {
    const std::int32_t i = order[static_cast<std::size_t>(p)];
    if (done[static_cast<std::size_t>(i)]) continue;
    // The results not placed yet, from i's down the chain (one when !chains), then emitted last first.
    std::int32_t length = 0;
    for (std::int32_t y = result_of[static_cast<std::size_t>(i)]; y >= 0 && !done[static_cast<std::size_t>(y)] && (chains || length == 0);
         y = result_of[static_cast<std::size_t>(y)])
      ++length;
    for (std::int32_t emitted = length; emitted >= 0; --emitted) {
      std::int32_t x = i;
      for (std::int32_t step = 0; step < emitted; ++step) x = result_of[static_cast<std::size_t>(x)];
      out[static_cast<std::size_t>(k++)] = x;
      done[static_cast<std::size_t>(x)] = true;
    }
  }
  return out;
}

// Buffer indices by descending `key` (one value per buffer); ties: larger buffer first, then lower index.
// The placement order of the greedy-by-<key> algorithms.
template <class Buffers, std::size_t N>
constexpr auto descending(const Buffers& buffers, std::int32_t count, std::array<std::int64_t, N> key, bool chains = false) {
  std::array<std::int64_t, N> bytes{};
  std::int64_t* k = key.data();
  std::int64_t* s = bytes.data();
  const buffer_info* b = buffers.data();
  for (std::int32_t i = 0; i < count; ++i) {
    k[i] = -k[i];
    s[i] = -b[i].bytes;
  }
  return results_first(buffers, count, detail::sorted_by_key<N>(count, k, s), chains);
}

}  // namespace order

}  // namespace ctnn::memory
