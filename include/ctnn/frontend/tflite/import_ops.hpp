#pragma once
// The TFLite importer's ops and its driver (import.hpp): each operator as IR nodes (with the nodes the
// import adds: activations after pools and concatenations, a flatten before a fully-connected layer), the
// graph's inputs and outputs, and the order of the whole import.
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/frontend/tflite/import_operands.hpp>

namespace ctnn::tflite::detail {

// The importer's state while it fills a module: tensors (tensor_importer), operands (operand_importer),
// then the ops and the graph.
template <class Module>
struct importer : operand_importer<Module> {
  using tensor_importer<Module>::f;
  using tensor_importer<Module>::m;
  using tensor_importer<Module>::op_label;
  using tensor_importer<Module>::fail;
  using tensor_importer<Module>::malformed;
  using tensor_importer<Module>::take_reader_error;
  using tensor_importer<Module>::failed;
  using tensor_importer<Module>::add_node;
  using tensor_importer<Module>::add_tensor_like;
  using tensor_importer<Module>::import_tensor;
  using operand_importer<Module>::operand;
  using operand_importer<Module>::constant_operand;
  using operand_importer<Module>::constant_i32;
  using operand_importer<Module>::activation_to_ir;
  using operand_importer<Module>::read_window;
  using operand_importer<Module>::expect_inputs;
  using operand_importer<Module>::expect_rank;
  using operand_importer<Module>::check_requantization;

  // An op's name in its errors: its first output tensor's label, when the file gives a valid one (an op
  // with a bad output list is reported by import_op; this only reads).
  constexpr name output_label(const operator_view& o) {
    if (o.outputs.length == 0) return {};
    const std::int32_t out = f.index_at(o.outputs, 0);
    if (f.failed() || out < 0 || static_cast<std::uint32_t>(out) >= f.tensor_count()) return {};
    return m.tensor_at(out).label;
  }

  // An op of one data input (written to `data`) and, as operand 1, a constant int32 vector (pad: the
  // pads; mean: the axes): that vector's tensor, or -1 after a diagnostic.
  constexpr std::int32_t data_and_constant_i32(std::int32_t op, const op_plan& p, const operator_view& o,
                                               std::int32_t& data) {
    if (!expect_inputs(op, p, o, 2, 2)) return -1;
    data = operand(o, 0);
    const std::int32_t values = operand(o, 1);
    if (failed() || !constant_operand(op, p, values, 1, dtype::i32)) return -1;
    return values;
  }

