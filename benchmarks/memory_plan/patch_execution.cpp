// ctnn-patch-execution-benchmark: patch execution (docs/memory.md, "Patch execution") on the MLPerf Tiny
// int8 models and the float mobilenet_v1_025 ONNX model: per model and plan options, total RAM (pools +
// inputs/outputs in the caller's buffers) without and with the automatic patch stage
// (ctnn::patch_execution<ctnn::max_extra_macs<10>>), the chosen prefix and grid, halo, extra MACs, and the
// host time of one inference (the run-time runner's shared kernels, kernel::module_runner: the same for
// both schedules) without and with. Then the same with a streamed input (ctnn::streamed_input: the input
// read by rows into a row buffer, docs/memory.md "Streamed input"), with the liveness bound of the ops after
// the patch stage (what the rest of the network needs whatever the grid). With --explore, every candidate
// prefix and grid within the MAC limit, planned for real: the best RAM the pass could reach, against its
// estimate's choice.
//
//   ctnn-patch-execution-benchmark [--models DIR] [--onnx DIR] [--explore] [--max-extra-macs P] [--only MODEL] [--json]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <span>
#include <utility>
#include <sstream>
#include <string>
#include <vector>

#include <ctnn/ctnn.hpp>
#include <ctnn/frontend/onnx.hpp>
#include <ctnn/frontend/tflite/import.hpp>
#include <ctnn/kernel/run_module.hpp>

#include "pass/patch_test_pipeline.hpp"

#ifndef CTNN_MLPERF_DIR
#define CTNN_MLPERF_DIR "../shared/models/mlperf-tiny"
#endif
#ifndef CTNN_ONNX_DIR
#define CTNN_ONNX_DIR "../shared/models/onnx"
#endif

namespace {

namespace memory = ctnn::memory;
using big_module = ctnn::module<1536, 1024>;  // room for the patch ops of an 8 x 8 grid

bool read_bytes(const std::string& path, std::string& bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream s;
  s << in.rdbuf();
  bytes = s.str();
  return true;
}

std::unique_ptr<big_module> import_model(const std::string& path, const std::string& bytes, const char* name) {
  auto m = std::make_unique<big_module>();
  if (path.size() > 5 && path.substr(path.size() - 5) == ".onnx") {
    const auto r = std::make_unique<ctnn::onnx::import_result<1536, 1024, 1536>>();
    ctnn::onnx::import_into<1536>(*r, bytes.data(), bytes.size(), name);
    *m = r->ir;
    return m;
  }
  ctnn::tflite::import_into(*m, bytes.data(), bytes.size(), name);
  return m;
}

struct option_set {
  const char* name;
  memory::plan_config config;
};

std::int64_t total_ram(const big_module& m) {
  std::int64_t bytes = m.io_bytes_outside;
  for (std::int32_t p = 0; p < m.pool_count; ++p)
    if (!m.pools[static_cast<std::size_t>(p)].read_only) bytes += m.pool_usage[static_cast<std::size_t>(p)].bytes;
  return bytes;
}

// Microseconds per inference with the run-time runner (zero inputs), or -1 when it cannot run the module.
double host_microseconds(const big_module& m) {
  ctnn::kernel::module_runner<big_module> runner{m};
  if (runner.status() != ctnn::kernel::run_status::ok) return -1;
  std::vector<std::vector<char>> in, out;
  std::vector<const void*> inputs;
  std::vector<void*> outputs;
  for (std::int32_t i = 0; i < m.input_count; ++i) in.emplace_back(static_cast<std::size_t>(m.input_tensor(i).bytes()), 0);
  for (std::int32_t i = 0; i < m.output_count; ++i) out.emplace_back(static_cast<std::size_t>(m.output_tensor(i).bytes()), 0);
  auto zero_rows = [](std::int32_t, std::int32_t, std::span<std::byte> rows) { std::memset(rows.data(), 0, rows.size()); };
  const ctnn::row_source zeros{zero_rows};
  const auto streamed = ctnn::streamed_inputs(m);
  for (std::size_t i = 0; i < in.size(); ++i) inputs.push_back(streamed[i] ? static_cast<const void*>(&zeros) : in[i].data());
  for (auto& b : out) outputs.push_back(b.data());
  const auto start = std::chrono::steady_clock::now();
  int runs = 0;
  do {
    if (runner.run(std::span<const void* const>{inputs}, std::span<void* const>{outputs}) != ctnn::kernel::run_status::ok) return -1;
    ++runs;
  } while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(200));
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / runs;
}

