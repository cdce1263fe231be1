#!/usr/bin/env python3
"""Writes the op-conformance cases of the activation family: tests/data/ops/activation/<case>/ with
model.tflite or model.onnx, input_<k>.bin and output_<k>.bin (raw little-endian, the model's own types and
layouts). PROVENANCE.md in that folder says what produced each file.

  TFLite ops: LEAKY_RELU, HARD_SWISH, PRELU, ELU, MAXIMUM, MINIMUM (float32 and int8; outputs from TensorFlow
  Lite Micro's reference kernels, the host oracle tflm_run, only with --tflm: without it the committed outputs
  are kept), RELU_N1_TO_1 and RELU_0_TO_1 (TFLM registers no kernel of them: outputs from the NumPy model of
  TFLite's Relu1/Relu0To1 below, float32 and int8's QuantizedReluX).
  ONNX ops (float32): LeakyRelu, Elu, HardSigmoid, HardSwish, PRelu (opset 6's per-channel slope too), Max, Min; outputs from NumPy in float64
  (ONNX's definitions), rounded to float32; Max and Min also of 3 and 4 operands and of plain integers (int8,
  uint8, int32, int64: NumPy in the integer type).

Deterministic: every input comes from a fixed seed, so re-running reproduces every file byte for byte.

Usage: /usr/bin/python3 scripts/gen_op_tests_activation.py [--tflm /work/oracle/tflm/tflm_run]
"""
import argparse
import math

import numpy as np

import op_tests
from op_tests import tfl

# The builtin codes and option tables of this family's TFLite ops (schema.fbs), added to the writer's.
tfl.OPS.update({"LEAKY_RELU": 98, "HARD_SWISH": 117, "PRELU": 54, "ELU": 111, "RELU_N1_TO_1": 20,
                "RELU_0_TO_1": 152, "MAXIMUM": 55, "MINIMUM": 57})
tfl.OPTIONS.update({"LEAKY_RELU": 75})
_base_options_table = tfl.options_table


def _options_table(code, o, va):
    if code == "LEAKY_RELU":
        return tfl.Table({0: ("f32", o["alpha"])}, va)
    return _base_options_table(code, o, va)


tfl.options_table = _options_table

F32 = np.float32


# ----------------------------------------------------------------------------------------------------
# Inputs.

def float_input(rng, shape, low=-4.0, high=4.0, specials=(0.0, -0.0)):
    """Uniform floats with a few special values at the front (where the op changes behaviour)."""
    x = rng.uniform(low, high, size=int(np.prod(shape))).astype(F32)
    for k, v in enumerate(specials[: x.size]):
        x[k] = v
    return x.reshape(shape)


def int8_input(rng, shape, zero_point, spread=None):
    """Uniform over int8 (or within `spread` of the zero point), with -128, 127 and the zero point at the front."""
    low, high = (-128, 128) if spread is None else (max(-128, zero_point - spread), min(128, zero_point + spread + 1))
    x = rng.randint(low, high, size=int(np.prod(shape))).astype(np.int8)
    for k, v in enumerate((-128, 127, zero_point, zero_point - 1, zero_point + 1)):
        if k < x.size and -128 <= v <= 127:
            x[k] = v
    return x.reshape(shape)


def quant(scale, zero_point):
    return dict(scale=[scale], zero_point=[zero_point])


# ----------------------------------------------------------------------------------------------------
# TFLite's Relu1 / Relu0To1 (tensorflow/lite/kernels/activations.cc; TFLM has no kernel of them):
# float32 clamps, int8 QuantizedReluX (ReluPrepare's multiplier: input scale / output scale in float; the
# bounds zero point + roundf(bound / output scale) within int8; ReluX requantizes, then clamps).

def tflite_relu_x_float(x, lower, upper):
    return np.where(x > upper, F32(upper), np.where(x < lower, F32(lower), x)).astype(F32)


def multiply_by_quantized_multiplier(x: int, multiplier: int, shift: int) -> int:
    left = shift if shift > 0 else 0
    right = -shift if shift < 0 else 0
    return tfl.rounding_divide_by_pot(tfl.rounding_doubling_high_mul(x * (1 << left), multiplier), right)


