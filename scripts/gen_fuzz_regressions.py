#!/usr/bin/python3
"""The regression inputs of issue #23's fuzz findings, each derived from the project's own test models.

An independent mutation fuzzer of ctnn-inspect and ctnn-run found files that ctnn accepted and ran into
garbage, accepted without outputs, ran without bound or judged differently in the two tools. Each file
here reproduces one finding from a model of tests/data (or a model the TFLite generator builds), so that
the fix stays checked: the tools' tests (tests/tools/CMakeLists.txt) expect each to be rejected with its
message, and the fuzz targets replay them (tests/fuzz/regressions/).

    /usr/bin/python3 scripts/gen_fuzz_regressions.py      # < 1 s, deterministic (byte for byte)

Needs python3-onnx (1.12, Debian) and NumPy. Writes:
  tests/data/onnx/bad_int8_float_op.onnx    conv_net.onnx with its input declared INT8 (finding 2: a float
                                            Conv reading an int8 tensor without quantization)
  tests/data/onnx/bad_int8_gemm.onnx        input INT8 [1,4] -> Gemm with float32 weights (finding 2)
  tests/data/onnx/bad_no_outputs.onnx       conv_net.onnx with graph.output removed (finding 3)
  tests/data/tflite/bad_no_outputs.tflite   input -> RELU -> output, the subgraph's output list empty (3)
  tests/data/onnx/large_batch.onnx          mlp.onnx with batch 2^23 (finding 4: valid, 2.0e9 multiply-
                                            accumulates, 1.2 GB; ctnn-run refuses it under its default limits)
  tests/data/tflite/bad_quantize_to_int32.tflite  float32 -> QUANTIZE -> int32 (finding 5: no kernel; TFLM
                                            quantizes float32 to int8 and int16 only)
  tests/data/onnx/bad_int8_softmax.onnx     input INT8 [1,4] -> Softmax (findings 2 and 5: ctnn-run said only
                                            "a call has no kernel with run-time parameters")
  tests/data/onnx/tflite_named_onnx.onnx    conv_net.tflite as it is, named .onnx (finding 5: both tools
                                            decide the format by content)
  tests/data/onnx/bad_dangling_operand.onnx conv_net.onnx whose node 1 reads a value nothing produces (6)
  tests/data/onnx/bad_cycle.onnx            conv_net.onnx whose node 0 reads node 1's result (6)
"""

from __future__ import annotations

import copy
import shutil
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
ONNX_DIR = ROOT / "tests" / "data" / "onnx"
TFLITE_DIR = ROOT / "tests" / "data" / "tflite"

sys.path.insert(0, str(HERE))
import gen_tflite_test_models as tfl  # noqa: E402  (the TFLite writer: Model, INT8, INT32)


def save_onnx(model: onnx.ModelProto, name: str) -> None:
    (ONNX_DIR / name).write_bytes(model.SerializeToString())


def int8_input_model(name: str, node: onnx.NodeProto, output_shape: list[int], initializers) -> onnx.ModelProto:
    """input "x" INT8 [1,4] (no quantization: ONNX has none on a graph input) -> node -> float output "y"."""
    graph = helper.make_graph([node], name, [helper.make_tensor_value_info("x", TensorProto.INT8, [1, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, output_shape)], initializers)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 7
    return m


def onnx_models() -> None:
    conv_net = onnx.load(str(ONNX_DIR / "conv_net.onnx"))

    m = copy.deepcopy(conv_net)
    m.graph.input[0].type.tensor_type.elem_type = TensorProto.INT8
    save_onnx(m, "bad_int8_float_op.onnx")

    weights = helper.make_tensor("w", TensorProto.FLOAT, [4, 2], np.arange(8, dtype=np.float32).tolist())
    save_onnx(int8_input_model("bad_int8_gemm", helper.make_node("Gemm", ["x", "w"], ["y"]), [1, 2], [weights]),
              "bad_int8_gemm.onnx")
    save_onnx(int8_input_model("bad_int8_softmax", helper.make_node("Softmax", ["x"], ["y"]), [1, 4], []),
              "bad_int8_softmax.onnx")

    m = copy.deepcopy(conv_net)
    del m.graph.output[:]
    save_onnx(m, "bad_no_outputs.onnx")

    m = onnx.load(str(ONNX_DIR / "mlp.onnx"))
    for value in list(m.graph.input) + list(m.graph.output):
        value.type.tensor_type.shape.dim[0].dim_value = 1 << 23
    save_onnx(m, "large_batch.onnx")

    m = copy.deepcopy(conv_net)
    m.graph.node[1].input[0] = "nowhere"
    save_onnx(m, "bad_dangling_operand.onnx")

    m = copy.deepcopy(conv_net)
    m.graph.node[0].input[0] = m.graph.node[1].output[0]
    save_onnx(m, "bad_cycle.onnx")

    shutil.copyfile(TFLITE_DIR / "conv_net.tflite", ONNX_DIR / "tflite_named_onnx.onnx")


def tflite_models() -> None:
    m, x, t, y = tfl.simple()
    m.outputs = []
    (TFLITE_DIR / "bad_no_outputs.tflite").write_bytes(m.serialize())

    m = tfl.Model(new_opcodes=True)
    x = m.tensor("input", [1, 4], tfl.FLOAT32)
    y = m.tensor("output", [1, 4], tfl.INT32, quant=dict(scale=[0.5], zero_point=[0]))
    m.inputs, m.outputs = [x], [y]
    m.op("QUANTIZE", [x], [y])
    (TFLITE_DIR / "bad_quantize_to_int32.tflite").write_bytes(m.serialize())



def main() -> None:
    onnx_models()
    tflite_models()


if __name__ == "__main__":
    main()
