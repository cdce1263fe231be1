#!/usr/bin/env python3
"""Writes the op-conformance cases of the int16 family (TFLite's 16x8 quantization: int16 activations, zero
point 0): tests/data/ops/int16/<case>/ with model.tflite, input_<k>.bin and output_<k>.bin (raw little-endian,
the model's own types). Outputs from TensorFlow Lite Micro's reference kernels through the host oracle
tflm_run, only with --tflm (without it the committed outputs are kept, scripts/op_tests.py).

Also writes the uint8 models ctnn refuses as TFLM does (tests/data/tflite/, the tools' error tests):
uint8_conv.tflite (an old fully-uint8 model: uint8 CONV_2D, then a uint8 ADD), uint8_add.tflite (an ADD of
uint8 tensors before a QUANTIZE), uint8_quantize_from_f32.tflite (QUANTIZE float32 -> uint8: TFLM's Eval fails it)
and uint8_quantize_unscaled.tflite (an int8 -> uint8 QUANTIZE whose result has no scale: TFLM's Prepare fails it). And the int16 models ctnn refuses, as TFLM does or until ctnn has their int16 kernels, to
tests/data/tflite/ (the tools' error tests, tests/tools/CMakeLists.txt): int16_gather.tflite (TFLM's GATHER takes
float32 and int8 only), int16_relu_zero_point.tflite (an int16 RELU with zero point 5: TFLM's needs 0),
int16_hard_swish.tflite (TFLM's HARD_SWISH takes float32 and int8 only), int16_mul_zero_point.tflite (an int16 MUL
with an input zero point 3: TFLM's Prepare needs 0), int16_prelu_int16_alpha.tflite (an int16 PRELU whose alpha
is int16: TFLM's takes an int8 alpha), int16_logistic_output_scale.tflite (an int16
LOGISTIC whose result scale is not 2^-15: TFLM's Prepare fails), int16_fully_connected_int32_bias.tflite (a 16x8
FULLY_CONNECTED with an int32 bias: TFLM's int32-accumulator variant, not one of ctnn's kernels).

  QUANTIZE: float32 -> int16 (ties, saturation at -32768/32767, tiny and huge scales), int8 -> int16,
    int16 -> int8, int16 -> int16 (rescaled, saturating), int16 -> int32, int32 -> int16; DEQUANTIZE int16 ->
    float32; chains float32 -> int16 -> float32 and int8 -> int16 -> int8 (mixed models).
  RESHAPE, SQUEEZE, EXPAND_DIMS, TRANSPOSE, PAD, CONCATENATION, PACK, MAXIMUM, MINIMUM (raw values moved or
    compared); RELU, RELU6, LEAKY_RELU, ABS (TFLM's int8 templates at int16); LOGISTIC and TANH (TFLM's int16 table);
  SUB (equal shapes, broadcast, fused RELU/RELU6, saturating), MEAN and SUM (one and two axes, keep_dims);
  ADD (TFLM's general int16 path, left shift 15: broadcast both ways, power-of-two scales, zero points other
    than 0, a scalar, fused RELU/RELU6, saturating at -32768/32767), MUL (broadcast, saturating, extremes) and
    SQUARED_DIFFERENCE (left shift 0: broadcast, saturating, extremes);
  AVERAGE_POOL_2D and MAX_POOL_2D (SAME and VALID, strides 1 and 2, odd channel counts, 1-D, the whole input,
    fused RELU/RELU6, a zero point other than 0, the extremes); STRIDED_SLICE (masks, negative stride, shrunk
    axis; stride 2), BROADCAST_TO (rank 3 -> 4) and PADV2 (the value -32768 and 32767); PRELU with an int8 alpha (per channel, scalar,
    zero points other than 0, saturating);
  SOFTMAX (TFLM's exp and reciprocal tables, computed by ctnn in constant evaluation).
  uint8 at a model's edges (the converter's inference_input_type/inference_output_type tf.uint8; TFLM runs no
    other uint8): QUANTIZE uint8 -> int8 and int8 -> uint8 (zero points 0, 128 and 255, equal scales with
    zero points 128 apart (TFLM's x ^ 0x80 shortcut), scale ratios above and below 1, saturating), DEQUANTIZE
    uint8 -> float32, REVERSE_V2, RESHAPE, SQUEEZE and BROADCAST_TO of uint8, and uint8-in/uint8-out models
    wrapping int8 ADD and CONV_2D between two QUANTIZEs.
  CONV_2D (3x3 SAME, 1x1, 1-D strided, dilated without bias, biases near +-2^46, sums beyond int32),
    DEPTHWISE_CONV_2D (3x3, multiplier 2 stride 2, 1-D), FULLY_CONNECTED (per tensor and per channel, sums beyond
    int32): int64 biases, per-channel weight scales over several binades.

Deterministic: every input comes from a fixed seed, so re-running reproduces every file byte for byte.

Usage: /usr/bin/python3 scripts/gen_op_tests_int16.py [--tflm /work/oracle/tflm/tflm_run]
"""
import argparse

import numpy as np

import gen_op_tests_activation  # noqa: F401  (registers LEAKY_RELU, MAXIMUM, MINIMUM with the writer)
import gen_op_tests_gather  # noqa: F401  (registers REVERSE_V2 with the writer)
import gen_op_tests_logic  # noqa: F401  (registers SQUARED_DIFFERENCE with the writer)
import gen_op_tests_shape  # noqa: F401  (registers SQUEEZE, EXPAND_DIMS, TRANSPOSE, PACK with the writer)
import gen_op_tests_transpose_conv  # (registers PADV2 with the writer; its padv2 model)
import gen_op_tests_unary  # noqa: F401  (registers ABS with the writer)
import op_tests
from op_tests import tfl

F32 = np.float32
tfl.OPS.setdefault("BROADCAST_TO", 130)  # (no options)


def quant(scale, zero_point=0):
    return dict(scale=[scale], zero_point=[zero_point])


class Chain:
    """A model of one input and a chain of ops, each reading the previous result (and constants)."""

    def __init__(self, shape, dtype, q=None):
        self.m = tfl.Model(new_opcodes=True)
        self.shape = list(shape)
        self.current = self.m.tensor("x", shape, dtype, quant=q)
        self.m.inputs = [self.current]

    def op(self, code, dtype, q=None, shape=None, constants=(), **options):
        inputs = [self.current]
        for k, (values, ctype) in enumerate(constants):
            values = np.asarray(values)
            inputs.append(self.m.tensor(f"c{len(self.m.ops)}_{k}", values.shape, ctype, data=values))
        self.shape = list(shape) if shape is not None else self.shape
        self.current = self.m.tensor(f"t{len(self.m.ops)}", self.shape, dtype, quant=q)
        self.m.op(code, inputs, [self.current], **options)
        return self

    def model(self):
        self.m.outputs = [self.current]
        return self.m


# ----------------------------------------------------------------------------------------------------
# Inputs: uniform over the type's range with its extremes, zero and +-1 at the front.

def integers(rng, dtype, shape, low=None, high=None):
    info = np.iinfo(dtype)
    low = info.min if low is None else low
    high = info.max if high is None else high
    x = rng.randint(low, high + 1, size=int(np.prod(shape)), dtype=np.int64)
    for k, v in enumerate((low, high, 0, -1, 1)):
        if k < x.size and low <= v <= high:
            x[k] = v
    return x.astype(dtype).reshape(shape)


