#pragma once
// One case of a conformance suite through the compile-time route (ctnn_add_case_suite, tests/CMakeLists.txt):
// the case's model compiled by ctnn::compile runs on the case's inputs, and every output is compared with
// the case's reference by the rule ctnn-run --expect applies (tools/expected_output.hpp). A case's data
// folder holds input_<k> and output_<k> files, either raw little-endian elements (.bin, the op suites of
// tests/data/ops) or ONNX TensorProto messages whose values are in raw_data (.pb, ONNX's node tests).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/ctnn.hpp>
#include <ctnn/frontend/protobuf.hpp>

#include "expected_output.hpp"

namespace ctnn_test::case_suite {

inline std::vector<char> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The raw little-endian elements of `<dir>/<kind>_<k>.bin`, or of the raw_data (field 9) of the TensorProto
// `<dir>/<kind>_<k>.pb`.
inline std::vector<char> read_tensor(const std::string& dir, const char* kind, std::size_t k) {
  const std::string stem = dir + "/" + kind + "_" + std::to_string(k);
  if (std::filesystem::exists(stem + ".bin")) return read_bytes(stem + ".bin");
  const std::vector<char> bytes = read_bytes(stem + ".pb");
  ctnn::protobuf::reader r{bytes.data(), bytes.size()};
  const ctnn::protobuf::span raw = r.message_field(r.whole(), 9);
  REQUIRE_MESSAGE(!r.failed(), stem << ".pb: no raw_data");
  return {bytes.begin() + raw.at, bytes.begin() + raw.end()};
}

// An output's elements (not a std::vector: std::vector<bool> has no data()).
template <class T>
struct output_buffer {
  using value_type = T;
  explicit output_buffer(std::size_t n) : elements(std::make_unique<T[]>(n)), count(n) {}
  T* data() { return elements.get(); }
  const T* data() const { return elements.get(); }
  std::size_t size() const { return count; }
  std::unique_ptr<T[]> elements;
  std::size_t count;
};

// How many times a case runs (its folder's file `invocations`: a stateful model's state carries between them).
inline int invocations(const std::string& dir) {
  std::ifstream file(dir + "/invocations");
  int runs = 1;
  if (file) file >> runs;
  return runs;
}

template <class Net, std::size_t... I, std::size_t... O>
void run_case(const std::string& dir, ctnn_tools::tolerance t, std::index_sequence<I...>, std::index_sequence<O...>) {
  std::vector<std::vector<char>> inputs{read_tensor(dir, "input", I)...};
  const auto require_size = [](std::size_t k, std::size_t got, std::size_t wanted) {
    CAPTURE(k);
    REQUIRE(got == wanted);
  };
  (require_size(I, inputs[I].size(), Net::template input<I>::elements * sizeof(typename Net::template input<I>::element_type)), ...);
  std::tuple<output_buffer<typename Net::template output<O>::element_type>...> outputs{
      output_buffer<typename Net::template output<O>::element_type>(Net::template output<O>::elements)...};
  // A stateful case runs `invocations` times (the file's number; 1 without it) on the same inputs, from the
  // initial state, as the reference runtime did.
  Net::reset_state();
  for (int n = 0, runs = invocations(dir); n < runs; ++n)
    Net::run(reinterpret_cast<const typename Net::template input<I>::element_type*>(inputs[I].data())...,
             std::get<O>(outputs).data()...);
  const auto check = [&](std::size_t k, const auto& got) {
    using element = typename std::remove_cvref_t<decltype(got)>::value_type;
    const std::vector<char> want = read_tensor(dir, "output", k);
    const auto c = ctnn_tools::compare_output(Net::module.output_tensor(static_cast<std::int32_t>(k)).type,
                                              reinterpret_cast<const char*>(got.data()), got.size() * sizeof(element),
                                              want.data(), want.size(), t);
    CAPTURE(k);
    CHECK_MESSAGE(c.size_problem.empty(), c.size_problem);
    for (const auto& e : c.first) {
      CAPTURE(e.element);
      CHECK_MESSAGE(false, "got " << e.got << ", expected " << e.want);
    }
    CHECK(c.mismatches == 0);
  };
  (check(O, std::get<O>(outputs)), ...);
}

// Runs the compiled model `Net` on the case in `dir` and checks every output.
template <class Net>
void check(const std::string& dir, ctnn_tools::tolerance t) {
  run_case<Net>(dir, t, std::make_index_sequence<Net::input_count>{}, std::make_index_sequence<Net::output_count>{});
}

}  // namespace ctnn_test::case_suite
