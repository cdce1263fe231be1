#!/usr/bin/python3
"""The op-conformance cases of the broadcast binary family (tests/data/ops/binary; scripts/op_tests.py):
SUB in float32 and int8, ranks 1 to 5, broadcast both ways, fused activations, int8 scales over many
binades and zero points at the extremes. Reference outputs: TensorFlow Lite Micro's reference kernels.

    /usr/bin/python3 scripts/gen_op_tests_binary.py --tflm /work/oracle/tflm/tflm_run   # records outputs
    /usr/bin/python3 scripts/gen_op_tests_binary.py      # rewrites models and inputs, keeps the outputs
"""

from __future__ import annotations

import argparse

import numpy as np

import op_tests
from op_tests import tfl

# (case, op, shape a, shape b, fused activation)
SHAPES = [
    ("rank1", [7], [7], None),
    ("rank2_row", [3, 5], [1, 5], "RELU"),
    ("rank3_column", [4, 3, 2], [4, 1, 2], None),
    ("rank4_scalar", [1, 3, 5, 3], [1], "RELU6"),
    ("rank4_both_ways", [2, 1, 5, 3], [1, 4, 1, 3], "RELU"),
    ("rank5", [2, 3, 1, 4, 3], [1, 3, 2, 1, 3], None),
]

# int8 (scale, zero point) of a, b and the result
QUANT = [
    ((0.05, -3), (0.11, 7), (0.08, 2)),
    ((1e-4, -128), (3e-2, 127), (2e-2, 0)),
    ((0.9, 127), (0.002, -128), (1.5, -100)),
]


def sub_case(op: str, shape_a, shape_b, act, dtype, quant=None) -> tfl.Model:
    m = tfl.Model(new_opcodes=True)
    q = (lambda i: dict(scale=[quant[i][0]], zero_point=[quant[i][1]])) if quant else (lambda i: None)
    out_shape = list(np.broadcast_shapes(tuple(shape_a), tuple(shape_b)))
    a = m.tensor("a", shape_a, dtype, quant=q(0))
    b = m.tensor("b", shape_b, dtype, quant=q(1))
    y = m.tensor("y", out_shape, dtype, quant=q(2))
    m.inputs, m.outputs = [a, b], [y]
    m.op(op, [a, b], [y], act=act)
    return m


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tflm", metavar="TFLM_RUN", help="the TFLM host oracle: records the reference outputs")
    args = parser.parse_args()
    family = op_tests.Family("binary", args.tflm)
    rng = np.random.RandomState(5)
    for name, shape_a, shape_b, act in SHAPES:
        m = sub_case("SUB", shape_a, shape_b, act, tfl.FLOAT32)
        inputs = [rng.uniform(-3, 3, size=s).astype(np.float32) for s in (shape_a, shape_b)]
        family.write_case(f"sub_f32_{name}", m, inputs)
        for k, quant in enumerate(QUANT):
            m = sub_case("SUB", shape_a, shape_b, act, tfl.INT8, quant)
            inputs = [op_tests.int8_range(rng, shape_a, quant[0][1]), op_tests.int8_range(rng, shape_b, quant[1][1])]
            family.write_case(f"sub_i8_{name}_q{k}", m, inputs)
    family.finish()


if __name__ == "__main__":
    main()
