// int8 pooling, add, mul, relu, relu6, reshape, concat, pad, quantize, dequantize and mean (and float32
// mean) against naive implementations written here from TFLite's documented recipes, bit-exact, on
// randomised shapes (odd sizes, padding on every edge, stride 2, broadcasting). kernel_params come from
// ctnn's infer_types + lower_te on one-op modules; the naive versions compute their own multipliers
// (<cmath>) and requantize with int8_test::ref.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/kernel/dispatch.hpp>
#include <ctnn/kernel/dynamic.hpp>
#include <ctnn/runtime/requantization.hpp>

#include "kernel/int8_test_support.hpp"

namespace {

using ctnn::activation;
using ctnn::kernel_params;
using ctnn::make_shape;
using ctnn::op_kind;
using int8_test::bits;
using int8_test::layer;
using int8_test::scale_of;
using int8_test::xorshift;
namespace ref = int8_test::ref;

template <std::size_t N, class F>
constexpr std::array<layer, N> make_layers(F f) {
  std::array<layer, N> a{};
  for (std::size_t i = 0; i < N; ++i) a[i] = f(static_cast<std::uint32_t>(i + 1));
  return a;
}

constexpr layer random_pool(std::uint32_t seed, op_kind kind) {
  xorshift r{seed * 2654435761u + 77u};
  for (;;) {
    layer l{};
    l.kind = kind;
    const std::int32_t h = r.uniform(1, 9), w = r.uniform(1, 9);
    l.in = make_shape(r.uniform(1, 2), h, w, r.uniform(1, 11));
    l.kernel_h = r.uniform(1, 4), l.kernel_w = r.uniform(1, 4), l.stride_h = r.uniform(1, 2), l.stride_w = r.uniform(1, 2);
    l.pad = r.uniform(0, 1) == 0 ? ctnn::padding::valid : ctnn::padding::same;
    if (l.pad == ctnn::padding::valid && (h < l.kernel_h || w < l.kernel_w)) continue;
    l.fused = static_cast<activation>(r.uniform(0, 2));
    l.in_scale = l.out_scale = bits(r.uniform_float(0.01f, 0.2f));
    l.in_zero_point = l.out_zero_point = r.uniform(-128, 127);
    return l;
  }
}
inline constexpr auto avg_pools = make_layers<24>([](std::uint32_t s) { return random_pool(s, op_kind::avg_pool); });
inline constexpr auto max_pools = make_layers<16>([](std::uint32_t s) { return random_pool(s + 500, op_kind::max_pool); });

constexpr layer random_binary(std::uint32_t seed, op_kind kind) {
  xorshift r{seed * 2246822519u + 99u};
  layer l{};
  l.kind = kind;
  const ctnn::shape full = make_shape(r.uniform(1, 2), r.uniform(1, 6), r.uniform(1, 7), r.uniform(1, 9));
  l.in = l.in2 = full;
  const std::int32_t variant = r.uniform(0, 3);  // 0: same shape, 1: per-channel second, 2: broadcast both, 3: scalar
  if (variant == 1) l.in2 = make_shape(full[3]);
  if (variant == 2) l.in = make_shape(full[0], 1, full[2], full[3]), l.in2 = make_shape(full[1], 1, 1);
  if (variant == 3) l.in2 = make_shape(1);
  l.fused = static_cast<activation>(r.uniform(0, 2));
  l.in_scale = bits(r.uniform_float(0.005f, 0.3f));
  l.in2_scale = bits(r.uniform_float(0.005f, 0.3f));
  l.in_zero_point = r.uniform(-128, 127);
  l.in2_zero_point = r.uniform(-128, 127);
  const float product = scale_of(l.in_scale) * scale_of(l.in2_scale) * r.uniform_float(100.0f, 3000.0f);
  l.out_scale = bits(kind == op_kind::mul ? product : r.uniform_float(0.01f, 0.4f));
  l.out_zero_point = r.uniform(-64, 64);
  return l;
}
inline constexpr auto adds = make_layers<24>([](std::uint32_t s) { return random_binary(s, op_kind::add); });
inline constexpr auto muls = make_layers<16>([](std::uint32_t s) { return random_binary(s + 300, op_kind::mul); });

constexpr layer unary(op_kind kind, ctnn::shape in, float in_scale, std::int32_t in_zp, float out_scale, std::int32_t out_zp) {
  layer l{};
  l.kind = kind;
  l.in = in;
  l.in_scale = bits(in_scale), l.in_zero_point = in_zp, l.out_scale = bits(out_scale), l.out_zero_point = out_zp;
  return l;
}
inline constexpr layer relus[] = {
    unary(op_kind::relu, make_shape(1, 3, 5, 7), 0.05f, -20, 0.05f, -20),   // same quantization: a clamp
    unary(op_kind::relu, make_shape(2, 33), 0.07f, 11, 0.03f, -128),        // requantized
    unary(op_kind::relu, make_shape(1, 4, 4, 3), 0.02f, 100, 0.11f, -5),
    unary(op_kind::relu6, make_shape(1, 5, 3, 9), 0.05f, -128, 0.05f, -128),
    unary(op_kind::relu6, make_shape(3, 17), 0.03f, 7, 0.03f, 7),
};
constexpr layer reshape_layer() {
  layer l = unary(op_kind::reshape, make_shape(1, 3, 5, 7), 0.1f, 3, 0.1f, 3);
  l.out = make_shape(15, 7);
  return l;
}
constexpr layer concat_layer(std::int32_t axis, ctnn::shape a, ctnn::shape b, float s1, std::int32_t z1, float s2, std::int32_t z2,
                             float so, std::int32_t zo) {
  layer l = unary(op_kind::concat, a, s1, z1, so, zo);
  l.in2 = b, l.in2_scale = bits(s2), l.in2_zero_point = z2, l.axis = axis;
  return l;
}
inline constexpr layer concats[] = {
    concat_layer(3, make_shape(1, 3, 4, 5), make_shape(1, 3, 4, 2), 0.1f, 3, 0.1f, 3, 0.1f, 3),  // same quantization: copies
    concat_layer(3, make_shape(1, 3, 4, 5), make_shape(1, 3, 4, 2), 0.1f, 3, 0.07f, -9, 0.1f, 3),
    concat_layer(1, make_shape(2, 3, 4, 5), make_shape(2, 1, 4, 5), 0.03f, -100, 0.2f, 50, 0.09f, 0),
    concat_layer(0, make_shape(2, 7), make_shape(3, 7), 0.05f, 10, 0.05f, 10, 0.06f, -2),
};
constexpr layer pad_layer(float value, float scale, std::int32_t zp) {
  layer l = unary(op_kind::pad, make_shape(2, 3, 4, 5), scale, zp, scale, zp);
  l.pads = {0, 1, 2, 1, 0, 3, 1, 2, 0, 0, 0, 0};
  l.pad_value = value;
  return l;
}
inline constexpr layer pads[] = {pad_layer(0.0f, 0.1f, -7), pad_layer(1.5f, 0.05f, 20), pad_layer(-100.0f, 0.1f, 0)};
constexpr layer quantize_layer(ctnn::dtype in_type, ctnn::dtype out_type, float in_scale, std::int32_t in_zp, float out_scale,
                               std::int32_t out_zp) {
  layer l = unary(out_type == ctnn::dtype::f32 ? op_kind::dequantize : op_kind::quantize, make_shape(3, 5, 7), in_scale, in_zp,
                  out_scale, out_zp);
  l.in_type = in_type, l.out_type = out_type;
  return l;
}
inline constexpr layer quantizes[] = {
    quantize_layer(ctnn::dtype::f32, ctnn::dtype::i8, 0, 0, 0.037f, -12),
    quantize_layer(ctnn::dtype::f32, ctnn::dtype::i8, 0, 0, 0.5f, 100),
    quantize_layer(ctnn::dtype::i8, ctnn::dtype::i8, 0.03f, 5, 0.07f, -100),
    quantize_layer(ctnn::dtype::i8, ctnn::dtype::i8, 0.09f, -128, 0.02f, 0),
    quantize_layer(ctnn::dtype::i8, ctnn::dtype::f32, 0.013f, -17, 0, 0),
};
constexpr layer mean_layer(ctnn::shape in, std::uint32_t axes, bool keep, float in_scale, std::int32_t in_zp, float out_scale,
                           std::int32_t out_zp) {
  layer l = unary(op_kind::mean, in, in_scale, in_zp, out_scale, out_zp);
  l.reduce_axes = axes, l.keep_dims = keep;
  return l;
}
inline constexpr layer means[] = {
    mean_layer(make_shape(2, 5, 7, 3), 0b0110, true, 0.05f, -20, 0.03f, 7),     // H, W (older TFLite's special case)
    mean_layer(make_shape(1, 25, 5, 64), 0b0110, true, 0.08f, -128, 0.08f, -128),
    mean_layer(make_shape(2, 5, 7, 3), 0b0110, false, 0.05f, -20, 0.05f, -20),  // same quantization (older: sum / count)
    mean_layer(make_shape(2, 5, 7, 3), 0b1000, true, 0.04f, 3, 0.04f, 3),
    mean_layer(make_shape(2, 5, 7, 3), 0b0010, false, 0.05f, -20, 0.02f, 9),
    mean_layer(make_shape(4, 9, 3), 0b101, false, 0.01f, 100, 0.03f, -50),
};
constexpr layer float_mean(ctnn::shape in, std::uint32_t axes, bool keep) {
  layer l = mean_layer(in, axes, keep, 0, 0, 0, 0);
  l.in_type = l.out_type = ctnn::dtype::f32;
  return l;
}
inline constexpr layer float_means[] = {float_mean(make_shape(2, 5, 7, 3), 0b0110, true), float_mean(make_shape(3, 4, 5), 0b101, false),
                                        float_mean(make_shape(2, 6), 0b10, true)};

// ---------------------------------------------------------------------------------------------------
// Helpers.

std::mt19937& rng() {
  static std::mt19937 generator(7);
  return generator;
}

template <const auto& Table, std::size_t I, class In = std::int8_t, class Out = std::int8_t>
std::vector<Out> run(const std::vector<In>& a, const std::vector<std::int8_t>& b = {}) {
  constexpr const auto& m = int8_test::layer_module_v<Table, I>;
  constexpr kernel_params p = int8_test::layer_params<Table, I>();
  std::vector<Out> out(static_cast<std::size_t>(p.out.elements()));
  const void* const operands[] = {a.data(), b.empty() ? nullptr : b.data(), nullptr};
  ctnn::kernel::invoke<p>(operands, out.data(), ctnn::requantization_of<m, 0>());
  // The shared kernel (run-time parameters) computes the same bytes.
  std::vector<Out> shared(out.size());
  CHECK(ctnn::kernel::invoke_dynamic(p, operands, shared.data(), ctnn::requantization_of<m, 0>()));
  CHECK_MESSAGE(shared == out, ctnn::name_of(p.kind) << " #" << I << ": the shared kernel differs");
  return out;
}

std::int32_t at4(const ctnn::shape& s, int n, int h, int w, int c) {  // NHWC offset, broadcasting extent-1 axes
  const auto pick = [](int extent, int i) { return extent == 1 ? 0 : i; };
  return ((pick(s[0], n) * s[1] + pick(s[1], h)) * s[2] + pick(s[2], w)) * s[3] + pick(s[3], c);
}
ctnn::shape as4(ctnn::shape s) {  // right-aligned to rank 4
  ctnn::shape r = make_shape(1, 1, 1, 1);
  for (std::int32_t d = 0; d < s.rank; ++d) r.dims[static_cast<std::size_t>(4 - s.rank + d)] = s[d];
  return r;
}

template <const auto& Table, std::size_t... I>
void for_each_layer(std::index_sequence<I...>, auto&& f) {
  (f(std::integral_constant<std::size_t, I>{}), ...);
}

}  // namespace

