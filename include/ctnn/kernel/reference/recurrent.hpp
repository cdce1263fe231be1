#pragma once
// Reference float32 kernels of ONNX's LSTM, GRU and RNN (ops/recurrent.hpp), constexpr so that fold_constants
// can run them. One call runs the whole sequence, each direction in turn, and writes one packed result
// (recurrent::packing): Y (when an output reads it), the final hidden state, the final cell state (LSTM), and
// the gate scratch of one step. The running state lives in the final-state parts themselves, so a step reads
// h(t-1) and c(t-1) where it then writes h(t) and c(t).
//
// W and R come transposed, k-major, in panels of recurrent_fields::panel gate columns ([dirs * gates * hidden /
// panel, input or hidden, panel]: the importer re-lays out constant weights at compile time; weights computed
// at run time are one panel per direction, [dirs, depth, gates * hidden]): per step and batch row each matrix
// is walked once, in storage order, and a block of gate columns accumulates in registers, x[k] times row k,
// with no horizontal sums. A panel as wide as the block makes that walk one contiguous stream (the hardware
// prefetchers follow it; rows of every gate's columns jump by their width: on an AVX-512 host the recurrent
// step of a 128-unit LSTM streams its 256 KB from L2 about a quarter faster in panels). The gate pre-activations
// of the whole batch land in the scratch (gates x hidden floats per batch row), then the activations run over
// whole gate vectors (branch-free, vectorisable approximations of exp and tanh below) and each batch row's
// state is updated.
#include <bit>
#include <cstdint>

#include <ctnn/ir/attributes.hpp>
#include <ctnn/ir/shape.hpp>

namespace ctnn::kernel::reference::recurrent {

enum class cell : std::int32_t { lstm, gru, rnn };

// The gates whose rows W and R hold (LSTM i, o, f, c; GRU z, r, h; RNN one).
constexpr std::int32_t gate_count(cell c) { return c == cell::lstm ? 4 : c == cell::gru ? 3 : 1; }
// The operand holding sequence_lens: after X, W, R, B, initial_h and (LSTM) initial_c and P.
constexpr std::int32_t lengths_operand(cell c) { return c == cell::lstm ? 7 : 5; }
// Scratch floats per batch row and hidden unit: the gates' pre-activations, and GRU's recurrent part of its
// h gate (R_h (r * h) or R_h h, kept apart from W_h x).
constexpr std::int32_t scratch_gates(cell c) { return c == cell::gru ? 4 : gate_count(c); }

// The extents of a call: X's shape under the layout, and where an element of X, Y and a state is.
struct extents {
  std::int32_t seq = 0, batch = 0, input = 0, hidden = 0, directions = 1;
  std::int32_t panel = 0;  // recurrent_fields::panel (0: every gate's columns)
  bool batch_major = false;

  constexpr extents(const shape& x, const recurrent_fields& f)
      : seq(f.batch_major != 0 ? x[1] : x[0]), batch(f.batch_major != 0 ? x[0] : x[1]), input(x[2]), hidden(f.hidden),
        directions(f.directions()), panel(f.panel), batch_major(f.batch_major != 0) {}
  // The columns of a weight panel for a cell of `gates` gates.
  constexpr std::int32_t panel_columns(std::int32_t gates) const { return panel > 0 ? panel : gates * hidden; }
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
// The steps whose input products one pass over W computes (below): several on hosts with vector units, where
// W's panels then stream from L2 once per chunk instead of once per step; one elsewhere (a Cortex-M keeps the
// scratch of a single step).
#if defined(__AVX__) || defined(__SSE2__) || defined(__ARM_NEON)
inline constexpr std::int32_t input_chunk = 8;
#else
inline constexpr std::int32_t input_chunk = 1;
#endif

// Where the parts of the packed result begin (elements) and its size. The scratch holds `chunk` steps' gates,
// one step's (batch x scratch_gates x hidden) after the other.
struct packing {
  std::int64_t final_hidden = 0, final_cell = 0, scratch = 0, total = 0;  // Y, when written, begins at 0
  std::int32_t chunk = 1;

