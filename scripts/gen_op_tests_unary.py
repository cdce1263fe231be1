#!/usr/bin/python3
"""Op-conformance cases of the `unary` family (element-wise math of one operand): tests/data/ops/unary/<case>/.

Each case folder holds model.tflite or model.onnx, input_0.bin and output_0.bin (raw little-endian, the
model's element type and layout; docs in tests/data/ops/unary/PROVENANCE.md).

  TFLite, float32: ABS, NEG, SQRT, RSQRT, EXP, LOG, SIN, COS, FLOOR, CEIL, ROUND, SQUARE (TFLM runs these on
                   float32 only, except ABS and RSQRT);
  TFLite, int8:    ABS (equal scales: no rescale; other scales: TFLM's multiplier) and RSQRT, extreme scales and
                   zero points, inputs over the whole int8 range (RSQRT: from the zero point up, as TFLM's
                   Invoke fails below it);
  TFLite, folded:  each float32 op of a constant, added to the input (the compiled route folds them at
                   compile time: ctnn::detail::math in constant evaluation);
  ONNX, float32:   Abs, Neg, Sqrt, Reciprocal, Exp, Log, Sin, Cos, Floor, Ceil, Round (opset 13), and each of
                   an initializer (folded at compile time).

Outputs: TFLite cases from the TFLM host oracle (--tflm; without it the committed outputs are kept where
CASES.sha256 says they still belong to the model and inputs: scripts/op_tests.py), ONNX cases from NumPy in
float64 (ONNX's semantics: Round halves to even), rounded to float32. Deterministic (fixed seeds): re-running
reproduces every file byte for byte.

    /usr/bin/python3 scripts/gen_op_tests_unary.py --tflm /work/oracle/tflm/tflm_run   # records outputs
    /usr/bin/python3 scripts/gen_op_tests_unary.py      # rewrites models and inputs, keeps the outputs
"""

from __future__ import annotations

import argparse

import numpy as np

import op_tests
from op_tests import tfl

# TFLite builtin codes of the family (gen_tflite_test_models.py lists only the ones its models use).
TFLITE_CODES = {"ABS": 101, "NEG": 59, "SQRT": 75, "RSQRT": 76, "EXP": 47, "LOG": 73, "SIN": 66, "COS": 108,
                "FLOOR": 8, "CEIL": 104, "ROUND": 116, "SQUARE": 92}
tfl.OPS.update(TFLITE_CODES)

SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 3.4e38, -3.4e38, 1.0, -1.0], np.float32)
HALVES = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.5, -3.5, 4.5, 1e7 + 0.5, 8388607.5, -8388607.5,
                   8388609.0, 0.49999997, -0.49999997], np.float32)


def rng_for(name: str) -> np.random.RandomState:
    return np.random.RandomState(sum(ord(c) * (k + 1) for k, c in enumerate(name)) % (2**31))


def tflite_unary(code: str, shape, dtype, quant_in=None, quant_out=None) -> tfl.Model:
    m = tfl.Model(new_opcodes=True)
    q = (lambda s, z: dict(scale=[s], zero_point=[z])) if dtype == tfl.INT8 else None
    a = m.tensor("x", shape, dtype, quant=q(*quant_in) if q else None)
    y = m.tensor("y", shape, dtype, quant=q(*quant_out) if q else None)
    m.inputs, m.outputs = [a], [y]
    m.op(code, [a], [y])
    return m


def float_input(name: str, shape, low, high, specials=None) -> np.ndarray:
    rng = rng_for(name)
    x = rng.uniform(low, high, size=shape).astype(np.float32)
    if specials is not None:
        flat = x.reshape(-1)
        flat[: min(len(specials), flat.size)] = specials[: flat.size]
    return x


