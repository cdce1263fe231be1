// The executor's outputs do not depend on the memory plan: the digits demo model and the residual DAG of
// the e2e tests, compiled with every placement algorithm (and a user's), with every reuse option
// (in-place convolutions included), with inputs/outputs in the arena and with several limited pools,
// give outputs equal bit for bit to the default compile's. The plans themselves differ (checked: not
// all offsets agree). And the four MLPerf Tiny int8 models, imported and planned at run time with
// memory_reuse + io_in_arena + in_place_windows (the same constexpr code ctnn::compile runs) and run
// by the shared kernels in the planned arena, give TFLM's outputs bit for bit, below their liveness
// bound without in-place convolutions (VWW: below 55,296 B).
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/compile.hpp>
#include <ctnn/frontend/tflite/import.hpp>
#include <ctnn/kernel/run_module.hpp>
#include <ctnn/memory/algorithms.hpp>
#include <ctnn/pass/edit_pipeline.hpp>
#include <ctnn/pass/run_pipeline.hpp>

#include "digits_heldout.hpp"
#include "digits_model.hpp"
#include "e2e/data/residual.hpp"
#include "test_modules.hpp"

namespace {

namespace dsl = ctnn::dsl;
namespace memory = ctnn::memory;

// tests/e2e/residual_test.cpp's model.
namespace data = ctnn_test_data::residual;
using residual = dsl::graph<
    dsl::outputs<"out">,
    dsl::node<"x", dsl::input<ctnn::f32, 1, 8, 8, 6>>,
    dsl::node<"a", dsl::conv2d<data::conv_a_w, data::conv_a_b, dsl::kernel<3>, dsl::same, dsl::relu>, "x">,
    dsl::node<"b", dsl::conv2d<data::conv_b_w, data::conv_b_b, dsl::kernel<3>, dsl::same>, "a">,
    dsl::node<"c", dsl::add<dsl::relu>, "x", "b">,
    dsl::node<"d", dsl::depthwise_conv2d<data::dw_w, data::dw_b, dsl::kernel<3>, dsl::same, dsl::multiplier<2>, dsl::relu>, "c">,
    dsl::node<"e", dsl::conv2d<data::conv_e_w, data::conv_e_b, dsl::kernel<1>>, "d">,
    dsl::node<"f", dsl::add<>, "c", "e">,
    dsl::node<"g", dsl::tanh, "f">,
    dsl::node<"h", dsl::mul<>, "g", "f">,
    dsl::node<"out", dsl::global_avg_pool, "h">>;

// A user's algorithm: first fit in order of first use.
struct by_first_use {
  template <class Buffers, class Allocations>
  static constexpr std::int64_t plan(const Buffers& buffers, std::int32_t count, Allocations& allocations) {
    std::array<std::int64_t, std::tuple_size_v<Buffers>> key{};
    for (std::int32_t b = 0; b < count; ++b) key[static_cast<std::size_t>(b)] = buffers[static_cast<std::size_t>(b)].first_use;
    return memory::first_fit(buffers, count, memory::detail::sorted_by_key<std::tuple_size_v<Buffers>>(count, key.data()), allocations);
  }
};

template <class Net>
std::vector<float> outputs_of(const float* input) {
  std::vector<float> out(Net::template output<0>::elements);
  if constexpr (Net::template input<0>::in_arena) {
    std::memcpy(Net::template input<0>::data(), input, Net::template input<0>::bytes);
    Net::run();
    std::memcpy(out.data(), Net::template output<0>::data(), Net::template output<0>::bytes);
  } else {
    Net::run(input, out.data());
  }
  return out;
}

template <class Model, class Reference, class... Variants>
void check_variants(const float* inputs, std::size_t cases, std::size_t input_elements) {
  for (std::size_t c = 0; c < cases; ++c) {
    const float* input = inputs + c * input_elements;
    const std::vector<float> want = outputs_of<Reference>(input);
    const auto compare = [&]<class Net>(Net*) {
      const std::vector<float> got = outputs_of<Net>(input);
      CAPTURE(c);
      REQUIRE(got.size() == want.size());
      CHECK(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) == 0);
    };
    (compare(static_cast<Variants*>(nullptr)), ...);
  }
}

