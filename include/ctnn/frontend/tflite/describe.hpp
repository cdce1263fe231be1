#pragma once
// A TFLite import diagnostic in words, at run time (ctnn-inspect, ctnn-run): the code's sentence, then a
// line with its numbers with names.
//
//   ctnn::tflite::describe(m.error, sink);   // sink: any callable taking std::string_view
//
//   error: ctnn::tflite: hybrid models (float32 activations with int8 weights) are not supported: ...
//     op 0 (CONV_2D), weight tensor 17
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <ctnn/frontend/flatbuffers.hpp>
#include <ctnn/frontend/flexbuffers.hpp>
#include <ctnn/frontend/tflite/schema.hpp>
#include <ctnn/ir/diagnostic.hpp>
#include <ctnn/ir/diagnostic_text.hpp>
#include <ctnn/ir/op_kind.hpp>

namespace ctnn::tflite {

// The sentence of a diagnostic at run time: ctnn-inspect and ctnn-run print it above the line that names
// the op or tensor and gives the numbers (describe below), hence "below". It states what the static_assert
// of its compile-error class (compile_errors.hpp) states, whose numbers are its template arguments. The
// IR's own codes: ir/diagnostic_text.hpp.
constexpr std::string_view sentence_of(error_code code) {
  if (!is_frontend_error(code)) return diagnostic_sentence(code);
  switch (static_cast<frontend_error>(code)) {
    case frontend_error::tflite_malformed_model:
      return "ctnn::tflite: the model file is malformed or truncated: the reader did not find what it expected at "
             "the byte offset below.";
    case frontend_error::tflite_unsupported_operator:
      return "ctnn::tflite: the model uses an operator that ctnn does not support (the op below: its index in "
             "execution order and its TFLite builtin operator).";
    case frontend_error::tflite_unsupported_activation:
      return "ctnn::tflite: this op's fused activation is not supported (NONE, RELU and RELU6 are).";
    case frontend_error::tflite_unsupported_padding:
      return "ctnn::tflite: this op's padding is neither SAME (0) nor VALID (1).";
    case frontend_error::tflite_invalid_window:
      return "ctnn::tflite: a stride, dilation or window size of this op is below 1.";
    case frontend_error::tflite_softmax_beta:
      return "ctnn::tflite: only SOFTMAX with beta = 1 is supported (the op's beta is below, in millionths).";
    case frontend_error::tflite_unsupported_fully_connected:
      return "ctnn::tflite: this FULLY_CONNECTED uses a feature ctnn does not support (named below).";
    case frontend_error::tflite_hybrid_model:
      return "ctnn::tflite: hybrid models (float32 activations with int8 weights) are not supported: convert the "
             "model with full-integer quantization, or keep it float32 (the op and its weight tensor are below).";
    case frontend_error::tflite_unsupported_tensor_type:
      return "ctnn::tflite: a tensor has an element type ctnn does not support (FLOAT32, INT8, UINT8, INT16, "
             "INT32, INT64 and BOOL are supported).";
    case frontend_error::tflite_no_static_shape:
      return "ctnn::tflite: a tensor has no static shape (an extent that is -1, 0 or unknown): convert the model with "
             "a fixed batch size and input shape.";
    case frontend_error::tflite_rank_too_high:
      return "ctnn::tflite: a tensor has more than ctnn::max_rank (6) dimensions.";
    case frontend_error::tflite_unsupported_tensor_feature:
      return "ctnn::tflite: a tensor uses a feature ctnn does not support (named below).";
    case frontend_error::tflite_constant_size_mismatch:
      return "ctnn::tflite: a constant tensor's buffer does not hold as many bytes as its shape and type need (shape "
             "and buffer bytes below).";
    case frontend_error::tflite_unsupported_operand:
      return "ctnn::tflite: this operand of the op must be a constant of the type the op reads (weights and bias; "
             "int32 paddings, axes and shapes of the right size), and an operand ctnn does not implement must be "
             "absent (UNIDIRECTIONAL_SEQUENCE_LSTM: layer norm; its peepholes and input gate all or none).";
    case frontend_error::tflite_output_count:
      return "ctnn::tflite: this op does not have exactly one output.";
    case frontend_error::tflite_too_many_model_io:
      return "ctnn::tflite: the model has more inputs or outputs than ctnn::max_model_io (8).";
    case frontend_error::tflite_invalid_quantization:
      return "ctnn::tflite: a tensor's quantization parameters are invalid (the problem is named below).";
    case frontend_error::tflite_unrepresentable_multiplier:
      return "ctnn::tflite: the quantization scales of this op give a requantization multiplier that TFLite cannot "
             "represent (its shift is below: at most 31, at most 0 for HARD_SWISH, and 0 or more for LOGISTIC, TANH "
             "and SOFTMAX).";
    case frontend_error::tflite_unsupported_option:
      return "ctnn::tflite: an option of this op has a value ctnn does not support (the option's field in the "
             "op's options table and its value are below).";
    case frontend_error::tflite_invalid_custom_options:
      return "ctnn::tflite: this custom operator's custom_options cannot be used (the problem and the key are below).";
    case frontend_error::tflite_uint8_operand:
      return "ctnn::tflite: this op reads or writes a UINT8 tensor, which TFLM runs only at QUANTIZE (uint8 to int8, "
             "int8 to uint8), DEQUANTIZE (uint8 to float32) and the ops that move bytes (REVERSE_V2, RESHAPE, SQUEEZE, "
             "BROADCAST_TO, SHAPE): the op and the tensor are below.";
    case frontend_error::tflite_unsupported_init_subgraph:
      return "ctnn::tflite: this CALL_ONCE's init subgraph does more than assign constants to resource variables "
             "(VAR_HANDLE and ASSIGN_VARIABLE of a constant, which the import evaluates; the subgraph and its op "
             "are below).";
  }
  return {};
}

namespace detail {

using ctnn::detail::diagnostic_text::put_malformed;
using ctnn::detail::diagnostic_text::put_model_io_count;
using ctnn::detail::diagnostic_text::put_name_or_number;
using ctnn::detail::diagnostic_text::put_number;  // ir/diagnostic_text.hpp
using ctnn::detail::diagnostic_text::put_shape;

template <class Sink>
void put_op(Sink& out, const diagnostic& d, bool with_code) {
  out("op ");
  put_number(out, d.node);
  out(" (");
  if (with_code) {
    const std::string_view n = name_of(static_cast<builtin_operator>(d.operator_code));
    if (n.empty()) {
      out("builtin code ");
      put_number(out, d.operator_code);
    } else {
      out(n);
    }
  } else {
    out(name_of(d.kind));
  }
  if (!d.op_name.empty()) {  // the op's result tensor name, as the compile error's node_named spells it
    out(" \"");
    out(d.op_name.view());
    out("\"");
  }
  out(")");
}

}  // namespace detail

// Writes "error: <sentence>\n  <numbers with names>\n" for a diagnostic of a TFLite import.
template <class Sink>
void describe(const diagnostic& d, Sink&& out) {
  using detail::put_number;
  if (!d.failed()) return out("ok\n");
  const std::string_view sentence = sentence_of(d.code);
  out("error: ");
  if (sentence.empty()) {
    out("error code ");
    put_number(out, static_cast<std::int64_t>(d.code));
  } else {
    out(sentence);
  }
  out("\n  ");
  const auto tensor = [&] {
    out("tensor ");
    put_number(out, d.tensor);
  };
  if (!is_frontend_error(d.code)) {
    if (d.node >= 0) detail::put_op(out, d, false), out(": ");
    put_diagnostic_numbers(d, out);
    return out("\n");
  }
  switch (static_cast<frontend_error>(d.code)) {
    case frontend_error::tflite_malformed_model:
      detail::put_malformed(out, d, flatbuffers::name_of(static_cast<flatbuffers::expectation>(d.reason)));
      break;
    case frontend_error::tflite_unsupported_operator:
      detail::put_op(out, d, true);
      break;
    case frontend_error::tflite_unsupported_activation:
      detail::put_op(out, d, true);
      out(", fused activation ");
      out(name_of(static_cast<activation_function>(d.rejected_value)));
      out(" (");
      put_number(out, d.rejected_value);
      out(")");
      break;
    case frontend_error::tflite_unsupported_padding:
      detail::put_op(out, d, true);
      out(", padding ");
      put_number(out, d.rejected_value);
      break;
    case frontend_error::tflite_invalid_window:
      detail::put_op(out, d, true);
      out(", value ");
      put_number(out, d.rejected_value);
      break;
    case frontend_error::tflite_softmax_beta:
      detail::put_op(out, d, true);
      out(", beta ");
      put_number(out, d.rejected_value);
      out(" millionths");
      break;
    case frontend_error::tflite_unsupported_fully_connected:
      detail::put_op(out, d, true);
      out(", ");
      out(name_of(static_cast<fully_connected_feature>(d.reason)));
      break;
    case frontend_error::tflite_hybrid_model:
      detail::put_op(out, d, true);
      out(", weight tensor ");
      put_number(out, d.tensor);
      break;
    case frontend_error::tflite_unsupported_tensor_type:
      tensor();
      out(", type ");
      detail::put_name_or_number(out, name_of(static_cast<tensor_type>(d.rejected_value)), d.rejected_value);
      break;
    case frontend_error::tflite_no_static_shape:
      tensor();
      out(", shape ");
      detail::put_shape(out, d.actual);
      break;
    case frontend_error::tflite_rank_too_high:
      tensor();
      out(", rank ");
      put_number(out, d.rank_actual);
      break;
    case frontend_error::tflite_unsupported_tensor_feature:  // at an op (a resource variable's use) or of the tensor alone
      if (d.node >= 0) detail::put_op(out, d, d.reason >= static_cast<std::int64_t>(tensor_feature::resource_use)), out(", ");
      tensor();
      out(", ");
      out(name_of(static_cast<tensor_feature>(d.reason)));
      break;
    case frontend_error::tflite_constant_size_mismatch:
      tensor();
      out(", shape ");
      detail::put_shape(out, d.expected);
      out(", buffer of ");
      put_number(out, d.bytes_available);
      out(" bytes");
      break;
    case frontend_error::tflite_unsupported_operand:
      detail::put_op(out, d, true);
      out(", operand ");
      put_number(out, d.input_slot);
      break;
    case frontend_error::tflite_output_count:
      detail::put_op(out, d, true);
      out(", outputs ");
      put_number(out, d.count_actual);
      break;
    case frontend_error::tflite_too_many_model_io: detail::put_model_io_count(out, d); break;
    case frontend_error::tflite_invalid_quantization:  // at an op (its kernel's requirement) or of the tensor alone
      if (d.node >= 0) detail::put_op(out, d, false), out(", ");
      tensor();
      out(", ");
      out(name_of(static_cast<quantization_problem>(d.reason)));
      break;
    case frontend_error::tflite_unrepresentable_multiplier:
      detail::put_op(out, d, true);
      out(", shift ");
      put_number(out, d.rejected_value);
      break;
    case frontend_error::tflite_unsupported_option:
      detail::put_op(out, d, true);
      out(", option field ");
      put_number(out, d.reason);
      out(", value ");
      put_number(out, d.rejected_value);
      break;
    case frontend_error::tflite_uint8_operand:
      detail::put_op(out, d, true);
      out(", UINT8 ");
      tensor();
      break;
    case frontend_error::tflite_unsupported_init_subgraph:
      out("op ");
      put_number(out, d.node);
      out(" (CALL_ONCE), subgraph ");
      put_number(out, d.position);
      if (d.input_slot >= 0) {
        out(", its op ");
        put_number(out, d.input_slot);
        out(" (");
        detail::put_name_or_number(out, name_of(static_cast<builtin_operator>(d.operator_code)), d.operator_code);
        out(")");
      }
      break;
    case frontend_error::tflite_invalid_custom_options: {
      detail::put_op(out, d, true);
      out(", custom_options: ");
      const auto problem = static_cast<custom_options_problem>(d.reason);
      out(name_of(problem));
      if (problem == custom_options_problem::malformed) {
        out(" (byte ");
        put_number(out, d.byte_offset);
        out(": ");
        out(flexbuffers::name_of(static_cast<flexbuffers::expectation>(d.rejected_value)));
        out(")");
        break;
      }
      // TFLite_Detection_PostProcess's keys: the one custom operator with options (import_plan.hpp's custom_op_table)
      constexpr auto keys = sizeof detection_postprocess_keys / sizeof detection_postprocess_keys[0];
      out(", key ");
      if (d.position >= 0 && static_cast<std::size_t>(d.position) < keys)
        out(detection_postprocess_keys[static_cast<std::size_t>(d.position)]);
      else
        put_number(out, d.position);
      if (problem == custom_options_problem::out_of_range) {
        out(", value ");
        put_number(out, d.rejected_value);
      }
      break;
    }
  }
  out("\n");
}

}  // namespace ctnn::tflite
