#pragma once
// The compile errors of the ONNX frontend (ctnn::onnx::model; onnx_error codes, onnx/errors.hpp): the
// classes its diagnostics become in ctnn::compile's diagnostic check (errors.hpp), with carriers for the
// file's own numbers. Their static_assert sentences point at the template arguments; errors.hpp's
// sentence_of states the same for the command line (describe.hpp), where a line below gives the numbers.
#include <cstdint>
#include <type_traits>

#include <ctnn/errors.hpp>
#include <ctnn/frontend/onnx/errors.hpp>
#include <ctnn/frontend/onnx/schema.hpp>
#include <ctnn/frontend/protobuf.hpp>
#include <ctnn/ir/diagnostic.hpp>

namespace ctnn::errors {

// Template-argument carriers of the ONNX errors: a node (index in the graph, op_type and name: the
// NodeProto's, or its first output's when it has none, node_named<...>), a byte offset, a value's name
// offset and an attribute value.
template <std::int32_t Index, onnx::op_type Type, class Name> struct onnx_node;
template <std::int64_t Offset> struct onnx_byte;
template <std::int64_t NameOffset> struct onnx_value_named_at;
template <std::int64_t Value> struct attribute_value;
template <std::int64_t Slot> struct operand_slot;
template <std::int64_t Offset, std::int64_t Length> struct attribute_string_at_byte;
template <std::int64_t Index> struct element_index;
template <std::int64_t Value> struct element_value;
template <std::int64_t Bits>
struct float32_bits;  // a float32 as its bit pattern (int32)
template <std::int64_t Index> struct producing_node;  // the index in the graph of the node that produces a value
template <std::int64_t Axis> struct input_axis;       // an axis of a graph input

template <class AtByte, protobuf::expectation Expected>
struct onnx_malformed_model {
  static_assert(detail::always_false<AtByte>, "ctnn::onnx: the model file is malformed or truncated: at the byte "
                                                    "offset in the template arguments the protobuf reader did not find "
                                                    "what the expectation there names.");
};
template <class Node>
struct onnx_unsupported_operator {
  static_assert(detail::always_false<Node>, "ctnn::onnx: the model uses an operator that ctnn does not support "
                                                  "(the node's index in the graph and its op_type are the template "
                                                  "arguments; unknown = not an ai.onnx operator).");
};
template <class Node, onnx::attribute Attribute, class Value>
struct onnx_unsupported_attribute {
  static_assert(detail::always_false<Node>, "ctnn::onnx: an attribute of this node has a value ctnn does not "
                                                  "support (the node, the attribute and its value are the template "
                                                  "arguments; floats in millionths).");
};
template <class Node, class Slot>
struct onnx_unsupported_operand {
  static_assert(detail::always_false<Node>, "ctnn::onnx: this operand of the node must be a constant (an "
                                                  "initializer or a Constant node) of the type and shape the op reads: "
                                                  "float weights, bias and bounds; int64 shapes and pads.");
};
template <class Node, class Slot>
struct onnx_qdq_group {
  static_assert(detail::always_false<Node>, "ctnn::onnx: this operand of the node is part of a QDQ "
                                                  "group that ctnn cannot lower to integer ops "
                                                  "(docs/frontends.md, QDQ models): a DequantizeLinear of "
                                                  "integer weights and a Conv, Gemm or MatMul over them are "
                                                  "read only by that op and its QuantizeLinear; weight "
                                                  "scales per tensor or along the output channels; a bias "
                                                  "INT32 with zero point 0 and scale x_scale * w_scale.");
};
template <class Node, class Outputs>
struct onnx_output_count {
  static_assert(detail::always_false<Node>, "ctnn::onnx: this node has more than one output in use (inference "
                                                  "uses one).");
};
template <class Value, onnx::data_type Type>
struct onnx_unsupported_tensor_type {
  static_assert(detail::always_false<Value>, "ctnn::onnx: a model input or constant has an element type ctnn "
                                                   "does not support here (FLOAT, UINT8, INT8, INT32, INT64 or "
                                                   "BOOL activations; FLOAT weights; INT64 shapes and pads).");
};
template <class Value, class Shape>
struct onnx_no_static_shape {
  static_assert(detail::always_false<Value>, "ctnn::onnx: a model input has no static shape (no shape at all, "
                                                   "or too many elements): export the model with its input shape, or "
                                                   "give it (ctnn::onnx::model's Dims \"INPUT=[D0,D1,...]\", "
                                                   "ctnn_add_model(... ONNX_DIMS \"INPUT=[D0,D1,...]\")).");
};
// DimParam: the dim_param's name as node_named<'b', 'a', ...> (empty: none); Problem: onnx::dimension_problem.
template <class Value, class Axis, class DimParam, onnx::dimension_problem Problem, class Declared>
struct onnx_symbolic_dimension {
  static_assert(detail::always_false<Value>, "ctnn::onnx: a model input has a symbolic dimension (a dim_param name, "
                                             "or no extent) that no binding gives an extent: bind it by name with "
                                             "ctnn::onnx::model<bytes, size, name, dims> where dims is \"NAME=N\" "
                                             "(ctnn_add_model(... ONNX_DIMS NAME=N)), or give the input's shape as "
                                             "\"INPUT=[D0,D1,...]\"; the input, the axis and the dim_param are the "
                                             "template arguments.");
};
template <class Value, class Axis, class Inferred, class Declared>
struct onnx_output_shape_differs {
  static_assert(detail::always_false<Value>, "ctnn::onnx: a graph output's declared shape has a static extent other "
                                             "than the one its nodes compute (the output, the axis, the computed "
                                             "and the declared shape are the template arguments).");
};
template <class Value, class Rank>
struct onnx_rank_too_high {
  static_assert(detail::always_false<Value>, "ctnn::onnx: a tensor has more than ctnn::max_rank (6) dimensions.");
};
template <class Value, onnx::tensor_feature Feature>
struct onnx_unsupported_tensor_feature {
  static_assert(detail::always_false<Value>, "ctnn::onnx: a tensor uses a storage feature ctnn does not read "
                                                   "(named in the template arguments).");
};
template <class Node, class Slot>
struct onnx_integer_arithmetic {
  static_assert(detail::always_false<Node>, "ctnn::onnx: the operands of this element-wise op have different element "
                                            "types (plain integer arithmetic takes two integer operands of one type: "
                                            "uint8, int8, int32 or int64).");
};
template <class Node, class Slot, class Shape>
struct onnx_unsupported_rank {
  static_assert(detail::always_false<Node>, "ctnn::onnx: this operand of the node has a rank the op does not support "
                                            "(Conv, ConvInteger, QLinearConv, MaxPool, AveragePool and "
                                            "BatchNormalization: 3 = 1-D or 4 = 2-D; GlobalAveragePool: 3 or 4; Gemm: "
                                            "2); the node, the operand and its shape are the template arguments.");
};
template <class Node, class Slot, onnx::data_type Type>
struct onnx_operand_type {
  static_assert(detail::always_false<Node>, "ctnn::onnx: this operand of the node has an element type the op does "
                                            "not support here (scales FLOAT; zero points, quantized data and weights "
                                            "UINT8 or INT8; biases INT32; shapes and pads INT64).");
};
template <class Node, class Slot, class Index, class Value>
struct onnx_operand_value {
  static_assert(detail::always_false<Node>, "ctnn::onnx: a value of this constant operand is out of the range the op "
                                            "accepts (scales finite and positive, zero points inside their type, shape "
                                            "extents below 2^31); the node, the operand, the element index and the "
                                            "value are the template arguments.");
};
template <class Node, class Slot, class Value>
struct onnx_undefined_operand {
  static_assert(detail::always_false<Node>, "ctnn::onnx: this node reads a value that no graph input, initializer or "
                                            "node produces (the node, the operand and the byte offset of the value's "
                                            "name are the template arguments).");
};
template <class Node, class Slot, class Value, class Producer, onnx::node_order Order>
struct onnx_operand_produced_later {
  static_assert(detail::always_false<Node>, "ctnn::onnx: this node reads a value that a later node (or the node "
                                            "itself) produces: ONNX lists nodes in topological order, which nodes in a "
                                            "cycle do not have (the node, the operand, the byte offset of the value's "
                                            "name, the producing node and whether the nodes form a cycle or are out "
                                            "of order are the template arguments).");
};
template <class Which, class Count>
struct onnx_too_many_model_io {
  static_assert(detail::always_false<Which>, "ctnn::onnx: the model has more inputs or outputs than "
                                                   "ctnn::max_model_io (8).");
};

}  // namespace ctnn::errors

