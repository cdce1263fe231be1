#pragma once
// The TFLite importer's state (import.hpp), the one object every part of the import works on: the file, the
// module it fills and the op being imported; its diagnostics and module edits. The tensor, operand and op
// import functions (import_tensors.hpp, import_operands.hpp, the op families) are free functions that
// take it.
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/frontend/flatbuffers.hpp>
#include <ctnn/frontend/tflite/schema.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::tflite::detail {

template <class Module>
struct importer_state {
  using module_type = Module;
  model_file& f;
  Module& m;
  name op_label{};  // the op being imported: its output tensor's name (TFLite ops have none of their own)

  // Integers computed at import (import_known.hpp): the file tensors whose values are known (SHAPE's,
  // BROADCAST_ARGS', and what STRIDED_SLICE, PACK, CONCATENATION, RESHAPE make of them), their elements in a
  // store of fixed capacities; no node writes them.
  static constexpr std::size_t max_known_tensors = 64, max_known_store = 1024;
  static constexpr std::int64_t max_known_elements = 256;
  struct known_entry {
    std::int32_t tensor = -1, at = 0;
  };
  std::array<known_entry, max_known_tensors> known{};
  std::array<std::int64_t, max_known_store> known_data{};
  std::int32_t known_count = 0, known_used = 0;

  // The store entry of tensor `id` (-1: not known).
  constexpr std::int32_t known_index(std::int32_t id) const {
    for (std::int32_t k = 0; k < known_count; ++k)
      if (known[static_cast<std::size_t>(k)].tensor == id) return k;
    return -1;
  }
  constexpr bool is_known(std::int32_t id) const { return id >= 0 && known_index(id) >= 0; }
  constexpr std::int64_t known_at(std::int32_t id, std::int64_t k) const {
    return known_data[static_cast<std::size_t>(known[static_cast<std::size_t>(known_index(id))].at + k)];
  }
  // Makes tensor `id` (of `op`) known: its elements.count() values go at known_data[returned index...]; -1 after a
  // diagnostic when the store is full (after reclaim_known).
  constexpr std::int32_t make_known(std::int32_t op, std::int32_t id) {
    const std::int64_t count = m.tensor_at(id).dims.elements();
    const auto fits = [&] {
      return static_cast<std::size_t>(known_count) < max_known_tensors && static_cast<std::size_t>(known_used + count) <= max_known_store;
    };
    if (count <= max_known_elements && !fits()) reclaim_known(op);
    if (failed()) return -1;
    if (count > max_known_elements || !fits()) {
      computed_integers_error(op, id, tensor_feature::computed_integers_capacity);
      return -1;
    }
    known[static_cast<std::size_t>(known_count++)] = known_entry{id, known_used};
    const std::int32_t first = known_used;
    known_used += static_cast<std::int32_t>(count);
    return first;
  }
  // Frees the store's entries of the tensors no op from `op` on reads and that are no graph output (which the
  // driver refuses by the entry), compacting the rest in order: only a full store pays for the scan.
  constexpr void reclaim_known(std::int32_t op) {
    std::array<bool, max_known_tensors> live{};
    const auto keep = [&](const flatbuffers::vector& ids) {
      for (std::uint32_t k = 0; k < ids.length; ++k)
        if (const std::int32_t e = known_index(f.index_at(ids, k)); e >= 0) live[static_cast<std::size_t>(e)] = true;
    };
    for (std::uint32_t i = static_cast<std::uint32_t>(op); i < f.operator_count() && !f.failed(); ++i) keep(f.op(i).inputs);
    keep(f.outputs());
    if (take_reader_error()) return;
    std::int32_t kept = 0, used = 0;
    for (std::int32_t e = 0; e < known_count; ++e) {
      if (!live[static_cast<std::size_t>(e)]) continue;
      const known_entry k = known[static_cast<std::size_t>(e)];
      const std::int64_t count = m.tensor_at(k.tensor).dims.elements();
      for (std::int64_t i = 0; i < count; ++i) known_data[static_cast<std::size_t>(used + i)] = known_data[static_cast<std::size_t>(k.at + i)];
      known[static_cast<std::size_t>(kept++)] = known_entry{k.tensor, used};
      used += static_cast<std::int32_t>(count);
    }
    known_count = kept;
    known_used = used;
  }
  // A known tensor read as a tensor (no node writes it), or the store full.
  constexpr void computed_integers_error(std::int32_t op, std::int32_t id, tensor_feature why = tensor_feature::computed_integers) {
    fail(frontend_error::tflite_unsupported_tensor_feature, op, op_kind::none,
         {.tensor = id, .reason = static_cast<std::int64_t>(why)});
  }

