#!/usr/bin/python3
"""The op-conformance cases of the transpose_conv family (tests/data/ops/transpose_conv; scripts/op_tests.py):
TFLite TRANSPOSE_CONV in float32, int8 (per-channel and per-tensor weight scales, int32 bias or none) and
int16 (16x8, int64 bias), padding SAME and VALID, strides 1 and 2, odd extents, even kernels, a result larger
than VALID's (the extra rows get no pads), the fused activation of the options' version 4. Reference
outputs: TensorFlow Lite Micro's reference kernels.

    /usr/bin/python3 scripts/gen_op_tests_transpose_conv.py --tflm /work/oracle/tflm/tflm_run   # records outputs
    /usr/bin/python3 scripts/gen_op_tests_transpose_conv.py      # rewrites models and inputs, keeps the outputs
"""

from __future__ import annotations

import argparse

import numpy as np

import op_tests
from op_tests import tfl

# TRANSPOSE_CONV and its options table (schema.fbs: TransposeConvOptions, union member 49), added to the writer's.
tfl.OPS.update({"TRANSPOSE_CONV": 67})
tfl.OPTIONS.update({"TRANSPOSE_CONV": 49})
_base_options_table = tfl.options_table


def _options_table(code, o, va):
    if code == "TRANSPOSE_CONV":
        return tfl.Table({0: ("i8", o["padding"]), 1: ("i32", o["stride"][1]), 2: ("i32", o["stride"][0]),
                          3: ("i8", tfl.ACT[o.get("act")])}, va)
    return _base_options_table(code, o, va)


tfl.options_table = _options_table

F32 = np.float32


def q(scale, zero_point):
    return dict(scale=[scale], zero_point=[zero_point])


def transpose_conv(rng, in_shape, kernel, out_shape, padding, stride, dtype, bias=True, act=None,
                   in_q=(0.05, 0), out_q=(0.1, 0), per_channel=True):
    """One TRANSPOSE_CONV: input `in_shape` (NHWC), weights [out channels, kh, kw, in channels], result
    `out_shape`; int8/int16: weights with per-channel (or one) scales, the bias of the accumulator's type."""
    m = tfl.Model(new_opcodes=True)
    out_c, in_c = out_shape[3], in_shape[3]
    w_shape = [out_c, kernel[0], kernel[1], in_c]
    sizes = m.tensor("output_shape", [4], tfl.INT32, data=out_shape)
    if dtype == tfl.FLOAT32:
        x = m.tensor("x", in_shape)
        tw = m.tensor("tconv/weights", w_shape, data=rng.uniform(-1, 1, size=w_shape).astype(F32))
        tb = m.tensor("tconv/bias", [out_c], data=rng.uniform(-1, 1, size=out_c).astype(F32)) if bias else -1
        y = m.tensor("y", out_shape)
    else:
        ws = (rng.uniform(0.5, 1.5, size=out_c if per_channel else 1) * 0.02).astype(F32)
        tw = m.tensor("tconv/weights", w_shape, tfl.INT8, data=rng.randint(-127, 128, size=w_shape),
                      quant=dict(scale=ws, zero_point=[0] * ws.size))
        x = m.tensor("x", in_shape, dtype, quant=q(*in_q))
        y = m.tensor("y", out_shape, dtype, quant=q(*out_q))
        bias_type, bias_range = (tfl.INT32, 3000) if dtype == tfl.INT8 else (tfl.INT64, 300000)
        bias_scale = np.broadcast_to(ws * F32(in_q[0]), out_c)
        tb = m.tensor("tconv/bias", [out_c], bias_type, data=rng.randint(-bias_range, bias_range, size=out_c),
                      quant=dict(scale=list(bias_scale), zero_point=[0] * out_c)) if bias else -1
    m.inputs, m.outputs = [x], [y]
    m.op("TRANSPOSE_CONV", [sizes, tw, x] + ([tb] if bias else []), [y], padding=padding, stride=stride, act=act)
    return m


def inputs_of(rng, m):
    t = m.tensors[m.inputs[0]]
    if t["type"] == tfl.FLOAT32:
        return [rng.uniform(-2, 2, size=t["shape"]).astype(F32)]
    if t["type"] == tfl.INT16:
        x = rng.randint(-32768, 32768, size=t["shape"]).astype(np.int16)
        x.reshape(-1)[:2] = [-32768, 32767]
        return [x]
    return [op_tests.int8_range(rng, t["shape"], t["quant"]["zero_point"][0])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tflm", metavar="TFLM_RUN", help="the TFLM host oracle: records the reference outputs")
    args = parser.parse_args()
    family = op_tests.Family("transpose_conv", args.tflm)
    rng = np.random.RandomState(67)
    f32, i8, i16 = tfl.FLOAT32, tfl.INT8, tfl.INT16
    cases = [
        ("tconv_f32_same_s2_bias_relu",
         transpose_conv(rng, [1, 3, 4, 3], (3, 3), [1, 6, 8, 5], tfl.SAME, (2, 2), f32, act="RELU")),
        ("tconv_f32_valid_s1_no_bias_batch2",
         transpose_conv(rng, [2, 3, 5, 2], (2, 4), [2, 4, 8, 3], tfl.VALID, (1, 1), f32, bias=False)),
        ("tconv_f32_valid_s2_output_beyond_valid",
         transpose_conv(rng, [1, 3, 3, 2], (3, 3), [1, 8, 8, 2], tfl.VALID, (2, 2), f32)),
        ("tconv_f32_same_s1x2_even_kernel",
         transpose_conv(rng, [1, 5, 3, 4], (2, 4), [1, 5, 6, 3], tfl.SAME, (1, 2), f32, act="RELU6")),
        ("tconv_i8_same_s2_per_channel_relu6",
         transpose_conv(rng, [1, 4, 3, 3], (3, 3), [1, 8, 6, 4], tfl.SAME, (2, 2), i8, act="RELU6",
                        in_q=(0.03, -128), out_q=(0.08, 5))),
        ("tconv_i8_valid_s1_per_tensor_no_bias",
         transpose_conv(rng, [1, 3, 5, 2], (3, 2), [1, 5, 6, 3], tfl.VALID, (1, 1), i8, bias=False,
                        in_q=(0.5, 127), out_q=(2.0, -128), per_channel=False)),
        ("tconv_i8_same_s2_odd_tiny_scale",
         transpose_conv(rng, [1, 3, 3, 2], (4, 4), [1, 5, 5, 3], tfl.SAME, (2, 2), i8,
                        in_q=(1e-6, 3), out_q=(1e-5, -7))),
        ("tconv_i16_same_s2_bias64_relu",
         transpose_conv(rng, [1, 3, 3, 2], (3, 3), [1, 6, 6, 3], tfl.SAME, (2, 2), i16, act="RELU",
                        in_q=(0.001, 0), out_q=(0.05, 0))),
        ("tconv_i16_valid_s1_no_bias",
         transpose_conv(rng, [1, 4, 3, 3], (2, 3), [1, 5, 5, 2], tfl.VALID, (1, 1), i16, bias=False,
                        in_q=(0.0005, 0), out_q=(0.02, 0))),
    ]
    for name, m in cases:
        family.write_case(name, m, inputs_of(rng, m))
    family.finish()


if __name__ == "__main__":
    main()
