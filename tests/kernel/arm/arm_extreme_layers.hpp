#pragma once
// Armv7E-M DSP kernel layers with operands at the int32 limits (int8_extreme_operands.hpp: biases at and
// near INT32_MIN / INT32_MAX, products of one sign, multipliers of nearly one, output zero points +-100),
// against the reference kernels bit for bit, out of place and in place, as arm_kernels_test.hpp's
// check_layer runs its random layers. Used by tests/baremetal/arm_kernels_conv.cpp and
// arm_kernels_depthwise.cpp: under qemu on a Cortex-M4 (the DSP kernels), and on the host
// (kernels_arm_portable: the instructions' C++ twins, under the sanitizers in the clang tree, where any
// signed overflow in the kernels' C++ arithmetic is reported).
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "baremetal/arm_kernels_test.hpp"
#include "kernel/int8_extreme_operands.hpp"

namespace arm_extreme {

// A conv2d, dense or depthwise_conv2d layer (per-channel multipliers, no fused activation) of the shape given.
constexpr ctnn::kernel_params layer(ctnn::op_kind kind, ctnn::shape in, ctnn::shape out, ctnn::window win,
                                    std::int32_t output_offset, bool in_place = false) {
  ctnn::kernel_params p{};
  p.kind = kind;
  p.type = ctnn::dtype::i8;
  p.in = in;
  p.out = out;
  p.win = win;
  p.has_bias = 1;
  p.per_channel = 1;
  p.input_offset = int8_extreme::input_offset;
  p.output_offset = output_offset;
  p.activation_min = -128;
  p.activation_max = 127;
  p.in_place = in_place ? 1 : 0;
  return p;
}

// The weights of one output channel.
constexpr std::int64_t filter_size(const ctnn::kernel_params& p) {
  if (p.kind == ctnn::op_kind::dense) return p.in.elements() / p.in[0];
  return std::int64_t{p.win.kernel_h} * p.win.kernel_w * (p.kind == ctnn::op_kind::conv2d ? p.in[3] : 1);
}

// Fills the shared operands with extreme values for layer P.
template <ctnn::kernel_params P>
void fill(arm_kernels_test::operands& o, std::uint32_t seed) {
  arm_kernels_test::random r{{seed | 1u}};
  for (auto& v : o.input) v = int8_extreme::input([&] { return r.in(0, 255); });
  const auto channels = static_cast<std::size_t>(P.out.last());
  constexpr auto per_channel = static_cast<std::size_t>(filter_size(P));
  static_assert(P.out.last() <= 64 && P.out.last() * filter_size(P) <= static_cast<std::int64_t>(sizeof(o.weights)));
  const auto random_weight = [&] { return r.in(-127, 127); };
  for (std::size_t i = 0; i < channels * per_channel;
       ++i)  // OHWI (a filter per channel) or 1HWC (a tap's channels side by side)
    o.weights[i] =
        int8_extreme::weight(P.kind == ctnn::op_kind::depthwise_conv2d ? i % channels : i / per_channel, random_weight);
  for (std::size_t c = 0; c < 64; ++c) {
    o.bias[c] = int8_extreme::of(c).bias;
    o.multiplier[c] = int8_extreme::of(c).multiplier;
    o.shift[c] = int8_extreme::of(c).shift;
  }
}

// check_layer (arm_kernels_test.hpp) on extreme operands.
template <ctnn::kernel_params P>
void check(std::uint32_t seed) {
  namespace t = arm_kernels_test;
  using arm_kernel = decltype(t::kernel_family<P>());
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  static_assert(ctnn::kernel::arm::i8_kernel<P>::supports && ctnn::pass::with_kernel_choice<P>.choice.impl == t::expected_family);
#endif
  static_assert(P.in.elements() <= static_cast<std::int64_t>(t::max_elements) &&
                P.out.elements() <= static_cast<std::int64_t>(t::max_elements));
  t::operands& o = t::layer_operands;
  fill<P>(o, seed);
  const ctnn::kernel::requant_arrays rq{o.multiplier, o.shift};
  const void* const args[3] = {o.input, o.weights, o.bias};
  constexpr std::size_t out_bytes = static_cast<std::size_t>(P.out.elements());
  constexpr ctnn::kernel_params out_of_place = [] {
    ctnn::kernel_params q = P;
    q.in_place = 0;
    return q;
  }();
  const void* const kernel_args[3] = {o.input, t::weights_for<P, arm_kernel>(o.weights), o.bias};
  ctnn::kernel::invoke_i8<out_of_place>(args, t::expected_output, rq);
  constexpr int placements = P.in_place == 0 ? 1 : 2;
  for (int placement = 0; placement < placements; ++placement) {
    std::memset(t::actual_output, 0x5A, t::max_elements);
    if constexpr (P.in_place == 0) {
      arm_kernel::run(kernel_args, t::actual_output, rq);
    } else {
      constexpr std::int64_t shift = ctnn::memory::in_place_window_shift(P.in, P.out, P.win);
      static_assert(shift <= 0);
      constexpr std::size_t input_at = 2 * t::max_elements;
      const auto output_at = static_cast<std::size_t>(static_cast<std::int64_t>(input_at) + shift - placement);
      std::memcpy(t::in_place_arena + input_at, o.input, static_cast<std::size_t>(P.in.elements()));
      const void* const in_place_args[3] = {t::in_place_arena + input_at, t::weights_for<P, arm_kernel>(o.weights), o.bias};
      arm_kernel::run(in_place_args, t::in_place_arena + output_at, rq);
      std::memcpy(t::actual_output, t::in_place_arena + output_at, out_bytes);
    }
    t::check_equal<P>(t::expected_output, t::actual_output, out_bytes, placement);
  }
  // The reference's outputs vary (not all clamped to one bound): the extremes exercise the rounding too.
  bool varied = false;
  for (std::size_t i = 1; i < out_bytes; ++i) varied = varied || t::expected_output[i] != t::expected_output[0];
  CHECK(varied);
}

// Each layer with both output zero points.
template <auto Layer, std::size_t... I>
void check_all(std::index_sequence<I...>) {
  (check<Layer(I, int8_extreme::output_offsets[0])>(static_cast<std::uint32_t>(2 * I + 1)), ...);
  (check<Layer(I, int8_extreme::output_offsets[1])>(static_cast<std::uint32_t>(2 * I + 2)), ...);
}

using ctnn::make_shape;
using ctnn::op_kind;
using ctnn::padding;
using ctnn::window;

// conv2d and dense, one of each of conv_kernel's walks (kernel/arm/conv.hpp).
constexpr ctnn::kernel_params conv(std::size_t which, std::int32_t output_offset) {
  constexpr window same3{3, 3, 1, 1, 1, 1, padding::same, 1, 1, 1, 1};
  switch (which) {
    case 0:  // channel-major: whole windows (2 x 2 blocks), kernel rows in the padding, border columns; an odd channel count
      return layer(op_kind::conv2d, make_shape(1, 6, 7, 8), make_shape(1, 6, 7, 5), same3, output_offset);
    case 1:  // small windows over few channels: gathered pixel pairs
      return layer(op_kind::conv2d, make_shape(1, 7, 7, 3), make_shape(1, 7, 7, 8), same3, output_offset);
    case 2:  // pointwise, whole quads of input channels: widened blocks
      return layer(op_kind::conv2d, make_shape(1, 4, 5, 8), make_shape(1, 4, 5, 9), window{}, output_offset);
    case 3:  // pointwise in place, staged blocks
      return layer(op_kind::conv2d, make_shape(1, 4, 5, 6), make_shape(1, 4, 5, 6), window{}, output_offset, true);
    case 4:  // in place: pixel-major, 4 channels at a time and one
      return layer(op_kind::conv2d, make_shape(1, 5, 6, 8), make_shape(1, 5, 6, 5), same3, output_offset, true);
    case 5:  // dilation 2 along the width (a stretch per tap) over 5 channels: the dot products' scalar tails
      return layer(op_kind::conv2d, make_shape(2, 5, 7, 5), make_shape(2, 3, 3, 7),
                   window{3, 2, 1, 2, 1, 2, padding::valid, 0, 0, 0, 0}, output_offset);
    case 6:  // dense, one row, 44 features: the input widened once
      return layer(op_kind::dense, make_shape(1, 44), make_shape(1, 9), window{}, output_offset);
    case 7:  // dense, one row, 45 features: widened in the loop, a scalar tail
      return layer(op_kind::dense, make_shape(1, 45), make_shape(1, 9), window{}, output_offset);
    default:  // dense, three rows
      return layer(op_kind::dense, make_shape(3, 20), make_shape(3, 7), window{}, output_offset);
  }
}
inline constexpr std::size_t conv_layers = 9;

// depthwise_conv2d, channel-major (groups of 4 channels and the rest one by one) and in place.
constexpr ctnn::kernel_params depthwise(std::size_t which, std::int32_t output_offset) {
  constexpr window same3{3, 3, 1, 1, 1, 1, padding::same, 1, 1, 1, 1};
  switch (which) {
    case 0:  // 7 channels: a group of 4 and 3 alone; padded rows and columns, interior pairs
      return layer(op_kind::depthwise_conv2d, make_shape(1, 6, 7, 7), make_shape(1, 6, 7, 7), same3, output_offset);
    case 1:  // in place: channel-major, and pixel-major one byte off (interior and border pixels, channels alone)
      return layer(op_kind::depthwise_conv2d, make_shape(1, 6, 7, 7), make_shape(1, 6, 7, 7), same3, output_offset,
                   true);
    case 2:  // stride 2, 12 channels, two images
      return layer(op_kind::depthwise_conv2d, make_shape(2, 7, 9, 12), make_shape(2, 3, 4, 12),
                   window{3, 3, 2, 2, 1, 1, padding::valid, 0, 0, 0, 0}, output_offset);
    default:  // 5x5 SAME over 4 channels
      return layer(op_kind::depthwise_conv2d, make_shape(1, 5, 5, 4), make_shape(1, 5, 5, 4),
                   window{5, 5, 1, 1, 1, 1, padding::same, 2, 2, 2, 2}, output_offset);
  }
}
inline constexpr std::size_t depthwise_layers = 4;

}  // namespace arm_extreme
