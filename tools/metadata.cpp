// ctnn-metadata: the executor and function metadata of a .tflite or .onnx model as JSON
// (ctnn::write_metadata_json; schema in docs/metadata.md), compiled with the plan options of ctnn::compile.
//
//   ctnn-metadata <model.tflite|model.onnx> [plan options] [-o FILE]
//       plan options: --pool name:bytes, --pin tensor:pool, --in-place, --reuse, --io-in-arena
//       (plan_options.hpp; ctnn-metadata --help lists them); the JSON goes to stdout, or to FILE
//
// The module is the one ctnn::compile<model, options...> makes: the same reader, importer and passes, run
// here at run time (model_file.hpp). Exit status: 0 when the metadata is complete; 1 when the model
// cannot be read, imported or planned (the reason on stderr), or on a write error; 2 for usage errors.
#include <array>
#include <cstdio>
#include <string>
#include <string_view>

#include <ctnn/runtime/metadata_json.hpp>

#include "command_line.hpp"
#include "model_file.hpp"
#include "plan_options.hpp"

namespace {

constexpr std::string_view synopsis = "<model.tflite|model.onnx> [plan options] [-o FILE]";
constexpr std::string_view details =
    "The executor and function metadata (JSON, docs/metadata.md) of the model compiled with those options.\n"
    "  -o FILE             write the JSON to FILE instead of stdout\n";
constexpr std::array<ctnn_tools::option_spec, 1> own_options{{{"-o", true}}};

// The JSON of the model at `model` to `output` (null: stdout); the exit status.
int write_metadata(const char* program, const char* model, const char* output, const ctnn_tools::plan_options& options) {
  return ctnn_tools::with_compiled_model(program, model, options, [&](const auto& m) {
    std::FILE* file = output != nullptr ? std::fopen(output, "wb") : stdout;
    if (file == nullptr) {
      std::fprintf(stderr, "%s: cannot open %s for writing\n", program, output);
      return 1;
    }
    const bool complete =
        ctnn::write_metadata_json(m, [file](std::string_view text) { ctnn_tools::write_text(file, text); });
    const bool written = std::ferror(file) == 0;
    if ((output != nullptr && std::fclose(file) != 0) || !written) {
      std::fprintf(stderr, "%s: cannot write %s\n", program, output != nullptr ? output : "to stdout");
      return 1;
    }
    return complete ? 0 : 1;
  });
}

}  // namespace

int main(int argc, char** argv) {
  ctnn_tools::plan_options options;
  const char* model = nullptr;
  const char* output = nullptr;
  const int status = ctnn_tools::read_model_arguments(argc, argv, synopsis, details, own_options, options, model,
                                                      [&output](std::string_view, const char* value) { output = value; });
  return status >= 0 ? status : write_metadata(argv[0], model, output, options);
}
