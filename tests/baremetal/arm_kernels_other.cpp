// dense, avg_pool / global_avg_pool and add through the DSP kernels (kernel/arm/conv.hpp, pool.hpp,
// add.hpp; arm_kernels_test.hpp).
#include "arm_kernels_test.hpp"

namespace t = arm_kernels_test;

TEST_CASE("arm dense equals the reference kernel on random layers") {
  t::check_layers<t::dense_layer, 5>(std::make_index_sequence<16>{});
}

TEST_CASE("arm avg_pool and global_avg_pool equal the reference kernel on random layers") {
  t::check_layers<t::pool_layer, 6>(std::make_index_sequence<16>{});
}

TEST_CASE("arm add equals the reference kernel on random layers") {
  t::check_layers<t::add_layer, 7>(std::make_index_sequence<12>{});
}
