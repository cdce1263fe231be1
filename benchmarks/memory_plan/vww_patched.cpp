// VWW (MLPerf Tiny int8) compiled by ctnn::compile, with (-DCTNN_VWW_PATCHED) or without the automatic patch
// stage (docs/memory.md "Patch execution"; -DCTNN_VWW_EXPLICIT: the same prefix and grid given explicitly),
// memory_reuse + io_in_arena; -DCTNN_VWW_STREAMED: the automatic stage with a streamed input
// (ctnn::streamed_input) and in_place_windows, the issue #16 goal. Building the targets
// (ctnn-vww-whole, ctnn-vww-patched, ctnn-vww-streamed) is the compile-time measure; running one checks TFLM's
// four reference outputs bit for bit and prints its total RAM and host time per inference (the compiled
// kernels):
//   <binary> <refs dir of vww_96_int8>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <span>
#include <string>

#include <ctnn/ctnn.hpp>
#include <ctnn/models/vww_96_int8.hpp>

#if defined(CTNN_VWW_EXPLICIT)  // what the automatic choice picks, given explicitly (no RAM check, no search)
using net = ctnn::compile<ctnn::models::vww_96_int8, ctnn::memory_reuse, ctnn::io_in_arena,
                          ctnn::patch_execution<ctnn::patch_prefix<4>, ctnn::patch_grid<4, 4>>>;
constexpr const char* schedule = "patched (explicit)";
#elif defined(CTNN_VWW_STREAMED)
using net = ctnn::compile<ctnn::models::vww_96_int8, ctnn::memory_reuse, ctnn::io_in_arena, ctnn::in_place_windows,
                          ctnn::patch_execution<ctnn::max_extra_macs<10>, ctnn::streamed_input>>;
constexpr const char* schedule = "patched, streamed input";
static_assert(net::input<0>::streamed && net::total_ram_bytes <= 27'648, "issue #16: VWW in at most 27,648 B");
#elif defined(CTNN_VWW_PATCHED)
using net = ctnn::compile<ctnn::models::vww_96_int8, ctnn::memory_reuse, ctnn::io_in_arena, ctnn::patch_execution<ctnn::max_extra_macs<10>>>;
constexpr const char* schedule = "patched";
#else
using net = ctnn::compile<ctnn::models::vww_96_int8, ctnn::memory_reuse, ctnn::io_in_arena>;
constexpr const char* schedule = "whole";
#endif

namespace {
#if defined(CTNN_VWW_STREAMED)
// The image as a camera would deliver it: rows on request, in order (checked), each row once.
alignas(16) char image[net::input<0>::bytes];
std::int32_t next_row = 0;
bool rows_in_order = true;
void camera_rows(void*, std::int32_t first_row, std::int32_t row_count, std::span<std::byte> rows) {
  rows_in_order = rows_in_order && first_row >= next_row && rows.size() == static_cast<std::size_t>(row_count) * net::input<0>::row_bytes;
  next_row = first_row + row_count;
  std::memcpy(rows.data(), image + static_cast<std::size_t>(first_row) * net::input<0>::row_bytes, rows.size());
}
const ctnn::row_source camera{camera_rows, nullptr};
void* input_data() { return image; }
void run() {
  next_row = 0;
  net::run(&camera);
}
#else
void* input_data() { return net::input<0>::data(); }
void run() { net::run(); }
#endif

bool read_exactly(const std::string& path, void* data, std::size_t bytes) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return false;
  const std::size_t got = std::fread(data, 1, bytes, file);
  const bool at_end = std::fgetc(file) == EOF;
  std::fclose(file);
  return got == bytes && at_end;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::printf("usage: %s <refs dir of vww_96_int8>\n", argv[0]);
    return 2;
  }
  static char expected[net::output<0>::bytes];
  bool ok = true;
  for (int k = 0; k < 4; ++k) {
    const std::string dir = argv[1];
    if (!read_exactly(dir + "/input_" + std::to_string(k) + ".bin", input_data(), net::input<0>::bytes) ||
        !read_exactly(dir + "/output_" + std::to_string(k) + ".bin", expected, net::output<0>::bytes)) {
      std::printf("cannot read the reference case %d in %s\n", k, argv[1]);
      return 2;
    }
    run();
    ok = ok && std::memcmp(net::output<0>::data(), expected, net::output<0>::bytes) == 0;
#if defined(CTNN_VWW_STREAMED)
    ok = ok && rows_in_order;
#endif
  }
  const auto start = std::chrono::steady_clock::now();
  int runs = 0;
  do {
    run();
    ++runs;
  } while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(500));
  const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / runs;
  std::printf("VWW %s: total RAM %zu B, %zu calls, %.1f us per inference (host, compiled kernels), TFLM's outputs %s\n", schedule,
              static_cast<std::size_t>(net::total_ram_bytes), static_cast<std::size_t>(net::call_count), us,
              ok ? "bit for bit" : "DIFFER");
  return ok ? 0 : 1;
}
