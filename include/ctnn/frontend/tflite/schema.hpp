#pragma once
// The TFLite schema subset ctnn reads (namespace tflite, root table Model, file identifier "TFL3"), on top
// of the constexpr FlatBuffers reader: field ids, enums, and a view of a model file that checks what it
// hands out (see ../shared/FORMATS.md §2 for the tables; ids follow declaration order, unions take two).
//
//   tflite::model_file f{bytes, size};          // checks the header, root, version, subgraph 0
//   f.tensor_count(), f.tensor(i)                // a tensor_view: shape, type, buffer, name, quantization
//   f.operator_count(), f.op(i)                  // an operator_view: builtin code, inputs, outputs, options
//   f.buffer_data(b)                             // a buffer's bytes (a vector of ubyte)
//   f.failed(), f.error()                        // the first problem: byte offset + flatbuffers::expectation
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <ctnn/frontend/flatbuffers.hpp>

namespace ctnn::tflite {

// BuiltinOperator (int32). Enumerators are TFLite's names in lower case (if_, while_: keywords).
enum class builtin_operator : std::int32_t {
  add = 0, average_pool_2d = 1, concatenation = 2, conv_2d = 3, depthwise_conv_2d = 4, depth_to_space = 5,
  dequantize = 6, embedding_lookup = 7, floor = 8, fully_connected = 9, hashtable_lookup = 10,
  l2_normalization = 11, l2_pool_2d = 12, local_response_normalization = 13, logistic = 14, lsh_projection = 15,
  lstm = 16, max_pool_2d = 17, mul = 18, relu = 19, relu_n1_to_1 = 20, relu6 = 21, reshape = 22,
  resize_bilinear = 23, rnn = 24, softmax = 25, space_to_depth = 26, svdf = 27, tanh = 28,
  concat_embeddings = 29, skip_gram = 30, call = 31, custom = 32, embedding_lookup_sparse = 33, pad = 34,
  unidirectional_sequence_rnn = 35, gather = 36, batch_to_space_nd = 37, space_to_batch_nd = 38, transpose = 39,
  mean = 40, sub = 41, div = 42, squeeze = 43, unidirectional_sequence_lstm = 44, strided_slice = 45,
  bidirectional_sequence_rnn = 46, exp = 47, topk_v2 = 48, split = 49, log_softmax = 50, delegate = 51,
  bidirectional_sequence_lstm = 52, cast = 53, prelu = 54, maximum = 55, arg_max = 56, minimum = 57, less = 58,
  neg = 59, padv2 = 60, greater = 61, greater_equal = 62, less_equal = 63, select = 64, slice = 65, sin = 66,
  transpose_conv = 67, sparse_to_dense = 68, tile = 69, expand_dims = 70, equal = 71, not_equal = 72, log = 73,
  sum = 74, sqrt = 75, rsqrt = 76, shape = 77, pow = 78, arg_min = 79, fake_quant = 80, reduce_prod = 81,
  reduce_max = 82, pack = 83, logical_or = 84, one_hot = 85, logical_and = 86, logical_not = 87, unpack = 88,
  reduce_min = 89, floor_div = 90, reduce_any = 91, square = 92, zeros_like = 93, fill = 94, floor_mod = 95,
  range = 96, resize_nearest_neighbor = 97, leaky_relu = 98, squared_difference = 99, mirror_pad = 100,
  abs = 101, split_v = 102, unique = 103, ceil = 104, reverse_v2 = 105, add_n = 106, gather_nd = 107, cos = 108,
  where = 109, rank = 110, elu = 111, reverse_sequence = 112, matrix_diag = 113, quantize = 114,
  matrix_set_diag = 115, round = 116, hard_swish = 117, if_ = 118, while_ = 119, non_max_suppression_v4 = 120,
  non_max_suppression_v5 = 121, scatter_nd = 122, select_v2 = 123, densify = 124, segment_sum = 125,
  batch_matmul = 126, placeholder_for_greater_op_codes = 127, cumsum = 128, call_once = 129, broadcast_to = 130,
  rfft2d = 131, conv_3d = 132, imag = 133, real = 134, complex_abs = 135, hashtable = 136, hashtable_find = 137,
  hashtable_import = 138, hashtable_size = 139, reduce_all = 140, conv_3d_transpose = 141, var_handle = 142,
  read_variable = 143, assign_variable = 144, broadcast_args = 145, random_standard_normal = 146,
  bucketize = 147, random_uniform = 148, multinomial = 149, gelu = 150, dynamic_update_slice = 151,
  relu_0_to_1 = 152, unsorted_segment_prod = 153, unsorted_segment_max = 154, unsorted_segment_sum = 155,
  atan2 = 156, unsorted_segment_min = 157, sign = 158, bitcast = 159, bitwise_xor = 160, right_shift = 161,
  stablehlo_logistic = 162, stablehlo_add = 163, stablehlo_divide = 164, stablehlo_multiply = 165,
  stablehlo_maximum = 166, stablehlo_reshape = 167, stablehlo_clamp = 168, stablehlo_concatenate = 169,
  stablehlo_broadcast_in_dim = 170, stablehlo_convolution = 171, stablehlo_slice = 172,
  stablehlo_custom_call = 173, stablehlo_reduce = 174, stablehlo_abs = 175, stablehlo_and = 176,
  stablehlo_cosine = 177, stablehlo_exponential = 178, stablehlo_floor = 179, stablehlo_log = 180,
  stablehlo_minimum = 181, stablehlo_negate = 182, stablehlo_or = 183, stablehlo_power = 184,
  stablehlo_remainder = 185, stablehlo_rsqrt = 186, stablehlo_select = 187, stablehlo_subtract = 188,
  stablehlo_tanh = 189, stablehlo_scatter = 190, stablehlo_compare = 191, stablehlo_convert = 192,
  stablehlo_dynamic_slice = 193, stablehlo_dynamic_update_slice = 194, stablehlo_pad = 195,
  stablehlo_iota = 196, stablehlo_dot_general = 197, stablehlo_reduce_window = 198, stablehlo_sort = 199,
  stablehlo_while = 200, stablehlo_gather = 201, stablehlo_transpose = 202, dilate = 203,
  stablehlo_rng_bit_generator = 204, reduce_window = 205, stablehlo_composite = 206, stablehlo_shift_left = 207,
  stablehlo_cbrt = 208, stablehlo_case = 209,
};

inline constexpr std::int32_t builtin_operator_count = 210;

namespace detail {
inline constexpr std::array<std::string_view, builtin_operator_count> builtin_operator_names{
    "ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D", "DEPTH_TO_SPACE", "DEQUANTIZE",
    "EMBEDDING_LOOKUP", "FLOOR", "FULLY_CONNECTED", "HASHTABLE_LOOKUP", "L2_NORMALIZATION", "L2_POOL_2D",
    "LOCAL_RESPONSE_NORMALIZATION", "LOGISTIC", "LSH_PROJECTION", "LSTM", "MAX_POOL_2D", "MUL", "RELU",
    "RELU_N1_TO_1", "RELU6", "RESHAPE", "RESIZE_BILINEAR", "RNN", "SOFTMAX", "SPACE_TO_DEPTH", "SVDF", "TANH",
    "CONCAT_EMBEDDINGS", "SKIP_GRAM", "CALL", "CUSTOM", "EMBEDDING_LOOKUP_SPARSE", "PAD",
    "UNIDIRECTIONAL_SEQUENCE_RNN", "GATHER", "BATCH_TO_SPACE_ND", "SPACE_TO_BATCH_ND", "TRANSPOSE", "MEAN",
    "SUB", "DIV", "SQUEEZE", "UNIDIRECTIONAL_SEQUENCE_LSTM", "STRIDED_SLICE", "BIDIRECTIONAL_SEQUENCE_RNN",
    "EXP", "TOPK_V2", "SPLIT", "LOG_SOFTMAX", "DELEGATE", "BIDIRECTIONAL_SEQUENCE_LSTM", "CAST", "PRELU",
    "MAXIMUM", "ARG_MAX", "MINIMUM", "LESS", "NEG", "PADV2", "GREATER", "GREATER_EQUAL", "LESS_EQUAL", "SELECT",
    "SLICE", "SIN", "TRANSPOSE_CONV", "SPARSE_TO_DENSE", "TILE", "EXPAND_DIMS", "EQUAL", "NOT_EQUAL", "LOG",
    "SUM", "SQRT", "RSQRT", "SHAPE", "POW", "ARG_MIN", "FAKE_QUANT", "REDUCE_PROD", "REDUCE_MAX", "PACK",
    "LOGICAL_OR", "ONE_HOT", "LOGICAL_AND", "LOGICAL_NOT", "UNPACK", "REDUCE_MIN", "FLOOR_DIV", "REDUCE_ANY",
    "SQUARE", "ZEROS_LIKE", "FILL", "FLOOR_MOD", "RANGE", "RESIZE_NEAREST_NEIGHBOR", "LEAKY_RELU",
    "SQUARED_DIFFERENCE", "MIRROR_PAD", "ABS", "SPLIT_V", "UNIQUE", "CEIL", "REVERSE_V2", "ADD_N", "GATHER_ND",
    "COS", "WHERE", "RANK", "ELU", "REVERSE_SEQUENCE", "MATRIX_DIAG", "QUANTIZE", "MATRIX_SET_DIAG", "ROUND",
    "HARD_SWISH", "IF", "WHILE", "NON_MAX_SUPPRESSION_V4", "NON_MAX_SUPPRESSION_V5", "SCATTER_ND", "SELECT_V2",
    "DENSIFY", "SEGMENT_SUM", "BATCH_MATMUL", "PLACEHOLDER_FOR_GREATER_OP_CODES", "CUMSUM", "CALL_ONCE",
    "BROADCAST_TO", "RFFT2D", "CONV_3D", "IMAG", "REAL", "COMPLEX_ABS", "HASHTABLE", "HASHTABLE_FIND",
    "HASHTABLE_IMPORT", "HASHTABLE_SIZE", "REDUCE_ALL", "CONV_3D_TRANSPOSE", "VAR_HANDLE", "READ_VARIABLE",
    "ASSIGN_VARIABLE", "BROADCAST_ARGS", "RANDOM_STANDARD_NORMAL", "BUCKETIZE", "RANDOM_UNIFORM", "MULTINOMIAL",
    "GELU", "DYNAMIC_UPDATE_SLICE", "RELU_0_TO_1", "UNSORTED_SEGMENT_PROD", "UNSORTED_SEGMENT_MAX",
    "UNSORTED_SEGMENT_SUM", "ATAN2", "UNSORTED_SEGMENT_MIN", "SIGN", "BITCAST", "BITWISE_XOR", "RIGHT_SHIFT",
    "STABLEHLO_LOGISTIC", "STABLEHLO_ADD", "STABLEHLO_DIVIDE", "STABLEHLO_MULTIPLY", "STABLEHLO_MAXIMUM",
    "STABLEHLO_RESHAPE", "STABLEHLO_CLAMP", "STABLEHLO_CONCATENATE", "STABLEHLO_BROADCAST_IN_DIM",
    "STABLEHLO_CONVOLUTION", "STABLEHLO_SLICE", "STABLEHLO_CUSTOM_CALL", "STABLEHLO_REDUCE", "STABLEHLO_ABS",
    "STABLEHLO_AND", "STABLEHLO_COSINE", "STABLEHLO_EXPONENTIAL", "STABLEHLO_FLOOR", "STABLEHLO_LOG",
    "STABLEHLO_MINIMUM", "STABLEHLO_NEGATE", "STABLEHLO_OR", "STABLEHLO_POWER", "STABLEHLO_REMAINDER",
    "STABLEHLO_RSQRT", "STABLEHLO_SELECT", "STABLEHLO_SUBTRACT", "STABLEHLO_TANH", "STABLEHLO_SCATTER",
    "STABLEHLO_COMPARE", "STABLEHLO_CONVERT", "STABLEHLO_DYNAMIC_SLICE", "STABLEHLO_DYNAMIC_UPDATE_SLICE",
    "STABLEHLO_PAD", "STABLEHLO_IOTA", "STABLEHLO_DOT_GENERAL", "STABLEHLO_REDUCE_WINDOW", "STABLEHLO_SORT",
    "STABLEHLO_WHILE", "STABLEHLO_GATHER", "STABLEHLO_TRANSPOSE", "DILATE", "STABLEHLO_RNG_BIT_GENERATOR",
    "REDUCE_WINDOW", "STABLEHLO_COMPOSITE", "STABLEHLO_SHIFT_LEFT", "STABLEHLO_CBRT", "STABLEHLO_CASE"};
}  // namespace detail

// TFLite's own spelling ("CONV_2D"), or "" for a code this table does not know.
constexpr std::string_view name_of(builtin_operator code) {
  const auto i = static_cast<std::int32_t>(code);
  return i >= 0 && i < builtin_operator_count ? detail::builtin_operator_names[static_cast<std::size_t>(i)] : std::string_view{};
}

// TensorType (byte).
enum class tensor_type : std::int8_t {
  float32 = 0, float16 = 1, int32 = 2, uint8 = 3, int64 = 4, string = 5, bool_ = 6, int16 = 7, complex64 = 8,
  int8 = 9, float64 = 10, complex128 = 11, uint64 = 12, resource = 13, variant = 14, uint32 = 15, uint16 = 16,
  int4 = 17, bfloat16 = 18, int2 = 19, uint4 = 20, float8_e4m3fn = 21, float8_e5m2 = 22,
};

constexpr std::string_view name_of(tensor_type t) {
  constexpr std::array<std::string_view, 23> names{
      "FLOAT32", "FLOAT16", "INT32", "UINT8", "INT64", "STRING", "BOOL", "INT16", "COMPLEX64", "INT8", "FLOAT64",
      "COMPLEX128", "UINT64", "RESOURCE", "VARIANT", "UINT32", "UINT16", "INT4", "BFLOAT16", "INT2", "UINT4",
      "FLOAT8_E4M3FN", "FLOAT8_E5M2"};
  const auto i = static_cast<std::int32_t>(t);
  return i >= 0 && i < 23 ? names[static_cast<std::size_t>(i)] : std::string_view{};
}

// ActivationFunctionType (byte) and Padding (byte).
enum class activation_function : std::int8_t { none = 0, relu = 1, relu_n1_to_1 = 2, relu6 = 3, tanh = 4, sign_bit = 5 };
enum class padding_type : std::int8_t { same = 0, valid = 1 };

constexpr std::string_view name_of(activation_function a) {
  switch (a) {
    case activation_function::none: return "NONE";
    case activation_function::relu: return "RELU";
    case activation_function::relu_n1_to_1: return "RELU_N1_TO_1";
    case activation_function::relu6: return "RELU6";
    case activation_function::tanh: return "TANH";
    case activation_function::sign_bit: return "SIGN_BIT";
  }
  return {};
}

// Why a tensor cannot be imported although its type is supported (frontend_error::tflite_unsupported_tensor_feature).
enum class tensor_feature : std::int32_t {
  quantization_details = 1,     // QuantizationParameters.details (custom, blockwise, multi-axis) is set
  per_channel_zero_point,       // a per-channel tensor with a non-zero zero point
  quantization_counts_differ,   // scale and zero_point have different lengths
  quantized_dimension,          // per-channel scales that do not match the extent of quantized_dimension
  sparsity,                     // a sparse tensor
  variable,                     // a variable tensor (state)
  external_buffer,              // data stored outside the FlatBuffer (Buffer.offset, Tensor.external_buffer)
  variable_use,                 // a variable tensor read where no op keeps its state, or by a second op
  state_not_variable,           // an op's state operand (SVDF's activation state) that is not a variable tensor
  computed_integers,            // integers computed at import (SHAPE, BROADCAST_ARGS, ...: import_known.hpp) read as
                                // a tensor by an op that does not fold them, or a graph output
  computed_integers_capacity,   // more integers computed at import than the importer's store holds
  state_type,                   // an op's state operand of another element type than its kernel keeps (int8 LSTM)
  resource_use,                 // a RESOURCE tensor used other than as a VAR_HANDLE's result read by READ_VARIABLE and
                                // ASSIGN_VARIABLE (a graph input or output, another op's operand, no VAR_HANDLE's)
  resource_mismatch,            // a resource variable read or assigned with two shapes, element types or quantizations
                                // (TFLM sizes it at its first assignment and copies bytes)
  resource_unassigned,          // a resource variable read but never assigned nor initialised (TFLM reads no buffer)
  resource_capacity,            // more resource variables or RESOURCE tensors than the importer holds
};

constexpr std::string_view name_of(tensor_feature f) {
  switch (f) {
    case tensor_feature::quantization_details: return "quantization details (custom/blockwise/multi-axis)";
    case tensor_feature::per_channel_zero_point: return "a non-zero per-channel zero point";
    case tensor_feature::quantization_counts_differ: return "scale and zero_point of different lengths";
    case tensor_feature::quantized_dimension: return "per-channel scales that do not match quantized_dimension";
    case tensor_feature::sparsity: return "sparsity";
    case tensor_feature::variable: return "a variable tensor";
    case tensor_feature::external_buffer: return "data outside the FlatBuffer";
    case tensor_feature::variable_use:
      return "a variable tensor read where the op keeps no state, or by a second op (one op owns each state)";
    case tensor_feature::state_not_variable: return "an op's state operand that is not a variable tensor";
    case tensor_feature::computed_integers:
      return "integers computed at import (a shape's arithmetic) read as a tensor: no tensor holds them";
    case tensor_feature::computed_integers_capacity: return "more integers computed at import than the importer holds";
    case tensor_feature::state_type:
      return "an op's state operand of another element type than its kernel keeps (an int8 LSTM's cell state: int16, "
             "its output state: int8)";
    case tensor_feature::resource_use:
      return "a RESOURCE tensor used other than as a VAR_HANDLE's result read by READ_VARIABLE or ASSIGN_VARIABLE";
    case tensor_feature::resource_mismatch:
      return "a resource variable read or assigned with another shape, element type or quantization than its first use";
    case tensor_feature::resource_unassigned:
      return "a resource variable read but never assigned, nor initialised by a CALL_ONCE init subgraph";
    case tensor_feature::resource_capacity: return "more resource variables or RESOURCE tensors than the importer holds";
  }
  return {};
}

// What is wrong with a custom operator's custom_options (frontend_error::tflite_invalid_custom_options).
enum class custom_options_problem : std::int32_t {
  malformed = 1,  // not a FlexBuffers map of numbers (byte_offset: where; rejected_value: flexbuffers::expectation)
  missing_key,    // a key the op needs is absent (position: the key, custom_option_keys)
  out_of_range,   // a value the op's kernel cannot take (position: the key; rejected_value: the value, in
                  // millionths for a float)
};

constexpr std::string_view name_of(custom_options_problem p) {
  switch (p) {
    case custom_options_problem::malformed: return "not a FlexBuffers map of numbers";
    case custom_options_problem::missing_key: return "a required key is absent";
    case custom_options_problem::out_of_range: return "a value out of the range the op takes";
  }
  return {};
}

// The keys of TFLite_Detection_PostProcess's custom options (a FlexBuffers map), in the order diagnostics
// number them; the last two may be absent (TFLM: 100 detections per class, the fast non-max suppression).
inline constexpr std::string_view detection_postprocess_keys[] = {
    "max_detections", "max_classes_per_detection", "num_classes", "nms_score_threshold", "nms_iou_threshold",
    "y_scale",        "x_scale",                   "h_scale",     "w_scale",             "detections_per_class",
    "use_regular_nms",
};

// What is wrong with a tensor's quantization parameters (frontend_error::tflite_invalid_quantization).
enum class quantization_problem : std::int32_t {
  scale = 1,       // an int8 scale that is not finite and within [2^-60, 2^60] (an int32 one: not finite and >= 0)
  zero_point,      // a zero point outside the tensor type's range (int8: [-128, 127]; int32: int32)
  channel_scale,   // a per-channel scale that is not finite and within [2^-60, 2^60]
  not_the_inputs,  // an int8 REDUCE_MAX/REDUCE_MIN result quantized unlike its input (TFLM fails it)
  int16_zero_point,  // an int16 tensor with a zero point other than 0 at an op whose TFLM int16 kernel needs 0
  int16_result_scale,  // an int16 LOGISTIC/TANH result whose scale is not 2^-15 (TFLM's kernels need it)
  bias_scale,      // an int8 SVDF bias whose scale is not the state's times the time weights' (within 1e-5)
  log_softmax_result,  // an int8 LOG_SOFTMAX result not of scale 16/256 and zero point 127 (TFLM's kernel needs them)
  lstm_weights,    // int8 UNIDIRECTIONAL_SEQUENCE_LSTM weights quantized per channel or with a zero point (TFLM: neither)
  lstm_cell_scale, // an int16 LSTM cell state whose scale is not a power of two in [2^-40, 2^15] (TFLM shifts by its exponent)
  uint8_result_scale,  // a UINT8 QUANTIZE result without a scale (TFLM's Prepare requires one)
};

constexpr std::string_view name_of(quantization_problem q) {
  switch (q) {
    case quantization_problem::scale: return "a scale that is not finite or outside [2^-60, 2^60]";
    case quantization_problem::zero_point: return "a zero point outside the range of the tensor's type";
    case quantization_problem::channel_scale: return "a per-channel scale that is not finite or outside [2^-60, 2^60]";
    case quantization_problem::not_the_inputs:
      return "an int8 REDUCE_MAX/REDUCE_MIN result whose scale or zero point is not its input's (TFLM runs only those)";
    case quantization_problem::int16_zero_point:
      return "an int16 zero point other than 0 at an op whose int16 kernel TFLM runs only with zero point 0";
    case quantization_problem::int16_result_scale:
      return "an int16 result whose scale is not the power of two the op's kernel writes (LOGISTIC, TANH: 2^-15)";
    case quantization_problem::bias_scale:
      return "an int8 SVDF bias whose scale is not the state's times the time weights' (TFLM checks within 1e-5)";
    case quantization_problem::log_softmax_result:
      return "an int8 LOG_SOFTMAX result whose scale is not 16/256 or whose zero point is not 127 (TFLM runs only those)";
    case quantization_problem::lstm_weights:
      return "int8 LSTM weights quantized per channel or with a zero point other than 0 (TFLM's kernel reads one scale, no zero point)";
    case quantization_problem::lstm_cell_scale:
      return "an int16 LSTM cell state whose scale is not a power of two in [2^-40, 2^15] (TFLM's kernel shifts by its exponent)";
    case quantization_problem::uint8_result_scale:
      return "a UINT8 QUANTIZE result without a scale (TFLM's Prepare requires one)";
  }
  return {};
}

// Why a FULLY_CONNECTED op is not supported (frontend_error::tflite_unsupported_fully_connected).
enum class fully_connected_feature : std::int32_t {
  shuffled_weights = 1,  // weights_format SHUFFLED4x16INT8
  keep_num_dims,         // keep_num_dims with an input of rank > 2
};

constexpr std::string_view name_of(fully_connected_feature f) {
  switch (f) {
    case fully_connected_feature::shuffled_weights: return "weights_format SHUFFLED4x16INT8";
    case fully_connected_feature::keep_num_dims: return "keep_num_dims with an input of rank > 2";
  }
  return {};
}

namespace schema {

// Field ids (vtable slot = 4 + 2 * id).
namespace model { inline constexpr std::uint32_t version = 0, operator_codes = 1, subgraphs = 2, description = 3, buffers = 4; }
namespace subgraph { inline constexpr std::uint32_t tensors = 0, inputs = 1, outputs = 2, operators = 3, name = 4; }
namespace tensor {
inline constexpr std::uint32_t shape = 0, type = 1, buffer = 2, name = 3, quantization = 4, is_variable = 5, sparsity = 6,
                               shape_signature = 7, has_rank = 8, variant_tensors = 9, external_buffer = 10;
}
namespace buffer { inline constexpr std::uint32_t data = 0, offset = 1, size = 2; }
namespace quantization {
inline constexpr std::uint32_t min = 0, max = 1, scale = 2, zero_point = 3, details_type = 4, details = 5,
                               quantized_dimension = 6;
}
namespace operator_code { inline constexpr std::uint32_t deprecated_builtin_code = 0, custom_code = 1, version = 2, builtin_code = 3; }
namespace op {
inline constexpr std::uint32_t opcode_index = 0, inputs = 1, outputs = 2, builtin_options_type = 3, builtin_options = 4,
                               custom_options = 5;
}
// Options tables.
namespace conv_2d { inline constexpr std::uint32_t padding = 0, stride_w = 1, stride_h = 2, fused_activation = 3, dilation_w = 4, dilation_h = 5; }
namespace depthwise_conv_2d {
inline constexpr std::uint32_t padding = 0, stride_w = 1, stride_h = 2, depth_multiplier = 3, fused_activation = 4,
                               dilation_w = 5, dilation_h = 6;
}
namespace pool_2d {
inline constexpr std::uint32_t padding = 0, stride_w = 1, stride_h = 2, filter_width = 3, filter_height = 4, fused_activation = 5;
}
namespace fully_connected {
inline constexpr std::uint32_t fused_activation = 0, weights_format = 1, keep_num_dims = 2, asymmetric_quantize_inputs = 3;
}
namespace softmax { inline constexpr std::uint32_t beta = 0; }
namespace concatenation { inline constexpr std::uint32_t axis = 0, fused_activation = 1; }
namespace add { inline constexpr std::uint32_t fused_activation = 0; }
namespace mul { inline constexpr std::uint32_t fused_activation = 0; }
namespace sub { inline constexpr std::uint32_t fused_activation = 0; }
namespace div { inline constexpr std::uint32_t fused_activation = 0; }
namespace reshape { inline constexpr std::uint32_t new_shape = 0; }
namespace reducer { inline constexpr std::uint32_t keep_dims = 0; }
namespace squeeze { inline constexpr std::uint32_t squeeze_dims = 0; }
namespace strided_slice {
inline constexpr std::uint32_t begin_mask = 0, end_mask = 1, ellipsis_mask = 2, new_axis_mask = 3, shrink_axis_mask = 4,
                               offset = 5;
}
namespace gather { inline constexpr std::uint32_t axis = 0, batch_dims = 1; }
namespace pack { inline constexpr std::uint32_t values_count = 0, axis = 1; }
namespace unpack { inline constexpr std::uint32_t num = 0, axis = 1; }
namespace depth_to_space { inline constexpr std::uint32_t block_size = 0; }  // SpaceToDepthOptions alike
namespace leaky_relu { inline constexpr std::uint32_t alpha = 0; }
namespace gelu { inline constexpr std::uint32_t approximate = 0; }
namespace resize_bilinear { inline constexpr std::uint32_t align_corners = 2, half_pixel_centers = 3; }
namespace resize_nearest_neighbor { inline constexpr std::uint32_t align_corners = 0, half_pixel_centers = 1; }
namespace mirror_pad { inline constexpr std::uint32_t mode = 0; }  // REFLECT 0, SYMMETRIC 1
namespace l2_norm { inline constexpr std::uint32_t fused_activation = 0; }
namespace svdf { inline constexpr std::uint32_t rank = 0, fused_activation = 1, asymmetric_quantize_inputs = 2; }
namespace unidirectional_sequence_lstm {
inline constexpr std::uint32_t fused_activation = 0, cell_clip = 1, proj_clip = 2, time_major = 3,
                               asymmetric_quantize_inputs = 4, diagonal_recurrent_tensors = 5;
}
namespace batch_matmul { inline constexpr std::uint32_t adj_x = 0, adj_y = 1, asymmetric_quantize_inputs = 2; }
namespace transpose_conv { inline constexpr std::uint32_t padding = 0, stride_w = 1, stride_h = 2, fused_activation = 3; }
namespace cumsum { inline constexpr std::uint32_t exclusive = 0, reverse = 1; }
namespace call_once { inline constexpr std::uint32_t init_subgraph_index = 0; }
namespace var_handle { inline constexpr std::uint32_t container = 0, shared_name = 1; }

// Members of the BuiltinOptions union that ctnn reads (the union's type tag values).
enum class builtin_options : std::uint8_t {
  none = 0,
  conv_2d = 1,
  depthwise_conv_2d = 2,
  pool_2d = 5,
  fully_connected = 8,
  softmax = 9,
  concatenation = 10,
  add = 11,
  reshape = 17,
  space_to_depth = 19,
  gather = 23,
  transpose = 26,
  mul = 21,
  pad = 22,
  reducer = 27,
  sub = 28,
  div = 29,
  squeeze = 30,
  strided_slice = 32,
  split = 35,
  slice = 48,
  expand_dims = 52,
  pack = 59,
  unpack = 64,
  split_v = 79,
  depth_to_space = 94,
  dequantize = 38,
  arg_max = 40,  // ArgMaxOptions, ArgMinOptions: output_type (the output tensor's type is read instead)
  arg_min = 57,
  leaky_relu = 75,
  quantize = 89,
  resize_bilinear = 15,
  resize_nearest_neighbor = 74,
  mirror_pad = 77,
  space_to_batch_nd = 25,
  batch_to_space_nd = 24,
  l2_norm = 12,
  svdf = 6,
  unidirectional_sequence_lstm = 71,
  transpose_conv = 49,
  batch_matmul = 101,
  padv2 = 43,
  cumsum = 102,
  gelu = 116,
  call_once = 103,
  var_handle = 111,
  read_variable = 112,
  assign_variable = 113,
};

}  // namespace schema

// A Tensor table, its fields read and checked (vectors fit the file; buffer index in range).
struct tensor_view {
  flatbuffers::table table{};
  flatbuffers::vector shape{};            // int32
  flatbuffers::vector shape_signature{};  // int32
  tensor_type type = tensor_type::float32;
  std::uint32_t buffer = 0;
  flatbuffers::string name{};
  flatbuffers::table quantization{};
  bool is_variable = false;
  bool has_sparsity = false;
  std::uint32_t external_buffer = 0;
};

// An Operator table with its resolved builtin code.
struct operator_view {
  flatbuffers::table table{};
  std::uint32_t opcode_index = 0;
  builtin_operator code = builtin_operator::add;
  flatbuffers::vector inputs{};   // int32 tensor indices (-1: an omitted optional input)
  flatbuffers::vector outputs{};  // int32
  std::uint8_t options_type = 0;  // the BuiltinOptions union tag
  // A CUSTOM operator's: its operator code's custom_code and its custom_options bytes (absent for the others).
  flatbuffers::string custom_code{};
  flatbuffers::vector custom_options{};
};

// A TFLite model file: the header, the root Model, subgraph 0 and its vectors, checked on construction.
class model_file {
 public:
  constexpr model_file(const char* bytes, std::size_t size) : reader_(bytes, size) {
    if (reader_.failed()) return;
    if (!reader_.has_identifier("TFL3")) {
      reader_.fail(4, flatbuffers::expectation::file_identifier);
      return;
    }
    model_ = reader_.root();
    const auto version = reader_.scalar<std::uint32_t>(model_, schema::model::version, 0);
    if (!reader_.failed() && version != 3) {
      reader_.fail(field_position(model_, schema::model::version), flatbuffers::expectation::schema_version);
      return;
    }
    version_ = version;
    operator_codes_ = reader_.vector_field(model_, schema::model::operator_codes, 4);
    subgraphs_ = reader_.vector_field(model_, schema::model::subgraphs, 4);
    buffers_ = reader_.vector_field(model_, schema::model::buffers, 4);
    if (reader_.failed()) return;
    if (subgraphs_.length == 0) {
      reader_.fail(field_position(model_, schema::model::subgraphs), flatbuffers::expectation::subgraph);
      return;
    }
    const subgraph_view main = subgraph(0);
    subgraph_ = main.table;
    tensors_ = main.tensors;
    inputs_ = main.inputs;
    outputs_ = main.outputs;
    operators_ = main.operators;
  }

