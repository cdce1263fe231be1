#pragma once
// The TFLite importer's gather/scatter family (import.hpp; rows in import_plan.hpp's op_table): REVERSE_V2 (a
// slice walking the reversed axes backwards), GATHER_ND (ops/gather_nd.hpp), CUMSUM (ops/cumsum.hpp), FILL (a
// reshape of the scalar value to unit extents, then a tile to the constant dims), ZEROS_LIKE
// (ops/zeros_like.hpp), DYNAMIC_UPDATE_SLICE (ops/update_slice.hpp) and EMBEDDING_LOOKUP (a gather). Each takes the element types TFLM's kernel takes, and refuses the others.
#include <bit>
#include <cstdint>
#include <initializer_list>

#include <ctnn/frontend/tflite/import_operands.hpp>
#include <ctnn/frontend/tflite/import_shape_ops.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::tflite::detail {

// Operand `slot` (tensor `id`) has one of the element types `types`, or the op is refused naming the type.
template <class S>
constexpr bool expect_type_among(S& s, const op_import& im, std::int32_t id, std::uint32_t slot,
                                 std::initializer_list<dtype> types) {
  const tensor& t = s.m.tensor_at(id);
  for (const dtype type : types)
    if (t.type == type) return true;
  s.fail(error_code::unsupported_dtype, im.op, im.plan.kind,
         {.faulty_operand = static_cast<std::int64_t>(slot), .rejected_value = static_cast<std::int64_t>(t.type)}, {}, t.dims);
  return false;
}

template <class S>
constexpr void operand_error(S& s, const op_import& im, std::uint32_t slot) {
  s.fail(frontend_error::tflite_unsupported_operand, im.op, im.plan.kind,
         {.operator_code = static_cast<std::int64_t>(im.plan.code), .input_slot = slot});
}

// REVERSE_V2: a constant int32 vector of axes (below 0: from the end), no more than the input's rank, which
// sorted must be consecutive (TFLM's Eval refuses others, repeated axes among them). Any element type TFLM
// reverses (float32, int32, int16, int8, uint8, int64, bool: every type ctnn holds). A slice that starts at
// the end of each reversed axis and steps back.
template <class S>
constexpr void import_reverse(S& s, op_import& im) {
  if (!expect_inputs(s, im.op, im.plan, im.view, 2, 2)) return;
  const shape in = sliced_input(s, im, 0);
  const std::int32_t axes = s.failed() ? -1 : operand(s, im.view, 1);
  if (s.failed() || !constant_operand(s, im.op, im.plan, axes, 1, dtype::i32)) return;
  const std::int64_t count = s.m.tensor_at(axes).dims.elements();
  if (s.m.tensor_at(axes).dims.rank != 1 || count > in.rank) return operand_error(s, im, 1);
  std::uint32_t reversed = 0;
  for (std::int64_t k = 0; k < count; ++k) {
    const std::int32_t axis = normalised_axis(s, im, constant_i32(s, axes, k), in.rank);
    if (axis < 0) return;
    if ((reversed >> axis & 1u) != 0) return operand_error(s, im, 1);
    reversed |= 1u << axis;
  }
  if (reversed != 0 && ((reversed >> std::countr_zero(reversed)) & ((reversed >> std::countr_zero(reversed)) + 1)) != 0)
    return operand_error(s, im, 1);  // not consecutive
  im.attrs.slice = slice_fields::whole(in);
  for (std::int32_t d = 0; d < in.rank; ++d)
    if ((reversed >> d & 1u) != 0) {
      im.attrs.slice.begin[static_cast<std::size_t>(d)] = in[d] - 1;
      im.attrs.slice.stride[static_cast<std::size_t>(d)] = -1;
    }
  expect_output_shape(s, im, im.out, in);
}

