// An MLPerf Tiny model (CTNN_MLPERF_MODEL, embedded by ctnn_add_model) compiled with the default plan and
// with ctnn::in_place_windows, each run under the arena checker (AddressSanitizer trees: no kernel touches
// pool bytes outside its call's planned ranges) on the TFLM reference inputs of
// ../shared/models/mlperf-tiny/refs/<model>: int8 models bit-exact with TFLM, float models within the
// README's tolerance (float_model_check.hpp).
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include "float_model_check.hpp"

#include <ctnn/ctnn.hpp>
#include <ctnn/models/mlperf_model.hpp>

#define CTNN_STRINGIZE2(x) #x
#define CTNN_STRINGIZE(x) CTNN_STRINGIZE2(x)

namespace {

const std::string refs = ctnn_test::path_of(CTNN_MLPERF_REFS_DIR, CTNN_STRINGIZE(CTNN_MLPERF_MODEL));

// Used by the int8 models only.
[[maybe_unused]] std::vector<std::int8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), path << " cannot be read");
  const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return {bytes.begin(), bytes.end()};
}

template <class Net>
void check_on_references() {
  static_assert(Net::input_count == 1 && Net::output_count == 1);
  if constexpr (std::is_same_v<typename Net::template input<0>::element_type, float>) {
    ctnn_test::check_float_model<Net>(refs, ".bin", 4);
  } else {
    static_assert(std::is_same_v<typename Net::template output<0>::element_type, std::int8_t>);
    for (int k = 0; k < 4; ++k) {
      CAPTURE(k);
      const std::vector<std::int8_t> input = read_bytes(refs + "/input_" + std::to_string(k) + ".bin");
      const std::vector<std::int8_t> expected = read_bytes(refs + "/output_" + std::to_string(k) + ".bin");
      REQUIRE(input.size() == Net::template input<0>::elements);
      REQUIRE(expected.size() == Net::template output<0>::elements);
      std::vector<std::int8_t> output(expected.size(), 0x55);
      Net::run(input.data(), output.data());
      CHECK(output == expected);
    }
  }
}

}  // namespace

TEST_CASE("the MLPerf Tiny model runs within its default plan and matches TFLM") {
  check_on_references<ctnn::compile<ctnn::models::mlperf_model>>();
}

TEST_CASE("the MLPerf Tiny model runs within its plan with in-place windows and matches TFLM") {
  using net = ctnn::compile<ctnn::models::mlperf_model, ctnn::in_place_windows>;
  int in_place_calls = 0;
  for (std::size_t c = 0; c < net::call_count; ++c) in_place_calls += net::module.calls[c].params.in_place == 1 ? 1 : 0;
  MESSAGE(CTNN_STRINGIZE(CTNN_MLPERF_MODEL) << ": " << in_place_calls << " calls in place, arena " << net::arena_bytes << " B ("
                                            << ctnn::compile<ctnn::models::mlperf_model>::arena_bytes << " B without)");
  check_on_references<net>();
}
