#pragma once
// The default pipeline at run time with patch execution before lower_te and plan_memory with a plan
// config: what ctnn::compile<model, ctnn::patch_execution<...>, options...> runs, for modules built or
// imported at run time (unit_patch_execution, unit_patch_mlperf, benchmarks/memory_plan).
#include <cstddef>
#include <type_traits>
#include <utility>

#include <ctnn/compile.hpp>
#include <ctnn/memory/algorithms.hpp>

namespace patch_test {

using pipeline = ctnn::default_pipeline;
static_assert(std::is_same_v<pipeline::pass<5>, ctnn::pass::lower_te>);
static_assert(std::is_same_v<pipeline::pass<6>, ctnn::pass::plan_memory<>>);

// One pass in a frame of its own (modules are large: one copy per frame, not one per pass).
template <std::size_t K, class Module>
[[gnu::noinline]] void apply_pass_at(Module& m) {
  m = ctnn::detail::apply_pass<pipeline::pass<K>>(m, K);
}

// The graph passes before lower_te (shapes, folding, fusion, views): what patch execution sees.
template <class Module>
void graph_passes(Module& m) {
  [&]<std::size_t... K>(std::index_sequence<K...>) { (apply_pass_at<K>(m), ...); }(std::make_index_sequence<5>{});
}

// Runs the pipeline on `m` in place; `patch` false: no patch stage (the whole-tensor schedule).
template <class Module>
void compile(Module& m, bool patch, const ctnn::pass::patch_request& request, const ctnn::memory::plan_config& config) {
  graph_passes(m);
  if (patch && !m.error.failed()) m = ctnn::pass::patch_module_if_lower<ctnn::memory::default_planner>(m, request, config);
  apply_pass_at<5>(m);
  if (!m.error.failed()) m = ctnn::pass::plan_module<ctnn::memory::default_planner>(m, config);
  if (!m.error.failed()) m.establish(ctnn::fact::memory_planned);
  [&]<std::size_t... K>(std::index_sequence<K...>) { (apply_pass_at<7 + K>(m), ...); }(std::make_index_sequence<pipeline::size - 7>{});
}

}  // namespace patch_test
