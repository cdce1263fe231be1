// Unit tests of the concepts of the types users hand in: ctnn::pipeline_pass (pass/pipeline_pass.hpp),
// ctnn::placement_algorithm (memory/placement_algorithm.hpp) and ctnn::kernel_family
// (kernel/kernel_family.hpp). Every pass, algorithm and kernel family ctnn ships satisfies its concept; each
// member concept rejects the type that lacks that member (the sentence the static_assert then gives is
// checked by tests/compile_fail: pipeline_not_a_pass, pass_without_run, pass_establishes_not_fact,
// planner_not_algorithm, planner_without_plan); and pipelines edited or given options stay passes.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <doctest/doctest.h>

#include <ctnn/compile.hpp>
#include <ctnn/frontend/dsl.hpp>
#include <ctnn/kernel/arm/i8.hpp>  // the Armv7E-M family, which the host build of ctnn does not read by itself
#include <ctnn/kernel/kernel_family.hpp>
#include <ctnn/memory/algorithms.hpp>
#include <ctnn/memory/first_fit.hpp>
#include <ctnn/memory/placement_algorithm.hpp>
#include <ctnn/pass/compute_requantization.hpp>
#include <ctnn/pass/edit_pipeline.hpp>
#include <ctnn/pass/pipeline_pass.hpp>
#include <ctnn/pass/run_pipeline.hpp>
#include <ctnn/pass/select_kernels.hpp>

#include "test_modules.hpp"

