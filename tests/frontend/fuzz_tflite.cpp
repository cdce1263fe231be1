// A corruption fuzzer for the TFLite reader and importer (not run by ctest; build the target
// frontend_fuzz_tflite, which uses AddressSanitizer and UBSan, and run it by hand):
//
//   frontend_fuzz_tflite <model.tflite> [rounds] [seed]
//
// Each round overwrites 1 to 8 random bytes of a copy (half the time within the first 2 KB, where the
// tables are), truncates one copy in eight, imports it from a heap block of exactly its size, and runs
// infer_types on what the importer accepts. A sanitizer report or a crash is a bug; the counts are printed.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <vector>

#include <ctnn/frontend/tflite.hpp>
#include <ctnn/pass/infer_types.hpp>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <model.tflite> [rounds] [seed]\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (bytes.empty()) return 2;
  const long rounds = argc > 2 ? std::atol(argv[2]) : 100000;
  std::uint32_t state = argc > 3 ? static_cast<std::uint32_t>(std::atol(argv[3])) : 12345u;
  const auto next = [&state] {
    state ^= state << 13, state ^= state >> 17, state ^= state << 5;
    return state;
  };
  auto m = std::make_unique<ctnn::module<1024, 512>>();
  long accepted = 0;
  for (long r = 0; r < rounds; ++r) {
    std::vector<char> copy = bytes;
    const std::uint32_t writes = 1 + next() % 8;
    const std::size_t window = next() % 2 != 0 ? std::min<std::size_t>(copy.size(), 2048) : copy.size();
    for (std::uint32_t w = 0; w < writes; ++w) copy[next() % window] = static_cast<char>(next() >> 24);
    const std::size_t size = next() % 8 == 0 ? next() % copy.size() : copy.size();
    const auto exact = std::make_unique<char[]>(size == 0 ? 1 : size);
    std::copy(copy.begin(), copy.begin() + static_cast<std::ptrdiff_t>(size), exact.get());
    static_cast<void>(ctnn::tflite::count(exact.get(), size));
    *m = ctnn::tflite::import<1024, 512>(exact.get(), size);
    if (!m->error.failed()) {
      ++accepted;
      *m = ctnn::pass::infer_types::run(*m);
    }
  }
  std::printf("%ld rounds, %ld corrupted copies accepted (changes in weight data, mostly)\n", rounds, accepted);
  return 0;
}