  // Subgraph k's vectors (subgraph 0 is the model; the others are what CALL_ONCE, WHILE, IF call).
  struct subgraph_view {
    flatbuffers::table table{};
    flatbuffers::vector tensors{}, inputs{}, outputs{}, operators{};
  };
  constexpr subgraph_view subgraph(std::uint32_t k) {
    subgraph_view g{};
    g.table = reader_.table_at(subgraphs_, k);
    g.tensors = reader_.vector_field(g.table, schema::subgraph::tensors, 4);
    g.inputs = reader_.vector_field(g.table, schema::subgraph::inputs, 4);
    g.outputs = reader_.vector_field(g.table, schema::subgraph::outputs, 4);
    g.operators = reader_.vector_field(g.table, schema::subgraph::operators, 4);
    return g;
  }

  constexpr bool failed() const { return reader_.failed(); }
  constexpr const flatbuffers::error& error() const { return reader_.error(); }
  constexpr flatbuffers::reader& reader() { return reader_; }
  constexpr const flatbuffers::reader& reader() const { return reader_; }

  constexpr std::uint32_t version() const { return version_; }
  constexpr std::uint32_t subgraph_count() const { return subgraphs_.length; }
  constexpr std::uint32_t buffer_count() const { return buffers_.length; }
  constexpr std::uint32_t operator_code_count() const { return operator_codes_.length; }
  constexpr std::uint32_t tensor_count() const { return tensors_.length; }
  constexpr std::uint32_t operator_count() const { return operators_.length; }
  constexpr const flatbuffers::vector& inputs() const { return inputs_; }    // int32 tensor indices
  constexpr const flatbuffers::vector& outputs() const { return outputs_; }  // int32 tensor indices
  constexpr flatbuffers::string subgraph_name() { return reader_.string_field(subgraph_, schema::subgraph::name); }
  constexpr flatbuffers::string description() { return reader_.string_field(model_, schema::model::description); }