// GATHER_ND: float32 or int8 data, int32 indices (constant or computed) whose tuples have at most 5
// components (TFLM's MAX_INDICES_ND). Constant indices must lie inside the data (as TFLM's Eval checks);
// computed ones outside give zeros (ops/gather_nd.hpp).
template <class S>
constexpr void import_gather_nd(S& s, op_import& im) {
  if (!expect_inputs(s, im.op, im.plan, im.view, 2, 2)) return;
  const shape in = sliced_input(s, im, 0);
  im.inputs[1] = s.failed() ? -1 : operand(s, im.view, 1);
  im.input_count = 2;
  if (s.failed() || !expect_type_among(s, im, im.inputs[0], 0, {dtype::f32, dtype::i8}) ||
      !expect_type_among(s, im, im.inputs[1], 1, {dtype::i32}))
    return;
  const tensor& indices = s.m.tensor_at(im.inputs[1]);
  const std::int32_t tuple = indices.dims.rank > 0 ? indices.dims[indices.dims.rank - 1] : 0;
  if (in.rank < 1 || tuple < 1 || tuple > in.rank || tuple > 5) return operand_error(s, im, 1);
  if (indices.role == tensor_role::constant)
    for (std::int64_t k = 0; k < indices.dims.elements(); ++k)
      if (const std::int32_t at = constant_i32(s, im.inputs[1], k); at < 0 || at >= in[static_cast<std::int32_t>(k % tuple)])
        return operand_error(s, im, 1);
  im.attrs.axis = 0;  // no batch dims
}

// CUMSUM (exclusive, reverse): float32 or int8, the axis a constant int32 of one element (below 0: from
// the end).
template <class S>
constexpr void import_cumsum(S& s, op_import& im) {
  if (!expect_inputs(s, im.op, im.plan, im.view, 2, 2)) return;
  const shape in = sliced_input(s, im, 0);
  if (s.failed() || !expect_type_among(s, im, im.inputs[0], 0, {dtype::f32, dtype::i8})) return;
  const std::int32_t axis = constant_i32_vector(s, im, 1, 1);
  if (axis < 0) return;
  im.attrs.axis = normalised_axis(s, im, constant_i32(s, axis, 0), in.rank);
  flatbuffers::reader& r = s.f.reader();
  cumsum_fields f{};
  f.exclusive = r.scalar<bool>(im.plan.options, schema::cumsum::exclusive, false) ? 1 : 0;
  f.reverse = r.scalar<bool>(im.plan.options, schema::cumsum::reverse, false) ? 1 : 0;
  im.attrs.set(f);
  s.take_reader_error();
}

// FILL (dims, value): the dims a constant vector (int8, int16, int32 or int64, as TFLM's Prepare reads them)
// equal to the output's shape, the value a scalar (constant or computed) of the output's type, float32,
// int32 or int8 (an int8 value's bytes: TFLM copies them). A reshape of the value to unit extents, then a
// tile.
template <class S>
constexpr void import_fill(S& s, op_import& im) {
  if (!expect_inputs(s, im.op, im.plan, im.view, 2, 2)) return;
  const std::int32_t dims = operand(s, im.view, 0);
  const std::int32_t value = s.failed() ? -1 : operand(s, im.view, 1);
  if (s.failed() || !expect_type_among(s, im, value, 1, {dtype::f32, dtype::i32, dtype::i8})) return;
  const tensor& given = s.m.tensor_at(dims);
  const tensor& out = s.m.tensor_at(im.out);
  const std::int32_t width = given.type == dtype::i8 ? 1 : given.type == dtype::i16 ? 2 : given.type == dtype::i32 ? 4
                             : given.type == dtype::i64 ? 8 : 0;
  if (given.role != tensor_role::constant || width == 0 || given.dims.rank != 1 || given.dims[0] != out.dims.rank)
    return operand_error(s, im, 0);
  if (s.m.tensor_at(value).dims.rank != 0 || s.m.tensor_at(value).type != out.type) return operand_error(s, im, 1);
  shape unit{};
  unit.rank = out.dims.rank;
  for (std::int32_t d = 0; d < out.dims.rank; ++d) {
    const auto at = static_cast<std::size_t>(width * d);
    const std::int64_t extent = width == 1 ? load_le<std::int8_t>(given.data.bytes, at)
                                : width == 2 ? load_le<std::int16_t>(given.data.bytes, at)
                                : width == 4 ? load_le<std::int32_t>(given.data.bytes, at)
                                             : load_le<std::int64_t>(given.data.bytes, at);
    if (extent != out.dims[d]) return operand_error(s, im, 0);
    unit.dims[static_cast<std::size_t>(d)] = 1;
  }
  const name label = numbered("fill", static_cast<std::size_t>(im.op));
  const std::int32_t scalar = s.add_tensor_like(im.out, unit, label);
  if (scalar < 0 || !s.reshape(value, scalar, unit, label)) return;
  im.inputs[0] = scalar;
  im.input_count = 1;
  im.attrs.target = out.dims;
}

