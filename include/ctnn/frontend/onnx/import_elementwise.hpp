#pragma once
// The ONNX importer's element-wise ops (import.hpp; rows in import_table.hpp): Relu, Sigmoid, Tanh,
// GlobalAveragePool, Clip, Add and Mul (float, and plain integers with ONNX's wrap-around), Softmax, the
// math of one operand (Abs, Neg, Sqrt, Reciprocal, Exp, Log, Sin, Cos, Floor, Ceil, Round); the float32
// activations LeakyRelu, Elu, HardSigmoid, HardSwish, PRelu, and Max and Min.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include <ctnn/frontend/onnx/import_layouts.hpp>

namespace ctnn::onnx::detail {

// An op of one activation operand and one result, whose node `build(x)` adds on the operand x: in the
// operand's layout, or NHWC when the op needs it (a 1-D operand stays [N, 1, L, C]).
template <class S, class Build>
constexpr void unary_with(S& s, std::int32_t v, std::int32_t result, bool needs_nhwc, Build build) {
  if (held_1d(s, v) || (needs_nhwc && onnx_shape(s, v).rank == 3)) {  // a 1-D activation: [N, 1, L, C] in and out
    const std::int32_t x = as_nhwc_1d(s, v, 0);
    return define(s, result, build(x), true, true);
  }
  const bool nhwc = needs_nhwc || prefers_nhwc(s, v);
  const std::int32_t x = nhwc ? as_nhwc(s, v, 0) : as_onnx(s, v, 0);
  define(s, result, build(x), nhwc);
}

// unary_with a node of kind `kind`.
template <class S>
constexpr void unary_of(S& s, std::int32_t v, std::int32_t result, op_kind kind, bool needs_nhwc,
                        const op_attributes& a = {}) {
  unary_with(s, v, result, needs_nhwc, [&](std::int32_t x) { return s.add_node(kind, a, {x}, s.label_of(result)); });
}

// A constant operand of an element-wise op next to an NHWC activation: padded to rank 4 on the left
// (numpy broadcasting), then re-laid out as NHWC.
template <class S>
constexpr std::int32_t broadcast_constant_nhwc(S& s, std::int32_t v, std::uint32_t slot) {
  const shape xs = s.constant_shape(v);
  if (s.failed()) return -1;
  if (xs.rank > 4) return s.rank_error(slot, xs), -1;
  shape padded = make_shape(1, 1, 1, 1);
  for (std::int32_t d = 0; d < xs.rank; ++d) padded.dims[static_cast<std::size_t>(4 - xs.rank + d)] = xs[d];
  const std::array<std::int64_t, 4> nchw_strides{static_cast<std::int64_t>(padded[1]) * padded[2] * padded[3],
                                                 static_cast<std::int64_t>(padded[2]) * padded[3], padded[3], 1};
  return s.gathered(v, slot, to_nhwc(padded), {nchw_strides[0], nchw_strides[2], nchw_strides[3], nchw_strides[1]},
                    1.0f);
}

// An integer (or bool) constant read in place (zero-copy into the embedded bytes, ONNX's shape): raw_data of
// `type`, aligned to its element size, since the kernels read typed elements.
template <class S>
constexpr std::int32_t integer_constant(S& s, std::int32_t v, std::uint32_t slot, dtype type) {
  if (s.at(v).onnx_layout >= 0) return s.at(v).onnx_layout;
  if (s.is_known(v)) {  // a constant tensor of its elements (import_known.hpp), of the op's type
    if (s.known_of(v).type != type)
      return s.fail(onnx_error::integer_arithmetic, {.operator_code = static_cast<std::int64_t>(s.current), .input_slot = slot}), -1;
    return s.at(v).onnx_layout = s.known_tensor(v);
  }
  const tensor_view t = s.f.read_tensor(s.at(v).proto);
  if (s.take_reader_error() || !s.checked_tensor(v, t)) return -1;
  if ((!is_integer(t.type) && t.type != data_type::bool_) || dtype_of(t.type) != type)
    return s.fail(onnx_error::integer_arithmetic,
                  {.operator_code = static_cast<std::int64_t>(s.current), .input_slot = slot}),
           -1;
  if (t.data_field != schema::tensor::raw_data)
    return s.fail(
               onnx_error::unsupported_tensor_feature,
               {.byte_offset = s.at(v).name.at, .reason = static_cast<std::int64_t>(tensor_feature::unpacked_values)}),
           -1;
  if (static_cast<std::int64_t>(t.data.length) != t.dims.elements() * element_bytes(t.type))
    return s.malformed(t.proto.at, protobuf::expectation::tensor_data), -1;
  if (t.data.at % element_bytes(t.type) != 0)
    return s.fail(onnx_error::unsupported_tensor_feature,
                  {.byte_offset = s.at(v).name.at,
                   .reason = static_cast<std::int64_t>(tensor_feature::unaligned_integers)}),
           -1;
  const std::int32_t id = s.add_tensor(t.dims.rank == 0 ? make_shape(1) : t.dims, s.label_of(v), tensor_role::constant);
  if (id < 0) return -1;
  s.m.tensor_at(id).type = type;
  s.m.tensor_at(id).data.bytes = s.f.reader().pointer(t.data.at);
  s.m.tensor_at(id).data.file = s.f.reader().pointer(0);
  return s.at(v).onnx_layout = id;
}

// The nodes of an element-wise op over its operands `x` (tensor ids), folded left: op(op(x0, x1), x2) ...;
// the last one writes `result`, the others a tensor labelled after the node. Returns the last node's tensor.
template <class S, std::size_t N>
constexpr std::int32_t fold_operands(S& s, op_kind kind, const std::array<std::int32_t, N>& x, std::uint32_t count,
                                     std::int32_t result, const op_attributes& a = {}) {
  std::int32_t folded = x[0];
  for (std::uint32_t k = 1; k < count && !s.failed(); ++k)
    folded = s.add_node(kind, a, {folded, x[k]},
                        k + 1 == count ? s.label_of(result) : numbered("fold", static_cast<std::size_t>(s.node_index)));
  return folded;
}

// Add/Mul/Sub/Max/Min of plain integers: ONNX's semantics (the result wraps around in the element type),
// run by the kernels of ONNX's integer ops (kernel/reference/onnx_quant). All operands of one integer type,
// in the ONNX layout (numpy broadcasting); a constant operand is read in place.
template <class S>
constexpr void integer_binary(S& s, const operands& o, std::int32_t result, op_kind kind, dtype type) {
  std::array<std::int32_t, max_node_inputs + 1> x{};
  for (std::uint32_t slot = 0; slot < o.count; ++slot) {
    const std::int32_t v = o.id[slot];
    x[slot] = s.is_constant(v) ? integer_constant(s, v, slot, type) : as_onnx(s, v, slot);
    if (s.failed() || x[slot] < 0) return;
    if (s.m.tensor_at(x[slot]).type != type)
      return s.fail(onnx_error::integer_arithmetic,
                    {.operator_code = static_cast<std::int64_t>(s.current), .input_slot = slot});
  }
  define(s, result, fold_operands(s, kind, x, o.count, result), false);
}

// Relu, Sigmoid, Tanh: the row's kind (import_table.hpp) in the operand's layout; GlobalAveragePool in NHWC.
template <class S>
constexpr void import_unary(S& s, const node_view&, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 1, 1) || !expect_activation(s, o, 0)) return;
  unary_of(s, o.id[0], result, s.current_kind, s.current_kind == op_kind::global_avg_pool);
}

