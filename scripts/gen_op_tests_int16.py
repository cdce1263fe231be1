#!/usr/bin/env python3
"""Writes the op-conformance cases of the int16 family (TFLite's 16x8 quantization: int16 activations, zero
point 0): tests/data/ops/int16/<case>/ with model.tflite, input_<k>.bin and output_<k>.bin (raw little-endian,
the model's own types). Outputs from TensorFlow Lite Micro's reference kernels through the host oracle
tflm_run, only with --tflm (without it the committed outputs are kept, scripts/op_tests.py).

  QUANTIZE: float32 -> int16 (ties, saturation at -32768/32767, tiny and huge scales), int8 -> int16,
    int16 -> int8, int16 -> int16 (rescaled, saturating), int16 -> int32, int32 -> int16; DEQUANTIZE int16 ->
    float32; chains float32 -> int16 -> float32 and int8 -> int16 -> int8 (mixed models).

Deterministic: every input comes from a fixed seed, so re-running reproduces every file byte for byte.

Usage: /usr/bin/python3 scripts/gen_op_tests_int16.py [--tflm /work/oracle/tflm/tflm_run]
"""
import argparse

import numpy as np

import op_tests
from op_tests import tfl

F32 = np.float32


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tflm", metavar="TFLM_RUN", help="the TFLM host oracle: records the cases' outputs")
    args = parser.parse_args()
    family = op_tests.Family("int16", args.tflm)
    rng = np.random.RandomState(1616)
    for name, m, inputs in quantize_cases(rng):
        family.write_case(name, m, inputs)
    family.finish()


if __name__ == "__main__":
    main()
