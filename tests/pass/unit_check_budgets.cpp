// pass::check_budgets, before and after, on tiny_cnn placed (unit_place_buffers.cpp: 720 B at op 1, the max
// pool; constants 892 B): a plan within every limit establishes fact::memory_planned and changes nothing
// else; a writable pool over its limit fails with its index and name, the bytes needed, the limit and the op
// at its peak (as a compile error's type and in words); a read-only pool over its limit with op -1; a pass that grows a pool after placement is checked too.
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include <doctest/doctest.h>

#include <ctnn/compile.hpp>
#include <ctnn/errors.hpp>
#include <ctnn/frontend/dsl.hpp>
#include <ctnn/ir/diagnostic_text.hpp>
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
static_assert(over.error.code == pool_budget_exceeded && over.error.bytes_needed == 720 && over.error.bytes_available == 512 &&
              over.error.expected.dims[0] == 0 && over.error.node == 1 && over.error.kind == ctnn::op_kind::max_pool);
static_assert(!over.has(ctnn::fact::memory_planned));
// ... and the pool's name, which the compile error spells (errors::pool_named<'s', 'r', 'a', 'm'>) and the
// run-time text words with the excess.
static_assert(over.error.actual.rank == 4 && ctnn::diagnostic_name_char(over.error.actual, 0) == 's' &&
              ctnn::diagnostic_name_char(over.error.actual, 3) == 'm');
static_assert(std::is_same_v<decltype(ctnn::detail::error_type<over.error>())::type,
                             ctnn::errors::pool_budget_exceeded<ctnn::errors::pool_named<'s', 'r', 'a', 'm'>, ctnn::errors::needed_bytes<720>,
                                                                ctnn::errors::limit_bytes<512>, ctnn::errors::over_by_bytes<208>,
                                                                ctnn::errors::at_op<1, ctnn::op_kind::max_pool,
                                                                                    ctnn::errors::node_named<'m', 'a', 'x', '_', 'p', 'o', 'o', 'l', '_', '1'>>>>);
// The op's name (its result's label, which the diagnostic carries: docs/design.md §3) is spelled only on the
// failing path: a module without an error checks as no_error.
static_assert(over.error.op_name.view() == "max_pool_1" && fits.error.op_name.empty());
static_assert(std::is_same_v<decltype(ctnn::detail::error_type<fits.error>())::type, ctnn::detail::no_error>);

// Names longer than ctnn::name::capacity (31) keep 14 characters of each end around "...", wherever a name
// is made from a text (labels, pins, the errors' node_named<...>); shorter ones stay whole.
static_assert(ctnn::name{"model/activation_26/Relu"}.view() == "model/activation_26/Relu");
static_assert(ctnn::name{"0123456789012345678901234567890"}.view() == "0123456789012345678901234567890");
static_assert(ctnn::name{"model/batch_normalization_26/FusedBatchNormV3"}.view() == "model/batch_no...sedBatchNormV3");
static_assert(ctnn::name{"model/batch_normalization_26/FusedBatchNormV3"}.size() == ctnn::name::capacity);
static_assert(ctnn::name{"/features/features.0/features.0.0/Conv_output_0"} == ctnn::name{"/features/feat.../Conv_output_0"});
static_assert(std::is_same_v<ctnn::detail::node_named_t<ctnn::name{"layer_with_a_rather_long_name_42"}>,
                             ctnn::errors::node_named<'l', 'a', 'y', 'e', 'r', '_', 'w', 'i', 't', 'h', '_', 'a', '_', 'r', '.', '.', '.',
                                                      'r', '_', 'l', 'o', 'n', 'g', '_', 'n', 'a', 'm', 'e', '_', '4', '2'>>);

// Constants over a read-only pool's limit: pool 1, 892 > 800, no op.
constexpr auto flash_over = pass::check_budgets::run(placed<ctnn::pools<ctnn::pool<"sram">, ctnn::read_only_pool<"flash", 800>>>);
static_assert(flash_over.error.code == pool_budget_exceeded && flash_over.error.bytes_needed == 892 && flash_over.error.bytes_available == 800 &&
              flash_over.error.expected.dims[0] == 1 && flash_over.error.node == -1);
static_assert(!pass::check_budgets::run(placed<ctnn::pools<ctnn::pool<"sram">, ctnn::read_only_pool<"flash", 892>>>).error.failed());

// A pass between placement and the check that grows the arena is held to the limit as well.
constexpr auto grown = [] {
  auto m = placed<ctnn::pools<ctnn::pool<"sram", 768>>>;
  m.pool_usage[0].bytes += 64;
  return pass::check_budgets::run(m);
}();
static_assert(grown.error.code == pool_budget_exceeded && grown.error.bytes_needed == 784 && grown.error.bytes_available == 768);

TEST_CASE("check_budgets: the same at run time") {
  auto m = placed<ctnn::pools<ctnn::pool<"sram", 512>>>;
  pass::check_budgets::run_in_place(m);
  CHECK(m.error.code == pool_budget_exceeded);
  CHECK(m.error.bytes_needed == 720);
}

TEST_CASE("check_budgets: the diagnostic in words names the pool, the bytes with separators and the excess") {
  std::string text;
  const auto append = [&](std::string_view part) { text += part; };
  ctnn::put_diagnostic_numbers(over.error, append);
  CHECK(text == "pool 'sram' needs 720 B, budget 512 B, over by 208 B");
  ctnn::diagnostic big = over.error;
  big.bytes_needed = 1234567;
  big.bytes_available = 1000000;
  big.actual = ctnn::diagnostic_name("a_pool_name_longer_than_24_characters");  // cut after 24
  text.clear();
  ctnn::put_diagnostic_numbers(big, append);
  CHECK(text == "pool 'a_pool_name_longer_than_' needs 1,234,567 B, budget 1,000,000 B, over by 234,567 B");
  text.clear();
  ctnn::describe_module_error(over, append);
  CHECK(text.find("op 1 (max_pool") != std::string::npos);
  CHECK(text.find("pool 'sram' needs 720 B") != std::string::npos);
}

}  // namespace
