#pragma once
// An ONNX import diagnostic in words, at run time (ctnn-inspect, ctnn-run): the code's sentence (sentence_of
// in onnx/errors.hpp: what the compile error states, worded for the command line; the IR's own codes:
// ir/diagnostic_text.hpp), then a line with its numbers with names: the node's op_type and name and the
// values' names read from the file.
//
//   ctnn::onnx::describe(m.error, bytes, size, sink);   // sink: any callable taking std::string_view
//
//   error: ctnn::onnx: the model uses an operator that ctnn does not support ...
//     node 1 (Sub "sub_1")
#include <bit>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <ctnn/frontend/onnx/errors.hpp>
#include <ctnn/frontend/onnx/schema.hpp>
#include <ctnn/frontend/protobuf.hpp>
#include <ctnn/ir/diagnostic.hpp>
#include <ctnn/ir/diagnostic_text.hpp>

namespace ctnn::onnx {

namespace detail {

using ctnn::detail::diagnostic_text::put_malformed;
using ctnn::detail::diagnostic_text::put_model_io_count;
using ctnn::detail::diagnostic_text::put_name_or_number;
using ctnn::detail::diagnostic_text::put_number;
using ctnn::detail::diagnostic_text::put_shape;

// The file's text at [offset, offset + length), or "" when that is not inside the file.
inline std::string_view file_text(const char* bytes, std::size_t size, std::int64_t offset, std::int64_t length) {
  if (offset < 0 || length < 0 || static_cast<std::uint64_t>(offset) + static_cast<std::uint64_t>(length) > size) return {};
  return {bytes + offset, static_cast<std::size_t>(length)};
}

// Node `index` of the file's graph: its op_type (with its domain when not ai.onnx) and name.
template <class Sink>
void put_node(Sink& out, std::int32_t index, const char* bytes, std::size_t size) {
  out("node ");
  put_number(out, index);
  model_file f{bytes, size};
  std::int32_t k = 0;
  protobuf::field fd{};
  const protobuf::span graph = f.graph();
  for (std::uint32_t at = graph.at; !f.failed() && f.reader().next(graph, at, fd);) {
    if (fd.number != schema::graph::node || k++ != index) continue;
    const node_view n = f.read_node(fd.bytes);
    if (f.failed()) break;
    out(" (");
    if (!n.domain.empty() && f.reader().view(n.domain) != "ai.onnx") out(f.reader().view(n.domain)), out(".");
    out(f.reader().view(n.op_type_name));
    if (!n.name.empty()) out(" \""), out(f.reader().view(n.name)), out("\"");
    out(")");
    return;
  }
}

// The value whose name starts at byte `offset`: a protobuf string, its length the varint just before it
// (one byte below 128 characters, two below 16384).
template <class Sink>
void put_value(Sink& out, std::int64_t offset, const char* bytes, std::size_t size) {
  out("value \"");
  std::int64_t length = -1;
  const auto byte = [&](std::int64_t at) { return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at])); };
  if (offset >= 1 && static_cast<std::size_t>(offset) <= size && byte(offset - 1) < 0x80) {
    length = byte(offset - 1);
    if (offset >= 2 && byte(offset - 2) >= 0x80) length = (byte(offset - 2) & 0x7f) | byte(offset - 1) << 7;
  }
  out(file_text(bytes, size, offset, length));
  out("\" (name at byte ");
  put_number(out, offset);
  out(")");
}

// An operand slot: "operand 2".
template <class Sink>
void put_operand(Sink& out, std::int64_t slot) {
  out(", operand ");
  put_number(out, slot);
}

}  // namespace detail

