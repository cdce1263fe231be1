// Unit tests of the pass pipeline (pass/pipeline.hpp): stage_v / compiled_v, the facts after each
// stage, prerequisite checks for passes out of order, and user-defined passes in custom pipelines.
#include <cstdint>
#include <type_traits>

#include <doctest/doctest.h>

#include <ctnn/compile.hpp>
#include <ctnn/frontend/dsl.hpp>
#include <ctnn/pass/pipeline.hpp>

#include "test_modules.hpp"

namespace {

namespace dsl = ctnn::dsl;
namespace pass = ctnn::pass;
using ctnn::error_code;
using ctnn::fact;
using ctnn::pipeline;

using tiny = ctnn_test::tiny_cnn;
// The four passes every executor needs; the default pipeline adds graph passes and metadata passes
// between them (checked below), which this file's stage-by-stage checks would only obscure.
using basic_pipeline = pipeline<pass::infer_types, pass::lower_te, pass::plan_memory<>, pass::aot_lower_main>;

constexpr std::uint32_t bits(fact f) { return static_cast<std::uint32_t>(f); }

using ctnn::default_pipeline;
static_assert(default_pipeline::size == 11);
static_assert(std::is_same_v<default_pipeline::pass<0>, pass::infer_types> &&
              std::is_same_v<default_pipeline::pass<5>, pass::lower_te> &&
              std::is_same_v<default_pipeline::pass<6>, pass::plan_memory<>> &&
              std::is_same_v<default_pipeline::pass<7>, pass::select_kernels<>> &&
              std::is_same_v<default_pipeline::pass<10>, pass::aot_lower_main>);
// On a model with nothing to fold, fuse or alias, the default pipeline plans what the basic one does.
static_assert(ctnn::compiled_v<ctnn_test::tiny_cnn>.arena_bytes() ==
              ctnn::compiled_v<ctnn_test::tiny_cnn, basic_pipeline>.arena_bytes());

// ---------------------------------------------------------------------------------------------------
// Facts after each stage of the basic pipeline.
template <std::size_t K>
constexpr auto& stage = ctnn::stage_v<tiny, basic_pipeline, K>;

static_assert(stage<0>.facts == 0);
static_assert(stage<1>.facts == bits(fact::shapes_inferred));
static_assert(stage<2>.facts == (bits(fact::shapes_inferred) | bits(fact::kernels_lowered)));
static_assert(stage<3>.facts == (bits(fact::shapes_inferred) | bits(fact::kernels_lowered) | bits(fact::memory_planned)));
static_assert(stage<4>.facts == (bits(fact::shapes_inferred) | bits(fact::kernels_lowered) | bits(fact::memory_planned) |
                                 bits(fact::main_lowered)));
static_assert(&ctnn::compiled_v<tiny, basic_pipeline> == &stage<4>);
static_assert(&ctnn::compiled_v<tiny, basic_pipeline> == &stage<4>);
static_assert(&ctnn::compile<tiny, basic_pipeline>::module == &stage<4>);

// What each stage filled (and did not fill yet).
static_assert(stage<0>.output_tensor(0).dims.rank == 0 && stage<1>.output_tensor(0).dims == ctnn::make_shape(1, 3));
static_assert(stage<1>.call_count == 0 && stage<2>.call_count == 5);
static_assert(stage<2>.arena_bytes() == 0 && stage<2>.peak_node == -1 && stage<3>.arena_bytes() == 720 && stage<3>.peak_node == 1);
static_assert(stage<3>.calls[0].result_at.where == ctnn::storage::none && stage<4>.calls[0].result_at.where == ctnn::storage::arena);
static_assert(!stage<4>.error.failed());

TEST_CASE("stage 0 is the model's module; each stage equals its pass applied to the previous stage") {
  CHECK(ctnn_test::same_module(stage<0>, tiny::build()));
  CHECK(ctnn_test::same_module(stage<1>, pass::infer_types::run(stage<0>)));
  CHECK(ctnn_test::same_module(stage<2>, pass::lower_te::run(stage<1>)));
  CHECK(ctnn_test::same_module(stage<3>, pass::plan_memory<>::run(stage<2>)));
  CHECK(ctnn_test::same_module(stage<4>, pass::aot_lower_main::run(stage<3>)));
}

// ---------------------------------------------------------------------------------------------------
// Passes out of order: the first pass whose required facts are missing records
// pass_prerequisite_missing (position, missing_facts); later passes
// leave the module unchanged. (No executor is instantiated for these: it would be a compile error.)
using memory_before_lowering = pipeline<pass::infer_types, pass::plan_memory<>, pass::lower_te, pass::aot_lower_main>;
constexpr auto& misordered = ctnn::compiled_v<tiny, memory_before_lowering>;
static_assert(misordered.error.code == error_code::pass_prerequisite_missing);
static_assert(misordered.error.node == -1 && misordered.error.position == 1 && misordered.error.missing_facts == bits(fact::kernels_lowered));
static_assert(misordered.facts == bits(fact::shapes_inferred) && misordered.call_count == 0 && misordered.arena_bytes() == 0);
// The failure is recorded at stage 2 already and carried unchanged to the end.
static_assert(ctnn::stage_v<tiny, memory_before_lowering, 2>.error.code == error_code::pass_prerequisite_missing);
static_assert(!ctnn::stage_v<tiny, memory_before_lowering, 1>.error.failed());

using lowering_first = pipeline<pass::lower_te, pass::infer_types>;
static_assert(ctnn::compiled_v<tiny, lowering_first>.error.code == error_code::pass_prerequisite_missing &&
              ctnn::compiled_v<tiny, lowering_first>.error.position == 0 &&
              ctnn::compiled_v<tiny, lowering_first>.error.missing_facts == bits(fact::shapes_inferred));
static_assert(ctnn::compiled_v<tiny, lowering_first>.facts == 0);  // infer_types did not run either

using no_planning = pipeline<pass::infer_types, pass::lower_te, pass::aot_lower_main>;
static_assert(ctnn::compiled_v<tiny, no_planning>.error.position == 2 &&
              ctnn::compiled_v<tiny, no_planning>.error.missing_facts == bits(fact::memory_planned));

// A user pass that reads two facts reports only the missing ones.
struct needs_shapes_and_kernels {
  static constexpr fact requires_facts = static_cast<fact>(bits(fact::shapes_inferred) | bits(fact::kernels_lowered));
  template <class Module>
  static constexpr Module run(Module m) {
    return m;
  }
};
static_assert(ctnn::compiled_v<tiny, pipeline<needs_shapes_and_kernels>>.error.missing_facts == 3);
static_assert(ctnn::compiled_v<tiny, pipeline<pass::infer_types, needs_shapes_and_kernels>>.error.position == 1 &&
              ctnn::compiled_v<tiny, pipeline<pass::infer_types, needs_shapes_and_kernels>>.error.missing_facts ==
                  bits(fact::kernels_lowered));
static_assert(!ctnn::compiled_v<tiny, pipeline<pass::infer_types, pass::lower_te, needs_shapes_and_kernels>>.error.failed());

// An earlier failure (here infer_types') stops the pipeline: later passes do not run and do not
// replace the diagnostic with a prerequisite one.
using bad_reshape = dsl::sequential<dsl::input<ctnn::f32, 1, 3, 3, 1>, dsl::reshape<5, 2>, dsl::relu>;
static_assert(ctnn::compiled_v<bad_reshape>.error.code == error_code::reshape_element_count);
static_assert(ctnn::compiled_v<bad_reshape>.facts == 0 && ctnn::compiled_v<bad_reshape>.call_count == 0);  // a failed pass establishes nothing
// A DSL failure (before any pass) is kept too.
using bad_name = dsl::graph<dsl::outputs<"y">, dsl::node<"x", dsl::input<ctnn::f32, 1, 4>>, dsl::node<"y", dsl::relu, "z">>;
static_assert(ctnn::compiled_v<bad_name>.error.code == error_code::unknown_input_name && ctnn::compiled_v<bad_name>.facts == 0);

TEST_CASE("pipeline diagnostics at run time (apply_pass is constexpr)") {
  auto m = tiny::build();
  m = ctnn::detail::apply_pass<pass::infer_types>(m, 0);
  m = ctnn::detail::apply_pass<pass::aot_lower_main>(m, 1);
  CHECK(m.error.code == error_code::pass_prerequisite_missing);
  CHECK(m.error.position == 1);
  // aot_lower_main declares only memory_planned (lowering is implied by it).
  CHECK(m.error.missing_facts == bits(fact::memory_planned));
  const auto facts = m.facts;
  m = ctnn::detail::apply_pass<pass::lower_te>(m, 2);
  CHECK(m.facts == facts);
  CHECK(m.call_count == 0);
}

// ---------------------------------------------------------------------------------------------------
// User-defined passes.
struct rename_model {
  template <class Module>
  static constexpr Module run(Module m) {
    m.model_name = ctnn::name{"renamed"};
    return m;
  }
};
using with_rename = pipeline<pass::infer_types, rename_model, pass::lower_te, pass::plan_memory<>, pass::aot_lower_main>;
static_assert(ctnn::compiled_v<tiny, with_rename>.model_name.view() == "renamed");
static_assert(ctnn::compiled_v<tiny, with_rename>.facts == ctnn::compiled_v<tiny, basic_pipeline>.facts);
static_assert(ctnn::compiled_v<tiny, with_rename>.arena_bytes() == ctnn::compiled_v<tiny, basic_pipeline>.arena_bytes());

TEST_CASE("a renaming pass changes only the name") {
  auto m = ctnn::compiled_v<tiny, with_rename>;
  CHECK(m.model_name.view() == "renamed");
  m.model_name = ctnn::compiled_v<tiny, basic_pipeline>.model_name;
  CHECK(ctnn_test::same_module(m, ctnn::compiled_v<tiny, basic_pipeline>));
}

// A pass that clamps every dense layer's result with a fused relu6, before lowering.
struct clamp_dense_relu6 {
  static constexpr fact requires_facts = fact::shapes_inferred;
  template <class Module>
  static constexpr Module run(Module m) {
    for (std::int32_t n = 0; n < m.node_count; ++n)
      if (m.node_at(n).kind == ctnn::op_kind::dense) m.node_at(n).attrs.fused = ctnn::activation::relu6;
    return m;
  }
};
// out = [10 x0, -10 x0, x0 + x1]
inline constexpr float scale_w[6] = {10.0f, 0.0f, -10.0f, 0.0f, 1.0f, 1.0f};
inline constexpr float scale_b[3] = {0.0f, 0.0f, 0.0f};
using scaler = dsl::sequential<dsl::input<ctnn::f32, 1, 2>, dsl::dense<scale_w, scale_b>>;
using with_clamp = pipeline<pass::infer_types, clamp_dense_relu6, pass::lower_te, pass::plan_memory<>, pass::aot_lower_main>;
static_assert(ctnn::compiled_v<scaler, with_clamp>.calls[0].params.fused == ctnn::activation::relu6);
static_assert(ctnn::compiled_v<scaler>.calls[0].params.fused == ctnn::activation::none);

TEST_CASE("a pass that changes a fused activation changes what the executor computes") {
  const float in[2] = {1.0f, 2.0f};
  float plain[3] = {}, clamped[3] = {};
  ctnn::compile<scaler>::run(in, plain);
  ctnn::compile<scaler, with_clamp>::run(in, clamped);
  CHECK(plain[0] == 10.0f);
  CHECK(plain[1] == -10.0f);
  CHECK(plain[2] == 3.0f);
  CHECK(clamped[0] == 6.0f);  // min(10, 6)
  CHECK(clamped[1] == 0.0f);  // max(-10, 0)
  CHECK(clamped[2] == 3.0f);
}

// ---------------------------------------------------------------------------------------------------
// A user planner that declares establishes = memory_planned (and never calls establish() itself) is
// credited with the fact by the pipeline, so aot_lower_main accepts its plan.
struct bump_planner {
  static constexpr fact requires_facts = fact::kernels_lowered;
  static constexpr fact establishes = fact::memory_planned;
  template <class Module>
  static constexpr Module run(Module m) {
    std::int32_t count = 0;
    const auto buffers = pass::arena_buffers(m, count);
    std::int64_t next = 0;
    for (std::int32_t b = 0; b < count; ++b) {
      const auto& info = buffers[static_cast<std::size_t>(b)];
      m.allocations[static_cast<std::size_t>(info.tensor)].offset = next;
      next += ctnn::memory::align_up(info.bytes, m.arena_alignment);
    }
    m.pool_usage[0].bytes = next;
    return m;
  }
};
// (clang warns that `establishes` is otherwise unused: nothing in the pipeline reads it.)
static_assert(bump_planner::establishes == fact::memory_planned);
using with_user_planner = pipeline<pass::infer_types, pass::lower_te, bump_planner, pass::aot_lower_main>;

TEST_CASE("a user pass's declared `establishes` fact is recorded by the pipeline") {
  constexpr auto& m = ctnn::compiled_v<tiny, with_user_planner>;
  CHECK(m.has(fact::memory_planned));
  CHECK_FALSE(m.error.failed());
}

}  // namespace
