// pass::assign_pools, before and after, on tiny_cnn lowered (test_modules.hpp): the pools it sets (given,
// kept or the default arena), their alignment, the pins it resolves (by name, by op before any reordering,
// by kind), the errors of a pin naming no writable pool, and that it places nothing.
#include <cstdint>
#include <memory>
#include <string_view>
#include <type_traits>

#include <doctest/doctest.h>

#include <ctnn/compile.hpp>
#include <ctnn/frontend/dsl.hpp>
#include <ctnn/pass/assign_pools.hpp>

#include "test_modules.hpp"

namespace {

namespace pass = ctnn::pass;
namespace memory = ctnn::memory;
using ctnn_test::tiny_cnn;

constexpr auto lowered = ctnn::stage_v<tiny_cnn, ctnn::default_pipeline, 6>;  // after lower_te
static_assert(lowered.has(ctnn::fact::kernels_lowered) && lowered.pool_count == 0 && lowered.pin_count == 0);

// No options: one pool "arena", no limit, the module's alignment; nothing placed, nothing established.
constexpr auto plain = pass::assign_pools<>::run(lowered);
static_assert(plain.pool_count == 1 && std::string_view{plain.pools[0].name} == "arena" && plain.pools[0].size_limit == -1 &&
              plain.pools[0].alignment == 16 && !plain.pools[0].read_only);
static_assert(plain.pin_count == 0 && plain.facts == lowered.facts && !plain.error.failed());
constexpr bool nothing_placed(const decltype(lowered)& m) {
  for (std::int32_t t = 0; t < m.tensor_count; ++t)
    if (m.allocations[static_cast<std::size_t>(t)].offset != -1) return false;
  return m.pool_usage[0].bytes == 0 && m.liveness_lower_bound == 0;
}
static_assert(nothing_placed(plain));

// Pools in the order given; a module alignment above a pool's raises the pool's.
constexpr auto aligned_lowered = [] {
  auto m = lowered;
  m.arena_alignment = 64;
  return m;
}();
using three_pools = ctnn::pools<ctnn::pool<"dtcm", 256>, ctnn::pool<"sram">, ctnn::read_only_pool<"flash", 4096>>;
constexpr auto pooled = pass::assign_pools<three_pools>::run(aligned_lowered);
static_assert(pooled.pool_count == 3 && std::string_view{pooled.pools[0].name} == "dtcm" && pooled.pools[0].size_limit == 256 &&
              std::string_view{pooled.pools[1].name} == "sram" && pooled.pools[1].size_limit == -1 &&
              std::string_view{pooled.pools[2].name} == "flash" && pooled.pools[2].read_only);
static_assert(pooled.pools[0].alignment == 64 && pooled.pools[1].alignment == 64 && pooled.pools[2].alignment == 64);
// Pools a pass set before are kept when no ctnn::pools<> is given.
static_assert(pass::assign_pools<>::run(pooled).pool_count == 3);

// Pins, in the order given: by name, by op (op 1, the max pool, becomes its result tensor), by kind.
using pins = pass::assign_pools<three_pools, ctnn::pin<"conv2d_0", "sram">, ctnn::pin_op<1, "dtcm">,
                                ctnn::pin_kind<memory::buffer_kind::scratch, "dtcm">>;
constexpr auto pinned = pins::run(lowered);
static_assert(pinned.pin_count == 3 && !pinned.error.failed());
static_assert(pinned.pins[0].pool == 1 && pinned.pins[0].by_name && pinned.pins[0].tensor_name.view() == "conv2d_0");
static_assert(pinned.pins[1].pool == 0 && !pinned.pins[1].by_name && !pinned.pins[1].by_kind &&
              pinned.pins[1].tensor == lowered.node_at(1).output && lowered.node_at(1).kind == ctnn::op_kind::max_pool);
static_assert(pinned.pins[2].pool == 0 && pinned.pins[2].by_kind && pinned.pins[2].kind == memory::buffer_kind::scratch);
// An op pin out of range names no tensor (place_buffers reports it: it knows the buffers).
static_assert(pass::assign_pools<ctnn::pin_op<99, "arena">>::run(lowered).pins[0].tensor == -1);

// A pin naming no pool, or a read-only one, fails with its position.
constexpr auto no_pool = pass::assign_pools<ctnn::pin<"conv2d_0", "arena">, ctnn::pin<"conv2d_0", "tcm">>::run(lowered);
static_assert(no_pool.error.code == ctnn::code_of(ctnn::memory_error::pin_unknown_pool) && no_pool.error.position == 1);
constexpr auto read_only = pass::assign_pools<three_pools, ctnn::pin<"conv2d_0", "flash">>::run(lowered);
static_assert(read_only.error.code == ctnn::code_of(ctnn::memory_error::pin_unknown_pool) && read_only.error.position == 0);

TEST_CASE("assign_pools: the same at run time as in constant evaluation") {
  const auto m = std::make_unique<std::remove_const_t<decltype(lowered)>>(lowered);
  pass::assign_pools_and_pins(*m, pins::config);
  CHECK(m->pool_count == 3);
  CHECK(m->pin_count == 3);
  CHECK(m->pins[1].tensor == pinned.pins[1].tensor);
  CHECK(nothing_placed(*m));
}

}  // namespace
