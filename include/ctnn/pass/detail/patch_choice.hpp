#pragma once
// Which prefix and grid patch execution uses (docs/memory.md, "Patch execution"): the one given, or the
// automatic choice, the candidate with the smallest estimated peak within a MAC-overhead limit, kept only
// when it is below the whole-tensor schedule's.
#include <array>
#include <cstdint>
#include <limits>

#include <ctnn/ir/module.hpp>
#include <ctnn/pass/detail/patch_geometry.hpp>
#include <ctnn/pass/patch_plan.hpp>

namespace ctnn::pass::detail {

// Bytes live at each op of the whole-tensor schedule (a tensor from its producer, or the start for
// inputs, to its last reader, or the end for outputs; views count as their roots).
template <class Module>
constexpr std::array<std::int64_t, Module::node_capacity> live_bytes(const Module& m) {
  std::array<std::int32_t, Module::tensor_capacity> last{};
  for (std::int32_t t = 0; t < m.tensor_count; ++t) last[static_cast<std::size_t>(t)] = -1;
  for (std::int32_t i = 0; i < m.node_count; ++i)
    for (std::int32_t k = 0; k < m.node_at(i).input_count; ++k) {
      const std::int32_t r = m.storage_root(m.node_at(i).inputs[static_cast<std::size_t>(k)]);
      if (r >= 0) last[static_cast<std::size_t>(r)] = i;
    }
  std::array<std::int64_t, Module::node_capacity> live{};
  for (std::int32_t t = 0; t < m.tensor_count; ++t) {
    const tensor& x = m.tensor_at(t);
    if (x.alias_of >= 0 || x.role == tensor_role::constant) continue;
    std::int32_t first = x.role == tensor_role::input ? 0 : x.producer;
    std::int32_t end = x.role == tensor_role::output ? m.node_count - 1 : last[static_cast<std::size_t>(t)];
    if (first < 0 || end < first) continue;
    for (std::int32_t i = first; i <= end; ++i) live[static_cast<std::size_t>(i)] += x.bytes();
  }
  return live;
}

// The bytes the prefix's input holds during the patch stage: the whole tensor, or streamed, the row buffer
// (the most input rows one patch row reads, whole rows).
template <class Module>
constexpr std::int64_t input_bytes_held(const Module& m, bool streamed, const axis_summary& rows) {
  const tensor& input = m.tensor_at(m.node_at(0).inputs[0]);
  if (!streamed) return input.bytes();
  return static_cast<std::int64_t>(rows.largest[0]) * input.dims[2] * input.dims[3] * static_cast<std::int64_t>(size_of(input.type));
}

// The estimated peak of a schedule whose first `ops` ops run patch by patch: the larger of the ops after
// the prefix (unchanged) and the patch stage (the prefix's input, whole or its row buffer, and whole
// output, plus the largest operand-and-result pair of one patch call, from the largest extents along each
// axis: exact for a grid whose largest patch is inside the map, an upper bound otherwise).
template <class Module, class Live>
constexpr std::int64_t patched_peak(const Module& m, const Live& live, std::int32_t ops, const axis_summary& rows,
                                    const axis_summary& columns, bool streamed) {
  std::int64_t peak = 0;
  for (std::int32_t i = ops; i < m.node_count; ++i) peak = live[static_cast<std::size_t>(i)] > peak ? live[static_cast<std::size_t>(i)] : peak;
  std::int64_t pair = 0, previous = 0;
  for (std::int32_t j = 0; j <= ops; ++j) {
    const tensor& t = j == 0 ? m.tensor_at(m.node_at(0).inputs[0]) : m.tensor_at(m.node_at(j - 1).output);
    const auto ju = static_cast<std::size_t>(j);
    const std::int64_t bytes = static_cast<std::int64_t>(rows.largest[ju]) * columns.largest[ju] * t.dims[0] * t.dims[3] *
                               static_cast<std::int64_t>(size_of(t.type));
    if (previous + bytes > pair) pair = previous + bytes;
    previous = bytes;
  }
  const std::int64_t stage = input_bytes_held(m, streamed, rows) + m.tensor_at(m.node_at(ops - 1).output).bytes() + pair;
  return stage > peak ? stage : peak;
}

template <class Live>
constexpr std::int64_t largest_of(const Live& live, std::int32_t count) {
  std::int64_t peak = 0;
  for (std::int32_t i = 0; i < count; ++i) peak = live[static_cast<std::size_t>(i)] > peak ? live[static_cast<std::size_t>(i)] : peak;
  return peak;
}

template <class Module>
constexpr patch_plan plan_of(const Module& m, std::int32_t ops, std::int32_t rows, std::int32_t columns, bool streamed) {
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
  p.model_macs = model_macs(m);
  const auto live = live_bytes(m);
  p.peak_before = largest_of(live, m.node_count);
  p.peak_after = patched_peak(m, live, ops, along_rows, along_columns, streamed);
  p.buffered_rows = streamed ? along_rows.largest[0] : 0;
  return p;
}

// The plan for a request: the explicit one as asked (check.problem says why it cannot run), or the best
// automatic candidate (ops == 0 when none lowers the estimated peak within the MAC limit; streamed, the
// smallest estimate whatever the whole-tensor peak, and check.problem says why there is none). Ties go to
// the shorter prefix and the smaller grid (found first).
template <class Module>
constexpr patch_plan choose_patches(const Module& m, const patch_request& request) {
  const bool streamed = request.streamed_input != 0;
  if (request.ops > 0) return plan_of(m, request.ops, request.rows, request.columns, streamed);
  patch_plan best{};
  const std::int64_t macs = model_macs(m);
  const auto live = live_bytes(m);
  best.peak_before = best.peak_after = largest_of(live, m.node_count);
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
        const std::int64_t peak = patched_peak(m, live, ops, along_rows, c, streamed);
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
