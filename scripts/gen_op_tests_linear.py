#!/usr/bin/python3
"""The op-conformance cases of the linear family (tests/data/ops/linear; scripts/op_tests.py): CONV_2D,
DEPTHWISE_CONV_2D and FULLY_CONNECTED in int8 as converters write them, among them files TFLM runs that a
stricter reader would refuse: biases whose per-channel quantization carries the filter's
quantized_dimension (3 on a rank-1 tensor: TFLM derives a bias's scale from the input and filter scales
and never reads the bias's own), and biases without quantization parameters. Reference outputs: TensorFlow
Lite Micro's reference kernels.

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
    family.finish()


if __name__ == "__main__":
    main()
