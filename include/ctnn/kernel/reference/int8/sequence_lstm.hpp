#pragma once
// UNIDIRECTIONAL_SEQUENCE_LSTM on int8 as TFLM runs it (its "8x8_16" form: EvalLstm<int8_t, int8_t, int16_t,
// int32_t>, kernels/lstm_eval.h): int8 input, weights and output state, int32 biases, an int16 cell state whose scale
// is a power of two, every gate in Q3.12 before its activation and Q0.15 after (TFLM's int16 logistic and tanh
// tables). Operands as ops/sequence_lstm.hpp reads them: the input, the packed input and recurrent weights
// ([4 * cells, features], [4 * cells, cells]; gates input, forget, cell, output), the packed biases, the output and
// the cell states; the multipliers and offsets are ops/sequence_lstm.hpp's requantize (kernel_params). Per
// batch row, step and unit, in TFLM's arithmetic (its values: each unit reads only its own cell state and the old
// output state, so TFLM's walk over whole vectors gives the same integers):
//   gate = sat16(sat16(fc(input)) + sat16(fc(output state))), fc(v) = MultiplyByQuantizedMultiplier(
//     sum w * (v + offset) [+ bias], gate's multiplier), sums wrapping as TFLM's int32 ones;
//   c = sat16(mul(sigmoid(forget), c) + mul(sigmoid(input), tanh(cell))), clipped to +-cell_clip when set;
//   h = sat8(mul(tanh(c), sigmoid(output)) + output zero point).
// The step's outputs go to the result row, then into the output state once every unit has read the old one.
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/kernel_params.hpp>
#include <ctnn/kernel/reference/int16_activation.hpp>

