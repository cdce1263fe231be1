#pragma once
// int8 UNIDIRECTIONAL_SEQUENCE_LSTM on Armv7E-M (TFLM's 8x8_16 form), bit-exact with the reference kernel
// (kernel/reference/int8/sequence_lstm.hpp: its arithmetic, in its words, is the contract here).
//
// The walk: per batch row and step, one pass over the units; per unit its four gate rows (input, forget, cell,
// output) of the input weights in one pass, then its four rows of the recurrent weights, then the unit's gates, cell
// and output, so no gate vector is ever stored (TFLM keeps four int16 gate vectors, CMSIS-NN an int32 one):
//   * the step's input row and the old output state are widened once per step into int16 pairs on the stack, their
//     zero points added as they are (SXTAB16: TFLM's sum w * (v + offset) exactly, x + offset within +-255), which
//     every unit reads;
//   * the weights are re-laid out at compile time (pack<1>, pack<2>) as int16 pairs, a unit's four rows side by side
//     (lstm_gate_rows), so that the dot products are LDM + SMLAD only (dot_4_pair_rows, detail/dot.hpp: 11
//     instructions per 16 MACs; the SVDF kernel's loop), at twice the weights' flash (int8 weights widened by SXTB16
//     at run time took 1.6 instructions per MAC); the biases unit by unit (pack<3>, lstm_biases);
//   * per gate: the two rescales (MultiplyByQuantizedMultiplier with the gate's compile-time multipliers: the short
//     stage, SMMULR, where the sums stay below 2^30), each saturated to int16 and their sum saturated again; TFLM's
//     int16 sigmoid and tanh (reference/int16_activation.hpp's table and interpolation); the products f * c, i * g
//     and tanh(c) * o rescaled (the first two by a power of two: a halving and a rounding shift), saturated and
//     clipped as the reference does.
// The output state of step t is the result row of step t - 1 (the reference copies that row into the state after each
// step): a step reads it from there, and the state is written once, after the last step. The cell state is updated
// in place, unit by unit (each unit reads only its own).
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/dot.hpp>
#include <ctnn/kernel/arm/detail/dsp.hpp>
#include <ctnn/kernel/arm/detail/requantize.hpp>
#include <ctnn/kernel/reference/int16_activation.hpp>
#include <ctnn/kernel/reference/int8/sequence_lstm.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::detail {

// TFLM's int16 Logistic of a Q3.12 gate (input multiplier 3, no shift: reference::int16::logistic's arithmetic). An
// int16 gate's 3 * |gate| >> 9 is at most 192: never past the table, whose saturated branch is left out.
[[gnu::always_inline]] inline std::int32_t lstm_sigmoid(std::int32_t gate) {
  const std::int32_t x = gate * 3;
  const std::uint32_t magnitude = x < 0 ? 0u - static_cast<std::uint32_t>(x) : static_cast<std::uint32_t>(x);
  const std::uint32_t entry = magnitude >> 9, fraction = magnitude & 511u;
  const std::uint32_t low = reference::int16::sigmoid_table[entry], high = reference::int16::sigmoid_table[entry + 1];
  const std::uint32_t v = (low << 9) + fraction * (high - low);
  const std::uint32_t signed_v = x >= 0 ? v + (1u << 9) : (1u << (16 + 9)) - v + (1u << 9) - 1;
  return static_cast<std::int16_t>(signed_v >> 10);
}

// TFLM's int16 Tanh of x in the table's units (reference::int16::tanh's arithmetic after its input scaling).
[[gnu::always_inline]] inline std::int32_t lstm_tanh_scaled(std::int32_t x) {
  const std::uint32_t magnitude = x < 0 ? 0u - static_cast<std::uint32_t>(x) : static_cast<std::uint32_t>(x);
  const auto v = static_cast<std::int32_t>(reference::int16::interpolated_sigmoid<8>(magnitude, 0xFFFFu << 8));
  const std::int32_t centred = x >= 0 ? v - (1 << (14 + 9)) + (1 << (9 - 2)) : -v + (1 << (14 + 9)) + (1 << (9 - 2)) - 1;
  return static_cast<std::int16_t>(centred >> (9 - 1));
}

