// Unit tests of the kernels behind ONNX's plain integer ops and MatMul of two activations (issue #5):
// integer add/mul (wrap-around, numpy broadcasting), max pooling of uint8/int8, pad of int32/int64 (modes
// constant, reflect, edge) and the float32 batch_matmul (batch dims broadcast). Shapes and values are
// random (seeded); each kernel runs with run-time parameters (`const kernel_params*`, as ctnn-run and the
// shared policy) and is compared with a naive implementation written here: explicit multi-indices instead
// of the kernels' strided walks, wrap-around by reduction modulo 2^bits of the exact int64 result, padding
// through a per-dim index table, matmul with double accumulation. The last cases go through
// kernel::invoke_dynamic, as lowered ONNX calls do (requantization == onnx), to check the routing.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/dynamic.hpp>
#include <ctnn/kernel/reference/data_movement.hpp>
#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/kernel/reference/matmul.hpp>
#include <ctnn/kernel/reference/pool.hpp>
#include <ctnn/ops/registry.hpp>

namespace {

using ctnn::dtype;
using ctnn::kernel_params;
using ctnn::make_shape;
using ctnn::op_kind;
using ctnn::shape;
namespace ref = ctnn::kernel::reference;

// A random shape of `rank` dims in [1, most].
shape random_shape(std::mt19937& rng, std::int32_t rank, std::int32_t most) {
  shape s{};
  s.rank = rank;
  for (std::int32_t d = 0; d < rank; ++d) s.dims[static_cast<std::size_t>(d)] = std::uniform_int_distribution<std::int32_t>(1, most)(rng);
  return s;
}

// `full` with some dims set to 1 and some leading dims dropped: an operand that broadcasts to `full`.
shape broadcastable(std::mt19937& rng, const shape& full) {
  const std::int32_t dropped = std::uniform_int_distribution<std::int32_t>(0, full.rank - 1)(rng);
  shape s{};
  s.rank = full.rank - dropped;
  for (std::int32_t d = 0; d < s.rank; ++d)
    s.dims[static_cast<std::size_t>(d)] = std::bernoulli_distribution(0.3)(rng) ? 1 : full[d + dropped];
  return s;
}

template <class T>
std::vector<T> random_values(std::mt19937& rng, std::int64_t n) {
  using wide = std::conditional_t<sizeof(T) == 1, std::int32_t, T>;  // uniform_int_distribution needs int or wider
  std::uniform_int_distribution<wide> pick(std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max());
  std::vector<T> v(static_cast<std::size_t>(n));
  for (T& x : v) x = static_cast<T>(pick(rng));
  return v;
}

// The multi-index of flat element i of shape s, and the flat offset of that index in an operand that
// broadcasts to s (right-aligned; extent-1 dims read index 0).
std::array<std::int32_t, ctnn::max_rank> index_of(std::int64_t i, const shape& s) {
  std::array<std::int32_t, ctnn::max_rank> index{};
  for (std::int32_t d = s.rank - 1; d >= 0; --d) {
    index[static_cast<std::size_t>(d)] = static_cast<std::int32_t>(i % s[d]);
    i /= s[d];
  }
  return index;
}
std::int64_t broadcast_offset(const std::array<std::int32_t, ctnn::max_rank>& index, const shape& out, const shape& operand) {
  std::int64_t at = 0;
  for (std::int32_t d = 0; d < operand.rank; ++d) {
    const std::int32_t extent = operand[d];
    at = at * extent + (extent == 1 ? 0 : index[static_cast<std::size_t>(d + out.rank - operand.rank)]);
  }
  return at;
}

// The exact result reduced modulo 2^bits into T's range (two's complement wrap-around, ONNX's semantics).
template <class T>
T wrapped(std::int64_t exact) {
  constexpr std::int64_t modulus = std::int64_t{1} << (8 * sizeof(T));
  std::int64_t r = ((exact % modulus) + modulus) % modulus;
  if (std::is_signed_v<T> && r > static_cast<std::int64_t>(std::numeric_limits<T>::max())) r -= modulus;
  return static_cast<T>(r);
}

// The kernel of ONNX's plain integer binary op `Kind` (its descriptor's evaluation of two integers).
template <op_kind Kind, class T>
void run_integer_binary(const kernel_params& p, const T* a, const T* b, T* result) {
  ref::integer_binary<ctnn::ops::descriptor_of<Kind>::on_known_integers.apply>(&p, a, b, result);
}

template <class T, op_kind Kind>
void check_integer_binary(std::uint32_t seed) {
  std::mt19937 rng{seed};
  for (int round = 0; round < 40; ++round) {
    kernel_params p{};
    p.kind = Kind;
    p.out = random_shape(rng, std::uniform_int_distribution<std::int32_t>(1, 4)(rng), 5);
    p.in = round % 3 == 0 ? p.out : broadcastable(rng, p.out);
    p.in2 = round % 3 == 1 ? p.out : broadcastable(rng, p.out);
    const auto a = random_values<T>(rng, p.in.elements());
    const auto b = random_values<T>(rng, p.in2.elements());
    std::vector<T> got(static_cast<std::size_t>(p.out.elements()));
    run_integer_binary<Kind>(p, a.data(), b.data(), got.data());
    for (std::int64_t i = 0; i < p.out.elements(); ++i) {
      const auto index = index_of(i, p.out);
      const auto x = static_cast<std::int64_t>(a[static_cast<std::size_t>(broadcast_offset(index, p.out, p.in))]);
      const auto y = static_cast<std::int64_t>(b[static_cast<std::size_t>(broadcast_offset(index, p.out, p.in2))]);
      CAPTURE(round);
      CAPTURE(i);
      const std::int64_t exact = Kind == op_kind::mul     ? x * y
                                 : Kind == op_kind::sub     ? x - y
                                 : Kind == op_kind::maximum ? (x > y ? x : y)
                                 : Kind == op_kind::minimum ? (x < y ? x : y)
                                                            : x + y;
      REQUIRE(got[static_cast<std::size_t>(i)] == wrapped<T>(exact));
    }
  }
}

TEST_CASE("integer add wraps around (uint8, int8, int32), with broadcasting") {
  check_integer_binary<std::uint8_t, op_kind::add>(11);
  check_integer_binary<std::int8_t, op_kind::add>(12);
  check_integer_binary<std::int32_t, op_kind::add>(13);
}

TEST_CASE("integer sub wraps around, max and min pick (uint8, int8, int32), with broadcasting") {
  check_integer_binary<std::uint8_t, op_kind::sub>(31);
  check_integer_binary<std::int8_t, op_kind::sub>(32);
  check_integer_binary<std::int32_t, op_kind::sub>(33);
  check_integer_binary<std::uint8_t, op_kind::maximum>(41);
  check_integer_binary<std::int8_t, op_kind::maximum>(42);
  check_integer_binary<std::int32_t, op_kind::minimum>(43);
  check_integer_binary<std::uint8_t, op_kind::minimum>(44);
}

TEST_CASE("integer mul wraps around (uint8, int8, int32: products exact in int64), with broadcasting") {
  check_integer_binary<std::uint8_t, op_kind::mul>(21);
  check_integer_binary<std::int8_t, op_kind::mul>(22);
  check_integer_binary<std::int32_t, op_kind::mul>(23);
}

TEST_CASE("int64 add and mul wrap around at the type's ends") {
  constexpr std::int64_t most = std::numeric_limits<std::int64_t>::max(), least = std::numeric_limits<std::int64_t>::min();
  kernel_params p{};
  p.in = p.in2 = p.out = make_shape(4);
  const std::array<std::int64_t, 4> a{most, least, -7, 1LL << 62};
  const std::array<std::int64_t, 4> b{1, -1, 6, 4};
  std::array<std::int64_t, 4> got{};
  p.kind = op_kind::add;
  run_integer_binary<op_kind::add>(p, a.data(), b.data(), got.data());
  CHECK(got == std::array<std::int64_t, 4>{least, most, -1, (1LL << 62) + 4});
  p.kind = op_kind::mul;
  run_integer_binary<op_kind::mul>(p, a.data(), b.data(), got.data());
  CHECK(got == std::array<std::int64_t, 4>{most, least, -42, 0});  // 2^62 * 4 = 2^64 wraps to 0
}

template <class T>
void check_max_pool(std::uint32_t seed) {
  std::mt19937 rng{seed};
  const auto pick = [&](std::int32_t low, std::int32_t high) { return std::uniform_int_distribution<std::int32_t>(low, high)(rng); };
  for (int round = 0; round < 30; ++round) {
    kernel_params p{};
    p.kind = op_kind::max_pool;
    p.in = make_shape(pick(1, 2), pick(1, 7), pick(1, 7), pick(1, 3));
    ctnn::window& w = p.win;
    w.kernel_h = pick(1, 3), w.kernel_w = pick(1, 3), w.stride_h = pick(1, 2), w.stride_w = pick(1, 2);
    w.dilation_h = pick(1, 2), w.dilation_w = pick(1, 2);
    // Pads below the window's span, so that every window has an input tap (infer_types refuses others).
    w.pad_top = pick(0, w.kernel_h - 1), w.pad_bottom = pick(0, w.kernel_h - 1);
    w.pad_left = pick(0, w.kernel_w - 1), w.pad_right = pick(0, w.kernel_w - 1);
    const auto extent = [](std::int32_t in, std::int32_t k, std::int32_t s, std::int32_t d, std::int32_t before, std::int32_t after) {
      return (in + before + after - ((k - 1) * d + 1)) / s + 1;
    };
    const std::int32_t oh = extent(p.in[1], w.kernel_h, w.stride_h, w.dilation_h, w.pad_top, w.pad_bottom);
    const std::int32_t ow = extent(p.in[2], w.kernel_w, w.stride_w, w.dilation_w, w.pad_left, w.pad_right);
    if (oh < 1 || ow < 1) continue;
    p.out = make_shape(p.in[0], oh, ow, p.in[3]);
    const auto x = random_values<T>(rng, p.in.elements());
    std::vector<T> got(static_cast<std::size_t>(p.out.elements()));
    ref::pool2d<true>(&p, x.data(), got.data());
    for (std::int32_t n = 0; n < p.out[0]; ++n)
      for (std::int32_t oy = 0; oy < oh; ++oy)
        for (std::int32_t ox = 0; ox < ow; ++ox)
          for (std::int32_t c = 0; c < p.out[3]; ++c) {
            std::int32_t best = std::numeric_limits<std::int32_t>::min();
            for (std::int32_t ky = 0; ky < w.kernel_h; ++ky)
              for (std::int32_t kx = 0; kx < w.kernel_w; ++kx) {
                const std::int32_t iy = oy * w.stride_h - w.pad_top + ky * w.dilation_h;
                const std::int32_t ix = ox * w.stride_w - w.pad_left + kx * w.dilation_w;
                if (iy >= 0 && iy < p.in[1] && ix >= 0 && ix < p.in[2])
                  best = std::max(best, static_cast<std::int32_t>(x[static_cast<std::size_t>(((n * p.in[1] + iy) * p.in[2] + ix) * p.in[3] + c)]));
              }
            if (best == std::numeric_limits<std::int32_t>::min()) continue;  // a window of padding only
            CAPTURE(round);
            REQUIRE(static_cast<std::int32_t>(got[static_cast<std::size_t>(((n * oh + oy) * ow + ox) * p.out[3] + c)]) == best);
          }
  }
}

TEST_CASE("max_pool of uint8 and int8: the largest in-bounds element, padding ignored") {
  check_max_pool<std::uint8_t>(31);
  check_max_pool<std::int8_t>(32);
}

// The input coordinate that output coordinate `o` of a dim padded by `before` reads (numpy's modes).
std::int32_t source_coordinate(ctnn::pad_mode mode, std::int32_t o, std::int32_t before, std::int32_t extent) {
  const std::int32_t c = o - before;
  if (c >= 0 && c < extent) return c;
  if (mode == ctnn::pad_mode::constant) return -1;
  if (mode == ctnn::pad_mode::edge || extent == 1) return c < 0 ? 0 : extent - 1;
  return c < 0 ? -c : 2 * (extent - 1) - c;  // reflect: pads below the extent (ONNX's rule)
}

template <class T>
void check_pad(ctnn::pad_mode mode, std::uint32_t seed) {
  std::mt19937 rng{seed};
  for (int round = 0; round < 30; ++round) {
    kernel_params p{};
    p.kind = op_kind::pad;
    p.pad.mode = mode;
    p.in = random_shape(rng, std::uniform_int_distribution<std::int32_t>(1, 4)(rng), 5);
    p.out = p.in;
    for (std::int32_t d = 0; d < p.in.rank; ++d) {
      const std::int32_t most = mode == ctnn::pad_mode::reflect ? p.in[d] - 1 : 3;
      for (const std::int32_t side : {0, 1}) {
        const std::int32_t pad = std::uniform_int_distribution<std::int32_t>(0, most)(rng);
        p.pad.before_after[static_cast<std::size_t>(2 * d + side)] = pad;
        p.out.dims[static_cast<std::size_t>(d)] += pad;
      }
    }
    const float fill = static_cast<float>(std::uniform_int_distribution<std::int32_t>(-1000, 1000)(rng));
    p.pad.fill_value_bits = std::bit_cast<std::uint32_t>(fill);
    const auto x = random_values<T>(rng, p.in.elements());
    std::vector<T> got(static_cast<std::size_t>(p.out.elements()));
    ref::pad(&p, x.data(), got.data());
    for (std::int64_t i = 0; i < p.out.elements(); ++i) {
      const auto index = index_of(i, p.out);
      std::int64_t from = 0;
      bool inside = true;
      for (std::int32_t d = 0; d < p.in.rank; ++d) {
        const std::int32_t c = source_coordinate(mode, index[static_cast<std::size_t>(d)], p.pad.before_after[static_cast<std::size_t>(2 * d)], p.in[d]);
        inside = inside && c >= 0;
        from = from * p.in[d] + c;
      }
      CAPTURE(round);
      CAPTURE(i);
      REQUIRE(got[static_cast<std::size_t>(i)] == (inside ? x[static_cast<std::size_t>(from)] : static_cast<T>(fill)));
    }
  }
}

TEST_CASE("pad of int32 and int64: constant, reflect and edge") {
  for (const auto mode : {ctnn::pad_mode::constant, ctnn::pad_mode::reflect, ctnn::pad_mode::edge}) {
    check_pad<std::int32_t>(mode, 41 + static_cast<std::uint32_t>(mode));
    check_pad<std::int64_t>(mode, 51 + static_cast<std::uint32_t>(mode));
  }
}

TEST_CASE("batch_matmul: float32, batch dims broadcast") {
  std::mt19937 rng{61};
  const auto pick = [&](std::int32_t low, std::int32_t high) { return std::uniform_int_distribution<std::int32_t>(low, high)(rng); };
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  for (int round = 0; round < 40; ++round) {
    const std::int32_t m = pick(1, 5), k = pick(1, 6), n = pick(1, 5);
    const shape batch = random_shape(rng, pick(0, 3), 3);
    const shape batch_a = broadcastable(rng, batch.rank > 0 ? batch : make_shape(1));
    const shape batch_b = broadcastable(rng, batch.rank > 0 ? batch : make_shape(1));
    const auto matrix = [](shape s, std::int32_t rows, std::int32_t columns) {
      s.dims[static_cast<std::size_t>(s.rank)] = rows;
      s.dims[static_cast<std::size_t>(s.rank + 1)] = columns;
      s.rank += 2;
      return s;
    };
    kernel_params p{};
    p.kind = op_kind::batch_matmul;
    p.in = matrix(batch_a, m, k);
    p.in2 = matrix(batch_b, k, n);
    shape out_batch{};
    out_batch.rank = std::max(batch_a.rank, batch_b.rank);
    for (std::int32_t d = 0; d < out_batch.rank; ++d) {
      const std::int32_t da = d - out_batch.rank + batch_a.rank, db = d - out_batch.rank + batch_b.rank;
      out_batch.dims[static_cast<std::size_t>(d)] = std::max(da >= 0 ? batch_a[da] : 1, db >= 0 ? batch_b[db] : 1);
    }
    p.out = matrix(out_batch, m, n);
    std::vector<float> a(static_cast<std::size_t>(p.in.elements())), b(static_cast<std::size_t>(p.in2.elements()));
    for (float& v : a) v = value(rng);
    for (float& v : b) v = value(rng);
    std::vector<float> got(static_cast<std::size_t>(p.out.elements()));
    ref::batch_matmul(&p, a.data(), b.data(), got.data());
    for (std::int64_t e = 0; e < out_batch.elements(); ++e) {
      const auto index = index_of(e, out_batch);
      const std::int64_t at_a = broadcast_offset(index, out_batch, batch_a) * m * k;
      const std::int64_t at_b = broadcast_offset(index, out_batch, batch_b) * k * n;
      for (std::int32_t i = 0; i < m; ++i)
        for (std::int32_t j = 0; j < n; ++j) {
          double want = 0.0;
          for (std::int32_t t = 0; t < k; ++t)
            want += static_cast<double>(a[static_cast<std::size_t>(at_a + i * k + t)]) * b[static_cast<std::size_t>(at_b + t * n + j)];
          CAPTURE(round);
          REQUIRE(std::fabs(got[static_cast<std::size_t>((e * m + i) * n + j)] - want) <= 1e-5 * k);
        }
    }
  }
}

TEST_CASE("invoke_dynamic runs plain integer calls of ONNX models (requantization onnx) and float batch_matmul") {
  kernel_params p{};
  p.requantization = ctnn::requantization_policy::onnx;
  p.kind = op_kind::add;
  p.type = p.out_type = dtype::u8;
  p.in = make_shape(2, 2);
  p.in2 = make_shape(2);
  p.out = make_shape(2, 2);
  REQUIRE(ctnn::kernel::kernel_params_problem(p) == ctnn::kernel::params_problem::none);
  const std::array<std::uint8_t, 4> a{250, 1, 2, 3};
  const std::array<std::uint8_t, 2> b{10, 255};
  std::array<std::uint8_t, 4> sum{};
  const std::array<const void*, 2> operands{a.data(), b.data()};
  REQUIRE(ctnn::kernel::invoke_dynamic(p, operands, sum.data()));
  CHECK(sum == std::array<std::uint8_t, 4>{4, 0, 12, 2});
  // One operand is too few for an add; an int32 max_pool has no kernel.
  CHECK_FALSE(ctnn::kernel::invoke_dynamic(p, std::span<const void* const>{operands.data(), 1}, sum.data()));
  p.kind = op_kind::max_pool;
  p.type = p.out_type = dtype::i32;
  CHECK(ctnn::kernel::kernel_params_problem(p) == ctnn::kernel::params_problem::no_kernel);

  kernel_params q{};
  q.kind = op_kind::batch_matmul;
  q.in = make_shape(1, 2);
  q.in2 = make_shape(2, 1);
  q.out = make_shape(1, 1);
  const std::array<float, 2> x{2.0f, 3.0f}, y{4.0f, 5.0f};
  std::array<float, 1> product{};
  const std::array<const void*, 2> factors{x.data(), y.data()};
  REQUIRE(ctnn::kernel::invoke_dynamic(q, factors, product.data()));
  CHECK(product[0] == 23.0f);
  q.type = dtype::i32;  // no int32 batch_matmul (int8 and int16: TFLite BATCH_MATMUL's recipe)
  CHECK(ctnn::kernel::kernel_params_problem(q) == ctnn::kernel::params_problem::no_kernel);
}

}  // namespace
