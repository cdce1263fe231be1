#pragma once
// The harness shared by the kernel speed benchmarks (one program per model, benchmarks/kernels/): it
// registers with Google Benchmark
//   model                     one whole inference, Net::run_with_arena on the reference input
//   layer/<CC>:<kind>         call CC of the executor alone, run on the arena as the inference leaves it
//                             just before that call (calls 0..CC-1 run first, outside the timing)
// each with counters "macs" and "MAC/s", and a custom context (model, dtype, macs, reference check) that
// run.py reads from --benchmark_format=json. Before anything is timed, the program checks the model's
// output against its reference and exits with status 1 when it is wrong: a fast wrong kernel is no result.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include <ctnn/ctnn.hpp>

#include "../common/layer_macs.hpp"  // macs_of, model_macs

namespace ctnn_bench {

template <class T>
std::vector<T> read_file_as(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in.good()) return {};
  const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::vector<T> values(bytes.size() / sizeof(T));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

// A zeroed buffer of `bytes` aligned to `alignment` (the executor's arena contract).
class aligned_buffer {
 public:
  aligned_buffer(std::size_t bytes, std::size_t alignment) : storage_(bytes + alignment) {
    void* start = storage_.data();
    std::size_t space = storage_.size();
    data_ = static_cast<std::byte*>(std::align(alignment, bytes, start, space));
  }
  aligned_buffer(const aligned_buffer&) = delete;
  aligned_buffer& operator=(const aligned_buffer&) = delete;
  std::byte* get() const { return data_; }

 private:
  std::vector<std::byte> storage_;
  std::byte* data_ = nullptr;
};

namespace detail {

// Call C of Net alone, its single pool at `arena` (the executor's per-call entry).
template <class Net, std::size_t C>
void run_call_of(std::byte* arena, const void* const* inputs, void* const* outputs) {
  Net::template run_call<C>(typename Net::pool_pointers{arena}, inputs, outputs);
}

using call_function = void (*)(std::byte*, const void* const*, void* const*);

template <class Net, std::size_t... C>
constexpr std::array<call_function, sizeof...(C)> call_functions(std::index_sequence<C...>) {
  return {&run_call_of<Net, C>...};
}

}  // namespace detail

// A compiled model (ctnn::compile<...>, one input, one output, one pool) set up for timing.
template <class Net>
class model_bench {
  static_assert(Net::input_count == 1 && Net::output_count == 1, "ctnn_bench: models with one input and one output");
  static_assert(Net::pool_count == 1, "ctnn_bench: models with one memory pool (the default)");

 public:
  using input_type = typename Net::template input<0>::element_type;
  using output_type = typename Net::template output<0>::element_type;
  static constexpr std::size_t input_elements = Net::template input<0>::elements;
  static constexpr std::size_t output_elements = Net::template output<0>::elements;

  model_bench() : arena_{Net::arena_bytes, Net::arena_alignment}, input_(input_elements), output_(output_elements) {}

  // Runs the whole model: `input` to `output` (the executor with this arena).
  void run(const input_type* input, output_type* output) { Net::run_with_arena(arena_.get(), input, output); }

  std::vector<input_type>& input() { return input_; }
  std::vector<output_type>& output() { return output_; }

  // Registers "model" and "layer/<CC>:<kind>" for every call, timed on input(). Repetitions and minimum
  // times apply unless the command line gives --benchmark_repetitions / --benchmark_min_time.
  struct timing {
    int repetitions = 0;  // 0: the command line's
    double min_time_model = 0.0, min_time_layer = 0.0;  // seconds; 0: the command line's
  };
  void register_benchmarks(const timing& how) {
    const auto apply = [&](benchmark::internal::Benchmark* b, double min_time) {
      b->Unit(benchmark::kMicrosecond)->ReportAggregatesOnly(true);
      if (how.repetitions > 0) b->Repetitions(how.repetitions);
      if (min_time > 0.0) b->MinTime(min_time);
    };
    auto* model = benchmark::RegisterBenchmark("model", [this](benchmark::State& state) {
      for (auto _ : state) {
        run(input_.data(), output_.data());
        benchmark::DoNotOptimize(output_.data());
        benchmark::ClobberMemory();
      }
      set_mac_counters(state, model_macs<Net>());
    });
    apply(model, how.min_time_model);

    for (std::size_t c = 0; c < Net::call_count; ++c) {
      const ctnn::kernel_params& params = Net::module.calls[c].params;
      char name[64];
      std::snprintf(name, sizeof name, "layer/%02zu:%s", c, ctnn::name_of(params.kind));
      const std::int64_t macs = macs_of(params);
      auto* layer = benchmark::RegisterBenchmark(name, [this, c, macs](benchmark::State& state) {
        prepare_arena_for(c);
        const void* const inputs[] = {input_.data()};
        void* const outputs[] = {output_.data()};
        for (auto _ : state) {
          calls[c](arena_.get(), inputs, outputs);
          benchmark::ClobberMemory();
        }
        set_mac_counters(state, macs);
      });
      apply(layer, how.min_time_layer);
    }
  }