// The liveness bound (in-place pairs at their smallest footprint where the config allows them) of the ops
// after a planned module's patch stage (after its last paste): what the rest of the network needs.
std::int64_t bound_after_patch_stage(const big_module& m, const memory::plan_config& config) {
  std::int32_t last_paste = -1;
  for (std::int32_t i = 0; i < m.node_count; ++i)
    if (m.node_at(i).kind == ctnn::op_kind::paste) last_paste = i;
  const auto set = std::make_unique<memory::buffer_set<big_module>>(memory::plan_buffers(m, config));
  std::vector<std::int64_t> live(static_cast<std::size_t>(m.node_count) + 1);
  memory::live_bytes_per_op(set->buffers, set->count, m.node_count, live);
  std::int64_t peak = 0;
  for (std::int32_t op = last_paste + 1; op < m.node_count; ++op) peak = std::max(peak, live[static_cast<std::size_t>(op)]);
  return peak;
}

std::unique_ptr<big_module> compiled(const big_module& imported, bool patch, const ctnn::pass::patch_request& request,
                                     const memory::plan_config& config) {
  auto m = std::make_unique<big_module>(imported);
  patch_test::compile(*m, patch, request, config);
  return m;
}

struct settings {
  std::string models = CTNN_MLPERF_DIR, onnx = CTNN_ONNX_DIR;
  std::string only;  // a model label's prefix: only those models
  bool explore = false, json = false;
  std::int32_t max_extra_macs = 10;
};

void explore_streamed(const big_module& imported, const big_module& graph, const option_set& o, const settings& s);

