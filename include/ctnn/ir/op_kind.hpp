#pragma once
// The graph-level operator kinds, fused activations and padding modes.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace ctnn {

// An op reads at most this many tensors (concat its inputs; conv: data, weights, bias; ONNX's integer ops
// also their scales and zero points).
inline constexpr std::size_t max_node_inputs = 8;

enum class op_kind : std::int32_t {
  conv2d,            // OHWI weights, groups >= 1
  depthwise_conv2d,  // 1HWC weights, channel multiplier
  dense,             // [out][in] weights; input flattened per batch
  max_pool,
  avg_pool,          // divides by the in-bounds count (TFLite semantics)
  global_avg_pool,
  add,
  mul,
  relu,
  relu6,
  sigmoid,
  tanh,
  softmax,           // along the last axis
  reshape,           // also flatten
  concat,
  pad,
  batch_norm,        // inference form, per channel (last axis): inputs x, scale, offset, mean, variance
  quantize,          // real (or another quantization) -> the output tensor's quantized type
  dequantize,        // quantized -> float32
  mean,              // average over the axes in attrs.mean.reduce_axes (bit d = axis d), keep_dims or not
  transpose,         // out dim d = in dim attrs.transpose.perm[d]
  clip,              // clamp to [attrs.clip.min(), attrs.clip.max()] (ONNX Clip with general bounds)
  batch_matmul,      // numpy matmul of two activations: A [..., M, K] x B [..., K, N] -> [..., M, N], the batch
                     // dims (all but the last two) broadcast (ONNX MatMul whose B is not a constant)
  crop,              // patch execution (docs/memory.md): the NHWC window of its input starting at row
                     // attrs.patch().row, column attrs.patch().column, of shape attrs.target (a copy)
  paste,             // patch execution: writes its first input into its result, a view of its second input
                     // (the whole tensor), at row attrs.patch().row, column attrs.patch().column; the rest is untouched
  fetch_rows,        // patch execution with a streamed input (docs/memory.md): its result, the row buffer
                     // attrs.target (a view of the previous one's, its second input), keeps attrs.fetch().kept_rows
                     // rows from row kept_from at its top, below them the caller writes fetched_rows rows of
                     // the model input (its first input, a ctnn::row_source) from row first_row
  sub,               // a - b, numpy broadcasting (TFLite SUB, ONNX Sub)
  abs,               // element-wise math of one operand (ops/unary_math.hpp), TFLite's and ONNX's operator
  neg,               //   of the same name: |x|, -x, sqrt x, 1 / sqrt x, e^x, ln x, sin x, cos x,
  sqrt,              //   floor, ceil, round (halves to even), x * x, 1 / x
  rsqrt,
  exp,
  log,
  sin,
  cos,
  floor,
  ceil,
  round,
  square,
  reciprocal,
  slice,             // input elements attrs.slice.begin + i * stride for i < extent per dim, in order, under the
                     // result shape attrs.target (rank 0: the extents): strided slices, splits, unpacks
  gather,            // its first input's slices along attrs.axis at the indices of its second (int32 or int64):
                     // shape data[:axis] + indices + data[axis + 1:] (TFLite GATHER, ONNX Gather)
  // Reductions over the axes of attrs.mean.reduce_axes, keep_dims or not, as mean (ops/reduce.hpp):
  reduce_sum,         // sum (TFLite SUM, ONNX ReduceSum)
  reduce_max,         // largest (TFLite REDUCE_MAX, ONNX ReduceMax)
  reduce_min,         // smallest (TFLite REDUCE_MIN, ONNX ReduceMin)
  reduce_prod,        // product (ONNX ReduceProd)
  reduce_sum_square,  // sum of squares (ONNX ReduceSumSquare)
  reduce_l1,          // sum of magnitudes (ONNX ReduceL1)
  reduce_l2,          // square root of the sum of squares (ONNX ReduceL2)
  reduce_log_sum,     // natural log of the sum (ONNX ReduceLogSum)
  reduce_log_sum_exp,  // natural log of the sum of exponentials (ONNX ReduceLogSumExp)
  arg_max,            // the index of the largest along the one axis of the mask (ties: the first, or with
                      // attrs.mean.select_last the last), of type attrs.out_type (TFLite ARG_MAX, ONNX ArgMax)
  arg_min,            // likewise the smallest (TFLite ARG_MIN, ONNX ArgMin)
  leaky_relu,        // x > 0 ? x : attrs.coefficients.alpha() * x (TFLite LEAKY_RELU, ONNX LeakyRelu)
  hard_swish,        // x * min(max(x + 3, 0), 6) / 6 (TFLite HARD_SWISH, ONNX HardSwish)
  prelu,             // x >= 0 ? x : x * alpha, alpha the second input, broadcast (TFLite PRELU, ONNX PRelu)
  elu,               // x < 0 ? attrs.coefficients.alpha() * (e^x - 1) : x (TFLite ELU: alpha 1, ONNX Elu)
  relu_n1_to_1,      // min(max(x, -1), 1) (TFLite RELU_N1_TO_1)
  relu_0_to_1,       // min(max(x, 0), 1) (TFLite RELU_0_TO_1)
  maximum,           // max(a, b), numpy broadcasting (TFLite MAXIMUM, ONNX Max: folded over its operands)
  minimum,           // min(a, b), numpy broadcasting (TFLite MINIMUM, ONNX Min: folded over its operands)
  hard_sigmoid,      // max(0, min(1, alpha * x + beta)) (ONNX HardSigmoid; attrs.coefficients)
  equal,             // a == b, numpy broadcasting, a bool result (TFLite EQUAL, ONNX Equal; ops/comparison.hpp)
  not_equal,         // a != b (TFLite NOT_EQUAL)
  less,              // a < b (TFLite LESS, ONNX Less)
  less_equal,        // a <= b (TFLite LESS_EQUAL, ONNX LessOrEqual)
  greater,           // a > b (TFLite GREATER, ONNX Greater)
  greater_equal,     // a >= b (TFLite GREATER_EQUAL, ONNX GreaterOrEqual)
  logical_and,       // a && b on bools, numpy broadcasting (TFLite LOGICAL_AND, ONNX And; ops/logical.hpp)
  logical_or,        // a || b (TFLite LOGICAL_OR, ONNX Or)
  logical_xor,       // a != b on bools (ONNX Xor)
  logical_not,       // !a (TFLite LOGICAL_NOT, ONNX Not)
  select,            // condition ? x : y, the three broadcast (TFLite SELECT, SELECT_V2, ONNX Where)
  cast,              // each element converted to attrs.out_type (TFLite CAST, ONNX Cast)
  div,               // a / b, numpy broadcasting (TFLite DIV, ONNX Div)
  floor_div,         // floor(a / b), numpy broadcasting (TFLite FLOOR_DIV)
  floor_mod,         // a - floor(a / b) * b, the remainder with b's sign (TFLite FLOOR_MOD)
  squared_difference,  // (a - b)^2, numpy broadcasting (TFLite SQUARED_DIFFERENCE)
  resize_nearest,    // each result element is the input element its coordinates map to (attrs.resize()), shape
                     // attrs.target (TFLite RESIZE_NEAREST_NEIGHBOR, ONNX Resize/Upsample mode nearest)
  resize_linear,     // the (multi)linear interpolation of the input at the coordinates attrs.resize() maps to,
                     // shape attrs.target (TFLite RESIZE_BILINEAR, ONNX Resize/Upsample mode linear)
  resize_cubic,      // likewise the cubic convolution (ONNX Resize mode cubic: attrs.resize().cubic_coeff_a)
  add_n,             // the sum of its operands, all of one shape (TFLite ADD_N)
  tile,              // result element c reads input element c mod the input's extents, shape attrs.target
                     // (TFLite BROADCAST_TO, ONNX Expand, ONNX Tile)
  l2_normalization,  // each vector along attrs.norm.axis over max(its L2 norm, attrs.norm.epsilon())
                     // (TFLite L2_NORMALIZATION, ONNX LpNormalization p 2)
  l1_normalization,  // each vector along attrs.norm.axis over the sum of its magnitudes (ONNX LpNormalization p 1)
  svdf,              // a rank-attrs.svdf().rank filter over time with its activation state, updated in place (TFLite SVDF)
  lstm,              // ONNX LSTM (float32; attrs.recurrent()): one packed result, Y then the final states (ops/recurrent.hpp)
  gru,               // ONNX GRU, likewise
  rnn,               // ONNX RNN, likewise
  sequence_lstm,     // TFLite UNIDIRECTIONAL_SEQUENCE_LSTM (float32; attrs.sequence_lstm()): its gates' weights packed
                     // at import, its output and cell states updated in place (ops/sequence_lstm.hpp)
  transpose_conv2d,  // the gradient of a conv2d: each input pixel scattered through the window into the result, whose
                     // shape is attrs.target (NHWC); OHWI weights (grouped: OHW(I/groups)), explicit pads, strides,
                     // dilations (TFLite TRANSPOSE_CONV, ONNX ConvTranspose)
  l2_pool,           // the square root of the mean square over each window's in-bounds elements (TFLite L2_POOL_2D)
  log_softmax,       // x - max - log(sum of exp(x - max)) along the last axis (TFLite LOG_SOFTMAX)
  // the gather/scatter family
  gather_nd,         // its first input's slices at the index tuples (the last dim) of its second (int32 or
                     // int64): shape indices[:-1] + data[tuple length:] (TFLite GATHER_ND, ONNX GatherND)
  cumsum,            // running sums along attrs.axis, attrs.cumsum()'s exclusive and reverse (TFLite CUMSUM,
                     // ONNX CumSum)
  zeros_like,        // zeros of its input's shape and type, its input's values unread (TFLite ZEROS_LIKE)
  update_slice,      // its first input with its second written at the start its third holds, clamped inside
                     // (TFLite DYNAMIC_UPDATE_SLICE)
  scatter_nd,        // its first input with the slices at its second's index tuples replaced by (or reduced
                     // with, attrs.axis) its third's (ONNX ScatterND)
  reverse_sequence,  // per batch position, the first lengths[b] elements along the time axis attrs.axis
                     // reversed (ONNX ReverseSequence)
  // the onnx_math family
  unary_function,    // attrs.coefficients.function of each element, float32 (math_function: ONNX Erf, Gelu,
                     // Softplus, Softsign, Selu, Celu, ThresholdedRelu, Sign, Tan, ..., Atanh, Shrink)
  binary_function,   // attrs.coefficients.function of each pair of elements, numpy broadcasting, float32 (ONNX
                     // Pow, Mod with fmod 1)
  layer_norm,        // (x - mean) / sqrt(variance + attrs.norm.epsilon()) over the axes of attrs.mean.reduce_axes,
                     // times its second operand and plus its third, broadcast, when present (ONNX
                     // LayerNormalization, InstanceNormalization, MeanVarianceNormalization)
  // the detection family
  detection_postprocess,  // SSD boxes decoded against constant anchors, then non-max suppression: one packed
                          // float32 result (boxes, classes, scores, count, scratch; attrs.detection(); TFLite's
                          // custom TFLite_Detection_PostProcess, ops/detection_postprocess.hpp)
  // ONNX operators of issue #28 (exporters' forms)
  gather_elements,   // its second input's shape, each element read from the first along attrs.axis at the index
                     // the second holds there (int32 or int64) (ONNX GatherElements)
  scatter_elements,  // its first input with each element of its third written (or reduced with, attrs.reduction)
                     // along attrs.axis at the index its second holds there (ONNX ScatterElements)
  top_k,             // the attrs.top_k().k largest or smallest elements along attrs.axis: their values
                     // (attrs.top_k().indices 0) or positions (1, int64), ties by lower index (ONNX TopK)
  hardmax,           // 1 at the first largest element of each vector along attrs.axis, 0 elsewhere (ONNX Hardmax)
  lp_pool,           // (sum of |x|^p)^(1/p) over each window's in-bounds elements, p attrs.coefficients.alpha() (ONNX LpPool)
  lrn,               // x / (bias + alpha / size * the sum of x^2 over `size` channels around)^beta (attrs.lrn(); ONNX LRN)
  // resource variables
  assign_variable,   // its first operand copied into its second, a state tensor (TFLite ASSIGN_VARIABLE; a READ_VARIABLE
                     // is a reshape without target of the state: ops/assign_variable.hpp)
  none,              // no op: a default-constructed node or kernel_params, a diagnostic about no op
};

