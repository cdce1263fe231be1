// int8 conv2d, depthwise_conv2d and dense against naive implementations written here from TFLite's
// documented semantics, bit-exact, on randomised shapes chosen at compile time (odd sizes, channel counts
// that are not multiples of 4/8/16, SAME/VALID/explicit padding on every edge, stride 2, dilation 2,
// groups, depth multipliers, per-tensor and per-channel weights, fused relu/relu6).
//
// The kernels get their kernel_params from ctnn's infer_types + lower_te on a one-op module and their
// per-channel multipliers from runtime/requantization.hpp (computed at compile time from the weight
// scales); the naive versions compute everything themselves (<cmath> QuantizeMultiplier, floor-division
// requantization, an explicitly zero-point-padded input).
#include <array>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/detail/math.hpp>
#include <ctnn/detail/quantization.hpp>
#include <ctnn/kernel/dispatch.hpp>
#include <ctnn/kernel/dynamic.hpp>
#include <ctnn/kernel/reference/int8/conv2d.hpp>
#include <ctnn/kernel/reference/int8/dense.hpp>
#include <ctnn/kernel/reference/int8/pool.hpp>
#include <ctnn/kernel/reference/int8/requantize.hpp>
#include <ctnn/runtime/requantization.hpp>

#include "kernel/int8_test_support.hpp"

