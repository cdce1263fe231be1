#!/usr/bin/python3
"""The op-conformance cases of the logic family (tests/data/ops/logic; scripts/op_tests.py): bool tensors, the
comparisons (TFLite EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL on float32, int8 and int32;
EQUAL/NOT_EQUAL on bool), LOGICAL_AND/OR/NOT, SELECT_V2, CAST, DIV (float32, int8, int32), FLOOR_DIV, FLOOR_MOD
(float32), SQUARED_DIFFERENCE (float32, int8, int32), and the ONNX
Equal, Less, LessOrEqual, Greater, GreaterOrEqual, And, Or, Xor, Not, IsNaN, Where, Cast, Div. TFLite outputs:
TensorFlow Lite Micro's reference kernels (the host oracle); ONNX outputs: NumPy, the ONNX definitions.

    /usr/bin/python3 scripts/gen_op_tests_logic.py --tflm /work/oracle/tflm/tflm_run   # records outputs
    /usr/bin/python3 scripts/gen_op_tests_logic.py      # rewrites models and inputs, keeps the TFLM outputs
"""

from __future__ import annotations

import argparse

import numpy as np

import op_tests
from op_tests import tfl

# The builtin codes and option tables of this family's TFLite ops (schema.fbs), added to the writer's.
BOOL = 6
tfl.NP_TYPES[BOOL] = "?"
tfl.OPS.update({"EQUAL": 71, "NOT_EQUAL": 72, "LESS": 58, "LESS_EQUAL": 63, "GREATER": 61, "GREATER_EQUAL": 62,
                "LOGICAL_AND": 86, "LOGICAL_OR": 84, "LOGICAL_NOT": 87, "SELECT_V2": 123, "CAST": 53, "DIV": 42,
                "FLOOR_DIV": 90, "FLOOR_MOD": 95, "SQUARED_DIFFERENCE": 99})
tfl.OPTIONS.update({"DIV": 29})
_base_options_table = tfl.options_table


def _options_table(code, o, va):
    if code == "DIV":
        return tfl.Table({0: ("i8", tfl.ACT[o.get("act")])} if o.get("act") else {}, va)
    return _base_options_table(code, o, va)


tfl.options_table = _options_table

F32, I8, I32 = tfl.FLOAT32, tfl.INT8, tfl.INT32


def quant(scale, zero_point):
    return dict(scale=[scale], zero_point=[zero_point])


def model(op, operands, out, out_type, out_quant=None, **options) -> tfl.Model:
    """One op over graph inputs `operands` [(shape, type, quant)], its output of `out` shape and type."""
    m = tfl.Model(new_opcodes=True)
    ins = [m.tensor(f"x{k}", shape, t, quant=q) for k, (shape, t, q) in enumerate(operands)]
    y = m.tensor("y", out, out_type, quant=out_quant)
    m.inputs, m.outputs = ins, [y]
    m.op(op, ins, [y], **options)
    return m


def broadcast(*shapes):
    return list(np.broadcast_shapes(*map(tuple, shapes)))


def small_floats(rng, shape):
    """Floats on a coarse grid (so that operands are often equal), with 0 and -0 among them."""
    x = (rng.randint(-6, 7, size=int(np.prod(shape))) * 0.5).astype(np.float32)
    x[: min(2, x.size)] = np.array([0.0, -0.0], np.float32)[: min(2, x.size)]
    return x.reshape(shape)


def bools(rng, shape):
    return (rng.randint(0, 2, size=shape) != 0)


