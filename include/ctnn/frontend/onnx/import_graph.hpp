#pragma once
// The ONNX importer's driver (import.hpp): each NodeProto to its op family (quantized ops: quantized.hpp),
// Constant nodes, the graph's inputs and outputs, and the order of the whole import.
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/frontend/onnx/import_shape_ops.hpp>
#include <ctnn/frontend/onnx/quantized.hpp>

namespace ctnn::onnx::detail {

// The importer: state, layouts and operands, then the op families, then the graph.
template <class Module, std::size_t MaxValues, std::size_t MaxRelayouts>
struct importer : shape_importer<Module, MaxValues, MaxRelayouts> {
  using typename shape_importer<Module, MaxValues, MaxRelayouts>::operands;
  using shape_importer<Module, MaxValues, MaxRelayouts>::f;
  using shape_importer<Module, MaxValues, MaxRelayouts>::m;
  using shape_importer<Module, MaxValues, MaxRelayouts>::node_index;
  using shape_importer<Module, MaxValues, MaxRelayouts>::current;
  using shape_importer<Module, MaxValues, MaxRelayouts>::op_label;
  using shape_importer<Module, MaxValues, MaxRelayouts>::failed;
  using shape_importer<Module, MaxValues, MaxRelayouts>::fail;
  using shape_importer<Module, MaxValues, MaxRelayouts>::take_reader_error;
  using shape_importer<Module, MaxValues, MaxRelayouts>::malformed;
  using shape_importer<Module, MaxValues, MaxRelayouts>::attribute_error;
  using shape_importer<Module, MaxValues, MaxRelayouts>::find;
  using shape_importer<Module, MaxValues, MaxRelayouts>::add_value;
  using shape_importer<Module, MaxValues, MaxRelayouts>::at;
  using shape_importer<Module, MaxValues, MaxRelayouts>::label_of;
  using shape_importer<Module, MaxValues, MaxRelayouts>::is_constant;
  using shape_importer<Module, MaxValues, MaxRelayouts>::add_tensor;
  using shape_importer<Module, MaxValues, MaxRelayouts>::add_node;
  using shape_importer<Module, MaxValues, MaxRelayouts>::pass_too_large;
  using shape_importer<Module, MaxValues, MaxRelayouts>::as_onnx;
  using shape_importer<Module, MaxValues, MaxRelayouts>::int_attribute;
  using shape_importer<Module, MaxValues, MaxRelayouts>::read_operands;
  using shape_importer<Module, MaxValues, MaxRelayouts>::conv;
  using shape_importer<Module, MaxValues, MaxRelayouts>::gemm;
  using shape_importer<Module, MaxValues, MaxRelayouts>::matmul;
  using shape_importer<Module, MaxValues, MaxRelayouts>::pool;
  using shape_importer<Module, MaxValues, MaxRelayouts>::unary;
  using shape_importer<Module, MaxValues, MaxRelayouts>::clip;
  using shape_importer<Module, MaxValues, MaxRelayouts>::is_integer;
  using shape_importer<Module, MaxValues, MaxRelayouts>::binary;
  using shape_importer<Module, MaxValues, MaxRelayouts>::softmax;
  using shape_importer<Module, MaxValues, MaxRelayouts>::reshape_node;
  using shape_importer<Module, MaxValues, MaxRelayouts>::flatten;
  using shape_importer<Module, MaxValues, MaxRelayouts>::concat;
  using shape_importer<Module, MaxValues, MaxRelayouts>::pad;
  using shape_importer<Module, MaxValues, MaxRelayouts>::transpose_node;
  using shape_importer<Module, MaxValues, MaxRelayouts>::batch_norm;

