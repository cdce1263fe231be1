// dense, avg_pool / global_avg_pool and add through the DSP kernels (kernel/arm/conv.hpp, pool.hpp, add.hpp; the
// MVE ones on MVE targets, and there max_pool and strided 1x1 convs too; arm_kernels_test.hpp). Softmax, the
// table kernels and the copying reshape: arm_kernels_lookup.cpp (on the Cortex-M55 a program of its own: together
// they overflow its 512 KB ITCM).
#include "arm_kernels_test.hpp"

namespace t = arm_kernels_test;

TEST_CASE("arm dense equals the reference kernel on random layers") {
  t::check_layers<t::dense_layer, 5>(std::make_index_sequence<16>{});
}

// Dense layers of one row over whole quads: the weights packed per 4-channel group (conv_kernel::pack),
// the quads in every split of the loop (an odd one, a pair, 4 a turn, 4 without a loop), channels past
// the last group; past 256 features the offset terms packed before the filters (folded_terms).
constexpr ctnn::kernel_params one_row_dense_layer(std::uint32_t family, std::size_t index) {
  ctnn::kernel_params p = t::dense_layer(family, index);
  constexpr std::int32_t features[] = {4, 16, 24, 256, 260, 300, 644, 516}, units[] = {5, 4, 8, 9, 4, 13, 6, 8};
  p.in = ctnn::make_shape(1, features[index % 8]);
  p.out = ctnn::make_shape(1, units[index % 8]);
  return p;
}

TEST_CASE("arm dense of one row (packed filters, offset terms past 256 features) equals the reference kernel") {
  t::check_layers<one_row_dense_layer, 30>(std::make_index_sequence<8>{});
}

TEST_CASE("arm avg_pool and global_avg_pool equal the reference kernel on random layers") {
  t::check_layers<t::pool_layer, 6>(std::make_index_sequence<16>{});
}

TEST_CASE("arm add equals the reference kernel on random layers") {
  t::check_layers<t::add_layer, 7>(std::make_index_sequence<12>{});
}

#if CTNN_ARM_MVE
// The MVE family's own shapes (kernel/arm/mve/): max_pool, and pools over more channels than a vector's
// lanes (groups of eight or sixteen and a last group of fewer), padding and strides as pool_layer draws them
// (the DSP family has no max pool); unpadded strided 1x1 convs (conv.hpp reads their windows in place over
// whole chunks of sixteen channels, else gathers them), with a fused ReLU and without.
constexpr ctnn::kernel_params mve_pool_layer(std::uint32_t family, std::size_t index) {
  ctnn::kernel_params p = t::pool_layer(family, index);
  if (index % 2 == 0) {
    if (p.kind == ctnn::op_kind::global_avg_pool)  // its window over the whole input
      p.win = ctnn::window{p.in[1], p.in[2], 1, 1, 1, 1, ctnn::padding::valid, 0, 0, 0, 0};
    p.kind = ctnn::op_kind::max_pool;
  }
  const std::int32_t channels = 3 + 7 * static_cast<std::int32_t>(index % 5);  // 3 to 31
  p.in = ctnn::make_shape(p.in[0], p.in[1], p.in[2], channels);
  p.out = ctnn::make_shape(p.out[0], p.out[1], p.out[2], channels);
  return p;
}
template <std::size_t... I>
constexpr bool all_mve_pools(std::index_sequence<I...>) {
  return (... && ctnn::kernel::arm::mve::detail::pool_kernel<mve_pool_layer(36, I)>::supports);
}
static_assert(all_mve_pools(std::make_index_sequence<16>{}));

TEST_CASE("arm max_pool, avg_pool and global_avg_pool over many channels (the MVE kernels) equal the reference kernel") {
  t::check_layers<mve_pool_layer, 36>(std::make_index_sequence<16>{});
}

constexpr ctnn::kernel_params strided_pointwise_layer(std::uint32_t family, std::size_t index) {
  ctnn::kernel_params p = t::window_layer(family, index, false, false);
  ctnn::window& w = p.win;
  w.kernel_h = w.kernel_w = w.dilation_h = w.dilation_w = 1;
  w.pad_top = w.pad_bottom = w.pad_left = w.pad_right = 0;
  w.stride_h = 2 + static_cast<std::int32_t>(index % 3 == 2), w.stride_w = 2;
  constexpr std::int32_t in_cs[] = {16, 32, 20, 7, 48, 16};
  const std::int32_t in_c = in_cs[index % 6];
  p.in = ctnn::make_shape(p.in[0], p.in[1], p.in[2], in_c);
  p.out = ctnn::make_shape(p.out[0], (p.in[1] - 1) / w.stride_h + 1, (p.in[2] - 1) / w.stride_w + 1, p.out[3]);
  p.fused = index % 2 == 0 ? ctnn::activation::relu : ctnn::activation::none;
  p.activation_min = index % 2 == 0 ? p.output_offset : -128;
  p.activation_max = 127;
  return p;
}
template <std::size_t... I>
constexpr int read_in_place(std::index_sequence<I...>) {
  return (0 + ... + (ctnn::kernel::arm::mve::detail::conv_kernel<strided_pointwise_layer(37, I)>::strided_pointwise &&
                             !ctnn::kernel::arm::mve::detail::conv_kernel<strided_pointwise_layer(37, I)>::gathers
                         ? 1
                         : 0));
}
static_assert(read_in_place(std::make_index_sequence<12>{}) == 8);

TEST_CASE("arm strided 1x1 conv2d with and without ReLU (the MVE kernel's windows read in place) equals the reference kernel") {
  t::check_layers<strided_pointwise_layer, 37>(std::make_index_sequence<12>{});
}
#endif

// TFLite's own input scales: the input with the larger scale has the multiplier 1/2 exactly (2^30, shift 0),
// the other below it, either input first; varied output scales and zero points: each rescale split into a
// line and int8 residuals (add.hpp, rescale_split), the exact line on either side.
constexpr ctnn::kernel_params add_split_layer(std::uint32_t family, std::size_t index) {
  ctnn::kernel_params p = t::add_layer(family, index);
  p.in = p.in2 = p.out = ctnn::make_shape(1, 3 + static_cast<std::int32_t>(index % 4), 5, 7 + static_cast<std::int32_t>(index % 3));
  if (index % 2 == 0) p.input2_multiplier = 1 << 30, p.input2_shift = 0, p.input_shift = -1 - static_cast<std::int32_t>(index / 2 % 3);
  else p.input_multiplier = 1 << 30, p.input_shift = 0, p.input2_shift = -1 - static_cast<std::int32_t>(index / 2 % 3);
  return p;
}
template <std::size_t... I>
constexpr bool all_split(std::index_sequence<I...>) {
  namespace d = ctnn::kernel::arm::detail;
  constexpr auto fits = [](const ctnn::kernel_params& p) {
    const d::rescale_split sa = d::split_rescale(d::rescale_table_of(p.input_offset, p.input_multiplier, p.input_shift, p.left_shift, 2));
    const d::rescale_split sb = d::split_rescale(d::rescale_table_of(p.input2_offset, p.input2_multiplier, p.input2_shift, p.left_shift, 2));
    return sa.fits && sb.fits && (sa.exact != sb.exact);
  };
  return (... && fits(add_split_layer(13, I)));
}
static_assert(all_split(std::make_index_sequence<12>{}));

TEST_CASE("arm add with TFLite's input scales (split rescales) equals the reference kernel") {
  t::check_layers<add_split_layer, 13>(std::make_index_sequence<12>{});
}
