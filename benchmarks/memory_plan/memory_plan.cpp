// ctnn-memory-plan-benchmark: per model, placement algorithm and reuse options, the bytes the plan
// needs, the liveness lower bound, their ratio, the RAM in all (pools + inputs/outputs kept in the
// caller's buffers) and the planning time (run-time calls of the same constexpr planner the compiler
// runs, repeated until ~20 ms have passed).
//
//   ctnn-memory-plan-benchmark                 a table
//   ctnn-memory-plan-benchmark --json          one JSON object per line: model, algorithm, options,
//                                              arena_bytes, lower_bound, total_ram, plan_ms
//   ctnn-memory-plan-benchmark --models DIR    the MLPerf Tiny .tflite files (default: the configured
//                                              CTNN_SHARED_DIR/models/mlperf-tiny; skipped with a
//                                              message when absent)
//   ctnn-memory-plan-benchmark --quick         fewer algorithms and repetitions (the CTest smoke test)
//   ctnn-memory-plan-benchmark --cortex-m4 F   F: the output of the bare-metal mlperf_memory_* programs
//                                              (their JSON lines): fills the goals table's Cortex-M4 columns
// After the table, the MLPerf Tiny goals (issue #6) with TFLM's and TVM's figures; the exit status is 1
// when a measured goal is missed.
//
// A model source is a function returning the module as plan_memory receives it (after lower_te); add
// one in main() below.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <ctnn/ctnn.hpp>
#include <ctnn/frontend/tflite/import.hpp>
#include <ctnn/memory/algorithms.hpp>

#include "digits_model.hpp"
#include "e2e/data/bn_block.hpp"
#include "e2e/data/cnn_pool.hpp"
#include "e2e/data/concat_block.hpp"
#include "e2e/data/mlp.hpp"
#include "e2e/data/residual.hpp"

#ifndef CTNN_MLPERF_DIR
#define CTNN_MLPERF_DIR "../shared/models/mlperf-tiny"
#endif

