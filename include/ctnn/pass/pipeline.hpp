#pragma once
// A pipeline is a list of pass types; each stage of a model is its own `inline constexpr` variable, so
// each pass runs in one constant evaluation of its own (compiler limits apply per pass, docs/design.md §6).
//
// A pass is a struct with `static constexpr void run_in_place(Module&)` or `static constexpr Module
// run(Module)` (or both), and optionally `requires_facts` (the
// ctnn::fact bits it reads) and `establishes` (the bit it fills): the concept ctnn::pipeline_pass
// (pass/pipeline_pass.hpp), which pipeline<Passes...> checks of each pass with a static_assert naming the
// first member missing. ctnn::compile checks the order of a
// pipeline from these declarations alone, before running any pass, and names both passes when a pass
// runs before the one that produces what it reads.
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include <ctnn/errors.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/pass/alias_reshapes.hpp>
#include <ctnn/pass/aot_lower_main.hpp>
#include <ctnn/pass/create_executor_metadata.hpp>
#include <ctnn/pass/create_function_metadata.hpp>
#include <ctnn/pass/fold_batch_norm.hpp>
#include <ctnn/pass/fold_constants.hpp>
#include <ctnn/pass/fuse_ops.hpp>
#include <ctnn/pass/infer_types.hpp>
#include <ctnn/pass/lower_te.hpp>
#include <ctnn/pass/pipeline_pass.hpp>
#include <ctnn/pass/plan_memory.hpp>
#include <ctnn/pass/select_kernels.hpp>

namespace ctnn {

namespace detail {

// Each pass of a pipeline against ctnn::pipeline_pass, one member at a time: the static_assert that fails
// names the first member missing, and the instantiation names the pass and its position (from 0). Cheap:
// declarations only (pass/pipeline_pass.hpp), once per pass type and position.
template <std::size_t Position, class Pass>
struct check_pipeline_pass {
  static_assert(pass_has_run_member<Pass>,
                "ctnn::pipeline<Passes...>: a pass (check_pipeline_pass<position from 0, pass>) has neither "
                "`static constexpr void run_in_place(Module&)` nor `static constexpr Module run(Module)`.");
  static_assert(!pass_has_run_member<Pass> || pass_requires_facts_well_typed<Pass>,
                "ctnn::pipeline<Passes...>: a pass's `requires_facts` (check_pipeline_pass<position from 0, pass>) is "
                "not a `static constexpr ctnn::fact` (the facts the pass reads, e.g. ctnn::fact::shapes_inferred).");
  static_assert(!pass_has_run_member<Pass> || !pass_requires_facts_well_typed<Pass> || pass_establishes_well_typed<Pass>,
                "ctnn::pipeline<Passes...>: a pass's `establishes` (check_pipeline_pass<position from 0, pass>) is "
                "not a `static constexpr ctnn::fact` (the fact the pass fills, e.g. ctnn::fact::kernels_lowered).");
};
template <class Positions, class... Passes>
struct check_pipeline_passes;
template <std::size_t... Position, class... Passes>
struct check_pipeline_passes<std::index_sequence<Position...>, Passes...> : check_pipeline_pass<Position, Passes>... {};

}  // namespace detail

template <class... Passes>
struct pipeline {
  static constexpr std::size_t size = sizeof...(Passes);
  template <std::size_t K> using pass = std::tuple_element_t<K, std::tuple<Passes...>>;