// The math of one operand (Abs, Neg, Sqrt, Reciprocal, Exp, Log, Sin, Cos, Floor, Ceil, Round): the row's kind
// in the operand's layout. A constant operand (exports compute e.g. Sqrt of a constant head size) becomes a
// constant tensor, whose op fold_constants computes at compile time.
template <class S>
constexpr void import_unary_math(S& s, const node_view&, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 1, 1)) return;
  unary_of(s, o.id[0], result, s.current_kind, false);
}

// Clip's bounds (attributes before opset 11, constant operands after; absent: none), checked: false after a
// diagnostic. min > max: every result is max (ONNX, numpy.clip).
template <class S>
constexpr bool clip_bounds(S& s, const node_view& n, const operands& o, float& low, float& high) {
  low = -float_max, high = float_max;
  if (s.f.opset() < 11) {
    low = float_attribute(s, n, "min", low);
    high = float_attribute(s, n, "max", high);
  } else {
    if (o.count > 1 && o.id[1] >= 0) low = expect_constant(s, o, 1) ? constant_scalar(s, o.id[1], 1) : 0.0f;
    if (o.count > 2 && o.id[2] >= 0) high = expect_constant(s, o, 2) ? constant_scalar(s, o.id[2], 2) : 0.0f;
  }
  if (s.failed() || s.take_reader_error()) return false;
  if (low != low) return s.f.opset() < 11 ? s.attribute_error(attribute::min, -1) : s.operand_value_error(1, 0, low), false;
  if (high != high) return s.f.opset() < 11 ? s.attribute_error(attribute::max, -1) : s.operand_value_error(2, 0, high), false;
  if (low > high) low = high;
  return true;
}

