// libFuzzer target: what ctnn-run does with a model file. A .tflite file (identifier "TFL3") or else an
// .onnx file is imported, compiled by ctnn::default_pipeline and, when its tensors and work are small
// (fuzz_support.hpp: execute), run with the shared kernels on deterministic inputs.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_support.hpp"
#include "structured_mutator.hpp"

// libFuzzer mutates with the structure-aware mutators, the format chosen by content (structured_mutator.hpp).
CTNN_FUZZ_STRUCTURED_MUTATOR(both);

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = ctnn_fuzz::exact_copy(data, size);
  std::vector<std::vector<float>> relaid;  // outlives the module that points into it
  ctnn_fuzz::module_type* m = ctnn_fuzz::is_tflite(bytes.get(), size) ? ctnn_fuzz::import_tflite(bytes.get(), size)
                                                   : ctnn_fuzz::import_onnx(bytes.get(), size, relaid);
  if (m == nullptr || m->error.failed()) return 0;
  ctnn_fuzz::run_pipeline(*m);
  ctnn_fuzz::execute(*m);
  return 0;
}