# Float32 TFLite cases per op: (shape, low, high, specials) -- ranks 1..5, odd extents.
FLOAT_RANGES = {
    "ABS": [([7], -5, 5, SPECIAL), ([2, 3, 5], -100, 100, None), ([1, 3, 1, 2, 3], -1e30, 1e30, None)],
    "NEG": [([5], -5, 5, SPECIAL), ([1, 5, 3, 3], -1e3, 1e3, None)],
    "SQRT": [([3, 7], 0, 50, None), ([1, 2, 3, 5], 0, 1e6, np.array([0, 1e-40, 1, 4, 2], np.float32)),
             ([9], -4, 4, np.array([-1, -0.0, 0, np.inf, -np.inf, np.nan], np.float32))],
    "RSQRT": [([11], 1e-3, 30, None), ([2, 1, 3, 2, 3], 0.25, 4e4, None),
              ([6], -4, 4, np.array([-1, 0, -0.0, np.inf, np.nan, 1e-40], np.float32))],
    "EXP": [([13], -10, 10, None), ([2, 3, 4], -100, 90, np.array([0, -0.0, 88.7, 89, -104, -88, np.inf, -np.inf], np.float32))],
    "LOG": [([1, 3, 5], 1e-3, 1e3, None), ([2, 2, 3, 2], 1e-30, 1e30, None),
            ([7], -2, 2, np.array([0, -0.0, -1, np.inf, np.nan, 1e-45, 1], np.float32))],
    "SIN": [([17], -7, 7, np.array([0, -0.0, np.pi, -np.pi / 2], np.float32)), ([3, 1, 5], -1e4, 1e4, None)],
    "COS": [([17], -7, 7, np.array([0, np.pi, np.pi / 2], np.float32)), ([1, 2, 1, 3, 3], -1e4, 1e4, None)],
    "FLOOR": [([15], -10, 10, HALVES), ([2, 5, 3], -1e8, 1e8, SPECIAL)],
    "CEIL": [([15], -10, 10, HALVES), ([3, 3, 1, 3], -1e8, 1e8, SPECIAL)],
    "ROUND": [([15], -10, 10, HALVES), ([5, 7], -100, 100, None), ([1, 1, 2, 3, 4], -1e8, 1e8, SPECIAL)],
    "SQUARE": [([9], -10, 10, SPECIAL[:9]), ([3, 4, 3], -2e19, 2e19, None)],
}


def int8_full_range(name: str, shape, low=-128) -> np.ndarray:
    """Every int8 value from `low` up at least once (as many as fit), the rest uniform, shuffled."""
    rng = rng_for(name)
    n = int(np.prod(shape))
    values = np.arange(low, 128)
    x = np.concatenate([values, rng.randint(low, 128, size=max(0, n - len(values)))])[:n]
    if n < len(values):  # the extremes and the zero point first
        x = np.concatenate([[low, 127, low + 1, 126], rng.randint(low, 128, size=n - 4)])
    rng.shuffle(x)
    return x.astype(np.int8).reshape(shape)


# int8 cases: (op, shape, (input scale, zero point), (output scale, zero point))
INT8_CASES = [
    ("ABS", "same_scale", [256], (0.05, 3), (0.05, -7)),
    ("ABS", "rescale", [4, 8, 8], (0.1, -20), (0.07, -128)),
    ("ABS", "zp_extremes", [2, 3, 3, 3, 5], (0.5, 127), (0.9, -128)),
    ("ABS", "tiny_scale", [1, 16, 16], (1e-6, -128), (2e-6, -128)),
    ("ABS", "large_scale", [3, 5, 17], (100.0, 0), (201.0, -128)),
    ("ABS", "ratio_below_2e-32", [2, 7], (1e-6, 0), (1e4, 5)),  # multiplier 0: every result the zero point
    ("RSQRT", "basic", [256], (0.05, -128), (0.02, -128)),
    ("RSQRT", "odd_rank5", [1, 3, 5, 1, 17], (0.2, -3), (0.01, 10)),
    ("RSQRT", "tiny_scale", [16, 16], (1e-6, -128), (10.0, -100)),
    ("RSQRT", "large_scale", [5, 51], (100.0, -128), (0.001, -128)),
    ("RSQRT", "zp_high", [3, 3], (0.01, 127), (0.5, 0)),
    ("RSQRT", "saturating", [2, 128], (0.001, -128), (0.05, 0)),
]


def folded_constants() -> tfl.Model:
    """y = x + ABS(c0) + NEG(c1) + ... + SQUARE(c11): every op of a constant, which fold_constants computes
    at compile time (ctnn::detail::math in constant evaluation) in the compiled route."""
    rng = rng_for("folded_constants")
    m = tfl.Model(new_opcodes=True)
    shape = [2, 3]
    x = m.tensor("x", shape)
    m.inputs = [x]
    total = x
    for k, code in enumerate(TFLITE_CODES):
        low, high = (0.05, 9.0) if code in ("SQRT", "RSQRT", "LOG") else (-9.0, 9.0)
        c = m.tensor(f"c{k}", shape, data=rng.uniform(low, high, size=shape).astype(np.float32))
        f = m.tensor(f"{code.lower()}_of_c{k}", shape)
        m.op(code, [c], [f])
        y = m.tensor("y" if k == len(TFLITE_CODES) - 1 else f"sum{k}", shape)
        m.op("ADD", [total, f], [y])
        total = y
    m.outputs = [total]
    return m


