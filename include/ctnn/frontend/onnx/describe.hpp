#pragma once
// An ONNX import diagnostic in words, at run time (ctnn-inspect): the sentence of the compile error
// (onnx/errors.hpp) and its numbers with names, value names read from the file.
//
//   ctnn::onnx::describe(m.error, bytes, size, sink);   // sink: any callable taking std::string_view
//
//   error: ctnn::onnx: the model uses an operator that ctnn does not support ...
//     node 1 (Sub)
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <ctnn/frontend/onnx/errors.hpp>
#include <ctnn/frontend/onnx/schema.hpp>
#include <ctnn/frontend/protobuf.hpp>
#include <ctnn/frontend/tflite/describe.hpp>
#include <ctnn/ir/diagnostic.hpp>

namespace ctnn::onnx {

namespace detail {

template <class Sink>
void put_node(Sink& out, const diagnostic& d) {
  out("node ");
  tflite::detail::put_number(out, d.node);
  out(" (");
  const std::string_view type = name_of(static_cast<op_type>(d.value_a));
  out(type.empty() ? std::string_view{"an operator outside ai.onnx's list"} : type);
  out(")");
}

// The value whose name starts at byte `offset` (a protobuf string: the varint length is before it, so
// the name is read up to the first byte that cannot be part of it, at most 64 characters).
template <class Sink>
void put_value(Sink& out, std::int64_t offset, const char* bytes, std::size_t size) {
  out("value \"");
  std::size_t end = static_cast<std::size_t>(offset);
  while (end < size && end - static_cast<std::size_t>(offset) < 64 && static_cast<unsigned char>(bytes[end]) >= 0x20 &&
         static_cast<unsigned char>(bytes[end]) < 0x7f)
    ++end;
  if (offset >= 0 && static_cast<std::size_t>(offset) <= size) out(std::string_view{bytes + offset, end - static_cast<std::size_t>(offset)});
  out("\" (name at byte ");
  tflite::detail::put_number(out, offset);
  out(")");
}

}  // namespace detail

// Writes "error: <sentence>\n  <numbers with names>\n" for a diagnostic of an ONNX import; the IR's own
// codes are worded as for any frontend (tflite::describe).
template <class Sink>
void describe(const diagnostic& d, const char* bytes, std::size_t size, Sink&& out) {
  using tflite::detail::put_number;
  if (!is_onnx_error(d.code)) return tflite::describe(d, out);
  const auto code = static_cast<onnx_error>(d.code);
  out("error: ");
  out(sentence_of(code));
  out("\n  ");
  switch (code) {
    case onnx_error::malformed_model:
      out("byte offset ");
      put_number(out, d.value_a);
      out(": expected ");
      out(protobuf::name_of(static_cast<protobuf::expectation>(d.value_b)));
      break;
    case onnx_error::unsupported_operator: detail::put_node(out, d); break;
    case onnx_error::unsupported_attribute:
      detail::put_node(out, d);
      out(", attribute ");
      out(name_of(static_cast<attribute>(d.value_b)));
      out(" = ");
      put_number(out, d.expected.dims[0]);
      break;
    case onnx_error::unsupported_operand:
    case onnx_error::integer_arithmetic:
      detail::put_node(out, d);
      out(", operand ");
      put_number(out, d.value_b);
      break;
    case onnx_error::output_count:
      detail::put_node(out, d);
      out(", outputs ");
      put_number(out, d.value_b);
      break;
    case onnx_error::unsupported_tensor_type: {
      detail::put_value(out, d.value_a, bytes, size);
      out(", type ");
      const std::string_view type = name_of(static_cast<data_type>(d.value_b));
      if (type.empty()) put_number(out, d.value_b);
      else out(type);
      break;
    }
    case onnx_error::no_static_shape:
      detail::put_value(out, d.value_a, bytes, size);
      out(", shape ");
      tflite::detail::put_shape(out, d.actual);
      break;
    case onnx_error::rank_too_high:
      detail::put_value(out, d.value_a, bytes, size);
      out(", rank ");
      put_number(out, d.value_b);
      break;
    case onnx_error::unsupported_tensor_feature:
      detail::put_value(out, d.value_a, bytes, size);
      out(", ");
      out(name_of(static_cast<tensor_feature>(d.value_b)));
      break;
    case onnx_error::too_many_model_io:
      out(d.value_a == 0 ? "inputs " : "outputs ");
      put_number(out, d.value_b);
      break;
  }
  out("\n");
}

}  // namespace ctnn::onnx
