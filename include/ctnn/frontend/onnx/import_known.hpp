#pragma once
// The ONNX importer's integers computed at import (issues #28, #25; docs/frontends.md, "Integers computed at
// import"): Shape and Size (every shape is static, so their results are known), Range, and the integer ops
// that exports put between Shape and a Reshape, Expand or ConstantOfShape (Gather, Concat, Cast, Add, Sub,
// Mul, Div, Mod, Max, Min, Sum, Equal, Less, Greater, Where, ReduceProd, Expand; Squeeze, Unsqueeze, Identity, Slice and
// Reshape in import_shape_ops.hpp) evaluated when every operand is known. A result is a value of kind
// known_integers in the importer's store (importer_state::known), not an IR tensor: the ops that read
// constant shapes, axes and indices (constant_int, constant_shape) read it as they read an initializer.
// A known value read as a tensor, or a graph output, is refused (tensor_feature::computed_integers).
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/frontend/detail/known_integers.hpp>
#include <ctnn/frontend/onnx/import_shape_ops.hpp>

namespace ctnn::onnx::detail {

using frontend_detail::broadcast_dims;
using frontend_detail::broadcast_source;

// An operand of a fold, read: a known value, or an INT64, INT32 or BOOL constant of at most
// max_known_elements elements.
struct known_operand {
  shape dims{};
  dtype type = dtype::i64;
  std::array<std::int64_t, static_cast<std::size_t>(max_known_elements)> values{};
  constexpr std::int64_t at(std::int64_t k) const { return values[static_cast<std::size_t>(k)]; }
};

// Whether value `v` is one a fold reads (a reader error: false, and the failure recorded).
template <class S>
constexpr bool foldable(S& s, std::int32_t v) {
  if (s.is_known(v)) return true;
  if (!s.is_constant(v)) return false;
  const tensor_view t = s.f.read_tensor(s.at(v).proto);
  if (s.take_reader_error()) return false;
  return (t.type == data_type::int64 || t.type == data_type::int32 || t.type == data_type::bool_) && !t.external &&
         !t.segmented && t.rank <= static_cast<std::int32_t>(max_rank) && t.dims.elements() <= max_known_elements;
}

// Reads foldable value `v` (operand `slot`) into `out`; false after a diagnostic.
template <class S>
constexpr bool read_known(S& s, std::int32_t v, std::uint32_t slot, known_operand& out) {
  if (v < 0) return s.operand_error(slot), false;  // an omitted operand (an empty name) where the op needs one
  if (s.is_known(v)) {
    out.dims = s.known_of(v).dims;
    out.type = s.known_of(v).type;
    for (std::int64_t k = 0; k < out.dims.elements(); ++k) out.values[static_cast<std::size_t>(k)] = s.known_at(v, k);
    return true;
  }
  const tensor_view t = s.f.read_tensor(s.at(v).proto);
  if (s.take_reader_error() || !s.checked_tensor(v, t)) return false;
  out.dims = t.dims;
  out.type = dtype_of(t.type);
  const std::int64_t count = t.dims.elements();
  std::int64_t stored = 0;
  if (t.type == data_type::int64) {
    for (std::int64_t k = 0; k < count && !s.failed(); ++k)
      out.values[static_cast<std::size_t>(k)] = s.constant_int(v, slot, static_cast<std::uint32_t>(k), stored);
    return !s.failed();
  }
  // INT32 and BOOL: raw_data (4 bytes, 1 byte each) or int32_data varints.
  const std::int64_t width = t.type == data_type::int32 ? 4 : 1;
  if (t.data_field == schema::tensor::raw_data) {
    if (static_cast<std::int64_t>(t.data.length) != count * width)
      return s.malformed(t.proto.at, protobuf::expectation::tensor_data), false;
    for (std::int64_t k = 0; k < count; ++k) {
      const auto at = static_cast<std::uint32_t>(t.data.at + k * width);
      out.values[static_cast<std::size_t>(k)] =
          width == 4 ? static_cast<std::int32_t>(s.f.reader().load_u32(at)) : std::int64_t{s.f.reader().byte(at) != 0};
    }
    return true;
  }
  const std::uint32_t given = s.f.reader().repeated_count(t.proto, schema::tensor::int32_data, protobuf::wire::varint);
  if (s.take_reader_error()) return false;
  if (given != count) return s.malformed(t.proto.at, protobuf::expectation::tensor_data), false;
  for (std::int64_t k = 0; k < count; ++k) {
    const auto bits = s.f.reader().repeated_at(t.proto, schema::tensor::int32_data, protobuf::wire::varint, static_cast<std::uint32_t>(k));
    const auto value = static_cast<std::int32_t>(static_cast<std::uint32_t>(bits));
    out.values[static_cast<std::size_t>(k)] = width == 4 ? value : std::int64_t{value != 0};
  }
  return !s.take_reader_error();
}

// `value` as an element of `type`: int32 wraps around (ONNX's integer arithmetic), a bool is 0 or 1.
constexpr std::int64_t in_type(std::int64_t value, dtype type) {
  if (type == dtype::i32) return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(value)));
  if (type == dtype::b8) return value != 0 ? 1 : 0;
  return value;
}

