#!/usr/bin/env python3
"""Writes five of the Cortex-M benchmark's own models (benchmarks/cortex_m/run.py --models
tconv8,bcast8,audio16,svdf8,lstm8), each a folder benchmarks/cortex_m/models/<name>/ of model.tflite and four reference
cases (input_<k>.bin, output_<k>.bin) from TFLM's reference kernels (the host oracle tflm_run), as
scripts/gen_kws_16x8.py writes kws_16x8 (for a model with state also `invocations`: each case runs that many times from
the initial state, the last output recorded); and the firmware example's model (kws8), to examples/firmware/kws/ with
its one case (input_0.bin, output_0.bin):

  tconv_decoder_int8  (tconv8)  an int8 convolutional autoencoder: two CONV_2D 3x3 stride 2 encode a
                                [1, 16, 16, 4] image to [1, 4, 4, 32]; three TRANSPOSE_CONV stride 2 (4x4, 3x3,
                                3x3, RELU) decode it to [1, 32, 32, 8]; a CONV_2D 3x3 writes one channel.
  broadcast_int8      (bcast8)  an int8 feature normaliser dominated by broadcast binary ops on [1, 16, 16, 32]:
                                SUB of a per-channel mean, MUL by a per-channel scale, PRELU, MAXIMUM and MINIMUM
                                of per-channel bounds, SQUARED_DIFFERENCE with a [16, 32] template, ADD of a
                                per-row bias [1, 16, 1, 1], SUB from a per-channel constant (the constant first).
  audio_16x8          (audio16) a 16x8 1-D convolutional audio autoencoder (int16 activations, zero points 0,
                                int8 per-channel weights, int64 biases) on 512 samples ([1, 1, 512, 1]): three
                                CONV_2D 1x9 stride 2 down to [1, 1, 64, 32], three TRANSPOSE_CONV 1x8 stride 2 up
                                to [1, 1, 512, 8], a CONV_2D 1x9 to one channel.
  svdf_kws_int8       (svdf8)   an int8 SVDF keyword spotter, one frame of 40 features per run: seven SVDF layers
                                (rank 1, int16 state and time weights; units 128 x 4 with memory 10, 96 x 2 and 64
                                with memory 8), FULLY_CONNECTED 12, SOFTMAX; each case 12 runs from the zero state.
  lstm_int8           (lstm8)   an int8 recurrent classifier of 28 steps of 28 features ([1, 28, 28]): two
                                UNIDIRECTIONAL_SEQUENCE_LSTM(64) in TFLM's 8x8_16 form (int8 input, weights and output
                                state, int32 biases, an int16 cell state), both returning the sequence; a
                                FULLY_CONNECTED of each step's 64 outputs to 6 classes ([28, 6]) and a SOFTMAX; each case
                                one run from the zero states.
  kws_int8            (kws8)    the firmware example's int8 keyword spotter (examples/firmware/kws/), a DS-CNN with the
                                MLPerf Tiny KWS model's layers and shapes and its own weights: [1, 49, 10, 1] features,
                                CONV_2D 10x4 stride 2 to 64 channels (RELU), four DEPTHWISE_CONV_2D 3x3 (RELU) +
                                CONV_2D 1x1 64 (RELU), AVERAGE_POOL_2D 25x5, FULLY_CONNECTED 12, SOFTMAX.

Weights are random (fixed seeds: re-running reproduces every file byte for byte), He-scaled, per-channel weight
scales; activation scales (int8: min/max with a zero point) from a float forward pass over the cases.

Usage: /usr/bin/python3 scripts/gen_cortex_m_models.py --tflm /work/oracle/tflm/tflm_run [--models tconv8,...]
(the default: every model, kws8 included)
"""
import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import gen_tflite_test_models as tfl  # noqa: E402

MODELS_DIR = HERE.parent / "benchmarks" / "cortex_m" / "models"
CASES = 4
# Models with state: how many times each case runs from the initial state, the last output recorded (the folder's
# file `invocations`, which benchmarks/cortex_m reads); 1 where absent.
CASE_INVOCATIONS = {}

# The operators the writer does not know yet (schema.fbs BuiltinOperator; TransposeConvOptions: union member 49).
tfl.OPS.update({"TRANSPOSE_CONV": 67, "PRELU": 54, "MAXIMUM": 55, "MINIMUM": 57, "SQUARED_DIFFERENCE": 99})
tfl.OPTIONS.update({"TRANSPOSE_CONV": 49})
_base_options_table = tfl.options_table


