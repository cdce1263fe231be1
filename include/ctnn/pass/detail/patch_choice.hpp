#pragma once
// Which prefix and grid patch execution uses (docs/memory.md, "Patch execution"): the one given, or the
// automatic choice, the candidate with the smallest estimated total RAM within a MAC-overhead limit, kept
// only when it is below the whole-tensor schedule's.
#include <array>
#include <cstdint>
#include <limits>

#include <ctnn/ir/module.hpp>
#include <ctnn/memory/buffers.hpp>
#include <ctnn/memory/liveness.hpp>
#include <ctnn/memory/options.hpp>
#include <ctnn/ops/cost.hpp>
#include <ctnn/pass/detail/patch_geometry.hpp>
#include <ctnn/pass/patch_plan.hpp>

namespace ctnn::pass {

// The plan options an estimate assumes when none are given: every tensor counted, inputs and outputs in
// the pools, no reuse (plain liveness).
inline constexpr memory::plan_config every_tensor_counted = [] {
  memory::plan_config c{};
  c.io_in_arena = true;
  return c;
}();

}  // namespace ctnn::pass

namespace ctnn::pass::detail {

// The whole-tensor schedule as the plan options see it: the pool bytes live at each op (the planner's own
// buffers: reuse, and in-place convolutions at their smallest footprint, when the options allow them), and
// the inputs and outputs kept in the caller's buffers. The estimate's total RAM is a pool peak plus those.
template <class Module>
struct whole_schedule {
  std::array<std::int64_t, Module::node_capacity + 1> live{};
  std::int64_t io_outside = 0;
  bool io_in_arena = true;
};

template <class Module>
constexpr whole_schedule<Module> whole_schedule_of(const Module& m, const memory::plan_config& config) {
  whole_schedule<Module> w{};
  const auto set = memory::plan_buffers(m, config);
  memory::live_bytes_per_op(set.buffers, set.count, m.node_count, w.live);
  w.io_outside = set.io_bytes_outside;
  w.io_in_arena = config.io_in_arena;
  return w;
}

// The bytes the prefix's input holds in the pools during the patch stage: the whole tensor (none when it
// is in the caller's buffer), or streamed, the row buffer (the most input rows one patch row reads).
template <class Module>
constexpr std::int64_t input_bytes_held(const Module& m, bool streamed, bool io_in_arena, const axis_summary& rows) {
  const tensor& input = m.tensor_at(m.node_at(0).inputs[0]);
  if (!streamed) return io_in_arena || input.role != tensor_role::input ? input.bytes() : 0;
  return static_cast<std::int64_t>(rows.largest[0]) * input.dims[2] * input.dims[3] * static_cast<std::int64_t>(size_of(input.type));
}

// The estimated total RAM of a schedule whose first `ops` ops run patch by patch: the larger pool peak of
// the ops after the prefix (unchanged) and the patch stage (the prefix's input, whole or its row buffer,
// and whole output, plus the largest operand-and-result pair of one patch call, from the largest extents
// along each axis: exact for a grid whose largest patch is inside the map, an upper bound otherwise),
// plus the inputs and outputs in the caller's buffers (a streamed input is in neither).
template <class Module, class Schedule>
constexpr std::int64_t patched_peak(const Module& m, const Schedule& whole, std::int32_t ops, const axis_summary& rows,
                                    const axis_summary& columns, bool streamed) {
  std::int64_t peak = 0;
  for (std::int32_t i = ops; i < m.node_count; ++i)
    peak = whole.live[static_cast<std::size_t>(i)] > peak ? whole.live[static_cast<std::size_t>(i)] : peak;
  std::int64_t pair = 0, previous = 0;
  for (std::int32_t j = 0; j <= ops; ++j) {
    const tensor& t = j == 0 ? m.tensor_at(m.node_at(0).inputs[0]) : m.tensor_at(m.node_at(j - 1).output);
    const auto ju = static_cast<std::size_t>(j);
    const std::int64_t bytes = static_cast<std::int64_t>(rows.largest[ju]) * columns.largest[ju] * t.dims[0] * t.dims[3] *
                               static_cast<std::int64_t>(size_of(t.type));
    if (previous + bytes > pair) pair = previous + bytes;
    previous = bytes;
  }
  const tensor& input = m.tensor_at(m.node_at(0).inputs[0]);
  const std::int64_t stage = input_bytes_held(m, streamed, whole.io_in_arena, rows) + m.tensor_at(m.node_at(ops - 1).output).bytes() + pair;
  const std::int64_t outside = whole.io_outside - (streamed && !whole.io_in_arena ? input.bytes() : 0);
  return (stage > peak ? stage : peak) + outside;
}

template <class Schedule>
constexpr std::int64_t whole_total(const Schedule& whole, std::int32_t count) {
  std::int64_t peak = 0;
  for (std::int32_t i = 0; i < count; ++i) peak = whole.live[static_cast<std::size_t>(i)] > peak ? whole.live[static_cast<std::size_t>(i)] : peak;
  return peak + whole.io_outside;
}

template <class Module>
constexpr patch_plan plan_of(const Module& m, std::int32_t ops, std::int32_t rows, std::int32_t columns, bool streamed,
                             const memory::plan_config& config) {
  patch_plan p{ops, rows, columns};
  p.streamed = streamed;
  p.check = check_prefix(m, ops);
  if (p.check.problem == patch_problem::none && streamed) p.check = check_streamable(m);
  if (p.check.problem != patch_problem::none) return p;
  const shape out = m.tensor_at(m.node_at(ops - 1).output).dims;
  if (rows < 1 || columns < 1 || rows > max_patch_grid || columns > max_patch_grid || rows > out[1] || columns > out[2]) {
    p.check = {patch_problem::bad_grid, ops - 1};
    return p;
  }
  const axis_summary along_rows = summarize_axis(m, ops, 1, rows), along_columns = summarize_axis(m, ops, 2, columns);
  p.figures = figures_of(m, ops, along_rows, along_columns);
  p.model_macs = ctnn::ops::model_macs(m);
  const auto whole = whole_schedule_of(m, config);
  p.peak_before = whole_total(whole, m.node_count);
  p.peak_after = patched_peak(m, whole, ops, along_rows, along_columns, streamed);
  p.buffered_rows = streamed ? along_rows.largest[0] : 0;
  return p;
}

// The plan for a request under the plan options `config` (what the estimate counts): the explicit one as
// asked (check.problem says why it cannot run), or the best automatic candidate (ops == 0 when none lowers
// the estimated total RAM within the MAC limit; streamed, the smallest estimate whatever the whole-tensor
// one, and check.problem says why there is none). Ties go to the shorter prefix and the smaller grid
// (found first).
template <class Module>
constexpr patch_plan choose_patches(const Module& m, const patch_request& request, const memory::plan_config& config) {
  const bool streamed = request.streamed_input != 0;
  if (request.ops > 0) return plan_of(m, request.ops, request.rows, request.columns, streamed, config);
  patch_plan best{};
  const std::int64_t macs = ctnn::ops::model_macs(m);
  const auto whole = whole_schedule_of(m, config);
  best.peak_before = best.peak_after = whole_total(whole, m.node_count);
  best.model_macs = macs;
  best.streamed = streamed;
  if (streamed) {
    best.peak_after = std::numeric_limits<std::int64_t>::max();
    best.check = check_prefix(m, 1);
    if (best.check.problem == patch_problem::none) best.check = check_streamable(m);
    if (best.check.problem != patch_problem::none) return best;
  }
  for (std::int32_t ops = 1; ops <= max_patch_prefix && check_prefix(m, ops).problem == patch_problem::none; ++ops) {
    const shape out = m.tensor_at(m.node_at(ops - 1).output).dims;
    std::array<axis_summary, max_patch_grid + 1> along_columns{};
    for (std::int32_t columns = 1; columns <= max_patch_grid && columns <= out[2]; ++columns)
      along_columns[static_cast<std::size_t>(columns)] = summarize_axis(m, ops, 2, columns);
    for (std::int32_t rows = 1; rows <= max_patch_grid && rows <= out[1]; ++rows) {
      const axis_summary along_rows = summarize_axis(m, ops, 1, rows);
      for (std::int32_t columns = 1; columns <= max_patch_grid && columns <= out[2]; ++columns) {
        if (rows * columns < 2 || rows * columns > max_automatic_patches) continue;
        const axis_summary& c = along_columns[static_cast<std::size_t>(columns)];
        const std::int64_t peak = patched_peak(m, whole, ops, along_rows, c, streamed);
        if (peak >= best.peak_after) continue;
        const patch_figures f = figures_of(m, ops, along_rows, c);
        if ((f.patched_macs - f.whole_macs) * 100 > static_cast<std::int64_t>(request.max_extra_macs) * macs) continue;
        best = {ops, rows, columns, {}, f, macs, best.peak_before, peak, streamed, streamed ? along_rows.largest[0] : 0};
      }
    }
  }
  if (streamed && best.ops == 0) best.check = {patch_problem::no_grid_within_macs, 0};
  return best;
}

}  // namespace ctnn::pass::detail
