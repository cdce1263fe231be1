#!/usr/bin/python3
"""Rewrites a QLinear ONNX model (QLinearConv, com.microsoft QGemm/QLinearAdd/QLinearGlobalAveragePool: the
MLPerf Tiny renderings of ../shared/models/mlperf-tiny-onnx-int8) as the QDQ model onnxruntime's quantizer
would write (QuantFormat.QDQ): each integer op becomes DequantizeLinear of its inputs (the weights and the
int32 bias as initializers behind one; the bias scale x_scale * w_scale), the float op, and QuantizeLinear
of its result. The same integers and scales: onnxruntime fuses the groups back into the same kernels.

    /usr/bin/python3 scripts/qlinear_to_qdq.py in.onnx out.onnx
    /usr/bin/python3 scripts/qlinear_to_qdq.py --record-ort /tmp/ortnode/node_modules
        # tests/data/onnx/mlperf_qdq/<model>/output_<k>.bin: onnxruntime 1.30.0 on each MLPerf Tiny QDQ rendering
        # for the reference inputs ../shared/models/mlperf-tiny/refs/<model>/input_<k>.bin (tests/tools/CMakeLists.txt)
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import helper, numpy_helper

HERE = Path(__file__).resolve().parent


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


MLPERF_INT8 = ["kws_ref_model", "vww_96_int8", "pretrainedResnet_quant", "ad01_int8"]


def record_ort(node_modules: Path) -> None:
    """onnxruntime's outputs of each QDQ rendering on its four reference inputs (int8 in, int8 out)."""
    sys.path.insert(0, str(HERE))
    import gen_op_tests_qdq  # noqa: E402  (its onnxruntime runner)
    shared = HERE.parent.parent / "shared" / "models"
    for name in MLPERF_INT8:
        model = convert(onnx.load(str(shared / "mlperf-tiny-onnx-int8" / f"{name}.onnx")))
        graph_input, graph_output = model.graph.input[0], model.graph.output[0]
        shape = [d.dim_value for d in graph_input.type.tensor_type.shape.dim]
        out_shape = [d.dim_value for d in graph_output.type.tensor_type.shape.dim]
        folder = HERE.parent / "tests" / "data" / "onnx" / "mlperf_qdq" / name
        folder.mkdir(parents=True, exist_ok=True)
        for k in range(4):
            x = np.fromfile(shared / "mlperf-tiny" / "refs" / name / f"input_{k}.bin", np.int8).reshape(shape)
            (y,) = gen_op_tests_qdq.run_ort(node_modules, model.SerializeToString(), [x], [graph_input],
                                            [(graph_output.name, np.zeros(out_shape, np.int8))])
            (folder / f"output_{k}.bin").write_bytes(y.tobytes())


if __name__ == "__main__":
    if sys.argv[1] == "--record-ort":
        record_ort(Path(sys.argv[2]))
    else:
        onnx.save(convert(onnx.load(sys.argv[1])), sys.argv[2])