  // The byte offset of a table's field (for diagnostics), or the table's own when the field is absent.
  constexpr std::int64_t field_position(const flatbuffers::table& t, std::uint32_t id) {
    const std::uint32_t offset = reader_.field_offset(t, id, 0);
    return static_cast<std::int64_t>(t.at) + offset;
  }

  constexpr std::int32_t index_at(const flatbuffers::vector& v, std::uint32_t i) { return reader_.element<std::int32_t>(v, i); }

  constexpr tensor_view tensor(std::uint32_t i) { return tensor_in(tensors_, i); }
  // Tensor i of a subgraph's tensors (subgraph_view::tensors).
  constexpr tensor_view tensor_in(const flatbuffers::vector& tensors, std::uint32_t i) {
    tensor_view t{};
    t.table = reader_.table_at(tensors, i);
    t.shape = reader_.vector_field(t.table, schema::tensor::shape, 4);
    t.type = reader_.scalar<tensor_type>(t.table, schema::tensor::type, tensor_type::float32);
    t.buffer = reader_.scalar<std::uint32_t>(t.table, schema::tensor::buffer, 0);
    t.name = reader_.string_field(t.table, schema::tensor::name);
    t.quantization = reader_.table_field(t.table, schema::tensor::quantization);
    t.is_variable = reader_.scalar<bool>(t.table, schema::tensor::is_variable, false);
    t.has_sparsity = reader_.field_offset(t.table, schema::tensor::sparsity, 4) != 0;
    t.shape_signature = reader_.vector_field(t.table, schema::tensor::shape_signature, 4);
    t.external_buffer = reader_.scalar<std::uint32_t>(t.table, schema::tensor::external_buffer, 0);
    if (!reader_.failed() && t.buffer >= buffers_.length)
      reader_.fail(field_position(t.table, schema::tensor::buffer), flatbuffers::expectation::buffer_index);
    return t;
  }

