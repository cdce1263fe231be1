#pragma once
// The TFLite importer's resource variables (import.hpp): TensorFlow's variables as TFLite converts them, state kept
// between runs like a variable tensor's (docs/memory.md, "State"). TFLM's semantics (micro_resource_variable.cc):
//  * VAR_HANDLE (container, shared_name) names a variable: one name, one variable, across subgraphs. Its result is
//    a RESOURCE tensor, which READ_VARIABLE and ASSIGN_VARIABLE take; it adds no node (importer_state::handles).
//  * A variable is a state tensor of the module (tensor_role::state), made at its first use with that use's shape,
//    element type and quantization; every use must agree (TFLM sizes it at the first assignment and copies bytes).
//    It starts as TFLM allocates it, at its zero point (int8) or 0 (ir/module.hpp's state_fill), or at the values
//    a CALL_ONCE init subgraph assigns it (the state tensor's constant_data: the executor's initial state).
//  * READ_VARIABLE: a copy (a reshape without target) of the state tensor into its result.
//  * ASSIGN_VARIABLE: an assign_variable node writing its value into the state tensor (ops/assign_variable.hpp).
//  * CALL_ONCE runs its init subgraph at the first invocation: one made of VAR_HANDLEs and ASSIGN_VARIABLEs of
//    constants is evaluated here (its constants become the variables' initial values); any other is refused
//    (tflite_unsupported_init_subgraph, naming the subgraph and its op).
// Several ops read and write one variable, in the file's order: the memory-aware order keeps the order of the
// ops that use a state tensor (memory/schedule.hpp), and alias_reshapes does not make a read a view of it.
#include <array>
#include <cstdint>

#include <ctnn/frontend/flatbuffers.hpp>
#include <ctnn/frontend/tflite/import_operands.hpp>
#include <ctnn/frontend/tflite/import_plan.hpp>
#include <ctnn/frontend/tflite/import_state.hpp>
#include <ctnn/frontend/tflite/import_tensors.hpp>
#include <ctnn/frontend/tflite/schema.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::tflite::detail {

// A resource variable's problem at op `op` (builtin `code`, its row's `kind`), naming tensor `id` (in the op's
// subgraph).
template <class S>
constexpr void resource_error(S& s, std::int32_t op, op_kind kind, builtin_operator code, std::int64_t id, tensor_feature why) {
  s.fail(frontend_error::tflite_unsupported_tensor_feature, op, kind,
         {.operator_code = static_cast<std::int64_t>(code), .tensor = id, .reason = static_cast<std::int64_t>(why)});
}

// Whether two strings of the file hold the same bytes (an absent one: empty).
template <class S>
constexpr bool same_text(S& s, const flatbuffers::string& a, const flatbuffers::string& b) {
  if (a.length != b.length) return false;
  if (a.length == 0) return true;
  const char* x = s.f.reader().pointer(a.at);
  const char* y = s.f.reader().pointer(b.at);
  for (std::uint32_t k = 0; k < a.length; ++k)
    if (x[k] != y[k]) return false;
  return true;
}

// The variable a VAR_HANDLE's options name (TFLM's CreateIdIfNoneFound: the same shared_name, and the same container
// unless one has none), added at its first naming; -1 after a diagnostic (at op `op`, of kind `kind`).
template <class S>
constexpr std::int32_t variable_named(S& s, std::int32_t op, op_kind kind, std::int64_t handle, const flatbuffers::table& options) {
  flatbuffers::reader& r = s.f.reader();
  const flatbuffers::string container = r.string_field(options, schema::var_handle::container);
  const flatbuffers::string shared_name = r.string_field(options, schema::var_handle::shared_name);
  if (s.take_reader_error()) return -1;
  for (std::int32_t v = 0; v < s.variable_count; ++v) {
    const auto& known = s.variables[static_cast<std::size_t>(v)];
    if (same_text(s, shared_name, known.shared_name) &&
        (!container.present() || !known.container.present() || same_text(s, container, known.container)))
      return v;
  }
  if (static_cast<std::size_t>(s.variable_count) >= S::max_resource_variables) {
    resource_error(s, op, kind, builtin_operator::var_handle, handle, tensor_feature::resource_capacity);
    return -1;
  }
  s.variables[static_cast<std::size_t>(s.variable_count)] = {container, shared_name};
  return s.variable_count++;
}

