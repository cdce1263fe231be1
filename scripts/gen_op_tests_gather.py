#!/usr/bin/env python3
"""Writes the op-conformance cases of the gather/scatter family: tests/data/ops/gather/<case>/ with model.tflite
or model.onnx, input_<k>.bin and output_<k>.bin (raw little-endian, the model's own types and layouts).
PROVENANCE.md in that folder says what produced each file.

  TFLite ops: REVERSE_V2 (float32, int8, int16, int32), GATHER_ND (float32, int8; constant and computed int32
  indices), CUMSUM (float32, int8; exclusive, reverse), FILL (float32, int8, int32), ZEROS_LIKE (float32, int32,
  int8), EMBEDDING_LOOKUP (float32, int8, hybrid int8 table read as float32), DYNAMIC_UPDATE_SLICE (float32, int8, int16; computed and constant starts, clamped). Outputs from TensorFlow Lite Micro's reference kernels (the host oracle tflm_run) with --tflm, else the
  committed ones; the byte moves and the float32 sums must also equal this script's NumPy models.
  ONNX ops: GatherND (float32, int32 data; computed and constant INT64 indices), CumSum (float32, int32),
  ConstantOfShape (float), ScatterND (none, add, mul, max, min; computed and constant indices), ReverseSequence, GatherElements (float32, int32 data; computed
  INT64/INT32 and constant INT64 indices, negative ones), ScatterElements (none, add, mul, max, min; repeated and
  negative indices; ranks 2 to 4, several axes; float32, int32 data). Outputs from NumPy implementations of ONNX's
  definitions (GatherElements' and ScatterElements' also equal onnxruntime 1.30.0's:
  scripts/check_onnx_cases_with_ort.py).

Deterministic: every input comes from a fixed seed, so re-running reproduces every file byte for byte.

Usage: /usr/bin/python3 scripts/gen_op_tests_gather.py [--tflm /work/oracle/tflm/tflm_run]
"""
import argparse

import numpy as np

import op_tests
from op_tests import tfl

FLOAT32, INT8, INT16, INT32, INT64 = tfl.FLOAT32, tfl.INT8, tfl.INT16, tfl.INT32, tfl.INT64
F32 = np.float32

# The builtin codes and options (BuiltinOptions union tags, schema.fbs) of the TFLite ops written here.
tfl.OPS.update({"REVERSE_V2": 105, "GATHER_ND": 107, "CUMSUM": 128, "FILL": 94, "ZEROS_LIKE": 93,
                "DYNAMIC_UPDATE_SLICE": 151, "EMBEDDING_LOOKUP": 7})
tfl.OPTIONS.update({"CUMSUM": 102})
_writer_options = tfl.options_table


def options_table(code: str, o: dict, va: bool):
    """CUMSUM's exclusive (field 0) and reverse (1); the other ops of this family have no options."""
    if code == "CUMSUM":
        return tfl.Table({k: ("bool", 1) for k, name in enumerate(["exclusive", "reverse"]) if o.get(name)}, va)
    if code in ("REVERSE_V2", "GATHER_ND", "FILL", "ZEROS_LIKE", "DYNAMIC_UPDATE_SLICE", "EMBEDDING_LOOKUP"):
        return None
    return _writer_options(code, o, va)


tfl.options_table = options_table


def q(scale, zero_point):
    return dict(scale=[scale], zero_point=[zero_point])


def data(rng, shape, dtype):
    """Inputs spanning the type: integers over the whole range (both extremes included), float32 with a signed zero."""
    if dtype in (INT8, INT16, INT32):
        info = np.iinfo({INT8: np.int8, INT16: np.int16, INT32: np.int32}[dtype])
        low, high = (info.min, info.max) if dtype != INT32 else (-1000, 1000)
        x = rng.integers(low, high, size=shape, endpoint=True).astype(info.dtype)
        flat = x.reshape(-1)
        flat[0], flat[-1] = low, high
        return x
    x = rng.uniform(-4, 4, size=shape).astype(F32)
    x.reshape(-1)[0] = -0.0
    return x


def quant_of(dtype, scale=0.05, zero_point=-3):
    return q(scale, zero_point) if dtype == INT8 else q(scale, 0) if dtype == INT16 else None


# ----------------------------------------------------------------------------------------------------
# TFLite cases: (name, builder). A builder returns (model, inputs, NumPy outputs or None: the oracle's alone).

