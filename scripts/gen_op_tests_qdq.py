#!/usr/bin/python3
"""The op-conformance cases of QDQ int8 ONNX models (tests/data/ops/qdq; scripts/op_tests.py): models as
onnxruntime's quantizer writes them with QuantFormat.QDQ (DequantizeLinear -> float op -> QuantizeLinear,
int8/uint8 weights as initializers behind a DequantizeLinear, int32 biases behind one with scale
x_scale * w_scale), built with onnx.helper: Conv (per tensor, per channel, depthwise, strides, uint8 weights
with a zero point), MatMul, Gemm (transB = 1 with a bias), Add, Mul, MaxPool, AveragePool, GlobalAveragePool,
Concat, Relu, Clip, Sigmoid, Reshape/Transpose/Flatten/Squeeze, and small CNNs chaining them
(docs/frontends.md, "QDQ models", has the lowering rules ctnn applies). Also writes the QDQ models the importer
refuses (tests/data/onnx/bad_qdq_*.onnx; tests/frontend/onnx/onnx_qdq.cpp).

Reference outputs: onnxruntime 1.30.0 (onnxruntime-node from npm, installed outside the repository; its QDQ
transformers fuse the groups into QLinearConv, QLinearMatMul, QGemm, QLinearAdd, ...):

    ONNXRUNTIME_NODE_INSTALL=skip npm install onnxruntime-node@1.30.0      # in a scratch folder, e.g. /tmp/ortnode
    /usr/bin/python3 scripts/gen_op_tests_qdq.py --ort /tmp/ortnode/node_modules   # records outputs
    /usr/bin/python3 scripts/gen_op_tests_qdq.py      # rewrites models and inputs, keeps the committed outputs

Each run also evaluates a NumPy model of onnxruntime's integer execution and prints, per case, its largest
difference from the recorded outputs (in LSB). That model: QuantizeLinear q = saturate(round_half_even(x /
scale) + zero_point) in float32; the weighted groups as QLinearConv/QLinearMatMul: int32 accumulator of (x -
x_zp)(w - w_zp) plus the bias, y = saturate(round_half_even(float32(acc) * multiplier) + y_zp) with multiplier =
float32(x_scale * w_scale) / y_scale in float32; every other op in float32 on the dequantized values.
onnxruntime's own kernels (QLinearAdd, QLinearAveragePool, QGemm's float output stage, ...) order their float
operations differently: results agree within 1 LSB, the tolerance of this family (tests/data/ops/qdq/ATOL).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
from pathlib import Path

import numpy as np
from onnx import TensorProto, helper, numpy_helper

import op_tests

f32 = np.float32
ONNX_TYPES = {np.dtype(np.uint8): TensorProto.UINT8, np.dtype(np.int8): TensorProto.INT8,
              np.dtype(np.int32): TensorProto.INT32, np.dtype(np.float32): TensorProto.FLOAT}
JS_TYPES = {np.dtype(np.uint8): "uint8", np.dtype(np.int8): "int8", np.dtype(np.int32): "int32",
            np.dtype(np.int64): "int64", np.dtype(np.float32): "float32"}


def quantize(x, scale, zero_point):
    """QuantizeLinear: float32 division, rounding half to even (np.round), saturation to the zero point's type."""
    info = np.iinfo(zero_point.dtype)
    q = np.round(np.asarray(x, f32) / f32(scale)) + f32(zero_point)
    return np.clip(q, info.min, info.max).astype(zero_point.dtype)


def dequantize(q, scale, zero_point, axis=None):
    scale, zero_point = np.asarray(scale, f32), np.asarray(zero_point).astype(np.int32)
    if axis is not None and scale.size > 1:
        shape = [1] * q.ndim
        shape[axis] = scale.size
        scale, zero_point = scale.reshape(shape), zero_point.reshape(shape)
    return (q.astype(np.int32) - zero_point).astype(f32) * scale


def requantize(acc, multiplier, zero_point):
    """QLinearConv/QLinearMatMul's output stage: float32(acc) * multiplier, rounded half to even, saturated."""
    info = np.iinfo(zero_point.dtype)
    y = np.round(acc.astype(f32) * multiplier) + f32(zero_point)
    return np.clip(y, info.min, info.max).astype(zero_point.dtype)


def fma32(x, y, z):
    """float32 fma: x * y exact in float64 (8-bit x 24-bit), the sum exact there too for these operands
    (checked), rounded once to float32."""
    p = np.float64(x) * np.float64(y)
    s = p + np.float64(z)
    assert s - p == np.float64(z) and s - np.float64(z) == p, "the float64 sum is not exact"
    return f32(s)


def add_swaps_operands(a_shape, y_shape):
    """Whether onnxruntime's broadcaster takes QLinearAdd's first operand as the scalar of each span (and passes
    the second as MLAS's first): the first is broadcast along the innermost dim of the result longer than 1, or
    the result has one element."""
    a_shape = (1,) * (len(y_shape) - len(a_shape)) + tuple(a_shape)
    for d in reversed(range(len(y_shape))):
        if y_shape[d] != 1:
            return a_shape[d] == 1
    return True


def converted(v, dtype):
    """_mm_cvtps_epi32 (half to even; beyond int32 INT_MIN) and the packs' saturation to dtype."""
    info = np.iinfo(dtype)
    r = np.round(np.asarray(v, f32)).astype(np.float64)
    r = np.where((r >= -2.0**31) & (r < 2.0**31), r, info.min)
    return np.clip(r, info.min, info.max).astype(dtype)


def qlinear_add(a, a_quant, b, b_quant, y_quant):
    """onnxruntime 1.30's x86-64 QLinearAdd: qlinear_add_formula, the operands swapped where onnxruntime swaps
    them (add_swaps_operands)."""
    if add_swaps_operands(a.shape, np.broadcast_shapes(a.shape, b.shape)):
        return qlinear_add_formula(b, b_quant, a, a_quant, y_quant)
    return qlinear_add_formula(a, a_quant, b, b_quant, y_quant)