// Writes "error: <sentence>\n  <where>: <numbers with names>\n" for a diagnostic of an ONNX import.
template <class Sink>
void describe(const diagnostic& d, const char* bytes, std::size_t size, Sink&& out) {
  using detail::put_number;
  if (!d.failed()) return out("ok\n");
  if (!is_onnx_error(d.code)) {
    // The IR's own codes, found while the importer built a node: the ONNX node, then the numbers (of the
    // ctnn op the node became, NHWC shapes for 2-D ops).
    out("error: ");
    out(ctnn::diagnostic_sentence(d.code).empty() ? std::string_view{"ctnn: the model cannot be imported"} : ctnn::diagnostic_sentence(d.code));
    out("\n  ");
    if (d.node >= 0) {
      detail::put_node(out, d.node, bytes, size);
      out(", as ctnn's ");
      out(name_of(d.kind));
      out(": ");
    }
    put_diagnostic_numbers(d, out);
    return out("\n");
  }
  const auto code = static_cast<onnx_error>(d.code);
  out("error: ");
  out(sentence_of(code));
  out("\n  ");
  switch (code) {
    case onnx_error::malformed_model:
      detail::put_malformed(out, d, protobuf::name_of(static_cast<protobuf::expectation>(d.reason)));
      break;
    case onnx_error::unsupported_operator: detail::put_node(out, d.node, bytes, size); break;
    case onnx_error::unsupported_attribute:
      detail::put_node(out, d.node, bytes, size);
      out(", attribute ");
      out(name_of(static_cast<attribute>(d.attribute)));
      out(" = ");
      if (d.expected.rank == 3 && d.expected[0] == -1) {  // a string, read from the file
        out("\"");
        out(detail::file_text(bytes, size, d.expected[1], d.expected[2]));
        out("\"");
      } else {
        put_number(out, d.expected[0]);
      }
      if (static_cast<attribute>(d.attribute) == attribute::block_size) out(" (blocked quantization is not supported)");
      if (static_cast<attribute>(d.attribute) == attribute::training_mode) out(" (ctnn runs inference only)");
      if (static_cast<attribute>(d.attribute) == attribute::value &&
          d.operator_code == static_cast<std::int64_t>(op_type::Constant))
        out(" (a Constant needs the tensor attribute `value`; value_float, value_ints, ... are not read)");
      break;
    case onnx_error::unsupported_operand:
    case onnx_error::integer_arithmetic:
    case onnx_error::qdq_group:
      detail::put_node(out, d.node, bytes, size);
      detail::put_operand(out, d.input_slot);
      break;
    case onnx_error::unsupported_rank:
      detail::put_node(out, d.node, bytes, size);
      detail::put_operand(out, d.input_slot);
      out(" of rank ");
      put_number(out, d.actual.rank);
      out(", shape ");
      detail::put_shape(out, d.actual);
      break;
    case onnx_error::operand_type: {
      detail::put_node(out, d.node, bytes, size);
      detail::put_operand(out, d.input_slot);
      out(" of type ");
      detail::put_name_or_number(out, name_of(static_cast<data_type>(d.expected[0])), d.expected[0]);
      break;
    }
    case onnx_error::operand_value:
      detail::put_node(out, d.node, bytes, size);
      detail::put_operand(out, d.input_slot);
      out(", element ");
      put_number(out, d.expected[0]);
      out(" = ");
      if (d.expected[2] == 1) {  // float32 bits
        char text[32];
        const auto end = std::to_chars(text, text + sizeof text, std::bit_cast<float>(d.expected[1])).ptr;
        out(std::string_view{text, static_cast<std::size_t>(end - text)});
      } else {
        put_number(out, d.expected[1]);
      }
      break;
    case onnx_error::output_count:
      detail::put_node(out, d.node, bytes, size);
      out(", outputs ");
      put_number(out, d.count_actual);
      break;
    case onnx_error::unsupported_tensor_type:
      detail::put_value(out, d.byte_offset, bytes, size);
      out(", type ");
      detail::put_name_or_number(out, name_of(static_cast<data_type>(d.rejected_value)), d.rejected_value);
      break;
    case onnx_error::no_static_shape:
    case onnx_error::symbolic_dimension:  // value "x" (name at byte 38), shape [-1,-1][, axis 1 ...]
      detail::put_value(out, d.byte_offset, bytes, size);
      out(", shape ");
      detail::put_shape(out, d.actual);
      if (code == onnx_error::no_static_shape) break;
      out(", axis ");
      put_number(out, d.axis);
      if (static_cast<dimension_problem>(d.reason) == dimension_problem::shape_differs) {
        out(": the bound shape ");
        detail::put_shape(out, d.expected);
        out(" differs (rank, or a static extent)");
      } else if (d.expected.rank == 2 && d.expected[1] > 0) {
        out(" (dim_param \"");
        out(detail::file_text(bytes, size, d.expected[0], d.expected[1]));
        out("\"): bind it with --dim ");
        out(detail::file_text(bytes, size, d.expected[0], d.expected[1]));
        out("=N");
      } else {
        out(" (no dim_param): give the input's shape with --input-shape NAME=D0,D1,...");
      }
      break;
    case onnx_error::output_shape_differs:
      detail::put_value(out, d.byte_offset, bytes, size);
      out(", declared ");
      detail::put_shape(out, d.actual);
      out(", computed ");
      detail::put_shape(out, d.expected);
      out(", axis ");
      put_number(out, d.axis);
      break;
    case onnx_error::rank_too_high:
      detail::put_value(out, d.byte_offset, bytes, size);
      out(", rank ");
      put_number(out, d.rank_actual);
      break;
    case onnx_error::unsupported_tensor_feature:
      detail::put_value(out, d.byte_offset, bytes, size);
      out(", ");
      out(name_of(static_cast<tensor_feature>(d.reason)));
      break;
    case onnx_error::too_many_model_io: detail::put_model_io_count(out, d); break;
    case onnx_error::undefined_operand:
    case onnx_error::operand_produced_later: {
      // node 1 (Relu) reads value "r" (name at byte 83) as operand 0[, which node 2 (Conv) produces after it: ...]
      detail::put_node(out, d.node, bytes, size);
      out(" reads ");
      detail::put_value(out, d.byte_offset, bytes, size);
      out(" as operand ");
      put_number(out, d.input_slot);
      if (code == onnx_error::undefined_operand) break;
      const auto order = static_cast<node_order>(d.reason);
      if (d.position == d.node) {
        out(", its own result");
      } else {
        out(", which ");
        detail::put_node(out, static_cast<std::int32_t>(d.position), bytes, size);
        out(" produces after it");
      }
      out(": ");
      detail::put_name_or_number(out, name_of(order), d.reason);
      if (d.position != d.node && (order == node_order::cycle || order == node_order::out_of_order)) {
        out(" (node ");
        put_number(out, d.position);
        out(order == node_order::cycle ? " depends on the result of node " : " does not depend on the result of node ");
        put_number(out, d.node);
        out(order == node_order::cycle ? ")" : ": sort the nodes topologically)");
      }
      break;
    }
  }
  out("\n");
}

}  // namespace ctnn::onnx
