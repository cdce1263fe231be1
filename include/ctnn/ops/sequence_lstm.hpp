#pragma once
// sequence_lstm: TFLite's UNIDIRECTIONAL_SEQUENCE_LSTM on float32, as TFLM's kernel runs it, and with TFLite's
// peepholes, CIFG (an input gate coupled to the forget gate: 1 - forget) and projection, which TFLM refuses, as
// TFLite's reference kernel (lstm_eval.cc) runs them; no layer normalisation. The file's 24 operands do not fit a
// node (max_node_inputs), so the importer packs each kind of gate constant into one, in TFLite's gate order (input
// unless coupled, forget, cell, output), with a concat of constants that fold_constants computes at compile time
// (docs/design.md §2, "Ops with more operands than a node holds; state"). Operands: the input ([batch, time,
// features], or [time, batch, features] when attrs.sequence_lstm().time_major), the input weights [gates * cells,
// features], the recurrent weights [gates * cells, outputs], the biases [gates * cells] (then the projection's
// [outputs], when it has one), then its two states (tensor_role::state, updated in place, state_operands): the
// output state (`batch * outputs` elements) and the cell state (`batch * cells`); the peepholes' packed vector
// [peepholes * cells] (input unless coupled, forget, output) or -1; the projection's weights [outputs, cells].
// outputs = cells without a projection. The result has the input's layout with `outputs` features: every step's
// output state. On int8 (TFLM's 8x8_16, without peepholes, CIFG or projection, which TFLM's int8 kernel lacks): int8
// input, weights, output state and result, int32 biases, an int16 cell state; the packed weights and biases hold
// the parts' integers (fold_constants copies them), each gate's scales are attrs.sequence_lstm_scales, and the
// kernel is kernel/reference/int8/sequence_lstm.hpp (docs/design.md §2).
#include <bit>
#include <cmath>
#include <cstdint>

