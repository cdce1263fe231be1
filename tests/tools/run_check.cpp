// ctnn-run's check (tests/tools/CMakeLists.txt): the model embedded as ctnn::models::model_under_test is compiled
// twice, with the full and the shared specialisation policy; both run on deterministic inputs, and
// ctnn-run runs the model file on the same inputs, given as raw files and as ONNX TensorProto files
// (raw_data, and the typed float_data / int32_data fields). Every output must agree: int8 bit for bit,
// float32 within 1e-5 of the largest magnitude (the compiler folds constants with its own constexpr
// math, and vectorised kernels may sum in another order).
//
//   ctnn-run-check-<model> <ctnn-run executable> <model file> <work directory>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include <ctnn/ctnn.hpp>
#include <ctnn/models/model_under_test.hpp>

namespace {

using full_net = ctnn::compile<ctnn::models::model_under_test>;
using shared_net = ctnn::compile<ctnn::models::model_under_test, ctnn::specialisation<ctnn::shared>>;

using bytes = std::vector<char>;

// Deterministic values of an input: floats in [-1, 1), or every int8 value.
bytes make_input(ctnn::dtype type, std::size_t elements, std::uint32_t seed) {
  bytes b(elements * ctnn::size_of(type));
  std::uint32_t s = 0x9E3779B9u * (seed + 1);
  for (std::size_t i = 0; i < elements; ++i) {
    s ^= s << 13, s ^= s >> 17, s ^= s << 5;
    if (type == ctnn::dtype::f32) {
      const float v = static_cast<float>(s >> 8) / static_cast<float>(1u << 23) - 1.0f;
      std::memcpy(b.data() + 4 * i, &v, 4);
    } else {
      b[i] = static_cast<char>(s >> 24);
    }
  }
  return b;
}

void put_varint(bytes& out, std::uint64_t v) {
  do {
    out.push_back(static_cast<char>((v & 0x7f) | (v > 0x7f ? 0x80 : 0)));
    v >>= 7;
  } while (v != 0);
}

void put_length_delimited(bytes& out, std::uint32_t field, const bytes& payload) {
  put_varint(out, field << 3 | 2);
  put_varint(out, payload.size());
  out.insert(out.end(), payload.begin(), payload.end());
}

// An ONNX TensorProto of the input: dims, data_type, then its values as raw_data (typed = false) or in
// the typed field (float_data, packed; int32_data, one varint each).
bytes tensor_proto(ctnn::dtype type, const ctnn::shape& dims, const bytes& raw, bool typed) {
  bytes out;
  for (std::int32_t d = 0; d < dims.rank; ++d) put_varint(out, 1 << 3), put_varint(out, static_cast<std::uint64_t>(dims[d]));
  put_varint(out, 2 << 3);
  put_varint(out, type == ctnn::dtype::f32 ? 1 : 3);
  if (!typed) {
    put_length_delimited(out, 9, raw);
  } else if (type == ctnn::dtype::f32) {
    put_length_delimited(out, 4, raw);
  } else {
    for (const char v : raw) put_varint(out, 5 << 3), put_varint(out, static_cast<std::uint64_t>(static_cast<std::int64_t>(v)));
  }
  return out;
}

bool save(const std::string& path, const bytes& b) {
  std::ofstream out(path, std::ios::binary);
  out.write(b.data(), static_cast<std::streamsize>(b.size()));
  return static_cast<bool>(out);
}

bytes load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Whether `got` agrees with `want` (elements of `type`); prints the first difference.
bool agrees(const char* what, ctnn::dtype type, const bytes& got, const bytes& want) {
  if (got.size() != want.size()) {
    std::printf("%s: %zu bytes, expected %zu\n", what, got.size(), want.size());
    return false;
  }
  if (type != ctnn::dtype::f32) {
    for (std::size_t i = 0; i < got.size(); ++i)
      if (got[i] != want[i]) {
        std::printf("%s: element %zu is %d, expected %d\n", what, i, got[i], want[i]);
        return false;
      }
    return true;
  }
  std::vector<float> g(got.size() / 4), w(want.size() / 4);
  for (std::size_t i = 0; i < g.size(); ++i) g[i] = ctnn::load_le<float>(got.data(), 4 * i);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = ctnn::load_le<float>(want.data(), 4 * i);
  float largest = 0.0f;
  for (const float v : w) largest = std::fmax(largest, std::fabs(v));
  for (std::size_t i = 0; i < g.size(); ++i)
    if (!(std::fabs(g[i] - w[i]) <= 1e-5f * largest + 1e-5f * std::fabs(w[i]))) {
      std::printf("%s: element %zu is %.9g, expected %.9g\n", what, i, static_cast<double>(g[i]), static_cast<double>(w[i]));
      return false;
    }
  return true;
}

template <class Net, std::size_t... I, std::size_t... O>
void run_executor(const std::vector<bytes>& inputs, std::vector<bytes>& outputs, std::index_sequence<I...>,
                  std::index_sequence<O...>) {
  outputs = {bytes(Net::template output<O>::bytes)...};
  Net::run(reinterpret_cast<const typename Net::template input<I>::element_type*>(inputs[I].data())...,
           reinterpret_cast<typename Net::template output<O>::element_type*>(outputs[O].data())...);
}

template <class Net>
std::vector<bytes> run_executor(const std::vector<bytes>& inputs) {
  std::vector<bytes> outputs;
  run_executor<Net>(inputs, outputs, std::make_index_sequence<Net::input_count>{}, std::make_index_sequence<Net::output_count>{});
  return outputs;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s <ctnn-run> <model file> <work directory>\n", argv[0]);
    return 2;
  }
  const std::string tool = argv[1], model = argv[2], dir = argv[3];
  const auto& m = full_net::module;
  std::vector<bytes> inputs;
  for (std::int32_t i = 0; i < m.input_count; ++i)
    inputs.push_back(make_input(m.input_tensor(i).type, static_cast<std::size_t>(m.input_tensor(i).dims.elements()),
                                static_cast<std::uint32_t>(i)));
  const std::vector<bytes> want = run_executor<full_net>(inputs);
  bool ok = true;
  const std::vector<bytes> shared = run_executor<shared_net>(inputs);
  for (std::size_t o = 0; o < want.size(); ++o)
    ok = agrees(("shared policy, output " + std::to_string(o)).c_str(), m.output_tensor(static_cast<std::int32_t>(o)).type,
                shared[o], want[o]) && ok;

