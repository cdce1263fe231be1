#pragma once
// int8 fully connected layer, TFLite's FullyConnected (per-tensor weights: one multiplier in
// kernel_params, weights offset applied) and FullyConnectedPerChannel (per-channel weights: multiplier
// arrays from the executor):
//   out[b][u] = clamp(MBQM(bias[u] + sum_i (w[u][i] + weights_offset) * (x[b][i] + input_offset)) + zp_out)
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/int8/requantize.hpp>

namespace ctnn::kernel::reference::int8 {

template <kernel_params P>
constexpr void dense(const std::int8_t* input, const std::int8_t* weights, const std::int32_t* bias, std::int8_t* output,
                     const std::int32_t* multiplier, const std::int32_t* shift) {
  static_assert(fused_activation_is_a_clamp<P>(), "ctnn: an int8 dense can only fuse relu or relu6.");
  constexpr std::int32_t batch = P.out[0];
  constexpr std::int32_t units = P.out.last();
  constexpr auto features = static_cast<std::int32_t>(P.in.elements() / batch);
  for (std::int32_t b = 0; b < batch; ++b)
    for (std::int32_t u = 0; u < units; ++u) {
      const std::int8_t* row = weights + u * features;
      const std::int8_t* x = input + b * features;
      std::int32_t acc = 0;
      for (std::int32_t i = 0; i < features; ++i) acc += (row[i] + P.weights_offset) * (x[i] + P.input_offset);
      if constexpr (P.has_bias != 0) acc += bias[u];
      if constexpr (P.per_channel != 0) output[b * units + u] = requantize_output<P>(acc, multiplier[u], shift[u]);
      else output[b * units + u] = requantize_output<P>(acc, P.output_multiplier, P.output_shift);
    }
}

}  // namespace ctnn::kernel::reference::int8
