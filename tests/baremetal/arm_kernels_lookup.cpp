// softmax, logistic, tanh, int8 -> int8 / uint8 and uint8 -> int8 quantize and a copying reshape through the DSP kernels
// (kernel/arm/softmax.hpp, lookup.hpp, copy.hpp; arm_kernels_test.hpp), and resize (resize.hpp).
#include "arm_kernels_test.hpp"

namespace t = arm_kernels_test;

// Softmax over rows of odd and even lengths 1 to 300 (past the kernel's 64-element row buffer), one to a
// hundred rows (calls with many elements per distinct exp read a table the compiler computes:
// kernel/arm/softmax.hpp), input scales from 2^-12 (every difference above diff_min) to 2^6 (the beta-scaled
// multiplier capped at 2^31 - 1: only the max counts) times betas 0.3 to 3: TFLite's input multiplier
// and shift (PreprocessSoftmaxScaling, ops/softmax.hpp), its output quantization (zero point -128).
constexpr ctnn::kernel_params softmax_layer(std::uint32_t family, std::size_t index) {
  t::random r{{t::seed_of(family, index)}};
  ctnn::kernel_params p{};
  p.kind = ctnn::op_kind::softmax;
  p.type = p.out_type = ctnn::dtype::i8;
  constexpr std::int32_t depths[] = {1, 3, 6, 12, 37, 63, 64, 65, 127, 199, 256, 300};
  const std::int32_t depth = index < 12 ? depths[index] : 2 * r.in(0, 150) + 1;
  const std::int32_t most_rows = static_cast<std::int32_t>(t::max_elements) / depth;
  const std::int32_t rows = r.in(0, 2) == 0 ? 1 : r.in(1, most_rows < 100 ? most_rows : 100);
  p.in = p.out = index % 3 == 0 ? ctnn::make_shape(rows, depth) : ctnn::make_shape(1, 1, rows, depth);
  p.axis = p.in.rank - 1;
  p.output_offset = -128;
  constexpr double betas[] = {1.0, 1.0, 0.3, 3.0, 1.7};
  const double scale = static_cast<double>(r.in(1, 255)) / 256.0 * static_cast<double>(std::int64_t{1} << r.in(0, 18)) / 4096.0;
  const auto m = ctnn::detail::quant::softmax_input_multiplier(betas[r.in(0, 4)], scale, 5);
  p.input_multiplier = m.multiplier;
  p.input_shift = m.shift;
  return p;
}

TEST_CASE("arm softmax equals the reference kernel on random layers") {
  t::check_layers<softmax_layer, 40>(std::make_index_sequence<24>{});
}

// Rows of 513 to 5000 elements whose exps are all near one (input scale 2^-20): sums of 2^28 and more in Q12, where
// the output's rounding shift exceeds 31 (the kernels' reference division).
constexpr ctnn::kernel_params long_softmax_layer(std::uint32_t family, std::size_t index) {
  ctnn::kernel_params p = softmax_layer(family, index);
  constexpr std::int32_t depths[] = {513, 600, 1001, 2500, 5000};
  const std::int32_t depth = depths[index % 5];
  p.in = p.out = ctnn::make_shape(static_cast<std::int32_t>(t::max_elements) / depth > 1 ? 2 : 1, depth);
  p.axis = 1;
  const auto m = ctnn::detail::quant::softmax_input_multiplier(1.0, 1.0 / 1048576.0, 5);
  p.input_multiplier = m.multiplier;
  p.input_shift = m.shift;
  return p;
}

TEST_CASE("arm softmax equals the reference kernel on long rows (sums of 2^28 and more)") {
  t::check_layers<long_softmax_layer, 43>(std::make_index_sequence<5>{});
}

// Logistic and tanh (a table of the reference's 256 outputs, kernel/arm/lookup.hpp): input scales from
// 2^-12 to 2^4 (TFLM's multiplier of input_scale * 2^27, its left shift), any zero point, 1 to 4000 elements.
constexpr ctnn::kernel_params logistic_tanh_layer(std::uint32_t family, std::size_t index) {
  t::random r{{t::seed_of(family, index)}};
  ctnn::kernel_params p{};
  p.kind = index % 2 == 0 ? ctnn::op_kind::sigmoid : ctnn::op_kind::tanh;
  p.type = p.out_type = ctnn::dtype::i8;
  p.in = p.out = ctnn::make_shape(1, r.in(1, 20), r.in(1, 200));
  p.input_offset = -r.zero_point();
  p.output_offset = p.kind == ctnn::op_kind::sigmoid ? -128 : 0;
  const double scale = static_cast<double>(r.in(1, 255)) / 256.0 * static_cast<double>(std::int64_t{1} << r.in(0, 16)) / 4096.0;
  const auto m = ctnn::detail::quant::logistic_tanh_input_multiplier(static_cast<float>(scale));
  p.input_multiplier = m.multiplier;
  p.input_shift = m.shift;
  return p;
}

