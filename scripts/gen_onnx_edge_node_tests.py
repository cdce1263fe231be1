#!/usr/bin/python3
"""ONNX node tests of ctnn's own, for the edges of the ONNX frontend (issue #12).

Writes tests/data/onnx/node_tests/<test>/model.onnx and test_data_set_0/{input,output}_K.pb, the layout of
ONNX's backend node tests, so that tests/frontend/onnx/run_node_tests.py runs them through ctnn-run like the
upstream ones. The expected outputs come from NumPy (float64 for float ops, then rounded to float32; the
quantized ops in float32, onnxruntime's order of operations): onnx 1.12 (Debian) has no onnx.reference.
Deterministic (fixed seeds, no producer version): re-running reproduces every file byte for byte.

    /usr/bin/python3 scripts/gen_onnx_edge_node_tests.py      # < 1 s

Tests:
  clip_min_greater_than_max        opset 13, min 2 > max 1 (constants): every output is max (numpy.clip).
  clip_min_greater_than_max_opset6 the same with attributes (opset 6).
  clip_special_values              NaN, +-Inf, -0.0, denormals and in-range values through Clip(-1, 1).
  wrap_pad / wrap_pad_3d_large     Pad mode wrap (opset 19): NCHW, and a rank-3 tensor whose pads exceed
                                   its extent (a torus: the index modulo the extent).
  conv1d_strided_dilated_grouped   Conv over [N, C, L]: stride 2, dilation 2, pads [1, 2], group 2, bias.
  conv1d_same_upper_depthwise      Conv over [N, C, L]: auto_pad SAME_UPPER, depthwise (group = C).
  maxpool1d_ceil_pads              MaxPool over [N, C, L]: kernel 3, stride 2, pads [1, 1], ceil_mode.
  averagepool1d_count_include_pad  AveragePool over [N, C, L]: kernel 3, pads [1, 1], count_include_pad 1.
  averagepool1d_exclude_pad        AveragePool over [N, C, L]: kernel 4, stride 3, pads [2, 1].
  batchnorm1d                      BatchNormalization over [N, C, L].
  globalaveragepool1d              GlobalAveragePool over [N, C, L] -> [N, C, 1].
  conv1d_chain                     Conv1d -> Relu -> MaxPool1d -> BatchNormalization -> Conv1d -> Transpose
                                   -> Flatten: 1-D values kept in ctnn's NHWC form between ops.
  convinteger1d / qlinearconv1d    ConvInteger and QLinearConv over [N, C, L] (uint8).

Models that must be rejected, with the message tests/frontend/onnx/CMakeLists.txt expects (tests/data/onnx/bad_edges/):
  rank5_pool          MaxPool over a rank-5 (3-D) input: onnx_unsupported_rank, the op named.
  pad_mode            Pad mode "torus": the attribute string printed as a string.
  negative_scale      QLinearConv with per-channel weight scales, one of them -0.5: onnx_operand_value.
  zero_point_range    a uint8 zero point of 300 stored in int32_data: onnx_operand_value.
  scale_type          QuantizeLinear with an INT32 scale: onnx_operand_type.
  reshape_extent      Reshape to an extent of 2^40: onnx_operand_value.
  blocked             DequantizeLinear with block_size 2: attribute block_size.
  window              MaxPool whose window is larger than its input: the IR's window_larger_than_input,
                      worded with the ONNX node.
  pipeline_dtype      Relu of an INT32 input: imported, then lower_te finds no kernel (a pipeline error,
                      worded with the op and its label).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "tests" / "data" / "onnx" / "node_tests"

NP_TYPES = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.uint8): TensorProto.UINT8,
            np.dtype(np.int8): TensorProto.INT8, np.dtype(np.int32): TensorProto.INT32,
            np.dtype(np.int64): TensorProto.INT64}


def write_test(name: str, nodes, inputs: dict, outputs: dict, initializers: dict, opset: int):
    """inputs/outputs: name -> array (outputs: the expected values); initializers: name -> array."""
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info(k, NP_TYPES[v.dtype], list(v.shape)) for k, v in inputs.items()],
        [helper.make_tensor_value_info(k, NP_TYPES[v.dtype], list(v.shape)) for k, v in outputs.items()],
        [numpy_helper.from_array(v, k) for k, v in initializers.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8 if opset >= 15 else 7
    onnx.checker.check_model(model)
    folder = OUT / name
    data = folder / "test_data_set_0"
    data.mkdir(parents=True)
    (folder / "model.onnx").write_bytes(model.SerializeToString())
    for k, (key, value) in enumerate(inputs.items()):
        (data / f"input_{k}.pb").write_bytes(numpy_helper.from_array(value, key).SerializeToString())
    for k, (key, value) in enumerate(outputs.items()):
        (data / f"output_{k}.pb").write_bytes(numpy_helper.from_array(value, key).SerializeToString())


def rand(rng, *shape):
    return rng.uniform(-1.0, 1.0, size=shape).astype(np.float32)


# ----------------------------------------------------------------------------------------------------
# NumPy references (NCL, float64).

def conv1d(x, w, b=None, stride=1, pads=(0, 0), dilation=1, group=1):
    x = np.pad(x.astype(np.float64), ((0, 0), (0, 0), pads))
    n, c, length = x.shape
    o, per_group, k = w.shape
    span = (k - 1) * dilation + 1
    out_len = (length - span) // stride + 1
    y = np.zeros((n, o, out_len))
    units = o // group
    for g in range(group):
        xs = x[:, g * per_group:(g + 1) * per_group]
        for u in range(g * units, (g + 1) * units):
            for t in range(out_len):
                window = xs[:, :, t * stride:t * stride + span:dilation]
                y[:, u, t] = np.einsum("nck,ck->n", window, w[u].astype(np.float64))
    if b is not None:
        y += b.astype(np.float64)[None, :, None]
    return y


def same_upper(length, k, stride, dilation):
    out = -(-length // stride)
    total = max(0, (out - 1) * stride + (k - 1) * dilation + 1 - length)
    return total // 2, total - total // 2


def pool1d(x, k, stride, pads, average, include_pad=False, ceil=False):
    n, c, length = x.shape
    begin, end = pads
    if ceil:
        out_len = -(-(length + begin + end - k) // stride) + 1
        if (out_len - 1) * stride >= length + begin:  # a window starting in the end padding is dropped
            out_len -= 1
    else:
        out_len = (length + begin + end - k) // stride + 1
    y = np.zeros((n, c, out_len))
    for t in range(out_len):
        start = t * stride - begin
        lo, hi = max(start, 0), min(start + k, length)
        window = x[:, :, lo:hi].astype(np.float64)
        if not average:
            y[:, :, t] = window.max(axis=2)
        else:
            count = min(start + k, length + end) - start if include_pad else hi - lo
            y[:, :, t] = window.sum(axis=2) / count
    return y


def batch_norm(x, scale, bias, mean, var, eps):
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return ((x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps) * scale.reshape(shape) + bias.reshape(shape))


def f32(y):
    return y.astype(np.float32)


# ----------------------------------------------------------------------------------------------------
# The tests.

def clip_tests(rng):
    x = rand(rng, 3, 4) * 4
    write_test("clip_min_greater_than_max", [helper.make_node("Clip", ["x", "min", "max"], ["y"])],
               {"x": x}, {"y": np.clip(x, np.float32(2), np.float32(1))},
               {"min": np.array(2, np.float32), "max": np.array(1, np.float32)}, 13)
    write_test("clip_min_greater_than_max_opset6", [helper.make_node("Clip", ["x"], ["y"], min=0.5, max=-0.5)],
               {"x": x}, {"y": np.clip(x, np.float32(0.5), np.float32(-0.5))}, {}, 6)
    special = np.array([[np.nan, -np.inf, np.inf, -0.0, 1e-40, -1e-40, 0.25, 5.0, -5.0, 1.0, -1.0, 3e38]], np.float32)
    write_test("clip_special_values", [helper.make_node("Clip", ["x", "min", "max"], ["y"])],
               {"x": special}, {"y": np.clip(special, np.float32(-1), np.float32(1))},
               {"min": np.array(-1, np.float32), "max": np.array(1, np.float32)}, 13)


def lp_normalization_tests(rng):
    # A vector of zeros along the axis gives zeros (ONNX's reference: 0, not 0/0), on the first axis and the last.
    x = rand(rng, 2, 3, 4)
    x[:, 1, 2] = 0.0
    x[0, 2, :] = 0.0
    for axis in (0, -1):
        norm = np.sqrt(np.sum(x.astype(np.float64) ** 2, axis=axis, keepdims=True))
        y = np.where(norm == 0, 0.0, x / np.where(norm == 0, 1.0, norm))
        write_test(f"lp_normalization_zero_vector_axis_{'last' if axis < 0 else axis}",
                   [helper.make_node("LpNormalization", ["x"], ["y"], axis=axis, p=2)], {"x": x}, {"y": f32(y)}, {}, 13)
    # p 1: the sum of the magnitudes (ONNX's test data: np.sum(abs(x))), a zero vector likewise zeros.
    for axis in (1, -1):
        norm = np.sum(np.abs(x.astype(np.float64)), axis=axis, keepdims=True)
        y = np.where(norm == 0, 0.0, x / np.where(norm == 0, 1.0, norm))
        write_test(f"lp_normalization_p1_zero_vector_axis_{'last' if axis < 0 else axis}",
                   [helper.make_node("LpNormalization", ["x"], ["y"], axis=axis, p=1)], {"x": x}, {"y": f32(y)}, {}, 13)


def pad_tests(rng):
    x = rand(rng, 1, 3, 4, 5)
    pads = np.array([0, 0, 1, 2, 0, 0, 2, 1], np.int64)
    y = np.pad(x, ((0, 0), (0, 0), (1, 2), (2, 1)), mode="wrap")
    write_test("wrap_pad", [helper.make_node("Pad", ["x", "pads"], ["y"], mode="wrap")], {"x": x}, {"y": y},
               {"pads": pads}, 19)
    # Pads beyond the extent: ONNX's torus (index modulo the extent). numpy.pad's wrap differs there (it
    # re-wraps the partly padded array), so the expected values are gathered by modular indices.
    x3 = rand(rng, 1, 2, 5)
    rows = (np.arange(-1, 2) % 2)[:, None]
    columns = (np.arange(-7, 8) % 5)[None, :]
    y3 = x3[:, rows, columns]
    write_test("wrap_pad_3d_large", [helper.make_node("Pad", ["x", "pads"], ["y"], mode="wrap")], {"x": x3},
               {"y": y3}, {"pads": np.array([0, 1, 7, 0, 0, 3], np.int64)}, 19)


def one_d_tests(rng):
    x = rand(rng, 2, 4, 11)
    w = rand(rng, 6, 2, 3)
    b = rand(rng, 6)
    y = conv1d(x, w, b, stride=2, pads=(1, 2), dilation=2, group=2)
    write_test("conv1d_strided_dilated_grouped",
               [helper.make_node("Conv", ["x", "w", "b"], ["y"], strides=[2], pads=[1, 2], dilations=[2], group=2,
                                 kernel_shape=[3])],
               {"x": x}, {"y": f32(y)}, {"w": w, "b": b}, 13)
    xd = rand(rng, 1, 3, 10)
    wd = rand(rng, 3, 1, 4)
    y = conv1d(xd, wd, stride=3, pads=same_upper(10, 4, 3, 1), group=3)
    write_test("conv1d_same_upper_depthwise",
               [helper.make_node("Conv", ["x", "w"], ["y"], strides=[3], auto_pad="SAME_UPPER", group=3)],
               {"x": xd}, {"y": f32(y)}, {"w": wd}, 11)
    xp = rand(rng, 1, 3, 10)
    write_test("maxpool1d_ceil_pads",
               [helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[3], strides=[2], pads=[1, 1], ceil_mode=1)],
               {"x": xp}, {"y": f32(pool1d(xp, 3, 2, (1, 1), False, ceil=True))}, {}, 12)
    write_test("averagepool1d_count_include_pad",
               [helper.make_node("AveragePool", ["x"], ["y"], kernel_shape=[3], pads=[1, 1], count_include_pad=1)],
               {"x": xp}, {"y": f32(pool1d(xp, 3, 1, (1, 1), True, include_pad=True))}, {}, 11)
    write_test("averagepool1d_exclude_pad",
               [helper.make_node("AveragePool", ["x"], ["y"], kernel_shape=[4], strides=[3], pads=[2, 1])],
               {"x": xp}, {"y": f32(pool1d(xp, 4, 3, (2, 1), True))}, {}, 11)
    xb = rand(rng, 2, 3, 5)
    scale, bias, mean = rand(rng, 3), rand(rng, 3), rand(rng, 3)
    var = np.abs(rand(rng, 3)) + 0.5
    write_test("batchnorm1d",
               [helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"], epsilon=1e-3)],
               {"x": xb}, {"y": f32(batch_norm(xb.astype(np.float64), scale, bias, mean, var, 1e-3))},
               {"s": scale, "b": bias, "m": mean, "v": var}, 15)
    xg = rand(rng, 1, 3, 7)
    write_test("globalaveragepool1d", [helper.make_node("GlobalAveragePool", ["x"], ["y"])],
               {"x": xg}, {"y": f32(xg.astype(np.float64).mean(axis=2, keepdims=True))}, {}, 13)

    # A chain of 1-D ops.
    xc = rand(rng, 1, 2, 16)
    w1, b1 = rand(rng, 4, 2, 3), rand(rng, 4)
    w2 = rand(rng, 3, 4, 1)
    s, bb, m = rand(rng, 4), rand(rng, 4), rand(rng, 4)
    v = np.abs(rand(rng, 4)) + 0.5
    h = np.maximum(conv1d(xc, w1, b1, pads=(1, 1)), 0)
    h = pool1d(h, 2, 2, (0, 0), False)
    h = batch_norm(h, s, bb, m, v, 1e-5)
    h = conv1d(h, w2)
    y = np.transpose(h, (0, 2, 1)).reshape(1, -1)
    write_test("conv1d_chain", [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[2], strides=[2]),
        helper.make_node("BatchNormalization", ["p1", "s", "bb", "m", "v"], ["n1"]),
        helper.make_node("Conv", ["n1", "w2"], ["c2"]),
        helper.make_node("Transpose", ["c2"], ["t"], perm=[0, 2, 1]),
        helper.make_node("Flatten", ["t"], ["y"]),
    ], {"x": xc}, {"y": f32(y)}, {"w1": w1, "b1": b1, "s": s, "bb": bb, "m": m, "v": v, "w2": w2}, 13)


def quantized_one_d_tests(rng):
    x = rng.integers(0, 256, size=(1, 2, 9)).astype(np.uint8)
    w = rng.integers(0, 256, size=(3, 2, 3)).astype(np.uint8)
    x_zp, w_zp = np.uint8(128), np.uint8(120)
    acc = conv1d(x.astype(np.int64) - int(x_zp), w.astype(np.int64) - int(w_zp), stride=2, pads=(1, 1))
    write_test("convinteger1d",
               [helper.make_node("ConvInteger", ["x", "w", "x_zp", "w_zp"], ["y"], strides=[2], pads=[1, 1])],
               {"x": x}, {"y": np.rint(acc).astype(np.int32)},
               {"w": w, "x_zp": np.array(x_zp), "w_zp": np.array(w_zp)}, 10)
    # QLinearConv: y = saturate(round_half_even(float32(acc) * (x_scale * w_scale / y_scale)) + y_zp), in float32.
    x_scale, w_scale, y_scale = np.float32(0.02), np.float32(0.005), np.float32(0.04)
    y_zp = np.uint8(100)
    bias = rng.integers(-2000, 2000, size=3).astype(np.int32)
    acc = np.rint(conv1d(x.astype(np.int64) - int(x_zp), w.astype(np.int64) - int(w_zp), pads=(1, 1))).astype(np.int64)
    acc += bias[None, :, None]
    multiplier = np.float32(x_scale * w_scale) / y_scale
    y = np.clip(np.rint(acc.astype(np.float32) * multiplier) + np.float32(y_zp), 0, 255).astype(np.uint8)
    write_test("qlinearconv1d",
               [helper.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"], ["y"], pads=[1, 1])],
               {"x": x}, {"y": y},
               {"xs": np.array(x_scale), "xz": np.array(x_zp), "w": w, "ws": np.array(w_scale), "wz": np.array(w_zp),
                "ys": np.array(y_scale), "yz": np.array(y_zp), "b": bias}, 10)


def bad_models():
    bad = OUT.parent / "bad_edges"
    if bad.exists():
        shutil.rmtree(bad)
    bad.mkdir()

    def model(name, nodes, inputs, outputs, initializers, opset=13):
        graph = helper.make_graph(nodes, name, inputs, outputs, initializers)
        m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
        m.ir_version = 8 if opset >= 15 else 7
        (bad / f"{name}.onnx").write_bytes(m.SerializeToString())

    def value(name, elem, shape):
        return helper.make_tensor_value_info(name, elem, shape)

    f = TensorProto.FLOAT
    model("rank5_pool", [helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2, 2], name="pool3d")],
          [value("x", f, [1, 2, 4, 4, 4])], [value("y", f, [1, 2, 3, 3, 3])], [])
    model("pad_mode", [helper.make_node("Pad", ["x", "pads"], ["y"], mode="torus")],
          [value("x", f, [1, 2])], [value("y", f, [1, 4])], [numpy_helper.from_array(np.array([0, 1, 0, 1], np.int64), "pads")])
    u8 = TensorProto.UINT8
    model("negative_scale", [helper.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz"], ["y"], name="conv")],
          [value("x", u8, [1, 2, 3, 3])], [value("y", u8, [1, 4, 3, 3])],
          [numpy_helper.from_array(np.array(0.1, np.float32), "xs"), numpy_helper.from_array(np.array(128, np.uint8), "xz"),
           numpy_helper.from_array(np.full((4, 2, 1, 1), 130, np.uint8), "w"),
           numpy_helper.from_array(np.array([0.1, 0.2, 0.3, -0.5], np.float32), "ws"),
           numpy_helper.from_array(np.array(128, np.uint8), "wz"), numpy_helper.from_array(np.array(0.2, np.float32), "ys"),
           numpy_helper.from_array(np.array(0, np.uint8), "yz")])
    model("zero_point_range", [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"])],
          [value("x", f, [1, 4])], [value("y", u8, [1, 4])],
          [numpy_helper.from_array(np.array(0.1, np.float32), "s"), helper.make_tensor("z", u8, [], [300])])
    model("scale_type", [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"])],
          [value("x", f, [1, 4])], [value("y", u8, [1, 4])],
          [numpy_helper.from_array(np.array(2, np.int32), "s"), numpy_helper.from_array(np.array(0, np.uint8), "z")])
    model("reshape_extent", [helper.make_node("Reshape", ["x", "shape"], ["y"])],
          [value("x", f, [2, 3])], [value("y", f, [6])], [numpy_helper.from_array(np.array([1 << 40], np.int64), "shape")])
    model("blocked", [helper.make_node("DequantizeLinear", ["x", "s", "z"], ["y"], axis=1, block_size=2)],
          [value("x", u8, [1, 4])], [value("y", f, [1, 4])],
          [numpy_helper.from_array(np.array([[0.1, 0.2]], np.float32), "s"), numpy_helper.from_array(np.array([[1, 2]], np.uint8), "z")],
          21)
    model("pipeline_dtype", [helper.make_node("Relu", ["x"], ["y"], name="int_relu")],
          [value("x", TensorProto.INT32, [2, 3])], [value("y", TensorProto.INT32, [2, 3])], [])
    model("window", [helper.make_node("Relu", ["x"], ["r"]),
                     helper.make_node("MaxPool", ["r"], ["y"], kernel_shape=[1, 5], name="p")],
          [value("x", f, [1, 1, 2, 3])], [value("y", f, [1, 1, 2, 1])], [])


def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    clip_tests(np.random.default_rng(1))
    pad_tests(np.random.default_rng(2))
    lp_normalization_tests(np.random.default_rng(5))
    one_d_tests(np.random.default_rng(3))
    quantized_one_d_tests(np.random.default_rng(4))
    bad_models()
    print(f"wrote {len(list(OUT.iterdir()))} tests to {OUT}")


if __name__ == "__main__":
    main()
