#pragma once
// The ONNX importer's element-wise ops (import.hpp): Relu, Sigmoid, Tanh, GlobalAveragePool, Clip, Add and
// Mul (float, and plain integers with ONNX's wrap-around), Softmax.
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/frontend/onnx/import_linear.hpp>

namespace ctnn::onnx::detail {

template <class Module, std::size_t MaxValues, std::size_t MaxRelayouts>
struct elementwise_importer : linear_importer<Module, MaxValues, MaxRelayouts> {
  using typename linear_importer<Module, MaxValues, MaxRelayouts>::operands;
  using linear_importer<Module, MaxValues, MaxRelayouts>::f;
  using linear_importer<Module, MaxValues, MaxRelayouts>::m;
  using linear_importer<Module, MaxValues, MaxRelayouts>::values;
  using linear_importer<Module, MaxValues, MaxRelayouts>::node_index;
  using linear_importer<Module, MaxValues, MaxRelayouts>::current;
  using linear_importer<Module, MaxValues, MaxRelayouts>::failed;
  using linear_importer<Module, MaxValues, MaxRelayouts>::fail;
  using linear_importer<Module, MaxValues, MaxRelayouts>::take_reader_error;
  using linear_importer<Module, MaxValues, MaxRelayouts>::malformed;
  using linear_importer<Module, MaxValues, MaxRelayouts>::attribute_error;
  using linear_importer<Module, MaxValues, MaxRelayouts>::operand_error;
  using linear_importer<Module, MaxValues, MaxRelayouts>::operand_value_error;
  using linear_importer<Module, MaxValues, MaxRelayouts>::rank_error;
  using linear_importer<Module, MaxValues, MaxRelayouts>::at;
  using linear_importer<Module, MaxValues, MaxRelayouts>::label_of;
  using linear_importer<Module, MaxValues, MaxRelayouts>::is_constant;
  using linear_importer<Module, MaxValues, MaxRelayouts>::add_tensor;
  using linear_importer<Module, MaxValues, MaxRelayouts>::add_node;
  using linear_importer<Module, MaxValues, MaxRelayouts>::reshape;
  using linear_importer<Module, MaxValues, MaxRelayouts>::transpose;
  using linear_importer<Module, MaxValues, MaxRelayouts>::swapping;
  using linear_importer<Module, MaxValues, MaxRelayouts>::gathered;
  using linear_importer<Module, MaxValues, MaxRelayouts>::checked_tensor;
  using linear_importer<Module, MaxValues, MaxRelayouts>::constant_shape;
  using linear_importer<Module, MaxValues, MaxRelayouts>::constant_float;
  using linear_importer<Module, MaxValues, MaxRelayouts>::onnx_shape;
  using linear_importer<Module, MaxValues, MaxRelayouts>::as_onnx;
  using linear_importer<Module, MaxValues, MaxRelayouts>::as_nhwc;
  using linear_importer<Module, MaxValues, MaxRelayouts>::as_nhwc_1d;
  using linear_importer<Module, MaxValues, MaxRelayouts>::define;
  using linear_importer<Module, MaxValues, MaxRelayouts>::prefers_nhwc;
  using linear_importer<Module, MaxValues, MaxRelayouts>::held_1d;
  using linear_importer<Module, MaxValues, MaxRelayouts>::int_attribute;
  using linear_importer<Module, MaxValues, MaxRelayouts>::float_attribute;
  using linear_importer<Module, MaxValues, MaxRelayouts>::expect_inputs;
  using linear_importer<Module, MaxValues, MaxRelayouts>::expect_constant;
  using linear_importer<Module, MaxValues, MaxRelayouts>::expect_activation;
  using linear_importer<Module, MaxValues, MaxRelayouts>::pool;

  // Ops that keep the layout of their operand (relu, sigmoid, tanh), or need NHWC (global pool).
  constexpr void unary(const operands& o, std::int32_t result, op_kind kind, bool needs_nhwc) {
    if (!expect_inputs(o, 1, 1) || !expect_activation(o, 0)) return;
    unary_of(o.id[0], result, kind, needs_nhwc);
  }
  constexpr void unary_of(std::int32_t v, std::int32_t result, op_kind kind, bool needs_nhwc, const op_attributes& a = {}) {
    if (held_1d(v) || (needs_nhwc && onnx_shape(v).rank == 3)) {  // a 1-D activation: [N, 1, L, C] in and out
      const std::int32_t x = as_nhwc_1d(v, 0);
      return define(result, add_node(kind, a, {x}, label_of(result)), true, true);
    }
    const bool nhwc = needs_nhwc || prefers_nhwc(v);
    const std::int32_t x = nhwc ? as_nhwc(v, 0) : as_onnx(v, 0);
    define(result, add_node(kind, a, {x}, label_of(result)), nhwc);
  }

