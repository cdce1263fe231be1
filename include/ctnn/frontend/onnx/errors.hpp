#pragma once
// Diagnostics of the ONNX importer: their codes (ctnn::onnx::onnx_error, values of ctnn::error_code
// numbered from 300, like the TFLite frontend's from 100 and the planner's from 200), names and run-time
// sentences (describe.hpp prints them above a line with the numbers). The compile-error classes they
// become (ctnn::errors::onnx_*) are in compile_errors.hpp, which the executor's diagnostic check finds as
// it finds every other diagnostic's (errors.hpp).
//
// Fields of the diagnostic, per code:
//   node:    the index of the NodeProto in the graph (-1 when the problem is not a node's)
//   kind:    the IR op kind the node maps to (conv2d when none)
//   the named fields (diagnostic_details), expected, actual: as listed per code. A value (a model input,
//   an initializer) is named by `byte_offset`, where its name is in the file (ctnn-inspect prints it).
//
// Codes of the IR itself that the importer reports (unsupported_rank, invalid_axis, input_count_mismatch,
// ...) keep their own classes.
#include <cstdint>
#include <string_view>
#include <type_traits>

#include <ctnn/frontend/onnx/schema.hpp>
#include <ctnn/frontend/protobuf.hpp>
#include <ctnn/ir/diagnostic.hpp>

namespace ctnn::onnx {

// The ONNX frontend's diagnostic codes (values of ctnn::error_code from 300).
enum class onnx_error : std::int32_t {
  malformed_model = 300,       // byte_offset; reason: ctnn::protobuf::expectation
  unsupported_operator,        // operator_code: ctnn::onnx::op_type (unknown: not in the default domain's list)
  unsupported_attribute,       // operator_code, attribute; expected.dims[0]: the value
                               // (floats in millionths); a string: expected = [-1, its byte offset, its length]
  unsupported_operand,         // operator_code, input_slot (the operand must be a constant of the type and
                               // shape the op reads: weights, bias, shape, pads, clip bounds)
  output_count,                // operator_code; count_actual: the node's outputs (one is supported)
  unsupported_tensor_type,     // byte_offset; rejected_value: ctnn::onnx::data_type
  no_static_shape,             // byte_offset, rank_actual; actual: the shape (-1 = unknown)
  rank_too_high,               // byte_offset, rank_actual (ctnn::max_rank is 6)
  unsupported_tensor_feature,  // byte_offset; reason: ctnn::onnx::tensor_feature
  too_many_model_io,           // io_side; count_actual: their count (max 8)
  integer_arithmetic,          // operator_code, input_slot (its element type differs from the
                               // first operand's: plain integer arithmetic takes one integer type)
  unsupported_rank,            // operator_code, input_slot; actual: the operand's ONNX shape
  operand_type,                // operator_code, input_slot; expected.dims[0]: its ctnn::onnx::data_type
  operand_value,               // operator_code, input_slot; expected: [element index, value,
                               // 1 when the value is float32 bits (a scale) else 0]; a value out of the range
                               // the op accepts (scales finite and positive, zero points in their type,
                               // shape extents and bounds)
  undefined_operand,           // operator_code, input_slot, byte_offset: the operand's name in the node
                               // (no graph input, initializer or node produces a value of that name)
  operand_produced_later,      // operator_code, input_slot, byte_offset: the operand's name in the node;
                               // position: the index of the (first) node that produces it, at or after
                               // this one; reason: ctnn::onnx::node_order
  qdq_group,                   // operator_code, input_slot: a QDQ group's operand that no integer op takes
                               // (frontend/onnx/import_qdq.hpp)
  symbolic_dimension,          // byte_offset: the graph input's name; axis; reason: ctnn::onnx::dimension_problem;
                               // actual: its declared shape (-1 = symbolic); unbound: expected = [the dim_param's
                               // byte offset, its length] (empty: none), the diagnostic's op_name its text;
                               // shape_differs: expected = the --input-shape binding
  output_shape_differs,        // byte_offset: the graph output's name; axis: the first static extent that differs (a
                               // rank that differs is not checked); expected: the computed shape; actual: the declared
};
inline constexpr std::int32_t first_onnx_error = 300;
inline constexpr std::int32_t last_onnx_error = static_cast<std::int32_t>(onnx_error::output_shape_differs);

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
  unaligned_integers, // an int32/int64 constant of a plain integer op whose raw_data is not aligned to its
                      // element size (it is read in place)
  computed_integers,  // integers computed at import (Shape, Size, Range, ... folded: import_known.hpp) of a rank
                      // above 4 that an op reads as a tensor, or that are a graph output: no relayout holds them
  computed_integers_capacity,  // more integers computed at import than the importer's store holds
};

