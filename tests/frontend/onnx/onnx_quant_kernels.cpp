// ONNX's integer kernels (kernel/reference/onnx_quant) on hand-made cases: round half to even,
// saturation, uint8 and int8, per-axis quantization, per-channel weight zero points and scales, groups
// and padding; the full policy (kernel::invoke<P>) and the shared one (kernel::invoke_dynamic) agree.
#include <array>
#include <bit>
#include <cstdint>

#include <doctest/doctest.h>

#include <ctnn/kernel/dispatch.hpp>
#include <ctnn/kernel/reference/onnx_quant/rounding.hpp>

namespace oq = ctnn::kernel::reference::onnx_quant;
using ctnn::dtype;
using ctnn::kernel_params;
using ctnn::make_shape;

// Ties go to the even neighbour; everything else to the nearest.
static_assert(oq::round_half_even(0.5f) == 0.0f && oq::round_half_even(1.5f) == 2.0f && oq::round_half_even(2.5f) == 2.0f);
static_assert(oq::round_half_even(-0.5f) == 0.0f && oq::round_half_even(-1.5f) == -2.0f && oq::round_half_even(-2.5f) == -2.0f);
static_assert(oq::round_half_even(2.4999998f) == 2.0f && oq::round_half_even(2.5000002f) == 3.0f);
static_assert(oq::round_half_even(-7.75f) == -8.0f && oq::round_half_even(16777216.0f) == 16777216.0f);
// Saturation to each type, after the zero point.
static_assert(oq::quantize_value<std::uint8_t>(300.0f, 1.0f, 0) == 255 && oq::quantize_value<std::uint8_t>(-1.0f, 1.0f, 0) == 0);
static_assert(oq::quantize_value<std::int8_t>(200.0f, 1.0f, 0) == 127 && oq::quantize_value<std::int8_t>(-200.0f, 1.0f, 0) == -128);
static_assert(oq::quantize_value<std::int8_t>(-0.5f, 1.0f, -128) == -128 && oq::quantize_value<std::uint8_t>(5.0f, 2.0f, 253) == 255);
static_assert(oq::quantize_value<std::uint8_t>(1.0e30f, 1.0e-3f, 0) == 255);
// x / scale (not x * (1 / scale)): 0.3 / 0.1 rounds to 3 either way, 2.5 / 1 to 2 (even).
static_assert(oq::quantize_value<std::uint8_t>(2.5f, 1.0f, 10) == 12 && oq::quantize_value<std::uint8_t>(3.5f, 1.0f, 10) == 14);
static_assert(oq::dequantize_value(3, 2.0f, 128) == -250.0f);
static_assert(oq::requantize_value<std::int8_t>(5, 0.5f, 0) == 2 && oq::requantize_value<std::int8_t>(7, 0.5f, 0) == 4);
static_assert(oq::requantize_value<std::uint8_t>(-1000, 0.5f, 100) == 0 && oq::requantize_value<std::uint8_t>(1000, 0.5f, 100) == 255);

