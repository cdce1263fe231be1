#pragma once
// ONNX's quantized operators, imported with ONNX semantics (docs/design.md §4: an imported ONNX model follows
// ONNX's requantization, module::requantization = onnx): QuantizeLinear, DequantizeLinear, QLinearConv,
// ConvInteger, QLinearMatMul, MatMulInteger, uint8 and int8: one of the importer's op families (import.hpp;
// rows in import_table.hpp), whose import functions share the helper quantized_ops.
//
// Mapping (kernel/reference/onnx_quant documents the kernels, lower_te their parameters):
//  * QLinearConv, ConvInteger -> conv2d of layout onnx_nhwc (2-D: NHWC activations, the result held in NHWC
//    as a float Conv's) or onnx (1-D: NCHW), OIHW weights read as stored (zero-copy; groups cover
//    depthwise), inputs {x, w, bias, w_scale, w_zero_point}; QLinearMatMul,
//    MatMulInteger -> dense of layout onnx: A [..., M, K] x B [..., K, N] read as stored, inputs {a, b, -1,
//    b_scale, b_zero_point}. The result's type is y_zero_point's (QLinear*) or int32 (*Integer).
//  * QuantizeLinear (float32 -> y_zero_point's type, uint8 without one), DequantizeLinear (8-bit ->
//    float32): inputs {x, scale, zero_point}; per axis (opset 13 `axis`) with one scale per channel.
//  * Per-tensor scales and zero points become the quantization of the tensors they describe (x, y, the
//    weights); per-channel weight scales and zero points (along the output channels), and per-axis
//    ones, stay constants in the file that the kernels read (operands). Weights and biases must be
//    constants (initializers or Constant nodes) stored as raw_data; scales and zero points too.
//  * Not supported (diagnostics name the node and the operand or attribute): blocked quantization
//    (opset 21 block_size: its per-block scales are an unsupported operand), per-row zero points of A,
//    int32 DequantizeLinear inputs, non-constant weights, a tensor quantized two ways.
#include <array>
#include <bit>
#include <cstdint>

#include <ctnn/frontend/onnx/import_layouts.hpp>

namespace ctnn::onnx::detail {

// What the quantized ops' import functions (at the end) share: the importer state `s` (import_state.hpp) and
// the reading of scales, zero points and 8-bit constants.
template <class S>
struct quantized_ops {
  S& s;

  // ---------------------------------------------------------------------------------------------------
  // Constants: scalars read at import, arrays kept in the file (zero-copy).

  // The constant's TensorProto, checked to be `type` (any 8-bit type for u8 with `any_8_bit`).
  constexpr tensor_view constant_of(std::int32_t v, std::uint32_t slot, data_type type, bool any_8_bit = false) {
    const tensor_view t = s.f.read_tensor(s.at(v).proto);
    if (s.take_reader_error() || !s.checked_tensor(v, t)) return t;
    const bool type_ok = t.type == type || (any_8_bit && (t.type == data_type::uint8 || t.type == data_type::int8));
    if (!type_ok) s.operand_type_error(slot, t.type);
    return t;
  }