// DYNAMIC_UPDATE_SLICE (operand, update, start indices): float32, int8, int16 or int32 (TFLM's kernel's
// types), the update of the operand's type and rank and no larger; the start int32 or int64, one per dim,
// constant or computed (ops/update_slice.hpp clamps it as TFLM does).
template <class S>
constexpr void import_dynamic_update_slice(S& s, op_import& im) {
  if (!expect_inputs(s, im.op, im.plan, im.view, 3, 3)) return;
  im.inputs = {operand(s, im.view, 0), operand(s, im.view, 1), operand(s, im.view, 2)};
  im.input_count = 3;
  if (s.failed() || !expect_type_among(s, im, im.inputs[0], 0, {dtype::f32, dtype::i8, dtype::i16, dtype::i32})) return;
  expect_type_among(s, im, im.inputs[2], 2, {dtype::i32, dtype::i64});
}

// EMBEDDING_LOOKUP (ids, table): int32 ids (a vector, constant or computed), a table of rank >= 2; a gather of
// the table's rows (an id outside the table is clamped: TFLM's Eval returns an error there). float32 or int8
// tables with a result of the table's type (int8: the rows' bytes, as TFLM copies them), or TFLM's hybrid form,
// an int8 table (zero point 0) read as float32: the table dequantized by a node before the gather (its scale
// times each value, as TFLM's EvalHybrid computes the rows it reads).
template <class S>
constexpr void import_embedding_lookup(S& s, op_import& im) {
  if (!expect_inputs(s, im.op, im.plan, im.view, 2, 2)) return;
  const std::int32_t ids = operand(s, im.view, 0);
  const std::int32_t table = s.failed() ? -1 : operand(s, im.view, 1);
  if (s.failed() || !expect_type_among(s, im, ids, 0, {dtype::i32}) ||
      !expect_type_among(s, im, table, 1, {dtype::f32, dtype::i8}))
    return;
  const tensor& rows = s.m.tensor_at(table);
  if (s.m.tensor_at(ids).dims.rank != 1) return operand_error(s, im, 0);
  if (rows.dims.rank < 2) return operand_error(s, im, 1);
  const dtype result = s.m.tensor_at(im.out).type;
  im.inputs = {table, ids};
  im.input_count = 2;
  im.attrs.axis = 0;
  if (result == rows.type) return;
  if (rows.type != dtype::i8 || result != dtype::f32 || rows.quant.zero_point != 0 || rows.quant.per_channel())
    return operand_error(s, im, 1);
  const name label = numbered("embedding_table", static_cast<std::size_t>(im.op));
  const std::int32_t dequantized = s.add_tensor_like(im.out, rows.dims, label);
  node* n = dequantized < 0 ? nullptr : s.add_node(op_kind::dequantize, label, dequantized);
  if (n == nullptr) return;
  n->attrs.out_type = dtype::f32;
  n->inputs[0] = table;
  n->input_count = 1;
  im.inputs[0] = dequantized;
}

// ZEROS_LIKE: int64, int32, int8 or float32 (TFLM's kernel's types).
template <class S>
constexpr void import_zeros_like(S& s, op_import& im) {
  if (!expect_inputs(s, im.op, im.plan, im.view, 1, 1)) return;
  sliced_input(s, im, 0);
  if (!s.failed()) expect_type_among(s, im, im.inputs[0], 0, {dtype::i64, dtype::i32, dtype::i8, dtype::f32});
}

}  // namespace ctnn::tflite::detail