def floats(rng, shape, low, high, specials=()):
    x = rng.uniform(low, high, size=int(np.prod(shape))).astype(F32)
    for k, v in enumerate(specials[: x.size]):
        x[k] = v
    return x.reshape(shape)


# ----------------------------------------------------------------------------------------------------

def quantize_cases(rng):
    I16, I8, I32, FLOAT32 = tfl.INT16, tfl.INT8, tfl.INT32, tfl.FLOAT32
    cases = []

    def add(name, chain, inputs):
        cases.append((name, chain.model(), inputs))

    # float32 -> int16: ties (x.5 of the scale, both signs), values beyond +-32767 scales (saturation).
    ties = [0.0, -0.0, 0.5e-3, -0.5e-3, 1.5e-3, -2.5e-3, 32767e-3, -32768e-3, 40.0, -40.0, 32767.5e-3, -32768.5e-3]
    add("quantize_f32_to_i16", Chain([3, 5, 7], FLOAT32).op("QUANTIZE", I16, quant(1e-3)),
        [floats(rng, [3, 5, 7], -36.0, 36.0, ties)])
    add("quantize_f32_to_i16_tiny_scale", Chain([2, 33], FLOAT32).op("QUANTIZE", I16, quant(1e-6)),
        [floats(rng, [2, 33], -0.04, 0.04, [0.0, 3.2767e-2, -3.2768e-2, 5e-7, -5e-7])])
    add("quantize_f32_to_i16_huge_scale", Chain([41], FLOAT32).op("QUANTIZE", I16, quant(100.0)),
        [floats(rng, [41], -4e6, 4e6, [0.0, 50.0, -50.0, 150.0, 3276700.0, -3276800.0])])
    # int8 -> int16 (the head of a 16x8 model reading int8), int16 -> int8 (saturating), int16 -> int16.
    add("quantize_i8_to_i16", Chain([4, 64], I8, quant(0.05, -3)).op("QUANTIZE", I16, quant(1e-4)),
        [np.arange(-128, 128, dtype=np.int8).reshape(4, 64)])
    add("quantize_i8_to_i16_saturating", Chain([2, 2, 31], I8, quant(0.5, 7)).op("QUANTIZE", I16, quant(1e-3)),
        [integers(rng, np.int8, [2, 2, 31])])
    add("quantize_i16_to_i8", Chain([5, 3, 9], I16, quant(3e-4)).op("QUANTIZE", I8, quant(0.02, 5)),
        [integers(rng, np.int16, [5, 3, 9])])
    add("quantize_i16_to_i16_rescale", Chain([1, 3, 5, 7], I16, quant(1e-3)).op("QUANTIZE", I16, quant(3.7e-4)),
        [integers(rng, np.int16, [1, 3, 5, 7])])
    add("quantize_i16_to_i16_coarser", Chain([97], I16, quant(2.5e-5)).op("QUANTIZE", I16, quant(7e-3)),
        [integers(rng, np.int16, [97])])
    add("quantize_i16_to_i32", Chain([6, 7], I16, quant(1e-3)).op("QUANTIZE", I32, quant(1e-6)),
        [integers(rng, np.int16, [6, 7])])
    add("quantize_i8_to_i32", Chain([3, 11], I8, quant(0.1, 4)).op("QUANTIZE", I32, quant(1e-3, 9)),
        [integers(rng, np.int8, [3, 11])])
    add("quantize_i32_to_i16", Chain([2, 3, 5], I32, quant(1e-5)).op("QUANTIZE", I16, quant(4e-3)),
        [integers(rng, np.int32, [2, 3, 5], -(1 << 28), 1 << 28)])
    # DEQUANTIZE int16 -> float32.
    add("dequantize_i16", Chain([3, 4, 11], I16, quant(1e-3)).op("DEQUANTIZE", FLOAT32),
        [integers(rng, np.int16, [3, 4, 11])])
    add("dequantize_i16_tiny_scale", Chain([37], I16, quant(3e-7)).op("DEQUANTIZE", FLOAT32),
        [integers(rng, np.int16, [37])])
    # Mixed chains: float32 -> int16 -> float32; int8 -> int16 -> int8.
    add("chain_f32_i16_f32", Chain([2, 9, 3], FLOAT32).op("QUANTIZE", I16, quant(2e-4)).op("DEQUANTIZE", FLOAT32),
        [floats(rng, [2, 9, 3], -7.0, 7.0, ties)])
    add("chain_i8_i16_i8", Chain([1, 6, 6, 3], I8, quant(0.03, -10)).op("QUANTIZE", I16, quant(1.2e-4))
        .op("QUANTIZE", I8, quant(0.025, 3)), [integers(rng, np.int8, [1, 6, 6, 3])])
    return cases


def data_movement_cases(rng):
    """The ops TFLM runs on int16 by moving or comparing raw values (no requantization)."""
    I16, I32 = tfl.INT16, tfl.INT32
    q = quant(2e-4)
    cases = []

    def add(name, chain, inputs):
        cases.append((name, chain.model(), inputs))

    x = integers(rng, np.int16, [2, 3, 5])
    add("reshape_i16", Chain([2, 3, 5], I16, q).op("RESHAPE", I16, q, shape=[5, 6],
                                                    constants=[(np.array([5, 6]), I32)]), [x])
    add("squeeze_i16", Chain([1, 7, 1, 3], I16, q).op("SQUEEZE", I16, q, shape=[7, 3], squeeze_dims=[0, 2]),
        [integers(rng, np.int16, [1, 7, 1, 3])])
    add("expand_dims_i16", Chain([4, 5], I16, q).op("EXPAND_DIMS", I16, q, shape=[4, 1, 5],
                                                    constants=[(np.array([1]), I32)]), [integers(rng, np.int16, [4, 5])])
    add("transpose_i16_rank4", Chain([2, 3, 4, 5], I16, q).op("TRANSPOSE", I16, q, shape=[5, 2, 4, 3],
                                                               constants=[(np.array([3, 0, 2, 1]), I32)]),
        [integers(rng, np.int16, [2, 3, 4, 5])])
    add("pad_i16", Chain([2, 3, 5], I16, q).op("PAD", I16, q, shape=[3, 6, 6],
                                               constants=[(np.array([[0, 1], [2, 1], [1, 0]]), I32)]),
        [integers(rng, np.int16, [2, 3, 5])])

    # Two inputs (CONCATENATION and PACK of two int16 tensors quantized otherwise than their result: TFLM
    # copies the raw values; MAXIMUM and MINIMUM compare them, broadcast).
    def two_inputs(code, shape_a, shape_b, out_shape, qa, qb, qo, **options):
        m = tfl.Model(new_opcodes=True)
        a = m.tensor("a", shape_a, I16, quant=qa)
        b = m.tensor("b", shape_b, I16, quant=qb)
        y = m.tensor("y", out_shape, I16, quant=qo)
        m.inputs, m.outputs = [a, b], [y]
        m.op(code, [a, b], [y], **options)
        return m

    for name, code, sa, sb, so, options in [
            ("concatenation_i16", "CONCATENATION", [2, 3, 4], [2, 5, 4], [2, 8, 4], dict(axis=1)),
            ("pack_i16", "PACK", [3, 5], [3, 5], [3, 2, 5], dict(values_count=2, axis=1)),
            ("maximum_i16_broadcast", "MAXIMUM", [2, 3, 7], [7], [2, 3, 7], {}),
            ("minimum_i16", "MINIMUM", [5, 9], [5, 9], [5, 9], {})]:
        cases.append((name, two_inputs(code, sa, sb, so, quant(3e-4), quant(1e-3), quant(5e-4), **options),
                      [integers(rng, np.int16, sa), integers(rng, np.int16, sb)]))
    return cases


