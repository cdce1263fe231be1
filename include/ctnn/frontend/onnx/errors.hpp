#pragma once
// Diagnostics of the ONNX importer: their codes (values of ctnn::error_code numbered from 300, like the
// TFLite frontend's from 100 and the planner's from 200), the compile-error classes they become, and the
// check that ctnn::onnx::model runs when a model type is built.
//
// Fields of the diagnostic, per code:
//   node:    the index of the NodeProto in the graph (-1 when the problem is not a node's)
//   kind:    the IR op kind the node maps to (conv2d when none)
//   value_a, value_b, expected, actual: as listed per code. "name offset" is the byte offset of the
//   value's name in the file (ctnn-inspect prints the name).
//
// The compile error is raised by ctnn::onnx::model::build() (frontend/onnx.hpp), because ctnn::executor's
// diagnostic check (errors.hpp) knows the IR's, TFLite's and the planner's codes but not these yet; see
// docs/frontends.md. Codes of the IR itself that the importer reports (unsupported_rank, invalid_axis,
// input_count_mismatch, ...) stay the executor's.
#include <cstdint>
#include <string_view>
#include <type_traits>

#include <ctnn/errors.hpp>
#include <ctnn/frontend/onnx/schema.hpp>
#include <ctnn/frontend/protobuf.hpp>
#include <ctnn/ir/diagnostic.hpp>

namespace ctnn::onnx {

enum class onnx_error : std::int32_t {
  malformed_model = 300,       // value_a: byte offset, value_b: ctnn::protobuf::expectation
  unsupported_operator,        // value_a: ctnn::onnx::op_type (unknown: not in the default domain's list)
  unsupported_attribute,       // value_a: op_type, value_b: ctnn::onnx::attribute; expected.dims[0]: the value
                               // (floats in millionths; -1 for strings)
  unsupported_operand,         // value_a: op_type, value_b: operand slot (must be a constant of the type and
                               // shape the op reads: weights, bias, shape, pads, clip bounds)
  output_count,                // value_a: op_type, value_b: the node's output count (one is supported)
  unsupported_tensor_type,     // value_a: name offset, value_b: ctnn::onnx::data_type
  no_static_shape,             // value_a: name offset, value_b: rank; actual: the shape (-1 = unknown)
  rank_too_high,               // value_a: name offset, value_b: rank (ctnn::max_rank is 6)
  unsupported_tensor_feature,  // value_a: name offset, value_b: ctnn::onnx::tensor_feature
  needs_transpose,             // value_a: op_type (unknown for a model output), value_b: 0; expected: the
                               // NCHW shape ctnn would have to transpose from its NHWC layout
  too_many_model_io,           // value_a: 0 = inputs, 1 = outputs; value_b: their count (max 8)
};
inline constexpr std::int32_t first_onnx_error = 300;
inline constexpr std::int32_t last_onnx_error = static_cast<std::int32_t>(onnx_error::too_many_model_io);

constexpr error_code code_of(onnx_error e) { return static_cast<error_code>(e); }
constexpr bool is_onnx_error(error_code c) {
  return static_cast<std::int32_t>(c) >= first_onnx_error && static_cast<std::int32_t>(c) <= last_onnx_error;
}

// Why a tensor cannot be read although its type is supported.
enum class tensor_feature : std::int32_t {
  external_data = 1,  // data_location EXTERNAL: the values are in another file
  segments,           // a chunked tensor (segment)
  unpacked_values,    // float values written one record each (not packed): not contiguous in the file
  sparse,             // a sparse initializer
};

constexpr std::string_view name_of(tensor_feature f) {
  switch (f) {
    case tensor_feature::external_data: return "external data";
    case tensor_feature::segments: return "segments";
    case tensor_feature::unpacked_values: return "unpacked float values";
    case tensor_feature::sparse: return "a sparse initializer";
  }
  return {};
}

constexpr std::string_view name_of(onnx_error e) {
  switch (e) {
    case onnx_error::malformed_model: return "onnx_malformed_model";
    case onnx_error::unsupported_operator: return "onnx_unsupported_operator";
    case onnx_error::unsupported_attribute: return "onnx_unsupported_attribute";
    case onnx_error::unsupported_operand: return "onnx_unsupported_operand";
    case onnx_error::output_count: return "onnx_output_count";
    case onnx_error::unsupported_tensor_type: return "onnx_unsupported_tensor_type";
    case onnx_error::no_static_shape: return "onnx_no_static_shape";
    case onnx_error::rank_too_high: return "onnx_rank_too_high";
    case onnx_error::unsupported_tensor_feature: return "onnx_unsupported_tensor_feature";
    case onnx_error::needs_transpose: return "onnx_needs_transpose";
    case onnx_error::too_many_model_io: return "onnx_too_many_model_io";
  }
  return "?";
}

// The sentence of each compile error (the static_assert of its class below; ctnn-inspect prints it too).
constexpr std::string_view sentence_of(onnx_error e) {
  switch (e) {
    case onnx_error::malformed_model:
      return "ctnn::onnx: the model file is malformed or truncated: at the byte offset in the template arguments the "
             "protobuf reader did not find what the expectation there names.";
    case onnx_error::unsupported_operator:
      return "ctnn::onnx: the model uses an operator that ctnn does not support (the node's index in the graph and its "
             "op_type are the template arguments; unknown = not an ai.onnx operator).";
    case onnx_error::unsupported_attribute:
      return "ctnn::onnx: an attribute of this node has a value ctnn does not support (the node, the attribute and "
             "its value are the template arguments; floats in millionths).";
    case onnx_error::unsupported_operand:
      return "ctnn::onnx: this operand of the node must be a constant (an initializer or a Constant node) of the type "
             "and shape the op reads: float weights, bias and bounds; int64 shapes and pads.";
    case onnx_error::output_count:
      return "ctnn::onnx: this node has more than one output in use (inference uses one).";
    case onnx_error::unsupported_tensor_type:
      return "ctnn::onnx: a model input or constant has an element type ctnn does not support here (FLOAT activations "
             "and weights; INT64 shapes and pads).";
    case onnx_error::no_static_shape:
      return "ctnn::onnx: a model input has no static shape (a symbolic, unknown or 0 extent): export the model with a "
             "fixed batch size and input shape.";
    case onnx_error::rank_too_high:
      return "ctnn::onnx: a tensor has more than ctnn::max_rank (6) dimensions.";
    case onnx_error::unsupported_tensor_feature:
      return "ctnn::onnx: a tensor uses a storage feature ctnn does not read (named in the template arguments).";
    case onnx_error::needs_transpose:
      return "ctnn::onnx: this node (or model output) needs an NCHW tensor that ctnn keeps as NHWC, and ctnn has no "
             "transpose op yet (the NCHW shape is in the template arguments).";
    case onnx_error::too_many_model_io:
      return "ctnn::onnx: the model has more inputs or outputs than ctnn::max_model_io (8).";
  }
  return {};
}

}  // namespace ctnn::onnx

