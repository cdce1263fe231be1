#pragma once
// The TFLite importer's integers computed at import (issues #28, #25; docs/frontends.md, "Integers computed at
// import"): SHAPE and BROADCAST_ARGS (every shape is static, so their results are known), and what STRIDED_SLICE,
// PACK, CONCATENATION, RESHAPE and the integer arithmetic (ADD, SUB, MUL, DIV, FLOOR_DIV, MAXIMUM, MINIMUM) make of
// known values (TF/Keras's SHAPE -> STRIDED_SLICE -> PACK -> RESHAPE, with a MUL of two dims on the way).
// A known tensor has its elements in the importer's store (importer_state::known) and no node writes it;
// RESHAPE's shape operand may be one (the target is the output's static shape, as for any computed shape). Any
// other op that reads a known tensor, or a graph output that is one, is refused
// (tflite_unsupported_tensor_feature, computed_integers).
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/frontend/detail/known_integers.hpp>
#include <ctnn/frontend/tflite/import_operands.hpp>
#include <ctnn/frontend/tflite/import_plan.hpp>
#include <ctnn/frontend/tflite/import_shape_ops.hpp>
#include <ctnn/ir/little_endian.hpp>

namespace ctnn::tflite::detail {

// The elements of tensor `id`: known, or a constant INT32/INT64 tensor of at most max_known_elements; false
// when it is neither.
template <class S>
constexpr bool known_values(const S& s, std::int32_t id, std::array<std::int64_t, S::max_known_elements>& out) {
  if (id < 0) return false;
  const tensor& t = s.m.tensor_at(id);
  const std::int64_t count = t.dims.elements();
  if (count > S::max_known_elements) return false;
  if (s.is_known(id)) {
    for (std::int64_t k = 0; k < count; ++k) out[static_cast<std::size_t>(k)] = s.known_at(id, k);
    return true;
  }
  if (t.role != tensor_role::constant || t.data.bytes == nullptr || (t.type != dtype::i32 && t.type != dtype::i64)) return false;
  for (std::int64_t k = 0; k < count; ++k)
    out[static_cast<std::size_t>(k)] = t.type == dtype::i32 ? load_le<std::int32_t>(t.data.bytes, static_cast<std::size_t>(4 * k))
                                                            : load_le<std::int64_t>(t.data.bytes, static_cast<std::size_t>(8 * k));
  return true;
}

// Stores `values` (the output's element count of them) as op `im`'s known output, in the output's type (INT32 or
// INT64; another type: unsupported_dtype).
template <class S>
constexpr void define_known(S& s, const op_import& im, const std::array<std::int64_t, S::max_known_elements>& values) {
  const tensor& t = s.m.tensor_at(im.out);
  if (t.type != dtype::i32 && t.type != dtype::i64)
    return s.fail(error_code::unsupported_dtype, im.op, im.plan.kind, {.rejected_value = static_cast<std::int64_t>(t.type)}, {}, t.dims);
  const std::int32_t first = s.make_known(im.op, im.out);
  for (std::int64_t k = 0; first >= 0 && k < t.dims.elements(); ++k)
    s.known_data[static_cast<std::size_t>(first + k)] =
        t.type == dtype::i32 ? static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(values[static_cast<std::size_t>(k)])))
                             : values[static_cast<std::size_t>(k)];
}

// The output's static shape against the `count` elements computed (a file whose output shape disagrees is refused).
template <class S>
constexpr bool output_holds(S& s, const op_import& im, std::int64_t count) {
  if (s.m.tensor_at(im.out).dims.elements() == count) return true;
  s.fail(error_code::input_shapes_differ, im.op, im.plan.kind, {}, make_shape(static_cast<std::int32_t>(count)),
         s.m.tensor_at(im.out).dims);
  return false;
}

