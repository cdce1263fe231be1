#pragma once
// The ONNX importer's state (import.hpp), the one object every part of the import works on: the module it
// fills, the value table, the relayouts, the node being imported; its diagnostics, value lookups by name and
// the module edits. The layout and operand helpers (import_layouts.hpp) and the op families' import
// functions (import_table.hpp lists them) are free functions that take it.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include <ctnn/frontend/onnx/errors.hpp>
#include <ctnn/frontend/onnx/schema.hpp>
#include <ctnn/frontend/protobuf.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/ir/shape_rules.hpp>
#include <ctnn/ops/infer.hpp>
#include <ctnn/frontend/onnx/import_values.hpp>

namespace ctnn::onnx::detail {

template <class Module, std::size_t MaxValues, std::size_t MaxRelayouts>
struct importer_state {
  static constexpr std::size_t max_values = MaxValues;

  model_file& f;
  Module& m;
  std::array<value, MaxValues>& values;
  std::array<relayout, MaxRelayouts>& relayouts;
  std::int32_t value_count = 0;
  std::int32_t relayout_count = 0;
  std::int32_t node_index = -1;         // the NodeProto being imported
  std::int32_t node_values = 0;         // the first value it entered (its outputs, then an operand tree's hidden values)
  op_type current = op_type::unknown;
  // The kind diagnostics carry outside a row (a node without one, the graph's outputs); reshape stands for
  // none, as it always has here.
  static constexpr op_kind no_row_kind = op_kind::reshape;
  op_kind current_kind = no_row_kind;   // its IR kind in diagnostics (its import_table.hpp row's)
  name op_label{};                      // its name: the NodeProto's, or its first output's when it has none
  std::int32_t qdq_lowered = 0;         // QDQ groups lowered to integer ops (import_qdq.hpp)
  std::int32_t node_peak = 0;           // nodes before the unread ones were erased: the capacity an import needs
  // The integers computed at import (value_kind::known_integers, import_known.hpp): entries and their elements.
  std::array<known_integers, max_known_values> known{};
  std::array<std::int64_t, max_known_store> known_data{};
  std::int32_t known_count = 0, known_used = 0;
  // Symbolic input dimensions (dim_bindings.hpp): the bindings, and the inputs whose first axis was bound to 1
  // by default (bit k: input k; batch_names[k]: its dim_param, if any).
  std::string_view dim_bindings{};
  std::uint32_t batch_bound_to_one = 0;
  std::array<protobuf::span, max_model_io> batch_names{};

  // ---------------------------------------------------------------------------------------------------
  // Diagnostics.

