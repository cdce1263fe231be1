#pragma once
// Reference float32 kernels of ONNX's LSTM, GRU and RNN (ops/recurrent.hpp), constexpr so that fold_constants
// can run them. One call runs the whole sequence, each direction in turn, and writes one packed result
// (recurrent::packing): Y (when an output reads it), the final hidden state, the final cell state (LSTM), and
// the gate scratch of one step. The running state lives in the final-state parts themselves, so a step reads
// h(t-1) and c(t-1) where it then writes h(t) and c(t).
//
// Per step, each weight matrix is walked once, row by row in storage order (every gate's rows in one pass),
// each row dotted with every batch row's input: the gate pre-activations of the whole batch land in the
// scratch (gates x hidden floats per batch row), then each batch row's state is updated from them.
#include <cstdint>

#include <ctnn/ir/attributes.hpp>
#include <ctnn/ir/shape.hpp>
#include <ctnn/kernel/reference/activation.hpp>

namespace ctnn::kernel::reference::recurrent {

enum class cell : std::int32_t { lstm, gru, rnn };

// The gates whose rows W and R hold (LSTM i, o, f, c; GRU z, r, h; RNN one).
constexpr std::int32_t gate_count(cell c) { return c == cell::lstm ? 4 : c == cell::gru ? 3 : 1; }
// Scratch floats per batch row and hidden unit: the gates' pre-activations, and GRU's recurrent part of its
// h gate (R_h (r * h) or R_h h, kept apart from W_h x).
constexpr std::int32_t scratch_gates(cell c) { return c == cell::gru ? 4 : gate_count(c); }

// The extents of a call: X's shape under the layout, and where an element of X, Y and a state is.
struct extents {
  std::int32_t seq = 0, batch = 0, input = 0, hidden = 0, directions = 1;
  bool batch_major = false;

  constexpr extents(const shape& x, const recurrent_fields& f)
      : seq(f.batch_major != 0 ? x[1] : x[0]), batch(f.batch_major != 0 ? x[0] : x[1]), input(x[2]), hidden(f.hidden),
        directions(f.directions()), batch_major(f.batch_major != 0) {}
  constexpr std::int64_t x_at(std::int32_t t, std::int32_t b) const {
    return (batch_major ? std::int64_t{b} * seq + t : std::int64_t{t} * batch + b) * input;
  }
  constexpr std::int64_t y_at(std::int32_t t, std::int32_t d, std::int32_t b) const {
    return (batch_major ? (std::int64_t{b} * seq + t) * directions + d : (std::int64_t{t} * directions + d) * batch + b) *
           hidden;
  }
  constexpr std::int64_t state_at(std::int32_t d, std::int32_t b) const {
    return (batch_major ? std::int64_t{b} * directions + d : std::int64_t{d} * batch + b) * hidden;
  }
  constexpr std::int64_t sequence_elements() const { return std::int64_t{seq} * directions * batch * hidden; }
  constexpr std::int64_t state_elements() const { return std::int64_t{directions} * batch * hidden; }
};

// Where the parts of the packed result begin (elements) and its size.
struct packing {
  std::int64_t final_hidden = 0, final_cell = 0, scratch = 0, total = 0;  // Y, when written, begins at 0