TEST_CASE("int8 average and max pooling equal TFLite's (rounded division by the in-bounds count)") {
  const auto check = [&]<const auto& Table>(bool average) {
    for_each_layer<Table>(std::make_index_sequence<std::size(Table)>{}, [&](auto index) {
      constexpr std::size_t i = decltype(index)::value;
      constexpr kernel_params p = int8_test::layer_params<Table, i>();
      const std::vector<std::int8_t> x = int8_test::random_int8(static_cast<std::size_t>(p.in.elements()), rng());
      const std::vector<std::int8_t> got = run<Table, i>(x);
      std::int32_t lo = 0, hi = 0;
      ref::activation_range(Table[i].fused, scale_of(Table[i].out_scale), Table[i].out_zero_point, lo, hi);
      std::vector<std::int8_t> want;
      for (int n = 0; n < p.out[0]; ++n)
        for (int y = 0; y < p.out[1]; ++y)
          for (int xx = 0; xx < p.out[2]; ++xx)
            for (int c = 0; c < p.out[3]; ++c) {
              long sum = 0, count = 0, largest = -128;
              for (int ky = 0; ky < p.win.kernel_h; ++ky)
                for (int kx = 0; kx < p.win.kernel_w; ++kx) {
                  const int iy = y * p.win.stride_h - p.win.pad_top + ky, ix = xx * p.win.stride_w - p.win.pad_left + kx;
                  if (iy < 0 || ix < 0 || iy >= p.in[1] || ix >= p.in[2]) continue;
                  const int v = x[static_cast<std::size_t>(at4(p.in, n, iy, ix, c))];
                  sum += v, ++count, largest = std::max<long>(largest, v);
                }
              const double value = average ? std::round(static_cast<double>(sum) / static_cast<double>(count)) : static_cast<double>(largest);
              want.push_back(static_cast<std::int8_t>(ref::clamp(static_cast<std::int64_t>(value), lo, hi)));
            }
      CHECK_MESSAGE(got == want, (average ? "avg" : "max") << " pool #" << i);
    });
  };
  check.operator()<avg_pools>(true);
  check.operator()<max_pools>(false);
}