namespace {

using ctnn::activation;
using ctnn::kernel_params;
using ctnn::op_kind;
using int8_test::bits;
using int8_test::layer;
using int8_test::xorshift;
namespace ref = int8_test::ref;

constexpr std::int32_t out_extent(std::int32_t in, std::int32_t k, std::int32_t s, std::int32_t d, std::int32_t before,
                                  std::int32_t after) {
  const std::int32_t span = (k - 1) * d + 1;
  return in + before + after < span ? 0 : (in + before + after - span) / s + 1;
}

// A random conv2d (groups) or depthwise_conv2d (multiplier).
constexpr layer random_conv(std::uint32_t seed, op_kind kind) {
  xorshift r{seed * 2654435761u + 0x9e3779b9u};
  for (;;) {
    layer l{};
    l.kind = kind;
    const std::int32_t n = r.uniform(1, 2), h = r.uniform(1, 9), w = r.uniform(1, 9), c = r.uniform(1, 11);
    l.kernel_h = r.uniform(1, 4), l.kernel_w = r.uniform(1, 4);
    l.stride_h = r.uniform(1, 2), l.stride_w = r.uniform(1, 2);
    l.dilation_h = r.uniform(1, 2), l.dilation_w = r.uniform(1, 2);
    const std::int32_t mode = r.uniform(0, 2);
    l.pad = mode == 0 ? ctnn::padding::valid : mode == 1 ? ctnn::padding::same : ctnn::padding::explicit_pads;
    if (mode == 2) l.pad_top = r.uniform(0, 2), l.pad_left = r.uniform(0, 2), l.pad_bottom = r.uniform(0, 2), l.pad_right = r.uniform(0, 2);
    std::int32_t oc = 0;
    if (kind == op_kind::conv2d) {
      l.groups = r.uniform(1, 3);
      if (c % l.groups != 0) l.groups = 1;
      oc = l.groups * r.uniform(1, 5);
      l.weights = ctnn::make_shape(oc, l.kernel_h, l.kernel_w, c / l.groups);
    } else {
      l.depth_multiplier = r.uniform(1, 3);
      oc = c * l.depth_multiplier;
      l.weights = ctnn::make_shape(1, l.kernel_h, l.kernel_w, oc);
    }
    const std::int32_t oh = mode == 1 ? (h + l.stride_h - 1) / l.stride_h : out_extent(h, l.kernel_h, l.stride_h, l.dilation_h, l.pad_top, l.pad_bottom);
    const std::int32_t ow = mode == 1 ? (w + l.stride_w - 1) / l.stride_w : out_extent(w, l.kernel_w, l.stride_w, l.dilation_w, l.pad_left, l.pad_right);
    if (oh <= 0 || ow <= 0) continue;
    l.in = ctnn::make_shape(n, h, w, c);
    l.fused = static_cast<activation>(r.uniform(0, 2));
    l.has_bias = r.uniform(0, 3) != 0;
    const float in_scale = r.uniform_float(0.005f, 0.1f), weight_scale = r.uniform_float(0.001f, 0.02f);
    l.in_scale = bits(in_scale);
    l.in_zero_point = r.uniform(-128, 127);
    l.weight_scale = bits(weight_scale);
    l.weight_channels = r.uniform(0, 3) == 0 ? 1 : oc;
    const auto taps = static_cast<float>(l.kernel_h * l.kernel_w * (kind == op_kind::conv2d ? c / l.groups : 1));
    l.out_scale = bits(in_scale * weight_scale * r.uniform_float(60.0f, 300.0f) * static_cast<float>(ctnn::detail::math::sqrt(taps)));
    l.out_zero_point = r.uniform(-64, 64);
    return l;
  }
}

constexpr layer random_dense(std::uint32_t seed) {
  xorshift r{seed * 2246822519u + 0x85ebca6bu};
  layer l{};
  l.kind = op_kind::dense;
  const std::int32_t batch = r.uniform(1, 3), features = r.uniform(1, 70), units = r.uniform(1, 19);
  l.in = r.uniform(0, 1) == 0 ? ctnn::make_shape(batch, features) : ctnn::make_shape(batch, 1, features, 1);
  l.weights = ctnn::make_shape(units, features);
  l.fused = static_cast<activation>(r.uniform(0, 2));
  l.has_bias = r.uniform(0, 3) != 0;
  const float in_scale = r.uniform_float(0.005f, 0.1f), weight_scale = r.uniform_float(0.001f, 0.02f);
  l.in_scale = bits(in_scale);
  l.in_zero_point = r.uniform(-128, 127);
  l.weight_scale = bits(weight_scale);
  l.weight_channels = r.uniform(0, 1) == 0 ? 1 : units;
  l.out_scale = bits(in_scale * weight_scale * r.uniform_float(60.0f, 300.0f) * static_cast<float>(ctnn::detail::math::sqrt(features)));
  l.out_zero_point = r.uniform(-64, 64);
  return l;
}

constexpr std::int32_t out_channels(const layer& l) { return l.kind == op_kind::dense ? l.weights[0] : l.kind == op_kind::conv2d ? l.weights[0] : l.weights[3]; }

template <std::size_t N, class F>
constexpr std::array<layer, N> make_layers(F f) {
  std::array<layer, N> a{};
  for (std::size_t i = 0; i < N; ++i) a[i] = f(static_cast<std::uint32_t>(i + 1));
  return a;
}
inline constexpr auto convs = make_layers<32>([](std::uint32_t s) { return random_conv(s, op_kind::conv2d); });
inline constexpr auto depthwises = make_layers<32>([](std::uint32_t s) { return random_conv(s + 1000, op_kind::depthwise_conv2d); });
inline constexpr auto denses = make_layers<24>([](std::uint32_t s) { return random_dense(s); });

// Per-channel weight scales of layer I (around its first channel's scale).
template <const auto& Table, std::size_t I>
constexpr auto make_channel_scales() {
  constexpr const layer& l = Table[I];
  std::array<float, static_cast<std::size_t>(out_channels(l))> s{};
  xorshift r{static_cast<std::uint32_t>(I) * 747796405u + 2891336453u};
  s[0] = int8_test::scale_of(l.weight_scale);
  for (std::size_t c = 1; c < s.size(); ++c) s[c] = s[0] * r.uniform_float(0.25f, 2.0f);
  return s;
}
template <const auto& Table, std::size_t I>
inline constexpr auto channel_scales_v = make_channel_scales<Table, I>();

template <const auto& Table, std::size_t I>
inline constexpr auto module_v = int8_test::build_layer_module(Table[I], channel_scales_v<Table, I>.data());

// ---------------------------------------------------------------------------------------------------
// Naive implementations.

struct naive_quant {
  std::int32_t in_zp, out_zp, lo, hi;
  std::vector<ref::multiplier> per_channel;
};

naive_quant naive_quantization(const layer& l, const float* channel_scales, std::int32_t channels) {
  naive_quant q{l.in_zero_point, l.out_zero_point, 0, 0, {}};
  ref::activation_range(l.fused, int8_test::scale_of(l.out_scale), l.out_zero_point, q.lo, q.hi);
  const float in = int8_test::scale_of(l.in_scale), out = int8_test::scale_of(l.out_scale);
  for (std::int32_t c = 0; c < channels; ++c) {
    const float w = l.weight_channels > 1 ? channel_scales[c] : int8_test::scale_of(l.weight_scale);
    if (l.kind == op_kind::dense && l.weight_channels <= 1)  // GetQuantizedConvolutionMultipler: float product
      q.per_channel.push_back(ref::quantize_multiplier(static_cast<double>(in * w) / static_cast<double>(out)));
    else
      q.per_channel.push_back(ref::quantize_multiplier(static_cast<double>(in) * static_cast<double>(w) / static_cast<double>(out)));
  }
  return q;
}

std::int8_t naive_output(std::int64_t acc, const ref::multiplier& m, const naive_quant& q) {
  return static_cast<std::int8_t>(ref::clamp(ref::mbqm(static_cast<std::int32_t>(acc), m.m, m.shift) + std::int64_t{q.out_zp}, q.lo, q.hi));
}

std::vector<std::int8_t> naive_conv(const kernel_params& p, const layer& l, const std::vector<std::int8_t>& x,
                                    const std::vector<std::int8_t>& w, const std::vector<std::int32_t>& b, const naive_quant& q) {
  const int n = p.in[0], h = p.in[1], wd = p.in[2], c = p.in[3];
  const int oh = p.out[1], ow = p.out[2], oc = p.out[3];
  const auto& win = p.win;
  // The input padded with its zero point on every side (what TFLite's skipped taps amount to).
  const int hp = h + win.pad_top + win.pad_bottom + win.kernel_h * win.dilation_h, wp = wd + win.pad_left + win.pad_right + win.kernel_w * win.dilation_w;
  std::vector<std::int32_t> padded(static_cast<std::size_t>(n * hp * wp * c), q.in_zp);
  for (int i = 0; i < n; ++i)
    for (int y = 0; y < h; ++y)
      for (int xx = 0; xx < wd; ++xx)
        for (int ch = 0; ch < c; ++ch)
          padded[static_cast<std::size_t>(((i * hp + y + win.pad_top) * wp + xx + win.pad_left) * c + ch)] =
              x[static_cast<std::size_t>(((i * h + y) * wd + xx) * c + ch)];
  std::vector<std::int8_t> out(static_cast<std::size_t>(n * oh * ow * oc));
  const bool depthwise = l.kind == op_kind::depthwise_conv2d;
  const int in_per_group = depthwise ? 1 : c / l.groups, out_per_group = depthwise ? 1 : oc / l.groups;
  for (int i = 0; i < n; ++i)
    for (int y = 0; y < oh; ++y)
      for (int xx = 0; xx < ow; ++xx)
        for (int o = 0; o < oc; ++o) {
          std::int64_t acc = l.has_bias ? b[static_cast<std::size_t>(o)] : 0;
          for (int ky = 0; ky < win.kernel_h; ++ky)
            for (int kx = 0; kx < win.kernel_w; ++kx) {
              const int py = y * win.stride_h + ky * win.dilation_h, px = xx * win.stride_w + kx * win.dilation_w;
              for (int k = 0; k < in_per_group; ++k) {
                const int ic = depthwise ? o / l.depth_multiplier : (o / out_per_group) * in_per_group + k;
                const std::int32_t v = padded[static_cast<std::size_t>(((i * hp + py) * wp + px) * c + ic)];
                const std::int32_t wv = depthwise ? w[static_cast<std::size_t>((ky * win.kernel_w + kx) * oc + o)]
                                                  : w[static_cast<std::size_t>(((o * win.kernel_h + ky) * win.kernel_w + kx) * in_per_group + k)];
                acc += static_cast<std::int64_t>(wv) * (v - q.in_zp);
              }
            }
          out[static_cast<std::size_t>(((i * oh + y) * ow + xx) * oc + o)] = naive_output(acc, q.per_channel[static_cast<std::size_t>(o)], q);
        }
  return out;
}

std::vector<std::int8_t> naive_dense(const kernel_params& p, const layer& l, const std::vector<std::int8_t>& x,
                                     const std::vector<std::int8_t>& w, const std::vector<std::int32_t>& b, const naive_quant& q) {
  const int batch = p.out[0], units = p.out[1];
  const auto features = static_cast<int>(p.in.elements() / batch);
  std::vector<std::int8_t> out(static_cast<std::size_t>(batch * units));
  for (int i = 0; i < batch; ++i)
    for (int u = 0; u < units; ++u) {
      std::int64_t acc = l.has_bias ? b[static_cast<std::size_t>(u)] : 0;
      for (int f = 0; f < features; ++f)
        acc += static_cast<std::int64_t>(w[static_cast<std::size_t>(u * features + f)]) * (x[static_cast<std::size_t>(i * features + f)] - q.in_zp);
      out[static_cast<std::size_t>(i * units + u)] = naive_output(acc, q.per_channel[static_cast<std::size_t>(u)], q);
    }
  return out;
}

// ---------------------------------------------------------------------------------------------------

template <const auto& Table, std::size_t I>
void check_layer(std::mt19937& rng, int& checked, std::size_t& outputs, std::size_t& saturated) {
  constexpr const auto& m = module_v<Table, I>;
  static_assert(!m.error.failed(), "a random layer did not go through infer_types + lower_te");
  constexpr kernel_params p = m.calls[0].params;
  constexpr const layer& l = Table[I];
  const auto& scales = channel_scales_v<Table, I>;
  const std::vector<std::int8_t> x = int8_test::random_int8(static_cast<std::size_t>(p.in.elements()), rng);
  std::vector<std::int8_t> w = int8_test::random_int8(static_cast<std::size_t>(l.weights.elements()), rng);
  for (auto& v : w) v = v == -128 ? std::int8_t{-127} : v;  // symmetric weights
  const std::vector<std::int32_t> b = int8_test::random_int32(static_cast<std::size_t>(p.out.last()), -(1 << 14), 1 << 14, rng);
  std::vector<std::int8_t> got(static_cast<std::size_t>(p.out.elements()));
  const void* const operands[] = {x.data(), w.data(), l.has_bias ? b.data() : nullptr, nullptr};
  ctnn::kernel::invoke<p>(operands, got.data(), ctnn::requantization_of<m, 0>());
  std::vector<std::int8_t> shared(got.size());  // the shared kernel (run-time parameters): the same bytes
  CHECK(ctnn::kernel::invoke_dynamic(p, operands, shared.data(), ctnn::requantization_of<m, 0>()));
  CHECK(shared == got);
  const naive_quant q = naive_quantization(l, scales.data(), p.out.last());
  const std::vector<std::int8_t> want = l.kind == op_kind::dense ? naive_dense(p, l, x, w, b, q) : naive_conv(p, l, x, w, b, q);
  for (auto v : want) saturated += v == q.lo || v == q.hi;
  outputs += want.size();
  CHECK_MESSAGE(got == want, ctnn::name_of(l.kind) << " #" << I << ": in " << p.in[0] << "x" << p.in[1] << "x" << p.in[2] << "x"
                                                   << p.in.last() << " out channels " << p.out.last());
  ++checked;
}

template <const auto& Table, std::size_t... I>
int check_all(std::index_sequence<I...>) {
  std::mt19937 rng(42);
  int checked = 0;
  std::size_t outputs = 0, saturated = 0;
  (check_layer<Table, I>(rng, checked, outputs, saturated), ...);
  CHECK(saturated * 3 < outputs * 2);  // many outputs exercise the rounding, not only the clamp (relu: half)
  MESSAGE(outputs << " outputs, " << saturated << " at the activation bounds");
  return checked;
}

}  // namespace

