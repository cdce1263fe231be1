// int8 conv2d, depthwise_conv2d and dense against naive implementations written here from TFLite's
// documented semantics, bit-exact, on randomised shapes chosen at compile time (odd sizes, channel counts
// that are not multiples of 4/8/16, SAME/VALID/explicit padding on every edge, stride 2, dilation 2,
// groups, depth multipliers, per-tensor and per-channel weights, fused relu/relu6).
//
// The kernels get their kernel_params from ctnn's infer_types + lower_te on a one-op module and their
// per-channel multipliers from runtime/requantization.hpp (computed at compile time from the weight
// scales); the naive versions compute everything themselves (<cmath> QuantizeMultiplier, floor-division
// requantization, an explicitly zero-point-padded input).
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/detail/math.hpp>
#include <ctnn/kernel/dispatch.hpp>
#include <ctnn/kernel/dynamic.hpp>
#include <ctnn/runtime/requantization.hpp>

#include "kernels/int8_test_support.hpp"

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
