#pragma once
// The ONNX importer's layouts, attributes and operands (import.hpp): a value in NCHW or NHWC, made on
// demand by a transpose; conv and pool windows from attributes; a node's operands checked.
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/frontend/onnx/import_state.hpp>

namespace ctnn::onnx::detail {

template <class Module, std::size_t MaxValues, std::size_t MaxRelayouts>
struct layout_importer : importer_state<Module, MaxValues, MaxRelayouts> {
  using importer_state<Module, MaxValues, MaxRelayouts>::f;
  using importer_state<Module, MaxValues, MaxRelayouts>::m;
  using importer_state<Module, MaxValues, MaxRelayouts>::values;
  using importer_state<Module, MaxValues, MaxRelayouts>::node_index;
  using importer_state<Module, MaxValues, MaxRelayouts>::current;
  using importer_state<Module, MaxValues, MaxRelayouts>::failed;
  using importer_state<Module, MaxValues, MaxRelayouts>::fail;
  using importer_state<Module, MaxValues, MaxRelayouts>::take_reader_error;
  using importer_state<Module, MaxValues, MaxRelayouts>::malformed;
  using importer_state<Module, MaxValues, MaxRelayouts>::attribute_error;
  using importer_state<Module, MaxValues, MaxRelayouts>::string_attribute_error;
  using importer_state<Module, MaxValues, MaxRelayouts>::operand_error;
  using importer_state<Module, MaxValues, MaxRelayouts>::rank_error;
  using importer_state<Module, MaxValues, MaxRelayouts>::find;
  using importer_state<Module, MaxValues, MaxRelayouts>::insert_value;
  using importer_state<Module, MaxValues, MaxRelayouts>::value_count;
  using importer_state<Module, MaxValues, MaxRelayouts>::at;
  using importer_state<Module, MaxValues, MaxRelayouts>::label_of;
  using importer_state<Module, MaxValues, MaxRelayouts>::is_constant;
  using importer_state<Module, MaxValues, MaxRelayouts>::reshape;
  using importer_state<Module, MaxValues, MaxRelayouts>::transpose;
  using importer_state<Module, MaxValues, MaxRelayouts>::gathered;
  using importer_state<Module, MaxValues, MaxRelayouts>::constant_shape;

  // ---------------------------------------------------------------------------------------------------
  // Layouts.

  // The ONNX shape of a value.
  constexpr shape onnx_shape(std::int32_t v) {
    if (is_constant(v)) return constant_shape(v);
    const value& x = at(v);
    if (x.onnx_layout >= 0) return m.tensor_at(x.onnx_layout).dims;
    const shape s = m.tensor_at(x.nhwc).dims;
    return x.one_d ? make_shape(s[0], s[3], s[2]) : to_nchw(s);
  }

  // The value as an IR tensor in its ONNX layout (constants: as stored).
  constexpr std::int32_t as_onnx(std::int32_t v, std::uint32_t slot) {
    value& x = at(v);
    if (x.onnx_layout >= 0) return x.onnx_layout;
    if (is_constant(v)) {
      const shape s = constant_shape(v);
      std::array<std::int64_t, 4> strides{};
      if (s.rank > 4) return operand_error(slot), -1;
      // The strides of its dims; a constant too large to be one ctnn reads (a fuzzed file's dims) is refused
      // before the product overflows (issue #23).
      std::int64_t step = 1;
      for (std::int32_t d = s.rank - 1; d >= 0; --d) {
        strides[static_cast<std::size_t>(d)] = step;
        if (s[d] > 0 && step > (std::int64_t{1} << 40) / s[d]) return operand_error(slot), -1;
        step *= s[d] > 0 ? s[d] : 1;
      }
      return x.onnx_layout = gathered(v, slot, s, strides, 1.0f);
    }
    // NHWC -> NCHW: a transpose (a view when it moves only extent-1 dims, alias_reshapes).
    const std::int32_t nchw = transpose(x.nhwc, nhwc_of_nchw, label_of(v));
    if (!x.one_d || nchw < 0) return x.onnx_layout = nchw;
    const shape s = m.tensor_at(nchw).dims;  // [N, C, 1, L] -> [N, C, L] (a view)
    return x.onnx_layout = reshape(nchw, make_shape(s[0], s[1], s[3]), label_of(v));
  }

