// ONNX's integer conv2d and dense on the vectorised int8 kernels (kernel/simd/i8/onnx_conv.hpp, ONNX's
// output stage in i8/output_stage.hpp) against ONNX's integer reference kernels (kernel/reference/onnx_quant),
// bit-exact, on randomised calls: QLinearConv with groups 1 and depthwise (groups = channels), QLinearMatMul
// with batch dimensions; uint8 and int8 inputs and results, random zero points, per-tensor and per-channel
// weight scales (powers of two, whose products land on .5 ties, and others), multipliers that saturate,
// zero and infinite weight scales (a NaN product gives the zero point), asymmetric padding, strides, dilation;
// a third of the convolutions on NHWC data (data_layout::onnx_nhwc: no transposes around the inner kernel);
// QuantizeLinear per tensor (i8/onnx_quantize.hpp) on ties, NaN, infinities and saturating values;
// QLinearGlobalAveragePool (i8/onnx_pool.hpp: channel tails, ties, saturation, uint8 and int8); and the
// NHWC <-> NCHW transposes around them, int8, uint8 and float32 (simd/detail/transpose_blocks.hpp: 16 x 16
// bytes and 4 x 4 words per block, and the edges).
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/kernel/reference/onnx_quant/rounding.hpp>

#include "kernel/simd/simd_i8_support.hpp"