  // ctnn-run with raw inputs, TensorProto raw_data and TensorProto typed fields.
  for (const char* form : {"raw", "pb_raw", "pb_typed"}) {
    std::string command = "\"" + tool + "\" \"" + model + "\"";
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const ctnn::tensor& t = m.input_tensor(static_cast<std::int32_t>(i));
      const bool raw = std::strcmp(form, "raw") == 0;
      const std::string path = dir + "/" + form + "_input_" + std::to_string(i) + (raw ? ".bin" : ".pb");
      if (!save(path, raw ? inputs[i] : tensor_proto(t.type, t.dims, inputs[i], std::strcmp(form, "pb_typed") == 0))) {
        std::printf("cannot write %s\n", path.c_str());
        return 2;
      }
      command += " \"" + path + "\"";
    }
    const std::string prefix = dir + "/" + form + "_output";
    command += " -o \"" + prefix + "\"";
    if (const int status = std::system(command.c_str()); status != 0) {
      std::printf("%s: exit status %d\n", command.c_str(), status);
      ok = false;
      continue;
    }
    for (std::size_t o = 0; o < want.size(); ++o)
      ok = agrees((std::string{"ctnn-run ("} + form + " inputs), output " + std::to_string(o)).c_str(),
                  m.output_tensor(static_cast<std::int32_t>(o)).type, load(prefix + "_" + std::to_string(o) + ".bin"), want[o]) &&
           ok;
  }
  std::printf("%s: %d input(s), %d output(s): %s\n", model.c_str(), m.input_count, m.output_count,
              ok ? "ctnn-run and the shared policy agree with the compiled executor" : "MISMATCH");
  return ok ? 0 : 1;
}
