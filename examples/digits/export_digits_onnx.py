#!/usr/bin/python3
"""Writes examples/digits/digits.onnx: the digits demo's trained CNN as an ONNX model, from the committed
weights (examples/digits/digits_weights.hpp, written by scripts/train_digits.py), so that the demo imports
its model from a file with ctnn_add_model (issue #5). The graph is the one the kernel benchmarks hand to
onnxruntime (benchmarks/kernels/make_digits_onnx.py, reused here): NCHW input [1,1,8,8] (with one channel,
the NHWC image of digits_heldout.hpp), Conv 3x3 pads 1 + Relu + MaxPool 2x2 twice, a Transpose to NHWC and
Flatten (the dense weights take h, w, c), Gemm (transB 1), Softmax. Needs python3-onnx and NumPy here, not
at build time; deterministic (re-running reproduces the file byte for byte).

    /usr/bin/python3 examples/digits/export_digits_onnx.py
"""

import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "benchmarks" / "kernels"))

import onnx  # noqa: E402  (after the path to make_digits_onnx)
from make_digits_onnx import onnx_model, read_arrays  # noqa: E402


def main() -> int:
    model = onnx_model(read_arrays(HERE / "digits_weights.hpp"))
    onnx.save(model, HERE / "digits.onnx")
    print(f"wrote {HERE / 'digits.onnx'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
