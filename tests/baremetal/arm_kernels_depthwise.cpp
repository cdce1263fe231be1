// depthwise_conv2d through the DSP kernel (kernel/arm/depthwise.hpp; the MVE one on MVE targets), out of place and in place
// (arm_kernels_test.hpp).
#include "arm_kernels_test.hpp"
#include "kernel/arm/arm_extreme_layers.hpp"

namespace t = arm_kernels_test;

TEST_CASE("arm depthwise_conv2d equals the reference kernel on random layers") {
  t::check_layers<t::depthwise_layer, 3>(std::make_index_sequence<24>{});
}

TEST_CASE("arm depthwise_conv2d in place equals the reference kernel") {
  t::check_layers<t::depthwise_layer_in_place, 4>(std::make_index_sequence<10>{});
}

#if CTNN_ARM_MVE
// Most narrow layers in eights take the MVE kernel's ring walk (the wide ones never: arm_kernels_depthwise_mve.cpp).
static_assert(t::buffered_layers<t::depthwise_layer_in_eights, 10>(std::make_index_sequence<12>{}) >= 6);
static_assert(t::buffered_layers<t::depthwise_layer_in_eights_in_place, 11>(std::make_index_sequence<6>{}) >= 3);
#endif

TEST_CASE("arm depthwise_conv2d over channels in eights (the MVE kernel's) equals the reference kernel") {
  t::check_layers<t::depthwise_layer_in_eights, 10>(std::make_index_sequence<12>{});
  t::check_layers<t::depthwise_layer_in_eights_in_place, 11>(std::make_index_sequence<6>{});
}

#if !defined(__OPTIMIZE_SIZE__)
// Stride 1 without dilation over maps at most 9 x 9: mostly the DSP kernel's padded-row walk
// (depthwise_kernel::padded_walk), in place too. Not at -Os, where the walk is off (and the Cortex-M55's
// depthwise program, built -Os, has no room left in its ITCM).
constexpr ctnn::kernel_params narrow_layer_of(std::uint32_t family, std::size_t index, bool in_place) {
  ctnn::kernel_params p = t::window_layer(family, index, true, in_place);
  ctnn::window& w = p.win;
  w.stride_h = w.stride_w = w.dilation_h = w.dilation_w = 1;
  w.pad_top %= w.kernel_h, w.pad_bottom %= w.kernel_h, w.pad_left %= w.kernel_w, w.pad_right %= w.kernel_w;
  const std::int32_t least_h = w.kernel_h - w.pad_top - w.pad_bottom, least_w = w.kernel_w - w.pad_left - w.pad_right;
  const std::int32_t in_h = p.in[1] < least_h ? least_h : p.in[1], in_w = p.in[2] < least_w ? least_w : p.in[2];
  p.in = ctnn::make_shape(p.in[0], in_h, in_w, p.in[3]);
  p.out = ctnn::make_shape(p.out[0], in_h + w.pad_top + w.pad_bottom - w.kernel_h + 1, in_w + w.pad_left + w.pad_right - w.kernel_w + 1,
                           p.out[3]);
  return p;
}
constexpr ctnn::kernel_params narrow_layer(std::uint32_t family, std::size_t index) { return narrow_layer_of(family, index, false); }
constexpr ctnn::kernel_params narrow_layer_in_place(std::uint32_t family, std::size_t index) { return narrow_layer_of(family, index, true); }

template <auto Layer, std::uint32_t Family, std::size_t... I>
constexpr int padded_layers(std::index_sequence<I...>) {
  return (0 + ... + (ctnn::kernel::arm::detail::depthwise_kernel<Layer(Family, I)>::padded_walk && Layer(Family, I).in[3] >= 4 ? 1 : 0));
}
#if CTNN_ARM_DOT_ASM  // the walk needs the assembly taps (kernel/arm/detail/dot.hpp)
static_assert(padded_layers<narrow_layer, 31>(std::make_index_sequence<16>{}) >= 8);
static_assert(padded_layers<narrow_layer_in_place, 32>(std::make_index_sequence<8>{}) >= 4);
#endif

TEST_CASE("arm depthwise_conv2d at stride 1 over narrow maps (padded rows) equals the reference kernel") {
  t::check_layers<narrow_layer, 31>(std::make_index_sequence<16>{});
  t::check_layers<narrow_layer_in_place, 32>(std::make_index_sequence<8>{});
}
#endif

#if !CTNN_ARM_MVE
// Depth multipliers 2, 3 and 4 (in turn; kernel/arm/depthwise_multiplier.hpp) over 1 to 13 input channels, windows,
// strides, dilations and padding as window_layer draws them; and 3 x 3 windows at stride 1 (padding 1) and 2
// (padding 0 or 1) over 9 x 9 maps; every third random layer in place (the kernel's pixel-major walk). MVE
// targets run the MVE kernel (arm_kernels_depthwise_mve.cpp).
constexpr ctnn::kernel_params multiplier_layer_of(std::uint32_t family, std::size_t index, bool three_by_three) {
  ctnn::kernel_params p = t::window_layer(family, index, true, !three_by_three && index % 4 == 1);
  const std::int32_t multiplier = 2 + static_cast<std::int32_t>(index % 3);
  ctnn::window& w = p.win;
  if (three_by_three) {
    const bool strided = index % 2 == 1;
    w.kernel_h = w.kernel_w = 3;
    w.stride_h = w.stride_w = strided ? 2 : 1;
    w.dilation_h = w.dilation_w = 1;
    w.pad_top = w.pad_left = strided && index % 4 == 1 ? 0 : 1;
    w.pad_bottom = w.pad_right = 1;
    p.in = ctnn::make_shape(p.in[0], 9, 9, p.in[3]);
  }
  const std::int32_t span_h = (w.kernel_h - 1) * w.dilation_h + 1, span_w = (w.kernel_w - 1) * w.dilation_w + 1;
  p.depth_multiplier = multiplier;
  p.out = ctnn::make_shape(p.in[0], (p.in[1] + w.pad_top + w.pad_bottom - span_h) / w.stride_h + 1,
                           (p.in[2] + w.pad_left + w.pad_right - span_w) / w.stride_w + 1, p.in[3] * multiplier);
  return p;
}
constexpr ctnn::kernel_params multiplier_layer(std::uint32_t family, std::size_t index) { return multiplier_layer_of(family, index, false); }
constexpr ctnn::kernel_params multiplier_layer_3x3(std::uint32_t family, std::size_t index) { return multiplier_layer_of(family, index, true); }

template <auto Layer, std::uint32_t Family, std::size_t... I>
constexpr int odd_channel_layers(std::index_sequence<I...>) {
  return (0 + ... + (Layer(Family, I).in[3] % 4 != 0 && Layer(Family, I).in[3] > 4 ? 1 : 0));
}
static_assert(odd_channel_layers<multiplier_layer, 33>(std::make_index_sequence<18>{}) >= 4);

TEST_CASE("arm depthwise_conv2d with depth multipliers 2, 3 and 4 equals the reference kernel") {
  t::check_layers<multiplier_layer, 33>(std::make_index_sequence<18>{});
  t::check_layers<multiplier_layer_3x3, 34>(std::make_index_sequence<8>{});
}
#endif

TEST_CASE("arm depthwise_conv2d wraps as the reference kernel at the int32 limits (biases, sums, output zero point)") {
  arm_extreme::check_all<arm_extreme::depthwise>(std::make_index_sequence<arm_extreme::depthwise_layers>{});
}