  constexpr bool failed() const { return m.error.failed(); }
  // `node` counts the file's NodeProtos (-1: not a node's error); a node's error carries op_label.
  constexpr void fail(error_code code, std::int32_t node, op_kind kind, const diagnostic_details& details,
                      const shape& expected = {}, const shape& actual = {}) {
    m.fail_in_file(diagnostic{code, node, kind, expected, actual, details, node >= 0 ? op_label : name{}});
  }
  constexpr void fail(onnx_error code, const diagnostic_details& details, const shape& expected = {},
                      const shape& actual = {}) {
    fail(code_of(code), node_index, current_kind, details, expected, actual);
  }
  constexpr bool take_reader_error() {
    if (!f.failed()) return false;
    m.fail_in_file(f.error().as_diagnostic(code_of(onnx_error::malformed_model)));
    return true;
  }
  constexpr void malformed(std::int64_t offset, protobuf::expectation what) {
    f.reader().fail(offset, what);
    take_reader_error();
  }
  constexpr void attribute_error(attribute which, std::int64_t value) {
    std::int64_t v = value < -2000000000 ? -2000000000 : value > 2000000000 ? 2000000000 : value;
    fail(onnx_error::unsupported_attribute,
         {.operator_code = static_cast<std::int64_t>(current), .attribute = static_cast<std::int64_t>(which)},
         make_shape(static_cast<std::int32_t>(v)));
  }
  // An unsupported string value: where it is in the file (ctnn-inspect and ctnn-run print it).
  constexpr void attribute_error(attribute which, const protobuf::span& text) {
    fail(onnx_error::unsupported_attribute,
         {.operator_code = static_cast<std::int64_t>(current), .attribute = static_cast<std::int64_t>(which)},
         make_shape(-1, static_cast<std::int32_t>(text.at), static_cast<std::int32_t>(text.length)));
  }
  constexpr void string_attribute_error(const node_view& n, std::string_view name, attribute which) {
    attribute_error(which, f.reader().message_field(f.attribute(n, name).proto, schema::attribute::s));
  }
  constexpr void operand_error(std::uint32_t slot) {
    fail(onnx_error::unsupported_operand, {.operator_code = static_cast<std::int64_t>(current), .input_slot = slot});
  }
  // Operand `slot` belongs to a QDQ group no integer op takes (import_qdq.hpp).
  constexpr void qdq_error(std::uint32_t slot) {
    fail(onnx_error::qdq_group, {.operator_code = static_cast<std::int64_t>(current), .input_slot = slot});
  }
  constexpr void operand_type_error(std::uint32_t slot, data_type type) {
    fail(onnx_error::operand_type, {.operator_code = static_cast<std::int64_t>(current), .input_slot = slot},
         make_shape(static_cast<std::int32_t>(type)));
  }
  // Element `index` of a constant operand is out of range: an integer (clamped to int32) or a float's bits.
  constexpr void operand_value_error(std::uint32_t slot, std::int64_t index, std::int64_t value) {
    const std::int64_t v = value < -2147483647 ? -2147483647 : value > 2147483647 ? 2147483647 : value;
    fail(onnx_error::operand_value, {.operator_code = static_cast<std::int64_t>(current), .input_slot = slot},
         make_shape(static_cast<std::int32_t>(index), static_cast<std::int32_t>(v), 0));
  }
  constexpr void operand_value_error(std::uint32_t slot, std::int64_t index, float value) {
    fail(onnx_error::operand_value, {.operator_code = static_cast<std::int64_t>(current), .input_slot = slot},
         make_shape(static_cast<std::int32_t>(index), std::bit_cast<std::int32_t>(value), 1));
  }
  // An axis attribute or operand outside [0, rank) of the op's input (Flatten's: [0, rank]).
  constexpr void axis_error(std::int64_t axis, std::int32_t rank) {
    fail(error_code::invalid_axis, node_index, current_kind, {.axis = axis, .rank_actual = rank});
  }
  // Operand `slot` has a rank the op does not take (its ONNX shape in the diagnostic).
  constexpr void rank_error(std::uint32_t slot, const shape& s) {
    fail(onnx_error::unsupported_rank, {.operator_code = static_cast<std::int64_t>(current), .input_slot = slot}, {},
         s);
  }

  // ---------------------------------------------------------------------------------------------------
  // Values.

  // Name lookups go through an open-addressing hash table (value index + 1 per slot, 0 = empty): a scan
  // over all values per lookup made the import quadratic in clang's constexpr step count.
  static constexpr std::size_t slot_count = std::bit_ceil(2 * MaxValues + 1);
  std::array<std::int32_t, slot_count> slots{};

  constexpr std::int32_t find(const protobuf::span& name) const {
    const std::string_view text = f.reader().view(name);
    const std::uint32_t h = hash_of(f.reader().pointer(name.at), name.length);
    for (std::size_t s = h & (slot_count - 1); slots[s] != 0; s = (s + 1) & (slot_count - 1)) {
      const auto v = static_cast<std::size_t>(slots[s] - 1);
      if (values[v].hash == h && values[v].name.length == name.length && f.reader().view(values[v].name) == text)
        return static_cast<std::int32_t>(v);
    }
    return -1;
  }