def case_reverse(shape, axes, dtype, seed):
    def build():
        x = data(np.random.default_rng(seed), shape, dtype)
        m = tfl.Model(new_opcodes=True)
        xi = m.tensor("input", shape, dtype, quant=quant_of(dtype))
        ai = m.tensor("axis", [len(axes)], INT32, data=np.asarray(axes))
        y = m.tensor("output", shape, dtype, quant=quant_of(dtype))
        m.inputs, m.outputs = [xi], [y]
        m.op("REVERSE_V2", [xi, ai], [y])
        return m, [x], [np.flip(x, axis=tuple(axes)).copy()]
    return build


def case_gather_nd(shape, indices, dtype, seed, computed):
    def build():
        rng = np.random.default_rng(seed)
        x = data(rng, shape, dtype)
        idx = np.asarray(indices, dtype=np.int32)
        m = tfl.Model(new_opcodes=True)
        xi = m.tensor("params", shape, dtype, quant=quant_of(dtype))
        ii = m.tensor("indices", list(idx.shape), INT32, data=None if computed else idx)
        ref = np.stack([x[tuple(t)] for t in idx.reshape(-1, idx.shape[-1])]).reshape(idx.shape[:-1] + x.shape[idx.shape[-1]:])
        y = m.tensor("output", list(ref.shape), dtype, quant=quant_of(dtype))
        m.inputs, m.outputs = ([xi, ii] if computed else [xi]), [y]
        m.op("GATHER_ND", [xi, ii], [y])
        return m, ([x, idx] if computed else [x]), [ref]
    return build


def cumsum_ref(x, axis, exclusive, reverse):
    """TFLM's float32 running sums (in float32, in order along the axis)."""
    v = np.flip(x, axis) if reverse else x
    out = np.zeros_like(v)
    total = np.zeros(np.delete(np.asarray(v.shape), axis % v.ndim), dtype=v.dtype)
    for k in range(v.shape[axis]):
        item = np.take(v, k, axis=axis)
        if exclusive:
            out_k = total.copy()
            total = (total + item).astype(v.dtype)
        else:
            total = (total + item).astype(v.dtype)
            out_k = total.copy()
        idx = [slice(None)] * v.ndim
        idx[axis] = k
        out[tuple(idx)] = out_k
    return np.flip(out, axis).copy() if reverse else out


def case_cumsum(shape, axis, dtype, seed, exclusive=False, reverse=False, quant_in=(0.05, -3), quant_out=(0.2, 5)):
    def build():
        x = data(np.random.default_rng(seed), shape, dtype)
        m = tfl.Model(new_opcodes=True)
        qi, qo = (q(*quant_in), q(*quant_out)) if dtype == INT8 else (None, None)
        xi = m.tensor("input", shape, dtype, quant=qi)
        ai = m.tensor("axis", [], INT32, data=np.asarray(axis))
        y = m.tensor("output", shape, dtype, quant=qo)
        m.inputs, m.outputs = [xi], [y]
        m.op("CUMSUM", [xi, ai], [y], exclusive=exclusive, reverse=reverse)
        return m, [x], ([cumsum_ref(x, axis, exclusive, reverse)] if dtype == FLOAT32 else None)
    return build


def case_fill(dims, dtype, seed, dims_type=INT32):
    def build():
        value = data(np.random.default_rng(seed), [1], dtype).reshape([])
        m = tfl.Model(new_opcodes=True)
        di = m.tensor("dims", [len(dims)], dims_type, data=np.asarray(dims))
        vi = m.tensor("value", [], dtype, quant=quant_of(dtype, 0.5, 7))
        y = m.tensor("output", dims, dtype, quant=quant_of(dtype, 0.5, 7))
        m.inputs, m.outputs = [vi], [y]
        m.op("FILL", [di, vi], [y])
        return m, [value], [np.full(dims, value, dtype=value.dtype)]
    return build


def case_zeros_like(shape, dtype, seed):
    def build():
        x = data(np.random.default_rng(seed), shape, dtype)
        m = tfl.Model(new_opcodes=True)
        xi = m.tensor("input", shape, dtype, quant=quant_of(dtype, 0.1, 9))
        y = m.tensor("output", shape, dtype, quant=quant_of(dtype, 0.1, 9))
        m.inputs, m.outputs = [xi], [y]
        m.op("ZEROS_LIKE", [xi], [y])
        return m, [x], [np.zeros_like(x)]
    return build


