#pragma once
// The compile errors of the TFLite frontend (ctnn::tflite::model; frontend_error codes, ir/diagnostic.hpp):
// the classes its diagnostics become in ctnn::compile's diagnostic check (errors.hpp), with carriers for
// the file's own numbers. describe.hpp says the same in words.
#include <cstdint>
#include <type_traits>

#include <ctnn/errors.hpp>
#include <ctnn/frontend/flatbuffers.hpp>
#include <ctnn/frontend/tflite/schema.hpp>
#include <ctnn/ir/diagnostic.hpp>

namespace ctnn::errors {

// Carriers: a byte offset in the file, a tensor index, an op (index in execution order, TFLite builtin
// code and name: its output tensor's, node_named<...>) and a fixed-point number.
template <std::int64_t Offset> struct at_byte;
template <std::int64_t Index> struct at_tensor;
template <std::int32_t Index, tflite::builtin_operator Code, class Name> struct tflite_op;
template <std::int64_t Value> struct millionths;
template <std::int64_t Value>
struct shift;

template <class AtByte, flatbuffers::expectation Expected>
struct tflite_malformed_model {
  static_assert(detail::always_false<AtByte>, "ctnn::tflite: the model file is malformed or truncated: at the byte "
                                               "offset in the template arguments the reader did not find what the "
                                               "expectation there names.");
};
template <class Op>
struct tflite_unsupported_operator {
  static_assert(detail::always_false<Op>, "ctnn::tflite: the model uses an operator that ctnn does not support "
                                           "(its index in execution order and its TFLite builtin code are the "
                                           "template arguments).");
};
template <class Op, tflite::activation_function Fused>
struct tflite_unsupported_fused_activation {
  static_assert(detail::always_false<Op>, "ctnn::tflite: this op's fused activation is not supported (NONE, RELU "
                                           "and RELU6 are).");
};
template <class Op, class Padding>
struct tflite_unsupported_padding {
  static_assert(detail::always_false<Op>, "ctnn::tflite: this op's padding is neither SAME (0) nor VALID (1).");
};
template <class Op, class Value>
struct tflite_invalid_window {
  static_assert(detail::always_false<Op>, "ctnn::tflite: a stride, dilation or window size of this op is below 1.");
};
template <class Op, class Beta>
struct tflite_softmax_beta_not_one {
  static_assert(detail::always_false<Op>, "ctnn::tflite: only SOFTMAX with beta = 1 is supported (beta in "
                                           "millionths in the template arguments).");
};
template <class Op, tflite::fully_connected_feature Feature>
struct tflite_unsupported_fully_connected {
  static_assert(detail::always_false<Op>, "ctnn::tflite: this FULLY_CONNECTED uses a feature ctnn does not support "
                                           "(named in the template arguments).");
};
template <class Op, class WeightTensor>
struct tflite_hybrid_model {
  static_assert(detail::always_false<Op>, "ctnn::tflite: hybrid models (float32 activations with int8 weights) are "
                                           "not supported: convert the model with full-integer quantization, or "
                                           "keep it float32 (the op and its weight tensor in the template "
                                           "arguments).");
};
template <class Tensor, tflite::tensor_type Type>
struct tflite_unsupported_tensor_type {
  static_assert(detail::always_false<Tensor>, "ctnn::tflite: a tensor has an element type ctnn does not support "
                                               "(FLOAT32, INT8, UINT8, INT16, INT32, INT64 and BOOL are supported).");
};
template <class Tensor, class Shape>
struct tflite_no_static_shape {
  static_assert(detail::always_false<Tensor>, "ctnn::tflite: a tensor has no static shape (an extent that is -1, 0 "
                                               "or unknown): convert the model with a fixed batch size and input "
                                               "shape.");
};
template <class Tensor, class Rank>
struct tflite_rank_too_high {
  static_assert(detail::always_false<Tensor>, "ctnn::tflite: a tensor has more than ctnn::max_rank (6) dimensions.");
};
template <class Tensor, tflite::tensor_feature Feature>
struct tflite_unsupported_tensor_feature {
  static_assert(detail::always_false<Tensor>, "ctnn::tflite: a tensor uses a feature ctnn does not support (named in "
                                               "the template arguments).");
};
template <class Tensor, class Shape, class BufferBytes>
struct tflite_constant_size_mismatch {
  static_assert(detail::always_false<Tensor>, "ctnn::tflite: a constant tensor's buffer does not hold as many bytes "
                                               "as its shape and type need (shape and buffer bytes in the template "
                                               "arguments).");
};
template <class Op, class OperandSlot>
struct tflite_unsupported_operand {
  static_assert(detail::always_false<Op>, "ctnn::tflite: this operand of the op must be a constant of the type the "
                                           "op reads (weights and bias; int32 paddings, axes and shapes of the right "
                                           "size), and an operand ctnn does not implement must be absent "
                                           "(UNIDIRECTIONAL_SEQUENCE_LSTM: layer norm; its peepholes and input "
                                           "gate all or none).");
};
template <class Op, class Outputs>
struct tflite_output_count {
  static_assert(detail::always_false<Op>, "ctnn::tflite: this op does not have exactly one output.");
};
template <class Which, class Count>
struct tflite_too_many_model_io {
  static_assert(detail::always_false<Which>, "ctnn::tflite: the model has more inputs or outputs than "
                                              "ctnn::max_model_io (8).");
};
template <class Tensor, tflite::quantization_problem Problem>
struct tflite_invalid_quantization {
  static_assert(detail::always_false<Tensor>, "ctnn::tflite: a tensor's quantization parameters are invalid (the "
                                               "problem is named in the template arguments).");
};
template <class Op, class Shift>
struct tflite_unrepresentable_multiplier {
  static_assert(detail::always_false<Op>, "ctnn::tflite: the quantization scales of this op give a requantization "
                                           "multiplier that TFLite cannot represent (its shift is in the template "
                                           "arguments: at most 31, at most 0 for HARD_SWISH, and 0 or more for "
                                           "LOGISTIC, TANH and SOFTMAX).");
};
template <class Op, class Field, class Value>
struct tflite_unsupported_option {
  static_assert(detail::always_false<Op>, "ctnn::tflite: an option of this op has a value ctnn does not support (the "
                                           "option's field in the op's options table and its value are in the "
                                           "template arguments).");
};

template <class Op, tflite::custom_options_problem Problem, class Key, class Value>
struct tflite_invalid_custom_options {
  static_assert(detail::always_false<Op>, "ctnn::tflite: this custom operator's custom_options cannot be used (the "
                                           "problem, the key by its number and the value are in the template "
                                           "arguments; ctnn-inspect names the key).");
};

template <class Op, class Tensor>
struct tflite_uint8_operand {
  static_assert(detail::always_false<Op>, "ctnn::tflite: this op reads or writes a UINT8 tensor, which TFLM runs only "
                                           "at QUANTIZE (uint8 to int8, int8 to uint8), DEQUANTIZE (uint8 to "
                                           "float32) and the ops that move bytes (REVERSE_V2, RESHAPE, SQUEEZE, "
                                           "BROADCAST_TO, SHAPE): the op and the tensor are in the template "
                                           "arguments.");
};

template <class Op, class Subgraph, class OpThere, tflite::builtin_operator Code>
struct tflite_unsupported_init_subgraph {
  static_assert(detail::always_false<Op>, "ctnn::tflite: this CALL_ONCE's init subgraph does more than assign "
                                           "constants to resource variables (the subgraph, the op there and its "
                                           "builtin code are in the template arguments).");
};

}  // namespace ctnn::errors

