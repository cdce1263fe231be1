// depthwise_conv2d over channels in eights on wide maps (the MVE kernel's walk without its ring,
// kernel/arm/mve/depthwise.hpp) and on the MLPerf Tiny models' depthwise shapes under each of the
// kernel's requantization variants, against the reference kernel, out of place and in place
// (arm_kernels_test.hpp). A program of its own on the Cortex-M55 (the ITCM's 512 KB).
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

