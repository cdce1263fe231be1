#pragma once
// One case of an op family (tests/data/ops/<family>/<case>) on the board: its model compiled by ctnn::compile
// for the Cortex-M (ctnn_add_model, the DSP kernels where they apply), run on the case's inputs and compared
// with the case's outputs by the rule ctnn-run --expect applies (tools/expected_output.hpp: integers exact,
// floats within the family's tolerance). The case's files are read from the host through semihosting
// (newlib's rdimon: fopen on the path), so nothing is embedded in the image.
#include <cstddef>
#include <cstdio>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <ctnn/ctnn.hpp>

#include "expected_output.hpp"

namespace op_case {

// The bytes of a file, or false when it cannot be read.
inline bool read_file(const std::string& path, std::vector<char>& bytes) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return false;
  bytes.clear();
  char chunk[512];
  for (std::size_t got; (got = std::fread(chunk, 1, sizeof chunk, file)) > 0;) bytes.insert(bytes.end(), chunk, chunk + got);
  std::fclose(file);
  return true;
}

// How many times the case runs (its file `invocations`: state carries between them; 1 without it).
inline int invocations(const std::string& dir) {
  std::FILE* file = std::fopen((dir + "/invocations").c_str(), "r");
  if (file == nullptr) return 1;
  int runs = 1;
  if (std::fscanf(file, "%d", &runs) != 1) runs = 1;
  std::fclose(file);
  return runs;
}

template <class T>
struct buffer {
  explicit buffer(std::size_t n) : elements(new T[n > 0 ? n : 1]()), count(n) {}
  std::unique_ptr<T[]> elements;
  std::size_t count;
};

template <class Net, std::size_t... I, std::size_t... O>
bool run(const char* name, const std::string& dir, ctnn_tools::tolerance t, std::index_sequence<I...>, std::index_sequence<O...>) {
  std::vector<char> inputs[sizeof...(I) > 0 ? sizeof...(I) : 1];
  bool ok = true;
  const auto load = [&](std::size_t k, std::size_t wanted) {
    const std::string path = dir + "/input_" + std::to_string(k) + ".bin";
    if (!read_file(path, inputs[k]) || inputs[k].size() != wanted) {
      std::printf("FAIL %s: %s: cannot read %u bytes\n", name, path.c_str(), static_cast<unsigned>(wanted));
      ok = false;
    }
  };
  (load(I, Net::template input<I>::elements * sizeof(typename Net::template input<I>::element_type)), ...);
  if (!ok) return false;
  std::tuple<buffer<typename Net::template output<O>::element_type>...> outputs{
      buffer<typename Net::template output<O>::element_type>(Net::template output<O>::elements)...};
  Net::reset_state();
  for (int n = 0, runs = invocations(dir); n < runs; ++n)
    Net::run(reinterpret_cast<const typename Net::template input<I>::element_type*>(inputs[I].data())...,
             std::get<O>(outputs).elements.get()...);
  const auto check = [&](std::size_t k, const auto& got) {
    using element = std::remove_cvref_t<decltype(got.elements[0])>;
    std::vector<char> want;
    const std::string path = dir + "/output_" + std::to_string(k) + ".bin";
    if (!read_file(path, want)) {
      std::printf("FAIL %s: cannot read %s\n", name, path.c_str());
      ok = false;
      return;
    }
    const auto c = ctnn_tools::compare_output(Net::module.output_tensor(static_cast<std::int32_t>(k)).type,
                                              reinterpret_cast<const char*>(got.elements.get()), got.count * sizeof(element),
                                              want.data(), want.size(), t);
    if (!c.size_problem.empty() || c.mismatches != 0) {
      std::printf("FAIL %s: output %u: %s%u of %u elements differ\n", name, static_cast<unsigned>(k), c.size_problem.c_str(),
                  static_cast<unsigned>(c.mismatches), static_cast<unsigned>(got.count));
      for (const auto& e : c.first)
        std::printf("  element %u: got %g, expected %g\n", static_cast<unsigned>(e.element), e.got, e.want);
      ok = false;
    }
  };
  (check(O, std::get<O>(outputs)), ...);
  return ok;
}

// Runs the compiled model Net on the case in `dir`; prints what differs.
template <class Net>
bool check(const char* name, const char* dir, ctnn_tools::tolerance t) {
  return run<Net>(name, dir, t, std::make_index_sequence<Net::input_count>{}, std::make_index_sequence<Net::output_count>{});
}

}  // namespace op_case
