#!/usr/bin/env python3
"""Writes the op-conformance cases of the state family: tests/data/ops/state/<case>/ with model.tflite,
input_<k>.bin, output_<k>.bin and, for a case run several times, `invocations` (the state carries from one run
to the next; the outputs are the last run's). PROVENANCE.md in that folder says what produced each file.

  TFLite ops: SVDF (float32; int8 with int16 and with int8 time weights and state), its activation state a
  variable tensor; UNIDIRECTIONAL_SEQUENCE_LSTM (float32: batch-major and time-major, cell_clip; int8 in TFLM's
  8x8_16 form, with an int16 cell state), its output and cell states variable tensors; resource variables
  (VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE; CALL_ONCE of an init subgraph that assigns constants: a second
  subgraph), float32 and int8; outputs from TensorFlow Lite Micro's reference kernels, the host oracle tflm_run run
  with --invoke N, only with --tflm (the resource-variable cases: --tflm-resource-variables, a tflm_run whose
  interpreter has MicroResourceVariables): without it the committed outputs are kept. With --tflm the script also checks each float LSTM case against its own float64
  evaluation of TFLM's kernel (lstm_reference) and that a case run several times gives another output than one
  run (the state carries).

Deterministic: every input comes from a fixed seed, so re-running reproduces every file byte for byte.

Usage: /usr/bin/python3 scripts/gen_op_tests_state.py [--tflm /work/oracle/tflm/tflm_run]
           [--tflm-resource-variables <tflm_run built with resource variables>]
"""
import argparse
import sys

import numpy as np

import op_tests
from op_tests import tfl

tfl.OPS.update({"SVDF": 27, "UNIDIRECTIONAL_SEQUENCE_LSTM": 44, "CALL_ONCE": 129, "VAR_HANDLE": 142,
                "READ_VARIABLE": 143, "ASSIGN_VARIABLE": 144, "WHILE": 119, "SLICE": 65})
tfl.OPTIONS.update({"SVDF": 6, "UNIDIRECTIONAL_SEQUENCE_LSTM": 71, "CALL_ONCE": 103, "VAR_HANDLE": 111,
                    "READ_VARIABLE": 112, "ASSIGN_VARIABLE": 113})
_base_options_table = tfl.options_table


def _options_table(code, o, va):
    if code == "CALL_ONCE":
        return tfl.Table({0: ("i32", o["init_subgraph_index"])}, va)
    if code == "VAR_HANDLE":  # container, shared_name
        return tfl.Table({k: ("str", o[key]) for k, key in enumerate(("container", "shared_name")) if key in o}, va)
    if code in ("READ_VARIABLE", "ASSIGN_VARIABLE"):
        return tfl.Table({}, va)
    if code == "SVDF":
        return tfl.Table({0: ("i32", o["rank"]), 1: ("i8", tfl.ACT[o.get("act")])}, va)
    if code == "UNIDIRECTIONAL_SEQUENCE_LSTM":
        return tfl.Table({0: ("i8", tfl.ACT[o.get("act", "TANH")]), 1: ("f32", o.get("cell_clip", 0.0)),
                          2: ("f32", o.get("proj_clip", 0.0)), 3: ("bool", 1 if o.get("time_major") else 0)}, va)
    return _base_options_table(code, o, va)


tfl.options_table = _options_table

F32 = np.float32


def quant(scale, zero_point=0):
    return {"scale": [scale], "zero_point": [zero_point]}


