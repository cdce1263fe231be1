#pragma once
// The TFLite importer's ops that move, pad or reduce data (import.hpp; rows in import_plan.hpp's op_table):
// RESHAPE, CONCATENATION, PAD, the reductions (MEAN, SUM, REDUCE_MAX, REDUCE_MIN, ARG_MAX, ARG_MIN), and the
// shape family: SQUEEZE and EXPAND_DIMS (reshapes), TRANSPOSE, STRIDED_SLICE, SLICE, SPLIT, SPLIT_V and UNPACK
// (slices), PACK (reshapes and a concat), DEPTH_TO_SPACE and SPACE_TO_DEPTH (a reshape, a transpose and a
// reshape), GATHER. The shape family moves bytes only: an int8 result is its input's bytes whatever the two
// tensors' quantization says, as in TFLM, whose kernels copy.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include <ctnn/frontend/detail/operand_tree.hpp>
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

// An op of more operands than a node holds (CONCATENATION, ADD_N; frontend/detail/operand_tree.hpp): nodes of the
// op's kind and attributes (im.attrs) over at most max_node_inputs of them, each writing a tensor of
// dims_of(parts, count) quantized as the op's result (an int8 concat's inner nodes rescale as the op would, the
// outer one copies), the last level's operands im.inputs, for the driver's node. False after a diagnostic.
template <class S, class Dims>
constexpr bool operands_in_tree(S& s, op_import& im, frontend_detail::operand_tree form, const Dims& dims_of) {
  const std::uint32_t count = im.view.inputs.length;
  if (count > frontend_detail::max_tree_operands)
    return s.fail(error_code::too_many_inputs, im.op, im.plan.kind,
                  {.count_expected = frontend_detail::max_tree_operands, .count_actual = count}),
           false;
  const auto read = [&](std::uint32_t k) -> std::int32_t {
    const std::int32_t id = operand(s, im.view, k);
    return s.failed() ? -1 : id;
  };
  const auto join = [&](const std::array<std::int32_t, max_node_inputs>& parts, std::uint32_t n, bool last) -> std::int32_t {
    if (last) {
      im.inputs = parts;
      im.input_count = static_cast<std::int32_t>(n);
      return 0;
    }
    const name label = numbered("operand_tree", static_cast<std::size_t>(im.op));
    const shape dims = dims_of(parts, n);
    if (s.failed()) return -1;
    const std::int32_t out = s.add_tensor_like(im.out, dims, label);
    node* x = out < 0 ? nullptr : s.add_node(im.plan.kind, label, out);
    if (x == nullptr) return -1;
    x->inputs = parts;
    x->input_count = static_cast<std::int32_t>(n);
    x->attrs = im.attrs;
    return out;
  };
  if (frontend_detail::join_operands(count, form, read, join) >= 0 && !s.failed()) return true;
  if (!s.failed())  // (a walk that ends without a diagnostic would leave the driver's node without operands)
    s.fail(error_code::too_many_inputs, im.op, im.plan.kind,
           {.count_expected = frontend_detail::max_tree_operands, .count_actual = count});
  return false;
}

// CONCATENATION (a fused activation: a node after it, added by the driver); more than max_node_inputs operands
// through concats of concats along the axis (operands_in_tree).
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
  im.attrs.axis = r.scalar<std::int32_t>(p.options, schema::concatenation::axis, 0);
  if (s.take_reader_error()) return;
  if (o.inputs.length > max_node_inputs) {
    const std::int32_t rank = s.m.tensor_at(im.out).dims.rank;
    const std::int32_t axis = im.attrs.axis < 0 ? im.attrs.axis + rank : im.attrs.axis;
    if (axis < 0 || axis >= rank) return s.fail(error_code::invalid_axis, op, p.kind, {.axis = im.attrs.axis, .rank_actual = rank});
    // An inner concat's shape: its first operand's, the axis's extents summed in int64 (a fuzzed file's extents
    // may pass int32's) (the concat's rule checks the rest).
    const auto joined = [&](const std::array<std::int32_t, max_node_inputs>& parts, std::uint32_t n) {
      shape dims = s.m.tensor_at(parts[0]).dims;
      if (dims.rank != rank) return dims;
      std::int64_t extent = dims[axis];
      for (std::uint32_t k = 1; k < n; ++k) extent += s.m.tensor_at(parts[k]).dims[axis];
      if (extent > 0x7fffffff)
        s.fail(error_code::extent_too_large, op, p.kind, {.count_actual = extent, .axis = axis});
      else
        dims.dims[static_cast<std::size_t>(axis)] = static_cast<std::int32_t>(extent);
      return dims;
    };
    operands_in_tree(s, im, frontend_detail::operand_tree::balanced, joined);
    return;
  }
  for (std::uint32_t k = 0; k < o.inputs.length; ++k) im.inputs[k] = operand(s, o, k);
  im.input_count = static_cast<std::int32_t>(o.inputs.length);
}

