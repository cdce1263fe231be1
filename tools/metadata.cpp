// ctnn-metadata: writes the digits demo model's executor and function metadata as JSON
// (ctnn::write_metadata_json; schema in docs/metadata.md).
//
//   ctnn-metadata              to stdout
//   ctnn-metadata -o FILE      to FILE
#include <cstdio>
#include <cstring>
#include <string_view>

#include <ctnn/pass/pipeline.hpp>
#include <ctnn/runtime/metadata_json.hpp>

#include "digits_model.hpp"

int main(int argc, char** argv) {
  const char* path = nullptr;
  if (argc == 3 && std::strcmp(argv[1], "-o") == 0) {
    path = argv[2];
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: %s [-o FILE]\n", argv[0]);
    return 2;
  }
  std::FILE* file = path != nullptr ? std::fopen(path, "wb") : stdout;
  if (file == nullptr) {
    std::fprintf(stderr, "%s: cannot open %s for writing\n", argv[0], path);
    return 1;
  }
  const bool complete = ctnn::write_metadata_json(ctnn::compiled_v<digits::model>, [file](std::string_view text) {
    std::fwrite(text.data(), 1, text.size(), file);
  });
  const bool written = std::ferror(file) == 0;
  if (path != nullptr && std::fclose(file) != 0) {
    std::fprintf(stderr, "%s: cannot write %s\n", argv[0], path);
    return 1;
  }
  if (!written) {
    std::fprintf(stderr, "%s: write error\n", argv[0]);
    return 1;
  }
  return complete ? 0 : 1;
}