namespace {

namespace dsl = ctnn::dsl;
namespace memory = ctnn::memory;

// ---------------------------------------------------------------------------------------------------
// The e2e test models (tests/e2e/*_test.cpp), written again here.
namespace e2e {
namespace cnn_data = ctnn_test_data::cnn_pool;
using cnn_pool = dsl::sequential<dsl::input<ctnn::f32, 1, 12, 12, 3>,
                                 dsl::conv2d<cnn_data::conv1_w, cnn_data::conv1_b, dsl::kernel<3>, dsl::same, dsl::relu>,
                                 dsl::max_pool<dsl::kernel<2>, dsl::stride<2>>,
                                 dsl::conv2d<cnn_data::conv2_w, cnn_data::conv2_b, dsl::kernel<3>, dsl::stride<2>, dsl::pads<1, 1>, dsl::relu6>,
                                 dsl::avg_pool<dsl::kernel<2>, dsl::same>, dsl::global_avg_pool, dsl::flatten,
                                 dsl::dense<cnn_data::fc_w, cnn_data::fc_b>, dsl::softmax>;
namespace mlp_data = ctnn_test_data::mlp;
using mlp = dsl::sequential<dsl::input<ctnn::f32, 1, 4, 5>, dsl::reshape<1, 20>, dsl::dense<mlp_data::fc1_w, mlp_data::fc1_b, dsl::tanh>,
                            dsl::dense<mlp_data::fc2_w, mlp_data::fc2_b, dsl::relu>, dsl::dense<mlp_data::fc3_w, mlp_data::fc3_b>,
                            dsl::softmax>;
namespace res_data = ctnn_test_data::residual;
using residual = dsl::graph<
    dsl::outputs<"out">, dsl::node<"x", dsl::input<ctnn::f32, 1, 8, 8, 6>>,
    dsl::node<"a", dsl::conv2d<res_data::conv_a_w, res_data::conv_a_b, dsl::kernel<3>, dsl::same, dsl::relu>, "x">,
    dsl::node<"b", dsl::conv2d<res_data::conv_b_w, res_data::conv_b_b, dsl::kernel<3>, dsl::same>, "a">,
    dsl::node<"c", dsl::add<dsl::relu>, "x", "b">,
    dsl::node<"d", dsl::depthwise_conv2d<res_data::dw_w, res_data::dw_b, dsl::kernel<3>, dsl::same, dsl::multiplier<2>, dsl::relu>, "c">,
    dsl::node<"e", dsl::conv2d<res_data::conv_e_w, res_data::conv_e_b, dsl::kernel<1>>, "d">, dsl::node<"f", dsl::add<>, "c", "e">,
    dsl::node<"g", dsl::tanh, "f">, dsl::node<"h", dsl::mul<>, "g", "f">, dsl::node<"out", dsl::global_avg_pool, "h">>;
namespace cat_data = ctnn_test_data::concat_block;
using concat_block = dsl::graph<
    dsl::outputs<"out">, dsl::node<"x", dsl::input<ctnn::f32, 1, 9, 9, 4>>,
    dsl::node<"a", dsl::conv2d<cat_data::conv_a_w, cat_data::conv_a_b, dsl::kernel<1>, dsl::relu>, "x">,
    dsl::node<"b", dsl::conv2d<cat_data::conv_b_w, cat_data::conv_b_b, dsl::kernel<3>, dsl::dilation<2>, dsl::same, dsl::sigmoid>, "x">,
    dsl::node<"c", dsl::conv2d<cat_data::conv_c_w, cat_data::conv_c_b, dsl::kernel<3>, dsl::same, dsl::groups<2>>, "x">,
    dsl::node<"k", dsl::concat<>, "a", "b", "c">, dsl::node<"p", dsl::pad<0, 0, 1, 0, 0, 2, 0, 0>, "k">,
    dsl::node<"m", dsl::max_pool<dsl::kernel<3>, dsl::stride<2>, dsl::valid>, "p">,
    dsl::node<"q", dsl::conv2d<cat_data::conv_q_w, cat_data::conv_q_b, dsl::kernel<3>, dsl::stride<2>, dsl::same, dsl::relu6>, "m">,
    dsl::node<"flat", dsl::flatten, "q">, dsl::node<"out", dsl::dense<cat_data::fc_w, cat_data::fc_b, dsl::sigmoid>, "flat">>;
namespace bn_data = ctnn_test_data::bn_block;
using bn_block = dsl::graph<
    dsl::outputs<"y">, dsl::node<"x", dsl::input<ctnn::f32, 1, 6, 6, 3>>, dsl::node<"k", dsl::constant<bn_data::k, 8>>,
    dsl::node<"c1", dsl::conv2d<bn_data::conv1_w, dsl::no_bias, dsl::kernel<3>, dsl::same, dsl::units<8>>, "x">,
    dsl::node<"bn1", dsl::batch_norm<bn_data::bn1_scale, bn_data::bn1_offset, bn_data::bn1_mean, bn_data::bn1_var>, "c1">,
    dsl::node<"a", dsl::relu, "bn1">, dsl::node<"dw", dsl::depthwise_conv2d<bn_data::dw_w, bn_data::dw_b, dsl::kernel<3>, dsl::same>, "a">,
    dsl::node<"bn2", dsl::batch_norm<bn_data::bn2_scale, bn_data::bn2_offset, bn_data::bn2_mean, bn_data::bn2_var>, "dw">,
    dsl::node<"d", dsl::relu, "bn2">, dsl::node<"c2", dsl::conv2d<bn_data::conv2_w, dsl::no_bias, dsl::kernel<1>, dsl::units<8>>, "d">,
    dsl::node<"rk", dsl::relu, "k">, dsl::node<"e", dsl::add<>, "c2", "rk">, dsl::node<"pool", dsl::global_avg_pool, "e">,
    dsl::node<"g", dsl::flatten, "pool">, dsl::node<"fc", dsl::dense<bn_data::fc_w, bn_data::fc_b>, "g">,
    dsl::node<"y", dsl::batch_norm<bn_data::bn3_scale, bn_data::bn3_offset, bn_data::bn3_mean, bn_data::bn3_var, dsl::epsilon<1, 1000>>, "fc">>;
}  // namespace e2e

// The module plan_memory receives in the default pipeline (after lower_te): stage 6.
static_assert(std::is_same_v<ctnn::default_pipeline::pass<6>, ctnn::pass::plan_memory<>>);
template <class Model>
auto dsl_source() {
  return [] { return std::make_unique<std::remove_cvref_t<decltype(ctnn::stage_v<Model, ctnn::default_pipeline, 6>)>>(ctnn::stage_v<Model, ctnn::default_pipeline, 6>); };
}

// Runs the default pipeline's passes before plan_memory at run time (models read at run time).
template <class Module>
void lower_at_run_time(Module& m) {
  using P = ctnn::default_pipeline;
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    ((m = ctnn::detail::apply_pass<typename P::template pass<K>>(m, K)), ...);
  }(std::make_index_sequence<6>{});
}

