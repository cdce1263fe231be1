// dense, avg_pool / global_avg_pool, add, softmax, logistic, tanh and a copying reshape through the DSP kernels
// and int8 -> int8 / uint8 quantize (kernel/arm/conv.hpp, pool.hpp, add.hpp, softmax.hpp, lookup.hpp, copy.hpp;
// the MVE ones on MVE targets, and there max_pool and strided 1x1 convs too; arm_kernels_test.hpp).
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

#if CTNN_ARM_MVE
// The MVE family's own shapes (kernel/arm/mve/): max_pool, and pools over more channels than a vector's
// lanes (groups of eight or sixteen and a last group of fewer), padding and strides as pool_layer draws them
// (the DSP family has no max pool); unpadded strided 1x1 convs (conv.hpp reads their windows in place over
// whole chunks of sixteen channels, else gathers them), with a fused ReLU and without.
constexpr ctnn::kernel_params mve_pool_layer(std::uint32_t family, std::size_t index) {
  ctnn::kernel_params p = t::pool_layer(family, index);
  if (index % 2 == 0) {
    if (p.kind == ctnn::op_kind::global_avg_pool)  // its window over the whole input
      p.win = ctnn::window{p.in[1], p.in[2], 1, 1, 1, 1, ctnn::padding::valid, 0, 0, 0, 0};
    p.kind = ctnn::op_kind::max_pool;
  }
  const std::int32_t channels = 3 + 7 * static_cast<std::int32_t>(index % 5);  // 3 to 31
  p.in = ctnn::make_shape(p.in[0], p.in[1], p.in[2], channels);
  p.out = ctnn::make_shape(p.out[0], p.out[1], p.out[2], channels);
  return p;
}
template <std::size_t... I>
constexpr bool all_mve_pools(std::index_sequence<I...>) {
  return (... && ctnn::kernel::arm::mve::detail::pool_kernel<mve_pool_layer(36, I)>::supports);
}
static_assert(all_mve_pools(std::make_index_sequence<16>{}));

TEST_CASE("arm max_pool, avg_pool and global_avg_pool over many channels (the MVE kernels) equal the reference kernel") {
  t::check_layers<mve_pool_layer, 36>(std::make_index_sequence<16>{});
}

constexpr ctnn::kernel_params strided_pointwise_layer(std::uint32_t family, std::size_t index) {
  ctnn::kernel_params p = t::window_layer(family, index, false, false);
  ctnn::window& w = p.win;
  w.kernel_h = w.kernel_w = w.dilation_h = w.dilation_w = 1;
  w.pad_top = w.pad_bottom = w.pad_left = w.pad_right = 0;
  w.stride_h = 2 + static_cast<std::int32_t>(index % 3 == 2), w.stride_w = 2;
  constexpr std::int32_t in_cs[] = {16, 32, 20, 7, 48, 16};
  const std::int32_t in_c = in_cs[index % 6];
  p.in = ctnn::make_shape(p.in[0], p.in[1], p.in[2], in_c);
  p.out = ctnn::make_shape(p.out[0], (p.in[1] - 1) / w.stride_h + 1, (p.in[2] - 1) / w.stride_w + 1, p.out[3]);
  p.fused = index % 2 == 0 ? ctnn::activation::relu : ctnn::activation::none;
  p.activation_min = index % 2 == 0 ? p.output_offset : -128;
  p.activation_max = 127;
  return p;
}
template <std::size_t... I>
constexpr int read_in_place(std::index_sequence<I...>) {
  return (0 + ... + (ctnn::kernel::arm::mve::detail::conv_kernel<strided_pointwise_layer(37, I)>::strided_pointwise &&
                             !ctnn::kernel::arm::mve::detail::conv_kernel<strided_pointwise_layer(37, I)>::gathers
                         ? 1
                         : 0));
}
static_assert(read_in_place(std::make_index_sequence<12>{}) == 8);

TEST_CASE("arm strided 1x1 conv2d with and without ReLU (the MVE kernel's windows read in place) equals the reference kernel") {
  t::check_layers<strided_pointwise_layer, 37>(std::make_index_sequence<12>{});
}
#endif

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
