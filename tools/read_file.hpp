#pragma once
// File input and output of the host tools. read_file reads a whole file: A path that does not exist, a directory, a file that cannot be
// read or one over 2 GiB (larger than any model file the readers take) gives a reason in words, never an
// exception: std::ifstream opens a directory and its underflow then throws std::ios_base::failure.
#include <sys/stat.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace ctnn_tools {

inline constexpr std::size_t max_file_bytes = std::size_t{1} << 31;

// The bytes of the file at `path` in `bytes`; false with the reason in `problem` when it cannot be read.
inline bool read_file(const char* path, std::vector<char>& bytes, std::string& problem) {
  struct stat info {};
  if (::stat(path, &info) != 0) {
    problem = std::strerror(errno);
    return false;
  }
  if (S_ISDIR(info.st_mode)) {
    problem = "it is a directory";
    return false;
  }
  std::FILE* file = std::fopen(path, "rb");
  if (file == nullptr) {
    problem = std::strerror(errno);
    return false;
  }
  bytes.clear();
  char buffer[1 << 16];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, file)) > 0 && bytes.size() <= max_file_bytes)
    bytes.insert(bytes.end(), buffer, buffer + got);
  const int reason = errno;
  const bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed) {
    problem = std::strerror(reason);
    return false;
  }
  if (bytes.size() > max_file_bytes) {
    problem = "it is larger than 2 GiB";
    return false;
  }
  return true;
}

// Writes text to a stream; an empty view may have a null data() pointer, which fwrite must not get.
inline void write_text(std::FILE* stream, std::string_view text) {
  if (!text.empty()) std::fwrite(text.data(), 1, text.size(), stream);
}

}  // namespace ctnn_tools
