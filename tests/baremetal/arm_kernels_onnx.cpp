// ONNX's integer conv2d and dense on the DSP kernels (kernel/arm/onnx_conv.hpp: the int8 kernels with ONNX's
// output stage, VCVTR's round half to even on the FPU) against ONNX's integer reference kernels
// (kernel/reference/onnx_quant), bit for bit, on pseudo-random layers drawn at compile time: NHWC convolutions
// of groups 1 and depthwise (layout onnx_nhwc; kernels 1 to 3, strides 1 and 2, dilation 2 at times,
// asymmetric pads), 1x1 convolutions over single-pixel NCHW images (a QDQ Gemm's), MatMul (dense); uint8 and
// int8 inputs and results with any zero point, biases, per-tensor multipliers that are powers of two (products
// land on .5 ties) or not and saturate at times, per-channel weight scales with a zero and an infinite one (NaN
// products: the zero point). Operands packed as the executor packs them (pack<K>), a uint8 input through the
// call's scratch. select_kernels must choose the DSP family for every layer where the DSP extension exists,
// and on MVE targets (the Cortex-M55) the MVE family, whose kernels (kernel/arm/mve/onnx_conv.hpp: the same
// restatement on the MVE conv and depthwise kernels with ONNX's output stage, onnx_output.hpp) are tested
// there in the DSP ones' place (the DSP ones on the Cortex-M4 and M33).
// Without scratch, a uint8 input read after the call (kernel_params::input_restored) is made int8 in place and
// restored: the layers of family 40 again, the input checked unchanged after the call.
// In place (kernel_params::in_place, ctnn::in_place_windows): NHWC layers with the result at the largest shift
// the planner allows below the input (memory/in_place_window.hpp), the DSP kernel and the reference kernel
// (which x86 runs for such calls) each against the reference out of place.
// QLinearAdd: arm_kernels_onnx_add.cpp.
#include "arm_kernels_onnx_test.hpp"

#include <ctnn/kernel/arm/decline.hpp>
#include <ctnn/memory/in_place_window.hpp>