  constexpr void import_op(std::uint32_t i) {
    const auto op = static_cast<std::int32_t>(i);
    const operator_view o = f.op(i);
    if (take_reader_error()) return;
    op_label = output_label(o);
    const op_plan p = plan_op(f, o);
    if (take_reader_error()) return;
    if (!p.supported) {
      fail(frontend_error::tflite_unsupported_operator, op, op_kind::conv2d,
           {.operator_code = static_cast<std::int64_t>(p.code)});
      return;
    }
    flatbuffers::reader& r = f.reader();  // a named type: f is a dependent base member
    // One output, a fresh tensor.
    if (o.outputs.length != 1) {
      fail(frontend_error::tflite_output_count, op, p.kind,
           {.operator_code = static_cast<std::int64_t>(p.code), .count_actual = o.outputs.length});
      return;
    }
    const std::int32_t out = f.index_at(o.outputs, 0);
    if (take_reader_error()) return;
    if (out < 0 || static_cast<std::uint32_t>(out) >= f.tensor_count())
      return malformed(o.outputs.position(0), flatbuffers::expectation::tensor_index);
    if (m.tensor_at(out).role != tensor_role::intermediate || m.tensor_at(out).producer >= 0)
      return malformed(o.outputs.position(0), flatbuffers::expectation::op_output);

    activation fused = activation::none;
    if (!activation_to_ir(op, p, fused)) return;
    const name label = numbered(name_of(p.kind), i);

    // Where this op's own node writes: the file's output tensor, or a new one before a synthesized
    // activation node.
    std::int32_t result = out;
    if (p.activation_node && (result = add_tensor_like(out, m.tensor_at(out).dims, label)) < 0) return;

    std::array<std::int32_t, max_node_inputs> inputs{};
    std::int32_t input_count = 0;
    op_attributes attrs{};

    switch (p.kind) {
      case op_kind::conv2d:
      case op_kind::depthwise_conv2d:
      case op_kind::dense: {
        if (!expect_inputs(op, p, o, 2, 3)) return;
        const std::int32_t x = operand(o, 0), w = operand(o, 1), b = o.inputs.length > 2 ? operand(o, 2, true) : -1;
        if (failed()) return;
        const tensor& weights = m.tensor_at(w);
        const bool float_input = m.tensor_at(x).type == dtype::f32;
        bool hybrid = float_input && weights.type != dtype::f32;
        if (p.kind == op_kind::dense)
          hybrid = hybrid || r.scalar<bool>(p.options, schema::fully_connected::asymmetric_quantize_inputs, false);
        if (hybrid) {
          fail(frontend_error::tflite_hybrid_model, op, p.kind,
               {.operator_code = static_cast<std::int64_t>(p.code), .tensor = w});
          return;
        }
        if (!constant_operand(op, p, w, 1, weights.type)) return;
        if (b >= 0 && !constant_operand(op, p, b, 2, m.tensor_at(b).type)) return;
        const shape in = m.tensor_at(x).dims;
        const shape ws = weights.dims;
        if (p.kind == op_kind::dense) {
          if (!expect_rank(op, p, w, 2)) return;
          if (r.scalar<std::int8_t>(p.options, schema::fully_connected::weights_format, 0) != 0) {
            fail(frontend_error::tflite_unsupported_fully_connected, op, p.kind,
                 {.operator_code = static_cast<std::int64_t>(p.code),
                  .reason = static_cast<std::int64_t>(fully_connected_feature::shuffled_weights)});
            return;
          }
          if (r.scalar<bool>(p.options, schema::fully_connected::keep_num_dims, false) && in.rank > 2) {
            fail(frontend_error::tflite_unsupported_fully_connected, op, p.kind,
                 {.operator_code = static_cast<std::int64_t>(p.code),
                  .reason = static_cast<std::int64_t>(fully_connected_feature::keep_num_dims)});
            return;
          }
          attrs.units = ws[0];
        } else {
          if (!expect_rank(op, p, x, 4) || !expect_rank(op, p, w, 4)) return;
          attrs.win.kernel_h = ws[1];
          attrs.win.kernel_w = ws[2];
          if (p.kind == op_kind::conv2d) {
            namespace s = schema::conv_2d;
            if (!read_window(op, p, s::padding, s::stride_w, s::stride_h, s::dilation_w, s::dilation_h, attrs.win)) return;
            attrs.units = ws[0];
            attrs.groups = ws[3] > 0 && in[3] % ws[3] == 0 ? in[3] / ws[3] : 1;  // else infer_types reports it
          } else {
            namespace s = schema::depthwise_conv_2d;
            if (!read_window(op, p, s::padding, s::stride_w, s::stride_h, s::dilation_w, s::dilation_h, attrs.win)) return;
            attrs.depth_multiplier = in[3] > 0 && ws[3] % in[3] == 0 ? ws[3] / in[3] : 1;  // derived, as TFLM does
          }
        }
        attrs.fused = fused;
        std::int32_t data = x;
        if (p.flatten_node) {
          // TFLite flattens the input to [elements / features, features]; ctnn's dense keeps dim 0.
          const std::int32_t flat = add_tensor_like(x, make_shape(p.flatten_batch, p.flatten_features), numbered("flatten", i));
          node* n = flat < 0 ? nullptr : add_node(op_kind::reshape, numbered("flatten", i), flat);
          if (n == nullptr) return;
          n->attrs.target = m.tensor_at(flat).dims;
          n->inputs[0] = x;
          n->input_count = 1;
          data = flat;
        }
        inputs = {data, w, b};
        input_count = 3;
        break;
      }
      case op_kind::avg_pool:
      case op_kind::max_pool: {
        if (!expect_inputs(op, p, o, 1, 1)) return;
        inputs[0] = operand(o, 0);
        input_count = 1;
        if (failed()) return;
        namespace s = schema::pool_2d;
        attrs.win.kernel_w = r.scalar<std::int32_t>(p.options, s::filter_width, 0);
        attrs.win.kernel_h = r.scalar<std::int32_t>(p.options, s::filter_height, 0);
        if (!read_window(op, p, s::padding, s::stride_w, s::stride_h, -1, -1, attrs.win)) return;
        break;
      }
      case op_kind::add:
      case op_kind::mul:
        if (!expect_inputs(op, p, o, 2, 2)) return;
        inputs = {operand(o, 0), operand(o, 1)};
        input_count = 2;
        attrs.fused = fused;
        break;
      case op_kind::relu:
      case op_kind::relu6:
      case op_kind::sigmoid:
      case op_kind::tanh:
      case op_kind::quantize:
      case op_kind::dequantize:
        if (!expect_inputs(op, p, o, 1, 1)) return;
        inputs[0] = operand(o, 0);
        input_count = 1;
        attrs.out_type = m.tensor_at(out).type;
        break;
      case op_kind::softmax: {
        if (!expect_inputs(op, p, o, 1, 1)) return;
        inputs[0] = operand(o, 0);
        input_count = 1;
        const float beta = r.scalar<float>(p.options, schema::softmax::beta, 0.0f);
        if (beta != 1.0f) {
          double millionths = static_cast<double>(beta) * 1e6;
          if (!(millionths > -9e15)) millionths = -9e15;  // also NaN: a number for the diagnostic
          if (millionths > 9e15) millionths = 9e15;
          fail(frontend_error::tflite_softmax_beta, op, p.kind,
               {.operator_code = static_cast<std::int64_t>(p.code),
                .rejected_value = static_cast<std::int64_t>(millionths < 0 ? millionths - 0.5 : millionths + 0.5)});
          return;
        }
        break;
      }
      case op_kind::reshape: {
        if (!expect_inputs(op, p, o, 1, 2)) return;
        inputs[0] = operand(o, 0);
        input_count = 1;
        const std::int32_t shape_id = o.inputs.length > 1 ? operand(o, 1, true) : -1;
        if (failed()) return;
        const flatbuffers::vector new_shape = r.vector_field(p.options, schema::reshape::new_shape, 4);
        if (take_reader_error()) return;
        // TFLite's order: a constant 1-D shape input, else new_shape, else the output's (static) shape.
        const tensor* given = shape_id >= 0 ? &m.tensor_at(shape_id) : nullptr;
        if (given != nullptr && given->role == tensor_role::constant && given->type == dtype::i32 && given->dims.rank == 1 &&
            given->dims[0] >= 1 && given->dims[0] <= static_cast<std::int32_t>(max_rank)) {
          attrs.target.rank = given->dims[0];
          for (std::int32_t d = 0; d < attrs.target.rank; ++d) attrs.target.dims[static_cast<std::size_t>(d)] = constant_i32(shape_id, d);
        } else if (new_shape.length >= 1 && new_shape.length <= max_rank) {
          attrs.target.rank = static_cast<std::int32_t>(new_shape.length);
          for (std::uint32_t d = 0; d < new_shape.length; ++d) attrs.target.dims[d] = r.element<std::int32_t>(new_shape, d);
        } else {
          attrs.target = m.tensor_at(out).dims;
        }
        // -1 (inferred, once at most) means the same in TFLite and the IR; 0 is "keep" in the IR but an
        // extent of 0 in TFLite, which no static model has: a target with 0, other negative extents or
        // more than one -1 is refused, as is one whose known extents overflow.
        if (attrs.target.rank == 0) attrs.target = m.tensor_at(out).dims;
        shape known = attrs.target;
        std::int32_t inferred = 0;
        for (std::int32_t d = 0; d < known.rank; ++d)
          if (known[d] == -1) known.dims[static_cast<std::size_t>(d)] = 1, ++inferred;
        if (inferred > 1 || checked_elements(known) < 0) {
          fail(frontend_error::tflite_unsupported_operand, op, p.kind,
               {.operator_code = static_cast<std::int64_t>(p.code), .input_slot = 1});
          return;
        }
        break;
      }
      case op_kind::concat: {
        if (o.inputs.length < 1) {
          fail(error_code::input_count_mismatch, op, p.kind, {.count_expected = 1, .count_actual = 0});
          return;
        }
        if (o.inputs.length > max_node_inputs) {
          fail(error_code::too_many_inputs, op, p.kind,
               {.count_expected = max_node_inputs, .count_actual = o.inputs.length});
          return;
        }
        for (std::uint32_t k = 0; k < o.inputs.length; ++k) inputs[k] = operand(o, k);
        input_count = static_cast<std::int32_t>(o.inputs.length);
        attrs.axis = r.scalar<std::int32_t>(p.options, schema::concatenation::axis, 0);
        break;
      }
      case op_kind::pad: {
        const std::int32_t pads = data_and_constant_i32(op, p, o, inputs[0]);
        if (pads < 0) return;
        input_count = 1;
        const std::int32_t rank = m.tensor_at(inputs[0]).dims.rank;
        if (m.tensor_at(pads).dims.elements() != 2 * rank) {
          fail(frontend_error::tflite_unsupported_operand, op, p.kind,
               {.operator_code = static_cast<std::int64_t>(p.code), .input_slot = 1});
          return;
        }
        for (std::int32_t k = 0; k < 2 * rank; ++k) {
          const std::int32_t pad = constant_i32(pads, k);
          if (pad < 0 || pad > max_window_value) {
            fail(frontend_error::tflite_unsupported_operand, op, p.kind,
                 {.operator_code = static_cast<std::int64_t>(p.code), .input_slot = 1});
            return;
          }
          attrs.pads[static_cast<std::size_t>(k)] = pad;
        }
        break;
      }
      case op_kind::mean: {
        const std::int32_t axes = data_and_constant_i32(op, p, o, inputs[0]);
        if (axes < 0) return;
        input_count = 1;
        const std::int32_t rank = m.tensor_at(inputs[0]).dims.rank;
        const std::int64_t count = m.tensor_at(axes).dims.elements();
        for (std::int64_t k = 0; k < count; ++k) {
          const std::int32_t axis = constant_i32(axes, k);
          const std::int32_t normalised = axis < 0 ? axis + rank : axis;
          if (normalised < 0 || normalised >= rank) {
            fail(error_code::invalid_axis, op, p.kind, {.axis = axis, .rank_actual = rank});
            return;
          }
          attrs.reduce_axes |= 1u << normalised;
        }
        attrs.keep_dims = r.scalar<bool>(p.options, schema::reducer::keep_dims, false);
        break;
      }
      case op_kind::global_avg_pool:
      case op_kind::batch_norm:
      case op_kind::transpose:
      case op_kind::clip:
      case op_kind::batch_matmul:
      case op_kind::crop:
      case op_kind::paste:
      case op_kind::fetch_rows:
        break;  // not produced by this frontend
    }
    if (failed() || take_reader_error()) return;

    node* n = add_node(p.kind, label, result);
    if (n == nullptr) return;
    n->attrs = attrs;
    n->inputs = inputs;
    n->input_count = input_count;
    if (!check_requantization(op, p, *n)) return;
    if (p.activation_node) {
      node* act = add_node(p.fused == activation_function::relu ? op_kind::relu : op_kind::relu6,
                           numbered(p.fused == activation_function::relu ? "relu" : "relu6", i), out);
      if (act == nullptr) return;
      act->inputs[0] = result;
      act->input_count = 1;
    }
  }