def activation_cases(rng):
    """RELU, RELU6, LEAKY_RELU and ABS of int16 (TFLM's templates of the int8 recipes)."""
    I8, I16 = tfl.INT8, tfl.INT16
    cases = []

    def add(name, chain, inputs):
        cases.append((name, chain.model(), inputs))

    shape = [3, 5, 7]
    add("relu_i16", Chain(shape, I16, quant(1e-3)).op("RELU", I16, quant(5e-4)), [integers(rng, np.int16, shape)])
    add("relu_i16_coarser", Chain([61], I16, quant(2e-5)).op("RELU", I16, quant(3e-3)), [integers(rng, np.int16, [61])])
    add("relu6_i16", Chain(shape, I16, quant(3e-4)).op("RELU6", I16, quant(3e-4)), [integers(rng, np.int16, shape)])
    add("relu6_i16_six_beyond_range", Chain([2, 33], I16, quant(1e-4)).op("RELU6", I16, quant(1e-4)),
        [integers(rng, np.int16, [2, 33])])
    add("leaky_relu_i16", Chain(shape, I16, quant(1e-3)).op("LEAKY_RELU", I16, quant(8e-4), alpha=0.2),
        [integers(rng, np.int16, shape)])
    add("leaky_relu_i16_negative_alpha", Chain([4, 17], I16, quant(2e-4)).op("LEAKY_RELU", I16, quant(5e-4), alpha=-0.5),
        [integers(rng, np.int16, [4, 17])])
    # A 16x8 island in an int8 model: int8 -> QUANTIZE int16 -> LEAKY_RELU -> QUANTIZE int8.
    add("mixed_i8_leaky_relu_i16_i8", Chain([1, 4, 4, 3], I8, quant(0.05, 3)).op("QUANTIZE", I16, quant(2e-4))
        .op("LEAKY_RELU", I16, quant(1.5e-4), alpha=0.1).op("QUANTIZE", I8, quant(0.04, -20)),
        [integers(rng, np.int8, [1, 4, 4, 3])])
    return cases


def int8_op_table_cases(rng):
    """int8 single-op cases of realistic size for the Cortex-M per-op table (benchmarks/cortex_m/op_table.py picks the
    largest int8 case of each operator): 32x32x16 activations for ADD, MUL, the pools, LOGISTIC, TANH, RELU,
    RELU6, CONCATENATION (two 32x32x8 halves), PAD and RESHAPE; FULLY_CONNECTED 256 -> 64 (per-tensor weights, an
    int32 bias); SOFTMAX over 32 rows of 64 and over 28 rows of 6 (the LSTM model's logits)."""
    I8, I32 = tfl.INT8, tfl.INT32
    SAME, VALID = tfl.SAME, tfl.VALID
    image = [1, 32, 32, 16]
    cases = []

    def unary(name, chain, shape):
        cases.append((name, chain.model(), [integers(rng, np.int8, shape)]))

    def binary(code, name, qa, qb, qo, act=None):
        m = tfl.Model(new_opcodes=True)
        ta = m.tensor("a", image, I8, quant=qa)
        tb = m.tensor("b", image, I8, quant=qb)
        y = m.tensor("y", image, I8, quant=qo)
        m.inputs, m.outputs = [ta, tb], [y]
        m.op(code, [ta, tb], [y], act=act)
        cases.append((name, m, [integers(rng, np.int8, image), integers(rng, np.int8, image)]))

    binary("ADD", "add_i8_32x32x16", quant(0.05, -3), quant(0.08, 10), quant(0.1, -5))
    binary("MUL", "mul_i8_32x32x16_relu", quant(0.05, -3), quant(0.04, 7), quant(0.1, -20), act="RELU")
    unary("avg_pool_i8_32x32x16_same_s2", Chain(image, I8, quant(0.05, -4)).op(
        "AVERAGE_POOL_2D", I8, quant(0.05, -4), shape=[1, 16, 16, 16], padding=SAME, stride=(2, 2), filter=(3, 3)), image)
    unary("max_pool_i8_32x32x16_valid_s2", Chain(image, I8, quant(0.05, -4)).op(
        "MAX_POOL_2D", I8, quant(0.05, -4), shape=[1, 16, 16, 16], padding=VALID, stride=(2, 2), filter=(2, 2)), image)
    unary("logistic_i8_32x32x16", Chain(image, I8, quant(0.06, 3)).op("LOGISTIC", I8, quant(1 / 256, -128)), image)
    unary("tanh_i8_32x32x16", Chain(image, I8, quant(0.03, -2)).op("TANH", I8, quant(1 / 128, 0)), image)
    unary("relu_i8_32x32x16", Chain(image, I8, quant(0.05, -6)).op("RELU", I8, quant(0.03, -128)), image)
    unary("relu6_i8_32x32x16", Chain(image, I8, quant(0.05, -6)).op("RELU6", I8, quant(6 / 255, -128)), image)
    unary("pad_i8_32x32x16", Chain(image, I8, quant(0.05, -6)).op(
        "PAD", I8, quant(0.05, -6), shape=[1, 34, 34, 16], constants=[(np.array([[0, 0], [1, 1], [1, 1], [0, 0]]), I32)]),
        image)
    unary("reshape_i8_32x32x16", Chain(image, I8, quant(0.05, -6)).op(
        "RESHAPE", I8, quant(0.05, -6), shape=[1, 1024, 16], constants=[(np.array([1, 1024, 16]), I32)]), image)
    half = [1, 32, 32, 8]
    m = tfl.Model(new_opcodes=True)
    ta = m.tensor("a", half, I8, quant=quant(0.05, -6))
    tb = m.tensor("b", half, I8, quant=quant(0.05, -6))
    y = m.tensor("y", image, I8, quant=quant(0.05, -6))
    m.inputs, m.outputs = [ta, tb], [y]
    m.op("CONCATENATION", [ta, tb], [y], axis=3)
    cases.append(("concatenation_i8_32x32x16", m, [integers(rng, np.int8, half), integers(rng, np.int8, half)]))
    m = tfl.Model(new_opcodes=True)
    x = m.tensor("x", [1, 256], I8, quant=quant(0.05, -6))
    w = m.tensor("w", [64, 256], I8, data=integers(rng, np.int8, [64, 256], -127, 127), quant=quant(0.004, 0))
    b = m.tensor("b", [64], I32, data=rng.randint(-5000, 5000, size=64), quant=quant(0.05 * 0.004, 0))
    y = m.tensor("y", [1, 64], I8, quant=quant(0.2, 4))
    m.inputs, m.outputs = [x], [y]
    m.op("FULLY_CONNECTED", [x, w, b], [y])
    cases.append(("fully_connected_i8_256_to_64", m, [integers(rng, np.int8, [1, 256])]))
    for name, shape, scale in [("softmax_i8_32x64", [32, 64], 0.0625), ("softmax_i8_28x6", [28, 6], 0.15)]:
        unary(name, Chain(shape, I8, quant(scale, 5)).op("SOFTMAX", I8, quant(1 / 256, -128), beta=1.0), shape)
    return cases