  // Element k of a scalar-like constant (raw_data, or the typed field).
  constexpr std::int64_t integer_at(const tensor_view& t, std::uint32_t k) {
    auto& r = s.f.reader();
    if (t.data_field == schema::tensor::raw_data) {
      if (static_cast<std::int64_t>(t.data.length) != t.dims.elements() * element_bytes(t.type))
        return s.malformed(t.proto.at, protobuf::expectation::tensor_data), 0;
      if (t.type == data_type::uint8) return static_cast<std::int64_t>(r.byte(t.data.at + k));
      if (t.type == data_type::int8) return static_cast<std::int64_t>(static_cast<std::int8_t>(static_cast<std::uint8_t>(r.byte(t.data.at + k))));
      return static_cast<std::int64_t>(static_cast<std::int32_t>(r.load_u32(t.data.at + 4 * k)));
    }
    const auto bits = r.repeated_at(t.proto, schema::tensor::int32_data, protobuf::wire::varint, k);
    s.take_reader_error();
    return static_cast<std::int64_t>(static_cast<std::int32_t>(static_cast<std::uint32_t>(bits)));
  }
  constexpr float float_at(const tensor_view& t, std::uint32_t k) {
    auto& r = s.f.reader();
    if (t.data_field == schema::tensor::raw_data) {
      if (static_cast<std::int64_t>(t.data.length) != t.dims.elements() * 4)
        return s.malformed(t.proto.at, protobuf::expectation::tensor_data), 0.0f;
      return std::bit_cast<float>(r.load_u32(t.data.at + 4 * k));
    }
    const auto bits = r.repeated_at(t.proto, schema::tensor::float_data, protobuf::wire::i32, k);
    s.take_reader_error();
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits));
  }

  // A per-tensor scale (one positive float32 value), operand `slot`.
  constexpr float scalar_scale(const operands& o, std::uint32_t slot) {
    if (!expect_constant(s, o, slot)) return 0.0f;
    const tensor_view t = constant_of(o.id[slot], slot, data_type::float32);
    if (s.failed()) return 0.0f;
    if (t.dims.elements() != 1) return s.operand_error(slot), 0.0f;
    const float scale = float_at(t, 0);
    if (!valid_scale(scale)) s.operand_value_error(slot, 0, scale);
    return scale;
  }
  // A scale ONNX's arithmetic can divide by: finite and positive.
  static constexpr bool valid_scale(float scale) { return scale > 0.0f && scale <= 3.40282347e+38f; }
  // Every value of a per-channel (per-axis) scale tensor.
  constexpr void check_scales(std::uint32_t slot, const tensor_view& t) {
    const std::int64_t count = t.dims.elements();
    for (std::int64_t k = 0; k < count && !s.failed(); ++k) {
      const float scale = float_at(t, static_cast<std::uint32_t>(k));
      if (!s.failed() && !valid_scale(scale)) s.operand_value_error(slot, k, scale);
    }
  }
  // A zero point stored in int32_data (8-bit types may be) must be a value of its type.
  constexpr std::int32_t checked_zero_point(std::uint32_t slot, const tensor_view& t, std::int64_t value) {
    const std::int64_t low = t.type == data_type::uint8 ? 0 : -128, high = t.type == data_type::uint8 ? 255 : 127;
    if (value < low || value > high) s.operand_value_error(slot, 0, value);
    return static_cast<std::int32_t>(value);
  }

  // A per-tensor zero point (operand `slot`, absent: 0 of `fallback`), of the type `type` if given.
  struct zero_point {
    std::int32_t value = 0;
    dtype type = dtype::u8;
  };
  constexpr zero_point scalar_zero_point(const operands& o, std::uint32_t slot, dtype fallback) {
    if (o.count <= slot || o.id[slot] < 0) return {0, fallback};
    if (!expect_constant(s, o, slot)) return {};
    const tensor_view t = constant_of(o.id[slot], slot, data_type::uint8, true);
    if (s.failed()) return {};
    if (t.dims.elements() != 1) return s.operand_error(slot), zero_point{};
    return {checked_zero_point(slot, t, integer_at(t, 0)), dtype_of(t.type)};
  }

  // A constant as an IR tensor of its ONNX shape, read in place (the kernels read the file): raw_data, or
  // packed float_data (4 little-endian bytes a value, as raw_data: onnxruntime's quantizer writes its scales so).
  constexpr std::int32_t stored_constant(std::int32_t v, std::uint32_t slot, const tensor_view& t) {
    if (s.failed()) return -1;
    const bool packed_floats = t.data_field == schema::tensor::float_data && t.type == data_type::float32 && t.unpacked == 0;
    if (t.data_field != schema::tensor::raw_data && !packed_floats)
      return s.fail(onnx_error::unsupported_tensor_feature,
                    {.byte_offset = s.at(v).name.at,
                     .reason = static_cast<std::int64_t>(tensor_feature::unpacked_values)}),
             -1;
    if (static_cast<std::int64_t>(t.data.length) != t.dims.elements() * element_bytes(t.type))
      return s.malformed(t.proto.at, protobuf::expectation::tensor_data), -1;
    (void)slot;
    const std::int32_t id =
        s.add_tensor(t.dims.rank == 0 ? make_shape(1) : t.dims, s.label_of(v), tensor_role::constant);
    if (id < 0) return -1;
    m().tensor_at(id).type = dtype_of(t.type);
    m().tensor_at(id).data.bytes = s.f.reader().pointer(t.data.at);
    m().tensor_at(id).data.file = s.f.reader().pointer(0);
    return id;
  }

  // Per-channel scales or zero points (operand `slot`): -1 when per tensor (one value), else a tensor of
  // `channels` values (another count is an unsupported operand). Per-channel zero points that are all 0 in
  // the typed field (onnxruntime's quantizer writes its symmetric weights' so: int32_data, which no kernel
  // reads in place) are no tensor: zero_points_all_zero.
  static constexpr std::int32_t zero_points_all_zero = -2;
  constexpr std::int32_t per_channel(const operands& o, std::uint32_t slot, data_type type, bool any_8_bit, std::int32_t channels) {
    if (o.count <= slot || o.id[slot] < 0) return -1;
    if (!expect_constant(s, o, slot)) return -1;
    const tensor_view t = constant_of(o.id[slot], slot, type, any_8_bit);
    if (s.failed()) return -1;
    const std::int64_t count = t.dims.elements();
    if (count == 1) return -1;
    if (count != channels || t.dims.rank != 1) return s.operand_error(slot), -1;
    if (type == data_type::float32) check_scales(slot, t);
    if (type != data_type::float32 && t.data_field == schema::tensor::int32_data) {
      bool all_zero = true;
      for (std::int64_t k = 0; k < count && all_zero && !s.failed(); ++k) all_zero = integer_at(t, static_cast<std::uint32_t>(k)) == 0;
      if (s.failed()) return -1;
      if (all_zero) return zero_points_all_zero;
    }
    return stored_constant(o.id[slot], slot, t);
  }

  constexpr auto& m() { return s.m; }

  // Gives tensor `id` a per-tensor quantization; a tensor quantized two ways is an unsupported operand.
  constexpr void quantize_tensor(std::int32_t id, std::uint32_t slot, float scale, std::int32_t zero_point_value) {
    if (id < 0 || s.failed()) return;
    quantization& q = m().tensor_at(id).quant;
    const bool set = q.scale != 0.0f || q.zero_point != 0;
    if (set && (q.scale != scale || q.zero_point != zero_point_value)) return s.operand_error(slot);
    q.scale = scale;
    q.zero_point = zero_point_value;
  }

  // The 8-bit activation operand `slot` in ONNX's layout (or NHWC: a rank-4 one a conv reads).
  constexpr std::int32_t activation(const operands& o, std::uint32_t slot, bool nhwc = false) {
    if (!expect_activation(s, o, slot)) return -1;
    const std::int32_t x = nhwc ? as_nhwc(s, o.id[slot], slot) : as_onnx(s, o.id[slot], slot);
    if (x < 0 || s.failed()) return -1;
    const dtype t = m().tensor_at(x).type;
    if (t != dtype::u8 && t != dtype::i8) return s.operand_error(slot), -1;
    return x;
  }

  // ---------------------------------------------------------------------------------------------------
  // The ops.

  // The axis of a per-axis Quantize/DequantizeLinear (opset 13), normalised; block_size must be 0.
  constexpr std::int64_t quantization_axis(const node_view& n, const shape& xs) {
    std::int64_t axis = int_attribute(s, n, "axis", 1);
    if (s.take_reader_error()) return -1;
    if (axis < 0) axis += xs.rank;
    if (axis < 0 || axis >= xs.rank) return s.attribute_error(attribute::axis, axis), -1;
    return axis;
  }

  // QuantizeLinear (`quantize`) and DequantizeLinear share their operands: x, scale, zero point.
  constexpr void linear(const node_view& n, const operands& o, std::int32_t result, bool quantize) {
    // Blocked quantization (opset 21): scales per block of `block_size` elements along `axis`.
    if (const std::int64_t block = int_attribute(s, n, "block_size", 0); block != 0 || s.take_reader_error())
      return s.failed() ? void() : s.attribute_error(attribute::block_size, block);
    if (!expect_inputs(s, o, 2, 3) || !expect_constant(s, o, 1)) return;
    const shape xs = onnx_shape(s, o.id[0]);
    const tensor_view scales = constant_of(o.id[1], 1, data_type::float32);
    if (s.failed()) return;
    const std::int64_t count = scales.dims.elements();
    // Per tensor: the zero point's type (uint8 without one); per axis: the scales along `axis`.
    std::int64_t axis = -1;
    if (count != 1) {
      axis = quantization_axis(n, xs);
      if (s.failed()) return;
      if (scales.dims.rank != 1 || count != xs[static_cast<std::int32_t>(axis)]) return s.operand_error(1);
    }
    dtype q_type = dtype::u8;
    if (o.count > 2 && o.id[2] >= 0) {
      if (!expect_constant(s, o, 2)) return;
      const tensor_view zp = constant_of(o.id[2], 2, data_type::uint8, true);
      if (s.failed()) return;
      if (zp.dims.elements() != count) return s.operand_error(2);
      q_type = dtype_of(zp.type);
    }
    // The input keeps its layout (a float activation, an 8-bit one an integer conv wrote in NHWC).
    // A constant input: DequantizeLinear's (a QDQ model's integer operand of a float op, import_qdq.hpp), as stored.
    const std::int32_t v = o.id[0];
    const bool constant = s.is_constant(v);
    if (constant && quantize) return s.operand_error(0);
    const bool nhwc = prefers_nhwc(s, v) && xs.rank == 4;
    const std::int32_t x = constant ? stored_constant(v, 0, constant_of(v, 0, data_type::uint8, true))
                           : nhwc   ? as_nhwc(s, v, 0)
                                    : as_onnx(s, v, 0);
    if (x < 0 || s.failed()) return;
    const dtype x_type = m().tensor_at(x).type;
    if (quantize ? x_type != dtype::f32 : x_type != q_type) return s.operand_error(0);
    op_attributes a{};
    a.out_type = quantize ? q_type : dtype::f32;
    // NCHW axis -> NHWC axis: C (1) moves last, H and W one up.
    a.axis = static_cast<std::int32_t>(axis < 0 ? -1 : !nhwc || axis == 0 ? axis : axis == 1 ? 3 : axis - 1);
    std::int32_t scale_operand = -1, zero_point_operand = -1;
    float scale = 0.0f;
    std::int32_t zero_point_value = 0;
    if (count == 1) {
      scale = scalar_scale(o, 1);
      zero_point_value = scalar_zero_point(o, 2, q_type).value;
    } else {
      check_scales(1, scales);
      scale_operand = stored_constant(o.id[1], 1, scales);
      if (o.count > 2 && o.id[2] >= 0) zero_point_operand = stored_constant(o.id[2], 2, constant_of(o.id[2], 2, data_type::uint8, true));
    }
    if (s.failed()) return;
    const std::int32_t q = quantize ? -1 : x;
    if (!quantize && count == 1) quantize_tensor(q, 0, scale, zero_point_value);
    const std::int32_t y = s.add_node(quantize ? op_kind::quantize : op_kind::dequantize, a,
                                      {x, scale_operand, zero_point_operand}, s.label_of(result));
    if (y < 0) return;
    if (quantize && count == 1) quantize_tensor(y, 0, scale, zero_point_value);
    define(s, result, y, nhwc);
  }

  // QLinearConv (x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp[, B]) and ConvInteger (x, w[, x_zp[, w_zp]]).
  constexpr void conv(const node_view& n, const operands& o, std::int32_t result, bool linear_output) {
    if (linear_output ? !expect_inputs(s, o, 8, 9) : !expect_inputs(s, o, 2, 4)) return;
    const std::uint32_t w_slot = linear_output ? 3 : 1;
    if (!expect_activation(s, o, 0)) return;
    const shape given = onnx_shape(s, o.id[0]);
    if (s.failed()) return;
    if (given.rank != 3 && given.rank != 4) return s.rank_error(0, given);
    // 2-D: NHWC in and out (layout onnx_nhwc), as a float Conv: a chain of convolutions needs no transposes.
    const bool nhwc = given.rank == 4;
    std::int32_t x = activation(o, 0, nhwc);
    if (x < 0 || !expect_constant(s, o, w_slot)) return;
    tensor_view wt = constant_of(o.id[w_slot], w_slot, data_type::uint8, true);
    if (s.failed()) return;
    if (wt.dims.rank != given.rank) return s.operand_error(w_slot);
    // 1-D: [N, C, L] read as the image [N, C, 1, L] (a view), the weights [O, I, k] as [O, I, 1, k].
    const auto spatial = static_cast<std::uint32_t>(given.rank - 2);
    if (spatial == 1) {
      x = s.reshape(x, make_shape(given[0], given[1], 1, given[2]), s.label_of(o.id[0]));
      wt.dims = make_shape(wt.dims[0], wt.dims[1], 1, wt.dims[2]);
      if (x < 0) return;
    }
    const shape held = m().tensor_at(x).dims;
    const shape in = nhwc ? to_nchw(held) : held;  // [N, C, H, W]
    const std::int32_t units = wt.dims[0], kh = wt.dims[2], kw = wt.dims[3];
    const std::int64_t group = int_attribute(s, n, "group", 1);
    std::array<std::int64_t, 4> kernel{};
    if (!ints_attribute(s, n, "kernel_shape", attribute::kernel_shape, spatial, -1, kernel)) return;
    if (spatial == 1) kernel = {-1, kernel[0], 0, 0};
    if ((kernel[0] != -1 && kernel[0] != kh) || (kernel[1] != -1 && kernel[1] != kw))
      return s.attribute_error(attribute::kernel_shape, kernel[0] != -1 && kernel[0] != kh ? kernel[0] : kernel[1]);
    if (group < 1 || group > in[1] || in[1] % group != 0 || units % group != 0 || wt.dims[1] * group != in[1])
      return s.attribute_error(attribute::group, group);
    op_attributes a{};
    if (!read_window(s, n, make_shape(in[0], in[2], in[3], in[1]), kh, kw, a.win, spatial)) return;
    a.layout = nhwc ? data_layout::onnx_nhwc : data_layout::onnx;
    a.groups = static_cast<std::int32_t>(group);
    a.units = units;
    operands_of_weights(o, result, x, a, linear_output, w_slot, wt, units, op_kind::conv2d, linear_output && o.count > 8 ? 8 : 0);
    if (spatial == 1 && !s.failed()) {  // the image result [N, O, 1, L'] as [N, O, L'] (a view)
      const std::int32_t image = s.at(result).onnx_layout;
      const shape out = m().tensor_at(image).dims;
      const quantization q = m().tensor_at(image).quant;
      s.at(result).onnx_layout = -1;
      const std::int32_t y = s.reshape(image, make_shape(out[0], out[1], out[3]), s.label_of(result));
      if (y >= 0) m().tensor_at(y).quant = q;
      define(s, result, y, false);
    }
  }

  // QLinearMatMul (a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp) and MatMulInteger (A, B[, a_zp[, b_zp]]).
  constexpr void matmul(const operands& o, std::int32_t result, bool linear_output) {
    if (linear_output ? !expect_inputs(s, o, 8, 8) : !expect_inputs(s, o, 2, 4)) return;
    const std::uint32_t w_slot = linear_output ? 3 : 1;
    const std::int32_t x = activation(o, 0);
    if (x < 0 || !expect_constant(s, o, w_slot)) return;
    const tensor_view wt = constant_of(o.id[w_slot], w_slot, data_type::uint8, true);
    if (s.failed()) return;
    const shape in = m().tensor_at(x).dims;
    if (wt.dims.rank < 2 || in.rank < 2) return s.operand_error(in.rank < 2 ? 0 : w_slot);
    op_attributes a{};
    a.layout = data_layout::onnx;
    a.units = wt.dims.last();
    operands_of_weights(o, result, x, a, linear_output, w_slot, wt, wt.dims.last(), op_kind::dense, 0);
  }

  // The rest of a conv or matmul: zero points and scales, weights, bias, the node and its result.
  constexpr void operands_of_weights(const operands& o, std::int32_t result, std::int32_t x, op_attributes& a, bool linear_output,
                                     std::uint32_t w_slot, const tensor_view& wt, std::int32_t channels, op_kind kind,
                                     std::uint32_t bias_slot) {
    const dtype x_type = m().tensor_at(x).type, w_type = dtype_of(wt.type);
    // Slots: QLinear* x_scale 1, x_zp 2, w_scale 4, w_zp 5, y_scale 6, y_zp 7; *Integer x_zp 2, w_zp 3.
    const std::uint32_t x_zp_slot = 2, w_zp_slot = linear_output ? 5 : 3;
    const zero_point x_zp = scalar_zero_point(o, x_zp_slot, x_type);
    if (s.failed()) return;
    if (x_zp.type != x_type) return s.operand_error(x_zp_slot);
    std::int32_t w_zero_points = per_channel(o, w_zp_slot, wt.type, false, channels);
    const bool per_channel_zero_points = w_zero_points >= 0 || w_zero_points == zero_points_all_zero;
    if (w_zero_points == zero_points_all_zero) w_zero_points = -1;
    const zero_point w_zp = per_channel_zero_points ? zero_point{0, w_type} : scalar_zero_point(o, w_zp_slot, w_type);
    if (s.failed()) return;
    if (w_zp.type != w_type) return s.operand_error(w_zp_slot);
    float x_scale = 0.0f, w_scale = 0.0f, y_scale = 0.0f;
    std::int32_t w_scales = -1;
    zero_point y_zp{0, dtype::i32};
    if (linear_output) {
      x_scale = scalar_scale(o, 1);
      w_scales = per_channel(o, 4, data_type::float32, false, channels);
      if (w_scales < 0) w_scale = scalar_scale(o, 4);
      y_scale = scalar_scale(o, 6);
      y_zp = scalar_zero_point(o, 7, dtype::u8);
      if (s.failed()) return;
      if (o.count <= 7 || o.id[7] < 0) return s.operand_error(7);
    }
    const std::int32_t weights = stored_constant(o.id[w_slot], w_slot, wt);
    std::int32_t bias = -1;
    if (bias_slot != 0 && o.id[bias_slot] >= 0) {
      if (!expect_constant(s, o, bias_slot)) return;
      const tensor_view bt = constant_of(o.id[bias_slot], bias_slot, data_type::int32);
      if (s.failed()) return;
      if (bt.dims.elements() != channels) return s.operand_error(bias_slot);
      bias = stored_constant(o.id[bias_slot], bias_slot, bt);
    }
    if (s.failed() || weights < 0) return;
    quantization& wq = m().tensor_at(weights).quant;
    wq.scale = w_scale;
    wq.zero_point = w_zp.value;
    quantize_tensor(x, 0, x_scale, x_zp.value);
    a.out_type = y_zp.type;
    const std::int32_t y = s.add_node(kind, a, {x, weights, bias, w_scales, w_zero_points}, s.label_of(result));
    if (y < 0) return;
    quantization& yq = m().tensor_at(y).quant;
    yq.scale = y_scale;
    yq.zero_point = y_zp.value;
    define(s, result, y, a.layout == data_layout::onnx_nhwc);
  }
};

// The import functions (import_table.hpp's rows): QuantizeLinear and DequantizeLinear, QLinearConv and
// ConvInteger, QLinearMatMul and MatMulInteger.
template <class S>
constexpr void import_quantize_linear(S& s, const node_view& n, const operands& o, std::int32_t result) {
  quantized_ops<S>{s}.linear(n, o, result, s.current == op_type::QuantizeLinear);
}
template <class S>
constexpr void import_quantized_conv(S& s, const node_view& n, const operands& o, std::int32_t result) {
  quantized_ops<S>{s}.conv(n, o, result, s.current == op_type::QLinearConv);
}
template <class S>
constexpr void import_quantized_matmul(S& s, const node_view&, const operands& o, std::int32_t result) {
  quantized_ops<S>{s}.matmul(o, result, s.current == op_type::QLinearMatMul);
}

}  // namespace ctnn::onnx::detail