// The state tensor of variable v, made from `like` (a READ_VARIABLE's result, an ASSIGN_VARIABLE's value) at its
// first use; a later use of another shape, element type or quantization is refused, naming tensor `like_id`. -1
// after a diagnostic.
template <class S>
constexpr std::int32_t variable_state(S& s, std::int32_t v, const tensor& like, std::int32_t op, op_kind kind,
                                      builtin_operator code, std::int64_t like_id) {
  auto& variable = s.variables[static_cast<std::size_t>(v)];
  if (like.quant.per_channel()) {
    resource_error(s, op, kind, code, like_id, tensor_feature::resource_mismatch);
    return -1;
  }
  if (variable.state < 0) {
    if (static_cast<std::size_t>(s.m.tensor_count) >= S::module_type::tensor_capacity) {
      s.capacity_exceeded();
      return -1;
    }
    tensor t{};
    t.label = label_of(s.f.reader().pointer(variable.shared_name.at), variable.shared_name.length);
    t.dims = like.dims;
    t.type = like.type;
    t.quant = like.quant;
    t.role = tensor_role::state;
    variable.state = s.m.add_tensor(t);
    return variable.state;
  }
  const tensor& state = s.m.tensor_at(variable.state);
  if (!(state.dims == like.dims) || state.type != like.type || state.quant.scale != like.quant.scale ||
      state.quant.zero_point != like.quant.zero_point) {
    resource_error(s, op, kind, code, like_id, tensor_feature::resource_mismatch);
    return -1;
  }
  return variable.state;
}

// The variable whose handle is operand k of a READ_VARIABLE or ASSIGN_VARIABLE: a RESOURCE tensor a VAR_HANDLE wrote;
// -1 after a diagnostic.
template <class S>
constexpr std::int32_t variable_of_operand(S& s, const op_import& im, std::uint32_t k) {
  const std::int32_t id = s.f.index_at(im.view.inputs, k);
  if (s.take_reader_error()) return -1;
  if (id < 0 || static_cast<std::uint32_t>(id) >= s.f.tensor_count()) {
    s.malformed(im.view.inputs.position(k), flatbuffers::expectation::tensor_index);
    return -1;
  }
  const std::int32_t h = s.handle_index(id);
  if (h < 0 || s.handles[static_cast<std::size_t>(h)].variable < 0) {
    resource_error(s, im.op, im.plan.kind, im.plan.code, id, tensor_feature::resource_use);
    return -1;
  }
  return s.handles[static_cast<std::size_t>(h)].variable;
}

// VAR_HANDLE: its result (a RESOURCE tensor) names its variable; no node.
template <class S>
constexpr void import_var_handle(S& s, op_import& im) {
  if (!expect_inputs(s, im.op, im.plan, im.view, 0, 0)) return;
  const std::int32_t h = s.handle_index(im.out);
  if (h < 0) return resource_error(s, im.op, im.plan.kind, im.plan.code, im.out, tensor_feature::resource_use);
  const std::int32_t v = variable_named(s, im.op, im.plan.kind, im.out, im.plan.options);
  if (v >= 0) s.handles[static_cast<std::size_t>(h)].variable = v;
}