  constexpr packing(cell c, const extents& e, bool writes_sequence) {
    final_hidden = writes_sequence ? e.sequence_elements() : 0;
    final_cell = final_hidden + e.state_elements();
    scratch = final_cell + (c == cell::lstm ? e.state_elements() : 0);
    total = scratch + std::int64_t{scratch_gates(c)} * e.batch * e.hidden;
  }
};

// a . b over n elements, in eight running partial sums (independent lanes the compiler vectorises).
[[gnu::always_inline]] constexpr float dot(const float* a, const float* b, std::int32_t n) {
  constexpr std::int32_t lanes = 8;
  float partial[lanes]{};
  std::int32_t k = 0;
  for (; k + lanes <= n; k += lanes)
    for (std::int32_t l = 0; l < lanes; ++l) partial[l] += a[k + l] * b[k + l];
  float sum = 0.0f;
  for (std::int32_t l = 0; l < lanes; ++l) sum += partial[l];
  for (; k < n; ++k) sum += a[k] * b[k];
  return sum;
}

// gates[b * stride + j] += matrix row j . vector(b) for rows [first, last) and every batch row b: the rows
// are walked once, in order.
template <class Vector>
constexpr void accumulate_rows(const float* matrix, std::int32_t columns, std::int32_t first, std::int32_t last,
                               std::int32_t batch, Vector&& vector, float* gates, std::int64_t stride) {
  for (std::int32_t j = first; j < last; ++j) {
    const float* row = matrix + std::int64_t{j} * columns;
    for (std::int32_t b = 0; b < batch; ++b) gates[b * stride + j] += dot(row, vector(b), columns);
  }
}

// An activation of a gate's pre-activation, clipped first when the op clips.
[[gnu::always_inline]] constexpr float gate(activation a, float pre, const recurrent_fields& f) {
  if (f.clipped != 0) pre = pre < -f.clip() ? -f.clip() : pre > f.clip() ? f.clip() : pre;
  return activate(a, pre);
}

// The operands of one direction: its weights (W, R), biases (B: W's then R's), peepholes (P) and the
// packed result.
struct direction_operands {
  const float* x;
  const float* w;
  const float* r;
  const float* bias;      // nullptr: none
  const float* peephole;  // LSTM; nullptr: none
  std::int32_t d;
};

// Runs direction `d` over the sequence: before the first step, the state parts hold the initial states.
template <cell C, class Params>
constexpr void run_direction(Params p, const extents& e, const packing& pack, const direction_operands& o, float* result) {
  const recurrent_fields& f = p->recurrent;
  constexpr std::int32_t gates = gate_count(C);
  const std::int32_t hidden = e.hidden;
  const std::int64_t stride = std::int64_t{scratch_gates(C)} * hidden;
  float* scratch = result + pack.scratch;
  const activation* fn = &f.functions[static_cast<std::size_t>(o.d * (C == cell::lstm ? 3 : C == cell::gru ? 2 : 1))];
  const bool reverse = f.direction == recurrent_direction::reverse || o.d == 1;
  for (std::int32_t step = 0; step < e.seq; ++step) {
    const std::int32_t t = reverse ? e.seq - 1 - step : step;
    const auto input_of = [&](std::int32_t b) { return o.x + e.x_at(t, b); };
    const auto hidden_of = [&](std::int32_t b) -> const float* { return result + pack.final_hidden + e.state_at(o.d, b); };
    // Pre-activations: the biases, then W x of every gate, then R h of the gates whose rows see h directly
    // (GRU's h gate waits for its reset gate).
    for (std::int32_t b = 0; b < e.batch; ++b)
      for (std::int32_t j = 0; j < gates * hidden; ++j) {
        const bool recurrent_bias = o.bias != nullptr && (C != cell::gru || j < 2 * hidden);
        scratch[b * stride + j] = o.bias == nullptr ? 0.0f : o.bias[j] + (recurrent_bias ? o.bias[gates * hidden + j] : 0.0f);
      }
    accumulate_rows(o.w, e.input, 0, gates * hidden, e.batch, input_of, scratch, stride);
    accumulate_rows(o.r, hidden, 0, C == cell::gru ? 2 * hidden : gates * hidden, e.batch, hidden_of, scratch, stride);
    for (std::int32_t b = 0; b < e.batch; ++b) {
      float* g = scratch + b * stride;
      float* h = result + pack.final_hidden + e.state_at(o.d, b);
      if constexpr (C == cell::lstm) {
        float* c = result + pack.final_cell + e.state_at(o.d, b);
        const float* peep = o.peephole;
        for (std::int32_t k = 0; k < hidden; ++k) {
          const float input_gate = gate(fn[0], g[k] + (peep != nullptr ? peep[k] * c[k] : 0.0f), f);
          const float forget_gate = f.input_forget != 0 ? 1.0f - input_gate
                                    : gate(fn[0], g[2 * hidden + k] + (peep != nullptr ? peep[2 * hidden + k] * c[k] : 0.0f), f);
          const float cell_state = forget_gate * c[k] + input_gate * gate(fn[1], g[3 * hidden + k], f);
          const float output_gate = gate(fn[0], g[hidden + k] + (peep != nullptr ? peep[hidden + k] * cell_state : 0.0f), f);
          c[k] = cell_state;
          h[k] = output_gate * gate(fn[2], cell_state, f);
        }
      } else if constexpr (C == cell::gru) {
        // z and r; before linear_before_reset 0's recurrent pass, r's slot holds r * h (that pass's vector).
        for (std::int32_t k = 0; k < hidden; ++k) {
          g[k] = gate(fn[0], g[k], f);
          const float reset = gate(fn[0], g[hidden + k], f);
          g[hidden + k] = f.linear_before_reset != 0 ? reset : reset * h[k];
          g[3 * hidden + k] = o.bias != nullptr ? o.bias[5 * hidden + k] : 0.0f;
        }
      } else {
        for (std::int32_t k = 0; k < hidden; ++k) h[k] = gate(fn[0], g[k], f);
      }
    }
    if constexpr (C == cell::gru) {
      // The h gate's recurrent part, R_h rows walked once into slot 3: R_h h (linear_before_reset) or
      // R_h (r * h).
      const auto recurrent_of = [&](std::int32_t b) -> const float* {
        return f.linear_before_reset != 0 ? hidden_of(b) : scratch + b * stride + hidden;
      };
      accumulate_rows(o.r + std::int64_t{2} * hidden * hidden, hidden, 0, hidden, e.batch, recurrent_of,
                      scratch + 3 * hidden, stride);
      for (std::int32_t b = 0; b < e.batch; ++b) {
        const float* g = scratch + b * stride;
        float* h = result + pack.final_hidden + e.state_at(o.d, b);
        for (std::int32_t k = 0; k < hidden; ++k) {
          const float recurrent = f.linear_before_reset != 0 ? g[hidden + k] * g[3 * hidden + k] : g[3 * hidden + k];
          const float candidate = gate(fn[1], g[2 * hidden + k] + recurrent, f);
          h[k] = (1.0f - g[k]) * candidate + g[k] * h[k];
        }
      }
    }
    if (f.writes_sequence != 0)
      for (std::int32_t b = 0; b < e.batch; ++b) {
        const float* h = result + pack.final_hidden + e.state_at(o.d, b);
        float* y = result + e.y_at(t, o.d, b);
        for (std::int32_t k = 0; k < hidden; ++k) y[k] = h[k];
      }
  }
}

// The whole op: operands X, W, R, B, initial_h, then (LSTM) initial_c and P; absent ones are not read
// (p->recurrent.has(k)).
template <cell C, class Params>
constexpr void run(Params p, const float* const* operands, float* result) {
  const recurrent_fields& f = p->recurrent;
  const extents e(p->in, f);
  const packing pack(C, e, f.writes_sequence != 0);
  constexpr std::int32_t gates = gate_count(C);
  const std::int64_t hidden = e.hidden;
  // Initial states (zero when absent), in the final-state parts, which have their layout.
  for (std::int64_t i = 0; i < e.state_elements(); ++i) {
    result[pack.final_hidden + i] = f.has(4) ? operands[4][i] : 0.0f;
    if constexpr (C == cell::lstm) result[pack.final_cell + i] = f.has(5) ? operands[5][i] : 0.0f;
  }
  for (std::int32_t d = 0; d < e.directions; ++d) {
    const direction_operands o{operands[0],
                               operands[1] + d * gates * hidden * e.input,
                               operands[2] + d * gates * hidden * hidden,
                               f.has(3) ? operands[3] + d * 2 * gates * hidden : nullptr,
                               C == cell::lstm && f.has(6) ? operands[6] + d * 3 * hidden : nullptr,
                               d};
    run_direction<C>(p, e, pack, o, result);
  }
}

}  // namespace ctnn::kernel::reference::recurrent
