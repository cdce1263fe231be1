#pragma once
// Attributes of graph ops, as plain constexpr values (one struct for every op kind; each op reads the
// fields it documents). An op kind's own facts are a named struct, the same one the kernel's parameters
// (ir/kernel_params.hpp) hold, so kernel::prepare_params copies them: one vocabulary for the graph and the
// kernels. Floats are stored as their bits (kernel_params is a template argument: see there).
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/dtype.hpp>
#include <ctnn/ir/kind_fields.hpp>
#include <ctnn/ir/op_kind.hpp>
#include <ctnn/ir/shape.hpp>

namespace ctnn {

// The sliding window of conv, depthwise conv and pooling. Explicit pads are filled in for every
// padding mode by infer_types, so kernels only read pad_*.
struct window {
  std::int32_t kernel_h = 1, kernel_w = 1;
  std::int32_t stride_h = 1, stride_w = 1;
  std::int32_t dilation_h = 1, dilation_w = 1;
  padding mode = padding::valid;
  std::int32_t pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
  friend constexpr bool operator==(const window&, const window&) = default;
};

// The layouts an op reads: ctnn's own (NHWC activations, OHWI / [out][in] weights), or ONNX's, as the ONNX
// integer ops store them (kernel/reference/onnx_quant): conv2d NCHW activations with OIHW weights, dense
// a MatMul, A [..., M, K] times B [..., K, N] (batch dims broadcast when B has one batch); or onnx_nhwc, an
// ONNX integer conv2d on NHWC activations with ONNX's OIHW weights as stored (the importer holds integer
// activations in NHWC between convolutions, as it holds float ones: no transposes).
enum class data_layout : std::int32_t { ctnn, onnx, onnx_nhwc };

// Whether an op of this layout is one of ONNX's integer ops (its result type is attrs.out_type; ONNX's
// requantization and weight layouts).
constexpr bool is_onnx_layout(data_layout layout) { return layout != data_layout::ctnn; }

// pad: before/after per dimension, the fill.
struct pad_fields {
  std::array<std::int32_t, 2 * max_rank> before_after{};  // dim d: elements added before at [2d], after at [2d+1]
  pad_mode mode = pad_mode::constant;
  std::uint32_t fill_value_bits = 0;  // mode constant: the fill value (float32 bits; integer types: the value as a float)
  std::int32_t quantized_fill = 0;    // int8 (TFLite), kernels only: the fill value quantized (pass::compute_requantization)
  constexpr float fill_value() const { return std::bit_cast<float>(fill_value_bits); }
  friend constexpr bool operator==(const pad_fields&, const pad_fields&) = default;
};

// crop and paste: where the smaller tensor's [H, W] window sits in the larger one (crop: its input; paste:
// its output).
struct patch_fields {
  std::int32_t row = 0, column = 0;
  friend constexpr bool operator==(const patch_fields&, const patch_fields&) = default;
};

// fetch_rows (a streamed input's row buffer for the next patch row): `kept_rows` rows from buffer row
// `kept_from` move to its top (the halo shared with the previous patch row), then the caller's row_source
// writes `fetched_rows` input rows from input row `first_row` below them.
struct row_fetch_fields {
  std::int32_t kept_from = 0, kept_rows = 0, first_row = 0, fetched_rows = 0;
  friend constexpr bool operator==(const row_fetch_fields&, const row_fetch_fields&) = default;
};

// clip (float32; int8 clips clamp to activation_min/max): the bounds, as float bits.
struct clip_fields {
  std::uint32_t min_bits = 0, max_bits = 0;
  constexpr float min() const { return std::bit_cast<float>(min_bits); }
  constexpr float max() const { return std::bit_cast<float>(max_bits); }
  friend constexpr bool operator==(const clip_fields&, const clip_fields&) = default;
};

// transpose: output dim d is input dim perm[d].
struct transpose_fields {
  std::array<std::int32_t, max_rank> perm{};
  friend constexpr bool operator==(const transpose_fields&, const transpose_fields&) = default;
};

// batch_norm (when fold_batch_norm could not fold it).
struct batch_norm_fields {
  std::uint32_t epsilon_bits = 0;
  constexpr float epsilon() const { return std::bit_cast<float>(epsilon_bits); }
  friend constexpr bool operator==(const batch_norm_fields&, const batch_norm_fields&) = default;
};

// mean and the other reductions (ops/reduction.hpp).
struct mean_fields {
  std::uint32_t reduce_axes = 0;  // bit d set: averaged (summed, ...) over axis d; arg_max/arg_min: one bit
  std::int32_t select_last = 0;   // arg_max, arg_min: 1: a tie gives the last index (ONNX select_last_index)
  friend constexpr bool operator==(const mean_fields&, const mean_fields&) = default;
};

// slice: result element (i_0, ..., i_r-1) of the window (extent[d] elements along input dim d) is input
// element (begin[d] + i_d * stride[d]); a negative stride walks backwards. Every element read is inside the
// input (the importers resolve TFLite's masks and ONNX's clamping).
struct slice_fields {
  std::array<std::int32_t, max_rank> begin{};
  std::array<std::int32_t, max_rank> stride{};
  std::array<std::int32_t, max_rank> extent{};
  // The whole of a tensor of shape `s` (begin 0, stride 1): what a split or a gather narrows along one dim.
  static constexpr slice_fields whole(const shape& s) {
    slice_fields w{};
    for (std::int32_t d = 0; d < s.rank; ++d) {
      w.stride[static_cast<std::size_t>(d)] = 1;
      w.extent[static_cast<std::size_t>(d)] = s[d];
    }
    return w;
  }
  friend constexpr bool operator==(const slice_fields&, const slice_fields&) = default;
};

// The functions of the unary_function and binary_function kinds (kernel/reference/unary_function.hpp),
// ONNX's operators of one or two operands without an op kind of their own; their coefficients are
// activation_coefficients'.
enum class math_function : std::int32_t {
  erf,               // ONNX Erf
  gelu,              // x/2 (1 + erf(x / sqrt 2)) (ONNX Gelu, approximate "none")
  gelu_tanh,         // x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) (ONNX Gelu, approximate "tanh")
  softplus,          // ln(1 + e^x)
  softsign,          // x / (1 + |x|)
  selu,              // gamma (x > 0 ? x : alpha (e^x - 1))
  celu,              // max(0, x) + min(0, alpha (e^(x/alpha) - 1))
  thresholded_relu,  // x > alpha ? x : 0
  sign,              // -1, 0 or 1 (NaN stays)
  tan, sinh, cosh, asin, acos, atan, asinh, acosh, atanh,
  shrink,            // x < -alpha ? x + beta : x > alpha ? x - beta : 0 (ONNX Shrink: lambd, bias)
  divide,            // x / alpha (ONNX Mean: the sum over the operand count)
  inverse_sqrt,      // 1 / sqrt(x + alpha) (ONNX LayerNormalization's InvStdDev: of the variance, alpha epsilon)
  // the binary_function kind's, of two operands a and b:
  pow,               // a^b (ONNX Pow)
  fmod,              // a - trunc(a / b) b, exactly, with a's sign (ONNX Mod, fmod 1)
  // unary_function's again:
  mish,              // x tanh(ln(1 + e^x)) (ONNX Mish)
};
inline constexpr std::int32_t math_function_count = static_cast<std::int32_t>(math_function::mish) + 1;
constexpr const char* name_of(math_function f) {
  constexpr const char* names[] = {"erf",  "gelu", "gelu_tanh", "softplus", "softsign", "selu", "celu",
                                   "thresholded_relu", "sign", "tan", "sinh", "cosh", "asin", "acos", "atan",
                                   "asinh", "acosh", "atanh", "shrink", "divide", "inverse_sqrt", "pow", "fmod", "mish"};
  static_assert(sizeof names / sizeof names[0] == math_function_count);
  const auto i = static_cast<std::int32_t>(f);
  return i >= 0 && i < math_function_count ? names[i] : "?";
}

// The coefficients of a parametrised activation, as float bits: leaky_relu and elu their alpha (the slope,
// or the scale, below zero), hard_sigmoid alpha * x + beta; unary_function its function and the function's
// alpha, beta, gamma (math_function says which it reads); binary_function its function.
struct activation_coefficients {
  std::uint32_t alpha_bits = 0, beta_bits = 0;
  math_function function = math_function::erf;
  std::uint32_t gamma_bits = 0;  // two words: kernel_params keeps its size parity
  constexpr float alpha() const { return std::bit_cast<float>(alpha_bits); }
  constexpr float beta() const { return std::bit_cast<float>(beta_bits); }
  constexpr float gamma() const { return std::bit_cast<float>(gamma_bits); }
  friend constexpr bool operator==(const activation_coefficients&, const activation_coefficients&) = default;
};

// resize_nearest, resize_linear and resize_cubic: how result index x along a resized axis maps to an input coordinate.
// TFLite's (coordinates tflite, NHWC, axes 1 and 2): TFLM's float32 arithmetic under its flags align_corners
// and half_pixel_centers. ONNX's (the others, its coordinate_transformation_mode): in double, from the axis's
// scale and resized length (scale * input extent, or the size asked), as ONNX's reference computes them.
enum class resize_coordinates : std::int32_t {
  tflite, half_pixel, asymmetric, pytorch_half_pixel, align_corners, half_pixel_symmetric, tf_half_pixel_for_nn,
  tf_crop_and_resize,
};
// resize_nearest under ONNX's coordinates: which neighbour a fractional coordinate takes (nearest_mode).
enum class nearest_rounding : std::int32_t { round_prefer_floor, round_prefer_ceil, floor, ceil };

struct resize_fields {
  resize_coordinates coordinates = resize_coordinates::tflite;
  nearest_rounding rounding = nearest_rounding::round_prefer_floor;
  // coordinates tflite: TFLite's options, bit 0 align_corners, bit 1 half_pixel_centers.
  std::uint32_t tflite_options = 0;
  std::uint32_t resized_axes = 0;                          // bit d: axis d is resized (the others are copied)
  // ONNX's coordinates: per axis d, the scale at [2d, 2d + 1] and the resized length likewise, each a double
  // as two 32-bit words (low first: kernel_params holds 4-byte fields only).
  std::array<std::uint32_t, 2 * max_rank> scale_words{};
  std::array<std::uint32_t, 2 * max_rank> length_words{};
  // tf_crop_and_resize: per axis d, the region's start and end (float bits at [2d], [2d + 1]), and the value of
  // a result element whose coordinate falls outside the input (float bits).
  std::array<std::uint32_t, 2 * max_rank> roi_bits{};
  std::uint32_t extrapolation_bits = 0;
  // linear, cubic: ONNX's options, bit 0 antialias (a shrinking axis's weights stretched by 1 / scale,
  // normalised), bit 1 exclude_outside (the neighbours outside the input weigh 0, the others normalised);
  // cubic: its A.
  std::uint32_t onnx_options = 0;
  std::uint32_t cubic_coeff_bits = std::bit_cast<std::uint32_t>(-0.75f);
  static constexpr double from_words(const std::array<std::uint32_t, 2 * max_rank>& w, std::int32_t d) {
    const auto at = static_cast<std::size_t>(2 * d);
    return std::bit_cast<double>(std::uint64_t{w[at]} | std::uint64_t{w[at + 1]} << 32);
  }
  static constexpr void to_words(std::array<std::uint32_t, 2 * max_rank>& w, std::int32_t d, double v) {
    const auto bits = std::bit_cast<std::uint64_t>(v);
    w[static_cast<std::size_t>(2 * d)] = static_cast<std::uint32_t>(bits);
    w[static_cast<std::size_t>(2 * d + 1)] = static_cast<std::uint32_t>(bits >> 32);
  }
  static constexpr std::uint32_t align_corners_bit = 1u, half_pixel_centers_bit = 2u;  // tflite_options
  static constexpr std::uint32_t antialias_bit = 1u, exclude_outside_bit = 2u;           // onnx_options
  constexpr bool antialias() const { return (onnx_options & antialias_bit) != 0; }
  constexpr bool exclude_outside() const { return (onnx_options & exclude_outside_bit) != 0; }
  constexpr bool align_corners() const { return (tflite_options & align_corners_bit) != 0; }
  constexpr bool half_pixel_centers() const { return (tflite_options & half_pixel_centers_bit) != 0; }
  constexpr double scale(std::int32_t d) const { return from_words(scale_words, d); }
  constexpr double resized_length(std::int32_t d) const { return from_words(length_words, d); }
  constexpr float roi_start(std::int32_t d) const { return std::bit_cast<float>(roi_bits[static_cast<std::size_t>(2 * d)]); }
  constexpr float roi_end(std::int32_t d) const { return std::bit_cast<float>(roi_bits[static_cast<std::size_t>(2 * d + 1)]); }
  constexpr float extrapolation_value() const { return std::bit_cast<float>(extrapolation_bits); }
  constexpr float cubic_coeff_a() const { return std::bit_cast<float>(cubic_coeff_bits); }
  friend constexpr bool operator==(const resize_fields&, const resize_fields&) = default;
};

// l2_normalization: the axis of its vectors and the least norm it divides by (float bits).
struct norm_fields {
  std::int32_t axis = -1;
  std::uint32_t epsilon_bits = 0;
  constexpr float epsilon() const { return std::bit_cast<float>(epsilon_bits); }
  friend constexpr bool operator==(const norm_fields&, const norm_fields&) = default;
};

// svdf: the rank of its filters (TFLite's SVDFOptions.rank); its kernel parameters add the state's element type
// and negated zero point (int8 models: int16 or int8 state).
struct svdf_fields {
  std::int32_t rank = 1;
  dtype state_type = dtype::f32;
  std::int32_t state_offset = 0;
  friend constexpr bool operator==(const svdf_fields&, const svdf_fields&) = default;
};

// lstm, gru, rnn (ONNX LSTM, GRU, RNN; float32): the cell's attributes and which optional operands it has.
// Operands: X, W, R (W and R k-major: ops/recurrent.hpp), B, initial_h, then (lstm) initial_c and P; an absent one is -1 and its bit in `present`
// is clear. The result is one packed 1-D tensor (ops/recurrent.hpp): Y when `writes_sequence`, the final
// hidden state, the final cell state (lstm), then the gate scratch of one step.
enum class recurrent_direction : std::int32_t { forward, reverse, bidirectional };
struct recurrent_fields {
  std::int32_t hidden = 0;  // hidden_size
  recurrent_direction direction = recurrent_direction::forward;
  std::int32_t batch_major = 0;  // ONNX layout 1: X [batch, seq, input], Y [batch, seq, dirs, hidden], states [batch, dirs, hidden]
  std::int32_t clipped = 0;      // whether gate inputs are clipped to [-clip, clip]
  std::uint32_t clip_bits = 0;
  std::int32_t input_forget = 0;         // lstm: the forget gate is 1 - the input gate
  std::int32_t linear_before_reset = 0;  // gru: the reset gate scales R_h h + Rb_h rather than h
  std::int32_t writes_sequence = 1;      // whether the result holds Y (an output reads it)
  std::uint32_t present = 0;             // bit k: operand k is given
  // The cell's functions, ONNX's activations in order (lstm f, g, h; gru f, g; rnn f), per direction.
  std::array<activation, 6> functions{};
  // The columns of one weight panel (kernel/reference/recurrent.hpp): W and R are [directions * gates *
  // hidden / panel, depth, panel], each panel k-major; 0: one panel of every gate's columns per direction.
  std::int32_t panel = 0;
  constexpr float clip() const { return std::bit_cast<float>(clip_bits); }
  constexpr std::int32_t directions() const { return direction == recurrent_direction::bidirectional ? 2 : 1; }
  constexpr bool has(std::int32_t operand) const { return (present >> operand & 1u) != 0; }
  friend constexpr bool operator==(const recurrent_fields&, const recurrent_fields&) = default;
};

// sequence_lstm (TFLite UNIDIRECTIONAL_SEQUENCE_LSTM): whether the input is [time, batch, features] (else
// [batch, time, features]), the bound of the cell state (0: none), float bits, whether the input gate is coupled
// to the forget gate (CIFG: 1 - forget, no input gate constants), whether the gates have peepholes (their packed
// operand 6), whether a projection maps the cells to the outputs (1: its weights, operand 7; 2: and its bias, after
// the gates' biases) and the bound of the projected output (0: none), float bits. Its cell gate's activation is
// attrs.fused (tanh: the one TFLM applies).
struct sequence_lstm_fields {
  std::int32_t time_major = 0;
  std::uint32_t cell_clip_bits = 0;
  std::int32_t coupled_input_forget = 0;
  std::int32_t peephole = 0;
  std::int32_t projection = 0;
  std::uint32_t projection_clip_bits = 0;
  constexpr float cell_clip() const { return std::bit_cast<float>(cell_clip_bits); }
  constexpr float projection_clip() const { return std::bit_cast<float>(projection_clip_bits); }
  // The gates whose constants it has: input (unless coupled), forget, cell, output; the peepholes': the input
  // gate's (unless coupled), the forget gate's, the output gate's.
  constexpr std::int32_t gates() const { return coupled_input_forget != 0 ? 3 : 4; }
  constexpr std::int32_t peepholes() const { return coupled_input_forget != 0 ? 2 : 3; }
  // Its operand count: the projection's weights are operand 7, the peepholes operand 6 (-1 when none).
  constexpr std::int32_t operand_count() const { return projection != 0 ? 8 : peephole != 0 ? 7 : 6; }
  friend constexpr bool operator==(const sequence_lstm_fields&, const sequence_lstm_fields&) = default;
};

// cumsum: whether each running sum leaves out its own element (exclusive: the first is 0) and whether the
// sums run from the end of the axis (reverse); 0 or 1 each.
struct cumsum_fields {
  std::int32_t exclusive = 0, reverse = 0;
  friend constexpr bool operator==(const cumsum_fields&, const cumsum_fields&) = default;
};

// detection_postprocess (TFLite's custom TFLite_Detection_PostProcess): its custom options (floats as bits;
// max_classes_per_detection as TFLM uses it, at most num_classes) and `capacity`, the entries of each output
// (boxes [1, capacity, 4], classes and scores [1, capacity]); the kernel parameters add its operands' types and
// quantization (kernel_params::detection_operands).
struct detection_fields {
  std::int32_t max_detections = 0;
  std::int32_t classes_per_detection = 1;
  std::int32_t detections_per_class = 100;
  std::int32_t regular_nms = 0;
  std::int32_t num_classes = 0;
  std::uint32_t score_threshold_bits = 0;
  std::uint32_t iou_threshold_bits = 0;
  std::array<std::uint32_t, 4> scale_bits{};  // y, x, h, w
  std::int32_t capacity = 0;
  constexpr float score_threshold() const { return std::bit_cast<float>(score_threshold_bits); }
  constexpr float iou_threshold() const { return std::bit_cast<float>(iou_threshold_bits); }
  constexpr float scale(std::size_t k) const { return std::bit_cast<float>(scale_bits[k]); }
  friend constexpr bool operator==(const detection_fields&, const detection_fields&) = default;
};

// sequence_lstm on int8 (TFLM's 8x8_16): each gate's weight scales, float bits, input side then recurrent side,
// gates in the packed order (input, forget, cell, output). The packed weights keep the integers, not the scales
// (docs/design.md §2); pass::compute_requantization reads these (kernel_params::sequence_lstm_quant). Not in
// sequence_lstm_fields, which kernel_params copies: only the multipliers reach the kernel.
struct sequence_lstm_scale_fields {
  std::array<std::uint32_t, 8> weight_scale_bits{};
  constexpr float weight_scale(std::size_t k) const { return std::bit_cast<float>(weight_scale_bits[k]); }
  friend constexpr bool operator==(const sequence_lstm_scale_fields&, const sequence_lstm_scale_fields&) = default;
};

// top_k (ONNX TopK): how many elements it keeps along its axis, whether they are the largest (1) or the
// smallest (0), in that order, ties by lower index; the node's `sorted` attribute (the order is sorted
// either way); and whether its result is their positions (1) or values (0).
struct top_k_fields {
  std::int32_t k = 0, largest = 1, sorted = 1, indices = 0;
  friend constexpr bool operator==(const top_k_fields&, const top_k_fields&) = default;
};

// lrn (ONNX LRN): the channels each sum of squares spans (`size`) and alpha, beta, bias as float bits.
struct lrn_fields {
  std::int32_t size = 1;
  std::uint32_t alpha_bits = 0, beta_bits = 0, bias_bits = 0;
  constexpr float alpha() const { return std::bit_cast<float>(alpha_bits); }
  constexpr float beta() const { return std::bit_cast<float>(beta_bits); }
  constexpr float bias() const { return std::bit_cast<float>(bias_bits); }
  friend constexpr bool operator==(const lrn_fields&, const lrn_fields&) = default;
};

// The field structs of op kinds held in a shared storage (ir/kind_fields.hpp: one at a time): those of kinds
// that read no other struct of the list. The graph's (op_attributes) here; kernel_params adds its own.
using op_kind_fields = kind_fields<resize_fields, svdf_fields, recurrent_fields, sequence_lstm_fields, cumsum_fields,
                                   detection_fields, top_k_fields, lrn_fields, patch_fields, row_fetch_fields>;

// The kinds' shared storage of op_attributes and kernel_params (Storage: each one's list of structs) and the
// accessors both have. Their base class, not a member: the accessors are written once. It holds the storage (a
// base class without data would be left out of std::bit_cast's result, which g++ 12 and clang 14 then refuse as a
// template argument: module::constant_recipe::params()).
template <class Storage>
struct kind_field_accessors {
  Storage kind_specific{};
  constexpr const resize_fields resize() const { return kind_specific.template get<resize_fields>(); }
  constexpr const svdf_fields svdf() const { return kind_specific.template get<svdf_fields>(); }
  constexpr const recurrent_fields recurrent() const { return kind_specific.template get<recurrent_fields>(); }
  constexpr const sequence_lstm_fields sequence_lstm() const { return kind_specific.template get<sequence_lstm_fields>(); }
  constexpr const cumsum_fields cumsum() const { return kind_specific.template get<cumsum_fields>(); }
  constexpr const detection_fields detection() const { return kind_specific.template get<detection_fields>(); }
  constexpr const top_k_fields top_k() const { return kind_specific.template get<top_k_fields>(); }
  constexpr const lrn_fields lrn() const { return kind_specific.template get<lrn_fields>(); }
  constexpr const patch_fields patch() const { return kind_specific.template get<patch_fields>(); }
  constexpr const row_fetch_fields fetch() const { return kind_specific.template get<row_fetch_fields>(); }
  friend constexpr bool operator==(const kind_field_accessors&, const kind_field_accessors&) = default;
};

struct op_attributes : kind_field_accessors<op_kind_fields> {
  window win{};                         // conv2d, depthwise_conv2d, max_pool, avg_pool
  std::int32_t groups = 1;              // conv2d
  std::int32_t depth_multiplier = 1;    // depthwise_conv2d
  std::int32_t units = 0;               // conv2d: filters; dense: output features (0 = from the bias)
  std::int32_t axis = -1;               // concat, softmax, gather
  activation fused = activation::none;  // conv2d, depthwise_conv2d, dense, add, mul
  shape target{};                       // reshape (0 in a dim = keep, -1 = infer, as in TFLite/ONNX;
                                        // rank 0 = keep the input's shape); slice: the result's shape
  pad_fields pad{};                     // pad
  batch_norm_fields batch_norm{std::bit_cast<std::uint32_t>(1e-5f)};  // batch_norm
  clip_fields clip{};                   // clip: the bounds (int8 without a scale: the raw integers)
  dtype out_type = dtype::f32;          // quantize, dequantize, arg_max, arg_min, and ops of layout onnx: the result's element type
  data_layout layout = data_layout::ctnn;  // conv2d, dense: ONNX's integer ops read ONNX's layouts
  mean_fields mean{};                   // mean and the other reductions
  transpose_fields transpose{};         // transpose
  slice_fields slice{};                 // slice
  activation_coefficients coefficients{};  // leaky_relu, elu, hard_sigmoid, unary_function, binary_function
  bool keep_dims = true;                // reductions: reduced axes stay as extent 1
  norm_fields norm{};                   // l2_normalization
  sequence_lstm_scale_fields sequence_lstm_scales{};  // sequence_lstm on int8
  // The op kinds' own fields (ir/kind_fields.hpp), read through kind_field_accessors' and written with set():
  // resize (resize_nearest, resize_linear, resize_cubic; the result's shape: target), svdf, recurrent (lstm, gru,
  // rnn), sequence_lstm, cumsum (its axis: axis), detection (detection_postprocess), top_k (its axis: axis; values
  // or indices: out_type), lrn, patch (crop, paste), fetch (fetch_rows).
  template <class Fields>
  constexpr void set(const Fields& f) { kind_specific.set(f); }
  std::int32_t reduction = 0;           // scatter_elements: how an update combines (ops::scatter_reduction)
  friend constexpr bool operator==(const op_attributes&, const op_attributes&) = default;
};

}  // namespace ctnn
