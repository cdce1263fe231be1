// The Armv6-M int8 kernels (kernel/arm/v6m/: conv2d, dense, depthwise_conv2d, add) against the reference kernels,
// bit for bit, on the layers of arm_kernels_test.hpp (odd shapes, windows with stride, dilation and
// asymmetric padding, zero points at the extremes, per-channel shifts from -31 to +4, in place at the
// planner's shift) and on layers of the MLPerf Tiny models' sizes. Built for the Cortex-M0+ (run on
// mps2-an385: the Thumb-1 inner loops), where select_kernels must choose this family for every layer, and for
// the host (kernels_arm_portable: the kernels' C++ loops).
#include "arm_kernels_test.hpp"

#include <ctnn/kernel/arm/v6m/i8.hpp>

namespace t = arm_kernels_test;

namespace {

// The reference kernel's output and the Armv6-M kernel's, out of place, and in place where P says so.
template <ctnn::kernel_params P>
void check_v6m_layer(std::uint32_t seed) {
  using kernel = ctnn::kernel::arm::v6m::i8_kernel<P>;
  static_assert(kernel::supports, "the Armv6-M family should take every layer of this test");
#if CTNN_DETAIL_ARMV6M_KERNEL_FAMILY  // an M-profile build (on the host the family is not read: kernel/dispatch.hpp)
  static_assert(ctnn::pass::choose_kernel<P, ctnn::instruction_set::armv6m>().impl == ctnn::kernel_impl::arm_v6m_i8,
                "select_kernels should choose the Armv6-M family for every layer of this test");
#endif
  static_assert(P.in.elements() <= static_cast<std::int64_t>(t::max_elements) && P.out.elements() <= static_cast<std::int64_t>(t::max_elements));
  t::operands& o = t::layer_operands;
  t::fill(o, seed);
  const ctnn::kernel::requant_arrays rq{o.multiplier, o.shift};
  const bool binary = P.kind == ctnn::op_kind::add;
  const void* const args[3] = {o.input, binary ? static_cast<const void*>(o.input2) : o.weights, o.bias};
  constexpr std::size_t out_bytes = static_cast<std::size_t>(P.out.elements());
  constexpr ctnn::kernel_params out_of_place = [] {
    ctnn::kernel_params q = P;
    q.in_place = 0;
    return q;
  }();
  ctnn::kernel::invoke_i8<out_of_place>(args, t::expected_output, rq);
  const void* weights = binary ? static_cast<const void*>(o.input2) : t::weights_for<P, kernel>(o.weights);
  // In place: the result at the planner's shift below the input, and (depthwise: its blocks of pixels need a
  // distance of whole pixels) one byte further, which takes the pixel-by-pixel order.
  constexpr int placements = P.in_place == 0 ? 1 : 2;
  for (int placement = 0; placement < placements; ++placement) {
    std::memset(t::actual_output, 0x5A, t::max_elements);
    if constexpr (P.in_place == 0) {
      const void* const kernel_args[3] = {o.input, weights, o.bias};
      kernel::run(kernel_args, t::actual_output, rq);
    } else {
      constexpr std::int64_t shift = ctnn::memory::in_place_window_shift(P.in, P.out, P.win);
      static_assert(shift <= 0);
      constexpr std::size_t input_at = 2 * t::max_elements;
      const auto output_at = static_cast<std::size_t>(static_cast<std::int64_t>(input_at) + shift - placement);
      std::memcpy(t::in_place_arena + input_at, o.input, static_cast<std::size_t>(P.in.elements()));
      const void* const in_place_args[3] = {t::in_place_arena + input_at, weights, o.bias};
      kernel::run(in_place_args, t::in_place_arena + output_at, rq);
      std::memcpy(t::actual_output, t::in_place_arena + output_at, out_bytes);
    }
    t::check_equal<P>(t::expected_output, t::actual_output, out_bytes, placement);
  }
}

template <auto Layer, std::uint32_t Family, std::size_t... I>
void check_v6m_layers(std::index_sequence<I...>) {
  (check_v6m_layer<Layer(Family, I)>(t::seed_of(Family + 2000, I)), ...);
}

// Layers of the models' sizes: KWS's first conv (10 x 4 over one channel, stride 2, padded), a 3 x 3 conv
// over 16 channels as IC's (padded), a pointwise conv of 20 x 64 channels in place (KWS), a dense layer of
// 128 x 640 as AD's (per tensor).
constexpr ctnn::kernel_params model_conv(std::uint32_t family, std::size_t index) {
  ctnn::kernel_params p = t::window_layer(family, index, false, index == 2);
  ctnn::window& w = p.win;
  w = ctnn::window{};
  if (index == 0) {
    w.kernel_h = 10, w.kernel_w = 4, w.stride_h = w.stride_w = 2, w.pad_top = 4, w.pad_bottom = 5, w.pad_left = 1, w.pad_right = 1;
    p.in = ctnn::make_shape(1, 13, 7, 1);
    p.out = ctnn::make_shape(1, 7, 4, 13);
  } else if (index == 1) {
    w.kernel_h = w.kernel_w = 3, w.pad_top = w.pad_bottom = w.pad_left = w.pad_right = 1;
    p.in = ctnn::make_shape(1, 6, 5, 16);
    p.out = ctnn::make_shape(1, 6, 5, 16);
  } else {
    p.in = ctnn::make_shape(1, 5, 4, 64);
    p.out = ctnn::make_shape(1, 5, 4, 62);
  }
  return p;
}
constexpr ctnn::kernel_params model_dense(std::uint32_t family, std::size_t index) {
  ctnn::kernel_params p = t::dense_layer(family, index);
  p.in = ctnn::make_shape(1, 640);
  p.out = ctnn::make_shape(1, 7 + static_cast<std::int32_t>(index));
  return p;
}

}  // namespace