// Clip(0, 6) is relu6, Clip(0, max) relu, Clip without bounds the identity, any other Clip a clip op.
template <class S>
constexpr void import_clip(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 1, 3) || !expect_activation(s, o, 0)) return;
  float low = 0.0f, high = 0.0f;
  if (!clip_bounds(s, n, o, low, high)) return;
  if (low <= -float_max && high >= float_max)    // no bounds: the identity (a copy, or a view)
    return unary_with(s, o.id[0], result, false, [&](std::int32_t x) { return s.reshape(x, {}, s.label_of(result)); });
  const std::int32_t x = s.at(o.id[0]).onnx_layout >= 0 ? s.at(o.id[0]).onnx_layout : s.at(o.id[0]).nhwc;
  const bool is_float = x >= 0 && s.m.tensor_at(x).type == dtype::f32;  // int8 relu would requantize
  if (is_float && low == 0.0f && (high == 6.0f || high >= float_max))
    return unary_of(s, o.id[0], result, high == 6.0f ? op_kind::relu6 : op_kind::relu, false);
  op_attributes a{};
  a.clip = {std::bit_cast<std::uint32_t>(low), std::bit_cast<std::uint32_t>(high)};
  unary_of(s, o.id[0], result, s.current_kind, false, a);  // the row's: clip
}

// Add, Mul, Sub (two operands), Max, Min (any count; the row's kind): float32, or plain integers
// (integer_binary), folded left (fold_operands) with attributes `a`; `finish(tensor)` gives the result from
// the last node's tensor (ONNX Mean: the sum divided).
template <class S, class Finish>
constexpr void binary_nodes(S& s, const operands& o, std::int32_t result, const op_attributes& a, Finish finish) {
  // Every operand is a value: an omitted one (an empty name), even a trailing one that expect_inputs does
  // not count, is an error (these ops have no optional operand).
  for (std::uint32_t k = 0; k < o.count; ++k)
    if (o.id[k] < 0) return s.operand_error(k);
  const op_kind kind = s.current_kind;
  // The first operand's type decides (ONNX gives all one type; integer_binary checks the others).
  if (const dtype type = element_type(s, o.id[0]); type != dtype::f32)
    return s.failed() ? void() : integer_binary(s, o, result, kind, type);
  // NHWC when an activation operand has it and every other operand can follow: a rank-4 activation, or
  // a constant (re-laid out). Otherwise all in the ONNX layout.
  bool prefers = false, all_follow = true, some_rank_4 = false;
  for (std::uint32_t slot = 0; slot < o.count; ++slot) {
    const std::int32_t v = o.id[slot];
    const shape sv = onnx_shape(s, v);
    if (s.failed()) return;
    prefers = prefers || prefers_nhwc(s, v);
    all_follow = all_follow && (s.is_constant(v) || sv.rank == 4) && sv.rank <= 4;
    some_rank_4 = some_rank_4 || sv.rank == 4;
  }
  const bool nhwc = prefers && all_follow && some_rank_4;
  std::array<std::int32_t, max_node_inputs + 1> x{};
  for (std::uint32_t slot = 0; slot < o.count; ++slot) {
    const std::int32_t v = o.id[slot];
    if (!nhwc) x[slot] = as_onnx(s, v, slot);
    else x[slot] = s.is_constant(v) ? broadcast_constant_nhwc(s, v, slot) : as_nhwc(s, v, slot);
    if (s.failed()) return;
    if (slot > 0 && s.m.tensor_at(x[slot]).type != dtype::f32)
      return s.fail(onnx_error::integer_arithmetic,
                    {.operator_code = static_cast<std::int64_t>(s.current), .input_slot = slot});
  }
  const std::int32_t folded = fold_operands(s, kind, x, o.count, result, a);
  if (!s.failed()) define(s, result, finish(folded), nhwc);
}
template <class S>
constexpr void import_binary(S& s, const node_view&, const operands& o, std::int32_t result) {
  binary_nodes(s, o, result, {}, [](std::int32_t folded) { return folded; });
}

