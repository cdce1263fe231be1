#pragma once
// The TFLite importer's ops that move, pad or reduce data (import.hpp; rows in import_plan.hpp's op_table):
// RESHAPE, CONCATENATION, PAD and the reductions (MEAN, SUM, REDUCE_MAX, REDUCE_MIN, ARG_MAX, ARG_MIN).
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/frontend/flatbuffers.hpp>
#include <ctnn/frontend/tflite/import_operands.hpp>
#include <ctnn/frontend/tflite/schema.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::tflite::detail {

// RESHAPE: the target from the shape operand, new_shape or the output's shape.
template <class S>
constexpr void import_reshape(S& s, op_import& im) {
  const std::int32_t op = im.op;
  const op_plan& p = im.plan;
  const operator_view& o = im.view;
  flatbuffers::reader& r = s.f.reader();
  if (!expect_inputs(s, op, p, o, 1, 2)) return;
  im.inputs[0] = operand(s, o, 0);
  im.input_count = 1;
  const std::int32_t shape_id = o.inputs.length > 1 ? operand(s, o, 1, true) : -1;
  if (s.failed()) return;
  const flatbuffers::vector new_shape = r.vector_field(p.options, schema::reshape::new_shape, 4);
  if (s.take_reader_error()) return;
  // TFLite's order: a constant 1-D shape input, else new_shape, else the output's (static) shape.
  const tensor* given = shape_id >= 0 ? &s.m.tensor_at(shape_id) : nullptr;
  if (given != nullptr && given->role == tensor_role::constant && given->type == dtype::i32 && given->dims.rank == 1 &&
      given->dims[0] >= 1 && given->dims[0] <= static_cast<std::int32_t>(max_rank)) {
    im.attrs.target.rank = given->dims[0];
    for (std::int32_t d = 0; d < im.attrs.target.rank; ++d)
      im.attrs.target.dims[static_cast<std::size_t>(d)] = constant_i32(s, shape_id, d);
  } else if (new_shape.length >= 1 && new_shape.length <= max_rank) {
    im.attrs.target.rank = static_cast<std::int32_t>(new_shape.length);
    for (std::uint32_t d = 0; d < new_shape.length; ++d)
      im.attrs.target.dims[d] = r.element<std::int32_t>(new_shape, d);
  } else {
    im.attrs.target = s.m.tensor_at(im.out).dims;
  }
  // -1 (inferred, once at most) means the same in TFLite and the IR; 0 is "keep" in the IR but an
  // extent of 0 in TFLite, which no static model has: a target with 0, other negative extents or
  // more than one -1 is refused, as is one whose known extents overflow.
  if (im.attrs.target.rank == 0) im.attrs.target = s.m.tensor_at(im.out).dims;
  shape known = im.attrs.target;
  std::int32_t inferred = 0;
  for (std::int32_t d = 0; d < known.rank; ++d)
    if (known[d] == -1) known.dims[static_cast<std::size_t>(d)] = 1, ++inferred;
  if (inferred > 1 || checked_elements(known) < 0) {
    s.fail(frontend_error::tflite_unsupported_operand, op, p.kind,
           {.operator_code = static_cast<std::int64_t>(p.code), .input_slot = 1});
    return;
  }
}

// CONCATENATION (a fused activation: a node after it, added by the driver).
template <class S>
constexpr void import_concat(S& s, op_import& im) {
  const std::int32_t op = im.op;
  const op_plan& p = im.plan;
  const operator_view& o = im.view;
  flatbuffers::reader& r = s.f.reader();
  if (o.inputs.length < 1) {
    s.fail(error_code::input_count_mismatch, op, p.kind, {.count_expected = 1, .count_actual = 0});
    return;
  }
  if (o.inputs.length > max_node_inputs) {
    s.fail(error_code::too_many_inputs, op, p.kind,
           {.count_expected = max_node_inputs, .count_actual = o.inputs.length});
    return;
  }
  for (std::uint32_t k = 0; k < o.inputs.length; ++k) im.inputs[k] = operand(s, o, k);
  im.input_count = static_cast<std::int32_t>(o.inputs.length);
  im.attrs.axis = r.scalar<std::int32_t>(p.options, schema::concatenation::axis, 0);
}