void bench(const std::string& label, const std::string& path, const settings& s) {
  if (label.rfind(s.only, 0) != 0) return;
  std::string bytes;
  if (!read_bytes(path, bytes)) {
    std::printf("%-22s skipped: %s not found\n", label.c_str(), path.c_str());
    return;
  }
  auto imported = import_model(path, bytes, label.c_str());
  if (imported->error.failed()) {
    std::printf("%-22s skipped: import failed (code %d)\n", label.c_str(), static_cast<int>(imported->error.code));
    return;
  }
  auto graph = std::make_unique<big_module>(*imported);
  patch_test::graph_passes(*graph);
  const ctnn::pass::patch_request automatic{0, 0, 0, s.max_extra_macs};
  const std::vector<option_set> options{
      {"-", memory::make_plan_config<>()},
      {"reuse+io", memory::make_plan_config<ctnn::memory_reuse, ctnn::io_in_arena>()},
      {"reuse+io+win", memory::make_plan_config<ctnn::memory_reuse, ctnn::io_in_arena, ctnn::in_place_windows>()},
  };
  for (const option_set& o : options) {
    const ctnn::pass::patch_plan plan = ctnn::pass::plan_patches(*graph, automatic, o.config);  // the estimate under these options
    const auto whole = compiled(*imported, false, automatic, o.config);
    const auto patched = compiled(*imported, true, automatic, o.config);
    if (whole->error.failed() || patched->error.failed()) {
      std::printf("%-22s %-13s failed (codes %d, %d)\n", label.c_str(), o.name, static_cast<int>(whole->error.code),
                  static_cast<int>(patched->error.code));
      continue;
    }
    const bool kept = patched->node_count != whole->node_count;  // the automatic choice keeps it only if RAM drops
    const double t_whole = host_microseconds(*whole), t_patched = kept ? host_microseconds(*patched) : t_whole;
    const double extra = plan.model_macs > 0 ? 100.0 * static_cast<double>(plan.extra_macs()) / static_cast<double>(plan.model_macs) : 0.0;
    if (s.json) {
      std::printf("{\"model\": \"%s\", \"options\": \"%s\", \"total_ram_whole\": %lld, \"total_ram_patched\": %lld, \"prefix_ops\": %d, "
                  "\"grid\": \"%dx%d\", \"halo\": \"%dx%d\", \"model_macs\": %lld, \"extra_macs\": %lld, \"host_us_whole\": %.1f, "
                  "\"host_us_patched\": %.1f, \"kept\": %s}\n",
                  label.c_str(), o.name, static_cast<long long>(total_ram(*whole)), static_cast<long long>(total_ram(*patched)), plan.ops,
                  plan.rows, plan.columns, plan.figures.halo_rows, plan.figures.halo_columns, static_cast<long long>(plan.model_macs),
                  static_cast<long long>(plan.extra_macs()), t_whole, t_patched, kept ? "true" : "false");
    } else {
      std::printf("%-22s %-13s %9lld %9lld   %-4s %2d ops %dx%d  halo %dx%d  %+6.2f %% MACs (%lld of %lld)  %9.1f %9.1f us\n", label.c_str(), o.name,
                  static_cast<long long>(total_ram(*whole)), static_cast<long long>(total_ram(*patched)), kept ? "kept" : "-", plan.ops, plan.rows,
                  plan.columns, plan.figures.halo_rows, plan.figures.halo_columns, extra, static_cast<long long>(plan.extra_macs()),
                  static_cast<long long>(plan.model_macs), t_whole, t_patched);
    }
    // Streamed input: always a patch stage (the smallest estimate within the limit).
    const ctnn::pass::patch_request streaming{0, 0, 0, s.max_extra_macs, 1};
    const ctnn::pass::patch_plan streamed_plan = ctnn::pass::plan_patches(*graph, streaming, o.config);
    if (streamed_plan.ops > 0) {
      const auto streamed = compiled(*imported, true, streaming, o.config);
      const double streamed_extra = 100.0 * static_cast<double>(streamed_plan.extra_macs()) / static_cast<double>(streamed_plan.model_macs);
      const std::int64_t after = streamed->error.failed() ? -1 : bound_after_patch_stage(*streamed, o.config);
      const double t_streamed = streamed->error.failed() ? -1 : host_microseconds(*streamed);
      if (s.json)
        std::printf("{\"model\": \"%s\", \"options\": \"%s\", \"streamed\": true, \"total_ram_streamed\": %lld, \"prefix_ops\": %d, "
                    "\"grid\": \"%dx%d\", \"buffered_rows\": %d, \"extra_macs\": %lld, \"bound_after_patch_stage\": %lld, "
                    "\"host_us_streamed\": %.1f}\n",
                    label.c_str(), o.name, static_cast<long long>(total_ram(*streamed)), streamed_plan.ops, streamed_plan.rows,
                    streamed_plan.columns, streamed_plan.buffered_rows, static_cast<long long>(streamed_plan.extra_macs()),
                    static_cast<long long>(after), t_streamed);
      else
        std::printf("%-22s %-13s %9s %9lld   %-4s %2d ops %dx%d  rows %d  %+6.2f %% MACs  after the stage %lld  %9s %9.1f us  (streamed input)\n",
                    label.c_str(), o.name, "", static_cast<long long>(total_ram(*streamed)), streamed->error.failed() ? "fail" : "str",
                    streamed_plan.ops, streamed_plan.rows, streamed_plan.columns, streamed_plan.buffered_rows, streamed_extra,
                    static_cast<long long>(after), "", t_streamed);
    }
    if (!s.explore) continue;
    // Every candidate within the limit, planned for real.
    std::int64_t best = total_ram(*whole);
    ctnn::pass::patch_request best_request{};
    for (std::int32_t ops = 1; ops <= ctnn::pass::max_patch_prefix; ++ops)
      for (std::int32_t rows = 1; rows <= ctnn::pass::max_patch_grid; ++rows)
        for (std::int32_t columns = 1; columns <= ctnn::pass::max_patch_grid; ++columns) {
          const ctnn::pass::patch_request r{ops, rows, columns, 0};
          const ctnn::pass::patch_plan p = ctnn::pass::plan_patches(*graph, r);
          if (p.check.problem != ctnn::pass::patch_problem::none) continue;
          if (p.extra_macs() * 100 > static_cast<std::int64_t>(s.max_extra_macs) * p.model_macs) continue;
          const auto m = compiled(*imported, true, r, o.config);
          if (m->error.failed() || total_ram(*m) >= best) continue;
          best = total_ram(*m);
          best_request = r;
        }
    std::printf("%-22s %-13s explored: best %lld B with %d ops %dx%d\n", label.c_str(), o.name, static_cast<long long>(best), best_request.ops,
                best_request.rows, best_request.columns);
    explore_streamed(*imported, *graph, o, s);
  }
}