namespace {

using namespace arm_kernels_onnx_test;

// Shape 0: NHWC conv, groups 1; 1: NHWC depthwise; 2: dense; 3: 1x1 conv of single-pixel NCHW images.
constexpr ctnn::kernel_params onnx_layer(std::uint32_t family, std::size_t index) {
  t::random r{{t::seed_of(family, index)}};
  ctnn::kernel_params p{};
  const auto shape_kind = static_cast<std::int32_t>(index % 4);
  p.kind = shape_kind == 2 ? op_kind::dense : op_kind::conv2d;
  p.type = r.in(0, 1) == 0 ? dtype::u8 : dtype::i8;
  p.out_type = r.in(0, 1) == 0 ? dtype::u8 : dtype::i8;
  p.requantization = ctnn::requantization_policy::onnx;
  p.onnx.layout = shape_kind <= 1 ? ctnn::data_layout::onnx_nhwc : ctnn::data_layout::onnx;
  p.onnx.weights_type = dtype::i8;
  std::int32_t out_c = 0;
  std::int64_t terms = 0;
  if (shape_kind == 2) {
    const std::int32_t rows = r.in(1, 4), depth = r.in(1, 40);
    out_c = r.in(1, 20);
    p.in = ctnn::make_shape(rows, depth);
    p.out = ctnn::make_shape(rows, out_c);
    p.in2 = ctnn::make_shape(depth, out_c);
    terms = depth;
  } else if (shape_kind == 3) {
    const std::int32_t batch = r.in(1, 3), in_c = r.in(1, 40);
    out_c = r.in(1, 20);
    p.win = ctnn::window{1, 1, 1, 1, 1, 1, ctnn::padding::explicit_pads, 0, 0, 0, 0};
    p.in = ctnn::make_shape(batch, in_c, 1, 1);
    p.out = ctnn::make_shape(batch, out_c, 1, 1);
    p.groups = 1;
    p.has_bias = r.in(0, 3) != 0 ? 1 : 0;
    terms = in_c;
  } else {
    const bool depthwise = shape_kind == 1;
    const std::int32_t batch = r.in(0, 5) == 0 ? 2 : 1;
    const std::int32_t in_c = depthwise ? r.in(1, 13) : r.in(1, 20);
    out_c = depthwise ? in_c : r.in(1, 11);
    ctnn::window& w = p.win;
    w.kernel_h = r.in(1, 3);
    w.kernel_w = r.in(1, 3);
    w.stride_h = r.in(1, 2);
    w.stride_w = r.in(1, 2);
    w.dilation_h = r.in(0, 3) == 0 ? 2 : 1;
    w.dilation_w = r.in(0, 3) == 0 ? 2 : 1;
    w.mode = ctnn::padding::explicit_pads;
    const std::int32_t span_h = (w.kernel_h - 1) * w.dilation_h + 1, span_w = (w.kernel_w - 1) * w.dilation_w + 1;
    w.pad_top = r.in(0, span_h - 1);
    w.pad_bottom = r.in(0, span_h - 1);
    w.pad_left = r.in(0, span_w - 1);
    w.pad_right = r.in(0, span_w - 1);
    const std::int32_t min_h = span_h - w.pad_top - w.pad_bottom, min_w = span_w - w.pad_left - w.pad_right;
    const std::int32_t in_h = r.in(min_h > 1 ? min_h : 1, 8), in_w = r.in(min_w > 1 ? min_w : 1, 8);
    const std::int32_t out_h = (in_h + w.pad_top + w.pad_bottom - span_h) / w.stride_h + 1;
    const std::int32_t out_w = (in_w + w.pad_left + w.pad_right - span_w) / w.stride_w + 1;
    p.in = ctnn::make_shape(batch, in_h, in_w, in_c);
    p.out = ctnn::make_shape(batch, out_h, out_w, out_c);
    p.groups = depthwise ? in_c : 1;
    p.has_bias = r.in(0, 3) != 0 ? 1 : 0;
    terms = static_cast<std::int64_t>(w.kernel_h) * w.kernel_w * (depthwise ? 1 : in_c);
  }
  p.input_offset = -zero_point_of(p.type, r);
  p.output_offset = zero_point_of(p.out_type, r);
  const float input_scale = index % 3 == 1 ? 0.5f : 0.01f * static_cast<float>(r.in(1, 10));
  const float output_scale = index % 3 == 1 ? 1.0f : 0.05f * static_cast<float>(r.in(1, 10));
  p.onnx.input_scale_bits = std::bit_cast<std::uint32_t>(input_scale);
  p.onnx.output_scale_bits = std::bit_cast<std::uint32_t>(output_scale);
  p.onnx.zero_point_count = 1;
  p.onnx.scale_count = index % 3 == 0 ? 1 : out_c;
  if (p.onnx.scale_count == 1) {
    const float spread = index % 2 == 0 ? 1.0f : 0.25f * static_cast<float>(r.in(1, 24));  // some saturate
    p.onnx.multiplier_bits = std::bit_cast<std::uint32_t>(int8_test::typical_onnx_multiplier(terms) * spread);
  }
  return p;
}

// The NHWC layers (shapes 0 and 1) with their result placed over their input.
constexpr ctnn::kernel_params onnx_layer_in_place(std::uint32_t family, std::size_t index) {
  ctnn::kernel_params p = onnx_layer(family, 4 * (index / 2) + index % 2);
  p.in_place = 1;
  return p;
}

// Layers whose uint8 input is read after the call: run without scratch, they restore it.
constexpr ctnn::kernel_params onnx_layer_restoring(std::uint32_t family, std::size_t index) {
  ctnn::kernel_params p = onnx_layer(family, index);
  p.input_restored = 1;
  return p;
}

constexpr std::int32_t channels_of(const ctnn::kernel_params& p) {
  return p.kind == op_kind::dense ? p.out.last() : p.onnx.layout == ctnn::data_layout::onnx_nhwc ? p.out[3] : p.out[1];
}
constexpr std::int64_t taps_of(const ctnn::kernel_params& p) {
  if (p.kind == op_kind::dense) return p.in.last();
  const std::int32_t in_c = p.onnx.layout == ctnn::data_layout::onnx_nhwc ? p.in[3] : p.in[1];
  return std::int64_t{p.win.kernel_h} * p.win.kernel_w * (in_c / p.groups);
}

// The operands as the kernels' pack<K> reads constants (kernel/kernel_family.hpp).
struct onnx_reader {
  const std::int8_t* weights;
  const std::int32_t* bias;
  const float* scales;
  std::size_t elements;
  std::int8_t i8(std::size_t i) const { return weights[i]; }
  std::int32_t i32(std::size_t i) const { return bias[i]; }
  float f32(std::size_t i) const { return scales[i]; }
  std::size_t count() const { return elements; }
};

inline std::int8_t weights[max_bytes], zero_points[64];
inline std::int32_t bias[64];
inline float scales[64];

template <ctnn::kernel_params P>
void check_onnx_layer(std::uint32_t seed) {
  using kernel = family_kernel<P>;
  CHECK(kernel::supports == family_compiled);
  if constexpr (family_compiled) CHECK(ctnn::pass::with_kernel_choice<P>.choice.impl == family_impl);
  if constexpr (kernel::supports) {
    t::random r{{seed}};
    constexpr auto channels = static_cast<std::size_t>(channels_of(P));
    constexpr auto weight_count = channels * static_cast<std::size_t>(taps_of(P));
    constexpr auto in_bytes = static_cast<std::size_t>(P.in.elements()), out_bytes = static_cast<std::size_t>(P.out.elements());
    static_assert(in_bytes <= max_bytes && out_bytes <= max_bytes && weight_count <= max_bytes && channels <= 64);
    for (std::size_t i = 0; i < in_bytes; ++i) input[i] = static_cast<std::uint8_t>(r.next());
    for (std::size_t i = 0; i < weight_count; ++i) weights[i] = static_cast<std::int8_t>(r.next());
    const float input_scale = std::bit_cast<float>(P.onnx.input_scale_bits), output_scale = std::bit_cast<float>(P.onnx.output_scale_bits);
    const float typical = int8_test::typical_onnx_multiplier(taps_of(P)) * output_scale / input_scale;
    for (std::size_t o = 0; o < channels; ++o) {
      bias[o] = r.in(-20000, 20000);
      const std::int32_t pick = r.in(0, 9);
      scales[o] = pick < 4 ? typical : (pick < 8 ? typical * 0.25f * static_cast<float>(r.in(1, 24)) : typical * 64.0f);
      zero_points[o] = 0;
    }
    if (channels > 2) scales[1] = 0.0f;
    if (channels > 3 && seed % 2 == 0) scales[2] = INFINITY;
    const void* reference_operands[5] = {input, weights, bias, scales, zero_points};
    constexpr ctnn::kernel_params out_of_place = [] {
      ctnn::kernel_params q = P;
      q.in_place = 0;
      return q;
    }();
    ctnn::kernel::invoke<out_of_place>(reference_operands, expected);  // no recorded choice: the reference kernels
    // In place: the input at 2 * max_bytes in the arena, the result at the planner's shift below it.
    std::uint8_t* in_arena = arena + 2 * max_bytes;
    std::uint8_t* result_in_arena = in_arena;
    if constexpr (P.in_place != 0) {
      // (A positive largest shift: the result may start above the input; at the input, as safe.)
      constexpr std::int64_t largest = ctnn::memory::in_place_window_shift(P.in, P.out, P.win);
      constexpr std::int64_t shift = largest < 0 ? largest : 0;
      static_assert(-shift <= static_cast<std::int64_t>(2 * max_bytes));
      result_in_arena = in_arena + shift;
      std::memcpy(in_arena, input, in_bytes);
      const void* in_place_operands[5] = {in_arena, weights, bias, scales, zero_points};
      ctnn::kernel::invoke<P>(in_place_operands, result_in_arena);
      CHECK_MESSAGE(std::memcmp(result_in_arena, expected, out_bytes) == 0, "the reference kernel in place differs");
    }

    const onnx_reader read{weights, bias, scales, weight_count};
    static decltype(kernel::template pack<1>(read)) packed_weights;
    static decltype(kernel::template pack<2>(read)) packed_bias;
    static decltype(kernel::template pack<3>(read)) packed_multipliers;
    packed_weights = kernel::template pack<1>(read);
    packed_bias = kernel::template pack<2>(read);
    packed_multipliers = kernel::template pack<3>(read);
    const void* operands[5] = {input, packed_weights.data(), packed_bias.data(), packed_multipliers.data(), nullptr};
    for (std::size_t i = 0; i < out_bytes; ++i) actual[i] = 0x5a;
    if constexpr (P.in_place != 0) {
      // Without scratch, as the executor calls it where the planner gives none (the input dies here: a
      // uint8 one is made int8 in place); then with the scratch.
      std::memcpy(in_arena, input, in_bytes);
      operands[0] = in_arena;
      kernel::run(operands, result_in_arena, ctnn::kernel::requant_arrays{});
      CHECK_MESSAGE(std::memcmp(result_in_arena, expected, out_bytes) == 0, "in place without scratch differs");
      std::memcpy(in_arena, input, in_bytes);
      kernel::run(operands, result_in_arena, ctnn::kernel::requant_arrays{}, scratch);
      std::memcpy(actual, result_in_arena, out_bytes);
    } else {
      if constexpr (P.input_restored != 0) {
        // Without scratch where the input is read after the call (kernel_params::input_restored): a uint8 input
        // made int8 in place for the call and uint8 again after it.
        std::memcpy(in_arena, input, in_bytes);
        operands[0] = in_arena;
        kernel::run(operands, actual, ctnn::kernel::requant_arrays{});
        CHECK_MESSAGE(std::memcmp(in_arena, input, in_bytes) == 0, "the input is not restored");
        CHECK_MESSAGE(std::memcmp(actual, expected, out_bytes) == 0, "without scratch, restoring the input, differs");
        operands[0] = input;
        for (std::size_t i = 0; i < out_bytes; ++i) actual[i] = 0x5a;
      }
      kernel::run(operands, actual, ctnn::kernel::requant_arrays{}, scratch);
    }
    bool equal = true;
    std::size_t first = 0;
    for (std::size_t i = 0; i < out_bytes && equal; ++i)
      if (expected[i] != actual[i]) equal = false, first = i;
    CHECK_MESSAGE(equal, "ONNX layer: in place " << P.in_place << " kind " << static_cast<int>(P.kind) << " layout " << static_cast<int>(P.onnx.layout) << " in "
                                              << P.in[0] << "x" << P.in[1] << "x" << P.in[2] << "x" << P.in[3] << " groups " << P.groups
                                              << " types " << static_cast<int>(P.type) << "->" << static_cast<int>(P.out_type)
                                              << " scales " << P.onnx.scale_count << ": first difference at byte "
                                              << static_cast<unsigned>(first) << " (" << static_cast<int>(expected[first]) << " vs "
                                              << static_cast<int>(actual[first]) << ")");
  }
}

template <std::uint32_t Family, std::size_t... I>
void check_onnx_layers(std::index_sequence<I...>) {
  (check_onnx_layer<onnx_layer(Family, I)>(t::seed_of(Family + 1000, I)), ...);
}
template <std::uint32_t Family, std::size_t... I>
void check_onnx_layers_in_place(std::index_sequence<I...>) {
  (check_onnx_layer<onnx_layer_in_place(Family, I)>(t::seed_of(Family + 1000, I)), ...);
}
template <std::uint32_t Family, std::size_t... I>
void check_onnx_layers_restoring(std::index_sequence<I...>) {
  (check_onnx_layer<onnx_layer_restoring(Family, I)>(t::seed_of(Family + 1000, I)), ...);
}

}  // namespace

TEST_CASE("arm ONNX integer conv2d, depthwise and dense (ONNX's output stage) equal ONNX's reference kernels") {
  check_onnx_layers<40>(std::make_index_sequence<32>{});
}

TEST_CASE("arm ONNX integer NHWC conv2d and depthwise placed over their input equal ONNX's reference kernels") {
  check_onnx_layers_in_place<41>(std::make_index_sequence<16>{});
}

TEST_CASE("arm ONNX integer conv2d, depthwise and dense without scratch restore a uint8 input that is read later") {
  check_onnx_layers_restoring<40>(std::make_index_sequence<4>{});
}
