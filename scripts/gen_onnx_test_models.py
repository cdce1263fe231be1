#!/usr/bin/python3
"""Small .onnx files for ctnn's ONNX frontend tests.

Writes tests/data/onnx/*.onnx and, for the float models, <model>_expected.hpp with NCHW inputs and the
outputs of an independent NumPy (float64) implementation of the ONNX ops (not onnxruntime). Needs
python3-onnx (1.12, Debian) for onnx.helper and NumPy; deterministic (fixed seeds, no producer version):
re-running reproduces every file byte for byte.

    /usr/bin/python3 scripts/gen_onnx_test_models.py      # < 1 s

Models (float; the op list of each is in its _expected.hpp comment):
  conv_net    opset 13, input [1,3,8,8] (C = 3: the NCHW -> NHWC transposition): Conv 3x3 pads 1 + Relu,
              depthwise Conv (group 4, auto_pad SAME_UPPER, stride 2), Clip(0, 6) from Constant nodes,
              grouped 1x1 Conv (group 2), BatchNormalization, MaxPool 2x2, GlobalAveragePool, Flatten,
              Gemm (transB 0, alpha 0.5, beta 2, scalar C), Softmax.
  branch_net  opset 11, input [1,1,7,6] (C = 1): Pad (pads input, value 0.5), Conv SAME_LOWER stride 2
              dilation 1, Add of a constant [4,1,1], Relu, Mul of two activations, Concat (axis 1),
              AveragePool 3x3 pads 1 (count_include_pad 0), Sigmoid, Tanh, Conv 3x3 without bias,
              Reshape [1,-1], MatMul with a constant B, Softmax (opset 11, axis 1).
  mlp         opset 13, input [2,16]: Gemm (transB 1), BatchNormalization, Relu, MatMul, Add; two outputs:
              the result and the same value again (a copy).
  transpose_net  opset 13, input [1,3,4,5]: Conv 1x1, Transpose [0,2,1,3] of the (NHWC-held) result,
              Softmax on axis 1 (not the last: transposes around it), Add of a Transpose of a constant
              (folded at compile time).
  conv_nchw_output  a Conv result (NCHW [1,2,3,3]) is a model output: transposed back from NHWC (checked
              by tests/frontend/onnx/onnx_import.cpp).
  sub_net     opset 13, inputs X and Y [1,3,4,4]: Sub(X, constant [3,1,1]) (broadcast per channel), then
              Sub(that, Y) (operand order matters). Not registered as a test yet: ctnn does not support Sub so far.
  plain_integer_net  opset 13, plain integers and MatMul of two activations (plain_integer_net_expected.hpp holds typed
              inputs and NumPy's outputs; wrap-around computed exactly in int64 and reduced modulo 2^bits):
              uint8 Add (broadcast [2,1,1]) -> uint8 MaxPool 3x3 s2 pads 1 -> Mul by a uint8 constant; int32
              Mul -> Pad reflect; int64 Add (broadcast [3] + [2,1]); float MatMul [2,3,4] x [1,4,2]
              (batch broadcast) and [4] x [1,4,2] (1-D A).
Models that must be rejected (the expected diagnostic is in tests/frontend/onnx/CMakeLists.txt):
  bad_unsupported_op  node 1 is Det (a determinant: no TFLite or TFLite Micro counterpart).
  bad_several_unsupported  nodes 1, 2 and 4 (Det "determinant", Det, NonZero) are not
                      supported: the tools name all three at once.
  bad_attribute       Conv with group = 3 on 2 channels: attribute group = 3 at node 1.
  bad_malformed       conv_net cut inside its graph: the graph's length runs past the end of the file.
  bad_dynamic_shape   input [N, F]: a symbolic batch (bound to 1) and a symbolic dim "F" that must be bound
                      (onnx::model's Dims "F=4", ctnn-run --dim F=4: then it runs, a Relu).
  bad_output_shape    Relu of x [N, 4] whose output is declared [N, 5]: the declared static extent contradicts the
                      computed one.
Symbolic dimensions as torch.onnx.export(..., dynamic_axes=...) writes them (issue #28):
  conv_net_dynamic_batch  conv_net with dim_param "batch" as the first axis of its input and output (bound to 1
                      by default: the same outputs as conv_net).
  bad_weights         Conv whose weights are a graph input (operand 1 is not a constant).
  bad_integer_types   Add of a uint8 and an int8 input (plain integer arithmetic takes one type).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "tests" / "data" / "onnx"


def rand(rng, *shape, scale=1.0):
    return (rng.uniform(-1.0, 1.0, size=shape) * scale).astype(np.float32)


# ----------------------------------------------------------------------------------------------------
# NumPy reference ops (NCHW, float64).

def conv(x, w, b=None, strides=(1, 1), pads=(0, 0, 0, 0), dilations=(1, 1), group=1):
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    xp = np.zeros((n, c, h + pads[0] + pads[2], wd + pads[1] + pads[3]))
    xp[:, :, pads[0]:pads[0] + h, pads[1]:pads[1] + wd] = x
    eh, ew = (kh - 1) * dilations[0] + 1, (kw - 1) * dilations[1] + 1
    oh, ow = (xp.shape[2] - eh) // strides[0] + 1, (xp.shape[3] - ew) // strides[1] + 1
    y = np.zeros((n, m, oh, ow))
    per_group = m // group
    for o in range(m):
        g = o // per_group
        for i in range(oh):
            for j in range(ow):
                patch = xp[:, g * cg:(g + 1) * cg, i * strides[0]:i * strides[0] + eh:dilations[0],
                           j * strides[1]:j * strides[1] + ew:dilations[1]]
                y[:, o, i, j] = (patch * w[o]).sum(axis=(1, 2, 3))
    if b is not None:
        y += b.reshape(1, -1, 1, 1)
    return y


def same_pads(extent, k, s, d, lower):
    out = -(-extent // s)
    total = max(0, (out - 1) * s + (k - 1) * d + 1 - extent)
    small, large = total // 2, total - total // 2
    return (large, small) if lower else (small, large)


def pool(x, k, strides, pads, average):
    n, c, h, w = x.shape
    oh = (h + pads[0] + pads[2] - k[0]) // strides[0] + 1
    ow = (w + pads[1] + pads[3] - k[1]) // strides[1] + 1
    y = np.zeros((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            r0, c0 = i * strides[0] - pads[0], j * strides[1] - pads[1]
            window = x[:, :, max(r0, 0):min(r0 + k[0], h), max(c0, 0):min(c0 + k[1], w)]
            y[:, :, i, j] = window.mean(axis=(2, 3)) if average else window.max(axis=(2, 3))
    return y


def batch_norm(x, scale, bias, mean, var, eps):
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps) * scale.reshape(shape) + bias.reshape(shape)


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


# ----------------------------------------------------------------------------------------------------
# Writing.

def make_model(name, nodes, inputs, outputs, initializers, opset):
    graph = helper.make_graph(nodes, name, inputs, outputs, initializer=initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="ctnn-test")
    model.ir_version = 7
    onnx.checker.check_model(model)
    return model


def tensor_input(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def const(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def c_float(v: float) -> str:
    text = repr(float(np.float32(v)))
    if "e" not in text and "." not in text and "inf" not in text and "nan" not in text:
        text += ".0"
    return text + "f"


def c_floats(values) -> str:
    parts = [c_float(v) for v in np.asarray(values, dtype=np.float32).ravel()]
    return "\n".join("    " + ", ".join(parts[k:k + 8]) + "," for k in range(0, len(parts), 8))


def write(name, model):
    (OUT / f"{name}.onnx").write_bytes(model.SerializeToString())


def write_expected(name, input_shapes, run, notes, cases=3):
    rng = np.random.RandomState(200 + len(name))
    inputs = [[rand(rng, *s) for s in input_shapes] for _ in range(cases)]
    outputs = [[np.asarray(o, dtype=np.float64) for o in run(*[i.astype(np.float64) for i in case])] for case in inputs]
    text = [f"// Generated by scripts/gen_onnx_test_models.py: do not edit. {name}.onnx:",
            *[f"// {n}" for n in notes],
            "// Inputs uniform in [-1, 1], NCHW; expected = NumPy float64 evaluation of the same float32 weights,",
            "// rounded to float.", "#pragma once", "#include <cstddef>", "",
            f"namespace ctnn_test_data::onnx_{name} {{", "",
            f"inline constexpr std::size_t case_count = {cases};"]
    for k in range(len(input_shapes)):
        size = int(np.prod(input_shapes[k]))
        text += [f"inline constexpr std::size_t input{k}_elements = {size};",
                 f"inline constexpr float input{k}[case_count * input{k}_elements] = {{",
                 "\n".join(c_floats(case[k]) for case in inputs), "};"]
    for k in range(len(outputs[0])):
        size = outputs[0][k].size
        text += [f"inline constexpr std::size_t output{k}_elements = {size};",
                 f"inline constexpr float expected{k}[case_count * output{k}_elements] = {{",
                 "\n".join(c_floats(case[k]) for case in outputs), "};"]
    text += ["", f"}}  // namespace ctnn_test_data::onnx_{name}", ""]
    (OUT / f"{name}_expected.hpp").write_text("\n".join(text))


# ----------------------------------------------------------------------------------------------------
# Models.

def conv_net_model():
    rng = np.random.RandomState(1)
    w1, b1 = rand(rng, 4, 3, 3, 3, scale=0.5), rand(rng, 4)
    w2, b2 = rand(rng, 8, 1, 3, 3, scale=0.5), rand(rng, 8)       # depthwise, multiplier 2
    w3, b3 = rand(rng, 6, 4, 1, 1), rand(rng, 6)                    # 1x1, group 2
    bn = [rand(rng, 6) + 1.5, rand(rng, 6), rand(rng, 6), rand(rng, 6) + 1.2]
    wg, cg = rand(rng, 6, 5), np.array(0.25, dtype=np.float32)     # Gemm B [K, N], scalar C
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], group=4, auto_pad="SAME_UPPER", strides=[2, 2]),
        helper.make_node("Constant", [], ["lo"], value=const("lo_value", np.array(0.0, dtype=np.float32))),
        helper.make_node("Constant", [], ["hi"], value=const("hi_value", np.array(6.0, dtype=np.float32))),
        helper.make_node("Clip", ["c2", "lo", "hi"], ["r2"]),
        helper.make_node("Conv", ["r2", "w3", "b3"], ["c3"], group=2),
        helper.make_node("BatchNormalization", ["c3", "bn_scale", "bn_bias", "bn_mean", "bn_var"], ["n3"], epsilon=1e-3),
        helper.make_node("MaxPool", ["n3"], ["p3"], kernel_shape=[2, 2], strides=[1, 1]),
        helper.make_node("GlobalAveragePool", ["p3"], ["g"]),
        helper.make_node("Flatten", ["g"], ["f"]),
        helper.make_node("Gemm", ["f", "wg", "cg"], ["logits"], alpha=0.5, beta=2.0),
        helper.make_node("Softmax", ["logits"], ["y"]),
    ]
    inits = [const("w1", w1), const("b1", b1), const("w2", w2), const("b2", b2), const("w3", w3), const("b3", b3),
             const("bn_scale", bn[0]), const("bn_bias", bn[1]), const("bn_mean", bn[2]), const("bn_var", bn[3]),
             const("wg", wg), const("cg", cg)]
    model = make_model("conv_net", nodes, [tensor_input("x", [1, 3, 8, 8])], [tensor_input("y", [1, 5])], inits, 13)

    def run(x):
        y = np.maximum(conv(x, w1, b1, pads=(1, 1, 1, 1)), 0)
        ph, pw = same_pads(8, 3, 2, 1, False), same_pads(8, 3, 2, 1, False)
        y = np.clip(conv(y, w2, b2, strides=(2, 2), pads=(ph[0], pw[0], ph[1], pw[1]), group=4), 0, 6)
        y = batch_norm(conv(y, w3, b3, group=2), *bn, 1e-3)
        y = pool(y, (2, 2), (1, 1), (0, 0, 0, 0), False).mean(axis=(2, 3))
        return [softmax(0.5 * y @ wg + 2.0 * cg, -1)]

    notes = ["[1,3,8,8] -> Conv 3x3 p1 +Relu (4) -> Conv depthwise x2 SAME_UPPER s2 -> Clip(0,6) -> Conv 1x1 group 2 (6)",
             "-> BatchNormalization -> MaxPool 2x2 s1 -> GlobalAveragePool -> Flatten -> Gemm (alpha .5, beta 2) -> Softmax"]
    return model, [[1, 3, 8, 8]], run, notes


def branch_net_model():
    rng = np.random.RandomState(2)
    w1, b1 = rand(rng, 4, 1, 3, 3), rand(rng, 4)
    add_c = rand(rng, 4, 1, 1)
    w2 = rand(rng, 4, 4, 1, 1)
    w3 = rand(rng, 6, 8, 3, 3, scale=0.5)
    wm = rand(rng, 6, 3)
    nodes = [
        helper.make_node("Pad", ["x", "pads", "pad_value"], ["p"]),
        helper.make_node("Conv", ["p", "w1", "b1"], ["c1"], auto_pad="SAME_LOWER", strides=[2, 2]),
        helper.make_node("Add", ["c1", "add_c"], ["a1"]),
        helper.make_node("Relu", ["a1"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2"], ["c2"]),
        helper.make_node("Mul", ["r1", "c2"], ["m"]),
        helper.make_node("Concat", ["r1", "m"], ["cat"], axis=1),
        helper.make_node("AveragePool", ["cat"], ["ap"], kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("Sigmoid", ["ap"], ["s"]),
        helper.make_node("Tanh", ["s"], ["t"]),
        helper.make_node("Conv", ["t", "w3"], ["c3"]),
        helper.make_node("Reshape", ["c3", "shape"], ["flat"]),
        helper.make_node("MatMul", ["flat", "wm"], ["mm"]),
        helper.make_node("Softmax", ["mm"], ["y"], axis=1),
    ]
    inits = [const("pads", np.array([0, 0, 1, 2, 0, 0, 2, 1], dtype=np.int64)),
             const("pad_value", np.array(0.5, dtype=np.float32)), const("w1", w1), const("b1", b1),
             const("add_c", add_c), const("w2", w2), const("w3", w3), const("shape", np.array([1, -1], dtype=np.int64)),
             const("wm", wm)]
    model = make_model("branch_net", nodes, [tensor_input("x", [1, 1, 7, 6])], [tensor_input("y", [1, 3])], inits, 11)

    def run(x):
        p = np.pad(x, ((0, 0), (0, 0), (1, 2), (2, 1)), constant_values=0.5)   # [1,1,10,9]
        ph, pw = same_pads(10, 3, 2, 1, True), same_pads(9, 3, 2, 1, True)
        r1 = np.maximum(conv(p, w1, b1, strides=(2, 2), pads=(ph[0], pw[0], ph[1], pw[1])) + add_c, 0)
        cat = np.concatenate([r1, r1 * conv(r1, w2)], axis=1)
        t = np.tanh(sigmoid(pool(cat, (3, 3), (2, 2), (1, 1, 1, 1), True)))
        return [softmax(conv(t, w3).reshape(1, -1) @ wm, 1)]

    notes = ["[1,1,7,6] -> Pad (0,0,1,2 / 0,0,2,1, value .5) -> Conv 3x3 SAME_LOWER s2 (4) -> Add [4,1,1] -> Relu",
             "-> (Conv 1x1 no bias, Mul) -> Concat axis 1 -> AveragePool 3x3 p1 s2 -> Sigmoid -> Tanh -> Conv 3x3 (6)",
             "-> Reshape [1,-1] -> MatMul [6,3] -> Softmax (opset 11, axis 1)"]
    return model, [[1, 1, 7, 6]], run, notes


def mlp_model():
    rng = np.random.RandomState(3)
    w1, b1 = rand(rng, 12, 16), rand(rng, 12)     # Gemm transB: [out, in]
    bn = [rand(rng, 12) + 1.5, rand(rng, 12), rand(rng, 12), rand(rng, 12) + 1.2]
    w2, b2 = rand(rng, 12, 4), rand(rng, 4)
    nodes = [
        helper.make_node("Gemm", ["x", "w1", "b1"], ["h"], transB=1),
        helper.make_node("BatchNormalization", ["h", "bn_scale", "bn_bias", "bn_mean", "bn_var"], ["n"]),
        helper.make_node("Relu", ["n"], ["r"]),
        helper.make_node("MatMul", ["r", "w2"], ["mm"]),
        helper.make_node("Add", ["mm", "b2"], ["y"]),
    ]
    inits = [const("w1", w1), const("b1", b1), const("bn_scale", bn[0]), const("bn_bias", bn[1]),
             const("bn_mean", bn[2]), const("bn_var", bn[3]), const("w2", w2), const("b2", b2)]
    model = make_model("mlp", nodes, [tensor_input("x", [2, 16])], [tensor_input("y", [2, 4]), tensor_input("y", [2, 4])],
                       inits, 13)

    def run(x):
        y = np.maximum(batch_norm(x @ w1.T + b1, *bn, 1e-5), 0) @ w2 + b2
        return [y, y]

    notes = ["[2,16] -> Gemm transB (12) -> BatchNormalization -> Relu -> MatMul [12,4] -> Add [4]; outputs: y, y"]
    return model, [[2, 16]], run, notes


def transpose_net_model():
    rng = np.random.RandomState(4)
    w, b, k = rand(rng, 2, 3, 1, 1), rand(rng, 2), rand(rng, 5, 2)
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"]),
        helper.make_node("Transpose", ["c"], ["t"], perm=[0, 2, 1, 3]),
        helper.make_node("Softmax", ["t"], ["s"], axis=1),
        helper.make_node("Transpose", ["k"], ["kt"]),
        helper.make_node("Add", ["s", "kt"], ["y"]),
    ]
    model = make_model("transpose_net", nodes, [tensor_input("x", [1, 3, 4, 5])], [tensor_input("y", [1, 4, 2, 5])],
                       [const("w", w), const("b", b), const("k", k)], 13)

    def run(x):
        t = conv(x, w, b).transpose(0, 2, 1, 3)
        return [softmax(t, 1) + k.T]

    notes = ["[1,3,4,5] -> Conv 1x1 (2, bias) -> Transpose [0,2,1,3] -> Softmax axis 1 -> Add Transpose(constant [5,2])"]
    return model, [[1, 3, 4, 5]], run, notes


def sub_net_model():
    rng = np.random.RandomState(5)
    k = rand(rng, 3, 1, 1)
    nodes = [
        helper.make_node("Sub", ["x", "k"], ["c"]),
        helper.make_node("Sub", ["c", "y_in"], ["y"]),
    ]
    model = make_model("sub_net", nodes, [tensor_input("x", [1, 3, 4, 4]), tensor_input("y_in", [1, 3, 4, 4])],
                       [tensor_input("y", [1, 3, 4, 4])], [const("k", k)], 13)

    def run(x, y):
        c = (x - k).astype(np.float32).astype(np.float64)  # c is a float32 tensor
        return [c - y]

    notes = ["inputs X, Y [1,3,4,4] -> Sub(X, constant [3,1,1]) (per channel) -> C; Sub(C, Y) -> output",
             "(computed from C rounded to float32)"]
    return model, [[1, 3, 4, 4], [1, 3, 4, 4]], run, notes


# Plain integer ops (ONNX's semantics: results wrap around in the element type) and MatMul of activations.
INTEGER_TYPES = {TensorProto.UINT8: ("std::uint8_t", np.uint8), TensorProto.INT8: ("std::int8_t", np.int8),
                 TensorProto.INT32: ("std::int32_t", np.int32), TensorProto.INT64: ("std::int64_t", np.int64),
                 TensorProto.FLOAT: ("float", np.float32)}


def wrap(exact, np_type):
    """An exact (int64) result reduced modulo 2^bits into np_type's range."""
    bits = 8 * np.dtype(np_type).itemsize
    r = np.mod(exact.astype(np.int64), 1 << bits) if bits < 64 else exact.astype(np.int64)
    if np.issubdtype(np_type, np.signedinteger) and bits < 64:
        r = np.where(r >= 1 << (bits - 1), r - (1 << bits), r)
    return r.astype(np_type)