// Every streamed candidate within the limit, planned for real: the smallest total RAM, and the bound of the
// ops after the patch stage for each prefix length (the rest of the network, whatever the grid).
void explore_streamed(const big_module& imported, const big_module& graph, const option_set& o, const settings& s) {
  std::int64_t best = std::numeric_limits<std::int64_t>::max();
  ctnn::pass::patch_request best_request{};
  for (std::int32_t ops = 1; ops <= ctnn::pass::max_patch_prefix; ++ops) {
    std::int64_t prefix_best = std::numeric_limits<std::int64_t>::max(), after = -1;
    for (std::int32_t rows = 1; rows <= ctnn::pass::max_patch_grid; ++rows)
      for (std::int32_t columns = 1; columns <= ctnn::pass::max_patch_grid; ++columns) {
        const ctnn::pass::patch_request r{ops, rows, columns, 0, 1};
        const ctnn::pass::patch_plan p = ctnn::pass::plan_patches(graph, r);
        if (p.check.problem != ctnn::pass::patch_problem::none) continue;
        if (p.extra_macs() * 100 > static_cast<std::int64_t>(s.max_extra_macs) * p.model_macs) continue;
        const auto m = compiled(imported, true, r, o.config);
        if (m->error.failed()) continue;
        if (after < 0) after = bound_after_patch_stage(*m, o.config);
        prefix_best = std::min(prefix_best, total_ram(*m));
        if (total_ram(*m) >= best) continue;
        best = total_ram(*m);
        best_request = r;
      }
    if (after >= 0)
      std::printf("%-22s %-13s explored, streamed, %2d ops: best %lld B; bound after the patch stage %lld B\n", "", o.name, ops,
                  static_cast<long long>(prefix_best), static_cast<long long>(after));
  }
  std::printf("%-22s %-13s explored, streamed: best %lld B with %d ops %dx%d\n", "", o.name, static_cast<long long>(best), best_request.ops,
              best_request.rows, best_request.columns);
}

}  // namespace

void run_all(const settings& s) {
  if (!s.json)
    std::printf("total RAM in bytes (pools + I/O in the caller's buffers), default planner; automatic patch stage within %d %% extra MACs\n"
                "%-22s %-13s %9s %9s   %s\n",
                s.max_extra_macs, "model", "options", "whole", "patched", "kept?, the choice: prefix, grid, halo (input rows x columns), extra MACs; host us whole / patched");
  bench("VWW MobileNetV1-0.25", s.models + "/vww_96_int8.tflite", s);
  bench("KWS DS-CNN", s.models + "/kws_ref_model.tflite", s);
  bench("IC ResNet-8", s.models + "/pretrainedResnet_quant.tflite", s);
  bench("AD autoencoder", s.models + "/ad01_int8.tflite", s);
  bench("mobilenet_v1_025 f32", s.onnx + "/mobilenet_v1_025.onnx", s);
}

int main(int argc, char** argv) {
  settings s{};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--models" && i + 1 < argc) s.models = argv[++i];
    else if (a == "--onnx" && i + 1 < argc) s.onnx = argv[++i];
    else if (a == "--explore") s.explore = true;
    else if (a == "--json") s.json = true;
    else if (a == "--max-extra-macs" && i + 1 < argc) s.max_extra_macs = std::atoi(argv[++i]);
    else if (a == "--only" && i + 1 < argc) s.only = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--models DIR] [--onnx DIR] [--explore] [--max-extra-macs P] [--only MODEL] [--json]\n", argv[0]);
      return 2;
    }
  }
  run_all(s);
  return 0;
}