namespace {

using namespace simd_i8_test;
using ctnn::dtype;

template <std::uint32_t Seed>
constexpr kernel_params onnx_case() {
  int8_test::xorshift rng{Seed * 2654435761u + 7u};
  kernel_params p{};
  const std::int32_t shape_kind = static_cast<std::int32_t>(Seed % 4);  // 0, 1: groups 1; 2: depthwise; 3: MatMul
  p.kind = shape_kind == 3 ? op_kind::dense : op_kind::conv2d;
  p.type = rng.uniform(0, 1) == 0 ? dtype::u8 : dtype::i8;
  p.out_type = rng.uniform(0, 1) == 0 ? dtype::u8 : dtype::i8;
  p.requantization = ctnn::requantization_policy::onnx;
  p.onnx.layout = ctnn::data_layout::onnx;
  p.onnx.weights_type = dtype::i8;
  std::int32_t out_c = 0;
  std::int64_t terms = 0;
  if (shape_kind == 3) {
    const std::int32_t batches = rng.uniform(1, 2), rows = rng.uniform(1, 5), depth = rng.uniform(1, 90);
    out_c = rng.uniform(1, 40);
    p.in = batches == 1 ? ctnn::make_shape(rows, depth) : ctnn::make_shape(batches, rows, depth);
    p.out = batches == 1 ? ctnn::make_shape(rows, out_c) : ctnn::make_shape(batches, rows, out_c);
    p.in2 = ctnn::make_shape(depth, out_c);
    terms = depth;
  } else {
    const std::int32_t n = rng.uniform(1, 2), h = rng.uniform(1, 12), w = rng.uniform(1, 12);
    const std::int32_t in_c = shape_kind == 2 ? rng.uniform(1, 70) : rng.uniform(1, 40);
    out_c = shape_kind == 2 ? in_c : rng.uniform(1, 40);
    set_random_window(p, rng, Seed, Seed % 8 == 1, n, h, w, in_c, out_c);  // NHWC shapes: made NCHW below
    if (Seed / 4 % 3 == 2) {
      p.onnx.layout = ctnn::data_layout::onnx_nhwc;
      p.in = ctnn::make_shape(n, h, w, in_c);
    } else {
      p.in = ctnn::make_shape(n, in_c, h, w);
      p.out = ctnn::make_shape(n, out_c, p.out[1], p.out[2]);
    }
    p.groups = shape_kind == 2 ? in_c : 1;
    p.has_bias = Seed % 5 != 4;
    terms = static_cast<std::int64_t>(p.win.kernel_h) * p.win.kernel_w * (shape_kind == 2 ? 1 : in_c);
  }
  p.input_offset = p.type == dtype::u8 ? -rng.uniform(0, 255) : -rng.uniform(-128, 127);
  p.output_offset = p.out_type == dtype::u8 ? rng.uniform(0, 255) : rng.uniform(-128, 127);
  const float input_scale = Seed % 3 == 1 ? 0.5f : rng.uniform_float(0.01f, 0.1f);
  const float output_scale = Seed % 3 == 1 ? 1.0f : rng.uniform_float(0.05f, 0.5f);
  p.onnx.input_scale_bits = std::bit_cast<std::uint32_t>(input_scale);
  p.onnx.output_scale_bits = std::bit_cast<std::uint32_t>(output_scale);
  p.onnx.zero_point_count = 1;
  p.onnx.scale_count = Seed % 3 == 0 ? 1 : out_c;
  if (p.onnx.scale_count == 1) {
    // Per tensor: a power of two (ties) or a multiplier spread to saturate some outputs.
    const float m = int8_test::typical_onnx_multiplier(terms) * (Seed % 2 == 0 ? 1.0f : rng.uniform_float(0.3f, 6.0f));
    p.onnx.multiplier_bits = std::bit_cast<std::uint32_t>(m);
  }
  return p;
}

// Per-channel weight scales: most give a power-of-two multiplier (ties) or a random one, some saturate,
// one is 0 (every output the zero point) and, for some seeds, one infinite (NaN products where acc = 0).
template <kernel_params P>
std::vector<float> weight_scales(std::size_t channels, std::int64_t terms, std::mt19937& rng) {
  const float input_scale = std::bit_cast<float>(P.onnx.input_scale_bits);
  const float output_scale = std::bit_cast<float>(P.onnx.output_scale_bits);
  const float typical = int8_test::typical_onnx_multiplier(terms) * output_scale / input_scale;
  std::vector<float> scales(channels);
  std::uniform_int_distribution<int> pick(0, 9);
  std::uniform_real_distribution<float> spread(0.3f, 6.0f);
  for (std::size_t c = 0; c < channels; ++c) {
    const int k = pick(rng);
    scales[c] = k < 4 ? typical : (k < 8 ? typical * spread(rng) : typical * 64.0f);
  }
  if (channels > 2) scales[1] = 0.0f;
  if (channels > 3 && P.out.elements() % 2 == 0) scales[2] = INFINITY;
  return scales;
}

// Runs P by the reference kernel (no recorded choice) and by the kernel select_kernels records for it (its
// weights, operand 1, packed when it packs them); compares the bytes written, and records the choice in t.
template <kernel_params P, std::size_t N>
bool matches_reference(const void* (&operands)[N], const std::vector<std::int8_t>* weights, std::size_t out_bytes,
                       tally& t) {
  std::vector<std::int8_t> want(out_bytes, 0x55), got(out_bytes, 0x2a);
  ctnn::kernel::invoke<P>(operands, want.data());
  constexpr kernel_params selected = ctnn::pass::with_kernel_choice<P>;
  if constexpr (ctnn::kernel::packs_operand<selected>(1)) {
    const auto packed = ctnn::kernel::pack_operand<selected, 1>(vector_reader{weights, nullptr});
    operands[1] = packed.data();
    ctnn::kernel::invoke<selected>(operands, got.data());
  } else {
    ctnn::kernel::invoke<selected>(operands, got.data());
  }
  const comparison c = compare_outputs(want, got);
  t.add(c, selected.choice.impl != ctnn::kernel_impl::reference);
  return c.equal;
}

template <kernel_params P>
void check_case(tally& t, std::mt19937& rng) {
  constexpr std::int32_t channel_dim = P.onnx.layout == ctnn::data_layout::onnx_nhwc ? 3 : 1;
  const auto channels = static_cast<std::size_t>(P.kind == op_kind::dense ? P.out.last() : P.out[channel_dim]);
  const std::int64_t taps = P.kind == op_kind::dense ? P.in.last()
                                                     : static_cast<std::int64_t>(P.win.kernel_h) * P.win.kernel_w *
                                                           (P.in[channel_dim] / P.groups);
  const auto input = int8_test::random_int8(static_cast<std::size_t>(P.in.elements()), rng);  // the bytes of u8 or i8
  const auto weights = int8_test::random_int8(channels * static_cast<std::size_t>(taps), rng);
  const auto bias = int8_test::random_int32(channels, -20000, 20000, rng);
  const auto scales = weight_scales<P>(channels, taps, rng);
  const std::vector<std::int8_t> zero_points(channels, 0);
  const void* operands[5] = {input.data(), weights.data(), bias.data(), scales.data(), zero_points.data()};
  const bool equal = matches_reference<P>(operands, &weights, static_cast<std::size_t>(P.out.elements()), t);
  CHECK_MESSAGE(equal, "kind " << static_cast<int>(P.kind) << " layout " << static_cast<int>(P.onnx.layout) << " in " << P.in[0] << "x" << P.in[1] << "x" << P.in[2]
                               << "x" << P.in[3] << " groups " << P.groups << " kernel " << P.win.kernel_h << "x"
                               << P.win.kernel_w << " stride " << P.win.stride_h << "x" << P.win.stride_w << " types "
                               << static_cast<int>(P.type) << "->" << static_cast<int>(P.out_type) << " scales "
                               << P.onnx.scale_count);
}

// QuantizeLinear per tensor: a power-of-two scale (x / scale lands on ties) or another, any zero point.
template <std::uint32_t Seed>
constexpr kernel_params quantize_case() {
  int8_test::xorshift rng{Seed * 40503u + 11u};
  kernel_params p{};
  p.kind = op_kind::quantize;
  p.type = dtype::f32;
  p.out_type = Seed % 2 == 0 ? dtype::u8 : dtype::i8;
  p.requantization = ctnn::requantization_policy::onnx;
  const std::int32_t n = rng.uniform(1, 300);
  p.in = p.out = ctnn::make_shape(1, n);
  p.output_offset = p.out_type == dtype::u8 ? rng.uniform(0, 255) : rng.uniform(-128, 127);
  p.onnx.output_scale_bits = std::bit_cast<std::uint32_t>(Seed % 3 == 0 ? 0.25f : rng.uniform_float(0.001f, 2.0f));
  p.onnx.scale_count = p.onnx.zero_point_count = 1;
  return p;
}

template <kernel_params P>
void check_quantize(tally& t, std::mt19937& rng) {
  const float scale = std::bit_cast<float>(P.onnx.output_scale_bits);
  std::vector<float> x(static_cast<std::size_t>(P.in.elements()));
  std::uniform_int_distribution<int> pick(0, 19), steps(-300, 300);
  std::uniform_real_distribution<float> spread(-200.0f, 200.0f);
  for (float& v : x) {
    const int k = pick(rng);
    v = k < 8 ? (static_cast<float>(steps(rng)) + 0.5f) * scale  // ties where the product is exact
              : (k < 17 ? spread(rng) * scale : (k == 17 ? NAN : (k == 18 ? INFINITY : -3.0e38f)));
  }
  const void* operands[3] = {x.data(), nullptr, nullptr};
  const bool equal = matches_reference<P>(operands, nullptr, x.size(), t);
  CHECK_MESSAGE(equal, "quantize of " << x.size() << " to " << static_cast<int>(P.out_type) << " scale " << scale);
}

// QLinearGlobalAveragePool, NHWC: channels across the kernel's blocks and tails; for a third of the seeds
// x_scale / (y_scale * pixels) is a power of two over a power-of-two image (ties), for some a multiplier that
// saturates most outputs.
template <std::uint32_t Seed>
constexpr kernel_params global_pool_case() {
  int8_test::xorshift rng{Seed * 69069u + 3u};
  kernel_params p{};
  p.kind = op_kind::global_avg_pool;
  p.type = p.out_type = Seed % 2 == 0 ? dtype::u8 : dtype::i8;
  p.requantization = ctnn::requantization_policy::onnx;
  const bool ties = Seed % 3 == 0;
  const std::int32_t n = rng.uniform(1, 2), c = rng.uniform(2, 150);
  const std::int32_t h = ties ? 1 << rng.uniform(0, 3) : rng.uniform(1, 13), w = ties ? 1 << rng.uniform(0, 3) : rng.uniform(1, 13);
  p.in = ctnn::make_shape(n, h, w, c);
  p.out = ctnn::make_shape(n, 1, 1, c);
  p.input_offset = p.type == dtype::u8 ? -rng.uniform(0, 255) : -rng.uniform(-128, 127);
  p.output_offset = p.type == dtype::u8 ? rng.uniform(0, 255) : rng.uniform(-128, 127);
  const float x_scale = ties ? 0.5f : rng.uniform_float(0.01f, 0.1f);
  const float y_scale = ties ? 1.0f : (Seed % 5 == 1 ? x_scale * 0.0625f : rng.uniform_float(0.005f, 0.1f));
  p.onnx.input_scale_bits = std::bit_cast<std::uint32_t>(x_scale);
  p.onnx.output_scale_bits = std::bit_cast<std::uint32_t>(y_scale);
  p.onnx.scale_count = p.onnx.zero_point_count = 1;
  return p;
}

template <kernel_params P>
void check_global_pool(tally& t, std::mt19937& rng) {
  const auto input = int8_test::random_int8(static_cast<std::size_t>(P.in.elements()), rng);  // the bytes of u8 or i8
  const void* operands[1] = {input.data()};
  const bool equal = matches_reference<P>(operands, nullptr, static_cast<std::size_t>(P.out.elements()), t);
  CHECK_MESSAGE(equal, "global pool " << P.in[0] << "x" << P.in[1] << "x" << P.in[2] << "x" << P.in[3] << " type "
                                      << static_cast<int>(P.type));
}

// A transpose NHWC -> NCHW (odd seeds) or back, of uint8, int8 or float32, sides below and above the blocks.
template <std::uint32_t Seed>
constexpr kernel_params transpose_case() {
  int8_test::xorshift rng{Seed * 97u + 5u};
  kernel_params p{};
  p.kind = op_kind::transpose;
  p.type = p.out_type = Seed % 3 == 0 ? dtype::u8 : (Seed % 3 == 1 ? dtype::i8 : dtype::f32);
  const std::int32_t n = rng.uniform(1, 2), a = rng.uniform(1, 40), b = rng.uniform(1, 40), c = rng.uniform(1, 70);
  p.in = ctnn::make_shape(n, a, b, c);
  if (Seed % 2 == 1) {
    p.transpose.perm = {0, 3, 1, 2};
    p.out = ctnn::make_shape(n, c, a, b);
  } else {
    p.transpose.perm = {0, 2, 3, 1};
    p.out = ctnn::make_shape(n, b, c, a);
  }
  return p;
}

template <kernel_params P>
void check_transpose(tally& t, std::mt19937& rng) {
  const std::size_t bytes = static_cast<std::size_t>(P.in.elements()) * (P.type == dtype::f32 ? 4 : 1);
  std::vector<std::int8_t> input = int8_test::random_int8(bytes, rng);
  if constexpr (P.type == dtype::f32)  // finite floats, not random bit patterns
    for (std::size_t i = 0; i < bytes; i += 4) {
      const float v = static_cast<float>(input[i]) * 0.37f + static_cast<float>(input[i + 1]);
      std::memcpy(input.data() + i, &v, 4);
    }
  const void* operands[1] = {input.data()};
  const bool equal = matches_reference<P>(operands, nullptr, bytes, t);
  CHECK_MESSAGE(equal, "transpose " << P.in[0] << "x" << P.in[1] << "x" << P.in[2] << "x" << P.in[3]);
}

// A call the vectorised kernels do not take: per-channel weight zero points (here with a non-zero one).
constexpr kernel_params with_channel_zero_points() {
  kernel_params p = onnx_case<2>();  // depthwise, per-channel scales
  p.onnx.zero_point_count = p.out[1];
  return p;
}

}  // namespace