def max_pool_integers(x, k, strides, pads):
    """MaxPool over the in-bounds elements (padding never wins), any integer type."""
    n, c, h, w = x.shape
    padded = np.full((n, c, h + pads[0] + pads[2], w + pads[1] + pads[3]), np.iinfo(np.int64).min, dtype=np.int64)
    padded[:, :, pads[0]:pads[0] + h, pads[1]:pads[1] + w] = x
    oh, ow = (padded.shape[2] - k[0]) // strides[0] + 1, (padded.shape[3] - k[1]) // strides[1] + 1
    y = np.zeros((n, c, oh, ow), dtype=np.int64)
    for i in range(oh):
        for j in range(ow):
            y[:, :, i, j] = padded[:, :, i * strides[0]:i * strides[0] + k[0], j * strides[1]:j * strides[1] + k[1]].max(axis=(2, 3))
    return y.astype(x.dtype)


def plain_integer_net_model():
    inputs = [("a", TensorProto.UINT8, [1, 2, 5, 5]), ("b", TensorProto.UINT8, [2, 1, 1]), ("c", TensorProto.INT32, [2, 3, 4]),
              ("e", TensorProto.INT64, [3]), ("e2", TensorProto.INT64, [2, 1]), ("d", TensorProto.FLOAT, [2, 3, 4]),
              ("f", TensorProto.FLOAT, [1, 4, 2]), ("v", TensorProto.FLOAT, [4])]
    outputs = [("q", TensorProto.UINT8, [1, 2, 3, 3]), ("r", TensorProto.INT32, [2, 5, 7]), ("s", TensorProto.INT64, [2, 3]),
               ("mm", TensorProto.FLOAT, [2, 3, 2]), ("mv", TensorProto.FLOAT, [1, 2])]
    pads = [0, 1, 2, 0, 1, 1]  # [begins..., ends...] of c's 3 dims (reflect: each below its extent)
    nodes = [
        helper.make_node("Add", ["a", "b"], ["sum"]),
        helper.make_node("MaxPool", ["sum"], ["pooled"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
        helper.make_node("Mul", ["pooled", "seven"], ["q"]),
        helper.make_node("Mul", ["c", "c"], ["square"]),
        helper.make_node("Pad", ["square", "pads"], ["r"], mode="reflect"),
        helper.make_node("Add", ["e", "e2"], ["s"]),
        helper.make_node("MatMul", ["d", "f"], ["mm"]),
        helper.make_node("MatMul", ["v", "f"], ["mv"]),
    ]
    inits = [const("seven", np.array([7], dtype=np.uint8)), const("pads", np.array(pads, dtype=np.int64))]
    model = make_model("plain_integer_net", nodes, [helper.make_tensor_value_info(n, t, s) for n, t, s in inputs],
                       [helper.make_tensor_value_info(n, t, s) for n, t, s in outputs], inits, 13)

    def run(a, b, c, e, e2, d, f, v):
        exact = np.int64
        q = wrap(max_pool_integers(wrap(a.astype(exact) + b.astype(exact), np.uint8), (3, 3), (2, 2), (1, 1, 1, 1)).astype(exact) * 7,
                 np.uint8)
        r = np.pad(wrap(c.astype(exact) * c.astype(exact), np.int32), [(pads[k], pads[k + 3]) for k in range(3)], mode="reflect")
        s = e + e2  # magnitudes below 2^40: exact
        return [q, r, s, np.matmul(d.astype(np.float64), f.astype(np.float64)), np.matmul(v.astype(np.float64), f.astype(np.float64))]

    notes = ["uint8 a [1,2,5,5] + b [2,1,1] -> MaxPool 3x3 s2 pads 1 -> Mul uint8 constant 7 -> q",
             "int32 c [2,3,4] * c -> Pad reflect (0,1,2 / 0,1,1) -> r;  int64 e [3] + e2 [2,1] -> s",
             "float d [2,3,4] MatMul f [1,4,2] -> mm;  v [4] MatMul f -> mv"]
    return model, inputs, outputs, run, notes


def c_values(values, np_type) -> str:
    if np_type == np.float32:
        return c_floats(values)
    parts = [f"{int(v)}" + ("LL" if np_type == np.int64 else "") for v in np.asarray(values).ravel()]
    return "\n".join("    " + ", ".join(parts[k:k + 12]) + "," for k in range(0, len(parts), 12))


def write_typed_expected(name, inputs, outputs, run, notes, cases=2):
    """Like write_expected, for inputs and outputs of any element type: inputK / expectedK of their C++ types."""
    rng = np.random.RandomState(300 + len(name))

    def draw(t, shape):
        np_type = INTEGER_TYPES[t][1]
        if np_type == np.float32:
            return rand(rng, *shape)
        if np_type == np.int64:
            return rng.randint(-(1 << 40), 1 << 40, size=shape, dtype=np.int64)
        info = np.iinfo(np_type)
        return rng.randint(int(info.min), int(info.max) + 1, size=shape, dtype=np.int64).astype(np_type)

    drawn = [[draw(t, s) for _, t, s in inputs] for _ in range(cases)]
    results = [run(*case) for case in drawn]
    text = [f"// Generated by scripts/gen_onnx_test_models.py: do not edit. {name}.onnx:", *[f"// {n}" for n in notes],
            "// Integer inputs uniform over their type (int64: below 2^40), float inputs in [-1, 1], NCHW; expected =",
            "// NumPy (integers exact, then wrapped; float64 matmuls rounded to float).",
            "#pragma once", "#include <cstddef>", "#include <cstdint>", "",
            f"namespace ctnn_test_data::onnx_{name} {{", "", f"inline constexpr std::size_t case_count = {cases};"]
    for k, (_, t, shape) in enumerate(inputs):
        c_type, np_type = INTEGER_TYPES[t]
        text += [f"inline constexpr std::size_t input{k}_elements = {int(np.prod(shape))};",
                 f"inline constexpr {c_type} input{k}[case_count * input{k}_elements] = {{",
                 "\n".join(c_values(case[k], np_type) for case in drawn), "};"]
    for k, (_, t, shape) in enumerate(outputs):
        c_type, np_type = INTEGER_TYPES[t]
        assert all(list(np.shape(r[k])) == shape for r in results), (name, k)
        text += [f"inline constexpr std::size_t output{k}_elements = {int(np.prod(shape))};",
                 f"inline constexpr {c_type} expected{k}[case_count * output{k}_elements] = {{",
                 "\n".join(c_values(r[k], np_type) for r in results), "};"]
    text += ["", f"}}  // namespace ctnn_test_data::onnx_{name}", ""]
    (OUT / f"{name}_expected.hpp").write_text("\n".join(text))


def bad_models():
    rng = np.random.RandomState(4)
    x = tensor_input("x", [1, 2, 4, 4])
    w = const("w", rand(rng, 2, 2, 2, 2))
    yield "bad_unsupported_op", make_model("bad", [
        helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Det", ["r"], ["y"])],
        [x], [tensor_input("y", [1, 2])], [], 13)
    det = helper.make_node("Det", ["r"], ["d"], name="determinant")
    fused = helper.make_node("Det", ["d"], ["f"])
    yield "bad_several_unsupported", make_model("bad", [
        helper.make_node("Relu", ["x"], ["r"]), det, fused, helper.make_node("Relu", ["f"], ["g"]),
        helper.make_node("NonZero", ["g"], ["y"])], [x], [tensor_input("y", [1, 2])], [], 13)
    yield "bad_attribute", make_model("bad", [
        helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Conv", ["r", "w"], ["y"], group=3)],
        [x], [tensor_input("y", [1, 2, 3, 3])], [w], 13)
    yield "bad_dynamic_shape", make_model("bad", [helper.make_node("Relu", ["x"], ["y"])],
                                          [tensor_input("x", ["N", "F"])], [tensor_input("y", ["N", "F"])], [], 13)
    yield "bad_output_shape", make_model("bad", [helper.make_node("Relu", ["x"], ["y"])],
                                         [tensor_input("x", ["N", 4])], [tensor_input("y", ["N", 5])], [], 13)
    yield "conv_nchw_output", make_model("conv_nchw_output", [helper.make_node("Conv", ["x", "w"], ["y"])],
                                         [x], [tensor_input("y", [1, 2, 3, 3])], [w], 13)
    yield "bad_weights", make_model("bad", [helper.make_node("Conv", ["x", "wx"], ["y"])],
                                    [x, tensor_input("wx", [2, 2, 2, 2])], [tensor_input("y", [1, 2, 3, 3])], [], 13)
    integers = [helper.make_tensor_value_info("u", TensorProto.UINT8, [2, 3]), helper.make_tensor_value_info("i", TensorProto.INT8, [2, 3])]
    yield "bad_integer_types", make_model("bad", [helper.make_node("Add", ["u", "i"], ["y"])], integers,
                                          [helper.make_tensor_value_info("y", TensorProto.UINT8, [2, 3])], [], 13)


def read_varint(data, at):
    value, shift = 0, 0
    while True:
        b = data[at]
        value |= (b & 0x7F) << shift
        at += 1
        shift += 7
        if not b & 0x80:
            return value, at


def malformed(data: bytes) -> tuple[bytes, int]:
    """Cuts the file 16 bytes into the graph's payload; returns the bytes and the offset of the graph's
    length varint (where the reader must report a length that runs past the end)."""
    at = 0
    while at < len(data):
        tag_at = at
        tag, at = read_varint(data, at)
        number, wire = tag >> 3, tag & 7
        if wire == 0:
            _, at = read_varint(data, at)
        elif wire == 2:
            length, payload = read_varint(data, at)
            if number == 7:
                return data[:payload + 16], tag_at + 1
            at = payload + length
        else:
            raise ValueError("unexpected wire type")
    raise ValueError("no graph")


def with_symbolic_batch(model, name):
    """The model with dim_param "batch" as the first axis of its inputs and outputs (dynamic_axes={0: "batch"})."""
    symbolic = onnx.ModelProto()
    symbolic.CopyFrom(model)
    symbolic.graph.name = name
    for value in list(symbolic.graph.input) + list(symbolic.graph.output):
        dim = value.type.tensor_type.shape.dim[0]
        dim.ClearField("dim_value")
        dim.dim_param = "batch"
    onnx.checker.check_model(symbolic)
    return symbolic


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for make in (conv_net_model, branch_net_model, mlp_model, transpose_net_model, sub_net_model):
        model, shapes, run, notes = make()
        name = model.graph.name
        write(name, model)
        write_expected(name, shapes, run, notes)
        if name == "conv_net":
            write("conv_net_dynamic_batch", with_symbolic_batch(model, "conv_net_dynamic_batch"))
    model, inputs, outputs, run, notes = plain_integer_net_model()
    write("plain_integer_net", model)
    write_typed_expected("plain_integer_net", inputs, outputs, run, notes)
    for name, model in bad_models():
        write(name, model)
    data, offset = malformed((OUT / "conv_net.onnx").read_bytes())
    (OUT / "bad_malformed.onnx").write_bytes(data)
    print(f"bad_malformed.onnx: the graph's length is at byte {offset}")


if __name__ == "__main__":
    main()
