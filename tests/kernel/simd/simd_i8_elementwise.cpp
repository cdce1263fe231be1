// The vectorised int8 output stage, ADD, average pooling and softmax (kernel/simd/i8) against the reference,
// bit-exact: the requantization lane by lane on edge values (all shifts, INT32_MIN/MAX, rounding ties),
// ADD with TFLite's two-input rescale on random shapes and scales, average pooling with padding at every
// edge (in-bounds counts that vary), stride 2 and fused clamps, a global average pool, and softmax rows of
// any depth with fine and coarse input scales (differences below diff_min).
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "kernel/simd/simd_i8_support.hpp"

namespace {

using namespace simd_i8_test;
namespace q = ctnn::detail::quant;

// ---------------------------------------------------------------------------------------------------
// The output stage lane by lane against detail::quant::multiply_by_quantized_multiplier.

template <class I, class Scale>
int requantization_mismatches() {
  namespace d = ctnn::kernel::simd::i8_detail;
  std::mt19937 rng(3);
  std::uniform_int_distribution<std::int32_t> any(std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max());
  std::uniform_int_distribution<std::int32_t> multipliers(1 << 30, std::numeric_limits<std::int32_t>::max());
  const std::int32_t edges[] = {0, 1, -1, 2, -2, 3, -3, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max(),
                                1 << 20, -(1 << 20), (1 << 20) + (1 << 19), -((1 << 20) + (1 << 19))};
  int mismatches = 0;
  for (std::int32_t shift = -31; shift <= 8; ++shift)
    for (int round = 0; round < 64; ++round) {
      std::int32_t x[I::lanes], m[I::lanes], s[I::lanes];
      for (int l = 0; l < I::lanes; ++l) {
        x[l] = round < 2 ? edges[(round * I::lanes + l) % std::size(edges)] : any(rng);
        m[l] = round % 3 == 0 ? (1 << 30) : multipliers(rng);
        s[l] = l % 2 == 0 ? shift : shift - l % 5;  // lanes with different shifts
        if (s[l] < -31) s[l] = -31;
      }
      const auto scale = Scale::of(I::load(m), I::load(s));
      const typename I::vec result = d::multiply_by_quantized_multiplier<I>(I::load(x), scale);
      std::int32_t got[I::lanes];
      std::memcpy(got, &result, sizeof got);
      for (int l = 0; l < I::lanes; ++l) mismatches += got[l] != q::multiply_by_quantized_multiplier(x[l], m[l], s[l]);
    }
  return mismatches;
}

TEST_CASE("int8 SIMD requantization equals MultiplyByQuantizedMultiplier lane by lane") {
  namespace d = ctnn::kernel::simd::i8_detail;
  using isa = d::isa;
  if constexpr (isa::available) {
    CHECK(requantization_mismatches<isa, d::output_scale<isa>>() == 0);
    // The single rounding (AVX-512), where the level has it.
    if constexpr (d::has_single_rounding<isa>) CHECK(requantization_mismatches<isa, d::single_rounding_scale<isa>>() == 0);
    else MESSAGE("no single-rounding output stage at this level");
  } else {
    MESSAGE("no SIMD level in this build: nothing vectorised to check");
  }
}

// ---------------------------------------------------------------------------------------------------
// ADD.

template <std::uint32_t Seed>
constexpr kernel_params add_case() {
  int8_test::xorshift rng{Seed * 2654435761u + 5u};
  kernel_params p = int8_op(op_kind::add);
  const std::int32_t h = rng.uniform(1, 9), w = rng.uniform(1, 9), c = rng.uniform(1, 40);
  p.in = p.in2 = p.out = Seed % 2 == 0 ? ctnn::make_shape(1, h, w, c) : ctnn::make_shape(h * w, c);
  const float s1 = rng.uniform_float(0.01f, 0.2f), s2 = rng.uniform_float(0.01f, 0.2f), so = rng.uniform_float(0.01f, 0.3f);
  const double twice_max = 2.0 * static_cast<double>(s1 > s2 ? s1 : s2);
  // TFLite's 20, the kernel's split-multiply bounds (15, 22) and a shift outside them (12).
  constexpr std::int32_t left_shifts[] = {20, 15, 22, 12};
  p.left_shift = left_shifts[Seed % 4];
  const auto m1 = q::quantize_multiplier(static_cast<double>(s1) / twice_max);
  const auto m2 = q::quantize_multiplier(static_cast<double>(s2) / twice_max);
  const auto mo = q::quantize_multiplier(twice_max / ((1 << p.left_shift) * static_cast<double>(so)));
  p.input_multiplier = m1.multiplier, p.input_shift = m1.shift;
  p.input2_multiplier = m2.multiplier, p.input2_shift = m2.shift;
  p.output_multiplier = mo.multiplier, p.output_shift = mo.shift;
  p.input_offset = rng.uniform(-127, 128);
  p.input2_offset = rng.uniform(-127, 128);
  p.output_offset = rng.uniform(-128, 127);
  set_activation(p, rng.uniform(0, 2), rng);
  return p;
}

template <kernel_params P>
void check_add(tally& t, std::mt19937& rng) {
  const auto a = int8_test::random_int8(static_cast<std::size_t>(P.in.elements()), rng);
  const auto b = int8_test::random_int8(static_cast<std::size_t>(P.in2.elements()), rng);
  const comparison c = compare_with_reference<P, 2>(a, b, {}, {});
  CHECK_MESSAGE(c.equal, "elements " << P.out.elements());
  t.add(c, ctnn::kernel::simd::i8_kernel<P>::supports);
}

TEST_CASE("int8 add: the SIMD kernel equals the reference (TFLite's two-input rescale, several left shifts)") {
  const tally t = check_seeds<20>(8, [](auto seed, tally& counts, std::mt19937& rng) {
    check_add<add_case<seed()>()>(counts, rng);
  });
  CHECK(t.equal == t.cases);
  CHECK(t.varied >= t.cases * 3 / 4);  // single elements and narrow relu6 ranges can be constant
  CHECK(t.vectorised_cases == (vectorised ? t.cases : 0));
}

// ---------------------------------------------------------------------------------------------------
// Average pooling.

template <std::uint32_t Seed>
constexpr kernel_params pool_case() {
  int8_test::xorshift rng{Seed * 40503u + 11u};
  kernel_params p = int8_op(Seed % 8 == 0 ? op_kind::global_avg_pool : op_kind::avg_pool);
  const std::int32_t n = rng.uniform(1, 2), h = rng.uniform(1, 12), w = rng.uniform(1, 12), c = rng.uniform(1, 50);
  auto& win = p.win;
  win.kernel_h = rng.uniform(1, h < 5 ? h : 5);
  win.kernel_w = rng.uniform(1, w < 5 ? w : 5);
  win.stride_h = rng.uniform(1, 2);
  win.stride_w = rng.uniform(1, 2);
  win.pad_top = rng.uniform(0, win.kernel_h - 1);
  win.pad_bottom = rng.uniform(0, win.kernel_h - 1);
  win.pad_left = rng.uniform(0, win.kernel_w - 1);
  win.pad_right = rng.uniform(0, win.kernel_w - 1);
  p.in = ctnn::make_shape(n, h, w, c);
  if (p.kind == op_kind::global_avg_pool) {
    win = {};
    p.out = ctnn::make_shape(n, 1, 1, c);
  } else {
    p.out = ctnn::make_shape(n, (h + win.pad_top + win.pad_bottom - win.kernel_h) / win.stride_h + 1,
                             (w + win.pad_left + win.pad_right - win.kernel_w) / win.stride_w + 1, c);
  }
  p.output_offset = rng.uniform(-128, 127);
  set_activation(p, rng.uniform(0, 2), rng);
  return p;
}

template <kernel_params P>
void check_pool(tally& t, std::mt19937& rng) {
  const auto input = int8_test::random_int8(static_cast<std::size_t>(P.in.elements()), rng);
  const comparison c = compare_with_reference<P, 1>(input, {}, {}, {});
  CHECK_MESSAGE(c.equal, "in " << P.in[0] << "x" << P.in[1] << "x" << P.in[2] << "x" << P.in[3] << " kernel " << P.win.kernel_h
                               << "x" << P.win.kernel_w << " stride " << P.win.stride_h << "x" << P.win.stride_w << " pads "
                               << P.win.pad_top << "," << P.win.pad_left << "," << P.win.pad_bottom << "," << P.win.pad_right);
  t.add(c, ctnn::kernel::simd::i8_kernel<P>::supports);
}

TEST_CASE("int8 average pooling: the SIMD kernel equals the reference (rounded division by in-bounds counts)") {
  const tally t = check_seeds<32>(21, [](auto seed, tally& counts, std::mt19937& rng) {
    check_pool<pool_case<seed()>()>(counts, rng);
  });
  CHECK(t.equal == t.cases);
  CHECK(t.varied >= t.cases * 3 / 4);
  CHECK(t.vectorised_cases == (vectorised ? t.cases : 0));
}

// ---------------------------------------------------------------------------------------------------
// Softmax (exponentials from a compile-time table).

template <std::uint32_t Seed>
constexpr kernel_params softmax_case() {
  int8_test::xorshift rng{Seed * 2246822519u + 3u};
  kernel_params p = int8_op(op_kind::softmax);
  const std::int32_t rows = rng.uniform(1, 5), depth = rng.uniform(1, 40);
  p.in = p.out = Seed % 2 == 0 ? ctnn::make_shape(rows, depth) : ctnn::make_shape(1, rows, 1, depth);
  // Input scales from fine to coarse: with the coarse ones the smallest differences fall below diff_min.
  const double scale = Seed % 4 == 0 ? rng.uniform_float(0.2f, 1.0f) : rng.uniform_float(0.005f, 0.2f);
  const auto m = q::softmax_input_multiplier(1.0, scale, 5);  // as lower_te: beta 1, 5 integer bits
  p.input_multiplier = m.multiplier, p.input_shift = m.shift;
  p.input_offset = rng.uniform(-127, 128);
  p.output_offset = -128;
  p.activation_min = -128, p.activation_max = 127;
  return p;
}

template <kernel_params P>
void check_softmax(tally& t, std::mt19937& rng) {
  auto input = int8_test::random_int8(static_cast<std::size_t>(P.in.elements()), rng);
  if (rng() % 2 == 0)  // a dominant value per row, the others far below it
    for (std::size_t i = 0; i < input.size(); i += static_cast<std::size_t>(P.in.last())) input[i] = 127;
  const comparison c = compare_with_reference<P, 1>(input, {}, {}, {});
  CHECK_MESSAGE(c.equal, "rows " << P.in.elements() / P.in.last() << " depth " << P.in.last() << " multiplier "
                                 << P.input_multiplier << " shift " << P.input_shift);
  t.add(c, ctnn::kernel::simd::i8_kernel<P>::supports);
}

TEST_CASE("int8 softmax: tabulated exponentials equal the reference's fixed-point ones") {
  const tally t = check_seeds<24>(31, [](auto seed, tally& counts, std::mt19937& rng) {
    check_softmax<softmax_case<seed()>()>(counts, rng);
  });
  CHECK(t.equal == t.cases);
  CHECK(t.varied >= t.cases / 2);  // a single class per row gives a constant 127
  CHECK(t.vectorised_cases == (vectorised ? t.cases : 0));
}

}  // namespace
