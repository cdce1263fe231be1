#pragma once
// What an ONNX file needs of a module, for a tool to pick the smaller of its capacities. bounds() is cheap
// but often 5-10 times the real counts (every value may get a layout conversion); a tool that went by it
// would plan most models with the large module, whose planning needs megabytes of stack (per-buffer
// arrays of tensor + node capacity). The real counts come from one import at the large capacities, on the
// heap: a few milliseconds.
#include <cstddef>
#include <cstdint>
#include <memory>

#include <ctnn/frontend/onnx.hpp>

namespace ctnn_tools {

// The counts of an import of these bytes: exact when the import fits <T, N, V, R>, else bounds(). Tried even
// when bounds() does not fit: a QDQ model's bounds count every QuantizeLinear/DequantizeLinear pair (a few
// hundred nodes of onnxruntime's quantizer bound 6,000 tensors), which the import lowers to one op.
template <std::size_t T, std::size_t N, std::size_t V, std::size_t R>
ctnn::onnx::import_counts onnx_counts(const char* bytes, std::size_t size, const ctnn::onnx::import_options& options) {
  const ctnn::onnx::import_counts b = ctnn::onnx::bounds(bytes, size);
  const auto r = std::make_unique<ctnn::onnx::import_result<T, N, R>>();
  ctnn::onnx::import_into<V>(*r, bytes, size, "onnx", options);
  // Past the capacities: the bounds. Another failure: the import at the chosen capacities reports it again
  // (the counts so far fit, so that its diagnostic is the one the user reads, not a capacity's).
  if (r->ir.error.failed()) {
    const bool bounds_fit = b.tensors <= T && b.nodes <= N && b.values <= V && b.relayouts <= R;
    if (bounds_fit || r->ir.error.code == ctnn::error_code::too_many_inputs) return b;
  }
  const auto at_least_one = [](std::int32_t n) { return n > 0 ? static_cast<std::size_t>(n) : std::size_t{1}; };
  return {at_least_one(r->ir.tensor_count), at_least_one(r->ir.node_count), at_least_one(r->value_count),
          at_least_one(r->relayout_count)};
}

// The tools' large capacities (model_file.hpp: large_module, large_onnx_values): compiled once (model_file.cpp,
// the ctnn_tools_model_file library).
extern template ctnn::onnx::import_counts onnx_counts<4096, 4096, 16384, 4096>(const char*, std::size_t,
                                                                                     const ctnn::onnx::import_options&);

}  // namespace ctnn_tools
