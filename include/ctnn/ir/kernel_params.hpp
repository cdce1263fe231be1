#pragma once
// A kernel's compile-time parameters (docs/design.md §4): kernel_params, the template argument of every
// kernel. Equal parameters mean one kernel instantiation (dedup), so every field has one meaning: the
// fields many kernels read are at top level; those of one op kind (or of ONNX's integer ops) are a named
// struct of their own, left at its defaults by every other kind.
//
// Every struct here is a template argument (as part of kernel_params), so none has padding bytes: clang 14
// miscompiles reads of class-type template arguments that have tail padding (docs/design.md §6; checked
// below). Hence 4-byte fields only, and floats stored as their bits (a float NTTP member would also make
// -0.0 and 0.0 two kernels).
#include <array>
#include <bit>
#include <cstdint>
#include <type_traits>

#include <ctnn/ir/attributes.hpp>
#include <ctnn/ir/dtype.hpp>
#include <ctnn/ir/kernel_choice.hpp>
#include <ctnn/ir/op_kind.hpp>
#include <ctnn/ir/shape.hpp>

namespace ctnn {

// How a model's quantized ops requantize (docs/design.md §4: a policy per model, set by its frontend): TFLite's
// fixed-point multipliers with double rounding, or ONNX's float scale with round half to even.
enum class requantization_policy : std::int32_t { tflite, onnx };

// concat (along kernel_params::axis).
struct concat_fields {
  std::array<std::int32_t, max_node_inputs> extents{};  // each input's extent along the axis
  std::int32_t count = 0;                              // inputs
  // int8: 1 when some input's quantization differs from the output's; the kernel then rescales those inputs
  // with a per-input table (kernel_call::requantization, TFLite's ConcatenationWithScaling).
  std::int32_t rescales_inputs = 0;
  friend constexpr bool operator==(const concat_fields&, const concat_fields&) = default;
};

// gather: the axis it gathers along (normalised) and the element type of its indices (its second operand),
// int32 or int64.
struct gather_fields {
  std::int32_t axis = 0;
  dtype indices = dtype::i32;
  friend constexpr bool operator==(const gather_fields&, const gather_fields&) = default;
};

// quantize from float32 and dequantize to float32 (TFLite's recipes): the scale of the quantized side (int8
// or int16; quantize: the result's, dequantize: the input's) as float bits; the zero point is output_offset /
// input_offset.
struct quantize_fields {
  std::uint32_t scale_bits = 0;
  constexpr float scale() const { return std::bit_cast<float>(scale_bits); }
  friend constexpr bool operator==(const quantize_fields&, const quantize_fields&) = default;
};

// ONNX's integer ops (kernel_params::requantization == onnx; kernel/reference/onnx_quant): float scales,
// round half to even. Offsets are the top-level input/weights/output offsets (negated zero points, the
// output's as it is).
struct onnx_quant_fields {
  data_layout layout = data_layout::ctnn;  // conv2d, dense: the layouts read (onnx: NCHW/OIHW, MatMul; onnx_nhwc: NHWC/OIHW)
  dtype weights_type = dtype::f32;         // conv2d, dense: the weights' element type
  std::uint32_t input_scale_bits = 0;      // x's scale (float bits; 0: none)
  std::uint32_t output_scale_bits = 0;     // y's scale (float bits; 0: none, e.g. an int32 result)
  std::uint32_t multiplier_bits = 0;       // float(x_scale * w_scale) / y_scale for a per-tensor weight scale
  std::uint32_t input2_scale_bits = 0;     // add, mul (QLinearAdd, QLinearMul): the second input's scale (float bits)
  // Elements of the per-axis operands: scales and zero points (0 absent, 1 per tensor, else one per channel).
  std::int32_t scale_count = 0;
  std::int32_t zero_point_count = 0;
  friend constexpr bool operator==(const onnx_quant_fields&, const onnx_quant_fields&) = default;
};

// int8 leaky_relu and prelu (TFLite's recipes): the requantization of the negative side, input x alpha to
// the output (QuantizeMultiplier; leaky_relu's may be negative, for a negative alpha); the positive side is
// output_multiplier/output_shift.
struct negative_side_fields {
  std::int32_t multiplier = 0, shift = 0;
  friend constexpr bool operator==(const negative_side_fields&, const negative_side_fields&) = default;
};

// int8 ops that TFLM runs through a 256-entry lookup table (elu: PopulateLookupTable): the scales the
// table is computed from, as float bits (the zero points are input_offset and output_offset).
struct lookup_table_fields {
  std::uint32_t input_scale_bits = 0, output_scale_bits = 0;
  constexpr float input_scale() const { return std::bit_cast<float>(input_scale_bits); }
  constexpr float output_scale() const { return std::bit_cast<float>(output_scale_bits); }
  friend constexpr bool operator==(const lookup_table_fields&, const lookup_table_fields&) = default;
};

// Everything a kernel needs, with no names: equal params mean one kernel instantiation (dedup).
// detection_postprocess: each operand's element type, scale (float bits) and zero point (box encodings, class
// predictions, anchors; int8 ones are dequantized first, float32 ones read as they are).
struct detection_operand_fields {
  std::array<dtype, 3> types{};
  std::array<std::uint32_t, 3> scale_bits{};
  std::array<std::int32_t, 3> zero_points{};
  friend constexpr bool operator==(const detection_operand_fields&, const detection_operand_fields&) = default;
};

// sequence_lstm on int8 (TFLM's 8x8_16, ops/sequence_lstm.hpp; pass::compute_requantization): per gate, its
// input and recurrent fully-connected layers' multipliers and shifts (accumulator to Q3.12), input side then
// recurrent side, gates in the packed order (input, forget, cell, output). Its other values are kernel_params'
// own fields (ops/sequence_lstm.hpp's requantize says which).
struct sequence_lstm_quant_fields {
  std::array<std::int32_t, 8> gate_multiplier{};
  std::array<std::int8_t, 8> gate_shift{};
  friend constexpr bool operator==(const sequence_lstm_quant_fields&, const sequence_lstm_quant_fields&) = default;
};

// The field structs kernel_params holds in its two shared storages (ir/kind_fields.hpp): op_attributes' and the
// kernels' own (concat, gather, quantize; requantization constants in the second storage), a kind's two structs in
// different storages (detection_postprocess, sequence_lstm, leaky_relu, elu).
using kernel_kind_fields = kind_fields<resize_fields, svdf_fields, recurrent_fields, sequence_lstm_fields, cumsum_fields,
                                       detection_fields, top_k_fields, lrn_fields, patch_fields, row_fetch_fields,
                                       concat_fields, gather_fields, quantize_fields>;
using kernel_kind_fields_extra =
    kind_fields<negative_side_fields, lookup_table_fields, detection_operand_fields, sequence_lstm_quant_fields>;

struct kernel_params : kind_field_accessors<kernel_kind_fields> {
  op_kind kind = op_kind::none;
  dtype type = dtype::f32;      // the first input's element type
  dtype out_type = dtype::f32;  // the result's element type
  activation fused = activation::none;
  shape in{};
  shape in2{};  // the second operand: add, mul, batch_matmul; ONNX's dense (MatMul): the weights
  shape in3{};  // the third operand: select (its y)
  shape out{};
  window win{};  // conv2d, depthwise_conv2d, max_pool, avg_pool
  std::int32_t groups = 1;
  std::int32_t depth_multiplier = 1;
  std::int32_t axis = -1;  // softmax, concat, ONNX's per-axis quantize/dequantize: normalised, non-negative
  std::int32_t has_bias = 0;
  std::int32_t operand_count = 0;  // add_n: its operands (a variable count)
  // Quantized kernels (TFLite's integer recipes, docs/design.md §4): offsets are negated zero points (the
  // output's: its zero point); a multiplier/shift pair is QuantizeMultiplier's. pass::compute_requantization
  // sets them (its comment lists them per op); tables that do not fit here are its recipe
  // (kernel_call::requantization).
  std::int32_t input_offset = 0;
  std::int32_t input2_offset = 0;
  std::int32_t weights_offset = 0;
  std::int32_t output_offset = 0;
  std::int32_t output_multiplier = 0;  // accumulator (or input) to output
  std::int32_t output_shift = 0;
  std::int32_t input_multiplier = 0;   // the input's rescale (add; sigmoid, tanh, softmax: input scale to Q-format)
  std::int32_t input_shift = 0;
  std::int32_t input2_multiplier = 0;  // add: the second input's rescale
  std::int32_t input2_shift = 0;
  std::int32_t left_shift = 0;         // add: both inputs are shifted left by this before rescaling
  std::int32_t activation_min = 0;     // the result's clamp (fused activation, relu6, clip)
  std::int32_t activation_max = 0;
  std::int32_t per_channel = 0;        // conv2d, depthwise_conv2d, dense: 1: per-output-channel multipliers (a table)
  requantization_policy requantization = requantization_policy::tflite;
  pad_fields pad{};
  clip_fields clip{};
  transpose_fields transpose{};
  slice_fields slice{};
  batch_norm_fields batch_norm{};
  mean_fields mean{};
  onnx_quant_fields onnx{};
  activation_coefficients coefficients{};
  norm_fields norm{};
  // The op kinds' own fields (ir/kind_fields.hpp; op_attributes' and these: concat, gather (gather, gather_nd,
  // gather_elements, scatter_nd, update_slice, reverse_sequence), quantize (quantize, dequantize); negative_side
  // (int8 leaky_relu, prelu), lookup_table (int8 elu), detection_operands, sequence_lstm_quant in the second
  // storage), read through kind_field_accessors' and the accessors below, written with set().
  kernel_kind_fields_extra kind_specific_extra{};
  // 1: plan_memory placed the result over the input, which dies here (ctnn::in_place_windows: conv2d and
  // depthwise; ctnn::in_place_conv, ctnn::in_place_depthwise). Safe for kernels that walk output pixels
  // row-major and finish a pixel before the next (the reference kernels); other kernels must refuse such
  // calls (docs/memory.md). 2: the result's bytes are already its operands' (a slice stored inside its input,
  // a concat its producers wrote into): the executor runs nothing for the call (pass::mark_in_place_calls).
  std::int32_t in_place = 0;
  // 1: the call has no scratch where its kernel asks for some, its kernel making its input (operand 0) that
  // scratch where it lies (memory::scratch_made_in_place: a uint8 input made int8), and that input is read
  // after the call: the kernel restores its bytes before it returns (pass::place_buffers sets it).
  std::int32_t input_restored = 0;
  // The implementation that runs the call and the layout of its constant operands (pass::select_kernels;
  // lower_te records the reference kernel, constants as stored). Decided by the other fields and the
  // target, so it does not split structurally equal kernels.
  kernel_choice choice{};
  constexpr const concat_fields concat() const { return kind_specific.get<concat_fields>(); }
  constexpr const gather_fields gather() const { return kind_specific.get<gather_fields>(); }
  constexpr const quantize_fields quantize() const { return kind_specific.get<quantize_fields>(); }
  constexpr const negative_side_fields negative_side() const { return kind_specific_extra.get<negative_side_fields>(); }
  constexpr const lookup_table_fields lookup_table() const { return kind_specific_extra.get<lookup_table_fields>(); }
  constexpr const detection_operand_fields detection_operands() const {
    return kind_specific_extra.get<detection_operand_fields>();
  }
  constexpr const sequence_lstm_quant_fields sequence_lstm_quant() const {
    return kind_specific_extra.get<sequence_lstm_quant_fields>();
  }
  template <class Fields>
  constexpr void set(const Fields& f) {
    if constexpr (kernel_kind_fields::holds<Fields>) kind_specific.set(f);
    else kind_specific_extra.set(f);
  }
  friend constexpr bool operator==(const kernel_params&, const kernel_params&) = default;
};

// No padding bytes anywhere (see the top of this file).
static_assert(std::has_unique_object_representations_v<pad_fields> && std::has_unique_object_representations_v<patch_fields> &&
                  std::has_unique_object_representations_v<row_fetch_fields> &&
                  std::has_unique_object_representations_v<clip_fields> &&
                  std::has_unique_object_representations_v<concat_fields> &&
                  std::has_unique_object_representations_v<transpose_fields> &&
                  std::has_unique_object_representations_v<slice_fields> &&
                  std::has_unique_object_representations_v<gather_fields> &&
                  std::has_unique_object_representations_v<batch_norm_fields> &&
                  std::has_unique_object_representations_v<quantize_fields> &&
                  std::has_unique_object_representations_v<svdf_fields> &&
                  std::has_unique_object_representations_v<sequence_lstm_fields> &&
                  std::has_unique_object_representations_v<mean_fields> &&
                  std::has_unique_object_representations_v<onnx_quant_fields> &&
                  std::has_unique_object_representations_v<activation_coefficients> &&
                  std::has_unique_object_representations_v<negative_side_fields> &&
                  std::has_unique_object_representations_v<lookup_table_fields> &&
                  std::has_unique_object_representations_v<resize_fields> &&
                  std::has_unique_object_representations_v<norm_fields> &&
                  std::has_unique_object_representations_v<cumsum_fields> &&
                  std::has_unique_object_representations_v<detection_fields> &&
                  std::has_unique_object_representations_v<detection_operand_fields> &&
                  std::has_unique_object_representations_v<sequence_lstm_quant_fields> &&
                  std::has_unique_object_representations_v<top_k_fields> &&
                  std::has_unique_object_representations_v<lrn_fields>,
              "ctnn: a kernel_params field struct must have no padding bytes (clang 14 template-argument bug).");
static_assert(std::has_unique_object_representations_v<kernel_params>,
              "ctnn::kernel_params must have no padding bytes (clang 14 template-argument bug).");

}  // namespace ctnn