// SHAPE (its input's dims) and BROADCAST_ARGS (two known or constant shapes broadcast as numpy does).
template <class S>
constexpr void import_known_source(S& s, op_import& im) {
  std::array<std::int64_t, S::max_known_elements> values{};
  if (im.plan.code == builtin_operator::shape) {
    if (!expect_inputs(s, im.op, im.plan, im.view, 1, 1)) return;
    const std::int32_t x = operand(s, im.view, 0);
    if (s.failed()) return;
    const shape xs = s.m.tensor_at(x).dims;
    for (std::int32_t d = 0; d < xs.rank; ++d) values[static_cast<std::size_t>(d)] = xs[d];
    if (output_holds(s, im, xs.rank)) define_known(s, im, values);
    return;
  }
  if (!expect_inputs(s, im.op, im.plan, im.view, 2, 2)) return;
  std::array<std::int64_t, S::max_known_elements> a{}, b{};
  std::array<std::int64_t, 2> rank{};
  for (std::uint32_t k = 0; k < 2; ++k) {
    const std::int32_t id = operand(s, im.view, k);
    if (s.failed()) return;
    if (s.m.tensor_at(id).dims.rank != 1 || !known_values(s, id, k == 0 ? a : b))
      return s.fail(frontend_error::tflite_unsupported_operand, im.op, im.plan.kind,
                    {.operator_code = static_cast<std::int64_t>(im.plan.code), .input_slot = k});
    rank[k] = s.m.tensor_at(id).dims[0];
  }
  const std::int64_t out = rank[0] > rank[1] ? rank[0] : rank[1];
  for (std::int64_t d = 0; d < out; ++d) {
    const std::int64_t x = d - (out - rank[0]) >= 0 ? a[static_cast<std::size_t>(d - (out - rank[0]))] : 1;
    const std::int64_t y = d - (out - rank[1]) >= 0 ? b[static_cast<std::size_t>(d - (out - rank[1]))] : 1;
    if (x != y && x != 1 && y != 1)
      return s.fail(error_code::input_shapes_differ, im.op, im.plan.kind, {.input_slot = 1});
    values[static_cast<std::size_t>(d)] = x == 1 ? y : x;
  }
  if (output_holds(s, im, out)) define_known(s, im, values);
}

// PACK of known or constant integers (at least one known) along `axis`; false when it is not one.
template <class S>
constexpr bool fold_pack(S& s, op_import& im) {
  const std::uint32_t count = im.view.inputs.length;
  bool any_known = false;
  std::array<std::int64_t, S::max_known_elements> part{}, values{};
  for (std::uint32_t k = 0; k < count; ++k) {
    const std::int32_t id = s.f.index_at(im.view.inputs, k);
    if (s.take_reader_error() || id < 0 || static_cast<std::uint32_t>(id) >= s.f.tensor_count()) return false;
    if (!known_values(s, id, part)) return false;
    any_known = any_known || s.is_known(id);
  }
  if (!any_known || count < 1) return false;
  const shape in = s.m.tensor_at(s.f.index_at(im.view.inputs, 0)).dims;
  const std::int32_t axis =
      normalised_axis(s, im, s.f.reader().template scalar<std::int32_t>(im.plan.options, schema::pack::axis, 0), in.rank + 1);
  if (axis < 0 || s.take_reader_error()) return true;
  std::int64_t outer = 1;
  for (std::int32_t d = 0; d < axis; ++d) outer *= in[d];
  const std::int64_t inner = outer > 0 ? in.elements() / outer : 0;
  if (in.elements() * count > S::max_known_elements)
    return s.computed_integers_error(im.op, im.out, tensor_feature::computed_integers_capacity), true;
  if (!output_holds(s, im, in.elements() * count)) return true;
  for (std::uint32_t k = 0; k < count; ++k) {
    const std::int32_t id = s.f.index_at(im.view.inputs, k);
    if (s.m.tensor_at(id).dims != in)
      return s.fail(error_code::input_shapes_differ, im.op, im.plan.kind, {.input_slot = k}, in, s.m.tensor_at(id).dims), true;
    known_values(s, id, part);
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t e = 0; e < inner; ++e)
        values[static_cast<std::size_t>((o * count + k) * inner + e)] = part[static_cast<std::size_t>(o * inner + e)];
  }
  define_known(s, im, values);
  return true;
}

