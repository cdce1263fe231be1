// libFuzzer target: the constexpr FlatBuffers reader and the TFLite schema view (frontend/flatbuffers.hpp,
// frontend/tflite/schema.hpp) run at run time on arbitrary bytes: every tensor, operator, options table,
// buffer and string the view hands out is read. The reader must record an error, never read outside the
// span or invoke undefined behaviour.
#include <cstddef>
#include <cstdint>

#include <ctnn/frontend/tflite/schema.hpp>

#include "fuzz_support.hpp"
#include "structured_mutator.hpp"

namespace {

// Reads every field of tensor i; the sum keeps the reads from being optimised away.
std::uint64_t read_tensor(ctnn::tflite::model_file& f, std::uint32_t i) {
  auto& r = f.reader();
  const ctnn::tflite::tensor_view t = f.tensor(i);
  std::uint64_t sum = static_cast<std::uint64_t>(t.type) + t.buffer + r.view(t.name).size();
  for (std::uint32_t d = 0; d < t.shape.length && !f.failed(); ++d) sum += static_cast<std::uint32_t>(f.index_at(t.shape, d));
  const ctnn::flatbuffers::vector scale = r.vector_field(t.quantization, ctnn::tflite::schema::quantization::scale, 4);
  const ctnn::flatbuffers::vector zero = r.vector_field(t.quantization, ctnn::tflite::schema::quantization::zero_point, 8);
  for (std::uint32_t k = 0; k < scale.length && !f.failed(); ++k) sum += static_cast<std::uint64_t>(r.element<float>(scale, k) > 0);
  for (std::uint32_t k = 0; k < zero.length && !f.failed(); ++k) sum += static_cast<std::uint64_t>(r.element<std::int64_t>(zero, k));
  sum += f.buffer_data(t.buffer).length + (f.buffer_is_external(t.buffer) ? 1u : 0u);
  return sum;
}

std::uint64_t read_op(ctnn::tflite::model_file& f, std::uint32_t i) {
  namespace s = ctnn::tflite::schema;
  const ctnn::tflite::operator_view o = f.op(i);
  std::uint64_t sum = static_cast<std::uint64_t>(o.code) + o.options_type;
  for (std::uint32_t k = 0; k < o.inputs.length && !f.failed(); ++k) sum += static_cast<std::uint32_t>(f.index_at(o.inputs, k));
  for (std::uint32_t k = 0; k < o.outputs.length && !f.failed(); ++k) sum += static_cast<std::uint32_t>(f.index_at(o.outputs, k));
  // The options table under the tag the file gives (any member: the reader checks the tag's table).
  const ctnn::flatbuffers::table options = f.options(o, static_cast<s::builtin_options>(o.options_type));
  sum += static_cast<std::uint64_t>(f.reader().scalar<std::int32_t>(options, 0, 0));
  return sum;
}

}  // namespace

// libFuzzer mutates with the FlatBuffers structure-aware mutator (structured_mutator.hpp).
CTNN_FUZZ_STRUCTURED_MUTATOR(tflite);

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = ctnn_fuzz::exact_copy(data, size);
  ctnn::tflite::model_file f{bytes.get(), size};
  volatile std::uint64_t sink = f.version() + f.subgraph_count() + f.reader().view(f.description()).size() +
                                f.reader().view(f.subgraph_name()).size();
  for (std::uint32_t k = 0; k < f.operator_code_count() && !f.failed(); ++k) sink = sink + static_cast<std::uint64_t>(f.opcode(k));
  for (std::uint32_t i = 0; i < f.tensor_count() && !f.failed(); ++i) sink = sink + read_tensor(f, i);
  for (std::uint32_t i = 0; i < f.operator_count() && !f.failed(); ++i) sink = sink + read_op(f, i);
  for (std::uint32_t k = 0; k < f.inputs().length && !f.failed(); ++k) sink = sink + static_cast<std::uint32_t>(f.index_at(f.inputs(), k));
  for (std::uint32_t k = 0; k < f.outputs().length && !f.failed(); ++k) sink = sink + static_cast<std::uint32_t>(f.index_at(f.outputs(), k));
  static_cast<void>(sink);
  return 0;
}