// ---------------------------------------------------------------------------------------------------
// Synthetic DAGs: chains with skip connections and branches, network-like sizes (halving / doubling)
// or random ones; element-wise ops of any sizes (the planner reads only tensors, nodes and calls).
using synthetic_module = ctnn::module<1024, 512>;

std::unique_ptr<synthetic_module> synthetic(std::int32_t ops, std::int32_t skip_every, std::int32_t skip_reach, bool random_sizes,
                                            std::uint32_t seed) {
  auto m = std::make_unique<synthetic_module>();
  std::mt19937 rng{seed};
  ctnn::tensor x{};
  x.dims = ctnn::make_shape(1, 1024);
  x.role = ctnn::tensor_role::input;
  x.io_index = 0;
  m->inputs[0] = m->add_tensor(x);
  m->input_count = 1;
  std::int32_t elements = 4096;
  for (std::int32_t i = 0; i < ops; ++i) {
    if (random_sizes) elements = std::uniform_int_distribution<std::int32_t>{16, 4096}(rng);
    else if (rng() % 5 == 0) elements = elements > 256 ? elements / 2 : elements * 4;
    ctnn::node n{};
    n.kind = ctnn::op_kind::relu;
    n.label = ctnn::numbered("op", static_cast<std::size_t>(i));
    n.inputs[0] = i;
    n.input_count = 1;
    if (skip_every > 0 && i % skip_every == 0 && i > skip_reach) {
      n.inputs[1] = i - std::uniform_int_distribution<std::int32_t>{1, skip_reach}(rng);
      n.input_count = 2;
    }
    ctnn::tensor t{};
    t.label = n.label;
    t.dims = ctnn::make_shape(1, elements);
    t.producer = i;
    n.output = m->add_tensor(t);
    m->nodes[static_cast<std::size_t>(m->node_count++)] = n;
    ctnn::kernel_call& c = m->calls[static_cast<std::size_t>(m->call_count++)];
    c.node = i;
    c.result = n.output;
    c.operands = n.inputs;
    c.operand_count = n.input_count;
  }
  const std::int32_t out = m->node_at(ops - 1).output;
  m->tensor_at(out).role = ctnn::tensor_role::output;
  m->tensor_at(out).io_index = 0;
  m->outputs[0] = out;
  m->output_count = 1;
  m->establish(ctnn::fact::shapes_inferred);
  m->establish(ctnn::fact::kernels_lowered);
  return m;
}

// Two branches per block (a wide and a narrow path joined by an add), where the op order matters.
std::unique_ptr<synthetic_module> branchy(std::int32_t blocks, std::uint32_t seed) {
  auto m = std::make_unique<synthetic_module>();
  std::mt19937 rng{seed};
  ctnn::tensor x{};
  x.dims = ctnn::make_shape(1, 256);
  x.role = ctnn::tensor_role::input;
  x.io_index = 0;
  std::int32_t last = m->inputs[0] = m->add_tensor(x);
  m->input_count = 1;
  const auto add_op = [&](ctnn::op_kind kind, std::int32_t a, std::int32_t b, std::int32_t elements) {
    ctnn::node n{};
    n.kind = kind;
    n.label = ctnn::numbered("op", static_cast<std::size_t>(m->node_count));
    n.inputs[0] = a;
    n.inputs[1] = b;
    n.input_count = b >= 0 ? 2 : 1;
    ctnn::tensor t{};
    t.label = n.label;
    t.dims = ctnn::make_shape(1, elements);
    t.producer = m->node_count;
    n.output = m->add_tensor(t);
    ctnn::kernel_call& c = m->calls[static_cast<std::size_t>(m->call_count++)];
    c.node = m->node_count;
    c.result = n.output;
    c.operands = n.inputs;
    c.operand_count = n.input_count;
    m->nodes[static_cast<std::size_t>(m->node_count++)] = n;
    return n.output;
  };
  for (std::int32_t b = 0; b < blocks; ++b) {
    const std::int32_t wide = 1024 + static_cast<std::int32_t>(rng() % 2048), narrow = 256;
    // As written: both wide tensors first (the order a naive exporter produces).
    const std::int32_t w1 = add_op(ctnn::op_kind::relu, last, -1, wide);
    const std::int32_t w2 = add_op(ctnn::op_kind::relu, last, -1, wide);
    const std::int32_t n1 = add_op(ctnn::op_kind::relu, w1, -1, narrow);
    const std::int32_t n2 = add_op(ctnn::op_kind::relu, w2, -1, narrow);
    last = add_op(ctnn::op_kind::add, n1, n2, narrow);
  }
  m->tensor_at(last).role = ctnn::tensor_role::output;
  m->tensor_at(last).io_index = 0;
  m->outputs[0] = last;
  m->output_count = 1;
  m->establish(ctnn::fact::shapes_inferred);
  m->establish(ctnn::fact::kernels_lowered);
  return m;
}