// The op kinds (none excluded).
inline constexpr int op_kind_count = static_cast<int>(op_kind::none);

// The op kinds' names, in the enum's order (none last: checked below).
inline constexpr std::array<std::string_view, op_kind_count + 1> op_kind_names{
    "conv2d", "depthwise_conv2d", "dense", "max_pool", "avg_pool", "global_avg_pool", "add", "mul", "relu",
    "relu6", "sigmoid", "tanh", "softmax", "reshape", "concat", "pad", "batch_norm", "quantize", "dequantize",
    "mean", "transpose", "clip", "batch_matmul", "crop", "paste", "fetch_rows", "sub", "abs", "neg", "sqrt", "rsqrt",
    "exp", "log", "sin", "cos", "floor", "ceil", "round", "square", "reciprocal", "slice", "gather", "reduce_sum",
    "reduce_max", "reduce_min", "reduce_prod", "reduce_sum_square", "reduce_l1", "reduce_l2", "reduce_log_sum",
    "reduce_log_sum_exp", "arg_max", "arg_min", "leaky_relu", "hard_swish", "prelu", "elu", "relu_n1_to_1",
    "relu_0_to_1", "maximum", "minimum", "hard_sigmoid", "equal", "not_equal", "less", "less_equal", "greater",
    "greater_equal", "logical_and", "logical_or", "logical_xor", "logical_not", "select", "cast", "div", "floor_div",
    "floor_mod", "squared_difference", "resize_nearest", "resize_linear", "resize_cubic", "add_n", "tile",
    "l2_normalization", "l1_normalization", "svdf", "lstm", "gru", "rnn", "sequence_lstm", "transpose_conv2d", "l2_pool", "log_softmax", "gather_nd",
    "cumsum", "zeros_like", "update_slice", "scatter_nd", "reverse_sequence", "unary_function", "binary_function", "layer_norm",
    "detection_postprocess", "gather_elements", "scatter_elements", "top_k", "hardmax", "lp_pool", "lrn", "assign_variable", "none",
};
static_assert(op_kind_names[static_cast<std::size_t>(op_kind::none)] == "none", "ctnn: op_kind_names must follow enum op_kind.");