  // A scalar constant as a float: FLOAT, or an integer type (Clip's bounds on integers, an integer Pad's fill
  // value; integers beyond 2^24 are rounded, which pad() refuses).
  constexpr float constant_scalar(std::int32_t v, std::uint32_t slot) {
    const tensor_view t = f.read_tensor(at(v).proto);
    if (take_reader_error() || !checked_tensor(v, t)) return 0.0f;
    if (t.type == data_type::float32) return constant_float(v, slot);
    if (!is_integer(t.type) || t.dims.elements() != 1) return operand_error(slot), 0.0f;
    std::uint64_t raw = 0;
    if (t.data_field == schema::tensor::raw_data) {
      if (t.data.length != element_bytes(t.type)) return malformed(t.proto.at, protobuf::expectation::tensor_data), 0.0f;
      raw = t.type == data_type::int64 ? f.reader().load_u64(t.data.at)
            : t.type == data_type::int32 ? f.reader().load_u32(t.data.at)
                                         : f.reader().byte(t.data.at);
    } else {
      const std::uint32_t field = t.type == data_type::int64 ? schema::tensor::int64_data : schema::tensor::int32_data;
      raw = f.reader().repeated_at(t.proto, field, protobuf::wire::varint, 0);
      take_reader_error();
    }
    // The stored bits as the type's value (varints of negative int32 values carry 64 sign-extended bits).
    const std::int64_t value = t.type == data_type::int8    ? static_cast<std::int8_t>(raw & 0xffu)
                               : t.type == data_type::uint8 ? static_cast<std::int64_t>(raw & 0xffu)
                               : t.type == data_type::int32 ? static_cast<std::int32_t>(static_cast<std::uint32_t>(raw))
                                                            : static_cast<std::int64_t>(raw);
    return static_cast<float>(value);
  }

  // Clip(0, 6) is relu6, Clip(0, max) relu, Clip without bounds the identity, any other Clip a clip op.
  constexpr void clip(const node_view& n, const operands& o, std::int32_t result) {
    if (!expect_inputs(o, 1, 3) || !expect_activation(o, 0)) return;
    float low = -float_max, high = float_max;
    if (f.opset() < 11) {
      low = float_attribute(n, "min", low);
      high = float_attribute(n, "max", high);
    } else {
      if (o.count > 1 && o.id[1] >= 0) low = expect_constant(o, 1) ? constant_scalar(o.id[1], 1) : 0.0f;
      if (o.count > 2 && o.id[2] >= 0) high = expect_constant(o, 2) ? constant_scalar(o.id[2], 2) : 0.0f;
    }
    if (failed() || take_reader_error()) return;
    if (low != low) return f.opset() < 11 ? attribute_error(attribute::min, -1) : operand_value_error(1, 0, low);
    if (high != high) return f.opset() < 11 ? attribute_error(attribute::max, -1) : operand_value_error(2, 0, high);
    if (low > high) low = high;  // ONNX (numpy.clip): every result is max
    if (low <= -float_max && high >= float_max) {  // no bounds: the identity (a copy, or a view)
      if (held_1d(o.id[0])) return unary_of(o.id[0], result, op_kind::reshape, false);
      const bool nhwc = prefers_nhwc(o.id[0]);
      const std::int32_t x = nhwc ? as_nhwc(o.id[0], 0) : as_onnx(o.id[0], 0);
      return define(result, add_node(op_kind::reshape, {}, {x}, label_of(result)), nhwc);
    }
    const std::int32_t x = at(o.id[0]).onnx_layout >= 0 ? at(o.id[0]).onnx_layout : at(o.id[0]).nhwc;
    const bool is_float = x >= 0 && m.tensor_at(x).type == dtype::f32;  // int8 relu would requantize
    if (is_float && low == 0.0f && (high == 6.0f || high >= float_max))
      return unary_of(o.id[0], result, high == 6.0f ? op_kind::relu6 : op_kind::relu, false);
    op_attributes a{};
    a.clip_min = low;
    a.clip_max = high;
    unary_of(o.id[0], result, op_kind::clip, false, a);
  }