namespace ctnn::kernel::reference::int8 {

namespace detail {

// TFLM's int16 Logistic and Tanh of one value, through int16_activation.hpp: its input scaling as TFLM's LSTM sets it
// (multiplier 0: 3 << shift).
struct lstm_activation {
  std::int32_t input_multiplier = 0, input_shift = 0;
  shape out = make_shape(1);
  constexpr const lstm_activation* operator->() const { return this; }
  constexpr std::int16_t sigmoid(std::int16_t x) const {
    std::int16_t y = 0;
    reference::int16::logistic(*this, &x, &y);
    return y;
  }
  constexpr std::int16_t tanh(std::int16_t x) const {
    std::int16_t y = 0;
    reference::int16::tanh(*this, &x, &y);
    return y;
  }
};

// TFLM's lstm_internal::Tanh scaling of an input of scale 2^power: left_shift 15 + power - 3 (0 for a gate's
// Q3.12), a negative one as multiplier 3 and a right shift.
constexpr lstm_activation tanh_of_shift(std::int32_t left_shift) {
  return left_shift < 0 ? lstm_activation{3, -left_shift} : lstm_activation{0, left_shift};
}

constexpr std::int32_t clamp_to(std::int32_t v, std::int32_t low, std::int32_t high) { return v < low ? low : v > high ? high : v; }

// A row of int8 weights dotted with v + offset (int32, wrapping as TFLM's sums do on its targets).
constexpr std::int32_t wrapping_dot(const std::int8_t* w, const std::int8_t* v, std::int32_t n, std::int32_t offset) {
  std::uint32_t sum = 0;
  for (std::int32_t k = 0; k < n; ++k)
    sum += static_cast<std::uint32_t>(std::int32_t{w[k]} * (std::int32_t{v[k]} + offset));
  return static_cast<std::int32_t>(sum);
}

// TFLM's reference_integer_ops::MulElementwise of two int16 values: offsets 0, then its output offset and range.
constexpr std::int32_t multiply(std::int32_t a, std::int32_t b, std::int32_t multiplier, std::int32_t shift) {
  return ctnn::detail::quant::multiply_by_quantized_multiplier(a * b, multiplier, shift);
}

}  // namespace detail

template <class Params>
constexpr void sequence_lstm(Params p, const void* const* operands, std::int8_t* result) {
  namespace q = ctnn::detail::quant;
  const sequence_lstm_quant_fields& r = p->sequence_lstm_quant();
  const bool time_major = p->sequence_lstm().time_major != 0;
  const std::int32_t steps = time_major ? p->in[0] : p->in[1], batch = time_major ? p->in[1] : p->in[0];
  const std::int32_t features = p->in[2], cells = p->out[2];
  const auto* input = static_cast<const std::int8_t*>(operands[0]);
  const auto* input_weights = static_cast<const std::int8_t*>(operands[1]);
  const auto* recurrent_weights = static_cast<const std::int8_t*>(operands[2]);
  const auto* biases = static_cast<const std::int32_t*>(operands[3]);
  auto* output_state = static_cast<std::int8_t*>(const_cast<void*>(operands[4]));  // state_operands: writable
  auto* cell_state = static_cast<std::int16_t*>(const_cast<void*>(operands[5]));
  const detail::lstm_activation sigmoid{}, gate_tanh = detail::tanh_of_shift(0);
  const detail::lstm_activation cell_tanh = detail::tanh_of_shift(p->left_shift);
  for (std::int32_t b = 0; b < batch; ++b) {
    std::int8_t* h = output_state + std::int64_t{b} * cells;
    std::int16_t* c = cell_state + std::int64_t{b} * cells;
    for (std::int32_t t = 0; t < steps; ++t) {
      const std::int64_t row = time_major ? std::int64_t{t} * batch + b : std::int64_t{b} * steps + t;
      const std::int8_t* x = input + row * features;
      std::int8_t* y = result + row * cells;
      for (std::int32_t u = 0; u < cells; ++u) {
        std::int16_t gate[4];  // input, forget, cell, output, in Q3.12
        for (std::int32_t g = 0; g < 4; ++g) {
          const std::int64_t w = std::int64_t{g} * cells + u;
          const std::int32_t from_input = detail::wrapping_dot(input_weights + w * features, x, features, p->input_offset);
          const std::int32_t in_part = detail::clamp_to(
              q::multiply_by_quantized_multiplier(static_cast<std::int32_t>(static_cast<std::uint32_t>(from_input) +
                                                                            static_cast<std::uint32_t>(biases[w])),
                                                  r.gate_multiplier[static_cast<std::size_t>(g)], r.gate_shift[static_cast<std::size_t>(g)]),
              -32768, 32767);
          const std::int32_t from_state = detail::wrapping_dot(recurrent_weights + w * cells, h, cells, p->input2_offset);
          const std::int32_t state_part = detail::clamp_to(
              q::multiply_by_quantized_multiplier(from_state, r.gate_multiplier[static_cast<std::size_t>(g) + 4],
                                                  r.gate_shift[static_cast<std::size_t>(g) + 4]),
              -32768, 32767);
          gate[g] = static_cast<std::int16_t>(detail::clamp_to(in_part + state_part, -32768, 32767));
        }
        const std::int16_t input_gate = sigmoid.sigmoid(gate[0]), forget_gate = sigmoid.sigmoid(gate[1]);
        const std::int16_t cell_gate = gate_tanh.tanh(gate[2]);
        const std::int32_t kept = detail::clamp_to(detail::multiply(forget_gate, c[u], p->input_multiplier, p->input_shift), -32768, 32767);
        const std::int32_t added = detail::clamp_to(detail::multiply(input_gate, cell_gate, p->input2_multiplier, p->input2_shift), -32768, 32767);
        // Saturated to int16, then clipped (activation_min/max: int16's range without cell_clip).
        c[u] = static_cast<std::int16_t>(detail::clamp_to(detail::clamp_to(kept + added, -32768, 32767), p->activation_min, p->activation_max));
        const std::int16_t output_gate = sigmoid.sigmoid(gate[3]);
        const std::int32_t unit = p->output_offset + detail::multiply(cell_tanh.tanh(c[u]), output_gate, p->output_multiplier, p->output_shift);
        y[u] = static_cast<std::int8_t>(detail::clamp_to(unit, -128, 127));
      }
      for (std::int32_t j = 0; j < cells; ++j) h[j] = y[j];
    }
  }
}

}  // namespace ctnn::kernel::reference::int8
