#!/usr/bin/python3
"""The digits demo model (examples/digits) as an ONNX file, so that onnxruntime can run the same network
with the same weights next to ctnn (run.py). Needs Debian's python3-onnx and numpy (/usr/bin/python3).

    make_digits_onnx.py <examples/digits> <output folder>

writes <output folder>/digits.onnx (input "input" [1,1,8,8] float32: the same bytes as the demo's NHWC
[1,8,8,1] image, since it has one channel; output "output" [1,10] probabilities) and, for held-out
images k = 0..3, input_k.bin and output_k.bin: the network evaluated directly in NumPy (float64, NHWC,
straight from the header's layouts), an independent reference for onnxruntime's outputs.
"""
import pathlib
import re
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ARRAY = re.compile(r"inline constexpr (?:float|unsigned char) (\w+)\[[^\]]*\] = \{(.*?)\};", re.S)
NUMBER = re.compile(r"-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?")


def read_arrays(header):
    return {name: np.array([float(v) for v in NUMBER.findall(body)], dtype=np.float64)
            for name, body in ARRAY.findall(header.read_text())}


def conv_same_relu(x, w_ohwi, b):  # x: [H, W, C], 3x3 "same", stride 1
    h, w, _ = x.shape
    padded = np.pad(x, ((1, 1), (1, 1), (0, 0)))
    out = np.zeros((h, w, w_ohwi.shape[0]))
    for ky in range(3):
        for kx in range(3):
            out += np.einsum("hwc,oc->hwo", padded[ky:ky + h, kx:kx + w, :], w_ohwi[:, ky, kx, :])
    return np.maximum(out + b, 0.0)


def max_pool2(x):
    h, w, c = x.shape
    return x.reshape(h // 2, 2, w // 2, 2, c).max(axis=(1, 3))


def reference(image, weights):
    x = image.reshape(8, 8, 1)
    x = max_pool2(conv_same_relu(x, weights["conv1_w"].reshape(8, 3, 3, 1), weights["conv1_b"]))
    x = max_pool2(conv_same_relu(x, weights["conv2_w"].reshape(16, 3, 3, 8), weights["conv2_b"]))
    logits = weights["fc_w"].reshape(10, 64) @ x.reshape(64) + weights["fc_b"]
    e = np.exp(logits - logits.max())
    return e / e.sum()


def onnx_model(weights):
    def initializer(name, values, shape):
        return numpy_helper.from_array(values.reshape(shape).astype(np.float32), name)

    inits = [
        # OHWI -> OIHW
        numpy_helper.from_array(weights["conv1_w"].reshape(8, 3, 3, 1).transpose(0, 3, 1, 2).astype(np.float32), "conv1_w"),
        initializer("conv1_b", weights["conv1_b"], (8,)),
        numpy_helper.from_array(weights["conv2_w"].reshape(16, 3, 3, 8).transpose(0, 3, 1, 2).astype(np.float32), "conv2_w"),
        initializer("conv2_b", weights["conv2_b"], (16,)),
        initializer("fc_w", weights["fc_w"], (10, 64)),
        initializer("fc_b", weights["fc_b"], (10,)),
    ]
    nodes = [
        helper.make_node("Conv", ["input", "conv1_w", "conv1_b"], ["c1"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Conv", ["p1", "conv2_w", "conv2_b"], ["c2"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c2"], ["r2"]),
        helper.make_node("MaxPool", ["r2"], ["p2"], kernel_shape=[2, 2], strides=[2, 2]),
        # The dense weights take the features in NHWC order (h, w, c).
        helper.make_node("Transpose", ["p2"], ["nhwc"], perm=[0, 2, 3, 1]),
        helper.make_node("Flatten", ["nhwc"], ["flat"], axis=1),
        helper.make_node("Gemm", ["flat", "fc_w", "fc_b"], ["logits"], transB=1),
        helper.make_node("Softmax", ["logits"], ["output"], axis=1),
    ]
    graph = helper.make_graph(nodes, "digits", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 1, 8, 8])],
                              [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 10])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="ctnn make_digits_onnx.py")
    model.ir_version = 7
    onnx.checker.check_model(model)
    return model


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    digits, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    weights = read_arrays(digits / "digits_weights.hpp")
    images = read_arrays(digits / "digits_heldout.hpp")["heldout_images"].reshape(-1, 64)
    onnx.save(onnx_model(weights), out / "digits.onnx")
    for k in range(4):
        images[k].astype("<f4").tofile(out / f"input_{k}.bin")
        reference(images[k], weights).astype("<f4").tofile(out / f"output_{k}.bin")


if __name__ == "__main__":
    main()