TEST_CASE("arm logistic and tanh equal the reference kernel on random layers") {
  t::check_layers<logistic_tanh_layer, 41>(std::make_index_sequence<12>{});
}

// A reshape that copies (kernel/arm/copy.hpp): 1 to 3000 bytes (blocks of 16, words and a tail of bytes).
constexpr ctnn::kernel_params reshape_layer(std::uint32_t family, std::size_t index) {
  t::random r{{t::seed_of(family, index)}};
  ctnn::kernel_params p{};
  p.kind = ctnn::op_kind::reshape;
  p.type = p.out_type = ctnn::dtype::i8;
  const std::int32_t rows = r.in(1, 30), columns = index == 0 ? 1 : r.in(1, 100);
  p.in = ctnn::make_shape(rows, columns);
  p.out = ctnn::make_shape(rows * columns);
  return p;
}

TEST_CASE("arm reshape (a copy) equals the reference kernel") {
  t::check_layers<reshape_layer, 42>(std::make_index_sequence<8>{});
}

// QUANTIZE of int8 to uint8 (odd indices) or int8 (a table of the reference's 256 outputs, kernel/arm/lookup.hpp):
// multipliers as QuantizeMultiplier makes them with shifts -8 to 2 (scale ratios 2^-9 to 4), any zero points; the
// first, TFLM's uint8 <-> int8 shortcut (equal scales, zero points 128 apart).
constexpr ctnn::kernel_params quantize_layer(std::uint32_t family, std::size_t index) {
  t::random r{{t::seed_of(family, index)}};
  ctnn::kernel_params p{};
  p.kind = ctnn::op_kind::quantize;
  p.type = ctnn::dtype::i8;
  p.out_type = index % 2 == 1 ? ctnn::dtype::u8 : ctnn::dtype::i8;
  p.in = p.out = ctnn::make_shape(r.in(1, 9), r.in(1, 300));
  p.input_offset = -r.zero_point();
  p.output_multiplier = t::multiplier(r);
  p.output_shift = r.in(-8, 2);
  p.output_offset = p.out_type == ctnn::dtype::u8 ? r.in(0, 255) : r.zero_point();
  if (index == 1) {
    p.output_multiplier = 1 << 30;
    p.output_shift = 1;
    p.output_offset = -p.input_offset + 128;
  }
  return p;
}

TEST_CASE("arm quantize (int8 to int8 and uint8) equals the reference kernel") {
  t::check_layers<quantize_layer, 43>(std::make_index_sequence<10>{});
}
#if CTNN_ARM_MVE
// The MVE softmax's fixed-point pieces (kernel/arm/mve/softmax.hpp) against the reference's, value by value: the exp
// on arguments spread over [-2^31, 0] (every bit of the barrel shifter's remainder), the reciprocal on sums from 97 to
// some 2^27.
TEST_CASE("arm MVE softmax's exp and reciprocal equal the reference's") {
  namespace fp = ctnn::kernel::reference::int8::fixed_point;
  namespace mve = ctnn::kernel::arm::mve::detail;
  std::int64_t first_bad_exp = 1, first_bad_sum = 0;
  for (std::int64_t v = 0; v >= -2147483648LL && first_bad_exp == 1; v -= 999983) {
    const auto a = static_cast<std::int32_t>(v);
    if (vgetq_lane_s32(mve::exp_q5(vdupq_n_s32(a)), 0) != fp::exp_on_negative_values<5>(a)) first_bad_exp = a;
  }
  for (std::int32_t sum = 97; sum < 140000000 && first_bad_sum == 0; sum += 487) {
    const fp::reciprocal got = mve::reciprocal_of_sum(sum), want = fp::get_reciprocal<12>(sum);
    if (got.scale != want.scale || got.bits_over_unit != want.bits_over_unit) first_bad_sum = sum;
  }
  CHECK(first_bad_exp == 1);
  CHECK(first_bad_sum == 0);
}
#endif

