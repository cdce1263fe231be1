#pragma once
// The ONNX importer's logic family (import.hpp; rows in import_table.hpp): the comparisons Equal, Less,
// LessOrEqual, Greater, GreaterOrEqual and the logical And, Or, Xor (two operands, numpy broadcasting, a
// bool result), Not, IsNaN, Where and Cast. Every operand in the ONNX layout; a constant one read in place
// (integers and bools) or as floats.
#include <cstdint>

#include <ctnn/frontend/onnx/import_elementwise.hpp>

namespace ctnn::onnx::detail {

// Operand `slot` as an IR tensor in the ONNX layout, of element type `type` (integer_arithmetic otherwise);
// -1 after a diagnostic.
template <class S>
constexpr std::int32_t operand_of_type(S& s, const operands& o, std::uint32_t slot, dtype type) {
  const std::int32_t v = o.id[slot];
  if (v < 0) return s.operand_error(slot), -1;
  const std::int32_t x =
      s.is_constant(v) && type != dtype::f32 ? integer_constant(s, v, slot, type) : as_onnx(s, v, slot);
  if (s.failed() || x < 0) return -1;
  if (s.m.tensor_at(x).type != type)
    return s.fail(onnx_error::integer_arithmetic,
                  {.operator_code = static_cast<std::int64_t>(s.current), .input_slot = slot}),
           -1;
  return x;
}

// Equal, Less, LessOrEqual, Greater, GreaterOrEqual, And, Or, Xor: the row's kind over two operands of one
// element type (the first's), its result bool (attrs.out_type; the kinds refuse the types they do not take).
template <class S>
constexpr void import_bool_binary(S& s, const node_view&, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 2, 2) || o.id[0] < 0) return s.failed() ? void() : s.operand_error(0);
  const dtype type = element_type(s, o.id[0]);
  const std::int32_t a = s.failed() ? -1 : operand_of_type(s, o, 0, type);
  const std::int32_t b = a < 0 ? -1 : operand_of_type(s, o, 1, type);
  if (b < 0) return;
  op_attributes attrs{};
  attrs.out_type = dtype::b8;
  define(s, result, s.add_node(s.current_kind, attrs, {a, b}, s.label_of(result)), false);
}

// Not: the row's kind on one bool operand.
template <class S>
constexpr void import_not(S& s, const node_view&, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 1, 1) || o.id[0] < 0) return s.failed() ? void() : s.operand_error(0);
  const std::int32_t x = operand_of_type(s, o, 0, dtype::b8);
  if (x >= 0) define(s, result, s.add_node(s.current_kind, {}, {x}, s.label_of(result)), false);
}

// IsNaN (float32): the row's kind, x != x (true exactly for NaN; PyTorch's isnan, nan_to_num, as a
// torch.where condition).
template <class S>
constexpr void import_is_nan(S& s, const node_view&, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 1, 1) || o.id[0] < 0) return s.failed() ? void() : s.operand_error(0);
  const std::int32_t x = operand_of_type(s, o, 0, dtype::f32);
  if (x < 0) return;
  op_attributes attrs{};
  attrs.out_type = dtype::b8;
  define(s, result, s.add_node(s.current_kind, attrs, {x, x}, s.label_of(result)), false);
}

// Where(condition, X, Y): select, the three broadcast; X and Y of one type, the result's.
template <class S>
constexpr void import_where(S& s, const node_view&, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 3, 3) || o.id[1] < 0) return s.failed() ? void() : s.operand_error(1);
  const dtype type = element_type(s, o.id[1]);
  const std::int32_t condition = s.failed() ? -1 : operand_of_type(s, o, 0, dtype::b8);
  const std::int32_t x = condition < 0 ? -1 : operand_of_type(s, o, 1, type);
  const std::int32_t y = x < 0 ? -1 : operand_of_type(s, o, 2, type);
  if (y < 0) return;
  op_attributes attrs{};
  attrs.out_type = type;
  define(s, result, s.add_node(s.current_kind, attrs, {condition, x, y}, s.label_of(result)), false);
}

// Cast(to): a cast node to `to` (FLOAT, INT8, UINT8, INT32, INT64, BOOL; others are refused by name),
// or the identity when the operand already has it.
template <class S>
constexpr void import_cast(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 1, 1) || o.id[0] < 0) return s.failed() ? void() : s.operand_error(0);
  const std::int64_t to = int_attribute(s, n, "to", 0);
  if (s.failed() || s.take_reader_error()) return;
  const auto target = static_cast<data_type>(to);
  const bool readable = target == data_type::float32 || target == data_type::bool_ || is_integer(target);
  if (!readable) return s.attribute_error(attribute::to, to);
  const dtype from = element_type(s, o.id[0]);
  const std::int32_t x = s.failed() ? -1 : operand_of_type(s, o, 0, from);
  if (x < 0) return;
  if (dtype_of(target) == from) return define(s, result, s.reshape(x, {}, s.label_of(result)), false);
  op_attributes attrs{};
  attrs.out_type = dtype_of(target);
  define(s, result, s.add_node(s.current_kind, attrs, {x}, s.label_of(result)), false);
}

}  // namespace ctnn::onnx::detail