namespace {

// Runs P under both policies and checks they write the same bytes.
template <kernel_params P, class Y, std::size_t Out, std::size_t N>
std::array<Y, Out> run_both(const void* const (&operands)[N]) {
  std::array<Y, Out> full{}, shared{};
  ctnn::kernel::invoke<P>(operands, full.data());
  REQUIRE(ctnn::kernel::invoke_dynamic(P, operands, shared.data()));
  CHECK(full == shared);
  return full;
}

constexpr kernel_params onnx_params(ctnn::op_kind kind, dtype in, dtype out) {
  kernel_params p{};
  p.kind = kind;
  p.type = in;
  p.out_type = out;
  p.requantization = ctnn::requantization_policy::onnx;
  return p;
}

constexpr kernel_params quantize_per_axis() {
  kernel_params p = onnx_params(ctnn::op_kind::quantize, dtype::f32, dtype::u8);
  p.in = p.out = make_shape(1, 2, 3);
  p.axis = 1;
  p.onnx.scale_count = 2;
  p.onnx.zero_point_count = 2;
  return p;
}

// A 1x2x3x3 uint8 input, two groups of one channel, 2x2 windows, pads 1 on top and left only, int8
// weights with per-channel zero points and scales, a bias, uint8 result.
constexpr kernel_params grouped_conv() {
  kernel_params p = onnx_params(ctnn::op_kind::conv2d, dtype::u8, dtype::u8);
  p.onnx.layout = ctnn::data_layout::onnx;
  p.onnx.weights_type = dtype::i8;
  p.in = make_shape(1, 2, 3, 3);
  p.out = make_shape(1, 2, 3, 3);
  p.groups = 2;
  p.win.kernel_h = p.win.kernel_w = 2;
  p.win.pad_top = p.win.pad_left = 1;
  p.has_bias = 1;
  p.input_offset = -10;
  p.output_offset = 100;
  p.onnx.input_scale_bits = std::bit_cast<std::uint32_t>(0.5f);
  p.onnx.output_scale_bits = std::bit_cast<std::uint32_t>(2.0f);
  p.onnx.scale_count = 2;
  p.onnx.zero_point_count = 2;
  return p;
}

// The same call on NHWC data (data_layout::onnx_nhwc: an integer conv the importer holds in NHWC).
constexpr kernel_params grouped_conv_nhwc() {
  kernel_params p = grouped_conv();
  p.onnx.layout = ctnn::data_layout::onnx_nhwc;
  p.in = make_shape(1, 3, 3, 2);
  p.out = make_shape(1, 3, 3, 2);
  return p;
}

}  // namespace

TEST_CASE("QuantizeLinear per axis: each channel its scale and zero point, half to even, saturated") {
  constexpr kernel_params p = quantize_per_axis();
  const float x[] = {1.0f, 3.0f, 1000.0f, -1.0f, 2.5f, -3.75f};
  const float scales[] = {2.0f, 0.5f};
  const std::uint8_t zero_points[] = {10, 3};
  const void* const operands[] = {x, scales, zero_points};
  const auto y = run_both<p, std::uint8_t, 6>(operands);
  // 1/2 = 0.5 -> 0; 3/2 = 1.5 -> 2; saturated; -1/0.5 = -2 -> 1; 5 -> 8; -7.5 -> -8 (even) -> 0 (saturated).
  CHECK(y == std::array<std::uint8_t, 6>{10, 12, 255, 1, 8, 0});
}

TEST_CASE("DequantizeLinear per tensor: int8 with a zero point") {
  kernel_params q = onnx_params(ctnn::op_kind::dequantize, dtype::i8, dtype::f32);
  q.in = q.out = make_shape(4);
  q.input_offset = 3;  // zero point -3
  q.onnx.input_scale_bits = std::bit_cast<std::uint32_t>(0.25f);
  q.onnx.scale_count = q.onnx.zero_point_count = 1;
  const std::int8_t x[] = {-128, -3, 0, 127};
  const void* const operands[] = {x, nullptr, nullptr};
  std::array<float, 4> y{};
  REQUIRE(ctnn::kernel::invoke_dynamic(q, operands, y.data()));
  CHECK(y == std::array<float, 4>{-31.25f, 0.0f, 0.75f, 32.5f});
}

TEST_CASE("QLinearConv: groups, partial padding, per-channel weight zero points and scales, bias") {
  constexpr kernel_params p = grouped_conv();
  const std::uint8_t x[] = {10, 12, 14, 16, 18, 20, 22, 24, 26,  // channel 0: x - 10 = 0, 2, ..., 16
                            11, 11, 11, 11, 11, 11, 11, 11, 11};  // channel 1: x - 10 = 1
  const std::int8_t w[] = {1, 2, 3, 4,  // group 0, zero point 1: 0 1 2 3
                           5, 5, 5, 7};  // group 1, zero point 5: 0 0 0 2
  const std::uint8_t bias_bytes[8] = {1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};  // 1, -1 (little-endian)
  const float w_scale[] = {4.0f, 3.0f};                                     // multipliers 0.5 * 4 / 2 = 1, 0.75
  const std::int8_t w_zp[] = {1, 5};
  const void* const operands[] = {x, w, bias_bytes, w_scale, w_zp};
  const auto y = run_both<p, std::uint8_t, 18>(operands);
  // Channel 0, output (r, c) reads rows r-1..r, cols c-1..c of (x - 10) with weights 0 1 / 2 3:
  // (0,0): 3*0 = 0 (+1 bias) -> 1; (0,1): 2*0 + 3*2 = 6 -> 7; (1,1): 0 + 1*2 + 2*6 + 3*8 = 38 -> 39.
  CHECK(y[0] == 101);
  CHECK(y[1] == 107);
  CHECK(y[4] == 139);
  // Channel 1: only the bottom-right tap (weight 2) counts: 2 * 1 - 1 = 1, times 0.75 = 0.75 -> 1.
  for (std::size_t i = 9; i < 18; ++i) CHECK(y[i] == 101);
}