  constexpr void import_node(const protobuf::span& proto) {
    const node_view n = f.read_node(proto);
    if (take_reader_error()) return;
    current = n.type;
    op_label = name{f.reader().view(n.name.length > 0 || n.output_count == 0 ? n.name : f.output_name(n, 0))};
    // Training-mode BatchNormalization has its running statistics as extra outputs: the mode is the reason.
    if (n.type == op_type::BatchNormalization && int_attribute(n, "training_mode", 0) != 0)
      return attribute_error(attribute::training_mode, 1);
    // One result in use: later outputs must be omitted (empty names).
    std::uint32_t outputs = n.output_count;
    for (std::uint32_t k = n.output_count; k > 1; --k)
      if (f.output_name(n, k - 1).length == 0) --outputs;
    if (take_reader_error()) return;
    if (n.output_count == 0 || outputs != 1)
      return fail(onnx_error::output_count,
                  {.operator_code = static_cast<std::int64_t>(n.type), .count_actual = n.output_count});
    std::int64_t out_tag = 0;
    protobuf::span out_name{};
    {
      protobuf::field fd{};
      for (std::uint32_t at_ = proto.at; f.reader().next(proto, at_, fd);)
        if (fd.number == schema::node::output && out_tag == 0) out_tag = fd.tag_at, out_name = fd.bytes;
    }
    const operands o = read_operands(n);
    if (failed()) return;
    if (n.type == op_type::Constant) return import_constant(n, out_name, out_tag);
    const std::int32_t result = add_value(out_name, value_kind::node_output, out_tag);
    if (result < 0) return;
    switch (n.type) {
      case op_type::Conv: return conv(n, o, result);
      case op_type::Gemm: return gemm(n, o, result);
      case op_type::MatMul: return matmul(o, result);
      case op_type::MaxPool:
      case op_type::AveragePool: return pool(n, o, result);
      case op_type::GlobalAveragePool: return unary(o, result, op_kind::global_avg_pool, true);
      case op_type::Relu: return unary(o, result, op_kind::relu, false);
      case op_type::Sigmoid: return unary(o, result, op_kind::sigmoid, false);
      case op_type::Tanh: return unary(o, result, op_kind::tanh, false);
      case op_type::Clip: return clip(n, o, result);
      case op_type::Add: return binary(o, result, op_kind::add);
      case op_type::Mul: return binary(o, result, op_kind::mul);
      case op_type::Softmax: return softmax(n, o, result);
      case op_type::Reshape: return reshape_node(n, o, result);
      case op_type::Flatten: return flatten(n, o, result);
      case op_type::Concat: return concat(n, o, result);
      case op_type::Pad: return pad(n, o, result);
      case op_type::BatchNormalization: return batch_norm(n, o, result);
      case op_type::QuantizeLinear:
      case op_type::DequantizeLinear:
      case op_type::QLinearConv:
      case op_type::ConvInteger:
      case op_type::QLinearMatMul:
      case op_type::MatMulInteger: return quantized_ops<importer>{*this}.import(n, o, result);
      case op_type::Transpose: return transpose_node(n, o, result);
      default: return fail(onnx_error::unsupported_operator, {.operator_code = static_cast<std::int64_t>(n.type)});
    }
  }

  constexpr void import_constant(const node_view& n, const protobuf::span& out_name, std::int64_t out_tag) {
    const attribute_view a = f.attribute(n, "value");
    const protobuf::span proto = a.present() ? f.tensor_attribute(a) : protobuf::span{};
    if (take_reader_error()) return;
    if (!a.present()) return attribute_error(attribute::value, -1);  // value_float, value_ints, ...: not read
    const std::int32_t v = add_value(out_name, value_kind::constant, out_tag);
    if (v >= 0) at(v).proto = proto;
  }

  // ---------------------------------------------------------------------------------------------------
  // The graph.