def _options_table(code, o, va):
    if code == "TRANSPOSE_CONV":
        return tfl.Table({0: ("i8", o["padding"]), 1: ("i32", o["stride"][1]), 2: ("i32", o["stride"][0]),
                          3: ("i8", tfl.ACT[o.get("act")])}, va)
    return _base_options_table(code, o, va)


tfl.options_table = _options_table


def transpose_conv(x, w, b, out_shape, stride, padding, act=None):
    """Float TRANSPOSE_CONV (weights [out, kh, kw, in]): each input pixel scattered through the window; the pads
    as TFLM's Prepare computes them from the result's extents."""
    n, h, wd, _ = x.shape
    oc, kh, kw, _ = w.shape
    _, top = tfl.window_positions(out_shape[1], kh, stride[0], 1, padding)
    _, left = tfl.window_positions(out_shape[2], kw, stride[1], 1, padding)
    y = np.zeros((n, out_shape[1], out_shape[2], oc))
    for i in range(h):
        for j in range(wd):
            for a in range(kh):
                for c in range(kw):
                    yy, xx = i * stride[0] - top + a, j * stride[1] - left + c
                    if 0 <= yy < out_shape[1] and 0 <= xx < out_shape[2]:
                        y[:, yy, xx, :] += x[:, i, j, :] @ w[:, a, c, :].T
    if b is not None:
        y += b
    return tfl.activation(y, act)


def he(rng, shape, fan_in):
    return rng.normal(0.0, np.sqrt(2.0 / fan_in), shape)


class Quantizer:
    """Activation quantization: int8 asymmetric over [min, max] (zero point in range), int16 symmetric (zero point 0)."""

    def __init__(self, dtype):
        self.dtype = dtype

    def params(self, values):
        lo, hi = min(0.0, min(float(v.min()) for v in values)), max(0.0, max(float(v.max()) for v in values))
        lo, hi = lo * 1.1, hi * 1.1
        if self.dtype == tfl.INT16:
            return max(abs(lo), abs(hi), 1e-6) / 32767, 0
        scale = max(hi - lo, 1e-6) / 255
        return scale, int(np.clip(-128 - round(lo / scale), -128, 127))

    def quantize(self, x, scale, zero_point):
        limits, np_type = ((-32768, 32767), "<i2") if self.dtype == tfl.INT16 else ((-128, 127), "i1")
        return np.clip(np.round(x / scale) + zero_point, *limits).astype(np_type)


def weights_tensor(m, name, w, axis):
    """Per-channel symmetric int8 weights along `axis`: the tensor and its scales."""
    channel_max = np.abs(w).max(axis=tuple(a for a in range(w.ndim) if a != axis))
    scales = np.maximum(channel_max, 1e-9) / 127
    shaped = scales.reshape([-1 if a == axis else 1 for a in range(w.ndim)])
    wq = np.clip(np.round(w / shaped), -127, 127).astype(np.int8)
    return m.tensor(name, list(w.shape), tfl.INT8, data=wq, quant=dict(scale=list(scales), zero_point=[0] * len(scales), axis=axis)), scales


def conv_net(name, dtype, input_shape, layers, seed, case_scale):
    """A chain of CONV_2D / TRANSPOSE_CONV layers: (kind, weights [out, kh, kw, in], bias, options, result shape)."""
    rng = np.random.RandomState(seed)
    cases = [np.linspace(-1.0, 1.0, int(np.prod(input_shape))).reshape(input_shape)]
    cases += [np.clip(rng.normal(0.0, case_scale, input_shape), -1.0, 1.0) for _ in range(CASES - 1)]
    built = [(kind, make(rng), o) for kind, make, o in layers]

    def forward(x):
        values = [x]
        for kind, (w, b), o in built:
            if kind == "CONV_2D":
                x = tfl.conv2d(x, w, b, o["stride"], o["padding"], act=o.get("act"))
            else:
                x = transpose_conv(x, w, b, o["out_shape"], o["stride"], o["padding"], act=o.get("act"))
            values.append(x)
        return values

    runs = [forward(x) for x in cases]
    quantizer = Quantizer(dtype)
    qparams = [quantizer.params([r[k] for r in runs]) for k in range(len(built) + 1)]
    m = tfl.Model(new_opcodes=True)
    q = lambda p: dict(scale=[p[0]], zero_point=[p[1]])  # noqa: E731
    current = m.tensor("input", input_shape, dtype, quant=q(qparams[0]))
    m.inputs = [current]
    bias_type = tfl.INT64 if dtype == tfl.INT16 else tfl.INT32
    for k, (kind, (w, b), o) in enumerate(built):
        tw, w_scales = weights_tensor(m, f"w{k}", w, 0)
        b_scales = qparams[k][0] * w_scales
        tb = m.tensor(f"b{k}", [len(b)], bias_type, data=np.round(b / b_scales).astype(np.int64),
                      quant=dict(scale=list(b_scales), zero_point=[0] * len(b_scales)))
        shape = list(runs[0][k + 1].shape)
        result = m.tensor(f"t{k}", shape, dtype, quant=q(qparams[k + 1]))
        if kind == "CONV_2D":
            m.op(kind, [current, tw, tb], [result], stride=o["stride"], padding=o["padding"], act=o.get("act"))
        else:
            sizes = m.tensor(f"output_shape{k}", [4], tfl.INT32, data=o["out_shape"])
            m.op(kind, [sizes, tw, current, tb], [result], stride=o["stride"], padding=o["padding"], act=o.get("act"))
        current = result
    m.outputs = [current]
    return name, m, [quantizer.quantize(x, *qparams[0]) for x in cases]