  constexpr std::int32_t add_value(const protobuf::span& name, value_kind kind, std::int64_t name_tag_at) {
    if (name.length == 0) return malformed(name_tag_at, protobuf::expectation::value_name), -1;
    if (find(name) >= 0) return malformed(name_tag_at, protobuf::expectation::unique_value), -1;
    if (static_cast<std::size_t>(value_count) >= MaxValues) return capacity_exceeded(), -1;
    return insert_value(name, kind);
  }
  // Enters a value the table does not have yet, in a free slot.
  constexpr std::int32_t insert_value(const protobuf::span& name, value_kind kind) {
    value& v = values[static_cast<std::size_t>(value_count)];
    v = value{};
    v.name = name;
    v.hash = hash_of(f.reader().pointer(name.at), name.length);
    v.kind = kind;
    std::size_t s = v.hash & (slot_count - 1);
    while (slots[s] != 0) s = (s + 1) & (slot_count - 1);
    slots[s] = value_count + 1;
    return value_count++;
  }
  // A value no name finds (the integer result inside a QDQ group, import_qdq.hpp), labelled as `like`.
  constexpr std::int32_t hidden_value(std::int32_t like) {
    if (static_cast<std::size_t>(value_count) >= MaxValues) return capacity_exceeded(), -1;
    value& v = values[static_cast<std::size_t>(value_count)];
    v = value{};
    v.name = values[static_cast<std::size_t>(like)].name;
    return value_count++;
  }
  // A value no name finds: an omitted output (empty `name`) of a node with several outputs.
  constexpr std::int32_t unnamed_value(const protobuf::span& name) {
    if (static_cast<std::size_t>(value_count) >= MaxValues) return capacity_exceeded(), -1;
    value& v = values[static_cast<std::size_t>(value_count)];
    v = value{};
    v.name = name;
    v.kind = value_kind::node_output;
    return value_count++;
  }
  constexpr value& at(std::int32_t v) { return values[static_cast<std::size_t>(v)]; }
  constexpr name label_of(std::int32_t v) const { return name{f.reader().view(values[static_cast<std::size_t>(v)].name)}; }
  // Constants: initializers, Constant nodes, and the integers computed at import (their readers below, constant_int,
  // constant_shape, ..., read either).
  constexpr bool is_constant(std::int32_t v) const {
    const value_kind k = values[static_cast<std::size_t>(v)].kind;
    return k == value_kind::initializer || k == value_kind::constant || k == value_kind::known_integers;
  }
  constexpr bool is_known(std::int32_t v) const { return values[static_cast<std::size_t>(v)].kind == value_kind::known_integers; }
  constexpr const known_integers& known_of(std::int32_t v) const {
    return known[static_cast<std::size_t>(values[static_cast<std::size_t>(v)].known)];
  }
  // Element k of a known value (k below its element count).
  constexpr std::int64_t known_at(std::int32_t v, std::int64_t k) const {
    return known_data[static_cast<std::size_t>(known_of(v).at + k)];
  }
  // Makes value `v` a known value of `dims` and `type` whose elements the caller writes at known_data[returned
  // index, + dims.elements()); -1 after a diagnostic when the store is full.
  // A full store first reclaims the entries nothing reads any more (reclaim_known).
  constexpr std::int32_t make_known(std::int32_t v, const shape& dims, dtype type) {
    const std::int64_t count = dims.elements();
    const auto fits = [&] {
      return static_cast<std::size_t>(known_count) < max_known_values && static_cast<std::size_t>(known_used + count) <= max_known_store;
    };
    if (count <= max_known_elements && !fits()) reclaim_known();
    if (failed()) return -1;
    if (count > max_known_elements || !fits()) return computed_integers_error(v, tensor_feature::computed_integers_capacity), -1;
    known[static_cast<std::size_t>(known_count)] = known_integers{dims, type, known_used};
    at(v).kind = value_kind::known_integers;
    at(v).known = known_count++;
    const std::int32_t first = known_used;
    known_used += static_cast<std::int32_t>(count);
    return first;
  }
  // Frees the store's entries that nothing reads any more and compacts the rest (issue #28: ShuffleNet's 13
  // channel shuffles compute ~70 known values, each read once by the next node). An entry stays when a node
  // from the current one on reads its value by name (or a QDQ op deferred to a later QuantizeLinear does), it
  // is a graph output, the current node entered it, or a constant tensor's relayout reads its elements
  // (import_result::known at the end).
  // Only a full store pays for the scan of the remaining nodes. A dropped value becomes a plain node output
  // with no tensor: nothing can read it by name any more.
  constexpr void reclaim_known() {
    std::array<bool, max_known_values> live{};
    const auto keep = [&](const protobuf::span& value_name) {
      const std::int32_t v = value_name.length > 0 ? find(value_name) : -1;
      if (v >= 0 && is_known(v)) live[static_cast<std::size_t>(at(v).known)] = true;
    };
    protobuf::field fd{}, io{};
    const auto keep_inputs = [&](const protobuf::span& node_proto) {
      for (std::uint32_t at_ = node_proto.at; f.reader().next(node_proto, at_, io);)
        if (io.number == schema::node::input) keep(io.bytes);
    };
    const protobuf::span graph = f.graph();
    std::int32_t node = 0;
    for (std::uint32_t at_ = graph.at; f.reader().next(graph, at_, fd);) {
      if (fd.number == schema::graph::output) keep(f.reader().message_field(fd.bytes, schema::value_info::name));
      if (fd.number == schema::graph::node && node++ >= node_index) keep_inputs(fd.bytes);
    }
    for (std::int32_t v = 0; v < value_count; ++v)
      if (values[static_cast<std::size_t>(v)].kind == value_kind::qdq_deferred && values[static_cast<std::size_t>(v)].deferred_op.length > 0)
        keep_inputs(values[static_cast<std::size_t>(v)].deferred_op);
    // The current node's own values: an operand tree's inner results (hidden values, no name finds them) that
    // its next inner node reads (import_wide).
    for (std::int32_t v = node_values; v < value_count; ++v)
      if (is_known(v)) live[static_cast<std::size_t>(at(v).known)] = true;
    if (take_reader_error()) return;
    for (std::int32_t r = 0; r < relayout_count; ++r) {
      const relayout& c = relayouts[static_cast<std::size_t>(r)];
      for (std::int32_t e = 0; c.kind == relayout_kind::known_integers && e < known_count; ++e) {
        const known_integers& k = known[static_cast<std::size_t>(e)];
        if (c.source >= static_cast<std::uint32_t>(k.at) && c.source < static_cast<std::uint32_t>(k.at + k.dims.elements()))
          live[static_cast<std::size_t>(e)] = true;
      }
    }
    // Compacted in place, in order (an entry only moves down); the relayouts' sources move with their entry.
    std::array<std::int32_t, max_known_values> moved_to{};
    std::int32_t kept = 0, used = 0;
    for (std::int32_t e = 0; e < known_count; ++e) {
      const known_integers k = known[static_cast<std::size_t>(e)];
      moved_to[static_cast<std::size_t>(e)] = live[static_cast<std::size_t>(e)] ? kept : -1;
      if (!live[static_cast<std::size_t>(e)]) continue;
      const std::int64_t count = k.dims.elements();
      for (std::int32_t r = 0; r < relayout_count; ++r) {
        relayout& c = relayouts[static_cast<std::size_t>(r)];
        if (c.kind == relayout_kind::known_integers && c.source >= static_cast<std::uint32_t>(k.at) &&
            c.source < static_cast<std::uint32_t>(k.at + count))
          c.source = c.source - static_cast<std::uint32_t>(k.at) + static_cast<std::uint32_t>(used);
      }
      for (std::int64_t i = 0; i < count; ++i) known_data[static_cast<std::size_t>(used + i)] = known_data[static_cast<std::size_t>(k.at + i)];
      known[static_cast<std::size_t>(kept++)] = known_integers{k.dims, k.type, used};
      used += static_cast<std::int32_t>(count);
    }
    for (std::int32_t v = 0; v < value_count; ++v) {
      value& x = values[static_cast<std::size_t>(v)];
      if (x.kind != value_kind::known_integers) continue;
      x.known = moved_to[static_cast<std::size_t>(x.known)];
      if (x.known < 0) x.kind = value_kind::node_output;
    }
    known_count = kept;
    known_used = used;
  }
  // A known value as a constant IR tensor (an op reads it as a tensor, or it is a graph output): a
  // known_integers relayout of its elements (rank 0: [1]; at most rank 4, a relayout's); -1 after a diagnostic.
  constexpr std::int32_t known_tensor(std::int32_t v) {
    const known_integers& k = known_of(v);
    if (k.dims.rank > 4) return computed_integers_error(v), -1;
    const std::int32_t id = add_tensor(k.dims.rank == 0 ? make_shape(1) : k.dims, label_of(v), tensor_role::constant);
    if (id < 0) return -1;
    m.tensor_at(id).type = k.type;
    if (static_cast<std::size_t>(relayout_count) >= MaxRelayouts) return capacity_exceeded(), -1;
    relayout& r = relayouts[static_cast<std::size_t>(relayout_count++)];
    r = relayout{};
    r.tensor = id;
    r.kind = relayout_kind::known_integers;
    r.source = static_cast<std::uint32_t>(k.at);
    r.rank = k.dims.rank == 0 ? 1 : k.dims.rank;
    for (std::int32_t d = 0; d < r.rank; ++d) r.dims[static_cast<std::size_t>(d)] = m.tensor_at(id).dims[d];
    r.type = k.type;
    return id;
  }
  // A known value that no IR tensor can hold (rank above 4), or the store full.
  constexpr void computed_integers_error(std::int32_t v, tensor_feature why = tensor_feature::computed_integers) {
    fail(onnx_error::unsupported_tensor_feature, {.byte_offset = at(v).name.at, .reason = static_cast<std::int64_t>(why)});
  }