TEST_CASE("Armv6-M conv2d equals the reference kernel on random layers") {
  check_v6m_layers<t::conv_layer, 1>(std::make_index_sequence<10>{});
  check_v6m_layers<t::conv_layer_in_place, 2>(std::make_index_sequence<5>{});
  check_v6m_layers<t::pointwise_layer, 5>(std::make_index_sequence<5>{});
  check_v6m_layers<t::pointwise_layer_in_place, 6>(std::make_index_sequence<4>{});
  check_v6m_layers<model_conv, 9>(std::make_index_sequence<3>{});
}

TEST_CASE("Armv6-M dense equals the reference kernel on random layers") {
  check_v6m_layers<t::dense_layer, 7>(std::make_index_sequence<8>{});
  check_v6m_layers<model_dense, 8>(std::make_index_sequence<2>{});
}

TEST_CASE("Armv6-M depthwise_conv2d equals the reference kernel on random layers") {
  check_v6m_layers<t::depthwise_layer, 3>(std::make_index_sequence<10>{});
  check_v6m_layers<t::depthwise_layer_in_place, 4>(std::make_index_sequence<5>{});
  check_v6m_layers<t::depthwise_model_layer, 11>(std::make_index_sequence<4>{});
}

TEST_CASE("Armv6-M add equals the reference kernel on random layers") {
  check_v6m_layers<t::add_layer, 12>(std::make_index_sequence<6>{});
}

TEST_CASE("Armv6-M requantization's 32-bit product equals the 64-bit one") {
  t::random r{{12345u}};
  for (int i = 0; i < 4000; ++i) {
    const auto a = static_cast<std::int32_t>(r.next()) >> r.in(0, 20);
    const auto m = static_cast<std::int32_t>(r.next() & 0x7FFFFFFFu);
    const auto expected = static_cast<std::int32_t>((static_cast<std::int64_t>(a) * m + (std::int64_t{1} << 30)) >> 31);
    CHECK(ctnn::kernel::arm::v6m::doubling_high_mul(a, m) == expected);
  }
}
