#pragma once
// A stable, constexpr merge sort of index arrays by integer keys (O(n log n)), and the binary search
// over its results. The inner loops are
// call-free and index raw pointers: clang counts every statement against -fconstexpr-steps, and a
// std::array::operator[] or a comparator call costs several steps each (docs/design.md §6).
#include <array>
#include <cstddef>
#include <cstdint>

namespace ctnn::memory::detail {

// Sorts order[0, count) by (primary[i], secondary[i]) ascending; equal keys keep their order.
// `secondary` may be null (primary only).
template <std::size_t N>
constexpr void stable_sort_by_key(std::array<std::int32_t, N>& order, std::int32_t count, const std::int64_t* primary,
                                  const std::int64_t* secondary = nullptr) {
  std::array<std::int32_t, N> scratch_storage{};
  std::int32_t* from = order.data();
  std::int32_t* to = scratch_storage.data();
  std::array<std::int64_t, N> zero{};
  const std::int64_t* k2 = secondary != nullptr ? secondary : zero.data();
  bool in_order = true;  // the sorted run is in `order` (not in the scratch)
  for (std::int32_t width = 1; width < count; width *= 2) {
    for (std::int32_t lo = 0; lo < count; lo += 2 * width) {
      const std::int32_t mid = lo + width < count ? lo + width : count;
      const std::int32_t hi = lo + 2 * width < count ? lo + 2 * width : count;
      std::int32_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi)
        to[k++] = (primary[from[j]] < primary[from[i]] || (primary[from[j]] == primary[from[i]] && k2[from[j]] < k2[from[i]]))
                      ? from[j++]
                      : from[i++];
      while (i < mid) to[k++] = from[i++];
      while (j < hi) to[k++] = from[j++];
    }
    std::int32_t* t = from;
    from = to;
    to = t;
    in_order = !in_order;
  }
  if (!in_order) order = scratch_storage;
}

// 0, 1, ..., count - 1.
template <std::size_t N>
constexpr std::array<std::int32_t, N> identity_order(std::int32_t count) {
  std::array<std::int32_t, N> order{};
  std::int32_t* o = order.data();
  for (std::int32_t i = 0; i < count; ++i) o[i] = i;
  return order;
}

// Indices 0 .. count - 1 sorted by key (ascending, stable).
template <std::size_t N>
constexpr std::array<std::int32_t, N> sorted_by_key(std::int32_t count, const std::int64_t* primary,
                                                    const std::int64_t* secondary = nullptr) {
  auto order = identity_order<N>(count);
  stable_sort_by_key(order, count, primary, secondary);
  return order;
}

// First position in [lo, hi) of the ascending `values` whose value is >= `value` (hi if none).
template <class T>
constexpr std::int32_t first_at_least(const T* values, std::int32_t lo, std::int32_t hi, T value) {
  while (lo < hi) {
    const std::int32_t mid = (lo + hi) / 2;
    if (values[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

}  // namespace ctnn::memory::detail