  // ---------------------------------------------------------------------------------------------------
  // Module edits.

  constexpr void capacity_exceeded() {
    if (!failed())
      fail(error_code::too_many_inputs, -1, op_kind::none,
           {.count_expected = static_cast<std::int64_t>(Module::node_capacity), .count_actual = m.node_count});
  }
  constexpr std::int32_t add_tensor(const shape& dims, const name& label, tensor_role role = tensor_role::intermediate) {
    if (static_cast<std::size_t>(m.tensor_count) >= Module::tensor_capacity) return capacity_exceeded(), -1;
    tensor t{};
    t.label = label;
    t.dims = dims;
    t.role = role;
    return m.add_tensor(t);
  }
  // A node reading `inputs`, writing a new tensor whose shape infer_types' rules give; -1 on a failure.
  constexpr std::int32_t add_node(op_kind kind, const op_attributes& attrs, std::initializer_list<std::int32_t> inputs,
                                  const name& label) {
    if (failed()) return -1;
    for (const std::int32_t in : inputs)
      if (in < -1) return -1;
    const std::int32_t out = add_tensor({}, label);
    if (out < 0) return -1;
    if (static_cast<std::size_t>(m.node_count) >= Module::node_capacity) return capacity_exceeded(), -1;
    const std::int32_t id = m.node_count++;
    node& n = m.node_at(id);
    n = node{};
    n.kind = kind;
    n.label = label;
    n.attrs = attrs;
    n.output = out;
    for (const std::int32_t in : inputs) n.inputs[static_cast<std::size_t>(n.input_count++)] = in;
    m.tensor_at(out).producer = id;
    const shape dims = ops::infer_shape(m, id);
    if (failed()) {
      m.error.node = node_index;  // the ONNX node, not the IR node
      return -1;
    }
    m.tensor_at(out).dims = dims;
    m.tensor_at(out).type = ops::result_type(m, m.node_at(id));
    return out;
  }
  // The nodes of the kinds several import functions add, each built here alone (issue #24: a kind's
  // frontend knowledge in one place). A reshape to `target` (empty: a copy).
  constexpr std::int32_t reshape(std::int32_t in, const shape& target, const name& label) {
    op_attributes a{};
    a.target = target;
    return add_node(op_kind::reshape, a, {in}, label);
  }
  // A concat of inputs[0, count) along `axis` (Concat, and the slices of a Gather of constant indices). add_node
  // infers the shape from the first input alone: the node then gets the others, and its shape again.
  constexpr std::int32_t concat(const std::array<std::int32_t, max_node_inputs>& inputs, std::uint32_t count, std::int32_t axis,
                                const name& label) {
    op_attributes a{};
    a.axis = axis;
    const std::int32_t out = add_node(op_kind::concat, a, {inputs[0]}, label);
    if (out < 0) return -1;
    node& c = m.node_at(m.tensor_at(out).producer);
    for (std::uint32_t k = 1; k < count; ++k) c.inputs[k] = inputs[k];
    c.input_count = static_cast<std::int32_t>(count);
    const shape dims = ops::infer_shape(m, m.tensor_at(out).producer);
    if (failed()) {
      m.error.node = node_index;
      return -1;
    }
    m.tensor_at(out).dims = dims;
    return out;
  }
  // A pad (Pad, and the zeros of a pool that counts its pads).
  constexpr std::int32_t pad(std::int32_t in, const pad_fields& fields, const name& label) {
    op_attributes a{};
    a.pad = fields;
    return add_node(op_kind::pad, a, {in}, label);
  }

