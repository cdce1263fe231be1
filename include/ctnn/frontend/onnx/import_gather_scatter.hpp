#pragma once
// The ONNX importer's gather/scatter family (import_table.hpp's rows): Gather, GatherND (ops/gather_nd.hpp), CumSum
// (ops/cumsum.hpp), ScatterND (ops/scatter_nd.hpp), ReverseSequence (ops/reverse_sequence.hpp), ConstantOfShape (a constant tile, which fold_constants computes at compile time)
// and GatherElements (ops/gather_elements.hpp).
#include <array>
#include <cstdint>
#include <string_view>

#include <ctnn/frontend/onnx/import_elementwise.hpp>
#include <ctnn/frontend/onnx/import_known.hpp>
#include <ctnn/frontend/onnx/import_layouts.hpp>
#include <ctnn/frontend/onnx/import_shape_ops.hpp>

namespace ctnn::onnx::detail {

// GatherND: the data an activation, the indices computed (int32 or int64: a gather_nd node,
// ops/gather_nd.hpp, any batch_dims) or, with batch_dims 0, a constant INT64 tensor, read at import (each component in [-dim, dim), as
// ONNX requires): a slice per tuple (at most max_node_inputs of them), concatenated and reshaped to the
// result's shape indices[:-1] + data[tuple length:] (a constant's bytes are not read in place: an INT64
// tensor's raw data need not be aligned).
template <class S>
constexpr void import_gather_nd(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 2, 2) || !expect_activation(s, o, 0)) return;
  const std::int64_t batch_dims = int_attribute(s, n, "batch_dims", 0);
  if (s.failed() || s.take_reader_error()) return;
  const shape xs = onnx_shape(s, o.id[0]);
  if (batch_dims < 0 || batch_dims >= xs.rank) return s.attribute_error(attribute::batch_dims, batch_dims);
  const std::int32_t x = as_onnx(s, o.id[0], 0);
  const name label = s.label_of(result);
  if (!s.is_constant(o.id[1])) {
    op_attributes a{};
    a.axis = static_cast<std::int32_t>(batch_dims);
    return define(s, result, s.add_node(s.current_kind, a, {x, as_onnx(s, o.id[1], 1)}, label), false);
  }
  if (batch_dims != 0) return s.attribute_error(attribute::batch_dims, batch_dims);
  const shape is = s.constant_shape(o.id[1]);
  std::int64_t count = 0;
  s.constant_int(o.id[1], 1, 0, count);
  if (s.failed()) return;
  const std::int32_t tuple = is.rank > 0 ? is[is.rank - 1] : 0;
  if (tuple < 1 || tuple > xs.rank || count / tuple > static_cast<std::int64_t>(max_node_inputs)) return s.operand_error(1);
  shape part{}, out{};  // a tuple's slice [1] + data[tuple:], and the result's shape
  part.rank = 1 + xs.rank - tuple;
  out.rank = is.rank - 1 + xs.rank - tuple;
  if (out.rank > static_cast<std::int32_t>(max_rank)) return s.fail(onnx_error::rank_too_high, {.rank_actual = out.rank});
  part.dims[0] = 1;
  for (std::int32_t d = tuple; d < xs.rank; ++d) part.dims[static_cast<std::size_t>(1 + d - tuple)] = xs[d];
  for (std::int32_t d = 0; d < out.rank; ++d)
    out.dims[static_cast<std::size_t>(d)] = d < is.rank - 1 ? is[d] : xs[d - (is.rank - 1) + tuple];
  std::array<std::int32_t, max_node_inputs> parts{};
  const auto tuples = static_cast<std::uint32_t>(count / tuple);
  for (std::uint32_t t = 0; t < tuples && !s.failed(); ++t) {
    op_attributes a{};
    a.slice = slice_fields::whole(xs);
    for (std::int32_t d = 0; d < tuple; ++d) {
      const std::uint32_t k = t * static_cast<std::uint32_t>(tuple) + static_cast<std::uint32_t>(d);
      const std::int64_t at = s.constant_int(o.id[1], 1, k, count), dim = xs[d];
      if (at < -dim || at >= dim) return s.operand_value_error(1, k, at);
      a.slice.begin[static_cast<std::size_t>(d)] = static_cast<std::int32_t>(at < 0 ? at + dim : at);
      a.slice.extent[static_cast<std::size_t>(d)] = 1;
    }
    a.target = part;
    parts[t] = s.add_node(op_kind::slice, a, {x}, label);
  }
  if (s.failed()) return;
  define_reshaped(s, result, tuples == 1 ? parts[0] : s.concat(parts, tuples, 0, label), out);
}