  // ---------------------------------------------------------------------------------------------------
  // Graph inputs and outputs.

  constexpr void import_inputs() {
    const flatbuffers::vector& inputs = f.inputs();
    if (inputs.length > max_model_io) {
      fail(frontend_error::tflite_too_many_model_io, -1, op_kind::conv2d,
           {.count_actual = inputs.length, .io_side = 0});
      return;
    }
    for (std::uint32_t k = 0; k < inputs.length && !failed(); ++k) {
      const std::int32_t id = f.index_at(inputs, k);
      if (take_reader_error()) return;
      if (id < 0 || static_cast<std::uint32_t>(id) >= f.tensor_count() || m.tensor_at(id).role != tensor_role::intermediate)
        return malformed(inputs.position(k), flatbuffers::expectation::tensor_index);
      tensor& t = m.tensor_at(id);
      t.role = tensor_role::input;
      t.io_index = m.input_count;
      m.inputs[static_cast<std::size_t>(m.input_count++)] = id;
    }
  }

  constexpr void import_outputs() {
    const flatbuffers::vector& outputs = f.outputs();
    if (outputs.length > max_model_io) {
      fail(frontend_error::tflite_too_many_model_io, -1, op_kind::conv2d,
           {.count_actual = outputs.length, .io_side = 1});
      return;
    }
    for (std::uint32_t k = 0; k < outputs.length && !failed(); ++k) {
      std::int32_t id = f.index_at(outputs, k);
      if (take_reader_error()) return;
      if (id < 0 || static_cast<std::uint32_t>(id) >= f.tensor_count())
        return malformed(outputs.position(k), flatbuffers::expectation::tensor_index);
      const tensor& source = m.tensor_at(id);
      if (source.role == tensor_role::intermediate && source.producer < 0)
        return malformed(outputs.position(k), flatbuffers::expectation::produced_tensor);
      if (source.role != tensor_role::intermediate) {
        // A graph input, a constant or an output listed twice: a copy op writes this output's buffer.
        const std::int32_t copy_id = add_tensor_like(id, source.dims, source.label);
        node* n = add_node(op_kind::reshape, numbered("output", k), copy_id);  // empty target: a copy
        if (n == nullptr) return;
        n->inputs[0] = id;
        n->input_count = 1;
        id = copy_id;
      }
      tensor& t = m.tensor_at(id);
      t.role = tensor_role::output;
      t.io_index = m.output_count;
      m.outputs[static_cast<std::size_t>(m.output_count++)] = id;
    }
  }