TEST_CASE("int8 add (left shift 20, per-input rescale) and mul equal TFLite's, with broadcasting") {
  const auto check = [&]<const auto& Table>() {
    for_each_layer<Table>(std::make_index_sequence<std::size(Table)>{}, [&](auto index) {
      constexpr std::size_t i = decltype(index)::value;
      constexpr const layer& l = Table[i];
      constexpr kernel_params p = int8_test::layer_params<Table, i>();
      const std::vector<std::int8_t> a = int8_test::random_int8(static_cast<std::size_t>(l.in.elements()), rng());
      const std::vector<std::int8_t> b = int8_test::random_int8(static_cast<std::size_t>(l.in2.elements()), rng());
      const std::vector<std::int8_t> got = run<Table, i>(a, b);
      const float s1 = scale_of(l.in_scale), s2 = scale_of(l.in2_scale), so = scale_of(l.out_scale);
      std::int32_t lo = 0, hi = 0;
      ref::activation_range(l.fused, so, l.out_zero_point, lo, hi);
      const double twice_max = 2 * static_cast<double>(std::max(s1, s2));
      const ref::multiplier m1 = ref::quantize_multiplier(s1 / twice_max), m2 = ref::quantize_multiplier(s2 / twice_max);
      const ref::multiplier mo = l.kind == op_kind::add ? ref::quantize_multiplier(twice_max / ((1 << 20) * static_cast<double>(so)))
                                                        : ref::quantize_multiplier(static_cast<double>(s1) * s2 / so);
      const ctnn::shape sa = as4(l.in), sb = as4(l.in2), so4 = as4(p.out);
      std::vector<std::int8_t> want;
      for (int n = 0; n < so4[0]; ++n)
        for (int h = 0; h < so4[1]; ++h)
          for (int w = 0; w < so4[2]; ++w)
            for (int c = 0; c < so4[3]; ++c) {
              const std::int32_t x1 = a[static_cast<std::size_t>(at4(sa, n, h, w, c))] - l.in_zero_point;
              const std::int32_t x2 = b[static_cast<std::size_t>(at4(sb, n, h, w, c))] - l.in2_zero_point;
              std::int64_t v = 0;
              if (l.kind == op_kind::add)
                v = ref::mbqm(ref::mbqm(x1 * (1 << 20), m1.m, m1.shift) + ref::mbqm(x2 * (1 << 20), m2.m, m2.shift), mo.m, mo.shift);
              else
                v = ref::mbqm(x1 * x2, mo.m, mo.shift);
              want.push_back(static_cast<std::int8_t>(ref::clamp(v + l.out_zero_point, lo, hi)));
            }
      CHECK_MESSAGE(got == want, ctnn::name_of(l.kind) << " #" << i);
    });
  };
  check.operator()<adds>();
  check.operator()<muls>();
}

