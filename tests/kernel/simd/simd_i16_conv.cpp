// The vectorised TFLite 16x8 conv2d and dense (kernel/simd/i8/gemm16.hpp) and depthwise_conv2d
// (kernel/simd/i8/depthwise.hpp) against the reference kernels,
// bit-exact, on randomised shapes: odd sizes and channel counts, reductions of odd length (a pair split over
// a run's end), asymmetric padding, stride 2, dilation 2, per-channel and per-tensor multipliers, int64 biases
// far beyond int32, fused relu/relu6 clamps, inputs at -32768 and weights at -128 (the largest products), and
// windows of up to 511 products (the most an int32 lane sums exactly); longer windows keep the reference.
#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "kernel/simd/simd_i8_support.hpp"

namespace {

using namespace simd_i8_test;

constexpr kernel_params int16_op(op_kind kind) {
  kernel_params p{};
  p.kind = kind;
  p.type = ctnn::dtype::i16;
  p.out_type = ctnn::dtype::i16;
  return p;
}

constexpr void set_int16_activation(kernel_params& p, std::int32_t choice, int8_test::xorshift& rng) {
  p.fused = choice == 0 ? activation::none : (choice == 1 ? activation::relu : activation::relu6);
  p.activation_min = p.fused == activation::none ? -32768 : 0;
  p.activation_max = p.fused == activation::relu6 ? rng.uniform(1, 32767) : 32767;
}

template <std::uint32_t Seed>
constexpr kernel_params conv_case() {
  int8_test::xorshift rng{Seed * 2654435761u + 4099u};
  kernel_params p = int16_op(op_kind::conv2d);
  const bool pointwise = Seed % 4 == 0;
  const std::int32_t n = rng.uniform(1, 2), h = rng.uniform(1, 11), w = rng.uniform(1, 11);
  const std::int32_t in_c = pointwise ? 16 * rng.uniform(1, 4) : rng.uniform(1, 19);
  const std::int32_t out_c = pointwise ? 8 * rng.uniform(1, 8) : rng.uniform(1, 41);
  set_random_window(p, rng, Seed, pointwise, n, h, w, in_c, out_c);
  p.has_bias = Seed % 6 != 5;
  p.per_channel = 1;  // a conv2d's multipliers are always the call's table (TFLite's per-channel recipe)
  set_int16_activation(p, rng.uniform(0, 2), rng);
  return p;
}

template <std::uint32_t Seed>
constexpr kernel_params dense_case() {
  int8_test::xorshift rng{Seed * 40503u + 331u};
  kernel_params p = int16_op(op_kind::dense);
  const std::int32_t batch = rng.uniform(1, 3);
  // Up to 511 features (the exact int32 limit), and beyond it now and then (the reference kernel's).
  const std::int32_t features = Seed % 7 == 3 ? 511 : (Seed % 7 == 4 ? 600 : rng.uniform(1, 300));
  p.in = ctnn::make_shape(batch, features);
  p.out = ctnn::make_shape(batch, rng.uniform(1, 70));
  p.has_bias = Seed % 4 != 3;
  p.per_channel = Seed % 2;
  if (p.per_channel == 0) {
    p.output_multiplier = static_cast<std::int32_t>((1u << 30) + (rng.next() >> 2));
    p.output_shift = -rng.uniform(10, 20);
  }
  set_int16_activation(p, rng.uniform(0, 2), rng);
  return p;
}

template <std::uint32_t Seed>
constexpr kernel_params depthwise_case() {
  int8_test::xorshift rng{Seed * 69069u + 1013u};
  kernel_params p = int16_op(op_kind::depthwise_conv2d);
  // Channel counts below, at and above the vector widths (lanes repeating channels where they divide 16).
  const std::int32_t channels = Seed % 3 == 0 ? 8 * rng.uniform(1, 8) : rng.uniform(1, 37);
  set_random_window(p, rng, Seed, false, rng.uniform(1, 2), rng.uniform(1, 12), rng.uniform(1, 12), channels, channels);
  if (Seed % 8 == 5) {  // KWS's last layer: a 25x5 window over the whole map (125 taps)
    p.in = ctnn::make_shape(1, 25, 5, channels);
    p.out = ctnn::make_shape(1, 1, 1, channels);
    p.win = {25, 5, 1, 1, 1, 1, ctnn::padding::valid, 0, 0, 0, 0};
  }
  p.has_bias = Seed % 5 != 4;
  p.per_channel = 1;
  set_int16_activation(p, rng.uniform(0, 2), rng);
  return p;
}

// Inputs spread over int16, a tenth of them at the extremes.
std::vector<std::int16_t> random_int16(std::size_t n, std::mt19937& rng) {
  std::vector<std::int16_t> v(n);
  std::uniform_int_distribution<int> any(-32768, 32767), pick(0, 19);
  for (auto& x : v) {
    const int k = pick(rng);
    x = static_cast<std::int16_t>(k == 0 ? -32768 : (k == 1 ? 32767 : any(rng)));
  }
  return v;
}

template <kernel_params P>
void check_case(tally& t, std::mt19937& rng) {
  constexpr bool depthwise = P.kind == op_kind::depthwise_conv2d;
  const std::int64_t reduction = P.kind == op_kind::dense ? P.in.elements() / P.out[0]
                                                          : P.win.kernel_h * P.win.kernel_w * (depthwise ? 1 : P.in[3]);
  const auto out_c = static_cast<std::size_t>(P.out.last());
  const auto input = random_int16(static_cast<std::size_t>(P.in.elements()), rng);
  auto weights = int8_test::random_int8(out_c * static_cast<std::size_t>(reduction), rng);  // OHWI, or 1HWC
  if (!weights.empty()) weights[0] = -128;  // the largest product, -32768 * -128, where the input has it
  std::vector<std::int64_t> bias(out_c);
  std::uniform_int_distribution<std::int64_t> wide(-(std::int64_t{1} << 40), std::int64_t{1} << 40);
  for (auto& b : bias) b = wide(rng) >> (rng() % 24);
  std::vector<std::int32_t> multiplier(out_c), shift(out_c);
  std::uniform_real_distribution<double> spread(0.25, 8.0);
  for (std::size_t c = 0; c < out_c; ++c) {
    // Outputs mostly inside int16: sums of `reduction` products of typical size 2^14 * 2^6.
    const double typical = 16384.0 * 64.0 * std::sqrt(static_cast<double>(reduction));
    const auto m = ctnn::detail::quant::quantize_multiplier(spread(rng) * 16384.0 / typical);
    multiplier[c] = m.multiplier;
    shift[c] = m.shift;
  }
  const ctnn::kernel::requant_arrays rq{multiplier.data(), shift.data(), nullptr, nullptr, nullptr};

  const void* operands[3]{input.data(), weights.data(), bias.data()};
  std::vector<std::int16_t> want(static_cast<std::size_t>(P.out.elements()), 0x5555);
  std::vector<std::int16_t> got(want.size(), 0x2a2a);
  ctnn::kernel::invoke<P>(operands, want.data(), rq);  // P records the reference kernel
  constexpr kernel_params selected = ctnn::pass::with_kernel_choice<P>;
  if constexpr (ctnn::kernel::packs_operand<selected>(1)) {
    const auto packed = ctnn::kernel::pack_operand<selected, 1>(vector_reader{&weights, nullptr});
    operands[1] = packed.data();
    ctnn::kernel::invoke<selected>(operands, got.data(), rq);
  } else {
    ctnn::kernel::invoke<selected>(operands, got.data(), rq);
  }
  comparison c{true, false};
  for (std::size_t i = 0; i < want.size(); ++i) {
    c.varied = c.varied || want[i] != want[0];
    if (c.equal && want[i] != got[i]) {
      MESSAGE("first difference at " << i << " of " << want.size() << ": reference " << want[i] << ", simd " << got[i]);
      c.equal = false;
    }
  }
  CHECK_MESSAGE(c.equal, "kind " << static_cast<int>(P.kind) << " in " << P.in[0] << "x" << P.in[1] << "x" << P.in[2] << "x"
                                 << P.in[3] << " out channels " << P.out.last() << " kernel " << P.win.kernel_h << "x"
                                 << P.win.kernel_w << " stride " << P.win.stride_h << "x" << P.win.stride_w << " dilation "
                                 << P.win.dilation_h << "x" << P.win.dilation_w);
  t.add(c, selected.choice.impl == ctnn::kernel_impl::simd_i8);  // the kernel that ran
}

}  // namespace

