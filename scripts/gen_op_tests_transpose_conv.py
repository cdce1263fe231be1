#!/usr/bin/python3
"""The op-conformance cases of the transpose_conv family (tests/data/ops/transpose_conv; scripts/op_tests.py):
TFLite TRANSPOSE_CONV in float32, int8 (per-channel and per-tensor weight scales, int32 bias or none) and
int16 (16x8, int64 bias), padding SAME and VALID, strides 1 and 2, odd extents, even kernels, a result larger
than VALID's (the extra rows get no pads), the fused activation of the options' version 4; and ONNX
ConvTranspose in float32 (1-D and 2-D; strides, pads, output_padding, dilations, group 1, depthwise-style and one
output channel per group, auto_pad SAME_UPPER/SAME_LOWER, output_shape). Reference outputs: TensorFlow Lite
Micro's reference kernels (TFLite), onnxruntime-node (ONNX; compared here with a NumPy float64 model of ONNX's
reference, numpy_conv_transpose).

    /usr/bin/python3 scripts/gen_op_tests_transpose_conv.py --tflm /work/oracle/tflm/tflm_run \
        --ort /tmp/ortnode/node_modules                             # records outputs
    /usr/bin/python3 scripts/gen_op_tests_transpose_conv.py      # rewrites models and inputs, keeps the outputs
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from onnx import TensorProto, helper, numpy_helper

import op_tests
from gen_op_tests_qdq import run_ort
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


def conv_transpose(rng, x_shape, w_shape, bias=True, **attributes):
    """One ONNX ConvTranspose (opset 17), constant weights (and bias), float32 data `x_shape`."""
    w = numpy_helper.from_array(rng.uniform(-1, 1, size=w_shape).astype(F32), "W")
    initializers, inputs = [w], ["X", "W"]
    if bias:
        units = w_shape[1] * attributes.get("group", 1)
        initializers.append(numpy_helper.from_array(rng.uniform(-1, 1, size=units).astype(F32), "B"))
        inputs.append("B")
    node = helper.make_node("ConvTranspose", inputs, ["Y"], **attributes)
    graph = helper.make_graph([node], "conv_transpose", [helper.make_tensor_value_info("X", TensorProto.FLOAT, x_shape)],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)], initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="ctnn")
    model.ir_version = 8
    return model


def numpy_conv_transpose(x, w, b, strides=None, pads=None, output_padding=None, dilations=None, group=1,
                         auto_pad="NOTSET", output_shape=None):
    """ONNX's ConvTranspose as onnx/reference/ops/op_conv_transpose.py resolves pads and extents, in float64:
    each input element scattered through the window."""
    spatial = x.ndim - 2
    strides, dilations = strides or [1] * spatial, dilations or [1] * spatial
    output_padding = output_padding or [0] * spatial
    kernel = w.shape[2:]
    full = [strides[i] * (x.shape[i + 2] - 1) + output_padding[i] + (kernel[i] - 1) * dilations[i] + 1
            for i in range(spatial)]
    if pads is None and auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        out = output_shape or [x.shape[i + 2] * strides[i] for i in range(spatial)]
        total = [full[i] - out[i] for i in range(spatial)]
        begin = [t // 2 if auto_pad == "SAME_UPPER" else t - t // 2 for t in total]
    else:
        pads = pads or [0] * (2 * spatial)
        begin = pads[:spatial]
        out = output_shape or [full[i] - pads[i] - pads[i + spatial] for i in range(spatial)]
    in_per_group, out_per_group = x.shape[1] // group, w.shape[1]
    y = np.zeros([x.shape[0], out_per_group * group, *out])
    for index in np.ndindex(*x.shape[2:]):
        for tap in np.ndindex(*kernel):
            at = [index[i] * strides[i] - begin[i] + tap[i] * dilations[i] for i in range(spatial)]
            if any(a < 0 or a >= out[i] for i, a in enumerate(at)):
                continue
            for g in range(group):
                xs = x[(slice(None), slice(g * in_per_group, (g + 1) * in_per_group), *index)].astype(np.float64)
                ws = w[(slice(g * in_per_group, (g + 1) * in_per_group), slice(None), *tap)].astype(np.float64)
                y[(slice(None), slice(g * out_per_group, (g + 1) * out_per_group), *at)] += xs @ ws
    if b is not None:
        y += b.reshape([1, -1] + [1] * spatial)
    return y


def onnx_cases(rng):
    return [
        ("convt_2d_s2_pads_output_padding", conv_transpose(rng, [1, 3, 4, 5], [3, 2, 3, 3], strides=[2, 2],
                                                           pads=[1, 0, 0, 1], output_padding=[1, 0])),
        ("convt_2d_dilations_batch2_no_bias", conv_transpose(rng, [2, 2, 3, 3], [2, 3, 2, 3], bias=False,
                                                             dilations=[2, 1], strides=[1, 2])),
        ("convt_2d_depthwise_group4", conv_transpose(rng, [1, 4, 3, 4], [4, 2, 3, 3], group=4, strides=[2, 1])),
        ("convt_2d_group2_one_output_per_group", conv_transpose(rng, [1, 4, 3, 3], [4, 1, 2, 2], group=2,
                                                                strides=[2, 2], pads=[0, 1, 1, 0])),
        ("convt_2d_same_upper_output_shape", conv_transpose(rng, [1, 2, 3, 3], [2, 2, 3, 3], auto_pad="SAME_UPPER",
                                                            strides=[2, 2], output_shape=[6, 5])),
        ("convt_1d_s3_pads", conv_transpose(rng, [1, 2, 5], [2, 3, 4], strides=[3], pads=[1, 2])),
        ("convt_1d_same_lower", conv_transpose(rng, [1, 1, 4], [1, 2, 3], auto_pad="SAME_LOWER", strides=[2])),
    ]


def write_onnx_case(family, ort, name, model, rng):
    shape = [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim]
    x = rng.uniform(-2, 2, size=shape).astype(F32)
    attributes = {a.name: helper.get_attribute_value(a) for a in model.graph.node[0].attribute}
    if "auto_pad" in attributes:
        attributes["auto_pad"] = attributes["auto_pad"].decode()
    weights = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    reference = numpy_conv_transpose(x, weights["W"], weights.get("B"), **attributes).astype(F32)
    data = model.SerializeToString()
    folder = family.dir / name
    if ort:
        y = run_ort(ort, data, [x], model.graph.input, [("Y", reference)])[0]
    else:
        y = np.fromfile(folder / "output_0.bin", F32).reshape(reference.shape)
    difference = float(np.max(np.abs(y - reference)))
    print(f"{name}: onnxruntime - NumPy: largest difference {difference:.3g}")
    family.write_computed_case(name, "model.onnx", data, [x], [y])
    if not ort and family.committed.get(name) != family.digests[name]:
        sys.exit(f"{folder}: the model or input changed: re-run with --ort to record the reference outputs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tflm", metavar="TFLM_RUN", help="the TFLM host oracle: records the reference outputs")
    parser.add_argument("--ort", type=Path, help="node_modules folder holding onnxruntime-node 1.30.0 (ONNX cases)")
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
    for name, model in onnx_cases(rng):
        write_onnx_case(family, args.ort, name, model, rng)
    family.finish()


if __name__ == "__main__":
    main()
