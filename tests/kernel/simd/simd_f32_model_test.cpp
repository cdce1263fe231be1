// A whole model through ctnn::compile (vector kernels, weights packed at compile time by
// packed_operand_v) against the same compiled module run call by call with the reference kernels.
// Covers: direct conv (3 input channels), Winograd conv, depthwise stride 2, pointwise conv, add,
// max pool, global average pool, dense layers.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <ctnn/ctnn.hpp>
#include <ctnn/detail/for_each_index.hpp>

#include "kernel/simd/simd_f32_support.hpp"

namespace {

namespace dsl = ctnn::dsl;

// Constant weight arrays for the DSL, values in [-0.5, 0.5) from a seed.
template <std::uint32_t Seed, class Indices>
struct random_array;
template <std::uint32_t Seed, std::size_t... I>
struct random_array<Seed, std::index_sequence<I...>> {
  static constexpr float values[sizeof...(I)] = {
      ((static_cast<float>(simd_f32_test::mix(Seed * 7919U + static_cast<std::uint32_t>(I)) % 1024U) - 512.0f) / 1024.0f)...};
};
template <std::uint32_t Seed, std::size_t N>
inline constexpr const auto& weights = random_array<Seed, std::make_index_sequence<N>>::values;

using model = dsl::graph<
    dsl::outputs<"out">,
    dsl::node<"x", dsl::input<ctnn::f32, 1, 16, 16, 3>>,
    dsl::node<"a", dsl::conv2d<weights<1, 16 * 9 * 3>, weights<2, 16>, dsl::kernel<3>, dsl::same, dsl::relu>, "x">,
    dsl::node<"b", dsl::conv2d<weights<3, 16 * 9 * 16>, weights<4, 16>, dsl::kernel<3>, dsl::same, dsl::relu>, "a">,
    dsl::node<"c", dsl::add<dsl::relu>, "a", "b">,
    dsl::node<"d", dsl::depthwise_conv2d<weights<5, 9 * 16>, weights<6, 16>, dsl::kernel<3>, dsl::stride<2>, dsl::same, dsl::relu6>, "c">,
    dsl::node<"e", dsl::conv2d<weights<7, 24 * 16>, weights<8, 24>, dsl::kernel<1>, dsl::relu>, "d">,
    dsl::node<"f", dsl::max_pool<dsl::kernel<2>, dsl::stride<2>>, "e">,
    dsl::node<"g", dsl::global_avg_pool, "f">,
    dsl::node<"h", dsl::flatten, "g">,
    dsl::node<"i", dsl::dense<weights<9, 20 * 24>, weights<10, 20>, dsl::relu>, "h">,
    dsl::node<"out", dsl::dense<weights<11, 7 * 20>, weights<12, 7>>, "i">>;
using net = ctnn::compile<model>;

template <auto& M, std::int32_t T>
const float* operand_data(const std::vector<std::vector<float>>& buffers) {
  if constexpr (M.tensor_at(T).role == ctnn::tensor_role::constant) return ctnn::constant_data_of<M, T>();
  else return buffers[static_cast<std::size_t>(M.storage_root(T))].data();
}

// The module's calls in order, each with the reference kernel and a buffer per tensor.
template <auto& M>
std::vector<float> run_reference(const float* input) {
  std::vector<std::vector<float>> buffers(static_cast<std::size_t>(M.tensor_count));
  for (std::int32_t t = 0; t < M.tensor_count; ++t)
    if (M.tensor_at(t).role != ctnn::tensor_role::constant)
      buffers[static_cast<std::size_t>(t)].resize(static_cast<std::size_t>(M.tensor_at(t).dims.elements()));
  auto& in = buffers[static_cast<std::size_t>(M.storage_root(M.inputs[0]))];
  in.assign(input, input + in.size());
  ctnn::detail::for_each_index<static_cast<std::size_t>(M.call_count)>([&](auto c) {
    static constexpr const ctnn::kernel_call& call = M.calls[c];
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      const float* operands[] = {operand_data<M, call.operands[K]>(buffers)..., nullptr};
      ctnn::kernel::invoke_f32<call.params>(operands, buffers[static_cast<std::size_t>(M.storage_root(call.result))].data());
    }(std::make_index_sequence<static_cast<std::size_t>(call.operand_count)>{});
  });
  return buffers[static_cast<std::size_t>(M.storage_root(M.outputs[0]))];
}

}  // namespace

TEST_CASE("a compiled model with vector kernels matches its calls run with the reference kernels") {
  static_assert(net::output<0>::dims == ctnn::make_shape(1, 7));
  for (std::uint32_t seed = 1; seed <= 4; ++seed) {
    const std::vector<float> input = simd_f32_test::random_values(net::input<0>::elements, seed);
    float out[net::output<0>::elements];
    for (auto& v : out) v = std::nanf("");
    net::run(input.data(), out);
    const std::vector<float> want = run_reference<net::module>(input.data());
    for (std::size_t i = 0; i < net::output<0>::elements; ++i) {
      CAPTURE(seed);
      CAPTURE(i);
      // float32 accumulation-order differences through 7 layers: as tests/e2e's tolerance.
      CHECK(std::fabs(out[i] - want[i]) <= 1e-5f + 1e-4f * std::fabs(want[i]));
    }
  }
}

#ifndef XSIMD_NO_SUPPORTED_ARCHITECTURE
TEST_CASE("the model's calls use the vector kernels, Winograd for the 3x3 16->16 conv") {
  constexpr auto& m = net::module;
  std::int32_t vectorised = 0, winograd = 0;
  ctnn::detail::for_each_index<static_cast<std::size_t>(m.call_count)>([&](auto c) {
    constexpr ctnn::kernel_params p = m.calls[c].params;
    vectorised += ctnn::kernel::simd::f32_kernel<p>::supports;
    winograd += ctnn::kernel::simd::f32::winograd_conv2d<p>::supports;
  });
  CHECK(vectorised == m.call_count);
  CHECK(winograd == 1);
}
#endif