def case_dynamic_update_slice(shape, update_shape, start, dtype, seed, computed_start, start_type=INT32):
    def build():
        rng = np.random.default_rng(seed)
        x, u = data(rng, shape, dtype), data(rng, update_shape, dtype)
        at = np.asarray(start, dtype=tfl.NP_TYPES[start_type])
        m = tfl.Model(new_opcodes=True)
        xi = m.tensor("operand", shape, dtype, quant=quant_of(dtype))
        ui = m.tensor("update", update_shape, dtype, quant=quant_of(dtype))
        si = m.tensor("start", [len(start)], start_type, data=None if computed_start else at)
        y = m.tensor("output", shape, dtype, quant=quant_of(dtype))
        m.inputs, m.outputs = ([xi, ui, si] if computed_start else [xi, ui]), [y]
        m.op("DYNAMIC_UPDATE_SLICE", [xi, ui, si], [y])
        ref = x.copy()
        first = [min(max(0, int(s)), n - k) for s, n, k in zip(start, shape, update_shape)]
        ref[tuple(slice(f, f + k) for f, k in zip(first, update_shape))] = u
        return m, ([x, u, at] if computed_start else [x, u]), [ref]
    return build


def case_embedding_lookup(table_shape, ids, dtype, seed, hybrid=False, quant=(0.1, -3)):
    """A constant table (float32, int8, or int8 read as float32: hybrid, zero point 0), computed int32 ids."""
    def build():
        table = data(np.random.default_rng(seed), table_shape, dtype)
        at = np.asarray(ids, dtype=np.int32)
        m = tfl.Model(new_opcodes=True)
        qt = q(*quant) if dtype == INT8 else None
        ii = m.tensor("ids", [len(ids)], INT32)
        ti = m.tensor("table", table_shape, dtype, data=table, quant=qt)
        out_type = FLOAT32 if hybrid else dtype
        y = m.tensor("output", [len(ids)] + table_shape[1:], out_type, quant=None if hybrid else qt)
        m.inputs, m.outputs = [ii], [y]
        m.op("EMBEDDING_LOOKUP", [ii, ti], [y])
        rows = table[at]
        ref = (rows.astype(np.float64) * np.float64(F32(quant[0]))).astype(F32) if hybrid else rows
        return m, [at], [ref]
    return build


TFLITE_CASES = {
    "reverse_f32_rank3_axis1": case_reverse([2, 3, 5], [1], FLOAT32, 1),
    "reverse_i8_rank4_axes_1_2": case_reverse([1, 3, 4, 2], [1, 2], INT8, 2),
    "reverse_i16_rank1": case_reverse([7], [0], INT16, 3),
    "reverse_i32_rank5_last_axis": case_reverse([2, 1, 3, 2, 2], [4], INT32, 4),
    "gather_nd_f32_elements_computed": case_gather_nd([3, 4, 2], [[0, 1, 1], [2, 3, 0], [1, 0, 1], [2, 2, 1]], FLOAT32, 5, True),
    "gather_nd_i8_slices_constant": case_gather_nd([4, 3, 2], [[[3], [0]], [[1], [1]]], INT8, 6, False),
    "gather_nd_f32_rows_computed": case_gather_nd([5, 6], [[4], [0], [2]], FLOAT32, 7, True),
    "cumsum_f32_axis1": case_cumsum([2, 5, 3], 1, FLOAT32, 8),
    "cumsum_f32_exclusive_reverse_last_axis": case_cumsum([4, 6], -1, FLOAT32, 9, exclusive=True, reverse=True),
    "cumsum_i8_axis0": case_cumsum([6, 4], 0, INT8, 10, quant_in=(0.02, -128), quant_out=(0.5, 3)),
    "cumsum_i8_exclusive_reverse": case_cumsum([3, 5, 2], 1, INT8, 11, exclusive=True, reverse=True,
                                               quant_in=(0.1, 127), quant_out=(0.25, -20)),
    "fill_f32_rank3": case_fill([2, 3, 4], FLOAT32, 12),
    "fill_i8_int64_dims": case_fill([3, 1, 2], INT8, 13, dims_type=INT64),
    "fill_i32_rank1": case_fill([5], INT32, 14),
    "zeros_like_f32": case_zeros_like([2, 3], FLOAT32, 15),
    "zeros_like_i8": case_zeros_like([2, 2, 3], INT8, 16),
    "dynamic_update_slice_f32_rank3_computed_start": case_dynamic_update_slice([3, 4, 5], [2, 2, 3], [1, 1, 2], FLOAT32, 18, True),
    "dynamic_update_slice_i8_clamped_int64_start": case_dynamic_update_slice([4, 6], [2, 3], [3, -2], INT8, 19, False,
                                                                             start_type=INT64),
    "embedding_lookup_f32": case_embedding_lookup([5, 4], [4, 0, 2, 2], FLOAT32, 31),
    "embedding_lookup_i8_rank3": case_embedding_lookup([6, 2, 3], [5, 1], INT8, 32),
    "embedding_lookup_hybrid_i8_table": case_embedding_lookup([4, 5], [3, 0, 1], INT8, 33, hybrid=True, quant=(0.037, 0)),
    "dynamic_update_slice_i16_rank1_clamped": case_dynamic_update_slice([8], [3], [7], INT16, 20, True),
}


