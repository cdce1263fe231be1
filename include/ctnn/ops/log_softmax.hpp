#pragma once
// log_softmax: TFLite LOG_SOFTMAX, TFLM's reference LogSoftmax: float32 (kernel/reference/elementwise.hpp) and
// int8 (LogSoftmaxQuantized, kernel/reference/int8/softmax.hpp: its result quantized with scale 16/256 and
// zero point 127, which the importer requires); softmax's axis (the last) and shape rule. The descriptor of
// op_kind::log_softmax (ops/descriptor.hpp).
#include <ctnn/detail/quantization.hpp>
#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/kernel/reference/int8/softmax.hpp>
#include <ctnn/ops/softmax.hpp>

namespace ctnn::ops {

struct log_softmax : softmax {
  static constexpr op_kind kind = op_kind::log_softmax;
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || type == dtype::i8; }
  // TFLM's CalculateOpData: PreprocessLogSoftmaxScalingExp with beta 1 and 5 integer bits (the input multiplier,
  // whose shift also sets the input radius, as softmax's; the reverse divisor in output_multiplier/shift).
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    namespace quant = ctnn::detail::quant;
    const quant::quantized_multiplier input = quant::softmax_input_multiplier(1.0, static_cast<double>(q.in.scale), 5);
    const quant::quantized_multiplier reverse = quant::log_softmax_reverse_multiplier(input);
    p.input_multiplier = input.multiplier;
    p.input_shift = input.shift;
    p.output_multiplier = reverse.multiplier;
    p.output_shift = reverse.shift;
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::log_softmax(p, operands[0], result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    kernel::reference::int8::log_softmax(p, static_cast<const std::int8_t*>(operands[0]), static_cast<std::int8_t*>(result));
  }
};

}  // namespace ctnn::ops