  // A transpose: output dim d is input dim perm[d] (a rank-4 layout change, or any rank).
  template <std::size_t Rank>
  constexpr std::int32_t transpose(std::int32_t in, const std::array<std::int32_t, Rank>& perm, const name& label) {
    op_attributes a{};
    for (std::size_t d = 0; d < Rank; ++d) a.transpose.perm[d] = perm[d];
    const std::int32_t out = add_node(op_kind::transpose, a, {in}, label);
    // The values move, their quantization stays (an integer model output held in NHWC inside: its scale and
    // zero point are the model's); a per-channel axis moves with its dim.
    if (out >= 0 && in >= 0) {
      quantization q = m.tensor_at(in).quant;
      for (std::size_t d = 0; d < Rank && q.axis >= 0; ++d)
        if (perm[d] == q.axis) {
          q.axis = static_cast<std::int32_t>(d);
          break;
        }
      m.tensor_at(out).quant = q;
    }
    return out;
  }
  // The permutation that swaps dims `a` and `b` of a rank-`rank` tensor (its own inverse).
  static constexpr std::array<std::int32_t, max_rank> swapping(std::int32_t rank, std::int32_t a, std::int32_t b) {
    std::array<std::int32_t, max_rank> perm{};
    for (std::int32_t d = 0; d < rank; ++d) perm[static_cast<std::size_t>(d)] = d == a ? b : d == b ? a : d;
    return perm;
  }