// A matrix of 4 * cells rows of `width` int8 weights (gates input, forget, cell, output), re-laid out per unit: per
// quad of inputs (k .. k + 3) each of the unit's four rows as two words of int16 pairs, (w[k], w[k + 2]) and
// (w[k + 1], w[k + 3]), the order widen_quads widens the vector in (zero past the row's end): dot_4_pair_rows's
// layout. Twice the weights' bytes, for SMLAD without sign extension at run time.
template <std::int32_t Cells, std::int32_t Width>
struct lstm_gate_rows {
  static constexpr std::int32_t quads = (Width + 3) / 4;
  static constexpr std::size_t unit_words = 8 * static_cast<std::size_t>(quads);
  static constexpr std::size_t words = static_cast<std::size_t>(Cells) * unit_words;

  template <class Reader>
  static constexpr std::array<std::int32_t, words> pack(const Reader& read) {
    std::array<std::int32_t, words> packed{};
    for (std::int32_t u = 0; u < Cells; ++u)
      for (std::int32_t g = 0; g < 4; ++g) {
        const std::size_t row = (static_cast<std::size_t>(g) * Cells + static_cast<std::size_t>(u)) * Width;
        for (std::int32_t k = 0; k < Width; ++k) {
          const std::int8_t w = read.i8(row + static_cast<std::size_t>(k));
          // Quad k / 4 of the unit, gate g: its even pair (k % 4 = 0, 2) or its odd one (1, 3), low or high half.
          const std::size_t at = static_cast<std::size_t>(u) * unit_words + 8 * static_cast<std::size_t>(k / 4) +
                                 2 * static_cast<std::size_t>(g) + static_cast<std::size_t>(k % 2);
          packed[at] = static_cast<std::int32_t>(static_cast<std::uint32_t>(packed[at]) |
                                                 (static_cast<std::uint32_t>(static_cast<std::uint16_t>(w)) << (k % 4 >= 2 ? 16 : 0)));
        }
      }
    return packed;
  }
};

// The biases re-laid out unit by unit (the four gates of unit u at 4u), then a word that says whether every bias is
// within +-2^29 (1) or not (0): then an input sum, offset term and bias stay below 2^30 in magnitude (widths up to
// 256: |sum w (x + offset)| <= 256 * 127 * 255 < 2^23), where the short rescale is exact.
template <std::int32_t Cells>
struct lstm_biases {
  static constexpr std::size_t words = 4 * static_cast<std::size_t>(Cells) + 1;
  template <class Reader>
  static constexpr std::array<std::int32_t, words> pack(const Reader& read) {
    std::array<std::int32_t, words> packed{};
    bool small = true;
    for (std::int32_t u = 0; u < Cells; ++u)
      for (std::int32_t g = 0; g < 4; ++g) {
        const std::int32_t bias = read.i32(static_cast<std::size_t>(g) * Cells + static_cast<std::size_t>(u));
        packed[4 * static_cast<std::size_t>(u) + static_cast<std::size_t>(g)] = bias;
        small = small && bias >= -(std::int32_t{1} << 29) && bias <= (std::int32_t{1} << 29);
      }
    packed[words - 1] = small ? 1 : 0;
    return packed;
  }
};

// A vector of int8 values plus an offset (offset_pair: in both halves) widened into int16 pairs (widen_quads), a last
// partial quad padded with zeros (their products are zero: the rows' padding is).
template <std::int32_t Width>
[[gnu::always_inline]] inline void widen_vector(const std::int8_t* v, std::uint32_t* pairs, std::uint32_t offset_pair) {
  widen_quads(v, pairs, Width / 4, offset_pair);
  if constexpr (Width % 4 != 0) {
    std::int8_t tail[4] = {};
    for (std::int32_t k = 0; k < Width % 4; ++k) tail[k] = v[Width / 4 * 4 + k];
    widen_quads(tail, pairs + 2 * (Width / 4), 1, offset_pair);
  }
}

