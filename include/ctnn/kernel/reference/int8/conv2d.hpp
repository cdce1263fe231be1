#pragma once
// int8 convolutions, NHWC, TFLite's ConvPerChannel / DepthwiseConvPerChannel semantics: int8::conv2d and
// int8::depthwise_conv2d are the reference convolutions given int8 operands, int32 bias and the per-channel
// multiplier/shift arrays (reference/conv2d.hpp states the arithmetic and the layouts).
#include <ctnn/kernel/reference/conv2d.hpp>

namespace ctnn::kernel::reference::int8 {

using reference::conv2d;
using reference::depthwise_conv2d;

}  // namespace ctnn::kernel::reference::int8
