// Unit tests of the memory planner: greedy_by_size and liveness_lower_bound on hand-made buffer lists
// whose answers are worked out in the comments, a randomized property test (run-time calls of the same
// constexpr functions), and pass::plan_memory on small modules.
#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <type_traits>

#include <doctest/doctest.h>

#include <ctnn/frontend/dsl.hpp>
#include <ctnn/memory/buffer_info.hpp>
#include <ctnn/memory/algorithms.hpp>
#include <ctnn/memory/detail/lifetimes.hpp>
#include <ctnn/memory/greedy_by_size.hpp>
#include <ctnn/memory/liveness.hpp>
#include <ctnn/pass/infer_types.hpp>
#include <ctnn/pass/lower_te.hpp>
#include <ctnn/pass/plan_memory.hpp>

#include "test_modules.hpp"

namespace {

namespace memory = ctnn::memory;
using memory::buffer_info;
using memory::pool_allocation;

constexpr buffer_info buf(std::int64_t bytes, std::int32_t first, std::int32_t last, std::int32_t alignment = 1) {
  return {-1, bytes, alignment, first, last, memory::buffer_kind::intermediate};
}

template <std::size_t N>
struct plan_result {
  std::array<pool_allocation, N> at{};
  std::int64_t pool = 0;
  constexpr std::int64_t offset(std::size_t i) const { return at[i].offset; }
};

template <std::size_t N>
constexpr plan_result<N> greedy(const std::array<buffer_info, N>& buffers) {
  plan_result<N> r{};
  r.pool = memory::greedy_by_size::plan(buffers, static_cast<std::int32_t>(N), r.at);
  return r;
}

// ---------------------------------------------------------------------------------------------------
// Hand-made cases.

static_assert(memory::align_up(0, 16) == 0 && memory::align_up(1, 16) == 16 && memory::align_up(16, 16) == 16 &&
              memory::align_up(17, 16) == 32 && memory::align_up(5, 1) == 5);
static_assert(buf(1, 0, 2).lifetime_overlaps(buf(1, 2, 3)) && !buf(1, 0, 1).lifetime_overlaps(buf(1, 2, 3)) &&
              buf(1, 1, 1).lifetime_overlaps(buf(1, 0, 5)) && buf(1, 0, 5).lifetime_overlaps(buf(1, 1, 1)));

// Nothing to place.
static_assert(greedy(std::array<buffer_info, 1>{}).pool == 0);  // one buffer of 0 bytes
static_assert(memory::liveness_lower_bound(std::array<buffer_info, 4>{}, 0, 3).bytes == 0);
static_assert(memory::liveness_lower_bound(std::array<buffer_info, 4>{}, 0, 3).op == -1);

// Lifetimes [0,0], [1,1], [2,2]: nothing overlaps, everything at 0; the pool is the largest, 200,
// which is also the bound (op 1).
constexpr std::array<buffer_info, 3> chain{buf(100, 0, 0), buf(200, 1, 1), buf(50, 2, 2)};
static_assert(greedy(chain).offset(0) == 0 && greedy(chain).offset(1) == 0 && greedy(chain).offset(2) == 0);
static_assert(greedy(chain).pool == 200);
static_assert(memory::liveness_lower_bound(chain, 3, 3).bytes == 200 && memory::liveness_lower_bound(chain, 3, 3).op == 1);

// All live together: stacked largest first (30 @ 0, 20 @ 30, 10 @ 50); pool 60 = bound (first op, 0).
constexpr std::array<buffer_info, 3> together{buf(10, 0, 1), buf(20, 0, 1), buf(30, 0, 1)};
static_assert(greedy(together).offset(2) == 0 && greedy(together).offset(1) == 30 && greedy(together).offset(0) == 50);
static_assert(greedy(together).pool == 60);
static_assert(memory::liveness_lower_bound(together, 3, 2).bytes == 60 && memory::liveness_lower_bound(together, 3, 2).op == 0);

// Alignment: 20 @ 0, then 10 must start at a multiple of 16 past 20: 32. Pool 42 > bound 30.
constexpr std::array<buffer_info, 2> aligned{buf(10, 0, 0, 16), buf(20, 0, 0, 16)};
static_assert(greedy(aligned).offset(1) == 0 && greedy(aligned).offset(0) == 32 && greedy(aligned).pool == 42);
static_assert(memory::liveness_lower_bound(aligned, 2, 1).bytes == 30);

// Reuse of a gap: X 100 [0,0] @ 0; Z 50 [0,1] above it @ 100; Y 40 [1,1] only meets Z, so it takes
// X's place @ 0. Pool 150 = bound at op 0 (X + Z).
constexpr std::array<buffer_info, 3> gap{buf(100, 0, 0), buf(40, 1, 1), buf(50, 0, 1)};
static_assert(greedy(gap).offset(0) == 0 && greedy(gap).offset(2) == 100 && greedy(gap).offset(1) == 0);
static_assert(greedy(gap).pool == 150);
static_assert(memory::liveness_lower_bound(gap, 3, 2).bytes == 150 && memory::liveness_lower_bound(gap, 3, 2).op == 0);

// Equal sizes keep their order (stable sort): 0, 16, 32.
constexpr std::array<buffer_info, 3> ties{buf(16, 0, 2), buf(16, 1, 2), buf(16, 2, 2)};
static_assert(greedy(ties).offset(0) == 0 && greedy(ties).offset(1) == 16 && greedy(ties).offset(2) == 32);

// A move past one buffer can land on a buffer scanned earlier, so the scan must restart:
//   Q 100 [0,0] @ 0;  P1 60 [0,1] @ 100 (meets Q);  P2 52 [1,2] @ 0 (Q is dead by op 1).
//   N 51 [1,1]: at 0 it meets P2 -> 52; [52,103) now meets P1 [100,160) -> 160 (the gap 52..100 is
//   only 48 bytes). Pool 211; bound at op 1: 60 + 52 + 51 = 163.
constexpr std::array<buffer_info, 4> rescan{buf(100, 0, 0), buf(60, 0, 1), buf(52, 1, 2), buf(51, 1, 1)};
static_assert(greedy(rescan).offset(0) == 0 && greedy(rescan).offset(1) == 100 && greedy(rescan).offset(2) == 0);
static_assert(greedy(rescan).offset(3) == 160 && greedy(rescan).pool == 211);
static_assert(memory::liveness_lower_bound(rescan, 4, 3).bytes == 163 && memory::liveness_lower_bound(rescan, 4, 3).op == 1);

// Zero-byte buffers take no room.
constexpr std::array<buffer_info, 3> empties{buf(0, 0, 1), buf(8, 0, 1), buf(0, 0, 1)};
static_assert(greedy(empties).pool == 8 && greedy(empties).offset(1) == 0);

// `count` limits what is placed: only the first two of `together` (10 and 20 bytes).
static_assert([] {
  std::array<pool_allocation, 3> at{};
  const auto pool = memory::greedy_by_size::plan(together, 2, at);
  return pool == 30 && at[1].offset == 0 && at[0].offset == 20 && at[2].offset == -1;
}());

// The greedy orders' keys and building blocks (memory/detail): three buffers, b1 [0, 1] 20 B, b2 [1, 5]
// 30 B, b0 [2, 4] 10 B.
constexpr std::array<buffer_info, 3> staggered{buf(10, 2, 4), buf(20, 0, 1), buf(30, 1, 5)};
constexpr memory::detail::lifetimes<3> staggered_lives{staggered, 3};
static_assert(staggered_lives.by_first == std::array<std::int32_t, 3>{1, 2, 0} &&
              staggered_lives.by_last == std::array<std::int32_t, 3>{1, 0, 2});
static_assert(staggered_lives.sorted_first == std::array<std::int64_t, 3>{0, 1, 2} &&
              staggered_lives.sorted_last == std::array<std::int64_t, 3>{1, 4, 5});
// first_at_least: the first position in [lo, hi) at or above the value.
static_assert(memory::detail::first_at_least(staggered_lives.sorted_last.data(), 0, 3, std::int64_t{4}) == 1 &&
              memory::detail::first_at_least(staggered_lives.sorted_last.data(), 0, 3, std::int64_t{6}) == 3 &&
              memory::detail::first_at_least(staggered_lives.sorted_last.data(), 2, 3, std::int64_t{0}) == 2);
// Conflicts: b2 meets both others, b0 and b1 only b2; breadth: 50 B live at op 1 (b1 + b2), 40 B at op 2.
static_assert(memory::order::conflict_counts(staggered, 3) == std::array<std::int64_t, 3>{1, 1, 2});
static_assert(memory::order::widest_breadth(staggered, 3) == std::array<std::int64_t, 3>{40, 50, 50});
// Most conflicts first, then larger first; broadest first, then larger first; larger first.
static_assert(memory::order::by_conflicts(staggered, 3) == std::array<std::int32_t, 3>{2, 1, 0});
static_assert(memory::order::by_breadth(staggered, 3) == std::array<std::int32_t, 3>{2, 1, 0});
static_assert(memory::order::by_size(staggered, 3) == std::array<std::int32_t, 3>{2, 1, 0});

// ---------------------------------------------------------------------------------------------------
// Every algorithm in constant evaluation (the compiler runs them), on every case above: a valid plan
// (aligned, no overlap between buffers live together, pool = highest end) no smaller than the bound.
template <class Algorithm, std::size_t N>
constexpr std::int64_t checked(const std::array<buffer_info, N>& buffers) {
  std::array<pool_allocation, N> at{};
  const std::int64_t pool = Algorithm::plan(buffers, static_cast<std::int32_t>(N), at);
  std::int64_t highest = 0;
  for (std::size_t i = 0; i < N; ++i) {
    const auto& x = buffers[i];
    if (at[i].offset < 0 || at[i].offset % x.alignment != 0) return -1;
    if (at[i].offset + x.bytes > highest) highest = at[i].offset + x.bytes;
    for (std::size_t j = i + 1; j < N; ++j) {
      const auto& y = buffers[j];
      if (x.lifetime_overlaps(y) && x.bytes > 0 && y.bytes > 0 && at[i].offset < at[j].offset + y.bytes &&
          at[j].offset < at[i].offset + x.bytes)
        return -1;
    }
  }
  if (highest != pool || pool < memory::liveness_lower_bound(buffers, static_cast<std::int32_t>(N), 16).bytes) return -1;
  return pool;
}
template <class Algorithm>
constexpr bool all_cases_valid() {
  return checked<Algorithm>(chain) >= 0 && checked<Algorithm>(together) >= 0 && checked<Algorithm>(aligned) >= 0 &&
         checked<Algorithm>(gap) >= 0 && checked<Algorithm>(ties) >= 0 && checked<Algorithm>(rescan) >= 0 &&
         checked<Algorithm>(empties) >= 0;
}
static_assert(all_cases_valid<memory::greedy_by_size>() && all_cases_valid<memory::greedy_by_conflicts>() &&
              all_cases_valid<memory::greedy_by_breadth>() && all_cases_valid<memory::interval_sweep>() &&
              all_cases_valid<memory::hill_climb<3>>() && all_cases_valid<memory::hill_climb<5, 20>>() &&
              all_cases_valid<memory::branch_and_bound<>>() && all_cases_valid<memory::default_planner>() &&
              all_cases_valid<memory::best_of<memory::greedy_by_conflicts, memory::interval_sweep>>());

// Where greedy by size misses the bound: a chain A 80 [0,1], B 80 [1,2], C 20 [2,3], D 70 [3,4]; bound
// 160 (A + B). Greedy: A @0, B @80, D @0 (C is not placed yet), then C meets B [80,160) and D [0,70):
// @160, pool 180. The sweep alternates bottom / top: A @0, B @80 (flush against the top), C @0, D @90:
// 160, the bound; so do branch and bound (proven optimal) and the default.
constexpr std::array<buffer_info, 4> ping_pong{buf(80, 0, 1), buf(80, 1, 2), buf(20, 2, 3), buf(70, 3, 4)};
static_assert(checked<memory::greedy_by_size>(ping_pong) == 180);
static_assert(checked<memory::interval_sweep>(ping_pong) == 160 && checked<memory::branch_and_bound<>>(ping_pong) == 160 &&
              checked<memory::default_planner>(ping_pong) == 160);
static_assert([] {
  std::array<pool_allocation, 4> at{};
  memory::interval_sweep::plan(ping_pong, 4, at);
  return at[0].offset == 0 && at[1].offset == 80 && at[2].offset == 0 && at[3].offset == 90;
}());
static_assert([] {
  std::array<pool_allocation, 4> at{};
  bool proven = false;
  return memory::branch_and_bound<>::plan(ping_pong, 4, at, proven) == 160 && proven;
}());
// The climb starts from greedy by size and finds the bound too (a swap puts C before D).
static_assert(checked<memory::hill_climb<1, 50>>(ping_pong) == 160);
// best_of keeps the first of equal plans: greedy by size's, where it reaches the bound.
static_assert([] {
  std::array<pool_allocation, 3> a{}, b{};
  memory::best_of<memory::greedy_by_size, memory::interval_sweep>::plan(gap, 3, a);
  memory::greedy_by_size::plan(gap, 3, b);
  return a[0].offset == b[0].offset && a[1].offset == b[1].offset && a[2].offset == b[2].offset;
}());

// ---------------------------------------------------------------------------------------------------
// Property test.
constexpr std::size_t capacity = 24;

struct sweep_peak {
  std::int64_t bytes = 0;
  std::int32_t op = -1;
};

// The liveness bound computed another way: +bytes when a buffer starts, -bytes after it ends, running
// sum per op; the first op with the largest sum.
sweep_peak sweep(const std::array<buffer_info, capacity>& b, std::int32_t count, std::int32_t ops) {
  std::array<std::int64_t, 64> delta{};
  for (std::int32_t i = 0; i < count; ++i) {
    delta[static_cast<std::size_t>(b[static_cast<std::size_t>(i)].first_use)] += b[static_cast<std::size_t>(i)].bytes;
    delta[static_cast<std::size_t>(b[static_cast<std::size_t>(i)].last_use + 1)] -= b[static_cast<std::size_t>(i)].bytes;
  }
  sweep_peak peak{};
  std::int64_t live = 0;
  for (std::int32_t op = 0; op < ops; ++op) {
    live += delta[static_cast<std::size_t>(op)];
    if (live > peak.bytes) peak = {live, op};
  }
  return peak;
}

TEST_CASE("greedy_by_size: property test on 2000 random buffer sets") {
  std::mt19937 rng{20240611u};
  const std::array<std::int32_t, 7> alignments{1, 2, 4, 8, 16, 32, 64};
  int overlapping_pairs_seen = 0, nonzero_pools = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const auto count = static_cast<std::int32_t>(std::uniform_int_distribution<int>{0, static_cast<int>(capacity)}(rng));
    const auto ops = static_cast<std::int32_t>(std::uniform_int_distribution<int>{1, 12}(rng));
    std::array<buffer_info, capacity> buffers{};
    for (std::int32_t i = 0; i < count; ++i) {
      auto& b = buffers[static_cast<std::size_t>(i)];
      b.tensor = i;
      // Mostly small buffers, some large, a few empty.
      const int kind = std::uniform_int_distribution<int>{0, 9}(rng);
      b.bytes = kind == 0 ? 0 : kind < 7 ? std::uniform_int_distribution<int>{1, 300}(rng) : std::uniform_int_distribution<int>{300, 5000}(rng);
      b.alignment = alignments[std::uniform_int_distribution<std::size_t>{0, alignments.size() - 1}(rng)];
      b.first_use = std::uniform_int_distribution<std::int32_t>{0, ops - 1}(rng);
      b.last_use = std::uniform_int_distribution<std::int32_t>{b.first_use, ops - 1}(rng);
    }
    std::array<pool_allocation, capacity> at{};
    const std::int64_t pool = memory::greedy_by_size::plan(buffers, count, at);
    const auto bound = memory::liveness_lower_bound(buffers, count, ops);
    CAPTURE(trial);
    CAPTURE(count);

    std::int64_t highest_end = 0, sum_aligned = 0;
    for (std::int32_t i = 0; i < count; ++i) {
      const auto& b = buffers[static_cast<std::size_t>(i)];
      const std::int64_t off = at[static_cast<std::size_t>(i)].offset;
      REQUIRE(at[static_cast<std::size_t>(i)].pool == 0);
      REQUIRE(off >= 0);
      REQUIRE(off % b.alignment == 0);
      REQUIRE(off + b.bytes <= pool);
      highest_end = std::max(highest_end, off + b.bytes);
      sum_aligned += b.bytes + b.alignment - 1;
      for (std::int32_t j = i + 1; j < count; ++j) {
        const auto& o = buffers[static_cast<std::size_t>(j)];
        if (!b.lifetime_overlaps(o) || b.bytes == 0 || o.bytes == 0) continue;
        ++overlapping_pairs_seen;
        const std::int64_t other = at[static_cast<std::size_t>(j)].offset;
        CAPTURE(i);
        CAPTURE(j);
        REQUIRE((off + b.bytes <= other || other + o.bytes <= off));
      }
    }
    // The pool is exactly as large as the highest placed byte, never below the liveness bound, and no
    // larger than stacking every buffer with its worst-case alignment gap (first fit never does worse).
    REQUIRE(pool == highest_end);
    REQUIRE(pool >= bound.bytes);
    REQUIRE(pool <= sum_aligned);
    const sweep_peak expected = sweep(buffers, count, ops);
    REQUIRE(bound.bytes == expected.bytes);
    REQUIRE(bound.op == expected.op);
    // Deterministic.
    std::array<pool_allocation, capacity> again{};
    REQUIRE(memory::greedy_by_size::plan(buffers, count, again) == pool);
    for (std::int32_t i = 0; i < count; ++i) REQUIRE(again[static_cast<std::size_t>(i)].offset == at[static_cast<std::size_t>(i)].offset);
    nonzero_pools += pool > 0 ? 1 : 0;
  }
  // The generator exercised the interesting cases.
  CHECK(overlapping_pairs_seen > 10000);
  CHECK(nonzero_pools > 1800);
}

