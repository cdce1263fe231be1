#pragma once
// lstm, gru, rnn: ONNX's LSTM, GRU and RNN on float32 (attrs.recurrent(); the kernels in
// kernel/reference/recurrent.hpp). An IR node has one result, so the op's is packed: Y (when an output reads
// it), then the final hidden state Y_h, the final cell state Y_c (lstm), then the gate scratch of one step, in
// one 1-D tensor; the ONNX importer reads Y, Y_h and Y_c out of it with slices (Y, first, is a view). Operands:
// X, W, R, B, initial_h, then (lstm) initial_c and P, then sequence_lens, in ONNX's shapes but for W and R,
// which are k-major (ONNX's transposed: [dirs, input, gates * hidden], [dirs, hidden, gates * hidden]), and
// sequence_lens, float32 (the importer casts ONNX's int32: the kernel reads every operand as float); B, the
// states, P and sequence_lens optional (-1).
#include <cstddef>
#include <cstdint>

#include <ctnn/kernel/reference/recurrent.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

template <op_kind K, kernel::reference::recurrent::cell C>
struct recurrent_op : op_defaults {
  static constexpr op_kind kind = K;
  static constexpr kernel::reference::recurrent::cell cell = C;
  static constexpr std::int32_t gates = kernel::reference::recurrent::gate_count(C);
  static constexpr std::int32_t operand_count = kernel::reference::recurrent::lengths_operand(C) + 1;
  static constexpr operand_range operands{3, operand_count};
  static constexpr std::size_t operands_read(const kernel_params&) { return operand_count; }
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32; }

  // The extents ONNX gives operand k, from X's and hidden_size.
  static constexpr shape expected_shape(std::int32_t k, const kernel::reference::recurrent::extents& e) {
    const std::int32_t h = e.hidden, dirs = e.directions, panel = e.panel_columns(gates);
    const std::int32_t panels = panel > 0 && gates * h % panel == 0 ? dirs * (gates * h / panel) : -1;
    if (k == kernel::reference::recurrent::lengths_operand(C)) return make_shape(e.batch);
    switch (k) {
      case 1: return make_shape(panels, e.input, panel);  // k-major panels: ONNX's W and R transposed
      case 2: return make_shape(panels, h, panel);
      case 3: return make_shape(dirs, 2 * gates * h);
      case 6: return make_shape(dirs, 3 * h);
      default: return e.batch_major ? make_shape(e.batch, dirs, h) : make_shape(dirs, e.batch, h);  // the states
    }
  }
  // X of rank 3, every given operand float32 in ONNX's shape for it; the result is the packed tensor.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const shape x = m.tensor_at(n.inputs[0]).dims;
    const recurrent_fields& f = n.attrs.recurrent();
    if (x.rank != 3 || f.hidden < 1 || x.elements() < 1) {
      m.fail({error_code::input_shapes_differ, node_id, n.kind, make_shape(0, 0, 0), x, {.input_slot = 0}});
      return x;
    }
    const kernel::reference::recurrent::extents e(x, f);
    for (std::int32_t k = 1; k < n.input_count; ++k) {
      const std::int32_t id = n.inputs[static_cast<std::size_t>(k)];
      if (id < 0 && k > 2) continue;
      const shape want = expected_shape(k, e);
      if (id < 0 || m.tensor_at(id).dims != want || m.tensor_at(id).type != m.tensor_at(n.inputs[0]).type) {
        m.fail({error_code::input_shapes_differ, node_id, n.kind, want, id < 0 ? shape{} : m.tensor_at(id).dims,
                {.input_slot = static_cast<std::uint32_t>(k)}});
        return x;
      }
    }
    const std::int64_t total = kernel::reference::recurrent::packing(C, e, f.writes_sequence != 0).total;
    if (total >= (std::int64_t{1} << 28)) {  // past what a tensor's int32 extents and byte offsets hold
      m.fail({error_code::input_shapes_differ, node_id, n.kind, make_shape(0, 0, 0), x, {.input_slot = 0}});
      return x;
    }
    return make_shape(static_cast<std::int32_t>(total));
  }
  // Its fields, and which optional operands the node has.
  template <class Module>
  static constexpr void prepare(const Module&, const node& n, kernel_params& p) {
    recurrent_fields f = n.attrs.recurrent();
    f.present = 0;
    for (std::int32_t k = 0; k < n.input_count; ++k)
      if (n.inputs[static_cast<std::size_t>(k)] >= 0) f.present |= 1u << k;
    p.set(f);
  }
  // Per step and direction, every gate row dotted with the input and the hidden state.
  template <class Module>
  static constexpr std::int64_t macs(const Module& m, const node& n, const shape&) {
    const kernel::reference::recurrent::extents e(m.tensor_at(n.inputs[0]).dims, n.attrs.recurrent());
    return std::int64_t{e.seq} * e.directions * e.batch * gates * e.hidden * (e.input + e.hidden);
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::recurrent::run<C>(p, operands, result);
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    put_fields(w, a.recurrent());
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    put_fields(w, p.recurrent());
  }
  template <class Writer>
  static void put_fields(Writer& w, const recurrent_fields& f) {
    constexpr const char* directions[] = {"forward", "reverse", "bidirectional"};
    w.field("  hidden ", f.hidden);
    w.put(" ");
    w.put(directions[static_cast<std::size_t>(f.direction)]);
    if (f.batch_major != 0) w.put(" batch-major");
    if (f.clipped != 0) w.real_field(" clip ", f.clip());
    if (f.input_forget != 0) w.put(" input-forget");
    if (f.linear_before_reset != 0) w.put(" linear-before-reset");
    if (f.writes_sequence == 0) w.put(" final-state-only");
    w.put(" activations");
    constexpr std::int32_t per_direction = C == kernel::reference::recurrent::cell::lstm ? 3 : C == kernel::reference::recurrent::cell::gru ? 2 : 1;
    for (std::int32_t k = 0; k < per_direction * f.directions(); ++k) {
      w.put(" ");
      w.put(name_of(f.functions[static_cast<std::size_t>(k)]));
    }
  }
};

struct lstm : recurrent_op<op_kind::lstm, kernel::reference::recurrent::cell::lstm> {};
struct gru : recurrent_op<op_kind::gru, kernel::reference::recurrent::cell::gru> {};
struct rnn : recurrent_op<op_kind::rnn, kernel::reference::recurrent::cell::rnn> {};

}  // namespace ctnn::ops
