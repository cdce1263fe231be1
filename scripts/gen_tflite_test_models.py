#!/usr/bin/python3
"""Small .tflite files for ctnn's TFLite frontend tests, written without TensorFlow or flatc.

Writes tests/data/tflite/*.tflite and, for the float models, <model>_expected.hpp with inputs and the
outputs of an independent NumPy (float64) implementation of the TFLite ops. Python 3 standard library and
NumPy only; deterministic (fixed seeds): re-running reproduces every file byte for byte.

    /usr/bin/python3 scripts/gen_tflite_test_models.py      # < 1 s
    /usr/bin/python3 scripts/gen_tflite_test_models.py --tflm /work/oracle/tflm/tflm_run
                                                  # also regenerates sub_int8_expected.hpp with the TFLM oracle

The FlatBuffers writer here is written from the format's description (../shared/FORMATS.md §1), like
ctnn's constexpr reader, but lays the buffer out the other way round: front to back, every object after
the one that points to it (uoffsets are unsigned and point forward). Vtables are shared between tables
with the same layout (as flatc does), most vtables precede their table (positive soffset) and the
tables of some models put theirs after the table (negative soffset), so that both reader paths are
exercised. Fields equal to their schema default are omitted (as writers do), except where a model is
meant to test that the reader honours an explicit value.

Models (float unless said otherwise; the op list of each is in its _expected.hpp comment):
  conv_net        CONV_2D (SAME, stride 2, RELU), DEPTHWISE_CONV_2D (VALID, multiplier 2, RELU6),
                  MAX_POOL_2D with a fused RELU, RESHAPE (shape tensor), FULLY_CONNECTED, SOFTMAX.
                  Old-style operator codes (deprecated_builtin_code only).
  branch_net      CONV_2D 1x1 without bias, ADD, RELU, PAD, AVERAGE_POOL_2D (SAME, stride 2), CONV_2D with
                  dilation 2, MUL by a constant, CONCATENATION (axis -1, fused RELU6), LOGISTIC, RELU6,
                  TANH, FULLY_CONNECTED on a rank-4 input (TFLite flattens it to [16, 8]), SOFTMAX.
                  New-style operator codes (both fields), vtables after their tables.
  multi_io        two inputs, ADD; outputs: the sum, input 0 itself, the sum again (copies).
  mean_net        MEAN over H and W (keep_dims), then MEAN over the last axis (no keep_dims).
  int8_net        QUANTIZE, CONV_2D and DEPTHWISE_CONV_2D with per-channel int8 weights and int32 biases,
                  AVERAGE_POOL_2D, RESHAPE (new_shape option), FULLY_CONNECTED (per-tensor), SOFTMAX,
                  DEQUANTIZE; import only (int8 kernels are written separately).
  int8_conv_extremes  int8 input (zero point -128) -> CONV_2D 3x3 SAME and DEPTHWISE_CONV_2D 3x3 SAME
                  (multiplier 2), two outputs; per-channel weights of +-127 (products of one sign) or 0, int32
                  biases at and near INT32_MAX / INT32_MIN, channel multipliers of 2^-25 and of 1 - 2^-26 (the
                  rescaled accumulator within 32 of the int32 limits), output zero points -100 and 100: TFLite's
                  int32 accumulator and output zero point addition wrap (issue #23; the fuzz regression
                  tests/fuzz/regressions/run/int8_conv_bias_overflow.tflite is a copy).
  sub_net         two inputs [1,4,4,3] and [1,1,1,3] (broadcast): SUB with a fused RELU, then SUB of a constant [3];
                  outputs: both SUB results.
  sub_int8        int8 inputs a [1,5,5,3] and b [1,1,5,3] (broadcast over dim 1): SUB(a, b) with a fused RELU6 and
                  SUB(b, a) with another output quantization; outputs: both. sub_int8_expected.hpp holds int8 inputs
                  and the outputs of TensorFlow Lite Micro's reference kernels (the host oracle tflm_run, outside
                  the repository): regenerated only with --tflm <path to tflm_run>; without it the committed header
                  is kept (after checking that it belongs to this model and these inputs).
  int16_dense     FULLY_CONNECTED "16x8" (int16 activations with zero point 0, int8 weights, an int64 bias).
Models that must be rejected:
  bad_unsupported_op    op 1 is LSH_PROJECTION (builtin code 15: not in TensorFlow Lite Micro either).
  bad_several_unsupported  ops 0, 1 and 3 (LSH_PROJECTION, SKIP_GRAM, HASHTABLE_LOOKUP), tensor 2 (FLOAT16) and
                        op 2 (a RELU writing the UINT8 tensor 3) are unsupported: the tools name all five at once.
  bad_bias_type         int8 FULLY_CONNECTED with an int8 bias (operand 2): TFLM would read it as int32, past its end.
  bad_hybrid            FULLY_CONNECTED with float32 input and int8 weights (tensor 1).
  bad_dynamic_shape     input shape [-1, 4].
  bad_malformed         conv_net with the Model's `buffers` offset pointing past the end of the file.
  bad_softmax_beta      SOFTMAX with beta 2.
  bad_fused_tanh        CONV_2D with a fused TANH.
  bad_uint8             a RELU of UINT8 tensors (TFLM runs uint8 only at QUANTIZE, DEQUANTIZE and byte moves).
  bad_pad_not_constant  PAD whose paddings are a graph input.
  bad_scale_nan         an int8 tensor (0) whose scale is NaN.
  bad_zero_point        an int8 tensor (1) whose zero point is 300.
  bad_channel_scale     CONV_2D weights (tensor 1) with a negative per-channel scale.
  bad_multiplier        int8 FULLY_CONNECTED whose scales give a multiplier of 2^60 (shift 61 > 31).
  bad_logistic_scale    int8 LOGISTIC with input scale 2^-40 (a negative input shift).
"""

from __future__ import annotations

import argparse
import hashlib
import math
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "tests" / "data" / "tflite"

# ----------------------------------------------------------------------------------------------------
# A minimal FlatBuffers writer (front to back).


class Table:
    """A table: fields by id. Values: ("u8"|"i8"|"u16"|"i32"|"u32"|"i64"|"u64"|"f32"|"bool", v),
    ("table", Table), ("str", text), ("vec", fmt, values, align) of scalars, ("vec_table", [Table]),
    ("vec_str", [text])."""

    def __init__(self, fields: dict[int, tuple], vtable_after: bool = False):
        self.fields = fields
        self.vtable_after = vtable_after


SCALAR = {"u8": "B", "i8": "b", "bool": "B", "u16": "H", "i32": "i", "u32": "I", "f32": "f", "i64": "q", "u64": "Q"}