namespace ctnn::errors {

// Template-argument carriers of the ONNX errors: a node (index in the graph + op_type), a byte offset, a
// value's name offset, an attribute value, and which side of the model's interface.
template <std::int32_t Index, onnx::op_type Type> struct onnx_node;
template <std::int64_t Offset> struct onnx_byte;
template <std::int64_t NameOffset> struct onnx_value_named_at;
template <std::int64_t Value> struct attribute_value;
template <std::int64_t Slot> struct operand_slot;
template <std::int32_t... Extents> struct nchw;
struct onnx_model_inputs;
struct onnx_model_outputs;
struct onnx_model_output;

namespace onnx_detail {
template <class...> inline constexpr bool always_false = false;
}

template <class AtByte, protobuf::expectation Expected>
struct onnx_malformed_model {
  static_assert(onnx_detail::always_false<AtByte>, "ctnn::onnx: the model file is malformed or truncated: at the byte "
                                                    "offset in the template arguments the protobuf reader did not find "
                                                    "what the expectation there names.");
};
template <class Node>
struct onnx_unsupported_operator {
  static_assert(onnx_detail::always_false<Node>, "ctnn::onnx: the model uses an operator that ctnn does not support "
                                                  "(the node's index in the graph and its op_type are the template "
                                                  "arguments; unknown = not an ai.onnx operator).");
};
template <class Node, onnx::attribute Attribute, class Value>
struct onnx_unsupported_attribute {
  static_assert(onnx_detail::always_false<Node>, "ctnn::onnx: an attribute of this node has a value ctnn does not "
                                                  "support (the node, the attribute and its value are the template "
                                                  "arguments; floats in millionths).");
};
template <class Node, class Slot>
struct onnx_unsupported_operand {
  static_assert(onnx_detail::always_false<Node>, "ctnn::onnx: this operand of the node must be a constant (an "
                                                  "initializer or a Constant node) of the type and shape the op reads: "
                                                  "float weights, bias and bounds; int64 shapes and pads.");
};
template <class Node, class Outputs>
struct onnx_output_count {
  static_assert(onnx_detail::always_false<Node>, "ctnn::onnx: this node has more than one output in use (inference "
                                                  "uses one).");
};
template <class Value, onnx::data_type Type>
struct onnx_unsupported_tensor_type {
  static_assert(onnx_detail::always_false<Value>, "ctnn::onnx: a model input or constant has an element type ctnn "
                                                   "does not support here (FLOAT activations and weights; INT64 shapes "
                                                   "and pads).");
};
template <class Value, class Shape>
struct onnx_no_static_shape {
  static_assert(onnx_detail::always_false<Value>, "ctnn::onnx: a model input has no static shape (a symbolic, unknown "
                                                   "or 0 extent): export the model with a fixed batch size and input "
                                                   "shape.");
};
template <class Value, class Rank>
struct onnx_rank_too_high {
  static_assert(onnx_detail::always_false<Value>, "ctnn::onnx: a tensor has more than ctnn::max_rank (6) dimensions.");
};
template <class Value, onnx::tensor_feature Feature>
struct onnx_unsupported_tensor_feature {
  static_assert(onnx_detail::always_false<Value>, "ctnn::onnx: a tensor uses a storage feature ctnn does not read "
                                                   "(named in the template arguments).");
};
template <class Node, class Shape>
struct onnx_needs_transpose {
  static_assert(onnx_detail::always_false<Node>, "ctnn::onnx: this node (or model output) needs an NCHW tensor that "
                                                  "ctnn keeps as NHWC, and ctnn has no transpose op yet (the NCHW "
                                                  "shape is in the template arguments).");
};
template <class Which, class Count>
struct onnx_too_many_model_io {
  static_assert(onnx_detail::always_false<Which>, "ctnn::onnx: the model has more inputs or outputs than "
                                                   "ctnn::max_model_io (8).");
};

}  // namespace ctnn::errors

