// pass::check_budgets, before and after, on tiny_cnn placed (unit_place_buffers.cpp: 720 B at op 1, the max
// pool; constants 892 B): a plan within every limit establishes fact::memory_planned and changes nothing
// else; a writable pool over its limit fails with its index, the bytes needed, the limit and the op at its
// peak; a read-only pool over its limit with op -1; a pass that grows a pool after placement is checked too.
#include <cstdint>

#include <doctest/doctest.h>

#include <ctnn/compile.hpp>
#include <ctnn/frontend/dsl.hpp>
#include <ctnn/pass/assign_pools.hpp>
#include <ctnn/pass/check_budgets.hpp>
#include <ctnn/pass/place_buffers.hpp>

#include "test_modules.hpp"

namespace {

namespace pass = ctnn::pass;
using ctnn_test::tiny_cnn;

constexpr auto lowered = ctnn::stage_v<tiny_cnn, ctnn::default_pipeline, 6>;
template <class... Options>
constexpr auto placed = pass::place_buffers<>::run(pass::assign_pools<Options...>::run(lowered));
constexpr auto pool_budget_exceeded = ctnn::code_of(ctnn::memory_error::pool_budget_exceeded);

// Within the limits (none, or 720 <= 1024): memory_planned, nothing else changes.
constexpr auto fits = pass::check_budgets::run(placed<ctnn::pools<ctnn::pool<"sram", 1024>>>);
static_assert(!placed<>.has(ctnn::fact::memory_planned) && fits.has(ctnn::fact::memory_planned) && !fits.error.failed());
static_assert(pass::check_budgets::run(placed<>).has(ctnn::fact::memory_planned));
static_assert(fits.pool_usage[0].bytes == 720 && fits.arena_bytes() == 720);
// Exactly at the limit fits.
static_assert(!pass::check_budgets::run(placed<ctnn::pools<ctnn::pool<"sram", 720>>>).error.failed());

// Over: pool 0 needs 720, its limit is 512, the peak is op 1 (max_pool).
constexpr auto over = pass::check_budgets::run(placed<ctnn::pools<ctnn::pool<"sram", 512>>>);
static_assert(over.error.code == pool_budget_exceeded && over.error.value_a == 720 && over.error.value_b == 512 &&
              over.error.expected.dims[0] == 0 && over.error.node == 1 && over.error.kind == ctnn::op_kind::max_pool);
static_assert(!over.has(ctnn::fact::memory_planned));

// Constants over a read-only pool's limit: pool 1, 892 > 800, no op.
constexpr auto flash_over = pass::check_budgets::run(placed<ctnn::pools<ctnn::pool<"sram">, ctnn::read_only_pool<"flash", 800>>>);
static_assert(flash_over.error.code == pool_budget_exceeded && flash_over.error.value_a == 892 && flash_over.error.value_b == 800 &&
              flash_over.error.expected.dims[0] == 1 && flash_over.error.node == -1);
static_assert(!pass::check_budgets::run(placed<ctnn::pools<ctnn::pool<"sram">, ctnn::read_only_pool<"flash", 892>>>).error.failed());

// A pass between placement and the check that grows the arena is held to the limit as well.
constexpr auto grown = [] {
  auto m = placed<ctnn::pools<ctnn::pool<"sram", 768>>>;
  m.pool_usage[0].bytes += 64;
  return pass::check_budgets::run(m);
}();
static_assert(grown.error.code == pool_budget_exceeded && grown.error.value_a == 784 && grown.error.value_b == 768);

TEST_CASE("check_budgets: the same at run time") {
  auto m = placed<ctnn::pools<ctnn::pool<"sram", 512>>>;
  pass::check_budgets::run_in_place(m);
  CHECK(m.error.code == pool_budget_exceeded);
  CHECK(m.error.value_a == 720);
}

}  // namespace