// ---------------------------------------------------------------------------------------------------
// MLPerf Tiny int8 models: imported at run time by the TFLite frontend (the same constexpr code
// ctnn_add_model runs at compile time), then lowered for the host target: the scratch a kernel
// declares (module::scratch_bytes, from kernel/scratch.hpp) is planned; the Cortex-M4 figures come from --cortex-m4.
using mlperf_module = ctnn::module<512, 256>;

std::unique_ptr<mlperf_module> mlperf(const std::string& dir, const char* file, std::string& why_not) {
  std::ifstream in(dir + "/" + file, std::ios::binary);
  if (!in) {
    why_not = dir + "/" + file + " not found (pass --models DIR)";
    return nullptr;
  }
  std::stringstream bytes_stream;
  bytes_stream << in.rdbuf();
  const std::string bytes = bytes_stream.str();
  const auto counts = ctnn::tflite::count(bytes.data(), bytes.size());
  if (counts.tensors > 512 || counts.nodes > 256) {
    why_not = std::string{file} + " is larger than the benchmark's module capacity";
    return nullptr;
  }
  auto m = std::make_unique<mlperf_module>(ctnn::tflite::import<512, 256>(bytes.data(), bytes.size(), file));
  lower_at_run_time(*m);
  if (m->error.failed()) {
    why_not = std::string{file} + ": the import or lowering failed (error code " + std::to_string(static_cast<int>(m->error.code)) + ")";
    return nullptr;
  }
  return m;
}

// ---------------------------------------------------------------------------------------------------
struct result {
  std::string model, algorithm, options;
  std::int64_t arena_bytes = 0, lower_bound = 0, total_ram = 0;
  std::int32_t in_place = 0, concats = 0, reordered = 0;
  double plan_ms = 0;
  bool failed = false;
};

struct run_settings {
  bool quick = false;
};

template <class Algorithm, class Module>
result measure(const Module& lowered, const memory::plan_config& config, const run_settings& settings) {
  result r{};
  auto planned = std::make_unique<Module>(ctnn::pass::plan_module<Algorithm>(lowered, config));
  r.failed = planned->error.failed();
  for (std::int32_t p = 0; p < planned->pool_count; ++p)
    if (!planned->pools[static_cast<std::size_t>(p)].read_only) r.arena_bytes += planned->pool_usage[static_cast<std::size_t>(p)].bytes;
  r.lower_bound = planned->liveness_lower_bound;
  r.total_ram = r.arena_bytes + planned->io_bytes_outside;
  r.in_place = planned->in_place_ops;
  r.concats = planned->concats_in_place;
  r.reordered = planned->reordered;
  const auto budget = std::chrono::milliseconds(settings.quick ? 1 : 20);
  const auto start = std::chrono::steady_clock::now();
  std::int64_t runs = 0;
  auto elapsed = std::chrono::steady_clock::duration{};
  do {
    *planned = ctnn::pass::plan_module<Algorithm>(lowered, config);
    ++runs;
    elapsed = std::chrono::steady_clock::now() - start;
  } while (elapsed < budget);
  r.plan_ms = std::chrono::duration<double, std::milli>(elapsed).count() / static_cast<double>(runs);
  return r;
}

struct option_set {
  const char* name;
  memory::plan_config config;
};

