#!/usr/bin/python3
"""The op-conformance cases of the linear family (tests/data/ops/linear; scripts/op_tests.py): CONV_2D,
DEPTHWISE_CONV_2D and FULLY_CONNECTED in int8 as converters write them, among them files TFLM runs that a
stricter reader would refuse: biases whose per-channel quantization carries the filter's
quantized_dimension (3 on a rank-1 tensor: TFLM derives a bias's scale from the input and filter scales
and never reads the bias's own), and biases without quantization parameters. Reference outputs: TensorFlow
Lite Micro's reference kernels. ONNX Einsum (float32) of matmul-shaped equations (one operand: transposes, sums;
two: batch, transposed, ellipsis-broadcast, inner, outer, attention-style, a constant operand, implicit output):
reference numpy.einsum in float64 (equal to onnxruntime 1.30.0's, but for the ellipsis broadcast from fewer dims,
which onnxruntime refuses: scripts/check_onnx_cases_with_ort.py).

    /usr/bin/python3 scripts/gen_op_tests_linear.py --tflm /work/oracle/tflm/tflm_run   # records outputs
    /usr/bin/python3 scripts/gen_op_tests_linear.py      # rewrites models and inputs, keeps the outputs
"""

from __future__ import annotations

import argparse

import numpy as np

import op_tests
from op_tests import tfl


def q(scale, zero_point):
    return dict(scale=[scale], zero_point=[zero_point])


def depthwise(rng, bias_axis: int | None, bias_quantized: bool = True, channels: int = 5, multiplier: int = 1):
    """int8 DEPTHWISE_CONV_2D 3x3 SAME, per-channel filter scales (axis 3); its bias's per-channel
    quantization has quantized_dimension `bias_axis` (None: not written, i.e. 0)."""
    m = tfl.Model(new_opcodes=True)
    out_channels = channels * multiplier
    x = m.tensor("x", [1, 6, 7, channels], tfl.INT8, quant=q(0.03, -5))
    w = rng.randint(-127, 128, size=(1, 3, 3, out_channels))
    ws = (rng.uniform(0.5, 1.5, size=out_channels) * 0.01).astype(np.float32)
    tw = m.tensor("dw/weights", [1, 3, 3, out_channels], tfl.INT8, data=w,
                  quant=dict(scale=ws, zero_point=[0] * out_channels, axis=3))
    bias_quant = None
    if bias_quantized:
        bias_quant = dict(scale=ws * np.float32(0.03), zero_point=[0] * out_channels)
        if bias_axis is not None:
            bias_quant["axis"] = bias_axis
    tb = m.tensor("dw/bias", [out_channels], tfl.INT32, data=rng.randint(-2000, 2000, size=out_channels), quant=bias_quant)
    y = m.tensor("y", [1, 6, 7, out_channels], tfl.INT8, quant=q(0.05, 3))
    m.inputs, m.outputs = [x], [y]
    m.op("DEPTHWISE_CONV_2D", [x, tw, tb], [y], padding=tfl.SAME, stride=(1, 1), multiplier=multiplier, act="RELU6")
    return m


def conv(rng, bias_axis: int | None):
    """int8 CONV_2D 3x3 stride 2 VALID with per-channel filter scales (axis 0); bias quantized_dimension
    `bias_axis`."""
    m = tfl.Model(new_opcodes=True)
    x = m.tensor("x", [1, 9, 8, 3], tfl.INT8, quant=q(0.02, 10))
    w = rng.randint(-127, 128, size=(4, 3, 3, 3))
    ws = (rng.uniform(0.5, 1.5, size=4) * 0.02).astype(np.float32)
    tw = m.tensor("conv/weights", [4, 3, 3, 3], tfl.INT8, data=w, quant=dict(scale=ws, zero_point=[0] * 4))
    bias_quant = dict(scale=ws * np.float32(0.02), zero_point=[0] * 4)
    if bias_axis is not None:
        bias_quant["axis"] = bias_axis
    tb = m.tensor("conv/bias", [4], tfl.INT32, data=rng.randint(-3000, 3000, size=4), quant=bias_quant)
    y = m.tensor("y", [1, 4, 3, 4], tfl.INT8, quant=q(0.1, -20))
    m.inputs, m.outputs = [x], [y]
    m.op("CONV_2D", [x, tw, tb], [y], padding=tfl.VALID, stride=(2, 2), act="RELU")
    return m