// PAD: constant int32 paddings [rank, 2].
template <class S>
constexpr void import_pad(S& s, op_import& im) {
  const std::int32_t op = im.op;
  const op_plan& p = im.plan;
  const operator_view& o = im.view;
  const std::int32_t pads = data_and_constant_i32(s, op, p, o, im.inputs[0], p.code == builtin_operator::padv2 ? 3 : 2);
  if (pads < 0) return;
  im.input_count = 1;
  if (o.inputs.length > 2 && !read_pad_value(s, im)) return;
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

// PADV2's constant value (operand 2, one element of the data's type) as the pad's fill. TFLM writes its stored
// integer as it is: int8 requires the value quantized as the output (TFLM's Prepare), and the fill is the real
// value it stands for there, which pad's recipe quantizes back to the same integer (float_to_int8); int16's
// fill is the integer times the output scale, which its recipe divides back (zero point 0, as TFLM's int16
// PAD ignores it).
template <class S>
constexpr bool read_pad_value(S& s, op_import& im) {
  const op_plan& p = im.plan;
  const std::int32_t value = operand(s, im.view, 2, true);
  if (s.failed()) return false;
  if (value < 0) return true;
  const tensor& x = s.m.tensor_at(im.inputs[0]);
  const tensor& v = s.m.tensor_at(value);
  const quantization& out = s.m.tensor_at(im.out).quant;
  const bool quantized_as_output = x.type != dtype::i8 || (v.quant.scale == out.scale && v.quant.zero_point == out.zero_point);
  if (!constant_operand(s, im.op, p, value, 2, x.type)) return false;
  if (v.dims.elements() != 1 || !quantized_as_output || (x.type != dtype::f32 && x.type != dtype::i8 && x.type != dtype::i16)) {
    s.fail(frontend_error::tflite_unsupported_operand, im.op, p.kind, {.operator_code = static_cast<std::int64_t>(p.code), .input_slot = 2});
    return false;
  }
  float fill = 0.0f;
  if (x.type == dtype::f32) fill = load_le<float>(v.data.bytes, 0);
  else if (x.type == dtype::i8) fill = static_cast<float>(load_le<std::int8_t>(v.data.bytes, 0) - out.zero_point) * out.scale;
  else fill = static_cast<float>(load_le<std::int16_t>(v.data.bytes, 0)) * out.scale;
  im.attrs.pad.fill_value_bits = std::bit_cast<std::uint32_t>(fill);
  return true;
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
  // ARG_MAX, ARG_MIN: the result is a position (its type the attributes'), not an element.
  const bool arg = ops::facts(p.kind).result_type_from_attributes;
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
  const bool selects = ops::facts(p.kind).int8_result_is_an_input_value;
  if (selects && x.type == dtype::i8 && quantization_differs) {
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


// A constant int32 operand k of exactly `count` elements (begin, end, strides, sizes, perm): its tensor, or -1
// after a diagnostic.
template <class S>
constexpr std::int32_t constant_i32_vector(S& s, op_import& im, std::uint32_t k, std::int64_t count) {
  const std::int32_t id = operand(s, im.view, k);
  if (s.failed() || !constant_operand(s, im.op, im.plan, id, k, dtype::i32)) return -1;
  if (s.m.tensor_at(id).dims.elements() == count) return id;
  s.fail(frontend_error::tflite_unsupported_operand, im.op, im.plan.kind,
         {.operator_code = static_cast<std::int64_t>(im.plan.code), .input_slot = k});
  return -1;
}

// An axis in [-rank, rank) made non-negative, or -1 after a diagnostic.
template <class S>
constexpr std::int32_t normalised_axis(S& s, const op_import& im, std::int64_t axis, std::int32_t rank) {
  const std::int64_t normalised = axis < 0 ? axis + rank : axis;
  if (normalised >= 0 && normalised < rank) return static_cast<std::int32_t>(normalised);
  s.fail(error_code::invalid_axis, im.op, im.plan.kind, {.axis = axis, .rank_actual = rank});
  return -1;
}

template <class S>
constexpr void option_error(S& s, const op_import& im, std::uint32_t field, std::int64_t value) {
  s.fail(frontend_error::tflite_unsupported_option, im.op, im.plan.kind,
         {.operator_code = static_cast<std::int64_t>(im.plan.code), .reason = field, .rejected_value = value});
}

// A result of one more dim than the input (EXPAND_DIMS, PACK) within ctnn::max_rank.
template <class S>
constexpr bool result_rank_fits(S& s, const op_import& im, std::int32_t rank) {
  if (rank <= static_cast<std::int32_t>(max_rank)) return true;
  s.fail(frontend_error::tflite_rank_too_high, im.op, im.plan.kind, {.tensor = im.out, .rank_actual = rank});
  return false;
}

// The file's output tensor must have the shape the op gives (TFLM's Prepare checks it, or computes it).
template <class S>
constexpr bool expect_output_shape(S& s, const op_import& im, std::int32_t out, const shape& expected) {
  const shape& given = s.m.tensor_at(out).dims;
  if (given == expected) return true;
  s.fail(error_code::input_shapes_differ, im.op, im.plan.kind, {}, expected, given);
  return false;
}

// SQUEEZE (squeeze_dims: these unit dims, or every unit dim) and EXPAND_DIMS (a unit dim at the constant
// axis, in [-rank - 1, rank]): a reshape to the output's shape, which must be the one the op gives.
template <class S>
constexpr void import_reshape_to_output(S& s, op_import& im) {
  const bool squeeze = im.plan.code == builtin_operator::squeeze;
  if (!expect_inputs(s, im.op, im.plan, im.view, squeeze ? 1 : 2, squeeze ? 1 : 2)) return;
  im.inputs[0] = operand(s, im.view, 0);
  im.input_count = 1;
  if (s.failed()) return;
  const shape in = s.m.tensor_at(im.inputs[0]).dims;
  shape expected{};
  if (squeeze) {
    flatbuffers::reader& r = s.f.reader();
    const flatbuffers::vector dims = r.vector_field(im.plan.options, schema::squeeze::squeeze_dims, 4);
    if (s.take_reader_error()) return;
    std::uint32_t dropped = 0;  // bit d: dim d goes
    for (std::uint32_t k = 0; k < dims.length; ++k) {
      const std::int32_t d = normalised_axis(s, im, r.element<std::int32_t>(dims, k), in.rank);
      if (d < 0) return;
      if (in[d] != 1) return s.fail(error_code::invalid_axis, im.op, im.plan.kind, {.axis = d, .rank_actual = in.rank}, {}, in);
      dropped |= 1u << d;
    }
    for (std::int32_t d = 0; d < in.rank; ++d)
      if (dims.length > 0 ? (dropped >> d & 1u) == 0 : in[d] != 1) expected.dims[static_cast<std::size_t>(expected.rank++)] = in[d];
  } else {
    const std::int32_t axis_id = constant_i32_vector(s, im, 1, 1);
    if (axis_id < 0) return;
    const std::int32_t at = normalised_axis(s, im, constant_i32(s, axis_id, 0), in.rank + 1);
    if (at < 0 || !result_rank_fits(s, im, in.rank + 1)) return;
    expected.rank = in.rank + 1;
    for (std::int32_t d = 0; d < expected.rank; ++d)
      expected.dims[static_cast<std::size_t>(d)] = d < at ? in[d] : d == at ? 1 : in[d - 1];
  }
  if (!expect_output_shape(s, im, im.out, expected)) return;
  im.attrs.target = expected.rank > 0 ? expected : make_shape(1);  // a scalar: one element (rank 0 is "copy")
}

// TRANSPOSE: rank <= 5 (TFLM's limit), a constant int32 perm of the input's rank.
template <class S>
constexpr void import_transpose(S& s, op_import& im) {
  if (!expect_inputs(s, im.op, im.plan, im.view, 2, 2)) return;
  im.inputs[0] = operand(s, im.view, 0);
  im.input_count = 1;
  if (s.failed()) return;
  const std::int32_t rank = s.m.tensor_at(im.inputs[0]).dims.rank;
  if (rank > 5)  // TFLM's limit
    return s.fail(error_code::unsupported_rank, im.op, im.plan.kind, {.rank_expected = 5, .rank_actual = rank});
  const std::int32_t perm = constant_i32_vector(s, im, 1, rank);
  if (perm < 0) return;
  for (std::int32_t d = 0; d < rank; ++d) im.attrs.transpose.perm[static_cast<std::size_t>(d)] = constant_i32(s, perm, d);
}

// The data operand of a slicing op: written to im.inputs[0]; its shape, or rank 0 after a diagnostic.
template <class S>
constexpr shape sliced_input(S& s, op_import& im, std::uint32_t slot) {
  im.inputs[0] = operand(s, im.view, slot);
  im.input_count = 1;
  if (s.failed()) return {};
  return s.m.tensor_at(im.inputs[0]).dims;
}

// STRIDED_SLICE as TFLM runs it (strided_slice_logic.h's StartForAxis and StopForAxis): rank <= 4 (TFLM's
// limit); begin, end and strides constant int32 of the input's rank; begin_mask, end_mask and
// shrink_axis_mask. TFLM ignores ellipsis_mask and new_axis_mask (it sets them to 0), and `offset`: a model
// that sets them is refused rather than run differently from what its converter meant.
template <class S>
constexpr void import_strided_slice(S& s, op_import& im) {
  if (!expect_inputs(s, im.op, im.plan, im.view, 4, 4)) return;
  const shape in = sliced_input(s, im, 0);
  if (s.failed()) return;
  if (in.rank > 4)
    return s.fail(error_code::unsupported_rank, im.op, im.plan.kind, {.rank_expected = 4, .rank_actual = in.rank}, {}, in);
  const std::int32_t begin = constant_i32_vector(s, im, 1, in.rank);
  const std::int32_t end = begin < 0 ? -1 : constant_i32_vector(s, im, 2, in.rank);
  const std::int32_t strides = end < 0 ? -1 : constant_i32_vector(s, im, 3, in.rank);
  if (strides < 0) return;
  flatbuffers::reader& r = s.f.reader();
  namespace o = schema::strided_slice;
  const auto mask = [&](std::uint32_t field) { return r.scalar<std::int32_t>(im.plan.options, field, 0); };
  const std::int32_t begin_mask = mask(o::begin_mask), end_mask = mask(o::end_mask), shrink = mask(o::shrink_axis_mask);
  if (s.take_reader_error()) return;
  for (const std::uint32_t field : {o::ellipsis_mask, o::new_axis_mask})
    if (const std::int32_t value = mask(field); value != 0) return option_error(s, im, field, value);
  if (const bool offset = r.scalar<bool>(im.plan.options, o::offset, false); offset) return option_error(s, im, o::offset, 1);
  if (s.take_reader_error()) return;
  constexpr std::int64_t lowest = -0x80000000LL, highest = 0x7fffffff;
  shape kept{};  // the extents of the axes not shrunk: the output's shape (TFLM's CheckOutputSize)
  for (std::int32_t d = 0; d < in.rank; ++d) {
    const auto k = static_cast<std::size_t>(d);
    const std::int64_t size = in[d], stride = constant_i32(s, strides, d);
    if (stride == 0) return s.fail(frontend_error::tflite_unsupported_operand, im.op, im.plan.kind,
                                   {.operator_code = static_cast<std::int64_t>(im.plan.code), .input_slot = 3});
    // TFLM's clamp: [0, size] walking forwards, [-1, size - 1] backwards.
    const auto clamp = [&](std::int64_t v) {
      v = v < 0 ? v + size : v;
      const std::int64_t low = stride > 0 ? 0 : -1, high = stride > 0 ? size : size - 1;
      return v < low ? low : v > high ? high : v;
    };
    const std::int64_t start = clamp((begin_mask >> d & 1) != 0 ? (stride > 0 ? lowest : highest) : constant_i32(s, begin, d));
    const std::int64_t stop = (shrink >> d & 1) != 0 ? start + 1
                              : clamp((end_mask >> d & 1) != 0 ? (stride > 0 ? highest : lowest) : constant_i32(s, end, d));
    const std::int64_t span = stride > 0 ? stop - start : start - stop, step = stride > 0 ? stride : -stride;
    im.attrs.slice.begin[k] = static_cast<std::int32_t>(start);
    im.attrs.slice.stride[k] = static_cast<std::int32_t>(stride);
    im.attrs.slice.extent[k] = span > 0 ? static_cast<std::int32_t>((span + step - 1) / step) : 0;  // 0: refused by infer
    if ((shrink >> d & 1) == 0) kept.dims[static_cast<std::size_t>(kept.rank++)] = im.attrs.slice.extent[k];
  }
  if (!expect_output_shape(s, im, im.out, kept)) return;
  im.attrs.target = kept.rank > 0 ? kept : make_shape(1);  // every axis shrunk: one element
}

// SLICE: rank <= 5 (TFLM's limit), constant int32 begin and size of the input's rank; a size of -1 runs to
// the end.
template <class S>
constexpr void import_slice(S& s, op_import& im) {
  if (!expect_inputs(s, im.op, im.plan, im.view, 3, 3)) return;
  const shape in = sliced_input(s, im, 0);
  if (s.failed()) return;
  if (in.rank > 5)  // TFLM's limit
    return s.fail(error_code::unsupported_rank, im.op, im.plan.kind, {.rank_expected = 5, .rank_actual = in.rank}, {}, in);
  const std::int32_t begin = constant_i32_vector(s, im, 1, in.rank);
  const std::int32_t size = begin < 0 ? -1 : constant_i32_vector(s, im, 2, in.rank);
  if (size < 0) return;
  im.attrs.slice = slice_fields::whole(in);
  for (std::int32_t d = 0; d < in.rank; ++d) {
    const auto k = static_cast<std::size_t>(d);
    const std::int32_t from = constant_i32(s, begin, d), extent = constant_i32(s, size, d);
    im.attrs.slice.begin[k] = from;
    im.attrs.slice.extent[k] = extent == -1 && from >= 0 && from < in[d] ? in[d] - from : extent;  // bounds: infer
  }
  shape window = in;
  for (std::int32_t d = 0; d < in.rank; ++d) window.dims[static_cast<std::size_t>(d)] = im.attrs.slice.extent[static_cast<std::size_t>(d)];
  expect_output_shape(s, im, im.out, window);
}

// One slice node per output of a SPLIT or an UNPACK: output k is the window `window` moved by k * `step`
// along `axis` (extent from the output's own shape when `from_output`: SPLIT_V's sizes), under the output's
// shape.
template <class S>
constexpr void add_slice_per_output(S& s, op_import& im, slice_fields window, std::int32_t axis, bool from_output) {
  const name label = numbered(name_of(im.plan.kind), static_cast<std::size_t>(im.op));
  const shape in = s.m.tensor_at(im.inputs[0]).dims;
  std::int64_t at = 0;
  for (std::uint32_t k = 0; k < im.view.outputs.length; ++k) {
    const std::int32_t out = s.f.index_at(im.view.outputs, k);
    // The driver checked each output; one listed twice has its producer by now.
    if (s.m.tensor_at(out).producer >= 0) return s.malformed(im.view.outputs.position(k), flatbuffers::expectation::op_output);
    const shape dims = s.m.tensor_at(out).dims;
    const auto a = static_cast<std::size_t>(axis);
    if (from_output) {
      if (dims.rank != in.rank) return s.fail(error_code::input_shapes_differ, im.op, im.plan.kind, {}, in, dims);
      window.extent[a] = dims[axis];
    }
    if (at + window.extent[a] > in[axis])
      return s.fail(error_code::input_shapes_differ, im.op, im.plan.kind, {.axis = axis}, in, dims);
    window.begin[a] = static_cast<std::int32_t>(at);
    at += window.extent[a];
    node* n = s.add_node(im.plan.kind, label, out);  // the row's: slice
    if (n == nullptr) return;
    n->attrs.slice = window;
    n->attrs.target = dims.rank > 0 ? dims : make_shape(1);
    n->inputs[0] = im.inputs[0];
    n->input_count = 1;
  }
  if (at != in[axis]) s.fail(error_code::input_shapes_differ, im.op, im.plan.kind, {.axis = axis}, in, {});
}

// SPLIT (axis, input; num_splits equal parts) and SPLIT_V (input, size_splits, axis): the axis a constant
// int32 scalar; each output's extent along it is the output tensor's (as TFLM's kernels read it), the parts
// covering the input in order.
template <class S>
constexpr void import_split(S& s, op_import& im) {
  const bool sized = im.plan.code == builtin_operator::split_v;
  if (!expect_inputs(s, im.op, im.plan, im.view, sized ? 3 : 2, sized ? 3 : 2)) return;
  const shape in = sliced_input(s, im, sized ? 0 : 1);
  if (s.failed()) return;
  const std::int32_t axis_id = constant_i32_vector(s, im, sized ? 2 : 0, 1);
  if (axis_id < 0) return;
  const std::int32_t axis = normalised_axis(s, im, constant_i32(s, axis_id, 0), in.rank);
  if (axis < 0) return;
  add_slice_per_output(s, im, slice_fields::whole(in), axis, true);
}

// UNPACK (num, axis): output k is the input's slice k along the axis, without that axis.
template <class S>
constexpr void import_unpack(S& s, op_import& im) {
  if (!expect_inputs(s, im.op, im.plan, im.view, 1, 1)) return;
  const shape in = sliced_input(s, im, 0);
  if (s.failed()) return;
  const std::int32_t axis =
      normalised_axis(s, im, s.f.reader().template scalar<std::int32_t>(im.plan.options, schema::unpack::axis, 0), in.rank);
  if (axis < 0 || s.take_reader_error()) return;
  slice_fields window = slice_fields::whole(in);
  window.extent[static_cast<std::size_t>(axis)] = 1;
  add_slice_per_output(s, im, window, axis, false);
}

// PACK (axis in [-rank - 1, rank]): each input, of one shape, viewed with a unit dim at the axis (a reshape
// into a tensor quantized as the result, so that the concat copies), then concatenated along it.
template <class S>
constexpr void import_pack(S& s, op_import& im) {
  const std::uint32_t count = im.view.inputs.length;
  if (count < 1 || count > max_node_inputs)
    return s.fail(error_code::input_count_mismatch, im.op, im.plan.kind,
                  {.count_expected = count < 1 ? 1 : static_cast<std::int64_t>(max_node_inputs), .count_actual = count});
  const shape in = sliced_input(s, im, 0);
  if (s.failed()) return;
  const std::int32_t axis =
      normalised_axis(s, im, s.f.reader().template scalar<std::int32_t>(im.plan.options, schema::pack::axis, 0), in.rank + 1);
  if (axis < 0 || s.take_reader_error() || !result_rank_fits(s, im, in.rank + 1)) return;
  shape unit{};
  unit.rank = in.rank + 1;
  for (std::int32_t d = 0; d < unit.rank; ++d) unit.dims[static_cast<std::size_t>(d)] = d < axis ? in[d] : d == axis ? 1 : in[d - 1];
  for (std::uint32_t k = 0; k < count; ++k) {
    const std::int32_t x = operand(s, im.view, k);
    if (s.failed()) return;
    if (s.m.tensor_at(x).dims != in)
      return s.fail(error_code::input_shapes_differ, im.op, im.plan.kind, {.input_slot = k}, in, s.m.tensor_at(x).dims);
    const name label = numbered("pack_input", static_cast<std::size_t>(im.op));
    const std::int32_t view = s.add_tensor_like(im.out, unit, label);
    if (view < 0 || !s.reshape(x, view, unit, label)) return;
    im.inputs[k] = view;
  }
  im.input_count = static_cast<std::int32_t>(count);
  im.attrs.axis = axis;
}

// DEPTH_TO_SPACE and SPACE_TO_DEPTH (rank 4, block_size b >= 1): TensorFlow's block order, channel
// (by * b + bx) * C + c, as a transpose of two middle dims between reshapes (views):
//   DEPTH_TO_SPACE [N, H, W, C]: [N*H, W, b, C/b] -> perm (0, 2, 1, 3) -> [N, H*b, W*b, C/(b*b)];
//   SPACE_TO_DEPTH [N, H, W, C]: [N*H/b, b, W/b, b*C] -> perm (0, 2, 1, 3) -> [N, H/b, W/b, b*b*C].
template <class S>
constexpr void import_block_rearrange(S& s, op_import& im) {
  const bool to_space = im.plan.code == builtin_operator::depth_to_space;
  if (!expect_inputs(s, im.op, im.plan, im.view, 1, 1)) return;
  const shape in = sliced_input(s, im, 0);
  if (s.failed() || !expect_rank(s, im.op, im.plan, im.inputs[0], 4)) return;
  const std::int32_t b = s.f.reader().template scalar<std::int32_t>(im.plan.options, schema::depth_to_space::block_size, 0);
  if (s.take_reader_error()) return;
  if (b < 1 || b > max_window_value) return option_error(s, im, schema::depth_to_space::block_size, b);
  // Once the block divides the input, every extent below is at most the input's element count: no overflow.
  const bool divides = to_space ? in[3] % (std::int64_t{b} * b) == 0 : in[1] % b == 0 && in[2] % b == 0;
  if (!divides) return s.fail(error_code::input_shapes_differ, im.op, im.plan.kind, {.axis = to_space ? 3 : 1}, {}, in);
  const shape out = to_space ? make_shape(in[0], in[1] * b, in[2] * b, in[3] / (b * b))
                             : make_shape(in[0], in[1] / b, in[2] / b, in[3] * b * b);
  if (!expect_output_shape(s, im, im.out, out)) return;
  const shape before = to_space ? make_shape(in[0] * in[1], in[2], b, in[3] / b) : make_shape(in[0] * in[1] / b, b, in[2] / b, b * in[3]);
  const shape after = make_shape(before[0], before[2], before[1], before[3]);
  const name label = numbered(to_space ? "depth_to_space" : "space_to_depth", static_cast<std::size_t>(im.op));
  const std::int32_t grouped = s.add_tensor_like(im.out, before, label);
  if (grouped < 0 || !s.reshape(im.inputs[0], grouped, before, label)) return;
  const std::int32_t moved = s.add_tensor_like(im.out, after, label);
  if (moved < 0 || !s.transpose(grouped, moved, transpose_fields{{0, 2, 1, 3}}, label)) return;
  im.inputs[0] = moved;
  im.attrs.target = out;
}

// GATHER (axis, batch_dims 0 only): int32 indices, a constant (each inside the axis, as TFLM assumes) or
// computed (the kernel clamps one outside).
template <class S>
constexpr void import_gather(S& s, op_import& im) {
  if (!expect_inputs(s, im.op, im.plan, im.view, 2, 2)) return;
  const shape in = sliced_input(s, im, 0);
  im.inputs[1] = operand(s, im.view, 1);
  im.input_count = 2;
  if (s.failed()) return;
  flatbuffers::reader& r = s.f.reader();
  const std::int32_t batch_dims = r.scalar<std::int32_t>(im.plan.options, schema::gather::batch_dims, 0);
  const std::int32_t axis = normalised_axis(s, im, r.scalar<std::int32_t>(im.plan.options, schema::gather::axis, 0), in.rank);
  if (axis < 0 || s.take_reader_error()) return;
  if (batch_dims != 0) return option_error(s, im, schema::gather::batch_dims, batch_dims);
  const tensor& indices = s.m.tensor_at(im.inputs[1]);
  if (indices.type != dtype::i32)
    return s.fail(frontend_error::tflite_unsupported_operand, im.op, im.plan.kind,
                  {.operator_code = static_cast<std::int64_t>(im.plan.code), .input_slot = 1});
  if (indices.role == tensor_role::constant)
    for (std::int64_t k = 0; k < indices.dims.elements(); ++k)
      if (const std::int32_t at = constant_i32(s, im.inputs[1], k); at < 0 || at >= in[axis])
        return s.fail(frontend_error::tflite_unsupported_operand, im.op, im.plan.kind,
                      {.operator_code = static_cast<std::int64_t>(im.plan.code), .input_slot = 1});
  im.attrs.axis = axis;
}

}  // namespace ctnn::tflite::detail