template <class Module>
void bench_model(const std::string& model, const Module& lowered, const run_settings& settings, std::vector<result>& out) {
  const std::vector<option_set> options{
      {"-", memory::make_plan_config<>()},
      {"reuse", memory::make_plan_config<ctnn::memory_reuse>()},
      {"reuse+io", memory::make_plan_config<ctnn::memory_reuse, ctnn::io_in_arena>()},
      {"reuse+io+dw", memory::make_plan_config<ctnn::memory_reuse, ctnn::io_in_arena, ctnn::in_place_depthwise>()},
      {"reuse+io+win", memory::make_plan_config<ctnn::memory_reuse, ctnn::io_in_arena, ctnn::in_place_windows>()},
  };
  for (const option_set& o : options) {
    const auto add = [&](const char* name, result r) {
      r.model = model;
      r.algorithm = name;
      r.options = o.name;
      out.push_back(r);
    };
    add("default", measure<memory::default_planner>(lowered, o.config, settings));
    add("greedy_by_size", measure<memory::greedy_by_size>(lowered, o.config, settings));
    if (settings.quick) continue;
    add("greedy_by_conflicts", measure<memory::greedy_by_conflicts>(lowered, o.config, settings));
    add("greedy_by_breadth", measure<memory::greedy_by_breadth>(lowered, o.config, settings));
    add("interval_sweep", measure<memory::interval_sweep>(lowered, o.config, settings));
    add("hill_climb<1>", measure<memory::hill_climb<1>>(lowered, o.config, settings));
    add("hill_climb<1,2000>", measure<memory::hill_climb<1, 2000>>(lowered, o.config, settings));
    add("branch_and_bound<12>", measure<memory::branch_and_bound<12, 100000>>(lowered, o.config, settings));
  }
}

void print_table(const std::vector<result>& results) {
  std::printf("%-26s %-22s %-12s %10s %10s %7s %10s %6s %9s\n", "model", "algorithm", "options", "arena", "lower bnd", "ratio",
              "total RAM", "reuse", "plan ms");
  std::string last_model;
  for (const result& r : results) {
    if (r.model != last_model && !last_model.empty()) std::printf("\n");
    last_model = r.model;
    char reuse[32];
    std::snprintf(reuse, sizeof reuse, "%d/%d%s", r.in_place, r.concats, r.reordered ? "/o" : "");
    std::printf("%-26s %-22s %-12s %10lld %10lld %7.4f %10lld %6s %9.4f%s\n", r.model.c_str(), r.algorithm.c_str(), r.options.c_str(),
                static_cast<long long>(r.arena_bytes), static_cast<long long>(r.lower_bound),
                r.lower_bound > 0 ? static_cast<double>(r.arena_bytes) / static_cast<double>(r.lower_bound) : 1.0,
                static_cast<long long>(r.total_ram), reuse, r.plan_ms, r.failed ? "  FAILED" : "");
  }
  std::printf("\nreuse: in-place ops / concats in place / o = op order changed. total RAM = pools + inputs and outputs "
              "in the caller's buffers.\n");
}

void print_json(const std::vector<result>& results) {
  for (const result& r : results)
    std::printf("{\"model\": \"%s\", \"algorithm\": \"%s\", \"options\": \"%s\", \"arena_bytes\": %lld, \"lower_bound\": %lld, "
                "\"total_ram\": %lld, \"in_place_ops\": %d, \"concats_in_place\": %d, \"reordered\": %s, \"plan_ms\": %.6f}\n",
                r.model.c_str(), r.algorithm.c_str(), r.options.c_str(), static_cast<long long>(r.arena_bytes),
                static_cast<long long>(r.lower_bound), static_cast<long long>(r.total_ram), r.in_place, r.concats,
                r.reordered ? "true" : "false", r.plan_ms);
}

