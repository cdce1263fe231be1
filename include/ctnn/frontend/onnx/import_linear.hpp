#pragma once
// The ONNX importer's windowed and linear ops (import.hpp; rows in import_table.hpp): Conv, ConvTranspose,
// Gemm, MatMul, MaxPool, AveragePool and LpPool.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include <ctnn/frontend/onnx/import_layouts.hpp>

namespace ctnn::onnx::detail {

// The operands of a Conv or ConvTranspose: the activation X (1-D or 2-D: `spatial`), constant weights of rank
// spatial + 2 and an optional constant bias. Sets x (X as a 2-D NHWC input) and ws (the weights, 1-D [O, I, k] as the
// image weights [O, I, 1, k]: the same bytes); false after a diagnostic.
template <class S>
constexpr bool windowed_weights_operands(S& s, const operands& o, std::uint32_t& spatial, std::int32_t& x, shape& ws) {
  if (!expect_inputs(s, o, 2, 3) || !expect_activation(s, o, 0) || !expect_constant(s, o, 1)) return false;
  if (o.count > 2 && o.id[2] >= 0 && !expect_constant(s, o, 2)) return false;
  spatial = 2;
  x = windowed_input(s, o.id[0], 0, spatial);
  const shape stored = s.constant_shape(o.id[1]);
  if (s.failed() || x < 0) return false;
  if (stored.rank != static_cast<std::int32_t>(spatial) + 2) return s.operand_error(1), false;
  ws = spatial == 1 ? make_shape(stored[0], stored[1], 1, stored[2]) : stored;
  return true;
}

// Operand A of Gemm and MatMul: an activation or a float32 constant (torch's LSTMCell/GRUCell unrolled from
// zero states: the first step's Gemm reads the zero state, a constant); a constant A's product is computed at
// compile time (fold_constants).
template <class S>
constexpr bool expect_matrix_a(S& s, const operands& o) {
  if (o.id[0] >= 0 && (!s.is_constant(o.id[0]) || element_type(s, o.id[0]) == dtype::f32)) return true;
  if (!s.failed()) s.operand_error(0);
  return false;
}

template <class S>
constexpr void import_conv(S& s, const node_view& n, const operands& o, std::int32_t result) {
  std::uint32_t spatial = 2;
  std::int32_t x = -1;
  shape ws{};
  if (!windowed_weights_operands(s, o, spatial, x, ws)) return;
  const shape in = s.m.tensor_at(x).dims;
  const std::int32_t units = ws[0], per_group = ws[1], kh = ws[2], kw = ws[3];
  const std::int64_t group = int_attribute(s, n, "group", 1);
  std::array<std::int64_t, 4> kernel{};
  if (!ints_attribute(s, n, "kernel_shape", attribute::kernel_shape, spatial, -1, kernel)) return;
  if (spatial == 1) kernel = {-1, kernel[0], 0, 0};
  if ((kernel[0] != -1 && kernel[0] != kh) || (kernel[1] != -1 && kernel[1] != kw))
    return s.attribute_error(attribute::kernel_shape, kernel[0] != -1 && kernel[0] != kh ? kernel[0] : kernel[1]);
  if (group < 1 || group > in[3]) return s.attribute_error(attribute::group, group);
  op_attributes a{};
  if (!read_window(s, n, in, kh, kw, a.win, spatial)) return;
  const std::int64_t taps = static_cast<std::int64_t>(kh) * kw;
  std::int32_t weights = -1;
  const bool depthwise = group > 1 && group == in[3] && per_group == 1;
  const op_kind kind = depthwise ? op_kind::depthwise_conv2d : op_kind::conv2d;
  if (depthwise) {
    // Depthwise: [C*M, 1, kh, kw] -> [1, kh, kw, C*M] (output channel c*M + m in both).
    a.depth_multiplier = units % in[3] == 0 ? units / in[3] : 1;
    weights = s.gathered(o.id[1], 1, make_shape(1, kh, kw, units), {0, kw, 1, taps}, 1.0f);
  } else {
    // OIHW -> OHWI.
    a.groups = static_cast<std::int32_t>(group);
    a.units = units;
    weights = s.gathered(o.id[1], 1, make_shape(units, kh, kw, per_group), {per_group * taps, kw, 1, taps}, 1.0f);
  }
  const std::int32_t bias =
      o.count > 2 && o.id[2] >= 0 ? s.gathered(o.id[2], 2, make_shape(units), {1, 0, 0, 0}, 1.0f) : -1;
  if (bias >= 0 && s.constant_shape(o.id[2]).elements() != units) return s.operand_error(2);
  define(s, result, s.add_node(kind, a, {x, weights, bias}, s.label_of(result)), true, spatial == 1);
}

// Python's floor division by 2 (ONNX's reference splits a negative total padding with it).
constexpr std::int64_t floor_half(std::int64_t v) { return v >= 0 ? v / 2 : -((1 - v) / 2); }

// ConvTranspose (float32): NCHW (1-D: NCL) data, constant weights [C_in, C_out / group, k...] re-laid out as
// transpose_conv2d's [C_out, kh, kw, C_in / group] (a gather of one stride per dim; several input and output
// channels per group through the view [group, C_out / group, kh * kw, C_in / group]), the optional bias. pads,
// output_padding, output_shape and auto_pad become the leading pads and the result's extents as ONNX's
// reference computes them: auto_pad SAME_* without pads splits the total padding that gives output_shape
// (default: input * stride), the odd one at the end (SAME_UPPER) or the start; otherwise the pads as given, and
// output_shape, when given, only sets the extents.
template <class S>
constexpr void import_conv_transpose(S& s, const node_view& n, const operands& o, std::int32_t result) {
  std::uint32_t spatial = 2;
  std::int32_t x = -1;
  shape ws{};
  if (!windowed_weights_operands(s, o, spatial, x, ws)) return;
  const shape in = s.m.tensor_at(x).dims;
  const std::int64_t group = int_attribute(s, n, "group", 1);
  if (group < 1 || group > in[3] || in[3] % group != 0) return s.attribute_error(attribute::group, group);
  if (ws[0] != in[3]) return s.operand_error(1);
  const std::int32_t in_per_group = in[3] / static_cast<std::int32_t>(group), out_per_group = ws[1];
  if (static_cast<std::int64_t>(out_per_group) * group > max_window_value) return s.operand_error(1);
  const std::int32_t kh = ws[2], kw = ws[3], units = out_per_group * static_cast<std::int32_t>(group);
  std::array<std::int64_t, 4> kernel{}, output_padding{}, output_shape{};
  if (!ints_attribute(s, n, "kernel_shape", attribute::kernel_shape, spatial, -1, kernel) ||
      !ints_attribute(s, n, "output_padding", attribute::output_padding, spatial, 0, output_padding) ||
      !ints_attribute(s, n, "output_shape", attribute::output_shape, spatial, -1, output_shape))
    return;
  if (spatial == 1) {  // the image of height 1
    kernel = {-1, kernel[0], 0, 0};
    output_padding = {0, output_padding[0], 0, 0};
    output_shape = {-1, output_shape[0], 0, 0};
  }
  if ((kernel[0] != -1 && kernel[0] != kh) || (kernel[1] != -1 && kernel[1] != kw))
    return s.attribute_error(attribute::kernel_shape, kernel[0] != -1 && kernel[0] != kh ? kernel[0] : kernel[1]);
  op_attributes a{};
  if (!read_window(s, n, in, kh, kw, a.win, spatial)) return;
  const std::string_view mode = s.f.string_attribute(s.f.attribute(n, "auto_pad"), "NOTSET");
  const bool same = (mode == "SAME_UPPER" || mode == "SAME_LOWER") && !s.f.attribute(n, "pads").present();
  if (s.take_reader_error()) return;
  window& w = a.win;
  std::array<std::int32_t*, 2> begin{&w.pad_top, &w.pad_left}, end{&w.pad_bottom, &w.pad_right};
  std::array<std::int32_t, 2> extent{};
  for (std::size_t axis = 0; axis < 2; ++axis) {
    const std::int64_t input = in[static_cast<std::int32_t>(axis) + 1];
    const std::int64_t stride = axis == 0 ? w.stride_h : w.stride_w, dilation = axis == 0 ? w.dilation_h : w.dilation_w;
    const std::int64_t taps = axis == 0 ? kh : kw;
    if (output_padding[axis] < 0 || output_padding[axis] > max_window_value)
      return s.attribute_error(attribute::output_padding, output_padding[axis]);
    const std::int64_t full = stride * (input - 1) + output_padding[axis] + (taps - 1) * dilation + 1;
    if (full > (std::int64_t{1} << 31) - 1) return s.attribute_error(attribute::strides, stride);  // the pads stay int32
    std::int64_t out = output_shape[axis], lead = *begin[axis];
    if (same) {
      if (out < 0) out = input * stride;
      const std::int64_t total = full - out;
      lead = mode == "SAME_UPPER" ? floor_half(total) : total - floor_half(total);
    } else if (out < 0) {
      out = full - *begin[axis] - *end[axis];
    }
    if (out < 1 || out > max_window_value) return s.attribute_error(attribute::output_shape, out);
    if (lead < -max_window_value || lead > max_window_value) return s.attribute_error(attribute::pads, lead);
    *begin[axis] = static_cast<std::int32_t>(lead);
    *end[axis] = static_cast<std::int32_t>(full - out - lead);
    extent[axis] = static_cast<std::int32_t>(out);
  }
  const std::int64_t taps = static_cast<std::int64_t>(kh) * kw;
  // [C_in, C_out / group, kh, kw] -> [C_out, kh, kw, C_in / group]: output channel oc of group g is column
  // oc - g * out_per_group of the rows of g's input channels.
  std::array<std::int64_t, 4> strides{taps, kw, 1, out_per_group * taps};
  shape gather = make_shape(units, kh, kw, in_per_group);
  if (out_per_group == 1) {
    strides = {in_per_group * taps, kw, 1, taps};
  } else if (group != 1 && in_per_group != 1) {
    // Several input and output channels per group: gathered as [group, out_per_group, kh * kw, in_per_group]
    // (the same elements in the same order), one stride per dim.
    gather = make_shape(static_cast<std::int32_t>(group), out_per_group, kh * kw, in_per_group);
    strides = {in_per_group * out_per_group * taps, taps, 1, out_per_group * taps};
  }
  const std::int32_t weights = s.gathered(o.id[1], 1, gather, strides, 1.0f);
  if (weights >= 0) s.m.tensor_at(weights).dims = make_shape(units, kh, kw, in_per_group);
  const std::int32_t bias =
      o.count > 2 && o.id[2] >= 0 ? s.gathered(o.id[2], 2, make_shape(units), {1, 0, 0, 0}, 1.0f) : -1;
  if (bias >= 0 && s.constant_shape(o.id[2]).elements() != units) return s.operand_error(2);
  a.groups = static_cast<std::int32_t>(group);
  a.units = units;
  a.target = make_shape(in[0], extent[0], extent[1], units);
  define(s, result, s.add_node(s.current_kind, a, {x, weights, bias}, s.label_of(result)), true, spatial == 1);  // transpose_conv2d
}

// Gemm: Y = alpha * A' * B' + beta * C, A [M, K] (transA: [K, M], transposed), B and C constant.
template <class S>
constexpr void import_gemm(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 2, 3) || !expect_matrix_a(s, o) || !expect_constant(s, o, 1)) return;
  if (o.count > 2 && o.id[2] >= 0 && !expect_constant(s, o, 2)) return;
  const float alpha = float_attribute(s, n, "alpha", 1.0f), beta = float_attribute(s, n, "beta", 1.0f);
  const std::int64_t trans_a = int_attribute(s, n, "transA", 0), trans_b = int_attribute(s, n, "transB", 0);
  if (s.take_reader_error()) return;
  std::int32_t x = as_onnx(s, o.id[0], 0);
  const shape bs = s.constant_shape(o.id[1]);
  if (s.failed()) return;
  if (s.m.tensor_at(x).dims.rank != 2) return s.rank_error(0, s.m.tensor_at(x).dims);
  if (trans_a != 0)
    x = s.transpose(x, std::array<std::int32_t, 2>{1, 0}, numbered("gemm_a", static_cast<std::size_t>(s.node_index)));
  if (s.failed()) return;
  const shape in = s.m.tensor_at(x).dims;
  if (bs.rank != 2) return s.operand_error(1);
  const std::int32_t k = in[1];
  const std::int32_t units = trans_b != 0 ? bs[0] : bs[1];
  if ((trans_b != 0 ? bs[1] : bs[0]) != k) return s.operand_error(1);
  // Weights [N][K]: B is [N, K] with transB, else [K, N].
  const std::int32_t weights = trans_b != 0 ? s.gathered(o.id[1], 1, make_shape(units, k), {k, 1, 0, 0}, alpha)
                                            : s.gathered(o.id[1], 1, make_shape(units, k), {1, units, 0, 0}, alpha);
  std::int32_t bias = -1, matrix = -1;
  if (o.count > 2 && o.id[2] >= 0) {
    const shape cs = s.constant_shape(o.id[2]);
    const std::int64_t elements = cs.elements();
    const bool per_row = cs.rank == 2 && cs[0] == in[0] && in[0] != 1 && cs[1] == units;
    // C broadcasts to [M, N]: one value, or N values ([N] or [1, N]) as the bias; a full [M, N] is added.
    if (per_row) {
      matrix = s.gathered(o.id[2], 2, make_shape(in[0], units), {units, 1, 0, 0}, beta);
    } else {
      if (elements != 1 && (elements != units || (cs.rank == 2 && cs[0] != 1) || cs.rank > 2))
        return s.operand_error(2);
      bias = s.gathered(o.id[2], 2, make_shape(units), {elements == 1 && units != 1 ? 0 : 1, 0, 0, 0}, beta);
    }
  }
  op_attributes a{};
  a.units = units;
  if (matrix < 0)
    return define(s, result, s.add_node(op_kind::dense, a, {x, weights, bias}, s.label_of(result)), false);
  const std::int32_t product =
      s.add_node(op_kind::dense, a, {x, weights, -1}, numbered("gemm", static_cast<std::size_t>(s.node_index)));
  define(s, result, s.add_node(op_kind::add, {}, {product, matrix}, s.label_of(result)), false);
}