def qlinear_add_formula(a, a_quant, b, b_quant, y_quant):
    """MLAS's AVX2 QLinearAdd kernel, a its first operand: ratios a_scale / y_scale and b_scale / y_scale in
    float32, fixed = y_zp - fma(a_ratio, a_zp, b_ratio * b_zp), y = saturate(round_half_even(fma(a, a_ratio,
    fma(b, b_ratio, fixed)))), numpy broadcasting."""
    y_shape = np.broadcast_shapes(a.shape, b.shape)
    a, b = np.broadcast_to(a, y_shape), np.broadcast_to(b, y_shape)
    (a_scale, a_zp), (b_scale, b_zp), (y_scale, y_zp) = a_quant, b_quant, y_quant
    a_ratio, b_ratio = f32(f32(a_scale) / f32(y_scale)), f32(f32(b_scale) / f32(y_scale))
    fixed = f32(f32(int(y_zp)) - fma32(a_ratio, f32(int(a_zp)), f32(b_ratio * f32(int(b_zp)))))
    sums = [fma32(f32(int(x)), a_ratio, fma32(f32(int(v)), b_ratio, fixed)) for x, v in zip(a.ravel(), b.ravel())]
    return converted(np.array(sums, f32), np.asarray(y_zp).dtype).reshape(y_shape)


def qlinear_mul(a, a_quant, b, b_quant, y_quant):
    """onnxruntime 1.30's x86-64 QLinearMul (MLAS's SSE2 kernel): ratio = (a_scale * b_scale) / y_scale in float32,
    y = saturate(round_half_even(float32((a - a_zp) * (b - b_zp)) * ratio + y_zp)), the product and the sum each
    rounded to float32, numpy broadcasting."""
    (a_scale, a_zp), (b_scale, b_zp), (y_scale, y_zp) = a_quant, b_quant, y_quant
    ratio = f32(f32(f32(a_scale) * f32(b_scale)) / f32(y_scale))
    product = (a.astype(np.int32) - int(a_zp)) * (b.astype(np.int32) - int(b_zp))
    return converted((product.astype(f32) * ratio).astype(f32) + f32(int(y_zp)), np.asarray(y_zp).dtype)