# ----------------------------------------------------------------------------------------------------
# ONNX cases: (name, builder). A builder returns (model, inputs, outputs): NumPy's implementation of ONNX's
# definitions (GatherND: indexing by tuples, a negative component from the end; CumSum: np.cumsum in float64,
# rounded to float32, or in the integer type; ConstantOfShape: np.full).

def np_dtype_to_tensor_dtype(dtype):
    from onnx import TensorProto
    return {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.int32): TensorProto.INT32,
            np.dtype(np.int64): TensorProto.INT64}[np.dtype(dtype)]


def onnx_model(nodes, inputs, initializers, output_type=None, opset=13):
    """inputs: (name, numpy array) pairs, graph inputs of the arrays' types and shapes."""
    from onnx import TensorProto, helper
    values = [helper.make_tensor_value_info(name, np_dtype_to_tensor_dtype(x.dtype), list(x.shape)) for name, x in inputs]
    outputs = [helper.make_tensor_value_info("y", output_type or TensorProto.FLOAT, None)]
    graph = helper.make_graph(nodes, "gather_case", values, outputs, initializer=initializers)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="ctnn-test")


def constant(name, values, dtype):
    from onnx import numpy_helper
    return numpy_helper.from_array(np.asarray(values, dtype=dtype), name)


def gather_nd_ref(x, idx, batch_dims=0):
    """ONNX's GatherND: per batch position (the leading batch_dims dims), the slices at its index tuples."""
    batches = int(np.prod(x.shape[:batch_dims]))
    xs = x.reshape((batches,) + x.shape[batch_dims:])
    tuples = idx.reshape(batches, -1, idx.shape[-1])
    parts = [xs[b][tuple(t)] for b in range(batches) for t in tuples[b]]
    return np.stack(parts).reshape(idx.shape[:-1] + x.shape[batch_dims + idx.shape[-1]:])


def onnx_gather_nd_case(shape, indices, seed, computed, dtype=np.float32, batch_dims=0):
    def build():
        from onnx import helper
        rng = np.random.default_rng(seed)
        x = data(rng, shape, FLOAT32 if dtype == np.float32 else INT32).astype(dtype)
        idx = np.asarray(indices, dtype=np.int64)
        nodes = [helper.make_node("GatherND", ["x", "i"], ["y"], **({"batch_dims": batch_dims} if batch_dims else {}))]
        inputs = [("x", x), ("i", idx)] if computed else [("x", x)]
        initializers = [] if computed else [constant("i", idx, np.int64)]
        model = onnx_model(nodes, inputs, initializers, np_dtype_to_tensor_dtype(np.dtype(dtype)))
        return model, [a for _, a in inputs], [gather_nd_ref(x, idx, batch_dims)]
    return build


def onnx_gather_table_case(table_shape, indices, axis, seed):
    """Gather of a constant table (an initializer: PyTorch's Embedding) by computed indices."""
    def build():
        from onnx import helper
        rng = np.random.default_rng(seed)
        table = data(rng, table_shape, FLOAT32).astype(F32)
        idx = np.asarray(indices, dtype=np.int64)
        nodes = [helper.make_node("Gather", ["table", "i"], ["y"], axis=axis)]
        model = onnx_model(nodes, [("i", idx)], [constant("table", table, np.float32)])
        return model, [idx], [np.take(table, idx, axis=axis)]
    return build