def round_half_away(v: float) -> int:
    return int(math.floor(abs(v) + 0.5)) * (1 if v >= 0 else -1)


def tflite_relu_x_int8(x, qi, qo, lower, upper):
    m, s = tfl.quantize_multiplier(float(F32(qi[0]) / F32(qo[0])))
    lo = max(-128, qo[1] + round_half_away(float(F32(lower) / F32(qo[0]))))
    hi = min(127, qo[1] + round_half_away(float(F32(upper) / F32(qo[0]))))
    out = np.empty(x.shape, np.int8)
    for idx in np.ndindex(x.shape):
        v = qo[1] + multiply_by_quantized_multiplier(int(x[idx]) - qi[1], m, s)
        out[idx] = min(hi, max(lo, v))
    return out


# ----------------------------------------------------------------------------------------------------
# ONNX's definitions in float64.

def onnx_reference(op, xs, attrs):
    if op in ("Max", "Min") and np.issubdtype(np.asarray(xs[0]).dtype, np.integer):  # exact in the integer type
        return (np.maximum if op == "Max" else np.minimum).reduce(np.broadcast_arrays(*xs))
    x = [np.asarray(v, np.float64) for v in xs]
    alpha = attrs.get("alpha")
    if op == "LeakyRelu":
        a = 0.01 if alpha is None else alpha
        y = np.where(x[0] >= 0, x[0], a * x[0])
    elif op == "Elu":
        a = 1.0 if alpha is None else alpha
        y = np.where(x[0] >= 0, x[0], a * np.expm1(x[0]))
    elif op == "HardSigmoid":
        a = 0.2 if alpha is None else alpha
        b = attrs.get("beta", 0.5)
        y = np.clip(a * x[0] + b, 0.0, 1.0)
    elif op == "HardSwish":
        y = x[0] * np.clip(x[0] / 6.0 + 0.5, 0.0, 1.0)
    elif op == "PRelu":
        y = np.where(x[0] < 0, x[1] * x[0], x[0])
    elif op == "Max":
        y = x[0]
        for v in x[1:]:
            y = np.maximum(y, v)
    elif op == "Min":
        y = x[0]
        for v in x[1:]:
            y = np.minimum(y, v)
    else:
        raise ValueError(op)
    return y.astype(F32)


# ----------------------------------------------------------------------------------------------------
# The cases. A TFLite case: (name, model, inputs, reference) where reference is None (the oracle) or a
# function of the inputs giving the outputs. An ONNX case: (name, model bytes, inputs, outputs).

def unary_tflite(code, shape, dtype, qi=None, qo=None, **options):
    m = tfl.Model(new_opcodes=True)
    x = m.tensor("x", shape, dtype, quant=None if qi is None else quant(*qi))
    y = m.tensor("y", shape, dtype, quant=None if qo is None else quant(*qo))
    m.inputs, m.outputs = [x], [y]
    m.op(code, [x], [y], **options)
    return m


def binary_tflite(code, shape_a, shape_b, out_shape, dtype, qa=None, qb=None, qo=None, constant_b=None):
    """Two operands (the second a constant when constant_b is given)."""
    m = tfl.Model(new_opcodes=True)
    a = m.tensor("a", shape_a, dtype, quant=None if qa is None else quant(*qa))
    b = m.tensor("b", shape_b, dtype, data=constant_b, quant=None if qb is None else quant(*qb))
    y = m.tensor("y", out_shape, dtype, quant=None if qo is None else quant(*qo))
    m.inputs, m.outputs = ([a] if constant_b is not None else [a, b]), [y]
    m.op(code, [a, b], [y])
    return m