namespace {

namespace pass = ctnn::pass;
namespace memory = ctnn::memory;
using ctnn::fact;
using ctnn::kernel_family;
using ctnn::pipeline_pass;
using ctnn::placement_algorithm;

template <class Pipeline>
constexpr bool all_passes = false;
template <class... Passes>
constexpr bool all_passes<ctnn::pipeline<Passes...>> = (pipeline_pass<Passes> && ...);

// ---------------------------------------------------------------------------------------------------
// Passes: the default pipeline, the five steps of plan_memory, the passes outside the default list, and
// pipelines after compile options and edits.
static_assert(all_passes<ctnn::default_pipeline>);
static_assert(pipeline_pass<pass::assign_pools<>> && pipeline_pass<pass::order_for_memory<>> &&
              pipeline_pass<pass::place_buffers<>> && pipeline_pass<pass::mark_in_place_calls> &&
              pipeline_pass<pass::check_budgets>);
static_assert(pipeline_pass<pass::compute_requantization> && pipeline_pass<pass::lower_te::with_scratch<ctnn::kernel::scratch_rule_list<>>> &&
              pipeline_pass<pass::plan_memory<memory::hill_climb<7>, ctnn::in_place_ops>> &&
              pipeline_pass<pass::select_kernels<ctnn::targets::generic, ctnn::shared>>);
static_assert(pipeline_pass<pass::patch_execution<pass::patch_request{2, 2, 2, 0}>>);
static_assert(all_passes<ctnn::detail::compile_options<ctnn::pools<ctnn::pool<"sram", 4096>>, ctnn::memory_reuse,
                                                       ctnn::specialisation<ctnn::shared>>::type>);
static_assert(all_passes<ctnn::passes_before<pass::plan_memory<>>> && all_passes<ctnn::passes_after<pass::lower_te>>);

// A user's passes: by value only, in place only, both; facts declared or not; a final class (not looked
// into: its members count as there).
struct by_value {
  static constexpr fact requires_facts = fact::shapes_inferred;
  template <class Module>
  static constexpr Module run(Module m) {
    return m;
  }
};
struct in_place {
  static constexpr fact requires_facts = static_cast<fact>(static_cast<std::uint32_t>(fact::shapes_inferred) |
                                                           static_cast<std::uint32_t>(fact::kernels_lowered));
  static constexpr fact establishes = fact::memory_planned;
  template <class Module>
  static constexpr void run_in_place(Module&) {}
};
struct sealed final {
  template <class Module>
  static constexpr void run_in_place(Module&) {}
};
static_assert(pipeline_pass<by_value> && pipeline_pass<in_place> && pipeline_pass<sealed>);
static_assert(all_passes<ctnn::insert_before<pass::lower_te, by_value>> &&
              all_passes<ctnn::insert_after<pass::fuse_ops, in_place>> &&
              all_passes<ctnn::replace<pass::fuse_ops, sealed>> && all_passes<ctnn::without<pass::fold_batch_norm>>);

// Each member concept, on the type that lacks that member.
struct no_run {  // run_inplace misspelt
  template <class Module>
  static constexpr void run_inplace(Module&) {}
};
struct facts_as_integers {
  static constexpr std::uint32_t requires_facts = 1;
  template <class Module>
  static constexpr void run_in_place(Module&) {}
};
struct establishes_an_integer {
  static constexpr std::uint32_t establishes = 1;
  template <class Module>
  static constexpr void run_in_place(Module&) {}
};
struct establishes_not_static {
  fact establishes = fact::shapes_inferred;
  template <class Module>
  static constexpr void run_in_place(Module&) {}
};
static_assert(!pipeline_pass<int> && !pipeline_pass<void> && !pipeline_pass<by_value*>);
static_assert(!ctnn::detail::pass_has_run_member<no_run> && !pipeline_pass<no_run>);
static_assert(ctnn::detail::pass_has_run_in_place<in_place> && !ctnn::detail::pass_has_run<in_place>);
static_assert(ctnn::detail::pass_has_run<by_value> && !ctnn::detail::pass_has_run_in_place<by_value>);
static_assert(!ctnn::detail::pass_requires_facts_well_typed<facts_as_integers> && !pipeline_pass<facts_as_integers>);
static_assert(ctnn::detail::pass_requires_facts_well_typed<establishes_an_integer> &&
              !ctnn::detail::pass_establishes_well_typed<establishes_an_integer> && !pipeline_pass<establishes_an_integer>);
static_assert(!ctnn::detail::pass_establishes_well_typed<establishes_not_static>);
// A rejected pass counts as establishing and reading nothing (no second error from the order check).
static_assert(ctnn::detail::required_facts<facts_as_integers>() == 0 &&
              ctnn::detail::established_facts<establishes_an_integer>() == 0);
static_assert(!ctnn::detail::all_pipeline_passes<ctnn::pipeline<pass::infer_types, no_run>> &&
              ctnn::detail::all_pipeline_passes<ctnn::default_pipeline>);

// ---------------------------------------------------------------------------------------------------
// Placement algorithms: every one ctnn ships, alone and in best_of<>.
static_assert(placement_algorithm<memory::default_planner>);
static_assert(placement_algorithm<memory::greedy_by_size> && placement_algorithm<memory::greedy_by_conflicts> &&
              placement_algorithm<memory::greedy_by_breadth> && placement_algorithm<memory::interval_sweep> &&
              placement_algorithm<memory::branch_and_bound<12, 1500>> && placement_algorithm<memory::hill_climb<7>> &&
              placement_algorithm<memory::hill_climb<1, 0, 10000>>);
static_assert(placement_algorithm<memory::best_of<memory::greedy_by_conflicts, memory::hill_climb<3>>>);
static_assert(std::is_same_v<ctnn::planner<memory::hill_climb<7>>::type, memory::hill_climb<7>>);

struct no_plan {  // `place`, not `plan`
  template <class Buffers, class Allocations>
  static constexpr std::int64_t place(const Buffers&, std::int32_t, Allocations&) {
    return 0;
  }
};
struct plan_of_one_int {
  static constexpr std::int64_t plan(int) { return 0; }
};
struct plan_returns_nothing {
  template <class Buffers, class Allocations>
  static constexpr void plan(const Buffers&, std::int32_t, Allocations&) {}
};
static_assert(!placement_algorithm<int> && !ctnn::detail::algorithm_has_plan<int>);
static_assert(!ctnn::detail::algorithm_has_plan<no_plan> && !placement_algorithm<no_plan>);
static_assert(ctnn::detail::algorithm_has_plan<plan_of_one_int> && !ctnn::detail::algorithm_plan_takes_buffers<plan_of_one_int>);
static_assert(ctnn::detail::algorithm_has_plan<plan_returns_nothing> &&
              !ctnn::detail::algorithm_plan_takes_buffers<plan_returns_nothing>);
// A rejected algorithm is replaced (its static_assert has said why): no second error from plan_memory.
static_assert(placement_algorithm<memory::detail::rejected_algorithm>);

// ---------------------------------------------------------------------------------------------------
// Kernel families: what select_kernels asks, for the parameters of real calls (a float conv, dense and
// relu of tiny_cnn; an int8 convolution), and the families' fallbacks.
constexpr auto& tiny = ctnn::compiled_v<ctnn_test::tiny_cnn>;
template <ctnn::kernel_params P>
constexpr bool families_of = kernel_family<ctnn::kernel::implementation_t<P, ctnn::kernel_choice{ctnn::kernel_impl::simd_f32}>> &&
                             kernel_family<ctnn::kernel::simd_i8_kernel<P, ctnn::targets::native::isa>> &&
                             kernel_family<ctnn::kernel::simd_i8_kernel<P, ctnn::instruction_set::x86_avx2>> &&
                             kernel_family<ctnn::kernel::arm::i8_kernel<P>>;
static_assert(families_of<ctnn::kernel::unselected(tiny.kernel(0))> && families_of<ctnn::kernel::unselected(tiny.kernel(1))> &&
              families_of<ctnn::kernel::unselected(tiny.kernel(tiny.kernel_count - 1))>);
constexpr ctnn::kernel_params int8_conv = [] {
  ctnn::kernel_params p = ctnn::kernel::unselected(tiny.kernel(0));
  p.type = ctnn::dtype::i8;
  return p;
}();
static_assert(families_of<int8_conv> && families_of<ctnn::kernel_params{}>);
static_assert(kernel_family<ctnn::kernel::detail::unsupported_i8>);

struct no_packs {
  static constexpr bool supports = true;
  static void run(const float* const*, float*) {}
};
struct supports_an_int : ctnn::kernel::detail::reads_constants_as_stored {
  static constexpr int supports = 1;
  static void run(const float* const*, float*) {}
};
struct no_run_kernel : ctnn::kernel::detail::reads_constants_as_stored {
  static constexpr bool supports = false;
};
static_assert(!kernel_family<int>);
static_assert(ctnn::detail::kernel_has_supports<no_packs> && !ctnn::detail::kernel_has_packs<no_packs> &&
              !ctnn::detail::kernel_has_pack<no_packs> && !kernel_family<no_packs>);
static_assert(!ctnn::detail::kernel_has_supports<supports_an_int> && !kernel_family<supports_an_int>);
static_assert(!ctnn::detail::kernel_has_run<no_run_kernel> && ctnn::detail::kernel_has_pack<no_run_kernel> &&
              !kernel_family<no_run_kernel>);

}  // namespace

TEST_CASE("a pipeline edited with a user's pass runs it, a rejected pipeline only marks the module") {
  auto m = ctnn::run_pipeline<ctnn::insert_after<pass::infer_types, by_value, ctnn::passes_before<pass::lower_te>>>(
      ctnn_test::tiny_cnn::build());
  CHECK(!m.error.failed());
  CHECK((m.facts & static_cast<std::uint32_t>(fact::shapes_inferred)) != 0);
  auto rejected = ctnn::run_pipeline<ctnn::pipeline<ctnn::detail::rejected_pipeline_pass>>(ctnn_test::tiny_cnn::build());
  CHECK(rejected.error.code == ctnn::error_code::pipeline_rejected);
}