// QUANTIZE of uint8 to int8 (a QDQ model's uint8 result made int8): the DSP family's table, and the first two the
// top-bit flip a word at a time (equal scales, zero points 128 apart; odd lengths); on MVE targets the MVE family's
// gather loads of the same table (kernel/arm/mve/lookup.hpp).
constexpr ctnn::kernel_params quantize_u8_layer(std::uint32_t family, std::size_t index) {
  ctnn::kernel_params p = quantize_layer(family, index + 2);
  t::random r{{t::seed_of(family, index)}};
  p.type = ctnn::dtype::u8;
  p.out_type = ctnn::dtype::i8;
  p.input_offset = -r.in(0, 255);
  p.output_offset = r.zero_point();
  if (index < 2) {
    p.output_multiplier = 1 << 30;
    p.output_shift = 1;
    p.output_offset = -p.input_offset - 128;
  }
  return p;
}

// Layer P of one operand (any 8-bit type) on random bytes: the kernel::invoke reference (no recorded choice) into
// expected_output, the family's kernel into actual_output (check_layer runs int8 layers only).
template <ctnn::kernel_params P>
void run_reference_and_family(std::uint32_t seed) {
  t::operands& o = t::layer_operands;
  t::fill(o, seed);
  const void* const operands[1] = {o.input};
  ctnn::kernel::invoke<P>(operands, t::expected_output, ctnn::kernel::requant_arrays{});
  std::memset(t::actual_output, 0x5A, t::max_elements);
  decltype(t::kernel_family<P>())::run(operands, t::actual_output, ctnn::kernel::requant_arrays{});
}

// (this one in place too.)
template <ctnn::kernel_params P>
void check_quantize_u8(std::uint32_t seed) {
  using kernel = decltype(t::kernel_family<P>());
  static_assert(kernel::supports && ctnn::pass::with_kernel_choice<P>.choice.impl == t::expected_family,
                "select_kernels should choose the family's table for a uint8 -> int8 QUANTIZE");
  constexpr auto bytes = static_cast<std::size_t>(P.out.elements());
  t::operands& o = t::layer_operands;
  run_reference_and_family<P>(seed);
  CHECK_MESSAGE(std::memcmp(t::actual_output, t::expected_output, bytes) == 0, "uint8 -> int8 quantize of " << bytes << " elements");
  std::memcpy(t::in_place_arena, o.input, bytes);
  const void* const in_place[1] = {t::in_place_arena};
  kernel::run(in_place, t::in_place_arena, ctnn::kernel::requant_arrays{});
  CHECK_MESSAGE(std::memcmp(t::in_place_arena, t::expected_output, bytes) == 0, "uint8 -> int8 quantize in place");
}
template <std::size_t... I>
void check_quantize_u8_layers(std::index_sequence<I...>) {
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP  // (on hosts, kernels_arm_portable, the DSP kernels' supports is false)
  static_assert(ctnn::kernel::arm::detail::lookup_kernel<quantize_u8_layer(44, 0)>::flips_top_bit(), "the first is the flip");
#endif
  (check_quantize_u8<quantize_u8_layer(44, I)>(t::seed_of(1044, I)), ...);
}

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
TEST_CASE("arm quantize (uint8 to int8, the top-bit flip too) equals the reference kernel") {
  check_quantize_u8_layers(std::make_index_sequence<6>{});
}
#endif