// ScatterND's and ScatterElements' reduction attribute (none, add, mul, max or min; the reductions on float32,
// int32 or int64 data) as an ops::scatter_reduction; -1 after a diagnostic.
template <class S>
constexpr std::int32_t scatter_reduction_of(S& s, const node_view& n, dtype data) {
  const std::string_view given = s.f.string_attribute(s.f.attribute(n, "reduction"), "none");
  if (s.take_reader_error()) return -1;
  constexpr std::array<std::string_view, 5> names{"none", "add", "mul", "max", "min"};
  std::int32_t reduction = -1;
  for (std::size_t k = 0; k < names.size(); ++k)
    if (given == names[k]) reduction = static_cast<std::int32_t>(k);
  if (reduction < 0 || (reduction != 0 && data != dtype::f32 && data != dtype::i32 && data != dtype::i64))
    return s.string_attribute_error(n, "reduction", attribute::reduction), -1;
  return reduction;
}

// ReverseSequence (batch_axis and time_axis 0 and 1, either way round): the data an activation, the
// sequence_lens a computed INT64 tensor (a constant one is not read in place: an INT64 tensor's raw data need
// not be aligned). A reverse_sequence node (ops/reverse_sequence.hpp), in the ONNX layout.
template <class S>
constexpr void import_reverse_sequence(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 2, 2) || !expect_activation(s, o, 0) || !expect_activation(s, o, 1)) return;
  const std::int64_t batch_axis = int_attribute(s, n, "batch_axis", 1), time_axis = int_attribute(s, n, "time_axis", 0);
  if (s.failed() || s.take_reader_error()) return;
  if (time_axis != 0 && time_axis != 1) return s.attribute_error(attribute::time_axis, time_axis);
  if (batch_axis != 1 - time_axis) return s.attribute_error(attribute::batch_axis, batch_axis);
  op_attributes a{};
  a.axis = static_cast<std::int32_t>(time_axis);
  define(s, result, s.add_node(s.current_kind, a, {as_onnx(s, o.id[0], 0), as_onnx(s, o.id[1], 1)}, s.label_of(result)), false);
}

// A constant integer scalar (one element, INT32 or INT64: CumSum's axis), read at import; a failure names
// operand `slot`.
template <class S>
constexpr std::int64_t constant_integer_scalar(S& s, std::int32_t v, std::uint32_t slot) {
  if (s.is_known(v))
    return s.known_of(v).dims.elements() != 1 || s.known_of(v).type == dtype::b8 ? (s.operand_error(slot), 0) : s.known_at(v, 0);
  const tensor_view t = s.f.read_tensor(s.at(v).proto);
  if (s.take_reader_error() || !s.checked_tensor(v, t)) return 0;
  if (t.dims.elements() != 1) return s.operand_error(slot), 0;
  std::int64_t count = 0;
  if (t.type == data_type::int64) return s.constant_int(v, slot, 0, count);
  if (t.type != data_type::int32) return s.operand_error(slot), 0;
  if (t.data_field == schema::tensor::raw_data) {
    if (t.data.length != 4) return s.malformed(t.proto.at, protobuf::expectation::tensor_data), 0;
    return static_cast<std::int32_t>(s.f.reader().load_u32(t.data.at));
  }
  const auto bits = s.f.reader().repeated_at(t.proto, schema::tensor::int32_data, protobuf::wire::varint, 0);
  s.take_reader_error();
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(bits));
}