  // The value as an IR tensor in NHWC (rank 4).
  constexpr std::int32_t as_nhwc(std::int32_t v, std::uint32_t slot) {
    value& x = at(v);
    if (x.nhwc >= 0 && !x.one_d) return x.nhwc;
    const shape s = onnx_shape(v);
    if (failed()) return -1;
    if (s.rank != 4) return rank_error(slot, s), -1;
    if (is_constant(v)) {
      // [N, C, H, W] stored: NHWC dim d steps by the stride of NCHW dim nchw_of_nhwc[d].
      const std::array<std::int64_t, 4> nchw_strides{static_cast<std::int64_t>(s[1]) * s[2] * s[3], static_cast<std::int64_t>(s[2]) * s[3], s[3], 1};
      return x.nhwc = gathered(v, slot, to_nhwc(s), {nchw_strides[0], nchw_strides[2], nchw_strides[3], nchw_strides[1]}, 1.0f);
    }
    return x.nhwc = transpose(x.onnx_layout, nchw_of_nhwc, label_of(v));
  }

  // A 1-D activation [N, C, L] as the NHWC image [N, 1, L, C] that 2-D ops read (H = 1): a reshape (a
  // view) and a transpose, made once per value.
  constexpr std::int32_t as_nhwc_1d(std::int32_t v, std::uint32_t slot) {
    if (at(v).nhwc >= 0 && at(v).one_d) return at(v).nhwc;
    const std::int32_t flat = as_onnx(v, slot);
    if (failed() || flat < 0) return -1;
    const shape s = m.tensor_at(flat).dims;
    if (s.rank != 3) return rank_error(slot, s), -1;
    const std::int32_t image = reshape(flat, make_shape(s[0], s[1], 1, s[2]), label_of(v));
    const std::int32_t id = image < 0 ? -1 : transpose(image, nchw_of_nhwc, label_of(v));
    if (id < 0) return -1;
    at(v).one_d = true;
    return at(v).nhwc = id;
  }

  // The input of a windowed op (conv, pools, batch norm) in NHWC: rank 4 (2-D), or rank 3 (1-D, H = 1);
  // `spatial` gets 2 or 1.
  constexpr std::int32_t windowed_input(std::int32_t v, std::uint32_t slot, std::uint32_t& spatial) {
    const shape s = onnx_shape(v);
    if (failed()) return -1;
    if (s.rank != 3 && s.rank != 4) return rank_error(slot, s), -1;
    spatial = static_cast<std::uint32_t>(s.rank - 2);
    return spatial == 1 ? as_nhwc_1d(v, slot) : as_nhwc(v, slot);
  }

  // Records a node's result: value `v` held by IR tensor `id` in NHWC (a 1-D value: [N, 1, L, C]) or in
  // the ONNX layout.
  constexpr void define(std::int32_t v, std::int32_t id, bool nhwc, bool one_d = false) {
    if (v < 0 || id < 0 || failed()) return;
    if (nhwc) at(v).nhwc = id, at(v).one_d = one_d;
    else at(v).onnx_layout = id;
    m.tensor_at(id).label = label_of(v);
  }

  // The layout an element-wise op keeps: NHWC when the (rank-4) operand has it.
  constexpr bool prefers_nhwc(std::int32_t v) const {
    const value& x = values[static_cast<std::size_t>(v)];
    return !is_constant(v) && x.nhwc >= 0 && !x.one_d;
  }
  // Whether `v` is a 1-D activation held as [N, 1, L, C] (element-wise ops keep that layout).
  constexpr bool held_1d(std::int32_t v) const {
    const value& x = values[static_cast<std::size_t>(v)];
    return !is_constant(v) && x.nhwc >= 0 && x.one_d;
  }

  // ---------------------------------------------------------------------------------------------------
  // Attributes.