  // After a failed import: the graph inputs and outputs the file names, so that the failed module keeps
  // the model's interface (code that calls run() then adds no error to the import's).
  constexpr void keep_interface() {
    if (f.failed()) return;  // malformed bytes: the interface is unknown
    m.input_count = m.output_count = 0;
    for (std::uint32_t side = 0; side < 2; ++side) {
      const flatbuffers::vector& ids = side == 0 ? f.inputs() : f.outputs();
      for (std::uint32_t k = 0; k < ids.length && k < max_model_io; ++k) {
        const std::int32_t id = f.index_at(ids, k);
        if (f.failed() || id < 0 || id >= m.tensor_count) return;
        if (side == 0) {
          m.tensor_at(id).role = tensor_role::input;
          m.inputs[static_cast<std::size_t>(m.input_count++)] = id;
        } else {
          m.tensor_at(id).role = tensor_role::output;
          m.outputs[static_cast<std::size_t>(m.output_count++)] = id;
        }
      }
    }
  }

  constexpr void run(std::string_view model_name) {
    m.model_name = name{model_name};
    if (take_reader_error()) return;
    // Every tensor (the first problem is the one reported; the others still get their shape and type).
    const std::uint32_t tensors = f.tensor_count();
    for (std::uint32_t i = 0; i < tensors; ++i) import_tensor(i);
    m.tensor_count = static_cast<std::int32_t>(tensors);
    if (!failed()) import_inputs();
    for (std::uint32_t i = 0; i < f.operator_count() && !failed(); ++i) import_op(i);
    if (!failed()) import_outputs();
    take_reader_error();
    if (failed()) keep_interface();
  }
};

}  // namespace ctnn::tflite::detail
