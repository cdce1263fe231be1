#!/usr/bin/python3
"""Op-conformance cases of the shape family (data movement, no arithmetic) for ctnn's op-conformance harness.

Writes tests/data/ops/shape/<case>/ with model.tflite or model.onnx, input_<k>.bin (raw little-endian, the
model's own element type and layout) and output_<k>.bin (the reference's outputs), deterministically (fixed
seeds: re-running reproduces every file byte for byte), through scripts/op_tests.py (CASES.sha256).

    /usr/bin/python3 scripts/gen_op_tests_shape.py                    # models and inputs; outputs kept
    /usr/bin/python3 scripts/gen_op_tests_shape.py --tflm /work/oracle/tflm/tflm_run
                                                   # also (re)writes the TFLite cases' outputs with the oracle

TFLite cases: outputs of TensorFlow Lite Micro's reference kernels (the host oracle tflm_run, outside the
repository), each also checked here against an independent NumPy implementation of the op (data movement:
equal bit for bit). Without --tflm a TFLite case's committed outputs are kept (op_tests.py checks that they
still belong to the model and inputs; here, that they equal NumPy's). ONNX cases: outputs of a NumPy
implementation of the ONNX semantics (no onnxruntime here), written every run.

Ops: SQUEEZE, EXPAND_DIMS, TRANSPOSE, STRIDED_SLICE (begin/end/shrink-axis masks, negative strides and
indices), SLICE (size -1), SPLIT, SPLIT_V, PACK, UNPACK, DEPTH_TO_SPACE, SPACE_TO_DEPTH, GATHER (float32 and
int8, and int16 and int32 for the slicing ops; ranks 1 to 5 where TFLM allows them; int8 with extreme zero points and
scales, and outputs quantized otherwise than the input: TFLM copies the bytes), two-op models where a slice is
a view; ONNX Squeeze, Unsqueeze (axes as input from opset 13, attribute before), Slice (negative steps,
clamped ends, omitted axes/steps), Split (split input or attribute, num_outputs), Gather, DepthToSpace (DCR,
CRD), SpaceToDepth, Identity (float32); CONCATENATION and Concat of more operands than an IR node holds (20, 25, 70 parts
of a SPLIT/Split joined in another order: concats of concats); an int64 Concat of non-constant inputs (Swin-T's
index grids).

Also writes the models ctnn must refuse: tests/data/tflite/shape_refused_*.tflite and
tests/data/onnx/shape_refused_*.onnx (tests/frontend/frontend_shape_refusals.cpp).
"""
from __future__ import annotations

import argparse

import numpy as np

import op_tests
from op_tests import tfl

FLOAT32, INT8, INT16, INT32 = tfl.FLOAT32, tfl.INT8, tfl.INT16, tfl.INT32

# The builtin codes and options (BuiltinOptions union tags, schema.fbs) of the ops written here.
tfl.OPS.update({"SQUEEZE": 43, "EXPAND_DIMS": 70, "TRANSPOSE": 39, "STRIDED_SLICE": 45, "SLICE": 65, "SPLIT": 49,
                "SPLIT_V": 102, "PACK": 83, "UNPACK": 88, "DEPTH_TO_SPACE": 5, "SPACE_TO_DEPTH": 26, "GATHER": 36})
tfl.OPTIONS.update({"SQUEEZE": 30, "EXPAND_DIMS": 52, "TRANSPOSE": 26, "STRIDED_SLICE": 32, "SLICE": 48, "SPLIT": 35,
                    "SPLIT_V": 79, "PACK": 59, "UNPACK": 64, "DEPTH_TO_SPACE": 94, "SPACE_TO_DEPTH": 19,
                    "GATHER": 23})
_writer_options = tfl.options_table


def options_table(code: str, o: dict, va: bool):
    """The options of the shape ops (fields as schema.fbs numbers them; defaults omitted, as writers do)."""
    fields = {
        "SQUEEZE": lambda: {0: ("vec", "i", o["squeeze_dims"], 4)} if o.get("squeeze_dims") else {},
        "STRIDED_SLICE": lambda: {k: ("i32", o[name]) for k, name in enumerate(
            ["begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"]) if o.get(name, 0)},
        "SPLIT": lambda: {0: ("i32", o["num_splits"])},
        "SPLIT_V": lambda: {0: ("i32", o["num_splits"])},
        "PACK": lambda: {0: ("i32", o["values_count"]), 1: ("i32", o["axis"])} if o["axis"] else
        {0: ("i32", o["values_count"])},
        "UNPACK": lambda: {0: ("i32", o["num"]), 1: ("i32", o["axis"])} if o["axis"] else {0: ("i32", o["num"])},
        "DEPTH_TO_SPACE": lambda: {0: ("i32", o["block_size"])},
        "SPACE_TO_DEPTH": lambda: {0: ("i32", o["block_size"])},
        "GATHER": lambda: {k: ("i32", o[name]) for k, name in enumerate(["axis", "batch_dims"]) if o.get(name)},
        "EXPAND_DIMS": lambda: {}, "TRANSPOSE": lambda: {}, "SLICE": lambda: {},
    }
    if code in fields:
        return tfl.Table(fields[code](), va)
    return _writer_options(code, o, va)


tfl.options_table = options_table

# ----------------------------------------------------------------------------------------------------
# NumPy references of the TFLite ops (data movement: exact for every element type).


def strided_slice_ref(x, begin, end, strides, begin_mask=0, end_mask=0, shrink_axis_mask=0):
    """TFLite's STRIDED_SLICE: Python slicing with TFLite's masks (a shrunk axis takes one element)."""
    index = []
    for d in range(x.ndim):
        if shrink_axis_mask >> d & 1:
            index.append(begin[d])
            continue
        start = None if begin_mask >> d & 1 else begin[d]
        stop = None if end_mask >> d & 1 else end[d]
        index.append(slice(start, stop, strides[d]))
    return x[tuple(index)]