// MultiplyByQuantizedMultiplier(x, Multiplier, Shift) + Offset (scale_plus), in fewer instructions where the call's
// constants allow: a multiplier of 2^30 (the LSTM's products by a power-of-two scale) makes the doubling high
// multiply floor((x + 1) / 2); Short (|x| < 2^30) with a right shift takes scale_short.
template <std::int32_t Multiplier, std::int32_t Shift, std::int32_t Offset, bool Short>
[[gnu::always_inline]] inline std::int32_t lstm_rescale(std::int32_t x) {
  if constexpr (Multiplier == (std::int32_t{1} << 30) && Shift <= 0) {
    const std::int32_t halved = (x >> 1) + (x & 1);
    if constexpr (Shift == 0) return halved + Offset;
    else return divide_by_pot_rounding(halved, -Shift) + Offset;
  } else if constexpr (Short && Shift <= -1) {
    return scale_short(x, Multiplier, -Shift - 1) + Offset;
  } else {
    return scale_plus(x, Multiplier, Shift, Offset);
  }
}

template <kernel_params P>
struct sequence_lstm_kernel {
  static constexpr bool time_major = P.sequence_lstm().time_major != 0;
  static constexpr std::int32_t steps = time_major ? P.in[0] : P.in[1], batch = time_major ? P.in[1] : P.in[0];
  static constexpr std::int32_t features = P.in[2], cells = P.out[2];
  using input_rows = lstm_gate_rows<cells, features>;
  using state_rows = lstm_gate_rows<cells, cells>;
  // The spread vectors live on the stack: at most 2 x 512 bytes.
  static constexpr std::int32_t max_width = 256;

  static constexpr bool supports = dsp_available && P.kind == op_kind::sequence_lstm && P.type == dtype::i8 &&
                                   P.requantization == requantization_policy::tflite && P.sequence_lstm().operand_count() == 6 &&
                                   P.sequence_lstm().gates() == 4 && P.in_place == 0 && P.in.rank == 3 && P.out.rank == 3 &&
                                   features >= 1 && cells >= 1 && features <= max_width && cells <= max_width &&
                                   P.in2[0] == 4 * cells && P.in2[1] == features && steps >= 1 && batch >= 1;