// READ_VARIABLE: a copy of the variable's state tensor (the driver's node: a reshape without target).
template <class S>
constexpr void import_read_variable(S& s, op_import& im) {
  if (!expect_inputs(s, im.op, im.plan, im.view, 1, 1)) return;
  const std::int32_t v = variable_of_operand(s, im, 0);
  if (v < 0) return;
  const std::int32_t state = variable_state(s, v, s.m.tensor_at(im.out), im.op, im.plan.kind, im.plan.code, im.out);
  if (state < 0) return;
  auto& variable = s.variables[static_cast<std::size_t>(v)];
  if (variable.first_read < 0) variable.first_read = im.op, variable.first_read_result = im.out, variable.read_kind = im.plan.kind;
  im.inputs[0] = state;
  im.input_count = 1;
}

// ASSIGN_VARIABLE (no result in the file): an assign_variable node of its value and the variable's state tensor,
// writing a one-element tensor of its own (ops/assign_variable.hpp). Its diagnostics name the value's tensor.
template <class S>
constexpr void import_assign_variable(S& s, op_import& im) {
  if (!expect_inputs(s, im.op, im.plan, im.view, 2, 2)) return;
  const std::int32_t value = operand(s, im.view, 1);
  if (value < 0) return;
  s.op_label = s.m.tensor_at(value).label;
  const std::int32_t v = variable_of_operand(s, im, 0);
  if (v < 0) return;
  const std::int32_t state = variable_state(s, v, s.m.tensor_at(value), im.op, im.plan.kind, im.plan.code, value);
  if (state < 0) return;
  s.variables[static_cast<std::size_t>(v)].assigned = true;
  const name label = numbered(name_of(im.plan.kind), static_cast<std::size_t>(im.op));
  const std::int32_t written = s.add_tensor_like(value, shape{}, label);
  if (written < 0) return;
  node* n = s.add_node(im.plan.kind, label, written);
  if (n == nullptr) return;
  n->inputs[0] = value;
  n->inputs[1] = state;
  n->input_count = 2;
}