TEST_CASE("ONNX integer conv2d and MatMul: the vectorised kernels equal the ONNX reference bit for bit") {
  const tally t = check_seeds<48>(
      2026, [](auto seed, tally& t, std::mt19937& rng) { check_case<onnx_case<decltype(seed)::value>()>(t, rng); });
  CHECK(t.equal == t.cases);
  CHECK(t.varied >= t.cases * 3 / 4);
  if (vectorised) CHECK(t.vectorised_cases == t.cases);  // every case above is within the kernels' limits
  MESSAGE(t.cases << " cases, " << t.vectorised_cases << " vectorised");
}

TEST_CASE("ONNX QuantizeLinear per tensor: the vectorised kernel equals the ONNX reference bit for bit") {
  const tally t = check_seeds<12>(2027, [](auto seed, tally& t, std::mt19937& rng) {
    check_quantize<quantize_case<decltype(seed)::value>()>(t, rng);
  });
  CHECK(t.equal == t.cases);
  CHECK(t.varied == t.cases);
  if (vectorised) CHECK(t.vectorised_cases == t.cases);
}

TEST_CASE("ONNX QLinearGlobalAveragePool: the vectorised kernel equals the ONNX reference bit for bit") {
  const tally t = check_seeds<15>(2029, [](auto seed, tally& t, std::mt19937& rng) {
    check_global_pool<global_pool_case<decltype(seed)::value>()>(t, rng);
  });
  CHECK(t.equal == t.cases);
  CHECK(t.varied >= t.cases * 3 / 4);
  if (vectorised) CHECK(t.vectorised_cases == t.cases);
}

