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

It also writes the models ctnn must refuse (tests/frontend/tflite/frontend_transpose_conv_refusals.cpp):
tests/data/tflite/transpose_conv_refused_*.tflite and tests/data/onnx/transpose_conv_refused_*.onnx.
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
tfl.OPS.update({"TRANSPOSE_CONV": 67, "BATCH_MATMUL": 126, "PADV2": 60, "L2_POOL_2D": 12, "LOG_SOFTMAX": 50})
tfl.OPTIONS.update({"TRANSPOSE_CONV": 49, "BATCH_MATMUL": 101, "PADV2": 43, "L2_POOL_2D": 5})
_base_options_table = tfl.options_table


def _options_table(code, o, va):
    if code == "TRANSPOSE_CONV":
        return tfl.Table({0: ("i8", o["padding"]), 1: ("i32", o["stride"][1]), 2: ("i32", o["stride"][0]),
                          3: ("i8", tfl.ACT[o.get("act")])}, va)
    if code == "BATCH_MATMUL":
        return tfl.Table({0: ("bool", int(o.get("adj_x", False))), 1: ("bool", int(o.get("adj_y", False)))}, va)
    if code == "PADV2":
        return tfl.Table({}, va)
    if code == "L2_POOL_2D":  # Pool2DOptions, as the other pools write them
        return _base_options_table("MAX_POOL_2D", o, va)
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


def batch_matmul(lhs, rhs, out, dtype, adj_x=False, adj_y=False, quant=((0.05, 0), (0.05, 0), (0.1, 0))):
    """One BATCH_MATMUL of two model inputs (int8/int16: per-tensor quantization lhs, rhs, output)."""
    m = tfl.Model(new_opcodes=True)
    quantized = dtype != tfl.FLOAT32
    a = m.tensor("lhs", lhs, dtype, quant=q(*quant[0]) if quantized else None)
    b = m.tensor("rhs", rhs, dtype, quant=q(*quant[1]) if quantized else None)
    y = m.tensor("y", out, dtype, quant=q(*quant[2]) if quantized else None)
    m.inputs, m.outputs = [a, b], [y]
    m.op("BATCH_MATMUL", [a, b], [y], adj_x=adj_x, adj_y=adj_y)
    return m


def padv2(in_shape, pads, value, dtype, value_shape=(1,), quant=(0.1, 0)):
    """One PADV2 of a model input by constant `pads` ([before, after] per dim) with the constant `value` (int8,
    int16: a stored integer quantized as the output)."""
    m = tfl.Model(new_opcodes=True)
    qd = q(*quant) if dtype != tfl.FLOAT32 else None
    x = m.tensor("x", in_shape, dtype, quant=qd)
    tp = m.tensor("paddings", [len(pads), 2], tfl.INT32, data=np.array(pads).reshape(-1))
    tv = m.tensor("value", list(value_shape), dtype, data=np.array([value]).reshape(value_shape), quant=qd)
    y = m.tensor("y", [d + a + b for d, (a, b) in zip(in_shape, pads)], dtype, quant=qd)
    m.inputs, m.outputs = [x], [y]
    m.op("PADV2", [x, tp, tv], [y])
    return m


def l2_pool(in_shape, out_shape, filter_hw, padding, stride, act=None):
    """One float32 L2_POOL_2D."""
    m = tfl.Model(new_opcodes=True)
    x, y = m.tensor("x", in_shape), m.tensor("y", out_shape)
    m.inputs, m.outputs = [x], [y]
    m.op("L2_POOL_2D", [x], [y], padding=padding, stride=stride, filter=filter_hw, act=act)
    return m


def log_softmax(shape, in_q=None):
    """One LOG_SOFTMAX (no options): float32, or int8 of input quantization `in_q` (the result: TFLM's 16/256, 127)."""
    m = tfl.Model(new_opcodes=True)
    if in_q is None:
        x, y = m.tensor("x", shape), m.tensor("y", shape)
    else:
        x = m.tensor("x", shape, tfl.INT8, quant=q(*in_q))
        y = m.tensor("y", shape, tfl.INT8, quant=q(16.0 / 256, 127))
    m.inputs, m.outputs = [x], [y]
    m.op("LOG_SOFTMAX", [x], [y])
    return m


def inputs_of(rng, m):
    return [input_of(rng, m.tensors[k]) for k in m.inputs]


def input_of(rng, t):
    if t["type"] == tfl.FLOAT32:
        return rng.uniform(-2, 2, size=t["shape"]).astype(F32)
    if t["type"] == tfl.INT16:
        x = rng.randint(-32768, 32768, size=t["shape"]).astype(np.int16)
        x.reshape(-1)[:2] = [-32768, 32767]
        return x
    return op_tests.int8_range(rng, t["shape"], t["quant"]["zero_point"][0])


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


# ----------------------------------------------------------------------------------------------------
# Models ctnn must refuse, each with the diagnostic tests/frontend/tflite/frontend_transpose_conv_refusals.cpp expects.


