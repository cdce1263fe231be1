// Unit tests of ir/printer.hpp: print_summary and print_memory_plan into a std::string sink. The
// expected lines are built from the documented layout (index in 4 columns, two spaces, kind in 18, name
// in 14, "+activation" in 9, input shape -> output shape; memory rows: offset in 8, bytes in 10, two
// spaces, tensor name) and the numbers worked out for the shared models in test_modules.hpp.
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/ir/printer.hpp>
#include <ctnn/pass/pipeline.hpp>

#include "test_modules.hpp"

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in{text};
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string left(std::string_view text, std::size_t width) {
  std::string s{text};
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}
std::string right(std::string_view text, std::size_t width) {
  std::string s{text};
  if (s.size() < width) s.insert(0, width - s.size(), ' ');
  return s;
}

std::string op_row(int index, std::string_view kind, std::string_view label, std::string_view fused, std::string_view in,
                   std::string_view out) {
  // Built with appends only (operator+ on a literal and a temporary trips GCC 12's -Wrestrict, PR105651).
  std::string row = right(std::to_string(index), 4);
  row += "  ";
  row += left(kind, 18);
  row += left(label, 14);
  if (fused.empty()) {
    row.append(9, ' ');
  } else {
    row += '+';
    row += left(fused, 8);
  }
  row += in;
  row += " -> ";
  row += out;
  return row;
}
std::string memory_row(std::int64_t offset, std::int64_t bytes, std::string_view label) {
  std::string row = right(std::to_string(offset), 8);
  row += right(std::to_string(bytes), 10);
  row += "  ";
  row += label;
  return row;
}

template <class Module>
std::string summary_of(const Module& m) {
  std::string text;
  ctnn::print_summary(m, [&text](std::string_view s) { text += s; });
  return text;
}
template <class Module>
std::string memory_plan_of(const Module& m) {
  std::string text;
  ctnn::print_memory_plan(m, [&text](std::string_view s) { text += s; });
  return text;
}

constexpr auto& tiny = ctnn::compiled_v<ctnn_test::tiny_cnn>;
constexpr auto& graph = ctnn::compiled_v<ctnn_test::small_graph>;

TEST_CASE("print_summary: the tiny CNN") {
  const auto lines = lines_of(summary_of(tiny));
  // 10 tensors: input, 4 weight arrays, 5 op outputs.
  const std::vector<std::string> expected{
      "model tiny: 5 ops, 10 tensors",
      op_row(0, "conv2d", "conv2d_0", "relu", "[1,6,6,3]", "[1,6,6,4]"),
      op_row(1, "max_pool", "max_pool_1", "", "[1,6,6,4]", "[1,3,3,4]"),
      op_row(2, "reshape", "reshape_2", "", "[1,3,3,4]", "[1,36]"),
      op_row(3, "dense", "dense_3", "", "[1,36]", "[1,3]"),
      op_row(4, "softmax", "softmax_4", "", "[1,3]", "[1,3]"),
      "parameters: 223",  // 108 + 4 + 108 + 3
  };
  CHECK(lines == expected);
  // One line spelled out literally as well.
  REQUIRE(lines.size() > 2);
  CHECK(lines[1] == "   0  conv2d            conv2d_0      +relu    [1,6,6,3] -> [1,6,6,4]");
  CHECK(lines[2] == "   1  max_pool          max_pool_1             [1,6,6,4] -> [1,3,3,4]");
}

TEST_CASE("print_summary: a graph (first input's shape; parameters from both constants)") {
  const auto lines = lines_of(summary_of(graph));
  const std::vector<std::string> expected{
      "model graph: 5 ops, 8 tensors",
      op_row(0, "conv2d", "a", "", "[1,4,4,2]", "[1,4,4,2]"),
      op_row(1, "relu", "b", "", "[1,4,4,2]", "[1,4,4,2]"),
      op_row(2, "add", "c", "", "[1,4,4,2]", "[1,4,4,2]"),
      op_row(3, "concat", "d", "", "[1,4,4,2]", "[1,4,4,4]"),
      op_row(4, "global_avg_pool", "out", "", "[1,4,4,4]", "[1,1,1,4]"),
      "parameters: 6",
  };
  CHECK(lines == expected);
}

TEST_CASE("print_memory_plan: arena, bound and one row per arena tensor") {
  // See unit_memory.cpp: conv out @0 (576 B), pool @576 (144 B), flatten @0 (144 B), dense @144 (12 B).
  const auto lines = lines_of(memory_plan_of(tiny));
  const std::vector<std::string> expected{
      "arena: 720 bytes (alignment 16), liveness lower bound 720 bytes at op 1",
      "  offset     bytes  tensor",
      memory_row(0, 576, "conv2d_0"),
      memory_row(576, 144, "max_pool_1"),
      memory_row(0, 144, "reshape_2"),
      memory_row(144, 12, "dense_3"),
  };
  CHECK(lines == expected);
  REQUIRE(lines.size() > 3);
  CHECK(lines[3] == "     576       144  max_pool_1");
  // Inputs, outputs and constants live outside the arena and are not listed.
  const std::string text = memory_plan_of(tiny);
  CHECK(text.find("softmax_4") == std::string::npos);
  CHECK(text.find("conv2d_0_0") == std::string::npos);
  CHECK(text.find("input") == std::string::npos);
}

TEST_CASE("print_memory_plan: the graph (d @0, a @0, b @256, c @384)") {
  const auto lines = lines_of(memory_plan_of(graph));
  const std::vector<std::string> expected{
      "arena: 512 bytes (alignment 16), liveness lower bound 512 bytes at op 3",
      "  offset     bytes  tensor",
      memory_row(0, 128, "a"),
      memory_row(256, 128, "b"),
      memory_row(384, 128, "c"),
      memory_row(0, 256, "d"),
  };
  CHECK(lines == expected);
}

TEST_CASE("print_memory_plan: no arena, negative and 64-bit numbers") {
  using no_arena = ctnn::dsl::sequential<ctnn::dsl::input<ctnn::f32, 1, 5>, ctnn::dsl::relu>;
  const auto lines = lines_of(memory_plan_of(ctnn::compiled_v<no_arena>));
  const std::vector<std::string> expected{
      "arena: 0 bytes (alignment 16), liveness lower bound 0 bytes at op -1",
      "  offset     bytes  tensor",
  };
  CHECK(lines == expected);
  auto big = tiny;
  big.arena_bytes = 5'000'000'000;
  big.allocations[static_cast<std::size_t>(big.node_at(0).output)].offset = 123'456'789;
  const std::string text = memory_plan_of(big);
  CHECK(text.find("arena: 5000000000 bytes") != std::string::npos);
  // A number wider than its column is printed whole (no truncation).
  CHECK(text.find("123456789       576  conv2d_0") != std::string::npos);
}

TEST_CASE("printers accept any callable sink, also by rvalue; text only goes through it") {
  struct collector {
    std::string* text;
    int* calls;
    void operator()(std::string_view s) const {
      *text += s;
      ++*calls;
    }
  };
  std::string text;
  int calls = 0;
  ctnn::print_summary(tiny, collector{&text, &calls});
  CHECK(text == summary_of(tiny));
  CHECK(calls > 10);
  // Before planning the summary already has the shapes.
  const std::string early = summary_of(ctnn::stage_v<ctnn_test::tiny_cnn, ctnn::default_pipeline, 1>);
  CHECK(early == text);
}

}  // namespace