TEST_CASE("int8 conv2d (groups, stride, dilation, every padding) equals the naive TFLite conv") {
  MESSAGE(check_all<convs>(std::make_index_sequence<convs.size()>{}) << " random conv2d layers");
}

TEST_CASE("int8 depthwise_conv2d (depth multiplier, stride, dilation, every padding) equals the naive TFLite conv") {
  MESSAGE(check_all<depthwises>(std::make_index_sequence<depthwises.size()>{}) << " random depthwise layers");
}

TEST_CASE("int8 dense (per-tensor and per-channel weights) equals the naive TFLite fully connected") {
  MESSAGE(check_all<denses>(std::make_index_sequence<denses.size()>{}) << " random dense layers");
}

TEST_CASE("per-channel multipliers are computed at compile time") {
  constexpr const auto& m = module_v<convs, 0>;
  constexpr auto rq = ctnn::requantization_v<m, 0>;
  static_assert(rq.multiplier.size() == static_cast<std::size_t>(out_channels(convs[0])));
  static_assert(rq.multiplier[0] >= (1 << 30) || convs[0].weight_channels == 0);
  const naive_quant q = naive_quantization(convs[0], channel_scales_v<convs, 0>.data(), out_channels(convs[0]));
  for (std::size_t c = 0; c < rq.multiplier.size(); ++c) {
    CHECK(rq.multiplier[c] == q.per_channel[c].m);
    CHECK(rq.shift[c] == q.per_channel[c].shift);
  }
}

