// libFuzzer target: a .tflite file through the importer (count() and import(), as ctnn::tflite::model
// runs them at compile time) and ctnn::default_pipeline, memory planning included, at run time.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "structured_mutator.hpp"

// libFuzzer mutates with the FlatBuffers structure-aware mutator (structured_mutator.hpp).
CTNN_FUZZ_STRUCTURED_MUTATOR(tflite);

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = ctnn_fuzz::exact_copy(data, size);
  ctnn_fuzz::module_type* m = ctnn_fuzz::import_tflite(bytes.get(), size);
  if (m != nullptr && !m->error.failed()) ctnn_fuzz::run_pipeline(*m);
  return 0;
}
