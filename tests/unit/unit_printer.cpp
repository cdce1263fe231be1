// Unit tests of print/printer.hpp: print_module, print_summary and print_memory_plan into a std::string
// sink, at several stages of the default pipeline. The expected lines are built from the layouts
// documented in the header (column positions, number widths) and from numbers worked out below for
// small models (shapes, bytes, offsets, lifetimes), not copied from the printer's output.
#include <bit>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/detail/for_each_index.hpp>
#include <ctnn/frontend/dsl.hpp>
#include <ctnn/print/printer.hpp>
#include <ctnn/pass/pipeline.hpp>
#include <ctnn/pass/plan_memory.hpp>

#include "test_modules.hpp"

namespace {

namespace dsl = ctnn::dsl;
using ctnn::default_pipeline;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in{text};
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The lines of `text` from the one equal to `first` up to (not including) the next line that does not
// start with a space (the next section), or the end.
std::vector<std::string> section(const std::string& text, const std::string& first) {
  const auto all = lines_of(text);
  std::vector<std::string> found;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i] != first) continue;
    found.push_back(all[i]);
    for (std::size_t k = i + 1; k < all.size() && !all[k].empty() && all[k][0] == ' '; ++k) found.push_back(all[k]);
    break;
  }
  return found;
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
std::string right(std::int64_t number, std::size_t width) { return right(std::to_string(number), width); }
// Concatenation by appends only (operator+ on a literal and a temporary trips GCC 12's -Wrestrict, PR105651).
std::string cat(std::initializer_list<std::string_view> parts) {
  std::string s;
  for (std::string_view p : parts) s += p;
  return s;
}

// A line of cells, each starting at its column (one space apart when the previous cell reaches it).
struct cell {
  std::string text;
  std::size_t column;
};
std::string row(std::initializer_list<cell> cells) {
  std::string s;
  for (const cell& c : cells) {
    if (s.size() < c.column) s.append(c.column - s.size(), ' ');
    else if (!s.empty()) s += ' ';
    s += c.text;
  }
  return s;
}

// print_module's tensor rows: %id at `at`, name at +5, type at +24, bytes (6 wide) + " B" at +44.
std::string tensor_row(std::string_view prefix, std::size_t at, int id, std::string_view label, std::string_view type,
                       std::string_view bytes) {
  return row({{std::string{prefix}, 0}, {cat({"%", std::to_string(id)}), at}, {std::string{label}, at + 5},
              {std::string{type}, at + 24}, {cat({right(bytes, 6), " B"}), at + 44}});
}
std::string tensor_row(std::string_view prefix, std::size_t at, int id, std::string_view label, std::string_view type,
                       std::int64_t bytes) {
  return tensor_row(prefix, at, id, label, type, std::to_string(bytes));
}
std::string constant_row(int id, std::string_view label, std::string_view type, std::int64_t bytes, std::string_view origin) {
  return cat({tensor_row("", 2, id, label, type, bytes), "  ", origin});
}
// Calls: "  call" + index (2 wide) + "  op N (label)", kernel at column 36.
std::string call_row(int call, int op, std::string_view label, std::string_view kernel) {
  return row({{cat({"  call ", right(call, 2), "  op ", std::to_string(op), " (", label, ")"}), 0}, {std::string{kernel}, 36}});
}
// What select_kernels recorded, as documented: "runs <impl>[ <isa>]" (which kernel runs the call is
// tested in unit_select_kernels; here, how it is printed).
std::string choice_text(const ctnn::kernel_choice& c) {
  std::string text = cat({"runs ", ctnn::name_of(c.impl)});
  if (c.isa != ctnn::instruction_set::none) text += cat({" ", ctnn::name_of(c.isa)});
  return text;
}
// ... and, on a call's row, "  constants: 1 packed, 2 stored" (constant operands 1 and 2: weights, bias).
std::string weights_and_bias_layouts(const ctnn::kernel_choice& c) {
  return cat({"  constants: 1 ", c.packs(1) ? "packed" : "stored", ", 2 ", c.packs(2) ? "packed" : "stored"});
}
// Memory plan rows: offset (8), bytes (10), first (7), last (7), two spaces, name.
std::string memory_row(std::int64_t offset, std::int64_t bytes, int first, int last, std::string_view label,
                       std::string_view indent = "") {
  return cat({indent, right(offset, 8), right(bytes, 10), right(first, 7), right(last, 7), "  ", label});
}
// Function metadata rows: kernel (8), op kind at 10, calls (5) at 28, then workspace, io, constants (11 each).
std::string function_row(int kernel, std::string_view kind, int calls, std::int64_t workspace, std::int64_t io,
                         std::int64_t constants) {
  return row({{right(kernel, 8), 0}, {std::string{kind}, 10},
              {cat({right(calls, 5), right(workspace, 11), right(io, 11), right(constants, 11)}), 28}});
}

