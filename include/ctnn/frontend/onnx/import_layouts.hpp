#pragma once
// The ONNX importer's helpers for op import functions (import.hpp), free functions that take the importer
// state (import_state.hpp): a value in NCHW or NHWC, made on demand by a transpose; attributes, conv and
// pool windows; a node's operands, checked, and constant operands read at import.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <ctnn/frontend/onnx/import_state.hpp>

namespace ctnn::onnx::detail {

// -----------------------------------------------------------------------------------------------------
// Layouts.

// The ONNX shape of a value.
// [prod(dims < axis), prod(dims >= axis)]: Flatten's result, and the 2-D view of Softmax before opset 13.
// Each side is a product of its own dims (a 0 extent leaves nothing to divide by). A side past int32's
// largest extent (a fuzzed file's constant, refused as an operand right after) stops there: no overflow.
constexpr shape flattened_at(const shape& xs, std::int64_t axis) {
  constexpr std::int64_t largest = 0x7fffffff;
  std::int64_t outer = 1, inner = 1;
  for (std::int32_t d = 0; d < xs.rank; ++d) {
    std::int64_t& side = d < axis ? outer : inner;
    const std::int64_t extent = xs[d] < 0 ? -std::int64_t{xs[d]} : xs[d];  // (|side| stays <= largest)
    side = extent != 0 && (side < 0 ? -side : side) > largest / extent ? largest : side * xs[d];
  }
  return make_shape(outer, inner);
}

template <class S>
constexpr shape onnx_shape(S& s, std::int32_t v) {
  if (s.is_constant(v)) return s.constant_shape(v);
  const value& x = s.at(v);
  if (x.onnx_layout >= 0) return s.m.tensor_at(x.onnx_layout).dims;
  const shape d = s.m.tensor_at(x.nhwc).dims;
  return x.one_d ? make_shape(d[0], d[3], d[2]) : to_nchw(d);
}

// The value as an IR tensor in its ONNX layout (constants: as stored).
template <class S>
constexpr std::int32_t as_onnx(S& s, std::int32_t v, std::uint32_t slot) {
  value& x = s.at(v);
  if (x.onnx_layout >= 0) return x.onnx_layout;
  if (s.is_known(v)) return x.onnx_layout = s.known_tensor(v);  // a constant tensor of its elements (import_known.hpp)
  if (s.is_constant(v)) {
    const shape c = s.constant_shape(v);
    std::array<std::int64_t, 4> strides{};
    if (c.rank > 4) return s.operand_error(slot), -1;
    // The strides of its dims; a constant too large to be one ctnn reads (a fuzzed file's dims) is refused
    // before the product overflows (issue #23).
    std::int64_t step = 1;
    for (std::int32_t d = c.rank - 1; d >= 0; --d) {
      strides[static_cast<std::size_t>(d)] = step;
      if (c[d] > 0 && step > (std::int64_t{1} << 40) / c[d]) return s.operand_error(slot), -1;
      step *= c[d] > 0 ? c[d] : 1;
    }
    return x.onnx_layout = s.gathered(v, slot, c, strides, 1.0f);
  }
  // NHWC -> NCHW: a transpose (a view when it moves only extent-1 dims, alias_reshapes).
  const std::int32_t nchw = s.transpose(x.nhwc, nhwc_of_nchw, s.label_of(v));
  if (!x.one_d || nchw < 0) return x.onnx_layout = nchw;
  const shape d = s.m.tensor_at(nchw).dims;  // [N, C, 1, L] -> [N, C, L] (a view)
  return x.onnx_layout = s.reshape(nchw, make_shape(d[0], d[1], d[3]), s.label_of(v));
}

// The value as an IR tensor in NHWC (rank 4).
template <class S>
constexpr std::int32_t as_nhwc(S& s, std::int32_t v, std::uint32_t slot) {
  value& x = s.at(v);
  if (x.nhwc >= 0 && !x.one_d) return x.nhwc;
  const shape d = onnx_shape(s, v);
  if (s.failed()) return -1;
  if (d.rank != 4) return s.rank_error(slot, d), -1;
  if (s.is_constant(v)) {
    // [N, C, H, W] stored: NHWC dim d steps by the stride of NCHW dim nchw_of_nhwc[d].
    const std::array<std::int64_t, 4> nchw_strides{static_cast<std::int64_t>(d[1]) * d[2] * d[3],
                                                   static_cast<std::int64_t>(d[2]) * d[3], d[3], 1};
    return x.nhwc = s.gathered(v, slot, to_nhwc(d),
                               {nchw_strides[0], nchw_strides[2], nchw_strides[3], nchw_strides[1]}, 1.0f);
  }
  return x.nhwc = s.transpose(x.onnx_layout, nchw_of_nhwc, s.label_of(v));
}

// A 1-D activation [N, C, L] as the NHWC image [N, 1, L, C] that 2-D ops read (H = 1): a reshape (a
// view) and a transpose, made once per value.
template <class S>
constexpr std::int32_t as_nhwc_1d(S& s, std::int32_t v, std::uint32_t slot) {
  if (s.at(v).nhwc >= 0 && s.at(v).one_d) return s.at(v).nhwc;
  const std::int32_t flat = as_onnx(s, v, slot);
  if (s.failed() || flat < 0) return -1;
  const shape d = s.m.tensor_at(flat).dims;
  if (d.rank != 3) return s.rank_error(slot, d), -1;
  const std::int32_t image = s.reshape(flat, make_shape(d[0], d[1], 1, d[2]), s.label_of(v));
  const std::int32_t id = image < 0 ? -1 : s.transpose(image, nchw_of_nhwc, s.label_of(v));
  if (id < 0) return -1;
  s.at(v).one_d = true;
  return s.at(v).nhwc = id;
}

// The input of a windowed op (conv, pools, batch norm) in NHWC: rank 4 (2-D), or rank 3 (1-D, H = 1);
// `spatial` gets 2 or 1.
template <class S>
constexpr std::int32_t windowed_input(S& s, std::int32_t v, std::uint32_t slot, std::uint32_t& spatial) {
  const shape d = onnx_shape(s, v);
  if (s.failed()) return -1;
  if (d.rank != 3 && d.rank != 4) return s.rank_error(slot, d), -1;
  spatial = static_cast<std::uint32_t>(d.rank - 2);
  return spatial == 1 ? as_nhwc_1d(s, v, slot) : as_nhwc(s, v, slot);
}

// Records a node's result: value `v` held by IR tensor `id` in NHWC (a 1-D value: [N, 1, L, C]) or in
// the ONNX layout.
template <class S>
constexpr void define(S& s, std::int32_t v, std::int32_t id, bool nhwc, bool one_d = false) {
  if (v < 0 || id < 0 || s.failed()) return;
  if (nhwc)
    s.at(v).nhwc = id, s.at(v).one_d = one_d;
  else
    s.at(v).onnx_layout = id;
  s.m.tensor_at(id).label = s.label_of(v);
}

// The layout an element-wise op keeps: NHWC when the (rank-4) operand has it.
template <class S>
constexpr bool prefers_nhwc(const S& s, std::int32_t v) {
  const value& x = s.values[static_cast<std::size_t>(v)];
  return !s.is_constant(v) && x.nhwc >= 0 && !x.one_d;
}
// Whether `v` is a 1-D activation held as [N, 1, L, C] (element-wise ops keep that layout).
template <class S>
constexpr bool held_1d(const S& s, std::int32_t v) {
  const value& x = s.values[static_cast<std::size_t>(v)];
  return !s.is_constant(v) && x.nhwc >= 0 && x.one_d;
}

// -----------------------------------------------------------------------------------------------------
// Attributes.

template <class S>
constexpr std::int64_t int_attribute(S& s, const node_view& n, std::string_view name, std::int64_t fallback) {
  return s.f.int_attribute(s.f.attribute(n, name), fallback);
}
template <class S>
constexpr float float_attribute(S& s, const node_view& n, std::string_view name, float fallback) {
  return s.f.float_attribute(s.f.attribute(n, name), fallback);
}
// An ints attribute of `count` values (absent: all `fallback`); another count is an unsupported value.
template <class S>
constexpr bool ints_attribute(S& s, const node_view& n, std::string_view name, attribute which, std::uint32_t count,
                              std::int64_t fallback, std::array<std::int64_t, 4>& out) {
  const attribute_view a = s.f.attribute(n, name);
  for (std::uint32_t k = 0; k < count; ++k) out[k] = fallback;
  if (!a.present()) return !s.take_reader_error();
  const std::uint32_t stored = s.f.ints_count(a);
  if (s.take_reader_error()) return false;
  if (stored != count) return s.attribute_error(which, stored), false;
  for (std::uint32_t k = 0; k < count; ++k) out[k] = s.f.ints_at(a, k);
  return !s.take_reader_error();
}

// Conv/pool window attributes on an NHWC input; explicit pads for every auto_pad mode. `spatial` 1: the
// attributes of a 1-D op, whose input is read as an image of height 1 (its window, 1 x k).
template <class S>
constexpr bool read_window(S& s, const node_view& n, const shape& in, std::int64_t kernel_h, std::int64_t kernel_w,
                           window& w, std::uint32_t spatial = 2) {
  std::array<std::int64_t, 4> strides{}, dilations{}, pads{};
  if (!ints_attribute(s, n, "strides", attribute::strides, spatial, 1, strides) ||
      !ints_attribute(s, n, "dilations", attribute::dilations, spatial, 1, dilations) ||
      !ints_attribute(s, n, "pads", attribute::pads, 2 * spatial, 0, pads))
    return false;
  if (spatial == 1) {  // [begin, end] along W; H gets none
    strides = {1, strides[0], 0, 0};
    dilations = {1, dilations[0], 0, 0};
    pads = {0, pads[0], 0, pads[1]};
  }
  for (const std::int64_t v : {strides[0], strides[1]})
    if (v < 1 || v > max_window_value) return s.attribute_error(attribute::strides, v), false;
  for (const std::int64_t v : {dilations[0], dilations[1]})
    if (v < 1 || v > max_window_value) return s.attribute_error(attribute::dilations, v), false;
  for (std::uint32_t k = 0; k < 4; ++k)
    if (pads[k] < 0 || pads[k] > max_window_value) return s.attribute_error(attribute::pads, pads[k]), false;
  if (kernel_h < 1 || kernel_w < 1 || kernel_h > max_window_value || kernel_w > max_window_value)
    return s.attribute_error(attribute::kernel_shape,
                             kernel_h < 1 || kernel_h > max_window_value ? kernel_h : kernel_w),
           false;
  w.kernel_h = static_cast<std::int32_t>(kernel_h);
  w.kernel_w = static_cast<std::int32_t>(kernel_w);
  w.stride_h = static_cast<std::int32_t>(strides[0]);
  w.stride_w = static_cast<std::int32_t>(strides[1]);
  w.dilation_h = static_cast<std::int32_t>(dilations[0]);
  w.dilation_w = static_cast<std::int32_t>(dilations[1]);
  w.mode = padding::explicit_pads;
  const std::string_view mode = s.f.string_attribute(s.f.attribute(n, "auto_pad"), "NOTSET");
  if (s.take_reader_error()) return false;
  if (mode == "NOTSET") {
    w.pad_top = static_cast<std::int32_t>(pads[0]);
    w.pad_left = static_cast<std::int32_t>(pads[1]);
    w.pad_bottom = static_cast<std::int32_t>(pads[2]);
    w.pad_right = static_cast<std::int32_t>(pads[3]);
  } else if (mode == "VALID") {
    w.pad_top = w.pad_left = w.pad_bottom = w.pad_right = 0;
  } else if (mode == "SAME_UPPER" || mode == "SAME_LOWER") {
    // TensorFlow's SAME is SAME_UPPER (the odd pixel at the end); SAME_LOWER puts it at the start.
    shape_rules::same_padding(in[1], w.kernel_h, w.stride_h, w.dilation_h, w.pad_top, w.pad_bottom);
    shape_rules::same_padding(in[2], w.kernel_w, w.stride_w, w.dilation_w, w.pad_left, w.pad_right);
    if (mode == "SAME_LOWER") {
      const std::int32_t top = w.pad_top, left = w.pad_left;
      w.pad_top = w.pad_bottom, w.pad_bottom = top;
      w.pad_left = w.pad_right, w.pad_right = left;
    }
  } else {
    return s.string_attribute_error(n, "auto_pad", attribute::auto_pad), false;
  }
  return true;
}

// -----------------------------------------------------------------------------------------------------
// Operands.

// A node's operands: value indices in the order of its inputs.
struct operands {
  std::array<std::int32_t, max_node_inputs + 1> id{};  // value indices (-1: omitted); QLinearConv has 9
  std::uint32_t count = 0;
  // The operands given: trailing omitted ones (empty names) are absent, down to `least`.
  constexpr std::uint32_t given(std::uint32_t least) const {
    std::uint32_t n = count;
    while (n > least && id[n - 1] < 0) --n;
    return n;
  }
};

// Operand `slot` of the node names a value that is not defined yet (`name`: its bytes in the NodeProto):
// undefined_operand when no node from this one on produces it, else operand_produced_later with the first
// node that does and whether that one depends on this node's result (a cycle) or not (nodes out of
// order). Only this error path scans the later nodes: their outputs join the value table (the import
// fails anyway), this node's are marked `reached`, then the outputs of every node that reads a reached
// value, until nothing changes or the producer is reached.
template <class S>
constexpr void unready_operand(S& s, std::uint32_t slot, const protobuf::span& name) {
  const protobuf::span graph = s.f.graph();
  protobuf::field fd{}, io{};
  const auto each_name = [&](const protobuf::span& node_proto, std::uint32_t which, auto&& visit) {
    for (std::uint32_t at_ = node_proto.at; s.f.reader().next(node_proto, at_, io);)
      if (io.number == which && io.bytes.length > 0) visit(io.bytes);
  };
  // The producer, and the later nodes' outputs entered in the table.
  const std::int32_t first_entered = s.value_count;
  std::int32_t producer = -1, k = 0;
  bool table_full = false;
  for (std::uint32_t at_ = graph.at; s.f.reader().next(graph, at_, fd);) {
    if (fd.number != schema::graph::node || k++ < s.node_index) continue;
    each_name(fd.bytes, schema::node::output, [&](const protobuf::span& out) {
      if (producer < 0 && s.f.reader().view(out) == s.f.reader().view(name)) producer = k - 1;
      if (s.find(out) >= 0) return;
      if (static_cast<std::size_t>(s.value_count) >= S::max_values) return void(table_full = true);
      s.values[static_cast<std::size_t>(s.insert_value(out, value_kind::node_output))].reached = k - 1 == s.node_index;
    });
  }
  if (s.take_reader_error()) return;
  diagnostic_details d{
      .operator_code = static_cast<std::int64_t>(s.current), .byte_offset = name.at, .input_slot = slot};
  if (producer < 0) return s.fail(onnx_error::undefined_operand, d);
  d.position = producer;
  node_order order = producer == s.node_index ? node_order::cycle
                     : table_full             ? node_order::unknown
                                              : node_order::out_of_order;
  // Reached values: this node's result and what depends on it (entered values only).
  const auto reached = [&](const protobuf::span& v_name) {
    const std::int32_t v = s.find(v_name);
    return v >= first_entered && s.values[static_cast<std::size_t>(v)].reached;
  };
  for (bool changed = order == node_order::out_of_order; changed && order == node_order::out_of_order;) {
    changed = false;
    k = 0;
    for (std::uint32_t at_ = graph.at; s.f.reader().next(graph, at_, fd);) {
      if (fd.number != schema::graph::node || k++ <= s.node_index) continue;
      bool reads = false;
      each_name(fd.bytes, schema::node::input, [&](const protobuf::span& in) { reads = reads || reached(in); });
      if (!reads) continue;
      each_name(fd.bytes, schema::node::output, [&](const protobuf::span& out) {
        const std::int32_t v = s.find(out);
        if (v < first_entered || s.values[static_cast<std::size_t>(v)].reached) return;
        s.values[static_cast<std::size_t>(v)].reached = true;
        changed = true;
      });
    }
    if (reached(name)) order = node_order::cycle;
  }
  if (s.take_reader_error()) return;
  d.reason = static_cast<std::int64_t>(order);
  s.fail(onnx_error::operand_produced_later, d);
}

template <class S>
constexpr operands read_operands(S& s, const node_view& n) {
  operands o{};
  if (n.input_count > o.id.size()) {
    s.fail(error_code::too_many_inputs, s.node_index, s.current_kind,
           {.count_expected = max_node_inputs, .count_actual = n.input_count});
    return o;
  }
  protobuf::field fd{};
  for (std::uint32_t at_ = n.proto.at; s.f.reader().next(n.proto, at_, fd);) {
    if (fd.number != schema::node::input) continue;
    std::int32_t v = -1;
    if (fd.bytes.length > 0) {
      v = s.find(fd.bytes);
      if (v < 0) return unready_operand(s, o.count, fd.bytes), o;
    }
    o.id[o.count++] = v;
  }
  s.take_reader_error();
  return o;
}

// Inputs `least`..`most` given (trailing omitted ones count as absent), required ones present.
template <class S>
constexpr bool expect_inputs(S& s, const operands& o, std::uint32_t least, std::uint32_t most) {
  const std::uint32_t given = o.given(least);
  bool present = true;
  for (std::uint32_t k = 0; k < least && k < given; ++k) present = present && o.id[k] >= 0;
  if (given >= least && given <= most && present) return true;
  s.fail(error_code::input_count_mismatch, s.node_index, s.current_kind,
         {.count_expected = given < least ? least : most, .count_actual = given});
  return false;
}
template <class S>
constexpr bool expect_constant(S& s, const operands& o, std::uint32_t slot) {
  if (o.id[slot] >= 0 && s.is_constant(o.id[slot])) return true;
  s.operand_error(slot);
  return false;
}
template <class S>
constexpr bool expect_activation(S& s, const operands& o, std::uint32_t slot) {
  if (o.id[slot] >= 0 && !s.is_constant(o.id[slot])) return true;
  s.operand_error(slot);
  return false;
}

constexpr bool is_integer(data_type t) {
  return t == data_type::int8 || t == data_type::uint8 || t == data_type::int32 || t == data_type::int64;
}

// Whether `v` is an integer value of `type` that a float holds exactly (up to 2^24).
constexpr bool fits(float v, dtype type) {
  const float low = type == dtype::u8 ? 0.0f : type == dtype::i8 ? -128.0f : -16777216.0f;
  const float high = type == dtype::u8 ? 255.0f : type == dtype::i8 ? 127.0f : 16777216.0f;
  return v >= low && v <= high && static_cast<float>(static_cast<std::int32_t>(v)) == v;
}

// The element type of a value (constants: their TensorProto's, types ctnn does not read as i64: dtype_of).
template <class S>
constexpr dtype element_type(S& s, std::int32_t v) {
  if (s.is_known(v)) return s.known_of(v).type;
  if (s.is_constant(v)) {
    const tensor_view t = s.f.read_tensor(s.at(v).proto);
    s.take_reader_error();
    return dtype_of(t.type);
  }
  const value& x = s.at(v);
  return s.m.tensor_at(x.onnx_layout >= 0 ? x.onnx_layout : x.nhwc).type;
}

// A scalar constant as a float: FLOAT, or an integer type (Clip's bounds on integers, an integer Pad's fill
// value; integers beyond 2^24 are rounded, which import_pad refuses).
template <class S>
constexpr float constant_scalar(S& s, std::int32_t v, std::uint32_t slot) {
  if (s.is_known(v))
    return s.known_of(v).dims.elements() != 1 ? (s.operand_error(slot), 0.0f) : static_cast<float>(s.known_at(v, 0));
  const tensor_view t = s.f.read_tensor(s.at(v).proto);
  if (s.take_reader_error() || !s.checked_tensor(v, t)) return 0.0f;
  if (t.type == data_type::float32) return s.constant_float(v, slot);
  if (!is_integer(t.type) || t.dims.elements() != 1) return s.operand_error(slot), 0.0f;
  std::uint64_t raw = 0;
  if (t.data_field == schema::tensor::raw_data) {
    if (t.data.length != element_bytes(t.type))
      return s.malformed(t.proto.at, protobuf::expectation::tensor_data), 0.0f;
    raw = t.type == data_type::int64   ? s.f.reader().load_u64(t.data.at)
          : t.type == data_type::int32 ? s.f.reader().load_u32(t.data.at)
                                       : s.f.reader().byte(t.data.at);
  } else {
    const std::uint32_t field = t.type == data_type::int64 ? schema::tensor::int64_data : schema::tensor::int32_data;
    raw = s.f.reader().repeated_at(t.proto, field, protobuf::wire::varint, 0);
    s.take_reader_error();
  }
  // The stored bits as the type's value (varints of negative int32 values carry 64 sign-extended bits).
  const std::int64_t value = t.type == data_type::int8    ? static_cast<std::int8_t>(raw & 0xffu)
                             : t.type == data_type::uint8 ? static_cast<std::int64_t>(raw & 0xffu)
                             : t.type == data_type::int32 ? static_cast<std::int32_t>(static_cast<std::uint32_t>(raw))
                                                          : static_cast<std::int64_t>(raw);
  return static_cast<float>(value);
}

}  // namespace ctnn::onnx::detail
