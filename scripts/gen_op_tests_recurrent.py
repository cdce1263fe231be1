"""Writes the op-conformance cases of ONNX's LSTM, GRU and RNN (float32) to tests/data/ops/recurrent_onnx/ (see
op_tests.py and that folder's PROVENANCE.md): each direction (forward, reverse, bidirectional), layout 0 and 1,
initial states absent, constant or graph inputs, full-length sequence_lens, clip, LSTM peepholes and
input_forget, GRU linear_before_reset 0 and 1, non-default activations, W and R as graph inputs, and Y, Y_h,
Y_c used or omitted.

The reference outputs are onnxruntime's (onnxruntime-node 1.30.0, installed outside the repository, run by
scripts/ort_run.js):

    /usr/bin/python3 scripts/gen_op_tests_recurrent.py --ort /tmp/ortnode/node_modules

Without --ort the models and inputs are rewritten and the committed outputs kept (the script stops when a model
or an input changed). Either way a float64 NumPy model of ONNX's definitions (below) is compared with the
recorded outputs and its largest relative difference printed.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from onnx import TensorProto, helper, numpy_helper

import op_tests
from gen_op_tests_qdq import run_ort

f32 = np.float32

FUNCTIONS = {"Sigmoid": lambda x: 1.0 / (1.0 + np.exp(-x)), "Tanh": np.tanh, "Relu": lambda x: np.maximum(x, 0.0)}
GATES = {"LSTM": 4, "GRU": 3, "RNN": 1}
DEFAULTS = {"LSTM": ["Sigmoid", "Tanh", "Tanh"], "GRU": ["Sigmoid", "Tanh"], "RNN": ["Tanh"]}


def reference(op, x, w, r, b, h0, c0, p, hidden, direction, layout, clip, input_forget, linear_before_reset,
              activations, lengths=None):
    """ONNX's LSTM/GRU/RNN in float64: (Y, Y_h, Y_c) in the layout's shapes (clip bounds each gate's input).
    `lengths` (sequence_lens): batch row b runs its first lengths[b] positions (reverse: from lengths[b] - 1
    down), Y is 0 past them and Y_h, Y_c hold the state after its last step (0 for a row of length 0, as
    onnxruntime writes it)."""
    if layout == 1:
        x = x.transpose(1, 0, 2)
        h0 = None if h0 is None else h0.transpose(1, 0, 2)
        c0 = None if c0 is None else c0.transpose(1, 0, 2)
    seq, batch, _ = x.shape
    dirs = 2 if direction == "bidirectional" else 1
    per = len(DEFAULTS[op])
    fns = [FUNCTIONS[a] for a in activations]
    g = GATES[op]
    clipped = (lambda v: np.clip(v, -clip, clip)) if clip is not None else (lambda v: v)
    y = np.zeros((seq, dirs, batch, hidden))
    y_h = np.zeros((dirs, batch, hidden))
    y_c = np.zeros((dirs, batch, hidden))
    for d in range(dirs):
        f_, g_, h_ = (fns[d * per:(d + 1) * per] + [None, None])[:3]
        wd, rd = w[d].astype(np.float64), r[d].astype(np.float64)
        wb = b[d][:g * hidden] if b is not None else np.zeros(g * hidden)
        rb = b[d][g * hidden:] if b is not None else np.zeros(g * hidden)
        h = h0[d].astype(np.float64) if h0 is not None else np.zeros((batch, hidden))
        c = c0[d].astype(np.float64) if c0 is not None else np.zeros((batch, hidden))
        reverse = direction == "reverse" or d == 1
        for t in (range(seq - 1, -1, -1) if reverse else range(seq)):
            step = seq - 1 - t if reverse else t  # the step's index, from 0
            if lengths is not None:  # row k runs its own positions (finished: position 0, its state kept)
                state = h.copy(), c.copy()
                xt = np.stack([x[0 if step >= lengths[k] else lengths[k] - 1 - step if reverse else step, k]
                               for k in range(batch)]).astype(np.float64)
            else:
                xt = x[t].astype(np.float64)
            if op == "LSTM":
                pre = xt @ wd.T + h @ rd.T + wb + rb
                i_, o_, f_pre, c_pre = np.split(pre, 4, axis=1)
                pi, po, pf = np.split(p[d], 3) if p is not None else (0.0, 0.0, 0.0)
                it = f_(clipped(i_ + pi * c))
                ft = 1.0 - it if input_forget else f_(clipped(f_pre + pf * c))
                c = ft * c + it * g_(clipped(c_pre))
                ot = f_(clipped(o_ + po * c))
                h = ot * h_(clipped(c))
            elif op == "GRU":
                wz, wr, wh = np.split(wd, 3)
                rz, rr, rh = np.split(rd, 3)
                wbz, wbr, wbh = np.split(wb, 3)
                rbz, rbr, rbh = np.split(rb, 3)
                z = f_(clipped(xt @ wz.T + h @ rz.T + wbz + rbz))
                rt = f_(clipped(xt @ wr.T + h @ rr.T + wbr + rbr))
                if linear_before_reset:
                    cand = g_(clipped(xt @ wh.T + rt * (h @ rh.T + rbh) + wbh))
                else:
                    cand = g_(clipped(xt @ wh.T + (rt * h) @ rh.T + rbh + wbh))
                h = (1.0 - z) * cand + z * h
            else:
                h = f_(clipped(xt @ wd.T + h @ rd.T + wb + rb))
            if lengths is None:
                y[t, d] = h
                continue
            for k in range(batch):
                if step >= lengths[k]:
                    h[k], c[k] = state[0][k], state[1][k]
                else:
                    y[lengths[k] - 1 - step if reverse else step, d, k] = h[k]
        y_h[d], y_c[d] = h, c
        if lengths is not None:
            y_h[d][np.asarray(lengths) == 0] = 0.0
            y_c[d][np.asarray(lengths) == 0] = 0.0
    if layout == 1:
        return y.transpose(2, 0, 1, 3), y_h.transpose(1, 0, 2), y_c.transpose(1, 0, 2)
    return y, y_h, y_c


def case(rng, op, *, hidden, seq, batch, inputs, direction="forward", layout=0, bias=True, h0=None, c0=None,
         peepholes=False, clip=None, input_forget=0, linear_before_reset=0, activations=None, seq_lens=False,
         outputs=("Y", "Y_h", "Y_c"), scale=0.5, weights="const"):
    """One model: h0/c0 None (absent), "const" or "input"; weights (W and R) "const" or "input"; seq_lens False
    (absent), True (a constant of the full length) or (lengths, "const" or "input"); `outputs` names those in
    use (others omitted).
    Returns the model, its feeds, and how to record it: onnxruntime runs layout 0 only, so a layout-1 case is
    recorded on its layout-0 twin (the same weights, X and the states transposed) and the outputs transposed."""
    dirs = 2 if direction == "bidirectional" else 1
    g = GATES[op]
    x_shape = (batch, seq, inputs) if layout else (seq, batch, inputs)
    state_shape = (batch, dirs, hidden) if layout else (dirs, batch, hidden)
    x = rng.uniform(-1, 1, x_shape).astype(f32)
    w = rng.uniform(-scale, scale, (dirs, g * hidden, inputs)).astype(f32)
    r = rng.uniform(-scale, scale, (dirs, g * hidden, hidden)).astype(f32)
    b = rng.uniform(-scale, scale, (dirs, 2 * g * hidden)).astype(f32) if bias else None
    states = {k: rng.uniform(-1, 1, state_shape).astype(f32) if how else None for k, how in (("h0", h0), ("c0", c0))}
    p = rng.uniform(-scale, scale, (dirs, 3 * hidden)).astype(f32) if peepholes else None
    attributes = {"hidden_size": hidden, "direction": direction}
    if clip is not None:
        attributes["clip"] = clip
    if input_forget:
        attributes["input_forget"] = input_forget
    if linear_before_reset:
        attributes["linear_before_reset"] = linear_before_reset
    if activations:
        attributes["activations"] = activations
    all_outputs = ["Y", "Y_h", "Y_c"][:3 if op == "LSTM" else 2]
    lengths, lengths_how = (np.full(batch, seq, np.int32), "const") if seq_lens is True else (
        (np.asarray(seq_lens[0], np.int32), seq_lens[1]) if seq_lens else (None, None))
    expected = reference(op, x, w, r, b, states["h0"], states["c0"], p, hidden, direction, layout, clip, input_forget,
                         linear_before_reset, activations or DEFAULTS[op] * dirs,
                         None if seq_lens is True or not seq_lens else lengths)
    used = [(o, e.astype(f32)) for o, e in zip(all_outputs, expected) if o in outputs]

    def build(layout, x, h0_value, c0_value, used):
        graph_inputs, feeds, initializers = [helper.make_tensor_value_info("X", TensorProto.FLOAT, list(x.shape))], [x], []

        def const(name, array):
            initializers.append(numpy_helper.from_array(array, name))
            return name

        def operand(name, array, how):
            if array is None:
                return ""
            if how == "input":
                element = TensorProto.INT32 if array.dtype == np.int32 else TensorProto.FLOAT
                graph_inputs.append(helper.make_tensor_value_info(name, element, list(array.shape)))
                feeds.append(array)
                return name
            return const(name, array)

        names = ["X", operand("W", w, weights), operand("R", r, weights), operand("B", b, "const"),
                 operand("sequence_lens", lengths, lengths_how) if seq_lens else "",
                 operand("initial_h", h0_value, h0)]
        if op == "LSTM":
            names += [operand("initial_c", c0_value, c0), operand("P", p, "const")]
        while names and names[-1] == "":
            names.pop()
        node_outputs = [o if o in outputs else "" for o in all_outputs]
        while node_outputs[-1] == "":
            node_outputs.pop()
        infos = [helper.make_tensor_value_info(o, TensorProto.FLOAT, list(e.shape)) for o, e in used]
        node = helper.make_node(op, names, node_outputs, **attributes, **({"layout": 1} if layout else {}))
        graph = helper.make_graph([node], op.lower(), graph_inputs, infos, initializers)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)], producer_name="ctnn")
        model.ir_version = 8
        return model.SerializeToString(), feeds, graph_inputs

    model, feeds, graph_inputs = build(layout, x, states["h0"], states["c0"], used)
    if not layout:
        return model, feeds, lambda ort: run_ort(ort, model, feeds, graph_inputs, used), [e for _, e in used]
    # The twin: sequence-major X [seq, batch, in], states [dirs, batch, hidden]; Y [seq, dirs, batch, hidden].
    swap = lambda a: None if a is None else np.ascontiguousarray(a.transpose(1, 0, 2))
    back = {"Y": (2, 0, 1, 3), "Y_h": (1, 0, 2), "Y_c": (1, 0, 2)}
    twin_used = [(o, np.ascontiguousarray(e.transpose(np.argsort(back[o])))) for o, e in used]
    twin, twin_feeds, twin_inputs = build(0, swap(x), swap(states["h0"]), swap(states["c0"]), twin_used)

    def record(ort):
        got = run_ort(ort, twin, twin_feeds, twin_inputs, twin_used)
        return [np.ascontiguousarray(y.transpose(back[o])) for (o, _), y in zip(used, got)]
    return model, feeds, record, [e for _, e in used]


def cases(rng):
    yield "lstm_forward", case(rng, "LSTM", hidden=4, seq=3, batch=2, inputs=3)
    yield "lstm_no_bias_y_only", case(rng, "LSTM", hidden=3, seq=2, batch=1, inputs=2, bias=False, outputs=("Y",))
    yield "lstm_reverse_states_in", case(rng, "LSTM", hidden=5, seq=4, batch=2, inputs=3, direction="reverse",
                                         h0="input", c0="input", outputs=("Y_h", "Y_c"))
    yield "lstm_bidirectional", case(rng, "LSTM", hidden=5, seq=4, batch=3, inputs=4, direction="bidirectional",
                                     h0="const", c0="const")
    yield "lstm_layout1_bidirectional", case(rng, "LSTM", hidden=4, seq=3, batch=2, inputs=3, layout=1,
                                             direction="bidirectional", h0="input", outputs=("Y", "Y_c"))
    yield "lstm_layout1_yh_only", case(rng, "LSTM", hidden=6, seq=5, batch=3, inputs=2, layout=1, c0="const",
                                       outputs=("Y_h",))
    yield "lstm_peepholes", case(rng, "LSTM", hidden=4, seq=5, batch=2, inputs=3, peepholes=True, h0="const",
                                 c0="const")
    yield "lstm_input_forget_clip", case(rng, "LSTM", hidden=3, seq=4, batch=2, inputs=3, input_forget=1, clip=0.7,
                                         scale=1.5)
    yield "lstm_activations", case(rng, "LSTM", hidden=4, seq=3, batch=2, inputs=3, direction="bidirectional",
                                   activations=["Relu", "Sigmoid", "Tanh", "Tanh", "Relu", "Sigmoid"], scale=0.4)
    yield "lstm_sequence_lens", case(rng, "LSTM", hidden=3, seq=3, batch=2, inputs=2, seq_lens=True,
                                     direction="reverse", peepholes=True)
    yield "lstm_hidden16", case(rng, "LSTM", hidden=16, seq=7, batch=1, inputs=11, scale=0.3)
    yield "gru_forward", case(rng, "GRU", hidden=4, seq=3, batch=2, inputs=3)
    yield "gru_linear_before_reset", case(rng, "GRU", hidden=5, seq=4, batch=2, inputs=3, linear_before_reset=1,
                                          h0="const")
    yield "gru_reverse_state_in", case(rng, "GRU", hidden=3, seq=5, batch=3, inputs=2, direction="reverse",
                                       linear_before_reset=1, h0="input", outputs=("Y_h",))
    yield "gru_layout1_bidirectional", case(rng, "GRU", hidden=4, seq=3, batch=2, inputs=5, layout=1,
                                            direction="bidirectional", h0="input", bias=False)
    yield "gru_clip_activations", case(rng, "GRU", hidden=4, seq=4, batch=1, inputs=3, clip=0.8, scale=1.5,
                                       activations=["Tanh", "Relu"], seq_lens=True)
    yield "gru_hidden16", case(rng, "GRU", hidden=16, seq=7, batch=2, inputs=9, scale=0.3, outputs=("Y",))
    yield "rnn_forward", case(rng, "RNN", hidden=4, seq=3, batch=2, inputs=3)
    yield "rnn_reverse_relu", case(rng, "RNN", hidden=5, seq=4, batch=1, inputs=3, direction="reverse",
                                   activations=["Relu"], h0="input", scale=0.4)
    yield "rnn_layout1_bidirectional", case(rng, "RNN", hidden=3, seq=5, batch=3, inputs=2, layout=1,
                                            direction="bidirectional", activations=["Sigmoid", "Relu"],
                                            h0="const", outputs=("Y_h",))
    yield "rnn_clip", case(rng, "RNN", hidden=7, seq=6, batch=2, inputs=4, clip=0.5, scale=1.5, bias=False)
    yield "lstm_weights_in", case(rng, "LSTM", hidden=4, seq=3, batch=2, inputs=3, direction="bidirectional",
                                  weights="input", h0="input", peepholes=True)
    # sequence_lens shorter than the sequence: a graph input (torch's pack_padded_sequence) or a constant.
    yield "lstm_lengths_input_bidirectional", case(rng, "LSTM", hidden=5, seq=6, batch=3, inputs=4,
                                                   direction="bidirectional", seq_lens=([6, 3, 0], "input"),
                                                   h0="input", c0="input")
    yield "gru_lengths_layout1_reverse", case(rng, "GRU", hidden=4, seq=5, batch=3, inputs=3, layout=1,
                                              direction="reverse", seq_lens=([2, 0, 4], "input"), h0="const")
    yield "gru_lengths_const_linear_before_reset", case(rng, "GRU", hidden=16, seq=10, batch=2, inputs=5,
                                                        linear_before_reset=1, seq_lens=([7, 10], "const"),
                                                        direction="bidirectional", scale=0.3)
    yield "rnn_lengths_input_relu", case(rng, "RNN", hidden=6, seq=4, batch=4, inputs=3, activations=["Relu"],
                                         seq_lens=([1, 4, 0, 3], "input"), h0="input", outputs=("Y_h",), scale=0.4)


def refused_models(rng) -> dict[str, bytes]:
    """Models the importer refuses, each with a diagnostic naming the node and the problem
    (tests/frontend/onnx/CMakeLists.txt, onnx_run_rejects_recurrent_*): sequence_lens of type int64 (ONNX's is int32),
    an activation ctnn does not run, activation_alpha."""
    def model(op, name, *, lengths_input=False, **attributes):
        gates, hidden, seq, batch, inputs = GATES[op], 3, 3, 2, 2
        graph_inputs = [helper.make_tensor_value_info("X", TensorProto.FLOAT, [seq, batch, inputs])]
        initializers = [numpy_helper.from_array(rng.uniform(-1, 1, (1, gates * hidden, k)).astype(f32), n)
                        for n, k in (("W", inputs), ("R", hidden))]
        names = ["X", "W", "R"]
        if lengths_input:
            graph_inputs.append(helper.make_tensor_value_info("sequence_lens", TensorProto.INT64, [batch]))
            names += ["", "sequence_lens"]
        node = helper.make_node(op, names, ["Y"], name=name, hidden_size=hidden, **attributes)
        y = helper.make_tensor_value_info("Y", TensorProto.FLOAT, [seq, 1, batch, hidden])
        graph = helper.make_graph([node], name, graph_inputs, [y], initializers)
        m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)], producer_name="ctnn")
        m.ir_version = 8
        return m.SerializeToString()
    return {
        "recurrent_sequence_lens_int64": model("GRU", "gru", lengths_input=True),
        "recurrent_activation": model("GRU", "gru", activations=["HardSigmoid", "Tanh"]),
        "recurrent_activation_alpha": model("RNN", "rnn", activations=["Tanh"], activation_alpha=[0.5]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ort", type=Path, help="node_modules folder holding onnxruntime-node 1.30.0")
    args = parser.parse_args()
    family = op_tests.Family("recurrent_onnx", None)
    for name, (model, feeds, record, expected) in cases(np.random.RandomState(27)):
        folder = family.dir / name
        if args.ort:
            recorded = record(args.ort)
        else:
            recorded = [np.fromfile(folder / f"output_{k}.bin", f32).reshape(y.shape) for k, y in enumerate(expected)]
        family.write_computed_case(name, "model.onnx", model, feeds, recorded)
        if not args.ort and family.committed.get(name) != family.digests[name]:
            raise SystemExit(f"{folder}: the model or inputs changed: re-run with --ort to record the outputs")
        worst = max(float(np.max(np.abs(r - e) / (np.abs(e) + 1e-6))) for r, e in zip(recorded, expected))
        print(f"{name}: NumPy float64 model vs recorded outputs: max relative {worst:.2e}")
    family.finish()
    refused = op_tests.OPS_DIR.parent / "onnx" / "bad_recurrent"
    refused.mkdir(exist_ok=True)
    for name, model in refused_models(np.random.RandomState(28)).items():
        (refused / f"{name}.onnx").write_bytes(model)


if __name__ == "__main__":
    main()