  // A constant operand of an element-wise op next to an NHWC activation: padded to rank 4 on the left
  // (numpy broadcasting), then re-laid out as NHWC.
  constexpr std::int32_t broadcast_constant_nhwc(std::int32_t v, std::uint32_t slot) {
    const shape s = constant_shape(v);
    if (failed()) return -1;
    if (s.rank > 4) return rank_error(slot, s), -1;
    shape padded = make_shape(1, 1, 1, 1);
    for (std::int32_t d = 0; d < s.rank; ++d) padded.dims[static_cast<std::size_t>(4 - s.rank + d)] = s[d];
    const std::array<std::int64_t, 4> nchw_strides{static_cast<std::int64_t>(padded[1]) * padded[2] * padded[3],
                                                   static_cast<std::int64_t>(padded[2]) * padded[3], padded[3], 1};
    return gathered(v, slot, to_nhwc(padded), {nchw_strides[0], nchw_strides[2], nchw_strides[3], nchw_strides[1]}, 1.0f);
  }

  // The element type of a value (constants: their TensorProto's, types ctnn does not read as i64: dtype_of).
  constexpr dtype element_type(std::int32_t v) {
    if (is_constant(v)) {
      const tensor_view t = f.read_tensor(at(v).proto);
      take_reader_error();
      return dtype_of(t.type);
    }
    const value& x = at(v);
    return m.tensor_at(x.onnx_layout >= 0 ? x.onnx_layout : x.nhwc).type;
  }

  static constexpr bool is_integer(data_type t) {
    return t == data_type::int8 || t == data_type::uint8 || t == data_type::int32 || t == data_type::int64;
  }

  // An integer constant read in place (zero-copy into the embedded bytes, ONNX's shape): raw_data of `type`,
  // aligned to its element size, since the kernels read typed elements.
  constexpr std::int32_t integer_constant(std::int32_t v, std::uint32_t slot, dtype type) {
    if (at(v).onnx_layout >= 0) return at(v).onnx_layout;
    const tensor_view t = f.read_tensor(at(v).proto);
    if (take_reader_error() || !checked_tensor(v, t)) return -1;
    if (!is_integer(t.type) || dtype_of(t.type) != type)
      return fail(onnx_error::integer_arithmetic,
                  {.operator_code = static_cast<std::int64_t>(current), .input_slot = slot}),
             -1;
    if (t.data_field != schema::tensor::raw_data)
      return fail(onnx_error::unsupported_tensor_feature,
                  {.byte_offset = at(v).name.at, .reason = static_cast<std::int64_t>(tensor_feature::unpacked_values)}),
             -1;
    if (static_cast<std::int64_t>(t.data.length) != t.dims.elements() * element_bytes(t.type))
      return malformed(t.proto.at, protobuf::expectation::tensor_data), -1;
    if (t.data.at % element_bytes(t.type) != 0)
      return fail(onnx_error::unsupported_tensor_feature,
                  {.byte_offset = at(v).name.at,
                   .reason = static_cast<std::int64_t>(tensor_feature::unaligned_integers)}),
             -1;
    const std::int32_t id = add_tensor(t.dims.rank == 0 ? make_shape(1) : t.dims, label_of(v), tensor_role::constant);
    if (id < 0) return -1;
    m.tensor_at(id).type = type;
    m.tensor_at(id).data.bytes = f.reader().pointer(t.data.at);
    m.tensor_at(id).data.file = f.reader().pointer(0);
    return at(v).onnx_layout = id;
  }

  // Whether `v` is an integer value of `type` that a float holds exactly (up to 2^24).
  static constexpr bool fits(float v, dtype type) {
    const float low = type == dtype::u8 ? 0.0f : type == dtype::i8 ? -128.0f : -16777216.0f;
    const float high = type == dtype::u8 ? 255.0f : type == dtype::i8 ? 127.0f : 16777216.0f;
    return v >= low && v <= high && static_cast<float>(static_cast<std::int32_t>(v)) == v;
  }