TEST_CASE("NHWC <-> NCHW transposes of uint8, int8 and float32: the vectorised block transposes equal the reference") {
  const tally t = check_seeds<18>(2028, [](auto seed, tally& t, std::mt19937& rng) {
    check_transpose<transpose_case<decltype(seed)::value>()>(t, rng);
  });
  CHECK(t.equal == t.cases);
  if (vectorised) CHECK(t.vectorised_cases == t.cases);
}

// NCHW -> NHWC of an image with fewer channels than a block's side (an RGB input's 3: the column-by-column
// path of transpose_blocks), and the way back from few pixels.
constexpr kernel_params few_rows_transpose(dtype type, std::int32_t channels, std::int32_t h, std::int32_t w, bool to_nchw) {
  kernel_params p{};
  p.kind = op_kind::transpose;
  p.type = p.out_type = type;
  if (to_nchw) {
    p.in = ctnn::make_shape(1, h, w, channels);
    p.transpose.perm = {0, 3, 1, 2};
    p.out = ctnn::make_shape(1, channels, h, w);
  } else {
    p.in = ctnn::make_shape(1, channels, h, w);
    p.transpose.perm = {0, 2, 3, 1};
    p.out = ctnn::make_shape(1, h, w, channels);
  }
  return p;
}

TEST_CASE("NCHW <-> NHWC transposes with fewer rows than a block equal the reference") {
  tally t;
  std::mt19937 rng(2029);
  check_transpose<few_rows_transpose(dtype::f32, 3, 96, 96, false)>(t, rng);
  check_transpose<few_rows_transpose(dtype::f32, 1, 5, 7, false)>(t, rng);
  check_transpose<few_rows_transpose(dtype::f32, 4, 3, 5, false)>(t, rng);
  check_transpose<few_rows_transpose(dtype::u8, 3, 9, 13, false)>(t, rng);
  check_transpose<few_rows_transpose(dtype::i8, 2, 7, 3, false)>(t, rng);
  check_transpose<few_rows_transpose(dtype::f32, 9, 1, 3, true)>(t, rng);
  CHECK(t.cases == 6);
  CHECK(t.equal == t.cases);
  if (vectorised) CHECK(t.vectorised_cases == t.cases);
}

