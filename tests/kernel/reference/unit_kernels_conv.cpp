// Unit tests of the reference float32 kernels conv2d, depthwise_conv2d and dense, each against a naive
// implementation written here: double precision, explicit padding by building a zero-padded copy of
// the input, and plain loops over the definition. kernel_params (an NTTP) is built by constexpr
// builders whose output extents come from the textbook formula, not from ctnn's passes.
//
// Tolerance: relative 1e-5 versus the double result, relative to max(|want|, sum of |terms|) where the
// terms are the bias and every product of the dot product. Float32 accumulation of n terms errs by at
// most about n * 2^-24 * sum|terms| (n <= 63 here: < 4e-6 * sum|terms|), so a bound on |want| alone
// would only be wrong where the terms cancel.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/dynamic.hpp>
#include <ctnn/kernel/reference/conv2d.hpp>
#include <ctnn/kernel/reference/dense.hpp>

#include "test_modules.hpp"

namespace {

using ctnn::activation;
using ctnn::kernel_params;
using ctnn::make_shape;
using ctnn::op_kind;
using ctnn::shape;

constexpr double tolerance = 1e-5;

// ---------------------------------------------------------------------------------------------------
// kernel_params builders.
struct windowed {
  kernel_params p{};
  std::int32_t out_channels = 0;
  bool same_padding = false;

  constexpr windowed(op_kind kind, shape in) {
    p.kind = kind;
    p.in = in;
    out_channels = in[3];
  }
  constexpr windowed& kernel(std::int32_t h, std::int32_t w) { return p.win.kernel_h = h, p.win.kernel_w = w, *this; }
  constexpr windowed& stride(std::int32_t h, std::int32_t w) { return p.win.stride_h = h, p.win.stride_w = w, *this; }
  constexpr windowed& dilation(std::int32_t h, std::int32_t w) { return p.win.dilation_h = h, p.win.dilation_w = w, *this; }
  constexpr windowed& pads(std::int32_t top, std::int32_t left, std::int32_t bottom, std::int32_t right) {
    p.win.mode = ctnn::padding::explicit_pads;
    p.win.pad_top = top, p.win.pad_left = left, p.win.pad_bottom = bottom, p.win.pad_right = right;
    return *this;
  }
  constexpr windowed& same() { return same_padding = true, *this; }
  constexpr windowed& groups(std::int32_t g) { return p.groups = g, *this; }
  constexpr windowed& multiplier(std::int32_t m) { return p.depth_multiplier = m, out_channels = p.in[3] * m, *this; }
  constexpr windowed& filters(std::int32_t c) { return out_channels = c, *this; }
  constexpr windowed& bias() { return p.has_bias = true, *this; }
  constexpr windowed& fused(activation a) { return p.fused = a, *this; }

