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
  float pad_value = 0.0f;               // pad
  float epsilon = 1e-5f;                // batch_norm
  dtype out_type = dtype::f32;          // quantize, dequantize: the result's element type
  std::uint32_t reduce_axes = 0;        // mean: bit d set = average over axis d
  bool keep_dims = true;                // mean: reduced axes stay as extent 1
  friend constexpr bool operator==(const op_attributes&, const op_attributes&) = default;
};

}  // namespace ctnn