def refused_models():
    I16, I32 = tfl.INT16, tfl.INT32
    gather = tfl.Model(new_opcodes=True)
    x = gather.tensor("x", [4, 3], I16, quant=quant(1e-3))
    indices = gather.tensor("indices", [2], I32, data=np.array([2, 0]))
    y = gather.tensor("y", [2, 3], I16, quant=quant(1e-3))
    gather.inputs, gather.outputs = [x], [y]
    gather.op("GATHER", [x, indices], [y])
    relu = Chain([8], I16, quant(1e-3, 5)).op("RELU", I16, quant(1e-3, 5)).model()
    hard_swish = Chain([8], I16, quant(1e-3)).op("HARD_SWISH", I16, quant(1e-3)).model()
    mul = tfl.Model(new_opcodes=True)
    a = mul.tensor("a", [6], I16, quant=quant(1e-3, 3))
    b = mul.tensor("b", [6], I16, quant=quant(1e-3))
    y = mul.tensor("y", [6], I16, quant=quant(2e-3))
    mul.inputs, mul.outputs = [a, b], [y]
    mul.op("MUL", [a, b], [y])
    folder = op_tests.OPS_DIR.parent / "tflite"
    logistic = Chain([8], I16, quant(1e-3)).op("LOGISTIC", I16, quant(1e-4)).model()
    int32_bias = Chain([1, 8], I16, quant(1e-3)).op(
        "FULLY_CONNECTED", I16, quant(2e-3), shape=[1, 4],
        constants=[(np.arange(32).reshape(4, 8) % 7 - 3, tfl.INT8), (np.array([100, -200, 300, -400]), I32)]).model()
    prelu = prelu_model([2, 3], np.array([10, -20, 30]), I16, quant(1e-3), quant(1e-2), quant(2e-3))
    for name, m in [("int16_gather", gather), ("int16_relu_zero_point", relu), ("int16_hard_swish", hard_swish),
                    ("int16_mul_zero_point", mul), ("int16_prelu_int16_alpha", prelu),
                    ("int16_logistic_output_scale", logistic), ("int16_fully_connected_int32_bias", int32_bias)]:
        (folder / f"{name}.tflite").write_bytes(m.serialize())


def logistic_tanh_cases(rng):
    """LOGISTIC and TANH of int16 (TFLM's table with interpolation): power-of-two input scales (no rescaling)
    and others (the multiplier doubled up to 31 times), the result's scale 2^-15."""
    I8, I16 = tfl.INT8, tfl.INT16
    sweep = np.concatenate([np.arange(-32768, 32768, 97), [32767, -1, 1, 0]]).astype(np.int16)
    out = quant(2.0 ** -15)
    cases = []
    for code in ("LOGISTIC", "TANH"):
        scales = [("pot", 2.0 ** -12), ("scale_3e-4", 3e-4), ("tiny_scale", 1e-6), ("large_scale", 2e-2)]
        if code == "TANH":
            scales.insert(1, ("pot_shift_1", 2.0 ** -11))
        for name, scale in scales:
            cases.append((f"{code.lower()}_i16_{name}", Chain([sweep.size], I16, quant(scale)).op(code, I16, out).model(),
                          [sweep]))
    cases.append(("mixed_i8_tanh_i16_i8", Chain([2, 5, 7], I8, quant(0.06, -4)).op("QUANTIZE", I16, quant(2.0 ** -12))
                  .op("TANH", I16, out).op("QUANTIZE", I8, quant(1 / 128)).model(), [integers(rng, np.int8, [2, 5, 7])]))
    return cases


def arithmetic_cases(rng):
    """SUB (left shift 15, TFLM's CalculateOpDataSub at int16), MEAN and SUM (QuantizedMeanOrSum at int16)."""
    I16, I32 = tfl.INT16, tfl.INT32
    cases = []

    def sub(name, shape_a, shape_b, out_shape, qa, qb, qo, act=None):
        m = tfl.Model(new_opcodes=True)
        a = m.tensor("a", shape_a, I16, quant=qa)
        b = m.tensor("b", shape_b, I16, quant=qb)
        y = m.tensor("y", out_shape, I16, quant=qo)
        m.inputs, m.outputs = [a, b], [y]
        m.op("SUB", [a, b], [y], act=act)
        cases.append((name, m, [integers(rng, np.int16, shape_a), integers(rng, np.int16, shape_b)]))

    sub("sub_i16", [3, 5, 7], [3, 5, 7], [3, 5, 7], quant(1e-3), quant(2e-3), quant(2.5e-3))
    sub("sub_i16_broadcast_relu_saturating", [2, 3, 5], [5], [2, 3, 5], quant(4e-4), quant(3e-4), quant(1e-4), act="RELU")
    sub("sub_i16_relu6", [4, 9], [4, 1], [4, 9], quant(5e-4), quant(5e-4), quant(3e-4), act="RELU6")

    def reduce(name, code, shape, axes, keep_dims, out_shape, qi, qo):
        chain = Chain(shape, I16, qi).op(code, I16, qo, shape=out_shape, constants=[(np.array(axes), I32)],
                                         keep_dims=keep_dims)
        cases.append((name, chain.model(), [integers(rng, np.int16, shape)]))

    reduce("mean_i16_hw", "MEAN", [1, 4, 5, 6], [1, 2], True, [1, 1, 1, 6], quant(1e-3), quant(8e-4))
    reduce("mean_i16_last_axis", "MEAN", [3, 7, 11], [2], False, [3, 7], quant(2e-4), quant(3e-5))
    reduce("sum_i16_saturating", "SUM", [2, 9, 5], [1], False, [2, 5], quant(2e-4), quant(4e-4))
    reduce("sum_i16_two_axes", "SUM", [3, 4, 5], [0, 2], True, [1, 4, 1], quant(1e-4), quant(2e-3))
    return cases


def softmax_cases(rng):
    """SOFTMAX of int16 (TFLM's exp and 1 / (1 + x) tables): rows of several lengths, input scales that
    spread a row over the exp table's [-10, 0] or crowd it near 0; a mixed int8 -> int16 -> int8 model."""
    I8, I16 = tfl.INT8, tfl.INT16
    out = quant(2.0 ** -15)
    cases = []
    for name, shape, scale in [("softmax_i16", [3, 10], 1e-3), ("softmax_i16_rank3_odd", [2, 3, 13], 3e-4),
                               ("softmax_i16_wide_scale", [4, 7], 1e-2), ("softmax_i16_tiny_scale", [5, 6], 1e-6),
                               ("softmax_i16_one_class", [6, 1], 1e-3)]:
        cases.append((name, Chain(shape, I16, quant(scale)).op("SOFTMAX", I16, out, beta=1.0).model(),
                      [integers(rng, np.int16, shape)]))
    cases.append(("mixed_i8_softmax_i16_i8", Chain([2, 12], I8, quant(0.1, 5)).op("QUANTIZE", I16, quant(4e-4))
                  .op("SOFTMAX", I16, out, beta=1.0).op("QUANTIZE", I8, quant(1 / 256, -128)).model(),
                  [integers(rng, np.int8, [2, 12])]))
    return cases