  constexpr std::int64_t int_attribute(const node_view& n, std::string_view name, std::int64_t fallback) {
    return f.int_attribute(f.attribute(n, name), fallback);
  }
  constexpr float float_attribute(const node_view& n, std::string_view name, float fallback) {
    return f.float_attribute(f.attribute(n, name), fallback);
  }
  // An ints attribute of `count` values (absent: all `fallback`); another count is an unsupported value.
  constexpr bool ints_attribute(const node_view& n, std::string_view name, attribute which, std::uint32_t count,
                                std::int64_t fallback, std::array<std::int64_t, 4>& out) {
    const attribute_view a = f.attribute(n, name);
    for (std::uint32_t k = 0; k < count; ++k) out[k] = fallback;
    if (!a.present()) return !take_reader_error();
    const std::uint32_t stored = f.ints_count(a);
    if (take_reader_error()) return false;
    if (stored != count) return attribute_error(which, stored), false;
    for (std::uint32_t k = 0; k < count; ++k) out[k] = f.ints_at(a, k);
    return !take_reader_error();
  }

  // Conv/pool window attributes on an NHWC input; explicit pads for every auto_pad mode. `spatial` 1: the
  // attributes of a 1-D op, whose input is read as an image of height 1 (its window, 1 x k).
  constexpr bool read_window(const node_view& n, const shape& in, std::int64_t kernel_h, std::int64_t kernel_w, window& w,
                             std::uint32_t spatial = 2) {
    std::array<std::int64_t, 4> strides{}, dilations{}, pads{};
    if (!ints_attribute(n, "strides", attribute::strides, spatial, 1, strides) ||
        !ints_attribute(n, "dilations", attribute::dilations, spatial, 1, dilations) ||
        !ints_attribute(n, "pads", attribute::pads, 2 * spatial, 0, pads))
      return false;
    if (spatial == 1) {  // [begin, end] along W; H gets none
      strides = {1, strides[0], 0, 0};
      dilations = {1, dilations[0], 0, 0};
      pads = {0, pads[0], 0, pads[1]};
    }
    for (const std::int64_t v : {strides[0], strides[1]})
      if (v < 1 || v > max_window_value) return attribute_error(attribute::strides, v), false;
    for (const std::int64_t v : {dilations[0], dilations[1]})
      if (v < 1 || v > max_window_value) return attribute_error(attribute::dilations, v), false;
    for (std::uint32_t k = 0; k < 4; ++k)
      if (pads[k] < 0 || pads[k] > max_window_value) return attribute_error(attribute::pads, pads[k]), false;
    if (kernel_h < 1 || kernel_w < 1 || kernel_h > max_window_value || kernel_w > max_window_value)
      return attribute_error(attribute::kernel_shape, kernel_h < 1 || kernel_h > max_window_value ? kernel_h : kernel_w), false;
    w.kernel_h = static_cast<std::int32_t>(kernel_h);
    w.kernel_w = static_cast<std::int32_t>(kernel_w);
    w.stride_h = static_cast<std::int32_t>(strides[0]);
    w.stride_w = static_cast<std::int32_t>(strides[1]);
    w.dilation_h = static_cast<std::int32_t>(dilations[0]);
    w.dilation_w = static_cast<std::int32_t>(dilations[1]);
    w.mode = padding::explicit_pads;
    const std::string_view mode = f.string_attribute(f.attribute(n, "auto_pad"), "NOTSET");
    if (take_reader_error()) return false;
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
      return string_attribute_error(n, "auto_pad", attribute::auto_pad), false;
    }
    return true;
  }

  // ---------------------------------------------------------------------------------------------------
  // Nodes.

  struct operands {
    std::array<std::int32_t, max_node_inputs + 1> id{};  // value indices (-1: omitted); QLinearConv has 9
    std::uint32_t count = 0;
  };

  constexpr operands read_operands(const node_view& n) {
    operands o{};
    if (n.input_count > o.id.size()) {
      fail(error_code::too_many_inputs, node_index, kind_of(current),
           {.count_expected = max_node_inputs, .count_actual = n.input_count});
      return o;
    }
    protobuf::field fd{};
    for (std::uint32_t at_ = n.proto.at; f.reader().next(n.proto, at_, fd);) {
      if (fd.number != schema::node::input) continue;
      std::int32_t v = -1;
      if (fd.bytes.length > 0) {
        v = find(fd.bytes);
        if (v < 0) return unready_operand(o.count, fd.bytes), o;
      }
      o.id[o.count++] = v;
    }
    take_reader_error();
    return o;
  }