def svdf_f32(rng, batch, inputs, filters, rank, memory, bias=True, act=None):
    """A float32 SVDF: the model and its input."""
    m = tfl.Model()
    x = m.tensor("input", [batch, inputs])
    features = m.tensor("weights_feature", [filters, inputs], data=rng.uniform(-1, 1, (filters, inputs)).astype(F32))
    time = m.tensor("weights_time", [filters, memory], data=rng.uniform(-1, 1, (filters, memory)).astype(F32))
    b = m.tensor("bias", [filters // rank], data=rng.uniform(-1, 1, filters // rank).astype(F32)) if bias else -1
    state = m.tensor("activation_state", [batch, memory * filters], variable=True)
    y = m.tensor("output", [batch, filters // rank])
    m.op("SVDF", [x, features, time, b, state], [y], rank=rank, act=act)
    m.inputs, m.outputs = [x], [y]
    return m, [rng.uniform(-2, 2, (batch, inputs)).astype(F32)]


def real_svdf(x, features, time, bias, rank, runs):
    """SVDF in float64 on real values, `runs` times from a zero state: the result's magnitude sets the int8
    cases' output scale (so that TFLM's outputs do not all saturate)."""
    batch, filters, memory = x.shape[0], features.shape[0], time.shape[1]
    state = np.zeros((batch, filters, memory))
    for _ in range(runs):
        state = np.roll(state, -1, axis=2)
        state[:, :, -1] = x @ features.T
        y = (state * time).sum(axis=2).reshape(batch, filters // rank, rank).sum(axis=2) + bias
    return y


def svdf_int8(rng, batch, inputs, filters, rank, memory, state_type, scales, zero_points, runs=1, bias=True):
    """An int8 SVDF with int16 or int8 time weights and state. scales: input, feature weights, state, time
    weights (the output's: from the real result's range, real_svdf); zero_points: input, state, output."""
    s_in, s_features, s_state, s_time = scales
    z_in, z_state, z_out = zero_points
    state_np = np.int16 if state_type == tfl.INT16 else np.int8
    limit = np.iinfo(state_np).max
    units = filters // rank
    x_q = op_tests.int8_range(rng, (batch, inputs), z_in)
    features_q = op_tests.int8_range(rng, (filters, inputs))
    time_q = rng.randint(-limit, limit + 1, (filters, memory)).astype(state_np)
    bias_q = rng.randint(-(1 << 12), 1 << 12, units).astype(np.int32)
    y = real_svdf(s_in * (x_q.astype(np.float64) - z_in), s_features * features_q.astype(np.float64),
                  s_time * time_q.astype(np.float64), s_state * s_time * bias_q, rank, runs)
    s_out = float(np.abs(y).max()) / 100
    m = tfl.Model()
    x = m.tensor("input", [batch, inputs], tfl.INT8, quant=quant(s_in, z_in))
    features = m.tensor("weights_feature", [filters, inputs], tfl.INT8, data=features_q, quant=quant(s_features))
    time = m.tensor("weights_time", [filters, memory], state_type, data=time_q, quant=quant(s_time))
    b = m.tensor("bias", [units], tfl.INT32, data=bias_q, quant=quant(s_state * s_time)) if bias else -1
    state = m.tensor("activation_state", [batch, memory * filters], state_type, quant=quant(s_state, z_state),
                     variable=True)
    y = m.tensor("output", [batch, units], tfl.INT8, quant=quant(s_out, z_out))
    m.op("SVDF", [x, features, time, b, state], [y], rank=rank)
    m.inputs, m.outputs = [x], [y]
    return m, [x_q]


# UNIDIRECTIONAL_SEQUENCE_LSTM's operands (TFLite's lstm_shared.h): the input, the input and recurrent weights of
# the input, forget, cell and output gates, 3 peepholes, 4 biases, projection weights and bias, the output and cell
# states, 4 layer-norm coefficients.
LSTM_GATES = ("input", "forget", "cell", "output")


def lstm_f32(rng, batch, steps, features, cells, time_major=False, cell_clip=0.0, scale=0.5, cifg=False,
             peephole=False, outputs=None, projection_bias=False, proj_clip=0.0):
    """A float32 UNIDIRECTIONAL_SEQUENCE_LSTM (no layer norm; TFLM runs it without peepholes, CIFG and projection;
    `outputs`: a projection of the cells to that many outputs): the model and its input. Weights uniform in
    [-scale, scale], the input in [-1, 1]."""
    width = outputs or cells
    m = tfl.Model()
    dims = [steps, batch, features] if time_major else [batch, steps, features]
    x = m.tensor("input", dims)
    operands = [x]

    def gate_tensors(kind, shape, gates):
        return [m.tensor(f"{kind}_{gate}_weights", shape, data=rng.uniform(-scale, scale, shape).astype(F32))
                if gate in gates else -1 for gate in LSTM_GATES]
    present = LSTM_GATES[1:] if cifg else LSTM_GATES
    operands += gate_tensors("input_to", [cells, features], present)
    operands += gate_tensors("recurrent_to", [cells, width], present)
    peepholes = gate_tensors("cell_to", [cells], [g for g in present if g != "cell"] if peephole else [])
    operands += [peepholes[0], peepholes[1], peepholes[3]]  # TFLite's: input, forget, output
    for gate in LSTM_GATES:
        operands.append(m.tensor(f"{gate}_gate_bias", [cells], data=rng.uniform(-scale, scale, cells).astype(F32))
                        if gate in present else -1)
    operands.append(m.tensor("projection_weights", [outputs, cells],
                             data=rng.uniform(-scale, scale, (outputs, cells)).astype(F32)) if outputs else -1)
    operands.append(m.tensor("projection_bias", [outputs], data=rng.uniform(-scale, scale, outputs).astype(F32))
                    if outputs and projection_bias else -1)
    operands.append(m.tensor("output_state", [batch, width], variable=True))
    operands.append(m.tensor("cell_state", [batch, cells], variable=True))
    operands += [-1] * 4
    y = m.tensor("output", dims[:2] + [width])
    m.op("UNIDIRECTIONAL_SEQUENCE_LSTM", operands, [y], act="TANH", cell_clip=cell_clip, time_major=time_major,
         proj_clip=proj_clip)
    m.inputs, m.outputs = [x], [y]
    return m, [rng.uniform(-1, 1, dims).astype(F32)]


def lstm_two_layers(rng, batch, steps, features, cells):
    """Two float32 LSTMs in a row, as Keras's LSTM(return_sequences=True) twice converts (the firmware form):
    the model and its input; the first layer's cells feed the second's input."""
    first, inputs = lstm_f32(rng, batch, steps, features, cells)
    second, _ = lstm_f32(rng, batch, steps, cells, cells)
    m = first
    offset = len(m.tensors)
    # The second layer's tensors after the first's (its own input tensor unused: it reads the first's output).
    for t in second.tensors:
        t = dict(t)
        m.buffers.append(second.buffers[t["buffer"]])
        t["buffer"] = len(m.buffers) - 1
        t["name"] = "layer2_" + t["name"]
        m.tensors.append(t)
    op = second.ops[0]
    renumber = lambda i: -1 if i < 0 else (m.outputs[0] if i == second.inputs[0] else i + offset)  # noqa: E731
    m.op(op["code"], [renumber(i) for i in op["inputs"]], [renumber(i) for i in op["outputs"]], **op["options"])
    m.outputs = [renumber(second.outputs[0])]
    return m, inputs


def lstm_reference(model, x, runs):
    """TFLite's float LSTM (TFLM's lstm_eval.h; with peepholes, CIFG and projection, TFLite's lstm_eval.cc: the
    peepholes add the old cell state times their weights to the input and forget gates, the new one to the output
    gate; CIFG's input gate is 1 - the forget gate; the projection maps tanh(c) * o to the output state, plus its
    bias, clipped to proj_clip) in float64, `runs` times from zero states: the last run's output."""
    op = model.ops[0]
    operand = [None if i < 0 else np.frombuffer(model.buffers[model.tensors[i]["buffer"]] or b"", F32).astype(np.float64)
               for i in op["inputs"]]
    cells = model.tensors[op["inputs"][2]]["shape"][0]
    features = x.shape[2]
    projection, projection_bias = operand[16], operand[17]
    outputs = cells if projection is None else projection.size // cells
    w = [None if operand[1 + g] is None else operand[1 + g].reshape(cells, features) for g in range(4)]
    r = [None if operand[5 + g] is None else operand[5 + g].reshape(cells, outputs) for g in range(4)]
    b = [operand[12 + g] for g in range(4)]
    p = [operand[9], operand[10], None, operand[11]]  # per gate: input, forget, (cell: none), output
    time_major, clip = op["options"].get("time_major", False), op["options"].get("cell_clip", 0.0)
    proj_clip = op["options"].get("proj_clip", 0.0)
    seq = x.astype(np.float64) if time_major else x.astype(np.float64).transpose(1, 0, 2)  # [time, batch, features]
    h = np.zeros((seq.shape[1], outputs))
    c = np.zeros((seq.shape[1], cells))
    sigmoid = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    for _ in range(runs):
        out = []
        for xt in seq:
            pre = [None if w[g] is None else xt @ w[g].T + b[g] + h @ r[g].T for g in range(4)]
            for g in (0, 1):
                if p[g] is not None:
                    pre[g] = pre[g] + p[g] * c
            forget = sigmoid(pre[1])
            c = forget * c + (1 - forget if w[0] is None else sigmoid(pre[0])) * np.tanh(pre[2])
            if clip > 0:
                c = np.clip(c, -clip, clip)
            if p[3] is not None:
                pre[3] = pre[3] + p[3] * c
            h = np.tanh(c) * sigmoid(pre[3])
            if projection is not None:
                h = h @ projection.reshape(outputs, cells).T + (0 if projection_bias is None else projection_bias)
                if proj_clip > 0:
                    h = np.clip(h, -proj_clip, proj_clip)
            out.append(h)
        y = np.stack(out)
    return y if time_major else y.transpose(1, 0, 2)


def write_lstm_case(family, tflm, case, model, inputs, invocations=1):
    """An LSTM case, checked with the oracle: TFLM's output within 1e-5 of lstm_reference, and (several runs)
    not the output of one run."""
    family.write_case(case, model, inputs, invocations)
    if tflm is None:
        return
    got = np.fromfile(family.dir / case / "output_0.bin", F32).reshape(model.tensors[model.outputs[0]]["shape"])
    if len(model.ops) == 1:  # (lstm_reference evaluates one op)
        want = lstm_reference(model, inputs[0], invocations)
        if not np.allclose(got, want, rtol=1e-5, atol=1e-6):
            sys.exit(f"{case}: TFLM's output differs from lstm_reference by {np.abs(got - want).max()}")
    if invocations > 1:
        once, _ = tfl.run_tflm(tflm, family.dir / case / "model.tflite", list(inputs), [F32], 1)
        if np.allclose(once[0].reshape(got.shape), got, rtol=1e-3):
            sys.exit(f"{case}: {invocations} runs give the output of one: the state does not carry")


def write_lstm_computed_case(family, case, model, inputs, invocations=1):
    """An LSTM case TFLM refuses (peepholes, CIFG): lstm_reference's outputs, rounded to float32."""
    y = lstm_reference(model, inputs[0], invocations).astype(F32)
    family.write_computed_case(case, "model.tflite", model.serialize(), [np.ascontiguousarray(inputs[0])], [y],
                               invocations)


def lstm_int8(rng, batch, steps, features, cells, time_major=False, cell_clip=0.0, input_zero_point=0,
              hidden=(1 / 128, 0), cell_power=11, weight_range=(0.002, 0.01)):
    """An int8 UNIDIRECTIONAL_SEQUENCE_LSTM in TFLM's 8x8_16 form: int8 input, weights and output state, int32
    biases (scale: the input's times the gate's input weights'), an int16 cell state of scale 2^-cell_power; each of
    the 8 weights its own scale, drawn from `weight_range`; the output quantized as the output state (hidden:
    scale, zero point). The model and its input."""
    m = tfl.Model()
    dims = [steps, batch, features] if time_major else [batch, steps, features]
    s_in = 0.02
    x = m.tensor("input", dims, tfl.INT8, quant=quant(s_in, input_zero_point))
    operands = [x]
    input_scales = {}
    for kind, width in (("input_to", features), ("recurrent_to", cells)):
        for gate in LSTM_GATES:
            scale = float(rng.uniform(*weight_range))
            if kind == "input_to":
                input_scales[gate] = scale
            operands.append(m.tensor(f"{kind}_{gate}_weights", [cells, width], tfl.INT8,
                                     data=op_tests.int8_range(rng, (cells, width)), quant=quant(scale)))
    operands += [-1] * 3
    for gate in LSTM_GATES:
        operands.append(m.tensor(f"{gate}_gate_bias", [cells], tfl.INT32,
                                 data=rng.randint(-(1 << 14), 1 << 14, cells).astype(np.int32),
                                 quant=quant(s_in * input_scales[gate])))
    operands += [-1] * 2
    operands.append(m.tensor("output_state", [batch, cells], tfl.INT8, quant=quant(*hidden), variable=True))
    operands.append(m.tensor("cell_state", [batch, cells], tfl.INT16, quant=quant(2.0 ** -cell_power), variable=True))
    operands += [-1] * 4
    y = m.tensor("output", dims[:2] + [cells], tfl.INT8, quant=quant(*hidden))
    m.op("UNIDIRECTIONAL_SEQUENCE_LSTM", operands, [y], act="TANH", cell_clip=cell_clip, time_major=time_major)
    m.inputs, m.outputs = [x], [y]
    return m, [op_tests.int8_range(rng, dims, input_zero_point)]


def write_lstm_int8_case(family, tflm, case, model, inputs, invocations=1):
    """An int8 LSTM case (TFLM's outputs); with the oracle, checked (several runs) not to give one run's output."""
    family.write_case(case, model, inputs, invocations)
    if tflm is not None and invocations > 1:
        got = np.fromfile(family.dir / case / "output_0.bin", np.int8)
        once, _ = tfl.run_tflm(tflm, family.dir / case / "model.tflite", list(inputs), [np.int8], 1)
        if np.array_equal(once[0], got):
            sys.exit(f"{case}: {invocations} runs give the output of one: the state does not carry")


# Resource variables (TF's tf.Variable as TFLite converts it): VAR_HANDLE names a variable (container, shared_name)
# and gives a RESOURCE tensor, READ_VARIABLE copies the variable into its output, ASSIGN_VARIABLE copies its value
# into it; the converter emits a VAR_HANDLE before each use. CALL_ONCE runs an init subgraph (VAR_HANDLE + a constant
# -> ASSIGN_VARIABLE) at the first invocation; without one a variable starts at its zero point (TFLM's Allocate).
def variable(m, name, container="", dims=None):
    """A VAR_HANDLE of `name` in subgraph m: its RESOURCE tensor."""
    handle = m.tensor(f"{name}_handle_{len(m.tensors)}", dims or [], tfl.RESOURCE)
    m.op("VAR_HANDLE", [], [handle], container=container, shared_name=name)
    return handle


def read_variable(m, name, shape, dtype=tfl.FLOAT32, q=None):
    out = m.tensor(f"read_{name}_{len(m.tensors)}", shape, dtype, quant=q)
    m.op("READ_VARIABLE", [variable(m, name)], [out])
    return out


def assign_variable(m, name, value):
    m.op("ASSIGN_VARIABLE", [variable(m, name), value], [])


def init_subgraph(m, values):
    """CALL_ONCE of a new subgraph that assigns each variable its constant ({name: (array, dtype, quant)}), as the
    first op of m."""
    init = m.add_subgraph("init")
    for name, (array, dtype, q) in values.items():
        constant = init.tensor(f"{name}_initial", list(array.shape), dtype, data=array, quant=q)
        assign_variable(init, name, constant)
    m.ops.insert(0, dict(code="CALL_ONCE", inputs=[], outputs=[], options=dict(init_subgraph_index=len(m.subgraphs))))


def accumulator_f32(rng, shape, initial=False):
    """sum = x + READ(acc); ASSIGN(acc, sum); output sum: the running sum of the inputs (from `initial` values, else
    0), and a second variable that keeps the previous input (read before its assignment, its read after the
    accumulator's: two outputs, sum - previous x)."""
    m = tfl.Model(new_opcodes=True)  # codes above 127
    x = m.tensor("input", shape)
    acc = read_variable(m, "acc", shape)
    total = m.tensor("sum", shape)
    m.op("ADD", [x, acc], [total])
    assign_variable(m, "acc", total)
    again = read_variable(m, "acc", shape)  # after the assignment: this run's sum
    previous = read_variable(m, "previous", shape)
    assign_variable(m, "previous", x)
    delta = m.tensor("delta", shape)
    m.op("SUB", [again, previous], [delta])
    m.inputs, m.outputs = [x], [total, delta]
    if initial:
        init_subgraph(m, {"acc": (rng.uniform(-3, 3, shape).astype(F32), tfl.FLOAT32, None),
                          "previous": (rng.uniform(-1, 1, shape).astype(F32), tfl.FLOAT32, None)})
    return m, [rng.uniform(-1, 1, shape).astype(F32)]


def streaming_buffer_i8(rng, frames, features, zero_point, initial=False):
    """An int8 streaming buffer of the last `frames` frames ([1, frames, features], a variable): each run drops the
    oldest frame (SLICE), appends the input frame (CONCATENATION), assigns the buffer, and outputs its MEAN over the
    frames (a running average) and the buffer itself. One quantization throughout (zero point `zero_point`: the
    buffer starts there without CALL_ONCE, at `initial` values with it)."""
    q = quant(0.05, zero_point)
    m = tfl.Model(new_opcodes=True)  # codes above 127
    x = m.tensor("input", [1, 1, features], tfl.INT8, quant=q)
    buffer = read_variable(m, "buffer", [1, frames, features], tfl.INT8, q)
    begin = m.tensor("begin", [3], tfl.INT32, data=np.array([0, 1, 0], np.int32))
    size = m.tensor("size", [3], tfl.INT32, data=np.array([1, frames - 1, features], np.int32))
    tail = m.tensor("tail", [1, frames - 1, features], tfl.INT8, quant=q)
    m.op("SLICE", [buffer, begin, size], [tail])
    updated = m.tensor("updated", [1, frames, features], tfl.INT8, quant=q)
    m.op("CONCATENATION", [tail, x], [updated], axis=1)
    assign_variable(m, "buffer", updated)
    axes = m.tensor("axes", [1], tfl.INT32, data=np.array([1], np.int32))
    average = m.tensor("average", [1, 1, features], tfl.INT8, quant=q)
    m.op("MEAN", [updated, axes], [average], keep_dims=True)
    m.inputs, m.outputs = [x], [average, updated]
    if initial:
        init_subgraph(m, {"buffer": (op_tests.int8_range(rng, (1, frames, features)), tfl.INT8, q)})
    return m, [op_tests.int8_range(rng, (1, 1, features), zero_point)]


def accumulator_i8(rng, shape, initial=False):
    """int8 x + READ(acc) -> ASSIGN(acc), output the sum (TFLM's int8 ADD, saturating), in one quantization."""
    q = quant(0.1, -7)
    m = tfl.Model(new_opcodes=True)  # codes above 127
    x = m.tensor("input", shape, tfl.INT8, quant=q)
    acc = read_variable(m, "acc", shape, tfl.INT8, q)
    total = m.tensor("sum", shape, tfl.INT8, quant=q)
    m.op("ADD", [x, acc], [total])
    assign_variable(m, "acc", total)
    m.inputs, m.outputs = [x], [total]
    if initial:
        init_subgraph(m, {"acc": (op_tests.int8_range(rng, shape, -7), tfl.INT8, q)})
    return m, [rng.randint(-30, 30, shape).astype(np.int8)]


def write_resource_case(family, tflm, case, model, inputs, invocations):
    """A resource-variable case (TFLM's outputs, resource variables enabled); with the oracle, checked to give another
    output than one run (the variables carry)."""
    family.write_case(case, model, inputs, invocations)
    if tflm is None:
        return
    dtype = tfl.NP_TYPES[model.tensors[model.outputs[0]]["type"]]
    got = np.fromfile(family.dir / case / "output_0.bin", dtype)
    once, _ = tfl.run_tflm(tflm, family.dir / case / "model.tflite", list(inputs), [dtype], 1)
    if np.array_equal(once[0], got):
        sys.exit(f"{case}: {invocations} runs give the output of one: the variable does not carry")


# Models ctnn must refuse (tests/frontend/tflite/frontend_state.cpp): tests/data/tflite/state_refused_*.tflite.
def refused_tflite():
    rng = np.random.RandomState(77)
    models = {}
    # A variable tensor read by ADD, which keeps no state.
    m = tfl.Model()
    x = m.tensor("input", [1, 4])
    v = m.tensor("variable", [1, 4], variable=True)
    y = m.tensor("output", [1, 4])
    m.op("ADD", [x, v], [y])
    m.inputs, m.outputs = [x], [y]
    models["variable_read_by_add"] = m
    # Two SVDFs updating one state.
    m, _ = svdf_f32(rng, 1, 4, 4, 1, 3)
    x, state = m.inputs[0], m.ops[0]["inputs"][4]
    y2 = m.tensor("output_2", [1, 4])
    m.op("SVDF", [x] + m.ops[0]["inputs"][1:4] + [state], [y2], rank=1)
    m.outputs.append(y2)
    models["two_svdf_one_state"] = m
    # An SVDF whose state operand is not a variable tensor (a graph input).
    m, _ = svdf_f32(rng, 1, 4, 4, 1, 3)
    m.tensors[m.ops[0]["inputs"][4]]["variable"] = False
    m.inputs.append(m.ops[0]["inputs"][4])
    models["svdf_state_not_variable"] = m
    # int8 SVDF whose bias scale is not the state's times the time weights'.
    m, _ = svdf_int8(rng, 1, 4, 4, 1, 3, tfl.INT16, (0.05, 0.004, 0.0015, 0.00003), (0, 0, 0))
    m.tensors[m.ops[0]["inputs"][3]]["quant"] = quant(0.5)
    models["svdf_bias_scale"] = m
    # A hybrid SVDF: float32 input, int8 feature weights.
    m, _ = svdf_f32(rng, 1, 4, 4, 1, 3)
    features = m.ops[0]["inputs"][1]
    m.tensors[features]["type"] = tfl.INT8
    m.tensors[features]["quant"] = quant(0.01)
    m.buffers[m.tensors[features]["buffer"]] = np.zeros(16, np.int8).tobytes()
    models["svdf_hybrid"] = m
    # UNIDIRECTIONAL_SEQUENCE_LSTM forms ctnn refuses: layer normalisation (refused by TFLM too), a projection's bias
    # without its weights, one peephole of three, an input gate with recurrent weights but no input weights (CIFG is
    # all or none); a
    # cell-gate activation other than TANH; an int8 input with float32 weights; a state that is not a variable tensor.
    m, _ = lstm_f32(rng, 1, 2, 3, 4)
    m.ops[0]["inputs"][20] = m.tensor("input_layer_norm_coefficients", [4], data=np.full(4, 0.5, F32))
    models["lstm_layer_norm"] = m
    m, _ = lstm_f32(rng, 1, 2, 3, 4)
    m.ops[0]["inputs"][17] = m.tensor("projection_bias", [4], data=np.full(4, 0.5, F32))
    models["lstm_projection_bias_alone"] = m
    m, _ = lstm_f32(rng, 1, 2, 3, 4)
    m.ops[0]["inputs"][10] = m.tensor("cell_to_forget_weights", [4], data=np.full(4, 0.5, F32))
    models["lstm_one_peephole"] = m
    m, _ = lstm_f32(rng, 1, 2, 3, 4)
    m.ops[0]["inputs"][1] = -1
    models["lstm_cifg_partial"] = m
    m, _ = lstm_f32(rng, 1, 2, 3, 4)
    m.ops[0]["options"]["act"] = "RELU"
    models["lstm_relu"] = m
    m, _ = lstm_f32(rng, 1, 2, 3, 4)
    m.tensors[m.inputs[0]]["type"] = tfl.INT8
    m.tensors[m.inputs[0]]["quant"] = quant(0.05)
    models["lstm_i8_input_float_weights"] = m
    m, _ = lstm_f32(rng, 1, 2, 3, 4)
    m.tensors[m.ops[0]["inputs"][19]]["variable"] = False
    m.inputs.append(m.ops[0]["inputs"][19])
    models["lstm_state_not_variable"] = m
    # int8 (8x8_16) forms TFLM does not run: CIFG, peepholes, a projection (its ValidateTensorStatus); weights with a
    # zero point or per-channel scales (its kernel reads one scale, no zero point); a cell state whose scale is not a
    # power of two, or of int8 (TFLM: int16 only).
    m, _ = lstm_int8(rng, 1, 2, 3, 4)
    m.ops[0]["inputs"][1] = m.ops[0]["inputs"][5] = m.ops[0]["inputs"][12] = -1
    models["lstm_i8_cifg"] = m
    m, _ = lstm_int8(rng, 1, 2, 3, 4)
    for k in (9, 10, 11):
        m.ops[0]["inputs"][k] = m.tensor(f"peephole_{k}", [4], tfl.INT16, data=np.full(4, 100, np.int16), quant=quant(1e-4))
    models["lstm_i8_peephole"] = m
    m, _ = lstm_int8(rng, 1, 2, 3, 4)
    m.ops[0]["inputs"][16] = m.tensor("projection_weights", [4, 4], tfl.INT8, data=np.ones((4, 4), np.int8),
                                      quant=quant(0.01))
    models["lstm_i8_projection"] = m
    m, _ = lstm_int8(rng, 1, 2, 3, 4)
    m.tensors[m.ops[0]["inputs"][6]]["quant"] = quant(0.01, 3)
    models["lstm_i8_weights_zero_point"] = m
    m, _ = lstm_int8(rng, 1, 2, 3, 4)
    m.tensors[m.ops[0]["inputs"][2]]["quant"] = dict(scale=[0.01, 0.02, 0.01, 0.02], zero_point=[0] * 4, axis=0)
    models["lstm_i8_weights_per_channel"] = m
    m, _ = lstm_int8(rng, 1, 2, 3, 4)
    m.tensors[m.ops[0]["inputs"][19]]["quant"] = quant(3e-4)
    models["lstm_i8_cell_scale"] = m
    m, _ = lstm_int8(rng, 1, 2, 3, 4)
    m.tensors[m.ops[0]["inputs"][19]]["type"] = tfl.INT8
    models["lstm_i8_cell_state_i8"] = m
    # Resource variables ctnn refuses: one variable read as [1, 2] and assigned a [1, 4] value; a variable read and
    # never assigned nor initialised (TFLM reads a null buffer); an init subgraph that computes (an ADD: only constants
    # assigned are evaluated at import); control flow other than CALL_ONCE (WHILE); a RESOURCE tensor read by an ADD.
    m = tfl.Model(new_opcodes=True)
    x = m.tensor("input", [1, 4])
    r = read_variable(m, "v", [1, 2])
    assign_variable(m, "v", x)
    y = m.tensor("output", [1, 2])
    m.op("RELU", [r], [y])
    m.inputs, m.outputs = [x], [y]
    models["resvar_two_shapes"] = m
    m = tfl.Model(new_opcodes=True)
    x = m.tensor("input", [1, 4])
    r = read_variable(m, "v", [1, 4])
    y = m.tensor("output", [1, 4])
    m.op("ADD", [x, r], [y])
    m.inputs, m.outputs = [x], [y]
    models["resvar_never_assigned"] = m
    m, _ = accumulator_f32(rng, [1, 4], initial=True)
    init = m.subgraphs[0]
    doubled = init.tensor("doubled", [1, 4])
    init.ops.insert(1, dict(code="ADD", inputs=[init.ops[1]["inputs"][1]] * 2, outputs=[doubled], options={}))
    init.ops[2]["inputs"][1] = doubled  # the ASSIGN_VARIABLE, now after the ADD
    models["resvar_init_computes"] = m
    m, _ = accumulator_f32(rng, [1, 4])
    body = m.add_subgraph("body")
    m.ops.insert(0, dict(code="WHILE", inputs=[], outputs=[], options={}))
    models["resvar_while"] = m
    del body
    m = tfl.Model(new_opcodes=True)
    x = m.tensor("input", [1, 4])
    handle = variable(m, "v")
    y = m.tensor("output", [1, 4])
    m.op("ADD", [x, handle], [y])
    m.inputs, m.outputs = [x], [y]
    models["resvar_resource_read_by_add"] = m
    return models


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tflm", help="the TFLM host oracle (tflm_run); without it the committed outputs are kept")
    parser.add_argument("--tflm-resource-variables", help="the oracle built with resource variables enabled, for the "
                        "resvar_* cases (default: --tflm)")
    args = parser.parse_args()
    family = op_tests.Family("state", args.tflm)
    rng = np.random.RandomState(2712)

    # float32: one run; several runs with the state wrapping past its memory; rank 2, batch 2, RELU. (TFLM aborts
    # on an SVDF without a bias: every case has one.)
    family.write_case("svdf_f32_rank1", *svdf_f32(rng, 1, 6, 4, 1, 5))
    family.write_case("svdf_f32_rank2_batch2_relu_3_runs", *svdf_f32(rng, 2, 5, 6, 2, 4, act="RELU"), invocations=3)
    family.write_case("svdf_f32_rank2_7_runs", *svdf_f32(rng, 1, 10, 8, 2, 3), invocations=7)

    # int8 with int16 state (TFLM's usual KWS form): one run, ten runs over batch 2, extreme scales.
    kws = (0.05, 0.004, 0.0015, 0.00003)
    family.write_case("svdf_i8_state_i16_rank1",
                      *svdf_int8(rng, 1, 10, 16, 1, 8, tfl.INT16, kws, (-3, 0, 5)))
    family.write_case("svdf_i8_state_i16_rank2_batch2_10_runs",
                      *svdf_int8(rng, 2, 7, 12, 2, 5, tfl.INT16, kws, (-128, 0, 3), runs=10), invocations=10)
    family.write_case("svdf_i8_state_i16_tiny_scales_4_runs",
                      *svdf_int8(rng, 1, 9, 6, 3, 4, tfl.INT16, (1e-3, 1e-4, 1e-6, 1e-5), (127, 0, -128), runs=4),
                      invocations=4)
    # int8 state with a non-zero zero point (TFLM starts it at the zero point). (TFLM reads an int8 SVDF's bias
    # scale in Prepare whether or not the op has one: no oracle case without a bias.)
    family.write_case("svdf_i8_state_i8_zero_point_6_runs",
                      *svdf_int8(rng, 1, 8, 8, 2, 3, tfl.INT8, (0.1, 0.01, 0.05, 0.02), (7, 9, -4), runs=6),
                      invocations=6)

    # UNIDIRECTIONAL_SEQUENCE_LSTM, float32 (tanh cell gate: TFLM applies no other): batch-major and time-major,
    # one run and several (the output and cell states carry), cell_clip (larger weights, so that it bites), one
    # step per run (a streaming model), and a Keras-sized layer.
    write_lstm_case(family, args.tflm, "lstm_f32_batch2", *lstm_f32(rng, 2, 3, 4, 5))
    write_lstm_case(family, args.tflm, "lstm_f32_time_major_batch3", *lstm_f32(rng, 3, 4, 3, 4, time_major=True))
    write_lstm_case(family, args.tflm, "lstm_f32_batch1_5_runs", *lstm_f32(rng, 1, 2, 6, 8), invocations=5)
    write_lstm_case(family, args.tflm, "lstm_f32_time_major_batch2_4_runs",
                    *lstm_f32(rng, 2, 3, 5, 6, time_major=True), invocations=4)
    write_lstm_case(family, args.tflm, "lstm_f32_cell_clip_3_runs",
                    *lstm_f32(rng, 2, 4, 3, 5, cell_clip=0.3, scale=1.5), invocations=3)
    write_lstm_case(family, args.tflm, "lstm_f32_time_major_cell_clip_2_runs",
                    *lstm_f32(rng, 2, 3, 4, 3, time_major=True, cell_clip=0.5, scale=1.5), invocations=2)
    write_lstm_case(family, args.tflm, "lstm_f32_one_step_6_runs", *lstm_f32(rng, 1, 1, 4, 6), invocations=6)
    write_lstm_case(family, args.tflm, "lstm_f32_28_steps_16_cells", *lstm_f32(rng, 1, 28, 28, 16, scale=0.3))
    # TFLite's peepholes and CIFG, which TFLM refuses: outputs from lstm_reference (float64, TFLite's lstm_eval.cc).
    write_lstm_computed_case(family, "lstm_f32_peephole_3_runs", *lstm_f32(rng, 2, 3, 4, 5, peephole=True),
                             invocations=3)
    write_lstm_computed_case(family, "lstm_f32_cifg_time_major_2_runs",
                             *lstm_f32(rng, 2, 4, 3, 4, time_major=True, cifg=True), invocations=2)
    write_lstm_computed_case(family, "lstm_f32_cifg_peephole_cell_clip_4_runs",
                             *lstm_f32(rng, 1, 3, 5, 6, cell_clip=0.4, scale=1.5, cifg=True, peephole=True),
                             invocations=4)
    write_lstm_computed_case(family, "lstm_f32_projection_3_runs", *lstm_f32(rng, 2, 3, 4, 6, outputs=3),
                             invocations=3)
    write_lstm_computed_case(family, "lstm_f32_projection_bias_clip_time_major_2_runs",
                             *lstm_f32(rng, 2, 3, 3, 4, time_major=True, outputs=5, projection_bias=True,
                                       proj_clip=0.2, scale=1.0), invocations=2)
    write_lstm_computed_case(family, "lstm_f32_cifg_peephole_projection_2_runs",
                             *lstm_f32(rng, 1, 4, 3, 5, cifg=True, peephole=True, outputs=2, projection_bias=True),
                             invocations=2)
    # Two layers in a row (Keras's stacked LSTMs): four states, two sets of packed constants.
    write_lstm_case(family, args.tflm, "lstm_f32_two_layers_3_runs", *lstm_two_layers(rng, 1, 5, 4, 6), invocations=3)
    # int8 (TFLM's 8x8_16: int8 input, weights and output state, int16 cell state of a power-of-two scale): batch-
    # and time-major, batch 1 to 3, odd cell counts, input and output-state zero points, cell_clip, several runs
    # (both states carry), gates that saturate Q3.12 (larger weight scales). Their own seed: the float cases above
    # stay as they were.
    rng = np.random.RandomState(2713)
    write_lstm_int8_case(family, args.tflm, "lstm_i8_batch2", *lstm_int8(rng, 2, 3, 4, 5))
    write_lstm_int8_case(family, args.tflm, "lstm_i8_time_major_batch3_zero_points_3_runs",
                         *lstm_int8(rng, 3, 4, 3, 7, time_major=True, input_zero_point=-5, hidden=(1 / 100, 3)),
                         invocations=3)
    write_lstm_int8_case(family, args.tflm, "lstm_i8_batch1_5_runs", *lstm_int8(rng, 1, 2, 6, 9), invocations=5)
    write_lstm_int8_case(family, args.tflm, "lstm_i8_cell_clip_4_runs",
                         *lstm_int8(rng, 2, 3, 5, 3, cell_clip=0.6, weight_range=(0.01, 0.03), cell_power=12,
                                    input_zero_point=7, hidden=(1 / 120, -2)), invocations=4)
    write_lstm_int8_case(family, args.tflm, "lstm_i8_time_major_cell_clip_saturating_2_runs",
                         *lstm_int8(rng, 2, 3, 8, 6, time_major=True, cell_clip=2.5, weight_range=(0.03, 0.06),
                                    cell_power=10, hidden=(1 / 128, -128)), invocations=2)
    write_lstm_int8_case(family, args.tflm, "lstm_i8_one_step_6_runs", *lstm_int8(rng, 1, 1, 4, 6), invocations=6)
    write_lstm_int8_case(family, args.tflm, "lstm_i8_20_steps_16_cells",
                         *lstm_int8(rng, 1, 20, 12, 16, cell_power=11, weight_range=(0.001, 0.004)))
    # Resource variables (VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE; CALL_ONCE's init subgraph): float32 accumulators
    # (a variable read after its assignment, and one read before), int8 streaming buffers with a running average
    # (zero points -5 and 4), an int8 accumulator that saturates; each with and without initial values. Their own
    # seed. The oracle's tflm_run must be built with resource variables (its MicroResourceVariables: PROVENANCE.md).
    rng = np.random.RandomState(2714)
    rv = args.tflm_resource_variables or args.tflm
    family.tflm = rv
    write_resource_case(family, rv, "resvar_f32_accumulator_4_runs", *accumulator_f32(rng, [2, 3]), invocations=4)
    write_resource_case(family, rv, "resvar_f32_accumulator_init_3_runs", *accumulator_f32(rng, [1, 5], initial=True),
                        invocations=3)
    write_resource_case(family, rv, "resvar_i8_streaming_buffer_3_runs", *streaming_buffer_i8(rng, 4, 3, -5),
                        invocations=3)
    write_resource_case(family, rv, "resvar_i8_streaming_buffer_init_2_runs",
                        *streaming_buffer_i8(rng, 3, 6, 4, initial=True), invocations=2)
    write_resource_case(family, rv, "resvar_i8_accumulator_saturating_6_runs", *accumulator_i8(rng, [1, 8]),
                        invocations=6)
    write_resource_case(family, rv, "resvar_i8_accumulator_init_3_runs", *accumulator_i8(rng, [2, 4], initial=True),
                        invocations=3)
    family.finish()
    op_tests.write_refused("state", refused_tflite())


if __name__ == "__main__":
    main()
