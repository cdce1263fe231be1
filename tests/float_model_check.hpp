#pragma once
// Checks a compiled float model with one input and one output against stored reference files (raw
// little-endian float32): input_<k>.bin in `dir`, the expected output in output_<k><suffix>. Tolerance (the
// README's): |got - ref| <= 1e-5 * max|ref| + 1e-4 * |ref|. Shared by the TFLite and ONNX model tests.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

namespace ctnn_test {

// folder/name, by appends: g++ 12 gives a false -Warray-bounds on some chains of std::string + at -O1.
inline std::string path_of(std::string_view folder, std::string_view name) {
  std::string path{folder};
  path += '/';
  path += name;
  return path;
}

inline std::vector<float> read_floats(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::vector<float> values(bytes.size() / sizeof(float));
  std::copy(bytes.begin(), bytes.end(), reinterpret_cast<char*>(values.data()));
  return values;
}

template <class Net>
void check_float_model(const std::string& dir, const std::string& output_suffix, int cases) {
  for (int k = 0; k < cases; ++k) {
    CAPTURE(k);
    const std::vector<float> input = read_floats(dir + "/input_" + std::to_string(k) + ".bin");
    const std::vector<float> expected = read_floats(dir + "/output_" + std::to_string(k) + output_suffix);
    REQUIRE(input.size() == Net::template input<0>::elements);
    REQUIRE(expected.size() == Net::template output<0>::elements);
    std::vector<float> output(expected.size(), std::nanf(""));
    Net::run(input.data(), output.data());
    float largest = 0.0f;
    for (const float v : expected) largest = std::max(largest, std::fabs(v));
    for (std::size_t i = 0; i < output.size(); ++i) {
      CAPTURE(i);
      CHECK(std::fabs(output[i] - expected[i]) <= 1e-5f * largest + 1e-4f * std::fabs(expected[i]));
    }
  }
}

}  // namespace ctnn_test
