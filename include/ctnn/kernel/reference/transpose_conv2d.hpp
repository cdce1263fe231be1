#pragma once
// The reference transposed convolution, NHWC, float32, int8 and int16 (16x8) in one source (ops/transpose_conv2d.hpp).
// TFLM's reference TransposeConv scatters each input pixel through the window into a zeroed accumulator buffer
// (a scratch buffer for the integer types), then adds the bias and finishes each result element. This kernel
// gathers instead: result element (b, y, x, oc) sums, over input rows iy, columns ix and the input channels of
// oc's group, in that order, the one tap (ky, kx) with y = iy * stride_h - pad_top + ky * dilation_h (likewise
// x) that reaches it. That is the order in which the scatter adds into the element, so float32 sums are the
// same, and the integer sums are equal (they wrap in 32 bits as TFLM's int32 scratch does on its targets), with
// no scratch buffer.
//   float32: the sum, plus the bias, through the fused activation.
//   int8 (reference_integer_ops::TransposeConv): (input + input_offset) * weight summed in int32 (TFLM reads
//     no weights offset here: TFLite's int8 weights are symmetric), the bias, then requantized per output
//     channel, plus the output zero point, clamped.
//   int16 (its 16x8 overload): input * weight summed in int64 (zero points 0), the int64 bias, the int64
//     MultiplyByQuantizedMultiplier per output channel, clamped; no output offset.
// OHWI weights: [out channels, kh, kw, in channels / groups].
#include <cstdint>
#include <type_traits>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/activation.hpp>
#include <ctnn/kernel/reference/window.hpp>

namespace ctnn::kernel::reference {

// What a transposed convolution of result element type Output accumulates in (its bias's type): float,
// int32 for int8, int64 for int16.
template <class Output>
using transpose_conv_accumulator =
    std::conditional_t<std::is_same_v<Output, float>, float,
                       std::conditional_t<std::is_same_v<Output, std::int16_t>, std::int64_t, std::int32_t>>;

// The window position k of an input index i that reaches result index o (o = i * stride - pad + k * dilation),
// or -1. In 64 bits: i * stride may pass 2^31 on a long input.
constexpr std::int32_t transpose_tap(std::int32_t o, std::int32_t i, std::int32_t stride, std::int32_t pad,
                                     std::int32_t dilation, std::int32_t kernel) {
  const std::int64_t reach = std::int64_t{o} + pad - std::int64_t{i} * stride;
  if (reach < 0 || reach % dilation != 0 || reach / dilation >= kernel) return -1;
  return static_cast<std::int32_t>(reach / dilation);
}

// multiplier/shift: integer types only (per output channel).
template <class Params, class Input, class Weight, class Output>
constexpr void transpose_conv2d(Params p, const Input* input, const Weight* weights,
                                const transpose_conv_accumulator<Output>* bias, Output* output,
                                const std::int32_t* multiplier = nullptr, const std::int32_t* shift = nullptr) {
  namespace q = ctnn::detail::quant;
  using accumulator = transpose_conv_accumulator<Output>;
  const auto in = nhwc::of(p->in);
  const window& w = p->win;
  const std::int32_t in_per_group = in.c / p->groups;
  const std::int32_t out_per_group = p->out[3] / p->groups;
  for_each_output_element(p, [&](std::int32_t b, std::int32_t oy, std::int32_t ox, std::int32_t oc, std::int64_t at) {
    const std::int32_t first_ic = (oc / out_per_group) * in_per_group;
    accumulator acc = 0;
    for (std::int32_t iy = 0; iy < in.h; ++iy) {
      const std::int32_t ky = transpose_tap(oy, iy, w.stride_h, w.pad_top, w.dilation_h, w.kernel_h);
      if (ky < 0) continue;
      for (std::int32_t ix = 0; ix < in.w; ++ix) {
        const std::int32_t kx = transpose_tap(ox, ix, w.stride_w, w.pad_left, w.dilation_w, w.kernel_w);
        if (kx < 0) continue;
        const Input* pixel = input + ((b * in.h + iy) * in.w + ix) * in.c + first_ic;
        const Weight* filter = weights + ((oc * w.kernel_h + ky) * w.kernel_w + kx) * in_per_group;
        for (std::int32_t ic = 0; ic < in_per_group; ++ic) {
          if constexpr (std::is_same_v<Output, float>) acc += pixel[ic] * filter[ic];
          else if constexpr (std::is_same_v<Output, std::int16_t>) acc += std::int64_t{pixel[ic]} * filter[ic];
          else acc = q::wrapping_add(acc, (pixel[ic] + p->input_offset) * filter[ic]);
        }
      }
    }
    if constexpr (std::is_same_v<Output, float>) {
      if (p->has_bias != 0) acc += bias[oc];
      output[at] = activate(p->fused, acc);
    } else {
      std::int32_t scaled = 0;
      if constexpr (std::is_same_v<Output, std::int16_t>) {
        if (p->has_bias != 0)  // wrapping, as TFLM's int64 sum does on its targets, rather than overflow
          acc = static_cast<std::int64_t>(static_cast<std::uint64_t>(acc) + static_cast<std::uint64_t>(bias[oc]));
        scaled = q::multiply_by_quantized_multiplier_int64(acc, multiplier[oc], shift[oc]);
      } else {
        if (p->has_bias != 0) acc = q::wrapping_add(acc, bias[oc]);
        scaled = q::wrapping_add(q::multiply_by_quantized_multiplier(acc, multiplier[oc], shift[oc]), p->output_offset);
      }
      scaled = scaled < p->activation_min ? p->activation_min : scaled;
      output[at] = static_cast<Output>(scaled > p->activation_max ? p->activation_max : scaled);
    }
  });
}

}  // namespace ctnn::kernel::reference