template <class Model>
using variants_of = std::tuple<
    ctnn::compile<Model, ctnn::planner<memory::greedy_by_size>>, ctnn::compile<Model, ctnn::planner<memory::greedy_by_conflicts>>,
    ctnn::compile<Model, ctnn::planner<memory::greedy_by_breadth>>, ctnn::compile<Model, ctnn::planner<memory::interval_sweep>>,
    ctnn::compile<Model, ctnn::planner<memory::hill_climb<3, 50>>>, ctnn::compile<Model, ctnn::planner<memory::branch_and_bound<>>>,
    ctnn::compile<Model, ctnn::planner<by_first_use>>, ctnn::compile<Model, ctnn::memory_reuse>,
    ctnn::compile<Model, ctnn::memory_reuse, ctnn::io_in_arena, ctnn::planner<memory::hill_climb<9, 50>>>,
    ctnn::compile<Model, ctnn::pools<ctnn::pool<"tcm", 512>, ctnn::pool<"sram">>, ctnn::memory_reuse, ctnn::planner<memory::interval_sweep>>,
    ctnn::compile<Model, ctnn::memory_reuse, ctnn::io_in_arena, ctnn::in_place_windows>>;

template <class Model, class Tuple>
struct check_all;
template <class Model, class... Nets>
struct check_all<Model, std::tuple<Nets...>> {
  static void run(const float* inputs, std::size_t cases, std::size_t input_elements) {
    check_variants<Model, ctnn::compile<Model>, Nets...>(inputs, cases, input_elements);
  }
  // How many variants place at least one tensor elsewhere than the default plan.
  static int differing_plans() {
    constexpr auto& reference = ctnn::compile<Model>::module;
    int differing = 0;
    const auto visit = [&]<class Net>(Net*) {
      bool differs = Net::module.node_count != reference.node_count;
      for (std::int32_t t = 0; t < reference.tensor_count; ++t)
        differs = differs || Net::module.allocations[static_cast<std::size_t>(t)].offset != reference.allocations[static_cast<std::size_t>(t)].offset ||
                  Net::module.allocations[static_cast<std::size_t>(t)].pool != reference.allocations[static_cast<std::size_t>(t)].pool;
      differing += differs ? 1 : 0;
    };
    (visit(static_cast<Nets*>(nullptr)), ...);
    return differing;
  }
};

TEST_CASE("digits: every plan gives the default plan's outputs, bit for bit") {
  using all = check_all<digits::model, variants_of<digits::model>>;
  all::run(digits::heldout_images, 40, digits::image_elements);
  CHECK(all::differing_plans() >= 3);
}

TEST_CASE("residual DAG: every plan gives the default plan's outputs, bit for bit") {
  using all = check_all<residual, variants_of<residual>>;
  all::run(data::inputs, data::case_count, data::input_elements);
  CHECK(all::differing_plans() >= 3);
  // The reuse options do work on this DAG (not at its peak, op 4: c, d and e are all needed there).
  static_assert(ctnn::compile<residual, ctnn::memory_reuse>::module.in_place_ops == 3);  // c over b, f over c, h over g
}

// ---------------------------------------------------------------------------------------------------
// The MLPerf Tiny int8 models at run time (../shared/models/mlperf-tiny; skipped when absent).
#ifndef CTNN_MLPERF_DIR
// The build does not say where the shared models are: the default CTNN_SHARED_DIR, beside the repository.
std::string mlperf_dir() {
  const std::string file = __FILE__, tail = "tests/unit/unit_memory_e2e.cpp";
  const std::string root = file.size() >= tail.size() ? file.substr(0, file.size() - tail.size()) : std::string{};
  return root + "../shared/models/mlperf-tiny";
}
#else
std::string mlperf_dir() { return CTNN_MLPERF_DIR; }
#endif

