#pragma once
// int8 fully connected layer, TFLite's FullyConnected (per-tensor weights: one multiplier in
// kernel_params, weights offset applied) and FullyConnectedPerChannel (per-channel weights: multiplier
// arrays from the executor):
//   out[b][u] = clamp(MBQM(bias[u] + sum_i (w[u][i] + weights_offset) * (x[b][i] + input_offset)) + zp_out)
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/int8/requantize.hpp>

namespace ctnn::kernel::reference::int8 {
template <class Params>
constexpr void dense(Params p, const std::int8_t* input, const std::int8_t* weights,
                                            const std::int32_t* bias, std::int8_t* output, const std::int32_t* multiplier,
                                            const std::int32_t* shift) {
  const std::int32_t batch = p->out[0];
  const std::int32_t units = p->out.last();
  const auto features = static_cast<std::int32_t>(p->in.elements() / batch);
  for (std::int32_t b = 0; b < batch; ++b)
    for (std::int32_t u = 0; u < units; ++u) {
      const std::int8_t* row = weights + u * features;
      const std::int8_t* x = input + b * features;
      // The sum wraps in 32 bits, as TFLite's int32 accumulator does on its targets, rather than overflow
      // (undefined in C++): many features or large offsets can exceed int32. Same instructions, no UB.
      std::uint32_t sum = 0;
      const auto weights_offset = static_cast<std::uint32_t>(p->weights_offset);
      const auto input_offset = static_cast<std::uint32_t>(p->input_offset);
      for (std::int32_t i = 0; i < features; ++i)
        sum += (static_cast<std::uint32_t>(row[i]) + weights_offset) * (static_cast<std::uint32_t>(x[i]) + input_offset);
      if (p->has_bias != 0) sum += static_cast<std::uint32_t>(bias[u]);
      const auto acc = static_cast<std::int32_t>(sum);  // modular (C++20)
      output[b * units + u] = p->per_channel != 0 ? requantize_output(p, acc, multiplier[u], shift[u])
                                                 : requantize_output(p, acc, p->output_multiplier, p->output_shift);
    }
}

}  // namespace ctnn::kernel::reference::int8