# ONNX Einsum (float32) as exporters write it, matmul-shaped: (case, equation, operand shapes, constant operands).
EINSUM_CASES = [
    ("onnx_einsum_matmul", "ij,jk->ik", [[3, 4], [4, 5]], ()),
    ("onnx_einsum_batch_matmul", "bij, bjk -> bik", [[2, 3, 4], [2, 4, 5]], ()),
    ("onnx_einsum_ellipsis", "...ij,...jk->...ik", [[2, 3, 4, 5], [2, 3, 5, 2]], ()),
    # numpy broadcasts an ellipsis of fewer dims (onnxruntime's shape inference refuses it)
    ("onnx_einsum_ellipsis_broadcast", "...ij,...jk->...ik", [[2, 3, 4, 5], [3, 5, 2]], ()),
    ("onnx_einsum_transposed_b_constant", "ij,kj->ik", [[3, 4], [5, 4]], (1,)),
    ("onnx_einsum_inner_product", "i,i->", [[7], [7]], ()),
    ("onnx_einsum_outer_product_implicit", "i,j", [[3], [4]], ()),
    ("onnx_einsum_attention_scores", "bhqd,bhkd->bhqk", [[1, 2, 3, 4], [1, 2, 5, 4]], ()),
    ("onnx_einsum_shared_weights_out_transposed", "bij,jk->kbi", [[2, 3, 4], [4, 5]], ()),
    ("onnx_einsum_summed_label", "ij,jk->k", [[3, 4], [4, 2]], ()),
    ("onnx_einsum_transpose", "ij->ji", [[3, 4]], ()),
    ("onnx_einsum_row_sums", "ij->i", [[3, 4]], ()),
]


def einsum_case(equation, shapes, constants, seed):
    """The operands uniform in [-2, 2]; the reference numpy.einsum in float64, rounded to float32."""
    def build():
        from onnx import TensorProto, helper, numpy_helper
        rng = np.random.RandomState(seed)
        xs = [rng.uniform(-2, 2, size=shape).astype(np.float32) for shape in shapes]
        y = np.einsum(equation.replace(" ", ""), *[x.astype(np.float64) for x in xs]).astype(np.float32)
        names = [f"x{k}" for k in range(len(xs))]
        inputs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, list(x.shape))
                  for k, (n, x) in enumerate(zip(names, xs)) if k not in constants]
        initializers = [numpy_helper.from_array(x, n) for k, (n, x) in enumerate(zip(names, xs)) if k in constants]
        graph = helper.make_graph([helper.make_node("Einsum", names, ["y"], equation=equation)], "einsum", inputs,
                                  [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(y.shape))], initializers)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 12)], producer_name="ctnn-test")
        model.ir_version = 8
        return model, [x for k, x in enumerate(xs) if k not in constants], [np.ascontiguousarray(y)]
    return build


def refused_einsum():
    """Einsum equations ctnn refuses (tests/frontend/frontend_onnx_math_refusals.cpp): a diagonal, three operands."""
    from onnx import TensorProto, helper

    def one(equation, shapes):
        names = [f"x{k}" for k in range(len(shapes))]
        inputs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in zip(names, shapes)]
        graph = helper.make_graph([helper.make_node("Einsum", names, ["y"], equation=equation)], "einsum", inputs,
                                  [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
        return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 12)], producer_name="ctnn-test")
    return {"einsum_diagonal": one("ii->i", [[3, 3]]), "einsum_three_operands": one("ij,jk,kl->il", [[2, 3], [3, 4], [4, 5]])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tflm", metavar="TFLM_RUN", help="the TFLM host oracle: records the reference outputs")
    args = parser.parse_args()
    family = op_tests.Family("linear", args.tflm)
    rng = np.random.RandomState(25)
    cases = [
        ("depthwise_i8_bias_axis3", depthwise(rng, 3)),
        ("depthwise_i8_bias_axis0", depthwise(rng, None)),
        ("depthwise_i8_bias_unquantized", depthwise(rng, None, bias_quantized=False)),
        ("depthwise_i8_multiplier2_bias_axis3", depthwise(rng, 3, channels=3, multiplier=2)),
        ("conv_i8_bias_axis3", conv(rng, 3)),
    ]
    for name, m in cases:
        x = m.tensors[m.inputs[0]]
        family.write_case(name, m, [op_tests.int8_range(rng, x["shape"], x["quant"]["zero_point"][0])])
    op_tests.write_onnx_cases(family, {name: einsum_case(equation, shapes, constants, 40 + k)
                                       for k, (name, equation, shapes, constants) in enumerate(EINSUM_CASES)})
    family.finish()
    op_tests.write_refused("linear", {}, refused_einsum())


if __name__ == "__main__":
    main()
