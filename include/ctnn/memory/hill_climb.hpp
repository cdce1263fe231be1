#pragma once
// Hill climbing over placement orders (as TVM's USMP hill_climb), deterministic: a seeded xorshift
// generator swaps two buffers of the order, first fit places the order again from the first changed
// position, and the swap is kept when the pool does not grow (so the climb also walks plateaus).
// Starts from the greedy-by-size order and returns the first plan of the smallest size it met (so
// greedy by size's plan when it finds nothing smaller); stops early at the liveness lower bound.
//
//   hill_climb<Seed, Iterations, Work, PeakEvery>
//                                        Iterations = 0 (the default): as many iterations as fit a work
//                                        budget of Work units (a unit is ~15-20 of clang's constexpr steps:
//                                        4 per buffer placed, 1 per neighbour looked at, 1 per 16 positions
//                                        scanned for the peak); otherwise exactly Iterations swaps.
//                                        PeakEvery = k > 0: every k-th swap is the buffer that sets the pool's
//                                        size (the first in the order whose end is the pool's end) with a
//                                        random earlier one: where a few big buffers decide the pool among
//                                        many small ones, random pairs rarely touch them (the QDQ rendering
//                                        of VWW: 46,080 B after the budget, 36,896 B with every other swap
//                                        at the peak).
#include <array>
#include <cstdint>
#include <tuple>

#include <ctnn/memory/buffer_info.hpp>
#include <ctnn/memory/first_fit.hpp>
#include <ctnn/memory/greedy_by_size.hpp>
#include <ctnn/memory/liveness.hpp>

namespace ctnn::memory {

template <std::uint32_t Seed = 1, std::int32_t Iterations = 0, std::int64_t Work = 30000, std::int32_t PeakEvery = 0>
struct hill_climb {
  template <class Buffers, class Allocations>
  static constexpr std::int64_t plan(const Buffers& buffers, std::int32_t count, Allocations& allocations) {
    constexpr std::size_t n = std::tuple_size_v<Buffers>;
    auto order = memory::order::by_size(buffers, count);
    const conflict_index<n> index{buffers, count};
    first_fit_state<n> state{};
    std::array<pool_allocation, n> at{};
    // prefix[p]: the highest end among order[0, p).
    std::array<std::int64_t, n + 1> prefix{};
    const buffer_info* buf = buffers.data();
    const auto place_from = [&](std::int32_t from) {
      first_fit_range(buffers, order, from, count, index, at, state);
      const std::int32_t* o = order.data();
      const pool_allocation* a = at.data();
      std::int64_t* pre = prefix.data();
      for (std::int32_t p = from; p < count; ++p) {
        const std::int64_t end = a[o[p]].offset + buf[o[p]].bytes;
        pre[p + 1] = end > pre[p] ? end : pre[p];
      }
      return pre[count];
    };
    std::int64_t current = place_from(0);
    std::int64_t best = current;
    const std::int64_t bound = liveness_lower_bound(buffers, count, op_span(buffers, count)).bytes;
    auto current_at = at;
    auto current_prefix = prefix;
    auto best_at = at;
    std::uint32_t random = Seed != 0 ? Seed : 0x9E3779B9u;
    const auto next = [&random] {
      random ^= random << 13;
      random ^= random >> 17;
      random ^= random << 5;
      return random;
    };
    const std::int32_t rounds = count < 2 ? 0 : Iterations > 0 ? Iterations : 1 << 20;
    for (std::int32_t r = 0; r < rounds && best > bound && (Iterations > 0 || state.work < Work); ++r) {
      std::int32_t i = static_cast<std::int32_t>(next() % static_cast<std::uint32_t>(count));
      std::int32_t j = static_cast<std::int32_t>(next() % static_cast<std::uint32_t>(count));
      if (PeakEvery > 0 && r % PeakEvery == 0) {
        std::int32_t peak = 0;
        while (peak < count && prefix[static_cast<std::size_t>(peak) + 1] < current) ++peak;
        state.work += peak / 16 + 1;
        if (peak > 0) {
          j = peak;
          i = static_cast<std::int32_t>(next() % static_cast<std::uint32_t>(peak));
        }
      }
      if (i == j) continue;
      if (i > j) {
        const std::int32_t t = i;
        i = j;
        j = t;
      }
      std::int32_t* o = order.data();
      const std::int32_t oi = o[i];
      o[i] = o[j];
      o[j] = oi;
      const std::int64_t pool = place_from(i);
      if (pool <= current) {  // walk plateaus; keep the first plan of each new best size
        current = pool;
        current_at = at;
        current_prefix = prefix;
        if (pool < best) {
          best = pool;
          best_at = at;
        }
      } else {
        o[j] = o[i];
        o[i] = oi;
        at = current_at;
        prefix = current_prefix;
      }
    }
    pool_allocation* out = allocations.data();
    const pool_allocation* in = best_at.data();
    for (std::int32_t b = 0; b < count; ++b) out[b] = in[b];
    return best;
  }
};

}  // namespace ctnn::memory