  // The passes against ctnn::pipeline_pass (the sentence of the first member missing; always true itself).
  static_assert(sizeof(detail::check_pipeline_passes<std::index_sequence_for<Passes...>, Passes...>) > 0);
};

// The default flow (docs/design.md §1). Copy it and insert your own pass at any stage: before lower_te (graph
// level), between lower_te and plan_memory (graph ops and kernels side by side), or after planning.
using default_pipeline =
    pipeline<pass::infer_types, pass::fold_constants, pass::fold_batch_norm, pass::fuse_ops, pass::alias_reshapes,
             pass::lower_te, pass::plan_memory<>, pass::select_kernels<>, pass::create_function_metadata,
             pass::create_executor_metadata, pass::aot_lower_main>;

namespace detail {

// The facts a pass reads and fills (0: none declared; a declaration that is not a ctnn::fact is reported
// by check_pipeline_pass and counts as none).
template <class Pass>
constexpr std::uint32_t required_facts() {
  if constexpr (requires { Pass::requires_facts; } && pass_requires_facts_well_typed<Pass>)
    return static_cast<std::uint32_t>(Pass::requires_facts);
  else return 0;
}
template <class Pass>
constexpr std::uint32_t established_facts() {
  if constexpr (requires { Pass::establishes; } && pass_establishes_well_typed<Pass>)
    return static_cast<std::uint32_t>(Pass::establishes);
  else return 0;
}

// A pass with an in-place core: `static constexpr void run_in_place(Module&)` (every pass of ctnn). A pass
// of one's own may have only the by-value `run(Module) -> Module`; both forms run in every pipeline.
template <class Pass, class Module>
concept runs_in_place = requires(Module& m) { Pass::run_in_place(m); };
template <class Pass, class Module>
concept runs_by_value = requires(Module m) {
  { Pass::run(m) } -> std::convertible_to<Module>;
};

// Runs one pass on `m` in place unless an earlier one failed; refuses to run it before the facts it reads
// exist (the run-time twin of the type-level check below, for modules built and passed by hand). In place:
// a module can be megabytes, and the tools run the passes on one module on the heap (docs/design.md §2).
template <class Pass, class Module>
constexpr void apply_pass_in_place(Module& m, std::size_t position) {
  if (m.error.failed()) return;
  const std::uint32_t needed = required_facts<Pass>();
  if ((m.facts & needed) != needed) {
    m.fail({error_code::pass_prerequisite_missing, -1, op_kind::none, {}, {},
            {.position = static_cast<std::int64_t>(position), .missing_facts = static_cast<std::int64_t>(needed & ~m.facts)}});
    return;
  }
  // The members' signatures, with the module type now known (check_pipeline_pass has seen their names).
  static_assert(!pipeline_pass<Pass> || runs_in_place<Pass, Module> || runs_by_value<Pass, Module>,
                "ctnn::pipeline<Passes...>: a pass's run_in_place(m) / run(m) does not take this module (the pass and "
                "the module are the template arguments of apply_pass_in_place): write `template <class Module> static "
                "constexpr void run_in_place(Module&)` or `template <class Module> static constexpr Module run(Module)`.");
  if constexpr (runs_in_place<Pass, Module>) Pass::run_in_place(m);
  else if constexpr (runs_by_value<Pass, Module>) m = Pass::run(m);  // two module copies on the stack, its author's choice
  else m.fail({error_code::pipeline_rejected, -1, op_kind::none, {}, {}});  // reported above
  if constexpr (established_facts<Pass>() != 0) {
    if (!m.error.failed()) m.establish(Pass::establishes);
  }
}

// The same on a module value: one constant evaluation per stage (stage_v).
template <class Pass, class Module>
constexpr Module apply_pass(Module m, std::size_t position) {
  apply_pass_in_place<Pass>(m, position);
  return m;
}

// A pass that asks compile-time facts of the module's values (select_kernels: kernel traits are templates
// over kernel_params) declares `reads_module_constant` and runs as run_on<Previous stage>() in the
// compiler; its run(m) serves modules made at run time (the tools).
template <class Pass>
concept reads_module_constant = requires { Pass::reads_module_constant; };

template <class Pass, const auto& Previous>
constexpr auto run_stage(std::size_t position) {
  if constexpr (reads_module_constant<Pass> && !Previous.error.failed() &&
                (Previous.facts & required_facts<Pass>()) == required_facts<Pass>()) {
    auto m = Pass::template run_on<Previous>();
    m.establish(Pass::establishes);
    return m;
  } else {
    return apply_pass<Pass>(Previous, position);
  }
}

// The first pass whose prerequisites the passes before it do not establish: {position, missing bits}.
struct order_problem {  // a template argument: no padding (clang 14)
  std::int64_t position = -1;
  std::int64_t missing = 0;
};
template <class... Passes>
constexpr order_problem first_order_problem(pipeline<Passes...>) {
  constexpr std::array<std::uint32_t, sizeof...(Passes) + 1> needs{required_facts<Passes>()..., 0};
  constexpr std::array<std::uint32_t, sizeof...(Passes) + 1> gives{established_facts<Passes>()..., 0};
  std::uint32_t facts = 0;
  for (std::size_t k = 0; k < sizeof...(Passes); ++k) {
    if ((needs[k] & ~facts) != 0) return {static_cast<std::int64_t>(k), static_cast<std::int64_t>(needs[k] & ~facts)};
    facts |= gives[k];
  }
  return {};
}

// The first pass of the pipeline that establishes one of `facts`, or `none` if no pass does.
template <class Pipeline, std::int64_t Facts, std::size_t K = 0>
struct producer_of {
  using type = errors::no_pass_in_the_pipeline_establishes_it;
};
template <class... Passes, std::int64_t Facts, std::size_t K>
  requires(K < sizeof...(Passes))
struct producer_of<pipeline<Passes...>, Facts, K> {
  using pass_k = typename pipeline<Passes...>::template pass<K>;
  using type = std::conditional_t<(established_facts<pass_k>() & Facts) != 0, pass_k,
                                  typename producer_of<pipeline<Passes...>, Facts, K + 1>::type>;
};

template <class Pipeline, order_problem Problem = first_order_problem(Pipeline{})>
struct pipeline_order_check {};
template <class Pipeline, order_problem Problem>
  requires(Problem.position >= 0)
struct pipeline_order_check<Pipeline, Problem>
    : errors::pass_runs_before_its_prerequisite<
          typename Pipeline::template pass<static_cast<std::size_t>(Problem.position)>,
          errors::missing_fact<static_cast<fact>(Problem.missing)>,
          typename producer_of<Pipeline, Problem.missing>::type> {};

// Stands in for a pipeline whose order was rejected (the error is already reported): it only marks
// the module, so that no further errors follow.
struct rejected_pipeline_pass {
  template <class Module>
  static constexpr Module run(Module m) {
    m.fail({error_code::pipeline_rejected, -1, op_kind::none, {}, {}});
    return m;
  }
};

template <class Pipeline>
inline constexpr bool all_pipeline_passes = false;
template <class... Passes>
inline constexpr bool all_pipeline_passes<pipeline<Passes...>> = (pipeline_pass<Passes> && ...);

// `type` is Pipeline when its passes are passes (ctnn::pipeline_pass, reported by pipeline<> itself) and
// its order is sound; otherwise instantiating this reports the problem.
template <class Pipeline>
struct checked_pipeline : pipeline_order_check<Pipeline> {
  using type = std::conditional_t<all_pipeline_passes<Pipeline> && first_order_problem(Pipeline{}).position < 0, Pipeline,
                                  pipeline<rejected_pipeline_pass>>;
};

}  // namespace detail

// The module of `Model` after the first K passes of `Pipeline`.
template <class Model, class Pipeline, std::size_t K>
inline constexpr auto stage_v = detail::run_stage<typename Pipeline::template pass<K - 1>, stage_v<Model, Pipeline, K - 1>>(K - 1);

template <class Model, class Pipeline>
inline constexpr auto stage_v<Model, Pipeline, 0> = Model::build();

// The module of `Model` after the whole pipeline.
template <class Model, class Pipeline = default_pipeline>
inline constexpr auto& compiled_v = stage_v<Model, Pipeline, Pipeline::size>;

}  // namespace ctnn
