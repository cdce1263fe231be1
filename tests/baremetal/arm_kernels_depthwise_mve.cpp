// depthwise_conv2d over channels in eights on wide maps (the MVE kernel's walk without its ring,
// kernel/arm/mve/depthwise.hpp) and on the MLPerf Tiny models' depthwise shapes under each of the
// kernel's requantization variants, and (MVE targets) with depth multipliers 2 and 3 over odd and even
// channel counts, narrow maps (the ring) and wide ones, against the reference kernel, out of place and in
// place (arm_kernels_test.hpp). A program of its own on the Cortex-M55 (the ITCM's 512 KB).
#include "arm_kernels_test.hpp"

namespace t = arm_kernels_test;

#if CTNN_ARM_MVE
static_assert(t::buffered_layers<t::depthwise_layer_in_eights_wide, 12>(std::make_index_sequence<6>{}) == 0);
static_assert(t::buffered_layers<t::depthwise_layer_in_eights_wide_in_place, 13>(std::make_index_sequence<4>{}) == 0);
#endif

TEST_CASE("arm depthwise_conv2d over channels in eights, wide maps (the MVE kernel's walk without its ring)") {
  t::check_layers<t::depthwise_layer_in_eights_wide, 12>(std::make_index_sequence<6>{});
  t::check_layers<t::depthwise_layer_in_eights_wide_in_place, 13>(std::make_index_sequence<4>{});
}

TEST_CASE("arm depthwise_conv2d on the models' layers, per-channel shifts all right, none left (one zero), one left") {
  for (const t::shift_choice choice : {t::shift_choice::right, t::shift_choice::no_left, t::shift_choice::some_left}) {
    t::shifts = choice;
    t::check_layers<t::depthwise_model_layer, 14>(std::make_index_sequence<4>{});
  }
  t::shifts = t::shift_choice::any;
}
#if CTNN_ARM_MVE
static_assert(t::buffered_layers<t::depthwise_model_layer, 14>(std::make_index_sequence<4>{}) == 4);
#endif


#if CTNN_ARM_MVE
// Depth multipliers 2 and 3 (alternately) over 1 to 13 input channels (odd counts, and 8 channels and more:
// whole groups of eight and a last group of fewer), windows, strides, dilations and padding as window_layer
// draws them; every third in place (the MVE kernel's pixel-major walk). Wide: maps 52 to 58 pixels wide
// (the walk without the ring), at most 4 input channels (max_elements).
constexpr ctnn::kernel_params multiplier_layer_of(std::uint32_t family, std::size_t index, bool wide) {
  ctnn::kernel_params p = t::window_layer(family, index, true, index % 3 == 2);
  const std::int32_t multiplier = 2 + static_cast<std::int32_t>(index % 2);
  const std::int32_t in_c = wide ? 1 + static_cast<std::int32_t>(index % 4) : p.in[3];
  p.depth_multiplier = multiplier;
  const ctnn::window& w = p.win;
  const std::int32_t in_w = wide ? 52 + static_cast<std::int32_t>(index % 7) : p.in[2];
  const std::int32_t span_w = (w.kernel_w - 1) * w.dilation_w + 1;
  p.in = ctnn::make_shape(p.in[0], p.in[1], in_w, in_c);
  p.out = ctnn::make_shape(p.out[0], p.out[1], (in_w + w.pad_left + w.pad_right - span_w) / w.stride_w + 1, in_c * multiplier);
  return p;
}
constexpr ctnn::kernel_params multiplier_layer(std::uint32_t family, std::size_t index) { return multiplier_layer_of(family, index, false); }
constexpr ctnn::kernel_params wide_multiplier_layer(std::uint32_t family, std::size_t index) { return multiplier_layer_of(family, index, true); }

template <auto Layer, std::uint32_t Family, std::size_t... I>
constexpr bool all_mve(std::index_sequence<I...>) {
  return (... && ctnn::kernel::arm::mve::detail::depthwise_kernel<Layer(Family, I)>::supports);
}
template <auto Layer, std::uint32_t Family, std::size_t... I>
constexpr int with_tail(std::index_sequence<I...>) {
  return (0 + ... + (Layer(Family, I).out[3] % 8 != 0 && Layer(Family, I).out[3] > 8 ? 1 : 0));
}
static_assert(all_mve<multiplier_layer, 15>(std::make_index_sequence<18>{}) && all_mve<wide_multiplier_layer, 16>(std::make_index_sequence<8>{}));
static_assert(t::buffered_layers<multiplier_layer, 15>(std::make_index_sequence<18>{}) >= 6);
static_assert(t::buffered_layers<wide_multiplier_layer, 16>(std::make_index_sequence<8>{}) == 0);
static_assert(with_tail<multiplier_layer, 15>(std::make_index_sequence<18>{}) >= 4);

TEST_CASE("arm depthwise_conv2d with depth multipliers 2 and 3 (the MVE kernel's gathered inputs) equals the reference kernel") {
  t::check_layers<multiplier_layer, 15>(std::make_index_sequence<18>{});
  t::check_layers<wide_multiplier_layer, 16>(std::make_index_sequence<8>{});
}
#endif