// numpy's matmul result shape for A and B of rank >= 1 (a 1-D operand is promoted to a matrix, and its
// promoted dim dropped): the batch dims broadcast, then [M, N]. A scalar result is [1].
constexpr shape matmul_shape(const shape& a, const shape& b) {
  const shape a2 = a.rank == 1 ? make_shape(1, a[0]) : a, b2 = b.rank == 1 ? make_shape(b[0], 1) : b;
  shape out{};
  shape_rules::broadcast(matrix_batch(a2), matrix_batch(b2), out);
  if (a.rank > 1) out.dims[static_cast<std::size_t>(out.rank++)] = a2.at(-2);
  if (b.rank > 1) out.dims[static_cast<std::size_t>(out.rank++)] = b2.last();
  return out.rank == 0 ? make_shape(1) : out;
}

// MatMul as batch_matmul of A (IR tensor x, ONNX layout) and B (an activation, or a constant as stored):
// 1-D operands become [1, K] and [K, 1], and the result is reshaped to numpy's shape.
template <class S>
constexpr void batch_matmul(S& s, const operands& o, std::int32_t result, std::int32_t x, const shape& bs) {
  const std::int32_t y = as_onnx(s, o.id[1], 1);
  if (s.failed() || x < 0 || y < 0) return;
  const shape as = s.m.tensor_at(x).dims;
  if (as.rank < 1 || bs.rank < 1) return s.rank_error(as.rank < 1 ? 0 : 1, as.rank < 1 ? as : bs);
  const bool vector_a = as.rank == 1, vector_b = bs.rank == 1;
  const std::int32_t a =
      vector_a ? s.reshape(x, make_shape(1, as[0]), numbered("matmul_row", static_cast<std::size_t>(s.node_index))) : x;
  const std::int32_t b =
      vector_b ? s.reshape(y, make_shape(bs[0], 1), numbered("matmul_column", static_cast<std::size_t>(s.node_index)))
               : y;
  const bool reshaped = vector_a || vector_b;
  const std::int32_t product =
      s.add_node(s.current_kind, {}, {a, b},  // the MatMul row's: batch_matmul
                 reshaped ? numbered("matmul", static_cast<std::size_t>(s.node_index)) : s.label_of(result));
  define(s, result, reshaped ? s.reshape(product, matmul_shape(as, bs), s.label_of(result)) : product, false);
}