// PAD: constant int32 paddings [rank, 2].
template <class S>
constexpr void import_pad(S& s, op_import& im) {
  const std::int32_t op = im.op;
  const op_plan& p = im.plan;
  const operator_view& o = im.view;
  const std::int32_t pads = data_and_constant_i32(s, op, p, o, im.inputs[0]);
  if (pads < 0) return;
  im.input_count = 1;
  const std::int32_t rank = s.m.tensor_at(im.inputs[0]).dims.rank;
  if (s.m.tensor_at(pads).dims.elements() != 2 * rank) {
    s.fail(frontend_error::tflite_unsupported_operand, op, p.kind,
           {.operator_code = static_cast<std::int64_t>(p.code), .input_slot = 1});
    return;
  }
  for (std::int32_t k = 0; k < 2 * rank; ++k) {
    const std::int32_t pad = constant_i32(s, pads, k);
    if (pad < 0 || pad > max_window_value) {
      s.fail(frontend_error::tflite_unsupported_operand, op, p.kind,
             {.operator_code = static_cast<std::int64_t>(p.code), .input_slot = 1});
      return;
    }
    im.attrs.pad.before_after[static_cast<std::size_t>(k)] = pad;
  }
}

// MEAN, SUM, REDUCE_MAX, REDUCE_MIN: constant int32 axes, keep_dims. TFLM's int8 REDUCE_MAX/MIN compare
// raw values and fail unless input and output share scale and zero point: such models are refused.
// ARG_MAX, ARG_MIN: one constant int32 axis, no keep_dims, an int32 result (TFLM runs no other: an int64
// one is unsupported_dtype).
template <class S>
constexpr void import_reduction(S& s, op_import& im) {
  const std::int32_t op = im.op;
  const op_plan& p = im.plan;
  const operator_view& o = im.view;
  flatbuffers::reader& r = s.f.reader();
  const std::int32_t axes = data_and_constant_i32(s, op, p, o, im.inputs[0]);
  if (axes < 0) return;
  im.input_count = 1;
  const bool arg = p.kind == op_kind::arg_max || p.kind == op_kind::arg_min;
  const std::int32_t rank = s.m.tensor_at(im.inputs[0]).dims.rank;
  const std::int64_t count = s.m.tensor_at(axes).dims.elements();
  const tensor& x = s.m.tensor_at(im.inputs[0]);
  const tensor& y = s.m.tensor_at(im.out);
  if (arg && count != 1) {
    s.fail(frontend_error::tflite_unsupported_operand, op, p.kind,
           {.operator_code = static_cast<std::int64_t>(p.code), .input_slot = 1});
    return;
  }
  if (arg && y.type != dtype::i32) {  // TFLM's ArgMinMax writes int32 only
    s.fail(error_code::unsupported_dtype, op, p.kind, {.rejected_value = static_cast<std::int64_t>(y.type)});
    return;
  }
  const bool quantization_differs = x.quant.scale != y.quant.scale || x.quant.zero_point != y.quant.zero_point;
  if ((p.kind == op_kind::reduce_max || p.kind == op_kind::reduce_min) && x.type == dtype::i8 && quantization_differs) {
    s.fail(frontend_error::tflite_invalid_quantization, op, p.kind,
           {.tensor = im.out, .reason = static_cast<std::int64_t>(quantization_problem::not_the_inputs)});
    return;
  }
  for (std::int64_t k = 0; k < count; ++k) {
    const std::int32_t axis = constant_i32(s, axes, k);
    const std::int32_t normalised = axis < 0 ? axis + rank : axis;
    if (normalised < 0 || normalised >= rank) {
      s.fail(error_code::invalid_axis, op, p.kind, {.axis = axis, .rank_actual = rank});
      return;
    }
    im.attrs.mean.reduce_axes |= 1u << normalised;
  }
  im.attrs.keep_dims = !arg && r.scalar<bool>(p.options, schema::reducer::keep_dims, false);
  if (arg) im.attrs.out_type = y.type;
}

}  // namespace ctnn::tflite::detail
