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
