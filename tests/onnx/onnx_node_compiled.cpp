// An ONNX backend node test (../shared/onnx-node-tests/<CTNN_ONNX_NODE_TEST>) through the compile-time
// path: its model.onnx embedded by ctnn_add_model and compiled by ctnn::compile, run on
// test_data_set_0/input_K.pb and compared with output_K.pb as the backend tests do (float32: |got - ref| <=
// 1e-7 + 1e-3 |ref|; integers: exact). The folders chosen (tests/onnx/CMakeLists.txt) keep their weights as
// initializers, so the model compiles as exported; the rest of the suite runs through ctnn-run
// (run_node_tests.py).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <tuple>
#include <iterator>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/ctnn.hpp>
#include <ctnn/frontend/protobuf.hpp>
#include <ctnn/models/node_model.hpp>

#define CTNN_STRINGIZE2(x) #x
#define CTNN_STRINGIZE(x) CTNN_STRINGIZE2(x)

using net = ctnn::compile<ctnn::models::node_model>;

namespace {

// TensorProto.DataType of an element type (onnx.proto).
template <class T>
constexpr std::int64_t onnx_data_type() {
  if constexpr (std::is_same_v<T, float>) return 1;
  else if constexpr (std::is_same_v<T, std::uint8_t>) return 2;
  else if constexpr (std::is_same_v<T, std::int8_t>) return 3;
  else if constexpr (std::is_same_v<T, std::int32_t>) return 6;
  else return 7;  // int64
}

// A TensorProto's raw_data (field 9) as elements of T; its data_type (field 2) must be T's.
template <class T>
std::vector<T> read_tensor(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  ctnn::protobuf::reader r{bytes.data(), bytes.size()};
  const auto message = r.whole();
  REQUIRE(r.int_field(message, 2) == onnx_data_type<T>());
  const ctnn::protobuf::span raw = r.message_field(message, 9);
  REQUIRE(!r.failed());
  std::vector<T> values(raw.length / sizeof(T));
  std::memcpy(values.data(), bytes.data() + raw.at, values.size() * sizeof(T));
  return values;
}

template <class T>
bool close_enough(T got, T expected) {
  if constexpr (std::is_floating_point_v<T>) return std::fabs(got - expected) <= 1e-7f + 1e-3f * std::fabs(expected);
  else return got == expected;
}

template <std::size_t K>
using input_t = typename net::input<K>::element_type;
template <std::size_t K>
using output_t = typename net::output<K>::element_type;

template <std::size_t... I, std::size_t... O>
void run_and_check(const std::string& dir, std::index_sequence<I...>, std::index_sequence<O...>) {
  const auto path = [&](const char* kind, std::size_t k) { return dir + "/" + kind + "_" + std::to_string(k) + ".pb"; };
  std::tuple<std::vector<input_t<I>>...> inputs{read_tensor<input_t<I>>(path("input", I))...};
  std::tuple<std::vector<output_t<O>>...> expected{read_tensor<output_t<O>>(path("output", O))...};
  std::tuple<std::vector<output_t<O>>...> outputs{std::vector<output_t<O>>(net::output<O>::elements)...};
  const auto require_elements = [](std::size_t got, std::size_t wanted) { REQUIRE(got == wanted); };
  (require_elements(std::get<I>(inputs).size(), net::input<I>::elements), ...);
  (require_elements(std::get<O>(expected).size(), net::output<O>::elements), ...);
  net::run(std::get<I>(inputs).data()..., std::get<O>(outputs).data()...);
  const auto check = [](std::size_t k, const auto& got, const auto& want) {
    for (std::size_t i = 0; i < got.size(); ++i) {
      CAPTURE(k);
      CAPTURE(i);
      CHECK(close_enough(got[i], want[i]));
    }
  };
  (check(O, std::get<O>(outputs), std::get<O>(expected)), ...);
}

}  // namespace

TEST_CASE("the ONNX node test compiled by ctnn::compile matches its expected outputs") {
  const std::string dir = std::string{CTNN_ONNX_NODE_TESTS_DIR} + "/" + CTNN_STRINGIZE(CTNN_ONNX_NODE_TEST) + "/test_data_set_0";
  run_and_check(dir, std::make_index_sequence<net::input_count>{}, std::make_index_sequence<net::output_count>{});
}
