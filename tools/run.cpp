// ctnn-run: executes a model file at run time (docs/design.md §2) with the same reader, importer and passes the
// compiler runs, and the shared kernels (run-time shapes; kernel/dynamic.hpp): "run my .tflite on my PC
// and compare with my reference runtime".
//
//   ctnn-run <model.tflite|model.onnx> <input files...> -o <output prefix>
//
// An .onnx model is imported as ctnn::onnx::model imports it at compile time (frontend/onnx/import.hpp);
// the constants it re-lays out (OIHW conv weights, ...) are computed here, at run time, by the same
// code (onnx::relayout_values). Inputs and outputs keep the ONNX (NCHW) layout, as with onnxruntime.
// `--constant K` (.onnx, repeatable) makes input K (a TensorProto .pb) a constant of the model: it is
// added to the graph as an initializer of that input's name before the import, as if the model had been
// exported with it (the ONNX node tests pass weights, shapes and pads as graph inputs, which ctnn needs as
// constants); the other input files feed the remaining inputs.
//
// One input file per model input, in order: raw little-endian elements in the model's own layout and
// element type (as the input_K.bin files of ../shared/models), or an ONNX TensorProto (.pb) of the same
// element count and type. Writes <prefix>_<k>.bin (raw little-endian) for each model output k.
//
// The model goes through tools/model_file.hpp as in every other tool: the same format decision (the bytes,
// then the name, as ctnn_add_model), capacities, importers and pipeline, so a file ctnn-inspect accepts runs
// here. Before it runs, its work is bounded: a model file may declare any batch or image size, and one
// inference must not pin the machine. --max-macs N (default 2^30, about 1.07e9 multiply-accumulates:
// ctnn::ops::model_macs; a few seconds for the shared kernels, ten under AddressSanitizer) and --max-memory-bytes N
// (default 2^28: the plan's pools, the model's inputs and outputs and the constants computed at run time)
// refuse a larger model with both figures.
//
// `--expect FILE` (repeatable: the k-th for output k) compares each output with a reference file of raw
// elements after writing it (tools/expected_output.hpp: integers exactly, float32 within --rtol R, default
// 1e-5, of the reference plus --atol A, default 1e-6) and names the first elements that differ: "run my
// model and compare with my reference runtime" in one command (the op-conformance suites use it, tests/ops).
//
// `--dim NAME=N` and `--input-shape INPUT=D0,D1,...` (.onnx, repeatable) bind the graph inputs' symbolic
// dimensions (tools/onnx_dims.hpp, docs/frontends.md); a symbolic first axis none binds is bound to 1 (a note on
// stderr says so).
//
// `--invocations N` runs the model N times on the same inputs (default 1) and writes the last run's outputs:
// a stateful model's state (TFLite variable tensors) carries from one run to the next, as in TFLM's Invoke().
//
// Exit status: 0 on success; 1 when the model cannot be imported or compiled (the diagnostic in words) or
// is over a limit; 2 for a bad input file (size, type, format: the file and what was expected) or an
// unknown option (usage on stderr, command_line.hpp); 3 for other usage and I/O errors; 4 when an output
// differs from its --expect file. --help: the usage on stdout, status 0.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <charconv>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <ctnn/frontend/protobuf.hpp>
#include <ctnn/kernel/run_module.hpp>
#include <ctnn/ops/cost.hpp>

#include "command_line.hpp"
#include "expected_output.hpp"
#include "model_file.hpp"
#include "read_file.hpp"