constexpr const char* name_of(op_kind k) {
  const auto i = static_cast<std::size_t>(k);
  return i < op_kind_names.size() ? op_kind_names[i].data() : "?";
}

// An activation applied to an op's result inside the same kernel.
enum class activation : std::int32_t { none, relu, relu6, sigmoid, tanh };

constexpr const char* name_of(activation a) {
  switch (a) {
    case activation::none: return "none";
    case activation::relu: return "relu";
    case activation::relu6: return "relu6";
    case activation::sigmoid: return "sigmoid";
    case activation::tanh: return "tanh";
  }
  return "?";
}

// How a windowed op (conv, pool) pads its input. `same` follows TensorFlow: out = ceil(in / stride),
// the odd pixel of padding goes to the bottom/right.
enum class padding : std::int32_t { valid, same, explicit_pads };

// What a pad op writes outside its input (ONNX Pad's mode): the fill value, the input mirrored about its
// border element (reflect: [a b c] padded by 2 on the left is [c b a b c]), the border element repeated, the
// input repeated (wrap), or the input mirrored with its border element (symmetric, TFLite MIRROR_PAD's:
// [a b c] padded by 2 on the left is [b a a b c]).
enum class pad_mode : std::int32_t { constant, reflect, edge, wrap, symmetric };

}  // namespace ctnn