// ---------------------------------------------------------------------------------------------------
// Extreme but valid operands (issue #23): int32 biases at and near INT32_MIN / INT32_MAX, and windows whose
// products sum beyond int32. TFLite computes in int32, which wraps on its targets (two's complement); the
// reference kernels must do the same without undefined behaviour. They run here at compile time: constant
// evaluation rejects signed overflow, so every static_assert below also detects undefined behaviour, with
// g++ as with clang. The expected values are derived by hand from two's-complement arithmetic and TFLite's
// requantization, with
//   SRDHM(a, m) = floor((a * m + 2^30) / 2^31)   (gemmlowp's SaturatingRoundingDoublingHighMul, m >= 0),
//   RDBPOT(x, e) = x / 2^e rounded half away from zero,
//   MBQM(acc, m, shift) = RDBPOT(SRDHM(acc << max(shift, 0), m), max(-shift, 0)),
//   out = clamp(MBQM(acc) + output zero point (int32, wrapping), -128, 127).

namespace extremes {

namespace q = ctnn::detail::quant;
namespace ref8 = ctnn::kernel::reference::int8;

constexpr std::int32_t int32_max = std::numeric_limits<std::int32_t>::max();  //  2,147,483,647
constexpr std::int32_t int32_min = std::numeric_limits<std::int32_t>::min();  // -2,147,483,648

// An int8 conv2d or depthwise_conv2d (VALID window over the whole input: one output pixel, stride 1).
constexpr kernel_params window_op(op_kind kind, std::int32_t h, std::int32_t w, std::int32_t in_c, std::int32_t out_c,
                                  std::int32_t input_offset, std::int32_t weights_offset, std::int32_t output_offset, bool bias) {
  kernel_params p{};
  p.kind = kind;
  p.type = p.out_type = ctnn::dtype::i8;
  p.in = ctnn::make_shape(1, h, w, in_c);
  p.out = ctnn::make_shape(1, 1, 1, out_c);
  p.win.kernel_h = h;
  p.win.kernel_w = w;
  p.has_bias = bias ? 1 : 0;
  p.per_channel = 1;
  p.input_offset = input_offset;
  p.weights_offset = weights_offset;
  p.output_offset = output_offset;
  p.activation_min = -128;
  p.activation_max = 127;
  return p;
}

template <std::size_t Out>
constexpr std::array<std::int8_t, Out> run(const kernel_params& p, const std::int8_t* input, const std::int8_t* weights,
                                           const std::int32_t* bias, const std::int32_t* multiplier, const std::int32_t* shift) {
  std::array<std::int8_t, Out> out{};
  if (p.kind == op_kind::conv2d) ref8::conv2d(&p, input, weights, bias, out.data(), multiplier, shift);
  else ref8::depthwise_conv2d(&p, input, weights, bias, out.data(), multiplier, shift);
  return out;
}

// (a) Biases at the int32 limits. conv2d 1x1 over 4 channels: x = 127 with input offset 128 (zero point
// -128), so x + offset = 255; symmetric weights (offset 0); output zero point 5.
inline constexpr kernel_params bias_conv = window_op(op_kind::conv2d, 1, 1, 4, 4, 128, 0, 5, true);
inline constexpr std::array<std::int8_t, 4> bias_conv_input = {127, 127, 127, 127};
inline constexpr std::array<std::int8_t, 16> bias_conv_weights = {127, 127, 127, 127, -127, -127, -127, -127, 0, 0, 0, 0, 0, 0, 0, 0};
inline constexpr std::array<std::int32_t, 4> bias_conv_bias = {int32_max, int32_min, int32_min, int32_max};
inline constexpr std::array<std::int32_t, 4> bias_conv_multiplier = {1 << 30, 1 << 30, int32_max, int32_max};
inline constexpr std::array<std::int32_t, 4> bias_conv_shift = {-24, -24, 0, 0};
// oc 0: sum 4 * 127 * 255 = 129,540; + INT32_MAX = 2,147,613,187 wraps (- 2^32) to acc = -2,147,354,109.
//       SRDHM(acc, 2^30) = floor((acc + 1) / 2) = -1,073,677,054; RDBPOT(., 24): -63.996 -> -64; + 5 = -59.
//       (Without the wrap: 2,147,613,187 / 2^25 = 64.004 -> 64 + 5 = 69.)
// oc 1: sum -129,540; + INT32_MIN wraps (+ 2^32) to acc = 2,147,354,108: SRDHM = 1,073,677,054, RDBPOT -> 64; + 5 = 69.
// oc 2: zero weights, acc = INT32_MIN: SRDHM(INT32_MIN, 2^31 - 1) = floor(-2^31 + 1 + 1/2) = -2,147,483,647 (shift 0);
//       + 5 = -2,147,483,642 -> clamped -128.
// oc 3: zero weights, acc = INT32_MAX: SRDHM(INT32_MAX, 2^31 - 1) = floor(2^31 - 2 + (2^30 + 1) / 2^31) = 2,147,483,646;
//       + 5 = 2,147,483,651 wraps to -2,147,483,645 -> clamped -128 (TFLite's int32 `acc += output_offset`).
static_assert(q::wrapping_add(4 * 127 * 255, int32_max) == -2'147'354'109);
static_assert(q::wrapping_add(-4 * 127 * 255, int32_min) == 2'147'354'108);
static_assert(q::multiply_by_quantized_multiplier(-2'147'354'109, 1 << 30, -24) == -64);
static_assert(q::multiply_by_quantized_multiplier(2'147'354'108, 1 << 30, -24) == 64);
static_assert(q::multiply_by_quantized_multiplier(int32_min, int32_max, 0) == -2'147'483'647);
static_assert(q::multiply_by_quantized_multiplier(int32_max, int32_max, 0) == 2'147'483'646);
static_assert(q::wrapping_add(2'147'483'646, 5) == -2'147'483'645);
inline constexpr auto bias_conv_out = run<4>(bias_conv, bias_conv_input.data(), bias_conv_weights.data(), bias_conv_bias.data(),
                                             bias_conv_multiplier.data(), bias_conv_shift.data());
static_assert(bias_conv_out == std::array<std::int8_t, 4>{-59, 69, -128, -128});

// depthwise_conv2d 2x2 over 4 channels: x = -128 with input offset -127 (zero point 127), so x + offset = -255;
// output zero point -7.
inline constexpr kernel_params bias_depthwise = window_op(op_kind::depthwise_conv2d, 2, 2, 4, 4, -127, 0, -7, true);
inline constexpr std::array<std::int8_t, 16> bias_depthwise_input = {-128, -128, -128, -128, -128, -128, -128, -128,
                                                                    -128, -128, -128, -128, -128, -128, -128, -128};
inline constexpr std::array<std::int8_t, 16> bias_depthwise_weights = {-127, 127, 0, 0, -127, 127, 0, 0, -127, 127, 0, 0, -127, 127, 0, 0};
inline constexpr std::array<std::int32_t, 4> bias_depthwise_bias = {int32_max - 100'000, int32_min + 100'000, int32_min, int32_max};
inline constexpr std::array<std::int32_t, 4> bias_depthwise_multiplier = {1 << 30, 1 << 30, int32_max, 1 << 30};
inline constexpr std::array<std::int32_t, 4> bias_depthwise_shift = {-24, -24, 0, 1};
// c 0: sum 4 * (-127) * (-255) = 129,540; + 2,147,383,647 = 2,147,513,187 wraps to acc = -2,147,454,109:
//      SRDHM = -1,073,727,054, RDBPOT(., 24) -> -64; - 7 = -71. (Without the wrap: 64 - 7 = 57.)
// c 1: sum -129,540; + (-2,147,383,648) wraps to acc = 2,147,454,108: 64 - 7 = 57.
// c 2: acc = INT32_MIN: MBQM = -2,147,483,647; - 7 = -2,147,483,654 wraps to 2,147,483,642 -> clamped 127.
// c 3: acc = INT32_MAX with a left shift of 1 (real multiplier 1.0): INT32_MAX << 1 wraps to -2,
//      SRDHM(-2, 2^30) = floor(-1/2) = -1; - 7 = -8.
static_assert(q::wrapping_add(4 * 127 * 255, int32_max - 100'000) == -2'147'454'109);
static_assert(q::wrapping_add(-4 * 127 * 255, int32_min + 100'000) == 2'147'454'108);
static_assert(q::multiply_by_quantized_multiplier(-2'147'454'109, 1 << 30, -24) == -64);
static_assert(q::wrapping_add(-2'147'483'647, -7) == 2'147'483'642);
static_assert(q::multiply_by_quantized_multiplier(int32_max, 1 << 30, 1) == -1);
inline constexpr auto bias_depthwise_out =
    run<4>(bias_depthwise, bias_depthwise_input.data(), bias_depthwise_weights.data(), bias_depthwise_bias.data(),
           bias_depthwise_multiplier.data(), bias_depthwise_shift.data());
static_assert(bias_depthwise_out == std::array<std::int8_t, 4>{-71, 57, 127, -8});

// (b) Sums beyond int32. 33,124 taps of (x + input offset) * (w + weights offset) = (-128 - 127) * (-128 - 127)
// = 65,025 (input and weight zero points 127, every value -128) = 2,153,888,100 > INT32_MAX: the accumulator
// wraps at tap 33,026. One array of -128 serves as input and weights: conv2d 2x2 over 8,281 channels
// (input [1,2,2,8281], weights [1,2,2,8281]) and depthwise_conv2d 182x182 over one channel.
inline constexpr std::int32_t taps = 33'124;
inline constexpr auto minus_128 = [] {
  std::array<std::int8_t, taps> a{};
  for (auto& v : a) v = -128;
  return a;
}();
inline constexpr std::array<std::int32_t, 1> sum_multiplier = {1 << 30}, sum_shift = {-24}, sum_bias = {3'000'000};
inline constexpr kernel_params sum_conv = window_op(op_kind::conv2d, 2, 2, 8'281, 1, -127, -127, 0, false);
inline constexpr kernel_params sum_depthwise = window_op(op_kind::depthwise_conv2d, 182, 182, 1, 1, -127, -127, -7, true);
// conv2d: 2,153,888,100 wraps (- 2^32) to acc = -2,141,079,196: SRDHM(acc, 2^30) = floor((acc + 1) / 2) = -1,070,539,598;
//         RDBPOT(., 24): -63.81 -> -64; + 0 = -64. (Without the wrap: 2,153,888,100 / 2^25 = 64.19 -> 64.)
// depthwise: + bias 3,000,000: acc = -2,138,079,196: SRDHM = -1,069,039,598, RDBPOT(., 24): -63.72 -> -64; - 7 = -71.
static_assert(2 * 2 * 8'281 == taps && 182 * 182 == taps);
static_assert(static_cast<std::int32_t>(static_cast<std::uint32_t>(taps) * 65'025u) == -2'141'079'196);
static_assert(q::multiply_by_quantized_multiplier(-2'141'079'196, 1 << 30, -24) == -64);
static_assert(q::multiply_by_quantized_multiplier(-2'141'079'196 + 3'000'000, 1 << 30, -24) == -64);
inline constexpr auto sum_conv_out = run<1>(sum_conv, minus_128.data(), minus_128.data(), nullptr, sum_multiplier.data(), sum_shift.data());
static_assert(sum_conv_out[0] == -64);
inline constexpr auto sum_depthwise_out =
    run<1>(sum_depthwise, minus_128.data(), minus_128.data(), sum_bias.data(), sum_multiplier.data(), sum_shift.data());
static_assert(sum_depthwise_out[0] == -71);

// The dense layer the same way (it always wrapped; the sum is now the same helper): bias INT32_MAX plus
// 4 * 32,385 as conv oc 0 above, -59.
inline constexpr kernel_params bias_dense = [] {
  kernel_params p{};
  p.kind = op_kind::dense;
  p.type = p.out_type = ctnn::dtype::i8;
  p.in = ctnn::make_shape(1, 4);
  p.out = ctnn::make_shape(1, 1);
  p.has_bias = 1;
  p.per_channel = 1;
  p.input_offset = 128;
  p.output_offset = 5;
  p.activation_min = -128;
  p.activation_max = 127;
  return p;
}();
static_assert([] {
  std::int8_t out[1]{};
  ref8::dense(&bias_dense, bias_conv_input.data(), bias_conv_weights.data(), bias_conv_bias.data(), out, bias_conv_multiplier.data(),
              bias_conv_shift.data());
  return out[0];
}() == -59);

// The output stage is defined for every int32 accumulator, multiplier QuantizeMultiplier makes (0 or
// [2^30, 2^31)), shift in [-31, 31] and output zero point: no overflow anywhere (constant evaluation).
static_assert([] {
  constexpr std::int32_t accumulators[] = {int32_min, int32_min + 1, -65'536, -1, 0, 1, 65'535, int32_max - 1, int32_max};
  constexpr std::int32_t multipliers[] = {0, 1 << 30, 1'518'500'250, int32_max};
  for (const std::int32_t offset : {-128, 0, 127}) {
    kernel_params p{};
    p.output_offset = offset;
    p.activation_min = -128;
    p.activation_max = 127;
    for (const std::int32_t acc : accumulators)
      for (const std::int32_t m : multipliers)
        for (std::int32_t shift = -31; shift <= 31; ++shift) {
          const std::int32_t v = ref8::requantize_output(&p, acc, m, shift);
          if (v < -128 || v > 127) return false;
        }
  }
  // gemmlowp's one saturating case, and the zero point wrapping at both ends.
  return q::saturating_rounding_doubling_high_mul(int32_min, int32_min) == int32_max &&
         q::multiply_by_quantized_multiplier(int32_min, int32_max, 0) == -2'147'483'647;
}());

// Average pooling's rounded division of any int32 sum (TFLite's int32 (sum +/- count / 2) / count).
static_assert(ref8::rounded_average(int32_max, 3) == -715'827'882);  // INT32_MAX + 1 wraps to INT32_MIN; / 3
static_assert(ref8::rounded_average(int32_min, 3) == 715'827'882);   // INT32_MIN - 1 wraps to INT32_MAX; / 3

}  // namespace extremes

// The same calls at run time, through the kernel a compiled model runs (kernel::invoke) and the shared one
// (invoke_dynamic): the same bytes as at compile time.
TEST_CASE("int8 conv2d and depthwise_conv2d with extreme biases and sums wrap as TFLite's int32 (run time)") {
  namespace e = extremes;
  const auto check = [](const kernel_params& p, const std::int8_t* x, const std::int8_t* w, const std::int32_t* b, const std::int32_t* m,
                        const std::int32_t* s, const std::int8_t* want) {
    const ctnn::kernel::requant_arrays rq{m, s, nullptr, nullptr, nullptr};
    const void* const operands[] = {x, w, b, nullptr};
    std::vector<std::int8_t> got(static_cast<std::size_t>(p.out.elements()), 0x55);
    CHECK(ctnn::kernel::invoke_dynamic(p, operands, got.data(), rq));
    for (std::size_t i = 0; i < got.size(); ++i) CHECK(int{got[i]} == int{want[i]});
  };
  check(e::bias_conv, e::bias_conv_input.data(), e::bias_conv_weights.data(), e::bias_conv_bias.data(), e::bias_conv_multiplier.data(),
        e::bias_conv_shift.data(), e::bias_conv_out.data());
  check(e::bias_depthwise, e::bias_depthwise_input.data(), e::bias_depthwise_weights.data(), e::bias_depthwise_bias.data(),
        e::bias_depthwise_multiplier.data(), e::bias_depthwise_shift.data(), e::bias_depthwise_out.data());
  check(e::sum_conv, e::minus_128.data(), e::minus_128.data(), nullptr, e::sum_multiplier.data(), e::sum_shift.data(),
        e::sum_conv_out.data());
  check(e::sum_depthwise, e::minus_128.data(), e::minus_128.data(), e::sum_bias.data(), e::sum_multiplier.data(), e::sum_shift.data(),
        e::sum_depthwise_out.data());
  // The fully specialised kernels (static_params: every parameter a constant).
  std::int8_t out[4]{};
  const void* const conv_operands[] = {e::bias_conv_input.data(), e::bias_conv_weights.data(), e::bias_conv_bias.data(), nullptr};
  ctnn::kernel::invoke<e::bias_conv>(conv_operands, out,
                                     ctnn::kernel::requant_arrays{e::bias_conv_multiplier.data(), e::bias_conv_shift.data(), nullptr, nullptr, nullptr});
  CHECK(std::vector<std::int8_t>(out, out + 4) == std::vector<std::int8_t>{-59, 69, -128, -128});
  const void* const sum_operands[] = {e::minus_128.data(), e::minus_128.data(), e::sum_bias.data(), nullptr};
  ctnn::kernel::invoke<e::sum_depthwise>(sum_operands, out,
                                         ctnn::kernel::requant_arrays{e::sum_multiplier.data(), e::sum_shift.data(), nullptr, nullptr, nullptr});
  CHECK(int{out[0]} == -71);
}