class Writer:
    def __init__(self, identifier: bytes):
        self.buf = bytearray(8)
        self.buf[4:8] = identifier
        self.vtables: dict[bytes, int] = {}

    def align(self, n: int, extra: int = 0) -> None:
        """Pads so that len(buf) + extra is a multiple of n."""
        while (len(self.buf) + extra) % n:
            self.buf.append(0)

    def patch_uoffset(self, at: int, target: int) -> None:
        assert target > at
        struct.pack_into("<I", self.buf, at, target - at)

    def finish(self, root: Table) -> bytes:
        pos = self.table(root)
        struct.pack_into("<I", self.buf, 0, pos)
        self.align(16)
        return bytes(self.buf)

    def table(self, t: Table) -> int:
        # Inline layout: soffset, then fields from the largest to the smallest (each aligned).
        size_of = {}
        for fid, value in t.fields.items():
            kind = value[0]
            size_of[fid] = struct.calcsize("<" + SCALAR[kind]) if kind in SCALAR else 4
        layout: dict[int, int] = {}
        offset = 4
        for fid in sorted(t.fields, key=lambda f: (-size_of[f], f)):
            s = size_of[fid]
            while offset % s:
                offset += 1
            layout[fid] = offset
            offset += s
        inline_size = offset
        max_id = max(t.fields) if t.fields else -1
        vtable = struct.pack("<HH", 4 + 2 * (max_id + 1), inline_size)
        for fid in range(max_id + 1):
            vtable += struct.pack("<H", layout.get(fid, 0))
        table_align = 8 if 8 in size_of.values() else 4

        if not t.vtable_after and vtable in self.vtables:
            vt_pos = self.vtables[vtable]
            self.align(table_align)
        elif not t.vtable_after:
            self.align(2)
            vt_pos = len(self.buf)
            self.buf += vtable
            self.vtables[vtable] = vt_pos
            self.align(table_align)
        pos = len(self.buf)
        self.buf += bytes(inline_size)
        if t.vtable_after:
            self.align(2)
            vt_pos = len(self.buf)
            self.buf += vtable
        struct.pack_into("<i", self.buf, pos, pos - vt_pos)

        pending = []
        for fid, value in t.fields.items():
            at = pos + layout[fid]
            kind = value[0]
            if kind in SCALAR:
                struct.pack_into("<" + SCALAR[kind], self.buf, at, value[1])
            else:
                pending.append((at, value))
        for at, value in pending:
            self.patch_uoffset(at, self.obj(value))
        return pos

    def obj(self, value: tuple) -> int:
        kind = value[0]
        if kind == "table":
            return self.table(value[1])
        if kind == "str":
            data = value[1].encode()
            self.align(4)
            pos = len(self.buf)
            self.buf += struct.pack("<I", len(data)) + data + b"\0"
            return pos
        if kind == "vec":
            _, fmt, values, align = value
            size = struct.calcsize("<" + fmt)
            self.align(max(4, size, align), 4)
            pos = len(self.buf)
            self.buf += struct.pack("<I", len(values))
            self.buf += b"".join(struct.pack("<" + fmt, v) for v in values) if fmt != "raw" else b""
            return pos
        if kind == "bytes":
            _, data, align = value
            self.align(max(4, align), 4)
            pos = len(self.buf)
            self.buf += struct.pack("<I", len(data)) + data
            return pos
        if kind in ("vec_table", "vec_str"):
            items = value[1]
            self.align(4)
            pos = len(self.buf)
            self.buf += struct.pack("<I", len(items)) + bytes(4 * len(items))
            for k, item in enumerate(items):
                target = self.table(item) if kind == "vec_table" else self.obj(("str", item))
                self.patch_uoffset(pos + 4 + 4 * k, target)
            return pos
        raise ValueError(kind)


# ----------------------------------------------------------------------------------------------------
# The TFLite schema subset (field ids: ../shared/FORMATS.md §2).

FLOAT32, FLOAT16, INT32, UINT8, INT8, INT16, INT64, RESOURCE = 0, 1, 2, 3, 9, 7, 4, 13
OPS = {"ADD": 0, "AVERAGE_POOL_2D": 1, "CONCATENATION": 2, "CONV_2D": 3, "DEPTHWISE_CONV_2D": 4, "DEQUANTIZE": 6,
       "FULLY_CONNECTED": 9, "LOGISTIC": 14, "MAX_POOL_2D": 17, "MUL": 18, "RELU": 19, "RELU6": 21, "RESHAPE": 22,
       "SOFTMAX": 25, "TANH": 28, "PAD": 34, "MEAN": 40, "SUB": 41, "QUANTIZE": 114,
       "SUM": 74, "REDUCE_MAX": 82, "REDUCE_MIN": 89, "ARG_MAX": 56, "ARG_MIN": 79,
       "LSH_PROJECTION": 15, "HASHTABLE_LOOKUP": 10, "SKIP_GRAM": 30}
OPTIONS = {"CONV_2D": 1, "DEPTHWISE_CONV_2D": 2, "AVERAGE_POOL_2D": 5, "MAX_POOL_2D": 5, "FULLY_CONNECTED": 8,
           "SOFTMAX": 9, "CONCATENATION": 10, "ADD": 11, "RESHAPE": 17, "MUL": 21, "PAD": 22, "MEAN": 27,
           "SUB": 28, "DEQUANTIZE": 38, "QUANTIZE": 89, "SUM": 27, "REDUCE_MAX": 27, "REDUCE_MIN": 27,
           "ARG_MAX": 40, "ARG_MIN": 57}
# Custom operators: their name in OPS (code 32, CUSTOM) -> the operator code's custom_code.
CUSTOM_CODES: dict[str, str] = {}
SAME, VALID = 0, 1
ACT = {None: 0, "RELU": 1, "RELU_N1_TO_1": 2, "RELU6": 3, "TANH": 4}
NP_TYPES = {FLOAT32: "<f4", INT32: "<i4", INT8: "i1", UINT8: "u1", INT16: "<i2", INT64: "<i8"}


class Model:
    """Collects tensors, buffers and operators; `serialize` writes the .tflite bytes."""

    def __init__(self, new_opcodes: bool = False, vtable_after: bool = False):
        self.tensors: list[dict] = []
        self.buffers: list[bytes | None] = [None]  # buffer 0: the empty sentinel
        self.ops: list[dict] = []
        self.inputs: list[int] = []
        self.outputs: list[int] = []
        self.new_opcodes = new_opcodes
        self.vtable_after = vtable_after
        self.data: dict[int, np.ndarray] = {}  # constant values by tensor, for the NumPy reference
        self.name = "main"
        self.subgraphs: list[Model] = []  # subgraphs 1, 2, ... (a CALL_ONCE's init subgraph): add_subgraph

    def add_subgraph(self, name: str) -> "Model":
        """Another subgraph of this model (index len(subgraphs) after the call): its own tensors, ops, inputs and
        outputs; the model's buffers and operator codes."""
        sub = Model(self.new_opcodes, self.vtable_after)
        sub.buffers = self.buffers
        sub.name = name
        self.subgraphs.append(sub)
        return sub

    def tensor(self, name, shape, dtype=FLOAT32, data=None, quant=None, signature=None, variable=False) -> int:
        buffer = len(self.buffers)
        if data is not None:
            array = np.asarray(data).astype(NP_TYPES[dtype])
            assert array.size == int(np.prod(shape)), (name, array.size, shape)
            self.buffers.append(array.tobytes())
            self.data[len(self.tensors)] = np.asarray(data).reshape(shape)
        else:
            self.buffers.append(None)
        self.tensors.append(dict(name=name, shape=list(shape), type=dtype, buffer=buffer, quant=quant, signature=signature,
                                 variable=variable))
        return len(self.tensors) - 1

    def op(self, code: str, inputs, outputs, **options) -> None:
        self.ops.append(dict(code=code, inputs=list(inputs), outputs=list(outputs), options=options))

    def serialize(self) -> bytes:
        va = self.vtable_after
        codes = []
        for o in [o for g in [self] + self.subgraphs for o in g.ops]:
            if o["code"] not in codes:
                codes.append(o["code"])
        opcode_tables = []
        for c in codes:
            code = OPS[c]
            fields = {0: ("i8", min(code, 127))}
            if self.new_opcodes:
                fields[3] = ("i32", code)
            if c in CUSTOM_CODES:  # a custom operator: builtin code CUSTOM and its custom_code
                fields[1] = ("str", CUSTOM_CODES[c])
            opcode_tables.append(Table(fields, va))
        subgraphs = [g.subgraph_table(codes) for g in [self] + self.subgraphs]
        buffer_tables = [Table({} if b is None else {0: ("bytes", b, 16)}, va) for b in self.buffers]
        model = Table({0: ("u32", 3), 1: ("vec_table", opcode_tables), 2: ("vec_table", subgraphs),
                       3: ("str", "ctnn test model"), 4: ("vec_table", buffer_tables)}, va)
        return Writer(b"TFL3").finish(model)

    def subgraph_table(self, codes: list[str]) -> Table:
        """This subgraph's table: its tensors, inputs, outputs, ops (opcode indices into `codes`) and name."""
        va = self.vtable_after
        tensor_tables = []
        for t in self.tensors:
            fields = {0: ("vec", "i", t["shape"], 4), 2: ("u32", t["buffer"]), 3: ("str", t["name"])}
            if t["type"] != FLOAT32:
                fields[1] = ("i8", t["type"])
            if t["signature"] is not None:
                fields[7] = ("vec", "i", t["signature"], 4)
            if t.get("variable"):
                fields[5] = ("u8", 1)  # is_variable
            q = t["quant"]
            if q is not None:
                qf = {2: ("vec", "f", list(q["scale"]), 4), 3: ("vec", "q", list(q["zero_point"]), 8)}
                if q.get("axis", 0) != 0:
                    qf[6] = ("i32", q["axis"])
                fields[4] = ("table", Table(qf, va))
            tensor_tables.append(Table(fields, va))
        op_tables = []
        for o in self.ops:
            fields = {0: ("u32", codes.index(o["code"])), 1: ("vec", "i", o["inputs"], 4), 2: ("vec", "i", o["outputs"], 4)}
            opts = options_table(o["code"], o["options"], va)
            if opts is not None:
                fields[3] = ("u8", OPTIONS[o["code"]])
                fields[4] = ("table", opts)
            if "custom_options" in o["options"]:  # a custom operator's option bytes (e.g. a FlexBuffers map)
                fields[5] = ("bytes", o["options"]["custom_options"], 16)
            op_tables.append(Table(fields, va))
        return Table({0: ("vec_table", tensor_tables), 1: ("vec", "i", self.inputs, 4), 2: ("vec", "i", self.outputs, 4),
                      3: ("vec_table", op_tables), 4: ("str", self.name)}, va)


