// The vectorised int8 depthwise conv2d (kernel/simd/i8/depthwise.hpp) against the reference kernel,
// bit-exact, on randomised shapes: channel counts that are not multiples of the vector width, asymmetric
// padding at every edge, stride 2, dilation 2, fused relu/relu6, input and output offsets.
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "kernel/simd/simd_i8_support.hpp"

namespace {

using namespace simd_i8_test;

template <std::uint32_t Seed>
constexpr kernel_params depthwise_case() {
  int8_test::xorshift rng{Seed * 2246822519u + 3u};
  kernel_params p = int8_op(op_kind::depthwise_conv2d);
  const std::int32_t n = rng.uniform(1, 2), h = rng.uniform(1, 13), w = rng.uniform(1, 13);
  const std::int32_t channels = Seed % 3 == 0 ? 16 * rng.uniform(1, 4) : rng.uniform(1, 70);
  set_random_window(p, rng, Seed, false, n, h, w, channels, channels);
  p.has_bias = Seed % 5 != 4;
  p.per_channel = 1;
  p.input_offset = rng.uniform(-127, 128);
  p.output_offset = rng.uniform(-128, 127);
  set_activation(p, rng.uniform(0, 2), rng);
  return p;
}

// The shapes the kernel treats specially: the MLPerf Tiny layers (KWS: 64 channels on 25x5; VWW: 8
// channels on 48x48, whose rows fill 16 lanes with two pixels; stride 2), channel counts that divide the
// vector width (flat rows with repeated lanes: 1, 2, 4), per-tensor requantization.
constexpr kernel_params special_case(int which) {
  kernel_params p = depthwise_case<3>();
  constexpr std::int32_t shapes[][4] = {{25, 5, 64, 1}, {48, 48, 8, 1}, {48, 48, 16, 2}, {7, 9, 1, 1},
                                        {6, 11, 2, 1},  {9, 5, 4, 1},   {12, 12, 32, 2}, {5, 13, 8, 1}};
  const std::int32_t h = shapes[which][0], w = shapes[which][1], channels = shapes[which][2], stride = shapes[which][3];
  p.win = {3, 3, stride, stride, 1, 1, ctnn::padding::same, stride == 1 ? 1 : 0, stride == 1 ? 1 : 0, 1, 1};
  p.in = ctnn::make_shape(1, h, w, channels);
  p.out = ctnn::make_shape(1, (h + stride - 1) / stride, (w + stride - 1) / stride, channels);
  p.per_channel = which % 4 == 3 ? 0 : 1;
  if (p.per_channel == 0) {
    p.output_multiplier = 1518500250;  // about 0.7 * 2^31
    p.output_shift = -9;
  }
  return p;
}

template <kernel_params P>
void check_case(tally& t, std::mt19937& rng) {
  const auto channels = static_cast<std::size_t>(P.out.last());
  const std::int64_t taps = P.win.kernel_h * P.win.kernel_w;
  const auto input = int8_test::random_int8(static_cast<std::size_t>(P.in.elements()), rng);
  const auto weights = int8_test::random_int8(channels * static_cast<std::size_t>(taps), rng);
  const auto bias = int8_test::random_int32(channels, -5000, 5000, rng);
  std::vector<std::int32_t> multiplier(channels), shift(channels);
  for (std::size_t c = 0; c < channels; ++c) {
    const auto m = random_multiplier(taps, rng);
    multiplier[c] = m.multiplier;
    shift[c] = m.shift;
    if constexpr (P.per_channel == 0) {  // the executor's arrays then repeat the layer's multiplier
      multiplier[c] = P.output_multiplier;
      shift[c] = P.output_shift;
    }
  }
  const ctnn::kernel::requant_arrays rq{multiplier.data(), shift.data(), nullptr, nullptr, nullptr};
  const comparison c = compare_with_reference<P, 3>(input, weights, bias, rq);
  CHECK_MESSAGE(c.equal, "in " << P.in[0] << "x" << P.in[1] << "x" << P.in[2] << "x" << P.in[3] << " kernel " << P.win.kernel_h
                               << "x" << P.win.kernel_w << " stride " << P.win.stride_h << "x" << P.win.stride_w << " dilation "
                               << P.win.dilation_h << "x" << P.win.dilation_w << " pads " << P.win.pad_top << ","
                               << P.win.pad_left << "," << P.win.pad_bottom << "," << P.win.pad_right);
  t.add(c, ctnn::kernel::simd::i8_kernel<P>::supports);
}

template <std::size_t... Which>
tally check_special(std::index_sequence<Which...>) {
  std::mt19937 rng(78);
  tally t;
  (check_case<special_case(static_cast<int>(Which))>(t, rng), ...);
  return t;
}

// Extreme operands (int8_extreme_operands.hpp): biases at the int32 limits (the scalar correction
// plus bias wraps), products of one sign, multipliers of nearly one; output zero point +-100.
constexpr kernel_params extreme_depthwise(std::int32_t which, std::int32_t output_offset) {
  kernel_params p = int8_op(op_kind::depthwise_conv2d);
  p.has_bias = 1;
  p.per_channel = 1;
  p.input_offset = int8_extreme::input_offset;
  p.output_offset = output_offset;
  p.activation_min = -128;
  p.activation_max = 127;
  if (which == 0) {  // 3x3 SAME, stride 1 (widened buffer), 35 channels: whole and partial vectors
    p.in = ctnn::make_shape(1, 6, 7, 35);
    p.out = ctnn::make_shape(1, 6, 7, 35);
    p.win = {3, 3, 1, 1, 1, 1, ctnn::padding::same, 1, 1, 1, 1};
  } else if (which == 1) {  // 8 channels, stride 1: lanes repeating channels
    p.in = ctnn::make_shape(2, 5, 9, 8);
    p.out = ctnn::make_shape(2, 5, 9, 8);
    p.win = {3, 3, 1, 1, 1, 1, ctnn::padding::same, 1, 1, 1, 1};
  } else if (which == 2) {  // stride 2 (int8 buffer)
    p.in = ctnn::make_shape(1, 9, 9, 19);
    p.out = ctnn::make_shape(1, 4, 4, 19);
    p.win = {3, 3, 2, 2, 1, 1, ctnn::padding::valid, 0, 0, 0, 0};
  } else {  // a 258x258 window: 66,564 products of up to 255 * 127 per output, the sum itself wraps
    p.in = ctnn::make_shape(1, 258, 258, 3);
    p.out = ctnn::make_shape(1, 1, 1, 3);
    p.win = {258, 258, 2, 2, 1, 1, ctnn::padding::valid, 0, 0, 0, 0};
  }
  return p;
}

template <kernel_params P>
void check_extreme(tally& t, std::mt19937& rng) {
  const auto channels = static_cast<std::size_t>(P.out.last());
  const auto taps = static_cast<std::size_t>(P.win.kernel_h * P.win.kernel_w);
  const auto input = large_inputs(static_cast<std::size_t>(P.in.elements()), rng);
  std::vector<std::int8_t> weights(taps * channels);  // 1HWC: the tap's channels side by side
  for (std::size_t i = 0; i < weights.size(); ++i) weights[i] = extreme_weight(i % channels, rng);
  const extreme_arrays e(channels);
  const comparison c = compare_with_reference<P, 3>(input, weights, e.bias, e.rq());
  CHECK_MESSAGE(c.equal, "in " << P.in[0] << "x" << P.in[1] << "x" << P.in[2] << "x" << P.in[3] << " kernel " << P.win.kernel_h << "x"
                               << P.win.kernel_w << " stride " << P.win.stride_w << " output offset " << P.output_offset);
  t.add(c, ctnn::kernel::simd::i8_kernel<P>::supports);
}

}  // namespace