  // The data of buffer b (an empty vector for the sentinel buffer 0 and buffers without data).
  constexpr flatbuffers::vector buffer_data(std::uint32_t b) {
    if (b == 0 || b >= buffers_.length) return {};
    const flatbuffers::table buffer = reader_.table_at(buffers_, b);
    return reader_.vector_field(buffer, schema::buffer::data, 1);
  }
  // Whether buffer b keeps its data outside the FlatBuffer (offset > 1: models over 2 GiB).
  constexpr bool buffer_is_external(std::uint32_t b) {
    if (b == 0 || b >= buffers_.length) return false;
    const flatbuffers::table buffer = reader_.table_at(buffers_, b);
    return reader_.scalar<std::uint64_t>(buffer, schema::buffer::offset, 0) > 1;
  }

  // The builtin code of operator code k: max(builtin_code, deprecated_builtin_code), as TFLite's
  // GetBuiltinCode (old files set only the deprecated byte; new ones put 127 there for codes > 127).
  constexpr builtin_operator opcode(std::uint32_t k) {
    const flatbuffers::table code = reader_.table_at(operator_codes_, k);
    const auto deprecated = static_cast<std::int32_t>(reader_.scalar<std::int8_t>(code, schema::operator_code::deprecated_builtin_code, 0));
    const auto builtin = reader_.scalar<std::int32_t>(code, schema::operator_code::builtin_code, 0);
    return static_cast<builtin_operator>(builtin > deprecated ? builtin : deprecated);
  }