def tflite_cases(family, rng):
    comparisons = ["EQUAL", "NOT_EQUAL", "LESS", "LESS_EQUAL", "GREATER", "GREATER_EQUAL"]
    # float32: one broadcast pattern per op, ranks 1 to 5.
    shapes = [([7], [7]), ([3, 5], [1, 5]), ([4, 3, 2], [4, 1, 2]), ([1, 3, 5, 3], [1]), ([2, 1, 5, 3], [1, 4, 1, 3]),
              ([2, 3, 1, 4, 3], [1, 3, 2, 1, 3])]
    for op, (sa, sb) in zip(comparisons, shapes):
        family.write_case(f"{op.lower()}_f32_rank{len(sa)}", model(op, [(sa, F32, None), (sb, F32, None)],
                                                                   broadcast(sa, sb), BOOL),
                          [small_floats(rng, sa), small_floats(rng, sb)])
    # int8, TFLM's rescaled comparison: equal quantizations (exact ties), and scales over many binades with
    # zero points at the extremes (ties after rescaling only where the scales agree).
    quants = [((0.05, -3), (0.05, -3)), ((1e-6, -128), (3e-6, 127)), ((0.9, 127), (0.002, -128)),
              ((0.0625, 0), (0.125, 64)), ((0.3, -100), (0.6, 14)), ((0.02, 5), (0.01, -7))]
    int8_shapes = [([2, 3, 4], [2, 3, 4]), ([5, 7], [7]), ([3, 1, 4], [1, 5, 1]), ([33], [33]),
                   ([1, 2, 3, 4], [1, 1, 3, 1]), ([2, 2, 2, 2, 3], [2, 1, 2, 1, 3])]
    for op, (qa, qb), (sa, sb) in zip(comparisons, quants, int8_shapes):
        a = op_tests.int8_range(rng, sa, qa[1])
        # b: near a's real values where the shapes agree, so that ties and near-ties occur.
        b = op_tests.int8_range(rng, sb, qb[1])
        if sa == sb:
            real = (a.astype(np.float64) - qa[1]) * qa[0]
            b = np.clip(np.round(real / qb[0]) + qb[1] + rng.randint(-1, 2, size=sa), -128, 127).astype(np.int8)
        family.write_case(f"{op.lower()}_i8_{'x'.join(map(str, sa))}",
                          model(op, [(sa, I8, quant(*qa)), (sb, I8, quant(*qb))], broadcast(sa, sb), BOOL), [a, b])
    # int32 and bool operands.
    for op in ("LESS", "GREATER_EQUAL"):
        a = rng.randint(-5, 6, size=[4, 6]).astype(np.int32)
        a[0, :2] = [np.iinfo(np.int32).min, np.iinfo(np.int32).max]
        b = rng.randint(-5, 6, size=[6]).astype(np.int32)
        family.write_case(f"{op.lower()}_i32", model(op, [([4, 6], I32, None), ([6], I32, None)], [4, 6], BOOL), [a, b])
    for op in ("EQUAL", "NOT_EQUAL"):
        family.write_case(f"{op.lower()}_bool", model(op, [([3, 4], BOOL, None), ([3, 1], BOOL, None)], [3, 4], BOOL),
                          [bools(rng, [3, 4]), bools(rng, [3, 1])])

    # Constant operands (a threshold, a mask): read from the file's buffers, bool ones included.
    m = tfl.Model(new_opcodes=True)
    x = m.tensor("x", [2, 5], I8, quant=quant(0.1, -20))
    t = m.tensor("threshold", [5], I8, data=np.array([-128, -20, 0, 50, 127], np.int8), quant=quant(0.05, 10))
    c = m.tensor("above", [2, 5], BOOL)
    mask = m.tensor("mask", [5], BOOL, data=np.array([1, 0, 1, 1, 0], np.bool_))
    y = m.tensor("y", [2, 5], BOOL)
    m.inputs, m.outputs = [x], [y]
    m.op("GREATER", [x, t], [c])
    m.op("LOGICAL_AND", [c, mask], [y])
    family.write_case("greater_i8_constant_and_mask", m, [op_tests.int8_range(rng, [2, 5], -20)])

    # The logical ops.
    family.write_case("logical_and_broadcast", model("LOGICAL_AND", [([2, 3, 4], BOOL, None), ([3, 1], BOOL, None)],
                                                     [2, 3, 4], BOOL), [bools(rng, [2, 3, 4]), bools(rng, [3, 1])])
    family.write_case("logical_or_rank5", model("LOGICAL_OR", [([1, 2, 3, 2, 2], BOOL, None), ([2, 1, 3, 1, 2], BOOL, None)],
                                                [2, 2, 3, 2, 2], BOOL),
                      [bools(rng, [1, 2, 3, 2, 2]), bools(rng, [2, 1, 3, 1, 2])])
    family.write_case("logical_not", model("LOGICAL_NOT", [([5, 3], BOOL, None)], [5, 3], BOOL), [bools(rng, [5, 3])])

    # SELECT_V2: the three broadcast; int8 and int16 move the values as they are (x, y and the result share a
    # quantization in converted models; TFLM rescales nothing).
    sel = [("f32", F32, None, [2, 1, 4], [3, 1], [1, 3, 4]), ("f32_same_shape", F32, None, [13], [13], [13]),
           ("i8", I8, quant(0.1, -5), [4, 1], [1, 5], [4, 5]),
           ("i16", tfl.INT16, quant(0.001, 0), [2, 3, 1, 1], [3, 2], [1, 1, 1, 2])]
    for name, t, q, sc, sx, sy in sel:
        out = broadcast(sc, sx, sy)
        info = np.iinfo(tfl.NP_TYPES[t]) if t != F32 else None
        gen = (lambda s: rng.uniform(-5, 5, size=s).astype(np.float32)) if t == F32 else \
            (lambda s: rng.randint(info.min, info.max + 1, size=s).astype(tfl.NP_TYPES[t]))
        family.write_case(f"select_v2_{name}", model("SELECT_V2", [(sc, BOOL, None), (sx, t, q), (sy, t, q)], out, t, q),
                          [bools(rng, sc), gen(sx), gen(sy)])
    # A comparison feeding a select: a bool tensor between two ops (planned, not a model input or output).
    m = tfl.Model(new_opcodes=True)
    a, b = m.tensor("a", [3, 4], F32), m.tensor("b", [4], F32)
    c = m.tensor("a_less_b", [3, 4], BOOL)
    y = m.tensor("y", [3, 4], F32)
    m.inputs, m.outputs = [a, b], [y]
    m.op("LESS", [a, b], [c])
    m.op("SELECT_V2", [c, a, b], [y])
    family.write_case("less_then_select_v2", m, [small_floats(rng, [3, 4]), small_floats(rng, [4])])
    # Bools moved by a reshape between two ops (the byte moves take bool).
    m = tfl.Model(new_opcodes=True)
    a, b = m.tensor("a", [2, 6], F32), m.tensor("b", [6], F32)
    c = m.tensor("a_equal_b", [2, 6], BOOL)
    r = m.tensor("reshaped", [3, 4], BOOL)
    y = m.tensor("y", [3, 4], BOOL)
    m.inputs, m.outputs = [a, b], [y]
    m.op("EQUAL", [a, b], [c])
    m.op("RESHAPE", [c], [r], new_shape=[3, 4])
    m.op("LOGICAL_NOT", [r], [y])
    family.write_case("equal_reshape_logical_not", m, [small_floats(rng, [2, 6]), small_floats(rng, [6])])

    # CAST: as static_cast (float to integer truncates toward zero; values within the target's range).
    casts = [("f32_to_i32", F32, I32, lambda s: rng.uniform(-1000, 1000, size=s).astype(np.float32)),
             ("f32_to_i8", F32, I8, lambda s: rng.uniform(-128.9, 127.9, size=s).astype(np.float32)),
             ("i32_to_f32", I32, F32, lambda s: rng.randint(-2**31, 2**31 - 1, size=s).astype(np.int32)),
             ("i8_to_i32", I8, I32, lambda s: op_tests.int8_range(rng, s, 0)),
             ("i16_to_f32", tfl.INT16, F32, lambda s: rng.randint(-32768, 32768, size=s).astype(np.int16)),
             ("bool_to_f32", BOOL, F32, lambda s: bools(rng, s))]
    for name, src, dst, gen in casts:
        q_in = quant(0.5, 0) if src in (I8, tfl.INT16) else None
        q_out = quant(0.5, 0) if dst == I8 else None
        shape = [2, 3, 5]
        family.write_case(f"cast_{name}", model("CAST", [(shape, src, q_in)], shape, dst, q_out), [gen(shape)])

    # DIV: float32 (broadcast, a fused activation), int8 (TFLM's DivElementwise; divisors never at the zero
    # point), int32 (truncating; a fused RELU).
    family.write_case("div_f32_broadcast_relu6", model("DIV", [([2, 3, 4], F32, None), ([3, 1], F32, None)], [2, 3, 4], F32,
                                                       act="RELU6"),
                      [rng.uniform(-8, 8, size=[2, 3, 4]).astype(np.float32),
                       np.array([[0.5], [-2.0], [3.0]], np.float32)])
    family.write_case("div_f32_rank1", model("DIV", [([9], F32, None), ([9], F32, None)], [9], F32),
                      [rng.uniform(-100, 100, size=[9]).astype(np.float32), rng.uniform(0.01, 10, size=[9]).astype(np.float32)])
    # TFLM's kernel shifts the quotient right by -(output shift - reciprocal shift - dividend headroom), and
    # asserts that this is at most 31: the quantizations keep it so (q1: by keeping the dividend off its zero
    # point, whose headroom is 31).
    div_quants = [("q0", [3, 5], [5], (0.05, -3), (0.002, 10), (0.2, 2), None),
                  ("q1_relu", [2, 2, 3], [2, 1, 3], (0.5, -128), (0.01, -128), (1.5, -128), "RELU"),
                  ("q2", [17], [17], (1e-3, 0), (2e-3, -1), (5e-4, 5), None)]
    for name, sa, sb, qa, qb, qo, act in div_quants:
        a = op_tests.int8_range(rng, sa, qa[1])
        if name.startswith("q1"):
            a[a == qa[1]] = np.int8(qa[1] + 1)
        b = op_tests.int8_range(rng, sb, qb[1])
        b[b == qb[1]] = np.int8(qb[1] - 1 if qb[1] > -128 else qb[1] + 1)  # no zero divisor (TFLM: undefined)
        family.write_case(f"div_i8_{name}", model("DIV", [(sa, I8, quant(*qa)), (sb, I8, quant(*qb))], broadcast(sa, sb), I8,
                                                  quant(*qo), act=act), [a, b])
    a = rng.randint(-1000, 1000, size=[4, 5]).astype(np.int32)
    b = rng.randint(1, 9, size=[5]).astype(np.int32) * np.array([1, -1, 1, -1, 1], np.int32)
    family.write_case("div_i32_relu", model("DIV", [([4, 5], I32, None), ([5], I32, None)], [4, 5], I32, act="RELU"), [a, b])

    # FLOOR_DIV, FLOOR_MOD (float32, as TFLM: floor of the double quotient; fmod moved to the divisor's sign),
    # dividends and divisors of both signs, exact multiples among them; no zero divisor (TFLM fails there).
    for op, sa, sb in (("FLOOR_DIV", [2, 3, 4], [4]), ("FLOOR_MOD", [3, 1, 5], [1, 4, 5])):
        a = small_floats(rng, sa) * np.float32(3)
        b = rng.choice(np.array([-2.5, -1.0, -0.75, 0.5, 1.0, 3.0], np.float32), size=sb)
        family.write_case(f"{op.lower()}_f32", model(op, [(sa, F32, None), (sb, F32, None)], broadcast(sa, sb), F32), [a, b])
    # SQUARED_DIFFERENCE: float32, int8 (TFLM's left shift 7 and rescaling), int32.
    family.write_case("squared_difference_f32", model("SQUARED_DIFFERENCE", [([1, 3, 2, 4], F32, None), ([3, 1, 4], F32, None)],
                                                      [1, 3, 2, 4], F32),
                      [rng.uniform(-10, 10, size=[1, 3, 2, 4]).astype(np.float32),
                       rng.uniform(-10, 10, size=[3, 1, 4]).astype(np.float32)])
    for name, sa, sb, qa, qb, qo in (("q0", [4, 6], [6], (0.05, -3), (0.11, 7), (0.5, -128)),
                                     ("q1", [2, 3, 1, 3], [2, 1, 5, 3], (1e-3, 127), (2e-3, -128), (1e-2, -100)),
                                     ("q2", [19], [19], (0.9, -128), (0.4, 127), (30.0, -128))):
        family.write_case(f"squared_difference_i8_{name}",
                          model("SQUARED_DIFFERENCE", [(sa, I8, quant(*qa)), (sb, I8, quant(*qb))], broadcast(sa, sb), I8,
                                quant(*qo)),
                          [op_tests.int8_range(rng, sa, qa[1]), op_tests.int8_range(rng, sb, qb[1])])
    a, b = rng.randint(-30000, 30000, size=[3, 4]).astype(np.int32), rng.randint(-30000, 30000, size=[4]).astype(np.int32)
    family.write_case("squared_difference_i32", model("SQUARED_DIFFERENCE", [([3, 4], I32, None), ([4], I32, None)], [3, 4], I32),
                      [a, b])


