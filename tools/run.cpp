// ctnn-run: executes a model file at run time (DESIGN §2) with the same reader, importer and passes the
// compiler runs, and the shared kernels (run-time shapes; kernel/dynamic.hpp): "run my .tflite on my PC
// and compare with my reference runtime".
//
//   ctnn-run <model.tflite> <input files...> -o <output prefix>
//
// One input file per model input, in order: raw little-endian elements in the model's own layout and
// element type (as the input_K.bin files of ../shared/models), or an ONNX TensorProto (.pb) of the same
// element count and type. Writes <prefix>_<k>.bin (raw little-endian) for each model output k.
//
// Exit status: 0 on success; 1 when the model cannot be imported or compiled (the diagnostic in words);
// 2 for a bad input file (size, type, format: the file and what was expected); 3 for usage and I/O errors.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <ctnn/detail/for_each_index.hpp>
#include <ctnn/frontend/protobuf.hpp>
#include <ctnn/frontend/tflite.hpp>
#include <ctnn/ir/printer.hpp>
#include <ctnn/kernel/run_module.hpp>
#include <ctnn/pass/pipeline.hpp>

#include "large_stack.hpp"

namespace {

using pipeline = ctnn::default_pipeline;

void write(std::string_view text) { std::fwrite(text.data(), 1, text.size(), stderr); }

struct job {
  const char* program = "ctnn-run";
  std::string model_path;
  std::vector<std::string> input_paths;
  std::string output_prefix;
  int status = 0;
};

bool read_file(const std::string& path, std::vector<char>& bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

// The ONNX TensorProto data types an input can have (onnx.proto's TensorProto.DataType).
enum class onnx_type : std::int64_t { float32 = 1, uint8 = 2, int8 = 3, int32 = 6 };

constexpr bool matches(onnx_type t, ctnn::dtype d) {
  return (t == onnx_type::float32 && d == ctnn::dtype::f32) || (t == onnx_type::int8 && d == ctnn::dtype::i8) ||
         (t == onnx_type::uint8 && d == ctnn::dtype::u8) || (t == onnx_type::int32 && d == ctnn::dtype::i32);
}

// A TensorProto's values as raw little-endian elements of `type` (the model input's), or an error message.
// Fields (onnx.proto): dims 1, data_type 2, float_data 4, int32_data 5 (int8/uint8/int32 values as
// varints), raw_data 9; other data fields are refused.
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
    } else if (f.number == 5) {  // int32_data: one varint per element, packed or not
      const auto put = [&](std::uint64_t v) {
        for (std::size_t k = 0; k < element_bytes; ++k) values.push_back(static_cast<char>(v >> (8 * k)));
      };
      if (f.type == pb::wire::varint) put(f.value);
      for (std::uint32_t p = f.bytes.at; f.type == pb::wire::len && p < f.bytes.end() && !r.failed();)
        put(r.varint(p, f.bytes.end()));
    } else if (f.number == 7 || f.number == 10 || f.number == 11 || f.number == 13) {
      return "TensorProto values in a field ctnn-run does not read (int64, double, uint64 or external data)";
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

// Imports into a module of capacities T x N (on the heap: modules are large), runs the pipeline and the
// calls, writes the outputs.
template <std::size_t T, std::size_t N>
int run_model(const job& j, const std::vector<char>& model_bytes) {
  std::string_view stem = j.model_path;
  stem = stem.substr(stem.find_last_of('/') + 1);
  stem = stem.substr(0, stem.find_last_of('.'));
  auto m = std::make_unique<ctnn::module<T, N>>(ctnn::tflite::import<T, N>(model_bytes.data(), model_bytes.size(), stem));
  if (m->error.failed()) {
    std::fprintf(stderr, "%s: %s: ", j.program, j.model_path.c_str());
    ctnn::tflite::describe(m->error, write);
    return 1;
  }
  ctnn::detail::for_each_index<pipeline::size>([&](auto k) {
    if (m->error.failed()) return;
    using pass = typename pipeline::template pass<decltype(k)::value>;
    m = std::make_unique<ctnn::module<T, N>>(ctnn::detail::apply_pass<pass>(*m, decltype(k)::value));
  });
  if (m->error.failed()) {
    std::fprintf(stderr, "%s: %s: the pipeline failed:\n", j.program, j.model_path.c_str());
    ctnn::print_module(*m, write);
    return 1;
  }
  ctnn::kernel::module_runner<ctnn::module<T, N>> runner{*m};
  if (runner.status() != ctnn::kernel::run_status::ok) {
    std::fprintf(stderr, "%s: %s: %s", j.program, j.model_path.c_str(), ctnn::kernel::name_of(runner.status()));
    if (runner.failed_call() >= 0) std::fprintf(stderr, " (call %d)", runner.failed_call());
    std::fprintf(stderr, "\n");
    return 1;
  }

  if (j.input_paths.size() != static_cast<std::size_t>(m->input_count)) {
    std::fprintf(stderr, "%s: the model has %d input(s), %zu input file(s) given\n", j.program, m->input_count,
                 j.input_paths.size());
    return 2;
  }
  std::vector<std::vector<char>> inputs(j.input_paths.size());
  std::vector<const void*> input_pointers;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const ctnn::tensor& t = m->input_tensor(static_cast<std::int32_t>(i));
    std::vector<char> file;
    if (!read_file(j.input_paths[i], file)) {
      std::fprintf(stderr, "%s: cannot read %s\n", j.program, j.input_paths[i].c_str());
      return 3;
    }
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
  std::vector<std::vector<char>> outputs(static_cast<std::size_t>(m->output_count));
  std::vector<void*> output_pointers;
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    outputs[o].assign(static_cast<std::size_t>(m->output_tensor(static_cast<std::int32_t>(o)).bytes()), 0);
    output_pointers.push_back(outputs[o].data());
  }
  if (const auto s = runner.run(input_pointers, output_pointers); s != ctnn::kernel::run_status::ok) {
    std::fprintf(stderr, "%s: %s\n", j.program, ctnn::kernel::name_of(s));
    return 1;
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
  return 0;
}

int run(const job& j) {
  std::vector<char> bytes;  // operator new aligns to 16 bytes, as the generated headers align the embedded bytes
  if (!read_file(j.model_path, bytes)) {
    std::fprintf(stderr, "%s: cannot read %s\n", j.program, j.model_path.c_str());
    return 3;
  }
  if (!ends_with(j.model_path, ".tflite")) {
    std::fprintf(stderr, "%s: %s: only .tflite models are read so far\n", j.program, j.model_path.c_str());
    return 3;
  }
  const ctnn::tflite::import_counts c = ctnn::tflite::count(bytes.data(), bytes.size());
  if (c.tensors <= 256 && c.nodes <= 128) return run_model<256, 128>(j, bytes);
  if (c.tensors <= 2048 && c.nodes <= 1024) return run_model<2048, 1024>(j, bytes);
  std::fprintf(stderr, "%s: the model has %zu tensors and %zu ops; ctnn-run handles up to 2048 and 1024\n", j.program,
               c.tensors, c.nodes);
  return 3;
}

void* run_thread(void* arg) {
  auto& j = *static_cast<job*>(arg);
  j.status = run(j);
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  job j{};
  j.program = argv[0];
  bool usage = false;
  for (int a = 1; a < argc; ++a) {
    const std::string_view arg = argv[a];
    if (arg == "-o" && a + 1 < argc) j.output_prefix = argv[++a];
    else if (!arg.empty() && arg[0] == '-') usage = true;
    else if (j.model_path.empty()) j.model_path = arg;
    else j.input_paths.emplace_back(arg);
  }
  if (usage || j.model_path.empty() || j.output_prefix.empty()) {
    std::fprintf(stderr, "usage: %s <model.tflite> <input files...> -o <output prefix>\n", argv[0]);
    return 3;
  }
  if (!ctnn_tools::run_with_large_stack(run_thread, &j)) {
    std::fprintf(stderr, "%s: cannot start a thread\n", argv[0]);
    return 3;
  }
  return j.status;
}