TEST_CASE("int8 relu (requantized) and relu6 (a clamp in the input's quantization) equal TFLM's") {
  for_each_layer<relus>(std::make_index_sequence<std::size(relus)>{}, [&](auto index) {
    constexpr std::size_t i = decltype(index)::value;
    constexpr const layer& l = relus[i];
    const std::vector<std::int8_t> x = int8_test::random_int8(static_cast<std::size_t>(l.in.elements()), rng());
    const std::vector<std::int8_t> got = run<relus, i>(x);
    const float si = scale_of(l.in_scale), so = scale_of(l.out_scale);
    std::vector<std::int8_t> want;
    for (std::int8_t v : x) {
      if (l.kind == op_kind::relu) {
        const ref::multiplier m = ref::quantize_multiplier(static_cast<double>(si) / so);
        want.push_back(static_cast<std::int8_t>(ref::clamp(l.out_zero_point + ref::mbqm(v - l.in_zero_point, m.m, m.shift),
                                                           std::max(-128, l.out_zero_point), 127)));
      } else {
        const auto six = ref::clamp(static_cast<std::int64_t>(std::round(6.0f / si)) + l.in_zero_point, -128, 127);
        want.push_back(static_cast<std::int8_t>(ref::clamp(v, l.in_zero_point, six)));
      }
    }
    CHECK_MESSAGE(got == want, ctnn::name_of(l.kind) << " #" << i);
  });
}

