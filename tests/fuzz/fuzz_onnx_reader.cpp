// libFuzzer target: the constexpr protobuf reader and the ONNX schema view (frontend/protobuf.hpp,
// frontend/onnx/schema.hpp) run at run time on arbitrary bytes: the model's graph (every node with its
// operand names and common attributes, every initializer, input and output), and a walk of every
// length-delimited field as a message, four levels deep, with the repeated-field readers on each. The
// reader must record an error, never read outside the span or invoke undefined behaviour.
#include <cstddef>
#include <cstdint>

#include <ctnn/frontend/onnx/schema.hpp>
#include <ctnn/frontend/protobuf.hpp>

#include "fuzz_support.hpp"
#include "structured_mutator.hpp"

namespace {

namespace pb = ctnn::protobuf;

std::uint64_t walk(pb::reader& r, const pb::span& message, int depth) {
  std::uint64_t sum = r.repeated_count(message, 1, pb::wire::varint) + r.count(message, 2);
  if (r.repeated_count(message, 1, pb::wire::varint) > 0) sum += r.repeated_at(message, 1, pb::wire::varint, 0);
  pb::field f{};
  for (std::uint32_t at = message.at; r.next(message, at, f);) {
    sum += f.number + f.value;
    if (f.type == pb::wire::len && depth > 0) {
      sum += r.packed_count(f.bytes, pb::wire::varint) + r.packed_count(f.bytes, pb::wire::i32);
      sum += walk(r, f.bytes, depth - 1);
    }
  }
  return sum;
}

std::uint64_t read_graph(ctnn::onnx::model_file& f) {
  namespace s = ctnn::onnx::schema;
  pb::reader& r = f.reader();
  const pb::span graph = f.graph();
  std::uint64_t sum = 0;
  pb::field field{};
  for (std::uint32_t at = graph.at; r.next(graph, at, field);) {
    if (field.type != pb::wire::len) continue;
    if (field.number == s::graph::node) {
      const ctnn::onnx::node_view n = f.read_node(field.bytes);
      sum += static_cast<std::uint64_t>(n.type) + n.input_count + n.output_count;
      for (std::uint32_t k = 0; k < n.input_count && !f.failed(); ++k) sum += r.view(f.input_name(n, k)).size();
      for (std::uint32_t k = 0; k < n.output_count && !f.failed(); ++k) sum += r.view(f.output_name(n, k)).size();
      for (const char* name : {"kernel_shape", "strides", "pads", "axis", "alpha", "auto_pad", "value"}) {
        const ctnn::onnx::attribute_view a = f.attribute(n, name);
        sum += static_cast<std::uint64_t>(f.int_attribute(a, 0)) + f.ints_count(a) + f.string_attribute(a, "").size();
        if (f.ints_count(a) > 0) sum += static_cast<std::uint64_t>(f.ints_at(a, 0));
        sum += static_cast<std::uint64_t>(f.float_attribute(a, 0.0f) > 0);
        sum += f.tensor_attribute(a).length;
      }
    } else if (field.number == s::graph::initializer) {
      const ctnn::onnx::tensor_view t = f.read_tensor(field.bytes);
      sum += static_cast<std::uint64_t>(t.type) + t.rank + t.data.length;
    } else if (field.number == s::graph::input || field.number == s::graph::output) {
      const ctnn::onnx::value_info_view v = f.read_value_info(field.bytes);
      sum += static_cast<std::uint64_t>(v.type) + v.rank;
      for (std::int32_t d = 0; d < v.dims.rank; ++d) sum += static_cast<std::uint64_t>(v.dims[d]);  // no product: it may overflow
    }
  }
  return sum;
}

}  // namespace

// libFuzzer mutates with the protobuf structure-aware mutator (structured_mutator.hpp).
CTNN_FUZZ_STRUCTURED_MUTATOR(onnx);

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = ctnn_fuzz::exact_copy(data, size);
  ctnn::onnx::model_file f{bytes.get(), size};
  volatile std::uint64_t sink = static_cast<std::uint64_t>(f.ir_version()) + static_cast<std::uint64_t>(f.opset());
  if (!f.failed()) sink = sink + read_graph(f);
  pb::reader raw{bytes.get(), size};
  sink = sink + walk(raw, raw.whole(), 4);
  static_cast<void>(sink);
  return 0;
}