// Stores `out` as value `result`; false after a diagnostic (the store full).
template <class S>
constexpr bool define_known(S& s, std::int32_t result, const known_operand& out) {
  const std::int32_t first = s.make_known(result, out.dims, out.type);
  if (first < 0) return false;
  for (std::int64_t k = 0; k < out.dims.elements(); ++k)
    s.known_data[static_cast<std::size_t>(first + k)] = in_type(out.at(k), out.type);
  return true;
}

// Add, Sub, Mul, Div, Max, Min, Sum (folded left over their operands) and the comparisons: numpy broadcasting, the
// operands of one type (integer_arithmetic otherwise), a comparison's result bool.
template <class S>
constexpr void fold_binary(S& s, const node_view& n, const operands& o, std::int32_t result) {
  known_operand acc{}, next{};
  if (!read_known(s, o.id[0], 0, acc)) return;
  // The row's kind (add, sub, mul, div, maximum, minimum, or a comparison) evaluates the elements.
  const ops::integer_evaluation evaluate = frontend_detail::integer_evaluation_of(s.current_kind);
  if (evaluate.apply == nullptr) return s.fail(onnx_error::unsupported_operator, {.operator_code = static_cast<std::int64_t>(n.type)});
  const bool comparison = evaluate.bool_result;
  const std::uint32_t count = o.given(2);  // trailing omitted operands are absent, as expect_inputs counts
  if (comparison && !expect_inputs(s, o, 2, 2)) return;
  for (std::uint32_t slot = 1; slot < count; ++slot) {
    if (!read_known(s, o.id[slot], slot, next)) return;
    if (next.type != acc.type || (acc.type == dtype::b8 && !comparison))
      return s.fail(onnx_error::integer_arithmetic, {.operator_code = static_cast<std::int64_t>(n.type), .input_slot = slot});
    shape dims{};
    if (!broadcast_dims(acc.dims, next.dims, dims) || dims.elements() > max_known_elements) return s.operand_error(slot);
    known_operand out{};
    out.dims = dims;
    out.type = comparison ? dtype::b8 : acc.type;
    for (std::int64_t k = 0; k < dims.elements(); ++k) {
      const std::int64_t a = acc.at(broadcast_source(dims, acc.dims, k)), b = next.at(broadcast_source(dims, next.dims, k));
      if (evaluate.divides && b == 0) return s.operand_value_error(slot, broadcast_source(dims, next.dims, k), b);
      out.values[static_cast<std::size_t>(k)] = in_type(evaluate.apply(a, b), out.type);
    }
    acc = out;
  }
  define_known(s, result, acc);
}

// Where(condition, x, y): numpy broadcasting of the three; x and y of one type.
template <class S>
constexpr void fold_where(S& s, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 3, 3)) return;
  known_operand c{}, x{}, y{};
  if (!read_known(s, o.id[0], 0, c) || !read_known(s, o.id[1], 1, x) || !read_known(s, o.id[2], 2, y)) return;
  if (c.type != dtype::b8) return s.operand_type_error(0, data_type::int64);
  if (x.type != y.type) return s.fail(onnx_error::integer_arithmetic, {.operator_code = static_cast<std::int64_t>(op_type::Where), .input_slot = 2});
  shape xy{}, dims{};
  if (!broadcast_dims(x.dims, y.dims, xy) || !broadcast_dims(c.dims, xy, dims) || dims.elements() > max_known_elements)
    return s.operand_error(0);
  known_operand out{};
  out.dims = dims;
  out.type = x.type;
  for (std::int64_t k = 0; k < dims.elements(); ++k)
    out.values[static_cast<std::size_t>(k)] = c.at(broadcast_source(dims, c.dims, k)) != 0 ? x.at(broadcast_source(dims, x.dims, k))
                                                                                           : y.at(broadcast_source(dims, y.dims, k));
  define_known(s, result, out);
}