  // A constant tensor of `dims` gathered from a value's float data (or zero-copy when the gather is the
  // stored order and the data is aligned).
  constexpr std::int32_t gathered(std::int32_t v, std::uint32_t slot, const shape& dims, const std::array<std::int64_t, 4>& strides,
                                  float scale) {
    const tensor_view t = float_tensor(v, slot);
    if (failed()) return -1;
    const std::int32_t id = add_tensor(dims, label_of(v), tensor_role::constant);
    if (id < 0) return -1;
    // The stored order: each extent > 1 steps by the product of the extents after it.
    bool stored_order = scale == 1.0f;
    std::int64_t step = 1;
    for (std::int32_t d = dims.rank - 1; d >= 0; --d) {
      if (dims[d] > 1 && strides[static_cast<std::size_t>(d)] != step) stored_order = false;
      step *= dims[d];
    }
    m.tensor_at(id).data.bytes = f.reader().pointer(t.data.at);
    m.tensor_at(id).data.file = f.reader().pointer(0);
    if (stored_order && t.data.at % 4 == 0) return id;
    if (static_cast<std::size_t>(relayout_count) >= MaxRelayouts) return capacity_exceeded(), -1;
    relayout& r = relayouts[static_cast<std::size_t>(relayout_count++)];
    r = relayout{};
    r.tensor = id;
    r.kind = relayout_kind::gather;
    r.source = t.data.at;
    r.rank = dims.rank;
    for (std::int32_t d = 0; d < dims.rank; ++d) {
      r.dims[static_cast<std::size_t>(d)] = dims[d];
      r.strides[static_cast<std::size_t>(d)] = strides[static_cast<std::size_t>(d)];
    }
    r.scale = scale;
    return id;
  }

  // A value's TensorProto, checked to be float32 with as many values as its dims give, stored contiguously.
  constexpr tensor_view float_tensor(std::int32_t v, std::uint32_t slot) {
    if (is_known(v)) return computed_integers_error(v), tensor_view{};
    const tensor_view t = f.read_tensor(at(v).proto);
    if (take_reader_error()) return t;
    if (!checked_tensor(v, t)) return t;
    if (t.type != data_type::float32) return operand_error(slot), t;
    if (t.unpacked > 0 && t.data_field != schema::tensor::raw_data)
      return fail(onnx_error::unsupported_tensor_feature,
                  {.byte_offset = at(v).name.at, .reason = static_cast<std::int64_t>(tensor_feature::unpacked_values)}),
             t;
    if (static_cast<std::int64_t>(t.data.length) != t.dims.elements() * 4) malformed(t.proto.at, protobuf::expectation::tensor_data);
    return t;
  }
  constexpr bool checked_tensor(std::int32_t v, const tensor_view& t) {
    if (t.external)
      return fail(onnx_error::unsupported_tensor_feature,
                  {.byte_offset = at(v).name.at, .reason = static_cast<std::int64_t>(tensor_feature::external_data)}),
             false;
    if (t.segmented)
      return fail(onnx_error::unsupported_tensor_feature,
                  {.byte_offset = at(v).name.at, .reason = static_cast<std::int64_t>(tensor_feature::segments)}),
             false;
    if (t.rank > max_rank)
      return fail(onnx_error::rank_too_high, {.byte_offset = at(v).name.at, .rank_actual = t.rank}), false;
    if (pass_too_large(t.dims)) return malformed(t.proto.at, protobuf::expectation::tensor_size), false;
    return true;
  }
  static constexpr bool pass_too_large(const shape& s) {
    std::int64_t n = 8;
    for (std::int32_t d = 0; d < s.rank; ++d) {
      n *= s[d];
      if (n >= (std::int64_t{1} << 31)) return true;
    }
    return false;
  }
  // The ONNX shape of a constant value.
  constexpr shape constant_shape(std::int32_t v) {
    if (is_known(v)) return known_of(v).dims;
    const tensor_view t = f.read_tensor(at(v).proto);
    take_reader_error();
    return t.dims;
  }