TEST_CASE("int8 depthwise_conv2d: the SIMD kernel wraps as the reference at the int32 limits") {
  std::mt19937 rng(23);
  tally t;
  [&]<std::int32_t... Which>(std::integer_sequence<std::int32_t, Which...>) {
    (check_extreme<extreme_depthwise(Which, 100)>(t, rng), ...);
    (check_extreme<extreme_depthwise(Which, -100)>(t, rng), ...);
  }(std::make_integer_sequence<std::int32_t, 4>{});
  CHECK(t.equal == t.cases);
  CHECK(t.varied == t.cases);
  CHECK(t.vectorised_cases == (vectorised ? t.cases : 0));
}

TEST_CASE("int8 depthwise_conv2d: the SIMD kernel equals the reference on randomised shapes") {
  const tally t = check_seeds<40>(77, [](auto seed, tally& counts, std::mt19937& rng) {
    check_case<depthwise_case<seed()>()>(counts, rng);
  });
  CHECK(t.equal == t.cases);
  CHECK(t.varied >= t.cases * 3 / 4);
  CHECK(t.vectorised_cases == (vectorised ? t.cases : 0));
}

TEST_CASE("int8 depthwise_conv2d: the SIMD kernel equals the reference on MLPerf-like and flat-row shapes") {
  const tally t = check_special(std::make_index_sequence<8>{});
  CHECK(t.equal == t.cases);
  CHECK(t.varied == t.cases);
  CHECK(t.vectorised_cases == (vectorised ? t.cases : 0));
}