constexpr std::string_view name_of(tensor_feature f) {
  switch (f) {
    case tensor_feature::external_data: return "external data";
    case tensor_feature::segments: return "segments";
    case tensor_feature::unpacked_values: return "unpacked float values";
    case tensor_feature::sparse: return "a sparse initializer";
    case tensor_feature::unaligned_integers: return "integer data not aligned to its element size";
    case tensor_feature::computed_integers: return "integers computed at import, of a rank above 4, read as a tensor";
    case tensor_feature::computed_integers_capacity: return "more integers computed at import than the importer holds";
  }
  return {};
}

// Why a graph input's symbolic dimension has no extent (onnx_error::symbolic_dimension; dim_bindings.hpp).
enum class dimension_problem : std::int32_t {
  unbound = 1,    // no binding gives it (and it is not the first axis, which is bound to 1)
  shape_differs,  // an input-shape binding has another rank, or another extent where the model's is static
};

// Why a node reads a value that it or a later node produces (onnx_error::operand_produced_later). ONNX
// lists a graph's nodes in topological order.
enum class node_order : std::int32_t {
  out_of_order = 1,  // the producer does not depend on the reading node's result: a topological sort fixes it
  cycle,             // the producer is the reading node, or depends on its result: no order exists
  unknown,           // not determined (the importer's value table was full)
};

constexpr std::string_view name_of(node_order o) {
  switch (o) {
    case node_order::out_of_order: return "nodes out of order";
    case node_order::cycle: return "a cycle";
    case node_order::unknown: return "a cycle or nodes out of order";
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
    case onnx_error::too_many_model_io: return "onnx_too_many_model_io";
    case onnx_error::integer_arithmetic: return "onnx_integer_arithmetic";
    case onnx_error::symbolic_dimension: return "onnx_symbolic_dimension";
    case onnx_error::output_shape_differs: return "onnx_output_shape_differs";
    case onnx_error::unsupported_rank: return "onnx_unsupported_rank";
    case onnx_error::operand_type: return "onnx_operand_type";
    case onnx_error::operand_value: return "onnx_operand_value";
    case onnx_error::undefined_operand: return "onnx_undefined_operand";
    case onnx_error::operand_produced_later: return "onnx_operand_produced_later";
    case onnx_error::qdq_group: return "onnx_qdq_group";
  }
  return "?";
}