// Resize (kernel/arm/resize.hpp): TFLite's int8 RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR in NHWC under each of
// align_corners and half_pixel_centers (both too: TFLM takes it), upscales and downscales of odd extents 1 to 15, one
// or two batches, depths 1 to 9 (a third of them 4 or 8: whole quads of channels, blended whole rows at a time, or,
// the downscale of index 2, a pixel at a time); and ONNX's int8 and uint8 Resize nearest in NCHW under its
// coordinates and roundings.
constexpr ctnn::kernel_params resize_layer(std::uint32_t family, std::size_t index) {
  t::random r{{t::seed_of(family, index)}};
  ctnn::kernel_params p{};
  const bool onnx = index % 4 == 3;
  p.kind = index % 2 == 0 ? ctnn::op_kind::resize_linear : ctnn::op_kind::resize_nearest;
  p.type = p.out_type = onnx && index % 8 == 7 ? ctnn::dtype::u8 : ctnn::dtype::i8;
  const std::int32_t batches = r.in(1, 2), depth = index % 3 == 0 || index == 2 ? 4 * r.in(1, 2) : r.in(1, 9);
  // Index 0 a 2x upscale, 2 a downscale, 4 a 1-pixel input; the others at random.
  std::int32_t in_h = r.in(1, 9), in_w = r.in(1, 9), out_h = r.in(1, 15), out_w = r.in(1, 15);
  if (index == 0) out_h = 2 * in_h, out_w = 2 * in_w;
  if (index == 2) in_h = 9, in_w = 8, out_h = 4, out_w = 3;
  if (index == 4) in_h = in_w = 1;
  while (std::int64_t{batches} * depth * out_h * out_w > static_cast<std::int64_t>(t::max_elements)) out_h = (out_h + 1) / 2;
  if (onnx) {
    p.in = ctnn::make_shape(batches, depth, in_h, in_w);
    p.out = ctnn::make_shape(batches, depth, out_h, out_w);
    ctnn::resize_fields f{};
    f.resized_axes = 12u;
    constexpr ctnn::resize_coordinates coordinates[] = {
        ctnn::resize_coordinates::half_pixel, ctnn::resize_coordinates::asymmetric, ctnn::resize_coordinates::align_corners,
        ctnn::resize_coordinates::pytorch_half_pixel, ctnn::resize_coordinates::tf_half_pixel_for_nn};
    f.coordinates = coordinates[r.in(0, 4)];
    f.rounding = static_cast<ctnn::nearest_rounding>(r.in(0, 3));
    for (std::int32_t d = 2; d < 4; ++d) {
      const double scale = static_cast<double>(p.out[d]) / static_cast<double>(p.in[d]);
      ctnn::resize_fields::to_words(f.scale_words, d, scale);
      ctnn::resize_fields::to_words(f.length_words, d, static_cast<double>(p.out[d]));
    }
    p.set(f);
  } else {
    p.in = ctnn::make_shape(batches, in_h, in_w, depth);
    p.out = ctnn::make_shape(batches, out_h, out_w, depth);
    ctnn::resize_fields f{};
    f.resized_axes = 6u;
    f.tflite_options = static_cast<std::uint32_t>((index / 2 + index / 8) % 4);  // bit 0 align_corners, bit 1 half_pixel_centers
    p.set(f);
  }
  return p;
}

template <ctnn::kernel_params P>
void check_resize(std::uint32_t seed) {
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  static_assert(decltype(t::kernel_family<P>())::supports && ctnn::pass::with_kernel_choice<P>.choice.impl == t::expected_family &&
                    ctnn::kernel::arm::i8_kernel<P>::runs == ctnn::kernel_impl::arm_dsp_i8,
                "select_kernels should choose the DSP resize (on MVE targets the MVE family's fallback: it has none of its own)");
#else
  static_assert(!ctnn::kernel::arm::i8_kernel<P>::supports, "without the DSP extension no DSP kernel may be selected");
#endif
  constexpr auto bytes = static_cast<std::size_t>(P.out.elements());
  run_reference_and_family<P>(seed);
  INFO("resize ", doctest::String(ctnn::name_of(P.kind)), " in ", P.in[0], "x", P.in[1], "x", P.in[2], "x", P.in[3], " out ", P.out[0], "x",
       P.out[1], "x", P.out[2], "x", P.out[3], " options ", P.resize().tflite_options, " coordinates ",
       static_cast<int>(P.resize().coordinates), " rounding ", static_cast<int>(P.resize().rounding));
  CHECK(std::memcmp(t::actual_output, t::expected_output, bytes) == 0);
}
template <std::size_t... I>
void check_resize_layers(std::index_sequence<I...>) {
  (check_resize<resize_layer(45, I)>(t::seed_of(1045, I)), ...);
}

// (On hosts, kernels_arm_portable, on the DSP instructions' C++ twins.)
TEST_CASE("arm resize (TFLite's bilinear and nearest, ONNX's nearest) equals the reference kernel") {
  namespace d = ctnn::kernel::arm::detail;
  static_assert(d::resize_bilinear_kernel<resize_layer(45, 0)>::blends_whole_rows &&
                    !d::resize_bilinear_kernel<resize_layer(45, 2)>::blends_whole_rows &&
                    d::resize_bilinear_kernel<resize_layer(45, 2)>::depth % 4 == 0,
                "the layers take both bilinear paths with whole quads of channels");
  check_resize_layers(std::make_index_sequence<16>{});  // (the M55 program within its 512 KB ITCM)
}