// CumSum (exclusive, reverse: 0 or 1), the axis a constant INT32 or INT64 scalar in [-rank, rank); float32,
// int32 or int64 elements, in the ONNX layout.
template <class S>
constexpr void import_cumsum(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 2, 2) || !expect_activation(s, o, 0) || !expect_constant(s, o, 1)) return;
  const shape xs = onnx_shape(s, o.id[0]);
  const std::int64_t axis = constant_integer_scalar(s, o.id[1], 1);
  const std::int64_t exclusive = int_attribute(s, n, "exclusive", 0), reverse = int_attribute(s, n, "reverse", 0);
  if (s.failed() || s.take_reader_error()) return;
  if (axis < -xs.rank || axis >= xs.rank) return s.axis_error(axis, xs.rank);
  if (exclusive != 0 && exclusive != 1) return s.attribute_error(attribute::exclusive, exclusive);
  if (reverse != 0 && reverse != 1) return s.attribute_error(attribute::reverse, reverse);
  op_attributes a{};
  a.axis = static_cast<std::int32_t>(axis < 0 ? axis + xs.rank : axis);
  a.set(cumsum_fields{static_cast<std::int32_t>(exclusive), static_cast<std::int32_t>(reverse)});
  define(s, result, s.add_node(s.current_kind, a, {as_onnx(s, o.id[0], 0)}, s.label_of(result)), false);
}

// ConstantOfShape: the shape a constant INT64 vector (extents >= 1), the value attribute a FLOAT, INT64 or INT32
// tensor of one element (an absent value, float 0, has no bytes to read: refused, as other types are). A FLOAT
// value reshaped to unit extents and tiled: a constant op that fold_constants computes at compile time (a graph
// output stays an op); an integer one a known value (import_known.hpp: the shapes exports compute).
template <class S>
constexpr void import_constant_of_shape(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 1, 1) || !expect_constant(s, o, 0)) return;
  std::int64_t count = 0;
  s.constant_int(o.id[0], 0, 0, count);
  if (s.failed()) return;
  if (s.constant_shape(o.id[0]).rank != 1 || count > static_cast<std::int64_t>(max_rank)) return s.operand_error(0);
  shape out{}, unit{};
  out.rank = unit.rank = static_cast<std::int32_t>(count);
  for (std::int32_t d = 0; d < out.rank; ++d) {
    const std::int64_t extent = s.constant_int(o.id[0], 0, static_cast<std::uint32_t>(d), count);
    if (extent < 1 || extent > (std::int64_t{1} << 24)) return s.operand_value_error(0, d, extent);
    out.dims[static_cast<std::size_t>(d)] = static_cast<std::int32_t>(extent);
    unit.dims[static_cast<std::size_t>(d)] = 1;
  }
  if (s.pass_too_large(out)) return s.operand_error(0);
  const attribute_view given = s.f.attribute(n, "value");
  const protobuf::span proto = given.present() ? s.f.tensor_attribute(given) : protobuf::span{};
  if (s.take_reader_error()) return;
  if (!given.present()) return s.attribute_error(attribute::value, -1);
  const tensor_view t = s.f.read_tensor(proto);
  if (s.take_reader_error()) return;
  const bool integers = t.type == data_type::int64 || t.type == data_type::int32;
  if ((t.type != data_type::float32 && !integers) || t.dims.elements() != 1) return s.attribute_error(attribute::value, static_cast<std::int64_t>(t.type));
  const std::int32_t v = s.hidden_value(result);
  if (v < 0) return;
  s.at(v).kind = value_kind::constant;
  s.at(v).proto = proto;
  // An integer fill: a known value (import_known.hpp), read where shapes and indices are read.
  if (integers) return known_filled(s, result, v, out);
  const std::int32_t value = as_onnx(s, v, 0);
  const name label = s.label_of(result);
  if (out.rank == 0) return define_reshaped(s, result, value, out);
  op_attributes a{};
  a.target = out;
  define(s, result, s.add_node(s.current_kind, a, {s.reshape(value, unit, label)}, label), false);  // the row's: tile
}

