// Unit tests of the reference float32 kernels other than conv/dense: max/avg pooling, global average
// pooling, add/mul with broadcasting, activations, softmax, reshape, concat and pad. Each is compared
// with a naive implementation written here, indexing through explicit multi-indices (the kernels walk
// flat offsets) and padding through an explicit padded copy with an in-bounds mask.
//
// Tolerance: results that are exact in float32 (max, copies, relu/relu6, one add or mul of two floats:
// the double result of one operation on two floats rounds to the float result) are compared with ==.
// The others (averages, sigmoid, tanh, softmax) use relative 1e-5 versus the double result, relative to
// max(|want|, mean |terms|) for averages; an absolute floor of 1e-30 covers results below float's
// normal range (e.g. sigmoid(-90)).
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/ir/module.hpp>
#include <ctnn/ops/registry.hpp>
#include <ctnn/kernel/dynamic.hpp>
#include <ctnn/kernel/reference/activation.hpp>
#include <ctnn/kernel/reference/data_movement.hpp>
#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/kernel/reference/int8/activation.hpp>
#include <ctnn/kernel/reference/pool.hpp>

#include "test_modules.hpp"

namespace {

using ctnn::activation;
using ctnn::kernel_params;
using ctnn::make_shape;
using ctnn::op_kind;
using ctnn::shape;
namespace ref = ctnn::kernel::reference;

constexpr double tolerance = 1e-5;
constexpr double floor_tolerance = 1e-30;
constexpr float nan = std::numeric_limits<float>::quiet_NaN();

bool close(double got, double want, double scale = 0.0) {
  return std::fabs(got - want) <= tolerance * std::max(std::fabs(want), scale) + floor_tolerance;
}

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
bool exact(activation a) { return a == activation::none || a == activation::relu || a == activation::relu6; }

// Multi-index <-> flat offset (row-major), written independently of the kernels' odometers.
using index = std::array<std::int32_t, ctnn::max_rank>;
index unravel(std::int64_t flat, const shape& s) {
  index i{};
  for (std::int32_t d = s.rank - 1; d >= 0; --d) {
    i[static_cast<std::size_t>(d)] = static_cast<std::int32_t>(flat % s[d]);
    flat /= s[d];
  }
  return i;
}
std::int64_t ravel(const index& i, const shape& s) {
  std::int64_t flat = 0;
  for (std::int32_t d = 0; d < s.rank; ++d) flat = flat * s[d] + i[static_cast<std::size_t>(d)];
  return flat;
}

std::vector<float> guarded_output(std::int64_t elements) {
  std::vector<float> out(static_cast<std::size_t>(elements) + 8, nan);
  for (std::size_t g = 0; g < 8; ++g) out[static_cast<std::size_t>(elements) + g] = 4321.0f;
  return out;
}

// The shared kernel (run-time parameters, kernel::invoke_dynamic) computes what the kernel under test
// wrote to `out`, bit for bit.
void check_shared(const kernel_params& p, std::vector<const void*> operands, const std::vector<float>& out) {
  std::vector<float> shared(static_cast<std::size_t>(p.out.elements()));
  CHECK(ctnn::kernel::invoke_dynamic(p, operands, shared.data()));
  CHECK(std::equal(shared.begin(), shared.end(), out.begin()));
}
void check_guard(const std::vector<float>& out, std::int64_t elements) {
  for (std::size_t g = 0; g < 8; ++g) CHECK(out[static_cast<std::size_t>(elements) + g] == 4321.0f);
}

// ---------------------------------------------------------------------------------------------------
// Pooling.
struct pool_builder {
  kernel_params p{};
  bool same_padding = false;
  constexpr pool_builder(op_kind kind, shape in, std::int32_t kh, std::int32_t kw) {
    p.kind = kind;
    p.in = in;
    p.win.kernel_h = kh;
    p.win.kernel_w = kw;
  }
  constexpr pool_builder& stride(std::int32_t h, std::int32_t w) { return p.win.stride_h = h, p.win.stride_w = w, *this; }
  constexpr pool_builder& dilation(std::int32_t h, std::int32_t w) { return p.win.dilation_h = h, p.win.dilation_w = w, *this; }
  constexpr pool_builder& pads(std::int32_t t, std::int32_t l, std::int32_t b, std::int32_t r) {
    p.win.mode = ctnn::padding::explicit_pads;
    p.win.pad_top = t, p.win.pad_left = l, p.win.pad_bottom = b, p.win.pad_right = r;
    return *this;
  }
  constexpr pool_builder& same() { return same_padding = true, *this; }
  constexpr kernel_params done() {
    ctnn_test::resolve_window(p, same_padding, p.in[3]);
    return p;
  }
};

struct pool_expected {
  std::vector<double> value, scale;
  std::vector<int> count;  // in-bounds elements per window
};

// Padded copy plus a mask of real (non-padding) positions; max over / mean of the real ones.
pool_expected naive_pool(const kernel_params& p, const std::vector<float>& x) {
  const int n = p.in[0], h = p.in[1], w = p.in[2], c = p.in[3];
  const auto& win = p.win;
  const int hp = h + win.pad_top + win.pad_bottom, wp = w + win.pad_left + win.pad_right;
  std::vector<double> padded(static_cast<std::size_t>(n * hp * wp * c), 0.0);
  std::vector<char> real(padded.size(), 0);
  for (int b = 0; b < n; ++b)
    for (int y = 0; y < h; ++y)
      for (int xx = 0; xx < w; ++xx)
        for (int ch = 0; ch < c; ++ch) {
          const auto at = static_cast<std::size_t>(((b * hp + y + win.pad_top) * wp + xx + win.pad_left) * c + ch);
          padded[at] = x[static_cast<std::size_t>(((b * h + y) * w + xx) * c + ch)];
          real[at] = 1;
        }
  pool_expected r;
  const bool is_max = p.kind == op_kind::max_pool;
  for (int b = 0; b < n; ++b)
    for (int oy = 0; oy < p.out[1]; ++oy)
      for (int ox = 0; ox < p.out[2]; ++ox)
        for (int ch = 0; ch < c; ++ch) {
          double best = -std::numeric_limits<double>::infinity(), sum = 0, magnitude = 0;
          int count = 0;
          for (int ky = 0; ky < win.kernel_h; ++ky)
            for (int kx = 0; kx < win.kernel_w; ++kx) {
              const int py = oy * win.stride_h + ky * win.dilation_h, px = ox * win.stride_w + kx * win.dilation_w;
              const auto at = static_cast<std::size_t>(((b * hp + py) * wp + px) * c + ch);
              if (!real[at]) continue;
              best = std::max(best, padded[at]);
              sum += padded[at];
              magnitude += std::fabs(padded[at]);
              ++count;
            }
          r.value.push_back(is_max ? best : sum / count);
          r.scale.push_back(count > 0 ? magnitude / count : 0.0);
          r.count.push_back(count);
        }
  return r;
}

template <kernel_params P>
void check_pool(std::uint32_t seed) {
  const auto x = ctnn_test::random_floats(static_cast<std::size_t>(P.in.elements()), seed);
  auto out = guarded_output(P.out.elements());
  constexpr bool is_max = P.kind == op_kind::max_pool;
  ref::pool2d<is_max>(ctnn::kernel::static_params<P>{}, x.data(), out.data());
  check_shared(P, {x.data()}, out);
  const auto want = naive_pool(P, x);
  REQUIRE(want.value.size() == static_cast<std::size_t>(P.out.elements()));
  int bad = 0;
  for (std::size_t i = 0; i < want.value.size(); ++i) {
    REQUIRE(want.count[i] > 0);  // these cases never have a window made of padding only
    const bool ok = is_max ? out[i] == want.value[i] : close(out[i], want.value[i], want.scale[i]);
    if (!ok && ++bad <= 5) {
      CAPTURE(i);
      CAPTURE(out[i]);
      CAPTURE(want.value[i]);
      CHECK(ok);
    }
  }
  CHECK(bad == 0);
  check_guard(out, P.out.elements());
}

constexpr auto max_same = pool_builder(op_kind::max_pool, make_shape(1, 7, 7, 2), 3, 3).stride(2, 2).same().done();
constexpr auto max_valid = pool_builder(op_kind::max_pool, make_shape(2, 5, 6, 3), 2, 2).stride(2, 2).done();
constexpr auto max_edges = pool_builder(op_kind::max_pool, make_shape(1, 6, 5, 1), 3, 3).pads(2, 1, 0, 2).done();
constexpr auto max_dilated = pool_builder(op_kind::max_pool, make_shape(1, 7, 7, 3), 2, 2).dilation(2, 2).done();
constexpr auto avg_same = pool_builder(op_kind::avg_pool, make_shape(1, 7, 7, 2), 3, 3).stride(2, 2).same().done();
constexpr auto avg_pads = pool_builder(op_kind::avg_pool, make_shape(1, 5, 6, 5), 3, 3).pads(1, 1, 1, 1).done();
constexpr auto avg_valid = pool_builder(op_kind::avg_pool, make_shape(2, 4, 4, 1), 2, 2).stride(2, 2).done();
constexpr auto avg_edges = pool_builder(op_kind::avg_pool, make_shape(1, 6, 7, 3), 3, 2).stride(2, 1).pads(2, 0, 1, 1).done();
static_assert(max_same.out == make_shape(1, 4, 4, 2) && max_valid.out == make_shape(2, 2, 3, 3));
static_assert(max_edges.out == make_shape(1, 6, 6, 1) && max_dilated.out == make_shape(1, 5, 5, 3));
static_assert(avg_pads.out == make_shape(1, 5, 6, 5) && avg_valid.out == make_shape(2, 2, 2, 1));
static_assert(avg_edges.out == make_shape(1, 4, 7, 3));  // (6+3-3)/2+1, (7+1-2)/1+1

TEST_CASE("max_pool: 3x3 stride 2 SAME") { check_pool<max_same>(101); }
TEST_CASE("max_pool: 2x2 stride 2 VALID, batch 2, odd width") { check_pool<max_valid>(102); }
TEST_CASE("max_pool: explicit pads at every edge but the bottom") { check_pool<max_edges>(103); }
TEST_CASE("max_pool: dilation 2") { check_pool<max_dilated>(104); }
TEST_CASE("avg_pool: 3x3 stride 2 SAME divides by the in-bounds count") { check_pool<avg_same>(105); }
TEST_CASE("avg_pool: pads 1 on every side") { check_pool<avg_pads>(106); }
TEST_CASE("avg_pool: 2x2 stride 2 VALID, batch 2") { check_pool<avg_valid>(107); }
TEST_CASE("avg_pool: asymmetric pads, stride 2x1") { check_pool<avg_edges>(108); }

TEST_CASE("avg_pool: corners count only their in-bounds elements (worked example)") {
  // 3x3 input 1..9, 3x3 window, pads 1: the top-left output averages {1, 2, 4, 5} = 3 (not 12/9).
  constexpr auto p = pool_builder(op_kind::avg_pool, make_shape(1, 3, 3, 1), 3, 3).pads(1, 1, 1, 1).done();
  const float x[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  float out[9] = {};
  ref::pool2d<false>(ctnn::kernel::static_params<p>{}, x, out);
  CHECK(out[0] == 3.0f);
  CHECK(out[4] == 5.0f);               // centre: all nine, 45 / 9
  CHECK(out[8] == (5 + 6 + 8 + 9) / 4.0f);
  CHECK(out[1] == (1 + 2 + 3 + 4 + 5 + 6) / 6.0f);
}

// Global average pooling: one mean per (batch, channel).
template <kernel_params P>
void check_global_pool(std::uint32_t seed) {
  const auto x = ctnn_test::random_floats(static_cast<std::size_t>(P.in.elements()), seed);
  auto out = guarded_output(P.out.elements());
  ref::global_avg_pool(ctnn::kernel::static_params<P>{}, x.data(), out.data());
  check_shared(P, {x.data()}, out);
  for (int b = 0; b < P.in[0]; ++b)
    for (int c = 0; c < P.in[3]; ++c) {
      double sum = 0, magnitude = 0;
      for (int y = 0; y < P.in[1]; ++y)
        for (int xx = 0; xx < P.in[2]; ++xx) {
          const double v = x[static_cast<std::size_t>(ravel({b, y, xx, c}, P.in))];
          sum += v;
          magnitude += std::fabs(v);
        }
      const double pixels = P.in[1] * P.in[2];
      CAPTURE(b);
      CAPTURE(c);
      CHECK(close(out[static_cast<std::size_t>(b * P.in[3] + c)], sum / pixels, magnitude / pixels));
    }
  check_guard(out, P.out.elements());
}
constexpr kernel_params global_params(shape in) {
  kernel_params p{};
  p.kind = op_kind::global_avg_pool;
  p.in = in;
  p.out = make_shape(in[0], 1, 1, in[3]);
  return p;
}
TEST_CASE("global_avg_pool") {
  check_global_pool<global_params(make_shape(1, 5, 3, 7))>(111);
  check_global_pool<global_params(make_shape(2, 4, 4, 3))>(112);
  check_global_pool<global_params(make_shape(1, 1, 1, 5))>(113);
}

// ---------------------------------------------------------------------------------------------------
// add / mul with broadcasting.
constexpr shape broadcast_shape(const shape& a, const shape& b) {
  shape out{};
  out.rank = std::max(a.rank, b.rank);
  for (std::int32_t d = 0; d < out.rank; ++d) {
    const std::int32_t da = d - (out.rank - a.rank), db = d - (out.rank - b.rank);
    const std::int32_t ea = da >= 0 ? a[da] : 1, eb = db >= 0 ? b[db] : 1;
    out.dims[static_cast<std::size_t>(d)] = ea == 1 ? eb : ea;
  }
  return out;
}
constexpr kernel_params binary_params(op_kind kind, shape a, shape b, activation fused = activation::none) {
  kernel_params p{};
  p.kind = kind;
  p.in = a;
  p.in2 = b;
  p.out = broadcast_shape(a, b);
  p.fused = fused;
  return p;
}

// The operand element read for an output multi-index: right-aligned, coordinate 0 along extents of 1.
std::int64_t operand_offset(const index& out_index, const shape& out, const shape& operand) {
  index i{};
  for (std::int32_t d = 0; d < operand.rank; ++d) {
    const std::int32_t od = d + (out.rank - operand.rank);
    i[static_cast<std::size_t>(d)] = operand[d] == 1 ? 0 : out_index[static_cast<std::size_t>(od)];
  }
  return ravel(i, operand);
}

template <kernel_params P>
void check_binary(std::uint32_t seed) {
  const float range = P.fused == activation::relu6 ? 4.0f : 1.0f;  // let some results pass 6
  const auto a = ctnn_test::random_floats(static_cast<std::size_t>(P.in.elements()), seed, -range, range);
  const auto b = ctnn_test::random_floats(static_cast<std::size_t>(P.in2.elements()), seed + 1, -range, range);
  auto out = guarded_output(P.out.elements());
  const std::array<const float*, 2> operands{a.data(), b.data()};
  ctnn::ops::descriptor_of<P.kind>::run_f32(ctnn::kernel::static_params<P>{}, operands.data(), out.data());
  check_shared(P, {a.data(), b.data()}, out);
  int bad = 0;
  for (std::int64_t i = 0; i < P.out.elements(); ++i) {
    const index at = unravel(i, P.out);
    const double x = a[static_cast<std::size_t>(operand_offset(at, P.out, P.in))];
    const double y = b[static_cast<std::size_t>(operand_offset(at, P.out, P.in2))];
    const double combined = P.kind == op_kind::mul ? x * y : x + y;
    const double got = out[static_cast<std::size_t>(i)];
    // Exact cases: the float result is the double result rounded once, then activated.
    const bool ok = exact(P.fused) ? got == activate(P.fused, static_cast<float>(combined))
                                   : close(got, activate(P.fused, combined));
    if (!ok && ++bad <= 5) {
      CAPTURE(i);
      CAPTURE(got);
      CAPTURE(combined);
      CHECK(ok);
    }
  }
  CHECK(bad == 0);
  check_guard(out, P.out.elements());
}

constexpr auto add_channel = binary_params(op_kind::add, make_shape(1, 4, 4, 3), make_shape(3));
constexpr auto mul_outer = binary_params(op_kind::mul, make_shape(1, 4, 1, 3), make_shape(1, 1, 5, 1));
constexpr auto add_same = binary_params(op_kind::add, make_shape(2, 3, 5), make_shape(2, 3, 5), activation::relu);
constexpr auto mul_lower_rank_first = binary_params(op_kind::mul, make_shape(3), make_shape(2, 4, 3));
constexpr auto add_both = binary_params(op_kind::add, make_shape(2, 1, 3), make_shape(1, 4, 1), activation::sigmoid);
constexpr auto mul_scalar = binary_params(op_kind::mul, make_shape(1), make_shape(2, 3), activation::relu6);
constexpr auto add_rank6 = binary_params(op_kind::add, make_shape(2, 1, 3, 1, 2, 1), make_shape(1, 2, 1, 3, 1, 2));
constexpr auto add_first_full = binary_params(op_kind::add, make_shape(1, 4, 4, 3), make_shape(1, 1, 1, 3), activation::tanh);
static_assert(mul_outer.out == make_shape(1, 4, 5, 3) && add_both.out == make_shape(2, 4, 3));
static_assert(add_rank6.out == make_shape(2, 2, 3, 3, 2, 2) && mul_lower_rank_first.out == make_shape(2, 4, 3));

TEST_CASE("add: [1,4,4,3] + [3]") { check_binary<add_channel>(201); }
TEST_CASE("mul: [1,4,1,3] * [1,1,5,1]") { check_binary<mul_outer>(202); }
TEST_CASE("add: equal shapes, relu") { check_binary<add_same>(203); }
TEST_CASE("mul: lower-rank operand first") { check_binary<mul_lower_rank_first>(204); }
TEST_CASE("add: both operands broadcast, sigmoid") { check_binary<add_both>(205); }
TEST_CASE("mul: a one-element operand, relu6") { check_binary<mul_scalar>(206); }
TEST_CASE("add: rank 6, alternating broadcast axes") { check_binary<add_rank6>(207); }
TEST_CASE("add: first operand full, second per channel, tanh") { check_binary<add_first_full>(208); }

// ---------------------------------------------------------------------------------------------------
// Activations on chosen points (0, the relu6 corners, saturating sigmoid/tanh) and random values.
template <activation A>
void check_activation() {
  std::vector<float> x{-100.0f, -90.0f, -20.0f, -7.0f, -6.0f, -1.0f, -0.0f, 0.0f, 1e-8f, 0.5f,
                       5.999f,  6.0f,   6.001f, 10.0f, 20.0f, 100.0f};
  const auto random = ctnn_test::random_floats(200, 300 + static_cast<std::uint32_t>(A), -8.0f, 8.0f);
  x.insert(x.end(), random.begin(), random.end());
  std::vector<float> out(x.size() + 8, nan);
  for (std::size_t g = 0; g < 8; ++g) out[x.size() + g] = 4321.0f;
  constexpr long n = 216;
  REQUIRE(x.size() == n);
  ref::activate_all<A, n>(x.data(), out.data());
  for (std::size_t i = 0; i < x.size(); ++i) {
    CAPTURE(x[i]);
    const double want = activate(A, x[i]);
    if (exact(A)) CHECK(out[i] == want);
    else CHECK(close(out[i], want));
  }
  check_guard(out, n);
}
TEST_CASE("activations: relu") { check_activation<activation::relu>(); }
TEST_CASE("activations: relu6") { check_activation<activation::relu6>(); }
TEST_CASE("activations: sigmoid") { check_activation<activation::sigmoid>(); }
TEST_CASE("activations: tanh") { check_activation<activation::tanh>(); }
TEST_CASE("activations: none is the identity") {
  CHECK(ref::activate<activation::none>(-3.25f) == -3.25f);
  CHECK(ref::activate<activation::relu6>(6.5f) == 6.0f);
  CHECK(ref::activate<activation::relu>(-0.5f) == 0.0f);
}

// ---------------------------------------------------------------------------------------------------
// softmax along the last axis.
constexpr kernel_params softmax_params(shape s) {
  kernel_params p{};
  p.kind = op_kind::softmax;
  p.in = s;
  p.out = s;
  p.axis = s.rank - 1;
  return p;
}

template <kernel_params P>
void check_softmax(const std::vector<float>& x) {
  REQUIRE(x.size() == static_cast<std::size_t>(P.in.elements()));
  auto out = guarded_output(P.out.elements());
  ref::softmax(ctnn::kernel::static_params<P>{}, x.data(), out.data());
  check_shared(P, {x.data()}, out);
  const int depth = P.in.last();
  const auto rows = static_cast<int>(P.in.elements() / depth);
  for (int r = 0; r < rows; ++r) {
    // Double reference, shifted by the row's maximum (softmax is shift-invariant; without the shift
    // exp(1000) overflows double too).
    double largest = -std::numeric_limits<double>::infinity(), sum = 0, got_sum = 0;
    for (int i = 0; i < depth; ++i) largest = std::max(largest, static_cast<double>(x[static_cast<std::size_t>(r * depth + i)]));
    for (int i = 0; i < depth; ++i) sum += std::exp(x[static_cast<std::size_t>(r * depth + i)] - largest);
    for (int i = 0; i < depth; ++i) {
      const auto at = static_cast<std::size_t>(r * depth + i);
      const double want = std::exp(x[at] - largest) / sum;
      CAPTURE(r);
      CAPTURE(i);
      CHECK(std::isfinite(out[at]));
      CHECK(close(out[at], want));
      got_sum += out[at];
    }
    CHECK(std::fabs(got_sum - 1.0) <= 1e-5);
  }
  check_guard(out, P.out.elements());
}

TEST_CASE("softmax: rows of a [2,5] tensor") {
  check_softmax<softmax_params(make_shape(2, 5))>(ctnn_test::random_floats(10, 401, -3.0f, 3.0f));
}
TEST_CASE("softmax: large positive inputs (1000..1010) stay finite") {
  check_softmax<softmax_params(make_shape(1, 1, 1, 10))>(ctnn_test::random_floats(10, 402, 1000.0f, 1010.0f));
}
TEST_CASE("softmax: large negative inputs (-1010..-1000) do not underflow to 0/0") {
  check_softmax<softmax_params(make_shape(3, 4))>(ctnn_test::random_floats(12, 403, -1010.0f, -1000.0f));
}
TEST_CASE("softmax: depth 1 is 1, equal inputs are uniform") {
  check_softmax<softmax_params(make_shape(4, 1))>({-5.0f, 0.0f, 7.0f, 1e4f});
  check_softmax<softmax_params(make_shape(1, 7))>(std::vector<float>(7, 3.5f));
  float one[4];
  const float x[4] = {-5.0f, 0.0f, 7.0f, 1e4f};
  const kernel_params depth_one = softmax_params(make_shape(4, 1));  // run-time parameters
  ref::softmax(&depth_one, x, one);
  for (float v : one) CHECK(v == 1.0f);
}
TEST_CASE("softmax: rank 4, 12 rows of 6") {
  check_softmax<softmax_params(make_shape(2, 2, 3, 6))>(ctnn_test::random_floats(72, 404, -20.0f, 20.0f));
}

// ---------------------------------------------------------------------------------------------------
// reshape: a copy (or nothing when in place).
TEST_CASE("reshape copies every element; in place it is a no-op") {
  constexpr kernel_params p = [] {
    kernel_params q{};
    q.kind = op_kind::reshape;
    q.in = make_shape(2, 3, 4);
    q.out = make_shape(6, 4);
    return q;
  }();
  const auto x = ctnn_test::random_floats(24, 501);
  auto out = guarded_output(24);
  ref::reshape(ctnn::kernel::static_params<p>{}, x.data(), out.data());
  for (std::size_t i = 0; i < 24; ++i) CHECK(out[i] == x[i]);
  check_guard(out, 24);
  auto in_place = x;
  ref::reshape(ctnn::kernel::static_params<p>{}, in_place.data(), in_place.data());
  CHECK(in_place == x);
}

// ---------------------------------------------------------------------------------------------------
// concat.
template <std::size_t N>
constexpr kernel_params concat_params(std::int32_t axis, const std::array<shape, N>& inputs) {
  kernel_params p{};
  p.kind = op_kind::concat;
  p.in = inputs[0];
  p.out = inputs[0];
  p.axis = axis;
  ctnn::concat_fields f{};
  f.count = static_cast<std::int32_t>(N);
  p.out.dims[static_cast<std::size_t>(axis)] = 0;
  for (std::size_t i = 0; i < N; ++i) {
    f.extents[i] = inputs[i][axis];
    p.out.dims[static_cast<std::size_t>(axis)] += inputs[i][axis];
  }
  p.set(f);
  return p;
}

template <kernel_params P>
void check_concat(std::uint32_t seed) {
  std::vector<std::vector<float>> inputs;
  std::vector<shape> shapes;
  std::vector<const float*> pointers;
  for (std::int32_t i = 0; i < P.concat().count; ++i) {
    shape s = P.out;
    s.dims[static_cast<std::size_t>(P.axis)] = P.concat().extents[static_cast<std::size_t>(i)];
    shapes.push_back(s);
    inputs.push_back(ctnn_test::random_floats(static_cast<std::size_t>(s.elements()), seed + static_cast<std::uint32_t>(i)));
  }
  for (const auto& v : inputs) pointers.push_back(v.data());
  auto out = guarded_output(P.out.elements());
  ref::concat(ctnn::kernel::static_params<P>{}, pointers.data(), out.data());
  check_shared(P, {pointers.begin(), pointers.end()}, out);
  int bad = 0;
  for (std::int64_t o = 0; o < P.out.elements(); ++o) {
    index at = unravel(o, P.out);
    // Which input holds this coordinate along the axis, and where in it.
    std::size_t which = 0;
    std::int32_t along = at[static_cast<std::size_t>(P.axis)];
    while (along >= shapes[which][P.axis]) along -= shapes[which++][P.axis];
    at[static_cast<std::size_t>(P.axis)] = along;
    const float want = inputs[which][static_cast<std::size_t>(ravel(at, shapes[which]))];
    if (out[static_cast<std::size_t>(o)] != want && ++bad <= 5) {
      CAPTURE(o);
      CHECK(out[static_cast<std::size_t>(o)] == want);
    }
  }
  CHECK(bad == 0);
  check_guard(out, P.out.elements());
}

constexpr auto concat_axis1 = concat_params<2>(1, {make_shape(1, 2, 3, 4), make_shape(1, 5, 3, 4)});
constexpr auto concat_axis2 = concat_params<3>(2, {make_shape(1, 2, 1, 4), make_shape(1, 2, 3, 4), make_shape(1, 2, 2, 4)});
constexpr auto concat_axis3 = concat_params<2>(3, {make_shape(2, 3, 2, 1), make_shape(2, 3, 2, 5)});
constexpr auto concat_axis0 = concat_params<2>(0, {make_shape(1, 3, 2), make_shape(2, 3, 2)});
constexpr auto concat_rank2 = concat_params<3>(1, {make_shape(3, 2), make_shape(3, 4), make_shape(3, 1)});
static_assert(concat_axis1.out == make_shape(1, 7, 3, 4) && concat_axis2.out == make_shape(1, 2, 6, 4));
static_assert(concat_axis3.out == make_shape(2, 3, 2, 6) && concat_axis0.out == make_shape(3, 3, 2) &&
              concat_rank2.out == make_shape(3, 7));

TEST_CASE("concat: axis 1") { check_concat<concat_axis1>(601); }
TEST_CASE("concat: axis 2, three inputs") { check_concat<concat_axis2>(602); }
TEST_CASE("concat: axis 3, batch 2") { check_concat<concat_axis3>(603); }
TEST_CASE("concat: axis 0") { check_concat<concat_axis0>(604); }
TEST_CASE("concat: rank 2, three inputs") { check_concat<concat_rank2>(605); }

// ---------------------------------------------------------------------------------------------------
// pad: every output coordinate either maps back into the input or holds pad_value.
template <std::size_t N>
constexpr kernel_params pad_params(shape in, const std::array<std::int32_t, N>& pads, float value,
                                   ctnn::pad_mode mode = ctnn::pad_mode::constant) {
  kernel_params p{};
  p.kind = op_kind::pad;
  p.pad.mode = mode;
  p.in = in;
  p.out = in;
  p.pad.fill_value_bits = std::bit_cast<std::uint32_t>(value);
  for (std::size_t i = 0; i < N; ++i) p.pad.before_after[i] = pads[i];
  for (std::int32_t d = 0; d < in.rank; ++d)
    p.out.dims[static_cast<std::size_t>(d)] += p.pad.before_after[static_cast<std::size_t>(2 * d)] + p.pad.before_after[static_cast<std::size_t>(2 * d + 1)];
  return p;
}

template <kernel_params P>
void check_pad(std::uint32_t seed) {
  const auto x = ctnn_test::random_floats(static_cast<std::size_t>(P.in.elements()), seed);
  auto out = guarded_output(P.out.elements());
  ref::pad(ctnn::kernel::static_params<P>{}, x.data(), out.data());
  check_shared(P, {x.data()}, out);
  int bad = 0, copied = 0;
  for (std::int64_t o = 0; o < P.out.elements(); ++o) {
    index at = unravel(o, P.out);
    bool inside = true;
    for (std::int32_t d = 0; d < P.in.rank; ++d) {
      auto& coordinate = at[static_cast<std::size_t>(d)];
      coordinate -= P.pad.before_after[static_cast<std::size_t>(2 * d)];
      inside = inside && coordinate >= 0 && coordinate < P.in[d];
      const std::int64_t last = P.in[d] - 1;
      if (P.pad.mode == ctnn::pad_mode::edge) coordinate = std::clamp<std::int64_t>(coordinate, 0, last);
      if (P.pad.mode == ctnn::pad_mode::reflect && last == 0) coordinate = 0;  // nothing to mirror
      if (P.pad.mode == ctnn::pad_mode::reflect && last > 0) {  // numpy's reflect: period 2 * last, mirrored in its second half
        const std::int64_t period = 2 * last, phase = ((coordinate % period) + period) % period;
        coordinate = phase <= last ? phase : period - phase;
      }
    }
    const bool reads_input = inside || P.pad.mode != ctnn::pad_mode::constant;
    const float want = reads_input ? x[static_cast<std::size_t>(ravel(at, P.in))] : P.pad.fill_value();
    copied += inside ? 1 : 0;
    if (out[static_cast<std::size_t>(o)] != want && ++bad <= 5) {
      CAPTURE(o);
      CHECK(out[static_cast<std::size_t>(o)] == want);
    }
  }
  CHECK(bad == 0);
  CHECK(copied == P.in.elements());
  check_guard(out, P.out.elements());
}

constexpr auto pad_hw = pad_params<8>(make_shape(1, 4, 4, 3), {0, 0, 1, 2, 3, 0, 0, 1}, 0.0f);
constexpr auto pad_every_dim = pad_params<8>(make_shape(2, 3, 2, 3), {1, 1, 2, 2, 1, 2, 3, 2}, -2.5f);
constexpr auto pad_rank1 = pad_params<2>(make_shape(5), {2, 3}, 1.5f);
constexpr auto pad_rank2 = pad_params<4>(make_shape(3, 4), {0, 1, 2, 0}, 0.0f);
constexpr auto pad_not_last = pad_params<6>(make_shape(2, 1, 3), {1, 1, 2, 0, 0, 0}, 7.0f);
constexpr auto pad_last_only = pad_params<4>(make_shape(2, 3), {0, 0, 1, 1}, -1.0f);
constexpr auto pad_rank6 = pad_params<12>(make_shape(1, 2, 1, 2, 1, 2), {1, 0, 0, 1, 1, 1, 0, 0, 2, 0, 0, 1}, 0.25f);
static_assert(pad_hw.out == make_shape(1, 7, 7, 4) && pad_every_dim.out == make_shape(4, 7, 5, 8));
static_assert(pad_rank1.out == make_shape(10) && pad_rank6.out == make_shape(2, 3, 3, 2, 3, 3));

TEST_CASE("pad: H and W and C, zero") { check_pad<pad_hw>(701); }
TEST_CASE("pad: every dimension, value -2.5") { check_pad<pad_every_dim>(702); }
TEST_CASE("pad: rank 1") { check_pad<pad_rank1>(703); }
TEST_CASE("pad: rank 2") { check_pad<pad_rank2>(704); }
TEST_CASE("pad: outer dims only") { check_pad<pad_not_last>(705); }
TEST_CASE("pad: last dim only") { check_pad<pad_last_only>(706); }
TEST_CASE("pad: rank 6") { check_pad<pad_rank6>(707); }

// Modes reflect and edge (ONNX Pad): the value 9 is ignored.
constexpr auto reflect_hw = pad_params<8>(make_shape(1, 4, 5, 2), {0, 0, 3, 1, 2, 4, 0, 0}, 9.0f, ctnn::pad_mode::reflect);
constexpr auto reflect_every_dim = pad_params<6>(make_shape(3, 2, 4), {2, 1, 1, 1, 3, 2}, 9.0f, ctnn::pad_mode::reflect);
constexpr auto edge_hw = pad_params<8>(make_shape(1, 3, 4, 2), {0, 0, 2, 3, 4, 1, 0, 1}, 9.0f, ctnn::pad_mode::edge);
constexpr auto edge_extent_one = pad_params<4>(make_shape(1, 3), {2, 1, 0, 2}, 9.0f, ctnn::pad_mode::edge);
TEST_CASE("pad: reflect in H and W") { check_pad<reflect_hw>(708); }
TEST_CASE("pad: reflect in every dimension") { check_pad<reflect_every_dim>(709); }
TEST_CASE("pad: edge, more pads than the extent") { check_pad<edge_hw>(710); }
TEST_CASE("pad: edge of an extent-1 dimension") { check_pad<edge_extent_one>(711); }
// Pads many times the extent (beyond ONNX's rule; a model file may say so): the mirror keeps its period.
constexpr auto reflect_far = pad_params<6>(make_shape(2, 3, 2), {0, 1, 11, 7, 5, 9}, 9.0f, ctnn::pad_mode::reflect);
TEST_CASE("pad: reflect, pads several times the extent") { check_pad<reflect_far>(712); }
TEST_CASE("pad: reflect of a row, by hand") {
  // [1 2 3] padded by 2 and 1: [3 2 1 2 3 2].
  constexpr auto p = pad_params<2>(make_shape(3), {2, 1}, 0.0f, ctnn::pad_mode::reflect);
  const std::array<float, 3> x{1.0f, 2.0f, 3.0f};
  std::array<float, 6> out{};
  ref::pad(ctnn::kernel::static_params<p>{}, x.data(), out.data());
  CHECK(out == std::array<float, 6>{3.0f, 2.0f, 1.0f, 2.0f, 3.0f, 2.0f});
}

// clip: the float32 kernel clamps to [min, max] (either may be infinite); the int8 kernel clamps the raw
// values to [activation_min, activation_max].
template <kernel_params P>
void check_clip(std::uint32_t seed) {
  const auto x = ctnn_test::random_floats(static_cast<std::size_t>(P.in.elements()), seed, -8.0f, 8.0f);
  auto out = guarded_output(P.out.elements());
  ref::clip(ctnn::kernel::static_params<P>{}, x.data(), out.data());
  check_shared(P, {x.data()}, out);
  for (std::size_t i = 0; i < x.size(); ++i) {
    CAPTURE(x[i]);
    CHECK(out[i] == std::min(std::max(x[i], P.clip.min()), P.clip.max()));
  }
  check_guard(out, P.out.elements());
}
constexpr kernel_params clip_params(shape s, float low, float high) {
  kernel_params p{};
  p.kind = op_kind::clip;
  p.in = p.out = s;
  p.clip.min_bits = std::bit_cast<std::uint32_t>(low);
  p.clip.max_bits = std::bit_cast<std::uint32_t>(high);
  return p;
}
constexpr auto clip_both = clip_params(make_shape(2, 3, 7), -1.5f, 2.25f);
constexpr auto clip_min_only = clip_params(make_shape(40), 0.5f, std::numeric_limits<float>::infinity());
constexpr auto clip_max_only = clip_params(make_shape(5, 9), -std::numeric_limits<float>::infinity(), -3.0f);
TEST_CASE("clip: both bounds") { check_clip<clip_both>(801); }
TEST_CASE("clip: lower bound only") { check_clip<clip_min_only>(802); }
TEST_CASE("clip: upper bound only") { check_clip<clip_max_only>(803); }
TEST_CASE("clip: int8 clamps the raw values") {
  kernel_params p = clip_params(make_shape(6), 0.0f, 0.0f);
  p.type = ctnn::dtype::i8;
  p.activation_min = -5;
  p.activation_max = 100;
  const std::array<std::int8_t, 6> x{-128, -6, -5, 0, 100, 127};
  std::array<std::int8_t, 6> out{};
  ctnn::kernel::reference::int8::clamp(&p, x.data(), out.data());
  CHECK(out == std::array<std::int8_t, 6>{-5, -5, -5, 0, 100, 100});
}

}  // namespace