def options_table(code: str, o: dict, va: bool) -> Table | None:
    act = ("i8", ACT[o.get("act")])
    f: dict[int, tuple] = {}
    if code == "CONV_2D":
        f = {0: ("i8", o["padding"]), 1: ("i32", o["stride"][1]), 2: ("i32", o["stride"][0]), 3: act,
             4: ("i32", o.get("dilation", (1, 1))[1]), 5: ("i32", o.get("dilation", (1, 1))[0])}
    elif code == "DEPTHWISE_CONV_2D":
        f = {0: ("i8", o["padding"]), 1: ("i32", o["stride"][1]), 2: ("i32", o["stride"][0]), 3: ("i32", o["multiplier"]),
             4: act, 5: ("i32", o.get("dilation", (1, 1))[1]), 6: ("i32", o.get("dilation", (1, 1))[0])}
    elif code in ("AVERAGE_POOL_2D", "MAX_POOL_2D"):
        f = {0: ("i8", o["padding"]), 1: ("i32", o["stride"][1]), 2: ("i32", o["stride"][0]), 3: ("i32", o["filter"][1]),
             4: ("i32", o["filter"][0]), 5: act}
    elif code == "FULLY_CONNECTED":
        f = {0: act}
    elif code == "SOFTMAX":
        f = {0: ("f32", o.get("beta", 1.0))}
    elif code == "CONCATENATION":
        f = {0: ("i32", o["axis"]), 1: act}
    elif code in ("ADD", "MUL", "SUB"):
        f = {0: act}
    elif code == "RESHAPE":
        if "new_shape" not in o:
            return None
        f = {0: ("vec", "i", o["new_shape"], 4)}
    elif code in ("MEAN", "SUM", "REDUCE_MAX", "REDUCE_MIN"):
        f = {0: ("bool", 1 if o.get("keep_dims") else 0)}
    elif code in ("ARG_MAX", "ARG_MIN"):
        f = {0: ("i8", o["output_type"])}
    elif code in ("PAD", "QUANTIZE", "DEQUANTIZE"):
        f = {}
    else:
        return None
    # Writers omit fields equal to their defaults (padding SAME, NONE, dilation 1, keep_dims false).
    defaults = {"CONV_2D": {0: 0, 3: 0, 4: 1, 5: 1}, "DEPTHWISE_CONV_2D": {0: 0, 4: 0, 5: 1, 6: 1},
                "AVERAGE_POOL_2D": {0: 0, 5: 0}, "MAX_POOL_2D": {0: 0, 5: 0}, "FULLY_CONNECTED": {0: 0},
                "CONCATENATION": {1: 0}, "ADD": {0: 0}, "MUL": {0: 0}, "SUB": {0: 0}, "MEAN": {0: 0},
                "SUM": {0: 0}, "REDUCE_MAX": {0: 0}, "REDUCE_MIN": {0: 0}}
    for fid, default in defaults.get(code, {}).items():
        if fid in f and f[fid][0] != "vec" and f[fid][1] == default:
            del f[fid]
    return Table(f, va)


# ----------------------------------------------------------------------------------------------------
# Independent NumPy (float64) reference of the TFLite ops (NHWC; conv weights OHWI; depthwise [1,H,W,C*M]).