// After an op's import function filled `im`: a STRIDED_SLICE, CONCATENATION or RESHAPE whose inputs are known or
// constant integers (at least one known) is evaluated here instead of becoming a node (true). An op of another
// kind over a known input is refused (true). false: no known input, the driver adds the node.
template <class S>
constexpr bool fold_known_result(S& s, op_import& im) {
  bool any_known = false;
  for (std::int32_t k = 0; k < im.input_count; ++k) any_known = any_known || s.is_known(im.inputs[static_cast<std::size_t>(k)]);
  if (!any_known) return false;
  const ops::integer_evaluation evaluate = frontend_detail::integer_evaluation_of(im.plan.kind);
  std::array<std::int64_t, S::max_known_elements> values{}, part{};
  for (std::int32_t k = 0; k < im.input_count; ++k) {
    const std::int32_t id = im.inputs[static_cast<std::size_t>(k)];
    const bool readable = im.plan.job == import_job::strided_slice || im.plan.job == import_job::concat ||
                          im.plan.job == import_job::reshape || im.plan.job == import_job::reshape_to_output ||
                          (im.plan.job == import_job::binary && evaluate.apply != nullptr && !evaluate.bool_result);
    if (!readable || !known_values(s, id, part) || im.fused != activation::none) {
      std::int32_t known = id;  // the first known input, named in the diagnostic
      for (std::int32_t j = im.input_count - 1; j >= 0; --j)
        if (s.is_known(im.inputs[static_cast<std::size_t>(j)])) known = im.inputs[static_cast<std::size_t>(j)];
      return s.computed_integers_error(im.op, known), true;
    }
  }
  const shape out = s.m.tensor_at(im.out).dims;
  if (im.plan.job == import_job::binary) {  // numpy broadcasting, wrapping in the output's type (define_known)
    std::array<std::int64_t, S::max_known_elements> b{};
    const shape as = s.m.tensor_at(im.inputs[0]).dims, bs = s.m.tensor_at(im.inputs[1]).dims;
    known_values(s, im.inputs[0], part);
    known_values(s, im.inputs[1], b);
    shape dims{};
    if (!frontend_detail::broadcast_dims(as, bs, dims) || !output_holds(s, im, dims.elements())) {
      if (!s.failed()) s.fail(error_code::input_shapes_differ, im.op, im.plan.kind, {.input_slot = 1}, as, bs);
      return true;
    }
    for (std::int64_t k = 0; k < dims.elements(); ++k) {
      const std::int64_t x = part[static_cast<std::size_t>(frontend_detail::broadcast_source(dims, as, k))];
      const std::int64_t y = b[static_cast<std::size_t>(frontend_detail::broadcast_source(dims, bs, k))];
      if (y == 0 && evaluate.divides)
        return s.fail(frontend_error::tflite_unsupported_operand, im.op, im.plan.kind,
                      {.operator_code = static_cast<std::int64_t>(im.plan.code), .input_slot = 1}), true;
      values[static_cast<std::size_t>(k)] = evaluate.apply(x, y);
    }
    define_known(s, im, values);
    return true;
  }
  if (im.plan.job == import_job::strided_slice) {  // the window import_strided_slice computed
    const std::int32_t x = im.inputs[0];
    const shape xs = s.m.tensor_at(x).dims;
    known_values(s, x, part);
    shape taken = xs;
    for (std::int32_t d = 0; d < xs.rank; ++d) taken.dims[static_cast<std::size_t>(d)] = im.attrs.slice.extent[static_cast<std::size_t>(d)];
    for (std::int64_t k = 0; k < taken.elements(); ++k) {
      std::int64_t rest = k, source = 0, stride = 1;
      for (std::int32_t d = xs.rank - 1; d >= 0; --d) {
        const auto a = static_cast<std::size_t>(d);
        source += (im.attrs.slice.begin[a] + rest % taken[d] * im.attrs.slice.stride[a]) * stride;
        rest /= taken[d];
        stride *= xs[d];
      }
      values[static_cast<std::size_t>(k)] = part[static_cast<std::size_t>(source)];
    }
    if (output_holds(s, im, taken.elements())) define_known(s, im, values);
    return true;
  }
  if (im.plan.job == import_job::concat) {  // along im.attrs.axis, row by row
    const shape first = s.m.tensor_at(im.inputs[0]).dims;
    const std::int32_t axis = normalised_axis(s, im, im.attrs.axis, first.rank);
    if (axis < 0) return true;
    std::int64_t outer = 1;
    for (std::int32_t d = 0; d < axis; ++d) outer *= first[d];
    std::int64_t at = 0;
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int32_t k = 0; k < im.input_count; ++k) {
        const std::int32_t id = im.inputs[static_cast<std::size_t>(k)];
        known_values(s, id, part);
        const std::int64_t row = outer > 0 ? s.m.tensor_at(id).dims.elements() / outer : 0;
        for (std::int64_t e = 0; e < row && at < S::max_known_elements; ++e) values[static_cast<std::size_t>(at++)] = part[static_cast<std::size_t>(o * row + e)];
      }
    if (output_holds(s, im, at)) define_known(s, im, values);
    return true;
  }
  // RESHAPE, SQUEEZE, EXPAND_DIMS: the elements as they are, in the output's shape.
  known_values(s, im.inputs[0], values);
  if (output_holds(s, im, s.m.tensor_at(im.inputs[0]).dims.elements())) define_known(s, im, values);
  (void)out;
  return true;
}

}  // namespace ctnn::tflite::detail
