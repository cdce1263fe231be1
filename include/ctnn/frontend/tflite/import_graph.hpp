#pragma once
// The TFLite importer's driver (import.hpp): each operator to its row of the operator table (import_plan.hpp)
// and its import function (import_by_job), with the nodes the import adds around it (activations after
// pools and concatenations, a flatten before a fully-connected layer); the graph's inputs and outputs, and
// the order of the whole import.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <ctnn/frontend/flatbuffers.hpp>
#include <ctnn/frontend/tflite/import_detection.hpp>
#include <ctnn/frontend/tflite/import_elementwise.hpp>
#include <ctnn/frontend/tflite/import_gather_scatter.hpp>
#include <ctnn/frontend/tflite/import_known.hpp>
#include <ctnn/frontend/tflite/import_linear.hpp>
#include <ctnn/frontend/tflite/import_operands.hpp>
#include <ctnn/frontend/tflite/import_plan.hpp>
#include <ctnn/frontend/tflite/import_recurrent.hpp>
#include <ctnn/frontend/tflite/import_shape_ops.hpp>
#include <ctnn/frontend/tflite/import_spatial.hpp>
#include <ctnn/frontend/tflite/import_state.hpp>
#include <ctnn/frontend/tflite/import_tensors.hpp>
#include <ctnn/frontend/tflite/import_variables.hpp>
#include <ctnn/frontend/tflite/int16_operators.hpp>
#include <ctnn/frontend/tflite/uint8_operators.hpp>
#include <ctnn/frontend/tflite/schema.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/ops/infer.hpp>