TEST_CASE("16x8 conv2d: the SIMD kernel equals the reference on randomised shapes") {
  const tally t = check_seeds<48>(20261206u, [](auto seed, tally& tl, std::mt19937& rng) {
    check_case<conv_case<decltype(seed)::value>()>(tl, rng);
  });
  CHECK(t.equal == t.cases);
  CHECK(t.varied >= t.cases * 3 / 4);  // most cases' outputs are not all saturated
  // Every case with a window of at most 511 products (all of these) runs the vectorised kernel where the build has a level.
  if (vectorised) CHECK(t.vectorised_cases == t.cases);
}

TEST_CASE("16x8 dense: the SIMD kernel equals the reference, and windows beyond 511 products keep the reference") {
  const tally t = check_seeds<28>(7u, [](auto seed, tally& tl, std::mt19937& rng) {
    check_case<dense_case<decltype(seed)::value>()>(tl, rng);
  });
  CHECK(t.equal == t.cases);
  CHECK(t.varied >= t.cases * 3 / 4);
  // Seeds 4, 11, 18, 25 have 600 features: the reference kernel's.
  if (vectorised) CHECK(t.vectorised_cases == t.cases - 4);
  static_assert(!ctnn::kernel::simd::i8_kernel<dense_case<4>()>::supports);
}

TEST_CASE("16x8 depthwise_conv2d: the SIMD kernel equals the reference on randomised shapes") {
  const tally t = check_seeds<40>(99u, [](auto seed, tally& tl, std::mt19937& rng) {
    check_case<depthwise_case<decltype(seed)::value>()>(tl, rng);
  });
  CHECK(t.equal == t.cases);
  CHECK(t.varied >= t.cases * 3 / 4);
  if (vectorised) CHECK(t.vectorised_cases == t.cases);
}
