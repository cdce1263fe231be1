#!/usr/bin/env python3
"""Writes the op-conformance cases of the spatial family: tests/data/ops/spatial/<case>/ with model.tflite or
model.onnx, input_<k>.bin and output_<k>.bin (raw little-endian, the model's own types and layouts).
PROVENANCE.md in that folder says what produced each file.

  TFLite ops: RESIZE_NEAREST_NEIGHBOR, RESIZE_BILINEAR (align_corners, half_pixel_centers; float32 and int8),
  MIRROR_PAD (REFLECT, SYMMETRIC), SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND (rank 3 and 4). Outputs from TensorFlow
  Lite Micro's reference kernels (the host oracle tflm_run) with --tflm, else the committed ones; either way they
  must equal this script's NumPy model of TFLM's kernels (below) bit for bit.
  ONNX ops (float32): Resize (nearest with every nearest_mode, linear; coordinate_transformation_mode
  half_pixel, asymmetric, align_corners, pytorch_half_pixel, half_pixel_symmetric, tf_half_pixel_for_nn;
  scales or sizes, axes, keep_aspect_ratio_policy), Upsample, Pad (reflect, edge, wrap), LpPool (p 1, 2, 3; 1-D and
  2-D; pads, strides, dilations, ceil_mode, SAME_UPPER), LRN (odd and even size, attributes, rank 3). Outputs
  from a NumPy float64 implementation of ONNX's definitions, rounded to float32 (LpPool's and LRN's also equal
  onnxruntime 1.30.0's: scripts/check_onnx_cases_with_ort.py).

Deterministic: every input comes from a fixed seed, so re-running reproduces every file byte for byte.

Usage: /usr/bin/python3 scripts/gen_op_tests_spatial.py [--tflm /work/oracle/tflm/tflm_run]
"""
import argparse

import numpy as np

import op_tests
from op_tests import tfl

FLOAT32, INT8, INT16, INT32 = tfl.FLOAT32, tfl.INT8, tfl.INT16, tfl.INT32
F32 = np.float32

# The builtin codes and options (BuiltinOptions union tags, schema.fbs) of the TFLite ops written here.
tfl.OPS.update({"RESIZE_NEAREST_NEIGHBOR": 97, "RESIZE_BILINEAR": 23, "MIRROR_PAD": 100, "SPACE_TO_BATCH_ND": 38,
                "BATCH_TO_SPACE_ND": 37, "ADD_N": 106, "BROADCAST_TO": 130, "L2_NORMALIZATION": 11})
tfl.OPTIONS.update({"RESIZE_NEAREST_NEIGHBOR": 74, "RESIZE_BILINEAR": 15, "MIRROR_PAD": 77, "SPACE_TO_BATCH_ND": 25,
                    "BATCH_TO_SPACE_ND": 24, "L2_NORMALIZATION": 12})
_writer_options = tfl.options_table


def options_table(code: str, o: dict, va: bool):
    """The options of this family's ops (fields as schema.fbs numbers them; defaults omitted, as writers do)."""
    flags = lambda first: {first + k: ("bool", 1) for k, name in enumerate(["align_corners", "half_pixel_centers"])
                           if o.get(name)}
    fields = {
        "RESIZE_NEAREST_NEIGHBOR": lambda: flags(0),
        "RESIZE_BILINEAR": lambda: flags(2),
        "MIRROR_PAD": lambda: {0: ("i8", o["mode"])} if o.get("mode") else {},
        "SPACE_TO_BATCH_ND": lambda: {}, "BATCH_TO_SPACE_ND": lambda: {},
    }
    if code in ("ADD_N", "BROADCAST_TO"):
        return None
    if code == "L2_NORMALIZATION":
        return tfl.Table({0: ("i8", tfl.ACT[o.get("act")])} if o.get("act") else {}, va)
    if code in fields:
        return tfl.Table(fields[code](), va)
    return _writer_options(code, o, va)


tfl.options_table = options_table


# ----------------------------------------------------------------------------------------------------
# NumPy models of TFLM's reference kernels (resize_nearest_neighbor.h, resize_bilinear.h, mirror_pad.cc,
# space_to_batch_nd.h, batch_to_space_nd.h), in float32 where TFLM computes in float.

def tflite_scale(n_in, n_out, align_corners):
    return F32(n_in - 1) / F32(n_out - 1) if align_corners and n_out > 1 else F32(n_in) / F32(n_out)


def nearest_index(x, n_in, n_out, align_corners, half_pixel_centers):
    v = (F32(x) + F32(0.5 if half_pixel_centers else 0.0)) * tflite_scale(n_in, n_out, align_corners)
    i = int(np.floor(v + F32(0.5))) if align_corners and v - np.floor(v) >= 0.5 else int(np.floor(v))
    i = min(i, n_in - 1)
    return max(i, 0) if half_pixel_centers else i


def resize_nearest_ref(x, size, align_corners=False, half_pixel_centers=False):
    n, h, w, c = x.shape
    ys = [nearest_index(i, h, size[0], align_corners, half_pixel_centers) for i in range(size[0])]
    xs = [nearest_index(i, w, size[1], align_corners, half_pixel_centers) for i in range(size[1])]
    return x[:, ys][:, :, xs]


def bilinear_source(i, scale, half_pixel_centers, n_in):
    at = (F32(i) + F32(0.5)) * scale - F32(0.5) if half_pixel_centers else F32(i) * scale
    return at, max(int(np.floor(at)), 0), min(int(np.ceil(at)), n_in - 1)


