#pragma once
// Shared by the simd_i8_* tests: randomised int8 kernel_params (compile time, from a seed), random
// operands (run time), and the comparison of kernel::invoke (SIMD kernel where it supports the call, with
// its constants packed by kernel::pack_operand at run time) against kernel::invoke_i8 (the reference).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/dispatch.hpp>
#include <ctnn/pass/select_kernels.hpp>

#include "kernel/int8_extreme_operands.hpp"
#include "kernel/int8_test_support.hpp"

namespace simd_i8_test {

using ctnn::activation;
using ctnn::kernel_params;
using ctnn::op_kind;

// The parameters of an int8 call of `kind`, to be filled in by a case generator.
constexpr kernel_params int8_op(op_kind kind) {
  kernel_params p{};
  p.kind = kind;
  p.type = ctnn::dtype::i8;
  return p;
}

// Whether this build has a vector level, so that the vectorised kernels must claim the calls below.
inline constexpr bool vectorised = ctnn::kernel::simd::i8_detail::isa::available;

// The constant-reader interface of pack_operand, over run-time vectors.
struct vector_reader {
  const std::vector<std::int8_t>* bytes = nullptr;
  const std::vector<std::int32_t>* words = nullptr;
  std::size_t count() const { return bytes != nullptr ? bytes->size() : words->size(); }
  std::int8_t i8(std::size_t i) const { return (*bytes)[i]; }
  std::int32_t i32(std::size_t i) const { return (*words)[i]; }
  float f32(std::size_t) const { return 0.0f; }
};

// A fused activation and its clamp in the output's quantization.
constexpr void set_activation(kernel_params& p, std::int32_t choice, int8_test::xorshift& rng) {
  p.fused = choice == 0 ? activation::none : (choice == 1 ? activation::relu : activation::relu6);
  p.activation_min = -128;
  p.activation_max = 127;
  if (p.fused != activation::none) p.activation_min = -p.output_offset;
  if (p.fused == activation::relu6) p.activation_max = p.activation_min + rng.uniform(0, 127 - p.activation_min);
}

// A random window over an n x h x w input (kernel 1..5 and stride 1..2 unless `pointwise`, dilation 2 for
// some seeds, padding up to kernel - 1 at each edge; a kernel too large for the padded input becomes 1):
// sets p.win, p.in and p.out (in_c and out_c channels).
constexpr void set_random_window(kernel_params& p, int8_test::xorshift& rng, std::uint32_t seed, bool pointwise,
                                 std::int32_t n, std::int32_t h, std::int32_t w, std::int32_t in_c, std::int32_t out_c) {
  auto& win = p.win;
  win.kernel_h = pointwise ? 1 : rng.uniform(1, 5);
  win.kernel_w = pointwise ? 1 : rng.uniform(1, 5);
  win.stride_h = pointwise ? 1 : rng.uniform(1, 2);
  win.stride_w = pointwise ? 1 : rng.uniform(1, 2);
  win.dilation_h = seed % 5 == 1 ? 2 : 1;
  win.dilation_w = seed % 7 == 1 ? 2 : 1;
  win.pad_top = rng.uniform(0, win.kernel_h - 1);
  win.pad_bottom = rng.uniform(0, win.kernel_h - 1);
  win.pad_left = rng.uniform(0, win.kernel_w - 1);
  win.pad_right = rng.uniform(0, win.kernel_w - 1);
  if (h + win.pad_top + win.pad_bottom < win.dilation_h * (win.kernel_h - 1) + 1) win.kernel_h = 1;
  if (w + win.pad_left + win.pad_right < win.dilation_w * (win.kernel_w - 1) + 1) win.kernel_w = 1;
  const std::int32_t out_h = (h + win.pad_top + win.pad_bottom - win.dilation_h * (win.kernel_h - 1) - 1) / win.stride_h + 1;
  const std::int32_t out_w = (w + win.pad_left + win.pad_right - win.dilation_w * (win.kernel_w - 1) - 1) / win.stride_w + 1;
  p.in = ctnn::make_shape(n, h, w, in_c);
  p.out = ctnn::make_shape(n, out_h, out_w, out_c);
}

// A requantization multiplier scaled so that accumulators of `terms` products land mostly inside int8
// (some saturate, some use a left shift).
inline ctnn::detail::quant::quantized_multiplier random_multiplier(std::int64_t terms, std::mt19937& rng) {
  std::uniform_real_distribution<double> spread(0.25, 8.0);
  const double typical = 128.0 * 128.0 * (terms < 1 ? 1.0 : std::sqrt(static_cast<double>(terms)));
  return ctnn::detail::quant::quantize_multiplier(spread(rng) * 64.0 / typical);
}

// The extreme operands of int8_extreme_operands.hpp: a channel's weight, and the per-channel biases,
// multipliers and shifts of `channels` channels.
inline std::int8_t extreme_weight(std::size_t channel, std::mt19937& rng) {
  return int8_extreme::weight(channel, [&] { return std::uniform_int_distribution<int>(-127, 127)(rng); });
}
struct extreme_arrays {
  std::vector<std::int32_t> bias, multiplier, shift;
  explicit extreme_arrays(std::size_t channels) : bias(channels), multiplier(channels), shift(channels) {
    for (std::size_t c = 0; c < channels; ++c) {
      bias[c] = int8_extreme::of(c).bias;
      multiplier[c] = int8_extreme::of(c).multiplier;
      shift[c] = int8_extreme::of(c).shift;
    }
  }
  ctnn::kernel::requant_arrays rq() const { return {multiplier.data(), shift.data(), nullptr, nullptr, nullptr}; }
};
inline std::vector<std::int8_t> large_inputs(std::size_t n, std::mt19937& rng) {
  std::vector<std::int8_t> v(n);
  for (auto& x : v) x = int8_extreme::input([&] { return std::uniform_int_distribution<int>(0, 255)(rng); });
  return v;
}

struct comparison {
  bool equal = false;
  bool varied = false;  // the reference's outputs are not all one value (all-saturated cases prove little)
};

// The reference's bytes against the SIMD kernel's; reports the first difference.
inline comparison compare_outputs(const std::vector<std::int8_t>& want, const std::vector<std::int8_t>& got) {
  comparison c{true, false};
  for (std::size_t i = 0; i < want.size(); ++i) {
    c.varied = c.varied || want[i] != want[0];
    if (c.equal && want[i] != got[i]) {
      MESSAGE("first difference at " << i << " of " << want.size() << ": reference " << int{want[i]} << ", simd " << int{got[i]});
      c.equal = false;
    }
  }
  return c;
}

// Runs P through kernel::invoke (packed constants where the SIMD kernel packs them) and through the
// reference; reports the first differing byte.
template <kernel_params P, std::size_t N>
comparison compare_with_reference(const std::vector<std::int8_t>& input, const std::vector<std::int8_t>& second,
                                  const std::vector<std::int32_t>& bias, const ctnn::kernel::requant_arrays& rq) {
  const void* operands[N]{};
  operands[0] = input.data();
  if constexpr (N > 1) operands[1] = second.data();
  if constexpr (N > 2) operands[2] = bias.data();
  std::vector<std::int8_t> want(static_cast<std::size_t>(P.out.elements()), 0x55);
  std::vector<std::int8_t> got(want.size(), 0x2a);
  ctnn::kernel::invoke_i8<P>(operands, want.data(), rq);
  constexpr kernel_params selected = ctnn::pass::with_kernel_choice<P>;  // the kernel the compiler would choose
  if constexpr (N > 1 && ctnn::kernel::packs_operand<selected>(1)) {
    const auto packed = ctnn::kernel::pack_operand<selected, 1>(vector_reader{&second, nullptr});
    operands[1] = packed.data();
    ctnn::kernel::invoke<selected>(operands, got.data(), rq);
  } else {
    ctnn::kernel::invoke<selected>(operands, got.data(), rq);
  }
  return compare_outputs(want, got);
}

// Counts over a set of randomised cases.
struct tally {
  int cases = 0, equal = 0, varied = 0, vectorised_cases = 0;
  void add(comparison c, bool simd) {
    ++cases;
    equal += c.equal;
    varied += c.varied;
    vectorised_cases += simd;
  }
};

// check(seed, tally, generator) for the seeds 1..Count as std::integral_constant<std::uint32_t, seed>
// (each seed makes its own compile-time case), one generator seeded `generator_seed` for all.
template <std::size_t Count, class Check>
tally check_seeds(std::uint32_t generator_seed, Check check) {
  std::mt19937 rng(generator_seed);
  tally t;
  [&]<std::size_t... Seed>(std::index_sequence<Seed...>) {
    (check(std::integral_constant<std::uint32_t, static_cast<std::uint32_t>(Seed + 1)>{}, t, rng), ...);
  }(std::make_index_sequence<Count>{});
  return t;
}

}  // namespace simd_i8_test