def onnx_cumsum_case(shape, axis, seed, exclusive=0, reverse=0, dtype=np.float32, axis_type=np.int64):
    def build():
        from onnx import helper
        x = data(np.random.default_rng(seed), shape, FLOAT32 if dtype == np.float32 else INT32).astype(dtype)
        wide = np.float64 if dtype == np.float32 else dtype
        v = np.flip(x, axis).astype(wide) if reverse else x.astype(wide)
        y = np.cumsum(v, axis=axis, dtype=wide)
        if exclusive:
            y = y - v
        y = (np.flip(y, axis) if reverse else y).astype(dtype)
        nodes = [helper.make_node("CumSum", ["x", "axis"], ["y"], exclusive=exclusive, reverse=reverse)]
        model = onnx_model(nodes, [("x", x)], [constant("axis", axis, axis_type)], np_dtype_to_tensor_dtype(np.dtype(dtype)))
        return model, [x], [np.ascontiguousarray(y)]
    return build


def onnx_scatter_nd_case(shape, indices, seed, reduction="none", computed=True, opset=16, index_type=np.int64):
    """ScatterND of INT64 indices (ONNX's only index type; ctnn also reads INT32 ones), computed or constant, into a float32 input: tuples in order (a
    reduction combines repeated tuples' updates in turn)."""
    def build():
        from onnx import helper
        rng = np.random.default_rng(seed)
        x = data(rng, shape, FLOAT32)
        idx = np.asarray(indices, dtype=index_type)
        u = data(rng, list(idx.shape[:-1]) + shape[idx.shape[-1]:], FLOAT32)
        combine = {"none": lambda old, new: new, "add": np.add, "mul": np.multiply, "max": np.maximum,
                   "min": np.minimum}[reduction]
        y = x.copy()
        for t, update in zip(idx.reshape(-1, idx.shape[-1]), u.reshape((-1,) + y.shape[idx.shape[-1]:])):
            y[tuple(t)] = combine(y[tuple(t)], update)
        attributes = {} if reduction == "none" else {"reduction": reduction}
        nodes = [helper.make_node("ScatterND", ["x", "i", "u"], ["y"], **attributes)]
        inputs = [("x", x), ("i", idx), ("u", u)] if computed else [("x", x), ("u", u)]
        initializers = [] if computed else [constant("i", idx, index_type)]
        model = onnx_model(nodes, inputs, initializers, opset=opset)
        return model, [a for _, a in inputs], [y]
    return build


def onnx_reverse_sequence_case(shape, lengths, time_axis, seed):
    """ReverseSequence of computed INT64 lengths: per batch position, its first lengths[b] time steps reversed."""
    def build():
        from onnx import helper
        x = data(np.random.default_rng(seed), shape, FLOAT32)
        lens = np.asarray(lengths, dtype=np.int64)
        y = x.copy()
        for b, n in enumerate(lens):
            if time_axis == 0:
                y[:n, b] = x[:n, b][::-1]
            else:
                y[b, :n] = x[b, :n][::-1]
        nodes = [helper.make_node("ReverseSequence", ["x", "lens"], ["y"], time_axis=time_axis, batch_axis=1 - time_axis)]
        return onnx_model(nodes, [("x", x), ("lens", lens)], []), [x, lens], [y]
    return build


def onnx_gather_elements_case(shape, index_shape, axis, seed, computed=True, index_type=np.int64, dtype=np.float32):
    """GatherElements: indices in [-dim, dim) along `axis` (numpy's take_along_axis of the wrapped indices)."""
    def build():
        from onnx import helper
        rng = np.random.default_rng(seed)
        x = data(rng, shape, FLOAT32 if dtype == np.float32 else INT32).astype(dtype)
        dim = shape[axis]
        idx = rng.integers(-dim, dim, size=index_shape).astype(index_type)
        y = np.take_along_axis(x[tuple(slice(0, e) if d != axis % len(shape) else slice(None)
                                       for d, e in enumerate(index_shape))], np.where(idx < 0, idx + dim, idx), axis)
        nodes = [helper.make_node("GatherElements", ["x", "i"], ["y"], axis=axis)]
        inputs = [("x", x), ("i", idx)] if computed else [("x", x)]
        initializers = [] if computed else [constant("i", idx, index_type)]
        model = onnx_model(nodes, inputs, initializers, np_dtype_to_tensor_dtype(np.dtype(dtype)))
        return model, [a for _, a in inputs], [np.ascontiguousarray(y)]
    return build