// An operand that must be float32 (the activations below run on float32 only): operand_type otherwise.
template <class S>
constexpr bool expect_float(S& s, const operands& o, std::uint32_t slot) {
  const dtype type = element_type(s, o.id[slot]);
  if (s.failed()) return false;
  if (type == dtype::f32) return true;
  constexpr data_type types[] = {data_type::uint8, data_type::int8, data_type::int32, data_type::int64};
  data_type actual = data_type::int64;
  for (const data_type t : types)
    if (dtype_of(t) == type) actual = t;
  s.operand_type_error(slot, actual);
  return false;
}

// LeakyRelu (alpha 0.01), Elu (alpha 1), HardSigmoid (alpha 0.2, beta 0.5), HardSwish (none): the row's kind
// with the node's coefficients (or the defaults ONNX gives), float32, in the operand's layout.
template <class S>
constexpr void float_activation(S& s, const node_view& n, const operands& o, std::int32_t result, float alpha,
                                float beta) {
  if (!expect_inputs(s, o, 1, 1) || !expect_activation(s, o, 0) || !expect_float(s, o, 0)) return;
  op_attributes a{};
  a.coefficients = {std::bit_cast<std::uint32_t>(float_attribute(s, n, "alpha", alpha)),
                    std::bit_cast<std::uint32_t>(float_attribute(s, n, "beta", beta))};
  if (s.failed() || s.take_reader_error()) return;
  unary_of(s, o.id[0], result, s.current_kind, false, a);
}
template <class S>
constexpr void import_leaky_relu(S& s, const node_view& n, const operands& o, std::int32_t result) {
  float_activation(s, n, o, result, 0.01f, 0.0f);
}
template <class S>
constexpr void import_elu(S& s, const node_view& n, const operands& o, std::int32_t result) {
  float_activation(s, n, o, result, 1.0f, 0.0f);
}
template <class S>
constexpr void import_hard_sigmoid(S& s, const node_view& n, const operands& o, std::int32_t result) {
  float_activation(s, n, o, result, 0.2f, 0.5f);
}
template <class S>
constexpr void import_hard_swish(S& s, const node_view& n, const operands& o, std::int32_t result) {
  float_activation(s, n, o, result, 0.0f, 0.0f);
}

// Add, Mul, Sub: two operands (import_binary).
template <class S>
constexpr void import_arithmetic(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (expect_inputs(s, o, 2, 2)) import_binary(s, n, o, result);
}