bool read_file(const std::string& path, std::vector<char>& bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

using mlperf_module = ctnn::module<512, 256>;

// The default pipeline at run time, plan_memory with `config` instead of no options: on one module on the
// heap, in place (no module copy on the stack, also under AddressSanitizer).
std::unique_ptr<mlperf_module> compile_at_run_time(const std::vector<char>& model, const char* name, const memory::plan_config& config) {
  using planning = ctnn::pass::plan_memory<>;
  auto m = std::make_unique<mlperf_module>();
  ctnn::tflite::import_into(*m, model.data(), model.size(), name);
  ctnn::run_pipeline_in_place<ctnn::passes_before<planning>>(*m);
  if (!m->error.failed()) ctnn::pass::plan_module_in_place<planning::algorithm>(*m, config);
  ctnn::run_pipeline_in_place<ctnn::passes_after<planning>>(*m);
  return m;
}

struct mlperf_case {
  const char* file;
  const char* refs;
  std::int64_t bound_without;  // the liveness lower bound with reuse and I/O in the arena, no in-place convolutions
};

void check_mlperf_in_place(const mlperf_case& model) {
  const std::string dir = mlperf_dir();
  std::vector<char> bytes;
  if (!read_file(dir + "/" + model.file, bytes)) {
    MESSAGE("SKIP: " << dir << "/" << model.file << " not found");
    return;
  }
  CAPTURE(std::string{model.file});
  const auto without = compile_at_run_time(bytes, model.file, memory::make_plan_config<ctnn::memory_reuse, ctnn::io_in_arena>());
  const auto with = compile_at_run_time(bytes, model.file, memory::make_plan_config<ctnn::memory_reuse, ctnn::io_in_arena, ctnn::in_place_windows>());
  REQUIRE(!without->error.failed());
  REQUIRE(!with->error.failed());
  CHECK(without->liveness_lower_bound == model.bound_without);
  CHECK(without->arena_bytes() == model.bound_without);
  // Below the bound of the plan without in-place convolutions, with calls that run in place.
  std::int32_t in_place_calls = 0;
  std::string which;  // the calls in place: op kind, input and result shapes
  for (std::int32_t c = 0; c < with->call_count; ++c) {
    const ctnn::kernel_params& p = with->calls[static_cast<std::size_t>(c)].params;
    if (p.in_place == 0) continue;
    ++in_place_calls;
    which += " op " + std::to_string(with->calls[static_cast<std::size_t>(c)].node) + " " + ctnn::name_of(p.kind) + " " +
             std::to_string(p.in[1]) + "x" + std::to_string(p.in[2]) + "x" + std::to_string(p.in[3]) + "->" + std::to_string(p.out[1]) + "x" +
             std::to_string(p.out[2]) + "x" + std::to_string(p.out[3]) + ";";
  }
  MESSAGE(std::string{model.file} << ": arena " << without->arena_bytes() << " B -> " << with->arena_bytes() << " B with in-place convolutions (bound "
                                  << with->liveness_lower_bound << " B; " << in_place_calls << " calls in place:" << which << ")");
  CHECK(with->arena_bytes() < model.bound_without);
  CHECK(in_place_calls > 0);
  CHECK(with->io_bytes_outside == 0);

  ctnn::kernel::module_runner<mlperf_module> runner{*with};
  REQUIRE(runner.status() == ctnn::kernel::run_status::ok);
  for (int k = 0; k < 4; ++k) {
    CAPTURE(k);
    std::vector<char> input, expected;
    REQUIRE(read_file(dir + "/refs/" + model.refs + "/input_" + std::to_string(k) + ".bin", input));
    REQUIRE(read_file(dir + "/refs/" + model.refs + "/output_" + std::to_string(k) + ".bin", expected));
    REQUIRE(static_cast<std::int64_t>(input.size()) == with->input_tensor(0).bytes());
    REQUIRE(static_cast<std::int64_t>(expected.size()) == with->output_tensor(0).bytes());
    std::vector<char> output(expected.size(), 0x55);
    const void* inputs[1] = {input.data()};
    void* outputs[1] = {output.data()};
    REQUIRE(runner.run(inputs, outputs) == ctnn::kernel::run_status::ok);
    CHECK(output == expected);
  }
}

TEST_CASE("MLPerf Tiny int8 with in-place convolutions: below the bound without them, TFLM's outputs bit for bit") {
  check_mlperf_in_place({"vww_96_int8.tflite", "vww_96_int8", 55296});
  check_mlperf_in_place({"kws_ref_model.tflite", "kws_ref_model", 16000});
  check_mlperf_in_place({"pretrainedResnet_quant.tflite", "pretrainedResnet_quant", 49152});
}

}  // namespace
