#pragma once
// Shape rules (docs/design.md §1): an op's output shape and element type from its inputs and attributes;
// padding modes resolved into explicit pads; weights checked and given their canonical shapes (OHWI, 1HWC,
// [out][in]). The first inconsistency is recorded in the module (module::fail). The helpers here
// (windowed_output, broadcast, same_padding, ...) serve the op descriptors' rules (ops/infer.hpp dispatches:
// call ops::infer_shape).
// result_type gives the result's element type.
#include <cstdint>

#include <ctnn/ir/module.hpp>

namespace ctnn::shape_rules {

constexpr std::int32_t windowed_extent(std::int32_t in, std::int32_t kernel, std::int32_t stride, std::int32_t dilation,
                                       std::int32_t pad_before, std::int32_t pad_after) {
  const std::int32_t span = (kernel - 1) * dilation + 1;
  const std::int32_t room = in + pad_before + pad_after - span;
  return room < 0 ? 0 : room / stride + 1;
}

// TensorFlow's SAME: out = ceil(in / stride), the odd pixel of padding at the end.
constexpr void same_padding(std::int32_t in, std::int32_t kernel, std::int32_t stride, std::int32_t dilation,
                            std::int32_t& before, std::int32_t& after) {
  const std::int32_t out = (in + stride - 1) / stride;
  const std::int32_t needed = (out - 1) * stride + (kernel - 1) * dilation + 1 - in;
  const std::int32_t total = needed > 0 ? needed : 0;
  before = total / 2;
  after = total - before;
}

// The first output position along one dimension whose window has no tap inside the input, or -1. A
// pooling window made only of padding has nothing to pool (avg would divide by 0).
constexpr std::int32_t first_window_in_padding(std::int32_t in, std::int32_t out, std::int32_t kernel,
                                               std::int32_t stride, std::int32_t dilation, std::int32_t pad_before) {
  for (std::int32_t o = 0; o < out; ++o) {
    bool inside = false;
    for (std::int32_t k = 0; k < kernel && !inside; ++k) {
      const std::int32_t i = o * stride - pad_before + k * dilation;
      inside = i >= 0 && i < in;
    }
    if (!inside) return o;
  }
  return -1;
}

// Resolves the window's pads and returns the NHWC output shape, or records an error.
template <class Module>
constexpr shape windowed_output(Module& m, std::int32_t node_id, window& w, const shape& in, std::int32_t channels) {
  const node& n = m.node_at(node_id);
  if (in.rank != 4) {
    m.fail({error_code::unsupported_rank, node_id, n.kind, {}, in, {.rank_expected = 4, .rank_actual = in.rank}});
    return in;
  }
  if (w.mode == padding::same) {
    same_padding(in[1], w.kernel_h, w.stride_h, w.dilation_h, w.pad_top, w.pad_bottom);
    same_padding(in[2], w.kernel_w, w.stride_w, w.dilation_w, w.pad_left, w.pad_right);
  } else if (w.mode == padding::valid) {
    w.pad_top = w.pad_left = w.pad_bottom = w.pad_right = 0;
  }
  const std::int32_t h = windowed_extent(in[1], w.kernel_h, w.stride_h, w.dilation_h, w.pad_top, w.pad_bottom);
  const std::int32_t wd = windowed_extent(in[2], w.kernel_w, w.stride_w, w.dilation_w, w.pad_left, w.pad_right);
  if (h <= 0 || wd <= 0)
    m.fail({error_code::window_larger_than_input, node_id, n.kind, make_shape(w.kernel_h, w.kernel_w), in});
  return make_shape(in[0], h, wd, channels);
}

// crop and paste (patch execution): the NHWC window `part` at row attrs.patch().row, column attrs.patch().column lies
// inside `whole`, with the same batch and channels.
template <class Module>
constexpr void fit_window(Module& m, std::int32_t node_id, const shape& whole, const shape& part) {
  const node& n = m.node_at(node_id);
  const std::int32_t top = n.attrs.patch().row, left = n.attrs.patch().column;
  if (whole.rank != 4 || part.rank != 4 || top < 0 || left < 0 || top + part[1] > whole[1] || left + part[2] > whole[2] ||
      part[0] != whole[0] || part[3] != whole[3])
    m.fail({error_code::input_shapes_differ, node_id, n.kind, whole, part});
}

// fetch_rows (a streamed input): the row buffer `rows` holds whole rows of the NHWC map `image`; the rows it
// keeps (attrs.fetch(): kept_rows from buffer row kept_from) and fetches (fetched_rows from image row first_row)
// fit in both.
template <class Module>
constexpr void fit_rows(Module& m, std::int32_t node_id, const shape& image, const shape& rows) {
  const node& n = m.node_at(node_id);
  const row_fetch_fields& r = n.attrs.fetch();
  if (image.rank != 4 || rows.rank != 4 || image[0] != 1 || rows[0] != 1 || image[2] != rows[2] || image[3] != rows[3] ||
      r.kept_from < 0 || r.kept_rows < 0 || r.first_row < 0 || r.fetched_rows < 0 || r.kept_from + r.kept_rows > rows[1] ||
      r.kept_rows + r.fetched_rows > rows[1] || r.first_row + r.fetched_rows > image[1])
    m.fail({error_code::input_shapes_differ, node_id, n.kind, image, rows});
}

// Checks a constant operand's element count and gives it its canonical shape.
template <class Module>
constexpr void expect_constant(Module& m, std::int32_t node_id, std::int32_t tensor_id, const shape& canonical,
                               error_code code) {
  if (tensor_id < 0) return;
  tensor& t = m.tensor_at(tensor_id);
  if (t.dims.elements() != canonical.elements()) {
    m.fail({code,
            node_id,
            m.node_at(node_id).kind,
            canonical,
            t.dims,
            {.count_expected = canonical.elements(), .count_actual = t.dims.elements()}});
    return;
  }
  t.dims = canonical;
}

// Checks the weights of a conv/dense whose output count comes from its bias (no units<>): when they
// disagree, neither array can be blamed for sure, so both counts are reported.
template <class Module>
constexpr bool weights_agree_with_bias(Module& m, std::int32_t node_id, const shape& per_output) {
  const node& n = m.node_at(node_id);
  if (n.attrs.units > 0 || n.input_count < 3 || n.inputs[2] < 0) return true;
  const std::int64_t weights = m.tensor_at(n.inputs[1]).dims.elements();
  const std::int64_t bias = m.tensor_at(n.inputs[2]).dims.elements();
  if (weights == bias * per_output.elements()) return true;
  m.fail({error_code::weights_and_bias_disagree,
          node_id,
          n.kind,
          per_output,
          {},
          {.weight_elements = weights, .bias_elements = bias}});
  return false;
}

// Output channels of conv/dense: the `units` attribute, else the bias length.
template <class Module>
constexpr std::int32_t output_units(const Module& m, const node& n) {
  if (n.attrs.units > 0) return n.attrs.units;
  if (n.input_count > 2 && n.inputs[2] >= 0) return static_cast<std::int32_t>(m.tensor_at(n.inputs[2]).dims.elements());
  return 0;
}

// numpy broadcasting of two shapes (right-aligned); returns false when they are incompatible.
constexpr bool broadcast(const shape& a, const shape& b, shape& out) {
  out.rank = a.rank > b.rank ? a.rank : b.rank;
  // A result over 2^40 elements is refused (shapes of 2^31 elements each broadcast to 2^62, whose bytes
  // would overflow): far above any tensor a model can plan.
  constexpr std::int64_t bound = std::int64_t{1} << 40;
  std::int64_t elements = 1;
  for (std::int32_t i = 0; i < out.rank; ++i) {
    const std::int32_t ia = a.rank - out.rank + i, ib = b.rank - out.rank + i;
    const std::int32_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
    if (da != db && da != 1 && db != 1) return false;
    const std::int32_t d = da == 1 ? db : da;
    if (d > 0 && elements > bound / d) return false;
    elements *= d > 0 ? d : 1;
    out.dims[static_cast<std::size_t>(i)] = d;
  }
  return true;
}

// ONNX's integer conv (layout onnx: NCHW activations; onnx_nhwc: NHWC ones), OIHW weights; the window rules of the
// NHWC conv.
template <class Module>
constexpr shape infer_onnx_conv(Module& m, std::int32_t node_id) {
  node& n = m.node_at(node_id);
  const shape given = m.tensor_at(n.inputs[0]).dims;
  if (given.rank != 4) {
    m.fail({error_code::unsupported_rank, node_id, n.kind, {}, given, {.rank_expected = 4, .rank_actual = given.rank}});
    return given;
  }
  const bool nhwc = n.attrs.layout == data_layout::onnx_nhwc;
  const shape in = nhwc ? make_shape(given[0], given[3], given[1], given[2]) : given;  // as NCHW
  const std::int32_t units = output_units(m, n), channels = in[1];
  if (n.attrs.groups <= 0 || channels % n.attrs.groups != 0 || units % n.attrs.groups != 0) {
    const std::int32_t undivided = n.attrs.groups > 0 && channels % n.attrs.groups == 0 ? units : channels;
    m.fail({error_code::channels_not_divisible, node_id, n.kind, {}, in,
            {.channels = undivided, .groups = n.attrs.groups}});
    return in;
  }
  const shape out = windowed_output(m, node_id, n.attrs.win, make_shape(in[0], in[2], in[3], channels), units);
  expect_constant(m, node_id, n.inputs[1], make_shape(units, channels / n.attrs.groups, n.attrs.win.kernel_h, n.attrs.win.kernel_w),
                  error_code::weight_count_mismatch);
  if (n.input_count > 2) expect_constant(m, node_id, n.inputs[2], make_shape(units), error_code::bias_count_mismatch);
  return nhwc ? out : make_shape(out[0], out[3], out[1], out[2]);
}

// ONNX's integer MatMul (dense of layout onnx): A [..., M, K] x B [..., K, N] -> [..., M, N]; B has one
// batch or as many as A.
template <class Module>
constexpr shape infer_onnx_matmul(Module& m, std::int32_t node_id) {
  const node& n = m.node_at(node_id);
  const shape a = m.tensor_at(n.inputs[0]).dims, b = m.tensor_at(n.inputs[1]).dims;
  if (a.rank < 2 || b.rank < 2 || b.rank > a.rank || a.last() != b.at(-2)) {
    m.fail({error_code::input_shapes_differ, node_id, n.kind, a, b, {.input_slot = 1}});
    return a;
  }
  const std::int64_t a_batches = a.elements() / (static_cast<std::int64_t>(a.at(-2)) * a.last());
  const std::int64_t b_batches = b.elements() / (static_cast<std::int64_t>(b.at(-2)) * b.last());
  if (b_batches != 1 && b_batches != a_batches)
    m.fail({error_code::input_shapes_differ, node_id, n.kind, a, b, {.input_slot = 1}});
  shape out = a;
  out.dims[static_cast<std::size_t>(a.rank - 1)] = b.last();
  return out;
}

// Whether operands [0, count) of an op that reads several activations (add, mul, concat, batch_matmul)
// share the first one's element type: no kernel mixes them (a float kernel would read a uint8 operand as
// floats). Records unsupported_dtype at the first operand that differs.
template <class Module>
constexpr bool operands_share_type(Module& m, std::int32_t node_id, std::int32_t count) {
  const node& n = m.node_at(node_id);
  const dtype first = m.tensor_at(n.inputs[0]).type;
  for (std::int32_t k = 1; k < count; ++k) {
    const tensor& t = m.tensor_at(n.inputs[static_cast<std::size_t>(k)]);
    if (t.type == first) continue;
    m.fail({error_code::unsupported_dtype,
            node_id,
            n.kind,
            {},
            t.dims,
            {.faulty_operand = k + 1, .rejected_value = static_cast<std::int64_t>(t.type)}});
    return false;
  }
  return true;
}

// out[axis] += more (concat, pad), or extent_too_large when the sum leaves int32 (int64 arithmetic: two
// extents near 2^31 must not overflow).
template <class Module>
constexpr bool add_extent(Module& m, std::int32_t node_id, shape& out, std::int32_t axis, std::int64_t more) {
  const std::int64_t extent = std::int64_t{out[axis]} + more;
  if (extent > std::int64_t{INT32_MAX}) {
    m.fail({error_code::extent_too_large, node_id, m.node_at(node_id).kind, {}, out, {.count_actual = extent, .axis = axis}});
    return false;
  }
  out.dims[static_cast<std::size_t>(axis)] = static_cast<std::int32_t>(extent);
  return true;
}

// A binary element-wise op: both operands of one element type, the result their numpy broadcast.
template <class Module>
constexpr shape broadcast_result(Module& m, std::int32_t node_id) {
  const node& n = m.node_at(node_id);
  const shape in = m.tensor_at(n.inputs[0]).dims, other = m.tensor_at(n.inputs[1]).dims;
  shape out{};
  if (!operands_share_type(m, node_id, 2)) return in;
  if (!broadcast(in, other, out)) m.fail({error_code::input_shapes_differ, node_id, n.kind, in, other, {.input_slot = 1}});
  return out;
}

// ONNX's integer ops (layout onnx or onnx_nhwc: QLinearConv writes 8 bits, ConvInteger int32) change the element
// type; every other op keeps its input's (the descriptors that change it say so: ops::result_type).
template <class Module>
constexpr dtype result_type(const Module& m, const node& n) {
  return is_onnx_layout(n.attrs.layout) ? n.attrs.out_type : m.tensor_at(n.inputs[0]).type;
}

}  // namespace ctnn::shape_rules
