#pragma once
// interval_sweep: placement by a sweep over time towards a target pool size, an interval-colouring
// method. Buffers are taken in order of their first use (ties: larger first). When a buffer starts,
// only the buffers live at that moment can conflict with it (lifetimes are intervals of one op
// sequence), so the free space is a list of holes between them, below the target size. The buffer goes
// to the smallest hole that fits it (best fit), flush against the neighbour that lives longer (the
// pool's bottom and top count as living for ever); when no hole fits, to the lowest free offset (the pool then
// grows past the target). Chains of buffers therefore alternate bottom / top ("ping-pong"), which
// reaches the liveness lower bound where first fit by size does not.
//
// plan() sweeps forwards and backwards in time with the liveness lower bound (of the sizes rounded up
// to their alignment) as target, then forwards with the best size reached, and keeps the smallest. O(n log n + n * live).
#include <array>
#include <cstdint>
#include <tuple>

#include <ctnn/memory/buffer_info.hpp>
#include <ctnn/memory/detail/sort.hpp>
#include <ctnn/memory/liveness.hpp>

namespace ctnn::memory {

struct interval_sweep {
  // One sweep towards `target`; returns the highest end.
  template <class Buffers, class Allocations>
  static constexpr std::int64_t sweep(const Buffers& buffers, std::int32_t count, std::int64_t target, Allocations& allocations) {
    constexpr std::size_t n = std::tuple_size_v<Buffers>;
    const buffer_info* b = buffers.data();
    pool_allocation* at = allocations.data();
    std::array<std::int64_t, n> first_key{}, size_key{};
    std::int64_t* fk = first_key.data();
    std::int64_t* sk = size_key.data();
    for (std::int32_t i = 0; i < count; ++i) {
      fk[i] = b[i].first_use;
      sk[i] = -b[i].bytes;
    }
    const auto order_storage = detail::sorted_by_key<n>(count, fk, sk);
    const std::int32_t* order = order_storage.data();
    // The live buffers, by offset.
    std::array<std::int32_t, n> live_storage{};
    std::int32_t* live = live_storage.data();
    std::int32_t live_count = 0;
    std::int64_t pool = 0;
    std::int32_t now = order[0 < count ? 0 : 0];
    for (std::int32_t p = 0; p < count; ++p) {
      const std::int32_t me = order[p];
      const std::int64_t bytes = b[me].bytes, alignment = b[me].alignment;
      if (p == 0 || b[me].first_use != now) {
        now = b[me].first_use;
        std::int32_t kept = 0;
        for (std::int32_t j = 0; j < live_count; ++j)
          if (b[live[j]].last_use >= now) live[kept++] = live[j];
        live_count = kept;
      }
      // Holes [low, high) between the live buffers, under the target: best fit. In the hole, flush
      // against the neighbour that lives longer (the pool's bottom and top live for ever), so that the
      // shorter-lived neighbour's space joins the rest of the hole when it dies.
      constexpr std::int32_t forever = 0x7fffffff;
      std::int64_t best_offset = -1, best_room = -1, cursor = 0;
      std::int32_t below_until = forever;  // last use of the buffer whose end is `cursor`
      for (std::int32_t j = 0; j <= live_count; ++j) {
        const std::int64_t high = j < live_count ? (at[live[j]].offset < target ? at[live[j]].offset : target) : target;
        if (high > cursor) {
          const std::int64_t room = high - cursor;
          const std::int64_t up = (cursor + alignment - 1) / alignment * alignment;
          if (up + bytes <= high && (best_room < 0 || room < best_room)) {
            best_room = room;
            const std::int32_t above_until = j < live_count && at[live[j]].offset < target ? b[live[j]].last_use : forever;
            const std::int64_t down = (high - bytes) / alignment * alignment;
            best_offset = above_until > below_until && down >= up ? down : up;
          }
        }
        if (j < live_count) {
          const std::int64_t end = at[live[j]].offset + b[live[j]].bytes;
          if (end > cursor) {
            cursor = end;
            below_until = b[live[j]].last_use;
          }
        }
      }
      if (best_offset < 0) {
        // Nothing fits under the target: the lowest free offset (first fit).
        best_offset = 0;
        for (std::int32_t j = 0; j < live_count && at[live[j]].offset < best_offset + bytes; ++j) {
          const std::int64_t end = at[live[j]].offset + b[live[j]].bytes;
          if (end > best_offset) best_offset = (end + alignment - 1) / alignment * alignment;
        }
      }
      at[me] = pool_allocation{0, best_offset};
      if (best_offset + bytes > pool) pool = best_offset + bytes;
      // Insert by offset.
      std::int32_t j = live_count++;
      for (; j > 0 && at[live[j - 1]].offset > best_offset; --j) live[j] = live[j - 1];
      live[j] = me;
    }
    return pool;
  }

  template <class Buffers, class Allocations>
  static constexpr std::int64_t plan(const Buffers& buffers, std::int32_t count, Allocations& allocations) {
    constexpr std::size_t n = std::tuple_size_v<Buffers>;
    // Target: the liveness bound of the sizes rounded up to their alignment (what neighbours need).
    Buffers rounded = buffers;
    buffer_info* r = rounded.data();
    for (std::int32_t i = 0; i < count; ++i) r[i].bytes = align_up(r[i].bytes, r[i].alignment);
    const std::int32_t ops = op_span(buffers, count);
    const std::int64_t bound = liveness_lower_bound(rounded, count, ops).bytes;
    // The same lifetimes backwards in time: another packing of the same conflicts.
    Buffers mirrored = buffers;
    buffer_info* m = mirrored.data();
    for (std::int32_t i = 0; i < count; ++i) {
      m[i].first_use = ops - 1 - buffers.data()[i].last_use;
      m[i].last_use = ops - 1 - buffers.data()[i].first_use;
    }
    std::array<pool_allocation, n> trial{};
    pool_allocation* out = allocations.data();
    const pool_allocation* in = trial.data();
    std::int64_t best = sweep(buffers, count, bound, allocations);
    const auto keep_if_better = [&](std::int64_t pool) {
      if (pool >= best) return;
      best = pool;
      for (std::int32_t i = 0; i < count; ++i) out[i] = in[i];
    };
    if (best > bound) keep_if_better(sweep(mirrored, count, bound, trial));
    if (best > bound) keep_if_better(sweep(buffers, count, best, trial));
    return best;
  }
};

}  // namespace ctnn::memory
