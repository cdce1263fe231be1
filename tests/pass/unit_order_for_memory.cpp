// pass::order_for_memory, before and after, on ctnn_test::branches (test_modules.hpp): as written both wide
// results and a2 live at op 2 (520 B); the memory-aware order runs a branch to its end first (272 B).
// Without ctnn::memory_aware_order the pass changes nothing; with it, nodes and calls move together and
// the producers follow.
#include <array>
#include <cstdint>
#include <memory>
#include <string_view>
#include <type_traits>

#include <doctest/doctest.h>

#include <ctnn/compile.hpp>
#include <ctnn/frontend/dsl.hpp>
#include <ctnn/memory/schedule.hpp>
#include <ctnn/pass/order_for_memory.hpp>
#include <ctnn/pass/plan_memory.hpp>

#include "test_modules.hpp"

namespace {

namespace pass = ctnn::pass;

using ctnn_test::branches;  // test_modules.hpp

constexpr auto lowered = ctnn::stage_v<branches, ctnn::default_pipeline, 6>;
template <class Module>
constexpr bool order_is(const Module& m, std::string_view a, std::string_view b, std::string_view c, std::string_view d) {
  return m.node_at(0).label.view() == a && m.node_at(1).label.view() == b && m.node_at(2).label.view() == c &&
         m.node_at(3).label.view() == d && m.node_at(4).label.view() == "out";
}
// Calls follow their nodes, and every producer index is the node that writes the tensor.
template <class Module>
constexpr bool calls_and_producers_follow(const Module& m) {
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    const auto& call = m.calls[static_cast<std::size_t>(c)];
    if (call.node != c || call.result != m.node_at(c).output) return false;
  }
  for (std::int32_t n = 0; n < m.node_count; ++n)
    if (m.tensor_at(m.node_at(n).output).producer != n) return false;
  return true;
}

static_assert(order_is(lowered, "a", "b", "a2", "b2"));
constexpr auto unchanged = pass::order_for_memory<>::run(lowered);
static_assert(order_is(unchanged, "a", "b", "a2", "b2") && unchanged.reordered == 0 && unchanged.facts == lowered.facts);

constexpr auto ordered = pass::order_for_memory<ctnn::memory_aware_order>::run(lowered);
static_assert(order_is(ordered, "a", "a2", "b", "b2") && ordered.reordered == 1 && !ordered.error.failed());
static_assert(calls_and_producers_follow(ordered) && calls_and_producers_follow(lowered));
// Each call's kernel still has its parameters: module::kernel(k) is a call of kernel k, found again after the
// move (select_kernels runs a call whose parameters differ from its kernel's on the reference kernel).
template <class Module>
constexpr bool kernels_follow(const Module& m) {
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    const auto& call = m.calls[static_cast<std::size_t>(c)];
    if (call.kernel < 0 || call.kernel >= m.kernel_count || !(m.kernel(call.kernel) == call.params)) return false;
  }
  return true;
}
static_assert(kernels_follow(lowered) && kernels_follow(ordered));
static_assert(ordered.kernel_count == lowered.kernel_count);
static_assert(ordered.facts == lowered.facts);  // the plan is still to be made

// The placement after it reaches the lower peak.
static_assert(pass::plan_memory<>::run(lowered).liveness_lower_bound == 520);
static_assert(pass::place_buffers<>::run(ordered).liveness_lower_bound == 272);

// A sequential model is never reordered.
constexpr auto sequential = ctnn::stage_v<ctnn_test::tiny_cnn, ctnn::default_pipeline, 6>;
static_assert(pass::order_for_memory<ctnn::memory_aware_order>::run(sequential).reordered == 0);

// memory::apply_op_order permutes in place, one cycle at a time (no module copy): a 3-cycle and a swap
// move nodes, calls and scratch together, and the inverse permutation gives the module back (what
// order_for_memory does when the new order is not lower).
constexpr auto permuted = [] {
  auto m = lowered;
  m.scratch_bytes[0] = 10, m.scratch_bytes[1] = 11, m.scratch_bytes[2] = 12, m.scratch_bytes[3] = 13;
  std::array<std::int32_t, decltype(m)::node_capacity> order{};
  const std::int32_t cycle[] = {2, 0, 1, 4, 3};  // ops 0..2 rotate, 3 and 4 swap
  for (std::int32_t k = 0; k < 5; ++k) order[static_cast<std::size_t>(k)] = cycle[k];
  ctnn::memory::apply_op_order(m, order);
  return m;
}();
static_assert(permuted.node_at(0).label.view() == "a2" && permuted.node_at(1).label.view() == "a" &&
              permuted.node_at(2).label.view() == "b" && permuted.node_at(3).label.view() == "out" &&
              permuted.node_at(4).label.view() == "b2");
static_assert(permuted.scratch_bytes[0] == 12 && permuted.scratch_bytes[1] == 10 && permuted.scratch_bytes[4] == 13);
static_assert(calls_and_producers_follow(permuted));
constexpr auto restored = [] {
  auto m = permuted;
  std::array<std::int32_t, decltype(m)::node_capacity> back{};
  const std::int32_t inverse[] = {1, 2, 0, 4, 3};
  for (std::int32_t k = 0; k < 5; ++k) back[static_cast<std::size_t>(k)] = inverse[k];
  ctnn::memory::apply_op_order(m, back);
  return m;
}();
static_assert(order_is(restored, "a", "b", "a2", "b2") && restored.scratch_bytes[3] == 13 && calls_and_producers_follow(restored));

TEST_CASE("order_for_memory: the same at run time") {
  auto m = std::make_unique<std::remove_const_t<decltype(lowered)>>(lowered);
  pass::order_ops_for_memory(*m, pass::order_for_memory<ctnn::memory_aware_order>::config);
  CHECK(m->reordered == 1);
  CHECK(order_is(*m, "a", "a2", "b", "b2"));
  CHECK(ctnn_test::same_module(*m, ordered));
}

}  // namespace
