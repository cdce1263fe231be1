#!/usr/bin/python3
"""Rewrites a QLinear ONNX model (QLinearConv, com.microsoft QGemm/QLinearAdd/QLinearGlobalAveragePool: the
MLPerf Tiny renderings of ../shared/models/mlperf-tiny-onnx-int8) as the QDQ model onnxruntime's quantizer
would write (QuantFormat.QDQ): each integer op becomes DequantizeLinear of its inputs (the weights and the
int32 bias as initializers behind one; the bias scale x_scale * w_scale), the float op, and QuantizeLinear
of its result. The same integers and scales: onnxruntime fuses the groups back into the same kernels.

    /usr/bin/python3 scripts/qlinear_to_qdq.py in.onnx out.onnx
"""

from __future__ import annotations

import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper


def convert(model: onnx.ModelProto) -> onnx.ModelProto:
    graph = model.graph
    constants = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    added: list[onnx.TensorProto] = []
    nodes: list[onnx.NodeProto] = []

    def const(name, array):
        added.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def dq(x, scale, zero_point, stem, axis=None):
        out = f"{stem}__dq"
        attrs = {"axis": axis} if axis is not None and constants[scale].size > 1 else {}
        nodes.append(helper.make_node("DequantizeLinear", [x, scale, zero_point], [out], **attrs))
        return out

    def bias(b, x_scale, w_scale, stem):
        scale = (constants[x_scale].astype(np.float32) * constants[w_scale].astype(np.float32)).astype(np.float32)
        s = const(f"{stem}__bias_scale", scale)
        z = const(f"{stem}__bias_zp", np.zeros(scale.shape, np.int32))
        constants[s] = scale
        return dq(b, s, z, f"{stem}__bias", axis=0)

    def q(x, scale, zero_point, out):
        nodes.append(helper.make_node("QuantizeLinear", [x, scale, zero_point], [out]))

    attributes = lambda n: {a.name: helper.get_attribute_value(a) for a in n.attribute}  # noqa: E731
    for n in graph.node:
        stem = n.output[0]
        if n.op_type == "QLinearConv":
            x, xs, xz, w, ws, wz, ys, yz = n.input[:8]
            inputs = [dq(x, xs, xz, stem + "__x"), dq(w, ws, wz, stem + "__w", axis=0)]
            if len(n.input) > 8 and n.input[8]:
                inputs.append(bias(n.input[8], xs, ws, stem))
            nodes.append(helper.make_node("Conv", inputs, [stem + "__f32"], **attributes(n)))
            q(stem + "__f32", ys, yz, n.output[0])
        elif n.op_type == "QGemm":
            a, as_, az, b, bs, bz, c, ys, yz = n.input
            inputs = [dq(a, as_, az, stem + "__a"), dq(b, bs, bz, stem + "__b", axis=0), bias(c, as_, bs, stem)]
            nodes.append(helper.make_node("Gemm", inputs, [stem + "__f32"], **attributes(n)))
            q(stem + "__f32", ys, yz, n.output[0])
        elif n.op_type == "QLinearAdd":
            a, as_, az, b, bs, bz, ys, yz = n.input
            nodes.append(helper.make_node("Add", [dq(a, as_, az, stem + "__a"), dq(b, bs, bz, stem + "__b")], [stem + "__f32"]))
            q(stem + "__f32", ys, yz, n.output[0])
        elif n.op_type == "QLinearGlobalAveragePool":
            x, xs, xz, ys, yz = n.input
            assert attributes(n).get("channels_last", 0) == 1
            # NHWC in: back to NCHW for GlobalAveragePool; the [N, C, 1, 1] result is the [N, 1, 1, C] one's bytes.
            nodes.append(helper.make_node("Transpose", [x], [stem + "__nchw"], perm=[0, 3, 1, 2]))
            nodes.append(helper.make_node("GlobalAveragePool", [dq(stem + "__nchw", xs, xz, stem + "__x")], [stem + "__f32"]))
            q(stem + "__f32", ys, yz, n.output[0])
        else:
            assert n.domain in ("", "ai.onnx"), n.op_type
            nodes.append(n)
    del graph.node[:]
    graph.node.extend(nodes)
    graph.initializer.extend(added)
    del graph.value_info[:]
    for o in list(model.opset_import):
        if o.domain == "com.microsoft":
            model.opset_import.remove(o)
    onnx.checker.check_model(model)
    return model


if __name__ == "__main__":
    onnx.save(convert(onnx.load(sys.argv[1])), sys.argv[2])