def scatter_elements_ref(x, idx, u, axis, reduction):
    """ONNX's ScatterElements: the updates in index order (row-major), each at its position but along `axis` at
    its wrapped index, replacing or combining with what is there (in the data's type)."""
    y = x.copy()
    dim = x.shape[axis]
    combine = {"none": lambda old, new: new, "add": lambda old, new: old + new, "mul": lambda old, new: old * new,
               "max": max, "min": min}[reduction]
    for at in np.ndindex(*idx.shape):
        to = list(at)
        to[axis] = int(idx[at]) + dim if idx[at] < 0 else int(idx[at])
        y[tuple(to)] = combine(y[tuple(to)], u[at])
    return y


def onnx_scatter_elements_case(shape, indices, axis, seed, reduction="none", opset=16, computed=True,
                               index_type=np.int64, dtype=np.float32):
    """ScatterElements of given indices (repeated and negative ones) into data of `shape`: updates of the
    indices' shape, in the data's type."""
    def build():
        from onnx import helper
        rng = np.random.default_rng(seed)
        kind = FLOAT32 if dtype == np.float32 else INT32
        idx = np.asarray(indices, dtype=index_type)
        x = data(rng, shape, kind).astype(dtype)
        u = data(rng, list(idx.shape), kind).astype(dtype)
        if dtype != np.float32:  # products that stay inside int32
            x, u = (x % 50).astype(dtype), (u % 50).astype(dtype)
        y = scatter_elements_ref(x, idx, u, axis % len(shape), reduction)
        attributes = {"axis": axis, **({} if reduction == "none" else {"reduction": reduction})}
        nodes = [helper.make_node("ScatterElements", ["x", "i", "u"], ["y"], **attributes)]
        inputs = [("x", x), ("i", idx), ("u", u)] if computed else [("x", x), ("u", u)]
        initializers = [] if computed else [constant("i", idx, index_type)]
        model = onnx_model(nodes, inputs, initializers, np_dtype_to_tensor_dtype(np.dtype(dtype)), opset=opset)
        return model, [a for _, a in inputs], [np.ascontiguousarray(y)]
    return build


def onnx_constant_of_shape_case(shape, value, seed):
    """ConstantOfShape (a float value) added to an input of its shape: the constant folds into the Add."""
    def build():
        from onnx import TensorProto, helper
        x = data(np.random.default_rng(seed), shape, FLOAT32)
        fill = helper.make_tensor("value", TensorProto.FLOAT, [1], [value])
        nodes = [helper.make_node("ConstantOfShape", ["s"], ["c"], value=fill), helper.make_node("Add", ["x", "c"], ["y"])]
        model = onnx_model(nodes, [("x", x)], [constant("s", shape, np.int64)])
        return model, [x], [(x + F32(value)).astype(F32)]
    return build


