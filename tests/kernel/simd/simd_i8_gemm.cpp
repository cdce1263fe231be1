// The vectorised int8 conv2d and dense (kernel/simd/i8/gemm.hpp) against the reference kernels, bit-exact,
// on randomised shapes: odd sizes, channel counts that are not multiples of the vector width or of the
// dot-product group, asymmetric padding at every edge, stride 2, dilation 2, per-channel and per-tensor
// multipliers (including left shifts), fused relu/relu6 clamps, input and output offsets.
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "kernel/simd/simd_i8_support.hpp"

namespace {

using namespace simd_i8_test;

template <std::uint32_t Seed>
constexpr kernel_params conv_case() {
  int8_test::xorshift rng{Seed * 2654435761u + 977u};
  kernel_params p = int8_op(op_kind::conv2d);
  const std::int32_t n = rng.uniform(1, 2), h = rng.uniform(1, 11), w = rng.uniform(1, 11);
  // Every fourth case is a pointwise layer with vector-friendly channels (the common MLPerf shape).
  const bool pointwise = Seed % 4 == 0;
  const std::int32_t in_c = pointwise ? 16 * rng.uniform(1, 4) : rng.uniform(1, 21);
  const std::int32_t out_c = pointwise ? 8 * rng.uniform(1, 8) : rng.uniform(1, 41);
  set_random_window(p, rng, Seed, pointwise, n, h, w, in_c, out_c);
  p.has_bias = Seed % 6 != 5;
  p.per_channel = 1;
  p.input_offset = rng.uniform(-127, 128);
  p.output_offset = rng.uniform(-128, 127);
  set_activation(p, rng.uniform(0, 2), rng);
  return p;
}

template <std::uint32_t Seed>
constexpr kernel_params dense_case() {
  int8_test::xorshift rng{Seed * 40503u + 17u};
  kernel_params p = int8_op(op_kind::dense);
  const std::int32_t batch = rng.uniform(1, 3), features = Seed % 3 == 0 ? 64 * rng.uniform(1, 10) : rng.uniform(1, 300);
  const std::int32_t units = rng.uniform(1, 70);
  p.in = ctnn::make_shape(batch, features);
  p.out = ctnn::make_shape(batch, units);
  p.has_bias = Seed % 4 != 3;
  p.per_channel = Seed % 2;
  p.input_offset = rng.uniform(-127, 128);
  p.output_offset = rng.uniform(-128, 127);
  set_activation(p, rng.uniform(0, 2), rng);
  if (p.per_channel == 0) {  // one multiplier for the layer, in kernel_params
    p.output_multiplier = static_cast<std::int32_t>((1u << 30) + (rng.next() >> 2));
    p.output_shift = -rng.uniform(8, 14);
  }
  return p;
}

template <kernel_params P>
void check_case(tally& t, std::mt19937& rng) {
  const std::int64_t reduction = P.kind == op_kind::dense ? P.in.elements() / P.out[0] : P.win.kernel_h * P.win.kernel_w * P.in[3];
  const auto out_c = static_cast<std::size_t>(P.out.last());
  const auto input = int8_test::random_int8(static_cast<std::size_t>(P.in.elements()), rng);
  const auto weights = int8_test::random_int8(out_c * static_cast<std::size_t>(reduction), rng);
  const auto bias = int8_test::random_int32(out_c, -30000, 30000, rng);
  std::vector<std::int32_t> multiplier(out_c), shift(out_c);
  for (std::size_t c = 0; c < out_c; ++c) {
    const auto m = random_multiplier(reduction, rng);
    multiplier[c] = m.multiplier;
    shift[c] = m.shift;
  }
  const ctnn::kernel::requant_arrays rq{multiplier.data(), shift.data(), nullptr, nullptr, nullptr};
  const comparison c = compare_with_reference<P, 3>(input, weights, bias, rq);
  CHECK_MESSAGE(c.equal, "kind " << static_cast<int>(P.kind) << " in " << P.in[0] << "x" << P.in[1] << "x" << P.in[2] << "x"
                                 << P.in[3] << " out channels " << P.out.last() << " kernel " << P.win.kernel_h << "x"
                                 << P.win.kernel_w << " stride " << P.win.stride_h << "x" << P.win.stride_w << " dilation "
                                 << P.win.dilation_h << "x" << P.win.dilation_w << " pads " << P.win.pad_top << ","
                                 << P.win.pad_left << "," << P.win.pad_bottom << "," << P.win.pad_right);
  t.add(c, ctnn::kernel::simd::i8_kernel<P>::supports);
}

// Convolutions whose output channels are 1 to 4 whole vectors of the build's level, so that a block holds
// every channel and stores four vectors at once where its pixels allow (requantize_store_four): random
// windows (padding at every edge, stride 2, dilation), odd sizes.
template <std::uint32_t Seed>
constexpr kernel_params whole_vector_case() {
  using isa = ctnn::kernel::simd::i8_detail::isa;
  kernel_params p = conv_case<Seed + 100>();
  int8_test::xorshift rng{Seed * 40503u + 17u};
  const std::int32_t h = rng.uniform(2, 13), w = rng.uniform(2, 13), in_c = rng.uniform(1, 37);
  set_random_window(p, rng, Seed, false, rng.uniform(1, 2), h, w, in_c, isa::lanes * static_cast<std::int32_t>(1 + Seed % 4));
  return p;
}

// A case of each MLPerf Tiny kind of layer (KWS's first conv: 1 channel, 10x4 stride 2; a 64-channel
// pointwise layer; VWW's first conv: 3 channels, 3x3 stride 2, SAME padding at the bottom and right only).
constexpr kernel_params mlperf_like(int which) {
  kernel_params p = conv_case<1>();
  p.win = {};
  p.per_channel = 1;
  p.has_bias = 1;
  if (which == 0) {
    p.in = ctnn::make_shape(1, 49, 10, 1);
    p.out = ctnn::make_shape(1, 25, 5, 64);
    p.win = {10, 4, 2, 2, 1, 1, ctnn::padding::same, 4, 1, 5, 1};
  } else if (which == 1) {
    p.in = ctnn::make_shape(1, 25, 5, 64);
    p.out = ctnn::make_shape(1, 25, 5, 64);
  } else {
    p.in = ctnn::make_shape(1, 96, 96, 3);
    p.out = ctnn::make_shape(1, 48, 48, 8);
    p.win = {3, 3, 2, 2, 1, 1, ctnn::padding::same, 0, 0, 1, 1};
  }
  return p;
}

// Extreme operands (int8_extreme_operands.hpp): biases at the int32 limits, products of one sign,
// multipliers of nearly one; output zero point +-100 (the zero point wraps at either end).
constexpr kernel_params extreme_conv(std::int32_t which, std::int32_t output_offset) {
  using isa = ctnn::kernel::simd::i8_detail::isa;
  kernel_params p = int8_op(op_kind::conv2d);
  p.has_bias = 1;
  p.per_channel = 1;
  p.input_offset = int8_extreme::input_offset;
  p.output_offset = output_offset;
  p.activation_min = -128;
  p.activation_max = 127;
  const std::int32_t lanes = isa::lanes > 1 ? isa::lanes : 8;
  if (which == 0) {  // 3x3 SAME, channels in whole vectors (four-vector stores where the block allows)
    p.in = ctnn::make_shape(1, 5, 6, 7);
    p.out = ctnn::make_shape(1, 5, 6, 2 * lanes);
    p.win = {3, 3, 1, 1, 1, 1, ctnn::padding::same, 1, 1, 1, 1};
  } else if (which == 1) {  // 3x3 stride 2, a channel count that ends in a partial vector
    p.in = ctnn::make_shape(2, 7, 5, 5);
    p.out = ctnn::make_shape(2, 3, 2, lanes + 3);
    p.win = {3, 3, 2, 2, 1, 1, ctnn::padding::valid, 0, 0, 0, 0};
  } else if (which == 2) {  // 1x1 over all pixels (flat blocks)
    p.in = ctnn::make_shape(1, 4, 4, 16);
    p.out = ctnn::make_shape(1, 4, 4, 4 * lanes);
  } else {  // 66,600 products of up to 255 * 127 per output: the sum itself exceeds int32 (and wraps)
    p.in = ctnn::make_shape(1, 3, 4, 7400);
    p.out = ctnn::make_shape(1, 1, 2, 8);
    p.win = {3, 3, 1, 1, 1, 1, ctnn::padding::valid, 0, 0, 0, 0};
  }
  return p;
}

constexpr kernel_params extreme_dense(std::int32_t features, std::int32_t output_offset) {
  kernel_params p = int8_op(op_kind::dense);
  const std::int32_t batch = features > 1000 ? 1 : 2;  // the padded input within max_padded_bytes (int16 elements)
  p.in = ctnn::make_shape(batch, features);
  p.out = ctnn::make_shape(batch, 19);
  p.has_bias = 1;
  p.per_channel = 1;
  p.input_offset = int8_extreme::input_offset;
  p.output_offset = output_offset;
  p.activation_min = -128;
  p.activation_max = 127;
  return p;
}

template <kernel_params P>
void check_extreme(tally& t, std::mt19937& rng) {
  const std::int64_t reduction = P.kind == op_kind::dense ? P.in.elements() / P.out[0] : P.win.kernel_h * P.win.kernel_w * P.in[3];
  const auto out_c = static_cast<std::size_t>(P.out.last());
  const auto input = large_inputs(static_cast<std::size_t>(P.in.elements()), rng);
  std::vector<std::int8_t> weights(out_c * static_cast<std::size_t>(reduction));  // OHWI: one filter per channel
  for (std::size_t i = 0; i < weights.size(); ++i) weights[i] = extreme_weight(i / static_cast<std::size_t>(reduction), rng);
  const extreme_arrays e(out_c);
  const comparison c = compare_with_reference<P, 3>(input, weights, e.bias, e.rq());
  CHECK_MESSAGE(c.equal, "kind " << static_cast<int>(P.kind) << " in " << P.in[0] << "x" << P.in[1] << "x" << P.in.last()
                                 << " out channels " << out_c << " output offset " << P.output_offset);
  t.add(c, ctnn::kernel::simd::i8_kernel<P>::supports);
}

// Whether the four-vector stores (requantize_store_four, the output zero point added in int32 lanes) are
// among the extreme cases where the level has them.
template <class I>
constexpr bool extremes_store_four() {
  namespace d = ctnn::kernel::simd::i8_detail;
  if constexpr (I::available) return d::gemm_kernel<extreme_conv(0, 100), I>::stores_four && d::gemm_kernel<extreme_conv(2, -100), I>::stores_four;
  else return true;
}

}  // namespace