// An INT32 or INT64 operand of indices as an IR tensor of its own type: computed, or a constant (a known
// value or one of at most max_known_elements elements: copied at import, so that an unaligned INT64
// initializer is read as well; a larger one read in place, which needs aligned raw data).
template <class S>
constexpr std::int32_t index_operand(S& s, std::int32_t v, std::uint32_t slot) {
  if (!s.is_constant(v)) return as_onnx(s, v, slot);
  if (s.at(v).onnx_layout >= 0) return s.at(v).onnx_layout;
  if (!s.is_known(v) && foldable(s, v)) {
    known_operand indices{};
    const std::int32_t copy = s.hidden_value(v);
    if (copy < 0 || !read_known(s, v, slot, indices) || indices.type == dtype::b8) return s.failed() ? -1 : (s.operand_error(slot), -1);
    if (!define_known(s, copy, indices)) return -1;
    return s.at(v).onnx_layout = as_onnx(s, copy, slot);
  }
  if (s.failed()) return -1;
  if (s.is_known(v)) return s.known_of(v).type == dtype::b8 ? (s.operand_error(slot), -1) : as_onnx(s, v, slot);
  const tensor_view t = s.f.read_tensor(s.at(v).proto);
  if (s.take_reader_error()) return -1;
  if (t.type != data_type::int64 && t.type != data_type::int32) return s.operand_type_error(slot, data_type::int64), -1;
  return s.at(v).onnx_layout = integer_constant(s, v, slot, dtype_of(t.type));
}

// GatherElements (opset 11, 13): `axis` in [-rank, rank), the data any tensor of ctnn's types (a constant:
// float32), the indices INT32 or INT64 of the data's rank, computed or constant (index_operand). A
// gather_elements node (ops/gather_elements.hpp), in the ONNX layout; an index outside the axis at run time
// reads 0.
template <class S>
constexpr void import_gather_elements(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 2, 2)) return;
  const shape xs = onnx_shape(s, o.id[0]);
  const std::int64_t axis = int_attribute(s, n, "axis", 0);
  if (s.failed() || s.take_reader_error()) return;
  if (axis < -xs.rank || axis >= xs.rank) return s.axis_error(axis, xs.rank);
  const std::int32_t x = as_onnx(s, o.id[0], 0), indices = x < 0 ? -1 : index_operand(s, o.id[1], 1);
  if (s.failed() || indices < 0) return;
  op_attributes a{};
  a.axis = static_cast<std::int32_t>(axis < 0 ? axis + xs.rank : axis);
  define(s, result, s.add_node(s.current_kind, a, {x, indices}, s.label_of(result)), false);
}

// Whether constant indices (a known value, a foldable constant, or a larger INT64 one of raw data) all lie in
// [-dim, dim), dim_of(k) the extent element k indexes; an index outside is refused, naming the operand, the
// element and its value (ONNX calls it an error, and the kernel would skip it). Computed indices, and other
// larger constants, are checked by the kernel at run time.
template <class S, class DimOf>
constexpr bool constant_indices_inside(S& s, std::int32_t v, std::uint32_t slot, DimOf dim_of) {
  if (!s.is_constant(v)) return true;
  const auto inside = [&](std::int64_t k, std::int64_t at) {
    const std::int64_t dim = dim_of(k);
    return at >= -dim && at < dim ? true : (s.operand_value_error(slot, k, at), false);
  };
  if (foldable(s, v)) {
    known_operand indices{};
    if (!read_known(s, v, slot, indices)) return false;
    for (std::int64_t k = 0; k < indices.dims.elements(); ++k)
      if (!inside(k, indices.at(k))) return false;
    return true;
  }
  if (s.failed()) return false;
  const tensor_view t = s.f.read_tensor(s.at(v).proto);
  if (s.take_reader_error() || t.type != data_type::int64 || t.data_field != schema::tensor::raw_data) return !s.failed();
  std::int64_t count = 1;
  for (std::int64_t k = 0; k < count && !s.failed(); ++k)
    if (!inside(k, s.constant_int(v, slot, static_cast<std::uint32_t>(k), count))) return false;
  return !s.failed();
}

