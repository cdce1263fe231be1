#pragma once
// Greedy-by-size placement (as TVM's USMP greedy_by_size and TFLM's GreedyMemoryPlanner): place the
// largest buffers first (ties: lower index first), each at the lowest offset that does not overlap a
// placed buffer whose lifetime overlaps its own. O(n log n) on chains (memory/first_fit.hpp).
#include <array>
#include <cstdint>
#include <tuple>

#include <ctnn/memory/buffer_info.hpp>
#include <ctnn/memory/detail/sort.hpp>
#include <ctnn/memory/first_fit.hpp>

namespace ctnn::memory {

// Placement orders shared by the algorithms.
namespace order {

// Larger first; ties: lower index first (an in-place pair's result before its input: results_first).
struct by_size_order {
  template <class Buffers>
  constexpr auto operator()(const Buffers& buffers, std::int32_t count) const {
    constexpr std::size_t n = std::tuple_size_v<Buffers>;
    std::array<std::int64_t, n> key{};
    std::int64_t* k = key.data();
    const buffer_info* b = buffers.data();
    for (std::int32_t i = 0; i < count; ++i) k[i] = -b[i].bytes;
    return results_first(buffers, count, detail::sorted_by_key<n>(count, k));
  }
};
inline constexpr by_size_order by_size{};

}  // namespace order

struct greedy_by_size : detail::greedy_first_fit<order::by_size_order> {};

}  // namespace ctnn::memory