def slice_ref(x, begin, size):
    return x[tuple(slice(b, x.shape[d] if s == -1 else b + s) for d, (b, s) in enumerate(zip(begin, size)))]


def depth_to_space_ref(x, b):  # NHWC, TensorFlow's order: channel (by * b + bx) * C' + c
    n, h, w, c = x.shape
    return x.reshape(n, h, w, b, b, c // (b * b)).transpose(0, 1, 3, 2, 4, 5).reshape(n, h * b, w * b, c // (b * b))


def space_to_depth_ref(x, b):
    n, h, w, c = x.shape
    return x.reshape(n, h // b, b, w // b, b, c).transpose(0, 1, 3, 2, 4, 5).reshape(n, h // b, w // b, b * b * c)


# ----------------------------------------------------------------------------------------------------
# TFLite cases: (name, builder). A builder returns (model, inputs, NumPy outputs).

def q(scale, zero_point):
    return dict(scale=[scale], zero_point=[zero_point])


def data(rng, shape, dtype):
    """Inputs spanning the type: int8 over the whole range (-128 and 127 included), float32 with signed zeros."""
    if dtype in (INT8, INT16, INT32):
        info = np.iinfo({INT8: np.int8, INT16: np.int16, INT32: np.int32}[dtype])
        x = rng.integers(info.min, info.max, size=shape, endpoint=True).astype(info.dtype)
        flat = x.reshape(-1)
        flat[0], flat[-1] = info.min, info.max
        return x
    x = rng.uniform(-4, 4, size=shape).astype(np.float32)
    flat = x.reshape(-1)
    flat[0] = -0.0
    return x


def single_op(code, shape, out_shape, dtype, quant_in, quant_out, constants=(), **options):
    """A model of one op: input 0 (a graph input), then int32 constants (list of (name, values)), one output."""
    m = tfl.Model(new_opcodes=True)
    x = m.tensor("input", shape, dtype, quant=quant_in)
    operands = [x]
    for name, values in constants:
        values = np.asarray(values, dtype=np.int32)
        operands.append(m.tensor(name, list(values.shape), INT32, data=values))
    y = m.tensor("output", out_shape, dtype, quant=quant_out)
    m.inputs, m.outputs = [x], [y]
    m.op(code, operands, [y], **options)
    return m


def quant_pair(dtype, quant_in=(0.05, -3), quant_out=None):
    """int8: the given quantizations; int16: symmetric (zero point 0, as TFLite's 16x8 scheme); else none."""
    if dtype == INT16:
        return q(quant_in[0], 0), q((quant_out or quant_in)[0], 0)
    if dtype != INT8:
        return None, None
    return q(*quant_in), q(*(quant_out or quant_in))


def case_squeeze(shape, dims, dtype, seed):
    def build():
        rng = np.random.default_rng(seed)
        x = data(rng, shape, dtype)
        y = np.squeeze(x, axis=tuple(dims)) if dims else np.squeeze(x)
        qi, qo = quant_pair(dtype)
        return single_op("SQUEEZE", shape, list(y.shape), dtype, qi, qo, squeeze_dims=dims), [x], [y]
    return build


def case_expand_dims(shape, axis, dtype, seed):
    def build():
        rng = np.random.default_rng(seed)
        x = data(rng, shape, dtype)
        y = np.expand_dims(x, axis)
        qi, qo = quant_pair(dtype)
        return single_op("EXPAND_DIMS", shape, list(y.shape), dtype, qi, qo, [("axis", [axis])]), [x], [y]
    return build


def case_transpose(shape, perm, dtype, seed):
    def build():
        rng = np.random.default_rng(seed)
        x = data(rng, shape, dtype)
        y = np.transpose(x, perm)
        qi, qo = quant_pair(dtype, (1e-6, 127))
        return single_op("TRANSPOSE", shape, list(y.shape), dtype, qi, qo, [("perm", perm)]), [x], [y]
    return build


def case_strided_slice(shape, begin, end, strides, dtype, seed, quant_out=None, **masks):
    def build():
        rng = np.random.default_rng(seed)
        x = data(rng, shape, dtype)
        y = strided_slice_ref(x, begin, end, strides, **masks)
        qi, qo = quant_pair(dtype, (0.5, -128), quant_out)
        m = single_op("STRIDED_SLICE", shape, list(y.shape), dtype, qi, qo,
                      [("begin", begin), ("end", end), ("strides", strides)], **masks)
        return m, [x], [y]
    return build


def case_slice(shape, begin, size, dtype, seed):
    def build():
        rng = np.random.default_rng(seed)
        x = data(rng, shape, dtype)
        y = slice_ref(x, begin, size)
        qi, qo = quant_pair(dtype, (100.0, 0))
        return single_op("SLICE", shape, list(y.shape), dtype, qi, qo, [("begin", begin), ("size", size)]), [x], [y]
    return build


def case_split(shape, axis, parts, dtype, seed, sizes=None):
    """SPLIT into `parts` equal parts, or SPLIT_V by `sizes` (one of them may be -1)."""
    def build():
        rng = np.random.default_rng(seed)
        x = data(rng, shape, dtype)
        if sizes is None:
            ys = np.split(x, parts, axis=axis)
        else:
            known = sum(s for s in sizes if s != -1)
            resolved = [x.shape[axis] - known if s == -1 else s for s in sizes]
            ys = np.split(x, np.cumsum(resolved)[:-1], axis=axis)
        qi, _ = quant_pair(dtype, (0.02, 5))
        m = tfl.Model(new_opcodes=True)
        t = m.tensor("input", shape, dtype, quant=qi)
        axis_t = m.tensor("axis", [], INT32, data=np.array(axis, dtype=np.int32))
        outs = [m.tensor(f"part{k}", list(y.shape), dtype, quant=qi) for k, y in enumerate(ys)]
        m.inputs, m.outputs = [t], outs
        if sizes is None:
            m.op("SPLIT", [axis_t, t], outs, num_splits=parts)
        else:
            sizes_t = m.tensor("size_splits", [len(sizes)], INT32, data=np.array(sizes, dtype=np.int32))
            m.op("SPLIT_V", [t, sizes_t, axis_t], outs, num_splits=len(sizes))
        return m, [x], ys
    return build


def case_pack(shape, count, axis, dtype, seed, quants=None):
    def build():
        rng = np.random.default_rng(seed)
        xs = [data(rng, shape, dtype) for _ in range(count)]
        y = np.stack(xs, axis=axis)
        m = tfl.Model(new_opcodes=True)
        qs = [q(*quants[k]) if quants else quant_pair(dtype)[0] for k in range(count)]
        ts = [m.tensor(f"input{k}", shape, dtype, quant=qs[k]) for k in range(count)]
        out = m.tensor("output", list(y.shape), dtype, quant=qs[0])
        m.inputs, m.outputs = ts, [out]
        m.op("PACK", ts, [out], values_count=count, axis=axis)
        return m, xs, [y]
    return build


def case_unpack(shape, axis, dtype, seed):
    def build():
        rng = np.random.default_rng(seed)
        x = data(rng, shape, dtype)
        ys = [np.take(x, k, axis=axis) for k in range(x.shape[axis])]
        qi, _ = quant_pair(dtype, (0.25, 127))
        m = tfl.Model(new_opcodes=True)
        t = m.tensor("input", shape, dtype, quant=qi)
        outs = [m.tensor(f"part{k}", list(y.shape), dtype, quant=qi) for k, y in enumerate(ys)]
        m.inputs, m.outputs = [t], outs
        m.op("UNPACK", [t], outs, num=len(ys), axis=axis)
        return m, [x], ys
    return build


def case_block(code, shape, block, dtype, seed):
    def build():
        rng = np.random.default_rng(seed)
        x = data(rng, shape, dtype)
        y = depth_to_space_ref(x, block) if code == "DEPTH_TO_SPACE" else space_to_depth_ref(x, block)
        qi, qo = quant_pair(dtype, (0.1, -128))
        return single_op(code, shape, list(y.shape), dtype, qi, qo, block_size=block), [x], [y]
    return build


def case_gather(shape, indices, axis, dtype, seed, indices_are_input=False):
    def build():
        rng = np.random.default_rng(seed)
        x = data(rng, shape, dtype)
        idx = np.asarray(indices, dtype=np.int32)
        y = np.take(x, idx, axis=axis)
        qi, _ = quant_pair(dtype, (0.003, 17))
        m = tfl.Model(new_opcodes=True)
        t = m.tensor("input", shape, dtype, quant=qi)
        if indices_are_input:
            i = m.tensor("indices", list(idx.shape), INT32)
            m.inputs = [t, i]
        else:
            i = m.tensor("indices", list(idx.shape), INT32, data=idx)
            m.inputs = [t]
        out = m.tensor("output", list(y.shape), dtype, quant=qi)
        m.outputs = [out]
        m.op("GATHER", [t, i], [out], axis=axis)
        return m, [x, idx] if indices_are_input else [x], [y]
    return build


def case_split_then_concat(shape, axis, parts, order, dtype, seed):
    """SPLIT whose parts a CONCATENATION joins in another order: the first part, the input's first elements,
    is a view (no copy) inside the model; the others are copies."""
    def build():
        rng = np.random.default_rng(seed)
        x = data(rng, shape, dtype)
        ys = np.split(x, parts, axis=axis)
        y = np.concatenate([ys[k] for k in order], axis=axis)
        qi, _ = quant_pair(dtype, (0.07, -9))
        m = tfl.Model(new_opcodes=True)
        t = m.tensor("input", shape, dtype, quant=qi)
        axis_t = m.tensor("axis", [], INT32, data=np.array(axis, dtype=np.int32))
        parts_t = [m.tensor(f"part{k}", list(p.shape), dtype, quant=qi) for k, p in enumerate(ys)]
        out = m.tensor("output", list(y.shape), dtype, quant=qi)
        m.inputs, m.outputs = [t], [out]
        m.op("SPLIT", [axis_t, t], parts_t, num_splits=parts)
        m.op("CONCATENATION", [parts_t[k] for k in order], [out], axis=axis)
        return m, [x], [y]
    return build


def case_prefix_slice_then_transpose(shape, rows, perm, dtype, seed):
    """STRIDED_SLICE of the first `rows` along dim 0 (a view: the input's first elements), then TRANSPOSE."""
    def build():
        rng = np.random.default_rng(seed)
        x = data(rng, shape, dtype)
        y = np.transpose(x[:rows], perm)
        qi, _ = quant_pair(dtype, (0.3, 11))
        m = tfl.Model(new_opcodes=True)
        t = m.tensor("input", shape, dtype, quant=qi)
        consts = [m.tensor(name, [len(shape)], INT32, data=np.array(v, dtype=np.int32))
                  for name, v in (("begin", [0] * len(shape)), ("end", [rows] + list(shape[1:])), ("strides", [1] * len(shape)))]
        sliced = m.tensor("sliced", [rows] + list(shape[1:]), dtype, quant=qi)
        perm_t = m.tensor("perm", [len(perm)], INT32, data=np.array(perm, dtype=np.int32))
        out = m.tensor("output", list(y.shape), dtype, quant=qi)
        m.inputs, m.outputs = [t], [out]
        m.op("STRIDED_SLICE", [t, *consts], [sliced])
        m.op("TRANSPOSE", [sliced, perm_t], [out])
        return m, [x], [y]
    return build


F, I, I16, I32 = FLOAT32, INT8, INT16, INT32
TFLITE_CASES = {
    # SQUEEZE, EXPAND_DIMS: reshapes (views)
    "squeeze_f32_rank5_dims": case_squeeze([1, 3, 1, 5, 1], [0, -1], F, 1),
    "squeeze_f32_all_units": case_squeeze([1, 7, 1], [], F, 2),
    "squeeze_i8_rank4": case_squeeze([2, 1, 3, 1], [1], I, 3),
    "expand_dims_f32_last": case_expand_dims([3, 5], -1, F, 4),
    "expand_dims_f32_rank4_to_5": case_expand_dims([2, 3, 1, 4], 0, F, 5),
    "expand_dims_i8_middle": case_expand_dims([5, 3], 1, I, 6),
    # TRANSPOSE
    "transpose_f32_rank2": case_transpose([3, 7], [1, 0], F, 7),
    "transpose_f32_rank3": case_transpose([2, 3, 5], [2, 0, 1], F, 8),
    "transpose_f32_rank5": case_transpose([2, 3, 1, 4, 3], [4, 2, 0, 3, 1], F, 9),
    "transpose_i8_rank4": case_transpose([1, 3, 5, 2], [0, 3, 1, 2], I, 10),
    # STRIDED_SLICE
    "strided_slice_f32_rank1_negative_stride": case_strided_slice([11], [-2], [0], [-3], F, 11),
    "strided_slice_f32_rank2_masks": case_strided_slice([7, 9], [1, 8], [5, 1], [2, -2], F, 12, begin_mask=1, end_mask=2),
    "strided_slice_f32_rank3_shrink": case_strided_slice([3, 5, 4], [1, -4, 0], [2, 5, 4], [1, 2, 1], F, 13,
                                                         shrink_axis_mask=1),
    "strided_slice_f32_rank4_clamped": case_strided_slice([2, 5, 6, 3], [0, -100, 1, 2], [2, 100, 6, 0], [1, 1, 3, -1],
                                                          F, 14, end_mask=8),
    "strided_slice_f32_shrink_all_but_one": case_strided_slice([4, 3, 5], [-1, 0, 2], [0, 3, 3], [1, 1, 1], F, 15,
                                                               shrink_axis_mask=5),
    "strided_slice_i8_rank4": case_strided_slice([1, 6, 7, 2], [0, 5, 0, 1], [1, 0, 7, 2], [1, -2, 2, 1], I, 16,
                                                 begin_mask=4, shrink_axis_mask=8),
    "strided_slice_i8_other_output_quantization": case_strided_slice([9, 4], [2, 0], [9, 4], [3, 1], I, 17,
                                                                     quant_out=(0.25, 100)),
    "strided_slice_i16_rank2": case_strided_slice([5, 6], [4, -1], [0, 0], [-2, -2], I16, 56, begin_mask=2),
    "strided_slice_i32_rank3": case_strided_slice([3, 4, 5], [2, 0, -1], [0, 4, 0], [-1, 3, -2], I32, 44, end_mask=4),
    # SLICE
    "slice_f32_rank1": case_slice([9], [2], [5], F, 18),
    "slice_f32_rank3_size_minus_one": case_slice([3, 7, 5], [1, 2, 0], [-1, 3, -1], F, 19),
    "slice_f32_rank5": case_slice([2, 3, 4, 3, 5], [1, 0, 1, 2, 1], [1, 3, -1, 1, 3], F, 20),
    "slice_i8_rank2": case_slice([5, 9], [1, 4], [3, -1], I, 21),
    "slice_i32_rank4": case_slice([2, 3, 4, 5], [1, 1, 0, 2], [-1, 2, 3, -1], I32, 45),
    # SPLIT, SPLIT_V
    "split_f32_rank3_axis1": case_split([2, 9, 3], 1, 3, F, 22),
    "split_f32_negative_axis": case_split([4, 3, 2, 5], -4, 2, F, 23),
    "split_i8_rank1": case_split([12], 0, 4, I, 24),
    "split_v_f32_sizes": case_split([3, 10], 1, None, F, 25, sizes=[2, -1, 1]),
    "split_v_i8_rank5": case_split([2, 3, 7, 1, 2], 2, None, I, 26, sizes=[3, 4]),
    "split_v_i16": case_split([2, 5, 2], 1, None, I16, 57, sizes=[1, 4]),
    "split_i32_axis_last": case_split([3, 4], -1, 2, I32, 46),
    "split_v_i32": case_split([7, 2], 0, None, I32, 47, sizes=[-1, 2, 1]),
    # PACK, UNPACK
    "pack_f32_axis0": case_pack([3, 5], 3, 0, F, 27),
    "pack_f32_axis_last": case_pack([2, 3], 2, -1, F, 28),
    "pack_i8_rank4": case_pack([1, 2, 3, 2], 4, 2, I, 29),
    "pack_i8_other_quantizations": case_pack([5], 3, 1, I, 30, quants=[(0.5, 0), (1e-6, -128), (100.0, 127)]),
    "unpack_f32_axis1": case_unpack([2, 3, 4], 1, F, 31),
    "unpack_f32_negative_axis": case_unpack([3, 1, 5, 2], -1, F, 32),
    "unpack_i8_rank1": case_unpack([5], 0, I, 33),
    "slice_i16_rank3": case_slice([3, 4, 5], [0, 1, 2], [2, -1, 2], I16, 58),
    "unpack_i32_axis0": case_unpack([3, 2, 2], 0, I32, 48),
    # DEPTH_TO_SPACE, SPACE_TO_DEPTH
    "depth_to_space_f32": case_block("DEPTH_TO_SPACE", [1, 3, 5, 8], 2, F, 34),
    "depth_to_space_i8_block3": case_block("DEPTH_TO_SPACE", [2, 2, 3, 18], 3, I, 35),
    "space_to_depth_f32": case_block("SPACE_TO_DEPTH", [2, 4, 6, 3], 2, F, 36),
    "space_to_depth_i8_block3": case_block("SPACE_TO_DEPTH", [1, 9, 3, 2], 3, I, 37),
    # inside a model: the first part of a split, a leading slice are views
    "split_then_concat_f32": case_split_then_concat([6, 4], 0, 3, [2, 0, 1], F, 49),
    "split_then_concat_i8": case_split_then_concat([2, 9, 3], 1, 3, [1, 2, 0], I, 50),
    # more operands than an IR node holds (issue #28): concats of concats; TFLM takes 10 at most (kMaxInputNum)
    "split_then_concat_f32_ten_parts": case_split_then_concat([10, 3], 0, 10, [(7 * k) % 10 for k in range(10)], F, 62),
    "split_then_concat_i8_ten_parts": case_split_then_concat([2, 10, 2], 1, 10, [(3 * k) % 10 for k in range(10)], I, 63),
    "prefix_slice_then_transpose_f32": case_prefix_slice_then_transpose([4, 5, 3], 2, [2, 1, 0], F, 51),
    "prefix_slice_then_transpose_i8": case_prefix_slice_then_transpose([3, 2, 7], 1, [1, 0, 2], I, 52),
    # GATHER
    "gather_f32_axis0_constant": case_gather([5, 3], [4, 0, 0, 2], 0, F, 38),
    "gather_f32_axis1_matrix_indices": case_gather([2, 7, 3], [[6, 1], [0, 3], [5, 5]], 1, F, 39),
    "gather_f32_negative_axis_scalar_index": case_gather([3, 4, 5], 2, -1, F, 40),
    "gather_f32_indices_input": case_gather([6, 2, 3], [5, 1, 1, 0, 3], 0, F, 41, indices_are_input=True),
    "gather_i8_rank4": case_gather([2, 3, 4, 2], [3, 0, 1], 2, I, 42),
    "gather_i8_indices_input": case_gather([9], [[8, 0, 4], [1, 1, 7]], 0, I, 43, indices_are_input=True),
    # scalar results (rank 0)
    "gather_f32_scalar_result": case_gather([5], 3, 0, F, 53),
    "strided_slice_i8_shrink_every_axis": case_strided_slice([4, 3], [1, 2], [2, 3], [1, 1], I, 54, shrink_axis_mask=3),
    "squeeze_f32_to_scalar": case_squeeze([1, 1], [], F, 55),
}

# ----------------------------------------------------------------------------------------------------
# ONNX cases (float32): (name, builder) with a builder returning (model, inputs, NumPy outputs).

INT64_MAX, INT64_MIN = 2**63 - 1, -2**63


def onnx_model(nodes, input_shapes, output_names, initializers, opset):
    from onnx import TensorProto, helper
    inputs = [helper.make_tensor_value_info(f"x{k}", TensorProto.FLOAT, shape) for k, shape in enumerate(input_shapes)]
    outputs = [helper.make_tensor_value_info(name, TensorProto.FLOAT, None) for name in output_names]
    graph = helper.make_graph(nodes, "shape_case", inputs, outputs, initializer=initializers)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="ctnn-test")


def ints(name, values):
    from onnx import numpy_helper
    return numpy_helper.from_array(np.asarray(values, dtype=np.int64), name)


def onnx_slice_ref(x, starts, ends, axes=None, steps=None):
    """ONNX Slice: Python slicing after ONNX's clamping (a negative index counts from the end)."""
    axes = list(range(len(starts))) if axes is None else axes
    steps = [1] * len(starts) if steps is None else steps
    index = [slice(None)] * x.ndim
    for start, end, axis, step in zip(starts, ends, axes, steps):
        dim = x.shape[axis]
        start = start + dim if start < 0 else start
        end = end + dim if end < 0 else end
        if step > 0:
            start, end = min(max(start, 0), dim), min(max(end, 0), dim)
            index[axis] = slice(start, end, step)
        else:
            start, end = min(max(start, 0), dim - 1), min(max(end, -1), dim - 1)
            index[axis] = slice(start, None if end == -1 else end, step)
    return x[tuple(index)]


def onnx_depth_to_space_ref(x, b, mode):
    n, c, h, w = x.shape
    if mode == "DCR":
        y = x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
    else:
        y = x.reshape(n, c // (b * b), b, b, h, w).transpose(0, 1, 4, 2, 5, 3)
    return y.reshape(n, c // (b * b), h * b, w * b)


def onnx_space_to_depth_ref(x, b):
    n, c, h, w = x.shape
    return x.reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4).reshape(n, c * b * b, h // b, w // b)


def onnx_case(shape, seed, make):
    """A one-input case: make(x) -> (nodes, output names, initializers, opset, NumPy outputs)."""
    def build():
        x = data(np.random.default_rng(seed), shape, FLOAT32)
        nodes, names, initializers, opset, outputs = make(x)
        return onnx_model(nodes, [shape], names, initializers, opset), [x], outputs
    return build


def node(op, inputs, outputs, **attributes):
    from onnx import helper
    return helper.make_node(op, inputs, outputs, **attributes)


def squeeze_case(op, shape, axes, opset, seed):
    def make(x):
        given = axes if axes is not None else []
        if op == "Squeeze":
            y = np.squeeze(x, axis=tuple(given)) if given else np.squeeze(x)
        else:
            y = x
            for axis in sorted(a + x.ndim + len(given) if a < 0 else a for a in given):
                y = np.expand_dims(y, axis)
        if axes is None:
            return [node(op, ["x0"], ["y"])], ["y"], [], opset, [y]
        if opset >= 13:
            return [node(op, ["x0", "axes"], ["y"])], ["y"], [ints("axes", axes)], opset, [y]
        return [node(op, ["x0"], ["y"], axes=axes)], ["y"], [], opset, [y]
    return onnx_case(shape, seed, make)


def slice_case(shape, starts, ends, axes, steps, opset, seed):
    def make(x):
        y = onnx_slice_ref(x, starts, ends, axes, steps)
        if opset < 10:
            attributes = dict(starts=starts, ends=ends, **({} if axes is None else dict(axes=axes)))
            return [node("Slice", ["x0"], ["y"], **attributes)], ["y"], [], opset, [y]
        names, initializers = ["x0", "starts", "ends"], [ints("starts", starts), ints("ends", ends)]
        if axes is not None or steps is not None:
            names.append("axes" if axes is not None else "")
            initializers += [ints("axes", axes)] if axes is not None else []
        if steps is not None:
            names.append("steps")
            initializers.append(ints("steps", steps))
        return [node("Slice", names, ["y"])], ["y"], initializers, opset, [y]
    return onnx_case(shape, seed, make)


def split_case(shape, axis, parts, sizes, opset, seed, num_outputs=False):
    def make(x):
        dim = x.shape[axis]
        if sizes is not None:
            cuts = np.cumsum(sizes)[:-1]
        elif num_outputs:
            part = -(-dim // parts)
            cuts = [part * k for k in range(1, parts)]
        else:
            cuts = parts
        ys = np.split(x, cuts, axis=axis)
        names = [f"y{k}" for k in range(len(ys))]
        attributes = dict(axis=axis)
        initializers, inputs = [], ["x0"]
        if num_outputs:
            attributes["num_outputs"] = parts
        if sizes is not None and opset >= 13:
            inputs.append("split")
            initializers.append(ints("split", sizes))
        elif sizes is not None:
            attributes["split"] = sizes
        return [node("Split", inputs, names, **attributes)], names, initializers, opset, ys
    return onnx_case(shape, seed, make)


def split_then_concat_case(shape, axis, parts, order, seed):
    """Split into `parts` equal parts, joined again by one Concat in `order`: more operands than an IR node holds
    (issue #28: DenseNet-121's Concat of 25) go through concats of concats."""
    def make(x):
        ys = np.split(x, parts, axis=axis)
        names = [f"p{k}" for k in range(parts)]
        nodes = [node("Split", ["x0"], names, axis=axis), node("Concat", [names[k] for k in order], ["y"], axis=axis)]
        return nodes, ["y"], [], 13, [np.concatenate([ys[k] for k in order], axis=axis)]
    return onnx_case(shape, seed, make)


def block_case(op, shape, block, mode, seed):
    def make(x):
        if op == "DepthToSpace":
            y = onnx_depth_to_space_ref(x, block, mode)
            return [node(op, ["x0"], ["y"], blocksize=block, mode=mode)], ["y"], [], 13, [y]
        return [node(op, ["x0"], ["y"], blocksize=block)], ["y"], [], 13, [onnx_space_to_depth_ref(x, block)]
    return onnx_case(shape, seed, make)


def conv_then_depth_to_space(seed):
    """A 1x1 Conv (its result held NHWC inside ctnn) read by DepthToSpace, Slice and Identity in ONNX's layout."""
    from onnx import numpy_helper

    def make(x):
        rng = np.random.default_rng(seed + 1000)
        w = rng.uniform(-1, 1, size=(8, 3, 1, 1)).astype(np.float32)
        conv = np.einsum("oc,nchw->nohw", w[:, :, 0, 0].astype(np.float64), x.astype(np.float64))
        d2s = onnx_depth_to_space_ref(conv, 2, "CRD")
        sliced = onnx_slice_ref(d2s, [1, INT64_MAX], [-1, 0], [2, 3], [2, -1])
        nodes = [node("Conv", ["x0", "w"], ["c"]), node("DepthToSpace", ["c"], ["d"], blocksize=2, mode="CRD"),
                 node("Slice", ["d", "starts", "ends", "axes", "steps"], ["s"]), node("Identity", ["s"], ["y"])]
        initializers = [numpy_helper.from_array(w, "w"), ints("starts", [1, INT64_MAX]), ints("ends", [-1, 0]),
                        ints("axes", [2, 3]), ints("steps", [2, -1])]
        return nodes, ["y"], initializers, 13, [sliced.astype(np.float32)]
    return onnx_case([1, 3, 5, 4], seed, make)


def onnx_gather_case(shape, indices, axis, seed, indices_type=None):
    """Gather of constant INT64 indices, or (indices_type "int64"/"int32") of indices given as a second input."""
    from onnx import TensorProto, helper

    def build():
        x = data(np.random.default_rng(seed), shape, FLOAT32)
        idx = np.asarray(indices, dtype=np.int64)
        y = np.take(x, np.where(idx < 0, idx + x.shape[axis], idx), axis=axis)
        nodes = [node("Gather", ["x0", "indices"], ["y"], axis=axis)]
        if indices_type is None:
            return onnx_model(nodes, [shape], ["y"], [ints("indices", idx)], 13), [x], [y]
        model = onnx_model(nodes, [shape], ["y"], [], 13)
        proto_type = TensorProto.INT64 if indices_type == "int64" else TensorProto.INT32
        model.graph.input.append(helper.make_tensor_value_info("indices", proto_type, list(idx.shape)))
        return model, [x, idx.astype(np.int64 if indices_type == "int64" else np.int32)], [y]
    return build


def identity_case(shape, seed):
    return onnx_case(shape, seed, lambda x: ([node("Identity", ["x0"], ["y"])], ["y"], [], 13, [x]))


ONNX_CASES = {
    "onnx_squeeze_axes_input": squeeze_case("Squeeze", [1, 3, 1, 5], [-2, 0], 13, 101),
    "onnx_squeeze_all_units_opset11": squeeze_case("Squeeze", [1, 4, 1], None, 11, 102),
    "onnx_squeeze_attribute_rank5": squeeze_case("Squeeze", [2, 1, 3, 1, 2], [3], 11, 103),
    "onnx_unsqueeze_axes_input": squeeze_case("Unsqueeze", [3, 4], [0, -1], 13, 104),
    "onnx_unsqueeze_attribute": squeeze_case("Unsqueeze", [2, 3, 4], [1], 11, 105),
    "onnx_identity_rank4": identity_case([2, 3, 4, 5], 106),
    "onnx_identity_rank1": identity_case([7], 107),
    "onnx_slice_negative_steps": slice_case([5, 7, 4], [-1, 6], [INT64_MIN, 0], [0, 1], [-2, -3], 13, 108),
    "onnx_slice_clamped_no_axes": slice_case([4, 6], [1, -10], [1000, 3], None, None, 13, 109),
    "onnx_slice_negative_axes_rank5": slice_case([2, 3, 4, 5, 3], [INT64_MAX, 1, -4], [0, INT64_MAX, 5],
                                                 [-1, 1, -2], [-1, 1, 2], 13, 110),
    "onnx_slice_opset9_attributes": slice_case([3, 8, 2], [0, 2], [2, -1], [0, 1], None, 9, 111),
    "onnx_slice_rank4_one_axis": slice_case([1, 3, 6, 5], [1], [3], [1], None, 13, 112),
    "onnx_split_input": split_case([2, 6, 3], 1, None, [2, 3, 1], 13, 113),
    "onnx_split_attribute_negative_axis": split_case([3, 2, 5], -1, None, [1, 4], 11, 114),
    "onnx_split_equal_parts": split_case([6, 4], 0, 3, None, 13, 115),
    "onnx_split_num_outputs": split_case([2, 7], 1, 3, None, 18, 116, num_outputs=True),
    "onnx_split_rank4": split_case([1, 4, 3, 2], 1, 2, None, 13, 117),
    "onnx_split_then_concat_25_channels": split_then_concat_case([1, 25, 2, 3], 1, 25, [(4 * k) % 25 for k in range(25)], 130),
    "onnx_split_then_concat_70_rows": split_then_concat_case([70, 2], 0, 70, [(3 * k) % 70 for k in range(70)], 131),
    "onnx_depth_to_space_dcr": block_case("DepthToSpace", [1, 8, 3, 5], 2, "DCR", 118),
    "onnx_depth_to_space_crd": block_case("DepthToSpace", [2, 9, 2, 3], 3, "CRD", 119),
    "onnx_space_to_depth": block_case("SpaceToDepth", [1, 3, 4, 6], 2, None, 120),
    "onnx_conv_depth_to_space_slice_identity": conv_then_depth_to_space(121),
    "onnx_gather_scalar_index": onnx_gather_case([3, 5, 2], -2, 1, 122),
    "onnx_gather_constant_indices": onnx_gather_case([6, 4], [5, -6, 2, 2], 0, 123),
    "onnx_gather_constant_matrix_negative_axis": onnx_gather_case([2, 3, 7], [[0, 6], [-1, 3]], -1, 124),
    "onnx_gather_int64_input": onnx_gather_case([4, 3, 2, 2], [[3, -1, 0], [2, 2, -4]], 0, 125, indices_type="int64"),
    "onnx_gather_int32_input_rank5": onnx_gather_case([2, 2, 5, 1, 3], [4, 0], 2, 126, indices_type="int32"),
    # More constant indices than ctnn slices apart (8): a gather node reading them as a constant tensor.
    "onnx_gather_twelve_constant_indices": onnx_gather_case([2, 12, 3], [[11, 0, 3, 3, 5, -1], [9, 1, 2, -12, 6, 7]], 1, 127),
}


# ----------------------------------------------------------------------------------------------------
# Models ctnn must refuse (tests/frontend/frontend_shape_refusals.cpp): tests/data/tflite/shape_refused_*.tflite and
# tests/data/onnx/shape_refused_*.onnx.

def refused_tflite():
    z = np.zeros
    models = {
        # TFLM ignores ellipsis_mask (sets it to 0): refused rather than run otherwise than its converter meant.
        "strided_slice_ellipsis": single_op("STRIDED_SLICE", [2, 3], [2, 3], F, None, None,
                                            [("begin", [0, 0]), ("end", [2, 3]), ("strides", [1, 1])], ellipsis_mask=1),
        "strided_slice_rank5": single_op("STRIDED_SLICE", [1, 2, 1, 2, 3], [1, 2, 1, 2, 3], F, None, None,
                                         [("begin", z(5)), ("end", [1, 2, 1, 2, 3]), ("strides", [1] * 5)]),
        "gather_batch_dims": single_op("GATHER", [2, 3], [2, 2], F, None, None, [("indices", [[0], [1]])], axis=1),
        "gather_index_outside": single_op("GATHER", [5, 2], [2, 2], F, None, None, [("indices", [4, 5])]),
        "squeeze_not_unit": single_op("SQUEEZE", [1, 3], [1], F, None, None, squeeze_dims=[1]),
        "depth_to_space_block_0": single_op("DEPTH_TO_SPACE", [1, 2, 2, 4], [1, 2, 2, 4], F, None, None, block_size=0),
        "transpose_rank6": single_op("TRANSPOSE", [1, 2, 1, 2, 1, 2], [2, 2, 2, 1, 1, 1], F, None, None,
                                     [("perm", [5, 3, 1, 0, 2, 4])]),
    }
    # GATHER with batch_dims 1 (the writer above leaves batch_dims at its default 0).
    gather = models["gather_batch_dims"].ops[0]
    gather["options"]["batch_dims"] = 1
    # SPLIT_V whose outputs do not cover the input (2 + 2 of 5).
    m = tfl.Model(new_opcodes=True)
    x = m.tensor("input", [5], F)
    sizes = m.tensor("size_splits", [2], INT32, data=np.array([2, 2], dtype=np.int32))
    axis = m.tensor("axis", [], INT32, data=np.array(0, dtype=np.int32))
    outs = [m.tensor(f"part{k}", [2], F) for k in range(2)]
    m.inputs, m.outputs = [x], outs
    m.op("SPLIT_V", [x, sizes, axis], outs, num_splits=2)
    models["split_v_uncovered"] = m
    # CONCATENATION of 9 operands (an operand tree, frontend/detail/operand_tree.hpp) whose operand 5 is no tensor
    # (index 99), and one whose operand 5 is its own result (no producer yet): each refused as malformed, naming
    # the operand, before any inner concat reads it (the fuzzers' wide-concat crash class).
    for name, bad in (("concatenation_nine_no_tensor", 99), ("concatenation_nine_reads_itself", None)):
        m = tfl.Model(new_opcodes=True)
        x = m.tensor("input", [1, 2], F)
        y = m.tensor("output", [1, 18], F)
        m.inputs, m.outputs = [x], [y]
        m.op("CONCATENATION", [x] * 5 + [y if bad is None else bad] + [x] * 3, [y], axis=1)
        models[name] = m
    return models


def refused_onnx():
    def one(nodes, shape, initializers, opset=13):
        return onnx_model(nodes, [shape], ["y"], initializers, opset)
    return {
        "slice_step_0": one([node("Slice", ["x0", "starts", "ends", "axes", "steps"], ["y"])], [4],
                            [ints("starts", [0]), ints("ends", [4]), ints("axes", [0]), ints("steps", [0])]),
        "slice_empty": one([node("Slice", ["x0", "starts", "ends"], ["y"])], [4], [ints("starts", [3]), ints("ends", [1])]),
        "split_uncovered": onnx_model([node("Split", ["x0", "split"], ["a", "b"])], [[5]], ["a", "b"],
                                      [ints("split", [2, 2])], 13),
        # Nine constant indices (a gather node reads them, no longer slices) whose sixth is outside [-3, 3).
        "gather_nine_constant_indices_one_outside": one([node("Gather", ["x0", "indices"], ["y"])], [3],
                                                        [ints("indices", [0, 1, 2, 0, 1, 3, 0, 1, 2])]),
        "depth_to_space_mode": one([node("DepthToSpace", ["x0"], ["y"], blocksize=2, mode="DRC")], [1, 4, 2, 2], []),
        "squeeze_not_unit": one([node("Squeeze", ["x0", "axes"], ["y"])], [1, 3], [ints("axes", [1])]),
        # Concat of 9 operands (an operand tree): operand 4 is the node's own result (a cycle, found although the
        # result is entered before the tree reads its operands); operand 6 of rank 1 (the inner concat's rule
        # refuses it, and the tree stops there).
        "concat_nine_reads_itself": one([node("Concat", ["x0"] * 4 + ["y"] + ["x0"] * 4, ["y"], axis=1)], [1, 2], []),
        "concat_nine_inner_rank": onnx_model([node("Concat", ["x0"] * 6 + ["x1"] + ["x0"] * 2, ["y"], axis=0)],
                                             [[1, 2], [2]], ["y"], [], 13),
    }


def int64_index_grid_concat(seed):
    """Concat of two int64 inputs [14, 14, 1] along the last axis into an index grid [14, 14, 2] (392 elements,
    more than the importer's known values hold, and not constant: the int64 kernel runs), as Swin-T's
    shifted-window attention mask builds one; NumPy's int64 outputs (values beyond 2^32 included)."""
    from onnx import TensorProto, helper

    def build():
        rng = np.random.default_rng(seed)
        rows = rng.integers(-2**40, 2**40, size=[14, 14, 1], dtype=np.int64)
        cols = rng.integers(-2**40, 2**40, size=[14, 14, 1], dtype=np.int64)
        graph = helper.make_graph(
            [node("Concat", ["rows", "cols"], ["grid"], axis=-1)], "shape_case",
            [helper.make_tensor_value_info(name, TensorProto.INT64, [14, 14, 1]) for name in ("rows", "cols")],
            [helper.make_tensor_value_info("grid", TensorProto.INT64, None)])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="ctnn-test")
        return model, [rows, cols], [np.concatenate([rows, cols], axis=-1)]
    return build()


# ----------------------------------------------------------------------------------------------------
# Writing (scripts/op_tests.py: the case folders, CASES.sha256).


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tflm", help="path to tflm_run: (re)write the TFLite cases' outputs with the oracle")
    args = parser.parse_args()
    family = op_tests.Family("shape", args.tflm)
    op_tests.write_checked_cases(family, TFLITE_CASES)
    op_tests.write_onnx_cases(family, ONNX_CASES, np.float32)
    # TensorFlow Lite's CONCATENATION takes any number of operands, TFLM's 10 at most: NumPy's bytes (the op moves
    # them) for 70 parts, three levels of concats inside ctnn.
    model, inputs, outputs = case_split_then_concat([2, 70, 1], 1, 70, [(11 * k) % 70 for k in range(70)], I, 64)()
    family.write_computed_case("split_then_concat_i8_seventy_parts", "model.tflite", model.serialize(), inputs, outputs)
    model, inputs, outputs = int64_index_grid_concat(132)
    family.write_computed_case("onnx_concat_int64_index_grid", "model.onnx", model.SerializeToString(), inputs, outputs)
    family.finish()
    op_tests.write_refused("shape", refused_tflite(), refused_onnx())


if __name__ == "__main__":
    main()