// MatMul (numpy's matmul). A constant B [K, N] or [K]: a dense layer on A flattened to [rows, K]; any
// other B (an activation, or a constant of rank 3 or 4): batch_matmul.
template <class S>
constexpr void import_matmul(S& s, const node_view&, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 2, 2) || !expect_matrix_a(s, o)) return;
  const std::int32_t x = as_onnx(s, o.id[0], 0);
  const shape bs = onnx_shape(s, o.id[1]);
  if (s.failed()) return;
  if (!s.is_constant(o.id[1]) || bs.rank > 2) return batch_matmul(s, o, result, x, bs);
  const shape in = s.m.tensor_at(x).dims;
  // B [K, N], or a vector [K] (one column, whose dim the result drops).
  if (bs.rank < 1 || in.rank < 1 || in.at(-1) != bs[0]) return s.operand_error(1);
  const std::int32_t k = bs[0], units = bs.rank == 2 ? bs[1] : 1;
  const std::int32_t weights = s.gathered(o.id[1], 1, make_shape(units, k), {1, units, 0, 0}, 1.0f);
  op_attributes a{};
  a.units = units;
  if (in.rank == 2 && bs.rank == 2)
    return define(s, result, s.add_node(op_kind::dense, a, {x, weights, -1}, s.label_of(result)), false);
  const auto rows = static_cast<std::int32_t>(in.elements() / k);
  const std::int32_t flat =
      s.reshape(x, make_shape(rows, k), numbered("matmul_rows", static_cast<std::size_t>(s.node_index)));
  const std::int32_t product =
      s.add_node(op_kind::dense, a, {flat, weights, -1}, numbered("matmul", static_cast<std::size_t>(s.node_index)));
  define(s, result, s.reshape(product, matmul_shape(in, bs), s.label_of(result)), false);
}

