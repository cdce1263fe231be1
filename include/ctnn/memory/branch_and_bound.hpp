#pragma once
// Exact placement for small buffer sets by branch and bound over first-fit orders.
//
// Why orders suffice: take an optimal placement and place its buffers by first fit in order of their
// offsets: each lands at or below its optimal offset (the buffers placed before it lie below its
// optimal offset), so first fit over some order is optimal. Repeating this reaches a placement that
// first fit reproduces in its own offset order, so the search may also require the offsets of
// successive placements to be non-decreasing (ties: increasing buffer index) — a strong pruning rule.
// A branch stops when its highest end reaches the best plan found so far, and the search stops at the
// liveness lower bound or after NodeBudget search nodes (then the plan is the best found, not proven
// optimal). Sets larger than MaxBuffers get greedy by size.
#include <array>
#include <bit>
#include <cstdint>
#include <tuple>

#include <ctnn/memory/buffer_info.hpp>
#include <ctnn/memory/first_fit.hpp>
#include <ctnn/memory/greedy_by_size.hpp>
#include <ctnn/memory/liveness.hpp>

namespace ctnn::memory {

template <std::int32_t MaxBuffers = 12, std::int32_t NodeBudget = 1500>
struct branch_and_bound {
  static_assert(MaxBuffers >= 1 && MaxBuffers <= 32, "ctnn::memory::branch_and_bound: MaxBuffers is 1 to 32.");

  // best_of skips it for larger sets.
  static constexpr bool applies(std::int32_t count) { return count <= MaxBuffers; }

  // The search's state; `proven` says whether it finished within the budget. Plain arrays: the search
  // is the hot loop, and a std::array::operator[] call costs clang several steps.
  template <std::size_t N>
  struct search {
    const buffer_info* buf = nullptr;
    std::int32_t count = 0;
    std::uint32_t conflicts[N]{};  // bit c: c's lifetime meets b's
    std::int64_t offset[N]{};
    std::int64_t best_offset[N]{};
    std::int64_t best = 0;
    std::int64_t bound = 0;
    std::int32_t nodes = 0;
    bool proven = true;

    // Lowest aligned offset for b next to the placed buffers it conflicts with.
    constexpr std::int64_t first_fit_offset(std::int32_t b, std::uint32_t placed) const {
      std::int32_t below[32]{};
      std::int32_t k = 0;
      for (std::uint32_t m = placed & conflicts[b]; m != 0; m &= m - 1) {
        const std::int32_t c = std::countr_zero(m);
        std::int32_t j = k++;
        for (; j > 0 && offset[below[j - 1]] > offset[c]; --j) below[j] = below[j - 1];
        below[j] = c;
      }
      const std::int64_t bytes = buf[b].bytes, alignment = buf[b].alignment;
      std::int64_t o = 0;
      for (std::int32_t j = 0; j < k && offset[below[j]] < o + bytes; ++j) {
        const std::int64_t high = offset[below[j]] + buf[below[j]].bytes;
        if (high > o) o = (high + alignment - 1) / alignment * alignment;
      }
      return o;
    }

    constexpr void descend(std::int32_t depth, std::uint32_t placed, std::int64_t height, std::int64_t last_offset, std::int32_t last) {
      if (++nodes > NodeBudget) {
        proven = false;
        return;
      }
      if (depth == count) {
        best = height;
        for (std::int32_t b = 0; b < count; ++b) best_offset[b] = offset[b];
        return;
      }
      for (std::int32_t b = 0; b < count; ++b) {
        if ((placed >> b) & 1u) continue;
        const std::int64_t o = first_fit_offset(b, placed);
        if (o < last_offset || (o == last_offset && b < last)) continue;  // not in canonical order
        const std::int64_t h = o + buf[b].bytes > height ? o + buf[b].bytes : height;
        if (h >= best) continue;
        offset[b] = o;
        descend(depth + 1, placed | (1u << b), h, o, b);
        if (best <= bound || nodes > NodeBudget) return;
      }
    }
  };

  // Plans and reports whether the result is proven optimal.
  template <class Buffers, class Allocations>
  static constexpr std::int64_t plan(const Buffers& buffers, std::int32_t count, Allocations& allocations, bool& proven) {
    constexpr std::size_t n = std::tuple_size_v<Buffers>;
    // Start from greedy by size (an upper bound for the search).
    std::array<pool_allocation, n> at{};
    std::int64_t best = first_fit(buffers, count, order::by_size(buffers, count), at);
    const std::int64_t bound = liveness_lower_bound(buffers, count, op_span(buffers, count)).bytes;
    proven = best <= bound;
    if (count <= MaxBuffers && best > bound) {
      search<static_cast<std::size_t>(MaxBuffers)> s{};
      s.buf = buffers.data();
      s.count = count;
      for (std::int32_t b = 0; b < count; ++b)
        for (std::int32_t c = 0; c < count; ++c)
          if (c != b && s.buf[b].lifetime_overlaps(s.buf[c])) s.conflicts[b] |= 1u << c;
      s.best = best;
      s.bound = bound;
      s.descend(0, 0u, 0, 0, -1);
      proven = s.proven || s.best <= bound;
      if (s.best < best) {
        best = s.best;
        for (std::int32_t b = 0; b < count; ++b) at[static_cast<std::size_t>(b)] = pool_allocation{0, s.best_offset[b]};
      }
    }
    for (std::int32_t b = 0; b < count; ++b) allocations[static_cast<std::size_t>(b)] = at[static_cast<std::size_t>(b)];
    return best;
  }

  template <class Buffers, class Allocations>
  static constexpr std::int64_t plan(const Buffers& buffers, std::int32_t count, Allocations& allocations) {
    bool proven = false;
    return plan(buffers, count, allocations, proven);
  }
};

}  // namespace ctnn::memory