TEST_CASE("MatMulInteger: batched B, per-column zero points, int32 result") {
  kernel_params p = onnx_params(ctnn::op_kind::dense, dtype::u8, dtype::i32);
  p.onnx.layout = ctnn::data_layout::onnx;
  p.onnx.weights_type = dtype::u8;
  p.in = make_shape(2, 1, 2);   // two batches of a 1x2 row
  p.in2 = make_shape(2, 2, 2);  // one 2x2 B per batch
  p.out = make_shape(2, 1, 2);
  p.input_offset = -1;
  p.onnx.zero_point_count = 2;
  const std::uint8_t a[] = {2, 3, 1, 5};
  const std::uint8_t b[] = {1, 2, 3, 4, 10, 20, 30, 40};
  const std::uint8_t b_zp[] = {1, 2};
  const void* const operands[] = {a, b, nullptr, nullptr, b_zp};
  std::array<std::int32_t, 4> y{};
  REQUIRE(ctnn::kernel::invoke_dynamic(p, operands, y.data()));
  // batch 0: a - 1 = [1, 2]; columns minus [1, 2]: [0 0; 2 2] -> [4, 4]; batch 1: [0, 4] x [9 18; 29 38] -> [116, 152].
  CHECK(y == std::array<std::int32_t, 4>{4, 4, 116, 152});
}

TEST_CASE("invoke_dynamic refuses ONNX parameters without a kernel") {
  kernel_params p = onnx_params(ctnn::op_kind::dense, dtype::u8, dtype::u8);
  p.onnx.layout = ctnn::data_layout::onnx;
  p.onnx.weights_type = dtype::u8;
  p.in = p.in2 = p.out = make_shape(1, 1);
  const void* const operands[] = {nullptr, nullptr, nullptr, nullptr, nullptr};
  std::uint8_t y = 0;
  CHECK_FALSE(ctnn::kernel::invoke_dynamic(p, operands, &y));  // a QLinearMatMul needs a scale
  p.kind = ctnn::op_kind::softmax;  // no integer softmax (uint8 max_pool has one: plain integer ops)
  CHECK_FALSE(ctnn::kernel::invoke_dynamic(p, operands, &y));
}

TEST_CASE("QLinearConv on NHWC data (layout onnx_nhwc) writes the NCHW call's outputs in NHWC") {
  constexpr kernel_params nchw = grouped_conv(), nhwc = grouped_conv_nhwc();
  std::array<std::uint8_t, 18> x{};  // NCHW
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<std::uint8_t>(3 + 7 * i % 40);
  std::array<std::uint8_t, 18> x_nhwc{};
  for (std::size_t c = 0; c < 2; ++c)
    for (std::size_t at = 0; at < 9; ++at) x_nhwc[at * 2 + c] = x[c * 9 + at];
  const std::int8_t w[] = {1, -2, 3, 4, 5, -6, 5, 7};
  const std::uint8_t bias_bytes[8] = {1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
  const float w_scale[] = {4.0f, 3.0f};
  const std::int8_t w_zp[] = {1, 5};
  const void* const by_nchw[] = {x.data(), w, bias_bytes, w_scale, w_zp};
  const void* const by_nhwc[] = {x_nhwc.data(), w, bias_bytes, w_scale, w_zp};
  const auto want = run_both<nchw, std::uint8_t, 18>(by_nchw);
  const auto got = run_both<nhwc, std::uint8_t, 18>(by_nhwc);
  for (std::size_t c = 0; c < 2; ++c)
    for (std::size_t at = 0; at < 9; ++at) CHECK(got[at * 2 + c] == want[c * 9 + at]);
}
