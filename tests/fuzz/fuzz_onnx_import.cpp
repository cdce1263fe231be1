// libFuzzer target: an .onnx file through the importer (bounds() and import(), as ctnn::onnx::model runs
// them at compile time, the re-laid-out constants computed as ctnn-run does) and ctnn::default_pipeline,
// memory planning included, at run time.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_support.hpp"
#include "structured_mutator.hpp"

// libFuzzer mutates with the protobuf structure-aware mutator (structured_mutator.hpp).
CTNN_FUZZ_STRUCTURED_MUTATOR(onnx);

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = ctnn_fuzz::exact_copy(data, size);
  std::vector<std::vector<float>> relaid;
  ctnn_fuzz::module_type* m = ctnn_fuzz::import_onnx(bytes.get(), size, relaid);
  if (m != nullptr && !m->error.failed()) ctnn_fuzz::run_pipeline(*m);
  return 0;
}
