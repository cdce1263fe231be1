#pragma once
// What the ONNX importer supports, from its own table (import_table.hpp's op_table), for tools and docs:
//
//   ctnn::onnx::for_each_operator([](op_type type, op_kind kind) { ... });   // in table order
//
// and every node of a file whose operator the importer has no row for, so that a tool names them all at
// once (the importer stops at its first problem):
//
//   const auto found = ctnn::onnx::list_unsupported(bytes, size, [](std::string_view line) { ... });
//
// calls the sink with one line per node ("node 3 (com.microsoft.FusedConv "conv3")"), in graph order, and
// returns their count. Constant nodes are the driver's own (import_graph.hpp). A file the reader cannot
// walk gives what was found before the damage.
#include <cstdint>
#include <string_view>

#include <ctnn/frontend/onnx/import_table.hpp>
#include <ctnn/frontend/onnx/schema.hpp>
#include <ctnn/ir/diagnostic_text.hpp>

namespace ctnn::onnx {

namespace detail {
// op_table is a table of import functions of one importer state; its rows' op types and kinds do not
// depend on the state. This is the state of the tools' smaller imports (tools/model_file.hpp), whose
// functions they instantiate anyway.
using listing_state = importer_state<module<512, 512>, 512, 512>;
}  // namespace detail

template <class F>
constexpr void for_each_operator(F&& f) {
  for (const auto& row : detail::op_table<detail::listing_state>) f(row.type, row.kind);
}

template <class Sink>
std::int32_t list_unsupported(const char* bytes, std::size_t size, Sink&& sink) {
  model_file f{bytes, size};
  std::int32_t found = 0, index = 0;
  protobuf::field fd{};
  const protobuf::span graph = f.graph();
  for (std::uint32_t at = graph.at; !f.failed() && f.reader().next(graph, at, fd);) {
    if (fd.number != schema::graph::node) continue;
    const node_view n = f.read_node(fd.bytes);
    if (f.failed()) break;
    if (n.type != op_type::Constant && detail::find_op<detail::listing_state>(n.type) < 0) {
      ++found;
      sink("node ");
      ctnn::detail::diagnostic_text::put_number(sink, index);
      sink(" (");
      if (!n.domain.empty() && f.reader().view(n.domain) != "ai.onnx") sink(f.reader().view(n.domain)), sink(".");
      sink(f.reader().view(n.op_type_name));
      if (!n.name.empty()) sink(" \""), sink(f.reader().view(n.name)), sink("\"");
      sink(")\n");
    }
    ++index;
  }
  return found;
}

}  // namespace ctnn::onnx
