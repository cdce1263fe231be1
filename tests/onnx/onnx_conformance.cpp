// A float ONNX model of ../shared/models/onnx (CTNN_ONNX_MODEL), embedded by ctnn_add_model, compiled by
// the default pipeline and run on its four stored inputs: every output within the README's tolerance of
// onnxruntime's, |got - ref| <= 1e-5 * max|ref| + 1e-4 * |ref|. Inputs and outputs are NCHW (the model's
// own layout), fed and read as onnxruntime does.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <fstream>
#include <iterator>
#include <string>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/ctnn.hpp>
#include <ctnn/models/onnx_model.hpp>

#define CTNN_STRINGIZE2(x) #x
#define CTNN_STRINGIZE(x) CTNN_STRINGIZE2(x)

using net = ctnn::compile<ctnn::models::onnx_model>;
static_assert(net::input_count == 1 && net::output_count == 1);
static_assert(std::is_same_v<net::input<0>::element_type, float>);

namespace {
std::vector<float> read_floats(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::vector<float> values(bytes.size() / sizeof(float));
  std::copy(bytes.begin(), bytes.end(), reinterpret_cast<char*>(values.data()));
  return values;
}
}  // namespace

TEST_CASE("the float ONNX model matches onnxruntime's outputs") {
  const std::string dir = std::string{CTNN_ONNX_MODELS_DIR} + "/" + CTNN_STRINGIZE(CTNN_ONNX_MODEL);
  for (int k = 0; k < 4; ++k) {
    CAPTURE(k);
    const std::vector<float> input = read_floats(dir + "/input_" + std::to_string(k) + ".bin");
    const std::vector<float> expected = read_floats(dir + "/output_" + std::to_string(k) + ".ort.bin");
    REQUIRE(input.size() == net::input<0>::elements);
    REQUIRE(expected.size() == net::output<0>::elements);
    std::vector<float> output(expected.size(), std::nanf(""));
    net::run(input.data(), output.data());
    float largest = 0.0f;
    for (const float v : expected) largest = std::max(largest, std::fabs(v));
    for (std::size_t i = 0; i < output.size(); ++i) {
      CAPTURE(i);
      CHECK(std::fabs(output[i] - expected[i]) <= 1e-5f * largest + 1e-4f * std::fabs(expected[i]));
    }
  }
}