def abs_cases(rng):
    """ABS of int16: equal scales (|-32768| saturates at 32767) and rescaled (TFLM's AbsEvalQuantized)."""
    I16 = tfl.INT16
    return [("abs_i16", Chain([3, 5, 7], I16, quant(1e-3)).op("ABS", I16, quant(1e-3)).model(),
             [integers(rng, np.int16, [3, 5, 7])]),
            ("abs_i16_rescale", Chain([50], I16, quant(2e-4)).op("ABS", I16, quant(3e-4)).model(),
             [integers(rng, np.int16, [50])])]


def linear_cases(rng):
    """CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED "16x8": int16 data, int8 weights (per-channel scales over
    several binades, or one scale), int64 biases (TFLM's int64 accumulator and MultiplyByQuantizedMultiplier)."""
    I8, I16, I64 = tfl.INT8, tfl.INT16, tfl.INT64
    cases = []

    def weighted(name, code, in_shape, w_shape, out_shape, qi, qo, w_scales, axis, bias=True, x=None, w=None, b=None,
                 **options):
        m = tfl.Model(new_opcodes=True)
        xt = m.tensor("x", in_shape, I16, quant=quant(qi))
        w = integers(rng, np.int8, w_shape, -127, 127) if w is None else np.asarray(w).reshape(w_shape)
        channels = w_shape[axis]
        scales = list(w_scales) if len(w_scales) == 1 else (list(w_scales) * channels)[:channels]  # one: per tensor
        wt = m.tensor("w", w_shape, I8, data=w, quant=dict(scale=scales, zero_point=[0] * len(scales), axis=axis))
        inputs = [xt, wt]
        if bias:
            if b is None:
                b = rng.randint(-(1 << 20), 1 << 20, size=channels).astype(np.int64)
            inputs.append(m.tensor("b", [channels], I64, data=np.asarray(b, dtype=np.int64),
                                   quant=dict(scale=[qi * s for s in scales], zero_point=[0] * len(scales))))
        yt = m.tensor("y", out_shape, I16, quant=quant(qo))
        m.inputs, m.outputs = [xt], [yt]
        m.op(code, inputs, [yt], **options)
        cases.append((name, m, [integers(rng, np.int16, in_shape) if x is None else x]))

    conv = dict(code="CONV_2D")
    per_channel = [0.004, 0.0007, 0.03, 0.0001]  # multipliers over several binades
    weighted("conv_i16_3x3_same_relu", in_shape=[1, 6, 7, 3], w_shape=[4, 3, 3, 3], out_shape=[1, 6, 7, 4], qi=2e-4,
             qo=1e-3, w_scales=per_channel, axis=0, padding=0, stride=(1, 1), act="RELU", **conv)
    weighted("conv_i16_1x1", in_shape=[1, 5, 5, 8], w_shape=[6, 1, 1, 8], out_shape=[1, 5, 5, 6], qi=3e-4, qo=2e-3,
             w_scales=per_channel, axis=0, padding=1, stride=(1, 1), **conv)
    weighted("conv_i16_1d_stride2", in_shape=[1, 1, 21, 4], w_shape=[5, 1, 5, 4], out_shape=[1, 1, 9, 5], qi=1e-4,
             qo=5e-4, w_scales=[0.01], axis=0, padding=1, stride=(1, 2), **conv)
    weighted("conv_i16_dilated_no_bias", in_shape=[1, 9, 8, 2], w_shape=[3, 3, 3, 2], out_shape=[1, 9, 8, 3], qi=2e-4,
             qo=4e-4, w_scales=per_channel, axis=0, bias=False, padding=0, stride=(1, 1), dilation=(2, 2), **conv)
    # Biases near +-2^46 (TFLM's int64 MultiplyByQuantizedMultiplier takes |x| < 2^47; its result, beyond int32
    # there, truncated to int32) and +2^33, -2^40 (rescaled within int32: saturated at 32767 and -32768).
    weighted("conv_i16_huge_bias", in_shape=[1, 3, 3, 2], w_shape=[4, 2, 2, 2], out_shape=[1, 2, 2, 4],
             qi=1e-3, qo=1e-3, w_scales=[0.002, 5e-5], axis=0, b=[(1 << 46) - 1, -(1 << 46), 1 << 33, -(1 << 40)],
             padding=1, stride=(1, 1), **conv)
    # 576 products of 2^22 each: beyond int32 (an int32 sum would wrap where TFLM's int64 one does not).
    weighted("conv_i16_int32_overflow", in_shape=[1, 3, 3, 64], w_shape=[2, 3, 3, 64], out_shape=[1, 1, 1, 2],
             qi=1e-4, qo=0.5, w_scales=[1e-3], axis=0, padding=1, stride=(1, 1),
             x=np.full([1, 3, 3, 64], -32768, np.int16), w=np.concatenate([np.full(576, -128), np.full(576, 127)]),
             **conv)
    depthwise = dict(code="DEPTHWISE_CONV_2D")
    weighted("depthwise_i16_3x3_relu6", in_shape=[1, 6, 6, 5], w_shape=[1, 3, 3, 5], out_shape=[1, 6, 6, 5], qi=2e-4,
             qo=1e-3, w_scales=per_channel, axis=3, padding=0, stride=(1, 1), multiplier=1, act="RELU6", **depthwise)
    weighted("depthwise_i16_multiplier2_stride2", in_shape=[1, 7, 6, 3], w_shape=[1, 3, 3, 6], out_shape=[1, 3, 2, 6],
             qi=3e-4, qo=6e-4, w_scales=per_channel, axis=3, padding=1, stride=(2, 2), multiplier=2, **depthwise)
    weighted("depthwise_i16_1d", in_shape=[1, 1, 16, 8], w_shape=[1, 1, 3, 8], out_shape=[1, 1, 14, 8], qi=1e-4,
             qo=3e-4, w_scales=[0.02], axis=3, padding=1, stride=(1, 1), multiplier=1, **depthwise)
    fully_connected = dict(code="FULLY_CONNECTED")
    weighted("fully_connected_i16_relu", in_shape=[2, 40], w_shape=[7, 40], out_shape=[2, 7], qi=2e-4, qo=1e-3,
             w_scales=[0.01], axis=0, act="RELU", **fully_connected)
    weighted("fully_connected_i16_per_channel", in_shape=[1, 64], w_shape=[10, 64], out_shape=[1, 10], qi=3e-4,
             qo=2e-3, w_scales=per_channel, axis=0, **fully_connected)
    weighted("fully_connected_i16_int32_overflow", in_shape=[1, 600], w_shape=[3, 600], out_shape=[1, 3], qi=1e-4,
             qo=0.5, w_scales=[1e-3], axis=0, x=np.full([1, 600], 32767, np.int16),
             w=np.concatenate([np.full(600, 127), np.full(600, -128), np.tile([127, -128], 300)]), **fully_connected)
    return cases