TEST_CASE("int8 conv2d and dense: the SIMD kernels wrap as the reference at the int32 limits") {
  std::mt19937 rng(23);
  tally t;
  [&]<std::int32_t... Which>(std::integer_sequence<std::int32_t, Which...>) {
    (check_extreme<extreme_conv(Which, 100)>(t, rng), ...);
    (check_extreme<extreme_conv(Which, -100)>(t, rng), ...);
  }(std::make_integer_sequence<std::int32_t, 4>{});
  check_extreme<extreme_dense(45, 100)>(t, rng);
  check_extreme<extreme_dense(45, -100)>(t, rng);
  check_extreme<extreme_dense(66400, 7)>(t, rng);  // 66,400 products: the sum wraps
  CHECK(t.equal == t.cases);
  CHECK(t.varied == t.cases);
  CHECK(t.vectorised_cases == (vectorised ? t.cases : 0));
  CHECK(extremes_store_four<ctnn::kernel::simd::i8_detail::isa>());
}

TEST_CASE("int8 conv2d: the SIMD kernel equals the reference on randomised shapes") {
  const tally t = check_seeds<40>(1234, [](auto seed, tally& counts, std::mt19937& rng) {
    check_case<conv_case<seed()>()>(counts, rng);
  });
  CHECK(t.equal == t.cases);
  CHECK(t.varied >= t.cases * 3 / 4);
  if (vectorised) CHECK(t.vectorised_cases == t.cases);
  else CHECK(t.vectorised_cases == 0);
}