namespace ctnn::tflite::detail {

// An op's name in its errors: its first output tensor's label, when the file gives a valid one (an op
// with a bad output list is reported by import_op; this only reads).
template <class S>
constexpr name output_label(S& s, const operator_view& o) {
  if (o.outputs.length == 0) return {};
  const std::int32_t out = s.f.index_at(o.outputs, 0);
  if (s.f.failed() || out < 0 || static_cast<std::uint32_t>(out) >= s.f.tensor_count()) return {};
  return s.m.tensor_at(out).label;
}

// The import function of an op_table row, by its job: it reads the op and fills im's operands and
// attributes, or records a diagnostic.
template <class S>
constexpr void import_by_job(S& s, op_import& im) {
  switch (im.plan.job) {
    case import_job::linear: return import_conv(s, im);
    case import_job::pool: return import_pool(s, im);
    case import_job::binary: return import_binary(s, im);
    case import_job::select: return import_select(s, im);
    case import_job::cast: return import_cast(s, im);
    case import_job::unary: return import_unary(s, im);
    case import_job::leaky_relu: return import_leaky_relu(s, im);
    case import_job::gelu: return import_gelu(s, im);
    case import_job::elu: return import_elu(s, im);
    case import_job::softmax: return import_softmax(s, im);
    case import_job::reshape: return import_reshape(s, im);
    case import_job::concat: return import_concat(s, im);
    case import_job::pad: return import_pad(s, im);
    case import_job::reduction: return import_reduction(s, im);
    case import_job::reshape_to_output: return import_reshape_to_output(s, im);
    case import_job::transpose: return import_transpose(s, im);
    case import_job::strided_slice: return import_strided_slice(s, im);
    case import_job::slice: return import_slice(s, im);
    case import_job::split: return import_split(s, im);
    case import_job::unpack: return import_unpack(s, im);
    case import_job::pack: return import_pack(s, im);
    case import_job::block_rearrange: return import_block_rearrange(s, im);
    case import_job::gather: return import_gather(s, im);
    case import_job::resize: return import_resize(s, im);
    case import_job::mirror_pad: return import_mirror_pad(s, im);
    case import_job::space_batch: return import_space_batch(s, im);
    case import_job::add_n: return import_add_n(s, im);
    case import_job::broadcast_to: return import_broadcast_to(s, im);
    case import_job::l2_normalization: return import_l2_normalization(s, im);
    case import_job::svdf: return import_svdf(s, im);
    case import_job::sequence_lstm: return import_sequence_lstm(s, im);
    case import_job::transpose_conv: return import_transpose_conv(s, im);
    case import_job::batch_matmul: return import_batch_matmul(s, im);
    case import_job::log_softmax: return import_log_softmax(s, im);
    case import_job::reverse: return import_reverse(s, im);
    case import_job::gather_nd: return import_gather_nd(s, im);
    case import_job::cumsum: return import_cumsum(s, im);
    case import_job::fill: return import_fill(s, im);
    case import_job::zeros_like: return import_zeros_like(s, im);
    case import_job::dynamic_update_slice: return import_dynamic_update_slice(s, im);
    case import_job::embedding_lookup: return import_embedding_lookup(s, im);
    case import_job::known_integers: return import_known_source(s, im);
    case import_job::detection_postprocess: return import_detection_postprocess(s, im);
    case import_job::var_handle: return import_var_handle(s, im);
    case import_job::read_variable: return import_read_variable(s, im);
    case import_job::assign_variable: return import_assign_variable(s, im);
    case import_job::call_once: return import_call_once(s, im);
  }
}

// Op i of the file: its plan, its output, its import function, then its node (and the nodes the import
// adds around it).
template <class S>
constexpr void import_op(S& s, std::uint32_t i) {
  const auto op = static_cast<std::int32_t>(i);
  const operator_view o = s.f.op(i);
  if (s.take_reader_error()) return;
  s.op_label = output_label(s, o);
  const op_plan p = plan_op(s.f, o);
  if (s.take_reader_error()) return;
  if (!p.supported) {
    s.fail(frontend_error::tflite_unsupported_operator, op, op_kind::none,
           {.operator_code = static_cast<std::int64_t>(p.code)});
    return;
  }
  // UINT8 tensors where TFLM runs none (uint8_operators.hpp): refused before the op is read further.
  if (!check_uint8_operands(s, op, p, o)) return;
  if (!resource_operands_checked(s, op, p, o)) return;
  // No result (ASSIGN_VARIABLE, CALL_ONCE): the import function adds what node there is.
  if (has_no_result(p.job)) {
    if (o.outputs.length != 0)
      return s.fail(frontend_error::tflite_output_count, op, p.kind,
                    {.operator_code = static_cast<std::int64_t>(p.code), .count_actual = o.outputs.length});
    op_import im{.op = op, .plan = p, .view = o};
    return import_by_job(s, im);
  }
  // One output (a split's and an unpack's: each), a fresh tensor.
  const bool node_per_output = adds_a_node_per_output(p.job);
  if (o.outputs.length < 1 || (o.outputs.length != 1 && !node_per_output)) {
    s.fail(frontend_error::tflite_output_count, op, p.kind,
           {.operator_code = static_cast<std::int64_t>(p.code), .count_actual = o.outputs.length});
    return;
  }
  for (std::uint32_t k = 0; k < o.outputs.length; ++k) {
    const std::int32_t id = s.f.index_at(o.outputs, k);
    if (s.take_reader_error()) return;
    if (id < 0 || static_cast<std::uint32_t>(id) >= s.f.tensor_count())
      return s.malformed(o.outputs.position(k), flatbuffers::expectation::tensor_index);
    if (s.m.tensor_at(id).role != tensor_role::intermediate || s.m.tensor_at(id).producer >= 0)
      return s.malformed(o.outputs.position(k), flatbuffers::expectation::op_output);
  }
  const std::int32_t out = s.f.index_at(o.outputs, 0);

  op_import im{.op = op, .plan = p, .view = o, .out = out};
  if (!activation_to_ir(s, op, p, im.fused)) return;
  const name label = numbered(name_of(p.kind), i);

  // Where this op's own node writes: the file's output tensor, or a new one before a synthesized
  // activation node.
  std::int32_t result = out;
  if (p.activation_node && (result = s.add_tensor_like(out, s.m.tensor_at(out).dims, label)) < 0) return;

  // Integers computed at import (import_known.hpp): a PACK of known values before its job adds reshapes, SHAPE
  // and BROADCAST_ARGS, and a STRIDED_SLICE, CONCATENATION or RESHAPE of known values instead of their nodes.
  if (p.job == import_job::pack && fold_pack(s, im)) return;
  import_by_job(s, im);
  if (s.failed() || s.take_reader_error() || node_per_output) return;
  if (p.job == import_job::known_integers || p.job == import_job::var_handle || fold_known_result(s, im)) return;

  node* n = s.add_node(p.kind, label, result);
  if (n == nullptr) return;
  n->attrs = im.attrs;
  n->inputs = im.inputs;
  n->input_count = im.input_count;
  // The op makes its result's element type (ops::result_type, which infer_types applies): a file declaring
  // another for the output (an int8 HARD_SWISH into an int32 tensor) is refused, as TFLM refuses it, instead
  // of the declared type giving way while its quantization stays.
  if (const dtype made = ops::result_type(s.m, *n); made != s.m.tensor_at(result).type)
    return s.fail(error_code::unsupported_dtype, op, p.kind,
                  {.rejected_value = static_cast<std::int64_t>(s.m.tensor_at(result).type)}, {},
                  s.m.tensor_at(result).dims);
  if (!check_requantization(s, op, p, *n) || !check_int16_operands(s, op, p, *n)) return;
  if (p.activation_node) {
    node* act = s.add_node(p.fused == activation_function::relu ? op_kind::relu : op_kind::relu6,
                           numbered(p.fused == activation_function::relu ? "relu" : "relu6", i), out);
    if (act == nullptr) return;
    act->inputs[0] = result;
    act->input_count = 1;
  }
}

// -----------------------------------------------------------------------------------------------------
// Graph inputs and outputs.

template <class S>
constexpr void import_inputs(S& s) {
  const flatbuffers::vector& inputs = s.f.inputs();
  if (inputs.length > max_model_io) {
    s.fail(frontend_error::tflite_too_many_model_io, -1, op_kind::none,
           {.count_actual = inputs.length, .io_side = 0});
    return;
  }
  for (std::uint32_t k = 0; k < inputs.length && !s.failed(); ++k) {
    const std::int32_t id = s.f.index_at(inputs, k);
    if (s.take_reader_error()) return;
    if (id < 0 || static_cast<std::uint32_t>(id) >= s.f.tensor_count() ||
        s.m.tensor_at(id).role != tensor_role::intermediate)
      return s.malformed(inputs.position(k), flatbuffers::expectation::tensor_index);
    if (s.handle_index(id) >= 0) return feature(s, static_cast<std::uint32_t>(id), tensor_feature::resource_use);
    tensor& t = s.m.tensor_at(id);
    t.role = tensor_role::input;
    t.io_index = s.m.input_count;
    s.m.inputs[static_cast<std::size_t>(s.m.input_count++)] = id;
  }
}

template <class S>
constexpr void import_outputs(S& s) {
  const flatbuffers::vector& outputs = s.f.outputs();
  if (outputs.length > max_model_io) {
    s.fail(frontend_error::tflite_too_many_model_io, -1, op_kind::none,
           {.count_actual = outputs.length, .io_side = 1});
    return;
  }
  for (std::uint32_t k = 0; k < outputs.length && !s.failed(); ++k) {
    std::int32_t id = s.f.index_at(outputs, k);
    if (s.take_reader_error()) return;
    if (id < 0 || static_cast<std::uint32_t>(id) >= s.f.tensor_count())
      return s.malformed(outputs.position(k), flatbuffers::expectation::tensor_index);
    const tensor& source = s.m.tensor_at(id);
    if (s.is_known(id)) return s.computed_integers_error(-1, id);  // integers computed at import: no tensor holds them
    if (s.handle_index(id) >= 0) return feature(s, static_cast<std::uint32_t>(id), tensor_feature::resource_use);
    if (source.role == tensor_role::intermediate && source.producer < 0)
      return s.malformed(outputs.position(k), flatbuffers::expectation::produced_tensor);
    if (source.role != tensor_role::intermediate) {
      // A graph input, a constant or an output listed twice: a copy op writes this output's buffer.
      const std::int32_t copy_id = s.add_tensor_like(id, source.dims, source.label);
      if (!s.reshape(id, copy_id, {}, numbered("output", k))) return;  // no target: a copy
      id = copy_id;
    }
    tensor& t = s.m.tensor_at(id);
    t.role = tensor_role::output;
    t.io_index = s.m.output_count;
    s.m.outputs[static_cast<std::size_t>(s.m.output_count++)] = id;
  }
}

// After a failed import: the graph inputs and outputs the file names, so that the failed module keeps
// the model's interface (code that calls run() then adds no error to the import's).
template <class S>
constexpr void keep_interface(S& s) {
  if (s.f.failed()) return;  // malformed bytes: the interface is unknown
  s.m.input_count = s.m.output_count = 0;
  for (std::uint32_t side = 0; side < 2; ++side) {
    const flatbuffers::vector& ids = side == 0 ? s.f.inputs() : s.f.outputs();
    for (std::uint32_t k = 0; k < ids.length && k < max_model_io; ++k) {
      const std::int32_t id = s.f.index_at(ids, k);
      if (s.f.failed() || id < 0 || id >= s.m.tensor_count) return;
      if (side == 0) {
        s.m.tensor_at(id).role = tensor_role::input;
        s.m.inputs[static_cast<std::size_t>(s.m.input_count++)] = id;
      } else {
        s.m.tensor_at(id).role = tensor_role::output;
        s.m.outputs[static_cast<std::size_t>(s.m.output_count++)] = id;
      }
    }
  }
}

// The whole import: tensors, graph inputs, ops, graph outputs; the first problem stops it.
template <class S>
constexpr void import_graph(S& s, std::string_view model_name) {
  s.m.model_name = name{model_name};
  if (s.take_reader_error()) return;
  // Every tensor (the first problem is the one reported; the others still get their shape and type).
  const std::uint32_t tensors = s.f.tensor_count();
  for (std::uint32_t i = 0; i < tensors; ++i) import_tensor(s, i);
  s.m.tensor_count = static_cast<std::int32_t>(tensors);
  if (!s.failed()) import_inputs(s);
  for (std::uint32_t i = 0; i < s.f.operator_count() && !s.failed(); ++i) {
    const std::int32_t first_node = s.m.node_count;
    import_op(s, i);
    // A node of this op that reads a tensor computed at import (no node writes it): refused.
    for (std::int32_t n = first_node; n < s.m.node_count && !s.failed(); ++n)
      for (std::int32_t k = 0; k < s.m.node_at(n).input_count; ++k)
        if (s.is_known(s.m.node_at(n).inputs[static_cast<std::size_t>(k)]))
          s.computed_integers_error(static_cast<std::int32_t>(i), s.m.node_at(n).inputs[static_cast<std::size_t>(k)]);
  }
  if (!s.failed()) check_variables_assigned(s);
  if (!s.failed()) check_state_operands(s);
  if (!s.failed()) import_outputs(s);
  s.take_reader_error();
  if (s.failed()) keep_interface(s);
}

}  // namespace ctnn::tflite::detail
