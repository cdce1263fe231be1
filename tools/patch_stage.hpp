#pragma once
// --patches (plan_options.hpp, ctnn-inspect): the automatic patch stage of
// ctnn::patch_execution<ctnn::max_extra_macs<10>> applied by the tools before lower_te, and the line that
// shows it (docs/memory.md, "Patch execution"):
//   patch stage: first 4 ops on a 4 x 4 grid (16 patches), halo 7 x 7 input rows x columns, +263520 MACs
//   (+3.52 % of 7491970), estimated peak 55296 -> 41547 B; kept (the plan needs less RAM)
#include <cstdint>
#include <cstdio>
#include <memory>

#include <ctnn/memory/options.hpp>
#include <ctnn/pass/patch_execution.hpp>
#include <ctnn/pass/patch_plan.hpp>
#include <ctnn/pass/plan_memory.hpp>

namespace ctnn_tools {

// The line that shows a patch stage (the plan pass::plan_patches made; kept: whether the module keeps it),
// the same in every tool that takes --patches.
inline void print_patch_stage(const ctnn::pass::patch_plan& plan, bool kept) {
  if (plan.ops == 0) {
    std::printf("patch stage: none (no prefix and grid lowers the estimated peak of %lld B within 10 %% more MACs)\n",
                static_cast<long long>(plan.peak_before));
    return;
  }
  const double percent = plan.model_macs > 0 ? 100.0 * static_cast<double>(plan.extra_macs()) / static_cast<double>(plan.model_macs) : 0.0;
  std::printf("patch stage: first %d ops on a %d x %d grid (%d patches), halo %d x %d input rows x columns, +%lld MACs (+%.2f %% of %lld), "
              "estimated peak %lld -> %lld B; %s\n",
              plan.ops, plan.rows, plan.columns, plan.patches(), plan.figures.halo_rows, plan.figures.halo_columns,
              static_cast<long long>(plan.extra_macs()), percent, static_cast<long long>(plan.model_macs),
              static_cast<long long>(plan.peak_before), static_cast<long long>(plan.peak_after),
              kept ? "kept (the plan needs less RAM)" : "not kept (the plan does not need less RAM)");
}

// Gives the module the automatic patch stage where it lowers the plan's total RAM under `config`; prints
// the stage on stdout. The candidates are lowered and planned in a scratch module on the heap (modules are
// megabytes), so this runs on the default stack.
template <class Module>
void apply_patch_stage(Module& m, const ctnn::memory::plan_config& config) {
  const ctnn::pass::patch_request automatic{0, 0, 0, 10};
  const ctnn::pass::patch_plan plan = ctnn::pass::plan_patches(m, automatic, config);
  const std::int32_t ops_before = m.node_count;
  const std::unique_ptr<Module> scratch(new Module{});
  ctnn::pass::patch_module_in_place_if_lower<ctnn::memory::default_planner>(m, *scratch, automatic, config);
  print_patch_stage(plan, m.node_count != ops_before);
}

}  // namespace ctnn_tools