// ceil_mode's end padding along one dim: the output gets ceil((in + pads - window) / stride) + 1
// windows, less the last when it would start past the input and its leading pads.
// `limit`: where (from the start of the leading pads) the input ends.
constexpr void ceil_padding(std::int32_t in, std::int32_t kernel, std::int32_t stride, std::int32_t dilation,
                            std::int32_t before, std::int32_t& after, std::int32_t limit) {
  const std::int32_t span = (kernel - 1) * dilation + 1;
  const std::int32_t room = in + before + after - span;
  if (room < 0 || room % stride == 0) return;
  const std::int32_t last_start = (room / stride + 1) * stride;
  if (last_start >= limit) return;
  after += last_start + span - (in + before + after);
}

template <class S>
constexpr void import_pool(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 1, 1) || !expect_activation(s, o, 0)) return;
  std::uint32_t spatial = 2;
  const std::int32_t x = windowed_input(s, o.id[0], 0, spatial);
  if (s.failed() || x < 0) return;
  const shape in = s.m.tensor_at(x).dims;
  std::array<std::int64_t, 4> kernel{};
  if (!ints_attribute(s, n, "kernel_shape", attribute::kernel_shape, spatial, -1, kernel)) return;
  if (spatial == 1) kernel = {1, kernel[0], 0, 0};
  op_attributes a{};
  if (!read_window(s, n, in, kernel[0], kernel[1], a.win, spatial)) return;
  const bool average = s.current == op_type::AveragePool, lp = s.current == op_type::LpPool;
  const bool ceil_mode = int_attribute(s, n, "ceil_mode", 0) != 0;
  if (lp) {  // LpPool's p: a float before opset 2, then an integer (default 2); an integer >= 1 is read
    const float p = s.f.opset() < 2 ? float_attribute(s, n, "p", 2.0f) : static_cast<float>(int_attribute(s, n, "p", 2));
    if (s.take_reader_error()) return;
    if (!(p >= 1.0f && p <= 1024.0f) || static_cast<float>(static_cast<std::int32_t>(p)) != p)
      return s.attribute_error(attribute::p, p > -1e18f && p < 1e18f ? static_cast<std::int64_t>(p) : std::int64_t{-1});  // NaN, huge: -1
    a.coefficients.alpha_bits = std::bit_cast<std::uint32_t>(p);
  }
  const bool include_pad = average && int_attribute(s, n, "count_include_pad", 0) != 0 &&
                           (a.win.pad_top | a.win.pad_left | a.win.pad_bottom | a.win.pad_right) != 0;
  if (s.take_reader_error()) return;
  std::int32_t source = x;
  shape extent = in;
  const std::int32_t input_end_h = a.win.pad_top + in[1], input_end_w = a.win.pad_left + in[2];
  if (include_pad) {
    // ctnn's average divides by the in-bounds count: count_include_pad pads with zeros first (a Pad op),
    // then pools without pads.
    pad_fields zeros{};
    zeros.before_after[2] = a.win.pad_top, zeros.before_after[3] = a.win.pad_bottom;
    zeros.before_after[4] = a.win.pad_left, zeros.before_after[5] = a.win.pad_right;
    source = s.pad(x, zeros, numbered("pool_pads", static_cast<std::size_t>(s.node_index)));
    if (source < 0) return;
    extent = s.m.tensor_at(source).dims;
    a.win.pad_top = a.win.pad_left = a.win.pad_bottom = a.win.pad_right = 0;
  }
  if (ceil_mode) {
    // The ceil's extra output (a window that starts inside the input or its leading pads): more padding at
    // the end, which pooling ignores (max) or does not count (average), as ONNX does.
    const window& w = a.win;
    ceil_padding(extent[1], w.kernel_h, w.stride_h, w.dilation_h, w.pad_top, a.win.pad_bottom, input_end_h);
    ceil_padding(extent[2], w.kernel_w, w.stride_w, w.dilation_w, w.pad_left, a.win.pad_right, input_end_w);
  }
  const op_kind kind = lp ? s.current_kind : average ? op_kind::avg_pool : op_kind::max_pool;  // LpPool's row: lp_pool
  define(s, result, s.add_node(kind, a, {source}, s.label_of(result)), true, spatial == 1);
}

}  // namespace ctnn::onnx::detail