namespace ctnn::onnx::detail {

struct no_onnx_error {};

// The errors:: class of an ONNX diagnostic (no_onnx_error for the other codes), named without
// instantiating it.
template <diagnostic D>
constexpr auto onnx_error_type() {
  if constexpr (!is_onnx_error(D.code)) {
    return std::type_identity<no_onnx_error>{};
  } else {
    using node =
        errors::onnx_node<D.node, static_cast<op_type>(D.operator_code), ctnn::detail::node_named_t<D.op_name>>;
    using value = errors::onnx_value_named_at<D.byte_offset>;
    using slot = errors::operand_slot<D.input_slot>;
    constexpr auto code = static_cast<onnx_error>(D.code);
    if constexpr (code == onnx_error::malformed_model)
      return std::type_identity<errors::onnx_malformed_model<errors::onnx_byte<D.byte_offset>,
                                                             static_cast<protobuf::expectation>(D.reason)>>{};
    else if constexpr (code == onnx_error::unsupported_operator) return std::type_identity<errors::onnx_unsupported_operator<node>>{};
    else if constexpr (code == onnx_error::unsupported_attribute && D.expected.rank == 3 && D.expected.dims[0] == -1)
      return std::type_identity<errors::onnx_unsupported_attribute<  // a string: where it is in the file
          node, static_cast<attribute>(D.attribute),
          errors::attribute_string_at_byte<D.expected.dims[1], D.expected.dims[2]>>>{};
    else if constexpr (code == onnx_error::unsupported_attribute)
      return std::type_identity<errors::onnx_unsupported_attribute<node, static_cast<attribute>(D.attribute),
                                                                   errors::attribute_value<D.expected.dims[0]>>>{};
    else if constexpr (code == onnx_error::unsupported_rank)
      return std::type_identity<
          errors::onnx_unsupported_rank<node, slot, typename ctnn::detail::shape_type<D.actual>::type>>{};
    else if constexpr (code == onnx_error::operand_type)
      return std::type_identity<errors::onnx_operand_type<node, slot, static_cast<data_type>(D.expected.dims[0])>>{};
    else if constexpr (code == onnx_error::operand_value && D.expected.dims[2] == 1)
      return std::type_identity<errors::onnx_operand_value<node, slot, errors::element_index<D.expected.dims[0]>,
                                                           errors::float32_bits<D.expected.dims[1]>>>{};
    else if constexpr (code == onnx_error::operand_value)
      return std::type_identity<errors::onnx_operand_value<node, slot, errors::element_index<D.expected.dims[0]>,
                                                           errors::element_value<D.expected.dims[1]>>>{};
    else if constexpr (code == onnx_error::unsupported_operand)
      return std::type_identity<errors::onnx_unsupported_operand<node, slot>>{};
    else if constexpr (code == onnx_error::qdq_group)
      return std::type_identity<errors::onnx_qdq_group<node, slot>>{};
    else if constexpr (code == onnx_error::output_count)
      return std::type_identity<errors::onnx_output_count<node, errors::count<D.count_actual>>>{};
    else if constexpr (code == onnx_error::unsupported_tensor_type)
      return std::type_identity<
          errors::onnx_unsupported_tensor_type<value, static_cast<data_type>(D.rejected_value)>>{};
    else if constexpr (code == onnx_error::no_static_shape)
      return std::type_identity<errors::onnx_no_static_shape<value, typename ctnn::detail::shape_type<D.actual>::type>>{};
    else if constexpr (code == onnx_error::symbolic_dimension)
      return std::type_identity<errors::onnx_symbolic_dimension<
          value, errors::input_axis<D.axis>, ctnn::detail::node_named_t<D.op_name>,
          static_cast<dimension_problem>(D.reason), typename ctnn::detail::shape_type<D.actual>::type>>{};
    else if constexpr (code == onnx_error::output_shape_differs)
      return std::type_identity<errors::onnx_output_shape_differs<value, errors::input_axis<D.axis>,
                                                                  typename ctnn::detail::shape_type<D.expected>::type,
                                                                  typename ctnn::detail::shape_type<D.actual>::type>>{};
    else if constexpr (code == onnx_error::rank_too_high)
      return std::type_identity<errors::onnx_rank_too_high<value, errors::count<D.rank_actual>>>{};
    else if constexpr (code == onnx_error::unsupported_tensor_feature)
      return std::type_identity<
          errors::onnx_unsupported_tensor_feature<value, static_cast<tensor_feature>(D.reason)>>{};
    else if constexpr (code == onnx_error::integer_arithmetic)
      return std::type_identity<errors::onnx_integer_arithmetic<node, slot>>{};
    else if constexpr (code == onnx_error::undefined_operand)
      return std::type_identity<errors::onnx_undefined_operand<node, slot, value>>{};
    else if constexpr (code == onnx_error::operand_produced_later)
      return std::type_identity<errors::onnx_operand_produced_later<node, slot, value, errors::producing_node<D.position>,
                                                                    static_cast<node_order>(D.reason)>>{};
    else
      return std::type_identity<
          errors::onnx_too_many_model_io<errors::model_side<D.io_side>, errors::count<D.count_actual>>>{};
  }
}

}  // namespace ctnn::onnx::detail

namespace ctnn::detail {

template <diagnostic D>
  requires(onnx::is_onnx_error(D.code))
struct frontend_error_class<D> {
  using type = typename decltype(onnx::detail::onnx_error_type<D>())::type;
};

}  // namespace ctnn::detail
