#!/usr/bin/python3
"""Measures what onnxruntime computes for QDQ Mul and broadcast QDQ Add (its QDQ transformers fuse them into
com.microsoft QLinearMul / QLinearAdd), the measurement behind kernel/reference/onnx_quant/mul.hpp and add.hpp
(docs/frontends.md, "QDQ models"): DequantizeLinear -> Mul/Add -> QuantizeLinear models over every pair of 8-bit
values (65,536 per scale set, ties forced by scale ratios of 1/2, 1/4, ...), run by onnxruntime-node
(scripts/ort_run.js), compared with candidate formulas; prints the mismatching pairs of each.

    ONNXRUNTIME_NODE_INSTALL=skip npm install onnxruntime-node@1.30.0      # in a scratch folder, e.g. /tmp/ortnode
    /usr/bin/python3 scripts/measure_qlinear_binary.py --ort /tmp/ortnode/node_modules

Mul's candidates: ctnn's (gen_op_tests_qdq.qlinear_mul: MLAS's SSE2 kernel), the same with an fma of the
scaled product and the zero point, MLAS's portable kernel, and the QDQ graph's float semantics. Broadcast Add's:
ctnn's (gen_op_tests_qdq.qlinear_add: the operands swapped where onnxruntime's broadcaster takes the first as the
scalar of each span) and the formula with the operands in ONNX's order. Measured with onnxruntime-node 1.30.0 on
x86-64 (AVX2): ctnn's formulas 0 mismatches everywhere.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

import gen_op_tests_qdq as qdq

f32 = np.float32


def every_pair(dtype):
    """a [256, 256] and b [256, 256]: every pair of dtype's values once."""
    v = np.arange(np.iinfo(dtype).min, np.iinfo(dtype).max + 1).astype(dtype)
    return np.repeat(v[:, None], 256, axis=1), np.repeat(v[None, :], 256, axis=0)


def ort(node_modules: Path, op, a, a_quant, b, b_quant, y_quant):
    g = qdq.Graph()
    y = (g.qlinear_mul if op == "Mul" else g.qlinear_add)(g.input(a), a_quant, g.input(b), b_quant, y_quant)
    model, expected = g.model([y])
    return qdq.run_ort(node_modules, model, g.feeds, g.inputs, [(y, expected[0])])[0]


def mul_fused(a, a_quant, b, b_quant, y_quant):
    (a_scale, a_zp), (b_scale, b_zp), (y_scale, y_zp) = a_quant, b_quant, y_quant
    ratio = f32(f32(f32(a_scale) * f32(b_scale)) / f32(y_scale))
    product = (a.astype(np.int64) - int(a_zp)) * (b.astype(np.int64) - int(b_zp))
    return qdq.converted((product * np.float64(ratio) + int(y_zp)).astype(f32), np.asarray(y_zp).dtype)  # exact, rounded once


def mul_portable(a, a_quant, b, b_quant, y_quant):
    (a_scale, a_zp), (b_scale, b_zp), (y_scale, y_zp) = a_quant, b_quant, y_quant
    info = np.iinfo(np.asarray(y_zp).dtype)
    va = (f32(a_scale) * (a.astype(np.int32) - int(a_zp)).astype(f32)).astype(f32)
    vb = (f32(b_scale) * (b.astype(np.int32) - int(b_zp)).astype(f32)).astype(f32)
    v = np.clip(((va * vb).astype(f32) / f32(y_scale)).astype(f32), f32(info.min - int(y_zp)), f32(info.max - int(y_zp)))
    return np.round((v + f32(int(y_zp))).astype(f32)).astype(np.asarray(y_zp).dtype)


def mul_float(a, a_quant, b, b_quant, y_quant):
    (a_scale, a_zp), (b_scale, b_zp), (y_scale, y_zp) = a_quant, b_quant, y_quant
    product = qdq.dequantize(a, a_scale, a_zp) * qdq.dequantize(b, b_scale, b_zp)
    return qdq.quantize(product.astype(f32), y_scale, np.asarray(y_zp))


