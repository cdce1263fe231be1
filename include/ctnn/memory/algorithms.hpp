#pragma once
// Every placement algorithm, and the default one. An algorithm is a type with
//
//   template <class Buffers, class Allocations>
//   static constexpr std::int64_t plan(const Buffers& buffers, std::int32_t count, Allocations& allocations);
//
// (Buffers: std::array<buffer_info, N>, Allocations: std::array<pool_allocation, M>, M >= count): it
// writes one offset per buffer (the pool is filled in by the caller) and returns the pool size, the
// highest end. Offsets must be multiples of each buffer's alignment, and buffers whose lifetimes meet
// must not overlap. Give your own to ctnn::planner<> (docs/memory.md).
#include <ctnn/memory/best_of.hpp>
#include <ctnn/memory/branch_and_bound.hpp>
#include <ctnn/memory/greedy_by_breadth.hpp>
#include <ctnn/memory/greedy_by_conflicts.hpp>
#include <ctnn/memory/greedy_by_size.hpp>
#include <ctnn/memory/hill_climb.hpp>
#include <ctnn/memory/interval_sweep.hpp>

namespace ctnn::memory {

// The default: greedy by size (what TVM and TFLM do), the interval sweep, greedy by breadth, an exact
// search for up to 12 buffers and a seeded hill climb with a fixed work budget (every other swap at the
// buffer that sets the pool's size: memory/hill_climb.hpp), keeping the smallest;
// it stops as soon as one reaches the liveness lower bound. Cost: greedy by size alone when it reaches
// the bound (the usual case on networks); otherwise each member once, the climb within its budget.
// Measured on 400-op chains (docs/memory.md), the whole plan_memory pass: 0.15 M of clang's 1,048,576
// constexpr steps with network-like sizes, 0.47 M with random sizes, 0.85 M with random sizes and
// skip connections up to 60 ops back. greedy_by_conflicts is left out (rarely the best, and as costly as
// breadth): name it in your own best_of<> if you want it.
using default_planner =
    best_of<greedy_by_size, interval_sweep, greedy_by_breadth, branch_and_bound<12, 1500>, hill_climb<1, 0, 10000, 2>>;

}  // namespace ctnn::memory