TEST_CASE("int8 conv2d: channels in whole vectors, stored four vectors at a time") {
  using isa = ctnn::kernel::simd::i8_detail::isa;
  int stored_four = 0;
  const tally t = check_seeds<24>(77, [&](auto seed, tally& counts, std::mt19937& rng) {
    constexpr kernel_params p = whole_vector_case<seed()>();
    check_case<p>(counts, rng);
    if constexpr (vectorised) stored_four += ctnn::kernel::simd::i8_detail::gemm_kernel<p, isa>::stores_four;
  });
  CHECK(t.equal == t.cases);
  CHECK(t.varied >= t.cases * 3 / 4);
  CHECK(t.vectorised_cases == (vectorised ? t.cases : 0));
  if (vectorised) CHECK(stored_four >= 8);  // most cases take the four-vector stores
}

TEST_CASE("int8 conv2d: the SIMD kernel equals the reference on MLPerf-like layers") {
  std::mt19937 rng(5);
  tally t;
  check_case<mlperf_like(0)>(t, rng);
  check_case<mlperf_like(1)>(t, rng);
  check_case<mlperf_like(2)>(t, rng);
  CHECK(t.equal == t.cases);
  CHECK(t.varied == t.cases);
  CHECK(t.vectorised_cases == (vectorised ? t.cases : 0));
}

TEST_CASE("int8 dense: the SIMD kernel equals the reference (per-channel and per-tensor)") {
  const tally t = check_seeds<24>(99, [](auto seed, tally& counts, std::mt19937& rng) {
    check_case<dense_case<seed()>()>(counts, rng);
  });
  CHECK(t.equal == t.cases);
  CHECK(t.varied >= t.cases * 3 / 4);
  CHECK(t.vectorised_cases == (vectorised ? t.cases : 0));
}
