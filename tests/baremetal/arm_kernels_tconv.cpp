// The DSP transpose_conv2d kernel (kernel/arm/transpose_conv.hpp), int8 and 16x8, against the reference kernel
// (reference/transpose_conv2d.hpp), bit for bit, on pseudo-random layers drawn at compile time (arm_kernels_test.hpp's
// generator): images of 1 to 6 rows and columns, 1 to 20 input channels (and 16 to 40 in the 1-D and wide layers),
// kernels 1 to 4 (and 1x8 in the 1-D ones), strides 1 to 3, asymmetric pads, results up to one row and column larger
// than the pads give (rows that no input reaches: bias only), batches of 2, odd channel counts, zero points including
// -128 and 127 (int8), fused activation ranges, per-channel multipliers and shifts over TFLite's range, biases up to
// +-2^30 (int8) and +-2^40 (16x8). 16x8 layers whose windows hold more than 508 products (int32 sums would overflow
// where TFLM's int64 ones do not: 4x4 kernels at stride 1 over 33 to 40 channels of 4x4 or 5x5 images) take the
// extreme data in one layer of four.
#include "arm_kernels_test.hpp"

namespace {

namespace t = arm_kernels_test;

constexpr ctnn::kernel_params transpose_layer(std::uint32_t family, std::size_t index, bool s16, bool one_d, bool wide) {
  t::random r{{t::seed_of(family, index)}};
  ctnn::kernel_params p{};
  p.kind = ctnn::op_kind::transpose_conv2d;
  p.type = s16 ? ctnn::dtype::i16 : ctnn::dtype::i8;
  p.out_type = p.type;
  const std::int32_t batch = r.in(0, 5) == 0 ? 2 : 1;
  const std::int32_t in_c = wide ? r.in(33, 40) : one_d ? r.in(16, 40) : r.in(1, 20);
  const std::int32_t out_c = r.in(1, 11);
  ctnn::window& w = p.win;
  w.kernel_h = one_d ? 1 : (wide ? 4 : r.in(1, 4));
  w.kernel_w = one_d ? 8 : (wide ? 4 : r.in(1, 4));
  // (wide: stride 1, every one of the 16 taps reaching a pixel, 528 to 640 products)
  w.stride_h = one_d || wide ? 1 : r.in(1, 3);
  w.stride_w = one_d ? 2 : (wide ? 1 : r.in(1, 3));
  w.pad_top = r.in(0, w.kernel_h - 1);
  w.pad_bottom = r.in(0, w.kernel_h - 1);
  w.pad_left = r.in(0, w.kernel_w - 1);
  w.pad_right = r.in(0, w.kernel_w - 1);
  const std::int32_t in_h = one_d ? 1 : (wide ? r.in(4, 5) : r.in(1, 6)), in_w = one_d ? r.in(3, 12) : (wide ? r.in(4, 5) : r.in(1, 6));
  // The pads' result, one row or column larger at times (TFLite's output_shape may ask for it), at least 1.
  const std::int32_t out_h = (in_h - 1) * w.stride_h + w.kernel_h - w.pad_top - w.pad_bottom + r.in(0, 1);
  const std::int32_t out_w = (in_w - 1) * w.stride_w + w.kernel_w - w.pad_left - w.pad_right + r.in(0, 1);
  p.in = ctnn::make_shape(batch, in_h, in_w, in_c);
  p.out = ctnn::make_shape(batch, out_h < 1 ? 1 : out_h, out_w < 1 ? 1 : out_w, out_c);
  p.has_bias = r.in(0, 3) != 0 ? 1 : 0;
  p.per_channel = 1;
  if (s16) {
    const std::int32_t pick = r.in(0, 2);
    p.fused = pick == 0 ? ctnn::activation::none : (pick == 1 ? ctnn::activation::relu : ctnn::activation::relu6);
    p.activation_min = pick == 0 ? -32768 : 0;
    p.activation_max = pick == 2 ? r.in(0, 32767) : 32767;
  } else {
    p.input_offset = -r.zero_point();
    p.output_offset = r.zero_point();
    t::set_activation(p, r);
  }
  return p;
}

constexpr ctnn::kernel_params int8_layer(std::uint32_t family, std::size_t index) {
  return transpose_layer(family, index, false, false, false);
}
constexpr ctnn::kernel_params int8_1d_layer(std::uint32_t family, std::size_t index) {
  return transpose_layer(family, index, false, true, false);
}
constexpr ctnn::kernel_params s16_layer(std::uint32_t family, std::size_t index) { return transpose_layer(family, index, true, false, false); }
constexpr ctnn::kernel_params s16_1d_layer(std::uint32_t family, std::size_t index) {
  return transpose_layer(family, index, true, true, false);
}
constexpr ctnn::kernel_params s16_wide_layer(std::uint32_t family, std::size_t index) {
  return transpose_layer(family, index, true, false, true);
}

constexpr std::size_t max_inputs = 2 * 6 * 6 * 40, max_outputs = 2 * 22 * 22 * 11;
struct tconv_operands {
  std::int16_t input[max_inputs];
  std::int8_t weights[11 * 16 * 40];
  std::int64_t bias64[11];
  std::int32_t bias32[11];
  std::int32_t multiplier[11];
  std::int32_t shift[11];
};
tconv_operands operands;
std::int8_t input_i8[max_inputs];  // the int8 layers' input: operands.input narrowed (the same numbers)
std::int16_t expected_output[max_outputs], actual_output[max_outputs];

void fill(std::uint32_t seed, bool s16, bool extreme) {
  t::random r{{seed | 1u}};
  for (auto& v : operands.input) {
    if (s16) v = static_cast<std::int16_t>(extreme ? -32768 : r.in(0, 7) == 0 ? (r.in(0, 1) == 0 ? -32768 : 32767) : r.in(-32768, 32767));
    else v = static_cast<std::int16_t>(r.in(-128, 127));
  }
  for (auto& v : operands.weights)
    v = static_cast<std::int8_t>(extreme ? -128 : r.in(0, 7) == 0 ? (r.in(0, 1) == 0 ? -127 : 127) : r.in(-127, 127));
  for (auto& v : operands.bias64)
    v = r.in(0, 7) == 0 ? std::int64_t{r.in(-(1 << 30), 1 << 30)} * 1024 : std::int64_t{r.in(-(1 << 20), 1 << 20)};
  for (auto& v : operands.bias32) v = r.in(0, 7) == 0 ? r.in(-(1 << 30), 1 << 30) : r.in(-(1 << 16), 1 << 16);
  for (auto& v : operands.multiplier) v = t::multiplier(r);
  for (auto& v : operands.shift) {
    const std::int32_t pick = r.in(0, 7);
    v = s16 ? (pick == 0 ? r.in(-31, -20) : (pick == 1 ? r.in(0, 31) : r.in(-19, -1)))
            : (pick == 0 ? r.in(-31, -28) : (pick == 1 ? r.in(0, 4) : r.in(-12, -1)));
  }
}

template <ctnn::kernel_params P>
void check_layer(std::uint32_t seed, bool extreme) {
  using kernel = ctnn::kernel::arm::detail::transpose_conv_kernel<P>;
  constexpr bool s16 = P.type == ctnn::dtype::i16;
  using element = std::conditional_t<s16, std::int16_t, std::int8_t>;
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  static_assert(kernel::supports && ctnn::pass::with_kernel_choice<P>.choice.impl == t::expected_family,
                "select_kernels should choose the DSP transpose_conv2d kernel for every layer of this test");
#else
  static_assert(!kernel::supports, "without the DSP extension no DSP kernel may be selected");
#endif
  static_assert(P.in.elements() <= static_cast<std::int64_t>(max_inputs) && P.out.elements() <= static_cast<std::int64_t>(max_outputs));
  fill(seed, s16, extreme);
  const element* input = nullptr;
  if constexpr (s16) {
    input = operands.input;
  } else {
    for (std::size_t i = 0; i < max_inputs; ++i) input_i8[i] = static_cast<std::int8_t>(operands.input[i]);
    input = input_i8;
  }
  const ctnn::kernel::requant_arrays rq{operands.multiplier, operands.shift};
  const void* const args[3] = {input, operands.weights, s16 ? static_cast<const void*>(operands.bias64) : operands.bias32};
  constexpr auto outputs = static_cast<std::size_t>(P.out.elements());
  auto* expected = reinterpret_cast<element*>(expected_output);
  auto* actual = reinterpret_cast<element*>(actual_output);
  ctnn::kernel::detail::run_i8<P.kind>(ctnn::kernel::static_params<P>{}, args, expected, rq);
  for (auto& v : actual_output) v = 0x5A5A;
  kernel::run(args, actual, rq);
  std::size_t first_difference = outputs;
  for (std::size_t i = 0; i < outputs && first_difference == outputs; ++i)
    if (actual[i] != expected[i]) first_difference = i;
  INFO("transpose_conv2d ", s16 ? "16x8" : "int8", " in ", P.in[0], "x", P.in[1], "x", P.in[2], "x", P.in.last(), " out ", P.out[1], "x",
       P.out[2], "x", P.out.last(), " kernel ", P.win.kernel_h, "x", P.win.kernel_w, " stride ", P.win.stride_h, ",", P.win.stride_w,
       " pads ", P.win.pad_top, ",", P.win.pad_left, " extreme ", extreme, " first difference at ", static_cast<unsigned>(first_difference));
  CHECK(first_difference == outputs);
}

template <auto Layer, std::uint32_t Family, std::size_t... I>
void check_layers(std::index_sequence<I...>) {
  (check_layer<Layer(Family, I)>(t::seed_of(Family + 3000, I), I % 4 == 3 && Layer(Family, I).type == ctnn::dtype::i16), ...);
}

}  // namespace

TEST_CASE("arm int8 transpose_conv2d equals the reference kernel on random layers") {
  check_layers<int8_layer, 41>(std::make_index_sequence<16>{});
  check_layers<int8_1d_layer, 42>(std::make_index_sequence<4>{});
}

TEST_CASE("arm 16x8 transpose_conv2d equals the reference kernel on random layers") {
  check_layers<s16_layer, 43>(std::make_index_sequence<12>{});
  check_layers<s16_1d_layer, 44>(std::make_index_sequence<4>{});
  check_layers<s16_wide_layer, 45>(std::make_index_sequence<4>{});
}