def refused_tflite():
    rng = np.random.RandomState(1)
    # TRANSPOSE_CONV whose output_shape is a graph input (operand 0 must be a constant).
    shape_input = transpose_conv(rng, [1, 3, 3, 2], (3, 3), [1, 6, 6, 2], tfl.SAME, (2, 2), tfl.FLOAT32)
    shape_input.tensors[0]["buffer"] = len(shape_input.buffers)
    shape_input.buffers.append(None)
    shape_input.inputs = [0] + shape_input.inputs
    # TRANSPOSE_CONV whose output_shape says another shape than its output tensor's.
    shape_mismatch = transpose_conv(rng, [1, 3, 3, 2], (3, 3), [1, 6, 6, 2], tfl.SAME, (2, 2), tfl.FLOAT32)
    shape_mismatch.buffers[shape_mismatch.tensors[0]["buffer"]] = np.array([1, 6, 7, 2], "<i4").tobytes()
    # int16 TRANSPOSE_CONV with an int32 bias (TFLM reads its bias as int64).
    bias32 = transpose_conv(rng, [1, 3, 3, 2], (3, 3), [1, 6, 6, 3], tfl.SAME, (2, 2), tfl.INT16,
                            in_q=(0.001, 0), out_q=(0.05, 0))
    bias = next(t for t in bias32.tensors if t["name"] == "tconv/bias")
    bias["type"] = tfl.INT32
    bias32.buffers[bias["buffer"]] = np.arange(3, dtype="<i4").tobytes()
    # int8 PADV2 whose value is quantized otherwise than the output (TFLM's Prepare refuses it).
    value_scale = padv2([1, 3, 3, 2], [[0, 0], [1, 1], [1, 1], [0, 0]], 5, tfl.INT8)
    value_scale.tensors[2]["quant"] = q(0.2, 0)
    # int8 LOG_SOFTMAX whose result is not quantized as TFLM's kernel writes it (16/256, 127).
    log_softmax_scale = log_softmax([2, 5], in_q=(0.1, 0))
    log_softmax_scale.tensors[1]["quant"] = q(1.0 / 16, 0)
    return {"output_shape_input": shape_input, "output_shape_mismatch": shape_mismatch, "int16_bias32": bias32,
            "padv2_value_quantization": value_scale, "log_softmax_result_quantization": log_softmax_scale}


def refused_onnx():
    # (group 2 with two input and two output channels per group, refused until issue #28's sweep, is now the case
    # convt_2d_group2_two_by_two)
    return {}


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
        ("bmm_f32_adj_y_broadcast", batch_matmul([2, 1, 3, 4], [3, 5, 4], [2, 3, 3, 5], f32, adj_y=True)),
        ("bmm_i8_adj_x_extreme_zero_points",
         batch_matmul([2, 4, 3], [2, 4, 5], [2, 3, 5], i8, adj_x=True, quant=((0.02, -128), (0.03, 127), (1.0, 100)))),
        ("bmm_i8_rank5_broadcast_both",
         batch_matmul([1, 2, 1, 3, 4], [2, 1, 2, 4, 3], [2, 2, 2, 3, 3], i8, quant=((0.1, 3), (0.004, -2), (0.2, -1)))),
        ("bmm_i16_rank2_adj_both",
         batch_matmul([4, 3], [5, 4], [3, 5], i16, adj_x=True, adj_y=True, quant=((0.001, 0), (0.002, 0), (0.5, 0)))),
        ("padv2_f32_scalar_value", padv2([2, 3, 4], [[0, 1], [2, 0], [1, 1]], -1.5, f32, value_shape=())),
        ("padv2_i8_value", padv2([1, 3, 3, 2], [[0, 0], [1, 2], [0, 1], [1, 0]], -100, i8, quant=(0.1, 10))),
        ("padv2_i16_value", padv2([3, 5], [[1, 1], [0, 2]], 1234, i16, quant=(0.01, 0))),
        ("l2pool_f32_same_s2_odd", l2_pool([1, 5, 7, 3], [1, 3, 4, 3], (3, 2), tfl.SAME, (2, 2))),
        ("l2pool_f32_valid_s1_relu6", l2_pool([2, 4, 4, 2], [2, 3, 3, 2], (2, 2), tfl.VALID, (1, 1), act="RELU6")),
        ("log_softmax_f32_rank3", log_softmax([2, 3, 5])),
        ("log_softmax_i8_rank2", log_softmax([3, 7], in_q=(0.1, -3))),
        ("log_softmax_i8_coarse_scale", log_softmax([2, 2, 9], in_q=(0.6, 20))),
    ]
    for name, m in cases:
        family.write_case(name, m, inputs_of(rng, m))
    wide = log_softmax([9])  # far apart: exp underflows for all but the largest
    family.write_case("log_softmax_f32_far_apart", wide, [np.array([80, -70, 3, 0, -0.5, 79.5, -200, 1e-3, 64], F32)])
    onnx_rng = np.random.RandomState(28)
    for name, model in onnx_cases(onnx_rng):
        write_onnx_case(family, args.ort, name, model, onnx_rng)
    # Several input and output channels per group (the weights gathered as [group, C_out / group, kh * kw,
    # C_in / group]); a generator of its own, so that the cases above keep their inputs.
    grouped_rng = np.random.RandomState(2)
    write_onnx_case(family, args.ort, "convt_2d_group2_two_by_two",
                    conv_transpose(grouped_rng, [1, 4, 3, 3], [4, 2, 3, 3], group=2, strides=[2, 1], pads=[1, 0, 0, 1]),
                    grouped_rng)
    family.finish()
    op_tests.write_refused("transpose_conv", refused_tflite(), refused_onnx())


if __name__ == "__main__":
    main()