// Gather(data, indices) along `axis`: result dims data[:axis] + indices + data[axis + 1:]; each index in
// [-dim, dim).
template <class S>
constexpr void fold_gather(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 2, 2)) return;
  known_operand data{}, indices{};
  if (!read_known(s, o.id[0], 0, data) || !read_known(s, o.id[1], 1, indices)) return;
  std::int64_t axis = int_attribute(s, n, "axis", 0);
  if (s.failed() || s.take_reader_error()) return;
  if (axis < 0) axis += data.dims.rank;
  if (axis < 0 || axis >= data.dims.rank) return s.axis_error(axis, data.dims.rank);
  if (indices.type == dtype::b8) return s.operand_type_error(1, data_type::bool_);
  const auto a = static_cast<std::int32_t>(axis);
  known_operand out{};
  out.type = data.type;
  out.dims.rank = data.dims.rank - 1 + indices.dims.rank;
  if (out.dims.rank > static_cast<std::int32_t>(max_rank)) return s.fail(onnx_error::rank_too_high, {.rank_actual = out.dims.rank});
  std::int64_t outer = 1, inner = 1;
  for (std::int32_t d = 0, r = 0; d < data.dims.rank; ++d) {
    if (d == a) {
      for (std::int32_t e = 0; e < indices.dims.rank; ++e) out.dims.dims[static_cast<std::size_t>(r++)] = indices.dims[e];
      continue;
    }
    out.dims.dims[static_cast<std::size_t>(r++)] = data.dims[d];
    (d < a ? outer : inner) *= data.dims[d];
  }
  if (out.dims.elements() > max_known_elements) return s.computed_integers_error(result, tensor_feature::computed_integers_capacity);
  const std::int64_t dim = data.dims[a], picks = indices.dims.elements();
  for (std::int64_t j = 0; j < picks; ++j)
    if (indices.at(j) < -dim || indices.at(j) >= dim) return s.operand_value_error(1, j, indices.at(j));
  std::int64_t k = 0;
  for (std::int64_t i = 0; i < outer; ++i)
    for (std::int64_t j = 0; j < picks; ++j) {
      const std::int64_t at = indices.at(j) < 0 ? indices.at(j) + dim : indices.at(j);
      for (std::int64_t e = 0; e < inner; ++e) out.values[static_cast<std::size_t>(k++)] = data.at((i * dim + at) * inner + e);
    }
  define_known(s, result, out);
}

// Concat along `axis` (required from opset 4): every operand of the first one's type and rank.
template <class S>
constexpr void fold_concat(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 1, max_node_inputs)) return;
  known_operand out{}, part{};
  if (!read_known(s, o.id[0], 0, out)) return;
  const attribute_view given = s.f.attribute(n, "axis");
  std::int64_t axis = s.f.int_attribute(given, 1);
  if (s.take_reader_error()) return;
  if (!given.present() && s.f.opset() >= 4) return s.attribute_error(attribute::axis, -1);
  if (axis < 0) axis += out.dims.rank;
  if (axis < 0 || axis >= out.dims.rank) return s.axis_error(axis, out.dims.rank);
  const auto a = static_cast<std::int32_t>(axis);
  std::int64_t outer = 1;
  for (std::int32_t d = 0; d < a; ++d) outer *= out.dims[d];
  for (std::uint32_t slot = 1; slot < o.count; ++slot) {
    if (o.id[slot] < 0) return s.operand_error(slot);
    if (!read_known(s, o.id[slot], slot, part)) return;
    if (part.type != out.type)
      return s.fail(onnx_error::integer_arithmetic, {.operator_code = static_cast<std::int64_t>(n.type), .input_slot = slot});
    bool same = part.dims.rank == out.dims.rank;
    for (std::int32_t d = 0; same && d < out.dims.rank; ++d) same = d == a || part.dims[d] == out.dims[d];
    if (!same) return s.rank_error(slot, part.dims);
    shape dims = out.dims;
    dims.dims[static_cast<std::size_t>(a)] += part.dims[a];
    if (dims.elements() > max_known_elements) return s.computed_integers_error(result, tensor_feature::computed_integers_capacity);
    // Row by row (outer): the accumulated row, then the part's.
    known_operand joined{};
    joined.dims = dims;
    joined.type = out.type;
    const std::int64_t left = out.dims.elements() / (outer > 0 ? outer : 1), right = part.dims.elements() / (outer > 0 ? outer : 1);
    std::int64_t k = 0;
    for (std::int64_t i = 0; i < outer; ++i) {
      for (std::int64_t e = 0; e < left; ++e) joined.values[static_cast<std::size_t>(k++)] = out.at(i * left + e);
      for (std::int64_t e = 0; e < right; ++e) joined.values[static_cast<std::size_t>(k++)] = part.at(i * right + e);
    }
    out = joined;
  }
  define_known(s, result, out);
}

