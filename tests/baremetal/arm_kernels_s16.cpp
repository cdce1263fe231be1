// The 16x8 DSP kernels (kernel/arm/s16.hpp: int16 data, int8 weights, int64 bias) against the reference
// kernels, bit for bit, on pseudo-random layers drawn at compile time (arm_kernels_test.hpp's generator):
// conv2d windows (kernel, stride, dilation, asymmetric padding), pointwise and 1-D convs, dense layers,
// depthwise convs; per-channel multipliers and shifts over TFLite's range, biases up to +-2^40. Every
// fourth layer takes the extreme data (inputs -32768, weights -128: each product +2^22), and some windows
// hold more than 508 products, so that their int32 sums would overflow where TFLM's int64 ones do not. Conv and
// depthwise layers also run in place, the result at the planner's shift over the input
// (memory/in_place_window.hpp, in int16 elements), as ctnn::in_place_windows places them.
#include "arm_kernels_test.hpp"

#include <ctnn/memory/in_place_window.hpp>

namespace {

namespace t = arm_kernels_test;

// A layer of the int8 generator made 16x8: zero points 0, int16 activation ranges, per-channel scales.
constexpr ctnn::kernel_params s16_of(ctnn::kernel_params p, std::uint32_t seed) {
  t::random r{{seed}};
  p.type = ctnn::dtype::i16;
  p.out_type = ctnn::dtype::i16;
  p.input_offset = p.output_offset = p.weights_offset = 0;
  p.per_channel = p.kind == ctnn::op_kind::dense ? r.in(0, 1) : 1;
  if (p.per_channel == 0) {
    p.output_multiplier = t::multiplier(r);
    p.output_shift = r.in(-31, 2);
  }
  const std::int32_t pick = r.in(0, 2);
  p.fused = pick == 0 ? ctnn::activation::none : (pick == 1 ? ctnn::activation::relu : ctnn::activation::relu6);
  p.activation_min = pick == 0 ? -32768 : 0;
  p.activation_max = pick == 2 ? r.in(0, 32767) : 32767;
  return p;
}

constexpr ctnn::kernel_params conv_layer(std::uint32_t family, std::size_t index) {
  return s16_of(t::window_layer(family, index, false, false), t::seed_of(family + 77, index));
}
constexpr ctnn::kernel_params pointwise_layer(std::uint32_t family, std::size_t index) {
  return s16_of(t::pointwise_layer_of(family, index, false), t::seed_of(family + 77, index));
}
// 1-D: a kernel row over one input row (audio models' convs).
constexpr ctnn::kernel_params conv_1d_layer(std::uint32_t family, std::size_t index) {
  ctnn::kernel_params p = t::window_layer(family, index, false, false);
  const std::int32_t span_w = (p.win.kernel_w - 1) * p.win.dilation_w + 1;
  p.win.kernel_h = p.win.stride_h = p.win.dilation_h = 1;
  p.win.pad_top = p.win.pad_bottom = 0;
  const std::int32_t in_w = p.in[2] + 8;
  p.in = ctnn::make_shape(p.in[0], 1, in_w, p.in[3]);
  p.out =
      ctnn::make_shape(p.in[0], 1, (in_w + p.win.pad_left + p.win.pad_right - span_w) / p.win.stride_w + 1, p.out[3]);
  return s16_of(p, t::seed_of(family + 77, index));
}
// Windows of 3x3 x 48..71 channels (432..639 products): over exact_terms in most.
constexpr ctnn::kernel_params wide_conv_layer(std::uint32_t family, std::size_t index) {
  ctnn::kernel_params p = t::window_layer(family, index, false, false);
  t::random r{{t::seed_of(family + 99, index)}};
  p.win = ctnn::window{};
  p.win.kernel_h = p.win.kernel_w = 3;
  p.win.pad_top = p.win.pad_left = p.win.pad_bottom = p.win.pad_right = 1;
  const std::int32_t in_c = r.in(48, 71);
  p.in = ctnn::make_shape(1, 3, 4, in_c);
  p.out = ctnn::make_shape(1, 3, 4, r.in(1, 5));
  return s16_of(p, t::seed_of(family + 77, index));
}
constexpr ctnn::kernel_params dense_layer(std::uint32_t family, std::size_t index) {
  ctnn::kernel_params p = t::dense_layer(family, index);
  if (index % 3 == 2) {  // many features: sums flushed into int64
    t::random r{{t::seed_of(family + 99, index)}};
    p.in = ctnn::make_shape(p.in[0], r.in(509, 1100));
  }
  return s16_of(p, t::seed_of(family + 77, index));
}
constexpr ctnn::kernel_params depthwise_layer(std::uint32_t family, std::size_t index) {
  return s16_of(t::window_layer(family, index, true, false), t::seed_of(family + 77, index));
}
constexpr ctnn::kernel_params conv_layer_in_place(std::uint32_t family, std::size_t index) {
  return s16_of(t::window_layer(family, index, false, true), t::seed_of(family + 77, index));
}
constexpr ctnn::kernel_params pointwise_layer_in_place(std::uint32_t family, std::size_t index) {
  return s16_of(t::pointwise_layer_of(family, index, true), t::seed_of(family + 77, index));
}
constexpr ctnn::kernel_params depthwise_layer_in_place(std::uint32_t family, std::size_t index) {
  return s16_of(t::window_layer(family, index, true, true), t::seed_of(family + 77, index));
}

constexpr std::size_t max_elements = 4096;  // the largest layer: a dense one of 3 x 1100 inputs
struct s16_operands {
  std::int16_t input[max_elements];
  std::int8_t weights[21 * 1100];  // the largest: a dense layer of 1100 features and 21 units
  std::int64_t bias[64];
  std::int32_t multiplier[64];
  std::int32_t shift[64];
};
s16_operands operands;
std::int16_t expected_output[max_elements], actual_output[max_elements], in_place_arena[3 * max_elements];

void fill(std::uint32_t seed, bool extreme) {
  t::random r{{seed | 1u}};
  for (auto& v : operands.input)
    v = static_cast<std::int16_t>(extreme           ? -32768
                                  : r.in(0, 7) == 0 ? (r.in(0, 1) == 0 ? -32768 : 32767)
                                                    : r.in(-32768, 32767));
  for (auto& v : operands.weights) v = static_cast<std::int8_t>(extreme ? -128 : r.in(-128, 127));
  for (auto& v : operands.bias)
    v = r.in(0, 7) == 0 ? std::int64_t{r.in(-(1 << 30), 1 << 30)} * 1024 : std::int64_t{r.in(-(1 << 20), 1 << 20)};
  for (auto& v : operands.multiplier) v = t::multiplier(r);
  for (auto& v : operands.shift) {
    const std::int32_t pick = r.in(0, 7);
    v = pick == 0 ? r.in(-31, -20) : (pick == 1 ? r.in(0, 31) : r.in(-19, -1));  // 15 to 31: left shifts
  }
}

template <ctnn::kernel_params P>
constexpr auto s16_kernel() {
  namespace d = ctnn::kernel::arm::detail;
  if constexpr (P.kind == ctnn::op_kind::depthwise_conv2d)
    return d::depthwise_s16_kernel<P>{};
  else
    return d::conv_s16_kernel<P>{};
}

// Runs layer P with the reference kernel and the DSP kernel (the instructions' C++ twins on hosts).
template <ctnn::kernel_params P>
void check_equal(std::size_t outputs, bool extreme, std::size_t placement);

template <ctnn::kernel_params P>
void check_layer(std::uint32_t seed, bool extreme) {
  using kernel = decltype(s16_kernel<P>());
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  static_assert(kernel::supports && ctnn::pass::with_kernel_choice<P>.choice.impl == t::expected_family,
                "select_kernels should choose the 16x8 DSP kernels for every layer of this test");
#else
  static_assert(!kernel::supports, "without the DSP extension no DSP kernel may be selected");
#endif
  static_assert(P.in.elements() <= static_cast<std::int64_t>(max_elements) &&
                P.out.elements() <= static_cast<std::int64_t>(max_elements));
  fill(seed, extreme);
  const ctnn::kernel::requant_arrays rq{operands.multiplier, operands.shift};
  const void* const args[3] = {operands.input, operands.weights, operands.bias};
  ctnn::kernel::detail::run_i8<P.kind>(ctnn::kernel::static_params<P>{}, args, expected_output, rq);
  for (auto& v : actual_output) v = 0x5A5A;
  constexpr auto outputs = static_cast<std::size_t>(P.out.elements());
  // In place: the result at the planner's shift below the input, and one element further (the depthwise
  // kernel's channel-major walk needs a distance of whole pixels: this checks its pixel-major one).
  for (std::size_t placement = 0; placement < (P.in_place == 0 ? 1u : 2u); ++placement) {
    if constexpr (P.in_place == 0) {
      kernel::run(args, actual_output, rq);
    } else {
      constexpr std::int64_t shift = ctnn::memory::in_place_window_shift(P.in, P.out, P.win);
      static_assert(shift <= 0);
      constexpr std::size_t input_at = 2 * max_elements;
      const auto output_at = static_cast<std::size_t>(static_cast<std::int64_t>(input_at) + shift) - placement;
      std::memcpy(in_place_arena + input_at, operands.input, static_cast<std::size_t>(P.in.elements()) * 2);
      const void* const in_place_args[3] = {in_place_arena + input_at, operands.weights, operands.bias};
      kernel::run(in_place_args, in_place_arena + output_at, rq);
      std::memcpy(actual_output, in_place_arena + output_at, outputs * 2);
    }
    check_equal<P>(outputs, extreme, placement);
  }
}

template <ctnn::kernel_params P>
void check_equal(std::size_t outputs, bool extreme, std::size_t placement) {
  std::size_t first_difference = outputs;
  for (std::size_t i = 0; i < outputs && first_difference == outputs; ++i)
    if (actual_output[i] != expected_output[i]) first_difference = i;
  INFO("16x8 layer ", doctest::String(ctnn::name_of(P.kind)), " in ", P.in[0], "x", P.in[1], "x", P.in[2], "x",
       P.in.last(), " out ", P.out.last(), " kernel ", P.win.kernel_h, "x", P.win.kernel_w, " stride ", P.win.stride_h,
       ",", P.win.stride_w, " dilation ", P.win.dilation_h, ",", P.win.dilation_w, " pads ", P.win.pad_top, ",",
       P.win.pad_left, " in place ", P.in_place, " (placement ", static_cast<unsigned>(placement), ") extreme ",
       extreme, " first difference at ", static_cast<unsigned>(first_difference));
  CHECK(first_difference == outputs);
}

template <auto Layer, std::uint32_t Family, std::size_t... I>
void check_layers(std::index_sequence<I...>) {
  (check_layer<Layer(Family, I)>(t::seed_of(Family + 2000, I), I % 4 == 3), ...);
}

}  // namespace

TEST_CASE("arm 16x8 conv2d equals the reference kernel on random layers") {
  check_layers<conv_layer, 21>(std::make_index_sequence<12>{});
  check_layers<pointwise_layer, 22>(std::make_index_sequence<6>{});
  check_layers<conv_1d_layer, 23>(std::make_index_sequence<6>{});
  check_layers<wide_conv_layer, 24>(std::make_index_sequence<4>{});
  check_layers<conv_layer_in_place, 27>(std::make_index_sequence<8>{});
  check_layers<pointwise_layer_in_place, 28>(std::make_index_sequence<4>{});
}

TEST_CASE("arm 16x8 dense equals the reference kernel on random layers") {
  check_layers<dense_layer, 25>(std::make_index_sequence<9>{});
}

TEST_CASE("arm 16x8 depthwise_conv2d equals the reference kernel on random layers") {
  check_layers<depthwise_layer, 26>(std::make_index_sequence<10>{});
  check_layers<depthwise_layer_in_place, 29>(std::make_index_sequence<6>{});
}