// ---------------------------------------------------------------------------------------------------
// The goals for the MLPerf Tiny int8 models: RAM in all (pools, kernels' scratch included, plus
// inputs/outputs kept outside them: what TFLM's arena counts), against the liveness lower bound of the
// plain per-tensor plan with inputs and outputs in the arena (docs/design.md §3's anchors), TFLM's arena and
// TVM's USMP workspace. ctnn's host figures are the default planner with memory_reuse + io_in_arena, and
// with ctnn::in_place_windows on top (a convolution's result over its dying input); the Cortex-M4
// figures come from the bare-metal programs (tests/baremetal/mlperf_memory_main.cpp), whose JSON lines
// --cortex-m4 FILE reads. A goal marked `below` also asks the in-place figures to go under the bound.
struct mlperf_goal {
  const char* model;     // as in the table above
  const char* m4_model;  // the bare-metal program's "model"
  const char* label;
  std::int64_t lower_bound, tflm, tvm, goal;
  bool below;         // the in-place figures must be below lower_bound
  const char* trick;  // what gets ctnn to the goal, and below the bound
};
constexpr mlperf_goal mlperf_goals[] = {
    {"mlperf kws (ds-cnn)", "kws_ref_model", "KWS DS-CNN", 16000, 22868, 17232, 16000, false,
     "input in the arena (io_in_arena); below: in-place convolutions, 8 layers (depthwise and pointwise) each over its "
     "dying input, placed from the last up"},
    {"mlperf vww (mobilenet)", "vww_96_int8", "VWW MobileNetV1-0.25", 55296, 100756, 64800, 55296, true,
     "io_in_arena + the interval sweep of the default planner (greedy by size: 64,512); below: in-place convolutions "
     "at the peaks: op 2's pointwise 8 -> 16 channels over its input's tail, op 0's stride-2 conv, op 3's stride-2 depthwise"},
    {"mlperf ic (resnet-8)", "pretrainedResnet_quant", "IC ResNet-8", 49152, 54436, 66112, 49152, false,
     "input in the arena (io_in_arena); below: in place, the 3x3 conv at the peak (op 2, 32x32x16 -> 32x32x16) over its "
     "dying input"},
    {"mlperf ad (autoencoder)", "ad01_int8", "AD autoencoder", 768, 2372, 1160, 768, false,
     "input and output in the arena (io_in_arena); dense layers only: no convolution to put in place"},
};

// "total_ram" of the bare-metal program's line for a model and option set, or -1.
std::int64_t cortex_m4_total_ram(const std::string& lines, const char* model, const char* options) {
  const std::string key = std::string{"\"model\": \""} + model + "\", \"target\": \"cortex-m4\", \"options\": \"" + options + "\"";
  const std::size_t at = lines.find(key);
  if (at == std::string::npos) return -1;
  const std::size_t field = lines.find("\"total_ram\": ", at);
  if (field == std::string::npos) return -1;
  return std::strtoll(lines.c_str() + field + 13, nullptr, 10);
}

std::string figure(std::int64_t bytes) { return bytes >= 0 ? std::to_string(bytes) : std::string{"-"}; }