def conv_accumulate(x, w, group, strides, pads, dilations):
    """int64 accumulators of a grouped 2-D convolution, x [N, C, H, W] and w [O, C/group, kh, kw] integers."""
    n, c, h, wd = x.shape
    o, per_group, kh, kw = w.shape
    xp = np.zeros((n, c, h + pads[0] + pads[2], wd + pads[1] + pads[3]), np.int64)
    xp[:, :, pads[0]:pads[0] + h, pads[1]:pads[1] + wd] = x
    oh = (xp.shape[2] - dilations[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (xp.shape[3] - dilations[1] * (kw - 1) - 1) // strides[1] + 1
    y = np.zeros((n, o, oh, ow), np.int64)
    outputs_per_group = o // group
    for oc in range(o):
        g = oc // outputs_per_group
        for ic in range(per_group):
            for ky in range(kh):
                for kx in range(kw):
                    rows = xp[:, g * per_group + ic, ky * dilations[0]:ky * dilations[0] + strides[0] * (oh - 1) + 1:strides[0],
                              kx * dilations[1]:kx * dilations[1] + strides[1] * (ow - 1) + 1:strides[1]]
                    y[:, oc] += rows * int(w[oc, ic, ky, kx])
    return y


def pool(x, kernel, strides, pads, reduce, count_include_pad=False):
    n, c, h, w = x.shape
    fill = -np.inf if reduce == "max" else 0.0
    xp = np.full((n, c, h + pads[0] + pads[2], w + pads[1] + pads[3]), fill, f32)
    xp[:, :, pads[0]:pads[0] + h, pads[1]:pads[1] + w] = x
    inside = np.zeros(xp.shape[2:], f32)
    inside[pads[0]:pads[0] + h, pads[1]:pads[1] + w] = 1
    oh, ow = (xp.shape[2] - kernel[0]) // strides[0] + 1, (xp.shape[3] - kernel[1]) // strides[1] + 1
    y = np.zeros((n, c, oh, ow), f32)
    for i in range(oh):
        for j in range(ow):
            window = xp[:, :, i * strides[0]:i * strides[0] + kernel[0], j * strides[1]:j * strides[1] + kernel[1]]
            if reduce == "max":
                y[:, :, i, j] = window.max(axis=(2, 3))
            else:
                count = kernel[0] * kernel[1] if count_include_pad else inside[
                    i * strides[0]:i * strides[0] + kernel[0], j * strides[1]:j * strides[1] + kernel[1]].sum()
                y[:, :, i, j] = window.sum(axis=(2, 3), dtype=f32) / f32(count)
    return y


def ort_average_pool(x, kernel, strides, pads, ceil_mode=False, count_include_pad=False):
    """onnxruntime's QLinearAveragePool on dequantized values x [N, C, *spatial] (1 or 2 spatial dims): per window
    a float32 sum in row-major order over the in-bounds taps from 0, divided by float32(count), count = the whole
    kernel with count_include_pad, else the in-bounds taps; ceil_mode's last window starts inside the input or
    its leading pads."""
    spatial = x.ndim - 2
    size = list(x.shape[2:])
    outs = []
    for d in range(spatial):
        span = size[d] + pads[d] + pads[d + spatial] - kernel[d]
        o = (-(-span // strides[d]) if ceil_mode else span // strides[d]) + 1
        if ceil_mode and (o - 1) * strides[d] >= size[d] + pads[d]:
            o -= 1
        outs.append(o)
    y = np.zeros(x.shape[:2] + tuple(outs), f32)
    for index in np.ndindex(*outs):
        starts = [index[d] * strides[d] - pads[d] for d in range(spatial)]
        ranges = [(max(b, 0), min(b + kernel[d], size[d])) for d, b in enumerate(starts)]
        total = np.zeros(x.shape[:2], f32)
        for tap in np.ndindex(*[e - b for b, e in ranges]):
            total = (total + x[(slice(None), slice(None)) + tuple(b + t for (b, _), t in zip(ranges, tap))]).astype(f32)
        count = int(np.prod(kernel)) if count_include_pad else int(np.prod([e - b for b, e in ranges]))
        y[(slice(None), slice(None)) + index] = total / f32(count)
    return y


class Graph:
    """An ONNX graph built node by node, each value also evaluated (the NumPy model above)."""

    def __init__(self):
        self.nodes, self.initializers, self.inputs, self.outputs = [], [], [], []
        self.values: dict[str, np.ndarray] = {}
        self.feeds: list[np.ndarray] = []
        self.count = 0

    def name(self, stem):
        self.count += 1
        return f"{stem}_{self.count}"

    def input(self, x: np.ndarray, stem="x"):
        name = self.name(stem)
        self.inputs.append(helper.make_tensor_value_info(name, ONNX_TYPES[x.dtype], list(x.shape)))
        self.values[name] = x
        self.feeds.append(x)
        return name

    def const(self, array, stem="c"):
        name = self.name(stem)
        array = np.asarray(array)
        self.initializers.append(numpy_helper.from_array(array, name))
        self.values[name] = array
        return name

    def node(self, op, inputs, value, **attributes):
        out = self.name(op.lower())
        self.nodes.append(helper.make_node(op, inputs, [out], **attributes))
        self.values[out] = value
        return out

    def dq(self, x, scale, zero_point, axis=None):
        scale, zero_point = np.asarray(scale, f32), np.asarray(zero_point)
        attrs = {"axis": axis} if axis is not None else {}
        return self.node("DequantizeLinear", [x, self.const(scale, "scale"), self.const(zero_point, "zero_point")],
                         dequantize(self.values[x], scale, zero_point, axis), **attrs)

    def q(self, x, scale, zero_point):
        zero_point = np.asarray(zero_point)
        return self.node("QuantizeLinear", [x, self.const(f32(scale), "scale"), self.const(zero_point, "zero_point")],
                         quantize(self.values[x], scale, zero_point))

    def float_op(self, op, inputs, fn, **attributes):
        return self.node(op, inputs, fn(*[self.values[i] for i in inputs]), **attributes)

    def requantized(self, op, inputs, fn, scale, zero_point, **attributes):
        """DequantizeLinear -> float op -> QuantizeLinear with each input's (scale, zero point)."""
        floats = [self.dq(x, s, z) for x, (s, z) in inputs]
        return self.q(self.float_op(op, floats, fn, **attributes), scale, zero_point)

    def qlinear_add(self, a, a_quant, b, b_quant, y_quant):
        """DequantizeLinear -> Add -> QuantizeLinear of two 8-bit inputs, its result in NumPy as onnxruntime 1.30's
        x86-64 QLinearAdd computes it (qlinear_add)."""
        return self.qlinear("Add", lambda u, v: u + v, qlinear_add, a, a_quant, b, b_quant, y_quant)

    def qlinear_mul(self, a, a_quant, b, b_quant, y_quant):
        """DequantizeLinear -> Mul -> QuantizeLinear, as onnxruntime 1.30's x86-64 QLinearMul computes it."""
        return self.qlinear("Mul", lambda u, v: u * v, qlinear_mul, a, a_quant, b, b_quant, y_quant)

    def qlinear(self, op, fn, integer_fn, a, a_quant, b, b_quant, y_quant):
        floats = [self.dq(x, s, z) for x, (s, z) in ((a, a_quant), (b, b_quant))]
        y = self.q(self.float_op(op, floats, fn), *y_quant)
        self.values[y] = integer_fn(self.values[a], a_quant, self.values[b], b_quant, y_quant)
        return y

    def weighted(self, op, x, x_quant, w, w_scale, w_zero_point, axis, bias, y_quant, accumulate, activation=None,
                 **attributes):
        """The groups ctnn lowers: DequantizeLinear of x, of the integer weights (and the int32 bias: scale
        x_scale * w_scale, zero point 0), the float op (and a Relu or Clip: `activation`, (op, bounds)),
        QuantizeLinear; evaluated as QLinearConv/QLinearMatMul, the Relu/Clip as a clamp of the integers."""
        xs, xz = x_quant
        ys, yz = y_quant
        w_scale = np.asarray(w_scale, f32)
        xd = self.dq(x, xs, xz)
        wd = self.dq(self.const(w, "w"), w_scale, np.asarray(w_zero_point, w.dtype).reshape(w_scale.shape), axis)
        inputs = [xd, wd]
        if bias is not None:
            bias_scale = (f32(xs) * w_scale).astype(f32)
            inputs.append(self.dq(self.const(bias, "bias"), bias_scale, np.zeros(bias_scale.shape, np.int32), 0 if bias_scale.size > 1 else None))
        y = self.float_op(op, inputs, lambda *v: np.zeros(1, f32), **attributes)
        if activation is not None:
            name, bounds = activation
            y = self.float_op(name, [y] + [self.const(f32(b), "bound") for b in bounds], lambda *v: v[0])
        out = self.q(y, ys, yz)
        multiplier = ((f32(xs) * w_scale).astype(f32) / f32(ys)).astype(f32)
        w_zp = np.asarray(w_zero_point).astype(np.int64)
        acc, channel_axis = accumulate(self.values[x].astype(np.int64) - int(xz), w.astype(np.int64), w_zp)
        if bias is not None:
            acc = acc + bias.astype(np.int64).reshape([-1 if d == channel_axis else 1 for d in range(acc.ndim)])
        acc = acc.astype(np.int32)
        if multiplier.size > 1:
            multiplier = multiplier.reshape([-1 if d == channel_axis else 1 for d in range(acc.ndim)])
        result = requantize(acc, multiplier, np.asarray(yz))
        if activation is not None:  # the bounds quantized like the result, within its type
            low, high = activation[1] if activation[1] else (0.0, np.inf)
            info = np.iinfo(result.dtype)
            q_low = max(info.min, np.round(low / ys) + int(yz))
            q_high = info.max if high == np.inf else min(info.max, np.round(high / ys) + int(yz))
            result = np.clip(result, q_low, q_high).astype(result.dtype)
        self.values[out] = result
        return out

    def conv(self, x, x_quant, w, w_scale, w_zero_point, bias, y_quant, group=1, strides=(1, 1), pads=(0, 0, 0, 0),
             dilations=(1, 1), activation=None):
        def accumulate(xi, wi, wz):
            wz = wz.reshape(-1, 1, 1, 1) if wz.size > 1 else wz
            return conv_accumulate(xi, wi - wz, group, strides, pads, dilations), 1
        return self.weighted("Conv", x, x_quant, w, w_scale, w_zero_point, 0 if np.size(w_scale) > 1 else None, bias,
                             y_quant, accumulate, activation, group=group, strides=list(strides), pads=list(pads),
                             dilations=list(dilations), kernel_shape=list(w.shape[2:]))

    def matmul(self, x, x_quant, w, w_scale, w_zero_point, y_quant):
        def accumulate(xi, wi, wz):
            return xi @ (wi - wz.reshape(1, -1) if wz.size > 1 else wi - wz), xi.ndim - 1
        return self.weighted("MatMul", x, x_quant, w, w_scale, w_zero_point, 1 if np.size(w_scale) > 1 else None, None,
                             y_quant, accumulate)

    def gemm(self, x, x_quant, w, w_scale, w_zero_point, bias, y_quant, activation=None):
        """Gemm with transB = 1 (PyTorch's Linear): w [N, K]."""
        def accumulate(xi, wi, wz):
            return xi @ (wi - (wz.reshape(-1, 1) if wz.size > 1 else wz)).T, 1
        return self.weighted("Gemm", x, x_quant, w, w_scale, w_zero_point, 0 if np.size(w_scale) > 1 else None, bias,
                             y_quant, accumulate, activation, transB=1)

    def model(self, outputs) -> tuple[bytes, list[np.ndarray]]:
        infos = [helper.make_tensor_value_info(o, ONNX_TYPES[self.values[o].dtype], list(self.values[o].shape)) for o in outputs]
        graph = helper.make_graph(self.nodes, "qdq", self.inputs, infos, self.initializers)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="ctnn")
        model.ir_version = 7
        return model.SerializeToString(), [self.values[o] for o in outputs]


def ints(rng, dtype, shape):
    info = np.iinfo(dtype)
    return rng.randint(info.min, info.max + 1, size=shape).astype(dtype)


U8, I8 = np.uint8, np.int8


def cases(rng):
    """(case name, graph, outputs): each graph's inputs are integers over their whole range (or floats)."""
    out = []

    def case(name, build):
        g = Graph()
        outputs = build(g)
        out.append((name, g, outputs))

    def u8(g, shape):
        return g.input(ints(rng, U8, shape))

    def i8(g, shape):
        return g.input(ints(rng, I8, shape))

    # Conv: uint8 activations, int8 weights per tensor, a bias, pads (onnxruntime's default U8S8).
    case("conv_u8_per_tensor", lambda g: [g.conv(
        u8(g, (1, 3, 7, 6)), (0.02, U8(128)), ints(rng, I8, (4, 3, 3, 3)), 0.01, 0, rng.randint(-3000, 3000, 4).astype(np.int32),
        (0.05, U8(120)), pads=(1, 1, 1, 1))])
    # int8 activations, per-channel weights (axis 0), stride 2, asymmetric pads, a zero point at the extreme.
    case("conv_s8_per_channel", lambda g: [g.conv(
        i8(g, (2, 4, 9, 8)), (0.03, I8(-128)), ints(rng, I8, (5, 4, 3, 2)), rng.uniform(0.002, 0.02, 5).astype(f32),
        np.zeros(5, I8), rng.randint(-20000, 20000, 5).astype(np.int32), (0.4, I8(3)), strides=(2, 2),
        pads=(1, 0, 0, 1))])
    # Depthwise (group = channels), per channel, dilation 2, no bias.
    case("conv_depthwise_s8", lambda g: [g.conv(
        i8(g, (1, 6, 8, 8)), (0.05, I8(10)), ints(rng, I8, (6, 1, 3, 3)), rng.uniform(0.005, 0.05, 6).astype(f32),
        np.zeros(6, I8), None, (0.2, I8(-5)), group=6, dilations=(2, 2), pads=(2, 2, 2, 2))])
    # uint8 weights with a zero point (onnxruntime's U8U8), grouped (2 groups).
    case("conv_u8_weights_grouped", lambda g: [g.conv(
        u8(g, (1, 4, 5, 5)), (0.1, U8(0)), ints(rng, U8, (6, 2, 1, 3)), 0.004, U8(131), rng.randint(-500, 500, 6).astype(np.int32),
        (0.3, U8(255)), group=2, pads=(0, 1, 0, 1))])
    # A Relu between Conv and QuantizeLinear: a clamp at a zero point inside the range (onnxruntime runs this Conv
    # in float); a Clip(0, 6) that the result's range [0, 6] implies (onnxruntime drops it).
    case("conv_relu_u8", lambda g: [g.conv(
        u8(g, (1, 2, 5, 5)), (0.05, U8(90)), ints(rng, I8, (3, 2, 3, 3)), 0.01, 0, rng.randint(-900, 900, 3).astype(np.int32),
        (0.03, U8(100)), pads=(1, 1, 1, 1), activation=("Relu", ()))])
    case("gemm_clip_implied_s8", lambda g: [g.gemm(
        i8(g, (2, 10)), (0.1, I8(0)), ints(rng, I8, (6, 10)), 0.02, 0, rng.randint(-3000, 3000, 6).astype(np.int32),
        (6 / 255, I8(-128)), activation=("Clip", (0.0, 6.0)))])
    # MatMul: [2, 3, 8] x [8, 5] per tensor; int8 per channel (axis 1).
    case("matmul_u8", lambda g: [g.matmul(u8(g, (2, 3, 8)), (0.05, U8(100)), ints(rng, I8, (8, 5)), 0.02, 0, (0.5, U8(128)))])
    case("matmul_s8_per_channel", lambda g: [g.matmul(
        i8(g, (4, 16)), (0.1, I8(-3)), ints(rng, I8, (16, 7)), rng.uniform(0.001, 0.01, 7).astype(f32), np.zeros(7, I8),
        (0.6, I8(0)))])
    # Gemm transB = 1 with a bias: per tensor (uint8) and per channel (int8).
    case("gemm_u8_bias", lambda g: [g.gemm(
        u8(g, (3, 20)), (0.03, U8(7)), ints(rng, I8, (10, 20)), 0.015, 0, rng.randint(-5000, 5000, 10).astype(np.int32),
        (0.25, U8(140)))])
    case("gemm_s8_per_channel_bias", lambda g: [g.gemm(
        i8(g, (2, 12)), (0.2, I8(5)), ints(rng, I8, (9, 12)), rng.uniform(0.003, 0.03, 9).astype(f32), np.zeros(9, I8),
        rng.randint(-2000, 2000, 9).astype(np.int32), (1.1, I8(-20)))])
    # Float groups (DequantizeLinear -> op -> QuantizeLinear): Add, Mul with broadcasting, uint8 and int8.
    case("add_u8", lambda g: [g.requantized("Add", [(u8(g, (1, 3, 4, 5)), (0.05, U8(128))), (u8(g, (1, 3, 4, 5)), (0.02, U8(30)))],
                                            lambda a, b: a + b, 0.07, U8(100))])
    # A quantized constant operand (onnxruntime quantizes Add/Mul initializers too): int8 behind a DequantizeLinear.
    case("add_constant_u8", lambda g: [g.q(g.float_op(
        "Add", [g.dq(u8(g, (1, 4, 3, 3)), 0.05, U8(128)), g.dq(g.const(ints(rng, U8, (4, 1, 1)), "c"), 0.02, U8(128))],
        lambda a, b: a + b), 0.06, U8(128))])
    case("mul_s8_broadcast", lambda g: [g.requantized("Mul", [(i8(g, (2, 3, 4)), (0.04, I8(-10))), (i8(g, (3, 1)), (0.03, I8(2)))],
                                                      lambda a, b: a * b, 0.1, I8(0))])
    # Pools: MaxPool commutes with DequantizeLinear (same quantization out); GlobalAveragePool is onnxruntime's
    # QLinearGlobalAveragePool (an integer pool); AveragePool float.
    case("maxpool_u8", lambda g: [g.requantized("MaxPool", [(u8(g, (1, 3, 7, 7)), (0.1, U8(20)))],
                                                lambda x: pool(x, (3, 3), (2, 2), (1, 1, 1, 1), "max"), 0.1, U8(20),
                                                kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])])
    case("avgpool_s8", lambda g: [g.requantized("AveragePool", [(i8(g, (1, 2, 6, 6)), (0.05, I8(-7)))],
                                                lambda x: pool(x, (2, 3), (2, 1), (0, 1, 0, 1), "avg"), 0.04, I8(-3),
                                                kernel_shape=[2, 3], strides=[2, 1], pads=[0, 1, 0, 1])])
    case("global_avgpool_u8", lambda g: [g.requantized("GlobalAveragePool", [(u8(g, (2, 5, 3, 4)), (0.08, U8(128)))],
                                                       lambda x: x.mean(axis=(2, 3), keepdims=True, dtype=f32), 0.03, U8(128))])
    # Concat of two scales into a third; Relu, Clip, Sigmoid.
    case("concat_s8", lambda g: [g.requantized("Concat", [(i8(g, (1, 2, 3, 3)), (0.05, I8(0))), (i8(g, (1, 3, 3, 3)), (0.02, I8(-9)))],
                                               lambda a, b: np.concatenate([a, b], axis=1), 0.05, I8(0), axis=1)])
    case("relu_u8", lambda g: [g.requantized("Relu", [(u8(g, (1, 4, 3, 3)), (0.1, U8(128)))], lambda x: np.maximum(x, f32(0)), 0.05, U8(0))])
    case("clip_s8", lambda g: [g.q(g.float_op(
        "Clip", [g.dq(i8(g, (3, 10)), 0.05, I8(0)), g.const(f32(-1.5), "min"), g.const(f32(2.5), "max")],
        lambda x, lo, hi: np.clip(x, lo, hi)), 0.02, I8(-3))])
    case("sigmoid_u8", lambda g: [g.requantized("Sigmoid", [(u8(g, (2, 17)), (0.05, U8(128)))],
                                                lambda x: (1 / (1 + np.exp(-x.astype(np.float64)))).astype(f32), 1 / 256, U8(0))])

    # Data movement commutes with DequantizeLinear: Reshape -> Transpose -> Flatten -> Squeeze, one quantization.
    def movement(g):
        x = g.dq(u8(g, (1, 2, 3, 4)), 0.1, U8(60))
        r = g.float_op("Reshape", [x, g.const(np.array([1, 4, 3, 2], np.int64), "shape")], lambda v, s: v.reshape(s))
        t = g.float_op("Transpose", [g.dq(g.q(r, 0.1, U8(60)), 0.1, U8(60))], lambda v: v.transpose(0, 2, 3, 1), perm=[0, 2, 3, 1])
        f = g.float_op("Flatten", [g.dq(g.q(t, 0.1, U8(60)), 0.1, U8(60))], lambda v: v.reshape(v.shape[0] * v.shape[1], -1), axis=2)
        s = g.float_op("Unsqueeze", [g.dq(g.q(f, 0.1, U8(60)), 0.1, U8(60)), g.const(np.array([0], np.int64), "axes")],
                       lambda v, a: v[None])
        return [g.q(s, 0.1, U8(60))]
    case("reshape_transpose_flatten_u8", movement)

    # A small CNN as onnxruntime's quantizer writes it: float input, QuantizeLinear, Conv (+ Relu folded away by
    # the output's zero point), MaxPool, depthwise Conv, Add (a residual), GlobalAveragePool, Flatten, Gemm.
    def cnn(g, dtype):
        zero = dtype(-128) if dtype == I8 else dtype(0)
        mid = dtype(0) if dtype == I8 else dtype(128)
        x = g.q(g.input(rng.uniform(-1, 1, (1, 3, 12, 12)).astype(f32)), 1 / 127, mid)
        c1 = g.conv(x, (1 / 127, mid), ints(rng, I8, (8, 3, 3, 3)), rng.uniform(0.005, 0.02, 8).astype(f32), np.zeros(8, I8),
                    rng.randint(-400, 400, 8).astype(np.int32), (0.03, zero), pads=(1, 1, 1, 1))
        p = g.q(g.float_op("MaxPool", [g.dq(c1, 0.03, zero)], lambda v: pool(v, (2, 2), (2, 2), (0, 0, 0, 0), "max"),
                           kernel_shape=[2, 2], strides=[2, 2]), 0.03, zero)
        d = g.conv(p, (0.03, zero), ints(rng, I8, (8, 1, 3, 3)), rng.uniform(0.005, 0.02, 8).astype(f32), np.zeros(8, I8),
                   rng.randint(-400, 400, 8).astype(np.int32), (0.02, zero), group=8, pads=(1, 1, 1, 1))
        a = g.requantized("Add", [(p, (0.03, zero)), (d, (0.02, zero))], lambda u, v: u + v, 0.04, zero)
        gap = g.requantized("GlobalAveragePool", [(a, (0.04, zero))], lambda v: v.mean(axis=(2, 3), keepdims=True, dtype=f32), 0.01, zero)
        flat = g.q(g.float_op("Flatten", [g.dq(gap, 0.01, zero)], lambda v: v.reshape(v.shape[0], -1), axis=1), 0.01, zero)
        return [g.gemm(flat, (0.01, zero), ints(rng, I8, (5, 8)), rng.uniform(0.01, 0.03, 5).astype(f32), np.zeros(5, I8),
                       rng.randint(-300, 300, 5).astype(np.int32), (0.02, mid))]
    case("cnn_u8", lambda g: cnn(g, U8))
    case("cnn_s8", lambda g: cnn(g, I8))

    # (Later cases draw after these: the earlier cases' inputs stay as recorded.)
    # A pool another op reads, or that is an output: the float pool (onnxruntime fuses only DQ -> pool -> Q).
    case("global_avgpool_relu_u8", lambda g: [g.q(g.float_op(
        "Relu", [g.float_op("GlobalAveragePool", [g.dq(u8(g, (1, 4, 5, 5)), 0.1, U8(120))],
                            lambda x: x.mean(axis=(2, 3), keepdims=True, dtype=f32))], lambda x: np.maximum(x, f32(0))), 0.02, U8(0))])
    case("global_avgpool_float_output_s8", lambda g: [g.float_op(
        "GlobalAveragePool", [g.dq(i8(g, (2, 3, 4, 6)), 0.05, I8(-4))], lambda x: x.mean(axis=(2, 3), keepdims=True, dtype=f32))])
    # DequantizeLinear -> QuantizeLinear of one scale into another type and zero point (an int8 input of a uint8
    # graph): the integers shifted, saturated (here above 112), then a uint8 Conv.
    def requantized_input(g):
        r = g.q(g.dq(i8(g, (1, 3, 6, 6)), 0.05, I8(-3)), 0.05, U8(140))
        return [r, g.conv(r, (0.05, U8(140)), ints(rng, I8, (4, 3, 3, 3)), 0.01, 0, rng.randint(-2000, 2000, 4).astype(np.int32),
                          (0.08, U8(128)), pads=(1, 1, 1, 1))]
    case("requantize_s8_u8", requantized_input)
    # GlobalAveragePool of 2 x 2 pixels, one scale in and out: onnxruntime's multiplier is 1/4 exactly, every
    # sum = 2 (mod 4) a tie it rounds to even (the float pool on dequantized values rounds some the other way).
    case("global_avgpool_ties_u8", lambda g: [g.requantized("GlobalAveragePool", [(u8(g, (1, 64, 2, 2)), (0.1, U8(3)))],
                                                            lambda x: x.mean(axis=(2, 3), keepdims=True, dtype=f32), 0.1, U8(3))])
    # AveragePool as onnxruntime's QLinearAveragePool (float sums of the dequantized taps): count_include_pad with
    # asymmetric pads, ceil_mode, a 1-D pool, a 2 x 2 window whose means tie (rounded to even), a window over the
    # whole image without pads (onnxruntime's QLinearGlobalAveragePool then), and count_include_pad with
    # ceil_mode (ctnn keeps that one float: within 1 LSB).
    case("avgpool_include_pad_u8", lambda g: [g.requantized(
        "AveragePool", [(u8(g, (2, 5, 7, 9)), (0.07, U8(100)))],
        lambda x: ort_average_pool(x, (3, 3), (2, 2), (1, 2, 1, 0), count_include_pad=True), 0.03, U8(90),
        kernel_shape=[3, 3], strides=[2, 2], pads=[1, 2, 1, 0], count_include_pad=1)])
    case("avgpool_ceil_s8", lambda g: [g.requantized(
        "AveragePool", [(i8(g, (1, 3, 8, 7)), (0.05, I8(-20)))],
        lambda x: ort_average_pool(x, (3, 2), (2, 3), (0, 1, 1, 0), ceil_mode=True), 0.02, I8(5),
        kernel_shape=[3, 2], strides=[2, 3], pads=[0, 1, 1, 0], ceil_mode=1)])
    case("avgpool_1d_u8", lambda g: [g.requantized(
        "AveragePool", [(u8(g, (1, 4, 11)), (0.04, U8(7)))],
        lambda x: ort_average_pool(x, (4,), (3,), (2, 1)), 0.05, U8(20), kernel_shape=[4], strides=[3], pads=[2, 1])])
    case("avgpool_ties_s8", lambda g: [g.requantized(
        "AveragePool", [(i8(g, (1, 4, 6, 6)), (0.5, I8(3)))],
        lambda x: ort_average_pool(x, (2, 2), (2, 2), (0, 0, 0, 0)), 0.5, I8(-1), kernel_shape=[2, 2], strides=[2, 2])])
    case("avgpool_whole_image_u8", lambda g: [g.requantized(
        "AveragePool", [(u8(g, (1, 6, 5, 6)), (0.1, U8(128)))],
        lambda x: x.mean(axis=(2, 3), keepdims=True, dtype=f32), 0.05, U8(120), kernel_shape=[5, 6])])
    case("avgpool_ceil_include_pad_s8", lambda g: [g.requantized(
        "AveragePool", [(i8(g, (1, 2, 7, 7)), (0.06, I8(0)))],
        lambda x: ort_average_pool(x, (3, 3), (2, 2), (1, 1, 1, 1), ceil_mode=True, count_include_pad=True), 0.03, I8(-7),
        kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1, count_include_pad=1)])
    # QLinearAdd (DequantizeLinear -> Add -> QuantizeLinear, equal shapes, one 8-bit type), which ctnn computes as
    # onnxruntime's x86-64 kernel does (kernel/reference/onnx_quant/add.hpp; the NumPy model here: qlinear_add):
    # odd shapes, uint8 and int8, and scales of ratio 1/2 exactly, whose odd sums are ties (rounded to even).
    def qlinear_add_case(g, dtype, shape, a_quant, b_quant, y_quant):
        a, b = (g.input(ints(rng, dtype, shape)) for _ in range(2))
        return [g.qlinear_add(a, a_quant, b, b_quant, y_quant)]
    case("qlinear_add_odd_u8", lambda g: qlinear_add_case(g, U8, (1, 5, 7, 3), (0.037, U8(131)), (0.011, U8(7)), (0.053, U8(120))))
    case("qlinear_add_odd_s8", lambda g: qlinear_add_case(g, I8, (3, 37), (0.0123, I8(-5)), (0.071, I8(100)), (0.062, I8(-128))))
    case("qlinear_add_ties_s8", lambda g: qlinear_add_case(g, I8, (2, 3, 5, 11), (0.05, I8(3)), (0.05, I8(-8)), (0.1, I8(1))))
    case("qlinear_add_one_u8", lambda g: qlinear_add_case(g, U8, (1,), (0.2, U8(255)), (0.001, U8(0)), (0.0015, U8(0))))

    # QLinearMul (DequantizeLinear -> Mul -> QuantizeLinear, one 8-bit type; kernel/reference/onnx_quant/mul.hpp,
    # the NumPy model: qlinear_mul) and broadcast QLinearAdd/QLinearMul (appended after the cases above, which the
    # shared random stream keeps byte for byte). Scales of ratio 1/2 make odd products ties; (0.1, 0.1, 0.02) and
    # (0.02, 0.004, 0.0016) are scale sets where a fused multiply-add would round some products otherwise; the
    # channel (SE block: x [1, C, H, W] * s [1, C, 1, 1]) and scalar broadcasts; ratios whose products leave int32
    # (onnxruntime's conversion gives INT_MIN: the type's lowest value).
    def qlinear_binary_case(g, op, dtype, a_shape, b_shape, a_quant, b_quant, y_quant):
        a, b = g.input(ints(rng, dtype, a_shape)), g.input(ints(rng, dtype, b_shape))
        return [(g.qlinear_mul if op == "Mul" else g.qlinear_add)(a, a_quant, b, b_quant, y_quant)]
    case("qlinear_mul_ties_u8", lambda g: qlinear_binary_case(g, "Mul", U8, (2, 3, 5, 11), (2, 3, 5, 11), (0.5, U8(99)), (0.5, U8(206)), (0.5, U8(239))))
    case("qlinear_mul_odd_s8", lambda g: qlinear_binary_case(g, "Mul", I8, (3, 37), (3, 37), (0.1, I8(27)), (0.1, I8(29)), (0.02, I8(-95))))
    case("qlinear_mul_channel_u8", lambda g: qlinear_binary_case(g, "Mul", U8, (1, 16, 5, 7), (1, 16, 1, 1), (0.02, U8(208)), (0.004, U8(7)), (0.0016, U8(204))))
    case("qlinear_mul_scalar_first_s8", lambda g: qlinear_binary_case(g, "Mul", I8, (1,), (4, 9), (0.03, I8(89)), (0.07, I8(-43)), (0.5, I8(7))))
    case("qlinear_mul_overflow_u8", lambda g: qlinear_binary_case(g, "Mul", U8, (4, 16), (1, 16), (100.0, U8(0)), (100.0, U8(0)), (0.1, U8(0))))
    # Add: a per-channel first operand (onnxruntime swaps the operands: scales where that changes ~4 % of the
    # sums), a per-channel second one, a row, a scalar.
    case("qlinear_add_channel_first_s8", lambda g: qlinear_binary_case(g, "Add", I8, (1, 64, 1, 1), (1, 64, 4, 8), (f32(7 / 6), I8(74)), (f32(2 / 3), I8(-103)), (f32(2 / 3), I8(-66))))
    case("qlinear_add_channel_second_u8", lambda g: qlinear_binary_case(g, "Add", U8, (1, 64, 4, 8), (1, 64, 1, 1), (f32(1.0), U8(65)), (f32(4 / 7), U8(100)), (f32(4 / 7), U8(38))))
    case("qlinear_add_row_u8", lambda g: qlinear_binary_case(g, "Add", U8, (1, 64), (32, 64), (f32(1.0), U8(65)), (f32(4 / 7), U8(100)), (f32(4 / 7), U8(38))))
    case("qlinear_add_scalar_first_s8", lambda g: qlinear_binary_case(g, "Add", I8, (), (5, 13), (f32(7 / 6), I8(74)), (f32(2 / 3), I8(-103)), (f32(2 / 3), I8(-66))))

    # An Add and a Mul whose float result has a second reader after its QuantizeLinear (a Relu, a model output):
    # the QuantizeLinear gets the integer op, the Relu the float op (onnxruntime fuses nothing here: the op has two
    # consumers; ctnn's integer result is within the family's 1 LSB).
    def two_readers(g):
        a, b = u8(g, (2, 9)), u8(g, (2, 9))
        results = []
        for op, fn in (("Add", lambda u, v: u + v), ("Mul", lambda u, v: u * v)):
            m = g.float_op(op, [g.dq(a, 0.1, U8(3)), g.dq(b, 0.2, U8(130))], fn)
            results += [g.q(m, 0.3, U8(120)), g.float_op("Relu", [m], lambda v: np.maximum(v, f32(0)))]
        return results
    case("qdq_binary_two_readers_u8", two_readers)
    return out


def refused_models(rng) -> dict[str, bytes]:
    """QDQ models the importer refuses with onnx_qdq_group (tests/frontend/onnx/onnx_qdq.cpp): x uint8 [1, 3, 4, 4],
    a 1x1 Conv over int8 weights [3, 3, 1, 1] behind a DequantizeLinear (node 1; node 0 dequantizes x)."""
    def conv(weights_axis=None, bias_scale=None):
        g = Graph()
        x = g.dq(g.input(ints(rng, U8, (1, 3, 4, 4))), 0.1, U8(3))
        scale = np.array([0.01, 0.02, 0.03], f32) if weights_axis is not None else f32(0.01)
        w = g.dq(g.const(ints(rng, I8, (3, 3, 1, 1)), "w"), scale, np.zeros(np.shape(scale), I8), weights_axis)
        inputs = [x, w]
        if bias_scale is not None:
            inputs.append(g.dq(g.const(np.array([10, -20, 30], np.int32), "b"), f32(bias_scale), np.int32(0)))
        return g, g.float_op("Conv", inputs, lambda *v: np.zeros((1, 3, 4, 4), f32))
    out = {}
    g, y = conv()
    out["bad_qdq_float_result"] = g.model([y])[0]  # the Conv's float result is the model output
    g, y = conv()
    out["bad_qdq_two_readers"] = g.model([g.q(y, 0.1, U8(0)), g.float_op("Relu", [y], lambda v: v)])[0]
    g, y = conv(bias_scale=0.5)  # not x_scale * w_scale = 0.001
    out["bad_qdq_bias_scale"] = g.model([g.q(y, 0.1, U8(0))])[0]
    g, y = conv(weights_axis=1)  # per input channel
    out["bad_qdq_weights_axis"] = g.model([g.q(y, 0.1, U8(0))])[0]
    return out


def run_ort(node_modules: Path, model: bytes, feeds, graph_inputs, outputs) -> list[np.ndarray]:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "model.onnx").write_bytes(model)
        job = {"model": str(tmp / "model.onnx"), "inputs": [], "outputs": []}
        for k, (info, x) in enumerate(zip(graph_inputs, feeds)):
            (tmp / f"in{k}.bin").write_bytes(np.ascontiguousarray(x).tobytes())
            job["inputs"].append({"name": info.name, "type": JS_TYPES[x.dtype], "dims": list(x.shape), "path": str(tmp / f"in{k}.bin")})
        for k, (name, like) in enumerate(outputs):
            job["outputs"].append({"name": name, "path": str(tmp / f"out{k}.bin")})
        (tmp / "job.json").write_text(json.dumps(job))
        subprocess.run(["node", str(Path(__file__).resolve().parent / "ort_run.js"), str(tmp / "job.json")], check=True,
                       env={**os.environ, "NODE_PATH": str(node_modules)})
        return [np.frombuffer((tmp / f"out{k}.bin").read_bytes(), like.dtype).reshape(like.shape)
                for k, (name, like) in enumerate(outputs)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ort", type=Path, help="node_modules folder holding onnxruntime-node 1.30.0")
    args = parser.parse_args()
    family = op_tests.Family("qdq", None)
    for name, g, outputs in cases(np.random.RandomState(28)):
        model, expected = g.model(outputs)
        folder = family.dir / name
        if args.ort:
            recorded = run_ort(args.ort, model, g.feeds, g.inputs, list(zip(outputs, expected)))
        else:
            recorded = [np.fromfile(folder / f"output_{k}.bin", y.dtype).reshape(y.shape) for k, y in enumerate(expected)]
        family.write_computed_case(name, "model.onnx", model, g.feeds, recorded)
        if not args.ort and family.committed.get(name) != family.digests[name]:
            raise SystemExit(f"{folder}: the model or inputs changed: re-run with --ort to record the outputs")
        lsb = max(int(np.abs(r.astype(np.int64) - y.astype(np.int64)).max()) for r, y in zip(recorded, expected))
        print(f"{name}: NumPy model vs recorded outputs: max {lsb} LSB")
    family.finish()
    for name, model in refused_models(np.random.RandomState(29)).items():
        (op_tests.OPS_DIR.parent / "onnx" / f"{name}.onnx").write_bytes(model)


if __name__ == "__main__":
    main()