TEST_CASE("greedy_by_size: when every buffer lives at one op, the pool equals the sum (alignment 1)") {
  // Here nothing can share memory, so the bound is the sum of sizes and first fit reaches it.
  std::mt19937 rng{7u};
  for (int trial = 0; trial < 200; ++trial) {
    std::array<buffer_info, capacity> buffers{};
    const auto count = static_cast<std::int32_t>(std::uniform_int_distribution<int>{1, static_cast<int>(capacity)}(rng));
    std::int64_t sum = 0;
    for (std::int32_t i = 0; i < count; ++i) {
      buffers[static_cast<std::size_t>(i)] = buf(std::uniform_int_distribution<int>{1, 1000}(rng), 0, 0);
      sum += buffers[static_cast<std::size_t>(i)].bytes;
    }
    std::array<pool_allocation, capacity> at{};
    CHECK(memory::greedy_by_size::plan(buffers, count, at) == sum);
    CHECK(memory::liveness_lower_bound(buffers, count, 1).bytes == sum);
  }
}

// ---------------------------------------------------------------------------------------------------
// pass::plan_memory on modules.
template <class Model>
constexpr auto lowered = ctnn::pass::lower_te::run(ctnn::pass::infer_types::run(Model::build()));
template <class Model>
constexpr auto planned = ctnn::pass::plan_memory<>::run(lowered<Model>);