  constexpr void import_inputs(const protobuf::span& graph) {
    protobuf::field fd{};
    for (std::uint32_t at_ = graph.at; f.reader().next(graph, at_, fd) && !failed();) {
      if (fd.number != schema::graph::input) continue;
      const value_info_view info = f.read_value_info(fd.bytes);
      if (take_reader_error()) return;
      if (info.name.length > 0 && find(info.name) >= 0 && is_constant(find(info.name))) continue;  // IR 3: initializers listed
      if (m.input_count >= static_cast<std::int32_t>(max_model_io))
        return fail(onnx_error::too_many_model_io, {.count_actual = m.input_count + 1, .io_side = 0});
      const std::int32_t v = add_value(info.name, value_kind::graph_input, fd.tag_at);
      if (v < 0) return;
      // float32, or integers: 8-bit for the quantized ops (quantized.hpp), any of them for plain integer ops
      if (info.type != data_type::float32 && !is_integer(info.type))
        return fail(onnx_error::unsupported_tensor_type,
                    {.byte_offset = info.name.at, .rejected_value = static_cast<std::int64_t>(info.type)});
      if (info.rank > max_rank)
        return fail(onnx_error::rank_too_high, {.byte_offset = info.name.at, .rank_actual = info.rank});
      bool is_static = info.has_shape;
      for (std::int32_t d = 0; d < info.dims.rank; ++d) is_static = is_static && info.dims[d] > 0;
      if (!is_static || pass_too_large(info.dims))
        return fail(onnx_error::no_static_shape, {.byte_offset = info.name.at, .rank_actual = info.rank}, {},
                    info.dims);
      const std::int32_t id = add_tensor(info.dims, label_of(v), tensor_role::input);
      if (id < 0) return;
      m.tensor_at(id).type = dtype_of(info.type);
      m.tensor_at(id).io_index = m.input_count;
      m.inputs[static_cast<std::size_t>(m.input_count++)] = id;
      at(v).onnx_layout = id;
    }
    take_reader_error();
  }

  constexpr void import_outputs(const protobuf::span& graph) {
    protobuf::field fd{};
    for (std::uint32_t at_ = graph.at; f.reader().next(graph, at_, fd) && !failed();) {
      if (fd.number != schema::graph::output) continue;
      const protobuf::span name = f.reader().message_field(fd.bytes, schema::value_info::name);
      if (take_reader_error()) return;
      const std::int32_t v = find(name);
      if (v < 0) return malformed(fd.tag_at, protobuf::expectation::graph_output);
      if (m.output_count >= static_cast<std::int32_t>(max_model_io))
        return fail(onnx_error::too_many_model_io, {.count_actual = m.output_count + 1, .io_side = 1});
      node_index = -1;
      current = op_type::unknown;
      std::int32_t id = as_onnx(v, 0);
      if (failed() || id < 0) return;
      // A graph input, a constant, or an output listed twice: a copy writes this output's buffer.
      if (m.tensor_at(id).role != tensor_role::intermediate || at(v).copies++ > 0)
        id = add_node(op_kind::reshape, {}, {id}, numbered("output", static_cast<std::size_t>(m.output_count)));
      if (id < 0) return;
      tensor& t = m.tensor_at(id);
      t.role = tensor_role::output;
      t.io_index = m.output_count;
      t.label = label_of(v);
      m.outputs[static_cast<std::size_t>(m.output_count++)] = id;
    }
    take_reader_error();
  }

  constexpr void run(std::string_view model_name) {
    m.model_name = name{model_name};
    if constexpr (requires { m.requantization; }) m.requantization = requantization_policy::onnx;  // docs/design.md §4
    if (take_reader_error()) return;
    const protobuf::span graph = f.graph();
    protobuf::field fd{};
    // Initializers first (nodes read them by name), then the runtime inputs, the nodes, the outputs.
    for (std::uint32_t at_ = graph.at; f.reader().next(graph, at_, fd) && !failed();) {
      if (fd.number == schema::graph::sparse_initializer)
        return fail(onnx_error::unsupported_tensor_feature,
                    {.byte_offset = fd.bytes.at, .reason = static_cast<std::int64_t>(tensor_feature::sparse)});
      if (fd.number != schema::graph::initializer) continue;
      const protobuf::span label = f.reader().message_field(fd.bytes, schema::tensor::name);
      const std::int32_t v = take_reader_error() ? -1 : add_value(label, value_kind::initializer, fd.tag_at);
      if (v >= 0) at(v).proto = fd.bytes;
    }
    if (take_reader_error() || failed()) return;
    import_inputs(graph);
    node_index = 0;
    for (std::uint32_t at_ = graph.at; !failed() && f.reader().next(graph, at_, fd);) {
      if (fd.number != schema::graph::node) continue;
      import_node(fd.bytes);
      ++node_index;
    }
    if (take_reader_error() || failed()) return;
    import_outputs(graph);
  }
};

}  // namespace ctnn::onnx::detail
