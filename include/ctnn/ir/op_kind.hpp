#pragma once
// The graph-level operator kinds, fused activations and padding modes.
#include <cstddef>
#include <cstdint>

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
  mean,              // average over the axes in attrs.reduce_axes (bit d = axis d), keep_dims or not
  transpose,         // out dim d = in dim attrs.perm[d]
  clip,              // clamp to [attrs.clip_min, attrs.clip_max] (ONNX Clip with general bounds)
  batch_matmul,      // numpy matmul of two activations: A [..., M, K] x B [..., K, N] -> [..., M, N], the batch
                     // dims (all but the last two) broadcast (ONNX MatMul whose B is not a constant)
  crop,              // patch execution (docs/memory.md): the NHWC window of its input starting at row
                     // attrs.pads[2], column attrs.pads[4], of shape attrs.target (a copy)
  paste,             // patch execution: writes its first input into its result, a view of its second input
                     // (the whole tensor), at row attrs.pads[2], column attrs.pads[4]; the rest is untouched
  fetch_rows,        // patch execution with a streamed input (docs/memory.md): its result, the row buffer
                     // attrs.target (a view of the previous one's, its second input), keeps attrs.pads[1] rows
                     // from row attrs.pads[0] at its top, below them the caller writes attrs.pads[3] rows of the
                     // model input (its first input, a ctnn::row_source) from row attrs.pads[2]
};

inline constexpr int op_kind_count = static_cast<int>(op_kind::fetch_rows) + 1;

constexpr const char* name_of(op_kind k) {
  switch (k) {
    case op_kind::conv2d: return "conv2d";
    case op_kind::depthwise_conv2d: return "depthwise_conv2d";
    case op_kind::dense: return "dense";
    case op_kind::max_pool: return "max_pool";
    case op_kind::avg_pool: return "avg_pool";
    case op_kind::global_avg_pool: return "global_avg_pool";
    case op_kind::add: return "add";
    case op_kind::mul: return "mul";
    case op_kind::relu: return "relu";
    case op_kind::relu6: return "relu6";
    case op_kind::sigmoid: return "sigmoid";
    case op_kind::tanh: return "tanh";
    case op_kind::softmax: return "softmax";
    case op_kind::reshape: return "reshape";
    case op_kind::concat: return "concat";
    case op_kind::pad: return "pad";
    case op_kind::batch_norm: return "batch_norm";
    case op_kind::quantize: return "quantize";
    case op_kind::dequantize: return "dequantize";
    case op_kind::mean: return "mean";
    case op_kind::transpose: return "transpose";
    case op_kind::clip: return "clip";
    case op_kind::batch_matmul: return "batch_matmul";
    case op_kind::crop: return "crop";
    case op_kind::paste: return "paste";
    case op_kind::fetch_rows: return "fetch_rows";
  }
  return "?";
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
// border element (reflect: [a b c] padded by 2 on the left is [c b a b c]), or the border element repeated.
enum class pad_mode : std::int32_t { constant, reflect, edge, wrap };

}  // namespace ctnn