TEST_CASE("ONNX integer conv2d with per-channel weight zero points keeps the reference kernel, and agrees") {
  constexpr kernel_params p = with_channel_zero_points();
  static_assert(ctnn::pass::with_kernel_choice<p>.choice.impl == ctnn::kernel_impl::reference);
  std::mt19937 rng(7);
  const auto channels = static_cast<std::size_t>(p.out[1]);
  const std::int64_t taps = static_cast<std::int64_t>(p.win.kernel_h) * p.win.kernel_w;  // depthwise
  const auto input = int8_test::random_int8(static_cast<std::size_t>(p.in.elements()), rng);
  const auto weights = int8_test::random_int8(channels * static_cast<std::size_t>(taps), rng);
  const auto bias = int8_test::random_int32(channels, -2000, 2000, rng);
  std::vector<float> scales(channels, 0.001f);
  std::vector<std::int8_t> zero_points(channels, 0);
  zero_points[0] = 3;
  const void* operands[5] = {input.data(), weights.data(), bias.data(), scales.data(), zero_points.data()};
  std::vector<std::int8_t> want(static_cast<std::size_t>(p.out.elements())), got(want.size(), 1);
  ctnn::kernel::invoke<p>(operands, want.data());
  ctnn::kernel::invoke<ctnn::pass::with_kernel_choice<p>>(operands, got.data());
  CHECK(want == got);
}