def add_mul_cases(rng):
    """ADD (TFLM's general int16 path: left shift 15, three multipliers in double, whatever the scales: TFLM
    never takes TFLite's power-of-two path) and MUL (one multiplier; zero points 0, as TFLM requires)."""
    I16 = tfl.INT16
    cases = []

    def binary(code, name, shape_a, shape_b, out_shape, qa, qb, qo, act=None, a=None, b=None):
        m = tfl.Model(new_opcodes=True)
        ta = m.tensor("a", shape_a, I16, quant=qa)
        tb = m.tensor("b", shape_b, I16, quant=qb)
        y = m.tensor("y", out_shape, I16, quant=qo)
        m.inputs, m.outputs = [ta, tb], [y]
        m.op(code, [ta, tb], [y], act=act)
        cases.append((name, m, [integers(rng, np.int16, shape_a) if a is None else a,
                                integers(rng, np.int16, shape_b) if b is None else b]))

    binary("ADD", "add_i16", [3, 5, 7], [3, 5, 7], [3, 5, 7], quant(1e-3), quant(2.7e-3), quant(3e-3))
    binary("ADD", "add_i16_broadcast_relu_saturating", [2, 3, 5], [5], [2, 3, 5], quant(4e-4), quant(3e-4), quant(1e-4),
           act="RELU")
    binary("ADD", "add_i16_broadcast_both_relu6", [4, 1, 3], [1, 5, 1], [4, 5, 3], quant(5e-4), quant(2e-4),
           quant(2.5e-4), act="RELU6")
    binary("ADD", "add_i16_pot_scales", [2, 33], [2, 33], [2, 33], quant(2.0 ** -10), quant(2.0 ** -12),
           quant(2.0 ** -10))
    binary("ADD", "add_i16_equal_scales_extremes", [4, 9], [4, 9], [4, 9], quant(1e-3), quant(1e-3), quant(1e-3),
           a=np.tile(np.array([32767, -32768, 32767, -32768, 1, -1, 16384, -16384, 0], np.int16), (4, 1)),
           b=np.tile(np.array([32767, -32768, -32768, 32767, -1, 0, 16384, -16385, 0], np.int16), (4, 1)))
    binary("ADD", "add_i16_zero_points", [3, 11], [11], [3, 11], quant(1e-3, 7), quant(6e-4, -300), quant(1.5e-3, 1000))
    binary("ADD", "add_i16_scalar", [1, 4, 4, 5], [1], [1, 4, 4, 5], quant(2e-4), quant(1e-2), quant(3e-4),
           b=np.array([57], np.int16))
    binary("MUL", "mul_i16", [3, 5, 7], [3, 5, 7], [3, 5, 7], quant(1e-2), quant(2e-2), quant(6.5))
    binary("MUL", "mul_i16_broadcast_saturating", [2, 3, 5], [5], [2, 3, 5], quant(3e-3), quant(2e-3), quant(1e-3))
    binary("MUL", "mul_i16_broadcast_both_relu", [3, 1, 4], [1, 5, 1], [3, 5, 4], quant(1e-3), quant(1e-3), quant(4e-2),
           act="RELU")
    binary("MUL", "mul_i16_pot_scales_relu6", [4, 17], [4, 17], [4, 17], quant(2.0 ** -8), quant(2.0 ** -9),
           quant(2.0 ** -12), act="RELU6")
    binary("MUL", "mul_i16_extremes", [9], [9], [9], quant(1e-3), quant(1e-3), quant(2e-3),
           a=np.array([32767, -32768, -32768, 32767, 1, -1, 181, -182, 0], np.int16),
           b=np.array([32767, -32768, 32767, 1, -1, -1, 181, 182, 0], np.int16))
    # SQUARED_DIFFERENCE (TFLM's PrepareQuantized at int16: left shift 0, zero points 0, the int16 range).
    binary("SQUARED_DIFFERENCE", "squared_difference_i16", [3, 5, 7], [3, 5, 7], [3, 5, 7], quant(1e-3), quant(2e-3),
           quant(0.3))
    binary("SQUARED_DIFFERENCE", "squared_difference_i16_broadcast_saturating", [2, 3, 5], [5], [2, 3, 5], quant(4e-3),
           quant(3e-3), quant(1.0))
    binary("SQUARED_DIFFERENCE", "squared_difference_i16_extremes", [8], [8], [8], quant(1e-3), quant(1e-3),
           quant(1.0 / 32), a=np.array([32767, -32768, -32768, 32767, 100, -100, 0, 5], np.int16),
           b=np.array([-32768, 32767, -32768, 32767, -100, 100, 0, -5], np.int16))
    return cases


def pool_cases(rng):
    """AVERAGE_POOL_2D and MAX_POOL_2D of int16 (TFLM's int16 pools: an int32 sum divided rounding half away from
    zero, padding taps not counted; input and output share a quantization, any zero point)."""
    I16 = tfl.INT16
    SAME, VALID = tfl.SAME, tfl.VALID
    cases = []

    def pool(code, name, in_shape, out_shape, padding, stride, filt, qi, act=None, x=None):
        chain = Chain(in_shape, I16, qi).op(code, I16, qi, shape=out_shape, padding=padding, stride=stride, filter=filt,
                                            act=act)
        cases.append((name, chain.model(), [integers(rng, np.int16, in_shape) if x is None else x]))

    pool("AVERAGE_POOL_2D", "avg_pool_i16_same_s2_odd_channels", [1, 7, 6, 5], [1, 4, 3, 5], SAME, (2, 2), (3, 3),
         quant(1e-3))
    pool("AVERAGE_POOL_2D", "avg_pool_i16_valid_relu6", [2, 6, 6, 3], [2, 3, 3, 3], VALID, (2, 2), (2, 2), quant(3e-4),
         act="RELU6")
    pool("AVERAGE_POOL_2D", "avg_pool_i16_whole_input", [1, 5, 5, 7], [1, 1, 1, 7], VALID, (1, 1), (5, 5), quant(2e-4))
    pool("AVERAGE_POOL_2D", "avg_pool_i16_zero_point_relu", [1, 6, 5, 3], [1, 6, 5, 3], SAME, (1, 1), (3, 2),
         quant(5e-4, 1200), act="RELU")
    pool("AVERAGE_POOL_2D", "avg_pool_i16_1d_extremes", [1, 1, 12, 2], [1, 1, 6, 2], VALID, (1, 2), (1, 2), quant(1e-3),
         x=np.array([32767, -32768, 32767, -32768, 32767, 32766, -32768, -32767, 1, 0, -1, 0, 2, 1, -2, -1, 3, 0, -3, 0,
                     -32768, 32767, 5, -5], np.int16).reshape(1, 1, 12, 2))
    pool("MAX_POOL_2D", "max_pool_i16_same_s2_odd_channels", [1, 7, 6, 5], [1, 4, 3, 5], SAME, (2, 2), (3, 3),
         quant(1e-3))
    pool("MAX_POOL_2D", "max_pool_i16_valid_relu", [2, 8, 8, 3], [2, 4, 4, 3], VALID, (2, 2), (2, 2), quant(2e-4),
         act="RELU")
    pool("MAX_POOL_2D", "max_pool_i16_1d_stride2_relu6", [1, 1, 21, 4], [1, 1, 10, 4], VALID, (1, 2), (1, 3),
         quant(3e-4), act="RELU6")
    pool("MAX_POOL_2D", "max_pool_i16_all_lowest", [1, 3, 3, 2], [1, 2, 2, 2], SAME, (2, 2), (2, 2), quant(1e-3),
         x=np.full([1, 3, 3, 2], -32768, np.int16))
    return cases