inline constexpr layer reshapes[] = {reshape_layer()};

TEST_CASE("int8 reshape copies, concat copies or requantizes (ConcatenationWithScaling), pad fills with the quantized value") {
  {
    const std::vector<std::int8_t> x = int8_test::random_int8(105, rng());
    CHECK(run<reshapes, 0>(x) == x);
  }
  for_each_layer<concats>(std::make_index_sequence<std::size(concats)>{}, [&](auto index) {
    constexpr std::size_t i = decltype(index)::value;
    constexpr const layer& l = concats[i];
    constexpr kernel_params p = int8_test::layer_params<concats, i>();
    const std::vector<std::int8_t> a = int8_test::random_int8(static_cast<std::size_t>(l.in.elements()), rng());
    const std::vector<std::int8_t> b = int8_test::random_int8(static_cast<std::size_t>(l.in2.elements()), rng());
    const std::vector<std::int8_t> got = run<concats, i>(a, b);
    const auto convert = [&](std::int8_t v, std::uint32_t scale_bits, std::int32_t zp) -> std::int8_t {
      if (scale_bits == l.out_scale && zp == l.out_zero_point) return v;
      const float scale = scale_of(scale_bits) * (1.0f / scale_of(l.out_scale));
      const float bias = static_cast<float>(-zp) * scale;
      return static_cast<std::int8_t>(ref::clamp(static_cast<std::int64_t>(std::round(static_cast<float>(v) * scale + bias)) + l.out_zero_point, -128, 127));
    };
    std::int64_t outer = 1, inner = 1;
    for (int d = 0; d < l.axis; ++d) outer *= l.in[d];
    for (int d = l.axis + 1; d < l.in.rank; ++d) inner *= l.in[d];
    std::vector<std::int8_t> want;
    for (std::int64_t o = 0; o < outer; ++o) {
      for (std::int64_t k = 0; k < l.in[l.axis] * inner; ++k)
        want.push_back(convert(a[static_cast<std::size_t>(o * l.in[l.axis] * inner + k)], l.in_scale, l.in_zero_point));
      for (std::int64_t k = 0; k < l.in2[l.axis] * inner; ++k)
        want.push_back(convert(b[static_cast<std::size_t>(o * l.in2[l.axis] * inner + k)], l.in2_scale, l.in2_zero_point));
    }
    CHECK(p.concat().rescales_inputs == (i == 0 ? 0 : 1));
    CHECK_MESSAGE(got == want, "concat #" << i);
  });
  for_each_layer<pads>(std::make_index_sequence<std::size(pads)>{}, [&](auto index) {
    constexpr std::size_t i = decltype(index)::value;
    constexpr const layer& l = pads[i];
    constexpr kernel_params p = int8_test::layer_params<pads, i>();
    const std::vector<std::int8_t> x = int8_test::random_int8(static_cast<std::size_t>(l.in.elements()), rng());
    const std::vector<std::int8_t> got = run<pads, i>(x);
    const auto fill = static_cast<std::int8_t>(ref::clamp(static_cast<std::int64_t>(std::round(l.pad_value / scale_of(l.out_scale))) + l.out_zero_point, -128, 127));
    std::vector<std::int8_t> want(static_cast<std::size_t>(p.out.elements()), fill);
    for (int n = 0; n < l.in[0]; ++n)
      for (int h = 0; h < l.in[1]; ++h)
        for (int w = 0; w < l.in[2]; ++w)
          for (int c = 0; c < l.in[3]; ++c)
            want[static_cast<std::size_t>(at4(p.out, n + l.pads[0], h + l.pads[2], w + l.pads[4], c + l.pads[6]))] =
                x[static_cast<std::size_t>(at4(l.in, n, h, w, c))];
    CHECK_MESSAGE(got == want, "pad #" << i);
    CHECK(p.pad.quantized_fill == fill);  // the fill in the output's quantization; output_offset stays its zero point
    CHECK(p.output_offset == l.out_zero_point);
  });
}

