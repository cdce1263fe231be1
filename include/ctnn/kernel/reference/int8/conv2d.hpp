#pragma once
// int8 convolutions, NHWC, TFLite's ConvPerChannel / DepthwiseConvPerChannel semantics: int8 input with
// offset (-input zero point) added to each input value, symmetric int8 weights, int32 bias, an int32
// accumulator requantized per output channel (multiplier/shift arrays, from the executor), plus the output
// zero point, clamped. Padding taps are skipped (they contribute (zero point + offset) * w = 0).
// conv2d: OHWI weights (OHW(I/groups) when grouped); depthwise: 1HWC, output channel = ic * multiplier + m.
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/conv_walk.hpp>
#include <ctnn/kernel/reference/int8/requantize.hpp>

namespace ctnn::kernel::reference::int8 {

// The int8 arithmetic of both (reference/conv_walk.hpp): offsets added to inputs and weights, the bias
// added last, requantized per output channel.
struct conv_arithmetic {
  const std::int32_t* bias;
  const std::int32_t* multiplier;
  const std::int32_t* shift;
  template <class Params>
  [[gnu::always_inline]] static constexpr std::int32_t start(Params, std::int32_t) {
    return 0;
  }
  template <class Params>
  [[gnu::always_inline]] static constexpr std::int32_t multiply_add(Params p, std::int32_t acc, std::int8_t x,
                                                                    std::int8_t w) {
    return acc + (w + p->weights_offset) * (x + p->input_offset);
  }
  template <class Params>
  [[gnu::always_inline]] constexpr std::int8_t finish(Params p, std::int32_t acc, std::int32_t oc) const {
    if (p->has_bias != 0) acc += bias[oc];
    return requantize_output(p, acc, multiplier[oc], shift[oc]);
  }
};

template <class Params>
constexpr void conv2d(Params p, const std::int8_t* input, const std::int8_t* weights, const std::int32_t* bias,
                      std::int8_t* output, const std::int32_t* multiplier, const std::int32_t* shift) {
  grouped_conv2d_walk(p, input, weights, output, conv_arithmetic{bias, multiplier, shift});
}
template <class Params>
constexpr void depthwise_conv2d(Params p, const std::int8_t* input, const std::int8_t* weights,
                                const std::int32_t* bias, std::int8_t* output, const std::int32_t* multiplier,
                                const std::int32_t* shift) {
  depthwise_conv2d_walk(p, input, weights, output, conv_arithmetic{bias, multiplier, shift});
}

}  // namespace ctnn::kernel::reference::int8
