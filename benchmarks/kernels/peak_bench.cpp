// The machine's measured peak, single thread, for the per-layer "% of peak" figures (run.py):
//   f32_fma/<chains>    independent chains of fused multiply-adds on the widest float vectors of the
//                       build's -march (xsimd::batch<float>); counter "FMA/s" (= float MAC/s)
//   i8_vpdpbusd/<chains>  the same with _mm512_dpbusd_epi32 (64 u8 x s8 MACs each), when the build has
//                       AVX512-VNNI; counter "MAC/s"
// A chain is a dependency chain (acc = fma(acc, x, y)); with more chains than latency x issue width, the
// FMA units are never idle. run.py takes the best chain count as the peak.
#include <cstddef>
#include <cstdint>
#include <string>

#include <benchmark/benchmark.h>

#if defined(__AVX512VNNI__)
#include <immintrin.h>
#endif
#include <xsimd/xsimd.hpp>

#include <ctnn/kernel/simd/detail/f32_lanes.hpp>

namespace {

constexpr int steps_per_iteration = 256;

template <int Chains>
void f32_fma(benchmark::State& state) {
  using batch = xsimd::batch<float>;
  volatile float seed_x = 0.999f, seed_y = 1e-3f;  // unknown to the compiler: nothing folds
  const batch x(seed_x), y(seed_y);
  batch acc[Chains];
  for (int c = 0; c < Chains; ++c) acc[c] = batch(static_cast<float>(c));
  for (auto _ : state) {
    for (int s = 0; s < steps_per_iteration; ++s)
      for (int c = 0; c < Chains; ++c) acc[c] = ctnn::kernel::simd::detail::fmadd(acc[c], x, y);  // the kernels' own FMA
    for (int c = 0; c < Chains; ++c) benchmark::DoNotOptimize(acc[c]);
  }
  const double fmas = static_cast<double>(steps_per_iteration) * Chains * batch::size;
  state.counters["FMA/s"] = benchmark::Counter(fmas, benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(std::string{batch::arch_type::name()} + ", " + std::to_string(batch::size) + " floats per vector");
}

#if defined(__AVX512VNNI__)
template <int Chains>
void i8_vpdpbusd(benchmark::State& state) {
  volatile int seed = 0x01010101;
  const __m512i a = _mm512_set1_epi32(seed), b = _mm512_set1_epi32(seed);
  __m512i acc[Chains];
  for (int c = 0; c < Chains; ++c) acc[c] = _mm512_set1_epi32(c);
  for (auto _ : state) {
    for (int s = 0; s < steps_per_iteration; ++s)
      for (int c = 0; c < Chains; ++c) acc[c] = _mm512_dpbusd_epi32(acc[c], a, b);
    for (int c = 0; c < Chains; ++c) benchmark::DoNotOptimize(acc[c]);
  }
  const double macs = static_cast<double>(steps_per_iteration) * Chains * 64;
  state.counters["MAC/s"] = benchmark::Counter(macs, benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel("avx512vnni, 64 int8 MACs per instruction");
}
#endif

void peak_settings(benchmark::internal::Benchmark* b) {
  b->Repetitions(5)->ReportAggregatesOnly(true)->MinTime(0.05);
}

}  // namespace

BENCHMARK_TEMPLATE(f32_fma, 4)->Name("f32_fma/4")->Apply(peak_settings);
BENCHMARK_TEMPLATE(f32_fma, 8)->Name("f32_fma/8")->Apply(peak_settings);
BENCHMARK_TEMPLATE(f32_fma, 12)->Name("f32_fma/12")->Apply(peak_settings);
BENCHMARK_TEMPLATE(f32_fma, 16)->Name("f32_fma/16")->Apply(peak_settings);
#if defined(__AVX512VNNI__)
BENCHMARK_TEMPLATE(i8_vpdpbusd, 4)->Name("i8_vpdpbusd/4")->Apply(peak_settings);
BENCHMARK_TEMPLATE(i8_vpdpbusd, 8)->Name("i8_vpdpbusd/8")->Apply(peak_settings);
BENCHMARK_TEMPLATE(i8_vpdpbusd, 12)->Name("i8_vpdpbusd/12")->Apply(peak_settings);
BENCHMARK_TEMPLATE(i8_vpdpbusd, 16)->Name("i8_vpdpbusd/16")->Apply(peak_settings);
#endif

BENCHMARK_MAIN();