def tflite_cases():
    rng = np.random.RandomState(2026)
    cases = []
    i8, f32 = tfl.INT8, tfl.FLOAT32

    def add(name, model, inputs, reference=None):
        cases.append((name, model, inputs, reference))

    # LEAKY_RELU: alpha in (0, 1), negative, zero, > 1; int8 zero points at the ends, tiny and large scales.
    for name, shape, alpha in (("leaky_relu_f32_rank1", [7], 0.2), ("leaky_relu_f32_rank5_alpha_negative", [2, 1, 3, 1, 5], -0.5),
                               ("leaky_relu_f32_rank3_alpha_above_one", [3, 5, 7], 1.7)):
        add(name, unary_tflite("LEAKY_RELU", shape, f32, alpha=alpha), [float_input(rng, shape)])
    for name, shape, alpha, qi, qo in (
            ("leaky_relu_i8_rank4", [1, 3, 5, 7], 0.1, (0.05, -3), (0.04, 5)),
            ("leaky_relu_i8_alpha_negative_zero_points_extreme", [2, 33], -0.3, (0.02, 127), (0.01, -128)),
            ("leaky_relu_i8_alpha_zero", [67], 0.0, (1e-3, 0), (5e-4, -10)),
            ("leaky_relu_i8_alpha_above_one_large_scales", [3, 1, 43], 2.5, (50.0, 10), (100.0, -20)),
            ("leaky_relu_i8_tiny_scales", [1, 2, 3, 4, 5], 0.5, (1e-6, 3), (2e-6, 0)),
            ("leaky_relu_i8_zero_point_min", [5, 11], 0.25, (0.1, -128), (0.2, -128))):
        add(name, unary_tflite("LEAKY_RELU", shape, i8, qi, qo, alpha=alpha), [int8_input(rng, shape, qi[1])])

    # HARD_SWISH: the bends at -3 and 3; int8 with left and right shifts of the reluish multiplier.
    for name, shape in (("hard_swish_f32_rank2", [3, 11]), ("hard_swish_f32_rank4", [1, 4, 3, 5])):
        add(name, unary_tflite("HARD_SWISH", shape, f32),
            [float_input(rng, shape, -6.0, 6.0, (0.0, -3.0, 3.0, -2.9999, 3.0001, 1e-30))])
    # (TFLM takes output scales above the input's / 128: then only inputs near the zero point stay in range.)
    for name, shape, qi, qo, spread in (
            ("hard_swish_i8_rank4", [1, 5, 5, 3], (0.05, -10), (0.03, -100), None),
            ("hard_swish_i8_zero_points_extreme", [2, 3, 7], (0.1, 127), (0.01, 127), None),
            ("hard_swish_i8_zero_point_min", [61], (0.04, -128), (0.04, -128), None),
            ("hard_swish_i8_large_scales", [1, 1, 1, 2, 19], (20.0, 0), (40.0, 5), None),
            ("hard_swish_i8_tiny_scales", [37], (1e-4, 0), (1e-4, 0), None),
            ("hard_swish_i8_smallest_output_scale", [4, 9], (0.2, 3), (0.2 / 127, -7), 6)):
        add(name, unary_tflite("HARD_SWISH", shape, i8, qi, qo), [int8_input(rng, shape, qi[1], spread)])

    # PRELU: alpha a constant (per channel) or an input, broadcast.
    add("prelu_f32_constant_alpha_per_channel", binary_tflite("PRELU", [1, 4, 5, 3], [3], [1, 4, 5, 3], f32,
                                                               constant_b=np.array([0.25, -0.5, 1.5], F32)),
        [float_input(rng, [1, 4, 5, 3])])
    add("prelu_f32_alpha_input_broadcast", binary_tflite("PRELU", [2, 3, 4], [1, 3, 1], [2, 3, 4], f32),
        [float_input(rng, [2, 3, 4]), float_input(rng, [1, 3, 1], -1.0, 2.0, ())])
    add("prelu_f32_rank1_same_shape", binary_tflite("PRELU", [9], [9], [9], f32),
        [float_input(rng, [9]), float_input(rng, [9], -2.0, 2.0, ())])
    add("prelu_i8_constant_alpha", binary_tflite("PRELU", [1, 3, 4, 5], [5], [1, 3, 4, 5], i8, (0.05, 3), (0.01, 0), (0.04, -2),
                                                 constant_b=np.array([25, -50, 100, 0, 127], np.int8)),
        [int8_input(rng, [1, 3, 4, 5], 3)])
    add("prelu_i8_alpha_input_zero_points_extreme",
        binary_tflite("PRELU", [2, 1, 4, 3], [1, 1, 4, 3], [2, 1, 4, 3], i8, (0.1, 127), (0.002, 127), (0.05, -128)),
        [int8_input(rng, [2, 1, 4, 3], 127), int8_input(rng, [1, 1, 4, 3], 127)])
    add("prelu_i8_large_and_tiny_scales", binary_tflite("PRELU", [3, 7], [7], [3, 7], i8, (30.0, -5), (1e-3, 10), (20.0, 1)),
        [int8_input(rng, [3, 7], -5), int8_input(rng, [7], 10)])

    # ELU: float32 with large negatives; int8 through TFLM's table.
    for name, shape in (("elu_f32_rank1", [13]), ("elu_f32_rank3", [2, 5, 7])):
        add(name, unary_tflite("ELU", shape, f32), [float_input(rng, shape, -20.0, 5.0, (0.0, -1e-7, -90.0, 1e-7))])
    for name, shape, qi, qo in (
            ("elu_i8_rank4", [1, 4, 4, 4], (0.05, 0), (0.03, 30)),
            ("elu_i8_zero_points_extreme", [3, 17], (0.1, 127), (0.01, 127)),
            ("elu_i8_zero_point_min", [5, 1, 7], (1e-3, -128), (1e-3, -128)),
            ("elu_i8_large_scales", [29], (20.0, 0), (10.0, -128)),
            ("elu_i8_tiny_scales", [2, 2, 2, 2, 3], (1e-6, 5), (2e-6, -3))):
        add(name, unary_tflite("ELU", shape, i8, qi, qo), [int8_input(rng, shape, qi[1])])

    # MAXIMUM, MINIMUM: same shapes (rank 5), broadcast both ways, a constant operand; int8 raw comparisons.
    for code in ("MAXIMUM", "MINIMUM"):
        low = code.lower()
        add(f"{low}_f32_rank5_same_shape", binary_tflite(code, [2, 1, 3, 2, 3], [2, 1, 3, 2, 3], [2, 1, 3, 2, 3], f32),
            [float_input(rng, [2, 1, 3, 2, 3]), float_input(rng, [2, 1, 3, 2, 3], specials=(0.0, -0.0))])
        add(f"{low}_f32_broadcast", binary_tflite(code, [3, 1, 5], [4, 1], [3, 4, 5], f32),
            [float_input(rng, [3, 1, 5]), float_input(rng, [4, 1])])
        add(f"{low}_f32_constant", binary_tflite(code, [1, 2, 3, 4], [4], [1, 2, 3, 4], f32,
                                                 constant_b=np.array([-1.0, 0.0, 0.5, 2.0], F32)),
            [float_input(rng, [1, 2, 3, 4], -3.0, 3.0)])
        add(f"{low}_i8_broadcast", binary_tflite(code, [1, 4, 1, 3], [1, 1, 5, 1], [1, 4, 5, 3], i8,
                                                 (0.05, -128), (0.05, -128), (0.05, -128)),
            [int8_input(rng, [1, 4, 1, 3], -128), int8_input(rng, [1, 1, 5, 1], -128)])
        add(f"{low}_i8_rank1", binary_tflite(code, [23], [23], [23], i8, (0.5, 127), (0.5, 127), (0.5, 127)),
            [int8_input(rng, [23], 127), int8_input(rng, [23], 127)])

    # Every int8 value once through each unary op: the whole of its int8 function (ELU: TFLM's whole table).
    every_int8 = np.arange(-128, 128, dtype=np.int8).reshape(4, 64)
    for name, code, qi, qo, options in (("leaky_relu_i8_every_value", "LEAKY_RELU", (0.07, -20), (0.03, 40), {"alpha": 0.3}),
                                        ("hard_swish_i8_every_value", "HARD_SWISH", (0.045, 13), (0.025, -90), {}),
                                        ("elu_i8_every_value", "ELU", (0.04, 30), (0.02, -60), {})):
        add(name, unary_tflite(code, [4, 64], i8, qi, qo, **options), [every_int8])

    # RELU_N1_TO_1, RELU_0_TO_1 (NumPy references: TFLM has no kernel of them).
    # (the extreme zero point on the side of the input range that the op keeps)
    for code, lower, extreme_in, extreme_out in (("RELU_N1_TO_1", -1.0, (0.01, 127), (1 / 127, 127)),
                                                 ("RELU_0_TO_1", 0.0, (0.01, -128), (1 / 255, -128))):
        low = code.lower()
        for name, shape in ((f"{low}_f32_rank2", [5, 9]), (f"{low}_f32_rank5", [1, 2, 1, 3, 4])):
            add(name, unary_tflite(code, shape, f32),
                [float_input(rng, shape, -2.0, 2.0, (0.0, -1.0, 1.0, -0.0, 0.99999, -1.00001))],
                lambda x, lower=lower: [tflite_relu_x_float(x, F32(lower), F32(1.0))])
        for name, shape, qi, qo in ((f"{low}_i8_rescaled", [3, 4, 5], (0.02, -5), (0.01, 3)),
                                    (f"{low}_i8_zero_points_extreme", [41], extreme_in, extreme_out),
                                    (f"{low}_i8_large_scale", [2, 13], (2.0, 1), (0.5, -2)),
                                    (f"{low}_i8_every_value", [256], (0.011, 9), (0.009, -17))):
            x = np.arange(-128, 128, dtype=np.int8) if name.endswith("every_value") else int8_input(rng, shape, qi[1])
            add(name, unary_tflite(code, shape, i8, qi, qo), [x],
                lambda x, qi=qi, qo=qo, lower=lower: [tflite_relu_x_int8(x, qi, qo, lower, 1.0)])
    return cases


