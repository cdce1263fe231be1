#pragma once
// The IR's own diagnostics in words, at run time (ctnn-run, ctnn-inspect): the sentence of each error_code's
// compile error (the static_assert of its class in ctnn/errors.hpp) and its numbers, named.
//
//   ctnn::diagnostic_sentence(d.code)         // "" for the codes of the model-file frontends
//   ctnn::put_diagnostic_numbers(d, sink)     // "needs rank 4, given rank 3"; sink: any callable taking
//                                             // std::string_view
//   ctnn::describe_module_error(m, sink)      // "error: <sentence>\n  op 3 (add \"c\"): <numbers>\n": a
//                                             // pass's diagnostic, the op named from the module
//
// A frontend's diagnostic names a node of its file (onnx::describe, tflite::describe).
#include <charconv>
#include <cstdint>
#include <string_view>

#include <ctnn/ir/diagnostic.hpp>
#include <ctnn/ir/dtype.hpp>
#include <ctnn/ir/op_kind.hpp>
#include <ctnn/ir/shape.hpp>

namespace ctnn {

constexpr std::string_view diagnostic_sentence(error_code code) {
  if (is_memory_error(code)) {
    switch (static_cast<memory_error>(code)) {
      case memory_error::pool_budget_exceeded:
        return "ctnn: the model needs more memory than a pool's limit allows; raise the limit, add a fallback pool, "
               "or unpin buffers from it.";
      case memory_error::pin_unknown_tensor:
        return "ctnn: a ctnn::pin<> names a tensor (or ctnn::pin_op<> an op) that has no buffer to place.";
      case memory_error::pin_unknown_pool:
        return "ctnn: a ctnn::pin<> names a pool that is not among the model's writable pools.";
      case memory_error::pin_ambiguous_tensor_name:
        return "ctnn: a ctnn::pin<> names a tensor name that two tensors share; pin the tensor by its op instead "
               "(ctnn::pin_op<>).";
    }
    return {};
  }
  switch (code) {
    case error_code::none: return {};
    case error_code::input_shapes_differ: return "ctnn: the inputs of this op have shapes that cannot be combined.";
    case error_code::weight_count_mismatch:
      return "ctnn: the weight array of this op has the wrong number of elements (conv2d weights are OHWI).";
    case error_code::bias_count_mismatch: return "ctnn: the bias array of this op needs one element per output channel.";
    case error_code::weights_and_bias_disagree:
      return "ctnn: the weights and the bias of this op imply different output counts; fix the wrong one.";
    case error_code::channels_not_divisible: return "ctnn: conv2d groups must divide both the input and output channels.";
    case error_code::window_larger_than_input: return "ctnn: the window of this conv/pool op does not fit its (padded) input.";
    case error_code::reshape_element_count: return "ctnn: a reshape must keep the number of elements.";
    case error_code::invalid_reshape_target:
      return "ctnn: a reshape extent is positive, 0 (keep) or -1 (infer), with at most one -1.";
    case error_code::window_all_padding:
      return "ctnn: a window of this pooling op covers only padding; use smaller pads or dilation.";
    case error_code::pads_beyond_rank: return "ctnn: this pad op gives (before, after) pads for a dimension its input does not have.";
    case error_code::unsupported_rank: return "ctnn: this op needs an input of another rank (NHWC ops need rank 4).";
    case error_code::invalid_axis: return "ctnn: the axis of this op is out of range for its input's rank.";
    case error_code::unknown_input_name: return "ctnn::dsl::graph: a node names an input that no earlier node has.";
    case error_code::too_many_inputs: return "ctnn: this op has more inputs than ctnn::max_node_inputs.";
    case error_code::input_count_mismatch: return "ctnn: this op is given the wrong number of inputs.";
    case error_code::unsupported_dtype: return "ctnn: no kernel for this op with this element type yet.";
    case error_code::pass_prerequisite_missing:
      return "ctnn: a pass in the pipeline runs before the pass that produces what it reads.";
    case error_code::no_model_outputs:
      return "ctnn: the model has no outputs (its graph's output list is empty): nothing it computes would be kept.";
    case error_code::extent_too_large:
      return "ctnn: this op's result would have an extent above 2^31 - 1 (the dimension and extent below).";
    case error_code::pipeline_rejected:
      return "ctnn: the pipeline was rejected: a pass's interface or order (reported already, as a compile error).";
  }
  return {};
}

namespace detail::diagnostic_text {

template <class Sink>
void put_number(Sink& out, std::int64_t value) {
  char text[24];
  const auto end = std::to_chars(text, text + sizeof text, value).ptr;
  out(std::string_view{text, static_cast<std::size_t>(end - text)});
}

template <class Sink>
void put_shape(Sink& out, const shape& s) {
  out("[");
  for (std::int32_t d = 0; d < s.rank; ++d) {
    if (d > 0) out(",");
    put_number(out, s[d]);
  }
  out("]");
}

// A byte count with thousands separators: "12,345 B".
template <class Sink>
void put_bytes(Sink& out, std::int64_t bytes) {
  char text[24];
  const auto end = std::to_chars(text, text + sizeof text, bytes < 0 ? -bytes : bytes).ptr;
  const auto digits = static_cast<std::size_t>(end - text);
  if (bytes < 0) out("-");
  for (std::size_t i = 0; i < digits; ++i) {
    if (i > 0 && (digits - i) % 3 == 0) out(",");
    out(std::string_view{text + i, 1});
  }
  out(" B");
}

// The name a diagnostic carries (ir/diagnostic.hpp: diagnostic_name), quoted.
template <class Sink>
void put_carried_name(Sink& out, const diagnostic& d) {
  char text[diagnostic_name_capacity];
  const auto length = static_cast<std::size_t>(d.actual.rank);
  for (std::size_t i = 0; i < length && i < diagnostic_name_capacity; ++i) text[i] = diagnostic_name_char(d.actual, i);
  out("'");
  out(std::string_view{text, length < diagnostic_name_capacity ? length : diagnostic_name_capacity});
  out("'");
}

// "<before>[expected]<middle>[actual]": the diagnostic's two shapes.
template <class Sink>
void put_shapes(Sink& out, const diagnostic& d, std::string_view before, std::string_view middle) {
  out(before);
  put_shape(out, d.expected);
  out(middle);
  put_shape(out, d.actual);
}

// "<before>a<middle>b<after>".
template <class Sink>
void put_pair(Sink& out, std::string_view before, std::int64_t a, std::string_view middle, std::int64_t b,
              std::string_view after = {}) {
  out(before);
  put_number(out, a);
  out(middle);
  put_number(out, b);
  out(after);
}

// The words the model-file frontends share (ctnn::tflite::describe, ctnn::onnx::describe).
// An enumerator by its name, or its number when the name is unknown (a value the file invented).
template <class Sink>
void put_name_or_number(Sink& out, std::string_view name, std::int64_t number) {
  if (name.empty())
    put_number(out, number);
  else
    out(name);
}
// "byte offset 44: expected <what the reader expected>" (a malformed model file).
template <class Sink>
void put_malformed(Sink& out, const diagnostic& d, std::string_view expectation) {
  out("byte offset ");
  put_number(out, d.byte_offset);
  out(": expected ");
  out(expectation);
}
// "inputs 9" or "outputs 9" (too many model inputs or outputs).
template <class Sink>
void put_model_io_count(Sink& out, const diagnostic& d) {
  out(d.io_side == 0 ? "inputs " : "outputs ");
  put_number(out, d.count_actual);
}

}  // namespace detail::diagnostic_text

// "name value, name value" for each detail that is not 0 (a code whose words this header does not know).
template <class Sink>
void put_diagnostic_details(const diagnostic& d, Sink&& out) {
  bool first = true;
  for (const diagnostic_detail_field& field : diagnostic_detail_fields) {
    if (d.*field.member == 0) continue;
    out(first ? "" : ", ");
    out(field.name);
    out(" ");
    detail::diagnostic_text::put_number(out, d.*field.member);
    first = false;
  }
}

// The numbers of an IR diagnostic with their meaning (the fields ir/diagnostic.hpp documents per code).
template <class Sink>
void put_diagnostic_numbers(const diagnostic& d, Sink&& out) {
  namespace text = detail::diagnostic_text;
  if (is_memory_error(d.code)) {
    switch (static_cast<memory_error>(d.code)) {
      case memory_error::pool_budget_exceeded:  // "pool 'sram' needs 12,345 B, budget 10,000 B, over by 2,345 B"
        out("pool ");
        text::put_carried_name(out, d);
        out(" needs ");
        text::put_bytes(out, d.bytes_needed);
        out(", budget ");
        text::put_bytes(out, d.bytes_available);
        out(", over by ");
        return text::put_bytes(out, d.bytes_needed - d.bytes_available);
      case memory_error::pin_ambiguous_tensor_name:  // "pin 1: tensor name 'x' is shared by tensors 3 and 7"
        out("pin ");
        text::put_number(out, d.position);
        out(": tensor name ");
        text::put_carried_name(out, d);
        return text::put_pair(out, " is shared by tensors ", d.tensor, " and ", d.other_tensor);
      case memory_error::pin_unknown_tensor:
      case memory_error::pin_unknown_pool: out("pin "); return text::put_number(out, d.position);
    }
    return;
  }
  switch (d.code) {
    case error_code::input_shapes_differ: return text::put_shapes(out, d, "shapes ", " and ");
    case error_code::weight_count_mismatch:
      return text::put_pair(out, "needs ", d.count_expected, " weight elements, given ", d.count_actual);
    case error_code::bias_count_mismatch:
      return text::put_pair(out, "needs ", d.count_expected, " bias elements, given ", d.count_actual);
    case error_code::weights_and_bias_disagree:
      text::put_pair(out, "weights of ", d.weight_elements, " elements, bias of ", d.bias_elements,
                     " elements; weights per output ");
      return text::put_shape(out, d.expected);
    case error_code::channels_not_divisible:
      return text::put_pair(out, "", d.channels, " channels, ", d.groups, " groups");
    case error_code::window_larger_than_input:
      out("input ");
      text::put_shape(out, d.actual);
      return text::put_pair(out, ", window ", d.expected[0], " x ", d.expected[1]);
    case error_code::reshape_element_count:
    case error_code::invalid_reshape_target: return text::put_shapes(out, d, "target ", ", input ");
    case error_code::window_all_padding:
      text::put_pair(out, "along dim ", d.axis, " (1 = H, 2 = W) at output position ", d.output_position, ", input ");
      return text::put_shape(out, d.actual);
    case error_code::pads_beyond_rank:
      return text::put_pair(out, "pads for dim ", d.axis, " of a rank-", d.rank_actual, " input");
    case error_code::unsupported_rank:
      text::put_pair(out, "needs rank ", d.rank_expected, ", given rank ", d.rank_actual);
      if (d.actual.rank <= 0) return;
      out(" ");
      return text::put_shape(out, d.actual);
    case error_code::invalid_axis: return text::put_pair(out, "axis ", d.axis, " for rank ", d.rank_actual);
    case error_code::unknown_input_name:
      return text::put_pair(out, "input slot ", d.input_slot, ", node position ", d.position);
    case error_code::too_many_inputs:
      return text::put_pair(out, "", d.count_actual, " inputs, the limit is ", d.count_expected);
    case error_code::input_count_mismatch:
      return text::put_pair(out, "takes ", d.count_expected, " inputs, given ", d.count_actual);
    case error_code::unsupported_dtype:
      out("element type ");
      out(name_of(static_cast<dtype>(d.rejected_value)));
      if (d.faulty_operand <= 0) return;
      // An int8 operand is at fault for its missing quantization; any other for its type (an operand whose
      // type is not the op's: select's y, a comparison's second operand).
      out(static_cast<dtype>(d.rejected_value) == dtype::i8
              ? ", without the quantization (scale, zero point) of operand "
              : ", the type of operand ");
      return text::put_number(out, d.faulty_operand - 1);
    case error_code::pass_prerequisite_missing:
      return text::put_pair(out, "pipeline position ", d.position, ", missing facts (bits) ", d.missing_facts);
    case error_code::no_model_outputs: return text::put_pair(out, "", d.count_expected, " input(s), ", 0, " outputs");
    case error_code::extent_too_large: return text::put_pair(out, "dimension ", d.axis, ", extent ", d.count_actual);
    case error_code::none:
    case error_code::pipeline_rejected: return;  // reported already, as a compile error of the pipeline
    default: return put_diagnostic_details(d, out);  // another frontend's code
  }
}

// The diagnostic of a module a pass rejected: its sentence, the op (index, kind and label) and the numbers.
template <class Module, class Sink>
void describe_module_error(const Module& m, Sink&& out) {
  const diagnostic& d = m.error;
  if (!d.failed()) return;
  out("error: ");
  out(diagnostic_sentence(d.code).empty() ? std::string_view{"ctnn: the model cannot be compiled"} : diagnostic_sentence(d.code));
  out("\n  ");
  if (d.node >= 0 && d.node < m.node_count) {
    out("op ");
    detail::diagnostic_text::put_number(out, d.node);
    out(" (");
    out(name_of(d.kind));
    out(" \"");
    out(m.node_at(d.node).label.view());
    out("\"): ");
  }
  put_diagnostic_numbers(d, out);
  out("\n");
}

}  // namespace ctnn
