// An ONNX backend node test (../shared/onnx-node-tests/<CTNN_ONNX_NODE_TEST>) through the compile-time
// path: its model.onnx embedded by ctnn_add_model and compiled by ctnn::compile, run on
// test_data_set_0/input_K.pb and compared with output_K.pb as the backend tests do (|got - ref| <= 1e-7 +
// 1e-3 |ref|). The folders chosen (tests/onnx/CMakeLists.txt) keep their weights as initializers, so the
// model compiles as exported; the rest of the suite runs through ctnn-run (run_node_tests.py).
#include <cmath>
#include <cstddef>
#include <cstring>
#include <fstream>
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

// A float32 TensorProto's raw_data (field 9) as floats; its data_type (field 2) must be FLOAT (1).
std::vector<float> read_tensor(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  ctnn::protobuf::reader r{bytes.data(), bytes.size()};
  const auto message = r.whole();
  REQUIRE(r.int_field(message, 2) == 1);
  const ctnn::protobuf::span raw = r.message_field(message, 9);
  REQUIRE(!r.failed());
  std::vector<float> values(raw.length / sizeof(float));
  std::memcpy(values.data(), bytes.data() + raw.at, values.size() * sizeof(float));
  return values;
}

template <std::size_t... I, std::size_t... O>
void run_net(const std::vector<std::vector<float>>& inputs, std::vector<std::vector<float>>& outputs, std::index_sequence<I...>,
             std::index_sequence<O...>) {
  net::run(inputs[I].data()..., outputs[O].data()...);
}

}  // namespace

TEST_CASE("the ONNX node test compiled by ctnn::compile matches its expected outputs") {
  const std::string dir = std::string{CTNN_ONNX_NODE_TESTS_DIR} + "/" + CTNN_STRINGIZE(CTNN_ONNX_NODE_TEST) + "/test_data_set_0";
  std::vector<std::vector<float>> inputs, expected, outputs;
  for (std::size_t k = 0; k < net::input_count; ++k) inputs.push_back(read_tensor(dir + "/input_" + std::to_string(k) + ".pb"));
  for (std::size_t k = 0; k < net::output_count; ++k) {
    expected.push_back(read_tensor(dir + "/output_" + std::to_string(k) + ".pb"));
    outputs.emplace_back(expected.back().size(), std::nanf(""));
  }
  const std::vector<std::size_t> input_elements = []<std::size_t... I>(std::index_sequence<I...>) {
    return std::vector<std::size_t>{net::input<I>::elements...};
  }(std::make_index_sequence<net::input_count>{});
  for (std::size_t k = 0; k < inputs.size(); ++k) REQUIRE(inputs[k].size() == input_elements[k]);
  run_net(inputs, outputs, std::make_index_sequence<net::input_count>{}, std::make_index_sequence<net::output_count>{});
  for (std::size_t k = 0; k < outputs.size(); ++k)
    for (std::size_t i = 0; i < outputs[k].size(); ++i) {
      CAPTURE(k);
      CAPTURE(i);
      CHECK(std::fabs(outputs[k][i] - expected[k][i]) <= 1e-7f + 1e-3f * std::fabs(expected[k][i]));
    }
}