def onnx_cases():
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.RandomState(1414)
    cases = []

    element_types = {np.dtype(F32): TensorProto.FLOAT, np.dtype(np.int8): TensorProto.INT8,
                     np.dtype(np.uint8): TensorProto.UINT8, np.dtype(np.int32): TensorProto.INT32,
                     np.dtype(np.int64): TensorProto.INT64}

    def model(op, input_shapes, out_shape, attrs, constants=(), dtype=F32, opset=14):
        """Graph inputs x0.. of input_shapes, then `constants` (name, array) as initializers, one node."""
        elem = element_types[np.dtype(dtype)]
        inputs = [helper.make_tensor_value_info(f"x{k}", elem, s) for k, s in enumerate(input_shapes)]
        inits = [numpy_helper.from_array(np.asarray(v, dtype), name) for name, v in constants]
        node = helper.make_node(op, [f"x{k}" for k in range(len(input_shapes))] + [n for n, _ in constants], ["y"],
                                **attrs)
        graph = helper.make_graph([node], f"{op.lower()}_test", inputs,
                                  [helper.make_tensor_value_info("y", elem, out_shape)], inits)
        m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="ctnn-test")
        m.ir_version = 7
        return m.SerializeToString()

    def add(name, op, inputs, attrs=None, constants=()):
        attrs = attrs or {}
        dtype = inputs[0].dtype
        outputs = [onnx_reference(op, list(inputs) + [np.asarray(v, dtype) for _, v in constants], attrs).astype(dtype)]
        cases.append((name, model(op, [list(x.shape) for x in inputs], list(outputs[0].shape), attrs, constants, dtype),
                      inputs, outputs))

    def integers(dtype, shape):
        info = np.iinfo(dtype)
        x = rng.randint(max(info.min, -1000), min(info.max, 1000) + 1, size=int(np.prod(shape))).astype(dtype)
        x[:2] = np.array([info.min, info.max], dtype)[: x.size]
        return x.reshape(shape)

    add("onnx_leaky_relu_default", "LeakyRelu", [float_input(rng, [1, 3, 4, 5])])
    add("onnx_leaky_relu_alpha_negative", "LeakyRelu", [float_input(rng, [7, 3])], {"alpha": -0.2})
    add("onnx_elu_default", "Elu", [float_input(rng, [2, 3, 5], -10.0, 3.0)])
    add("onnx_elu_alpha", "Elu", [float_input(rng, [1, 2, 3, 3], -10.0, 3.0)], {"alpha": 2.0})
    add("onnx_hard_sigmoid_default", "HardSigmoid", [float_input(rng, [3, 4, 5], -5.0, 5.0)])
    add("onnx_hard_sigmoid_alpha_beta", "HardSigmoid", [float_input(rng, [11], -5.0, 5.0)], {"alpha": 0.3, "beta": 0.4})
    add("onnx_hard_swish", "HardSwish", [float_input(rng, [1, 3, 4, 5], -6.0, 6.0, (0.0, -3.0, 3.0))])
    add("onnx_prelu_constant_slope_per_channel", "PRelu", [float_input(rng, [1, 3, 4, 5])],
        constants=[("slope", np.array([0.1, -0.5, 2.0], F32).reshape(3, 1, 1))])
    add("onnx_prelu_slope_input", "PRelu", [float_input(rng, [2, 3, 5]), float_input(rng, [5], -1.0, 1.0, ())])
    add("onnx_max_broadcast", "Max", [float_input(rng, [3, 1, 5]), float_input(rng, [4, 1])])
    add("onnx_max_nchw_constant", "Max", [float_input(rng, [1, 3, 2, 4])],
        constants=[("floor", np.array([-0.5, 0.0, 1.0], F32).reshape(3, 1, 1))])
    add("onnx_min_same_shape", "Min", [float_input(rng, [2, 3, 4]), float_input(rng, [2, 3, 4])])
    add("onnx_min_single_operand", "Min", [float_input(rng, [6])])
    # Max and Min of more operands (folded left), and of plain integers (ONNX's integer semantics).
    add("onnx_max_three_operands", "Max", [float_input(rng, [2, 1, 4]), float_input(rng, [3, 1]), float_input(rng, [4])])
    add("onnx_min_four_operands_nchw", "Min", [float_input(rng, [1, 2, 3, 3]) for _ in range(3)],
        constants=[("ceiling", np.array([0.5, -0.25], F32).reshape(2, 1, 1))])
    add("onnx_max_i8", "Max", [integers(np.int8, [3, 5]), integers(np.int8, [5])])
    add("onnx_min_u8", "Min", [integers(np.uint8, [2, 3, 4]), integers(np.uint8, [2, 3, 4])])
    add("onnx_max_i32_three_operands", "Max", [integers(np.int32, [7]), integers(np.int32, [1]), integers(np.int32, [7])])
    add("onnx_min_i64", "Min", [integers(np.int64, [4, 1]), integers(np.int64, [1, 6])])
    # PRelu before opset 7: a slope of C elements is per channel of X [N, C, ...] (not broadcast from the last dim).
    for name, x, slope, constant in [
            ("onnx_prelu_opset6_constant_slope_per_channel", float_input(rng, [1, 3, 4, 5]), float_input(rng, [3]), True),
            ("onnx_prelu_opset6_slope_input_1d", float_input(rng, [2, 3, 5]), float_input(rng, [3]), False)]:
        per_channel = slope.reshape([3] + [1] * (x.ndim - 2))
        y = onnx_reference("PRelu", [x, per_channel], {})
        shapes = [list(x.shape)] if constant else [list(x.shape), [3]]
        cases.append((name, model("PRelu", shapes, list(y.shape), {}, [("slope", slope)] if constant else (), opset=6),
                      [x] if constant else [x, slope], [y]))
    return cases


# ----------------------------------------------------------------------------------------------------

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tflm", metavar="TFLM_RUN", help="the TFLM host oracle: records the TFLite cases' outputs")
    args = parser.parse_args()
    family = op_tests.Family("activation", args.tflm)
    for name, m, inputs, reference in tflite_cases():
        if reference is None:
            family.write_case(name, m, inputs)
        else:
            family.write_computed_case(name, "model.tflite", m.serialize(), inputs, reference(*inputs))
    for name, data, inputs, outputs in onnx_cases():
        family.write_computed_case(name, "model.onnx", data, inputs, outputs)
    family.finish()


if __name__ == "__main__":
    main()