def resize_bilinear_ref(x, size, align_corners=False, half_pixel_centers=False):
    n, h, w, c = x.shape
    y = np.empty((n, size[0], size[1], c), x.dtype)
    if x.dtype == np.int8:  # ResizeBilinearInteger: 1/1024ths, rounded half away from zero
        def scale_10(n_in, n_out):
            if align_corners and n_out > 1:
                return ((1 << 10) * (n_in - 1) + (n_out - 1) // 2) // (n_out - 1)
            return ((1 << 10) * n_in + n_out // 2) // n_out

        def source(i, scale, n_in):
            at = i * scale + scale // 2 - (1 << 9) if half_pixel_centers else i * scale
            low = int(at / (1 << 10))  # C++'s division truncates
            high = int((at + (1 << 10) - 1) / (1 << 10))
            return at, max(low, 0), min(high, n_in - 1)
        sh, sw = scale_10(h, size[0]), scale_10(w, size[1])
        for oy in range(size[0]):
            ay, y0, y1 = source(oy, sh, h)
            dy = ay - (1 << 10) * y0
            for ox in range(size[1]):
                ax, x0, x1 = source(ox, sw, w)
                dx = ax - (1 << 10) * x0
                v = (x[:, y0, x0].astype(np.int64) * ((1 << 10) - dy) * ((1 << 10) - dx) +
                     x[:, y1, x0].astype(np.int64) * dy * ((1 << 10) - dx) +
                     x[:, y0, x1].astype(np.int64) * ((1 << 10) - dy) * dx + x[:, y1, x1].astype(np.int64) * dy * dx)
                r = np.where(v > 0, 1 << 19, -(1 << 19))
                y[:, oy, ox] = np.trunc((v + r) / (1 << 20)).astype(np.int8)
        return y
    sh, sw = tflite_scale(h, size[0], align_corners), tflite_scale(w, size[1], align_corners)
    one = F32(1)
    for oy in range(size[0]):
        ay, y0, y1 = bilinear_source(oy, sh, half_pixel_centers, h)
        dy = ay - F32(y0)
        for ox in range(size[1]):
            ax, x0, x1 = bilinear_source(ox, sw, half_pixel_centers, w)
            dx = ax - F32(x0)
            y[:, oy, ox] = (x[:, y0, x0] * (one - dy) * (one - dx) + x[:, y1, x0] * dy * (one - dx) +
                            x[:, y0, x1] * (one - dy) * dx + x[:, y1, x1] * dy * dx + F32(0))  # TFLM adds 0: -0 is +0
    return y


def mirror_pad_ref(x, pads, mode):
    return np.pad(x, pads, mode="reflect" if mode == 0 else "symmetric")


def space_to_batch_ref(x, block, pads, pad_value=0):
    squeeze = x.ndim == 3
    if squeeze:
        x, block, pads = x[:, :, None, :], list(block) + [1], list(pads) + [[0, 0]]
    x = np.pad(x, [[0, 0], pads[0], pads[1], [0, 0]], constant_values=pad_value)
    n, h, w, c = x.shape
    y = x.reshape(n, h // block[0], block[0], w // block[1], block[1], c).transpose(2, 4, 0, 1, 3, 5)
    y = y.reshape(block[0] * block[1] * n, h // block[0], w // block[1], c)
    return y[:, :, 0, :] if squeeze else y


def batch_to_space_ref(x, block, crops):
    squeeze = x.ndim == 3
    if squeeze:
        x, block, crops = x[:, :, None, :], list(block) + [1], list(crops) + [[0, 0]]
    b, h, w, c = x.shape
    n = b // (block[0] * block[1])
    y = x.reshape(block[0], block[1], n, h, w, c).transpose(2, 3, 0, 4, 1, 5).reshape(n, h * block[0], w * block[1], c)
    y = y[:, crops[0][0]:h * block[0] - crops[0][1], crops[1][0]:w * block[1] - crops[1][1]]
    return y[:, :, 0, :] if squeeze else y


def add_n_ref(xs, quant=None):
    """TFLM's AddN: float 0 plus each input in order; int8 (every input quantized alike) the scaled inputs
    summed from the scaled input offset (its "x = 0"), rescaled to the output, clamped."""
    if quant is None:
        y = np.zeros_like(xs[0])
        for x in xs:
            y = (y + x).astype(F32)
        return y
    (si, zi), (so, zo) = quant
    m_in, s_in = tfl.quantize_multiplier(float(F32(si)) / (2 * float(F32(si))))
    m_out, s_out = tfl.quantize_multiplier(2 * float(F32(si)) / ((1 << 20) * float(F32(so))))

    def rescale(v, m, shift):  # MultiplyByQuantizedMultiplierSmallerThanOneExp (shift <= 0)
        return tfl.rounding_divide_by_pot(tfl.rounding_doubling_high_mul(v, m), -shift)
    y = np.empty(xs[0].shape, np.int8)
    for idx in np.ndindex(y.shape):
        total = rescale(-zi * (1 << 20), m_in, s_in)
        for x in xs:
            total += rescale((int(x[idx]) - zi) * (1 << 20), m_in, s_in)
        y[idx] = min(127, max(-128, rescale(total, m_out, s_out) + zo))
    return y


def inv_sqrt_multiplier(x):
    """TFLite's GetInvSqrtQuantizedMultiplierExp(x, kReverseShift): (multiplier, left shift)."""
    if x <= 1:
        return (1 << 31) - 1, 0
    shift = 11
    while x >= (1 << 29):
        x //= 4
        shift += 1
    pairs = (32 - x.bit_length() - 1) // 2 - 1
    shift -= pairs
    x <<= 2 * pairs
    half = tfl.rounding_divide_by_pot(x >> 1, 1)  # SaturatingRoundingMultiplyByPOT<-1>

    def mul(a, b):  # a fixed-point product: SaturatingRoundingDoublingHighMul
        return tfl.rounding_doubling_high_mul(a, b)

    def rescale(v, by):  # Rescale<3> of a product of integer bits `by`: SaturatingRoundingMultiplyByPOT<by - 3>
        v = v * (1 << (by - 3))
        return max(-(1 << 31), min((1 << 31) - 1, v))
    e = 1 << 28
    for _ in range(5):
        cube = rescale(mul(mul(e, e), e), 9)
        e = rescale(mul((1 << 28) + (1 << 27), e) - mul(half, cube), 6)
    m = mul(e, 1518500250)
    if shift < 0:
        m = (m << -shift) & 0xFFFFFFFF
        m = m - (1 << 32) if m >= (1 << 31) else m
        shift = 0
    return m, -shift


def multiply_by_quantized_multiplier(x, m, shift):
    left, right = max(shift, 0), max(-shift, 0)
    v = (x * (1 << left)) & 0xFFFFFFFF
    v = v - (1 << 32) if v >= (1 << 31) else v
    return tfl.rounding_divide_by_pot(tfl.rounding_doubling_high_mul(v, m), right)


def l2_norm_ref(x, zero_point=None):
    """TFLM's L2Normalization over the last axis: float (squares summed in float32, sqrt, at least 1e-6), or
    int8 (the inverse square root multiplier of the squared differences from the zero point, 7 more shift)."""
    if zero_point is None:
        y = np.empty_like(x)
        for idx in np.ndindex(x.shape[:-1]):
            v = x[idx]
            squared = F32(0)
            for e in v:
                squared = F32(squared + F32(e * e))
            y[idx] = v / max(np.sqrt(squared), F32(1e-6))
        return y
    y = np.empty_like(x)
    for idx in np.ndindex(x.shape[:-1]):
        centred = [int(e) - zero_point for e in x[idx]]
        m, shift = inv_sqrt_multiplier(sum(c * c for c in centred))
        y[idx] = [min(127, max(-128, multiply_by_quantized_multiplier(c, m, shift + 7))) for c in centred]
    return y


# ----------------------------------------------------------------------------------------------------
# TFLite cases: (name, builder). A builder returns (model, inputs, NumPy outputs).

def q(scale, zero_point):
    return dict(scale=[scale], zero_point=[zero_point])


def data(rng, shape, dtype):
    """Inputs spanning the type: int8 over the whole range (-128 and 127 included), float32 with signed zeros."""
    if dtype in (INT8, INT16):
        info = np.iinfo(np.int8 if dtype == INT8 else np.int16)
        x = rng.integers(info.min, info.max, size=shape, endpoint=True).astype(info.dtype)
        flat = x.reshape(-1)
        flat[0], flat[-1] = info.min, info.max
        return x
    x = rng.uniform(-4, 4, size=shape).astype(F32)
    x.reshape(-1)[0] = -0.0
    return x


def single_op(code, shape, out_shape, dtype, quant, constants=(), **options):
    """A model of one op: input 0 (a graph input), then int32 constants (list of (name, values)), one output."""
    m = tfl.Model(new_opcodes=True)
    x = m.tensor("input", shape, dtype, quant=quant)
    operands = [x]
    for name, values in constants:
        values = np.asarray(values, dtype=np.int32)
        operands.append(m.tensor(name, list(values.shape), INT32, data=values))
    y = m.tensor("output", out_shape, dtype, quant=quant)
    m.inputs, m.outputs = [x], [y]
    m.op(code, operands, [y], **options)
    return m


def quant_of(dtype, scale=0.05, zero_point=-3):
    """int8: the given quantization; int16: symmetric (TFLite's 16x8 scheme); float32: none."""
    return q(scale, zero_point) if dtype == INT8 else q(scale, 0) if dtype == INT16 else None


def case_resize(code, shape, size, dtype, seed, align_corners=False, half_pixel_centers=False, quant=(0.05, -3)):
    def build():
        x = data(np.random.default_rng(seed), shape, dtype)
        out = [shape[0], size[0], size[1], shape[3]]
        m = single_op(code, shape, out, dtype, quant_of(dtype, *quant), [("size", size)], align_corners=align_corners,
                      half_pixel_centers=half_pixel_centers)
        ref = resize_nearest_ref if code == "RESIZE_NEAREST_NEIGHBOR" else resize_bilinear_ref
        return m, [x], [ref(x, size, align_corners, half_pixel_centers)]
    return build


def case_mirror_pad(shape, pads, mode, dtype, seed, pads_type=INT32):
    def build():
        x = data(np.random.default_rng(seed), shape, dtype)
        y = mirror_pad_ref(x, pads, mode)
        m = tfl.Model(new_opcodes=True)
        xi = m.tensor("input", shape, dtype, quant=quant_of(dtype))
        pi = m.tensor("paddings", [len(pads), 2], pads_type, data=np.asarray(pads))
        yi = m.tensor("output", list(y.shape), dtype, quant=quant_of(dtype))
        m.inputs, m.outputs = [xi], [yi]
        m.op("MIRROR_PAD", [xi, pi], [yi], mode=mode)
        return m, [x], [y]
    return build


def case_space_batch(code, shape, block, margins, dtype, seed, quant=(0.05, -3)):
    def build():
        x = data(np.random.default_rng(seed), shape, dtype)
        if code == "SPACE_TO_BATCH_ND":
            y = space_to_batch_ref(x, block, margins, quant[1] if dtype == INT8 else 0)
        else:
            y = batch_to_space_ref(x, block, margins)
        m = single_op(code, shape, list(y.shape), dtype, quant_of(dtype, *quant), [("block_shape", block), ("margins", margins)])
        return m, [x], [y]
    return build


def case_add_n(shape, count, dtype, seed, quant_in=(0.05, -3), quant_out=(0.1, 5)):
    def build():
        rng = np.random.default_rng(seed)
        xs = [data(rng, shape, dtype) for _ in range(count)]
        m = tfl.Model(new_opcodes=True)
        qi, qo = (q(*quant_in), q(*quant_out)) if dtype == INT8 else (None, None)
        ins = [m.tensor(f"input{k}", shape, dtype, quant=qi) for k in range(count)]
        y = m.tensor("output", shape, dtype, quant=qo)
        m.inputs, m.outputs = ins, [y]
        m.op("ADD_N", ins, [y])
        return m, xs, [add_n_ref(xs, (quant_in, quant_out) if dtype == INT8 else None)]
    return build


def case_add_n_of_parts(shape, count, seed):
    """ADD_N of the `count` parts of a SPLIT along axis 0 (a model has at most 8 inputs in ctnn): more operands
    than an IR node holds (issue #28) go through add_n nodes chained in TFLM's order."""
    def build():
        import gen_op_tests_shape  # noqa: F401  (SPLIT's code and options, added to the writer's)
        x = data(np.random.default_rng(seed), [count] + shape, FLOAT32)
        m = tfl.Model(new_opcodes=True)
        t = m.tensor("input", [count] + shape, FLOAT32)
        axis = m.tensor("axis", [], INT32, data=np.array(0, dtype=np.int32))
        parts = [m.tensor(f"part{k}", [1] + shape, FLOAT32) for k in range(count)]
        y = m.tensor("output", [1] + shape, FLOAT32)
        m.inputs, m.outputs = [t], [y]
        m.op("SPLIT", [axis, t], parts, num_splits=count)
        m.op("ADD_N", parts, [y])
        return m, [x], [add_n_ref([x[k:k + 1] for k in range(count)])]
    return build


def case_broadcast_to(shape, target, dtype, seed, shape_type=INT32):
    def build():
        x = data(np.random.default_rng(seed), shape, dtype)
        m = tfl.Model(new_opcodes=True)
        qx = quant_of(dtype, 0.3, 100)
        xi = m.tensor("input", shape, dtype, quant=qx)
        si = m.tensor("shape", [len(target)], shape_type, data=np.asarray(target))
        y = m.tensor("output", target, dtype, quant=qx)
        m.inputs, m.outputs = [xi], [y]
        m.op("BROADCAST_TO", [xi, si], [y])
        return m, [x], [np.broadcast_to(x, target).copy()]
    return build


def case_l2_norm(shape, dtype, seed, quant_in=(0.05, -3), quant_out=(1 / 128, 0), zero_rows=0, spread=None):
    def build():
        x = data(np.random.default_rng(seed), shape, dtype)
        if spread is not None:  # int8 inputs near the zero point (small squared sums)
            x = np.clip(np.random.default_rng(seed).integers(-spread, spread, size=shape, endpoint=True) + quant_in[1],
                        -128, 127).astype(np.int8)
        rows = x.reshape(-1, shape[-1])
        rows[:zero_rows] = quant_in[1] if dtype == INT8 else 0
        m = tfl.Model(new_opcodes=True)
        qi, qo = (q(*quant_in), q(*quant_out)) if dtype == INT8 else (None, None)
        xi = m.tensor("input", shape, dtype, quant=qi)
        y = m.tensor("output", shape, dtype, quant=qo)
        m.inputs, m.outputs = [xi], [y]
        m.op("L2_NORMALIZATION", [xi], [y])
        return m, [x], [l2_norm_ref(x, quant_in[1] if dtype == INT8 else None)]
    return build


R_NN, R_BL = "RESIZE_NEAREST_NEIGHBOR", "RESIZE_BILINEAR"
TFLITE_CASES = {
    "resize_nearest_f32_up": case_resize(R_NN, [1, 3, 4, 2], [7, 9], FLOAT32, 1),
    "resize_nearest_f32_down_align_corners": case_resize(R_NN, [2, 7, 5, 3], [3, 4], FLOAT32, 2, align_corners=True),
    "resize_nearest_f32_half_pixel": case_resize(R_NN, [1, 5, 3, 2], [8, 7], FLOAT32, 3, half_pixel_centers=True),
    "resize_nearest_i8_both_flags": case_resize(R_NN, [1, 4, 6, 3], [9, 5], INT8, 4, align_corners=True,
                                                half_pixel_centers=True, quant=(1e-6, -128)),
    "resize_nearest_i8_half_pixel_down": case_resize(R_NN, [2, 9, 7, 1], [4, 3], INT8, 5, half_pixel_centers=True),
    "resize_nearest_i16_align_corners": case_resize(R_NN, [1, 3, 5, 2], [5, 8], INT16, 37, align_corners=True),
    "resize_bilinear_f32_up": case_resize(R_BL, [1, 3, 4, 2], [7, 10], FLOAT32, 6),
    "resize_bilinear_f32_align_corners": case_resize(R_BL, [2, 4, 5, 3], [7, 3], FLOAT32, 7, align_corners=True),
    "resize_bilinear_f32_half_pixel": case_resize(R_BL, [1, 5, 3, 2], [9, 8], FLOAT32, 8, half_pixel_centers=True),
    "resize_bilinear_f32_to_one": case_resize(R_BL, [1, 4, 3, 2], [1, 1], FLOAT32, 9, align_corners=True),
    "resize_bilinear_i8_up": case_resize(R_BL, [1, 3, 4, 3], [8, 6], INT8, 10, quant=(100.0, 127)),
    "resize_bilinear_i8_align_corners": case_resize(R_BL, [1, 5, 4, 2], [3, 7], INT8, 11, align_corners=True),
    "resize_bilinear_i8_half_pixel_down": case_resize(R_BL, [2, 7, 9, 2], [3, 4], INT8, 12, half_pixel_centers=True),
    "resize_bilinear_i8_24x24x32_up2": case_resize(R_BL, [1, 24, 24, 32], [48, 48], INT8, 90, half_pixel_centers=True),
    "resize_nearest_i8_24x24x32_up2": case_resize(R_NN, [1, 24, 24, 32], [48, 48], INT8, 91, half_pixel_centers=True),
    "mirror_pad_f32_reflect_rank4": case_mirror_pad([1, 4, 5, 2], [[0, 0], [3, 1], [2, 4], [0, 1]], 0, FLOAT32, 13),
    "mirror_pad_f32_symmetric_rank2": case_mirror_pad([3, 4], [[3, 2], [1, 4]], 1, FLOAT32, 14),
    "mirror_pad_i8_reflect_rank1": case_mirror_pad([6], [[5, 2]], 0, INT8, 15),
    "mirror_pad_i8_symmetric_rank3": case_mirror_pad([2, 3, 4], [[1, 2], [3, 0], [0, 4]], 1, INT8, 16),
    "mirror_pad_f32_int64_paddings": case_mirror_pad([2, 5], [[1, 1], [4, 2]], 0, FLOAT32, 36, pads_type=tfl.INT64),
    "space_to_batch_f32_rank4_padded": case_space_batch("SPACE_TO_BATCH_ND", [2, 5, 4, 3], [2, 3], [[1, 0], [0, 2]], FLOAT32, 17),
    "space_to_batch_f32_rank3": case_space_batch("SPACE_TO_BATCH_ND", [1, 5, 2], [3], [[2, 2]], FLOAT32, 18),
    "space_to_batch_i8_padded_zero_point_0": case_space_batch("SPACE_TO_BATCH_ND", [1, 4, 3, 2], [2, 2], [[0, 2], [1, 0]],
                                                              INT8, 19, quant=(0.5, 0)),
    "space_to_batch_i8_zero_point_127": case_space_batch("SPACE_TO_BATCH_ND", [2, 4, 6, 1], [2, 3], [[0, 0], [0, 0]],
                                                         INT8, 20, quant=(0.02, 127)),
    "batch_to_space_f32_rank4_cropped": case_space_batch("BATCH_TO_SPACE_ND", [6, 3, 2, 2], [3, 2], [[1, 2], [0, 1]], FLOAT32, 21),
    "batch_to_space_f32_rank3": case_space_batch("BATCH_TO_SPACE_ND", [4, 3, 3], [2], [[0, 1]], FLOAT32, 22),
    "add_n_f32_three_rank3": case_add_n([2, 3, 5], 3, FLOAT32, 24),
    "add_n_f32_eight_rank1": case_add_n([7], 8, FLOAT32, 25),
    "add_n_f32_eleven_split_parts": case_add_n_of_parts([2, 3], 11, 36),
    "add_n_i8_two_zero_point_min": case_add_n([3, 4], 2, INT8, 26, quant_in=(0.02, -128), quant_out=(0.05, -128)),
    "add_n_i8_four_rank4": case_add_n([1, 2, 3, 2], 4, INT8, 27, quant_in=(2.0, 127), quant_out=(7.5, -20)),
    "broadcast_to_f32_new_dims": case_broadcast_to([3, 1], [2, 3, 4], FLOAT32, 28),
    "broadcast_to_i8_int64_shape": case_broadcast_to([1, 4, 1, 2], [2, 4, 3, 2], INT8, 29, shape_type=tfl.INT64),
    "broadcast_to_f32_rank5": case_broadcast_to([2, 1, 3, 1, 1], [2, 2, 3, 2, 3], FLOAT32, 30),
    "l2_norm_f32_rank4_zero_vector": case_l2_norm([2, 2, 3, 5], FLOAT32, 31, zero_rows=1),
    "l2_norm_f32_rank1": case_l2_norm([9], FLOAT32, 32),
    "l2_norm_i8_rank2_zero_point_min": case_l2_norm([4, 6], INT8, 33, quant_in=(0.1, -128), zero_rows=1),
    "l2_norm_i8_rank3_zero_point_max": case_l2_norm([2, 3, 16], INT8, 34, quant_in=(1e-3, 127)),
    "l2_norm_i8_small_sums": case_l2_norm([3, 2, 2], INT8, 35, quant_in=(0.5, 10), spread=1),
    "batch_to_space_i8_rank4": case_space_batch("BATCH_TO_SPACE_ND", [8, 2, 3, 2], [2, 2], [[0, 0], [1, 1]], INT8, 23,
                                                quant=(3.0, -128)),
}


# ----------------------------------------------------------------------------------------------------
# ONNX cases: NumPy float64 models of ONNX's definitions (Resize-19's text: the output size floor(scale *
# extent), or the sizes, scale size / extent; the coordinate of result index x per
# coordinate_transformation_mode with the resized length scale * extent; nearest_mode; linear: the two
# neighbours, clamped to the axis, weighted by the fraction), one axis after another, rounded to float32.

def onnx_source(x, mode, scale, n_in, n_out, roi=(0.0, 1.0)):
    length = scale * n_in
    if mode == "asymmetric":
        return x / scale
    if mode == "align_corners":
        return np.zeros_like(x) if length == 1 else x * (n_in - 1) / (length - 1)
    if mode == "pytorch_half_pixel":
        return np.full_like(x, -0.5) if length == 1 else (x + 0.5) / scale - 0.5
    if mode == "half_pixel_symmetric":
        return n_in / 2 * (1 - n_out / length) + (x + 0.5) / scale - 0.5
    if mode == "tf_half_pixel_for_nn":
        return (x + 0.5) / scale
    if mode == "tf_crop_and_resize":  # the region's span and start in float32, as ONNX's reference has them
        span, start = F32(roi[1]) - F32(roi[0]), F32(roi[0]) * F32(n_in - 1)
        if length == 1:
            return np.full_like(x, float(span * F32(n_in - 1) / F32(2))) + float(start)
        return x * float(span) * (n_in - 1) / (length - 1) + float(start)
    assert mode == "half_pixel", mode
    return (x + 0.5) / scale - 0.5


def cubic_kernel(d, a):
    d = np.abs(d)
    return np.where(d <= 1, ((a + 2) * d - (a + 3)) * d * d + 1,
                    np.where(d < 2, ((a * d - 5 * a) * d + 8 * a) * d - 4 * a, 0.0))


def interpolation_taps(src, n_in, mode, scale, antialias, exclude_outside, cubic_a):
    """Per result position: the input indices (unclamped) and weights of ONNX's linear or cubic mode."""
    radius = 1 if mode == "linear" else 2
    s = min(scale, 1.0) if antialias else 1.0
    reach = int(np.ceil(radius / s))
    low = np.floor(src)
    idx = low[:, None] + np.arange(-reach + 1, reach + 1)[None, :]
    d = (idx - src[:, None]) * s
    w = np.clip(1 - np.abs(d), 0, None) if mode == "linear" else cubic_kernel(d, cubic_a)
    if exclude_outside:
        w = np.where((idx < 0) | (idx >= n_in), 0.0, w)
    if antialias or exclude_outside:
        w = w / w.sum(axis=1, keepdims=True)
    return idx.astype(np.int64), w


def onnx_resize_ref(x, mode, scales=None, sizes=None, transform="half_pixel", nearest_mode="round_prefer_floor",
                    axes=None, policy="stretch", roi=None, extrapolation_value=0.0, antialias=0, exclude_outside=0,
                    cubic_coeff_a=-0.75):
    rank = x.ndim
    axes = list(range(rank)) if axes is None else [a % rank for a in axes]
    scale, size = [1.0] * rank, list(x.shape)
    regions = [(0.0, 1.0)] * rank
    if roi is not None:
        for k, a in enumerate(axes):
            regions[a] = (roi[k], roi[k + len(axes)])
    if scales is not None:
        for a, v in zip(axes, scales):
            scale[a] = float(F32(v))
            size[a] = int(np.floor(scale[a] * x.shape[a]))
    else:
        for a, n in zip(axes, sizes):
            scale[a], size[a] = n / x.shape[a], n
        if policy != "stretch":
            chosen = (min if policy == "not_larger" else max)(scale[a] for a in axes)
            for a in axes:
                scale[a], size[a] = chosen, int(chosen * x.shape[a] + 0.5)
    y = x.astype(np.float64)
    for a in range(rank):
        if abs(scale[a] - 1.0) <= 1e-9 and size[a] == x.shape[a] and regions[a] == (0.0, 1.0):
            continue
        n_in = x.shape[a]
        src = onnx_source(np.arange(size[a], dtype=np.float64), transform, scale[a], n_in, size[a], regions[a])
        shape = [1] * rank
        shape[a] = size[a]
        if mode == "nearest":
            low = np.floor(src)
            frac = src - low
            up = {"round_prefer_floor": frac > 0.5, "round_prefer_ceil": frac >= 0.5, "floor": np.zeros_like(frac, bool),
                  "ceil": frac > 0}[nearest_mode]
            y = np.take(y, np.clip(low + up, 0, n_in - 1).astype(np.int64), axis=a)
        else:
            idx, w = interpolation_taps(src, n_in, mode, scale[a], antialias, exclude_outside, cubic_coeff_a)
            gathered = np.take(y, np.clip(idx, 0, n_in - 1).reshape(-1), axis=a)
            gathered = gathered.reshape(y.shape[:a] + idx.shape + y.shape[a + 1:])
            y = np.sum(gathered * w.reshape(shape[:a + 1] + [idx.shape[1]] + shape[a + 1:]), axis=a + 1)
        if transform == "tf_crop_and_resize":
            y = np.where(((src < 0) | (src > n_in - 1)).reshape(shape), extrapolation_value, y)
    return y.astype(F32)


def onnx_node(op, inputs, outputs, **attributes):
    from onnx import helper
    return helper.make_node(op, inputs, outputs, **attributes)


def onnx_model(nodes, input_shapes, initializers, opset):
    from onnx import TensorProto, helper
    inputs = [helper.make_tensor_value_info(f"x{k}", TensorProto.FLOAT, shape) for k, shape in enumerate(input_shapes)]
    outputs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)]
    graph = helper.make_graph(nodes, "spatial_case", inputs, outputs, initializer=initializers)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="ctnn-test")


def constant(name, values, dtype):
    from onnx import numpy_helper
    return numpy_helper.from_array(np.asarray(values, dtype=dtype), name)


def resize_case(shape, seed, mode, opset=13, scales=None, sizes=None, roi=None, **attributes):
    """Resize of a float32 input: scales (FLOAT) or sizes (INT64) as initializers; opset 11 and 12 give both
    operands, the unused one empty."""
    def build():
        x = data(np.random.default_rng(seed), shape, FLOAT32)
        ref_args = {k: v for k, v in attributes.items()
                    if k in ("nearest_mode", "axes", "extrapolation_value", "antialias", "exclude_outside", "cubic_coeff_a")}
        ref_args["transform"] = attributes.get("coordinate_transformation_mode", "half_pixel")
        ref_args["policy"] = attributes.get("keep_aspect_ratio_policy", "stretch")
        ref_args["roi"] = roi
        y = onnx_resize_ref(x, mode, scales=scales, sizes=sizes, **ref_args)
        initializers = []
        inputs = ["x0", ""]
        if roi is not None:
            initializers.append(constant("roi", roi, F32))
            inputs[1] = "roi"
        if scales is not None:
            initializers.append(constant("scales", scales, F32))
            inputs.append("scales")
        else:
            if opset < 13:
                initializers.append(constant("scales", [], F32))
            inputs += ["scales" if opset < 13 else "", "sizes"]
            initializers.append(constant("sizes", sizes, np.int64))
        nodes = [onnx_node("Resize", inputs, ["y"], mode=mode, **attributes)]
        return onnx_model(nodes, [shape], initializers, opset), [x], [y]
    return build


def upsample_case(shape, seed, mode, scales, opset):
    """Upsample: the scales attribute (opset 7) or operand (9); ONNX's reference of it is Resize's asymmetric
    coordinates with nearest rounding down (np.repeat for integer scales)."""
    def build():
        x = data(np.random.default_rng(seed), shape, FLOAT32)
        y = onnx_resize_ref(x, mode, scales=scales, transform="asymmetric", nearest_mode="floor")
        if opset < 9:
            return onnx_model([onnx_node("Upsample", ["x0"], ["y"], mode=mode, scales=scales)], [shape], [], opset), [x], [y]
        nodes = [onnx_node("Upsample", ["x0", "scales"], ["y"], mode=mode)]
        return onnx_model(nodes, [shape], [constant("scales", scales, F32)], opset), [x], [y]
    return build


def sum_case(shapes, seed):
    """Sum of float32 inputs, numpy-broadcast; NumPy float64."""
    def build():
        rng = np.random.default_rng(seed)
        xs = [data(rng, shape, FLOAT32) for shape in shapes]
        y = sum(x.astype(np.float64) for x in xs).astype(F32)
        names = [f"x{k}" for k in range(len(shapes))]
        return onnx_model([onnx_node("Sum", names, ["y"])], shapes, [], 13), xs, [y]
    return build


def variadic_many_case(seed):
    """Sum of 10, Max of 9, Min of 12 and Mean of 11 of the 12 parts of a Split (torch.stack(...).sum() style
    reductions written as variadic ops): more operands than an IR node holds (issue #28), folded in order
    through nodes of at most 8. NumPy in float32, in ONNX's operand order."""
    def build():
        x = data(np.random.default_rng(seed), [12, 3, 4], FLOAT32)
        parts = [x[k:k + 1] for k in range(12)]
        names = [f"p{k}" for k in range(12)]

        def folded(values, f):
            acc = values[0]
            for v in values[1:]:
                acc = f(acc, v).astype(F32)
            return acc
        total, high, low = folded(parts[:10], np.add), folded(parts[1:10], np.maximum), folded(parts, np.minimum)
        mean = (folded(parts[1:12], np.add) / F32(11)).astype(F32)
        y = (((total + high).astype(F32) + low).astype(F32) + mean).astype(F32)
        nodes = [onnx_node("Split", ["x0"], names, axis=0), onnx_node("Sum", names[:10], ["sum"]),
                 onnx_node("Max", names[1:10], ["max"]), onnx_node("Min", names, ["min"]),
                 onnx_node("Mean", names[1:12], ["mean"]), onnx_node("Add", ["sum", "max"], ["a"]),
                 onnx_node("Add", ["a", "min"], ["b"]), onnx_node("Add", ["b", "mean"], ["y"])]
        return onnx_model(nodes, [[12, 3, 4]], [], 13), [x], [y]
    return build


def tile_case(op, shape, values, seed):
    """Expand (numpy broadcasting both ways) or Tile (np.tile) of a float32 input, the shape or repeats an
    INT64 initializer."""
    def build():
        x = data(np.random.default_rng(seed), shape, FLOAT32)
        y = x * np.ones(values, F32) if op == "Expand" else np.tile(x, values)
        nodes = [onnx_node(op, ["x0", "v"], ["y"])]
        return onnx_model(nodes, [shape], [constant("v", values, np.int64)], 13), [x], [y.astype(F32)]
    return build


def lp_norm_case(shape, axis, seed):
    """LpNormalization p 2: x over sqrt(sum x^2) along the axis, NumPy float64."""
    def build():
        x = data(np.random.default_rng(seed), shape, FLOAT32)
        x64 = x.astype(np.float64)
        y = (x64 / np.sqrt(np.sum(x64 * x64, axis=axis, keepdims=True))).astype(F32)
        return onnx_model([onnx_node("LpNormalization", ["x0"], ["y"], axis=axis, p=2)], [shape], [], 13), [x], [y]
    return build


def conv_resize_relu_case(seed):
    """A 1x1 Conv (its result held in NHWC), Resize in that layout, Relu: the resize reads NHWC."""
    def build():
        rng = np.random.default_rng(seed)
        x = data(rng, [1, 3, 4, 5], FLOAT32)
        w = rng.uniform(-1, 1, size=(4, 3, 1, 1)).astype(F32)
        conv = np.einsum("nchw,oc->nohw", x.astype(np.float64), w[:, :, 0, 0].astype(np.float64))
        y = np.maximum(onnx_resize_ref(conv, "linear", sizes=[1, 4, 7, 8], transform="pytorch_half_pixel"), 0)
        nodes = [onnx_node("Conv", ["x0", "w"], ["c"]),
                 onnx_node("Resize", ["c", "", "", "sizes"], ["r"], mode="linear",
                           coordinate_transformation_mode="pytorch_half_pixel"),
                 onnx_node("Relu", ["r"], ["y"])]
        inits = [constant("w", w, F32), constant("sizes", [1, 4, 7, 8], np.int64)]
        return onnx_model(nodes, [[1, 3, 4, 5]], inits, 13), [x], [y.astype(F32)]
    return build


def lp_pool_ref(x, p, kernel, strides, pads, dilations, ceil_mode=False, auto_pad="NOTSET"):
    """ONNX's LpPool in float64: (sum of |x|^p)^(1/p) over each window's elements inside the input (padding adds
    zeros); pads as ONNX orders them (all begins, then all ends); auto_pad SAME_* splits the total pad (the odd
    element at the end for SAME_UPPER)."""
    spatial = x.ndim - 2
    size = x.shape[2:]
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        pads = [0] * (2 * spatial)
        for d in range(spatial):
            out = -(-size[d] // strides[d])
            total = max((out - 1) * strides[d] + (kernel[d] - 1) * dilations[d] + 1 - size[d], 0)
            small, large = total // 2, total - total // 2
            pads[d], pads[spatial + d] = (small, large) if auto_pad == "SAME_UPPER" else (large, small)
    outs = []
    for d in range(spatial):
        span = (kernel[d] - 1) * dilations[d] + 1
        room = size[d] + pads[d] + pads[spatial + d] - span
        out = (-(-room // strides[d]) if ceil_mode else room // strides[d]) + 1
        if ceil_mode and (out - 1) * strides[d] >= size[d] + pads[d]:
            out -= 1  # the last window must start inside the input or its leading pads
        outs.append(out)
    y = np.zeros(x.shape[:2] + tuple(outs))
    for at in np.ndindex(*outs):
        acc = np.zeros(x.shape[:2])
        for taps in np.ndindex(*kernel):
            pos = [at[d] * strides[d] - pads[d] + taps[d] * dilations[d] for d in range(spatial)]
            if all(0 <= pos[d] < size[d] for d in range(spatial)):
                acc += np.abs(x[(slice(None), slice(None)) + tuple(pos)].astype(np.float64)) ** p
        y[(slice(None), slice(None)) + at] = acc ** (1.0 / p)
    return y.astype(F32)


def lp_pool_case(shape, seed, p, kernel, opset=11, strides=None, pads=None, dilations=None, ceil_mode=0, auto_pad=None):
    def build():
        x = data(np.random.default_rng(seed), shape, FLOAT32)
        spatial = len(shape) - 2
        attrs = {"kernel_shape": kernel, "p": p}
        for name, value in (("strides", strides), ("pads", pads), ("dilations", dilations), ("auto_pad", auto_pad)):
            if value is not None:
                attrs[name] = value
        if ceil_mode:
            attrs["ceil_mode"] = 1
        y = lp_pool_ref(x, p, kernel, strides or [1] * spatial, pads or [0] * (2 * spatial), dilations or [1] * spatial,
                        bool(ceil_mode), auto_pad or "NOTSET")
        return onnx_model([onnx_node("LpPool", ["x0"], ["y"], **attrs)], [shape], [], opset), [x], [y]
    return build


def lrn_ref(x, size, alpha=1e-4, beta=0.75, bias=1.0):
    """ONNX's LRN in float64: the sum of squares over channels [c - floor((size-1)/2), c + ceil((size-1)/2)]."""
    x64 = x.astype(np.float64)
    squares = np.zeros_like(x64)
    channels = x.shape[1]
    for c in range(channels):
        low, high = max(0, c - (size - 1) // 2), min(channels - 1, c + size - 1 - (size - 1) // 2)
        squares[:, c] = np.sum(x64[:, low:high + 1] ** 2, axis=1)
    return (x64 / (bias + alpha / size * squares) ** beta).astype(F32)


def lrn_case(shape, seed, size, **attributes):
    def build():
        x = data(np.random.default_rng(seed), shape, FLOAT32)
        model = onnx_model([onnx_node("LRN", ["x0"], ["y"], size=size, **attributes)], [shape], [], 13)
        return model, [x], [lrn_ref(x, size, **attributes)]
    return build


ONNX_CASES = {
    "onnx_lp_pool_p2_3x3": lp_pool_case([1, 2, 5, 6], 131, 2, [3, 3]),
    "onnx_lp_pool_p1_strided_pads": lp_pool_case([2, 3, 6, 5], 132, 1, [2, 3], strides=[2, 1], pads=[1, 0, 1, 2]),
    "onnx_lp_pool_p3_dilated_ceil_opset18": lp_pool_case([1, 2, 7, 6], 133, 3, [3, 2], opset=18, strides=[2, 2],
                                                         dilations=[2, 1], ceil_mode=1),
    "onnx_lp_pool_1d_p2_strided_pads": lp_pool_case([2, 3, 9], 134, 2, [3], strides=[2], pads=[1, 1]),
    "onnx_lp_pool_same_upper_p2": lp_pool_case([1, 1, 5, 6], 135, 2, [3, 3], strides=[2, 2], auto_pad="SAME_UPPER"),
    "onnx_lrn_default_size3": lrn_case([2, 5, 3, 4], 136, 3),
    "onnx_lrn_even_size_attributes": lrn_case([1, 6, 4, 4], 137, 4, alpha=2e-3, beta=0.5, bias=2.0),
    "onnx_lrn_rank3_size_above_channels": lrn_case([1, 3, 7], 138, 5, alpha=0.01),
    "onnx_resize_nearest_scales_default": resize_case([1, 2, 3, 4], 101, "nearest", scales=[1, 1, 2, 3]),
    "onnx_resize_nearest_sizes_round_prefer_ceil_asymmetric_opset11": resize_case(
        [1, 1, 4, 3], 102, "nearest", opset=11, sizes=[1, 1, 7, 8], coordinate_transformation_mode="asymmetric",
        nearest_mode="round_prefer_ceil"),
    "onnx_resize_nearest_sizes_floor_align_corners_down": resize_case(
        [2, 3, 7, 9], 103, "nearest", sizes=[2, 3, 3, 4], coordinate_transformation_mode="align_corners",
        nearest_mode="floor"),
    "onnx_resize_nearest_ceil_tf_half_pixel_for_nn": resize_case(
        [1, 2, 5, 4], 104, "nearest", scales=[1, 1, 1.5, 0.75], coordinate_transformation_mode="tf_half_pixel_for_nn",
        nearest_mode="ceil"),
    "onnx_resize_nearest_axes_not_smaller_opset18": resize_case(
        [1, 2, 4, 6], 105, "nearest", opset=18, sizes=[7, 5], axes=[2, -1], keep_aspect_ratio_policy="not_smaller"),
    "onnx_resize_linear_half_pixel_fractional_scales": resize_case([1, 2, 4, 4], 106, "linear", scales=[1, 1, 2.5, 1.75]),
    "onnx_resize_linear_align_corners_down": resize_case(
        [1, 1, 5, 7], 107, "linear", scales=[1, 1, 0.6, 0.6], coordinate_transformation_mode="align_corners"),
    "onnx_resize_linear_pytorch_half_pixel_to_one": resize_case(
        [2, 3, 6, 5], 108, "linear", sizes=[2, 3, 1, 9], coordinate_transformation_mode="pytorch_half_pixel"),
    "onnx_resize_linear_asymmetric_rank3": resize_case(
        [2, 3, 5], 109, "linear", scales=[1, 1, 2.2], coordinate_transformation_mode="asymmetric"),
    "onnx_resize_linear_half_pixel_symmetric_opset19": resize_case(
        [1, 1, 4, 5], 110, "linear", opset=19, scales=[1, 1, 1.7, 0.7], coordinate_transformation_mode="half_pixel_symmetric"),
    "onnx_resize_linear_rank5_trilinear_not_larger": resize_case(
        [1, 2, 3, 4, 2], 111, "linear", opset=18, sizes=[5, 7, 3], axes=[2, 3, 4], keep_aspect_ratio_policy="not_larger"),
    "onnx_resize_cubic_half_pixel_up": resize_case([1, 2, 4, 5], 115, "cubic", scales=[1, 1, 1.6, 2.3]),
    "onnx_resize_cubic_a_n0p5_exclude_outside_down": resize_case(
        [1, 1, 6, 7], 116, "cubic", scales=[1, 1, 0.7, 0.5], coordinate_transformation_mode="asymmetric",
        cubic_coeff_a=-0.5, exclude_outside=1),
    "onnx_resize_cubic_antialias_sizes_opset18": resize_case([2, 1, 8, 6], 117, "cubic", opset=18, sizes=[2, 1, 3, 4],
                                                             antialias=1),
    "onnx_resize_linear_antialias_down_opset18": resize_case([1, 2, 9, 8], 118, "linear", opset=18,
                                                             scales=[1, 1, 0.35, 0.6], antialias=1),
    "onnx_resize_linear_tf_crop_and_resize_extrapolation": resize_case(
        [1, 1, 5, 6], 119, "linear", sizes=[1, 1, 4, 5], roi=[0, 0, -0.2, 0.3, 1, 1, 0.8, 1.2],
        coordinate_transformation_mode="tf_crop_and_resize", extrapolation_value=7.5),
    "onnx_resize_nearest_tf_crop_and_resize_axes_opset18": resize_case(
        [1, 2, 6, 4], 120, "nearest", opset=18, scales=[1.5, 0.75], axes=[3, 2], roi=[0.1, 0.25, 0.9, 0.75],
        coordinate_transformation_mode="tf_crop_and_resize"),
    "onnx_upsample_nearest_opset9": upsample_case([1, 2, 2, 3], 112, "nearest", [1, 1, 2, 3], 9),
    "onnx_upsample_linear_opset7": upsample_case([1, 1, 3, 4], 113, "linear", [1, 1, 2.5, 1.5], 7),
    "onnx_conv_resize_relu_nhwc": conv_resize_relu_case(114),
    "onnx_sum_three_broadcast": sum_case([[2, 3, 4], [3, 1], [1, 4]], 121),
    "onnx_sum_one_input": sum_case([[5, 2]], 122),
    "onnx_sum_max_min_mean_of_many": variadic_many_case(139),
    "onnx_expand_new_dims": tile_case("Expand", [3, 1], [2, 1, 4], 123),
    "onnx_expand_shorter_shape": tile_case("Expand", [2, 3, 1], [4], 124),
    "onnx_tile_rank2": tile_case("Tile", [2, 3], [2, 3], 125),
    "onnx_tile_rank4": tile_case("Tile", [1, 2, 1, 3], [2, 1, 3, 1], 126),
    "onnx_lp_normalization_axis1": lp_norm_case([2, 5, 3], 1, 127),
    "onnx_lp_normalization_last_axis": lp_norm_case([3, 7], -1, 128),
}


# ----------------------------------------------------------------------------------------------------
# Models ctnn must refuse (tests/frontend/frontend_spatial_refusals.cpp): tests/data/tflite/spatial_refused_*.tflite
# and tests/data/onnx/spatial_refused_*.onnx.

def refused_tflite():
    F = FLOAT32
    models = {
        # TFLM refuses both flags on RESIZE_BILINEAR.
        "resize_bilinear_both_flags": single_op("RESIZE_BILINEAR", [1, 2, 2, 1], [1, 3, 3, 1], F, None, [("size", [3, 3])],
                                                align_corners=True, half_pixel_centers=True),
        # A REFLECT pad as large as the extent (TFLM mirrors once: its result is not a reflection there).
        "mirror_pad_reflect_too_far": single_op("MIRROR_PAD", [3], [6], F, None, [("paddings", [[3, 0]])]),
        "l2_norm_relu": single_op("L2_NORMALIZATION", [2, 3], [2, 3], F, None),
        "broadcast_to_incompatible": single_op("BROADCAST_TO", [2, 3], [4, 3], F, None, [("shape", [4, 3])]),
        "space_to_batch_not_divisible": single_op("SPACE_TO_BATCH_ND", [1, 5, 4, 1], [4, 3, 2, 1], F, None,
                                                  [("block_shape", [2, 2]), ("paddings", [[0, 0], [0, 0]])]),
    }
    models["l2_norm_relu"].ops[0]["options"]["act"] = "RELU"
    # RESIZE_NEAREST_NEIGHBOR whose size is a graph input (TFLM: "Non-constant >size< tensor is not supported").
    m = tfl.Model(new_opcodes=True)
    x = m.tensor("input", [1, 2, 2, 1], F)
    size = m.tensor("size", [2], INT32)
    y = m.tensor("output", [1, 4, 4, 1], F)
    m.inputs, m.outputs = [x, size], [y]
    m.op("RESIZE_NEAREST_NEIGHBOR", [x, size], [y])
    models["resize_nearest_size_input"] = m
    # ADD_N of int8 inputs quantized differently (TFLM's Prepare refuses them).
    m = tfl.Model(new_opcodes=True)
    a = m.tensor("a", [4], INT8, quant=q(0.5, 0))
    b = m.tensor("b", [4], INT8, quant=q(0.25, 0))
    y = m.tensor("output", [4], INT8, quant=q(0.5, 0))
    m.inputs, m.outputs = [a, b], [y]
    m.op("ADD_N", [a, b], [y])
    models["add_n_other_quantization"] = m
    return models


def refused_onnx():
    from onnx import TensorProto, helper

    def one(nodes, shape, initializers, opset=13):
        return onnx_model(nodes, [shape], initializers, opset)
    sizes_input = onnx_model([onnx_node("Resize", ["x0", "", "", "sizes"], ["y"])], [[1, 1, 2, 2]], [], 13)
    sizes_input.graph.input.append(helper.make_tensor_value_info("sizes", TensorProto.INT64, [4]))
    return {
        "resize_sizes_input": sizes_input,
        "resize_nearest_antialias": one([onnx_node("Resize", ["x0", "", "scales"], ["y"], antialias=1)], [1, 1, 4, 4],
                                        [constant("scales", [1, 1, 0.5, 0.5], F32)], 18),
        "resize_mode_unknown": one([onnx_node("Resize", ["x0", "", "scales"], ["y"], mode="bicubic")], [1, 1, 2, 2],
                                   [constant("scales", [1, 1, 2, 2], F32)]),
        "lp_normalization_p3": one([onnx_node("LpNormalization", ["x0"], ["y"], p=3)], [2, 3], []),
        "tile_zero_repeat": one([onnx_node("Tile", ["x0", "v"], ["y"])], [2, 3], [constant("v", [1, 0], np.int64)]),
        "expand_incompatible": one([onnx_node("Expand", ["x0", "v"], ["y"])], [2, 3], [constant("v", [4, 3], np.int64)]),
        # LpPool with p 0 (no norm), and of a 3-D window (rank 5).
        "lp_pool_p0": one([onnx_node("LpPool", ["x0"], ["y"], kernel_shape=[2, 2], p=0)], [1, 1, 3, 3], [], 11),
        "lp_pool_3d": one([onnx_node("LpPool", ["x0"], ["y"], kernel_shape=[2, 2, 2])], [1, 1, 3, 3, 3], [], 11),
        # LRN without its required size.
        "lrn_no_size": one([onnx_node("LRN", ["x0"], ["y"])], [1, 3, 2, 2], []),
    }


# ----------------------------------------------------------------------------------------------------
# Writing (scripts/op_tests.py: the case folders, CASES.sha256).

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tflm", help="path to tflm_run: (re)write the TFLite cases' outputs with the oracle")
    args = parser.parse_args()
    family = op_tests.Family("spatial", args.tflm)
    op_tests.write_checked_cases(family, TFLITE_CASES)
    op_tests.write_onnx_cases(family, ONNX_CASES)
    family.finish()
    op_tests.write_refused("spatial", refused_tflite(), refused_onnx())


if __name__ == "__main__":
    main()