// Gather along `axis` (default 0). Computed indices (int32 or int64, in their ONNX layout) make a gather node,
// whose kernel counts a negative index from the end. Constant INT64 indices (each in [-dim, dim), as ONNX
// requires) are read at import: up to max_node_inputs of them, a slice per index, concatenated along the
// axis and reshaped to the result's shape; more (PyTorch's F.unfold gathers rows and columns by a [kernel,
// positions] grid of known integers; x[:, idx] with a longer index list) make a gather node that reads
// them as a constant tensor (index_operand: copied at import, an INT64 tensor's raw data need not be aligned).
template <class S>
constexpr void import_gather(S& s, const node_view& n, const operands& o, std::int32_t result) {
  // The data may be a constant (an embedding table: PyTorch's Embedding) read by computed indices.
  if (!expect_inputs(s, o, 2, 2)) return;
  const shape xs = onnx_shape(s, o.id[0]);
  const shape is = onnx_shape(s, o.id[1]);
  std::int64_t axis = int_attribute(s, n, "axis", 0);
  if (s.failed() || s.take_reader_error()) return;
  if (axis < 0) axis += xs.rank;
  if (axis < 0 || axis >= xs.rank) return s.axis_error(axis, xs.rank);
  const std::int32_t x = as_onnx(s, o.id[0], 0);
  op_attributes attrs{};
  attrs.axis = static_cast<std::int32_t>(axis);
  const name label = s.label_of(result);
  if (!s.is_constant(o.id[1])) return define(s, result, s.add_node(s.current_kind, attrs, {x, as_onnx(s, o.id[1], 1)}, label), false);
  // The result's shape: xs[:axis] + is + xs[axis + 1:].
  shape out{};
  out.rank = xs.rank - 1 + is.rank;
  if (out.rank > static_cast<std::int32_t>(max_rank)) return s.fail(onnx_error::rank_too_high, {.rank_actual = out.rank});
  for (std::int32_t d = 0; d < out.rank; ++d)
    out.dims[static_cast<std::size_t>(d)] = d < axis ? xs[d] : d < axis + is.rank ? is[static_cast<std::int32_t>(d - axis)] : xs[d - is.rank + 1];
  std::int64_t count = 0;
  s.constant_int(o.id[1], 1, 0, count);
  if (s.failed()) return;
  if (count < 1) return s.operand_error(1);
  const std::int64_t dim = xs[static_cast<std::int32_t>(axis)];
  if (count > static_cast<std::int64_t>(max_node_inputs)) {
    if (!constant_indices_inside(s, o.id[1], 1, [&](std::int64_t) { return dim; })) return;
    const std::int32_t indices = index_operand(s, o.id[1], 1);
    if (s.failed() || indices < 0) return;
    return define(s, result, s.add_node(s.current_kind, attrs, {x, indices}, label), false);
  }
  std::array<std::int32_t, max_node_inputs> parts{};
  for (std::uint32_t k = 0; k < count && !s.failed(); ++k) {
    const std::int64_t at = s.constant_int(o.id[1], 1, k, count);
    if (at < -dim || at >= dim) return s.operand_value_error(1, k, at);
    attrs.slice = slice_fields::whole(xs);
    attrs.slice.begin[static_cast<std::size_t>(axis)] = static_cast<std::int32_t>(at < 0 ? at + dim : at);
    attrs.slice.extent[static_cast<std::size_t>(axis)] = 1;
    attrs.target = count == 1 ? (out.rank > 0 ? out : make_shape(1)) : shape{};
    parts[k] = s.add_node(op_kind::slice, attrs, {x}, label);
  }
  if (s.failed() || count == 1) return define(s, result, parts[0], false);
  const std::int32_t all = s.concat(parts, static_cast<std::uint32_t>(count), static_cast<std::int32_t>(axis), label);
  if (all >= 0) define_reshaped(s, result, all, out);
}