  // The input weights (operand 1) and the recurrent weights (operand 2), re-laid out (lstm_gate_rows), and the
  // biases (operand 3) unit by unit (lstm_biases).
  static constexpr bool packs(std::size_t k) { return k == 1 || k == 2 || k == 3; }
  template <std::size_t K, class Reader>
  static constexpr auto pack(const Reader& read) {
    static_assert(K >= 1 && K <= 3, "ctnn: the DSP LSTM kernel packs its weights and biases only.");
    if constexpr (K == 1) return input_rows::pack(read);
    else if constexpr (K == 2) return state_rows::pack(read);
    else return lstm_biases<cells>::pack(read);
  }

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    static_assert(N >= 6, "ctnn: an int8 LSTM call has six operands");
    const auto* input = static_cast<const std::int8_t*>(operands[0]);
    const auto* input_weights = static_cast<const std::int32_t*>(operands[1]);
    const auto* state_weights = static_cast<const std::int32_t*>(operands[2]);
    const auto* biases = static_cast<const std::int32_t*>(operands[3]);
    auto* output_state = static_cast<std::int8_t*>(const_cast<void*>(operands[4]));  // state_operands: writable
    auto* cell_state = static_cast<std::int16_t*>(const_cast<void*>(operands[5]));
    auto* output = static_cast<std::int8_t*>(result);
    const bool small_biases = biases[4 * cells] != 0;
    for (std::int32_t b = 0; b < batch; ++b) {
      std::int8_t* h = output_state + static_cast<std::ptrdiff_t>(b) * cells;
      std::int16_t* c = cell_state + static_cast<std::ptrdiff_t>(b) * cells;
      if (small_biases) sequence<true>(input, input_weights, state_weights, biases, h, c, output, b);
      else sequence<false>(input, input_weights, state_weights, biases, h, c, output, b);
    }
  }

 private:
  static constexpr sequence_lstm_quant_fields q = P.sequence_lstm_quant();
  // The reference's cell-state tanh input scaling (TFLM's lstm_internal::Tanh of a cell state of scale 2^power).
  static constexpr reference::int16::table_input_scaling cell_scaling{reference::int8::detail::tanh_of_shift(P.left_shift)};
  static constexpr bool clipped = P.activation_min > -32768 || P.activation_max < 32767;
  // The zero points' offsets, added as the vectors are widened (SXTAB16): x + offset within +-255 fits a half.
  static constexpr std::uint32_t input_offset_pair = both_halves(P.input_offset), state_offset_pair = both_halves(P.input2_offset);
  // A recurrent sum is below cells * 127 * 255 < 2^30 in magnitude.
  static constexpr bool short_state_sums = std::int64_t{cells} * 127 * 255 < (std::int64_t{1} << 30);

  static constexpr std::ptrdiff_t row_of(std::int32_t t, std::int32_t b) {
    return time_major ? static_cast<std::ptrdiff_t>(t) * batch + b : static_cast<std::ptrdiff_t>(b) * steps + t;
  }

  // Gate G's value in Q3.12: the two rescaled sums, each saturated, their sum saturated.
  template <std::size_t G, bool ShortInput>
  [[gnu::always_inline]] static std::int32_t gate(std::int32_t from_input, std::int32_t from_state) {
    const std::int32_t in_part = saturate<16>(lstm_rescale<q.gate_multiplier[G], q.gate_shift[G], 0, ShortInput>(from_input));
    const std::int32_t state_part =
        saturate<16>(lstm_rescale<q.gate_multiplier[G + 4], q.gate_shift[G + 4], 0, short_state_sums>(from_state));
    return saturate<16>(in_part + state_part);
  }

  // One batch row's steps. ShortInput: every bias within +-2^29 (lstm_biases).
  template <bool ShortInput>
  [[gnu::noinline]] static void sequence(const std::int8_t* input, const std::int32_t* input_weights, const std::int32_t* state_weights,
                                         const std::int32_t* biases, std::int8_t* output_state, std::int16_t* cell, std::int8_t* output,
                                         std::int32_t b) {
    std::uint32_t x_pairs[2 * input_rows::quads];
    std::uint32_t h_pairs[2 * state_rows::quads];
    const std::int8_t* h = output_state;
    for (std::int32_t t = 0; t < steps; ++t) {
      const std::ptrdiff_t row = row_of(t, b);
      widen_vector<features>(input + row * features, x_pairs, input_offset_pair);
      widen_vector<cells>(h, h_pairs, state_offset_pair);
      std::int8_t* y = output + row * cells;
      const std::int32_t* w_in = input_weights;
      const std::int32_t* w_state = state_weights;
      const std::int32_t* bias = biases;
      for (std::int32_t u = 0; u < cells; ++u, bias += 4) {  // dot_4_pair_rows advances w_in and w_state
        std::int32_t from_input[4] = {bias[0], bias[1], bias[2], bias[3]};
        dot_4_pair_rows<input_rows::quads>(x_pairs, w_in, from_input);
        std::int32_t from_state[4] = {0, 0, 0, 0};
        dot_4_pair_rows<state_rows::quads>(h_pairs, w_state, from_state);
        const std::int32_t input_gate = lstm_sigmoid(gate<0, ShortInput>(from_input[0], from_state[0]));
        const std::int32_t forget_gate = lstm_sigmoid(gate<1, ShortInput>(from_input[1], from_state[1]));
        const std::int32_t cell_gate = lstm_tanh_scaled(gate<2, ShortInput>(from_input[2], from_state[2]) * 3);
        const std::int32_t output_gate = lstm_sigmoid(gate<3, ShortInput>(from_input[3], from_state[3]));
        // A sigmoid (0 to 32767) times an int16 value: below 2^30 in magnitude, short.
        const std::int32_t kept = saturate<16>(lstm_rescale<P.input_multiplier, P.input_shift, 0, true>(forget_gate * cell[u]));
        const std::int32_t added = saturate<16>(lstm_rescale<P.input2_multiplier, P.input2_shift, 0, true>(input_gate * cell_gate));
        std::int32_t c = saturate<16>(kept + added);
        if constexpr (clipped) c = c < P.activation_min ? P.activation_min : c > P.activation_max ? P.activation_max : c;
        cell[u] = static_cast<std::int16_t>(c);
        const std::int32_t cell_tanh = lstm_tanh_scaled(cell_scaling(static_cast<std::int16_t>(c)));
        y[u] = static_cast<std::int8_t>(
            saturate<8>(lstm_rescale<P.output_multiplier, P.output_shift, P.output_offset, true>(cell_tanh * output_gate)));
      }
      h = y;
    }
    for (std::int32_t j = 0; j < cells; ++j) output_state[j] = h[j];
  }
};

}  // namespace ctnn::kernel::arm::detail