// Returns whether every goal that was measured is met.
bool print_goals(const std::vector<result>& results, const std::string& cortex_m4_lines, bool json) {
  bool all_met = true;
  if (!json)
    std::printf("\nMLPerf Tiny int8: RAM in all (bytes; pools incl. scratch + I/O outside them), default planner, memory_reuse + "
                "io_in_arena (+win: and in_place_windows); M4: the bare-metal programs (--cortex-m4)\n"
                "%-22s %10s %10s %10s %10s %10s %10s %10s %8s %s\n",
                "model", "lower bnd", "TFLM", "TVM USMP", "ctnn host", "host +win", "ctnn M4", "M4 +win", "goal", "met");
  for (const mlperf_goal& g : mlperf_goals) {
    std::int64_t host = -1, with_depthwise = -1, with_windows = -1;
    for (const result& r : results) {
      if (r.model != g.model || r.algorithm != "default") continue;
      if (r.options == "reuse+io") host = r.total_ram;
      if (r.options == "reuse+io+dw") with_depthwise = r.total_ram;
      if (r.options == "reuse+io+win") with_windows = r.total_ram;
    }
    if (host < 0) continue;  // the model was skipped
    const std::int64_t m4 = cortex_m4_total_ram(cortex_m4_lines, g.m4_model, "reuse+io");
    const std::int64_t m4_windows = cortex_m4_total_ram(cortex_m4_lines, g.m4_model, "reuse+io+win");
    const bool below = !g.below || (with_windows < g.lower_bound && m4_windows < g.lower_bound);  // m4 -1: not measured
    const bool met = host <= g.goal && (m4 < 0 || m4 <= g.goal) && below;
    all_met = all_met && met;
    if (json) {
      std::printf("{\"goal\": \"%s\", \"lower_bound\": %lld, \"tflm_arena\": %lld, \"tvm_usmp\": %lld, \"ctnn_host\": %lld, "
                  "\"ctnn_host_in_place_depthwise\": %lld, \"ctnn_host_in_place_windows\": %lld, \"ctnn_cortex_m4\": %lld, "
                  "\"ctnn_cortex_m4_in_place_windows\": %lld, \"goal_bytes\": %lld, \"met\": %s}\n",
                  g.label, static_cast<long long>(g.lower_bound), static_cast<long long>(g.tflm), static_cast<long long>(g.tvm),
                  static_cast<long long>(host), static_cast<long long>(with_depthwise), static_cast<long long>(with_windows),
                  static_cast<long long>(m4), static_cast<long long>(m4_windows), static_cast<long long>(g.goal), met ? "true" : "false");
      continue;
    }
    char goal_text[32];
    std::snprintf(goal_text, sizeof goal_text, "%s%lld", g.below ? "<" : "", static_cast<long long>(g.below ? g.lower_bound : g.goal));
    std::printf("%-22s %10lld %10lld %10lld %10lld %10s %10s %10s %8s %s: %s\n", g.label, static_cast<long long>(g.lower_bound),
                static_cast<long long>(g.tflm), static_cast<long long>(g.tvm), static_cast<long long>(host), figure(with_windows).c_str(),
                figure(m4).c_str(), figure(m4_windows).c_str(), goal_text, met ? "yes" : "NO", g.trick);
  }
  return all_met;
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false;
  run_settings settings{};
  std::string models_dir = CTNN_MLPERF_DIR;
  std::string cortex_m4_lines;  // the bare-metal programs' output (tests/baremetal/mlperf_memory_main.cpp)
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--json") json = true;
    else if (arg == "--quick") settings.quick = true;
    else if (arg == "--models" && i + 1 < argc) models_dir = argv[++i];
    else if (arg == "--cortex-m4" && i + 1 < argc) {
      std::ifstream in(argv[++i]);
      if (!in) {
        std::fprintf(stderr, "%s: cannot read %s\n", argv[0], argv[i]);
        return 2;
      }
      std::stringstream lines;
      lines << in.rdbuf();
      cortex_m4_lines = lines.str();
    } else {
      std::fprintf(stderr, "usage: %s [--json] [--quick] [--models DIR] [--cortex-m4 FILE]\n", argv[0]);
      return 2;
    }
  }
  std::vector<result> results;

  // --- Model sources: a name and a function returning the module before plan_memory. ----------------
  bench_model("digits", *dsl_source<digits::model>()(), settings, results);
  bench_model("e2e cnn_pool", *dsl_source<e2e::cnn_pool>()(), settings, results);
  bench_model("e2e mlp", *dsl_source<e2e::mlp>()(), settings, results);
  bench_model("e2e residual", *dsl_source<e2e::residual>()(), settings, results);
  bench_model("e2e concat_block", *dsl_source<e2e::concat_block>()(), settings, results);
  bench_model("e2e bn_block", *dsl_source<e2e::bn_block>()(), settings, results);
  bench_model("synthetic chain 400 (net)", *synthetic(400, 0, 0, false, 1), settings, results);
  bench_model("synthetic chain 400 (rand)", *synthetic(400, 0, 0, true, 2), settings, results);
  bench_model("synthetic skips 200", *synthetic(200, 5, 12, false, 3), settings, results);
  bench_model("synthetic branches 40x5", *branchy(40, 4), settings, results);

  // --- MLPerf Tiny int8 (needs the TFLite frontend: ctnn/frontend/tflite/import.hpp). ---------------
  const char* const mlperf_files[][2] = {{"mlperf kws (ds-cnn)", "kws_ref_model.tflite"},
                                         {"mlperf vww (mobilenet)", "vww_96_int8.tflite"},
                                         {"mlperf ic (resnet-8)", "pretrainedResnet_quant.tflite"},
                                         {"mlperf ad (autoencoder)", "ad01_int8.tflite"}};
  for (const auto& [name, file] : mlperf_files) {
    std::string why_not;
    const auto m = mlperf(models_dir, file, why_not);
    if (!m) {
      std::fprintf(stderr, "skipping %s: %s\n", name, why_not.c_str());
      continue;
    }
    bench_model(name, *m, settings, results);
  }

  if (json) print_json(results);
  else print_table(results);
  return print_goals(results, cortex_m4_lines, json) ? 0 : 1;
}