// ScatterElements' data or updates: computed, a float32 constant (as_onnx), or an INT32 or INT64 one (as
// index_operand reads it: PyTorch's pack_padded_sequence scatters an arange into an empty INT64 tensor).
template <class S>
constexpr std::int32_t scatter_operand(S& s, std::int32_t v, std::uint32_t slot) {
  if (s.is_constant(v) && !s.is_known(v)) {
    const tensor_view t = s.f.read_tensor(s.at(v).proto);
    if (s.take_reader_error()) return -1;
    if (t.type == data_type::int64 || t.type == data_type::int32) return index_operand(s, v, slot);
  }
  return s.is_known(v) ? index_operand(s, v, slot) : as_onnx(s, v, slot);
}

// ScatterElements (opset 11, 13, 16, 18; scatter_reduction_of): `axis` in [-rank, rank), the data and updates
// any tensors of ctnn's types (constants: float32, INT32, INT64: scatter_operand), the indices INT32 or INT64,
// computed or constant (index_operand; a constant index outside the axis refused: constant_indices_inside). A
// scatter_elements node (ops/scatter_elements.hpp), in the ONNX layout; an index outside the axis at run time
// writes nothing.
template <class S>
constexpr void import_scatter_elements(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 3, 3)) return;
  const shape xs = onnx_shape(s, o.id[0]);
  const std::int64_t axis = int_attribute(s, n, "axis", 0);
  if (s.failed() || s.take_reader_error()) return;
  if (axis < -xs.rank || axis >= xs.rank) return s.axis_error(axis, xs.rank);
  const std::int32_t along = static_cast<std::int32_t>(axis < 0 ? axis + xs.rank : axis);
  if (!constant_indices_inside(s, o.id[1], 1, [&](std::int64_t) -> std::int64_t { return xs[along]; })) return;
  const std::int32_t x = scatter_operand(s, o.id[0], 0), indices = x < 0 ? -1 : index_operand(s, o.id[1], 1);
  const std::int32_t updates = indices < 0 ? -1 : scatter_operand(s, o.id[2], 2);
  if (s.failed() || updates < 0) return;
  op_attributes a{};
  a.axis = along;
  a.reduction = scatter_reduction_of(s, n, s.m.tensor_at(x).type);
  if (a.reduction < 0) return;
  define(s, result, s.add_node(s.current_kind, a, {x, indices, updates}, s.label_of(result)), false);
}

// ScatterND (scatter_reduction_of): the data and updates as ScatterElements' (scatter_operand), the indices INT32
// or INT64, computed or constant (index_operand; a constant component outside its dim refused:
// constant_indices_inside). A scatter_nd node (ops/scatter_nd.hpp), in the ONNX layout; a tuple outside the data
// at run time writes nothing.
template <class S>
constexpr void import_scatter_nd(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 3, 3)) return;
  const shape xs = onnx_shape(s, o.id[0]);
  if (s.failed()) return;
  if (s.is_constant(o.id[1])) {  // the tuple length, the indices' last extent
    const shape is = s.constant_shape(o.id[1]);
    const std::int32_t tuple = is.rank > 0 ? is[is.rank - 1] : 0;
    if (s.failed()) return;
    if (tuple < 1 || tuple > xs.rank) return s.operand_error(1);
    const auto dim_of = [&](std::int64_t k) -> std::int64_t { return xs[static_cast<std::int32_t>(k % tuple)]; };
    if (!constant_indices_inside(s, o.id[1], 1, dim_of)) return;
  }
  const std::int32_t data = scatter_operand(s, o.id[0], 0), indices = data < 0 ? -1 : index_operand(s, o.id[1], 1);
  const std::int32_t updates = indices < 0 ? -1 : scatter_operand(s, o.id[2], 2);
  if (s.failed() || updates < 0) return;
  op_attributes a{};
  a.axis = scatter_reduction_of(s, n, s.m.tensor_at(data).type);
  if (a.axis < 0) return;
  define(s, result, s.add_node(s.current_kind, a, {data, indices, updates}, s.label_of(result)), false);
}

}  // namespace ctnn::onnx::detail
