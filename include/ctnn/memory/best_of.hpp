#pragma once
// best_of<A, B, ...>: runs each algorithm and keeps the smallest pool (on a tie, the earlier
// algorithm's plan); stops as soon as one reaches the liveness lower bound, which no plan can beat.
// An algorithm with `static constexpr bool applies(std::int32_t count)` is skipped when that is false
// (branch_and_bound only searches small sets).
// The cost is at most the sum of the algorithms' costs; on most networks the first one already
// reaches the bound.
#include <array>
#include <cstdint>
#include <tuple>

#include <ctnn/memory/buffer_info.hpp>
#include <ctnn/memory/liveness.hpp>

namespace ctnn::memory {

template <class... Algorithms>
struct best_of {
  static_assert(sizeof...(Algorithms) > 0, "ctnn::memory::best_of: give at least one algorithm.");

  template <class Buffers, class Allocations>
  static constexpr std::int64_t plan(const Buffers& buffers, std::int32_t count, Allocations& allocations) {
    constexpr std::size_t n = std::tuple_size_v<Buffers>;
    const std::int64_t bound = liveness_lower_bound(buffers, count, op_span(buffers, count)).bytes;
    std::int64_t best = -1;
    std::array<pool_allocation, n> trial{};
    const auto attempt = [&]<class Algorithm>(Algorithm*) {
      if (best >= 0 && best <= bound) return;
      if constexpr (requires { Algorithm::applies(count); }) {
        if (best >= 0 && !Algorithm::applies(count)) return;
      }
      const std::int64_t pool = Algorithm::plan(buffers, count, trial);
      if (best < 0 || pool < best) {
        best = pool;
        for (std::int32_t b = 0; b < count; ++b) allocations[static_cast<std::size_t>(b)] = trial[static_cast<std::size_t>(b)];
      }
    };
    (attempt(static_cast<Algorithms*>(nullptr)), ...);
    return best;
  }
};

}  // namespace ctnn::memory