  constexpr packing(cell c, const extents& e, bool writes_sequence) {
    final_hidden = writes_sequence ? e.sequence_elements() : 0;
    final_cell = final_hidden + e.state_elements();
    scratch = final_cell + (c == cell::lstm ? e.state_elements() : 0);
    chunk = e.seq < input_chunk ? (e.seq > 0 ? e.seq : 1) : input_chunk;
    total = scratch + std::int64_t{chunk} * scratch_gates(c) * e.batch * e.hidden;
  }
};

// The columns one block accumulates: eight vector registers' worth on the target, eight FMA chains to hide
// the FMA latency (the compiler keeps the block's accumulators in registers).
#if defined(__AVX512F__)
inline constexpr std::int32_t column_block = 64;
#elif defined(__AVX__)
inline constexpr std::int32_t column_block = 64;
#elif defined(__SSE2__) || defined(__ARM_NEON)
inline constexpr std::int32_t column_block = 32;
#else
inline constexpr std::int32_t column_block = 8;
#endif
// The floats of accumulators a tile of several vectors (batch rows, steps) may keep in registers: half the
// vector registers (AVX-512: 16 of 32), the rest holding the row's loads and the vectors' broadcasts.
#if defined(__AVX512F__)
inline constexpr std::int32_t tile_floats = 16 * 16;
#else
inline constexpr std::int32_t tile_floats = 0;  // one vector at a time: a block of column_block fills the registers
#endif
// The vectors a tile of `block` columns serves (1: no tile).
constexpr std::int32_t tile_vectors(std::int32_t block) {
  const std::int32_t vectors = tile_floats / block;
  return vectors < 1 ? 1 : vectors > 4 ? 4 : vectors;
}

// out(i)[l] += sum over k < depth of v(i)[k] * m[k * row_stride + l], for l < Block and i < Vectors: the
// tile's accumulators stay in registers while the rows of m stream by (from L2 once; from L1 for the others).
// The sum of each column runs over k in order whatever the tile (Vectors = 1 or more, any Block): the same
// result to the bit.
template <std::int32_t Vectors, std::int32_t Block>
[[gnu::noinline]] constexpr void accumulate_tile(const float* m, std::int64_t row_stride, std::int32_t depth,
                                                 const float* const* v, float* const* out) {
  float acc[Vectors][Block];
  for (std::int32_t i = 0; i < Vectors; ++i)
    for (std::int32_t l = 0; l < Block; ++l) acc[i][l] = out[i][l];
  for (std::int32_t k = 0; k < depth; ++k) {
    const float* row = m + k * row_stride;
    for (std::int32_t i = 0; i < Vectors; ++i) {
      const float vk = v[i][k];
      for (std::int32_t l = 0; l < Block; ++l) acc[i][l] += row[l] * vk;
    }
  }
  for (std::int32_t i = 0; i < Vectors; ++i)
    for (std::int32_t l = 0; l < Block; ++l) out[i][l] = acc[i][l];
}

// The panel width the importer lays constant weights out in for `hidden` units: the widest of a block, half
// and a quarter of one that divides hidden (so that no panel straddles two gates), else 0 (one panel per
// direction, as weights computed at run time are).
constexpr std::int32_t panel_width(std::int32_t hidden) {
  for (std::int32_t width = column_block; width >= 8 && width >= column_block / 4; width /= 2)
    if (hidden % width == 0) return width;
  return 0;
}

// out(i)[j] += sum over k of vector(i)[k] * m(k, j), for columns j in [first, last) of the paneled k-major
// matrix m (depth rows; column j in panel j / panel, m(k, j) at (j / panel) * panel * depth + k * panel +
// j % panel; [first, last) within one panel or whole panels) and each of `count` vectors (batch rows, steps):
// blocks of column_block columns, a half and a quarter of one, then of 8, then one by one; each block's rows
// serve every vector while they are in L1 (in tiles of several vectors where the registers hold them).
// `descending` walks the panels, and the blocks in each, from the last: on hosts with caches the recurrent pass
// alternates, so that a step begins with the columns the step before ended with, whose rows are still in L1 (a
// 64-unit LSTM's R, 64 KB, then streams about a third less from L2 per step; 128 units, 256 KB: a panel in
// eight). Each column's sum is the same either way.
template <class Vector, class Out>
constexpr void accumulate_columns(const float* m, std::int32_t panel, std::int32_t depth, std::int32_t first, std::int32_t last,
                                  std::int32_t count, Vector&& vector, Out&& out, bool descending = false) {
  const auto block_at = [&]<std::int32_t Block>(const float* p, std::int32_t j) {
    constexpr std::int32_t tile = tile_vectors(Block);
    std::int32_t i = 0;
    if constexpr (tile > 1)
      for (; i + tile <= count; i += tile) {
        const float* vs[tile];
        float* outs[tile];
        for (std::int32_t t = 0; t < tile; ++t) vs[t] = vector(i + t), outs[t] = out(i + t) + j;
        accumulate_tile<tile, Block>(p + j, panel, depth, vs, outs);
      }
    for (; i < count; ++i) {
      const float* vs[1] = {vector(i)};
      float* outs[1] = {out(i) + j};
      accumulate_tile<1, Block>(p + j, panel, depth, vs, outs);
    }
  };
  // Blocks of Block columns over [start, end), from the start up or from the end down (what is left of
  // [start, end) for the smaller blocks: [start, end) again, narrowed).
  const auto blocks = [&]<std::int32_t Block>(const float* p, std::int32_t& start, std::int32_t& end) {
    if (descending)
      for (; end - Block >= start; end -= Block) block_at.template operator()<Block>(p, end - Block);
    else
      for (; start + Block <= end; start += Block) block_at.template operator()<Block>(p, start);
  };
  const auto panel_columns = [&](std::int32_t begin, std::int32_t end) {
    const std::int32_t start = begin / panel * panel;           // the panel's first column
    const float* p = m + std::int64_t{start} * depth - start;  // p + j: column j's row-0 element
    blocks.template operator()<column_block>(p, begin, end);
    if constexpr (column_block / 2 >= 8) blocks.template operator()<column_block / 2>(p, begin, end);
    if constexpr (column_block / 4 >= 8) blocks.template operator()<column_block / 4>(p, begin, end);
    blocks.template operator()<8>(p, begin, end);
    blocks.template operator()<1>(p, begin, end);
  };
  if (descending)
    for (std::int32_t end = last; end > first;) {
      const std::int32_t start = (end - 1) / panel * panel;  // the last panel's first column
      panel_columns(start > first ? start : first, end);
      end = start;
    }
  else
    for (std::int32_t begin = first; begin < last;) {
      const std::int32_t start = begin / panel * panel;
      const std::int32_t end = start + panel < last ? start + panel : last;
      panel_columns(begin, end);
      begin = end;
    }
}

// e^x for the gates, branch-free so that loops over a gate vector vectorise (constexpr too): x clamped to
// [-87, 88], x = n ln 2 + r with |r| <= ln 2 / 2, e^r by its degree-7 Taylor polynomial (relative error below
// 1e-8), times 2^n built in the exponent bits.
[[gnu::always_inline]] constexpr float gate_exp(float x) {
  // Two plain selects (g++ if-converts these, not a nested one) whose clamped arm is not a constant: with
  // -87 and 88 there g++ threads a path of constant results through the rest and the vectorised loop computes
  // it under masks, each division twice (a loop of LSTM gates took a fifth longer).
  x = x < -87.0f ? __builtin_copysignf(87.0f, x) : x;
  x = x > 88.0f ? __builtin_copysignf(88.0f, x) : x;
  // n = round(x / ln 2) by adding 1.5 * 2^23 (the sum's low mantissa bits are n), without a float-int
  // round trip, which g++ does not vectorise.
  constexpr float round_shift = 12582912.0f;
  const float shifted = x * 1.44269504f + round_shift;
  const float nf = shifted - round_shift;
  const std::int32_t n = std::bit_cast<std::int32_t>(shifted) - std::bit_cast<std::int32_t>(round_shift);
  const float r = (x - nf * 0.693359375f) + nf * 2.12194440e-4f;
  const float p =
      1.0f + r * (1.0f + r * (0.5f + r * (1.0f / 6 + r * (1.0f / 24 + r * (1.0f / 120 + r * (1.0f / 720 + r * (1.0f / 5040)))))));
  return p * std::bit_cast<float>(static_cast<std::uint32_t>(n + 127) << 23);
}
// tanh(x) = x P(x^2) / Q(x^2), P and Q of degree 4, a rational fit of relative error below 4e-7 for |x| <= 9
// (x clamped there: tanh(9) is 1 in float), so no exponential, no second branch for small |x| and one division:
// 12 operations where 1 - 2 / (e^2x + 1) with its small-|x| polynomial took 28 (an LSTM step computes two per
// unit). Odd, exact at 0, NaN stays NaN.
[[gnu::always_inline]] constexpr float gate_tanh(float x) {
  x = x < -9.0f ? __builtin_copysignf(9.0f, x) : x;  // no constant arm: see gate_exp
  x = x > 9.0f ? __builtin_copysignf(9.0f, x) : x;
  const float z = x * x;
  const float p =
      0.99999997949607f + z * (0.1338109774038625f + z * (0.003495672573017886f + z * (2.061041192974976e-05f + z * 1.3356366207473158e-08f)));
  const float q =
      1.0f + z * (0.46714413370228175f + z * (0.025877306652556383f + z * (0.00032857705044680275f + z * 7.777286328315702e-07f)));
  return x * p / q;
}
[[gnu::always_inline]] constexpr float gate_sigmoid(float x) { return 1.0f / (1.0f + gate_exp(-x)); }

// v[k] = a(clip(v[k])) for k < n, in place (an output apart from the input would make g++ check for overlap
// and run the scalar loop when they are one array): one loop per function, so that each vectorises; without a
// clip attribute, no clip at all (the kernel's parameters are constants: each call compiles one of the two).
template <class Clip>
[[gnu::always_inline]] constexpr void activate_clipped(activation a, std::int32_t n, float* v, Clip clipped) {
  switch (a) {
    case activation::sigmoid:
      for (std::int32_t k = 0; k < n; ++k) v[k] = gate_sigmoid(clipped(v[k]));
      return;
    case activation::tanh:
      for (std::int32_t k = 0; k < n; ++k) v[k] = gate_tanh(clipped(v[k]));
      return;
    case activation::relu:
      for (std::int32_t k = 0; k < n; ++k) v[k] = clipped(v[k]) > 0.0f ? clipped(v[k]) : 0.0f;
      return;
    default:
      for (std::int32_t k = 0; k < n; ++k) v[k] = clipped(v[k]);
      return;
  }
}
constexpr void activate_gates(activation a, const recurrent_fields& f, std::int32_t n, float* v) {
  if (f.clipped == 0) return activate_clipped(a, n, v, [](float x) { return x; });
  const float bound = f.clip();
  activate_clipped(a, n, v, [bound](float x) {
    x = x < -bound ? -bound : x;
    return x > bound ? bound : x;
  });
}

// The operands of one direction: its weights (W, R), biases (B: W's then R's), peepholes (P) and the
// packed result.
struct direction_operands {
  const float* x;
  const float* w;
  const float* r;
  const float* bias;      // nullptr: none
  const float* peephole;  // LSTM; nullptr: none
  const float* lengths;   // sequence_lens, one per batch row (as floats); nullptr: every row runs the whole sequence
  std::int32_t d;
};

// Batch row b's sequence length: sequence_lens[b] clamped to [0, seq] (a length outside is not a position of
// X; ONNX leaves it undefined), seq without sequence_lens.
constexpr std::int32_t row_length(const float* lengths, std::int32_t b, std::int32_t seq) {
  if (lengths == nullptr) return seq;
  const float length = lengths[b];
  return length >= static_cast<float>(seq) ? seq : length > 0.0f ? static_cast<std::int32_t>(length) : 0;
}

// Runs direction `d` over the sequence: before the first step, the state parts hold the initial states. With
// sequence_lens, row b runs its first length(b) steps (a reverse direction from its position length(b) - 1
// down), its state then stays as it is, and Y is 0 at its positions from length(b) on, as onnxruntime computes
// them; the gate products of a finished row are computed and not used (the batch's rows share each pass over
// the weights).
template <cell C, class Params>
constexpr void run_direction(Params p, const extents& e, const packing& pack, const direction_operands& o, float* result) {
  const recurrent_fields& f = p->recurrent();
  constexpr std::int32_t gates = gate_count(C);
  const std::int32_t hidden = e.hidden;
  const std::int64_t stride = std::int64_t{scratch_gates(C)} * hidden;
  const std::int64_t slot = stride * e.batch;  // one step's scratch
  const activation* fn = &f.functions[static_cast<std::size_t>(o.d * (C == cell::lstm ? 3 : C == cell::gru ? 2 : 1))];
  const bool reverse = f.direction == recurrent_direction::reverse || o.d == 1;
  const std::int32_t columns = gates * hidden, panel = e.panel_columns(gates);
  // Row b's position at `step`; a step past the row's length reads X's position 0 (computed, unused).
  const auto time_of = [&](std::int32_t step, std::int32_t b) {
    const std::int32_t length = row_length(o.lengths, b, e.seq);
    return step >= length ? 0 : reverse ? length - 1 - step : step;
  };
  const auto running = [&](std::int32_t step, std::int32_t b) { return step < row_length(o.lengths, b, e.seq); };
  constexpr bool alternate = input_chunk > 1;  // hosts with vector units, and caches (a Cortex-M keeps its order)
  // A row of length 0 runs no step: its final states are 0, as onnxruntime writes them (not the initial ones).
  for (std::int32_t b = 0; b < e.batch; ++b)
    if (row_length(o.lengths, b, e.seq) == 0)
      for (std::int32_t k = 0; k < hidden; ++k) {
        result[pack.final_hidden + e.state_at(o.d, b) + k] = 0.0f;
        if constexpr (C == cell::lstm) result[pack.final_cell + e.state_at(o.d, b) + k] = 0.0f;
      }
  for (std::int32_t step = 0; step < e.seq; ++step) {
    float* scratch = result + pack.scratch + (step % pack.chunk) * slot;
    const auto hidden_of = [&](std::int32_t b) -> const float* { return result + pack.final_hidden + e.state_at(o.d, b); };
    const auto gates_of = [&](std::int32_t b) { return scratch + b * stride; };
    if (step % pack.chunk == 0) {
      // Pre-activations of this chunk's steps: the biases, then W x of every gate, one pass over W.
      const std::int32_t steps = e.seq - step < pack.chunk ? e.seq - step : pack.chunk;
      float* first = result + pack.scratch;
      for (std::int32_t row = 0; row < steps * e.batch; ++row)
        for (std::int32_t j = 0; j < gates * hidden; ++j) {
          const bool recurrent_bias = o.bias != nullptr && (C != cell::gru || j < 2 * hidden);
          first[row * stride + j] = o.bias == nullptr ? 0.0f : o.bias[j] + (recurrent_bias ? o.bias[gates * hidden + j] : 0.0f);
        }
      const auto input_of = [&](std::int32_t row) {
        return o.x + e.x_at(time_of(step + row / e.batch, row % e.batch), row % e.batch);
      };
      const auto inputs_gates = [&](std::int32_t row) { return first + row * stride; };
      accumulate_columns(o.w, panel, e.input, 0, columns, steps * e.batch, input_of, inputs_gates);
    }
    // Then R h of the gates whose rows see h directly (GRU's h gate waits for its reset gate). Odd steps walk
    // R backwards (alternate). GRU: z's columns in two halves, one before r's, the other after h's, swapping
    // at each step, so that a step also begins with the columns the step before ended with (GRU(128): R
    // 192 KB, a panel in six from L1); where the order does not alternate, all of z's come first.
    const bool backwards = alternate && step % 2 == 1;
    const std::int32_t split = C == cell::gru && alternate ? hidden / 2 : hidden;  // z's halves [0, split), [split, hidden)
    if constexpr (C == cell::gru) {
      accumulate_columns(o.r, panel, hidden, backwards ? split : 0, backwards ? hidden : split, e.batch, hidden_of, gates_of, backwards);
      accumulate_columns(o.r, panel, hidden, hidden, 2 * hidden, e.batch, hidden_of, gates_of, backwards);
    } else {
      accumulate_columns(o.r, panel, hidden, 0, columns, e.batch, hidden_of, gates_of, backwards);
    }
    for (std::int32_t b = 0; b < e.batch; ++b) {
      if (!running(step, b)) continue;
      float* g = scratch + b * stride;
      float* h = result + pack.final_hidden + e.state_at(o.d, b);
      if constexpr (C == cell::lstm) {
        // Slots i, o, f, c. Peepholes see c(t-1) (i, f) and c(t) (o); h(c) goes to slot c once it is read.
        float* c = result + pack.final_cell + e.state_at(o.d, b);
        const float* peep = o.peephole;
        if (peep != nullptr)
          for (std::int32_t k = 0; k < hidden; ++k) {
            g[k] += peep[k] * c[k];
            g[2 * hidden + k] += peep[2 * hidden + k] * c[k];
          }
        activate_gates(fn[0], f, hidden, g);
        if (f.input_forget != 0)
          for (std::int32_t k = 0; k < hidden; ++k) g[2 * hidden + k] = 1.0f - g[k];
        else
          activate_gates(fn[0], f, hidden, g + 2 * hidden);
        activate_gates(fn[1], f, hidden, g + 3 * hidden);
        for (std::int32_t k = 0; k < hidden; ++k) c[k] = g[2 * hidden + k] * c[k] + g[k] * g[3 * hidden + k];
        if (peep != nullptr)
          for (std::int32_t k = 0; k < hidden; ++k) g[hidden + k] += peep[hidden + k] * c[k];
        activate_gates(fn[0], f, hidden, g + hidden);
        for (std::int32_t k = 0; k < hidden; ++k) g[3 * hidden + k] = c[k];
        activate_gates(fn[2], f, hidden, g + 3 * hidden);
        for (std::int32_t k = 0; k < hidden; ++k) h[k] = g[hidden + k] * g[3 * hidden + k];
      } else if constexpr (C == cell::gru) {
        // r (z once all its columns are in); before linear_before_reset 0's recurrent pass, r's slot holds r * h
        // (that pass's vector).
        activate_gates(fn[0], f, hidden, g + hidden);
        for (std::int32_t k = 0; k < hidden; ++k) {
          if (f.linear_before_reset == 0) g[hidden + k] *= h[k];
          g[3 * hidden + k] = o.bias != nullptr ? o.bias[5 * hidden + k] : 0.0f;
        }
      } else {
        activate_gates(fn[0], f, hidden, g);
        for (std::int32_t k = 0; k < hidden; ++k) h[k] = g[k];
      }
    }
    if constexpr (C == cell::gru) {
      // The h gate's recurrent part, R_h's columns walked once into slot 3: R_h h (linear_before_reset) or
      // R_h (r * h).
      const auto recurrent_of = [&](std::int32_t b) -> const float* {
        return f.linear_before_reset != 0 ? hidden_of(b) : scratch + b * stride + hidden;
      };
      const auto h_gate_of = [&](std::int32_t b) { return scratch + b * stride + hidden; };  // + j: slot 3
      accumulate_columns(o.r, panel, hidden, 2 * hidden, columns, e.batch, recurrent_of, h_gate_of, backwards);
      accumulate_columns(o.r, panel, hidden, backwards ? 0 : split, backwards ? split : hidden, e.batch, hidden_of, gates_of, backwards);
      for (std::int32_t b = 0; b < e.batch; ++b) {
        if (!running(step, b)) continue;
        float* g = scratch + b * stride;
        float* h = result + pack.final_hidden + e.state_at(o.d, b);
        activate_gates(fn[0], f, hidden, g);
        for (std::int32_t k = 0; k < hidden; ++k)
          g[2 * hidden + k] += f.linear_before_reset != 0 ? g[hidden + k] * g[3 * hidden + k] : g[3 * hidden + k];
        activate_gates(fn[1], f, hidden, g + 2 * hidden);
        for (std::int32_t k = 0; k < hidden; ++k) h[k] = (1.0f - g[k]) * g[2 * hidden + k] + g[k] * h[k];
      }
    }
    if (f.writes_sequence != 0)
      for (std::int32_t b = 0; b < e.batch; ++b) {
        // A finished row's step writes 0 at position `step` (from its length on: each once).
        const bool row_runs = running(step, b);
        const float* h = result + pack.final_hidden + e.state_at(o.d, b);
        float* y = result + e.y_at(row_runs ? time_of(step, b) : step, o.d, b);
        for (std::int32_t k = 0; k < hidden; ++k) y[k] = row_runs ? h[k] : 0.0f;
      }
  }
}

// The whole op: operands X, W, R, B, initial_h, then (LSTM) initial_c and P, then sequence_lens (float32, one
// per batch row); absent ones are not read (p->recurrent().has(k)).
template <cell C, class Params>
constexpr void run(Params p, const float* const* operands, float* result) {
  const recurrent_fields& f = p->recurrent();
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
                               f.has(lengths_operand(C)) ? operands[lengths_operand(C)] : nullptr,
                               d};
    run_direction<C>(p, e, pack, o, result);
  }
}

}  // namespace ctnn::kernel::reference::recurrent
