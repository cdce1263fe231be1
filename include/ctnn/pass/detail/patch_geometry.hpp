#pragma once
// The geometry of patch execution (docs/memory.md, "Patch execution"): which ops a prefix may hold, the
// region of every prefix tensor that one output patch needs (computed backwards through the prefix), the
// pads each patch call gets, and the MACs of a prefix run whole or patch by patch.
#include <array>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/ops/cost.hpp>
#include <ctnn/ops/registry.hpp>
#include <ctnn/pass/detail/graph_edit.hpp>
#include <ctnn/pass/patch_plan.hpp>

namespace ctnn::pass::detail {


// The window of a prefix op along one axis (elementwise ops: 1 wide, stride 1).
struct axis_window {
  std::int32_t kernel = 1, stride = 1, dilation = 1, pad_before = 0;
};

constexpr bool is_windowed(op_kind k) {
  return k == op_kind::conv2d || k == op_kind::depthwise_conv2d || k == op_kind::max_pool || k == op_kind::avg_pool;
}

constexpr axis_window window_along(const node& n, std::int32_t axis) {
  if (!is_windowed(n.kind)) return {};
  const window& w = n.attrs.win;
  return axis == 1 ? axis_window{w.kernel_h, w.stride_h, w.dilation_h, w.pad_top}
                   : axis_window{w.kernel_w, w.stride_w, w.dilation_w, w.pad_left};
}

// An operand other than the data that a patch call may read whole: a constant whose extents are 1 except
// the last (per channel: weights and biases of windowed ops are read by the kernel, not by position).
template <class Module>
constexpr bool is_per_channel_constant(const Module& m, std::int32_t tensor_id) {
  if (tensor_id < 0) return true;
  const tensor& t = m.tensor_at(tensor_id);
  if (t.role != tensor_role::constant) return false;
  for (std::int32_t d = 0; d + 1 < t.dims.rank; ++d)
    if (t.dims[d] != 1) return false;
  return true;
}

// Whether ops [0, count) form a chain that can run patch by patch.
template <class Module>
constexpr prefix_check check_prefix(const Module& m, std::int32_t count) {
  if (count <= 0 || count > max_patch_prefix || count >= m.node_count) return {patch_problem::bad_prefix, count};
  const auto uses = use_counts(m);
  for (std::int32_t i = 0; i < count; ++i) {
    const node& n = m.node_at(i);
    const op_kind k = n.kind;
    const bool elementwise = ops::facts(k).elementwise;
    if ((!is_windowed(k) && !elementwise) || n.attrs.layout != data_layout::ctnn) return {patch_problem::op_not_patchable, i};
    const std::int32_t data = n.inputs[0];
    if (i == 0 && (m.tensor_at(data).dims.rank != 4 || m.tensor_at(data).role == tensor_role::constant))
      return {patch_problem::not_nhwc, i};
    if (i > 0 && data != m.node_at(i - 1).output) return {patch_problem::not_a_chain, i};
    if (m.tensor_at(n.output).role != tensor_role::intermediate || m.tensor_at(n.output).alias_of >= 0)
      return {patch_problem::not_a_chain, i};
    if (i + 1 < count && uses[static_cast<std::size_t>(n.output)] != 1) return {patch_problem::not_a_chain, i};
    const bool reads_weights = ops::has_weights(k);
    for (std::int32_t s = 1; s < n.input_count; ++s)
      if (!(reads_weights || is_per_channel_constant(m, n.inputs[static_cast<std::size_t>(s)])))
        return {patch_problem::operand_not_local, i};
  }
  return {};
}

// Whether the prefix's input can be streamed by rows (ctnn::streamed_input): a model input of batch 1 that
// the prefix's first op alone reads (a second reader would need the whole image).
template <class Module>
constexpr prefix_check check_streamable(const Module& m) {
  const std::int32_t input = m.node_at(0).inputs[0];
  const tensor& t = m.tensor_at(input);
  std::int32_t readers = 0;
  for (std::int32_t i = 0; i < m.node_count; ++i)
    for (std::int32_t k = 0; k < m.node_at(i).input_count; ++k) readers += m.storage_root(m.node_at(i).inputs[static_cast<std::size_t>(k)]) == input;
  if (t.role != tensor_role::input || t.io_index < 0 || t.dims.rank != 4 || t.dims[0] != 1 || readers != 1)
    return {patch_problem::input_not_streamable, 0};
  return {};
}

// Along one axis, for one output patch [begin, end) of the prefix's last op: the extent each prefix
// tensor needs (tensor 0 is the prefix's input, tensor j + 1 op j's result) and the pads of each call.
struct axis_regions {
  std::array<std::int32_t, max_patch_prefix + 1> begin{}, end{};
  std::array<std::int32_t, max_patch_prefix> pad_before{}, pad_after{};
};

// Backwards through the prefix: out [lo, hi) of an op with stride s, kernel k, dilation d, pad p reads
// input [lo*s - p, (hi-1)*s - p + (k-1)*d + 1), clipped to the input; what is clipped off becomes the call's
// pad on that side (the original padding at the map's border; 0 where the halo supplies real data).
template <class Module>
constexpr axis_regions regions_along(const Module& m, std::int32_t count, std::int32_t axis, std::int32_t begin, std::int32_t end) {
  axis_regions r{};
  r.begin[static_cast<std::size_t>(count)] = begin;
  r.end[static_cast<std::size_t>(count)] = end;
  for (std::int32_t j = count - 1; j >= 0; --j) {
    const node& n = m.node_at(j);
    const axis_window w = window_along(n, axis);
    const std::int32_t extent = m.tensor_at(n.inputs[0]).dims[axis];
    const auto ju = static_cast<std::size_t>(j);
    const std::int32_t lo = r.begin[ju + 1], hi = r.end[ju + 1];
    const std::int32_t from = lo * w.stride - w.pad_before;
    const std::int32_t to = (hi - 1) * w.stride - w.pad_before + (w.kernel - 1) * w.dilation + 1;
    r.begin[ju] = from < 0 ? 0 : from;
    r.end[ju] = to > extent ? extent : to;
    r.pad_before[ju] = r.begin[ju] - from;
    r.pad_after[ju] = to - r.end[ju];
  }
  return r;
}

// The i-th of `parts` near-equal pieces of [0, extent): [begin, end).
constexpr std::int32_t split_point(std::int32_t extent, std::int32_t parts, std::int32_t i) {
  return static_cast<std::int32_t>(static_cast<std::int64_t>(extent) * i / parts);
}

// One axis of a grid, summed up over its patches (for one prefix): the largest and the summed extent of
// every prefix tensor (0: the crop of the input, j + 1: op j's result), and the largest overlap of two
// neighbouring input windows (the halo). Rows and columns are independent, so a grid's figures follow from
// one summary per axis: O(parts x ops) each, cheap enough for the automatic choice in constant evaluation.
struct axis_summary {
  std::array<std::int32_t, max_patch_prefix + 1> largest{};
  std::array<std::int64_t, max_patch_prefix + 1> total{};
  std::int32_t halo = 0;
};

template <class Module>
constexpr axis_summary summarize_axis(const Module& m, std::int32_t count, std::int32_t axis, std::int32_t parts) {
  axis_summary s{};
  const std::int32_t extent = m.tensor_at(m.node_at(count - 1).output).dims[axis];
  std::int32_t previous_end = 0;
  for (std::int32_t i = 0; i < parts; ++i) {
    const axis_regions r = regions_along(m, count, axis, split_point(extent, parts, i), split_point(extent, parts, i + 1));
    for (std::int32_t j = 0; j <= count; ++j) {
      const auto ju = static_cast<std::size_t>(j);
      const std::int32_t e = r.end[ju] - r.begin[ju];
      s.largest[ju] = e > s.largest[ju] ? e : s.largest[ju];
      s.total[ju] += e;
    }
    if (i > 0 && previous_end - r.begin[0] > s.halo) s.halo = previous_end - r.begin[0];
    previous_end = r.end[0];
  }
  return s;
}

// MACs per output pixel of op `n` (its result's batch and channels, one pixel).
template <class Module>
constexpr std::int64_t macs_per_pixel(const Module& m, const node& n) {
  const shape out = m.tensor_at(n.output).dims;
  return ops::macs_of(m, n, make_shape(out[0], 1, 1, out[3]));
}

template <class Module>
constexpr patch_figures figures_of(const Module& m, std::int32_t count, const axis_summary& rows, const axis_summary& columns) {
  patch_figures f{};
  for (std::int32_t j = 0; j < count; ++j) {
    const node& n = m.node_at(j);
    const auto ju = static_cast<std::size_t>(j);
    f.whole_macs += ops::macs_of(m, n, m.tensor_at(n.output).dims);
    f.patched_macs += macs_per_pixel(m, n) * rows.total[ju + 1] * columns.total[ju + 1];
  }
  f.halo_rows = rows.halo;
  f.halo_columns = columns.halo;
  return f;
}

template <class Module>
constexpr patch_figures figures_of(const Module& m, std::int32_t count, std::int32_t rows, std::int32_t columns) {
  return figures_of(m, count, summarize_axis(m, count, 1, rows), summarize_axis(m, count, 2, columns));
}

}  // namespace ctnn::pass::detail
