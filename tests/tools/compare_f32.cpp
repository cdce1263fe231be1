// compare-f32 <got.bin> <want.bin>: whether two raw little-endian float32 files agree within the MLPerf
// Tiny references' tolerance (../shared/models/mlperf-tiny/README.md): |got - want| <= 1e-5 * max|want| +
// 1e-4 * |want| for every element. Exit status 0 when they do, 1 when not (the first difference is
// printed), 2 for usage and I/O errors. tests/tools/check_run_refs.cmake uses it for the float models.
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

#include <ctnn/ir/little_endian.hpp>

namespace {

bool read_floats(const char* path, std::vector<float>& values) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (bytes.size() % sizeof(float) != 0) return false;
  values.resize(bytes.size() / sizeof(float));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = ctnn::load_le<float>(bytes.data(), 4 * i);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<float> got, want;
  if (argc != 3 || !read_floats(argv[1], got) || !read_floats(argv[2], want)) {
    std::fprintf(stderr, "usage: %s <got.bin> <want.bin> (raw float32 files)\n", argv[0]);
    return 2;
  }
  if (got.size() != want.size()) {
    std::printf("%zu elements, expected %zu\n", got.size(), want.size());
    return 1;
  }
  float largest = 0.0f;
  for (const float v : want) largest = std::fmax(largest, std::fabs(v));
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!(std::fabs(got[i] - want[i]) <= 1e-5f * largest + 1e-4f * std::fabs(want[i]))) {
      std::printf("element %zu is %.9g, expected %.9g\n", i, static_cast<double>(got[i]), static_cast<double>(want[i]));
      return 1;
    }
  return 0;
}
