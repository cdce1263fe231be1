// depthwise_conv2d through the DSP kernel (kernel/arm/depthwise.hpp; the MVE one on MVE targets), out of place and in place
// (arm_kernels_test.hpp).
#include "arm_kernels_test.hpp"
#include "kernels/arm_extreme_layers.hpp"

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

TEST_CASE("arm depthwise_conv2d wraps as the reference kernel at the int32 limits (biases, sums, output zero point)") {
  arm_extreme::check_all<arm_extreme::depthwise>(std::make_index_sequence<arm_extreme::depthwise_layers>{});
}
