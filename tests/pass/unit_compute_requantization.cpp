// Unit tests of pass::compute_requantization: each quantized call's integer recipe (TFLite's Q31
// multipliers and shifts, ONNX's float multipliers) in its kernel_params, and each table it needs
// recorded as a recipe in the module (kernel_call::requantization), which the runtime materialises
// (runtime/requantization.hpp). The expected values come from ctnn::detail::quant's primitives applied to
// the tensors' scales here, not from the pass.
#include <array>
#include <bit>
#include <cstdint>
#include <initializer_list>
#include <string>

#include <doctest/doctest.h>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/print/printer.hpp>
#include <ctnn/pass/compute_requantization.hpp>
#include <ctnn/pass/infer_types.hpp>
#include <ctnn/pass/lower_te.hpp>
#include <ctnn/runtime/requantization.hpp>

namespace {

using ctnn::dtype;
using ctnn::make_shape;
using ctnn::op_kind;
using ctnn::requantization_table;
using ctnn::tensor_role;
namespace quant = ctnn::detail::quant;

inline constexpr std::array<std::int8_t, 4 * 2> conv_w{1, -2, 3, -4, 5, -6, 7, -8};
inline constexpr float conv_scales[4] = {0.004f, 0.007f, 0.0031f, 0.01f};

constexpr ctnn::quantization q(float scale, std::int32_t zero_point) {
  ctnn::quantization r{};
  r.scale = scale;
  r.zero_point = zero_point;
  return r;
}

// Builds a module's tensors and ops by hand.
template <class Module>
struct builder {
  Module& m;
  constexpr std::int32_t tensor(ctnn::shape dims, dtype type, tensor_role role, ctnn::quantization quantization) {
    ctnn::tensor t{};
    t.dims = dims, t.type = type, t.role = role, t.quant = quantization;
    return m.add_tensor(t);
  }
  template <class Attributes>
  constexpr void op(op_kind kind, std::initializer_list<std::int32_t> inputs, std::int32_t output, Attributes attributes) {
    ctnn::node n{};
    n.kind = kind;
    n.inputs.fill(-1);
    for (std::int32_t in : inputs) n.inputs[static_cast<std::size_t>(n.input_count++)] = in;
    n.output = output;
    attributes(n.attrs);
    m.tensor_at(output).producer = m.node_count;
    m.nodes[static_cast<std::size_t>(m.node_count++)] = n;
  }
};

// TFLite policy. x [1,4,4,2] -> conv 1x1 relu (a), conv 1x1 with the same weights and scales (b)
//   -> add(a, b) (c) -> concat(a, c) on channels (y): a's quantization differs from y's.
struct tflite_model {
  static constexpr auto build() {
    ctnn::module<12, 6> m{};
    m.model_name = ctnn::name{"requantized"};
    builder<decltype(m)> b{m};
    const std::int32_t x = b.tensor(make_shape(1, 4, 4, 2), dtype::i8, tensor_role::input, q(0.02f, -5));
    m.tensor_at(x).io_index = 0;
    ctnn::quantization per_channel{};
    per_channel.scale = conv_scales[0], per_channel.scales = conv_scales, per_channel.channel_count = 4, per_channel.axis = 0;
    const std::int32_t w = b.tensor(make_shape(4, 1, 1, 2), dtype::i8, tensor_role::constant, per_channel);
    m.tensor_at(w).data.i8 = conv_w.data();
    const std::int32_t a = b.tensor({}, dtype::i8, tensor_role::intermediate, q(0.05f, -128));
    const std::int32_t a2 = b.tensor({}, dtype::i8, tensor_role::intermediate, q(0.05f, -128));
    const std::int32_t c = b.tensor({}, dtype::i8, tensor_role::intermediate, q(0.1f, 2));
    const std::int32_t y = b.tensor({}, dtype::i8, tensor_role::output, q(0.1f, 2));
    m.tensor_at(y).io_index = 0;
    const auto conv = [](auto& at) { at.win.kernel_h = at.win.kernel_w = 1, at.units = 4, at.fused = ctnn::activation::relu; };
    b.op(op_kind::conv2d, {x, w}, a, conv);
    b.op(op_kind::conv2d, {x, w}, a2, conv);
    b.op(op_kind::add, {a, a2}, c, [](auto&) {});
    b.op(op_kind::concat, {a, c}, y, [](auto& at) { at.axis = 3; });
    m.inputs[0] = x, m.input_count = 1;
    m.outputs[0] = y, m.output_count = 1;
    return m;
  }
};

constexpr auto lowered = ctnn::pass::lower_te::run(ctnn::pass::infer_types::run(tflite_model::build()));
static_assert(!lowered.error.failed() && lowered.call_count == 4);

// The two convolutions: equal parameters (one kernel) and one table recipe, keyed by the scales alone.
constexpr const ctnn::kernel_call& conv_call = lowered.calls[0];
static_assert(conv_call.params.per_channel == 1 && conv_call.kernel == lowered.calls[1].kernel);
static_assert(conv_call.requantization.table == requantization_table::channel_multipliers &&
              conv_call.requantization.channels == 4 && conv_call.requantization.weight_channels == 4 &&
              conv_call.requantization.weight_scales == conv_scales &&
              conv_call.requantization.input_scale_bits == std::bit_cast<std::uint32_t>(0.02f) &&
              conv_call.requantization.output_scale_bits == std::bit_cast<std::uint32_t>(0.05f));
static_assert(conv_call.requantization == lowered.calls[1].requantization);
static_assert(conv_call.params.input_offset == 5 && conv_call.params.output_offset == -128 &&
              conv_call.params.activation_min == -128 && conv_call.params.activation_max == 127);

// add: TFLite's left shift of 20 and three multipliers from twice the larger input scale.
constexpr const ctnn::kernel_params& add_params = lowered.calls[2].params;
static_assert(add_params.left_shift == 20 && lowered.calls[2].requantization.table == requantization_table::none);
static_assert(add_params.input_multiplier == quant::quantize_multiplier(double{0.05f} / (2 * double{0.05f})).multiplier &&
              add_params.input_shift == quant::quantize_multiplier(double{0.05f} / (2 * double{0.05f})).shift);
static_assert(add_params.output_multiplier == quant::quantize_multiplier(2 * double{0.05f} / ((1 << 20) * double{0.1f})).multiplier);

// concat: one input is quantized differently, so a per-input table.
static_assert(lowered.calls[3].params.concat().rescales_inputs == 1 && lowered.calls[3].params.per_channel == 0 &&
              lowered.calls[3].requantization.table == requantization_table::concat_inputs &&
              lowered.calls[3].requantization.channels == 2);

// The runtime materialises the recipes: per channel QuantizeMultiplier(in * w[c] / out); the two
// convolutions read one table; the concat's scales are in * (1 / out).
static_assert(ctnn::requantization_of<lowered, 0>().multiplier == ctnn::requantization_of<lowered, 1>().multiplier);
static_assert(ctnn::channel_requantization_v<conv_call.requantization>.multiplier[3] ==
              quant::channel_multiplier(0.02f, conv_scales[3], 0.05f).multiplier);
static_assert(ctnn::requantization_v<lowered, 3>.scale[0] == 0.05f * (1.0f / 0.1f) && ctnn::requantization_v<lowered, 3>.requantize[1] == 0);

// As a pass of its own, on the lowered module: nothing changes (the recipes are functions of the
// tensors' quantization) ...
constexpr auto again = ctnn::pass::compute_requantization::run(lowered);
static_assert(again.kernel_count == lowered.kernel_count && again.calls[0].params == lowered.calls[0].params &&
              again.calls[2].params == lowered.calls[2].params && again.calls[3].requantization == lowered.calls[3].requantization);

// ... and after a scale changed (what a pass of yours may do), every recipe that reads it follows, and
// the two convolutions no longer share a kernel.
constexpr auto rescaled = [] {
  auto m = lowered;
  m.tensor_at(m.calls[1].result).quant.scale = 0.08f;
  m.tensor_at(m.calls[1].result).quant.zero_point = 0;
  return ctnn::pass::compute_requantization::run(m);
}();
static_assert(rescaled.calls[0].kernel != rescaled.calls[1].kernel && rescaled.kernel_count == lowered.kernel_count + 1);
static_assert(rescaled.calls[1].params.output_offset == 0 &&
              rescaled.calls[1].requantization.output_scale_bits == std::bit_cast<std::uint32_t>(0.08f));
static_assert(rescaled.calls[2].params.input2_multiplier == quant::quantize_multiplier(double{0.08f} / (2 * double{0.08f})).multiplier);
static_assert(rescaled.calls[0].requantization == lowered.calls[0].requantization);

// ONNX policy: a QLinearConv (NCHW, uint8) with a per-tensor weight scale: float multiplier
// float(x_scale * w_scale) / y_scale, zero points as offsets, no table.
inline constexpr char onnx_w[3 * 2] = {1, 2, 3, 4, 5, 6};  // uint8 weights, as a model file holds them
inline constexpr char onnx_w_scales[3 * 4] = {0, 0, 0, 63, 0, 0, 0, 63, 0, 0, 0, 63};  // 0.5f, little-endian
// PerChannel: the weights' zero points are ZeroPoints, per channel (operand 4, with per-channel scales as
// operand 3); otherwise per tensor (scale 0.5, zero point 7).
template <bool PerChannel = false, const char* ZeroPoints = onnx_w>
struct onnx_model {
  static constexpr auto build() {
    ctnn::module<6, 1> m{};
    m.requantization = ctnn::requantization_policy::onnx;
    builder<decltype(m)> b{m};
    const std::int32_t x = b.tensor(make_shape(1, 2, 3, 3), dtype::u8, tensor_role::input, q(0.02f, 128));
    m.tensor_at(x).io_index = 0;
    const std::int32_t w = b.tensor(make_shape(3, 2, 1, 1), dtype::u8, tensor_role::constant, q(0.5f, PerChannel ? 0 : 7));
    m.tensor_at(w).data.bytes = onnx_w;
    const std::int32_t y = b.tensor(make_shape(1, 3, 3, 3), dtype::u8, tensor_role::output, q(0.25f, 3));
    m.tensor_at(y).io_index = 0;
    const auto attributes = [](auto& at) {
      at.win.kernel_h = at.win.kernel_w = 1, at.units = 3, at.layout = ctnn::data_layout::onnx;
    };
    if constexpr (PerChannel) {
      const std::int32_t scales = b.tensor(make_shape(3), dtype::f32, tensor_role::constant, {});
      m.tensor_at(scales).data.bytes = onnx_w_scales;
      const std::int32_t zero_points = b.tensor(make_shape(3), dtype::u8, tensor_role::constant, {});
      m.tensor_at(zero_points).data.bytes = ZeroPoints;
      b.op(op_kind::conv2d, {x, w, -1, scales, zero_points}, y, attributes);
    } else {
      b.op(op_kind::conv2d, {x, w}, y, attributes);
    }
    m.inputs[0] = x, m.input_count = 1;
    m.outputs[0] = y, m.output_count = 1;
    return m;
  }
};
constexpr auto onnx_lowered = ctnn::pass::lower_te::run(onnx_model<>::build());
constexpr const ctnn::kernel_params& onnx_params = onnx_lowered.calls[0].params;
static_assert(!onnx_lowered.error.failed() && onnx_params.requantization == ctnn::requantization_policy::onnx);
static_assert(onnx_params.input_offset == -128 && onnx_params.weights_offset == -7 && onnx_params.output_offset == 3 &&
              onnx_params.onnx.scale_count == 1 && onnx_params.out_type == dtype::u8);
static_assert(onnx_params.onnx.multiplier_bits == std::bit_cast<std::uint32_t>(0.02f * 0.5f / 0.25f));
static_assert(onnx_params.output_multiplier == 0 && onnx_lowered.calls[0].requantization.table == requantization_table::none);
static_assert(ctnn::pass::compute_requantization::run(onnx_lowered).calls[0].params == onnx_params);

// Per-channel weight zero points (operand 4, a constant) that are all equal are recorded per tensor
// (zero_point_count 1, weights_offset): what the x86 int8 kernels take (kernel/simd/i8/onnx_conv.hpp);
// unequal ones stay per channel.
inline constexpr char onnx_equal_zero_points[3] = {9, 9, 9};
inline constexpr char onnx_unequal_zero_points[3] = {9, 9, 10};
constexpr auto equal_zero_points = ctnn::pass::lower_te::run(onnx_model<true, onnx_equal_zero_points>::build());
static_assert(!equal_zero_points.error.failed() && equal_zero_points.calls[0].params.onnx.zero_point_count == 1 &&
              equal_zero_points.calls[0].params.weights_offset == -9 && equal_zero_points.calls[0].params.onnx.scale_count == 3);
constexpr auto unequal_zero_points = ctnn::pass::lower_te::run(onnx_model<true, onnx_unequal_zero_points>::build());
static_assert(!unequal_zero_points.error.failed() && unequal_zero_points.calls[0].params.onnx.zero_point_count == 3 &&
              unequal_zero_points.calls[0].params.weights_offset == 0);

std::string text_of(const auto& m) {
  std::string text;
  ctnn::print_module(m, [&text](std::string_view s) { text += s; });
  return text;
}

TEST_CASE("the printer shows each quantized call's requantization under the call") {
  const std::string tflite = text_of(lowered);
  CHECK(tflite.find("        requantize tflite: offsets in 5 weights 0 out -128, clamp [-128, 127], per-channel multipliers (4) "
                    "of scales in 0.02 weights 4 per channel out 0.05\n") != std::string::npos);
  const auto add = quant::quantize_multiplier(double{0.05f} / (2 * double{0.05f}));
  CHECK(tflite.find("requantize tflite: offsets in 128 in2 128 out 2, multiplier ") != std::string::npos);
  std::string add_multiplier = "input multiplier ";  // appended, not one + chain (g++ 12 -O3: a false -Warray-bounds)
  add_multiplier += std::to_string(add.multiplier);
  add_multiplier += " shift ";
  add_multiplier += std::to_string(add.shift);
  CHECK(tflite.find(add_multiplier) != std::string::npos);
  CHECK(tflite.find(", left shift 20") != std::string::npos);
  CHECK(tflite.find("per-input rescaling (2 inputs)\n") != std::string::npos);
  CHECK(text_of(onnx_lowered).find("        requantize onnx: zero points x 128 w 7 y 3, scales x 0.02 y 0.25, multiplier 0.04, weights u8 in onnx layout\n") !=
        std::string::npos);
}

TEST_CASE("a float32 call prints no requantization line") {
  struct float_model {
    static constexpr auto build() {
      ctnn::module<2, 1> m{};
      builder<decltype(m)> b{m};
      const std::int32_t x = b.tensor(make_shape(1, 4), dtype::f32, tensor_role::input, {});
      const std::int32_t y = b.tensor(make_shape(1, 4), dtype::f32, tensor_role::output, {});
      b.op(op_kind::relu, {x}, y, [](auto&) {});
      m.inputs[0] = x, m.input_count = 1;
      m.outputs[0] = y, m.output_count = 1;
      return m;
    }
  };
  constexpr auto m = ctnn::pass::lower_te::run(float_model::build());
  static_assert(m.calls[0].requantization.table == requantization_table::none);
  CHECK(text_of(m).find("requantize") == std::string::npos);
}

}  // namespace