def quantization(rng, dtype, scale):
    info = np.iinfo(dtype)
    return f32(scale), dtype(rng.randint(info.min, info.max + 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ort", type=Path, required=True, help="node_modules folder holding onnxruntime-node 1.30.0")
    args = parser.parse_args()
    rng = np.random.RandomState(28)
    mul_candidates = {"ctnn": qdq.qlinear_mul, "fma": mul_fused, "portable": mul_portable, "float": mul_float}
    mismatches = dict.fromkeys(mul_candidates, 0)
    pairs = 0
    for dtype in (np.uint8, np.int8):
        a, b = every_pair(dtype)
        scale_sets = [(0.5, 0.5, 0.5), (0.25, 1.0, 0.5), (0.1, 0.1, 0.02), (0.03, 0.07, 0.5), (0.02, 0.004, 0.0016)]
        for _ in range(8):
            sa, sb = rng.uniform(0.001, 0.2, 2)
            scale_sets.append((sa, sb, sa * sb * rng.uniform(30, 600)))  # products spread over the result's range
        for scales in scale_sets:
            quants = [quantization(rng, dtype, s) for s in scales]
            got = ort(args.ort, "Mul", a, quants[0], b, quants[1], quants[2])
            for name, formula in mul_candidates.items():
                mismatches[name] += int((formula(a, quants[0], b, quants[1], quants[2]) != got).sum())
            pairs += got.size
    print(f"QLinearMul, every pair, {pairs} pairs:", ", ".join(f"{k} {v}" for k, v in mismatches.items()))

    # Broadcasts: Mul (any), Add with either operand the scalar of each span; scale sets where the two operand
    # orders of QLinearAdd's formula differ on some pairs (thirds and sevenths).
    shapes = [((256, 1), (1, 256)), ((1, 256), (256, 1)), ((1, 256, 1, 1), (1, 256, 4, 4)), ((1, 256, 4, 4), (1, 256, 1, 1)),
              ((1,), (256,)), ((), (16, 16)), ((1, 8, 8, 16), (16,)), ((4, 1, 33), (1, 5, 33)), ((1,), (1,))]
    counts = {"Mul ctnn": 0, "Add ctnn": 0, "Add in ONNX's order": 0}
    elements = 0
    for dtype, scales in ((np.uint8, (1.0, 4 / 7, 4 / 7)), (np.int8, (7 / 6, 2 / 3, 2 / 3)), (np.uint8, (0.02, 0.004, 0.0016))):
        info = np.iinfo(dtype)
        quants = [quantization(rng, dtype, s) for s in scales]
        for a_shape, b_shape in shapes:
            a = rng.randint(info.min, info.max + 1, size=a_shape).astype(dtype)
            b = rng.randint(info.min, info.max + 1, size=b_shape).astype(dtype)
            if a.size == 256 and b.size == 256:
                a, b = np.arange(info.min, info.max + 1).astype(dtype).reshape(a_shape), np.arange(info.min, info.max + 1).astype(dtype).reshape(b_shape)
            got = ort(args.ort, "Mul", a, quants[0], b, quants[1], quants[2])
            counts["Mul ctnn"] += int((qdq.qlinear_mul(a, quants[0], b, quants[1], quants[2]) != got).sum())
            got = ort(args.ort, "Add", a, quants[0], b, quants[1], quants[2])
            counts["Add ctnn"] += int((qdq.qlinear_add(a, quants[0], b, quants[1], quants[2]) != got).sum())
            counts["Add in ONNX's order"] += int((qdq.qlinear_add_formula(a, quants[0], b, quants[1], quants[2]) != got).sum())
            elements += got.size
    print(f"broadcast QLinearMul / QLinearAdd, {elements} elements each:", ", ".join(f"{k} {v}" for k, v in counts.items()))


if __name__ == "__main__":
    main()