// Expand(input, shape) of integers: the input broadcast with the INT64 vector `shape` (numpy's rule, both ways;
// PyTorch's index_put_ expands its constant index rows so).
template <class S>
constexpr void fold_expand(S& s, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 2, 2)) return;
  known_operand x{}, extents{};
  if (!read_known(s, o.id[0], 0, x) || !read_known(s, o.id[1], 1, extents)) return;
  if (extents.type != dtype::i64 || extents.dims.rank != 1 || extents.dims[0] > static_cast<std::int32_t>(max_rank))
    return s.operand_error(1);
  shape wanted{}, dims{};
  wanted.rank = extents.dims[0];
  for (std::int32_t d = 0; d < wanted.rank; ++d) {
    const std::int64_t extent = extents.at(d);
    if (extent < 0 || extent > max_known_elements) return s.operand_value_error(1, d, extent);
    wanted.dims[static_cast<std::size_t>(d)] = static_cast<std::int32_t>(extent);
  }
  if (!broadcast_dims(x.dims, wanted, dims) || dims.elements() > max_known_elements) return s.operand_error(1);
  known_operand out{};
  out.dims = dims;
  out.type = x.type;
  for (std::int64_t k = 0; k < dims.elements(); ++k) out.values[static_cast<std::size_t>(k)] = x.at(broadcast_source(dims, x.dims, k));
  define_known(s, result, out);
}

// Mod of integers (Swin's window padding, (window - H % window) % window, of constants): numpy broadcasting, the
// operands of one type; fmod 0 takes the divisor's sign (Python's %), fmod 1 the dividend's (C's %).
template <class S>
constexpr void fold_mod(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 2, 2)) return;
  known_operand a{}, b{};
  if (!read_known(s, o.id[0], 0, a) || !read_known(s, o.id[1], 1, b)) return;
  const std::int64_t fmod = int_attribute(s, n, "fmod", 0);
  if (s.failed() || s.take_reader_error()) return;
  if (a.type != b.type || a.type == dtype::b8)
    return s.fail(onnx_error::integer_arithmetic, {.operator_code = static_cast<std::int64_t>(n.type), .input_slot = 1});
  known_operand out{};
  if (!broadcast_dims(a.dims, b.dims, out.dims) || out.dims.elements() > max_known_elements) return s.operand_error(1);
  out.type = a.type;
  for (std::int64_t k = 0; k < out.dims.elements(); ++k) {
    const std::int64_t x = a.at(broadcast_source(out.dims, a.dims, k)), y = b.at(broadcast_source(out.dims, b.dims, k));
    if (y == 0) return s.operand_value_error(1, broadcast_source(out.dims, b.dims, k), y);
    std::int64_t r = y == -1 ? 0 : x % y;  // (INT64_MIN % -1 overflows)
    if (fmod == 0 && r != 0 && (r < 0) != (y < 0)) r += y;
    out.values[static_cast<std::size_t>(k)] = in_type(r, out.type);
  }
  define_known(s, result, out);
}

// Cast to INT64, INT32 or BOOL (a cast to another type, FLOAT among them, is left to the row: a tensor,
// refused).
template <class S>
constexpr bool fold_cast(S& s, const node_view& n, const operands& o, std::int32_t result) {
  const auto to = static_cast<data_type>(int_attribute(s, n, "to", 0));
  if (s.take_reader_error()) return true;
  if (to != data_type::int64 && to != data_type::int32 && to != data_type::bool_) return false;
  if (!expect_inputs(s, o, 1, 1)) return true;
  known_operand x{};
  if (!read_known(s, o.id[0], 0, x)) return true;
  x.type = dtype_of(to);
  define_known(s, result, x);
  return true;
}

