// Unit tests of pass::aot_lower_main: every kernel call's operands and result get a run-time location
// (arena offset from the memory plan, model input/output slot, constant tensor, or none).
#include <cstdint>
#include <type_traits>

#include <doctest/doctest.h>

#include <ctnn/frontend/dsl.hpp>
#include <ctnn/pass/aot_lower_main.hpp>
#include <ctnn/pass/infer_types.hpp>
#include <ctnn/pass/lower_te.hpp>
#include <ctnn/pass/plan_memory.hpp>

#include "test_modules.hpp"

namespace {

namespace dsl = ctnn::dsl;
namespace pass = ctnn::pass;
using ctnn::location;
using ctnn::storage;
using ctnn_test::zeros;

template <class Model>
constexpr auto planned = pass::plan_memory<>::run(pass::lower_te::run(pass::infer_types::run(Model::build())));

template <class Model>
constexpr auto lowered_main = pass::aot_lower_main::run(planned<Model>);

constexpr bool operator==(const location& a, const location& b) {
  return a.where == b.where && a.index == b.index && a.offset == b.offset;
}

template <class Module>
constexpr location arena_at(const Module& m, std::int32_t tensor) {
  return {storage::arena, -1, m.allocations[static_cast<std::size_t>(tensor)].offset};
}

static_assert(pass::aot_lower_main::requires_facts == ctnn::fact::memory_planned);
static_assert(pass::aot_lower_main::establishes == ctnn::fact::main_lowered);

// ---------------------------------------------------------------------------------------------------
// small_graph: a = conv(x), b = relu(a), c = a + b, d = concat(c, b), out = gap(d).
constexpr auto& graph_m = lowered_main<ctnn_test::small_graph>;
static_assert(graph_m.has(ctnn::fact::main_lowered) && !planned<ctnn_test::small_graph>.has(ctnn::fact::main_lowered));

// Tensor ids, found by name (not assumed).
template <class Module>
constexpr std::int32_t output_of(const Module& m, const char* label) {
  for (std::int32_t n = 0; n < m.node_count; ++n)
    if (m.node_at(n).label.view() == label) return m.node_at(n).output;
  return -2;
}
constexpr std::int32_t a = output_of(graph_m, "a"), b = output_of(graph_m, "b"), c = output_of(graph_m, "c"),
                       d = output_of(graph_m, "d");

// conv: the model input (slot 0), its weights and bias as constants (index = tensor id), result in the arena.
static_assert(graph_m.calls[0].operand_at[0] == location{storage::model_input, 0, 0});
static_assert(graph_m.calls[0].operand_at[1] == location{storage::constant, graph_m.node_at(0).inputs[1], 0});
static_assert(graph_m.calls[0].operand_at[2] == location{storage::constant, graph_m.node_at(0).inputs[2], 0});
static_assert(graph_m.calls[0].result_at == arena_at(graph_m, a));
static_assert(graph_m.calls[1].operand_at[0] == arena_at(graph_m, a) && graph_m.calls[1].result_at == arena_at(graph_m, b));
static_assert(graph_m.calls[2].operand_at[0] == arena_at(graph_m, a) && graph_m.calls[2].operand_at[1] == arena_at(graph_m, b) &&
              graph_m.calls[2].result_at == arena_at(graph_m, c));
static_assert(graph_m.calls[3].operand_at[0] == arena_at(graph_m, c) && graph_m.calls[3].operand_at[1] == arena_at(graph_m, b) &&
              graph_m.calls[3].result_at == arena_at(graph_m, d));
// The last op writes straight into the caller's output buffer.
static_assert(graph_m.calls[4].operand_at[0] == arena_at(graph_m, d));
static_assert(graph_m.calls[4].result_at == location{storage::model_output, 0, 0});
// Unused operand slots stay `none`.
static_assert(graph_m.calls[1].operand_at[1] == location{} && graph_m.calls[4].operand_at[1] == location{});

// ---------------------------------------------------------------------------------------------------
// Two inputs, two outputs in the opposite order of their nodes: s = x + y, t = relu(s), p = s * y,
// outputs<"p", "t">.
constexpr auto& io_m = lowered_main<ctnn_test::two_io_graph>;
constexpr std::int32_t s = output_of(io_m, "s");
static_assert(io_m.calls[0].operand_at[0] == location{storage::model_input, 0, 0} &&
              io_m.calls[0].operand_at[1] == location{storage::model_input, 1, 0} &&
              io_m.calls[0].result_at == arena_at(io_m, s));
static_assert(io_m.calls[1].operand_at[0] == arena_at(io_m, s) && io_m.calls[1].result_at == location{storage::model_output, 1, 0});
static_assert(io_m.calls[2].operand_at[0] == arena_at(io_m, s) &&
              io_m.calls[2].operand_at[1] == location{storage::model_input, 1, 0} &&
              io_m.calls[2].result_at == location{storage::model_output, 0, 0});
// The only intermediate starts the arena.
static_assert(io_m.allocations[static_cast<std::size_t>(s)].offset == 0 && io_m.arena_bytes() == 32);

// An output read by a later op is read from the caller's output buffer.
using output_read_later = dsl::graph<dsl::outputs<"r", "t">, dsl::node<"x", dsl::input<ctnn::f32, 1, 4>>,
                                     dsl::node<"r", dsl::relu, "x">, dsl::node<"t", dsl::tanh, "r">>;
static_assert(lowered_main<output_read_later>.calls[1].operand_at[0] == location{storage::model_output, 0, 0});
static_assert(lowered_main<output_read_later>.arena_bytes() == 0);

// No bias: the bias operand is absent.
using no_bias = dsl::sequential<dsl::input<ctnn::f32, 1, 3, 3, 2>, dsl::conv2d<zeros<8>, dsl::no_bias, dsl::units<4>>, dsl::relu>;
static_assert(lowered_main<no_bias>.calls[0].operand_count == 3 && lowered_main<no_bias>.calls[0].operand_at[2] == location{});
static_assert(pass::location_of(lowered_main<no_bias>, -1) == location{});

// ---------------------------------------------------------------------------------------------------
// Invariants on every call of a module: arena locations are the plan's, aligned and inside the arena,
// and a call's result never overlaps one of its arena operands.
template <class Module>
void check_locations(const Module& m) {
  REQUIRE(m.has(ctnn::fact::main_lowered));
  for (std::int32_t ci = 0; ci < m.call_count; ++ci) {
    const auto& call = m.calls[static_cast<std::size_t>(ci)];
    CAPTURE(ci);
    const auto check_one = [&](std::int32_t tensor, const location& at) {
      CAPTURE(tensor);
      if (tensor < 0) {
        CHECK(at.where == storage::none);
        return;
      }
      const auto& t = m.tensor_at(tensor);
      switch (t.role) {
        case ctnn::tensor_role::input: CHECK((at.where == storage::model_input && at.index == t.io_index)); break;
        case ctnn::tensor_role::output: CHECK((at.where == storage::model_output && at.index == t.io_index)); break;
        case ctnn::tensor_role::constant:
          CHECK((at.where == storage::constant && at.index == tensor));
          CHECK(m.tensor_at(at.index).data.f32 != nullptr);
          break;
        case ctnn::tensor_role::intermediate:
          CHECK(at.where == storage::arena);
          CHECK(at.offset == m.allocations[static_cast<std::size_t>(tensor)].offset);
          CHECK(at.offset >= 0);
          CHECK(at.offset % m.arena_alignment == 0);
          CHECK(at.offset + t.bytes() <= m.arena_bytes());
          break;
        case ctnn::tensor_role::state:  // the state memory, outside the pools
          CHECK((at.where == storage::state && at.index == tensor && at.offset == m.state_offset(tensor)));
          CHECK(at.offset % m.state_alignment == 0);
          CHECK(at.offset + t.bytes() <= m.state_bytes());
          break;
      }
    };
    for (std::int32_t i = 0; i < call.operand_count; ++i)
      check_one(call.operands[static_cast<std::size_t>(i)], call.operand_at[static_cast<std::size_t>(i)]);
    check_one(call.result, call.result_at);
    if (call.result_at.where != storage::arena) continue;
    const std::int64_t r0 = call.result_at.offset, r1 = r0 + m.tensor_at(call.result).bytes();
    for (std::int32_t i = 0; i < call.operand_count; ++i) {
      const auto& at = call.operand_at[static_cast<std::size_t>(i)];
      if (at.where != storage::arena) continue;
      const std::int64_t o0 = at.offset, o1 = o0 + m.tensor_at(call.operands[static_cast<std::size_t>(i)]).bytes();
      CHECK((r1 <= o0 || o1 <= r0));
    }
  }
}

TEST_CASE("aot_lower_main: every location agrees with the tensor's role and the plan") {
  check_locations(lowered_main<ctnn_test::tiny_cnn>);
  check_locations(graph_m);
  check_locations(io_m);
  check_locations(lowered_main<output_read_later>);
  check_locations(lowered_main<no_bias>);
}

TEST_CASE("aot_lower_main at run time gives the constexpr locations") {
  using module_type = std::remove_cvref_t<decltype(planned<ctnn_test::tiny_cnn>)>;
  module_type (*volatile run)(module_type) = &pass::aot_lower_main::run<module_type>;
  const auto m = run(planned<ctnn_test::tiny_cnn>);
  const auto& want = lowered_main<ctnn_test::tiny_cnn>;
  REQUIRE(m.call_count == want.call_count);
  for (std::int32_t ci = 0; ci < m.call_count; ++ci) {
    CAPTURE(ci);
    const auto& got_call = m.calls[static_cast<std::size_t>(ci)];
    const auto& want_call = want.calls[static_cast<std::size_t>(ci)];
    for (std::size_t i = 0; i < got_call.operand_at.size(); ++i) CHECK((got_call.operand_at[i] == want_call.operand_at[i]));
    CHECK((got_call.result_at == want_call.result_at));
  }
  // A moved allocation moves the location: the pass reads the plan, it does not recompute it.
  auto moved = planned<ctnn_test::tiny_cnn>;
  const std::int32_t conv_out = moved.node_at(0).output;
  moved.allocations[static_cast<std::size_t>(conv_out)].offset = 4096;
  const auto relocated = run(moved);
  CHECK((relocated.calls[0].result_at == location{storage::arena, -1, 4096}));
  CHECK((relocated.calls[1].operand_at[0] == location{storage::arena, -1, 4096}));
}

}  // namespace