std::string summary_row(int index, std::string_view kind, std::string_view label, std::string_view fused,
                        std::string_view in, std::string_view out) {
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

template <class Module>
std::string module_text(const Module& m) {
  std::string text;
  ctnn::print_module(m, [&text](std::string_view s) { text += s; });
  return text;
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

// ---------------------------------------------------------------------------------------------------
// "mini": conv 3x3 same + relu (2 -> 3 channels), max pool 2/2, flatten, dense 12 -> 2.
//   tensors: 0 input [1,4,4,2], 1 conv w (54), 2 conv b (3), 3 conv out [1,4,4,3] (192 B),
//            4 pool out [1,2,2,3] (48 B), 5 flatten [1,12] (a view after alias_reshapes),
//            6 dense w (24), 7 dense b (2), 8 dense out [1,2] (8 B, the model output)
//   3x3 SAME at stride 1 on 4x4: out 4, total padding (4-1)*1 + 3 - 4 = 2, so 1 on every side.
inline constexpr float mini_conv_w[54] = {};
inline constexpr float mini_conv_b[3] = {};
inline constexpr float mini_fc_w[24] = {};
inline constexpr float mini_fc_b[2] = {};
using mini = dsl::named<"mini", dsl::sequential<dsl::input<ctnn::f32, 1, 4, 4, 2>,
                                                 dsl::conv2d<mini_conv_w, mini_conv_b, dsl::kernel<3>, dsl::same, dsl::relu>,
                                                 dsl::max_pool<dsl::kernel<2>, dsl::stride<2>>, dsl::flatten,
                                                 dsl::dense<mini_fc_w, mini_fc_b>>>;

TEST_CASE("print_module: stage 0, as the DSL built it (flat constants, no intermediate shapes)") {
  const auto lines = lines_of(module_text(ctnn::stage_v<mini, default_pipeline, 0>));
  const std::vector<std::string> expected{
      "module \"mini\"",
      "  facts:  none",
      "  counts: 1 input, 1 output, 4 ops, 9 tensors, 0 recipes, 0 calls, 0 kernels",
      "  status: ok",
      "inputs (1)",
      tensor_row("  input 0", 12, 0, "input", "f32[1,4,4,2]", 128),  // 32 floats
      "outputs (1)",
      tensor_row("  output 0", 12, 8, "dense_3", "?", "?"),
      "constants (4)",
      constant_row(1, "conv2d_0_0", "f32[54]", 216, "user data"),
      constant_row(2, "conv2d_0_1", "f32[3]", 12, "user data"),
      constant_row(6, "dense_3_0", "f32[24]", 96, "user data"),
      constant_row(7, "dense_3_1", "f32[2]", 8, "user data"),
      "ops (4)",
      "   0  conv2d \"conv2d_0\" +relu  window 3x3 stride 1x1 padding same groups 1",
      "        (input: f32[1,4,4,2], conv2d_0_0: f32[54], conv2d_0_1: f32[3]) -> conv2d_0: ?",
      "   1  max_pool \"max_pool_1\"  window 2x2 stride 2x2 padding valid",
      "        (conv2d_0: ?) -> max_pool_1: ?",
      "   2  reshape \"reshape_2\"  target [0,-1]",
      "        (max_pool_1: ?) -> reshape_2: ?",
      "   3  dense \"dense_3\"",
      "        (reshape_2: ?, dense_3_0: f32[24], dense_3_1: f32[2]) -> dense_3: ?",
  };
  CHECK(lines == expected);
  // The layout spelled out once: "%id" at 12, name at 17, type at 36, bytes right-aligned to column 62.
  REQUIRE(lines.size() > 5);
  CHECK(lines[5] == "  input 0   %0   input              f32[1,4,4,2]           128 B");
}

TEST_CASE("print_module: after infer_types (canonical weight shapes, output shapes, resolved pads)") {
  const auto lines = lines_of(module_text(ctnn::stage_v<mini, default_pipeline, 1>));
  const std::vector<std::string> expected{
      "module \"mini\"",
      "  facts:  shapes_inferred",
      "  counts: 1 input, 1 output, 4 ops, 9 tensors, 0 recipes, 0 calls, 0 kernels",
      "  status: ok",
      "inputs (1)",
      tensor_row("  input 0", 12, 0, "input", "f32[1,4,4,2]", 128),
      "outputs (1)",
      tensor_row("  output 0", 12, 8, "dense_3", "f32[1,2]", 8),
      "constants (4)",
      constant_row(1, "conv2d_0_0", "f32[3,3,3,2]", 216, "user data"),  // OHWI
      constant_row(2, "conv2d_0_1", "f32[3]", 12, "user data"),
      constant_row(6, "dense_3_0", "f32[2,12]", 96, "user data"),  // [out][in]
      constant_row(7, "dense_3_1", "f32[2]", 8, "user data"),
      "ops (4)",
      "   0  conv2d \"conv2d_0\" +relu  window 3x3 stride 1x1 padding same: t1 l1 b1 r1 groups 1",
      "        (input: f32[1,4,4,2], conv2d_0_0: f32[3,3,3,2], conv2d_0_1: f32[3]) -> conv2d_0: f32[1,4,4,3]",
      "   1  max_pool \"max_pool_1\"  window 2x2 stride 2x2 padding valid",
      "        (conv2d_0: f32[1,4,4,3]) -> max_pool_1: f32[1,2,2,3]",
      "   2  reshape \"reshape_2\"  target [0,-1]",
      "        (max_pool_1: f32[1,2,2,3]) -> reshape_2: f32[1,12]",
      "   3  dense \"dense_3\"",
      "        (reshape_2: f32[1,12], dense_3_0: f32[2,12], dense_3_1: f32[2]) -> dense_3: f32[1,2]",
  };
  CHECK(lines == expected);
}

TEST_CASE("print_module: after alias_reshapes the flatten is a view and no op") {
  const std::string text = module_text(ctnn::stage_v<mini, default_pipeline, 5>);
  CHECK(section(text, "views (1)") == std::vector<std::string>{
                                          "views (1)",
                                          row({{"%5", 2}, {"reshape_2", 7}, {"f32[1,12]", 26}, {"alias_of %4 (max_pool_1)", 46}}),
                                      });
  CHECK(text.find("ops (3)\n") != std::string::npos);
  CHECK(text.find("reshape \"reshape_2\"") == std::string::npos);
  // The dense reads the view.
  CHECK(text.find("        (reshape_2: f32[1,12], dense_3_0: f32[2,12], dense_3_1: f32[2]) -> dense_3: f32[1,2]\n") !=
        std::string::npos);
  // Not lowered yet: no calls, kernels, plan, main or metadata.
  for (const char* absent : {"calls (", "kernels (", "memory plan", "main (", "function metadata", "executor metadata"})
    CHECK_MESSAGE(text.find(absent) == std::string::npos, absent);
}

TEST_CASE("print_module: the final module (calls, kernels, memory plan, main, metadata)") {
  const auto& m = ctnn::compiled_v<mini>;
  const std::string text = module_text(m);
  const auto lines = lines_of(text);
  REQUIRE(lines.size() > 4);
  CHECK(lines[1] == "  facts:  shapes_inferred, kernels_lowered, memory_planned, main_lowered, function_metadata, "
                    "executor_metadata, kernels_selected");
  CHECK(lines[2] == "  counts: 1 input, 1 output, 3 ops, 9 tensors, 0 recipes, 3 calls, 3 kernels");
  const auto choice = [&](std::size_t c) { return m.calls[c].params.choice; };
  CHECK(section(text, "calls (3)") ==
        std::vector<std::string>{
            "calls (3)",
            cat({call_row(0, 0, "conv2d_0", "kernel 0"), "  ", choice_text(choice(0)), weights_and_bias_layouts(choice(0))}),
            cat({call_row(1, 1, "max_pool_1", "kernel 1"), "  ", choice_text(choice(1))}),
            cat({call_row(2, 2, "dense_3", "kernel 2"), "  ", choice_text(choice(2)), weights_and_bias_layouts(choice(2))}),
        });
  CHECK(section(text, "kernels (3 distinct for 3 calls)") ==
        std::vector<std::string>{
            "kernels (3 distinct for 3 calls)",
            "  kernel  0  conv2d f32 +relu [1,4,4,2] -> [1,4,4,3]  window 3x3 stride 1x1 padding same: t1 l1 b1 r1, with bias  " +
                choice_text(choice(0)),
            "  kernel  1  max_pool f32 [1,4,4,3] -> [1,2,2,3]  window 2x2 stride 2x2 padding valid  " + choice_text(choice(1)),
            "  kernel  2  dense f32 [1,12] -> [1,2], with bias  " + choice_text(choice(2)),
        });
  // Arena buffers: conv out 192 B live at ops 0..1, pool out 48 B at ops 1..2 (the dense reads its view);
  // the dense writes the caller's output. Greedy by size: conv @0, pool @192 (both live at op 1);
  // arena 240 = the bound, reached at op 1.
  CHECK(section(text, "memory plan") == std::vector<std::string>{
                                            "memory plan",
                                            "  arena: 240 bytes (alignment 16), liveness lower bound 240 bytes at op 1 (max_pool_1)",
                                            "    offset     bytes  first   last  tensor",
                                            memory_row(0, 192, 0, 1, "conv2d_0", "  "),
                                            memory_row(192, 48, 1, 2, "max_pool_1", "  "),
                                        });
  CHECK(section(text, "main (3 calls)") ==
        std::vector<std::string>{
            "main (3 calls)",
            "  call  0  kernel  0  conv2d_0(input 0, constant conv2d_0_0, constant conv2d_0_1) -> arena+0",
            "  call  1  kernel  1  max_pool_1(arena+0) -> arena+192",
            "  call  2  kernel  2  dense_3(arena+192, constant dense_3_0, constant dense_3_1) -> output 0",
        });
  // Bytes one call touches: conv 128 in + 192 out, 216 + 12 of weights; pool 192 + 48; dense 48 + 8, 96 + 8.
  CHECK(section(text, "function metadata (bytes per call)") ==
        std::vector<std::string>{
            "function metadata (bytes per call)",
            "  kernel  op kind            calls  workspace         io  constants",
            function_row(0, "conv2d", 1, 0, 320, 228),
            function_row(1, "max_pool", 1, 0, 240, 0),
            function_row(2, "dense", 1, 0, 56, 104),
        });
  // Constants: 228 + 104 = 332 bytes.
  CHECK(section(text, "executor metadata") ==
        std::vector<std::string>{
            "executor metadata",
            "  model \"mini\": 3 kernels, 3 calls, 332 constant bytes, alignment 16",
            row({{"  input 0", 0}, {"input", 12}, {"f32[1,4,4,2]", 34}, {cat({right(128, 6), " B"}), 54}}),
            row({{"  output 0", 0}, {"dense_3", 12}, {"f32[1,2]", 34}, {cat({right(8, 6), " B"}), 54}}),
            row({{"  pool 0", 0}, {"arena", 12}, {cat({right(240, 8), " B  alignment 16  read-write"}), 34}}),
            row({{"  pool 1", 0}, {"constants", 12}, {cat({right(332, 8), " B  alignment 4  read-only"}), 34}}),
        });
  // The sections come in pipeline order, the metadata last.
  const auto at = [&text](const char* s) { return text.find(s); };
  CHECK(at("inputs (") < at("ops ("));
  CHECK(at("ops (") < at("calls ("));
  CHECK(at("calls (") < at("kernels ("));
  CHECK(at("kernels (") < at("memory plan"));
  CHECK(at("memory plan") < at("main ("));
  CHECK(at("main (") < at("function metadata"));
  CHECK(at("function metadata") < at("executor metadata"));
}

// ---------------------------------------------------------------------------------------------------
// "twin": two 1x1 convs of equal shapes ([1,4,4,2] -> [1,4,4,2]) share one kernel: their params differ
// only in the weights, which kernels do not carry.
inline constexpr float twin_w1[4] = {1, 0, 0, 1}, twin_b1[2] = {0, 0};
inline constexpr float twin_w2[4] = {0, 1, 1, 0}, twin_b2[2] = {1, 1};
using twin = dsl::named<"twin", dsl::sequential<dsl::input<ctnn::f32, 1, 4, 4, 2>, dsl::conv2d<twin_w1, twin_b1, dsl::kernel<1>>,
                                                 dsl::conv2d<twin_w2, twin_b2, dsl::kernel<1>>, dsl::global_avg_pool>>;

TEST_CASE("print_module: after lower_te, a kernel shared by two calls") {
  constexpr auto& m = ctnn::stage_v<twin, default_pipeline, 6>;  // infer, 2 folds, fuse, alias, lower_te
  static_assert(m.has(ctnn::fact::kernels_lowered) && !m.has(ctnn::fact::memory_planned));
  const std::string text = module_text(m);
  CHECK(section(text, "calls (3)") == std::vector<std::string>{
                                          "calls (3)",
                                          call_row(0, 0, "conv2d_0", "kernel 0 (shared by 2 calls)"),
                                          call_row(1, 1, "conv2d_1", "kernel 0 (shared by 2 calls)"),
                                          call_row(2, 2, "global_avg_pool_2", "kernel 1"),
                                      });
  CHECK(section(text, "kernels (2 distinct for 3 calls)") ==
        std::vector<std::string>{
            "kernels (2 distinct for 3 calls)",
            "  kernel  0  conv2d f32 [1,4,4,2] -> [1,4,4,2]  window 1x1 stride 1x1 padding valid, with bias",
            "  kernel  1  global_avg_pool f32 [1,4,4,2] -> [1,1,1,2]",
        });
  CHECK(lines_of(text)[2] == "  counts: 1 input, 1 output, 3 ops, 8 tensors, 0 recipes, 3 calls, 2 kernels");
  for (const char* absent : {"memory plan", "main (", "function metadata", "executor metadata"})
    CHECK_MESSAGE(text.find(absent) == std::string::npos, absent);
  // Once the metadata exists, the shared kernel is one function with two calls.
  const auto functions = section(module_text(ctnn::compiled_v<twin>), "function metadata (bytes per call)");
  REQUIRE(functions.size() == 4);
  CHECK(functions[2] == function_row(0, "conv2d", 2, 0, 256, 24));  // 128 in + 128 out; 16 + 8 bytes of weights and bias
}

// ---------------------------------------------------------------------------------------------------
// Where constants come from: a folded op (fold_constants) and batch-norm-folded weights and bias
// (fold_batch_norm; the conv has no bias, so the batch norm's offset becomes it).
//   tensors: 0 x, 1 k, 2 kr = relu(k), 3 c_0 (conv weights), 4 c (conv out, orphaned by the fold),
//            5..8 bn_0..bn_3 (scale, offset, mean, variance), 9 bn, 10 y = bn + kr
inline constexpr float rc_k[2] = {-1.0f, 2.0f};
inline constexpr float rc_w[4] = {1, 2, 3, 4};
inline constexpr float rc_scale[2] = {1, 1}, rc_offset[2] = {0, 0}, rc_mean[2] = {0, 0}, rc_var[2] = {1, 1};
using recipes = dsl::named<"recipes", dsl::graph<dsl::outputs<"y">,                                //
                                                 dsl::node<"x", dsl::input<ctnn::f32, 1, 2, 2, 2>>,  //
                                                 dsl::node<"k", dsl::constant<rc_k, 1, 1, 1, 2>>,    //
                                                 dsl::node<"kr", dsl::relu, "k">,                    //
                                                 dsl::node<"c", dsl::conv2d<rc_w, dsl::no_bias, dsl::kernel<1>, dsl::units<2>>, "x">,
                                                 dsl::node<"bn", dsl::batch_norm<rc_scale, rc_offset, rc_mean, rc_var>, "c">,
                                                 dsl::node<"y", dsl::add<>, "bn", "kr">>>;

TEST_CASE("print_module: constants' origins (user data, folded op, batch-norm-folded weights and bias)") {
  // Before folding: the relu and the batch norm are ops; epsilon is printed as %g would.
  const std::string before = module_text(ctnn::stage_v<recipes, default_pipeline, 1>);
  CHECK(before.find("   0  relu \"kr\"\n        (k: f32[1,1,1,2]) -> kr: f32[1,1,1,2]\n") != std::string::npos);
  CHECK(before.find("   2  batch_norm \"bn\"  epsilon 1e-05\n") != std::string::npos);
  CHECK(before.find("   1  conv2d \"c\"  window 1x1 stride 1x1 padding valid groups 1\n"
                    "        (x: f32[1,2,2,2], c_0: f32[2,1,1,2], none) -> c: f32[1,2,2,2]\n") != std::string::npos);

  const std::string text = module_text(ctnn::compiled_v<recipes>);
  CHECK(lines_of(text)[2] == "  counts: 1 input, 1 output, 2 ops, 11 tensors, 3 recipes, 2 calls, 2 kernels");
  CHECK(section(text, "constants (7)") ==
        std::vector<std::string>{
            "constants (7)",
            constant_row(1, "k", "f32[1,1,1,2]", 8, "user data, read by no op"),  // only the folded relu read it
            constant_row(2, "kr", "f32[1,1,1,2]", 8, "folded relu of %1 (recipe 0)"),
            constant_row(3, "c_0", "f32[2,1,1,2]", 16, "batch-norm-folded weights (scale %5, offset %6, mean %7, variance %8) (recipe 1)"),
            constant_row(5, "bn_0", "f32[2]", 8, "user data, read by no op"),
            constant_row(6, "bn_1", "f32[2]", 8, "batch-norm-folded bias (scale %5, offset %6, mean %7, variance %8), from its offset (recipe 2)"),
            constant_row(7, "bn_2", "f32[2]", 8, "user data, read by no op"),
            constant_row(8, "bn_3", "f32[2]", 8, "user data, read by no op"),
        });
  // The conv now writes the batch norm's result and reads the folded constants.
  CHECK(text.find("   0  conv2d \"c\"  window 1x1 stride 1x1 padding valid groups 1\n"
                  "        (x: f32[1,2,2,2], c_0: f32[2,1,1,2], bn_1: f32[2]) -> bn: f32[1,2,2,2]\n") != std::string::npos);
  CHECK(text.find("   1  add \"y\"\n        (bn: f32[1,2,2,2], kr: f32[1,1,1,2]) -> y: f32[1,2,2,2]\n") != std::string::npos);
  CHECK(text.find("  call  1  kernel  1  y(arena+0, constant kr) -> output 0\n") != std::string::npos);
}

// ---------------------------------------------------------------------------------------------------
// Failures print their diagnostic by name.
using mismatched = dsl::named<"bad", dsl::graph<dsl::outputs<"s">,                                 //
                                                dsl::node<"x", dsl::input<ctnn::f32, 1, 2, 2, 3>>,  //
                                                dsl::node<"y", dsl::input<ctnn::f32, 1, 2, 2, 4>>,  //
                                                dsl::node<"s", dsl::add<>, "x", "y">>>;

TEST_CASE("print_module: a failed module prints its diagnostic") {
  // [1,2,2,3] + [1,2,2,4] do not broadcast: input_shapes_differ at op 0 (input_slot: the other input).
  const auto& m = ctnn::compiled_v<mismatched>;
  REQUIRE(m.error.code == ctnn::error_code::input_shapes_differ);
  const auto lines = lines_of(module_text(m));
  REQUIRE(lines.size() > 3);
  CHECK(lines[0] == "module \"bad\"");
  CHECK(lines[2] == "  counts: 2 inputs, 1 output, 1 op, 3 tensors, 0 recipes, 0 calls, 0 kernels");
  CHECK(lines[3] ==
        "  status: error: input_shapes_differ at op 0 (add \"s\"): input_slot 1, expected [1,2,2,3], actual [1,2,2,4]");
  // Later passes left it as it was: nothing lowered, so no call sections.
  CHECK(module_text(m).find("calls (") == std::string::npos);

  // A pass run before its prerequisite: the pipeline position and the missing fact, by name.
  using ctnn::pipeline;
  namespace pass = ctnn::pass;
  using misordered = pipeline<pass::infer_types, pass::plan_memory<>, pass::lower_te, pass::aot_lower_main>;
  const auto misordered_lines = lines_of(module_text(ctnn::compiled_v<mini, misordered>));
  REQUIRE(misordered_lines.size() > 3);
  CHECK(misordered_lines[3] == "  status: error: pass_prerequisite_missing at pipeline position 1, missing kernels_lowered");
}

TEST_CASE("detail names: every error code and fact has one") {
  using ctnn::error_code;
  for (int c = 0; c <= static_cast<int>(error_code::pipeline_rejected); ++c)
    CHECK(ctnn::detail::error_code_name(static_cast<error_code>(c)) != "?");
  CHECK(ctnn::detail::error_code_name(error_code::weights_and_bias_disagree) == "weights_and_bias_disagree");
  CHECK(ctnn::detail::fact_name(ctnn::fact::memory_planned) == "memory_planned");
  std::string text;
  auto sink = [&text](std::string_view s) { text += s; };
  ctnn::detail::text_writer w{ctnn::detail::sink_ref{sink}};
  ctnn::detail::put_facts(w, (1u << 5) | (1u << 0) | (1u << 9));  // an unknown bit is printed by number
  CHECK(text == "shapes_inferred, executor_metadata, bit 9");
}

TEST_CASE("text_writer::real: 6 significant digits, %g style") {
  const auto real = [](double v) {
    std::string text;
    auto sink = [&text](std::string_view s) { text += s; };
    ctnn::detail::text_writer w{ctnn::detail::sink_ref{sink}};
    w.real(v);
    return text;
  };
  CHECK(real(0) == "0");
  CHECK(real(2.5) == "2.5");
  CHECK(real(-0.5) == "-0.5");
  CHECK(real(100) == "100");
  CHECK(real(0.001) == "0.001");
  CHECK(real(0.05) == "0.05");
  CHECK(real(1e-5) == "1e-05");
  CHECK(real(static_cast<double>(1e-5f)) == "1e-05");  // a float epsilon, rounded to 6 digits
  CHECK(real(static_cast<double>(0.1f)) == "0.1");
  CHECK(real(123456) == "123456");
  CHECK(real(1234567) == "1.23457e+06");
  CHECK(real(9.999996) == "10");  // rounds up into the next decade
  CHECK(real(1.5e-12) == "1.5e-12");
  CHECK(real(std::numeric_limits<double>::infinity()) == "inf");
  CHECK(real(-std::numeric_limits<double>::infinity()) == "-inf");
}

TEST_CASE("text_writer::field, real_field and put_operands_and_result") {
  std::string text;
  auto sink = [&text](std::string_view s) { text += s; };
  ctnn::detail::text_writer w{ctnn::detail::sink_ref{sink}};
  w.field("stride ", 2);
  w.field(" width", 7, 4);  // right-aligned in 4 columns
  w.real_field(" epsilon ", 1e-5);
  w.put(" ");
  ctnn::detail::put_operands_and_result(w, 2, [&](std::int32_t k) { w.number(10 + k); }, [&] { w.put("y"); });
  w.put(" ");
  ctnn::detail::put_operands_and_result(w, 0, [&](std::int32_t) { w.put("never"); }, [&] { w.put("z"); });
  CHECK(text == "stride 2 width   7 epsilon 1e-05 (10, 11) -> y () -> z");
}

TEST_CASE("put_kernel_params: each op kind's own fields (from its descriptor, ops/, or the switch)") {
  const auto text_of = [](const ctnn::kernel_params& p) {
    std::string text;
    auto sink = [&text](std::string_view s) { text += s; };
    ctnn::detail::text_writer w{ctnn::detail::sink_ref{sink}};
    ctnn::detail::put_kernel_params(w, p);
    return text;
  };
  ctnn::kernel_params p{};
  p.type = p.out_type = ctnn::dtype::f32;
  p.in = p.out = ctnn::shape{2, {2, 3}};
  p.kind = ctnn::op_kind::clip;
  p.clip = {std::bit_cast<std::uint32_t>(-1.5f), std::bit_cast<std::uint32_t>(6.0f)};
  CHECK(text_of(p) == "clip f32 [2,3] -> [2,3]  min -1.5 max 6");
  p.kind = ctnn::op_kind::transpose;
  p.out = ctnn::shape{2, {3, 2}};
  p.transpose.perm = {1, 0};
  CHECK(text_of(p) == "transpose f32 [2,3] -> [3,2]  perm 1,0");
  p.kind = ctnn::op_kind::mean;
  p.out = ctnn::shape{2, {2, 1}};
  p.mean.reduce_axes = 2;  // axis 1
  CHECK(text_of(p) == "mean f32 [2,3] -> [2,1]  axes mask 2");
  p.kind = ctnn::op_kind::concat;  // its axis, then each input's extent along it
  p.out = ctnn::shape{2, {2, 5}};
  p.axis = 1;
  p.set(ctnn::concat_fields{{3, 2}, 2, 0});
  CHECK(text_of(p) == "concat f32 [2,3] -> [2,5]  axis 1 extents 3,2");
  p.kind = ctnn::op_kind::batch_norm;  // its epsilon, as %g
  p.out = p.in;
  p.batch_norm.epsilon_bits = std::bit_cast<std::uint32_t>(0.001f);
  CHECK(text_of(p) == "batch_norm f32 [2,3] -> [2,3]  epsilon 0.001");
  p.kind = ctnn::op_kind::sub;  // no fields of its own
  p.in2 = p.out = p.in;
  CHECK(text_of(p) == "sub f32 [2,3], [2,3] -> [2,3]");
}

// ---------------------------------------------------------------------------------------------------
// print_summary and print_memory_plan (the demo's two printers).
constexpr auto& tiny = ctnn::compiled_v<ctnn_test::tiny_cnn>;
constexpr auto& graph = ctnn::compiled_v<ctnn_test::small_graph>;

TEST_CASE("print_summary: the tiny CNN (the flatten is a view: 4 ops)") {
  const auto lines = lines_of(summary_of(tiny));
  // 10 tensors: input, 4 weight arrays, 5 op outputs (the flatten's is now a view of the pool's).
  const std::vector<std::string> expected{
      "model tiny: 4 ops, 10 tensors",
      summary_row(0, "conv2d", "conv2d_0", "relu", "[1,6,6,3]", "[1,6,6,4]"),
      summary_row(1, "max_pool", "max_pool_1", "", "[1,6,6,4]", "[1,3,3,4]"),
      summary_row(2, "dense", "dense_3", "", "[1,36]", "[1,3]"),
      summary_row(3, "softmax", "softmax_4", "", "[1,3]", "[1,3]"),
      "parameters: 223",  // 108 + 4 + 108 + 3
  };
  CHECK(lines == expected);
  // One line spelled out literally as well.
  REQUIRE(lines.size() > 2);
  CHECK(lines[1] == "   0  conv2d            conv2d_0      +relu    [1,6,6,3] -> [1,6,6,4]");
  CHECK(lines[2] == "   1  max_pool          max_pool_1             [1,6,6,4] -> [1,3,3,4]");
}

TEST_CASE("print_summary: stage 0 has no intermediate shapes yet, and still the flatten") {
  const auto lines = lines_of(summary_of(ctnn::stage_v<ctnn_test::tiny_cnn, default_pipeline, 0>));
  const std::vector<std::string> expected{
      "model tiny: 5 ops, 10 tensors",
      summary_row(0, "conv2d", "conv2d_0", "relu", "[1,6,6,3]", "?"),
      summary_row(1, "max_pool", "max_pool_1", "", "?", "?"),
      summary_row(2, "reshape", "reshape_2", "", "?", "?"),
      summary_row(3, "dense", "dense_3", "", "?", "?"),
      summary_row(4, "softmax", "softmax_4", "", "?", "?"),
      "parameters: 223",
  };
  CHECK(lines == expected);
}

TEST_CASE("print_summary: a graph (first input's shape; parameters from both constants)") {
  // The relu reads a tensor the add reads too: nothing is fused, all 5 ops stay.
  const auto lines = lines_of(summary_of(graph));
  const std::vector<std::string> expected{
      "model graph: 5 ops, 8 tensors",
      summary_row(0, "conv2d", "a", "", "[1,4,4,2]", "[1,4,4,2]"),
      summary_row(1, "relu", "b", "", "[1,4,4,2]", "[1,4,4,2]"),
      summary_row(2, "add", "c", "", "[1,4,4,2]", "[1,4,4,2]"),
      summary_row(3, "concat", "d", "", "[1,4,4,2]", "[1,4,4,4]"),
      summary_row(4, "global_avg_pool", "out", "", "[1,4,4,4]", "[1,1,1,4]"),
      "parameters: 6",
  };
  CHECK(lines == expected);
}

TEST_CASE("print_memory_plan: arena, bound and one row per arena tensor with its lifetime") {
  // Tiny after the default pipeline: ops 0 conv, 1 pool, 2 dense (reads the flatten view of the pool's
  // result), 3 softmax (writes the output). Buffers: conv out 576 B ops 0..1, pool out 144 B ops 1..2,
  // dense out 12 B ops 2..3. Greedy by size: conv @0, pool @576 (both live at op 1), dense @0 (the conv
  // result is dead by op 2). Live bytes per op: 576, 720, 156, 12: bound 720 at op 1.
  const auto lines = lines_of(memory_plan_of(tiny));
  const std::vector<std::string> expected{
      "arena: 720 bytes (alignment 16), liveness lower bound 720 bytes at op 1 (max_pool_1)",
      "  offset     bytes  first   last  tensor",
      memory_row(0, 576, 0, 1, "conv2d_0"),
      memory_row(576, 144, 1, 2, "max_pool_1"),
      memory_row(0, 12, 2, 3, "dense_3"),
  };
  CHECK(lines == expected);
  REQUIRE(lines.size() > 3);
  CHECK(lines[3] == "     576       144      1      2  max_pool_1");
  // Inputs, outputs, constants and views live outside the arena and are not listed.
  const std::string text = memory_plan_of(tiny);
  for (const char* absent : {"softmax_4", "conv2d_0_0", "input", "reshape_2"}) CHECK_MESSAGE(text.find(absent) == std::string::npos, absent);
}

TEST_CASE("print_memory_plan: the graph (d @0, a @0, b @256, c @384)") {
  // See test_modules.hpp: lifetimes a 0..2, b 1..3, c 2..3, d 3..4; the bound is 512 at op 3.
  const auto lines = lines_of(memory_plan_of(graph));
  const std::vector<std::string> expected{
      "arena: 512 bytes (alignment 16), liveness lower bound 512 bytes at op 3 (d)",
      "  offset     bytes  first   last  tensor",
      memory_row(0, 128, 0, 2, "a"),
      memory_row(256, 128, 1, 3, "b"),
      memory_row(384, 128, 2, 3, "c"),
      memory_row(0, 256, 3, 4, "d"),
  };
  CHECK(lines == expected);
}

TEST_CASE("print_memory_plan: lifetimes are the planner's (pass::arena_buffers)") {
  const auto check = [](const auto& m) {
    std::int32_t count = 0;
    const auto buffers = ctnn::pass::arena_buffers(m, count);
    CHECK(count > 0);
    for (std::int32_t b = 0; b < count; ++b) {
      const auto& info = buffers[static_cast<std::size_t>(b)];
      const auto life = ctnn::detail::lifetime_of(ctnn::detail::view_of(m), info.tensor);
      CHECK(life.first_use == info.first_use);
      CHECK(life.last_use == info.last_use);
    }
  };
  check(tiny);
  check(graph);
  check(ctnn::compiled_v<mini>);
  check(ctnn::compiled_v<twin>);
}

TEST_CASE("print_memory_plan: not planned, no arena, 64-bit and too-wide numbers") {
  CHECK(memory_plan_of(ctnn::stage_v<mini, default_pipeline, 6>) == "memory: not planned yet\n");
  using no_arena = dsl::sequential<dsl::input<ctnn::f32, 1, 5>, dsl::relu>;
  const auto lines = lines_of(memory_plan_of(ctnn::compiled_v<no_arena>));
  const std::vector<std::string> expected{
      "arena: 0 bytes (alignment 16), liveness lower bound 0 bytes",  // no peak op
      "  offset     bytes  first   last  tensor",
  };
  CHECK(lines == expected);
  auto big = tiny;
  big.pool_usage[0].bytes = 5'000'000'000;
  big.allocations[static_cast<std::size_t>(big.node_at(0).output)].offset = 123'456'789;
  const std::string text = memory_plan_of(big);
  CHECK(text.find("arena: 5000000000 bytes") != std::string::npos);
  // A number wider than its column is printed whole (no truncation).
  CHECK(text.find("123456789       576      0      1  conv2d_0") != std::string::npos);
}

std::string& function_sink_text() {
  static std::string text;
  return text;
}
void function_sink(std::string_view s) { function_sink_text() += s; }

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
  text.clear();
  const collector as_const{&text, &calls};
  ctnn::print_module(tiny, as_const);
  CHECK(text == module_text(tiny));
  // A plain function works as a sink too.
  function_sink_text().clear();
  ctnn::print_memory_plan(tiny, function_sink);
  ctnn::print_memory_plan(tiny, &function_sink);
  CHECK(function_sink_text() == memory_plan_of(tiny) + memory_plan_of(tiny));
  // Every stage of the default pipeline prints, each with its own facts line.
  ctnn::detail::for_each_index<default_pipeline::size + 1>([](auto k) {
    const std::string stage = module_text(ctnn::stage_v<ctnn_test::tiny_cnn, default_pipeline, decltype(k)::value>);
    CHECK(stage.rfind("module \"tiny\"\n  facts:  ", 0) == 0);
    CHECK(stage.find("status: ok") != std::string::npos);
  });
}

}  // namespace