// PRelu (the slope broadcast to X; before opset 7 a slope of C elements per channel): float32, two operands
// (import_binary).
template <class S>
constexpr void import_prelu(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 2, 2) || !expect_float(s, o, 0) || !expect_float(s, o, 1)) return;
  const shape xs = onnx_shape(s, o.id[0]), slopes = onnx_shape(s, o.id[1]);
  if (s.failed()) return;
  // Before opset 7 a slope of C elements is per channel (X [N, C, ...]), not broadcast from the last dim: it
  // is read as [C, 1, ...] through a value of its own (the operands are values).
  if (s.f.opset() >= 7 || xs.rank < 3 || slopes.rank != 1 || slopes[0] == 1) return import_binary(s, n, o, result);
  if (slopes[0] != xs[1]) return s.rank_error(1, slopes);
  shape per_channel = make_shape(slopes[0]);
  for (std::int32_t d = 2; d < xs.rank; ++d) per_channel.dims[static_cast<std::size_t>(per_channel.rank++)] = 1;
  const std::int32_t v = s.hidden_value(o.id[1]);
  if (v < 0) return;
  define(s, v, s.reshape(as_onnx(s, o.id[1], 1), per_channel, numbered("prelu_slope", static_cast<std::size_t>(s.node_index))), false);
  operands channelled = o;
  channelled.id[1] = v;
  if (!s.failed()) import_binary(s, n, channelled, result);
}

// Max, Min, Sum (the row's kind: add): one operand or more (float32 or plain integers of one type), folded
// left; of one operand, the identity.
template <class S>
constexpr void import_extremum(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 1, max_node_inputs)) return;
  if (o.count > 1) return import_binary(s, n, o, result);
  if (!expect_activation(s, o, 0)) return;
  unary_with(s, o.id[0], result, false, [&](std::int32_t x) { return s.reshape(x, {}, s.label_of(result)); });
}

template <class S>
constexpr void import_softmax(S& s, const node_view& n, const operands& o, std::int32_t result) {
  // The row's kind (softmax) over the last axis of `in`.
  const auto softmax = [&](std::int32_t in, const name& label) { return s.add_node(s.current_kind, {}, {in}, label); };
  if (!expect_inputs(s, o, 1, 1) || !expect_activation(s, o, 0)) return;
  const bool v13 = s.f.opset() >= 13;
  const shape xs = onnx_shape(s, o.id[0]);
  std::int64_t axis = int_attribute(s, n, "axis", v13 ? -1 : 1);
  if (s.failed() || s.take_reader_error()) return;
  if (axis < 0) axis += xs.rank;
  if (axis < 0 || axis >= xs.rank) return s.axis_error(axis, xs.rank);
  if (v13 && prefers_nhwc(s, o.id[0]) && axis == 1) {
    const std::int32_t x = as_nhwc(s, o.id[0], 0);  // the channels are the last NHWC axis
    return define(s, result, softmax(x, s.label_of(result)), true);
  }
  const std::int32_t x = as_onnx(s, o.id[0], 0);
  if (axis == xs.rank - 1) return define(s, result, softmax(x, s.label_of(result)), false);
  if (v13) {
    // Another axis: swapped with the last one, the softmax, and swapped back.
    const auto swap = s.swapping(xs.rank, static_cast<std::int32_t>(axis), xs.rank - 1);
    const std::int32_t moved =
        s.transpose(x, swap, numbered("softmax_axis_last", static_cast<std::size_t>(s.node_index)));
    const std::int32_t y = softmax(moved, numbered("softmax", static_cast<std::size_t>(s.node_index)));
    return define(s, result, s.transpose(y, swap, s.label_of(result)), false);
  }
  // Before opset 13: softmax over the flattened [prod(dims < axis), prod(dims >= axis)].
  const std::int32_t flat =
      s.reshape(x, flattened_at(xs, axis), numbered("softmax_2d", static_cast<std::size_t>(s.node_index)));
  const std::int32_t y = softmax(flat, numbered("softmax", static_cast<std::size_t>(s.node_index)));
  define(s, result, s.reshape(y, xs, s.label_of(result)), false);
}

}  // namespace ctnn::onnx::detail
