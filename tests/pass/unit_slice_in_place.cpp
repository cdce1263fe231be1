// Slices in place (ctnn::slice_in_place, docs/memory.md): a split's parts that are contiguous blocks of its
// input are stored inside the input's buffer. On a TFLite model of the shape family (split_then_concat_f32:
// SPLIT of an f32[6,4] along axis 0 into three [2,4] parts, concatenated in another order): the later two
// parts get no buffer of their own (the first is a view already), the arena shrinks by their bytes, and the
// outputs stay equal to TFLM's, bit for bit.
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/ctnn.hpp>
#include <ctnn/models/split_then_concat.hpp>

namespace {

using plain = ctnn::compile<ctnn::models::split_then_concat, ctnn::io_in_arena>;
using sliced = ctnn::compile<ctnn::models::split_then_concat, ctnn::io_in_arena, ctnn::slice_in_place>;
using reused = ctnn::compile<ctnn::models::split_then_concat, ctnn::io_in_arena, ctnn::memory_reuse>;

static_assert(plain::module.slices_in_place == 0 && sliced::module.slices_in_place == 2 && reused::module.slices_in_place == 2);
// The input (96 B), the two later parts (32 B each) and the output (96 B) are live at the concat; in place,
// the parts are bytes of the input.
static_assert(plain::arena_bytes == 256 && sliced::arena_bytes == 192 && reused::arena_bytes == 192);
// Their calls then copy nothing (their bytes are the input's): the executor skips both (kernel_params::in_place 2).
static_assert(plain::module.copies_skipped == 0 && sliced::module.copies_skipped == 2 && sliced::module.bytes_not_copied == 64 &&
              reused::module.copies_skipped == 2);

std::vector<float> read_floats(const std::string& path) {
  std::vector<float> values;
  if (std::FILE* file = std::fopen(path.c_str(), "rb")) {
    float v;
    while (std::fread(&v, sizeof v, 1, file) == 1) values.push_back(v);
    std::fclose(file);
  }
  return values;
}

// The model's input and output live in the arena (io_in_arena): copied in and out.
template <class Net>
std::array<float, 24> run_case(const std::vector<float>& input) {
  std::array<float, 24> output{};
  std::memcpy(Net::template input<0>::data(), input.data(), Net::template input<0>::bytes);
  Net::run();
  std::memcpy(output.data(), Net::template output<0>::data(), Net::template output<0>::bytes);
  return output;
}

}  // namespace

TEST_CASE("slices in place: the split's parts inside its input, TFLM's outputs bit for bit") {
  const std::vector<float> input = read_floats(CTNN_SPLIT_CASE_DIR "/input_0.bin");
  const std::vector<float> expected = read_floats(CTNN_SPLIT_CASE_DIR "/output_0.bin");
  REQUIRE(input.size() == 24);
  REQUIRE(expected.size() == 24);
  for (const auto& got : {run_case<plain>(input), run_case<sliced>(input), run_case<reused>(input)})
    CHECK(std::memcmp(got.data(), expected.data(), sizeof got) == 0);
}