def same_pads(size, k, s, d):
    out = -(-size // s)
    total = max(0, (out - 1) * s + (k - 1) * d + 1 - size)
    return out, total // 2


def window_positions(size, k, s, d, padding):
    if padding == SAME:
        out, before = same_pads(size, k, s, d)
    else:
        out, before = (size - ((k - 1) * d + 1)) // s + 1, 0
    return out, before


def activation(x, act):
    if act == "RELU":
        return np.maximum(x, 0)
    if act == "RELU6":
        return np.clip(x, 0, 6)
    return x


def conv2d(x, w, b, stride, padding, dilation=(1, 1), act=None, depthwise_multiplier=None):
    n, h, wd, c = x.shape
    if depthwise_multiplier is None:
        oc, kh, kw, ic = w.shape
    else:
        _, kh, kw, oc = w.shape
    oh, top = window_positions(h, kh, stride[0], dilation[0], padding)
    ow, left = window_positions(wd, kw, stride[1], dilation[1], padding)
    y = np.zeros((n, oh, ow, oc))
    for i in range(oh):
        for j in range(ow):
            for a in range(kh):
                for bb in range(kw):
                    yy = i * stride[0] - top + a * dilation[0]
                    xx = j * stride[1] - left + bb * dilation[1]
                    if 0 <= yy < h and 0 <= xx < wd:
                        pixel = x[:, yy, xx, :]
                        if depthwise_multiplier is None:
                            y[:, i, j, :] += pixel @ w[:, a, bb, :].T
                        else:
                            y[:, i, j, :] += np.repeat(pixel, depthwise_multiplier, axis=1) * w[0, a, bb, :]
    if b is not None:
        y += b
    return activation(y, act)


def pool2d(x, filt, stride, padding, kind, act=None):
    n, h, wd, c = x.shape
    oh, top = window_positions(h, filt[0], stride[0], 1, padding)
    ow, left = window_positions(wd, filt[1], stride[1], 1, padding)
    y = np.zeros((n, oh, ow, c))
    for i in range(oh):
        for j in range(ow):
            y0, x0 = i * stride[0] - top, j * stride[1] - left
            win = x[:, max(y0, 0):min(y0 + filt[0], h), max(x0, 0):min(x0 + filt[1], wd), :]
            y[:, i, j, :] = win.max(axis=(1, 2)) if kind == "max" else win.mean(axis=(1, 2))  # in-bounds count
    return activation(y, act)


def fully_connected(x, w, b, act=None):
    y = x.reshape(-1, w.shape[1]) @ w.T
    if b is not None:
        y += b
    return activation(y, act)


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


# ----------------------------------------------------------------------------------------------------
# The models.


def rand(rng, *shape, scale=1.0):
    return (rng.uniform(-1.0, 1.0, size=shape) * scale).astype(np.float32)


def conv_net():
    rng = np.random.RandomState(11)
    m = Model()
    x = m.tensor("input", [1, 9, 9, 2], signature=[-1, 9, 9, 2])
    w1, b1 = rand(rng, 4, 3, 3, 2), rand(rng, 4, scale=0.5)
    w2, b2 = rand(rng, 1, 3, 3, 8, scale=1.5), rand(rng, 8, scale=0.5)
    w4, b4 = rand(rng, 6, 32, scale=0.5), rand(rng, 6, scale=0.5)
    tw1, tb1 = m.tensor("conv/weights", [4, 3, 3, 2], data=w1), m.tensor("conv/bias", [4], data=b1)
    t1 = m.tensor("conv/Relu;conv/BiasAdd", [1, 5, 5, 4])
    tw2, tb2 = m.tensor("dw/weights", [1, 3, 3, 8], data=w2), m.tensor("dw/bias", [8], data=b2)
    t2 = m.tensor("dw/Relu6", [1, 3, 3, 8])
    t3 = m.tensor("pool", [1, 2, 2, 8])
    shape = m.tensor("flatten/shape", [2], INT32, data=np.array([-1, 32]))
    t4 = m.tensor("flatten", [1, 32])
    tw4, tb4 = m.tensor("fc/weights", [6, 32], data=w4), m.tensor("fc/bias", [6], data=b4)
    t5 = m.tensor("fc", [1, 6])
    y = m.tensor("scores", [1, 6])
    m.inputs, m.outputs = [x], [y]
    m.op("CONV_2D", [x, tw1, tb1], [t1], padding=SAME, stride=(2, 2), act="RELU")
    m.op("DEPTHWISE_CONV_2D", [t1, tw2, tb2], [t2], padding=VALID, stride=(1, 1), multiplier=2, act="RELU6")
    m.op("MAX_POOL_2D", [t2], [t3], padding=VALID, stride=(1, 1), filter=(2, 2), act="RELU")
    m.op("RESHAPE", [t3, shape], [t4])
    m.op("FULLY_CONNECTED", [t4, tw4, tb4], [t5])
    m.op("SOFTMAX", [t5], [y], beta=1.0)

    def run(inp):
        a = conv2d(inp, w1, b1, (2, 2), SAME, act="RELU")
        a = conv2d(a, w2, b2, (1, 1), VALID, act="RELU6", depthwise_multiplier=2)
        a = pool2d(a, (2, 2), (1, 1), VALID, "max", act="RELU")
        a = fully_connected(a.reshape(1, 32), w4, b4)
        return [softmax(a)]

    return m, run, ["[1,9,9,2] -> CONV_2D 3x3 SAME s2 RELU (4) -> DEPTHWISE 3x3 VALID x2 RELU6 -> MAX_POOL 2x2 VALID "
                    "+RELU -> RESHAPE [-1,32] -> FULLY_CONNECTED (6) -> SOFTMAX"]


def branch_net():
    rng = np.random.RandomState(12)
    m = Model(new_opcodes=True, vtable_after=True)
    x = m.tensor("input", [1, 6, 6, 3])
    w0 = rand(rng, 3, 1, 1, 3)
    tw0 = m.tensor("proj/weights", [3, 1, 1, 3], data=w0)
    t0 = m.tensor("proj", [1, 6, 6, 3])
    t1 = m.tensor("residual", [1, 6, 6, 3])
    t1r = m.tensor("residual/relu", [1, 6, 6, 3])
    pads = np.array([[0, 0], [1, 1], [2, 0], [0, 0]])
    tp = m.tensor("pad/paddings", [4, 2], INT32, data=pads)
    t2 = m.tensor("pad", [1, 8, 8, 3])
    t3 = m.tensor("avg", [1, 4, 4, 3])
    w4, b4 = rand(rng, 5, 3, 3, 3), rand(rng, 5, scale=0.5)
    tw4, tb4 = m.tensor("dilated/weights", [5, 3, 3, 3], data=w4), m.tensor("dilated/bias", [5], data=b4)
    t4 = m.tensor("dilated", [1, 4, 4, 5])
    scale = rand(rng, 3, scale=2.0)
    ts = m.tensor("scale", [3], data=scale)
    t5 = m.tensor("scaled", [1, 4, 4, 3])
    t6 = m.tensor("concat", [1, 4, 4, 8])
    t7 = m.tensor("sigmoid", [1, 4, 4, 8])
    t8 = m.tensor("relu6", [1, 4, 4, 8])
    t9 = m.tensor("tanh", [1, 4, 4, 8])
    w10, b10 = rand(rng, 10, 8), rand(rng, 10, scale=0.5)
    tw10, tb10 = m.tensor("fc/weights", [10, 8], data=w10), m.tensor("fc/bias", [10], data=b10)
    t10 = m.tensor("fc", [16, 10])
    y = m.tensor("probabilities", [16, 10])
    m.inputs, m.outputs = [x], [y]
    m.op("CONV_2D", [x, tw0, -1], [t0], padding=VALID, stride=(1, 1))
    m.op("ADD", [x, t0], [t1])
    m.op("RELU", [t1], [t1r])
    m.op("PAD", [t1r, tp], [t2])
    m.op("AVERAGE_POOL_2D", [t2], [t3], padding=SAME, stride=(2, 2), filter=(3, 3))
    m.op("CONV_2D", [t3, tw4, tb4], [t4], padding=SAME, stride=(1, 1), dilation=(2, 2))
    m.op("MUL", [t3, ts], [t5])
    m.op("CONCATENATION", [t4, t5], [t6], axis=-1, act="RELU6")
    m.op("LOGISTIC", [t6], [t7])
    m.op("RELU6", [t7], [t8])
    m.op("TANH", [t8], [t9])
    m.op("FULLY_CONNECTED", [t9, tw10, tb10], [t10])
    m.op("SOFTMAX", [t10], [y], beta=1.0)

    def run(inp):
        a = inp + conv2d(inp, w0, None, (1, 1), VALID)
        a = np.maximum(a, 0)
        a = np.pad(a, pads)
        a = pool2d(a, (3, 3), (2, 2), SAME, "avg")
        b = conv2d(a, w4, b4, (1, 1), SAME, dilation=(2, 2))
        c = a * scale
        a = np.clip(np.concatenate([b, c], axis=-1), 0, 6)
        a = np.tanh(np.clip(sigmoid(a), 0, 6))
        a = fully_connected(a, w10, b10)
        return [softmax(a)]

    return m, run, ["[1,6,6,3] -> CONV_2D 1x1 (no bias) -> ADD(input) -> RELU -> PAD [[0,0],[1,1],[2,0],[0,0]] -> "
                    "AVERAGE_POOL 3x3 SAME s2 -> { CONV_2D 3x3 SAME dilation 2 (5), MUL by [3] } -> CONCATENATION "
                    "axis -1 +RELU6 -> LOGISTIC -> RELU6 -> TANH -> FULLY_CONNECTED (10; input flattened to [16,8]) "
                    "-> SOFTMAX"]


def multi_io():
    m = Model(new_opcodes=True)
    a = m.tensor("a", [1, 4])
    b = m.tensor("b", [1, 4])
    s = m.tensor("sum", [1, 4])
    m.inputs, m.outputs = [a, b], [s, a, s]
    m.op("ADD", [a, b], [s], act="RELU")

    def run(inp_a, inp_b):
        total = np.maximum(inp_a + inp_b, 0)
        return [total, inp_a, total]

    return m, run, ["inputs a, b [1,4] -> ADD +RELU; outputs: sum, a, sum"]


def mean_net():
    m = Model()
    x = m.tensor("input", [1, 4, 4, 3])
    axes1 = m.tensor("axes_hw", [2], INT32, data=np.array([1, 2]))
    t1 = m.tensor("mean_hw", [1, 1, 1, 3])
    axes2 = m.tensor("axes_last", [1], INT32, data=np.array([-1]))
    y = m.tensor("mean_c", [1, 1, 1])
    m.inputs, m.outputs = [x], [y]
    m.op("MEAN", [x, axes1], [t1], keep_dims=True)
    m.op("MEAN", [t1, axes2], [y], keep_dims=False)

    def run(inp):
        return [inp.mean(axis=(1, 2), keepdims=True).mean(axis=-1)]

    return m, run, ["[1,4,4,3] -> MEAN over H, W (keep_dims) -> MEAN over -1 -> [1,1,1]"]


def int8_net():
    rng = np.random.RandomState(13)
    m = Model(new_opcodes=True)
    q = lambda s, z: dict(scale=[s], zero_point=[z])
    x = m.tensor("input", [1, 8, 8, 3])
    xq = m.tensor("input_int8", [1, 8, 8, 3], INT8, quant=q(0.0078125, -1))
    w1 = rng.randint(-127, 128, size=(4, 3, 3, 3))
    s1 = (rng.uniform(0.5, 1.5, size=4) * 0.01).astype(np.float32)
    tw1 = m.tensor("conv/weights", [4, 3, 3, 3], INT8, data=w1, quant=dict(scale=s1, zero_point=[0] * 4))
    tb1 = m.tensor("conv/bias", [4], INT32, data=rng.randint(-500, 500, size=4),
                   quant=dict(scale=s1 * np.float32(0.0078125), zero_point=[0] * 4))
    t1 = m.tensor("conv", [1, 8, 8, 4], INT8, quant=q(0.05, -128))
    w2 = rng.randint(-127, 128, size=(1, 3, 3, 4))
    s2 = (rng.uniform(0.5, 1.5, size=4) * 0.02).astype(np.float32)
    tw2 = m.tensor("dw/weights", [1, 3, 3, 4], INT8, data=w2, quant=dict(scale=s2, zero_point=[0] * 4, axis=3))
    tb2 = m.tensor("dw/bias", [4], INT32, data=rng.randint(-500, 500, size=4),
                   quant=dict(scale=s2 * np.float32(0.05), zero_point=[0] * 4))
    t2 = m.tensor("dw", [1, 4, 4, 4], INT8, quant=q(0.04, -128))
    t3 = m.tensor("pool", [1, 1, 1, 4], INT8, quant=q(0.04, -128))
    t4 = m.tensor("flatten", [1, 4], INT8, quant=q(0.04, -128))
    w5 = rng.randint(-127, 128, size=(3, 4))
    tw5 = m.tensor("fc/weights", [3, 4], INT8, data=w5, quant=q(0.015, 0))
    tb5 = m.tensor("fc/bias", [3], INT32, data=rng.randint(-100, 100, size=3), quant=q(0.04 * 0.015, 0))
    t5 = m.tensor("fc", [1, 3], INT8, quant=q(0.1, 3))
    t6 = m.tensor("softmax", [1, 3], INT8, quant=q(1.0 / 256, -128))
    y = m.tensor("probabilities", [1, 3])
    m.inputs, m.outputs = [x], [y]
    m.op("QUANTIZE", [x], [xq])
    m.op("CONV_2D", [xq, tw1, tb1], [t1], padding=SAME, stride=(1, 1), act="RELU")
    m.op("DEPTHWISE_CONV_2D", [t1, tw2, tb2], [t2], padding=SAME, stride=(2, 2), multiplier=1, act="RELU6")
    m.op("AVERAGE_POOL_2D", [t2], [t3], padding=VALID, stride=(4, 4), filter=(4, 4))
    m.op("RESHAPE", [t3], [t4], new_shape=[1, 4])
    m.op("FULLY_CONNECTED", [t4, tw5, tb5], [t5])
    m.op("SOFTMAX", [t5], [t6], beta=1.0)
    m.op("DEQUANTIZE", [t6], [y])
    return m, None, ["[1,8,8,3] f32 -> QUANTIZE -> CONV_2D int8 per-channel -> DEPTHWISE per-channel (axis 3) s2 -> "
                     "AVERAGE_POOL 4x4 -> RESHAPE new_shape [1,4] -> FULLY_CONNECTED -> SOFTMAX -> DEQUANTIZE"]


def int8_conv_extremes():
    """Convolutions whose int32 arithmetic wraps: biases at the int32 limits, large one-signed products,
    multipliers of nearly one (issue #23). Input [1,5,5,4] int8, zero point -128 (x + 128 >= 0)."""
    rng = np.random.RandomState(23)
    m = Model(new_opcodes=True)
    int32_max, int32_min = 2 ** 31 - 1, -2 ** 31
    in_scale = np.float32(1.0 + 2.0 ** -13)
    near_one = np.float32(1.0 - 2.0 ** -13)  # in_scale * near_one = 1 - 2^-26: multiplier 2^31 - 32, shift 0
    # Per output channel: (weights: 127, -127, 0 or None for random ones, bias, weight scale).
    channels = [(127, int32_max, 2.0 ** -25), (-127, int32_min, 2.0 ** -25), (0, int32_min, near_one),
                (0, int32_max, near_one), (None, int32_max - 1000, 2.0 ** -25), (None, int32_min + 1000, 2.0 ** -20),
                (127, 2147000000, 2.0 ** -24), (-127, -2147000000, 2.0 ** -24)]
    scales = np.array([c[2] for c in channels], dtype=np.float32)
    biases = [c[1] for c in channels]
    x = m.tensor("input", [1, 5, 5, 4], INT8, quant=dict(scale=[in_scale], zero_point=[-128]))

    def filters(shape, channel_axis):
        w = rng.randint(-127, 128, size=shape)
        for c, (value, _, _) in enumerate(channels):
            if value is not None:
                np.moveaxis(w, channel_axis, 0)[c] = value
        return w

    tw1 = m.tensor("conv/weights", [8, 3, 3, 4], INT8, data=filters((8, 3, 3, 4), 0),
                   quant=dict(scale=scales, zero_point=[0] * 8))
    tb1 = m.tensor("conv/bias", [8], INT32, data=biases, quant=dict(scale=scales * in_scale, zero_point=[0] * 8))
    y1 = m.tensor("conv", [1, 5, 5, 8], INT8, quant=dict(scale=[1.0], zero_point=[-100]))
    tw2 = m.tensor("dw/weights", [1, 3, 3, 8], INT8, data=filters((1, 3, 3, 8), 3),
                   quant=dict(scale=scales, zero_point=[0] * 8, axis=3))
    tb2 = m.tensor("dw/bias", [8], INT32, data=biases, quant=dict(scale=scales * in_scale, zero_point=[0] * 8))
    y2 = m.tensor("dw", [1, 5, 5, 8], INT8, quant=dict(scale=[1.0], zero_point=[100]))
    m.inputs, m.outputs = [x], [y1, y2]
    m.op("CONV_2D", [x, tw1, tb1], [y1], padding=SAME, stride=(1, 1))
    m.op("DEPTHWISE_CONV_2D", [x, tw2, tb2], [y2], padding=SAME, stride=(1, 1), multiplier=2)
    return m, None, ["[1,5,5,4] int8 -> CONV_2D 3x3 per-channel -> [1,5,5,8]; -> DEPTHWISE_CONV_2D 3x3 x2 -> [1,5,5,8]"]


def sub_net():
    rng = np.random.RandomState(14)
    m = Model(new_opcodes=True)
    a = m.tensor("a", [1, 4, 4, 3])
    b = m.tensor("b", [1, 1, 1, 3])
    t1 = m.tensor("a_minus_b/relu", [1, 4, 4, 3])
    offset = rand(rng, 3, scale=0.5)
    tc = m.tensor("offset", [3], data=offset)
    t2 = m.tensor("minus_offset", [1, 4, 4, 3])
    m.inputs, m.outputs = [a, b], [t1, t2]
    m.op("SUB", [a, b], [t1], act="RELU")
    m.op("SUB", [t1, tc], [t2])

    def run(inp_a, inp_b):
        first = np.maximum(inp_a - inp_b, 0)
        # The first result is a float32 tensor (and an output): the second SUB reads it rounded to float.
        return [first, first.astype(np.float32).astype(np.float64) - offset]

    return m, run, ["inputs a [1,4,4,3], b [1,1,1,3] -> SUB(a, b) +RELU (broadcast) -> SUB(that, constant [3]);",
                    "outputs: both SUB results (the second computed from the first rounded to float32)"]


SUB_INT8_QUANT = {"a": (0.05, -3), "b": (0.11, 7), "a_minus_b": (0.08, 2), "b_minus_a": (0.2, -10)}


def sub_int8():
    m = Model(new_opcodes=True)
    q = lambda name: dict(scale=[SUB_INT8_QUANT[name][0]], zero_point=[SUB_INT8_QUANT[name][1]])
    a = m.tensor("a", [1, 5, 5, 3], INT8, quant=q("a"))
    b = m.tensor("b", [1, 1, 5, 3], INT8, quant=q("b"))
    y1 = m.tensor("a_minus_b", [1, 5, 5, 3], INT8, quant=q("a_minus_b"))
    y2 = m.tensor("b_minus_a", [1, 5, 5, 3], INT8, quant=q("b_minus_a"))
    m.inputs, m.outputs = [a, b], [y1, y2]
    m.op("SUB", [a, b], [y1], act="RELU6")
    m.op("SUB", [b, a], [y2])
    return m, None, ["int8 a [1,5,5,3] (scale 0.05, zero point -3), b [1,1,5,3] (scale 0.11, zero point 7; broadcast "
                     "over dim 1)",
                     "-> SUB(a, b) +RELU6, output scale 0.08, zero point 2 (output 0);",
                     "-> SUB(b, a), output scale 0.2, zero point -10, no activation (output 1)"]


def sub_int8_inputs(model: Model, cases=3):
    """Three cases of int8 inputs: uniform over int8 with some elements at -128 and 127; only the extremes
    (and the zero points); near the zero points (within 12) with a few extremes."""
    rng = np.random.RandomState(24)
    shapes = [model.tensors[i]["shape"] for i in model.inputs]
    zero_points = [SUB_INT8_QUANT["a"][1], SUB_INT8_QUANT["b"][1]]
    result = []
    for case in range(cases):
        arrays = []
        for shape, zp in zip(shapes, zero_points):
            if case == 0:
                x = rng.randint(-128, 128, size=shape)
                flat = x.reshape(-1)
                flat[rng.choice(flat.size, size=4, replace=False)] = [-128, 127, -128, 127]
            elif case == 1:
                x = rng.choice([-128, 127, -128, 127, zp], size=shape)
            else:
                x = rng.randint(zp - 12, zp + 13, size=shape)
                flat = x.reshape(-1)
                flat[rng.choice(flat.size, size=2, replace=False)] = [-128, 127]
            arrays.append(x.astype(np.int8))
        result.append(arrays)
    return result


# TFLM's int8 SUB (tensorflow/lite/micro/kernels/sub_common.cc CalculateOpDataSub, kernels/internal/reference/
# sub.h BroadcastQuantSubSlow, double rounding): used only to cross-check the oracle's outputs.

def quantize_multiplier(real: float) -> tuple[int, int]:
    if real == 0.0:
        return 0, 0
    q, shift = math.frexp(real)
    fixed = int(math.floor(abs(q) * (1 << 31) + 0.5)) * (1 if q >= 0 else -1)  # TfLiteRound: half away from 0
    if fixed == 1 << 31:
        fixed //= 2
        shift += 1
    if shift < -31:
        return 0, 0
    return fixed, shift


def rounding_doubling_high_mul(a: int, b: int) -> int:
    if a == b == -(1 << 31):
        return (1 << 31) - 1
    ab = a * b
    nudge = (1 << 30) if ab >= 0 else 1 - (1 << 30)
    total = ab + nudge
    quotient = abs(total) // (1 << 31)  # C++ division truncates toward zero
    return quotient if total >= 0 else -quotient


def rounding_divide_by_pot(x: int, exponent: int) -> int:
    mask = (1 << exponent) - 1
    remainder = x & mask
    threshold = (mask >> 1) + (1 if x < 0 else 0)
    return (x >> exponent) + (1 if remainder > threshold else 0)


def multiply_smaller_than_one(x: int, multiplier: int, shift: int) -> int:
    return rounding_divide_by_pot(rounding_doubling_high_mul(x, multiplier), -shift)


def tflm_sub_int8(x1, q1, x2, q2, qo, act):
    """SUB(x1, x2) of int8 arrays (NumPy broadcasting), quantizations (scale, zero point)."""
    f32 = np.float32
    left_shift = 20
    twice_max = f32(2) * max(f32(q1[0]), f32(q2[0]))
    m1, s1 = quantize_multiplier(float(f32(q1[0]) / twice_max))
    m2, s2 = quantize_multiplier(float(f32(q2[0]) / twice_max))
    mo, so = quantize_multiplier(float(twice_max / (f32(1 << left_shift) * f32(qo[0]))))
    lo, hi = -128, 127
    if act in ("RELU", "RELU6"):
        lo = max(lo, qo[1])  # Quantize(0.0) = zero point
    if act == "RELU6":
        hi = min(hi, qo[1] + int(np.floor(f32(6.0) / f32(qo[0]) + f32(0.5))))  # TfLiteRound(6 / scale), > 0
    x1, x2 = np.broadcast_arrays(x1, x2)
    out = np.empty(x1.shape, np.int8)
    for idx in np.ndindex(x1.shape):
        v1 = multiply_smaller_than_one((int(x1[idx]) - q1[1]) * (1 << left_shift), m1, s1)
        v2 = multiply_smaller_than_one((int(x2[idx]) - q2[1]) * (1 << left_shift), m2, s2)
        raw = multiply_smaller_than_one(v1 - v2, mo, so) + qo[1]
        out[idx] = min(hi, max(lo, raw))
    return out


def run_tflm(tflm: str, model_path: Path, inputs: list[np.ndarray], output_dtypes, invocations: int = 1) -> tuple[list[np.ndarray], str]:
    """Runs the oracle tflm_run on one case (Invoke() `invocations` times on the same inputs: state carries);
    returns the raw outputs of the last and its stdout."""
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for k, x in enumerate(inputs):
            files.append(Path(tmp) / f"in{k}.bin")
            files[-1].write_bytes(np.ascontiguousarray(x).tobytes())
        command = [tflm, *(["--invoke", str(invocations)] if invocations > 1 else []), str(model_path),
                   str(Path(tmp) / "out"), *map(str, files)]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
        outputs = [np.frombuffer((Path(tmp) / f"out{k}.bin").read_bytes(), dtype=t)
                   for k, t in enumerate(output_dtypes)]
        return outputs, done.stdout


TFLM_COMMIT = "90b983c2b"


def c_ints(values) -> str:
    parts = [str(int(v)) for v in np.asarray(values).ravel()]
    return "\n".join("    " + ", ".join(parts[k:k + 16]) + "," for k in range(0, len(parts), 16))


def sub_int8_header(model: Model, data: bytes, inputs, outputs, notes) -> str:
    name = "sub_int8"
    text = [f"// Generated by scripts/gen_tflite_test_models.py: do not edit. {name}.tflite:",
            *[f"// {n}" for n in notes],
            "// Inputs: case 0 uniform over int8 with some -128 and 127, case 1 only -128, 127 and the zero point,",
            "// case 2 within 12 of the zero point with one -128 and one 127 per input.",
            f"// Expected: outputs of TensorFlow Lite Micro {TFLM_COMMIT} reference kernels (host build,",
            "// /work/oracle/tflm, not in the repository), generated by scripts/gen_tflite_test_models.py --tflm <path>.",
            f"// {name}.tflite sha256: {hashlib.sha256(data).hexdigest()}",
            "#pragma once", "#include <cstddef>", "#include <cstdint>", "",
            f"namespace ctnn_test_data::tflite_{name} {{", "",
            f"inline constexpr std::size_t case_count = {len(inputs)};"]
    for k, i in enumerate(model.inputs):
        size = int(np.prod(model.tensors[i]["shape"]))
        text += [f"inline constexpr std::size_t input{k}_elements = {size};",
                 f"inline constexpr std::int8_t input{k}[case_count * input{k}_elements] = {{",
                 "\n".join(c_ints(case[k]) for case in inputs), "};"]
    for k, o in enumerate(model.outputs):
        size = int(np.prod(model.tensors[o]["shape"]))
        text += [f"inline constexpr std::size_t output{k}_elements = {size};",
                 f"inline constexpr std::int8_t expected{k}[case_count * output{k}_elements] = {{",
                 "\n".join(c_ints(case[k]) for case in outputs), "};"]
    text += ["", f"}}  // namespace ctnn_test_data::tflite_{name}", ""]
    return "\n".join(text)


def write_sub_int8(tflm: str | None, summary: list[str]) -> None:
    """sub_int8.tflite, and sub_int8_expected.hpp from the TFLM oracle (with --tflm) or kept as committed."""
    model, _, notes = sub_int8()
    data = model.serialize()
    path = OUT / "sub_int8.tflite"
    path.write_bytes(data)
    summary.append(f"sub_int8.tflite: {len(data)} bytes, {len(model.tensors)} tensors, {len(model.ops)} ops")
    inputs = sub_int8_inputs(model)
    header = OUT / "sub_int8_expected.hpp"
    if tflm is None:
        committed = header.read_text() if header.exists() else ""
        fresh = sub_int8_header(model, data, inputs, [[np.zeros(0)] * len(model.outputs)] * len(inputs), notes)
        expected_prefix = fresh[:fresh.index("inline constexpr std::size_t output0_elements")]
        if not committed.startswith(expected_prefix):
            sys.exit(f"{header} is missing or does not match sub_int8.tflite and its inputs: regenerate it with "
                     "--tflm <path to tflm_run> (/work/oracle/tflm/README.md)")
        summary.append("sub_int8_expected.hpp: kept as committed (TFLM outputs; no --tflm given; model and inputs "
                       "unchanged)")
        return
    shapes = [model.tensors[o]["shape"] for o in model.outputs]
    outputs = []
    for case in inputs:
        raw, stdout = run_tflm(tflm, path, case, [np.int8] * len(model.outputs))
        outputs.append([r.reshape(s) for r, s in zip(raw, shapes)])
        # Cross-check: the oracle against this script's model of TFLM's formula (must agree exactly).
        qa, qb, q1, q2 = (SUB_INT8_QUANT[n] for n in ("a", "b", "a_minus_b", "b_minus_a"))
        mine = [tflm_sub_int8(case[0], qa, case[1], qb, q1, "RELU6"), tflm_sub_int8(case[1], qb, case[0], qa, q2, None)]
        for k in range(len(mine)):
            if not np.array_equal(mine[k], outputs[-1][k]):
                sys.exit(f"sub_int8 output {k}: the oracle and the script's TFLM formula differ at "
                         f"{int((mine[k] != outputs[-1][k]).sum())} elements")
    header.write_text(sub_int8_header(model, data, inputs, outputs, notes))
    summary.append(f"sub_int8_expected.hpp: {len(inputs)} cases from {tflm} (equal to the script's model of TFLM's "
                   f"formula); oracle's tensors:\n  " + "\n  ".join(stdout.strip().splitlines()))


def check_float_with_tflm(tflm: str, name: str, cases, summary: list[str]) -> None:
    """Runs a float model's cases through the oracle and compares with the NumPy expected outputs."""
    inputs, outputs = cases
    worst = 0.0
    for case_in, case_out in zip(inputs, outputs):
        raw, _ = run_tflm(tflm, OUT / f"{name}.tflite", case_in, [np.float32] * len(case_out))
        for got, want in zip(raw, case_out):
            want = want.astype(np.float32).ravel()
            rel = np.abs(got.astype(np.float64) - want) / np.maximum(np.abs(want.astype(np.float64)), 1e-30)
            rel[(got == want)] = 0.0
            worst = max(worst, float(rel.max()))
    if worst > 1e-6:
        sys.exit(f"{name}: the oracle's float outputs differ from the NumPy expected ones (relative {worst:.3g})")
    summary.append(f"{name}: TFLM oracle agrees with {name}_expected.hpp (largest relative difference {worst:.3g}, "
                   f"{len(inputs)} cases)")


def simple(op_code="RELU", **kw):
    """input [1,4] -> op -> output: the base of the rejected models."""
    m = Model(new_opcodes=True)
    x = m.tensor("input", [1, 4], signature=kw.pop("signature", None))
    t = m.tensor("relu", [1, 4])
    y = m.tensor("output", [1, 4])
    m.inputs, m.outputs = [x], [y]
    m.op("RELU", [x], [t])
    return m, x, t, y


def bad_unsupported_op():
    m, x, t, y = simple()
    c = m.tensor("c", [4], data=np.ones(4, np.float32))
    m.op("LSH_PROJECTION", [t, c], [y])
    return m


def bad_several_unsupported():
    m = Model(new_opcodes=True)
    x = m.tensor("input", [1, 4])
    t = m.tensor("hashed", [1, 4])
    u = m.tensor("grams", [1, 4], FLOAT16)
    v = m.tensor("relu", [1, 4], UINT8, quant=dict(scale=[0.5], zero_point=[128]))
    y = m.tensor("output", [1, 4])
    c = m.tensor("c", [4], data=np.ones(4, np.float32))
    m.inputs, m.outputs = [x], [y]
    m.op("LSH_PROJECTION", [x, c], [t])
    m.op("SKIP_GRAM", [t], [u])
    m.op("RELU", [t], [v])
    m.op("HASHTABLE_LOOKUP", [v, c], [y])
    return m


def int16_dense():
    m = Model(new_opcodes=True)
    q = lambda s, z: dict(scale=[s], zero_point=[z])
    x = m.tensor("x", [1, 8], INT16, quant=q(0.001, 0))
    w = m.tensor("w", [4, 8], INT8, data=np.arange(32).reshape(4, 8) % 7 - 3, quant=q(0.02, 0))
    b = m.tensor("b", [4], INT64, data=[100, -200, 300, -400], quant=q(0.00002, 0))
    y = m.tensor("y", [1, 4], INT16, quant=q(0.002, 0))
    m.inputs, m.outputs = [x], [y]
    m.op("FULLY_CONNECTED", [x, w, b], [y])
    return m


def bad_bias_type():
    m = Model(new_opcodes=True)
    q = lambda s, z: dict(scale=[s], zero_point=[z])
    x = m.tensor("x", [1, 8], INT8, quant=q(0.1, 0))
    w = m.tensor("w", [4, 8], INT8, data=np.arange(32).reshape(4, 8) % 7 - 3, quant=q(0.02, 0))
    b = m.tensor("b", [4], INT8, data=[10, -20, 30, -40], quant=q(0.002, 0))
    y = m.tensor("y", [1, 4], INT8, quant=q(0.2, 0))
    m.inputs, m.outputs = [x], [y]
    m.op("FULLY_CONNECTED", [x, w, b], [y])
    return m


def bad_hybrid():
    m = Model(new_opcodes=True)
    x = m.tensor("input", [1, 4])
    w = m.tensor("weights_int8", [2, 4], INT8, data=np.arange(8) - 4, quant=dict(scale=[0.1], zero_point=[0]))
    y = m.tensor("output", [1, 2])
    m.inputs, m.outputs = [x], [y]
    m.op("FULLY_CONNECTED", [x, w, -1], [y])
    return m


def bad_dynamic_shape():
    m = Model(new_opcodes=True)
    x = m.tensor("input", [-1, 4], signature=[-1, 4])
    y = m.tensor("output", [-1, 4], signature=[-1, 4])
    m.inputs, m.outputs = [x], [y]
    m.op("RELU", [x], [y])
    return m


def bad_softmax_beta():
    m, x, t, y = simple()
    m.op("SOFTMAX", [t], [y], beta=2.0)
    return m


def bad_fused_tanh():
    m = Model(new_opcodes=True)
    x = m.tensor("input", [1, 3, 3, 1])
    w = m.tensor("w", [1, 1, 1, 1], data=np.ones(1, np.float32))
    y = m.tensor("output", [1, 3, 3, 1])
    m.inputs, m.outputs = [x], [y]
    m.op("CONV_2D", [x, w, -1], [y], padding=SAME, stride=(1, 1), act="TANH")
    return m


def bad_uint8():
    m = Model(new_opcodes=True)
    x = m.tensor("input", [1, 4], UINT8, quant=dict(scale=[0.5], zero_point=[128]))
    y = m.tensor("output", [1, 4], UINT8, quant=dict(scale=[0.5], zero_point=[128]))
    m.inputs, m.outputs = [x], [y]
    m.op("RELU", [x], [y])
    return m


def bad_pad_not_constant():
    m = Model(new_opcodes=True)
    x = m.tensor("input", [1, 4])
    p = m.tensor("paddings", [2, 2], INT32)
    y = m.tensor("output", [1, 6])
    m.inputs, m.outputs = [x, p], [y]
    m.op("PAD", [x, p], [y])
    return m


def int8_simple(op_code, input_quant, output_quant):
    """int8 input [1,4] -> op -> int8 output: the base of the rejected quantization parameters."""
    m = Model(new_opcodes=True)
    x = m.tensor("input", [1, 4], INT8, quant=input_quant)
    y = m.tensor("output", [1, 4], INT8, quant=output_quant)
    m.inputs, m.outputs = [x], [y]
    m.op(op_code, [x], [y])
    return m


def bad_scale_nan():
    return int8_simple("RELU", dict(scale=[float("nan")], zero_point=[0]), dict(scale=[0.5], zero_point=[0]))


def bad_zero_point():
    return int8_simple("RELU", dict(scale=[0.5], zero_point=[0]), dict(scale=[0.5], zero_point=[300]))


def bad_channel_scale():
    m = Model(new_opcodes=True)
    x = m.tensor("input", [1, 3, 3, 1], INT8, quant=dict(scale=[0.5], zero_point=[0]))
    w = m.tensor("weights", [2, 1, 1, 1], INT8, data=[1, 2], quant=dict(scale=[0.25, -0.25], zero_point=[0, 0]))
    y = m.tensor("output", [1, 3, 3, 2], INT8, quant=dict(scale=[0.5], zero_point=[0]))
    m.inputs, m.outputs = [x], [y]
    m.op("CONV_2D", [x, w, -1], [y], padding=SAME, stride=(1, 1))
    return m


def bad_multiplier():
    m = Model(new_opcodes=True)
    x = m.tensor("input", [1, 4], INT8, quant=dict(scale=[2.0 ** 40], zero_point=[0]))
    w = m.tensor("weights", [2, 4], INT8, data=np.arange(8) - 4, quant=dict(scale=[1.0], zero_point=[0]))
    y = m.tensor("output", [1, 2], INT8, quant=dict(scale=[2.0 ** -20], zero_point=[0]))
    m.inputs, m.outputs = [x], [y]
    m.op("FULLY_CONNECTED", [x, w, -1], [y])
    return m


def bad_logistic_scale():
    return int8_simple("LOGISTIC", dict(scale=[2.0 ** -40], zero_point=[0]), dict(scale=[1.0 / 256], zero_point=[-128]))


# ----------------------------------------------------------------------------------------------------
# Output files.


def c_float(v) -> str:
    text = f"{float(v):.9g}"
    return text + (".0f" if all(c not in text for c in ".e") else "f")


def c_floats(values) -> str:
    parts = [c_float(v) for v in np.asarray(values, dtype=np.float32).ravel()]
    lines = []
    for k in range(0, len(parts), 8):
        lines.append("    " + ", ".join(parts[k:k + 8]) + ",")
    return "\n".join(lines)


def write_expected(name, model: Model, run, notes, cases=3):
    rng = np.random.RandomState(100 + len(name))
    inputs = [[rand(rng, *model.tensors[i]["shape"]) for i in model.inputs] for _ in range(cases)]
    outputs = [[np.asarray(o, dtype=np.float64) for o in run(*[i.astype(np.float64) for i in case])] for case in inputs]
    for case in outputs:
        for k, o in enumerate(case):
            assert list(o.shape) == model.tensors[model.outputs[k]]["shape"], (name, k, o.shape)
    text = [f"// Generated by scripts/gen_tflite_test_models.py: do not edit. {name}.tflite:",
            *[f"// {n}" for n in notes],
            "// Inputs uniform in [-1, 1]; expected = NumPy float64 evaluation of the same float32 weights, rounded",
            "// to float.", "#pragma once", "#include <cstddef>", "",
            f"namespace ctnn_test_data::tflite_{name} {{", "",
            f"inline constexpr std::size_t case_count = {cases};"]
    for k, i in enumerate(model.inputs):
        size = int(np.prod(model.tensors[i]["shape"]))
        text += [f"inline constexpr std::size_t input{k}_elements = {size};",
                 f"inline constexpr float input{k}[case_count * input{k}_elements] = {{",
                 "\n".join(c_floats(case[k]) for case in inputs), "};"]
    for k, o in enumerate(model.outputs):
        size = int(np.prod(model.tensors[o]["shape"]))
        text += [f"inline constexpr std::size_t output{k}_elements = {size};",
                 f"inline constexpr float expected{k}[case_count * output{k}_elements] = {{",
                 "\n".join(c_floats(case[k]) for case in outputs), "};"]
    text += ["", f"}}  // namespace ctnn_test_data::tflite_{name}", ""]
    (OUT / f"{name}_expected.hpp").write_text("\n".join(text))
    return inputs, outputs


def malformed(data: bytes) -> tuple[bytes, int]:
    """Points the Model's `buffers` field (id 4) past the end of the file; returns the bytes and the
    byte offset of that field (where the reader must report an offset it cannot follow)."""
    root = struct.unpack_from("<I", data, 0)[0]
    vtable = root - struct.unpack_from("<i", data, root)[0]
    field = root + struct.unpack_from("<H", data, vtable + 4 + 2 * 4)[0]
    out = bytearray(data)
    struct.pack_into("<I", out, field, len(data) + 100 - field)
    return bytes(out), field


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tflm", metavar="TFLM_RUN", help="the TFLM host oracle (/work/oracle/tflm/tflm_run): "
                        "regenerates sub_int8_expected.hpp and checks sub_net against it")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    summary = []
    float_cases = {}
    for name, factory in [("conv_net", conv_net), ("branch_net", branch_net), ("multi_io", multi_io),
                          ("mean_net", mean_net), ("int8_net", int8_net), ("int8_conv_extremes", int8_conv_extremes),
                          ("sub_net", sub_net)]:
        model, run, notes = factory()
        data = model.serialize()
        (OUT / f"{name}.tflite").write_bytes(data)
        if run is not None:
            float_cases[name] = write_expected(name, model, run, notes)
        summary.append(f"{name}.tflite: {len(data)} bytes, {len(model.tensors)} tensors, {len(model.ops)} ops")
        if name == "conv_net":
            bad, field = malformed(data)
            (OUT / "bad_malformed.tflite").write_bytes(bad)
            summary.append(f"bad_malformed.tflite: {len(bad)} bytes, Model.buffers offset at byte {field} points "
                           f"past the end")
    for name, factory in [("int16_dense", int16_dense),
                          ("bad_unsupported_op", bad_unsupported_op), ("bad_several_unsupported", bad_several_unsupported),
                          ("bad_bias_type", bad_bias_type), ("bad_hybrid", bad_hybrid),
                          ("bad_dynamic_shape", bad_dynamic_shape), ("bad_softmax_beta", bad_softmax_beta),
                          ("bad_fused_tanh", bad_fused_tanh), ("bad_uint8", bad_uint8),
                          ("bad_pad_not_constant", bad_pad_not_constant), ("bad_scale_nan", bad_scale_nan),
                          ("bad_zero_point", bad_zero_point), ("bad_channel_scale", bad_channel_scale),
                          ("bad_multiplier", bad_multiplier), ("bad_logistic_scale", bad_logistic_scale)]:
        data = factory().serialize()
        (OUT / f"{name}.tflite").write_bytes(data)
        summary.append(f"{name}.tflite: {len(data)} bytes")
    write_sub_int8(args.tflm, summary)
    if args.tflm is not None:
        check_float_with_tflm(args.tflm, "sub_net", float_cases["sub_net"], summary)
    print("\n".join(summary))


if __name__ == "__main__":
    main()
