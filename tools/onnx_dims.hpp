#pragma once
// The tools' bindings of an ONNX model's symbolic input dimensions (ctnn/frontend/onnx/dim_bindings.hpp):
//
//   --dim NAME=N                  the dim_param NAME is N on every input (repeatable)
//   --input-shape INPUT=D0,D1,... the input's whole shape (repeatable)
//
// They become the import's bindings text ("NAME=N INPUT=[D0,D1,...]"); a symbolic first axis that none gives
// is bound to 1, and the tools say so (batch_note).
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <ctnn/frontend/onnx/dim_bindings.hpp>
#include <ctnn/frontend/protobuf.hpp>

#include "command_line.hpp"

namespace ctnn_tools {

inline constexpr std::array<option_spec, 2> onnx_dim_option_specs{{{"--dim", true}, {"--input-shape", true}}};
inline constexpr std::string_view onnx_dim_options_synopsis = "[--dim NAME=N]... [--input-shape INPUT=D0,D1,...]...";
inline constexpr std::string_view onnx_dim_options_help =
    "symbolic ONNX input dimensions (dim_param names, missing extents; docs/frontends.md):\n"
    "  --dim NAME=N                  the dimension named NAME is N on every input (repeatable)\n"
    "  --input-shape INPUT=D0,D1,... the whole shape of the input INPUT (repeatable)\n"
    "                                a symbolic first axis (the batch) that neither binds is bound to 1\n";

// Reads argv[a] (and its value, which `a` then points at) into `bindings` if it is --dim or --input-shape:
// true. false with `problem` empty: another option; with `problem` set: a bad value.
inline bool read_onnx_dim_option(int argc, char** argv, int& a, std::string& bindings, std::string& problem) {
  const std::string_view arg = argv[a];
  if (arg != "--dim" && arg != "--input-shape") return false;
  if (a + 1 >= argc) return problem = std::string{arg} + " needs a value", true;
  const std::string_view value = argv[++a];
  const std::size_t equals = value.find('=');
  const std::string_view key = value.substr(0, equals);
  const std::string_view rest = equals == std::string_view::npos ? std::string_view{} : value.substr(equals + 1);
  const bool shape = arg == "--input-shape";
  const std::string entry = std::string{key} + "=" + (shape ? "[" + std::string{rest} + "]" : std::string{rest});
  const bool blank = key.find_first_of(" \t\n;,=[]") != std::string_view::npos;
  if (equals == std::string_view::npos || key.empty() || blank || ctnn::onnx::malformed_dim_binding(entry) >= 0)
    return problem = std::string{arg} + " " + std::string{value} +
                     (shape ? ": expected INPUT=D0,D1,... (positive extents), e.g. input=1,3,32,32"
                            : ": expected NAME=N (a positive extent), e.g. batch=1"),
           true;
  bindings += (bindings.empty() ? "" : " ") + entry;
  return true;
}

// A line for each graph input whose symbolic first axis was bound to 1 by default, or "".
template <class Result>
std::string batch_note(const Result& r, const char* bytes, std::size_t size) {
  std::string note;
  for (std::int32_t k = 0; k < r.ir.input_count; ++k) {
    if ((r.batch_bound_to_one >> k & 1u) == 0) continue;
    const ctnn::protobuf::span param = r.batch_names[static_cast<std::size_t>(k)];
    const bool named = param.length > 0 && param.at + param.length <= size;
    const std::string dim = named ? std::string{bytes + param.at, param.length} : std::string{};
    note += "input " + std::to_string(k) + " \"" + std::string{r.ir.tensor_at(r.ir.inputs[static_cast<std::size_t>(k)]).label.view()} +
            "\": symbolic batch" + (named ? " \"" + dim + "\"" : std::string{}) + " (axis 0) bound to 1" +
            (named ? " (--dim " + dim + "=<extent> binds another)\n" : " (--input-shape binds another)\n");
  }
  return note;
}

}  // namespace ctnn_tools