  // Resource variables (import_variables.hpp): each (container, shared_name) one state tensor of the module, made
  // at its first use; the RESOURCE tensors of subgraph 0 (VAR_HANDLE's results) and the variable each names (-1:
  // none yet). Few per model: fixed capacities, refused beyond (tensor_feature::resource_capacity).
  static constexpr std::size_t max_resource_variables = 16, max_resource_handles = 64;
  struct resource_variable {
    flatbuffers::string container{}, shared_name{};
    std::int32_t state = -1;  // its tensor_role::state tensor (-1: not used yet)
    bool assigned = false;    // by an ASSIGN_VARIABLE of subgraph 0 or a CALL_ONCE init subgraph
    bool initialised = false;  // by a CALL_ONCE init subgraph (its state tensor's data: the initial values)
    std::int32_t first_read = -1, first_read_result = -1;  // its first READ_VARIABLE (op, result tensor, row's kind)
    op_kind read_kind = op_kind::none;
  };
  struct resource_handle {
    std::int32_t tensor = -1, variable = -1;
  };
  std::array<resource_variable, max_resource_variables> variables{};
  std::array<resource_handle, max_resource_handles> handles{};
  std::int32_t variable_count = 0, handle_count = 0;

  // The handles entry of tensor `id` (-1: not a RESOURCE tensor).
  constexpr std::int32_t handle_index(std::int32_t id) const {
    for (std::int32_t k = 0; k < handle_count; ++k)
      if (handles[static_cast<std::size_t>(k)].tensor == id) return k;
    return -1;
  }
  // Whether state tensor `id` is a resource variable's (read and written by several ops, in the file's order).
  constexpr bool is_variable_state(std::int32_t id) const {
    for (std::int32_t v = 0; v < variable_count; ++v)
      if (variables[static_cast<std::size_t>(v)].state == id) return true;
    return false;
  }

  // `node` counts the file's ops (-1: not an op's error); an op's error carries op_label.
  constexpr void fail(error_code code, std::int32_t node, op_kind kind, const diagnostic_details& details,
                      const shape& expected = {}, const shape& actual = {}) {
    m.fail_in_file(diagnostic{code, node, kind, expected, actual, details, node >= 0 ? op_label : name{}});
  }
  constexpr void fail(frontend_error code, std::int32_t node, op_kind kind, const diagnostic_details& details,
                      const shape& expected = {}, const shape& actual = {}) {
    fail(code_of(code), node, kind, details, expected, actual);
  }
  constexpr void malformed(std::int64_t offset, flatbuffers::expectation what) {
    f.reader().fail(offset, what);
    take_reader_error();
  }
  constexpr bool take_reader_error() {
    if (!f.failed()) return false;
    m.fail_in_file(f.error().as_diagnostic(code_of(frontend_error::tflite_malformed_model)));
    return true;
  }
  constexpr bool failed() const { return m.error.failed(); }

  // Capacities too small for the file (import<> called with less than count() says): a caller's error.
  constexpr void capacity_exceeded() {
    fail(error_code::too_many_inputs, -1, op_kind::none,
         {.count_expected = static_cast<std::int64_t>(Module::node_capacity), .count_actual = m.node_count});
  }