template <class Module>
constexpr std::int64_t offset_of_node(const Module& m, std::int32_t node) {
  return m.allocations[static_cast<std::size_t>(m.node_at(node).output)].offset;
}

static_assert(ctnn::pass::plan_memory<>::requires_facts == ctnn::fact::kernels_lowered);
static_assert(ctnn::pass::plan_memory<>::establishes == ctnn::fact::memory_planned);

// small_graph (see test_modules.hpp): a [0,2] 128 B, b [1,3] 128 B, c [2,3] 128 B, d [3,4] 256 B.
// Bound 512 at op 3. Greedy: d @ 0; a @ 0 (never meets d); b meets d -> 256; c meets d and b -> 384.
constexpr auto& graph_plan = planned<ctnn_test::small_graph>;
static_assert(graph_plan.has(ctnn::fact::memory_planned));
static_assert(graph_plan.liveness_lower_bound == 512 && graph_plan.peak_node == 3 && graph_plan.arena_bytes() == 512);
static_assert(offset_of_node(graph_plan, 3) == 0 && offset_of_node(graph_plan, 0) == 0 && offset_of_node(graph_plan, 1) == 256 &&
              offset_of_node(graph_plan, 2) == 384);
static_assert(offset_of_node(graph_plan, 4) == -1);                    // the model output
static_assert(graph_plan.allocations[static_cast<std::size_t>(graph_plan.inputs[0])].offset == -1);  // the model input
static_assert(graph_plan.allocations[static_cast<std::size_t>(graph_plan.node_at(0).inputs[1])].offset == -1);  // weights

