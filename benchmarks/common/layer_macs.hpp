#pragma once
// Multiply-accumulates of a compiled model's kernel calls, shared by the host kernel benchmarks
// (benchmarks/kernels) and the Cortex-M benchmark (benchmarks/cortex_m). Plain constexpr code over the
// module's kernel parameters: it builds for bare metal too.
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/recurrent.hpp>

namespace ctnn_bench {

// Multiply-accumulates of one kernel call, counted as MLPerf Tiny does: every window tap of every output
// element, padding included (conv2d: kh*kw*in_channels/groups per output, depthwise: kh*kw, dense:
// the input features; transpose_conv2d: kh*kw*out_channels/groups per input element, the taps that land
// outside the result included; lstm, gru, rnn: every gate row dotted with the input and the hidden state, per step and
// direction; svdf: every filter dotted with the input and with its memory; sequence_lstm: every gate row dotted with
// the input and the output state, per step and batch row, and the projection's products). Other op kinds count 0.
constexpr std::int64_t macs_of(const ctnn::kernel_params& p) {
  const std::int64_t taps = static_cast<std::int64_t>(p.win.kernel_h) * p.win.kernel_w;
  switch (p.kind) {
    case ctnn::op_kind::conv2d:  // (ONNX's integer conv in its own layout, data_layout::onnx: NCHW)
      return p.out.elements() * taps * ((p.onnx.layout == ctnn::data_layout::onnx ? p.in[1] : p.in[3]) / p.groups);
    case ctnn::op_kind::depthwise_conv2d: return p.out.elements() * taps;
    case ctnn::op_kind::dense: return p.out.elements() * (p.in.elements() / p.out[0]);
    case ctnn::op_kind::transpose_conv2d: return p.in.elements() * taps * (p.out[3] / p.groups);
    case ctnn::op_kind::lstm:
    case ctnn::op_kind::gru:
    case ctnn::op_kind::rnn: {
      namespace recurrent = ctnn::kernel::reference::recurrent;
      const recurrent::extents e(p.in, p.recurrent());
      const recurrent::cell c = p.kind == ctnn::op_kind::lstm ? recurrent::cell::lstm
                                : p.kind == ctnn::op_kind::gru ? recurrent::cell::gru
                                                               : recurrent::cell::rnn;
      return std::int64_t{e.seq} * e.directions * e.batch * recurrent::gate_count(c) * e.hidden * (e.input + e.hidden);
    }
    case ctnn::op_kind::svdf: return std::int64_t{p.in[0]} * p.in2[0] * (p.in[1] + p.in3[1]);
    case ctnn::op_kind::sequence_lstm: {  // ops::sequence_lstm::macs, from the call's extents (in2: the input weights')
      const std::int64_t rows = p.out.elements() / p.out[2], gate_rows = p.in2[0], cells = gate_rows / p.sequence_lstm().gates();
      const std::int64_t projection = p.sequence_lstm().projection != 0 ? cells * p.out[2] : 0;
      return rows * (gate_rows * (p.in[2] + p.out[2]) + projection);
    }
    default: return 0;
  }
}

template <class Net>
constexpr std::int64_t model_macs() {
  std::int64_t total = 0;
  for (std::size_t c = 0; c < Net::call_count; ++c) total += macs_of(Net::module.calls[c].params);
  return total;
}

}  // namespace ctnn_bench