 private:
  static constexpr auto calls = detail::call_functions<Net>(std::make_index_sequence<Net::call_count>{});

  // The arena as the inference leaves it just before call `c`.
  void prepare_arena_for(std::size_t c) {
    const void* const inputs[] = {input_.data()};
    void* const outputs[] = {output_.data()};
    for (std::size_t k = 0; k < c; ++k) calls[k](arena_.get(), inputs, outputs);
  }

  static void set_mac_counters(benchmark::State& state, std::int64_t macs) {
    state.counters["macs"] = benchmark::Counter(static_cast<double>(macs));
    state.counters["MAC/s"] = benchmark::Counter(static_cast<double>(macs), benchmark::Counter::kIsIterationInvariantRate);
  }

  aligned_buffer arena_;
  std::vector<input_type> input_;
  std::vector<output_type> output_;
};

// Whether the per-call runner (the timing of layers) computes what the executor computes: the whole
// model run call by call must give the executor's output bit for bit.
template <class Net>
bool calls_match_executor(model_bench<Net>& bench) {
  std::vector<typename model_bench<Net>::output_type> by_executor(model_bench<Net>::output_elements);
  bench.run(bench.input().data(), by_executor.data());
  aligned_buffer arena{Net::arena_bytes, Net::arena_alignment};
  std::vector<typename model_bench<Net>::output_type> by_calls(model_bench<Net>::output_elements);
  const void* const inputs[] = {bench.input().data()};
  void* const outputs[] = {by_calls.data()};
  static constexpr auto calls = detail::call_functions<Net>(std::make_index_sequence<Net::call_count>{});
  for (const auto call : calls) call(arena.get(), inputs, outputs);
  return std::memcmp(by_calls.data(), by_executor.data(), by_calls.size() * sizeof(by_calls[0])) == 0;
}

// The program's main: Google Benchmark's flags, then the reference check (`check` returns a one-line
// summary, or an empty string after printing what is wrong), then the benchmarks. Exit status 1 when the
// check fails.
template <class Net, class Check>
int benchmark_main(int argc, char** argv, const char* model_name, Check&& check) {
  typename model_bench<Net>::timing how{15, 0.05, 0.01};
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg.rfind("--benchmark_repetitions", 0) == 0) how.repetitions = 0;
    if (arg.rfind("--benchmark_min_time", 0) == 0) how.min_time_model = how.min_time_layer = 0.0;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  static model_bench<Net> bench;
  const std::string verdict = check(bench);
  if (verdict.empty()) {
    std::fprintf(stderr, "%s: REFERENCE CHECK FAILED: the compiled model's output is wrong; nothing is timed.\n",
                 model_name);
    return 1;
  }
  if (!calls_match_executor(bench)) {
    std::fprintf(stderr, "%s: the per-layer runner does not reproduce the executor's output; nothing is timed.\n",
                 model_name);
    return 1;
  }
  using input_type = typename model_bench<Net>::input_type;
  benchmark::AddCustomContext("model", model_name);
  benchmark::AddCustomContext(
      "dtype", std::is_same_v<input_type, float> ? "float32" : (std::is_same_v<input_type, std::int16_t> ? "int16" : "int8"));
  benchmark::AddCustomContext("macs", std::to_string(model_macs<Net>()));
  benchmark::AddCustomContext("calls", std::to_string(Net::call_count));
  benchmark::AddCustomContext("arena_bytes", std::to_string(Net::arena_bytes));
  benchmark::AddCustomContext("reference_check", verdict);
  bench.register_benchmarks(how);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace ctnn_bench