namespace ctnn::onnx::detail {

template <shape S, class = std::make_index_sequence<static_cast<std::size_t>(S.rank)>> struct nchw_type;
template <shape S, std::size_t... I>
struct nchw_type<S, std::index_sequence<I...>> {
  using type = errors::nchw<S.dims[I]...>;
};

struct no_onnx_error {};

// The errors:: class of an ONNX diagnostic (no_onnx_error for the other codes), named without
// instantiating it.
template <diagnostic D>
constexpr auto onnx_error_type() {
  if constexpr (!is_onnx_error(D.code)) {
    return std::type_identity<no_onnx_error>{};
  } else {
    using node = errors::onnx_node<D.node, static_cast<op_type>(D.value_a)>;
    using value = errors::onnx_value_named_at<D.value_a>;
    using b = errors::count<D.value_b>;
    constexpr auto code = static_cast<onnx_error>(D.code);
    if constexpr (code == onnx_error::malformed_model)
      return std::type_identity<errors::onnx_malformed_model<errors::onnx_byte<D.value_a>, static_cast<protobuf::expectation>(D.value_b)>>{};
    else if constexpr (code == onnx_error::unsupported_operator) return std::type_identity<errors::onnx_unsupported_operator<node>>{};
    else if constexpr (code == onnx_error::unsupported_attribute)
      return std::type_identity<errors::onnx_unsupported_attribute<node, static_cast<attribute>(D.value_b),
                                                                   errors::attribute_value<D.expected.dims[0]>>>{};
    else if constexpr (code == onnx_error::unsupported_operand)
      return std::type_identity<errors::onnx_unsupported_operand<node, errors::operand_slot<D.value_b>>>{};
    else if constexpr (code == onnx_error::output_count) return std::type_identity<errors::onnx_output_count<node, b>>{};
    else if constexpr (code == onnx_error::unsupported_tensor_type)
      return std::type_identity<errors::onnx_unsupported_tensor_type<value, static_cast<data_type>(D.value_b)>>{};
    else if constexpr (code == onnx_error::no_static_shape)
      return std::type_identity<errors::onnx_no_static_shape<value, typename ctnn::detail::shape_type<D.actual>::type>>{};
    else if constexpr (code == onnx_error::rank_too_high) return std::type_identity<errors::onnx_rank_too_high<value, b>>{};
    else if constexpr (code == onnx_error::unsupported_tensor_feature)
      return std::type_identity<errors::onnx_unsupported_tensor_feature<value, static_cast<tensor_feature>(D.value_b)>>{};
    else if constexpr (code == onnx_error::needs_transpose)
      return std::type_identity<errors::onnx_needs_transpose<std::conditional_t<D.node < 0, errors::onnx_model_output, node>,
                                                             typename nchw_type<D.expected>::type>>{};
    else
      return std::type_identity<errors::onnx_too_many_model_io<
          std::conditional_t<D.value_a == 0, errors::onnx_model_inputs, errors::onnx_model_outputs>, b>>{};
  }
}

// Instantiating it with an ONNX diagnostic instantiates the error class: its static_assert is the
// compile error.
template <diagnostic D>
struct import_check : decltype(onnx_error_type<D>())::type {};

}  // namespace ctnn::onnx::detail