ONNX_CASES = {
    "onnx_gather_nd_elements_computed_negative": onnx_gather_nd_case([3, 4], [[0, -1], [2, 1], [-3, 0]], 21, True),
    "onnx_gather_nd_slices_constant": onnx_gather_nd_case([2, 3, 4], [[[1], [0]], [[-1], [1]]], 22, False),
    "onnx_gather_nd_int32_rows_computed": onnx_gather_nd_case([4, 2, 3], [[3, 1], [0, 0]], 23, True, np.int32),
    "onnx_gather_nd_batch_dims_1": onnx_gather_nd_case([2, 3, 4], [[[2], [0]], [[1], [-1]]], 28, True, batch_dims=1),
    "onnx_gather_constant_table": onnx_gather_table_case([10, 3], [[1, 9, -1, 0], [4, 4, -10, 2]], 0, 35),
    "onnx_gather_constant_table_axis1": onnx_gather_table_case([2, 5, 3], [3, -2], 1, 36),
    "onnx_cumsum_f32_exclusive_reverse": onnx_cumsum_case([3, 5], 1, 24, exclusive=1, reverse=1, axis_type=np.int32),
    "onnx_cumsum_f32_rank4_negative_axis": onnx_cumsum_case([2, 3, 2, 4], -3, 25),
    "onnx_cumsum_int32": onnx_cumsum_case([7], 0, 26, dtype=np.int32),
    "onnx_constant_of_shape_add": onnx_constant_of_shape_case([2, 3, 4], 1.5, 27),
    "onnx_reverse_sequence_time_major": onnx_reverse_sequence_case([4, 3, 2], [4, 1, 2], 0, 34),
    "onnx_scatter_nd_slices": onnx_scatter_nd_case([4, 3, 2], [[1], [3]], 29),
    "onnx_scatter_nd_add_repeated_negative": onnx_scatter_nd_case([3, 4], [[0, 1], [2, -1], [0, 1]], 30, "add"),
    "onnx_scatter_nd_mul_repeated": onnx_scatter_nd_case([2, 3, 2], [[[1, 2], [-1, 2]], [[0, 0], [1, -1]]], 50, "mul"),
    "onnx_scatter_nd_max_repeated_constant_opset18": onnx_scatter_nd_case([3, 2, 2], [[0, 1], [0, 1], [-1, 0]], 51, "max",
                                                                          computed=False, opset=18),
    "onnx_gather_elements_axis0_negative": onnx_gather_elements_case([3, 4], [5, 4], 0, 37),
    "onnx_gather_elements_last_axis_int32_smaller": onnx_gather_elements_case([2, 3, 5], [2, 2, 7], -1, 38, index_type=np.int32),
    "onnx_gather_elements_constant_axis1": onnx_gather_elements_case([2, 4, 3], [2, 3, 3], 1, 39, computed=False),
    "onnx_gather_elements_int32_data_rank4": onnx_gather_elements_case([2, 3, 2, 4], [2, 3, 2, 2], -2, 40, dtype=np.int32),
    "onnx_scatter_elements_axis0_opset11": onnx_scatter_elements_case([3, 4], [[1, 0, 2, 0], [2, -3, 0, 1]], 0, 41, opset=11),
    "onnx_scatter_elements_add_repeated_negative": onnx_scatter_elements_case([2, 5], [[1, -4, 1, 4], [0, 0, -1, 0]], 1, 42, "add"),
    "onnx_scatter_elements_mul_repeated_int32_indices": onnx_scatter_elements_case(
        [2, 3, 4], [[[0, 2], [2, 2], [-1, 0]], [[1, 1], [3, -4], [0, 0]]], -1, 43, "mul", index_type=np.int32),
    "onnx_scatter_elements_max_repeated_opset18": onnx_scatter_elements_case(
        [4, 2, 3], [[[3, 0, 1], [0, 0, 0]], [[3, -1, 1], [2, 0, -4]], [[-1, 3, 1], [0, 1, 0]]], 0, 44, "max", opset=18),
    "onnx_scatter_elements_min_repeated_opset18_axis1": onnx_scatter_elements_case(
        [2, 4, 2, 2], [[[[1, 1], [0, 3]], [[1, 1], [-1, 3]], [[2, 0], [0, 0]]]], 1, 45, "min", opset=18),
    "onnx_scatter_elements_constant_indices_opset13": onnx_scatter_elements_case(
        [3, 3], [[2, -1, 0], [0, 1, 1]], 1, 46, opset=13, computed=False),
    "onnx_scatter_elements_int32_data_add": onnx_scatter_elements_case(
        [3, 2, 2], [[[0, 2], [1, 1]], [[0, 2], [-3, 1]]], 0, 47, "add", dtype=np.int32),
}


# ----------------------------------------------------------------------------------------------------
# Models ctnn must refuse (tests/frontend/frontend_gather_refusals.cpp): tests/data/tflite/gather_refused_*.tflite
# and tests/data/onnx/gather_refused_*.onnx.