  // Add/Mul of plain integers: ONNX's semantics (the result wraps around in the element type), run by the
  // kernels of ONNX's integer ops (kernel/reference/onnx_quant). Both operands of one integer type, in the
  // ONNX layout (numpy broadcasting); a constant operand is read in place.
  constexpr void integer_binary(const operands& o, std::int32_t result, op_kind kind, dtype type) {
    std::array<std::int32_t, 2> x{};
    for (const std::uint32_t slot : {0u, 1u}) {
      const std::int32_t v = o.id[slot];
      x[slot] = is_constant(v) ? integer_constant(v, slot, type) : as_onnx(v, slot);
      if (failed() || x[slot] < 0) return;
      if (m.tensor_at(x[slot]).type != type)
        return fail(onnx_error::integer_arithmetic,
                    {.operator_code = static_cast<std::int64_t>(current), .input_slot = slot});
    }
    define(result, add_node(kind, {}, {x[0], x[1]}, label_of(result)), false);
  }

  constexpr void binary(const operands& o, std::int32_t result, op_kind kind) {
    if (!expect_inputs(o, 2, 2)) return;
    const std::int32_t a = o.id[0], b = o.id[1];
    const shape sa = onnx_shape(a), sb = onnx_shape(b);
    if (failed()) return;
    // The first operand's type decides (ONNX gives both one type; integer_binary checks the second).
    if (const dtype type = element_type(a); type != dtype::f32) return failed() ? void() : integer_binary(o, result, kind, type);
    // NHWC when an activation operand has it and the other operand can follow: a rank-4 activation, or
    // a constant (re-laid out). Otherwise both in the ONNX layout.
    const bool a_ok = is_constant(a) || sa.rank == 4, b_ok = is_constant(b) || sb.rank == 4;
    const bool nhwc = (prefers_nhwc(a) || prefers_nhwc(b)) && a_ok && b_ok && sa.rank <= 4 && sb.rank <= 4 &&
                      (sa.rank == 4 || sb.rank == 4);
    const auto operand = [&](std::int32_t v, std::uint32_t slot) {
      if (!nhwc) return as_onnx(v, slot);
      return is_constant(v) ? broadcast_constant_nhwc(v, slot) : as_nhwc(v, slot);
    };
    const std::int32_t x = operand(a, 0);
    const std::int32_t y = operand(b, 1);
    if (failed()) return;
    if (m.tensor_at(y).type != dtype::f32)
      return fail(onnx_error::integer_arithmetic,
                  {.operator_code = static_cast<std::int64_t>(current), .input_slot = 1});
    define(result, add_node(kind, {}, {x, y}, label_of(result)), nhwc);
  }

  constexpr void softmax(const node_view& n, const operands& o, std::int32_t result) {
    if (!expect_inputs(o, 1, 1) || !expect_activation(o, 0)) return;
    const bool v13 = f.opset() >= 13;
    const shape s = onnx_shape(o.id[0]);
    std::int64_t axis = int_attribute(n, "axis", v13 ? -1 : 1);
    if (failed() || take_reader_error()) return;
    if (axis < 0) axis += s.rank;
    if (axis < 0 || axis >= s.rank)
      return fail(error_code::invalid_axis, node_index, op_kind::softmax, {.axis = axis, .rank_actual = s.rank});
    if (v13 && prefers_nhwc(o.id[0]) && axis == 1) {
      const std::int32_t x = as_nhwc(o.id[0], 0);  // the channels are the last NHWC axis
      return define(result, add_node(op_kind::softmax, {}, {x}, label_of(result)), true);
    }
    const std::int32_t x = as_onnx(o.id[0], 0);
    if (axis == s.rank - 1) return define(result, add_node(op_kind::softmax, {}, {x}, label_of(result)), false);
    if (v13) {
      // Another axis: swapped with the last one, the softmax, and swapped back.
      const auto swap = swapping(s.rank, static_cast<std::int32_t>(axis), s.rank - 1);
      const std::int32_t moved = transpose(x, swap, numbered("softmax_axis_last", static_cast<std::size_t>(node_index)));
      const std::int32_t y = add_node(op_kind::softmax, {}, {moved}, numbered("softmax", static_cast<std::size_t>(node_index)));
      return define(result, transpose(y, swap, label_of(result)), false);
    }
    // Before opset 13: softmax over the flattened [prod(dims < axis), prod(dims >= axis)].
    std::int64_t outer = 1;
    for (std::int32_t d = 0; d < axis; ++d) outer *= s[d];
    const std::int32_t flat = reshape(x, make_shape(outer, s.elements() / outer), numbered("softmax_2d", static_cast<std::size_t>(node_index)));
    const std::int32_t y = add_node(op_kind::softmax, {}, {flat}, numbered("softmax", static_cast<std::size_t>(node_index)));
    define(result, reshape(y, s, label_of(result)), false);
  }
};

}  // namespace ctnn::onnx::detail
