#pragma once
// int8 fully connected layer, TFLite's FullyConnected (per-tensor weights: one multiplier in
// kernel_params, weights offset applied) and FullyConnectedPerChannel (per-channel weights: multiplier
// arrays from the executor):
//   out[b][u] = clamp(MBQM(bias[u] + sum_i (w[u][i] + weights_offset) * (x[b][i] + input_offset)) + zp_out)
// The same for TFLite's 16x8 layers (int16 data, int64 bias, zero points 0): an int64 accumulator and the int64
// MBQM (reference/conv2d.hpp, integer_result).
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/conv2d.hpp>
#include <ctnn/kernel/reference/int8/requantize.hpp>

namespace ctnn::kernel::reference::int8 {
template <class Params, class Data>
constexpr void dense(Params p, const Data* input, const std::int8_t* weights, const conv_accumulator<Data>* bias,
                     Data* output, const std::int32_t* multiplier, const std::int32_t* shift) {
  const std::int32_t batch = p->out[0];
  const std::int32_t units = p->out.last();
  const auto features = static_cast<std::int32_t>(p->in.elements() / batch);
  for (std::int32_t b = 0; b < batch; ++b)
    for (std::int32_t u = 0; u < units; ++u) {
      const std::int8_t* row = weights + u * features;
      const Data* x = input + b * features;
      // The sum wraps in 32 bits (wrapping_add: one add), as TFLite's int32 accumulator does on its targets,
      // rather than overflow (undefined in C++): many features, large offsets or a bias near INT32_MIN/MAX.
      conv_accumulator<Data> acc = 0;
      for (std::int32_t i = 0; i < features; ++i)
        acc = accumulate(acc, (row[i] + p->weights_offset) * (x[i] + p->input_offset));
      output[b * units + u] = p->per_channel != 0
                                  ? integer_result<Data>(p, acc, bias, u, multiplier[u], shift[u])
                                  : integer_result<Data>(p, acc, bias, u, p->output_multiplier, p->output_shift);
    }
}

}  // namespace ctnn::kernel::reference::int8