TEST_CASE("quantize (float -> int8, int8 -> int8) and dequantize equal TFLM's AffineQuantize / Requantize / Dequantize") {
  std::uniform_real_distribution<float> real(-8.0f, 8.0f);
  std::vector<float> xf(105);
  for (std::size_t k = 0; k < xf.size(); ++k) xf[k] = k < 8 ? (static_cast<float>(k) - 4.0f + 0.5f) * 0.037f : real(rng());  // ties too
  for_each_layer<quantizes>(std::make_index_sequence<std::size(quantizes)>{}, [&](auto index) {
    constexpr std::size_t i = decltype(index)::value;
    constexpr const layer& l = quantizes[i];
    const std::vector<std::int8_t> x8 = int8_test::random_int8(105, rng());
    constexpr kernel_params p = int8_test::layer_params<quantizes, i>();
    static_assert(p.out_type == l.out_type && p.axis == -1);  // the result's type has a field of its own
    // The scale of the int8 side, only where the kernel computes in float (from f32, to f32).
    static_assert(p.quantize().scale() == (l.in_type == l.out_type ? 0.0f : scale_of(l.in_type == ctnn::dtype::f32 ? l.out_scale : l.in_scale)));
    if constexpr (l.in_type == ctnn::dtype::f32) {
      const std::vector<std::int8_t> got = run<quantizes, i, float>(xf);
      std::vector<std::int8_t> want;
      for (float v : xf)
        want.push_back(static_cast<std::int8_t>(ref::clamp(static_cast<std::int64_t>(std::round(v / scale_of(l.out_scale))) + l.out_zero_point, -128, 127)));
      CHECK_MESSAGE(got == want, "quantize #" << i);
    } else if constexpr (l.out_type == ctnn::dtype::i8) {
      const std::vector<std::int8_t> got = run<quantizes, i>(x8);
      const ref::multiplier m = ref::quantize_multiplier(static_cast<double>(scale_of(l.in_scale)) / scale_of(l.out_scale));
      std::vector<std::int8_t> want;
      for (std::int8_t v : x8) want.push_back(static_cast<std::int8_t>(ref::clamp(ref::mbqm(v - l.in_zero_point, m.m, m.shift) + std::int64_t{l.out_zero_point}, -128, 127)));
      CHECK_MESSAGE(got == want, "requantize #" << i);
    } else {
      const std::vector<float> got = run<quantizes, i, std::int8_t, float>(x8);
      std::vector<float> want;
      for (std::int8_t v : x8) want.push_back(scale_of(l.in_scale) * static_cast<float>(v - l.in_zero_point));
      CHECK_MESSAGE(got == want, "dequantize #" << i);
    }
  });
}