def slice_pad_cases(rng):
    """STRIDED_SLICE (masks, a negative stride, a shrunk axis), BROADCAST_TO and PADV2 (its value an int16
    constant quantized as the output) of int16: raw values moved."""
    I16, I32 = tfl.INT16, tfl.INT32
    q = quant(3e-4)
    cases = []
    cases.append(("strided_slice_i16_masks_negative_stride",
                  Chain([4, 6, 5], I16, q).op("STRIDED_SLICE", I16, q, shape=[3, 5],
                                              constants=[(np.array([3, 1, 0]), I32), (np.array([0, 0, 4]), I32),
                                                         (np.array([-1, 1, 1]), I32)],
                                              begin_mask=0, end_mask=0b010, shrink_axis_mask=0b100).model(),
                  [integers(rng, np.int16, [4, 6, 5])]))
    cases.append(("broadcast_to_i16",
                  Chain([3, 1, 5], I16, q).op("BROADCAST_TO", I16, q, shape=[2, 3, 4, 5],
                                              constants=[(np.array([2, 3, 4, 5]), I32)]).model(),
                  [integers(rng, np.int16, [3, 1, 5])]))
    cases.append(("strided_slice_i16_stride2",
                  Chain([1, 7, 7, 3], I16, q).op("STRIDED_SLICE", I16, q, shape=[1, 4, 3, 3],
                                                 constants=[(np.array([0, 0, 1, 0]), I32),
                                                            (np.array([1, 7, 7, 3]), I32),
                                                            (np.array([1, 2, 2, 1]), I32)]).model(),
                  [integers(rng, np.int16, [1, 7, 7, 3])]))
    for name, value in [("padv2_i16_lowest_value", -32768), ("padv2_i16_highest_value", 32767)]:
        cases.append((name, gen_op_tests_transpose_conv.padv2([2, 3, 5], [[1, 0], [1, 2], [0, 2]], value, I16,
                                                              quant=(3e-4, 0)), [integers(rng, np.int16, [2, 3, 5])]))
    return cases


def prelu_model(in_shape, alpha, alpha_type, qx, qa, qy):
    """One PRELU of an int16 model input by a constant alpha (TFLM's int16 PRELU takes an int8 alpha only)."""
    m = tfl.Model(new_opcodes=True)
    x = m.tensor("x", in_shape, tfl.INT16, quant=qx)
    a = m.tensor("alpha", list(np.shape(alpha)), alpha_type, data=np.asarray(alpha), quant=qa)
    y = m.tensor("y", in_shape, tfl.INT16, quant=qy)
    m.inputs, m.outputs = [x], [y]
    m.op("PRELU", [x, a], [y])
    return m


def prelu_cases(rng):
    """PRELU of int16 with an int8 alpha (TFLM's CalculatePreluParams: both multipliers in double; any zero
    points): per-channel alpha of both signs, a scalar alpha, zero points other than 0, saturating."""
    I8 = tfl.INT8
    cases = []
    for name, shape, alpha, qx, qa, qy in [
            ("prelu_i16_per_channel", [1, 4, 5, 3], np.array([25, -40, 127], np.int8).reshape(1, 1, 3), quant(1e-3),
             quant(0.01), quant(1.5e-3)),
            ("prelu_i16_scalar_alpha_saturating", [3, 17], np.array([-128], np.int8), quant(2e-4), quant(0.05),
             quant(1e-4)),
            ("prelu_i16_zero_points", [2, 3, 7], np.array([10, -3, 50, 127, -128, 0, 64], np.int8), quant(5e-4, 100),
             quant(0.02, -5), quant(7e-4, -250))]:
        cases.append((name, prelu_model(shape, alpha, I8, qx, qa, qy), [integers(rng, np.int16, shape)]))
    return cases


def uint8_cases(rng):
    """uint8 where TFLM runs it: QUANTIZE to and from int8 (Requantize: QuantizeMultiplier of the scale ratio,
    both zero points), DEQUANTIZE to float32, and the byte moves; models with uint8 edges around int8 ops."""
    U8, I8, I32, FLOAT32 = tfl.UINT8, tfl.INT8, tfl.INT32, tfl.FLOAT32
    cases = []

    def add(name, chain, inputs):
        cases.append((name, chain.model(), inputs))

    every_u8 = np.arange(256, dtype=np.uint8)
    every_i8 = np.arange(-128, 128, dtype=np.int8)
    # uint8 -> int8: equal scales, zero points 128 apart (the converter's input edge); zero point 0 with a ratio
    # above 1 (saturating both ways); zero point 255 with a ratio below 1; zero point 128 to an int8 zero point
    # other than 0.
    add("quantize_u8_to_i8_shift128", Chain([4, 64], U8, quant(0.02, 128)).op("QUANTIZE", I8, quant(0.02, 0)),
        [every_u8.reshape(4, 64)])
    add("quantize_u8_to_i8_zero_point0_ratio_above1", Chain([2, 8, 16], U8, quant(0.05, 0))
        .op("QUANTIZE", I8, quant(0.0123, -20)), [every_u8.reshape(2, 8, 16)])
    add("quantize_u8_to_i8_zero_point255_ratio_below1", Chain([1, 16, 16], U8, quant(0.003, 255))
        .op("QUANTIZE", I8, quant(0.0071, 9)), [every_u8.reshape(1, 16, 16)])
    add("quantize_u8_to_i8_zero_point128_rescale", Chain([3, 5, 7], U8, quant(1.0 / 255, 128))
        .op("QUANTIZE", I8, quant(0.0078125, -7)), [integers(rng, np.uint8, [3, 5, 7])])
    # int8 -> uint8: the output edge (equal scales, zero points 128 apart), zero points 0 and 255, ratios above and
    # below 1.
    add("quantize_i8_to_u8_shift128", Chain([256], I8, quant(0.1, -5)).op("QUANTIZE", U8, quant(0.1, 123)),
        [every_i8])
    add("quantize_i8_to_u8_zero_point0_ratio_above1", Chain([16, 16], I8, quant(0.04, 3))
        .op("QUANTIZE", U8, quant(0.015, 0)), [every_i8.reshape(16, 16)])
    add("quantize_i8_to_u8_zero_point255_ratio_below1", Chain([1, 4, 4, 16], I8, quant(0.002, -100))
        .op("QUANTIZE", U8, quant(0.0055, 255)), [every_i8.reshape(1, 4, 4, 16)])
    add("quantize_i8_to_u8_zero_point128", Chain([5, 9], I8, quant(0.25, 0)).op("QUANTIZE", U8, quant(0.3, 128)),
        [integers(rng, np.int8, [5, 9])])
    # uint8 -> float32.
    add("dequantize_u8_zero_point128", Chain([2, 128], U8, quant(0.0235, 128)).op("DEQUANTIZE", FLOAT32),
        [every_u8.reshape(2, 128)])
    add("dequantize_u8_zero_point0", Chain([256], U8, quant(1.0 / 255, 0)).op("DEQUANTIZE", FLOAT32), [every_u8])
    add("dequantize_u8_zero_point255_tiny_scale", Chain([8, 32], U8, quant(3.3e-7, 255)).op("DEQUANTIZE", FLOAT32),
        [every_u8.reshape(8, 32)])
    # The byte moves TFLM runs on uint8, each before the input edge's QUANTIZE or as the whole model.
    q = quant(0.02, 128)
    add("reverse_v2_u8", Chain([3, 4, 5], U8, q).op("REVERSE_V2", U8, q, constants=[(np.array([1, 2]), I32)]),
        [integers(rng, np.uint8, [3, 4, 5])])
    add("reshape_u8_quantize_i8", Chain([2, 3, 5], U8, q).op("RESHAPE", U8, q, shape=[5, 6],
                                                             constants=[(np.array([5, 6]), I32)])
        .op("QUANTIZE", I8, quant(0.02, 0)), [integers(rng, np.uint8, [2, 3, 5])])
    add("squeeze_u8", Chain([1, 7, 1, 3], U8, q).op("SQUEEZE", U8, q, shape=[7, 3], squeeze_dims=[0, 2]),
        [integers(rng, np.uint8, [1, 7, 1, 3])])
    add("broadcast_to_u8", Chain([3, 1, 5], U8, q).op("BROADCAST_TO", U8, q, shape=[2, 3, 4, 5],
                                                      constants=[(np.array([2, 3, 4, 5]), I32)]),
        [integers(rng, np.uint8, [3, 1, 5])])
    # uint8 in, uint8 out, an int8 op between the QUANTIZEs (as the converter writes them).
    cases.append(("uint8_edges_add_i8", uint8_edges_add(), [integers(rng, np.uint8, [1, 4, 4, 3])]))
    cases.append(("uint8_edges_conv_i8", uint8_edges_conv(rng), [integers(rng, np.uint8, [1, 6, 6, 3])]))
    return cases


