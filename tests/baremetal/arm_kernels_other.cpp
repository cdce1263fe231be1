// dense, avg_pool / global_avg_pool and add through the DSP kernels (kernel/arm/conv.hpp, pool.hpp,
// add.hpp; arm_kernels_test.hpp).
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
