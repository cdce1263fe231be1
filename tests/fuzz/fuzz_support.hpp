#pragma once
// What the fuzz targets share: importing a .tflite or .onnx file at run time into a module on the heap
// (modules are large), running ctnn::default_pipeline on it, and running
// the result with the shared kernels (run-time shapes, as ctnn-run does) when it is small enough.
//
// Every function returns normally on any input: a rejected file is a diagnostic in the module, which is
// all a fuzz target needs. A sanitizer report, a crash, a hang or an out-of-memory is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include <ctnn/frontend/onnx.hpp>
#include <ctnn/frontend/tflite.hpp>
#include <ctnn/kernel/run_module.hpp>
#include <ctnn/ops/cost.hpp>
#include <ctnn/pass/run_pipeline.hpp>

namespace ctnn_fuzz {

// The capacities of the modules the targets import into. A file that needs more is skipped after its
// count (count() and bounds() are exercised, the import is not); the seeds need far less.
inline constexpr std::size_t tensors = 128, nodes = 64, onnx_values = 128, onnx_relayouts = 128;
using module_type = ctnn::module<tensors, nodes>;
using onnx_result_type = ctnn::onnx::import_result<tensors, nodes, onnx_relayouts>;

// A fuzz input as a heap block of exactly its size (so that AddressSanitizer sees a read past the end).
inline std::unique_ptr<char[]> exact_copy(const std::uint8_t* data, std::size_t size) {
  auto bytes = std::make_unique<char[]>(size == 0 ? 1 : size);
  if (size != 0) std::memcpy(bytes.get(), data, size);
  return bytes;
}

inline bool is_tflite(const char* bytes, std::size_t size) { return size >= 8 && std::memcmp(bytes + 4, "TFL3", 4) == 0; }

// The module every execution imports into, and the ONNX import's result: heap blocks allocated once
// (a fresh allocation of a few hundred KB per input would spend the fuzzer's time in page faults).
inline module_type& the_module() {
  static const std::unique_ptr<module_type> m = std::make_unique<module_type>();
  return *m;
}
inline onnx_result_type& the_onnx_result() {
  static const std::unique_ptr<onnx_result_type> r = std::make_unique<onnx_result_type>();
  return *r;
}

// The TFLite import of the bytes into the_module(); null when count() says the file needs more.
inline module_type* import_tflite(const char* bytes, std::size_t size) {
  const ctnn::tflite::import_counts c = ctnn::tflite::count(bytes, size);
  if (c.tensors > tensors || c.nodes > nodes) return nullptr;
  module_type& m = the_module();
  m = ctnn::tflite::import<tensors, nodes>(bytes, size);
  return &m;
}

// The ONNX import of the bytes into the_module(), its re-laid-out constants computed into `relaid`
// (which must outlive the module, as in ctnn-run); null when the file needs more than the capacities.
inline module_type* import_onnx(const char* bytes, std::size_t size, std::vector<std::vector<float>>& relaid) {
  // bounds() is generous (every value may need a conversion); count() at a larger size is exact.
  const ctnn::onnx::import_counts b = ctnn::onnx::bounds(bytes, size);
  if (b.tensors > 4 * tensors || b.nodes > 4 * nodes || b.values > 2 * onnx_values || b.relayouts > 2 * onnx_relayouts)
    return nullptr;
  const ctnn::onnx::import_counts c = ctnn::onnx::count<4 * tensors, 4 * nodes, 2 * onnx_values, 2 * onnx_relayouts>(bytes, size);
  if (c.tensors > tensors || c.nodes > nodes || c.values > onnx_values || c.relayouts > onnx_relayouts) return nullptr;
  onnx_result_type& r = the_onnx_result();
  r = ctnn::onnx::import<tensors, nodes, onnx_values, onnx_relayouts>(bytes, size);
  if (!r.ir.error.failed()) {
    relaid.assign(static_cast<std::size_t>(r.relayout_count), {});
    for (std::size_t k = 0; k < relaid.size(); ++k) {
      const ctnn::onnx::relayout& relayout = r.relayouts[k];
      if (relayout.kind == ctnn::onnx::relayout_kind::known_integers) {  // integers computed at import: their bytes
        relaid[k].resize(static_cast<std::size_t>((ctnn::onnx::known_integer_size(relayout) + 3) / 4));
        char* bytes = reinterpret_cast<char*>(relaid[k].data());
        ctnn::onnx::known_integer_bytes(relayout, r.known.data(), bytes);
        r.ir.tensor_at(relayout.tensor).data.bytes = bytes;
        continue;
      }
      relaid[k].resize(static_cast<std::size_t>(relayout.elements()));
      ctnn::onnx::relayout_values(relayout, bytes, relaid[k].data());
      r.ir.tensor_at(relayout.tensor).data.f32 = relaid[k].data();
    }
  }
  module_type& m = the_module();
  m = r.ir;
  return &m;
}

// ctnn::default_pipeline, in place, stopping at the first diagnostic.
inline void run_pipeline(module_type& m) { ctnn::run_pipeline_in_place(m); }

// Fuzzed shapes can ask for billions of multiply-adds (ctnn::ops::model_macs, the bound ctnn-run applies with
// its --max-macs); those models are planned but not run.
inline constexpr std::int64_t max_macs = 5'000'000;
inline constexpr std::int64_t max_tensor_bytes = std::int64_t{1} << 20;

// Runs a module that went through the pipeline on deterministic inputs (floats finite, in [-4, 4); other
// types any bit pattern), when its tensors and work are small. Returns whether it ran.
inline bool execute(const module_type& m) {
  if (m.error.failed() || ctnn::ops::model_macs(m) > max_macs) return false;
  for (std::int32_t t = 0; t < m.tensor_count; ++t)
    if (m.tensor_at(t).bytes() > max_tensor_bytes) return false;
  ctnn::kernel::module_runner<module_type> runner{m};
  // A module the pipeline accepted has a kernel for every call (lower_te checks what the kernels need), so
  // ctnn-inspect and ctnn-run agree on it: anything else is a bug, reported as a crash.
  if (runner.status() != ctnn::kernel::run_status::ok) {
    std::fprintf(stderr, "fuzz: the pipeline accepted a module the runner refuses: %s (call %d)\n",
                 ctnn::kernel::name_of(runner.status()), runner.failed_call());
    std::abort();
  }
  std::vector<std::vector<char>> inputs(static_cast<std::size_t>(m.input_count)), outputs(static_cast<std::size_t>(m.output_count));
  std::vector<const void*> input_pointers;
  std::vector<void*> output_pointers;
  std::uint32_t state = 0x9e3779b9u;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const ctnn::tensor& t = m.input_tensor(static_cast<std::int32_t>(i));
    inputs[i].resize(static_cast<std::size_t>(t.bytes()));
    if (t.type == ctnn::dtype::f32) {
      for (std::size_t k = 0; k + 4 <= inputs[i].size(); k += 4) {
        state = state * 1664525u + 1013904223u;
        const float value = static_cast<float>(state >> 8) / 16777216.0f * 8.0f - 4.0f;
        std::memcpy(inputs[i].data() + k, &value, 4);
      }
    } else {
      for (char& byte : inputs[i]) byte = static_cast<char>((state = state * 1664525u + 1013904223u) >> 24);
    }
    input_pointers.push_back(inputs[i].data());
  }
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    outputs[o].resize(static_cast<std::size_t>(m.output_tensor(static_cast<std::int32_t>(o)).bytes()));
    output_pointers.push_back(outputs[o].data());
  }
  return runner.run(input_pointers, output_pointers) == ctnn::kernel::run_status::ok;
}

}  // namespace ctnn_fuzz