// ReduceProd over every axis (axes absent or naming them all; keepdims kept): the element count of a shape.
template <class S>
constexpr bool fold_reduce_prod(S& s, const node_view& n, const operands& o, std::int32_t result) {
  known_operand x{};
  if (!read_known(s, o.id[0], 0, x)) return true;
  const bool from_input = s.f.opset() >= 18;
  const int_list axes = read_ints(s, n, o, from_input, 1, "axes", attribute::axes);
  const std::int64_t keepdims = int_attribute(s, n, "keepdims", 1);
  if (s.failed() || s.take_reader_error()) return true;
  const std::int64_t named = axis_bits(s, axes, x.dims.rank);
  if (named < 0) return true;
  if (axes.count > 0 && named != (std::int64_t{1} << x.dims.rank) - 1) return false;  // some axes: a tensor op
  known_operand out{};
  out.type = x.type;
  out.dims.rank = keepdims != 0 ? x.dims.rank : 0;
  for (std::int32_t d = 0; d < out.dims.rank; ++d) out.dims.dims[static_cast<std::size_t>(d)] = 1;
  std::int64_t product = 1;
  for (std::int64_t k = 0; k < x.dims.elements(); ++k) product = in_type(ops::mul::on_known_integers.apply(product, x.at(k)), x.type);
  out.values[0] = product;
  define_known(s, result, out);
  return true;
}

// A node over known values (at least one operand a known value, every other one foldable): evaluated at import
// when its op is one of the above; true when it was (or a diagnostic was recorded). Before the node's row
// (import_graph.hpp).
template <class S>
constexpr bool fold_known(S& s, const node_view& n, const operands& o, std::int32_t result) {
  // Identity of an integer constant (an expanded function names its Constant again): a known value, so that
  // the ops that read constant shapes and axes (Range, Reshape, ...) read it.
  if (n.type == op_type::Identity && o.count == 1 && o.id[0] >= 0 && !s.is_known(o.id[0]) && s.is_constant(o.id[0])) {
    if (!foldable(s, o.id[0])) return s.failed();
    known_operand constant;
    if (read_known(s, o.id[0], 0, constant)) define_known(s, result, constant);
    return true;
  }
  // Mod of integer constants or known values (the row's Mod is float32's): evaluated here.
  if (n.type == op_type::Mod && o.count == 2 && o.id[0] >= 0 && o.id[1] >= 0 && s.is_constant(o.id[0]) && s.is_constant(o.id[1])) {
    if (foldable(s, o.id[0]) && foldable(s, o.id[1])) return fold_mod(s, n, o, result), true;
    if (s.failed()) return true;
  }
  // A known operand first (a lookup): a graph without one pays no TensorProto read here.
  bool any_known = false;
  for (std::uint32_t k = 0; k < o.count; ++k) any_known = any_known || (o.id[k] >= 0 && s.is_known(o.id[k]));
  if (!any_known || o.id[0] < 0) return false;
  for (std::uint32_t k = 0; k < o.count; ++k)
    if (o.id[k] >= 0 && !foldable(s, o.id[k])) return s.failed();
  switch (n.type) {
    case op_type::Add: case op_type::Sub: case op_type::Mul: case op_type::Div: case op_type::Max: case op_type::Min:
    case op_type::Sum:
    case op_type::Equal: case op_type::Less: case op_type::LessOrEqual: case op_type::Greater: case op_type::GreaterOrEqual:
      return fold_binary(s, n, o, result), true;
    case op_type::Where: return fold_where(s, o, result), true;
    case op_type::Gather: return fold_gather(s, n, o, result), true;
    case op_type::Concat: return fold_concat(s, n, o, result), true;
    case op_type::Expand: return fold_expand(s, o, result), true;
    case op_type::Cast: return fold_cast(s, n, o, result);
    case op_type::ReduceProd: return fold_reduce_prod(s, n, o, result);
    default: return false;
  }
}

// -----------------------------------------------------------------------------------------------------
// The rows of the ops whose result is always known.