# ----------------------------------------------------------------------------------------------------
# ONNX: outputs from NumPy (the ONNX definitions; integer Div truncates toward zero, as onnx's
# test_div_int32_trunc says).

def onnx_cases(rng):
    from onnx import TensorProto, helper, numpy_helper

    types = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.int8): TensorProto.INT8,
             np.dtype(np.uint8): TensorProto.UINT8, np.dtype(np.int32): TensorProto.INT32,
             np.dtype(np.int64): TensorProto.INT64, np.dtype(np.bool_): TensorProto.BOOL}
    cases = []

    def add(name, op, inputs, output, attrs=None, constants=()):
        ins = [helper.make_tensor_value_info(f"x{k}", types[x.dtype], list(x.shape)) for k, x in enumerate(inputs)]
        inits = [numpy_helper.from_array(v, n) for n, v in constants]
        node = helper.make_node(op, [f"x{k}" for k in range(len(inputs))] + [n for n, _ in constants], ["y"],
                                **(attrs or {}))
        graph = helper.make_graph([node], f"{op.lower()}_test", ins,
                                  [helper.make_tensor_value_info("y", types[output.dtype], list(output.shape))], inits)
        m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)], producer_name="ctnn-test")
        m.ir_version = 7
        cases.append((name, m.SerializeToString(), inputs, [output]))

    def ints(dtype, shape, low=-5, high=6):
        return rng.randint(low, high, size=shape).astype(dtype)

    a, b = rng.randint(-3, 4, size=[3, 1, 5]).astype(np.int64), rng.randint(-3, 4, size=[4, 1]).astype(np.int64)
    add("onnx_equal_i64_broadcast", "Equal", [a, b], np.equal(a, b))
    a, b = small_floats(rng, [2, 3, 4]), small_floats(rng, [4])
    add("onnx_less_f32", "Less", [a, b], np.less(a, b))
    a, b = ints(np.int32, [5, 4]), ints(np.int32, [5, 1])
    add("onnx_less_or_equal_i32", "LessOrEqual", [a, b], np.less_equal(a, b))
    a = small_floats(rng, [1, 3, 2, 4])
    add("onnx_greater_f32_constant", "Greater", [a], np.greater(a, np.float32(0.5)),
        constants=[("threshold", np.array(0.5, np.float32))])
    a, b = ints(np.uint8, [6], 0, 256), ints(np.uint8, [6], 0, 256)
    add("onnx_greater_or_equal_u8", "GreaterOrEqual", [a, b], np.greater_equal(a, b))
    a, b = ints(np.int8, [3, 4], -128, 128), ints(np.int8, [4], -128, 128)
    add("onnx_less_i8", "Less", [a, b], np.less(a, b))
    a, b = bools(rng, [2, 3]), bools(rng, [2, 3])
    add("onnx_equal_bool", "Equal", [a, b], np.equal(a, b))
    a, b = bools(rng, [2, 3, 4]), bools(rng, [3, 4])
    add("onnx_and_broadcast", "And", [a, b], np.logical_and(a, b))
    add("onnx_or_broadcast", "Or", [a, b], np.logical_or(a, b))
    add("onnx_xor_broadcast", "Xor", [a, b], np.logical_xor(a, b))
    a = bools(rng, [3, 5])
    add("onnx_not", "Not", [a], np.logical_not(a))
    c, x, y = bools(rng, [2, 1, 4]), rng.uniform(-3, 3, size=[3, 1]).astype(np.float32), \
        rng.uniform(-3, 3, size=[1, 3, 4]).astype(np.float32)
    add("onnx_where_f32_broadcast", "Where", [c, x, y], np.where(c, x, y))
    c, x, y = bools(rng, [5]), ints(np.int64, [5], -10**12, 10**12), ints(np.int64, [5], -10**12, 10**12)
    add("onnx_where_i64", "Where", [c, x, y], np.where(c, x, y))
    x = rng.uniform(-1000, 1000, size=[3, 4]).astype(np.float32)
    add("onnx_cast_f32_to_i64", "Cast", [x], x.astype(np.int64), {"to": TensorProto.INT64})
    x = ints(np.int32, [7], -2**31, 2**31 - 1)
    add("onnx_cast_i32_to_f32", "Cast", [x], x.astype(np.float32), {"to": TensorProto.FLOAT})
    x = small_floats(rng, [2, 5])
    x[0, 2] = np.nan
    add("onnx_cast_f32_to_bool", "Cast", [x], x.astype(np.bool_), {"to": TensorProto.BOOL})
    x = bools(rng, [6])
    add("onnx_cast_bool_to_i32", "Cast", [x], x.astype(np.int32), {"to": TensorProto.INT32})
    x = ints(np.uint8, [8], 0, 256)
    add("onnx_cast_u8_to_i8", "Cast", [x], x.astype(np.int8), {"to": TensorProto.INT8})
    a, b = rng.uniform(-5, 5, size=[2, 3, 4]).astype(np.float32), rng.uniform(-2, 2, size=[4]).astype(np.float32)
    b[0] = 0.0  # x / 0: +-inf (and 0 / 0 NaN would be too: kept out, a NaN compares unequal)
    add("onnx_div_f32_broadcast", "Div", [a, b], (a.astype(np.float64) / b).astype(np.float32))
    a, b = ints(np.int32, [3, 4], -100, 100), ints(np.int32, [4], 1, 9) * np.array([1, -1, -1, 1], np.int32)
    add("onnx_div_i32_trunc", "Div", [a, b], (np.trunc(a / b)).astype(np.int32))
    a, b = ints(np.uint8, [2, 5], 0, 256), ints(np.uint8, [2, 5], 1, 30)
    add("onnx_div_u8", "Div", [a, b], a // b)
    a, b = ints(np.int8, [3, 4], -128, 128), ints(np.int8, [4], 1, 12) * np.array([1, -1, -1, 1], np.int8)
    add("onnx_div_i8_trunc", "Div", [a, b], np.trunc(a / b).astype(np.int8))
    x = small_floats(rng, [2, 3, 4])
    x.flat[[1, 6, 11, 17]] = [np.nan, np.inf, -np.nan, -np.inf]
    add("onnx_is_nan", "IsNaN", [x], np.isnan(x))
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tflm", metavar="TFLM_RUN", help="the TFLM host oracle: records the TFLite cases' outputs")
    args = parser.parse_args()
    family = op_tests.Family("logic", args.tflm)
    rng = np.random.RandomState(2026)
    tflite_cases(family, rng)
    with np.errstate(divide="ignore", invalid="ignore"):
        for name, data, inputs, outputs in onnx_cases(np.random.RandomState(1205)):
            family.write_computed_case(name, "model.onnx", data, inputs, outputs)
    family.finish()


if __name__ == "__main__":
    main()