TEST_CASE("int8 mean (TFLM 90b983c2b's QuantizedMeanOrSum for every axis set and quantization) and float32 mean") {
  for_each_layer<means>(std::make_index_sequence<std::size(means)>{}, [&](auto index) {
    constexpr std::size_t i = decltype(index)::value;
    constexpr const layer& l = means[i];
    constexpr kernel_params p = int8_test::layer_params<means, i>();
    const std::vector<std::int8_t> x = int8_test::random_int8(static_cast<std::size_t>(l.in.elements()), rng());
    const std::vector<std::int8_t> got = run<means, i>(x);
    const ref::multiplier m = ref::quantize_multiplier(static_cast<double>(scale_of(l.in_scale)) / scale_of(l.out_scale));
    // Sum over the reduced axes, per output element (row-major over the kept axes).
    std::vector<std::int64_t> sums, zero_point_sums;
    std::int64_t count = 1;
    for (int d = 0; d < l.in.rank; ++d)
      if (l.reduce_axes >> d & 1u) count *= l.in[d];
    std::vector<int> index_of(static_cast<std::size_t>(l.in.rank));
    std::vector<std::int64_t> acc(static_cast<std::size_t>(p.out.elements()), 0);
    for (std::int64_t e = 0; e < l.in.elements(); ++e) {
      std::int64_t rest = e, out_index = 0;
      for (int d = l.in.rank - 1; d >= 0; --d) index_of[static_cast<std::size_t>(d)] = static_cast<int>(rest % l.in[d]), rest /= l.in[d];
      for (int d = 0; d < l.in.rank; ++d)
        if (!(l.reduce_axes >> d & 1u)) out_index = out_index * l.in[d] + index_of[static_cast<std::size_t>(d)];
      acc[static_cast<std::size_t>(out_index)] += x[static_cast<std::size_t>(e)];
    }
    std::vector<std::int8_t> want;
    for (std::int64_t sum : acc) {
      int shift = 63 - std::countl_zero(static_cast<std::uint64_t>(count));
      shift = std::min({shift, 32, 31 + m.shift});
      const auto multiplier = static_cast<std::int32_t>((static_cast<std::int64_t>(m.m) << shift) / count);
      const std::int64_t v =
          ref::mbqm(static_cast<std::int32_t>(sum - l.in_zero_point * count), multiplier, m.shift - shift) + std::int64_t{l.out_zero_point};
      want.push_back(static_cast<std::int8_t>(ref::clamp(v, -128, 127)));
    }
    CHECK_MESSAGE(got == want, "mean #" << i);
    CHECK(p.mean.reduce_axes == l.reduce_axes);
  });
  for_each_layer<float_means>(std::make_index_sequence<std::size(float_means)>{}, [&](auto index) {
    constexpr std::size_t i = decltype(index)::value;
    constexpr const layer& l = float_means[i];
    constexpr kernel_params p = int8_test::layer_params<float_means, i>();
    std::uniform_real_distribution<float> real(-3.0f, 3.0f);
    std::vector<float> x(static_cast<std::size_t>(l.in.elements()));
    for (float& v : x) v = real(rng());
    std::vector<float> got(static_cast<std::size_t>(p.out.elements()));
    const float* const operands[] = {x.data(), nullptr};
    ctnn::kernel::invoke_f32<p>(operands, got.data());
    for (std::size_t o = 0; o < got.size(); ++o) {
      // The same float sum in the same order would be equal; against double: a few ulps.
      double sum = 0;
      std::int64_t count = 0;
      std::vector<int> index_of(static_cast<std::size_t>(l.in.rank));
      for (std::int64_t e = 0; e < l.in.elements(); ++e) {
        std::int64_t rest = e, out_index = 0;
        for (int d = l.in.rank - 1; d >= 0; --d) index_of[static_cast<std::size_t>(d)] = static_cast<int>(rest % l.in[d]), rest /= l.in[d];
        for (int d = 0; d < l.in.rank; ++d)
          if (!(l.reduce_axes >> d & 1u)) out_index = out_index * l.in[d] + index_of[static_cast<std::size_t>(d)];
        if (out_index == static_cast<std::int64_t>(o)) sum += x[static_cast<std::size_t>(e)], ++count;
      }
      CHECK(got[o] == doctest::Approx(sum / static_cast<double>(count)).epsilon(1e-5));
    }
  });
  // constexpr: the float mean folds at compile time.
  static_assert([] {
    constexpr kernel_params p = int8_test::layer_params<float_means, 2>();
    const float x[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    float y[2] = {};
    const float* const operands[] = {x, nullptr};
    ctnn::kernel::invoke_f32<p>(operands, y);
    return y[0] == 3.5f && y[1] == 9.5f;
  }());
}
