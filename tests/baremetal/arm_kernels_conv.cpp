// conv2d through the DSP kernel (kernel/arm/conv.hpp), out of place and in place (arm_kernels_test.hpp).
#include "arm_kernels_test.hpp"
#include "kernel/arm/arm_extreme_layers.hpp"

namespace t = arm_kernels_test;

TEST_CASE("arm conv2d equals the reference kernel on random layers") {
  t::check_layers<t::conv_layer, 1>(std::make_index_sequence<24>{});
}

TEST_CASE("arm conv2d in place equals the reference kernel") {
  t::check_layers<t::conv_layer_in_place, 2>(std::make_index_sequence<10>{});
}

TEST_CASE("arm 1x1 conv2d in place (pixel blocks staged) equals the reference kernel") {
  t::check_layers<t::pointwise_layer_in_place, 8>(std::make_index_sequence<8>{});
}

TEST_CASE("arm 1x1 conv2d (pixel blocks) equals the reference kernel") {
  t::check_layers<t::pointwise_layer, 9>(std::make_index_sequence<8>{});
}

#if !CTNN_ARM_MVE
// The DSP kernel's own walks below; on the Cortex-M55 the MVE kernel serves such layers, and its conv
// program has no room left in the 512 KB ITCM.

// Unpadded strided 1x1 convs over whole quads of input channels: the pointwise blocks gathering the
// strided pixels (conv_kernel::strided_pointwise_walk).
constexpr ctnn::kernel_params strided_pointwise_layer(std::uint32_t family, std::size_t index) {
  ctnn::kernel_params p = t::window_layer(family, index, false, false);
  ctnn::window& w = p.win;
  w.kernel_h = w.kernel_w = w.dilation_h = w.dilation_w = 1;
  w.pad_top = w.pad_bottom = w.pad_left = w.pad_right = 0;
  w.stride_h = 1 + static_cast<std::int32_t>(index % 3), w.stride_w = 2 + static_cast<std::int32_t>(index % 2);
  const std::int32_t in_c = 4 * (1 + static_cast<std::int32_t>(index % 4));
  p.in = ctnn::make_shape(p.in[0], p.in[1], p.in[2], in_c);
  p.out = ctnn::make_shape(p.out[0], (p.in[1] - 1) / w.stride_h + 1, (p.in[2] - 1) / w.stride_w + 1, p.out[3]);
  return p;
}
template <std::size_t... I>
constexpr bool all_strided_pointwise(std::index_sequence<I...>) {
  return (... && ctnn::kernel::arm::detail::conv_kernel<strided_pointwise_layer(33, I)>::strided_pointwise_walk);
}
static_assert(all_strided_pointwise(std::make_index_sequence<8>{}));

TEST_CASE("arm strided 1x1 conv2d (pixel blocks gathered) equals the reference kernel") {
  t::check_layers<strided_pointwise_layer, 33>(std::make_index_sequence<8>{});
}

// Stride-2 1x1 convs without a fused activation over 8, 16 and 24 input channels (IC's shortcut layers:
// the unrolled dot over few quads, the short stage without the clamp), odd pixel counts (the last
// block's odd pixel, a short last block), per tensor and per channel.
constexpr ctnn::kernel_params strided_pointwise_plain_layer(std::uint32_t family, std::size_t index) {
  ctnn::kernel_params p = strided_pointwise_layer(family, index);
  ctnn::window& w = p.win;
  w.stride_h = w.stride_w = 2;
  const std::int32_t in_c = 8 * (1 + static_cast<std::int32_t>(index % 3));
  const std::int32_t in_h = 5 + 4 * static_cast<std::int32_t>(index % 2), in_w = 9 + 4 * static_cast<std::int32_t>(index / 2 % 2);
  p.in = ctnn::make_shape(1, in_h, in_w, in_c);
  p.out = ctnn::make_shape(1, (in_h - 1) / 2 + 1, (in_w - 1) / 2 + 1, p.out[3]);
  p.fused = ctnn::activation::none;
  p.activation_min = -128;
  p.activation_max = 127;
  return p;
}
template <std::size_t... I>
constexpr bool all_strided_pointwise_plain(std::index_sequence<I...>) {
  return (... && (ctnn::kernel::arm::detail::conv_kernel<strided_pointwise_plain_layer(34, I)>::strided_pointwise_walk &&
                  strided_pointwise_plain_layer(34, I).out.elements() / strided_pointwise_plain_layer(34, I).out[3] % 2 == 1));
}
static_assert(all_strided_pointwise_plain(std::make_index_sequence<6>{}));