  constexpr kernel_params done() {
    ctnn_test::resolve_window(p, same_padding, out_channels);
    return p;
  }
};

constexpr kernel_params dense_params(shape in, std::int32_t units, bool bias, activation a) {
  kernel_params p{};
  p.kind = op_kind::dense;
  p.in = in;
  p.out = make_shape(in[0], units);
  p.has_bias = bias;
  p.fused = a;
  return p;
}

// ---------------------------------------------------------------------------------------------------
// The naive implementations.
double activate(activation a, double x) {
  switch (a) {
    case activation::none: return x;
    case activation::relu: return x > 0 ? x : 0;
    case activation::relu6: return std::min(std::max(x, 0.0), 6.0);
    case activation::sigmoid: return 1.0 / (1.0 + std::exp(-x));
    case activation::tanh: return std::tanh(x);
  }
  return x;
}

struct expected_values {
  std::vector<double> value;
  std::vector<double> scale;  // |bias| + sum of |products| per output element
};

// Both conv2d (groups) and depthwise (multiplier): output channel oc reads input channels
// [g * in_per_group, (g+1) * in_per_group) for conv; input channel oc / multiplier for depthwise.
expected_values naive_conv(const kernel_params& p, const std::vector<float>& x, const std::vector<float>& w,
                           const std::vector<float>& b) {
  const int n = p.in[0], h = p.in[1], wd = p.in[2], c = p.in[3];
  const auto& win = p.win;
  const int hp = h + win.pad_top + win.pad_bottom, wp = wd + win.pad_left + win.pad_right;
  std::vector<double> padded(static_cast<std::size_t>(n * hp * wp * c), 0.0);
  for (int in = 0; in < n; ++in)
    for (int y = 0; y < h; ++y)
      for (int xx = 0; xx < wd; ++xx)
        for (int ch = 0; ch < c; ++ch)
          padded[static_cast<std::size_t>(((in * hp + y + win.pad_top) * wp + xx + win.pad_left) * c + ch)] =
              x[static_cast<std::size_t>(((in * h + y) * wd + xx) * c + ch)];
  const int oh = p.out[1], ow = p.out[2], oc_count = p.out[3];
  const bool depthwise = p.kind == op_kind::depthwise_conv2d;
  const int in_per_group = depthwise ? 1 : c / p.groups;
  const int out_per_group = depthwise ? p.depth_multiplier : oc_count / p.groups;
  expected_values r;
  r.value.resize(static_cast<std::size_t>(n * oh * ow * oc_count));
  r.scale.resize(r.value.size());
  for (int in = 0; in < n; ++in)
    for (int oy = 0; oy < oh; ++oy)
      for (int ox = 0; ox < ow; ++ox)
        for (int oc = 0; oc < oc_count; ++oc) {
          const int group = oc / out_per_group;
          double sum = p.has_bias ? b[static_cast<std::size_t>(oc)] : 0.0;
          double scale = std::fabs(sum);
          for (int ky = 0; ky < win.kernel_h; ++ky)
            for (int kx = 0; kx < win.kernel_w; ++kx)
              for (int ic = 0; ic < in_per_group; ++ic) {
                const int py = oy * win.stride_h + ky * win.dilation_h, px = ox * win.stride_w + kx * win.dilation_w;
                const double v = padded[static_cast<std::size_t>(((in * hp + py) * wp + px) * c + group * in_per_group + ic)];
                const double f = depthwise
                                     ? w[static_cast<std::size_t>((ky * win.kernel_w + kx) * oc_count + oc)]  // 1HWC
                                     : w[static_cast<std::size_t>(((oc * win.kernel_h + ky) * win.kernel_w + kx) * in_per_group + ic)];  // OHWI
                sum += v * f;
                scale += std::fabs(v * f);
              }
          const auto at = static_cast<std::size_t>(((in * oh + oy) * ow + ox) * oc_count + oc);
          r.value[at] = activate(p.fused, sum);
          r.scale[at] = scale;
        }
  return r;
}

expected_values naive_dense(const kernel_params& p, const std::vector<float>& x, const std::vector<float>& w,
                            const std::vector<float>& b) {
  const int batch = p.in[0];
  const auto features = static_cast<int>(p.in.elements() / batch);
  const int units = p.out[1];
  expected_values r;
  for (int i = 0; i < batch; ++i)
    for (int u = 0; u < units; ++u) {
      double sum = p.has_bias ? b[static_cast<std::size_t>(u)] : 0.0, scale = std::fabs(sum);
      for (int f = 0; f < features; ++f) {
        const double t = static_cast<double>(x[static_cast<std::size_t>(i * features + f)]) * w[static_cast<std::size_t>(u * features + f)];
        sum += t;
        scale += std::fabs(t);
      }
      r.value.push_back(activate(p.fused, sum));
      r.scale.push_back(scale);
    }
  return r;
}

// ---------------------------------------------------------------------------------------------------
// Runs kernel K on random data and compares with the naive result. The output buffer is pre-filled
// with NaN (a skipped element cannot pass) and followed by guard elements that must stay untouched.
template <kernel_params P>
std::size_t weight_count() {
  if constexpr (P.kind == op_kind::dense) return static_cast<std::size_t>(P.out[1] * (P.in.elements() / P.in[0]));
  else if constexpr (P.kind == op_kind::depthwise_conv2d) return static_cast<std::size_t>(P.win.kernel_h * P.win.kernel_w * P.out[3]);
  else return static_cast<std::size_t>(P.out[3] * P.win.kernel_h * P.win.kernel_w * (P.in[3] / P.groups));
}

template <kernel_params P>
void check_kernel(std::uint32_t seed, float weight_range = 1.0f) {
  const auto x = ctnn_test::random_floats(static_cast<std::size_t>(P.in.elements()), seed);
  const auto w = ctnn_test::random_floats(weight_count<P>(), seed + 1, -weight_range, weight_range);
  const auto b = ctnn_test::random_floats(static_cast<std::size_t>(P.kind == op_kind::dense ? P.out[1] : P.out[3]), seed + 2);
  const auto out_elements = static_cast<std::size_t>(P.out.elements());
  constexpr std::size_t guard = 16;
  std::vector<float> out(out_elements + guard, std::numeric_limits<float>::quiet_NaN());
  for (std::size_t g = 0; g < guard; ++g) out[out_elements + g] = 12345.0f;
  const float* bias = P.has_bias ? b.data() : nullptr;  // a kernel without bias must not read it

  expected_values want;
  if constexpr (P.kind == op_kind::conv2d) {
    ctnn::kernel::reference::conv2d(ctnn::kernel::static_params<P>{}, x.data(), w.data(), bias, out.data());
    want = naive_conv(P, x, w, b);
  } else if constexpr (P.kind == op_kind::depthwise_conv2d) {
    ctnn::kernel::reference::depthwise_conv2d(ctnn::kernel::static_params<P>{}, x.data(), w.data(), bias, out.data());
    want = naive_conv(P, x, w, b);
  } else {
    ctnn::kernel::reference::dense(ctnn::kernel::static_params<P>{}, x.data(), w.data(), bias, out.data());
    want = naive_dense(P, x, w, b);
  }
  REQUIRE(want.value.size() == out_elements);
  // The shared kernel (run-time parameters) computes the same values, bit for bit.
  std::vector<float> shared(out_elements);
  const void* const operands[] = {x.data(), w.data(), bias};
  CHECK(ctnn::kernel::invoke_dynamic(P, operands, shared.data()));
  CHECK(std::equal(shared.begin(), shared.end(), out.begin()));
  int mismatches = 0;
  for (std::size_t i = 0; i < out_elements; ++i) {
    const double got = out[i];
    const double bound = tolerance * std::max(std::fabs(want.value[i]), want.scale[i]);
    if (!(std::fabs(got - want.value[i]) <= bound)) {
      if (++mismatches <= 5) {
        CAPTURE(i);
        CAPTURE(got);
        CAPTURE(want.value[i]);
        CHECK(std::fabs(got - want.value[i]) <= bound);
      }
    }
  }
  CHECK(mismatches == 0);
  for (std::size_t g = 0; g < guard; ++g) CHECK(out[out_elements + g] == 12345.0f);
}

// ---------------------------------------------------------------------------------------------------
// conv2d
// 3x3 SAME, odd sizes, 3 -> 5 channels.
constexpr auto conv_same = windowed(op_kind::conv2d, make_shape(1, 5, 7, 3)).kernel(3, 3).stride(1, 1).same().filters(5).bias().done();
// 3x2, stride 2, explicit pads t1 l0 b2 r1, batch 2, 1 -> 7 channels, no bias, relu.
constexpr auto conv_strided = windowed(op_kind::conv2d, make_shape(2, 6, 5, 1)).kernel(3, 2).stride(2, 2).pads(1, 0, 2, 1).filters(7).fused(activation::relu).done();
// Dilation 2, VALID, 5 -> 3, relu6 (weights scaled so that some sums pass 6).
constexpr auto conv_dilated = windowed(op_kind::conv2d, make_shape(1, 9, 8, 5)).kernel(3, 3).dilation(2, 2).filters(3).bias().fused(activation::relu6).done();
// Groups 3 (6 -> 9, 2 input channels per group), stride 2, pads 1, sigmoid.
constexpr auto conv_groups = windowed(op_kind::conv2d, make_shape(1, 5, 5, 6)).kernel(3, 3).stride(2, 2).pads(1, 1, 1, 1).groups(3).filters(9).bias().fused(activation::sigmoid).done();
// Groups = channels (depthwise as a grouped conv), SAME, tanh.
constexpr auto conv_groups_all = windowed(op_kind::conv2d, make_shape(1, 4, 4, 4)).kernel(3, 3).same().groups(4).filters(4).bias().fused(activation::tanh).done();
// 1x1, 7 -> 1.
constexpr auto conv_pointwise = windowed(op_kind::conv2d, make_shape(1, 3, 3, 7)).kernel(1, 1).filters(1).bias().done();
// 2x3, stride 2, dilation 2, SAME (asymmetric: h 1/1, w 1/2).
constexpr auto conv_same_dilated = windowed(op_kind::conv2d, make_shape(1, 7, 6, 3)).kernel(2, 3).stride(2, 2).dilation(2, 2).same().filters(2).bias().done();
// Padding at every edge, different on each: t2 l1 b1 r2.
constexpr auto conv_all_edges = windowed(op_kind::conv2d, make_shape(1, 4, 5, 2)).kernel(3, 3).pads(2, 1, 1, 2).filters(3).bias().done();
// Batch 3, 3x1 window, stride 1x2, VALID.
constexpr auto conv_batch = windowed(op_kind::conv2d, make_shape(3, 5, 3, 3)).kernel(3, 1).stride(1, 2).filters(2).bias().done();
// Stride 3 > kernel 2: skipped pixels.
constexpr auto conv_skip = windowed(op_kind::conv2d, make_shape(1, 7, 7, 1)).kernel(2, 2).stride(3, 3).filters(2).done();
// Groups 2 (6 -> 4), dilation 2, SAME, relu.
constexpr auto conv_groups_dilated = windowed(op_kind::conv2d, make_shape(1, 6, 6, 6)).kernel(3, 3).dilation(2, 2).same().groups(2).filters(4).fused(activation::relu).done();

// The builders agree with the worked-out shapes.
static_assert(conv_same.out == make_shape(1, 5, 7, 5) && conv_same.win.pad_top == 1 && conv_same.win.pad_right == 1);
static_assert(conv_strided.out == make_shape(2, 4, 3, 7));         // (6+3-3)/2+1, (5+1-2)/2+1
static_assert(conv_dilated.out == make_shape(1, 5, 4, 3));         // span 5
static_assert(conv_groups.out == make_shape(1, 3, 3, 9));          // (5+2-3)/2+1
static_assert(conv_same_dilated.out == make_shape(1, 4, 3, 2) && conv_same_dilated.win.pad_top == 1 &&
              conv_same_dilated.win.pad_bottom == 1 && conv_same_dilated.win.pad_left == 1 && conv_same_dilated.win.pad_right == 2);
static_assert(conv_all_edges.out == make_shape(1, 5, 6, 3));
static_assert(conv_batch.out == make_shape(3, 3, 2, 2));
static_assert(conv_skip.out == make_shape(1, 2, 2, 2));
static_assert(conv_groups_dilated.out == make_shape(1, 6, 6, 4));

TEST_CASE("conv2d: SAME, odd sizes") { check_kernel<conv_same>(1); }
TEST_CASE("conv2d: stride 2, explicit asymmetric pads, batch 2, no bias, relu") { check_kernel<conv_strided>(2); }
TEST_CASE("conv2d: dilation 2, relu6") { check_kernel<conv_dilated>(3, 3.0f); }
TEST_CASE("conv2d: groups 3, stride 2, sigmoid") { check_kernel<conv_groups>(4); }
TEST_CASE("conv2d: groups = channels, tanh") { check_kernel<conv_groups_all>(5); }
TEST_CASE("conv2d: 1x1, 7 channels") { check_kernel<conv_pointwise>(6); }
TEST_CASE("conv2d: stride 2 + dilation 2, SAME with the odd pad at the end") { check_kernel<conv_same_dilated>(7); }
TEST_CASE("conv2d: padding at every edge") { check_kernel<conv_all_edges>(8); }
TEST_CASE("conv2d: batch 3, 3x1 window, stride 1x2") { check_kernel<conv_batch>(9); }
TEST_CASE("conv2d: stride larger than the window") { check_kernel<conv_skip>(10); }
TEST_CASE("conv2d: groups 2, dilation 2, SAME, relu") { check_kernel<conv_groups_dilated>(11); }

// ---------------------------------------------------------------------------------------------------
// depthwise_conv2d (output channel = input channel * multiplier + m)
constexpr auto dw_same = windowed(op_kind::depthwise_conv2d, make_shape(1, 5, 5, 3)).kernel(3, 3).same().bias().done();
constexpr auto dw_mult2 = windowed(op_kind::depthwise_conv2d, make_shape(1, 6, 7, 5)).kernel(3, 3).stride(2, 2).pads(0, 1, 2, 1).multiplier(2).fused(activation::relu).done();
constexpr auto dw_mult3 = windowed(op_kind::depthwise_conv2d, make_shape(2, 7, 7, 1)).kernel(3, 3).dilation(2, 2).multiplier(3).bias().fused(activation::relu6).done();
constexpr auto dw_edges = windowed(op_kind::depthwise_conv2d, make_shape(1, 4, 6, 7)).kernel(2, 3).pads(1, 2, 1, 2).bias().fused(activation::tanh).done();
constexpr auto dw_same_s2 = windowed(op_kind::depthwise_conv2d, make_shape(1, 5, 4, 2)).kernel(3, 3).stride(2, 2).same().multiplier(2).bias().fused(activation::sigmoid).done();

static_assert(dw_same.out == make_shape(1, 5, 5, 3));
static_assert(dw_mult2.out == make_shape(1, 3, 4, 10));  // (6+2-3)/2+1, (7+2-3)/2+1
static_assert(dw_mult3.out == make_shape(2, 3, 3, 3));
static_assert(dw_edges.out == make_shape(1, 5, 8, 7));
static_assert(dw_same_s2.out == make_shape(1, 3, 2, 4));

TEST_CASE("depthwise_conv2d: multiplier 1, SAME") { check_kernel<dw_same>(21); }
TEST_CASE("depthwise_conv2d: multiplier 2, stride 2, explicit pads, no bias, relu") { check_kernel<dw_mult2>(22); }
TEST_CASE("depthwise_conv2d: multiplier 3 on 1 channel, dilation 2, batch 2, relu6") { check_kernel<dw_mult3>(23, 6.0f); }
TEST_CASE("depthwise_conv2d: 7 channels, padding at every edge, tanh") { check_kernel<dw_edges>(24); }
TEST_CASE("depthwise_conv2d: multiplier 2, SAME stride 2, sigmoid") { check_kernel<dw_same_s2>(25); }

// ---------------------------------------------------------------------------------------------------
// dense (input flattened per batch)
constexpr auto dense_plain = dense_params(make_shape(1, 12), 5, true, activation::none);
constexpr auto dense_rank4 = dense_params(make_shape(1, 2, 3, 4), 3, true, activation::relu);
constexpr auto dense_batch = dense_params(make_shape(2, 3, 4), 4, false, activation::tanh);
constexpr auto dense_one = dense_params(make_shape(3, 7), 1, true, activation::sigmoid);
constexpr auto dense_relu6 = dense_params(make_shape(1, 40), 6, true, activation::relu6);

TEST_CASE("dense: 12 -> 5") { check_kernel<dense_plain>(31); }
TEST_CASE("dense: rank-4 input flattened, relu") { check_kernel<dense_rank4>(32); }
TEST_CASE("dense: batch 2, no bias, tanh") { check_kernel<dense_batch>(33); }
TEST_CASE("dense: batch 3, one unit, sigmoid") { check_kernel<dense_one>(34); }
TEST_CASE("dense: relu6 with sums beyond 6") { check_kernel<dense_relu6>(35, 3.0f); }

// The checker itself: a deliberately wrong kernel parameter is caught (here: a kernel instantiated
// with stride 1 where the data and the naive reference assume stride 2 would read other pixels).
TEST_CASE("the naive reference is sensitive to the window (not vacuous)") {
  constexpr auto p = windowed(op_kind::conv2d, make_shape(1, 5, 5, 2)).kernel(3, 3).stride(2, 2).filters(2).done();
  constexpr auto wrong = [] {
    auto q = windowed(op_kind::conv2d, make_shape(1, 5, 5, 2)).kernel(3, 3).stride(2, 2).filters(2).done();
    q.win.stride_h = 1;  // same output extents, different pixels
    return q;
  }();
  const auto x = ctnn_test::random_floats(50, 41);
  const auto w = ctnn_test::random_floats(36, 42);
  const std::vector<float> b(2, 0.0f);
  std::vector<float> out(static_cast<std::size_t>(p.out.elements()));
  ctnn::kernel::reference::conv2d(ctnn::kernel::static_params<wrong>{}, x.data(), w.data(), nullptr, out.data());
  const auto want = naive_conv(p, x, w, b);
  double worst = 0;
  for (std::size_t i = 0; i < out.size(); ++i) worst = std::max(worst, std::fabs(out[i] - want.value[i]));
  CHECK(worst > 1e-3);
}

}  // namespace
