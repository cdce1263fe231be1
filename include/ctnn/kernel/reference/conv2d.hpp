#pragma once
// Reference float32 convolutions, NHWC: reference::conv2d and reference::depthwise_conv2d, one source with
// the int8 ones (reference/conv_walk.hpp, which states the layouts).
#include <ctnn/kernel/reference/conv_walk.hpp>