def layer(kind, out_c, kh, kw, in_c, stride, padding=tfl.SAME, act=None, out_shape=None):
    def make(rng):
        fan_in = kh * kw * in_c if kind == "CONV_2D" else max(1, kh * kw * in_c // (stride[0] * stride[1]))
        return he(rng, (out_c, kh, kw, in_c), fan_in), rng.normal(0, 0.05, out_c)
    return kind, make, dict(stride=stride, padding=padding, act=act, out_shape=out_shape)


def tconv_decoder():
    return conv_net("tconv_decoder_int8", tfl.INT8, [1, 16, 16, 4], [
        layer("CONV_2D", 16, 3, 3, 4, (2, 2), act="RELU"),
        layer("CONV_2D", 32, 3, 3, 16, (2, 2), act="RELU"),
        layer("TRANSPOSE_CONV", 32, 4, 4, 32, (2, 2), act="RELU", out_shape=[1, 8, 8, 32]),
        layer("TRANSPOSE_CONV", 16, 3, 3, 32, (2, 2), act="RELU", out_shape=[1, 16, 16, 16]),
        layer("TRANSPOSE_CONV", 8, 3, 3, 16, (2, 2), act="RELU", out_shape=[1, 32, 32, 8]),
        layer("CONV_2D", 1, 3, 3, 8, (1, 1)),
    ], seed=2625, case_scale=0.5)


def audio_16x8():
    return conv_net("audio_16x8", tfl.INT16, [1, 1, 512, 1], [
        layer("CONV_2D", 16, 1, 9, 1, (1, 2), act="RELU"),
        layer("CONV_2D", 32, 1, 9, 16, (1, 2), act="RELU"),
        layer("CONV_2D", 32, 1, 9, 32, (1, 2), act="RELU"),
        layer("TRANSPOSE_CONV", 32, 1, 8, 32, (1, 2), act="RELU", out_shape=[1, 1, 128, 32]),
        layer("TRANSPOSE_CONV", 16, 1, 8, 32, (1, 2), act="RELU", out_shape=[1, 1, 256, 16]),
        layer("TRANSPOSE_CONV", 8, 1, 8, 16, (1, 2), act="RELU", out_shape=[1, 1, 512, 8]),
        layer("CONV_2D", 1, 1, 9, 8, (1, 1)),
    ], seed=2626, case_scale=0.4)


def broadcast_net():
    """Binary ops whose second (or, for the last SUB, first) operand is a constant broadcast along some axes."""
    rng = np.random.RandomState(2627)
    shape = [1, 16, 16, 32]
    cases = [np.linspace(-2.0, 2.0, int(np.prod(shape))).reshape(shape)]
    cases += [rng.normal(0.0, 1.0, shape) for _ in range(CASES - 1)]
    # (operator, constant shape, constant values, constant first)
    steps = [("SUB", [32], rng.normal(0, 0.3, 32), False),
             ("MUL", [1, 1, 1, 32], rng.uniform(0.5, 2.0, 32), False),
             ("PRELU", [1, 1, 32], rng.uniform(0.05, 0.3, 32), False),
             ("MAXIMUM", [32], rng.uniform(-2.0, -1.0, 32), False),
             ("MINIMUM", [32], rng.uniform(1.0, 2.0, 32), False),
             ("SQUARED_DIFFERENCE", [16, 32], rng.normal(0, 0.5, (16, 32)), False),
             ("ADD", [1, 16, 1, 1], rng.normal(0, 0.5, (1, 16, 1, 1)), False),
             ("SUB", [1, 1, 1, 32], rng.uniform(2.0, 3.0, 32), True)]
    apply = {"SUB": np.subtract, "MUL": np.multiply, "MAXIMUM": np.maximum, "MINIMUM": np.minimum, "ADD": np.add,
             "SQUARED_DIFFERENCE": lambda a, b: (a - b) ** 2, "PRELU": lambda x, alpha: np.where(x >= 0, x, x * alpha)}

    def forward(x):
        values = [x]
        for op, cshape, c, first in steps:
            c = np.asarray(c).reshape(cshape)
            x = apply[op](c, x) if first else apply[op](x, c)
            values.append(x)
        return values

    runs = [forward(x) for x in cases]
    quantizer = Quantizer(tfl.INT8)
    qparams = [quantizer.params([r[k] for r in runs]) for k in range(len(steps) + 1)]
    m = tfl.Model(new_opcodes=True)
    q = lambda p: dict(scale=[p[0]], zero_point=[p[1]])  # noqa: E731
    current = m.tensor("input", shape, tfl.INT8, quant=q(qparams[0]))
    m.inputs = [current]
    for k, (op, cshape, c, first) in enumerate(steps):
        c = np.asarray(c, dtype=np.float64).reshape(cshape)
        if op == "PRELU":  # alpha: symmetric, as converters write it
            cq = (float(np.abs(c).max()) / 127, 0)
        else:
            cq = quantizer.params([c])
        constant = m.tensor(f"c{k}", cshape, tfl.INT8, data=quantizer.quantize(c, *cq), quant=q(cq))
        result = m.tensor(f"t{k}", shape, tfl.INT8, quant=q(qparams[k + 1]))
        m.op(op, [constant, current] if first else [current, constant], [result])
        current = result
    m.outputs = [current]
    return "broadcast_int8", m, [quantizer.quantize(x, *qparams[0]) for x in cases]


# ---- svdf_kws_int8 (svdf8) ------------------------------------------------------------------------------------
# TFLite's SVDF (schema.fbs: BuiltinOperator 27, SVDFOptions union member 6: rank, fused activation).
tfl.OPS.update({"SVDF": 27})
tfl.OPTIONS.update({"SVDF": 6})
_svdf_base_options_table = tfl.options_table


def _svdf_options_table(code, o, va):
    if code == "SVDF":
        return tfl.Table({0: ("i32", o["rank"]), 1: ("i8", tfl.ACT[o.get("act")])}, va)
    return _svdf_base_options_table(code, o, va)


tfl.options_table = _svdf_options_table

# (units, memory) of each SVDF layer (rank 1: one filter per unit) and the classes of the closing FULLY_CONNECTED.
SVDF_KWS_LAYERS = [(128, 10), (128, 10), (128, 10), (128, 10), (96, 8), (96, 8), (64, 8)]
SVDF_KWS_FEATURES, SVDF_KWS_CLASSES, SVDF_KWS_FRAMES = 40, 12, 32
# Its cases run 12 times from the initial state (the state carries; layer k's state fills after about 10 * k runs,
# so the deeper layers' memories hold different values), the 12th output recorded (write(): tflm_run --invoke).
CASE_INVOCATIONS["svdf_kws_int8"] = 12


def svdf_kws():
    """An int8 SVDF keyword spotter as firmware runs it, one frame of 40 features per invocation: seven SVDF layers
    (rank 1, int16 state and time weights, TFLM's int8 form, per-tensor int8 feature weights, int32 biases at the
    state scale times the time weights'), FULLY_CONNECTED 12 and SOFTMAX. Scales from a float stream of
    SVDF_KWS_FRAMES frames (the state carries); the cases are single invocations from the initial (zero) state."""
    rng = np.random.RandomState(2628)
    frames = np.clip(rng.normal(0.0, 0.5, (SVDF_KWS_FRAMES, SVDF_KWS_FEATURES)), -1.0, 1.0)
    layers, width = [], SVDF_KWS_FEATURES
    for units, memory in SVDF_KWS_LAYERS:
        layers.append((rng.normal(0.0, np.sqrt(1.0 / width), (units, width)), rng.normal(0.0, np.sqrt(1.0 / memory), (units, memory)),
                       rng.normal(0.0, 0.05, units)))
        width = units
    fc_w, fc_b = he(rng, (SVDF_KWS_CLASSES, width), width), rng.normal(0, 0.05, SVDF_KWS_CLASSES)

    # The float stream: per layer its projections (the state's values) and outputs, every frame.
    states = [np.zeros((units, memory)) for units, memory in SVDF_KWS_LAYERS]
    projections, outputs, logits = [[] for _ in layers], [[frames]], []
    for x in frames:
        for k, (wf, wt, b) in enumerate(layers):
            states[k] = np.roll(states[k], -1, axis=1)
            states[k][:, -1] = wf @ x
            projections[k].append(states[k][:, -1].copy())
            x = (states[k] * wt).sum(axis=1) + b
            if len(outputs) <= k + 1:
                outputs.append([])
            outputs[k + 1].append(x)
        logits.append(fc_w @ x + fc_b)
    quantizer = Quantizer(tfl.INT8)
    act_q = [quantizer.params([np.asarray(v)]) for v in outputs]
    logits_q = quantizer.params([np.asarray(logits)])
    m = tfl.Model(new_opcodes=True)
    q = lambda p: dict(scale=[p[0]], zero_point=[p[1]])  # noqa: E731
    current = m.tensor("features", [1, SVDF_KWS_FEATURES], tfl.INT8, quant=q(act_q[0]))
    m.inputs = [current]
    for k, (wf, wt, b) in enumerate(layers):
        units, memory = SVDF_KWS_LAYERS[k]
        s_features = float(np.abs(wf).max()) / 127
        s_time = float(np.abs(wt).max()) / 32767
        s_state = max(float(np.abs(np.asarray(projections[k])).max()) * 1.1, 1e-6) / 32767
        tf_ = m.tensor(f"svdf{k}/weights_feature", [units, wf.shape[1]], tfl.INT8,
                       data=np.clip(np.round(wf / s_features), -127, 127).astype(np.int8), quant=q((s_features, 0)))
        tt = m.tensor(f"svdf{k}/weights_time", [units, memory], tfl.INT16,
                      data=np.clip(np.round(wt / s_time), -32767, 32767).astype("<i2"), quant=q((s_time, 0)))
        tb = m.tensor(f"svdf{k}/bias", [units], tfl.INT32, data=np.round(b / (s_state * s_time)).astype(np.int64),
                      quant=q((s_state * s_time, 0)))
        state = m.tensor(f"svdf{k}/activation_state", [1, memory * units], tfl.INT16, quant=q((s_state, 0)), variable=True)
        result = m.tensor(f"svdf{k}", [1, units], tfl.INT8, quant=q(act_q[k + 1]))
        m.op("SVDF", [current, tf_, tt, tb, state], [result], rank=1)
        current = result
    s_fc = float(np.abs(fc_w).max()) / 127
    tw = m.tensor("fc/weights", [SVDF_KWS_CLASSES, width], tfl.INT8, data=np.clip(np.round(fc_w / s_fc), -127, 127).astype(np.int8),
                  quant=q((s_fc, 0)))
    tb = m.tensor("fc/bias", [SVDF_KWS_CLASSES], tfl.INT32, data=np.round(fc_b / (act_q[-1][0] * s_fc)).astype(np.int64),
                  quant=q((act_q[-1][0] * s_fc, 0)))
    fc = m.tensor("fc", [1, SVDF_KWS_CLASSES], tfl.INT8, quant=q(logits_q))
    m.op("FULLY_CONNECTED", [current, tw, tb], [fc])
    probabilities = m.tensor("probabilities", [1, SVDF_KWS_CLASSES], tfl.INT8, quant=q((1.0 / 256, -128)))
    m.op("SOFTMAX", [fc], [probabilities], beta=1.0)
    m.outputs = [probabilities]
    cases = [np.linspace(-1.0, 1.0, SVDF_KWS_FEATURES).reshape(1, -1)] + [frames[8 * k].reshape(1, -1) for k in range(1, CASES)]
    return "svdf_kws_int8", m, [quantizer.quantize(x, *act_q[0]) for x in cases]


# ---- lstm_int8 (lstm8) ---------------------------------------------------------------------------------------
# UNIDIRECTIONAL_SEQUENCE_LSTM (schema.fbs: operator 44, UnidirectionalSequenceLSTMOptions union member 71).
tfl.OPS.update({"UNIDIRECTIONAL_SEQUENCE_LSTM": 44})
tfl.OPTIONS.update({"UNIDIRECTIONAL_SEQUENCE_LSTM": 71})
_options_before_lstm = tfl.options_table


def _lstm_options_table(code, o, va):
    if code == "UNIDIRECTIONAL_SEQUENCE_LSTM":
        return tfl.Table({0: ("i8", tfl.ACT["TANH"]), 1: ("f32", 0.0), 2: ("f32", 0.0), 3: ("bool", 0)}, va)
    return _options_before_lstm(code, o, va)


tfl.options_table = _lstm_options_table


def lstm_forward(x, weights, biases, cells):
    """Float LSTM over [batch, steps, features] from zero states (gates input, forget, cell, output): every step's
    output state, and every step's cell state."""
    sigmoid = lambda v: 1.0 / (1.0 + np.exp(-v))  # noqa: E731
    batch, steps, _ = x.shape
    h, c = np.zeros((batch, cells)), np.zeros((batch, cells))
    outputs, cell_states = [], []
    for t in range(steps):
        gates = [x[:, t] @ weights[0][g].T + h @ weights[1][g].T + biases[g] for g in range(4)]
        c = sigmoid(gates[1]) * c + sigmoid(gates[0]) * np.tanh(gates[2])
        h = sigmoid(gates[3]) * np.tanh(c)
        outputs.append(h)
        cell_states.append(c)
    return np.stack(outputs, axis=1), np.stack(cell_states, axis=1)


def symmetric_int8(w):
    """Per-tensor symmetric int8 (TFLM's int8 LSTM takes one scale per weight tensor): values and scale."""
    scale = max(float(np.abs(w).max()), 1e-9) / 127
    return np.clip(np.round(w / scale), -127, 127).astype(np.int8), scale


def lstm_net():
    """Two UNIDIRECTIONAL_SEQUENCE_LSTM(64) in TFLite's 8x8_16 quantization (its converter's recipe: per-tensor
    weights, biases in the input's times the input weights' scale, the cell state's scale a power of two covering
    its range), a per-step FULLY_CONNECTED to 6 classes and SOFTMAX (scale 1/256, zero point -128)."""
    rng = np.random.RandomState(2628)
    steps, features, cells, classes = 28, 28, 64, 6
    shape = [1, steps, features]
    cases = [np.linspace(-1.0, 1.0, int(np.prod(shape))).reshape(shape)]
    cases += [np.clip(rng.normal(0.0, 0.6, shape), -1.5, 1.5) for _ in range(CASES - 1)]
    layers = []
    for width in (features, cells):
        bound = np.sqrt(6.0 / (width + cells))  # Glorot, as Keras initialises an LSTM's kernels
        weights = [rng.uniform(-bound, bound, (4, cells, width)), rng.uniform(-bound, bound, (4, cells, cells))]
        biases = rng.normal(0.0, 0.1, (4, cells))
        biases[1] += 1.0  # Keras's unit_forget_bias
        layers.append((weights, biases))
    dense_w, dense_b = he(rng, (classes, cells), cells), rng.normal(0.0, 0.05, classes)

    def forward(x):
        values, cell_ranges = [x], []
        for weights, biases in layers:
            x, c = lstm_forward(x, weights, biases, cells)
            values.append(x)
            cell_ranges.append(float(np.abs(c).max()))
        logits = x.reshape(-1, cells) @ dense_w.T + dense_b
        values.append(logits)
        return values, cell_ranges

    runs = [forward(x) for x in cases]
    quantizer = Quantizer(tfl.INT8)
    qparams = [quantizer.params([r[0][k] for r in runs]) for k in range(len(layers) + 2)]
    m = tfl.Model(new_opcodes=True)
    q = lambda p: dict(scale=[p[0]], zero_point=[p[1]])  # noqa: E731
    current = m.tensor("input", shape, tfl.INT8, quant=q(qparams[0]))
    m.inputs = [current]
    for k, (weights, biases) in enumerate(layers):
        input_scale = qparams[k][0]
        operands, input_weight_scales = [current], []
        for kind, part in (("input_to", weights[0]), ("recurrent_to", weights[1])):
            for g, gate in enumerate(("input", "forget", "cell", "output")):
                wq, scale = symmetric_int8(part[g])
                if kind == "input_to":
                    input_weight_scales.append(scale)
                operands.append(m.tensor(f"lstm{k}_{kind}_{gate}_weights", list(wq.shape), tfl.INT8, data=wq,
                                         quant=dict(scale=[scale], zero_point=[0])))
        operands += [-1] * 3  # no peepholes
        for g, gate in enumerate(("input", "forget", "cell", "output")):
            bias_scale = input_scale * input_weight_scales[g]
            operands.append(m.tensor(f"lstm{k}_{gate}_gate_bias", [cells], tfl.INT32,
                                     data=np.round(biases[g] / bias_scale).astype(np.int32),
                                     quant=dict(scale=[bias_scale], zero_point=[0])))
        operands += [-1] * 2  # no projection
        cell_range = max(r[1][k] for r in runs)
        cell_power = 15 - int(np.ceil(np.log2(max(cell_range * 1.1, 2.0 ** -8))))
        operands.append(m.tensor(f"lstm{k}_output_state", [1, cells], tfl.INT8, quant=q(qparams[k + 1]), variable=True))
        operands.append(m.tensor(f"lstm{k}_cell_state", [1, cells], tfl.INT16,
                                 quant=dict(scale=[2.0 ** -cell_power], zero_point=[0]), variable=True))
        operands += [-1] * 4  # no layer normalisation
        result = m.tensor(f"lstm{k}", [1, steps, cells], tfl.INT8, quant=q(qparams[k + 1]))
        m.op("UNIDIRECTIONAL_SEQUENCE_LSTM", operands, [result])
        current = result
    wq, w_scale = symmetric_int8(dense_w)
    tw = m.tensor("dense_weights", [classes, cells], tfl.INT8, data=wq, quant=dict(scale=[w_scale], zero_point=[0]))
    b_scale = qparams[len(layers)][0] * w_scale
    tb = m.tensor("dense_bias", [classes], tfl.INT32, data=np.round(dense_b / b_scale).astype(np.int32),
                  quant=dict(scale=[b_scale], zero_point=[0]))
    logits = m.tensor("logits", [steps, classes], tfl.INT8, quant=q(qparams[-1]))
    m.op("FULLY_CONNECTED", [current, tw, tb], [logits])
    probabilities = m.tensor("probabilities", [steps, classes], tfl.INT8, quant=dict(scale=[1 / 256], zero_point=[-128]))
    m.op("SOFTMAX", [logits], [probabilities], beta=1.0)
    m.outputs = [probabilities]
    return "lstm_int8", m, [quantizer.quantize(x, *qparams[0]) for x in cases]


# ---- kws_int8 (kws8): the firmware example's model ------------------------------------------------------------
# Written to examples/firmware/kws/ (not the benchmark's models/), with its one case: the example runs case 0.
MODEL_DIRS = {"kws_int8": HERE.parent / "examples" / "firmware" / "kws"}
WRITTEN_CASES = {"kws_int8": 1}


def kws_int8():
    """A DS-CNN keyword spotter with the MLPerf Tiny KWS model's layers and shapes, its own random weights: input
    [1, 49, 10, 1] int8 (MFCC-like features); CONV_2D 10x4 stride 2 SAME to 64 channels (RELU); four blocks of
    DEPTHWISE_CONV_2D 3x3 SAME (RELU) and CONV_2D 1x1 64 (RELU); AVERAGE_POOL_2D 25x5 (the pool's result keeps its
    input's scale and zero point, as TFLite's converter writes it); FULLY_CONNECTED 12 (one weight scale, as the
    converter writes it); SOFTMAX (scale 1/256, zero point -128). Convolution weights per channel (depthwise: axis 3)."""
    rng = np.random.RandomState(2629)
    shape = [1, 49, 10, 1]
    # Case 0 a ramp (as the MLPerf cases' first, and the one the firmware example runs); the others random features.
    cases = [np.linspace(-1.0, 1.0, int(np.prod(shape))).reshape(shape)]
    cases += [np.clip(rng.normal(0.0, 0.4, shape), -1.0, 1.0) for _ in range(CASES - 1)]
    same_relu = dict(stride=(1, 1), padding=tfl.SAME, act="RELU")
    layers = [("CONV_2D", he(rng, (64, 10, 4, 1), 40), rng.normal(0, 0.05, 64), dict(same_relu, stride=(2, 2)))]
    for _ in range(4):
        layers.append(("DEPTHWISE_CONV_2D", he(rng, (1, 3, 3, 64), 9), rng.normal(0, 0.05, 64), dict(same_relu, multiplier=1)))
        layers.append(("CONV_2D", he(rng, (64, 1, 1, 64), 64), rng.normal(0, 0.05, 64), same_relu))
    layers.append(("AVERAGE_POOL_2D", None, None, dict(stride=(1, 1), padding=tfl.VALID, filter=(25, 5))))
    layers.append(("FULLY_CONNECTED", he(rng, (12, 64), 64), rng.normal(0, 0.05, 12), {}))

    def forward(x):
        values = [x]
        for kind, w, b, o in layers:
            if kind == "FULLY_CONNECTED":
                x = tfl.fully_connected(x, w, b)
            elif kind == "AVERAGE_POOL_2D":
                x = tfl.pool2d(x, o["filter"], o["stride"], o["padding"], "average")
            else:
                x = tfl.conv2d(x, w, b, o["stride"], o["padding"], act=o.get("act"),
                               depthwise_multiplier=1 if kind == "DEPTHWISE_CONV_2D" else None)
            values.append(x)
        return values

    runs = [forward(x) for x in cases]
    quantizer = Quantizer(tfl.INT8)
    qparams = [quantizer.params([r[k] for r in runs]) for k in range(len(layers) + 1)]
    m = tfl.Model(new_opcodes=True)
    q = lambda p: dict(scale=[p[0]], zero_point=[p[1]])  # noqa: E731
    current = m.tensor("input", shape, tfl.INT8, quant=q(qparams[0]))
    m.inputs = [current]
    for k, (kind, w, b, o) in enumerate(layers):
        if kind == "AVERAGE_POOL_2D":
            qparams[k + 1] = qparams[k]
            inputs = [current]
        else:
            if kind == "FULLY_CONNECTED":
                wq, scale = symmetric_int8(w)
                w_scales = np.array([scale])
                tw = m.tensor(f"w{k}", list(w.shape), tfl.INT8, data=wq, quant=dict(scale=[scale], zero_point=[0]))
            else:
                tw, w_scales = weights_tensor(m, f"w{k}", w, 3 if kind == "DEPTHWISE_CONV_2D" else 0)
            b_scales = qparams[k][0] * w_scales
            tb = m.tensor(f"b{k}", [len(b)], tfl.INT32, data=np.round(b / b_scales).astype(np.int32),
                          quant=dict(scale=list(b_scales), zero_point=[0] * len(b_scales)))
            inputs = [current, tw, tb]
        current_shape = list(runs[0][k + 1].shape)
        result = m.tensor(f"t{k}", current_shape, tfl.INT8, quant=q(qparams[k + 1]))
        m.op(kind, inputs, [result], **o)
        current = result
    probabilities = m.tensor("probabilities", current_shape, tfl.INT8, quant=dict(scale=[1 / 256], zero_point=[-128]))
    m.op("SOFTMAX", [current], [probabilities], beta=1.0)
    m.outputs = [probabilities]
    return "kws_int8", m, [quantizer.quantize(x, *qparams[0]) for x in cases]


GENERATORS = {"tconv8": tconv_decoder, "bcast8": broadcast_net, "audio16": audio_16x8, "svdf8": svdf_kws, "lstm8": lstm_net,
              "kws8": kws_int8}


def write(tflm, name, model, inputs):
    out = MODEL_DIRS.get(name, MODELS_DIR / name)
    inputs = inputs[:WRITTEN_CASES.get(name, len(inputs))]
    out.mkdir(parents=True, exist_ok=True)
    (out / "model.tflite").write_bytes(model.serialize())
    invocations = CASE_INVOCATIONS.get(name, 1)
    if invocations > 1:
        (out / "invocations").write_text(f"{invocations}\n")
    with tempfile.TemporaryDirectory() as work:
        for k, x in enumerate(inputs):
            (out / f"input_{k}.bin").write_bytes(x.tobytes())
            prefix = Path(work) / f"case{k}_"
            subprocess.run([tflm, "--invoke", str(invocations), str(out / "model.tflite"), str(prefix), str(out / f"input_{k}.bin")], check=True,
                           stdout=subprocess.DEVNULL)
            (out / f"output_{k}.bin").write_bytes((Path(work) / f"case{k}_0.bin").read_bytes())
    print(f"{out.relative_to(HERE.parent)}: model ({(out / 'model.tflite').stat().st_size} bytes) and {len(inputs)} cases")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tflm", required=True, metavar="TFLM_RUN", help="the TFLM host oracle: records the outputs")
    parser.add_argument("--models", default=",".join(GENERATORS), help=f"comma-separated: {','.join(GENERATORS)}")
    args = parser.parse_args()
    for key in args.models.split(","):
        write(args.tflm, *GENERATORS[key]())


if __name__ == "__main__":
    main()
