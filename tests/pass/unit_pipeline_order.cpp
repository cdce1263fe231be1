// Unit tests of the pipeline's type-level order check (pass/pipeline.hpp: first_order_problem,
// producer_of, checked_pipeline) and of user-defined passes at the three stages of the flow:
//   (a) graph level, before lower_te;  (b) mixed stage, between lower_te and plan_memory;
//   (c) after plan_memory, before aot_lower_main.
// A misordered pipeline given to ctnn::compile fails to compile; that is tests/compile_fail/pass_order.cpp.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/compile.hpp>
#include <ctnn/frontend/dsl.hpp>

#include "pass_test_modules.hpp"
#include "test_modules.hpp"

namespace {

namespace dsl = ctnn::dsl;
namespace pass = ctnn::pass;
using ctnn::fact;
using ctnn::op_kind;
using ctnn::pipeline;
using ctnn::detail::first_order_problem;

constexpr std::int64_t bits(fact f) { return static_cast<std::int64_t>(f); }

template <class P>
constexpr bool order_ok = first_order_problem(P{}).position == -1 && first_order_problem(P{}).missing == 0;
template <class P, std::int64_t Position, std::int64_t Missing>
constexpr bool order_problem_is = first_order_problem(P{}).position == Position && first_order_problem(P{}).missing == Missing;

// ---------------------------------------------------------------------------------------------------
// first_order_problem: the first pass whose required facts no earlier pass establishes.
static_assert(order_ok<ctnn::default_pipeline>);
static_assert(order_ok<pipeline<>>);
static_assert(order_ok<pipeline<pass::infer_types, pass::lower_te, pass::plan_memory<>, pass::aot_lower_main>>);
static_assert(order_problem_is<pipeline<pass::infer_types, pass::plan_memory<>, pass::lower_te, pass::aot_lower_main>, 1,
                               bits(fact::kernels_lowered)>);
static_assert(order_problem_is<pipeline<pass::fold_constants, pass::infer_types>, 0, bits(fact::shapes_inferred)>);
static_assert(order_problem_is<pipeline<pass::infer_types, pass::lower_te, pass::aot_lower_main>, 2, bits(fact::memory_planned)>);
// Several missing bits at once; and passes after the first problem are not looked at.
static_assert(order_problem_is<pipeline<pass::infer_types, pass::lower_te, pass::create_executor_metadata>, 2,
                               bits(fact::memory_planned) | bits(fact::function_metadata)>);
static_assert(order_problem_is<pipeline<pass::lower_te, pass::plan_memory<>>, 0, bits(fact::shapes_inferred)>);
static_assert(order_problem_is<pipeline<pass::infer_types, pass::lower_te, pass::plan_memory<>, pass::aot_lower_main,
                                        pass::create_executor_metadata>,
                               4, bits(fact::function_metadata)>);
// Only what a pass declares counts: a pass that fills the plan and says so satisfies aot_lower_main.
struct declared_planner {
  static constexpr fact requires_facts = fact::kernels_lowered;
  static constexpr fact establishes = fact::memory_planned;
  template <class Module>
  static constexpr Module run(Module m) {
    return pass::plan_memory<>::run(m);
  }
};
static_assert(order_ok<pipeline<pass::infer_types, pass::lower_te, declared_planner, pass::aot_lower_main>>);
static_assert(!ctnn::compiled_v<ctnn_test::tiny_cnn, pipeline<pass::infer_types, pass::lower_te, declared_planner, pass::aot_lower_main>>
                   .error.failed());

// producer_of: the first pass that establishes any of the given bits.
template <class P, std::int64_t Facts>
using producer = typename ctnn::detail::producer_of<P, Facts>::type;
using dp = ctnn::default_pipeline;
static_assert(std::is_same_v<producer<dp, bits(fact::shapes_inferred)>, pass::infer_types>);
static_assert(std::is_same_v<producer<dp, bits(fact::kernels_lowered)>, pass::lower_te>);
static_assert(std::is_same_v<producer<dp, bits(fact::memory_planned)>, pass::plan_memory<>>);
static_assert(std::is_same_v<producer<dp, bits(fact::function_metadata)>, pass::create_function_metadata>);
static_assert(std::is_same_v<producer<dp, bits(fact::executor_metadata)>, pass::create_executor_metadata>);
static_assert(std::is_same_v<producer<dp, bits(fact::main_lowered)>, pass::aot_lower_main>);
static_assert(std::is_same_v<producer<dp, bits(fact::memory_planned) | bits(fact::function_metadata)>, pass::plan_memory<>>);
// The producer may come after the pass that needs it (that is what the error message then names).
static_assert(std::is_same_v<producer<pipeline<pass::infer_types, pass::plan_memory<>, pass::lower_te>, bits(fact::kernels_lowered)>,
                             pass::lower_te>);
static_assert(std::is_same_v<producer<pipeline<pass::infer_types>, bits(fact::kernels_lowered)>,
                             ctnn::errors::no_pass_in_the_pipeline_establishes_it>);
static_assert(std::is_same_v<producer<pipeline<>, bits(fact::shapes_inferred)>, ctnn::errors::no_pass_in_the_pipeline_establishes_it>);

// checked_pipeline: a sound pipeline is itself.
static_assert(std::is_same_v<ctnn::detail::checked_pipeline<dp>::type, dp>);
using basic = pipeline<pass::infer_types, pass::lower_te, pass::plan_memory<>, pass::aot_lower_main>;
static_assert(std::is_same_v<ctnn::detail::checked_pipeline<basic>::type, basic>);

TEST_CASE("first_order_problem is a constexpr function usable at run time") {
  const auto problem = first_order_problem(pipeline<pass::infer_types, pass::plan_memory<>, pass::lower_te>{});
  CHECK(problem.position == 1);
  CHECK(problem.missing == bits(fact::kernels_lowered));
}

// ---------------------------------------------------------------------------------------------------
// (a) Graph level: replace relu6 by relu, as op kind and as fused activation.
struct relu6_to_relu {
  static constexpr fact requires_facts = fact::shapes_inferred;
  template <class Module>
  static constexpr Module run(Module m) {
    for (std::int32_t i = 0; i < m.node_count; ++i) {
      ctnn::node& n = m.node_at(i);
      if (n.kind == op_kind::relu6) n.kind = op_kind::relu;
      if (n.attrs.fused == ctnn::activation::relu6) n.attrs.fused = ctnn::activation::relu;
    }
    return m;
  }
};
// input [1,2] -> relu6 (stays an op: nothing to fuse into) -> dense [10 x0, -10 x0, x0 + x1] -> relu6 (fused).
inline constexpr float scale_w[6] = {10.0f, 0.0f, -10.0f, 0.0f, 1.0f, 1.0f};
inline constexpr float scale_b[3] = {0.0f, 0.0f, 0.0f};
using clamped = dsl::sequential<dsl::input<ctnn::f32, 1, 2>, dsl::relu6, dsl::dense<scale_w, scale_b>, dsl::relu6>;
using graph_stage = pipeline<pass::infer_types, relu6_to_relu, pass::fold_constants, pass::fold_batch_norm, pass::fuse_ops,
                             pass::alias_reshapes, pass::lower_te, pass::plan_memory<>, pass::create_function_metadata,
                             pass::create_executor_metadata, pass::aot_lower_main>;
static_assert(order_ok<graph_stage>);
static_assert(order_problem_is<pipeline<relu6_to_relu, pass::infer_types>, 0, bits(fact::shapes_inferred)>);
static_assert(ctnn_test::count_kind(ctnn::stage_v<clamped, graph_stage, 2>, op_kind::relu6) == 0 &&
              ctnn_test::count_kind(ctnn::stage_v<clamped, graph_stage, 2>, op_kind::relu) == 2);
static_assert(ctnn::compiled_v<clamped>.calls[0].params.kind == op_kind::relu6 &&
              ctnn::compiled_v<clamped>.calls[1].params.fused == ctnn::activation::relu6);
static_assert(ctnn::compiled_v<clamped, graph_stage>.call_count == 2 &&
              ctnn::compiled_v<clamped, graph_stage>.calls[0].params.kind == op_kind::relu &&
              ctnn::compiled_v<clamped, graph_stage>.calls[1].params.fused == ctnn::activation::relu);

TEST_CASE("(a) a graph-level user pass changes what the executor computes") {
  const float in[2] = {7.0f, 2.0f};
  float standard[3] = {}, custom[3] = {};
  ctnn::compile<clamped>::run(in, standard);
  ctnn::compile<clamped, graph_stage>::run(in, custom);
  // relu6: x = (6, 2) -> (60, -60, 8) -> (6, 0, 6); relu: x = (7, 2) -> (70, -70, 9) -> (70, 0, 9).
  CHECK(standard[0] == 6.0f);
  CHECK(standard[1] == 0.0f);
  CHECK(standard[2] == 6.0f);
  CHECK(custom[0] == 70.0f);
  CHECK(custom[1] == 0.0f);
  CHECK(custom[2] == 9.0f);
}

// ---------------------------------------------------------------------------------------------------
// (b) Mixed stage (graph nodes and kernel calls side by side): a pass that reads both, and one that
// raises the arena alignment before planning.
//
// count_fused_calls: checks that every call mirrors its graph node (node index, result, kind) and records,
// in the model name, how many calls run a fused activation; "mismatch" if a call and its node disagree.
struct count_fused_calls {
  static constexpr fact requires_facts = fact::kernels_lowered;
  template <class Module>
  static constexpr Module run(Module m) {
    std::size_t fused = 0;
    for (std::int32_t c = 0; c < m.call_count; ++c) {
      const ctnn::kernel_call& call = m.calls[static_cast<std::size_t>(c)];
      const ctnn::node& n = m.node_at(call.node);
      if (n.output != call.result || n.kind != call.params.kind) {
        m.model_name = ctnn::name{"mismatch"};
        return m;
      }
      fused += n.attrs.fused != ctnn::activation::none ? 1 : 0;
    }
    m.model_name = ctnn::numbered("fused", fused);
    return m;
  }
};
template <std::int32_t Alignment>
struct align_arena {
  static constexpr fact requires_facts = fact::kernels_lowered;
  template <class Module>
  static constexpr Module run(Module m) {
    m.arena_alignment = Alignment;
    return m;
  }
};
// Corrupts the calls (for the negative check of count_fused_calls): swaps the first two calls' results.
struct swap_results {
  static constexpr fact requires_facts = fact::kernels_lowered;
  template <class Module>
  static constexpr Module run(Module m) {
    const std::int32_t r = m.calls[0].result;
    m.calls[0].result = m.calls[1].result;
    m.calls[1].result = r;
    return m;
  }
};

// input [1,3,3,1] (36 B) -> relu (A, ops 0..1) -> sigmoid (B, ops 1..2) -> tanh (output).
// Alignment 16: A at 0, B at 48 (36 rounded up), arena 84 -> 96. Alignment 64: B at 64, arena 100 -> 128.
using three_ops = dsl::sequential<dsl::input<ctnn::f32, 1, 3, 3, 1>, dsl::relu, dsl::sigmoid, dsl::tanh>;
// The user pipelines below select kernels as the standard one does, so that their results compare with the
// standard pipeline's for the plan alone (without select_kernels every call runs the reference kernel, whose
// sigmoid and tanh are <cmath>'s, not the SIMD kernels' double lanes).
using mixed_stage = pipeline<pass::infer_types, pass::fold_constants, pass::fold_batch_norm, pass::fuse_ops, pass::alias_reshapes,
                             pass::lower_te, count_fused_calls, align_arena<64>, pass::plan_memory<>, pass::select_kernels<>,
                             pass::create_function_metadata, pass::create_executor_metadata, pass::aot_lower_main>;
static_assert(order_ok<mixed_stage>);
static_assert(order_problem_is<pipeline<pass::infer_types, align_arena<64>, pass::lower_te>, 1, bits(fact::kernels_lowered)>);
static_assert(std::is_same_v<producer<pipeline<pass::infer_types, align_arena<64>, pass::lower_te>, bits(fact::kernels_lowered)>,
                             pass::lower_te>);

constexpr auto& standard_three = ctnn::compiled_v<three_ops>;
constexpr auto& aligned_three = ctnn::compiled_v<three_ops, mixed_stage>;
static_assert(standard_three.arena_bytes() == 96 && standard_three.allocations[1].offset == 0 && standard_three.allocations[2].offset == 48);
static_assert(aligned_three.arena_bytes() == 128 && aligned_three.allocations[1].offset == 0 && aligned_three.allocations[2].offset == 64);
static_assert(aligned_three.liveness_lower_bound == 72 && standard_three.liveness_lower_bound == 72);
static_assert(aligned_three.metadata.pools[0].alignment == 64 && aligned_three.metadata.pools[0].bytes == 128);
static_assert(ctnn::compile<three_ops, mixed_stage>::arena_alignment == 64);
static_assert(aligned_three.model_name.view() == "fused_0");
// On a model with fused activations (tiny_cnn: conv + relu), and on corrupted calls.
static_assert(ctnn::compiled_v<ctnn_test::tiny_cnn, mixed_stage>.model_name.view() == "fused_1");
static_assert(ctnn::compiled_v<three_ops, pipeline<pass::infer_types, pass::lower_te, swap_results, count_fused_calls>>
                  .model_name.view() == "mismatch");

// ---------------------------------------------------------------------------------------------------
// (c) After planning: a pass that reads the plan and records how many pairs of buffers that are live at
// the same op overlap in memory (0 for a sound plan), and one that moves every buffer up by a fixed
// offset (e.g. to keep a header at the start of the arena).
struct count_overlaps {
  static constexpr fact requires_facts = fact::memory_planned;
  template <class Module>
  static constexpr Module run(Module m) {
    std::int32_t count = 0;
    const auto buffers = pass::arena_buffers(m, count);
    std::size_t overlaps = 0;
    for (std::int32_t a = 0; a < count; ++a)
      for (std::int32_t b = a + 1; b < count; ++b) {
        const auto& x = buffers[static_cast<std::size_t>(a)];
        const auto& y = buffers[static_cast<std::size_t>(b)];
        const std::int64_t xo = m.allocations[static_cast<std::size_t>(x.tensor)].offset;
        const std::int64_t yo = m.allocations[static_cast<std::size_t>(y.tensor)].offset;
        if (x.lifetime_overlaps(y) && xo < yo + y.bytes && yo < xo + x.bytes) ++overlaps;
      }
    m.model_name = ctnn::numbered("overlaps", overlaps);
    return m;
  }
};
template <std::int64_t Bytes>
struct shift_arena {
  static constexpr fact requires_facts = fact::memory_planned;
  template <class Module>
  static constexpr Module run(Module m) {
    for (std::int32_t t = 0; t < m.tensor_count; ++t)
      if (m.allocations[static_cast<std::size_t>(t)].offset >= 0) m.allocations[static_cast<std::size_t>(t)].offset += Bytes;
    m.pool_usage[0].bytes += Bytes;
    return m;
  }
};
// A bad plan, for the negative check: every buffer at offset 0.
struct collapse_plan {
  static constexpr fact requires_facts = fact::memory_planned;
  template <class Module>
  static constexpr Module run(Module m) {
    for (auto& a : m.allocations)
      if (a.offset > 0) a.offset = 0;
    return m;
  }
};

using planned_stage = pipeline<pass::infer_types, pass::fold_constants, pass::fold_batch_norm, pass::fuse_ops, pass::alias_reshapes,
                               pass::lower_te, pass::plan_memory<>, count_overlaps, shift_arena<64>, pass::select_kernels<>,
                               pass::create_function_metadata, pass::create_executor_metadata, pass::aot_lower_main>;
static_assert(order_ok<planned_stage>);
static_assert(order_problem_is<pipeline<pass::infer_types, pass::lower_te, shift_arena<64>, pass::plan_memory<>>, 2,
                               bits(fact::memory_planned)>);
static_assert(order_problem_is<pipeline<pass::infer_types, count_overlaps>, 1, bits(fact::memory_planned)>);

constexpr auto& shifted_three = ctnn::compiled_v<three_ops, planned_stage>;
static_assert(shifted_three.model_name.view() == "overlaps_0");
static_assert(shifted_three.arena_bytes() == 96 + 64 && shifted_three.allocations[1].offset == 64 &&
              shifted_three.allocations[2].offset == 112);
static_assert(shifted_three.calls[0].result_at.offset == 64 && shifted_three.calls[1].operand_at[0].offset == 64 &&
              shifted_three.calls[1].result_at.offset == 112 && shifted_three.calls[2].operand_at[0].offset == 112);
static_assert(shifted_three.metadata.pools[0].bytes == 160);
// A and B are live together at op 1: collapsed onto one offset they overlap (one pair).
static_assert(ctnn::compiled_v<three_ops, pipeline<pass::infer_types, pass::lower_te, pass::plan_memory<>, collapse_plan,
                                                   count_overlaps>>
                  .model_name.view() == "overlaps_1");
static_assert(ctnn::compiled_v<ctnn_test::small_graph, planned_stage>.model_name.view() == "overlaps_0");

TEST_CASE("(b), (c) user passes that change the plan keep the executor's results") {
  const auto x = ctnn_test::random_floats(9, 3);
  float standard[9] = {}, aligned[9] = {}, shifted[9] = {};
  ctnn::compile<three_ops>::run(x.data(), standard);
  ctnn::compile<three_ops, mixed_stage>::run(x.data(), aligned);
  CHECK(std::memcmp(standard, aligned, sizeof standard) == 0);
  // The same kernels ran, at other offsets (B at 64 in the aligned plan; A and B at 64 and 112 in the shifted one; 0 and 48 in
  // the standard plan).
  static_assert(ctnn::compiled_v<three_ops>.calls[1].params.choice == ctnn::compiled_v<three_ops, mixed_stage>.calls[1].params.choice &&
                ctnn::compiled_v<three_ops>.calls[2].params.choice == ctnn::compiled_v<three_ops, planned_stage>.calls[2].params.choice);

  // The shifted plan never touches the first 64 bytes of the arena, nor anything past arena_bytes.
  using shifted_net = ctnn::compile<three_ops, planned_stage>;
  static_assert(shifted_net::arena_bytes == 160);
  alignas(16) std::byte arena[shifted_net::arena_bytes + 32];
  std::memset(arena, 0xA5, sizeof arena);
  shifted_net::run_with_arena(arena, x.data(), shifted);
  CHECK(std::memcmp(standard, shifted, sizeof standard) == 0);
  std::size_t untouched_head = 0, untouched_tail = 0, touched_body = 0;
  for (std::size_t i = 0; i < sizeof arena; ++i) {
    const bool untouched = arena[i] == std::byte{0xA5};
    if (i < 64) untouched_head += untouched ? 1 : 0;
    else if (i >= shifted_net::arena_bytes) untouched_tail += untouched ? 1 : 0;
    else touched_body += untouched ? 0 : 1;
  }
  CHECK(untouched_head == 64);
  CHECK(untouched_tail == 32);
  CHECK(touched_body > 0);
}

}  // namespace