namespace {

struct job {
  const char* program = "ctnn-run";
  std::string model_path;
  std::vector<std::string> input_paths;
  std::vector<std::size_t> constant_inputs;  // positions in input_paths folded into an .onnx model
  std::string output_prefix;
  std::vector<std::string> expected_paths;  // --expect: reference output k
  ctnn_tools::tolerance tolerance;
  std::int64_t max_macs = std::int64_t{1} << 30;
  std::int64_t max_memory_bytes = std::int64_t{1} << 28;
  std::int64_t invocations = 1;
  std::string dims;  // --dim, --input-shape: the ONNX bindings of symbolic input dims (onnx_dims.hpp)
};

// Reads a file, or says why it cannot on stderr.
bool read_file(const job& j, const std::string& path, std::vector<char>& bytes) {
  std::string problem;
  if (ctnn_tools::read_file(path.c_str(), bytes, problem)) return true;
  std::fprintf(stderr, "%s: cannot read %s: %s\n", j.program, path.c_str(), problem.c_str());
  return false;
}

// The ONNX TensorProto data types an input can have (onnx.proto's TensorProto.DataType).
enum class onnx_type : std::int64_t { float32 = 1, uint8 = 2, int8 = 3, int16 = 5, int32 = 6, int64 = 7, bool_ = 9 };

constexpr bool matches(onnx_type t, ctnn::dtype d) {
  return (t == onnx_type::float32 && d == ctnn::dtype::f32) || (t == onnx_type::int8 && d == ctnn::dtype::i8) ||
         (t == onnx_type::uint8 && d == ctnn::dtype::u8) || (t == onnx_type::int32 && d == ctnn::dtype::i32) ||
         (t == onnx_type::int64 && d == ctnn::dtype::i64) || (t == onnx_type::int16 && d == ctnn::dtype::i16) ||
         (t == onnx_type::bool_ && d == ctnn::dtype::b8);
}

// A TensorProto's values as raw little-endian elements of `type` (the model input's), or an error message.
// Fields (onnx.proto): dims 1, data_type 2, float_data 4, int32_data 5 (int8/uint8/int32 values as
// varints), int64_data 7 (varints), raw_data 9; other data fields are refused.
std::string tensor_proto_values(const std::vector<char>& file, const ctnn::tensor& input, std::vector<char>& values) {
  namespace pb = ctnn::protobuf;
  pb::reader r{file.data(), file.size()};
  const pb::span message = r.whole();
  std::int64_t elements = 1;
  const std::uint32_t rank = r.repeated_count(message, 1, pb::wire::varint);
  for (std::uint32_t d = 0; d < rank; ++d) elements *= static_cast<std::int64_t>(r.repeated_at(message, 1, pb::wire::varint, d));
  const auto type = static_cast<onnx_type>(r.int_field(message, 2));
  if (r.failed()) return "not a TensorProto (protobuf error at byte " + std::to_string(r.error().offset) + ")";
  if (!matches(type, input.type))
    return "TensorProto data_type " + std::to_string(static_cast<std::int64_t>(type)) + ", the input is " +
           ctnn::name_of(input.type);
  if (elements != input.dims.elements())
    return std::to_string(elements) + " elements, the input has " + std::to_string(input.dims.elements());
  const std::size_t element_bytes = ctnn::size_of(input.type);
  values.clear();
  pb::field f{};
  for (std::uint32_t at = message.at; r.next(message, at, f);) {
    if (f.number == 9 && f.type == pb::wire::len) {  // raw_data: already the raw elements
      values.insert(values.end(), file.begin() + f.bytes.at, file.begin() + f.bytes.end());
    } else if (f.number == 4 && f.type == pb::wire::len) {  // packed float_data
      values.insert(values.end(), file.begin() + f.bytes.at, file.begin() + f.bytes.end());
    } else if (f.number == 4 && f.type == pb::wire::i32) {
      const auto bits = static_cast<std::uint32_t>(f.value);
      for (std::size_t k = 0; k < 4; ++k) values.push_back(static_cast<char>(bits >> (8 * k)));
    } else if (f.number == 5 || f.number == 7) {  // int32_data, int64_data: one varint per element, packed or not
      const auto put = [&](std::uint64_t v) {
        for (std::size_t k = 0; k < element_bytes; ++k) values.push_back(static_cast<char>(v >> (8 * k)));
      };
      if (f.type == pb::wire::varint) put(f.value);
      for (std::uint32_t p = f.bytes.at; f.type == pb::wire::len && p < f.bytes.end() && !r.failed();)
        put(r.varint(p, f.bytes.end()));
    } else if (f.number == 10 || f.number == 11 || f.number == 13) {
      return "TensorProto values in a field ctnn-run does not read (double, uint64 or external data)";
    }
  }
  if (r.failed()) return "not a TensorProto (protobuf error at byte " + std::to_string(r.error().offset) + ")";
  if (values.size() != static_cast<std::size_t>(input.bytes()))
    return std::to_string(values.size()) + " bytes of values, expected " + std::to_string(input.bytes());
  return {};
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// --- Folding .onnx inputs into the model (--constant) ---------------------------------------------------

void put_varint(std::vector<char>& out, std::uint64_t v) {
  for (; v >= 0x80; v >>= 7) out.push_back(static_cast<char>((v & 0x7f) | 0x80));
  out.push_back(static_cast<char>(v));
}
void put_bytes_field(std::vector<char>& out, std::uint32_t number, std::string_view bytes) {
  put_varint(out, std::uint64_t{number} << 3 | 2);
  put_varint(out, bytes.size());
  out.insert(out.end(), bytes.begin(), bytes.end());
}

// Field numbers of onnx.proto: ModelProto.graph 7; GraphProto.initializer 5, input 11; ValueInfoProto.name 1;
// TensorProto.name 8.
namespace field {
constexpr std::uint32_t model_graph = 7, graph_initializer = 5, graph_input = 11, value_info_name = 1, tensor_name = 8;
}

// The model with input files `constants` (positions among the graph's non-initializer inputs, with their
// TensorProto bytes) added to its graph as initializers named as those inputs; empty and `problem` set
// when the files do not fit.
std::vector<char> with_constant_inputs(const std::vector<char>& model, const std::vector<std::pair<std::size_t, std::vector<char>>>& constants,
                                       std::string& problem) {
  namespace pb = ctnn::protobuf;
  pb::reader r{model.data(), model.size()};
  const pb::span graph = r.message_field(r.whole(), field::model_graph);
  std::vector<std::string_view> initializers, inputs;
  pb::field f{};
  for (std::uint32_t at = graph.at; r.next(graph, at, f);)
    if (f.number == field::graph_initializer) initializers.push_back(r.view(r.message_field(f.bytes, field::tensor_name)));
  for (std::uint32_t at = graph.at; r.next(graph, at, f);) {
    if (f.number != field::graph_input) continue;
    const std::string_view name = r.view(r.message_field(f.bytes, field::value_info_name));
    if (std::find(initializers.begin(), initializers.end(), name) == initializers.end()) inputs.push_back(name);
  }
  if (r.failed()) return problem = "the model is malformed (protobuf error at byte " + std::to_string(r.error().offset) + ")", std::vector<char>{};
  std::vector<char> new_graph(model.begin() + graph.at, model.begin() + graph.end());
  for (const auto& [position, proto] : constants) {
    if (position >= inputs.size())
      return problem = "--constant " + std::to_string(position) + ": the model has " + std::to_string(inputs.size()) + " input(s)",
             std::vector<char>{};
    // The TensorProto's fields but its name, then the input's name.
    pb::reader t{proto.data(), proto.size()};
    const pb::span whole = t.whole();
    std::vector<char> tensor;
    for (std::uint32_t at = whole.at; t.next(whole, at, f);) {
      if (f.number == field::tensor_name) continue;
      tensor.insert(tensor.end(), proto.begin() + f.tag_at, proto.begin() + at);
    }
    if (t.failed()) return problem = "input " + std::to_string(position) + " is not a TensorProto", std::vector<char>{};
    put_bytes_field(tensor, field::tensor_name, inputs[position]);
    put_bytes_field(new_graph, field::graph_initializer, {tensor.data(), tensor.size()});
  }
  // The model's other fields as they are, then the new graph.
  std::vector<char> out;
  for (std::uint32_t at = 0; r.next(r.whole(), at, f);)
    if (f.number != field::model_graph) out.insert(out.end(), model.begin() + f.tag_at, model.begin() + at);
  put_bytes_field(out, field::model_graph, {new_graph.data(), new_graph.size()});
  return out;
}

// The memory one inference takes: the plan's pools (module_runner allocates each), the state, the model's
// inputs and outputs, and the constants computed at run time from their recipes.
template <class Module>
std::int64_t memory_bytes(const Module& m) {
  std::int64_t bytes = m.arena_bytes() + m.state_bytes();
  for (std::int32_t p = 1; p < m.pool_count; ++p) bytes += m.pool_usage[static_cast<std::size_t>(p)].bytes;
  for (std::int32_t i = 0; i < m.input_count; ++i) bytes += m.input_tensor(i).bytes();
  for (std::int32_t o = 0; o < m.output_count; ++o) bytes += m.output_tensor(o).bytes();
  for (std::int32_t t = 0; t < m.tensor_count; ++t)
    if (m.tensor_at(t).recipe >= 0) bytes += m.tensor_at(t).bytes();
  return bytes;
}

// Whether one inference of `m` stays within the job's limits; says which one it passes when not.
template <class Module>
bool within_limits(const job& j, const Module& m) {
  const std::int64_t macs = ctnn::ops::model_macs(m), memory = memory_bytes(m);
  // --invocations runs it several times: the limit bounds them all (no product that could overflow).
  if (macs > j.max_macs / j.invocations) {
    if (j.invocations == 1)
      std::fprintf(stderr, "%s: %s: one inference needs %lld multiply-accumulates, above the limit of %lld (--max-macs N raises it)\n",
                   j.program, j.model_path.c_str(), static_cast<long long>(macs), static_cast<long long>(j.max_macs));
    else
      std::fprintf(stderr, "%s: %s: %lld inferences of %lld multiply-accumulates each pass the limit of %lld (--max-macs N raises it)\n",
                   j.program, j.model_path.c_str(), static_cast<long long>(j.invocations), static_cast<long long>(macs),
                   static_cast<long long>(j.max_macs));
    return false;
  }
  if (memory > j.max_memory_bytes) {
    std::fprintf(stderr,
                 "%s: %s: one inference needs %lld bytes (memory pools %lld, state, inputs, outputs and computed constants), above "
                 "the limit of %lld (--max-memory-bytes N raises it)\n",
                 j.program, j.model_path.c_str(), static_cast<long long>(memory), static_cast<long long>(m.arena_bytes()),
                 static_cast<long long>(j.max_memory_bytes));
    return false;
  }
  return true;
}

// Compares the outputs with the job's --expect files; 0 when every one agrees, else 4 (or 2/3 for a file
// that does not fit or cannot be read), the differences on stderr.
template <class Module>
int check_expected(const job& j, const Module& m, const std::vector<std::vector<char>>& outputs) {
  if (j.expected_paths.empty()) return 0;
  if (j.expected_paths.size() != outputs.size()) {
    std::fprintf(stderr, "%s: the model has %zu output(s), %zu --expect file(s) given\n", j.program, outputs.size(),
                 j.expected_paths.size());
    return 2;
  }
  int status = 0;
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    std::vector<char> want;
    if (!read_file(j, j.expected_paths[o], want)) return 3;
    const ctnn::dtype type = m.output_tensor(static_cast<std::int32_t>(o)).type;
    const auto c = ctnn_tools::compare_output(type, outputs[o].data(), outputs[o].size(), want.data(), want.size(), j.tolerance);
    if (c.agrees()) continue;
    status = 4;
    if (!c.size_problem.empty()) {
      std::fprintf(stderr, "%s: output %zu: %s (%s)\n", j.program, o, c.size_problem.c_str(), j.expected_paths[o].c_str());
      continue;
    }
    std::fprintf(stderr, "%s: output %zu (%s): %zu of %zu elements differ from %s\n", j.program, o, ctnn::name_of(type),
                 c.mismatches, outputs[o].size() / ctnn::size_of(type), j.expected_paths[o].c_str());
    for (const auto& e : c.first)
      std::fprintf(stderr, "  element %zu: %.9g, expected %.9g\n", e.element, e.got, e.want);
  }
  return status;
}

// Runs a compiled module on the job's input files and writes its outputs.
template <class Module>
int run_model(const job& j, const Module& m) {
  if (!within_limits(j, m)) return ctnn_tools::model_status;
  ctnn::kernel::module_runner<Module> runner{m};
  if (runner.status() != ctnn::kernel::run_status::ok) {  // lower_te checks what the kernels need: an internal error
    std::fprintf(stderr, "%s: %s: %s", j.program, j.model_path.c_str(), ctnn::kernel::name_of(runner.status()));
    if (runner.failed_call() >= 0) {
      const ctnn::node& n = m.node_at(m.calls[static_cast<std::size_t>(runner.failed_call())].node);
      std::fprintf(stderr, " (op %d, %s \"%.*s\")", m.calls[static_cast<std::size_t>(runner.failed_call())].node,
                   ctnn::name_of(n.kind), static_cast<int>(n.label.view().size()), n.label.view().data());
    }
    std::fprintf(stderr, "\n");
    return ctnn_tools::model_status;
  }
  if (j.input_paths.size() != static_cast<std::size_t>(m.input_count)) {
    std::fprintf(stderr, "%s: the model has %d input(s), %zu input file(s) given\n", j.program, m.input_count,
                 j.input_paths.size());
    return 2;
  }
  std::vector<std::vector<char>> inputs(j.input_paths.size());
  std::vector<const void*> input_pointers;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const ctnn::tensor& t = m.input_tensor(static_cast<std::int32_t>(i));
    std::vector<char> file;
    if (!read_file(j, j.input_paths[i], file)) return 3;
    if (ends_with(j.input_paths[i], ".pb")) {
      if (const std::string problem = tensor_proto_values(file, t, inputs[i]); !problem.empty()) {
        std::fprintf(stderr, "%s: input %zu (%s): %s\n", j.program, i, j.input_paths[i].c_str(), problem.c_str());
        return 2;
      }
    } else if (file.size() != static_cast<std::size_t>(t.bytes())) {
      std::fprintf(stderr, "%s: input %zu (%s): %zu bytes, expected %lld (%lld elements of %s, raw little-endian)\n",
                   j.program, i, j.input_paths[i].c_str(), file.size(), static_cast<long long>(t.bytes()),
                   static_cast<long long>(t.dims.elements()), ctnn::name_of(t.type));
      return 2;
    } else {
      inputs[i] = std::move(file);
    }
    input_pointers.push_back(inputs[i].data());
  }
  std::vector<std::vector<char>> outputs(static_cast<std::size_t>(m.output_count));
  std::vector<void*> output_pointers;
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    outputs[o].assign(static_cast<std::size_t>(m.output_tensor(static_cast<std::int32_t>(o)).bytes()), 0);
    output_pointers.push_back(outputs[o].data());
  }
  for (std::int64_t n = 0; n < j.invocations; ++n) {
    if (const auto s = runner.run(input_pointers, output_pointers); s != ctnn::kernel::run_status::ok) {
      std::fprintf(stderr, "%s: %s\n", j.program, ctnn::kernel::name_of(s));
      return 1;
    }
  }
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    const std::string path = j.output_prefix + "_" + std::to_string(o) + ".bin";
    std::ofstream out(path, std::ios::binary);
    out.write(outputs[o].data(), static_cast<std::streamsize>(outputs[o].size()));
    if (!out) {
      std::fprintf(stderr, "%s: cannot write %s\n", j.program, path.c_str());
      return 3;
    }
  }
  return check_expected(j, m, outputs);
}

