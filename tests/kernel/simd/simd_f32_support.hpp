#pragma once
// Shared by the simd_f32_* tests: runs a vector kernel (kernel/simd/f32) and the reference kernel
// (kernel::invoke_f32) on the same random operands and compares them.
//
// Tolerance: float32 sums in another order (and fused multiply-adds, Winograd's transforms) differ from
// the reference by rounding only, which is bounded relative to the sum of the magnitudes of the terms:
//   |simd - reference| <= tolerance * magnitude,  magnitude = the reference kernel on |operands|
// (for conv/dense: |bias| + sum |x| |w| per output). Kernels that do the reference's arithmetic in the
// reference's order (pools, element-wise) are checked with tolerance 0: identical results.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/kernel/dispatch.hpp>
#include <ctnn/pass/select_kernels.hpp>
#include <ctnn/target.hpp>

namespace simd_f32_test {

using ctnn::kernel_params;

// Directly summed products: a few rounding steps of 2^-24 relative to the magnitude.
inline constexpr double direct_tolerance = 1e-6;
// Winograd F(2x2,3x3): the transforms add up to 9 terms and halve; measured errors stay below 1e-6.
inline constexpr double winograd_tolerance = 1e-5;

// A stored constant as the executor's constant_reader shows it to pack<K>.
struct vector_reader {
  const std::vector<float>* values;
  std::size_t count() const { return values->size(); }
  float f32(std::size_t i) const { return (*values)[i]; }
  const float* f32_values() const { return values->data(); }
};

inline std::vector<float> random_values(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng{seed};
  std::uniform_real_distribution<float> dist{-1.0f, 1.0f};
  std::vector<float> v(n);
  for (auto& x : v) x = dist(rng);
  return v;
}

// The element counts of the operands of a call with parameters P (in the op's input order).
template <kernel_params P>
std::vector<std::size_t> operand_sizes() {
  const auto in = static_cast<std::size_t>(P.in.elements());
  const auto kh = static_cast<std::size_t>(P.win.kernel_h), kw = static_cast<std::size_t>(P.win.kernel_w);
  const auto bias = [&](std::vector<std::size_t> v, std::size_t n) {
    if (P.has_bias) v.push_back(n);
    return v;
  };
  if constexpr (P.kind == ctnn::op_kind::conv2d || P.kind == ctnn::op_kind::transpose_conv2d)
    return bias({in, static_cast<std::size_t>(P.out[3]) * kh * kw * static_cast<std::size_t>(P.in[3] / P.groups)},
                static_cast<std::size_t>(P.out[3]));
  else if constexpr (P.kind == ctnn::op_kind::depthwise_conv2d)
    return bias({in, kh * kw * static_cast<std::size_t>(P.out[3])}, static_cast<std::size_t>(P.out[3]));
  else if constexpr (P.kind == ctnn::op_kind::dense)
    return bias({in, static_cast<std::size_t>(P.out[1]) * (in / static_cast<std::size_t>(P.out[0]))},
                static_cast<std::size_t>(P.out[1]));
  else if constexpr (P.kind == ctnn::op_kind::add || P.kind == ctnn::op_kind::sub || P.kind == ctnn::op_kind::mul ||
                     P.kind == ctnn::op_kind::div || P.kind == ctnn::op_kind::maximum || P.kind == ctnn::op_kind::minimum)
    return {in, static_cast<std::size_t>(P.in2.elements())};
  else
    return {in};
}

// Operand K as Kernel reads it: packed (over-aligned, like packed_operand_v) when Kernel packs it.
template <class Kernel, std::size_t K>
std::shared_ptr<const void> as_kernel_reads(const std::vector<float>& stored) {
  if constexpr (Kernel::packs(K)) {
    using packed_type = decltype(Kernel::template pack<K>(vector_reader{}));
    return std::make_shared<packed_type>(Kernel::template pack<K>(vector_reader{&stored}));
  } else {
    return std::shared_ptr<const void>(stored.data(), [](const void*) {});
  }
}

template <class Kernel, std::size_t... K>
std::vector<std::shared_ptr<const void>> kernel_operands(const std::vector<std::vector<float>>& stored, std::index_sequence<K...>) {
  std::vector<std::shared_ptr<const void>> kept;
  ((K < stored.size() ? kept.push_back(as_kernel_reads<Kernel, K>(stored[K])) : void()), ...);
  return kept;
}

// Runs Kernel (one of kernel/simd/f32's, supporting P) and the reference kernel on random operands
// (`seed`), checks every output element; returns the largest error relative to the magnitude.
template <class Kernel, kernel_params P>
double check_kernel(double tolerance, std::uint32_t seed) {
  static_assert(Kernel::supports, "the test case must be one the vector kernel handles");
  std::vector<std::vector<float>> stored, magnitudes;
  for (std::size_t n : operand_sizes<P>()) {
    stored.push_back(random_values(n, seed++));
    magnitudes.push_back(stored.back());
    for (auto& x : magnitudes.back()) x = std::fabs(x);
  }
  const auto pointers = [](const std::vector<std::vector<float>>& v) {
    std::vector<const float*> p;
    for (const auto& x : v) p.push_back(x.data());
    p.push_back(nullptr);
    return p;
  };
  const std::size_t out = static_cast<std::size_t>(P.out.elements());
  std::vector<float> want(out), magnitude(out), got(out, std::nanf(""));
  ctnn::kernel::invoke_f32<P>(pointers(stored).data(), want.data());
  ctnn::kernel::invoke_f32<P>(pointers(magnitudes).data(), magnitude.data());

  const auto kept = kernel_operands<Kernel>(stored, std::make_index_sequence<3>{});
  std::vector<const float*> operands;
  for (const auto& k : kept) operands.push_back(static_cast<const float*>(k.get()));
  operands.push_back(nullptr);
  Kernel::run(operands.data(), got.data());

  double worst = 0.0;
  std::size_t failures = 0;
  for (std::size_t i = 0; i < out; ++i) {
    if (std::isnan(want[i]) && std::isnan(got[i])) continue;  // NaN where the reference's is (sqrt below 0)
    const double error = std::fabs(static_cast<double>(got[i]) - want[i]);
    const double bound = tolerance * magnitude[i];
    if (!(error <= bound) && failures++ < 5) {
      CAPTURE(i);
      CAPTURE(got[i]);
      CAPTURE(want[i]);
      CHECK(error <= bound);
    }
    if (magnitude[i] > 0) worst = std::fmax(worst, error / magnitude[i]);
  }
  CHECK(failures == 0);
  return worst;
}

// Deterministic pseudo-random integers in constant evaluation (test shapes are template arguments).
constexpr std::uint32_t mix(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}
constexpr std::int32_t pick(std::uint32_t seed, std::uint32_t salt, std::int32_t lo, std::int32_t hi) {
  return lo + static_cast<std::int32_t>(mix(seed * 0x9e3779b9U + salt) % static_cast<std::uint32_t>(hi - lo + 1));
}

// The output shape of a windowed op from its input, window and output channels.
constexpr void set_output(kernel_params& p, std::int32_t out_channels) {
  const auto& w = p.win;
  const std::int32_t oh = (p.in[1] + w.pad_top + w.pad_bottom - ((w.kernel_h - 1) * w.dilation_h + 1)) / w.stride_h + 1;
  const std::int32_t ow = (p.in[2] + w.pad_left + w.pad_right - ((w.kernel_w - 1) * w.dilation_w + 1)) / w.stride_w + 1;
  p.out = ctnn::make_shape(p.in[0], oh, ow, out_channels);
}

// A windowed op with random shape, window, padding at each edge, stride, dilation and activation.
constexpr kernel_params random_window_op(ctnn::op_kind kind, std::uint32_t seed, std::int32_t max_channels) {
  kernel_params p{};
  p.kind = kind;
  p.win.kernel_h = pick(seed, 1, 1, 5);
  p.win.kernel_w = pick(seed, 2, 1, 5);
  p.win.stride_h = pick(seed, 3, 1, 2);
  p.win.stride_w = pick(seed, 4, 1, 2);
  p.win.dilation_h = kind == ctnn::op_kind::max_pool || kind == ctnn::op_kind::avg_pool ? 1 : pick(seed, 5, 1, 2);
  p.win.dilation_w = kind == ctnn::op_kind::max_pool || kind == ctnn::op_kind::avg_pool ? 1 : pick(seed, 6, 1, 2);
  p.win.pad_top = pick(seed, 7, 0, p.win.kernel_h - 1);
  p.win.pad_bottom = pick(seed, 8, 0, p.win.kernel_h - 1);
  p.win.pad_left = pick(seed, 9, 0, p.win.kernel_w - 1);
  p.win.pad_right = pick(seed, 10, 0, p.win.kernel_w - 1);
  const std::int32_t min_h = (p.win.kernel_h - 1) * p.win.dilation_h + 1, min_w = (p.win.kernel_w - 1) * p.win.dilation_w + 1;
  const std::int32_t channels = pick(seed, 11, 1, max_channels);
  p.in = ctnn::make_shape(pick(seed, 12, 1, 2), pick(seed, 13, min_h, min_h + 12), pick(seed, 14, min_w, min_w + 12), channels);
  p.fused = static_cast<ctnn::activation>(pick(seed, 15, 0, 2));  // none, relu, relu6
  p.has_bias = pick(seed, 16, 0, 3) != 0;
  set_output(p, kind == ctnn::op_kind::conv2d ? pick(seed, 17, 1, 2 * max_channels) : channels);
  return p;
}

// Without an xsimd architecture (XSIMD_NO_SUPPORTED_ARCHITECTURE: a target xsimd does not know) no vector
// kernel exists: a call that a vector kernel runs on a host gets the reference kernel from
// pass::select_kernels, for the native target and for any level it could be asked for. What the simd_f32
// tests check there instead of comparing vector kernels.
template <kernel_params P>
void check_reference_kernel_chosen() {
  using ctnn::instruction_set;
  using ctnn::kernel_impl;
  static_assert(!ctnn::kernel::simd::f32_kernel<P>::supports);
  CHECK(ctnn::pass::choose_kernel<P, ctnn::targets::native::isa>().impl == kernel_impl::reference);
  CHECK(ctnn::pass::choose_kernel<P, instruction_set::x86_avx512_vnni>().impl == kernel_impl::reference);
  CHECK(ctnn::pass::choose_kernel<P, instruction_set::arm_neon>().impl == kernel_impl::reference);
}

}  // namespace simd_f32_test
