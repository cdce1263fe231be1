#pragma once
// The arena checker (docs/sanitizers.md): a test mode of the executor in which a kernel that reads or
// writes a byte of its pools outside the ranges the plan gives its call fails under AddressSanitizer.
// Define CTNN_ARENA_CHECKER (e.g. -DCTNN_ARENA_CHECKER, with -fsanitize=address) in every translation
// unit of the program (the executor's functions are inline: one definition rule). Before each call the
// executor poisons every writable pool whole and unpoisons exactly the bytes that call may touch: where
// the plan placed each of its operands and its result (the allocation of the tensor's storage root, the
// tensor's bytes; an in-place call's input and result overlap, and both are open) and its scratch. After
// the run every pool is unpoisoned again. Without the macro the executor holds an empty object and its
// code is unchanged.
//
// ASan tracks memory in 8-byte granules and can open only a granule's first bytes: the end of every range
// is exact, its start exact when it is 8-byte aligned (the planner aligns buffers to the pool's alignment,
// 16 by default; a concat input written in place may start inside a granule, whose earlier bytes then
// stay open during that call). Model inputs and outputs in the caller's buffers are not pool memory and
// are not checked here (ASan checks their heap or stack bounds as for any buffer). run_call<C> runs
// without the checker.
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>

#ifdef CTNN_ARENA_CHECKER
#if defined(__SANITIZE_ADDRESS__)  // g++, and clang 14 and later
#define CTNN_DETAIL_ARENA_CHECKER_HAS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CTNN_DETAIL_ARENA_CHECKER_HAS_ASAN 1
#endif
#endif
#ifndef CTNN_DETAIL_ARENA_CHECKER_HAS_ASAN
#error "CTNN_ARENA_CHECKER needs AddressSanitizer: compile and link with -fsanitize=address (docs/sanitizers.md)."
#endif
#include <sanitizer/asan_interface.h>
#endif

namespace ctnn::detail {

// ASan's shadow memory: a poisoned byte may not be read or written until it is unpoisoned.
inline void poison_bytes([[maybe_unused]] std::byte* first, [[maybe_unused]] std::size_t bytes) noexcept {
#ifdef CTNN_ARENA_CHECKER
  ASAN_POISON_MEMORY_REGION(first, bytes);
#endif
}
inline void unpoison_bytes([[maybe_unused]] std::byte* first, [[maybe_unused]] std::size_t bytes) noexcept {
#ifdef CTNN_ARENA_CHECKER
  ASAN_UNPOISON_MEMORY_REGION(first, bytes);
#endif
}

// Bytes [offset, offset + bytes) of pool `pool`.
struct pool_range {
  std::int32_t pool = 0;
  std::int64_t offset = 0;
  std::int64_t bytes = 0;
};

// At most every operand, the result and the scratch of one call.
inline constexpr std::size_t max_ranges_per_call = max_node_inputs + 2;

template <std::size_t Calls>
struct planned_ranges {
  std::array<std::array<pool_range, max_ranges_per_call>, Calls + 1> of_call{};
  std::array<std::size_t, Calls + 1> count{};
};

// What the plan lets each call touch in the pools. A tensor outside the pools (a constant, a model input
// or output in the caller's buffer) has no allocation (offset -1) and adds nothing.
template <std::size_t Calls, class Module>
constexpr planned_ranges<Calls> ranges_of_each_call(const Module& m) {
  planned_ranges<Calls> table{};
  for (std::size_t c = 0; c < Calls; ++c) {
    const kernel_call& call = m.calls[c];
    const auto add = [&](std::int32_t pool, std::int64_t offset, std::int64_t bytes) {
      if (offset >= 0 && bytes > 0) table.of_call[c][table.count[c]++] = {pool, offset, bytes};
    };
    const auto add_tensor = [&](std::int32_t id) {
      if (id < 0) return;
      const memory::pool_allocation& at = m.allocations[static_cast<std::size_t>(m.storage_root(id))];
      add(at.pool, at.offset, m.tensor_at(id).bytes());
    };
    for (std::int32_t k = 0; k < call.operand_count; ++k) add_tensor(call.operands[static_cast<std::size_t>(k)]);
    add_tensor(call.result);
    add(m.scratch[c].pool, m.scratch[c].offset, m.scratch_bytes[c]);
  }
  return table;
}

// The executor's object when CTNN_ARENA_CHECKER is defined (without it, poisoning does nothing): poisons
// in before_call, restores on destruction. Executor is the executor<M> that holds it (its pools and their
// sizes).
template <class Executor>
class arena_checker {
  static constexpr std::size_t calls = Executor::call_count;
  static constexpr auto planned = ranges_of_each_call<calls>(Executor::module);
  static constexpr bool inside_pools = [] {
    for (std::size_t c = 0; c < calls; ++c)
      for (std::size_t r = 0; r < planned.count[c]; ++r) {
        const pool_range& range = planned.of_call[c][r];
        if (range.pool < 0 || static_cast<std::size_t>(range.pool) >= Executor::pool_count ||
            static_cast<std::size_t>(range.offset + range.bytes) > Executor::pool_bytes_at(static_cast<std::size_t>(range.pool)))
          return false;
      }
    return true;
  }();
  static_assert(inside_pools, "ctnn::arena_checker: the plan places an operand, result or scratch of a call outside its "
                              "pool's bytes (a planner bug: docs/memory.md).");

 public:
  using pool_pointers = typename Executor::pool_pointers;

  explicit arena_checker(const pool_pointers& pools) noexcept : pools_{pools} {}
  arena_checker(const arena_checker&) = delete;
  arena_checker& operator=(const arena_checker&) = delete;
  ~arena_checker() { for_each_pool(unpoison_bytes); }

  void before_call(std::size_t call) const noexcept {
    for_each_pool(poison_bytes);
    for (std::size_t r = 0; r < planned.count[call]; ++r) {
      const pool_range& range = planned.of_call[call][r];
      unpoison_bytes(pools_[static_cast<std::size_t>(range.pool)] + range.offset, static_cast<std::size_t>(range.bytes));
    }
  }

 private:
  template <class F>
  void for_each_pool(F f) const noexcept {
    for (std::size_t p = 0; p < Executor::pool_count; ++p)
      if (const std::size_t bytes = Executor::pool_bytes_at(p); bytes > 0 && pools_[p] != nullptr) f(pools_[p], bytes);
  }

  const pool_pointers& pools_;
};

// The executor's object without CTNN_ARENA_CHECKER: nothing.
struct unchecked_arena {
  template <class Pools>
  [[gnu::always_inline]] constexpr explicit unchecked_arena(const Pools&) noexcept {}
  [[gnu::always_inline]] constexpr void before_call(std::size_t) const noexcept {}
};

#ifdef CTNN_ARENA_CHECKER
template <class Executor>
using arena_check = arena_checker<Executor>;
#else
template <class Executor>
using arena_check = unchecked_arena;
#endif

}  // namespace ctnn::detail