int run_bytes(const job& j, const std::vector<char>& bytes) {
  ctnn_tools::plan_options default_plan;
  default_plan.set_onnx_dims(j.dims);
  return ctnn_tools::with_compiled_model_bytes(j.program, j.model_path.c_str(), bytes, default_plan, ctnn_tools::constants::computed,
                                               [&j](const auto& m) { return run_model(j, m); });
}

int run(const job& j) {
  std::vector<char> bytes;
  if (!read_file(j, j.model_path, bytes)) return 3;
  if (!j.constant_inputs.empty()) {
    if (ctnn_tools::format_of(bytes, j.model_path) != ctnn_tools::model_format::onnx) {
      std::fprintf(stderr, "%s: --constant applies to ONNX models\n", j.program);
      return 3;
    }
    std::vector<std::pair<std::size_t, std::vector<char>>> constants;
    job rest = j;
    rest.input_paths.clear();
    for (std::size_t i = 0; i < j.input_paths.size(); ++i) {
      if (std::find(j.constant_inputs.begin(), j.constant_inputs.end(), i) == j.constant_inputs.end()) {
        rest.input_paths.push_back(j.input_paths[i]);
        continue;
      }
      constants.emplace_back(i, std::vector<char>{});
      if (!read_file(j, j.input_paths[i], constants.back().second)) return 3;
    }
    std::string problem;
    const std::vector<char> folded = with_constant_inputs(bytes, constants, problem);
    if (!problem.empty()) {
      std::fprintf(stderr, "%s: %s\n", j.program, problem.c_str());
      return 2;
    }
    rest.constant_inputs.clear();
    return run_bytes(rest, folded);
  }
  return run_bytes(j, bytes);
}

}  // namespace

