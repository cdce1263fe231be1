#pragma once
// Reference float32 convolutions, NHWC. conv2d: OHWI weights (OHW(I/groups) when grouped);
// depthwise_conv2d: 1HWC weights, output channel = input channel * multiplier + m (TFLite).
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/activation.hpp>
#include <ctnn/kernel/reference/conv_walk.hpp>

namespace ctnn::kernel::reference {

// The float arithmetic of both (reference/conv_walk.hpp): from the bias, through the fused activation.
struct float_conv_arithmetic {
  const float* bias;
  template <class Params>
  [[gnu::always_inline]] constexpr float start(Params p, std::int32_t oc) const {
    return p->has_bias ? bias[oc] : 0.0f;
  }
  template <class Params>
  [[gnu::always_inline]] static constexpr float multiply_add(Params, float acc, float x, float w) {
    return acc + x * w;
  }
  template <class Params>
  [[gnu::always_inline]] static constexpr float finish(Params p, float acc, std::int32_t) {
    return activate(p->fused, acc);
  }
};

template <class Params>
constexpr void conv2d(Params p, const float* input, const float* weights, const float* bias, float* output) {
  grouped_conv2d_walk(p, input, weights, output, float_conv_arithmetic{bias});
}
template <class Params>
constexpr void depthwise_conv2d(Params p, const float* input, const float* weights, const float* bias, float* output) {
  depthwise_conv2d_walk(p, input, weights, output, float_conv_arithmetic{bias});
}

}  // namespace ctnn::kernel::reference