def write_tflite_cases(family: op_tests.Family) -> None:
    family.write_case("folded_constants_f32", folded_constants(), [float_input("folded_constants_x", [2, 3], -1, 1)])
    for code, ranges in FLOAT_RANGES.items():
        for k, (shape, low, high, specials) in enumerate(ranges):
            name = f"{code.lower()}_f32_{k}"
            family.write_case(name, tflite_unary(code, shape, tfl.FLOAT32), [float_input(name, shape, low, high, specials)])
    for code, label, shape, qi, qo in INT8_CASES:
        name = f"{code.lower()}_i8_{label}"
        x = int8_full_range(name, shape, low=qi[1] if code == "RSQRT" else -128)
        family.write_case(name, tflite_unary(code, shape, tfl.INT8, qi, qo), [x])


# ONNX: op -> (float64 reference, [(shape, low, high, specials)])
ONNX_OPS = {
    "Abs": (np.abs, [([2, 3, 5], -5, 5, SPECIAL)]),
    "Neg": (np.negative, [([1, 3, 4, 4], -5, 5, SPECIAL)]),
    "Sqrt": (np.sqrt, [([3, 7], 0, 50, np.array([0, 1e-40, 1, 4, np.inf], np.float32))]),
    "Reciprocal": (np.reciprocal, [([2, 9], -10, 10, np.array([0.5, -2, 4, 1e-20, -1e30], np.float32))]),
    "Exp": (np.exp, [([13], -10, 10, np.array([0, 88, -87, 1], np.float32))]),
    "Log": (np.log, [([1, 3, 5], 1e-3, 1e3, np.array([1, 1e-40, 3e38], np.float32))]),
    "Sin": (np.sin, [([2, 3, 1, 3, 2], -7, 7, np.array([0, np.pi / 2, -np.pi], np.float32))]),
    "Cos": (np.cos, [([17], -7, 7, np.array([0, np.pi / 2, np.pi], np.float32))]),
    "Floor": (np.floor, [([3, 5], -10, 10, HALVES)]),
    "Ceil": (np.ceil, [([3, 5], -10, 10, HALVES)]),
    "Round": (np.round, [([3, 5], -10, 10, HALVES), ([2, 2, 3, 1], -100, 100, None)]),
}


def onnx_model(op: str, shape) -> bytes:
    from onnx import TensorProto, helper
    node = helper.make_node(op, ["x"], ["y"])
    graph = helper.make_graph([node], f"{op.lower()}_test", [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="ctnn-test")
    model.ir_version = 7
    return model.SerializeToString()


def onnx_folded_constants():
    """y = x + Abs(c0) + Neg(c1) + ... + Round(c10): every ONNX op of an initializer, which the importer keeps
    as a constant tensor and fold_constants computes at compile time. The reference: each op in float64
    rounded to float32, the sums in float32 (as the model's Adds)."""
    from onnx import TensorProto, helper, numpy_helper
    rng = rng_for("onnx_folded_constants")
    shape = [2, 3]
    x = float_input("onnx_folded_constants_x", shape, -1, 1)
    nodes, initializers, total, y = [], [], "x", x.copy()
    for k, (op, (reference, _)) in enumerate(ONNX_OPS.items()):
        c = rng.uniform(0.5, 3.0, size=shape).astype(np.float32)
        initializers.append(numpy_helper.from_array(c, f"c{k}"))
        nodes.append(helper.make_node(op, [f"c{k}"], [f"f{k}"]))
        out = "y" if k == len(ONNX_OPS) - 1 else f"sum{k}"
        nodes.append(helper.make_node("Add", [total, f"f{k}"], [out]))
        total = out
        y = (y + reference(c.astype(np.float64)).astype(np.float32)).astype(np.float32)
    graph = helper.make_graph(nodes, "folded_constants", [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)], initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="ctnn-test")
    model.ir_version = 7
    return model.SerializeToString(), x, y


def write_onnx_cases(family: op_tests.Family) -> None:
    model, x, y = onnx_folded_constants()
    family.write_computed_case("onnx_folded_constants_f32", "model.onnx", model, [x], [y])
    for op, (reference, ranges) in ONNX_OPS.items():
        for k, (shape, low, high, specials) in enumerate(ranges):
            name = f"onnx_{op.lower()}_f32_{k}"
            x = float_input(name, shape, low, high, specials)
            with np.errstate(all="ignore"):
                y = reference(x.astype(np.float64)).astype(np.float32)
            family.write_computed_case(name, "model.onnx", onnx_model(op, shape), [x], [y])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tflm", metavar="TFLM_RUN", help="the TFLM host oracle: records the TFLite cases' outputs")
    args = parser.parse_args()
    family = op_tests.Family("unary", args.tflm)
    write_tflite_cases(family)
    write_onnx_cases(family)
    family.finish()


if __name__ == "__main__":
    main()
