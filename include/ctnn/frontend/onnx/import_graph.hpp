#pragma once
// The ONNX importer's driver (import.hpp): each NodeProto to its row of the operator table
// (import_table.hpp), Constant nodes, the graph's inputs and outputs, and the order of the whole import.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <ctnn/frontend/detail/operand_tree.hpp>
#include <ctnn/frontend/onnx/dim_bindings.hpp>
#include <ctnn/frontend/onnx/import_qdq.hpp>
#include <ctnn/frontend/onnx/import_table.hpp>

namespace ctnn::onnx::detail {

// A Constant node: its value (a TensorProto attribute) is read where an op reads it.
template <class S>
constexpr void import_constant(S& s, const node_view& n, const protobuf::span& out_name, std::int64_t out_tag) {
  const attribute_view a = s.f.attribute(n, "value");
  const protobuf::span proto = a.present() ? s.f.tensor_attribute(a) : protobuf::span{};
  if (s.take_reader_error()) return;
  if (!a.present()) return s.attribute_error(attribute::value, -1);  // value_float, value_ints, ...: not read
  const std::int32_t v = s.add_value(out_name, value_kind::constant, out_tag);
  if (v >= 0) s.at(v).proto = proto;
}

// A node's operands, as import_node and import_wide read them: QDQ groups (import_qdq.hpp) lowered or settled,
// integers computed at import (import_known.hpp) folded, or the row's import function (then true).
template <class S>
constexpr bool import_operands(S& s, const node_view& n, std::int32_t row, const operands& o, std::int32_t result) {
  if (qdq_lowering<S>{s}.import(n, o, result) || qdq_lowering<S>{s}.settle(o)) return false;
  if (fold_known(s, n, o, result)) return false;
  if (row < 0) return s.fail(onnx_error::unsupported_operator, {.operator_code = static_cast<std::int64_t>(n.type)}), false;
  op_table<S>[row].import(s, n, o, result);
  return true;
}

// Whether value v is one an op can read: not a node output without a tensor (a row's output it left undefined,
// a known value the store dropped, reclaim_known).
template <class S>
constexpr bool readable(S& s, std::int32_t v) {
  const value& x = s.at(v);
  return x.kind != value_kind::node_output || x.onnx_layout >= 0 || x.nhwc >= 0;
}

// Whether value v, which the row importing node n was to define, is one an op can read: one the row left
// undefined (an output beyond the op's, LayerNormalization's fourth; an inner node of an operand tree) is refused
// here as output_count, never read as a tensor -1 later.
template <class S>
constexpr bool output_defined(S& s, const node_view& n, std::int32_t v) {
  if (s.failed()) return false;
  if (readable(s, v) || s.at(v).name.length == 0) return true;
  s.fail(onnx_error::output_count, {.operator_code = static_cast<std::int64_t>(n.type), .count_actual = n.output_count});
  return false;
}

// The variadic ops an IR node may not hold all the operands of (frontend/detail/operand_tree.hpp).
constexpr bool joins_in_tree(op_type t) {
  return t == op_type::Concat || t == op_type::Sum || t == op_type::Max || t == op_type::Min || t == op_type::Mean;
}

// A variadic node with more than max_node_inputs operands (DenseNet's Concat of 25): its row over at most
// max_node_inputs of them at a time, each result a hidden value read by the next (operand_tree): Concat
// balanced (concats of concats along its axis), Sum, Max, Min chained (their operands folded in order); Mean's
// inner nodes are Sums and its last one divides by the node's operand count (import_mean). A diagnostic's
// input_slot counts the operands of the node that failed.
template <class S>
constexpr void import_wide(S& s, const node_view& n, std::int32_t row, std::int32_t result) {
  if (n.input_count > frontend_detail::max_tree_operands)
    return s.fail(error_code::too_many_inputs, s.node_index, s.current_kind,
                  {.count_expected = frontend_detail::max_tree_operands, .count_actual = n.input_count});
  protobuf::field fd{};
  std::uint32_t cursor = n.proto.at;
  const auto read = [&](std::uint32_t k) -> std::int32_t {
    while (s.f.reader().next(n.proto, cursor, fd))
      if (fd.number == schema::node::input) {
        if (fd.bytes.length == 0) return s.operand_error(k), -1;
        // (the node's own result is entered by now: one of its operands naming it is a cycle, as a node of
        // few operands finds before its result is entered)
        const std::int32_t v = s.find(fd.bytes);
        if (v < 0 || v >= result) return unready_operand(s, k, fd.bytes), -1;
        return v;
      }
    return s.take_reader_error(), -1;
  };
  const bool mean = n.type == op_type::Mean;
  const std::int32_t inner_row = mean ? find_op<S>(op_type::Sum) : row;
  const auto join = [&](const std::array<std::int32_t, max_node_inputs>& parts, std::uint32_t count, bool last) -> std::int32_t {
    operands o{};
    for (std::uint32_t k = 0; k < count; ++k) {
      if (!readable(s, parts[k])) return s.operand_error(k), -1;  // (each inner result is checked when made)
      o.id[k] = parts[k];
    }
    o.count = count;
    const std::int32_t into = last ? result : s.hidden_value(result);
    if (into < 0) return -1;
    const op_type current = s.current;
    if (!last && mean) s.current = op_type::Sum;
    import_operands(s, n, last ? row : inner_row, o, into);
    s.current = current;
    return s.failed() || !output_defined(s, n, into) ? -1 : into;
  };
  const std::int32_t joined = frontend_detail::join_operands(
      n.input_count, n.type == op_type::Concat ? frontend_detail::operand_tree::balanced : frontend_detail::operand_tree::chained,
      read, join);
  if (joined < 0 && !s.failed())  // (a walk that ends without a diagnostic leaves the result undefined)
    s.fail(onnx_error::output_count, {.operator_code = static_cast<std::int64_t>(n.type), .count_actual = n.output_count});
}

// Whether a later node or a graph output reads one of node n's outputs after its first (a scan of the graph:
// only for a node of several named outputs whose row computes one).
template <class S>
constexpr bool outputs_read_after(S& s, const node_view& n) {
  bool read = false;
  const auto check = [&](const protobuf::span& value_name) {
    for (std::uint32_t k = 1; k < n.output_count && !read && value_name.length > 0; ++k)
      read = s.f.reader().view(s.f.output_name(n, k)) == s.f.reader().view(value_name);
  };
  const protobuf::span graph = s.f.graph();
  protobuf::field fd{}, io{};
  std::int32_t node = 0;
  for (std::uint32_t at_ = graph.at; !read && s.f.reader().next(graph, at_, fd);) {
    if (fd.number == schema::graph::output) check(s.f.reader().message_field(fd.bytes, schema::value_info::name));
    if (fd.number != schema::graph::node || node++ <= s.node_index) continue;
    for (std::uint32_t at_io = fd.bytes.at; !read && s.f.reader().next(fd.bytes, at_io, io);)
      if (io.number == schema::node::input) check(io.bytes);
  }
  return read || s.take_reader_error();
}

// One NodeProto: its row in import_table.hpp, its one output entered as a value, then the row's function.
template <class S>
constexpr void import_node(S& s, const protobuf::span& proto) {
  const node_view n = s.f.read_node(proto);
  if (s.take_reader_error()) return;
  s.current = n.type;
  const std::int32_t row = find_op<S>(n.type);
  s.current_kind = row >= 0 ? op_table<S>[row].kind : S::no_row_kind;
  s.op_label = name{s.f.reader().view(n.name.length > 0 || n.output_count == 0 ? n.name : s.f.output_name(n, 0))};
  // Training-mode BatchNormalization has its running statistics as extra outputs: the mode is the reason.
  if (n.type == op_type::BatchNormalization && int_attribute(s, n, "training_mode", 0) != 0)
    return s.attribute_error(attribute::training_mode, 1);
  // One result in use (a several-output row's: each): later outputs must be omitted (empty names).
  const bool several = row >= 0 && op_table<S>[row].several_outputs;
  std::uint32_t outputs = n.output_count;
  for (std::uint32_t k = n.output_count; k > 1 && !several; --k)
    if (s.f.output_name(n, k - 1).length == 0) --outputs;
  if (s.take_reader_error()) return;
  if (outputs > 1 && !several && !outputs_read_after(s, n)) outputs = 1;  // Dropout's mask nothing reads (torch at opset 12 on)
  if (n.output_count == 0 || (outputs != 1 && !several))
    return s.fail(onnx_error::output_count,
                  {.operator_code = static_cast<std::int64_t>(n.type), .count_actual = n.output_count});
  std::int64_t out_tag = 0;
  protobuf::span out_name{};
  {
    protobuf::field fd{};
    for (std::uint32_t at_ = proto.at; s.f.reader().next(proto, at_, fd);)
      if (fd.number == schema::node::output && out_tag == 0) out_tag = fd.tag_at, out_name = fd.bytes;
  }
  const bool wide = joins_in_tree(n.type) && n.input_count > max_node_inputs;
  const operands o = wide ? operands{} : read_operands(s, n);
  if (s.failed()) return;
  if (n.type == op_type::Constant) return import_constant(s, n, out_name, out_tag);
  // A several-output row's omitted outputs (empty names: LSTM's Y) are unnamed values, so that output k
  // stays value result + k.
  const auto enter = [&](const protobuf::span& output, std::int64_t tag) {
    return several && output.length == 0 ? s.unnamed_value(output) : s.add_value(output, value_kind::node_output, tag);
  };
  s.node_values = s.value_count;
  const std::int32_t result = enter(out_name, out_tag);
  if (result < 0) return;
  if (several) {  // the further outputs, values result + 1, result + 2, ...
    protobuf::field fd{};
    bool first = true;
    for (std::uint32_t at_ = proto.at; s.f.reader().next(proto, at_, fd);) {
      if (fd.number != schema::node::output) continue;
      if (!first && enter(fd.bytes, fd.tag_at) < 0) return;
      first = false;
    }
  }
  if (wide) return import_wide(s, n, row, result);
  if (!import_operands(s, n, row, o, result)) return;
  for (std::uint32_t k = 0; k < (several ? n.output_count : 1u); ++k)
    if (!output_defined(s, n, result + static_cast<std::int32_t>(k))) return;
}

// -----------------------------------------------------------------------------------------------------
// The graph.

// A graph input's shape with its symbolic dims bound (dim_bindings.hpp): an input-shape binding, else each
// dim_param's binding, else 1 for the first axis (the batch, noted in batch_bound_to_one); false after a
// diagnostic naming the input, the axis and the dim_param.
template <class S>
constexpr bool bind_input_shape(S& s, const value_info_view& info, shape& dims) {
  const std::string_view input = s.f.reader().view(info.name);
  shape whole{};
  const bool given = bound_input_shape(s.dim_bindings, input, whole);
  if (!info.has_shape && !given)
    return s.fail(onnx_error::no_static_shape, {.byte_offset = info.name.at, .rank_actual = info.rank}, {}, info.dims),
           false;
  const auto problem = [&](dimension_problem p, std::int32_t axis, const shape& expected, const name& dim_param) {
    s.m.fail_in_file(diagnostic{code_of(onnx_error::symbolic_dimension), -1, S::no_row_kind, expected, info.dims,
                                {.byte_offset = info.name.at, .axis = axis, .reason = static_cast<std::int64_t>(p)},
                                dim_param});
    return false;
  };
  if (given && info.has_shape && whole.rank != info.dims.rank)
    return problem(dimension_problem::shape_differs, 0, whole, name{});
  dims = given ? whole : info.dims;
  for (std::int32_t d = 0; d < dims.rank; ++d) {
    const std::int32_t declared = info.has_shape ? info.dims[d] : -1;
    if (declared > 0) {
      if (dims[d] != declared) return problem(dimension_problem::shape_differs, d, whole, name{});
      continue;
    }
    if (given) continue;
    const protobuf::span param = info.dim_names[static_cast<std::size_t>(d)];
    const std::string_view param_text = s.f.reader().view(param);
    const std::int64_t bound = bound_extent(s.dim_bindings, param_text);
    if (bound > 0) {
      dims.dims[static_cast<std::size_t>(d)] = static_cast<std::int32_t>(bound);
    } else if (d == 0) {
      dims.dims[0] = 1;
      s.batch_bound_to_one |= std::uint32_t{1} << s.m.input_count;
      s.batch_names[static_cast<std::size_t>(s.m.input_count)] = param;
    } else {
      shape where{};
      where.rank = 2;
      where.dims[0] = static_cast<std::int32_t>(param.at);
      where.dims[1] = static_cast<std::int32_t>(param.length);
      return problem(dimension_problem::unbound, d, where, name{param_text});
    }
  }
  return true;
}

template <class S>
constexpr void import_inputs(S& s, const protobuf::span& graph) {
  protobuf::field fd{};
  for (std::uint32_t at_ = graph.at; s.f.reader().next(graph, at_, fd) && !s.failed();) {
    if (fd.number != schema::graph::input) continue;
    const value_info_view info = s.f.read_value_info(fd.bytes);
    if (s.take_reader_error()) return;
    if (info.name.length > 0 && s.find(info.name) >= 0 && s.is_constant(s.find(info.name)))
      continue;  // IR 3: initializers listed
    if (s.m.input_count >= static_cast<std::int32_t>(max_model_io))
      return s.fail(onnx_error::too_many_model_io, {.count_actual = s.m.input_count + 1, .io_side = 0});
    const std::int32_t v = s.add_value(info.name, value_kind::graph_input, fd.tag_at);
    if (v < 0) return;
    // float32, or integers: 8-bit for the quantized ops (quantized.hpp), any of them for plain integer ops;
    // booleans for the logical ops and Where
    if (info.type != data_type::float32 && info.type != data_type::bool_ && !is_integer(info.type))
      return s.fail(onnx_error::unsupported_tensor_type,
                    {.byte_offset = info.name.at, .rejected_value = static_cast<std::int64_t>(info.type)});
    if (info.rank > max_rank)
      return s.fail(onnx_error::rank_too_high, {.byte_offset = info.name.at, .rank_actual = info.rank});
    shape dims{};
    if (!bind_input_shape(s, info, dims)) return;
    if (s.pass_too_large(dims))
      return s.fail(onnx_error::no_static_shape, {.byte_offset = info.name.at, .rank_actual = info.rank}, {},
                    info.dims);
    const std::int32_t id = s.add_tensor(dims, s.label_of(v), tensor_role::input);
    if (id < 0) return;
    s.m.tensor_at(id).type = dtype_of(info.type);
    s.m.tensor_at(id).io_index = s.m.input_count;
    s.m.inputs[static_cast<std::size_t>(s.m.input_count++)] = id;
    s.at(v).onnx_layout = id;
  }
  s.take_reader_error();
}

// A graph output's declared shape against the one its nodes compute: symbolic extents (and an undeclared shape
// or rank) take the computed one; a static extent that differs is an error.
template <class S>
constexpr bool declared_output_shape_agrees(S& s, const protobuf::span& proto, const shape& computed) {
  const value_info_view info = s.f.read_value_info(proto);
  if (s.take_reader_error()) return false;
  if (!info.has_shape || info.dims.rank != computed.rank || info.rank > max_rank) return true;
  for (std::int32_t d = 0; d < computed.rank; ++d) {
    if (info.dims[d] <= 0 || info.dims[d] == computed[d]) continue;
    s.m.fail_in_file(diagnostic{code_of(onnx_error::output_shape_differs), -1, S::no_row_kind, computed, info.dims,
                                {.byte_offset = info.name.at, .axis = d}, name{}});
    return false;
  }
  return true;
}

template <class S>
constexpr void import_outputs(S& s, const protobuf::span& graph) {
  protobuf::field fd{};
  for (std::uint32_t at_ = graph.at; s.f.reader().next(graph, at_, fd) && !s.failed();) {
    if (fd.number != schema::graph::output) continue;
    const protobuf::span name = s.f.reader().message_field(fd.bytes, schema::value_info::name);
    if (s.take_reader_error()) return;
    const std::int32_t v = s.find(name);
    if (v < 0) return s.malformed(fd.tag_at, protobuf::expectation::graph_output);
    if (s.m.output_count >= static_cast<std::int32_t>(max_model_io))
      return s.fail(onnx_error::too_many_model_io, {.count_actual = s.m.output_count + 1, .io_side = 1});
    s.node_index = -1;
    s.current = op_type::unknown;
    s.current_kind = S::no_row_kind;
    // A QDQ group's deferred value (import_qdq.hpp) as a model output: no QuantizeLinear lowered it (a
    // pool is imported as the float op then).
    qdq_lowering<S>{s}.float_op(v);
    if (s.at(v).kind == value_kind::qdq_deferred && s.at(v).deferred_op.length > 0)
      return s.node_index = s.at(v).deferred_index, s.qdq_error(0);
    operands read{};
    read.id[0] = v;
    read.count = 1;
    if (qdq_lowering<S>{s}.settle(read)) return;
    std::int32_t id = as_onnx(s, v, 0);
    if (s.failed() || id < 0) return;
    if (!declared_output_shape_agrees(s, fd.bytes, s.m.tensor_at(id).dims)) return;
    // A graph input, a constant, or an output listed twice: a copy writes this output's buffer.
    if (s.m.tensor_at(id).role != tensor_role::intermediate || s.at(v).copies++ > 0)
      id = s.reshape(id, {}, numbered("output", static_cast<std::size_t>(s.m.output_count)));  // no target: a copy
    if (id < 0) return;
    tensor& t = s.m.tensor_at(id);
    t.role = tensor_role::output;
    t.io_index = s.m.output_count;
    t.label = s.label_of(v);
    s.m.outputs[static_cast<std::size_t>(s.m.output_count++)] = id;
  }
  s.take_reader_error();
}

// The whole import: initializers, graph inputs, nodes, graph outputs; the first problem stops it.
template <class S>
constexpr void import_graph(S& s, std::string_view model_name) {
  s.m.model_name = name{model_name};
  if constexpr (requires { s.m.requantization; })
    s.m.requantization = requantization_policy::onnx;  // docs/design.md §4
  if (s.take_reader_error()) return;
  const protobuf::span graph = s.f.graph();
  protobuf::field fd{};
  // Initializers first (nodes read them by name), then the runtime inputs, the nodes, the outputs.
  for (std::uint32_t at_ = graph.at; s.f.reader().next(graph, at_, fd) && !s.failed();) {
    if (fd.number == schema::graph::sparse_initializer)
      return s.fail(onnx_error::unsupported_tensor_feature,
                    {.byte_offset = fd.bytes.at, .reason = static_cast<std::int64_t>(tensor_feature::sparse)});
    if (fd.number != schema::graph::initializer) continue;
    const protobuf::span label = s.f.reader().message_field(fd.bytes, schema::tensor::name);
    const std::int32_t v = s.take_reader_error() ? -1 : s.add_value(label, value_kind::initializer, fd.tag_at);
    if (v >= 0) s.at(v).proto = fd.bytes;
  }
  if (s.take_reader_error() || s.failed()) return;
  import_inputs(s, graph);
  s.node_index = 0;
  for (std::uint32_t at_ = graph.at; !s.failed() && s.f.reader().next(graph, at_, fd);) {
    if (fd.number != schema::graph::node) continue;
    import_node(s, fd.bytes);
    ++s.node_index;
  }
  if (s.take_reader_error() || s.failed()) return;
  import_outputs(s, graph);
  s.node_peak = s.m.node_count;
  if (s.qdq_lowered > 0 && !s.failed()) erase_unread_nodes(s.m);
}

}  // namespace ctnn::onnx::detail