// CALL_ONCE: its init subgraph evaluated here, when it only assigns constants to variables (VAR_HANDLE, then
// ASSIGN_VARIABLE of a constant of that subgraph): each constant becomes its variable's initial value (the state
// tensor's constant_data, zero-copy), as TFLM's first invocation leaves it. A variable used by an earlier op of
// subgraph 0 is refused there (its first runs would see its zero point). No node.
template <class S>
constexpr void import_call_once(S& s, op_import& im) {
  if (!expect_inputs(s, im.op, im.plan, im.view, 0, 0)) return;
  flatbuffers::reader& r = s.f.reader();
  const auto index = r.template scalar<std::int32_t>(im.plan.options, schema::call_once::init_subgraph_index, 0);
  if (s.take_reader_error()) return;
  const auto refuse = [&](std::int64_t op_there, builtin_operator code) {
    s.fail(frontend_error::tflite_unsupported_init_subgraph, im.op, im.plan.kind,
           {.operator_code = static_cast<std::int64_t>(code), .input_slot = op_there, .position = index});
  };
  if (index <= 0 || static_cast<std::uint32_t>(index) >= s.f.subgraph_count()) return refuse(-1, builtin_operator::call_once);
  const model_file::subgraph_view g = s.f.subgraph(static_cast<std::uint32_t>(index));
  if (s.take_reader_error()) return;
  // The init subgraph's handles: its RESOURCE tensors and their variables.
  std::array<typename S::resource_handle, S::max_resource_handles> local{};
  std::int32_t local_count = 0;
  for (std::uint32_t i = 0; i < g.operators.length; ++i) {
    const operator_view o = s.f.op_in(g.operators, i);
    if (s.take_reader_error()) return;
    const auto at = static_cast<std::int64_t>(i);
    if (o.code == builtin_operator::var_handle && o.inputs.length == 0 && o.outputs.length == 1 &&
        static_cast<std::size_t>(local_count) < S::max_resource_handles) {
      const std::int32_t out = s.f.index_at(o.outputs, 0);
      const flatbuffers::table options = s.f.options(o, schema::builtin_options::var_handle);
      if (s.take_reader_error()) return;
      const std::int32_t v = variable_named(s, im.op, im.plan.kind, out, options);
      if (v < 0) return;
      local[static_cast<std::size_t>(local_count++)] = {out, v};
      continue;
    }
    if (o.code != builtin_operator::assign_variable || o.inputs.length != 2 || o.outputs.length != 0) return refuse(at, o.code);
    const std::int32_t handle = s.f.index_at(o.inputs, 0), value = s.f.index_at(o.inputs, 1);
    if (s.take_reader_error()) return;
    std::int32_t v = -1;
    for (std::int32_t k = 0; k < local_count; ++k)
      if (local[static_cast<std::size_t>(k)].tensor == handle) v = local[static_cast<std::size_t>(k)].variable;
    if (v < 0 || value < 0 || static_cast<std::uint32_t>(value) >= g.tensors.length) return refuse(at, o.code);
    // The value: a constant of a type and shape ctnn takes, its bytes in the file.
    const tensor_view tv = s.f.tensor_in(g.tensors, static_cast<std::uint32_t>(value));
    if (s.take_reader_error()) return;
    tensor initial{};
    const flatbuffers::vector data = s.f.buffer_data(tv.buffer);
    if (s.take_reader_error()) return;
    if (tv.shape.length > max_rank || tv.has_sparsity || !dtype_of(tv.type, initial.type) || data.length == 0)
      return refuse(at, o.code);
    initial.dims = stored_shape(s.f, tv);
    if (checked_elements(initial.dims) <= 0 ||
        initial.dims.elements() * static_cast<std::int64_t>(size_of(initial.type)) != data.length ||
        data.at % size_of(initial.type) != 0)
      return refuse(at, o.code);
    if (initial.type != dtype::f32 && !import_quantization(s, static_cast<std::uint32_t>(value), tv, initial)) return;
    auto& variable = s.variables[static_cast<std::size_t>(v)];
    if (variable.state >= 0 && !variable.initialised) return refuse(at, o.code);  // used before this CALL_ONCE
    const std::int32_t state = variable_state(s, v, initial, im.op, im.plan.kind, builtin_operator::assign_variable, value);
    if (state < 0) return;
    variable.assigned = variable.initialised = true;
    s.m.tensor_at(state).data.bytes = r.pointer(data.at);
    s.m.tensor_at(state).data.file = r.pointer(0);
  }
}

// After the ops: a variable read but never assigned, nor initialised (TFLM would read a buffer it never allocated),
// is refused at its first read.
template <class S>
constexpr void check_variables_assigned(S& s) {
  for (std::int32_t v = 0; v < s.variable_count; ++v) {
    const auto& variable = s.variables[static_cast<std::size_t>(v)];
    if (variable.state < 0 || variable.assigned) continue;
    s.op_label = s.m.tensor_at(variable.first_read_result).label;
    return resource_error(s, variable.first_read, variable.read_kind, builtin_operator::read_variable,
                          variable.first_read_result, tensor_feature::resource_unassigned);
  }
}

// A RESOURCE tensor that op `op` reads other than as READ_VARIABLE's and ASSIGN_VARIABLE's handle: refused.
template <class S>
constexpr bool resource_operands_checked(S& s, std::int32_t op, const op_plan& p, const operator_view& o) {
  if (s.handle_count == 0 || p.job == import_job::read_variable || p.job == import_job::assign_variable) return true;
  for (std::uint32_t k = 0; k < o.inputs.length; ++k) {
    const std::int32_t id = s.f.index_at(o.inputs, k);
    if (s.take_reader_error()) return false;
    if (id >= 0 && s.handle_index(id) >= 0) {
      resource_error(s, op, p.kind, p.code, id, tensor_feature::resource_use);
      return false;
    }
  }
  return true;
}

}  // namespace ctnn::tflite::detail