def uint8_edges_add():
    """uint8 input -> QUANTIZE (int8, zero point 128 apart) -> int8 ADD of a constant -> QUANTIZE -> uint8
    output."""
    I8, U8 = tfl.INT8, tfl.UINT8
    m = tfl.Model(new_opcodes=True)
    x = m.tensor("x", [1, 4, 4, 3], U8, quant=quant(0.03, 128))
    xi = m.tensor("x_int8", [1, 4, 4, 3], I8, quant=quant(0.03, 0))
    c = m.tensor("bias", [3], I8, data=np.array([-100, 7, 90], np.int8), quant=quant(0.02, -4))
    yi = m.tensor("y_int8", [1, 4, 4, 3], I8, quant=quant(0.045, 6))
    y = m.tensor("y", [1, 4, 4, 3], U8, quant=quant(0.045, 134))
    m.inputs, m.outputs = [x], [y]
    m.op("QUANTIZE", [x], [xi])
    m.op("ADD", [xi, c], [yi], act="RELU")
    m.op("QUANTIZE", [yi], [y])
    return m


def uint8_edges_conv(rng):
    """uint8 input -> QUANTIZE -> int8 CONV_2D (per-channel weights, int32 bias) -> QUANTIZE -> uint8 output."""
    I8, U8, I32 = tfl.INT8, tfl.UINT8, tfl.INT32
    m = tfl.Model(new_opcodes=True)
    scales = [0.004, 0.011, 0.0025, 0.02]
    x = m.tensor("image", [1, 6, 6, 3], U8, quant=quant(1.0 / 255, 0))
    xi = m.tensor("image_int8", [1, 6, 6, 3], I8, quant=quant(1.0 / 255, -128))
    w = m.tensor("w", [4, 3, 3, 3], I8, data=integers(rng, np.int8, [4, 3, 3, 3], -127, 127),
                 quant=dict(scale=scales, zero_point=[0] * 4, axis=0))
    b = m.tensor("b", [4], I32, data=rng.randint(-3000, 3000, size=4).astype(np.int32),
                 quant=dict(scale=[s / 255 for s in scales], zero_point=[0] * 4))
    yi = m.tensor("features_int8", [1, 6, 6, 4], I8, quant=quant(0.012, -3))
    y = m.tensor("features", [1, 6, 6, 4], U8, quant=quant(0.009, 100))
    m.inputs, m.outputs = [x], [y]
    m.op("QUANTIZE", [x], [xi])
    m.op("CONV_2D", [xi, w, b], [yi], padding=0, stride=(1, 1))
    m.op("QUANTIZE", [yi], [y])
    return m


def refused_uint8_models():
    """The uint8 models TFLM refuses, for the tools' error tests (tests/data/tflite/)."""
    U8, I8, I32 = tfl.UINT8, tfl.INT8, tfl.INT32
    m = tfl.Model(new_opcodes=True)  # an old fully-uint8 model: uint8 CONV_2D (uint8 weights), then a uint8 ADD
    x = m.tensor("image", [1, 4, 4, 2], U8, quant=quant(1.0 / 255, 0))
    w = m.tensor("w", [3, 1, 1, 2], U8, data=np.arange(6).reshape(3, 1, 1, 2) * 40, quant=quant(0.01, 120))
    b = m.tensor("b", [3], I32, data=np.array([5, -5, 0]), quant=quant(0.01 / 255, 0))
    t = m.tensor("conv", [1, 4, 4, 3], U8, quant=quant(0.02, 10))
    y = m.tensor("sum", [1, 4, 4, 3], U8, quant=quant(0.04, 5))
    m.inputs, m.outputs = [x], [y]
    m.op("CONV_2D", [x, w, b], [t], padding=0, stride=(1, 1))
    m.op("ADD", [t, t], [y])
    (op_tests.OPS_DIR.parent / "tflite" / "uint8_conv.tflite").write_bytes(m.serialize())
    m = tfl.Model(new_opcodes=True)  # uint8 edges around a uint8 ADD (TFLM's ADD takes no uint8)
    x = m.tensor("x", [1, 8], U8, quant=quant(0.05, 128))
    s = m.tensor("x_plus_x", [1, 8], U8, quant=quant(0.1, 128))
    y = m.tensor("y", [1, 8], I8, quant=quant(0.1, 0))
    m.inputs, m.outputs = [x], [y]
    m.op("ADD", [x, x], [s])
    m.op("QUANTIZE", [s], [y])
    (op_tests.OPS_DIR.parent / "tflite" / "uint8_add.tflite").write_bytes(m.serialize())
    # QUANTIZE float32 -> uint8 (TFLM's Prepare takes the pair, its Eval fails it) and int8 -> uint8 without a
    # result scale (TFLM's Prepare requires one).
    for name, in_type, in_q, out_q in [("uint8_quantize_from_f32", tfl.FLOAT32, None, quant(0.1, 128)),
                                       ("uint8_quantize_unscaled", I8, quant(0.1, 0), None)]:
        m = tfl.Model(new_opcodes=True)
        x = m.tensor("x", [1, 8], in_type, quant=in_q)
        y = m.tensor("y", [1, 8], U8, quant=out_q)
        m.inputs, m.outputs = [x], [y]
        m.op("QUANTIZE", [x], [y])
        (op_tests.OPS_DIR.parent / "tflite" / f"{name}.tflite").write_bytes(m.serialize())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tflm", metavar="TFLM_RUN", help="the TFLM host oracle: records the cases' outputs")
    args = parser.parse_args()
    family = op_tests.Family("int16", args.tflm)
    rng = np.random.RandomState(1616)
    cases = (quantize_cases(rng) + data_movement_cases(rng) + activation_cases(rng) + logistic_tanh_cases(rng) +
             arithmetic_cases(rng) + softmax_cases(rng) + abs_cases(rng) + linear_cases(np.random.RandomState(1626)) +
             add_mul_cases(np.random.RandomState(1636)) + pool_cases(np.random.RandomState(1646)) +
             slice_pad_cases(np.random.RandomState(1656)) + prelu_cases(np.random.RandomState(1666)) +
             uint8_cases(np.random.RandomState(1676)) + int8_op_table_cases(np.random.RandomState(1686)))
    for name, m, inputs in cases:
        family.write_case(name, m, inputs)
    family.finish()
    refused_models()
    refused_uint8_models()


if __name__ == "__main__":
    main()