TEST_CASE("arena_buffers: lifetimes from producer to last reader") {
  std::int32_t count = -1;
  const auto buffers = ctnn::pass::arena_buffers(lowered<ctnn_test::small_graph>, count);
  REQUIRE(count == 4);
  const std::array<std::array<std::int32_t, 2>, 4> lifetimes{{{0, 2}, {1, 3}, {2, 3}, {3, 4}}};
  const auto& m = lowered<ctnn_test::small_graph>;
  for (std::int32_t i = 0; i < count; ++i) {
    const auto& b = buffers[static_cast<std::size_t>(i)];
    CAPTURE(i);
    CHECK(b.tensor == m.node_at(i).output);
    CHECK(b.first_use == lifetimes[static_cast<std::size_t>(i)][0]);
    CHECK(b.last_use == lifetimes[static_cast<std::size_t>(i)][1]);
    CHECK(b.bytes == m.tensor_at(b.tensor).dims.elements() * 4);
    CHECK(b.alignment == m.arena_alignment);
  }
}

// tiny_cnn: conv out 576 B [0,1], pool 144 B [1,2], flatten 144 B [2,3], dense 12 B [3,4].
// Live per op: 576, 720, 288, 156, 12 -> bound 720 at op 1. Greedy: conv @ 0, pool @ 576, flatten @ 0
// (meets pool only, which is above), dense @ 144. Pool 720, already a multiple of 16.
constexpr auto& tiny_plan = planned<ctnn_test::tiny_cnn>;
static_assert(tiny_plan.liveness_lower_bound == 720 && tiny_plan.peak_node == 1 && tiny_plan.arena_bytes() == 720);
static_assert(offset_of_node(tiny_plan, 0) == 0 && offset_of_node(tiny_plan, 1) == 576 && offset_of_node(tiny_plan, 2) == 0 &&
              offset_of_node(tiny_plan, 3) == 144);