  // Operand `slot` of the node names a value that is not defined yet (`name`: its bytes in the NodeProto):
  // undefined_operand when no node from this one on produces it, else operand_produced_later with the first
  // node that does and whether that one depends on this node's result (a cycle) or not (nodes out of
  // order). Only this error path scans the later nodes: their outputs join the value table (the import
  // fails anyway), this node's are marked `reached`, then the outputs of every node that reads a reached
  // value, until nothing changes or the producer is reached.
  constexpr void unready_operand(std::uint32_t slot, const protobuf::span& name) {
    const protobuf::span graph = f.graph();
    protobuf::field fd{}, io{};
    const auto each_name = [&](const protobuf::span& node_proto, std::uint32_t which, auto&& visit) {
      for (std::uint32_t at_ = node_proto.at; f.reader().next(node_proto, at_, io);)
        if (io.number == which && io.bytes.length > 0) visit(io.bytes);
    };
    // The producer, and the later nodes' outputs entered in the table.
    const std::int32_t first_entered = value_count;
    std::int32_t producer = -1, k = 0;
    bool table_full = false;
    for (std::uint32_t at_ = graph.at; f.reader().next(graph, at_, fd);) {
      if (fd.number != schema::graph::node || k++ < node_index) continue;
      each_name(fd.bytes, schema::node::output, [&](const protobuf::span& out) {
        if (producer < 0 && f.reader().view(out) == f.reader().view(name)) producer = k - 1;
        if (find(out) >= 0) return;
        if (static_cast<std::size_t>(value_count) >= MaxValues) return void(table_full = true);
        values[static_cast<std::size_t>(insert_value(out, value_kind::node_output))].reached = k - 1 == node_index;
      });
    }
    if (take_reader_error()) return;
    diagnostic_details d{.operator_code = static_cast<std::int64_t>(current), .byte_offset = name.at, .input_slot = slot};
    if (producer < 0) return fail(onnx_error::undefined_operand, d);
    d.position = producer;
    node_order order = producer == node_index ? node_order::cycle : table_full ? node_order::unknown : node_order::out_of_order;
    // Reached values: this node's result and what depends on it (entered values only).
    const auto reached = [&](const protobuf::span& v_name) {
      const std::int32_t v = find(v_name);
      return v >= first_entered && values[static_cast<std::size_t>(v)].reached;
    };
    for (bool changed = order == node_order::out_of_order; changed && order == node_order::out_of_order;) {
      changed = false;
      k = 0;
      for (std::uint32_t at_ = graph.at; f.reader().next(graph, at_, fd);) {
        if (fd.number != schema::graph::node || k++ <= node_index) continue;
        bool reads = false;
        each_name(fd.bytes, schema::node::input, [&](const protobuf::span& in) { reads = reads || reached(in); });
        if (!reads) continue;
        each_name(fd.bytes, schema::node::output, [&](const protobuf::span& out) {
          const std::int32_t v = find(out);
          if (v < first_entered || values[static_cast<std::size_t>(v)].reached) return;
          values[static_cast<std::size_t>(v)].reached = true;
          changed = true;
        });
      }
      if (reached(name)) order = node_order::cycle;
    }
    if (take_reader_error()) return;
    d.reason = static_cast<std::int64_t>(order);
    fail(onnx_error::operand_produced_later, d);
  }

  // Inputs `least`..`most` given (trailing omitted ones count as absent), required ones present.
  constexpr bool expect_inputs(const operands& o, std::uint32_t least, std::uint32_t most) {
    std::uint32_t given = o.count;
    while (given > least && o.id[given - 1] < 0) --given;
    bool present = true;
    for (std::uint32_t k = 0; k < least && k < given; ++k) present = present && o.id[k] >= 0;
    if (given >= least && given <= most && present) return true;
    fail(error_code::input_count_mismatch, node_index, kind_of(current),
         {.count_expected = given < least ? least : most, .count_actual = given});
    return false;
  }
  constexpr bool expect_constant(const operands& o, std::uint32_t slot) {
    if (o.id[slot] >= 0 && is_constant(o.id[slot])) return true;
    operand_error(slot);
    return false;
  }
  constexpr bool expect_activation(const operands& o, std::uint32_t slot) {
    if (o.id[slot] >= 0 && !is_constant(o.id[slot])) return true;
    operand_error(slot);
    return false;
  }
};

}  // namespace ctnn::onnx::detail
