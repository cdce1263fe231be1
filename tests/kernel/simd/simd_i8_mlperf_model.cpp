// An int8 MLPerf Tiny model (CTNN_MLPERF_MODEL), embedded by ctnn_add_model and compiled by the default
// pipeline, run through the executor (so the vectorised int8 kernels read their weights as packed at
// compile time, runtime/packed_operands.hpp) on the four TFLM reference inputs: every output byte must
// equal TFLM's (refs/<model>/output_<k>.bin).
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/ctnn.hpp>
#include <ctnn/models/mlperf_model.hpp>

#define CTNN_STRINGIZE2(x) #x
#define CTNN_STRINGIZE(x) CTNN_STRINGIZE2(x)

using net = ctnn::compile<ctnn::models::mlperf_model>;
static_assert(net::input_count == 1 && net::output_count == 1);
static_assert(std::is_same_v<net::input<0>::element_type, std::int8_t>, "the int8 models only");
static_assert(std::is_same_v<net::output<0>::element_type, std::int8_t>, "the int8 models only");

namespace {
std::vector<std::int8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), path << " cannot be read");
  const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return {bytes.begin(), bytes.end()};
}
}  // namespace

TEST_CASE("the int8 MLPerf Tiny model is bit-exact with TFLM on the reference inputs") {
  const std::string refs = std::string{CTNN_MLPERF_REFS_DIR} + "/" + CTNN_STRINGIZE(CTNN_MLPERF_MODEL);
  for (int k = 0; k < 4; ++k) {
    CAPTURE(k);
    const std::vector<std::int8_t> input = read_bytes(refs + "/input_" + std::to_string(k) + ".bin");
    const std::vector<std::int8_t> expected = read_bytes(refs + "/output_" + std::to_string(k) + ".bin");
    REQUIRE(input.size() == net::input<0>::elements);
    REQUIRE(expected.size() == net::output<0>::elements);
    std::vector<std::int8_t> output(expected.size(), 0x55);
    net::run(input.data(), output.data());
    CHECK(output == expected);
  }
}
