#pragma once
// Attributes of graph ops, as plain constexpr values (one struct for every op kind; each op reads the
// fields it documents).
#include <array>
#include <cstdint>

#include <ctnn/ir/dtype.hpp>
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
// a MatMul, A [..., M, K] times B [..., K, N] (batch dims broadcast when B has one batch).
enum class data_layout : std::int32_t { ctnn, onnx };

struct op_attributes {
  window win{};                         // conv2d, depthwise_conv2d, max_pool, avg_pool
  std::int32_t groups = 1;              // conv2d
  std::int32_t depth_multiplier = 1;    // depthwise_conv2d
  std::int32_t units = 0;               // conv2d: filters; dense: output features (0 = from the bias)
  std::int32_t axis = -1;               // concat, softmax
  activation fused = activation::none;  // conv2d, depthwise_conv2d, dense, add, mul
  shape target{};                       // reshape (0 in a dim = keep, -1 = infer, as in TFLite/ONNX;
                                        // rank 0 = keep the input's shape)
  std::array<std::int32_t, 2 * max_rank> pads{};  // pad: before/after for dim d at [2d], [2d+1]
  float pad_value = 0.0f;               // pad (mode constant)
  pad_mode fill_mode = pad_mode::constant;  // pad
  float epsilon = 1e-5f;                // batch_norm
  float clip_min = 0.0f, clip_max = 0.0f;  // clip: the bounds (int8 without a scale: the raw integers)
  dtype out_type = dtype::f32;          // quantize, dequantize, and ops of layout onnx: the result's element type
  data_layout layout = data_layout::ctnn;  // conv2d, dense: ONNX's integer ops read ONNX's layouts
  std::uint32_t reduce_axes = 0;        // mean: bit d set = average over axis d
  std::array<std::int32_t, max_rank> perm{};  // transpose: output dim d is input dim perm[d]
  bool keep_dims = true;                // mean: reduced axes stay as extent 1
  friend constexpr bool operator==(const op_attributes&, const op_attributes&) = default;
};

}  // namespace ctnn
