// conv2d through the DSP kernel (kernel/arm/conv.hpp), out of place and in place (arm_kernels_test.hpp).
#include "arm_kernels_test.hpp"
#include "kernels/arm_extreme_layers.hpp"

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

TEST_CASE("arm conv2d and dense wrap as the reference kernel at the int32 limits (biases, sums, output zero point)") {
  arm_extreme::check_all<arm_extreme::conv>(std::make_index_sequence<arm_extreme::conv_layers>{});
}