  constexpr operator_view op(std::uint32_t i) { return op_in(operators_, i); }
  // Op i of a subgraph's operators (subgraph_view::operators).
  constexpr operator_view op_in(const flatbuffers::vector& operators, std::uint32_t i) {
    operator_view o{};
    o.table = reader_.table_at(operators, i);
    o.opcode_index = reader_.scalar<std::uint32_t>(o.table, schema::op::opcode_index, 0);
    if (!reader_.failed() && o.opcode_index >= operator_codes_.length) {
      reader_.fail(field_position(o.table, schema::op::opcode_index), flatbuffers::expectation::opcode_index);
      return o;
    }
    o.code = opcode(o.opcode_index);
    o.inputs = reader_.vector_field(o.table, schema::op::inputs, 4);
    o.outputs = reader_.vector_field(o.table, schema::op::outputs, 4);
    o.options_type = reader_.scalar<std::uint8_t>(o.table, schema::op::builtin_options_type, 0);
    if (o.code == builtin_operator::custom) {
      o.custom_code = reader_.string_field(reader_.table_at(operator_codes_, o.opcode_index), schema::operator_code::custom_code);
      o.custom_options = reader_.vector_field(o.table, schema::op::custom_options, 1);
    }
    return o;
  }

  // The op's options table if its union tag is `expected` (absent: defaults); a failure for another tag.
  constexpr flatbuffers::table options(const operator_view& o, schema::builtin_options expected) {
    return reader_.union_field(o.table, schema::op::builtin_options_type, schema::op::builtin_options,
                               static_cast<std::uint8_t>(expected));
  }

 private:
  flatbuffers::reader reader_;
  flatbuffers::table model_{};
  flatbuffers::table subgraph_{};
  flatbuffers::vector operator_codes_{}, subgraphs_{}, buffers_{}, tensors_{}, inputs_{}, outputs_{}, operators_{};
  std::uint32_t version_ = 0;
};

}  // namespace ctnn::tflite