// The arena alignment is the module's: with 64, dense moves to align_up(144, 64) = 192 and the arena
// rounds up to 768.
constexpr auto tiny_plan_64 = [] {
  auto m = lowered<ctnn_test::tiny_cnn>;
  m.arena_alignment = 64;
  return ctnn::pass::plan_memory<>::run(m);
}();
static_assert(offset_of_node(tiny_plan_64, 1) == 576 && offset_of_node(tiny_plan_64, 3) == 192);
static_assert(tiny_plan_64.arena_bytes() == 768 && tiny_plan_64.liveness_lower_bound == 720);

// One intermediate: s lives ops 0..2 (read by both later ops).
static_assert(planned<ctnn_test::two_io_graph>.arena_bytes() == 32 && planned<ctnn_test::two_io_graph>.liveness_lower_bound == 32 &&
              planned<ctnn_test::two_io_graph>.peak_node == 0);

// No intermediates at all.
using no_arena = ctnn::dsl::sequential<ctnn::dsl::input<ctnn::f32, 1, 5>, ctnn::dsl::relu>;
static_assert(planned<no_arena>.arena_bytes() == 0 && planned<no_arena>.liveness_lower_bound == 0 && planned<no_arena>.peak_node == -1);

// A user-supplied placement algorithm: every buffer after the previous one (no reuse).
struct bump_allocator {
  template <class Buffers, class Allocations>
  static constexpr std::int64_t plan(const Buffers& buffers, std::int32_t count, Allocations& at) {
    std::int64_t next = 0;
    for (std::int32_t i = 0; i < count; ++i) {
      const auto& b = buffers[static_cast<std::size_t>(i)];
      next = memory::align_up(next, b.alignment);
      at[static_cast<std::size_t>(i)] = {0, next};
      next += b.bytes;
    }
    return next;
  }
};
constexpr auto bump_plan = ctnn::pass::plan_memory<bump_allocator>::run(lowered<ctnn_test::small_graph>);
static_assert(bump_plan.arena_bytes() == 128 * 3 + 256 && bump_plan.liveness_lower_bound == 512);
static_assert(offset_of_node(bump_plan, 0) == 0 && offset_of_node(bump_plan, 1) == 128 && offset_of_node(bump_plan, 2) == 256 &&
              offset_of_node(bump_plan, 3) == 384);

TEST_CASE("plan_memory at run time gives the constexpr plan") {
  using module_type = std::remove_cvref_t<decltype(lowered<ctnn_test::tiny_cnn>)>;
  module_type (*volatile run)(module_type) = &ctnn::pass::plan_memory<>::run<module_type>;
  const auto m = run(lowered<ctnn_test::tiny_cnn>);
  CHECK(m.arena_bytes() == tiny_plan.arena_bytes());
  CHECK(m.liveness_lower_bound == tiny_plan.liveness_lower_bound);
  CHECK(m.peak_node == tiny_plan.peak_node);
  for (std::int32_t t = 0; t < m.tensor_count; ++t) CHECK(m.allocations[static_cast<std::size_t>(t)].offset == tiny_plan.allocations[static_cast<std::size_t>(t)].offset);
}

}  // namespace