int main(int argc, char** argv) {
  constexpr ctnn_tools::option_spec options[] = {{"-o", true}, {"--constant", true}, {"--max-macs", true}, {"--max-memory-bytes", true},
                                                     {"--expect", true}, {"--rtol", true}, {"--atol", true},
                                                     {"--invocations", true}, ctnn_tools::onnx_dim_option_specs[0],
                                                     ctnn_tools::onnx_dim_option_specs[1]};
  if (const int status = ctnn_tools::screen_options(
          argc, argv,
          "<model.tflite|model.onnx> <input files...> -o <output prefix> [--constant K]... [--max-macs N] "
          "[--max-memory-bytes N] [--expect FILE]... [--rtol R] [--atol A] [--invocations N] [--dim NAME=N]... "
          "[--input-shape INPUT=D0,D1,...]...",
          "  -o PREFIX               the outputs go to PREFIX_<k>.bin (raw little-endian)\n"
          "  --constant K            (ONNX) input file K (a TensorProto .pb) becomes a constant of the model\n"
          "  --max-macs N            refuse a model whose inference needs more multiply-accumulates (default 2^30)\n"
          "  --max-memory-bytes N    refuse a model whose inference needs more memory: pools, inputs, outputs\n"
          "                          (default 2^28)\n"
          "  --expect FILE           compare output k with the k-th FILE (raw elements); exit status 4 if they differ\n"
          "  --rtol R, --atol A      float32 outputs agree when |got - want| <= R |want| + A (default 1e-5, 1e-6),\n"
          "                          integer outputs when |got - want| <= A (exactly below 1)\n"
          "  --invocations N         run N times on the same inputs (state carries), write the last outputs\n" +
              std::string{ctnn_tools::onnx_dim_options_help},
          options);
      status >= 0)
    return status;
  job j{};
  j.program = argv[0];
  bool usage = false;
  // A non-negative integer option value, or a message and false.
  const auto number = [&](int a, auto& value, const char* what) {
    const std::string_view text = argv[a];
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error == std::errc{} && end == text.data() + text.size() && value >= 0) return true;
    std::fprintf(stderr, "%s: %s %s: expected %s\n", argv[0], argv[a - 1], argv[a], what);
    return false;
  };
  for (int a = 1; a < argc; ++a) {
    if (std::string problem; ctnn_tools::read_onnx_dim_option(argc, argv, a, j.dims, problem)) {
      if (problem.empty()) continue;
      std::fprintf(stderr, "%s: %s\n", argv[0], problem.c_str());
      return 3;
    }
    const std::string_view arg = argv[a];
    if (arg == "-o" && a + 1 < argc) j.output_prefix = argv[++a];
    else if (arg == "--max-macs" && a + 1 < argc) {
      if (!number(++a, j.max_macs, "a number of multiply-accumulates")) return 3;
    } else if (arg == "--invocations" && a + 1 < argc) {
      if (!number(++a, j.invocations, "a number of runs") || j.invocations < 1) {
        if (j.invocations < 1) std::fprintf(stderr, "%s: --invocations: at least 1\n", argv[0]);
        return 3;
      }
    } else if (arg == "--max-memory-bytes" && a + 1 < argc) {
      if (!number(++a, j.max_memory_bytes, "a number of bytes")) return 3;
    } else if (arg == "--constant" && a + 1 < argc) {
      std::int64_t position = 0;
      if (!number(++a, position, "the position of an input file (0, 1, ...)")) return 3;
      j.constant_inputs.push_back(static_cast<std::size_t>(position));
    }
    else if (arg == "--expect" && a + 1 < argc) j.expected_paths.emplace_back(argv[++a]);
    else if ((arg == "--rtol" || arg == "--atol") && a + 1 < argc) {
      if (!number(++a, arg == "--rtol" ? j.tolerance.relative : j.tolerance.absolute, "a non-negative number")) return 3;
    }
    else if (!arg.empty() && arg[0] == '-') usage = true;
    else if (j.model_path.empty()) j.model_path = arg;
    else j.input_paths.emplace_back(arg);
  }
  if (usage || j.model_path.empty() || j.output_prefix.empty()) {
    std::fprintf(stderr,
                 "usage: %s <model.tflite|model.onnx> <input files...> -o <output prefix> [--constant K]... [--max-macs N] "
                 "[--max-memory-bytes N] [--expect FILE]... [--rtol R] [--atol A] [--invocations N] [--dim NAME=N]... "
                 "[--input-shape INPUT=D0,D1,...]...\n",
                 argv[0]);
    return 3;
  }
  for (const std::size_t k : j.constant_inputs) {
    if (k >= j.input_paths.size()) {
      std::fprintf(stderr, "%s: --constant %zu: out of range, %zu input file(s) given (positions from 0)\n", argv[0], k,
                   j.input_paths.size());
      return 3;
    }
  }
  return run(j);
}
