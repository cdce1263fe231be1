#!/usr/bin/python3
"""Recurrent models for the kernel benchmark (run.py, CMakeLists.txt): ONNX LSTM and GRU layers of the sizes
issue #27 names (28 steps of 28 features, batch 1, hidden 64 or 128, forward, B given), output Y_h. Needs
Debian's python3-onnx and numpy (/usr/bin/python3).

    make_recurrent_onnx.py <output folder>

writes <output folder>/<name>.onnx and, in <output folder>/<name>/, input_k.bin and output_k.bin for k = 0..3:
the layer evaluated in NumPy float64 (scripts/gen_op_tests_recurrent.py's model of ONNX's definitions).
"""
import pathlib
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "scripts"))
from gen_op_tests_recurrent import DEFAULTS, GATES, reference  # noqa: E402

MODELS = {"lstm_64": ("LSTM", 64), "lstm_128": ("LSTM", 128), "gru_128": ("GRU", 128)}
STEPS, FEATURES = 28, 28


def main():
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(27)
    for name, (op, hidden) in MODELS.items():
        g = GATES[op]
        bound = 1.0 / np.sqrt(hidden)  # PyTorch's initialisation range
        w = rng.uniform(-bound, bound, (1, g * hidden, FEATURES)).astype(np.float32)
        r = rng.uniform(-bound, bound, (1, g * hidden, hidden)).astype(np.float32)
        b = rng.uniform(-bound, bound, (1, 2 * g * hidden)).astype(np.float32)
        node = helper.make_node(op, ["input", "W", "R", "B"], ["", "output"], hidden_size=hidden)
        graph = helper.make_graph(
            [node], name, [helper.make_tensor_value_info("input", TensorProto.FLOAT, [STEPS, 1, FEATURES])],
            [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 1, hidden])],
            [numpy_helper.from_array(a, n) for n, a in (("W", w), ("R", r), ("B", b))])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)], producer_name="ctnn")
        model.ir_version = 8
        (out / f"{name}.onnx").write_bytes(model.SerializeToString())
        (out / name).mkdir(exist_ok=True)
        for k in range(4):
            x = rng.uniform(-1, 1, (STEPS, 1, FEATURES)).astype(np.float32)
            _, y_h, _ = reference(op, x, w, r, b, None, None, None, hidden, "forward", 0, None, 0, 0, DEFAULTS[op])
            (out / name / f"input_{k}.bin").write_bytes(x.tobytes())
            (out / name / f"output_{k}.bin").write_bytes(y_h.astype(np.float32).tobytes())


if __name__ == "__main__":
    main()
