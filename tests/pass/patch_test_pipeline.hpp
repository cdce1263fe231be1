#pragma once
// The default pipeline at run time with patch execution before lower_te and plan_memory with a plan
// config: what ctnn::compile<model, ctnn::patch_execution<...>, options...> runs, for modules built or
// imported at run time (unit_patch_execution, unit_patch_mlperf, benchmarks/memory_plan).
#include <memory>

#include <ctnn/compile.hpp>
#include <ctnn/memory/algorithms.hpp>
#include <ctnn/pass/edit_pipeline.hpp>
#include <ctnn/pass/run_pipeline.hpp>

namespace patch_test {

using pipeline = ctnn::default_pipeline;
using lowering = ctnn::pass::lower_te;
using planning = ctnn::pass::plan_memory<>;

// The graph passes before lower_te (shapes, folding, fusion, views): what patch execution sees.
template <class Module>
void graph_passes(Module& m) {
  ctnn::run_pipeline_in_place<ctnn::passes_before<lowering, pipeline>>(m);
}

// Runs the pipeline on `m` in place; `patch` false: no patch stage (the whole-tensor schedule). The patch
// planner works in place, with its scratch module on the heap: it runs on the default stack.
template <class Module>
void compile(Module& m, bool patch, const ctnn::pass::patch_request& request, const ctnn::memory::plan_config& config) {
  graph_passes(m);
  if (patch && !m.error.failed()) {
    const auto scratch = std::make_unique<Module>();
    ctnn::pass::patch_module_in_place_if_lower<ctnn::memory::default_planner>(m, *scratch, request, config);
  }
  ctnn::run_pipeline_in_place<ctnn::pipeline<lowering>>(m);
  if (!m.error.failed()) ctnn::pass::plan_module_in_place<ctnn::memory::default_planner>(m, config);
  ctnn::run_pipeline_in_place<ctnn::passes_after<planning, pipeline>>(m);
}

}  // namespace patch_test