  // Element k of an INT64 constant (shapes, pads), read at import; a failure names operand `slot`.
  constexpr std::int64_t constant_int(std::int32_t v, std::uint32_t slot, std::uint32_t k, std::int64_t& count) {
    if (is_known(v)) {
      if (known_of(v).type == dtype::b8) return operand_error(slot), 0;  // i64, or i32 (a Cast: Gather's indices)
      count = known_of(v).dims.elements();
      return k < count ? known_at(v, k) : 0;
    }
    const tensor_view t = f.read_tensor(at(v).proto);
    if (take_reader_error() || !checked_tensor(v, t)) return 0;
    if (t.type != data_type::int64) return operand_error(slot), 0;
    count = t.dims.elements();
    if (t.data_field == schema::tensor::raw_data) {
      if (static_cast<std::int64_t>(t.data.length) != count * 8) return malformed(t.proto.at, protobuf::expectation::tensor_data), 0;
      return k < count ? static_cast<std::int64_t>(f.reader().load_u64(t.data.at + 8 * k)) : 0;
    }
    const std::uint32_t stored = f.reader().repeated_count(t.proto, schema::tensor::int64_data, protobuf::wire::varint);
    if (take_reader_error()) return 0;
    if (stored != count) return malformed(t.proto.at, protobuf::expectation::tensor_data), 0;
    return k < count ? static_cast<std::int64_t>(f.reader().repeated_at(t.proto, schema::tensor::int64_data, protobuf::wire::varint, k)) : 0;
  }
  // Element k of a FLOAT constant (Resize's scales), read at import; a failure names operand `slot`.
  constexpr float constant_float_at(std::int32_t v, std::uint32_t slot, std::uint32_t k, std::int64_t& count) {
    if (is_known(v)) return operand_error(slot), 0.0f;
    const tensor_view t = f.read_tensor(at(v).proto);
    if (take_reader_error() || !checked_tensor(v, t)) return 0.0f;
    if (t.type != data_type::float32) return operand_error(slot), 0.0f;
    count = t.dims.elements();
    if (t.data_field == schema::tensor::raw_data) {
      if (static_cast<std::int64_t>(t.data.length) != count * 4) return malformed(t.proto.at, protobuf::expectation::tensor_data), 0.0f;
      return k < count ? std::bit_cast<float>(f.reader().load_u32(t.data.at + 4 * k)) : 0.0f;
    }
    const std::uint32_t stored = f.reader().repeated_count(t.proto, schema::tensor::float_data, protobuf::wire::i32);
    if (take_reader_error()) return 0.0f;
    if (stored != count) return malformed(t.proto.at, protobuf::expectation::tensor_data), 0.0f;
    if (k >= count) return 0.0f;
    const auto bits = f.reader().repeated_at(t.proto, schema::tensor::float_data, protobuf::wire::i32, k);
    take_reader_error();
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits));
  }
  // A FLOAT scalar constant (Clip bounds, Pad's value).
  constexpr float constant_float(std::int32_t v, std::uint32_t slot) {
    if (is_known(v)) return operand_error(slot), 0.0f;
    const tensor_view t = f.read_tensor(at(v).proto);
    if (take_reader_error() || !checked_tensor(v, t)) return 0.0f;
    if (t.type != data_type::float32 || t.dims.elements() != 1) return operand_error(slot), 0.0f;
    if (t.data_field == schema::tensor::raw_data) {
      if (t.data.length != 4) return malformed(t.proto.at, protobuf::expectation::tensor_data), 0.0f;
      return std::bit_cast<float>(f.reader().load_u32(t.data.at));
    }
    const auto bits = f.reader().repeated_at(t.proto, schema::tensor::float_data, protobuf::wire::i32, 0);
    take_reader_error();
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits));
  }
};

}  // namespace ctnn::onnx::detail