  // A node of the module: appended, with its output tensor's producer set (nullptr when full).
  constexpr node* add_node(op_kind kind, const name& label, std::int32_t output) {
    if (output < 0 || static_cast<std::size_t>(m.node_count) >= Module::node_capacity) {
      if (!failed()) capacity_exceeded();
      return nullptr;
    }
    node& n = m.node_at(m.node_count);
    n = node{};
    n.kind = kind;
    n.label = label;
    n.output = output;
    m.tensor_at(output).producer = m.node_count++;
    return &n;
  }

  // A reshape of `in` to `target` (empty: a copy) writing `output`: the one place the import builds one (the
  // flatten before a FULLY_CONNECTED, a graph output's copy). false when full.
  constexpr bool reshape(std::int32_t in, std::int32_t output, const shape& target, const name& label) {
    node* n = add_node(op_kind::reshape, label, output);
    if (n == nullptr) return false;
    n->attrs.target = target;
    n->inputs[0] = in;
    n->input_count = 1;
    return true;
  }

  // A transpose of `in` by `perm` writing `output` (TRANSPOSE's own node is the driver's; this one is what
  // DEPTH_TO_SPACE and SPACE_TO_DEPTH add). false when full.
  constexpr bool transpose(std::int32_t in, std::int32_t output, const transpose_fields& perm, const name& label) {
    node* n = add_node(op_kind::transpose, label, output);
    if (n == nullptr) return false;
    n->attrs.transpose = perm;
    n->inputs[0] = in;
    n->input_count = 1;
    return true;
  }

  // A pad of `in` writing `output` (PAD's own node is the driver's; this one is SPACE_TO_BATCH_ND's). false
  // when full.
  constexpr bool pad(std::int32_t in, std::int32_t output, const pad_fields& fields, const name& label) {
    node* n = add_node(op_kind::pad, label, output);
    if (n == nullptr) return false;
    n->attrs.pad = fields;
    n->inputs[0] = in;
    n->input_count = 1;
    return true;
  }

  // A concat of `count` tensors along `axis` writing `output` (CONCATENATION's and PACK's own node is the driver's;
  // this one is UNIDIRECTIONAL_SEQUENCE_LSTM's packing of its gate constants). false when full.
  constexpr bool concat(const std::int32_t* inputs, std::int32_t count, std::int32_t axis, std::int32_t output, const name& label) {
    node* n = add_node(op_kind::concat, label, output);
    if (n == nullptr) return false;
    for (std::int32_t k = 0; k < count; ++k) n->inputs[static_cast<std::size_t>(k)] = inputs[k];
    n->input_count = count;
    n->attrs.axis = axis;
    return true;
  }

  // A slice of `in` through `window` into `output`, viewed as `target` (SLICE's own node is the driver's; these
  // are the outputs TFLite_Detection_PostProcess reads out of its packed result). false when full.
  constexpr bool slice(std::int32_t in, std::int32_t output, const slice_fields& window, const shape& target,
                       const name& label) {
    node* n = add_node(op_kind::slice, label, output);
    if (n == nullptr) return false;
    n->attrs.slice = window;
    n->attrs.target = target;
    n->inputs[0] = in;
    n->input_count = 1;
    return true;
  }

  // A tensor the importer adds (the intermediate before a synthesized node, an output's copy); -1 when full.
  constexpr std::int32_t add_tensor_like(std::int32_t like, const shape& dims, const name& label) {
    if (static_cast<std::size_t>(m.tensor_count) >= Module::tensor_capacity) {
      capacity_exceeded();
      return -1;
    }
    tensor t{};
    t.label = label;
    t.dims = dims;
    t.type = m.tensor_at(like).type;
    t.quant = m.tensor_at(like).quant;
    return m.add_tensor(t);
  }
};

}  // namespace ctnn::tflite::detail