// ConstantOfShape's integer fill (import_gather_scatter.hpp): `value`'s one element over `dims`.
template <class S>
constexpr void known_filled(S& s, std::int32_t result, std::int32_t value, const shape& dims) {
  known_operand fill{};
  if (!read_known(s, value, 0, fill)) return;
  if (dims.elements() > max_known_elements) return s.computed_integers_error(result, tensor_feature::computed_integers_capacity);
  known_operand out{};
  out.dims = dims;
  out.type = fill.type;
  for (std::int64_t k = 0; k < dims.elements(); ++k) out.values[static_cast<std::size_t>(k)] = fill.at(0);
  define_known(s, result, out);
}

// Shape (start, end: opset 15, clamped to [0, rank] as ONNX says): the operand's ONNX shape, INT64.
template <class S>
constexpr void import_shape(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 1, 1)) return;
  const shape xs = onnx_shape(s, o.id[0]);
  std::int64_t start = int_attribute(s, n, "start", 0), end = int_attribute(s, n, "end", xs.rank);
  if (s.failed() || s.take_reader_error()) return;
  const auto clamp = [&](std::int64_t v) -> std::int64_t {
    v = v < 0 ? v + xs.rank : v;
    return v < 0 ? 0 : v > xs.rank ? xs.rank : v;
  };
  start = clamp(start), end = clamp(end);
  known_operand out{};
  out.dims = make_shape(end > start ? static_cast<std::int32_t>(end - start) : 0);
  for (std::int64_t d = start; d < end; ++d) out.values[static_cast<std::size_t>(d - start)] = xs[static_cast<std::int32_t>(d)];
  define_known(s, result, out);
}

// Size: the operand's element count, an INT64 scalar.
template <class S>
constexpr void import_size(S& s, const node_view&, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 1, 1)) return;
  const shape xs = onnx_shape(s, o.id[0]);
  if (s.failed()) return;
  known_operand out{};
  out.values[0] = xs.elements();
  define_known(s, result, out);
}

// Range(start, limit, delta): scalars of one integer type, known or constant; max(ceil((limit - start) /
// delta), 0) elements start + k * delta. Float ranges are refused (operand_type).
template <class S>
constexpr void import_range(S& s, const node_view&, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 3, 3)) return;
  std::array<known_operand, 3> x{};
  for (std::uint32_t slot = 0; slot < 3; ++slot) {
    if (!s.is_constant(o.id[slot])) return s.operand_error(slot);
    if (!foldable(s, o.id[slot])) return s.failed() ? void() : s.operand_type_error(slot, data_type::float32);
    if (!read_known(s, o.id[slot], slot, x[slot])) return;
    if (x[slot].dims.elements() != 1 || x[slot].type == dtype::b8) return s.operand_error(slot);
    if (x[slot].type != x[0].type)
      return s.fail(onnx_error::integer_arithmetic, {.operator_code = static_cast<std::int64_t>(op_type::Range), .input_slot = slot});
  }
  const std::int64_t start = x[0].at(0), limit = x[1].at(0), delta = x[2].at(0);
  if (delta == 0) return s.operand_value_error(2, 0, delta);
  // The count in 128 bits' worth of care: |limit - start| may pass int64 (int64 extremes); capped first.
  const bool up = delta > 0;
  const std::uint64_t span = up ? (limit > start ? static_cast<std::uint64_t>(limit) - static_cast<std::uint64_t>(start) : 0)
                                : (start > limit ? static_cast<std::uint64_t>(start) - static_cast<std::uint64_t>(limit) : 0);
  const std::uint64_t step = up ? static_cast<std::uint64_t>(delta) : 0 - static_cast<std::uint64_t>(delta);
  const std::uint64_t count = span / step + (span % step != 0 ? 1 : 0);
  if (count > static_cast<std::uint64_t>(max_known_elements))
    return s.computed_integers_error(result, tensor_feature::computed_integers_capacity);
  known_operand out{};
  out.type = x[0].type;
  out.dims = make_shape(static_cast<std::int32_t>(count));
  for (std::uint64_t k = 0; k < count; ++k)
    out.values[static_cast<std::size_t>(k)] = in_type(start + static_cast<std::int64_t>(k) * delta, out.type);
  define_known(s, result, out);
}

}  // namespace ctnn::onnx::detail
