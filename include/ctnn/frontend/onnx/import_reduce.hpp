#pragma once
// The ONNX importer's reductions (rows in import_table.hpp): ReduceSum, ReduceMean, ReduceMax, ReduceMin,
// ReduceProd, ReduceSumSquare, ReduceL1, ReduceL2, ReduceLogSum, ReduceLogSumExp, ArgMax, ArgMin, float32
// (ReduceMax and ReduceMin also of bools: any, all), as the row's kind over a mask of axes (ops/reduction.hpp)
// in the input's ONNX layout.
#include <cstdint>

#include <ctnn/frontend/onnx/import_layouts.hpp>
#include <ctnn/frontend/onnx/import_state.hpp>

namespace ctnn::onnx::detail {

// The axes are an attribute before opset 18 (ReduceSum: 13) and an optional constant INT64 input from
// then on; keepdims (default 1); noop_with_empty_axes (with the input form): no axes means the identity
// instead of every axis.
template <class S>
constexpr void import_reduce(S& s, const node_view& n, const operands& o, std::int32_t result) {
  const bool axes_input = s.f.opset() >= (s.current == op_type::ReduceSum ? 13 : 18);
  if (!expect_inputs(s, o, 1, axes_input ? 2 : 1) || !expect_activation(s, o, 0)) return;
  // ReduceMax/ReduceMin of bools (opset 20): any/all, the float32 reduction of the bools as 0 and 1, cast back.
  const bool logical = element_type(s, o.id[0]) == dtype::b8 &&
                       (s.current == op_type::ReduceMax || s.current == op_type::ReduceMin);
  if (element_type(s, o.id[0]) != dtype::f32 && !logical) return s.operand_error(0);
  const shape xs = onnx_shape(s, o.id[0]);
  const bool keep_dims = int_attribute(s, n, "keepdims", 1) != 0;
  const bool empty_is_identity = axes_input && int_attribute(s, n, "noop_with_empty_axes", 0) != 0;
  if (s.failed() || s.take_reader_error()) return;
  std::uint32_t mask = 0;
  std::int64_t count = 0;
  const auto add_axis = [&](std::int64_t axis) {
    if (axis < -xs.rank || axis >= xs.rank) return s.axis_error(axis, xs.rank), false;
    mask |= 1u << (axis < 0 ? axis + xs.rank : axis);
    return true;
  };
  if (axes_input) {
    if (o.count > 1 && o.id[1] >= 0) {
      if (!expect_constant(s, o, 1)) return;
      s.constant_int(o.id[1], 1, 0, count);
      for (std::uint32_t k = 0; k < count && !s.failed(); ++k)
        if (!add_axis(s.constant_int(o.id[1], 1, k, count))) return;
    }
  } else {
    const attribute_view a = s.f.attribute(n, "axes");
    count = a.present() ? s.f.ints_count(a) : 0;
    for (std::uint32_t k = 0; k < count && !s.take_reader_error(); ++k)
      if (!add_axis(s.f.ints_at(a, k))) return;
  }
  if (s.failed() || s.take_reader_error()) return;
  const std::int32_t x = as_onnx(s, o.id[0], 0);
  if (count == 0 && empty_is_identity) return define(s, result, s.reshape(x, {}, s.label_of(result)), false);
  if (count == 0) mask = (1u << xs.rank) - 1u;  // every axis
  op_attributes a{};
  a.mean.reduce_axes = mask;
  a.keep_dims = keep_dims;
  if (!logical) return define(s, result, s.add_node(s.current_kind, a, {x}, s.label_of(result)), false);
  const auto cast = [&](std::int32_t from, dtype to, const name& label) {
    op_attributes c{};
    c.out_type = to;
    return s.add_node(op_kind::cast, c, {from}, label);
  };
  const auto label = [&](std::size_t k) { return numbered("logical_reduce", static_cast<std::size_t>(s.node_index) * 2 + k); };
  const std::int32_t reduced = s.add_node(s.current_kind, a, {cast(x, dtype::f32, label(0))}, label(1));
  define(s, result, cast(reduced, dtype::b8, s.label_of(result)), false);
}

// ArgMax, ArgMin: attributes axis (default 0), keepdims (default 1), select_last_index (default 0); an
// int64 result.
template <class S>
constexpr void import_arg(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 1, 1) || !expect_activation(s, o, 0)) return;
  if (element_type(s, o.id[0]) != dtype::f32) return s.operand_error(0);
  const shape xs = onnx_shape(s, o.id[0]);
  const std::int64_t axis = int_attribute(s, n, "axis", 0);
  op_attributes a{};
  a.keep_dims = int_attribute(s, n, "keepdims", 1) != 0;
  a.mean.select_last = int_attribute(s, n, "select_last_index", 0) != 0 ? 1 : 0;
  a.out_type = dtype::i64;
  if (s.failed() || s.take_reader_error()) return;
  if (axis < -xs.rank || axis >= xs.rank) return s.axis_error(axis, xs.rank);
  a.mean.reduce_axes = 1u << (axis < 0 ? axis + xs.rank : axis);
  const std::int32_t x = as_onnx(s, o.id[0], 0);
  define(s, result, s.add_node(s.current_kind, a, {x}, s.label_of(result)), false);
}

}  // namespace ctnn::onnx::detail
