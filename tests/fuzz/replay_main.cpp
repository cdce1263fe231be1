// The main() of a fuzz target's replay executable (fuzz_<target>_replay): built with any compiler, without
// libFuzzer, it calls the target once on each file given, and on each file in each directory given (the
// regression inputs of tests/fuzz/regressions/<target>/ and the seed models). A crash or a sanitizer
// report fails the test; otherwise it prints how many inputs it ran.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "../../tools/read_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

bool replay(const std::filesystem::path& path, std::size_t& count) {
  std::vector<char> bytes;
  std::string problem;
  if (!ctnn_tools::read_file(path.c_str(), bytes, problem)) {
    std::fprintf(stderr, "cannot read %s: %s\n", path.c_str(), problem.c_str());
    return false;
  }
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  ++count;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t count = 0;
  for (int a = 1; a < argc; ++a) {
    const std::filesystem::path path = argv[a];
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) {
      for (const auto& entry : std::filesystem::directory_iterator(path, error))
        if (entry.is_regular_file(error) && entry.path().extension() != ".md" && !replay(entry.path(), count)) return 1;
    } else if (!replay(path, count)) {
      return 1;
    }
  }
  std::printf("replayed %zu inputs without a crash\n", count);
  return 0;
}
