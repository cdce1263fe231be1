#pragma once
// Several pools: memory::plan_pools places a buffer set into pools in fallback order with any
// placement algorithm. Pool by pool (read-only pools hold no buffer), the buffers that may go there
// (buffer_info::candidate_pools) and are not placed yet are planned together; if the plan exceeds the
// pool's limit, buffers that may also go to a later pool leave (first those placed above the limit,
// else the largest one live at the pool's peak) and the rest is planned again. Buffers that can go
// nowhere else make the pool's plan fail: the result names the pool, the bytes needed, the limit and
// the op at the pool's peak (plan_memory turns this into a compile error).
#include <array>
#include <cstdint>
#include <tuple>

#include <ctnn/memory/buffer_info.hpp>
#include <ctnn/memory/liveness.hpp>

namespace ctnn::memory {

template <std::size_t N>
struct pools_plan {
  std::array<pool_allocation, N> allocations{};  // per buffer
  std::array<pool_usage, max_pools> usage{};
  std::int32_t failed_pool = -1;  // a pool whose limit the plan exceeds (-1: none)
  std::int64_t needed = 0;
  std::int64_t limit = 0;
  std::int32_t peak_op = -1;
};

template <class Algorithm, class Buffers>
constexpr pools_plan<std::tuple_size_v<Buffers>> plan_pools(const Buffers& buffers, std::int32_t count, const pool_info* pools,
                                                            std::int32_t pool_count, std::int32_t op_count) {
  constexpr std::size_t n = std::tuple_size_v<Buffers>;
  pools_plan<n> result{};
  const buffer_info* b = buffers.data();
  pool_allocation* out = result.allocations.data();
  std::array<bool, n> placed_storage{};
  bool* placed = placed_storage.data();
  std::array<std::int32_t, n> member_storage{};
  std::int32_t* member = member_storage.data();
  Buffers sub{};
  std::array<pool_allocation, n> sub_at{};
  std::array<std::int32_t, n> sub_index_storage{};  // buffer -> its index in `sub` (-1: not there)
  std::int32_t* sub_index = sub_index_storage.data();
  for (std::int32_t p = 0; p < pool_count; ++p) {
    const pool_info& pool = pools[p];
    pool_usage& usage = result.usage[static_cast<std::size_t>(p)];
    if (pool.read_only) continue;
    const std::int64_t alignment = pool.alignment > 0 ? pool.alignment : 1;
    const std::uint32_t later = ~((2u << p) - 1u);  // bits of the pools after p
    std::int32_t k = 0;
    for (std::int32_t i = 0; i < count; ++i)
      if (!placed[i] && ((b[i].candidate_pools >> p) & 1u) != 0) member[k++] = i;
    while (true) {
      buffer_info* s = sub.data();
      for (std::int32_t i = 0; i < count; ++i) sub_index[i] = -1;
      for (std::int32_t j = 0; j < k; ++j) sub_index[member[j]] = j;
      for (std::int32_t j = 0; j < k; ++j) {
        s[j] = b[member[j]];
        if (s[j].alignment < alignment) s[j].alignment = static_cast<std::int32_t>(alignment);
        // An in-place pair holds within one pool only.
        if (s[j].written_over >= 0) s[j].written_over = sub_index[s[j].written_over];
        if (s[j].written_over < 0) s[j].over_shift = 0;
      }
      const std::int64_t bytes = align_up(Algorithm::plan(sub, k, sub_at), alignment);
      const liveness_peak peak = liveness_lower_bound(sub, k, op_count);
      if (pool.size_limit < 0 || bytes <= pool.size_limit) {
        for (std::int32_t j = 0; j < k; ++j) {
          placed[member[j]] = true;
          out[member[j]] = pool_allocation{p, sub_at[static_cast<std::size_t>(j)].offset};
        }
        usage = pool_usage{bytes, peak.bytes, peak.op, k};
        break;
      }
      // Over the limit: which buffers may leave for a later pool? Those placed above the limit, or
      // else the largest one live at the peak.
      std::int32_t left = 0, largest = -1;
      for (std::int32_t j = 0; j < k; ++j) {
        if ((b[member[j]].candidate_pools & later) == 0) continue;
        if (sub_at[static_cast<std::size_t>(j)].offset + s[j].bytes > pool.size_limit) ++left;
        if (s[j].first_use <= peak.op && peak.op <= s[j].last_use && (largest < 0 || s[j].bytes > s[largest].bytes)) largest = j;
      }
      std::int32_t kept = 0;
      for (std::int32_t j = 0; j < k; ++j) {
        const bool movable = (b[member[j]].candidate_pools & later) != 0;
        const bool leaves = left > 0 ? movable && sub_at[static_cast<std::size_t>(j)].offset + s[j].bytes > pool.size_limit : j == largest;
        if (!leaves) member[kept++] = member[j];
      }
      if (left == 0 && largest >= 0) left = 1;
      if (left == 0) {
        result.failed_pool = p;
        result.needed = bytes;
        result.limit = pool.size_limit;
        result.peak_op = peak.op;
        usage = pool_usage{bytes, peak.bytes, peak.op, k};
        return result;
      }
      k = kept;
    }
  }
  return result;
}

}  // namespace ctnn::memory