namespace ctnn::tflite::detail {

// The errors:: class of a TFLite frontend diagnostic (frontend_error codes, ir/diagnostic.hpp).
template <diagnostic D>
constexpr auto tflite_error_type() {
  using op = errors::tflite_op<D.node, static_cast<tflite::builtin_operator>(D.operator_code),
                               ctnn::detail::node_named_t<D.op_name>>;
  using tensor = errors::at_tensor<D.tensor>;
  constexpr auto code = static_cast<frontend_error>(D.code);
  if constexpr (code == frontend_error::tflite_malformed_model)
    return std::type_identity<errors::tflite_malformed_model<errors::at_byte<D.byte_offset>,
                                                             static_cast<flatbuffers::expectation>(D.reason)>>{};
  else if constexpr (code == frontend_error::tflite_unsupported_operator) return std::type_identity<errors::tflite_unsupported_operator<op>>{};
  else if constexpr (code == frontend_error::tflite_unsupported_activation)
    return std::type_identity<
        errors::tflite_unsupported_fused_activation<op, static_cast<tflite::activation_function>(D.rejected_value)>>{};
  else if constexpr (code == frontend_error::tflite_unsupported_padding)
    return std::type_identity<errors::tflite_unsupported_padding<op, errors::count<D.rejected_value>>>{};
  else if constexpr (code == frontend_error::tflite_invalid_window)
    return std::type_identity<errors::tflite_invalid_window<op, errors::count<D.rejected_value>>>{};
  else if constexpr (code == frontend_error::tflite_softmax_beta)
    return std::type_identity<errors::tflite_softmax_beta_not_one<op, errors::millionths<D.rejected_value>>>{};
  else if constexpr (code == frontend_error::tflite_unsupported_fully_connected)
    return std::type_identity<
        errors::tflite_unsupported_fully_connected<op, static_cast<tflite::fully_connected_feature>(D.reason)>>{};
  else if constexpr (code == frontend_error::tflite_hybrid_model)
    return std::type_identity<errors::tflite_hybrid_model<op, tensor>>{};
  else if constexpr (code == frontend_error::tflite_unsupported_tensor_type)
    return std::type_identity<
        errors::tflite_unsupported_tensor_type<tensor, static_cast<tflite::tensor_type>(D.rejected_value)>>{};
  else if constexpr (code == frontend_error::tflite_no_static_shape)
    return std::type_identity<errors::tflite_no_static_shape<tensor, typename ctnn::detail::shape_type<D.actual>::type>>{};
  else if constexpr (code == frontend_error::tflite_rank_too_high)
    return std::type_identity<errors::tflite_rank_too_high<tensor, errors::count<D.rank_actual>>>{};
  else if constexpr (code == frontend_error::tflite_unsupported_tensor_feature)
    return std::type_identity<
        errors::tflite_unsupported_tensor_feature<tensor, static_cast<tflite::tensor_feature>(D.reason)>>{};
  else if constexpr (code == frontend_error::tflite_constant_size_mismatch)
    return std::type_identity<errors::tflite_constant_size_mismatch<
        tensor, typename ctnn::detail::shape_type<D.expected>::type, errors::count<D.bytes_available>>>{};
  else if constexpr (code == frontend_error::tflite_unsupported_operand)
    return std::type_identity<errors::tflite_unsupported_operand<op, errors::count<D.input_slot>>>{};
  else if constexpr (code == frontend_error::tflite_output_count)
    return std::type_identity<errors::tflite_output_count<op, errors::count<D.count_actual>>>{};
  else if constexpr (code == frontend_error::tflite_too_many_model_io)
    return std::type_identity<
        errors::tflite_too_many_model_io<errors::model_side<D.io_side>, errors::count<D.count_actual>>>{};
  else if constexpr (code == frontend_error::tflite_invalid_quantization)
    return std::type_identity<
        errors::tflite_invalid_quantization<tensor, static_cast<tflite::quantization_problem>(D.reason)>>{};
  else if constexpr (code == frontend_error::tflite_unrepresentable_multiplier)
    return std::type_identity<errors::tflite_unrepresentable_multiplier<op, errors::shift<D.rejected_value>>>{};
  else if constexpr (code == frontend_error::tflite_unsupported_option)
    return std::type_identity<errors::tflite_unsupported_option<op, errors::count<D.reason>, errors::count<D.rejected_value>>>{};
  else if constexpr (code == frontend_error::tflite_invalid_custom_options)
    return std::type_identity<errors::tflite_invalid_custom_options<op, static_cast<tflite::custom_options_problem>(D.reason),
                                                                    errors::count<D.position>, errors::count<D.rejected_value>>>{};
  else if constexpr (code == frontend_error::tflite_uint8_operand)
    return std::type_identity<errors::tflite_uint8_operand<op, tensor>>{};
  else if constexpr (code == frontend_error::tflite_unsupported_init_subgraph)
    return std::type_identity<errors::tflite_unsupported_init_subgraph<op, errors::count<D.position>, errors::count<D.input_slot>,
                                                                       static_cast<tflite::builtin_operator>(D.operator_code)>>{};
  else return std::type_identity<ctnn::detail::no_error>{};
}

}  // namespace ctnn::tflite::detail

namespace ctnn::detail {

template <diagnostic D>
  requires(is_frontend_error(D.code))
struct frontend_error_class<D> {
  using type = typename decltype(tflite::detail::tflite_error_type<D>())::type;
};

}  // namespace ctnn::detail