def refused_tflite():
    def one(code, operands, out_shape, dtype=FLOAT32, out_quant=None, **options):
        """operands: (name, shape, type, data or None, quant); the ones without data are graph inputs."""
        m = tfl.Model(new_opcodes=True)
        ids = [m.tensor(name, shape, t, data=d, quant=qq) for name, shape, t, d, qq in operands]
        y = m.tensor("output", out_shape, dtype, quant=out_quant)
        m.inputs = [i for i, (_, _, _, d, _) in zip(ids, operands) if d is None]
        m.outputs = [y]
        m.op(code, ids, [y], **options)
        return m
    return {
        # CUMSUM of int32 (TFLM's kernel takes float32 and int8 only).
        "cumsum_int32": one("CUMSUM", [("x", [4], INT32, None, None), ("axis", [], INT32, np.asarray(0), None)], [4], INT32),
        # REVERSE_V2 of axes 0 and 2, not consecutive (TFLM's Eval refuses them).
        "reverse_not_consecutive": one("REVERSE_V2", [("x", [2, 3, 4], FLOAT32, None, None),
                                                      ("axis", [2], INT32, np.asarray([0, 2]), None)], [2, 3, 4]),
        # GATHER_ND of a constant tuple outside the data.
        "gather_nd_index_outside": one("GATHER_ND", [("x", [3, 2], FLOAT32, None, None),
                                                     ("indices", [1, 2], INT32, np.asarray([[3, 0]]), None)], [1]),
        # FILL whose dims differ from the output's shape.
        "fill_dims_mismatch": one("FILL", [("dims", [2], INT32, np.asarray([2, 3]), None), ("value", [], FLOAT32, None, None)],
                                  [3, 2]),
        # EMBEDDING_LOOKUP of an int8 table read as float32 with a zero point other than 0 (TFLM refuses it).
        "embedding_lookup_hybrid_zero_point": one("EMBEDDING_LOOKUP", [
            ("ids", [2], INT32, None, None), ("table", [3, 2], INT8, np.arange(6), q(0.5, 1))], [2, 2]),
    }


def refused_onnx():
    from onnx import TensorProto, helper
    x = np.zeros([2, 3], F32)
    fill = helper.make_tensor("value", TensorProto.INT8, [1], [7])
    return {
        # ConstantOfShape of an INT8 value (FLOAT values are tiled, INT64 and INT32 ones computed at import).
        "constant_of_shape_int": onnx_model([helper.make_node("ConstantOfShape", ["s"], ["y"], value=fill)], [],
                                            [constant("s", [2, 3], np.int64)], TensorProto.INT8),
        # ScatterND with a reduction ONNX does not define.
        "scatter_nd_reduction_unknown": onnx_model(
            [helper.make_node("ScatterND", ["x", "i", "u"], ["y"], reduction="sub")],
            [("x", x), ("i", np.zeros([1, 1], np.int64)), ("u", np.zeros([1, 3], F32))], [], opset=16),
        # GatherElements with an axis outside the data's rank.
        "gather_elements_axis_outside": onnx_model(
            [helper.make_node("GatherElements", ["x", "i"], ["y"], axis=2)],
            [("x", x), ("i", np.zeros([2, 3], np.int64))], []),
        # ScatterElements of a constant index outside the axis (3 in an axis of extent 3).
        "scatter_elements_constant_index_outside": onnx_model(
            [helper.make_node("ScatterElements", ["x", "i", "u"], ["y"], axis=1)], [("x", x), ("u", np.zeros([1, 2], F32))],
            [constant("i", [[0, 3]], np.int64)]),
        # ScatterND of a constant tuple whose second component (-4) lies outside its dim of extent 3.
        "scatter_nd_constant_tuple_outside": onnx_model(
            [helper.make_node("ScatterND", ["x", "i", "u"], ["y"])], [("x", x), ("u", np.zeros([1], F32))],
            [constant("i", [[1, -4]], np.int64)]),
        # GatherND of constant indices with batch_dims 1 (constant tuples are read with batch_dims 0 only).
        "gather_nd_constant_batch_dims": onnx_model(
            [helper.make_node("GatherND", ["x", "i"], ["y"], batch_dims=1)], [("x", x)],
            [constant("i", [[1], [0]], np.int64)]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tflm", help="path to tflm_run: (re)write the TFLite cases' outputs with the oracle")
    args = parser.parse_args()
    family = op_tests.Family("gather", args.tflm)
    op_tests.write_checked_cases(family, TFLITE_CASES)
    op_tests.write_onnx_cases(family, ONNX_CASES)
    family.finish()
    op_tests.write_refused("gather", refused_tflite(), refused_onnx())


if __name__ == "__main__":
    main()