#include <ctnn/kernel/reference/activation.hpp>
#include <ctnn/kernel/reference/int8/sequence_lstm.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct sequence_lstm : op_defaults {
  static constexpr op_kind kind = op_kind::sequence_lstm;
  static constexpr operand_range operands{6, 8};
  static constexpr std::uint32_t state_operands = (1u << 4) | (1u << 5);
  // int8: the packed weights and biases, whose scales are its attributes (weight_scale_bits).
  static constexpr std::uint32_t packed_integer_operands = (1u << 1) | (1u << 2) | (1u << 3);
  // Its kernel applies attrs.fused to the cell gate only: fuse_ops must not fold a following activation into it.
  static constexpr bool takes_fused_activation = false;
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || type == dtype::i8; }
  static constexpr std::size_t operands_read(const kernel_params& p) {
    return static_cast<std::size_t>(p.sequence_lstm().operand_count());
  }

  // TFLM's ValidateTensorSize, on the packed operands: a rank-3 input, weights of `gates` blocks of cells rows,
  // as many state elements as batch rows times outputs (cells), the peepholes and projection the fields say,
  // everything float32.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    const sequence_lstm_fields& f = n.attrs.sequence_lstm();
    const auto fail = [&](std::int32_t slot, const shape& expected) {
      const std::int32_t id = n.inputs[static_cast<std::size_t>(slot)];
      m.fail({error_code::input_shapes_differ, node_id, n.kind, expected, id < 0 ? shape{} : m.tensor_at(id).dims, {.input_slot = slot}});
      return in;
    };
    const std::int32_t operands = f.operand_count();
    if (n.input_count != operands) {
      m.fail({error_code::input_count_mismatch, node_id, n.kind, {}, {}, {.count_expected = operands, .count_actual = n.input_count}});
      return in;
    }
    const bool integer = m.tensor_at(n.inputs[0]).type == dtype::i8;
    if (integer && f.projection + f.peephole + f.coupled_input_forget != 0) return fail(6, {});
    for (std::int32_t k = 1; k < operands; ++k) {
      const std::int32_t id = n.inputs[static_cast<std::size_t>(k)];
      if ((id < 0) != (k == 6 && f.peephole == 0)) return fail(k, {});
      if (id >= 0 && m.tensor_at(id).type != operand_type(integer, k)) return fail(k, m.tensor_at(id).dims);
    }
    if (in.rank != 3 || in.elements() < 1) return fail(0, make_shape(0, 0, 0));
    const std::int32_t gates = f.gates();
    const shape weights = m.tensor_at(n.inputs[1]).dims;
    if (weights.rank != 2 || weights[0] < gates || weights[0] % gates != 0 || weights[1] != in[2])
      return fail(1, make_shape(gates, in[2]));
    const std::int32_t cells = weights[0] / gates;
    const std::int32_t outputs = f.projection != 0 ? m.tensor_at(n.inputs[7]).dims[0] : cells;
    const std::int32_t batch = f.time_major != 0 ? in[1] : in[0];
    if (f.projection != 0 && m.tensor_at(n.inputs[7]).dims != make_shape(outputs, cells)) return fail(7, make_shape(outputs, cells));
    if (m.tensor_at(n.inputs[2]).dims != make_shape(gates * cells, outputs)) return fail(2, make_shape(gates * cells, outputs));
    const std::int32_t biases = gates * cells + (f.projection == 2 ? outputs : 0);
    if (m.tensor_at(n.inputs[3]).dims != make_shape(biases)) return fail(3, make_shape(biases));
    if (m.tensor_at(n.inputs[4]).dims.elements() != std::int64_t{batch} * outputs) return fail(4, make_shape(batch, outputs));
    if (m.tensor_at(n.inputs[5]).dims.elements() != std::int64_t{batch} * cells) return fail(5, make_shape(batch, cells));
    if (f.peephole != 0 && m.tensor_at(n.inputs[6]).dims != make_shape(f.peepholes() * cells))
      return fail(6, make_shape(f.peepholes() * cells));
    return make_shape(in[0], in[1], outputs);
  }
  // Its operand k's element type: float32 throughout, or TFLM's 8x8_16 (int8 but the int32 biases and the int16
  // cell state).
  static constexpr dtype operand_type(bool integer, std::int32_t k) {
    return !integer ? dtype::f32 : k == 3 ? dtype::i32 : k == 5 ? dtype::i16 : dtype::i8;
  }
  // Its fields, and the packed input weights' extents (gates * cells rows).
  template <class Module>
  static constexpr void prepare(const Module& m, const node& n, kernel_params& p) {
    p.set(n.attrs.sequence_lstm());
    p.in2 = m.tensor_at(n.inputs[1]).dims;
  }
  // Per step and batch row, every gate row dotted with the input and the output state, and the projection.
  template <class Module>
  static constexpr std::int64_t macs(const Module& m, const node& n, const shape& out) {
    const std::int64_t rows = out.elements() / out[2], cells = m.tensor_at(n.inputs[1]).dims[0] / n.attrs.sequence_lstm().gates();
    const std::int64_t projection = n.attrs.sequence_lstm().projection != 0 ? cells * out[2] : 0;
    return rows * (n.attrs.sequence_lstm().gates() * cells * (m.tensor_at(n.inputs[0]).dims[2] + out[2]) + projection);
  }

  // TFLM's EvalLstm<float> (lstm_eval.h), one batch row at a time (TFLM's time-major walk takes every row per
  // step; the rows are independent, so the values are the same): per cell unit, each gate is the input's dot
  // product plus its bias, plus the output state's dot product (TFLM's two fully-connected layers and their
  // sum), plus TFLite's peephole (the old cell state times the input and forget gates' weights, the new one
  // times the output gate's); then the cell state f * c + i * g (i = 1 - f when coupled), clipped, and the unit's
  // output tanh(c) * o. Without a projection that is the result; with one, each unit's output is accumulated
  // into every projected output (TFLite's dot products, in its order), then the bias is added and the result
  // clipped. The step's result is copied into the output state once every unit has read the old one.
  template <class Params>
  [[gnu::always_inline]] static void run_f32(Params p, const float* const* operands, float* result) {
    const sequence_lstm_fields& f = p->sequence_lstm();
    const bool time_major = f.time_major != 0, coupled = f.coupled_input_forget != 0, peephole = f.peephole != 0;
    const std::int32_t steps = time_major ? p->in[0] : p->in[1], batch = time_major ? p->in[1] : p->in[0];
    const std::int32_t features = p->in[2], outputs = p->out[2], gates = f.gates();
    const std::int32_t cells = p->in2[0] / gates;
    const float clip = f.cell_clip(), projection_clip = f.projection_clip();
    const float* input_weights = operands[1];
    const float* recurrent_weights = operands[2];
    const float* biases = operands[3];
    float* output_state = const_cast<float*>(operands[4]);  // state_operands: writable by construction
    float* cell_state = const_cast<float*>(operands[5]);
    // The peepholes of the input (unless coupled), forget and output gates.
    const float* input_peephole = peephole && !coupled ? operands[6] : nullptr;
    const float* forget_peephole = peephole ? operands[6] + (coupled ? 0 : cells) : nullptr;
    const float* output_peephole = peephole ? forget_peephole + cells : nullptr;
    const float* projection = f.projection != 0 ? operands[7] : nullptr;
    const float* projection_bias = f.projection == 2 ? biases + std::int64_t{gates} * cells : nullptr;
    for (std::int32_t b = 0; b < batch; ++b) {
      float* h = output_state + std::int64_t{b} * outputs;
      float* c = cell_state + std::int64_t{b} * cells;
      for (std::int32_t t = 0; t < steps; ++t) {
        const std::int64_t row = time_major ? std::int64_t{t} * batch + b : std::int64_t{b} * steps + t;
        const float* x = operands[0] + row * features;
        float* y = result + row * outputs;
        if (projection != nullptr)
          for (std::int32_t j = 0; j < outputs; ++j) y[j] = 0.0f;
        for (std::int32_t u = 0; u < cells; ++u) {
          float gate[4];  // the pre-activations of the gates it has, in the packed order
          for (std::int32_t g = 0; g < gates; ++g) {
            const std::int64_t w = std::int64_t{g} * cells + u;
            float from_input = 0.0f, from_state = 0.0f;
            for (std::int32_t k = 0; k < features; ++k) from_input += x[k] * input_weights[w * features + k];
            for (std::int32_t k = 0; k < outputs; ++k) from_state += h[k] * recurrent_weights[w * outputs + k];
            gate[g] = (from_input + biases[w]) + from_state;
          }
          const std::int32_t forget = coupled ? 0 : 1;  // the forget gate's block; cell and output follow
          if (peephole) gate[forget] += forget_peephole[u] * c[u];
          if (peephole && !coupled) gate[0] += input_peephole[u] * c[u];
          const float forget_gate = logistic(gate[forget]);
          const float input_gate = coupled ? 1.0f - forget_gate : logistic(gate[0]);
          const float cell_gate = kernel::reference::activate(p->fused, gate[forget + 1]);
          float cell = forget_gate * c[u];
          cell = cell + input_gate * cell_gate;
          if (clip > 0.0f) cell = cell > clip ? clip : cell < -clip ? -clip : cell;
          c[u] = cell;
          if (peephole) gate[forget + 2] += output_peephole[u] * cell;
          const float unit = kernel::reference::tanh(cell) * logistic(gate[forget + 2]);
          if (projection == nullptr) y[u] = unit;
          else
            for (std::int32_t j = 0; j < outputs; ++j) y[j] += projection[std::int64_t{j} * cells + u] * unit;
        }
        if (projection != nullptr)
          for (std::int32_t j = 0; j < outputs; ++j) {
            float v = projection_bias != nullptr ? y[j] + projection_bias[j] : y[j];
            if (projection_clip > 0.0f) v = v > projection_clip ? projection_clip : v < -projection_clip ? -projection_clip : v;
            y[j] = v;
          }
        for (std::int32_t j = 0; j < outputs; ++j) h[j] = y[j];
      }
    }
  }

  // TFLM's PrepareGateParametersInteger, into kernel_params: per gate, its fully-connected layers to Q3.12
  // (sequence_lstm_quant; GetQuantizedConvolutionMultipler: the float product of the input's, or the output
  // state's, and the weights' scales, over 2^-12); the Q0.15 products (CreateInterGateMulParams: double products)
  // forget gate x cell state (input_multiplier, input_shift) and input gate x cell gate (input2_multiplier,
  // input2_shift) to the cell state, tanh(cell) x output gate to the output state (output_multiplier,
  // output_shift, output_offset: its zero point); input_offset and input2_offset the input's and the output
  // state's negated zero points (its fully-connected layers' inputs); left_shift the cell state's tanh input shift
  // 15 + log2(scale) - 3 (TFLM's lstm_internal::Tanh; negative: multiplier 3, shift right), activation_min and
  // activation_max the cell state's range (int16, or +-cell_clip in its scale, truncated, CreateLstmCellStateInfo).
  static constexpr void requantize(const quantized_operands& q, const node& n, kernel_params& p) {
    const quantization& hidden = q.operand[4];
    const quantization& cell = q.operand[5];
    constexpr double gate_scale = 1.0 / 4096, product_scale = 1.0 / 32768;
    sequence_lstm_quant_fields gates{};
    for (std::size_t g = 0; g < 8; ++g) {
      const float activation = g < 4 ? q.in.scale : hidden.scale;
      std::int32_t shift = 0;
      q.set_multiplier(gates.gate_multiplier[g], shift,
                       static_cast<double>(activation * n.attrs.sequence_lstm_scales.weight_scale(g)) / gate_scale);
      // QuantizeMultiplier's shift of a positive multiplier is within [-31, 31]; checked_shift checks it.
      gates.gate_shift[g] = static_cast<std::int8_t>(shift < -128 ? -128 : shift > 127 ? 127 : shift);
    }
    p.set(gates);
    q.set_multiplier(p.input_multiplier, p.input_shift, product_scale * static_cast<double>(cell.scale) / static_cast<double>(cell.scale));
    q.set_multiplier(p.input2_multiplier, p.input2_shift, product_scale * product_scale / static_cast<double>(cell.scale));
    q.set_multiplier(p.output_multiplier, p.output_shift, product_scale * product_scale / static_cast<double>(hidden.scale));
    p.output_offset = hidden.zero_point;
    p.input2_offset = ctnn::detail::quant::wrapping_neg(hidden.zero_point);
    p.left_shift = 15 + ctnn::detail::quant::checked_log2(cell.scale).exponent - 3;
    const float clip = n.attrs.sequence_lstm().cell_clip();
    const double quantized_clip = static_cast<double>(clip) / static_cast<double>(cell.scale);
    // NaN (a NaN clip or cell scale) as no clip: the int16 range.
    const auto bound = static_cast<std::int32_t>(!(quantized_clip < 32767.0) ? 32767.0 : quantized_clip < -32768.0 ? -32768.0 : quantized_clip);
    p.activation_min = clip > 0.0f ? -bound : -32768;
    p.activation_max = clip > 0.0f ? bound : 32767;
  }
  // The largest of its shifts.
  static constexpr recipe_shift checked_shift(const kernel_params& recipe) {
    std::int32_t largest = recipe.output_shift > recipe.input_shift ? recipe.output_shift : recipe.input_shift;
    if (recipe.input2_shift > largest) largest = recipe.input2_shift;
    for (const std::int8_t shift : recipe.sequence_lstm_quant().gate_shift) largest = shift > largest ? std::int32_t{shift} : largest;
    return {largest, false};
  }

  // TFLM's EvalLstm<int8_t, int8_t, int16_t, int32_t>: kernel/reference/int8/sequence_lstm.hpp.
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    kernel::reference::int8::sequence_lstm(p, operands, static_cast<std::int8_t*>(result));
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    put_fields(w, a.sequence_lstm());
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    put_fields(w, p.sequence_lstm());
  }
  template <class Writer>
  static void put_fields(Writer& w, const sequence_lstm_fields& f) {
    w.put(f.time_major != 0 ? "  time-major" : "  batch-major");
    if (f.coupled_input_forget != 0) w.put(" coupled-input-forget");
    if (f.peephole != 0) w.put(" peephole");
    if (f.projection != 0) w.put(f.projection == 2 ? " projection with bias" : " projection");
    if (f.cell_clip() > 0.0f) w.real_field(" cell clip ", f.cell_clip());
    if (f.projection_clip() > 0.0f) w.real_field(" projection clip ", f.projection_clip());
  }

 private:
  // TFLM's float Logistic (reference_ops::Logistic): 1 above its upper cutoff, exp(x) below its lower one.
  static float logistic(float x) {
    if (x > 16.619047164916992188f) return 1.0f;
    if (x < -9.0f) return std::exp(x);
    return 1.0f / (1.0f + std::exp(-x));
  }
};

}  // namespace ctnn::ops