// The sentence of each code at run time: ctnn-inspect and ctnn-run print it above the line that names the
// node or value and gives the numbers (describe.hpp), hence "below". It states what the static_assert of
// its compile-error class (compile_errors.hpp) states, whose numbers are its template arguments.
constexpr std::string_view sentence_of(onnx_error e) {
  switch (e) {
    case onnx_error::malformed_model:
      return "ctnn::onnx: the model file is malformed or truncated: the protobuf reader did not find what it "
             "expected at the byte offset below.";
    case onnx_error::unsupported_operator:
      return "ctnn::onnx: the model uses an operator that ctnn does not support (the node below: its index in the "
             "graph and its op_type, with its domain when that is not ai.onnx).";
    case onnx_error::unsupported_attribute:
      return "ctnn::onnx: an attribute of this node has a value ctnn does not support (the node, the attribute and "
             "its value are below; floats in millionths).";
    case onnx_error::unsupported_operand:
      return "ctnn::onnx: this operand of the node must be a constant (an initializer or a Constant node) of the type "
             "and shape the op reads: float weights, bias and bounds; int64 shapes and pads.";
    case onnx_error::output_count:
      return "ctnn::onnx: this node has more than one output in use (inference uses one).";
    case onnx_error::unsupported_tensor_type:
      return "ctnn::onnx: a model input or constant has an element type ctnn does not support here (FLOAT, UINT8, INT8, "
             "INT32, INT64 or BOOL activations; FLOAT weights; INT64 shapes and pads).";
    case onnx_error::no_static_shape:
      return "ctnn::onnx: a model input has no static shape (no shape at all, or too many elements): export the model "
             "with its input shape, or give it (--input-shape INPUT=D0,D1,...; ONNX_DIMS \"INPUT=[D0,D1,...]\").";
    case onnx_error::rank_too_high:
      return "ctnn::onnx: a tensor has more than ctnn::max_rank (6) dimensions.";
    case onnx_error::unsupported_tensor_feature:
      return "ctnn::onnx: a tensor uses a storage feature ctnn does not read (named below).";
    case onnx_error::too_many_model_io:
      return "ctnn::onnx: the model has more inputs or outputs than ctnn::max_model_io (8).";
    case onnx_error::integer_arithmetic:
      return "ctnn::onnx: the operands of this element-wise op have different element types (plain integer "
             "arithmetic takes two integer operands of one type: uint8, int8, int32 or int64).";
    case onnx_error::unsupported_rank:
      return "ctnn::onnx: this operand of the node has a rank the op does not support (Conv, ConvInteger, QLinearConv, "
             "MaxPool, AveragePool, LpPool and BatchNormalization: 3 = 1-D or 4 = 2-D; GlobalAveragePool: 3 or 4; Gemm: 2; "
             "LRN: 3 or more); "
             "the node, the operand and its shape are below.";
    case onnx_error::operand_type:
      return "ctnn::onnx: this operand of the node has an element type the op does not support here (scales FLOAT; "
             "zero points, quantized data and weights UINT8 or INT8; biases INT32; shapes and pads INT64).";
    case onnx_error::operand_value:
      return "ctnn::onnx: a value of this constant operand is out of the range the op accepts (scales finite and "
             "positive, zero points inside their type, shape extents below 2^31); the node, the operand, the element "
             "index and the value are below.";
    case onnx_error::undefined_operand:
      return "ctnn::onnx: this node reads a value that no graph input, initializer or node produces (the node, the "
             "value's name and the operand are below).";
    case onnx_error::operand_produced_later:
      return "ctnn::onnx: this node reads a value that a later node (or the node itself) produces: ONNX lists nodes in "
             "topological order, which nodes in a cycle do not have (below: the node, the value, its producer and "
             "whether the nodes form a cycle or are out of order).";
    case onnx_error::qdq_group:
      return "ctnn::onnx: this operand of the node is part of a QDQ group that ctnn cannot lower to integer "
             "ops (docs/frontends.md, QDQ models): a DequantizeLinear of integer weights and a Conv, Gemm "
             "or MatMul over them are read only by that op and its QuantizeLinear; weight scales per tensor "
             "or along the output channels; a bias INT32 with zero point 0 and scale x_scale * w_scale.";
    case onnx_error::symbolic_dimension:
      return "ctnn::onnx: a model input has a symbolic dimension (a dim_param name, or no extent) that no binding "
             "gives an extent: bind it by name (ctnn-run/ctnn-inspect --dim NAME=N; ctnn_add_model(... ONNX_DIMS "
             "NAME=N); ctnn::onnx::model's Dims \"NAME=N\"), or give the input's whole shape (--input-shape "
             "INPUT=D0,D1,...; \"INPUT=[D0,D1,...]\"). A symbolic first axis (the batch) is bound to 1 unless bound.";
    case onnx_error::output_shape_differs:
      return "ctnn::onnx: a graph output's declared shape has a static extent other than the one its nodes compute "
             "(a symbolic extent takes the computed one): the model, or the bindings of its input dimensions, "
             "disagree with the declaration.";
  }
  return {};
}

}  // namespace ctnn::onnx

