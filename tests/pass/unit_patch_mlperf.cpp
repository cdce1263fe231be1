// Patch execution on the MLPerf Tiny int8 models (docs/memory.md "Patch execution"): each model imported
// and compiled at run time with patch stages (the automatic choice and explicit prefixes and grids, with the
// input whole or streamed by rows from a ctnn::row_source), run
// by the run-time runner on TFLM's four reference inputs: TFLM's outputs bit for bit, and the whole-tensor
// schedule's. Skipped with a message when ../shared is absent.
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/ctnn.hpp>
#include <ctnn/frontend/tflite/import.hpp>
#include <ctnn/kernel/run_module.hpp>

#include "patch_test_pipeline.hpp"

#ifndef CTNN_MLPERF_DIR
#define CTNN_MLPERF_DIR "../shared/models/mlperf-tiny"
#endif

namespace {

namespace memory = ctnn::memory;
using big_module = ctnn::module<1024, 768>;

bool read_file(const std::string& path, std::vector<char>& bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

struct model_files {
  const char* file;
  const char* refs;
};

// `streamed`: the input comes row by row from a ctnn::row_source, checked to ask for rows in order, each
// once, inside the image.
std::vector<char> run_case(const big_module& m, const std::vector<char>& input, bool streamed) {
  ctnn::kernel::module_runner<big_module> runner{m};
  CHECK(runner.status() == ctnn::kernel::run_status::ok);
  std::vector<char> output(static_cast<std::size_t>(m.output_tensor(0).bytes()), 0x55);
  if (input.size() != static_cast<std::size_t>(m.input_tensor(0).bytes())) return {};
  const std::int32_t height = m.input_tensor(0).dims[1];
  const std::size_t row_bytes = input.size() / static_cast<std::size_t>(height);
  std::int32_t next_row = 0, requests = 0;
  bool in_order = true;
  auto fill = [&](std::int32_t first_row, std::int32_t row_count, std::span<std::byte> rows) {
    ++requests;
    in_order = in_order && first_row >= next_row && row_count > 0 && first_row + row_count <= height &&
               rows.size() == static_cast<std::size_t>(row_count) * row_bytes;
    next_row = first_row + row_count;
    if (in_order) std::memcpy(rows.data(), input.data() + static_cast<std::size_t>(first_row) * row_bytes, rows.size());
  };
  const ctnn::row_source source{fill};
  const void* inputs[1] = {streamed ? static_cast<const void*>(&source) : input.data()};
  void* outputs[1] = {output.data()};
  CHECK(runner.run(inputs, outputs) == ctnn::kernel::run_status::ok);
  if (streamed) {
    CHECK(in_order);
    CHECK(requests > 0);
  }
  return output;
}

// The model compiled with `request` (ops 0: the automatic choice, kept only if it lowers RAM) under
// `config`, against TFLM's outputs; returns the patch ops it holds. `ram_at_most` >= 0: its total RAM's limit.
std::int32_t check_patched(const model_files& model, const std::vector<char>& bytes, const ctnn::pass::patch_request& request,
                           const memory::plan_config& config, std::int64_t ram_at_most = -1) {
  const std::string dir = CTNN_MLPERF_DIR;
  const auto whole = std::make_unique<big_module>();
  ctnn::tflite::import_into(*whole, bytes.data(), bytes.size(), model.file);
  ctnn::pass::patch_request asked = request;
  if (asked.ops > 0) {  // a grid no finer than the prefix's output
    auto graph = std::make_unique<big_module>(*whole);
    patch_test::graph_passes(*graph);
    const ctnn::shape out = graph->tensor_at(graph->node_at(asked.ops - 1).output).dims;
    asked.rows = std::min(asked.rows, out[1]);
    asked.columns = std::min(asked.columns, out[2]);
  }
  auto patched = std::make_unique<big_module>(*whole);
  patch_test::compile(*whole, false, asked, config);
  patch_test::compile(*patched, true, asked, config);
  CAPTURE(asked.ops);
  CAPTURE(asked.rows);
  CAPTURE(asked.columns);
  CAPTURE(static_cast<int>(patched->error.code));
  CAPTURE(patched->error.node);
  CAPTURE(patched->error.reason);
  CHECK(!whole->error.failed());
  CHECK(!patched->error.failed());
  if (whole->error.failed() || patched->error.failed()) return -1;
  std::int32_t crops = 0;
  for (std::int32_t i = 0; i < patched->node_count; ++i) crops += patched->node_at(i).kind == ctnn::op_kind::crop;
  for (int k = 0; k < 4; ++k) {
    CAPTURE(k);
    std::vector<char> input, expected;
    CHECK(read_file(dir + "/refs/" + model.refs + "/input_" + std::to_string(k) + ".bin", input));
    CHECK(read_file(dir + "/refs/" + model.refs + "/output_" + std::to_string(k) + ".bin", expected));
    CHECK(run_case(*patched, input, asked.streamed_input != 0) == expected);
    CHECK(run_case(*whole, input, false) == expected);
  }
  MESSAGE(std::string{model.file} << std::string{asked.streamed_input != 0 ? " streamed" : ""} << " prefix " << asked.ops << " grid " << asked.rows << "x" << asked.columns << ": " << crops
                     << " patches, total RAM " << ctnn::pass::detail::total_ram(*whole) << " B whole, " << ctnn::pass::detail::total_ram(*patched)
                     << " B patched; TFLM's outputs bit for bit");
  // The automatic choice never increases RAM.
  if (asked.ops == 0 && asked.streamed_input == 0) CHECK(ctnn::pass::detail::total_ram(*patched) <= ctnn::pass::detail::total_ram(*whole));
  if (asked.streamed_input != 0) CHECK(crops > 0);  // streamed: always a patch stage
  if (ram_at_most >= 0) CHECK(ctnn::pass::detail::total_ram(*patched) <= ram_at_most);
  return crops;
}

// The longest prefix the model allows (after the graph passes).
std::int32_t longest_prefix(const std::vector<char>& bytes, const char* name) {
  const auto m = std::make_unique<big_module>();
  ctnn::tflite::import_into(*m, bytes.data(), bytes.size(), name);
  patch_test::graph_passes(*m);
  std::int32_t ops = 0;
  while (ops < ctnn::pass::max_patch_prefix && ctnn::pass::detail::check_prefix(*m, ops + 1).problem == ctnn::pass::patch_problem::none) ++ops;
  return ops;
}

// `streamed_ram_at_most`: the automatic choice's total RAM limit with a streamed input and in-place windows.
void check_model(const model_files& model, std::int32_t automatic_patches_at_least, std::int64_t streamed_ram_at_most) {
  std::vector<char> bytes;
  std::string path{CTNN_MLPERF_DIR};  // appends: g++ 12 -O1 warns (-Warray-bounds) on a chain of +
  path += "/";
  path += model.file;
  if (!read_file(path, bytes)) {
    MESSAGE("SKIP: " << path << " not found");
    return;
  }
  const auto reuse_io = memory::make_plan_config<ctnn::memory_reuse, ctnn::io_in_arena>();
  const auto reuse_io_win = memory::make_plan_config<ctnn::memory_reuse, ctnn::io_in_arena, ctnn::in_place_windows>();
  CHECK(check_patched(model, bytes, {0, 0, 0, 10}, reuse_io) >= automatic_patches_at_least);
  check_patched(model, bytes, {0, 0, 0, 10}, reuse_io_win);
  check_patched(model, bytes, {0, 0, 0, 10}, memory::plan_config{});
  // Explicit prefixes: the longest, and shorter ones, with square and uneven grids.
  const std::int32_t longest = longest_prefix(bytes, model.file);
  CAPTURE(longest);
  CHECK(longest >= 1);
  check_patched(model, bytes, {longest, 3, 2, 0}, reuse_io);
  check_patched(model, bytes, {(longest + 1) / 2, 2, 5, 0}, reuse_io_win);
  check_patched(model, bytes, {1, 4, 4, 0}, memory::plan_config{});
  // Streamed input: the automatic choice, and explicit prefixes and grids.
  check_patched(model, bytes, {0, 0, 0, 10, 1}, reuse_io_win, streamed_ram_at_most);
  check_patched(model, bytes, {longest, 4, 3, 0, 1}, reuse_io);
  check_patched(model, bytes, {1, 8, 1, 0, 1}, memory::plan_config{});
}

// VWW with a streamed input: issue #16's goal, total RAM <= 27,648 B (half its liveness bound of 55,296 B).
TEST_CASE("VWW int8 patched: TFLM's outputs bit for bit; the automatic choice patches it; streamed, in 27,648 B") {
  check_model({"vww_96_int8.tflite", "vww_96_int8"}, 2, 27'648);
}
// KWS and IC: a streamed input does not lower their peak (it is after the first layers), but never raises it.
TEST_CASE("KWS int8 patched: TFLM's outputs bit for bit") { check_model({"kws_ref_model.tflite", "kws_ref_model"}, 0, 10'048); }
TEST_CASE("IC int8 patched: TFLM's outputs bit for bit") {
  check_model({"pretrainedResnet_quant.tflite", "pretrainedResnet_quant"}, 0, 33'312);
}

}  // namespace