TEST_CASE("arm stride-2 1x1 conv2d without activation over 8-24 channels equals the reference kernel") {
  t::check_layers<strided_pointwise_plain_layer, 34>(std::make_index_sequence<6>{});
}

// Windows over whole quads of input channels (4 to 16, at most 144 values): mostly gathered widened
// (conv_kernel::gathered_widened; the narrowest rows take the int8 gathered windows), out of place and in
// place.
constexpr ctnn::kernel_params quad_window_layer_of(std::uint32_t family, std::size_t index, bool in_place) {
  ctnn::kernel_params p = t::window_layer(family, index, false, in_place);
  const std::int32_t in_c = 4 * (1 + static_cast<std::int32_t>(index % 4));
  if (p.win.kernel_h * p.win.kernel_w * in_c > 144 || p.win.kernel_h * p.win.kernel_w == 1)
    p.win.kernel_h = p.win.kernel_w = 2 + static_cast<std::int32_t>(index % 2);
  ctnn::window& w = p.win;
  w.pad_top %= w.kernel_h, w.pad_bottom %= w.kernel_h, w.pad_left %= w.kernel_w, w.pad_right %= w.kernel_w;
  const std::int32_t span_h = (w.kernel_h - 1) * w.dilation_h + 1, span_w = (w.kernel_w - 1) * w.dilation_w + 1;
  const std::int32_t in_h = p.in[1] + w.pad_top + w.pad_bottom < span_h ? span_h : p.in[1];
  const std::int32_t in_w = p.in[2] + w.pad_left + w.pad_right < span_w ? span_w : p.in[2];
  p.in = ctnn::make_shape(p.in[0], in_h, in_w, in_c);
  p.out = ctnn::make_shape(p.out[0], (in_h + w.pad_top + w.pad_bottom - span_h) / w.stride_h + 1,
                           (in_w + w.pad_left + w.pad_right - span_w) / w.stride_w + 1, p.out[3]);
  return p;
}
constexpr ctnn::kernel_params quad_window_layer(std::uint32_t family, std::size_t index) { return quad_window_layer_of(family, index, false); }
constexpr ctnn::kernel_params quad_window_layer_in_place(std::uint32_t family, std::size_t index) {
  return quad_window_layer_of(family, index, true);
}
template <auto Layer, std::uint32_t Family, std::size_t... I>
constexpr int gathered_widened_layers(std::index_sequence<I...>) {
  return (0 + ... + (ctnn::kernel::arm::detail::conv_kernel<Layer(Family, I)>::gathered_widened ? 1 : 0));
}
#if CTNN_ARM_DOT_ASM  // the walk needs the assembly loop (kernel/arm/detail/dot.hpp)
static_assert(gathered_widened_layers<quad_window_layer, 34>(std::make_index_sequence<12>{}) >= 8);
static_assert(gathered_widened_layers<quad_window_layer_in_place, 35>(std::make_index_sequence<8>{}) >= 4);
#endif

TEST_CASE("arm conv2d over whole quads of channels (windows gathered widened) equals the reference kernel") {
  t::check_layers<quad_window_layer, 34>(std::make_index_sequence<12>{});
  t::check_layers<quad_window_layer_in_place, 35>(std::make_index_sequence<8>{});
}

#endif

TEST_CASE("arm conv2d and dense wrap as the reference kernel at the int32 limits (biases, sums, output zero point)") {
  arm_extreme::check_all<arm_extreme::conv>(std::make_index_sequence<arm_extreme::conv_layers>{});
}
