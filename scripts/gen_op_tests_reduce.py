#!/usr/bin/python3
"""The op-conformance cases of the reduction family (tests/data/ops/reduce; scripts/op_tests.py): TFLite
SUM, REDUCE_MAX, REDUCE_MIN, MEAN (which shares their kernels' parts), ARG_MAX, ARG_MIN in float32 and int8
(ranks 1 to 5, negative and repeated axes, several axes, keep_dims both ways, int8 scales from 1e-6 to 1e2
and zero points at the extremes), reference outputs from TensorFlow Lite Micro's reference kernels; ONNX
ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceSumSquare, ReduceL1, ReduceL2, ReduceLogSum,
ReduceLogSumExp, ArgMax, ArgMin in float32 (axes as attribute, opset 13, and as input, opset 18; keepdims; noop_with_empty_axes;
select_last_index; ReduceMax and ReduceMin of bools), TopK (k an attribute at opset 1, a constant input from 10; largest; ties), Hardmax (opset 13
axes, opset 11's flattened form, ties and NaN), reference outputs from NumPy in float64 (TopK's and Hardmax's
also equal onnxruntime 1.30.0's, NaN aside: scripts/check_onnx_cases_with_ort.py).

    /usr/bin/python3 scripts/gen_op_tests_reduce.py --tflm /work/oracle/tflm/tflm_run   # records outputs
    /usr/bin/python3 scripts/gen_op_tests_reduce.py      # rewrites models and inputs, keeps the TFLite outputs

Also writes the models the importer refuses (tests/data/tflite/bad_reduce_max_requantized.tflite,
bad_arg_max_two_axes.tflite, bad_arg_max_int64.tflite; tests/frontend/tflite/frontend_tflite_errors.cpp) and the ONNX
ones (tests/data/onnx/reduce_refused_*.onnx; tests/frontend/frontend_onnx_math_refusals.cpp).
"""

from __future__ import annotations

import argparse

import numpy as np
from onnx import TensorProto, helper, numpy_helper

import op_tests
from op_tests import tfl

# (case, input shape, axes, keep_dims)
SHAPES = [
    ("rank1", [7], [0], False),
    ("rank2_last_keep", [3, 5], [-1], True),
    ("rank3_outer_inner", [4, 3, 5], [0, 2], False),
    ("rank4_hw_keep", [2, 5, 3, 4], [1, 2], True),
    ("rank4_negative_repeated", [2, 3, 4, 3], [-3, 1, 3], False),
    ("rank5_keep", [2, 3, 2, 3, 2], [1, 3, 4], True),
    ("rank5_all_keep", [2, 1, 3, 2, 3], [0, 1, 2, 3, 4], True),
]

# int8 (scale, zero point) of the input and the result of SUM
SUM_QUANT = [
    ((0.05, -3), (0.3, 5)),
    ((1e-6, 127), (1e-5, -128)),
    ((2.0, -128), (100.0, 127)),
    ((0.5, 0), (0.01, 0)),  # saturates
]
# REDUCE_MAX/MIN: TFLM needs one quantization in and out
EXTREMUM_QUANT = [(0.02, -128), (3.0, 127), (1e-6, 5)]


def reduced_shape(shape, axes, keep):
    axes = {a % len(shape) for a in axes}
    return [1 if d in axes else n for d, n in enumerate(shape) if keep or d not in axes]


def reduce_case(op: str, shape, axes, keep, dtype, quant=None) -> tfl.Model:
    m = tfl.Model(new_opcodes=True)
    q = (lambda i: dict(scale=[quant[i][0]], zero_point=[quant[i][1]])) if quant else (lambda i: None)
    x = m.tensor("x", shape, dtype, quant=q(0))
    a = m.tensor("axes", [len(axes)], tfl.INT32, data=np.array(axes))
    y = m.tensor("y", reduced_shape(shape, axes, keep), dtype, quant=q(1))
    m.inputs, m.outputs = [x], [y]
    m.op(op, [x, a], [y], keep_dims=keep)
    return m


# (case, input shape, axis) of ARG_MAX / ARG_MIN
ARG_SHAPES = [
    ("rank1", [9], 0),
    ("rank2_negative", [4, 6], -1),
    ("rank3_middle", [3, 5, 4], 1),
    ("rank4_first", [4, 2, 3, 2], 0),
    ("rank5", [2, 3, 2, 4, 3], 3),
]


def arg_case(op: str, shape, axis, dtype, quant=None) -> tfl.Model:
    m = tfl.Model(new_opcodes=True)
    x = m.tensor("x", shape, dtype, quant=dict(scale=[quant[0]], zero_point=[quant[1]]) if quant else None)
    a = m.tensor("axis", [1], tfl.INT32, data=np.array([axis]))
    y = m.tensor("y", [n for d, n in enumerate(shape) if d != axis % len(shape)], tfl.INT32)
    m.inputs, m.outputs = [x], [y]
    m.op(op, [x, a], [y], output_type=tfl.INT32)
    return m


def tflite_arg_cases(family: op_tests.Family, rng: np.random.RandomState) -> None:
    for op in ("ARG_MAX", "ARG_MIN"):
        for name, shape, axis in ARG_SHAPES:
            # few distinct values: ties, which TFLM resolves to the first index
            x = rng.randint(-3, 4, size=shape).astype(np.float32) * 0.5
            family.write_case(f"{op.lower()}_f32_{name}", arg_case(op, shape, axis, tfl.FLOAT32), [x])
            family.write_case(f"{op.lower()}_i8_{name}", arg_case(op, shape, axis, tfl.INT8, (0.1, -128)),
                              [op_tests.int8_range(rng, shape, -128)])
        x = np.array([[1.0, np.inf, -np.inf, np.inf], [0.0, -0.0, -1e-30, 1e-30]], np.float32)
        family.write_case(f"{op.lower()}_f32_specials", arg_case(op, [2, 4], 1, tfl.FLOAT32), [x])


def tflite_cases(family: op_tests.Family, rng: np.random.RandomState) -> None:
    for op in ("SUM", "REDUCE_MAX", "REDUCE_MIN", "MEAN"):
        for name, shape, axes, keep in SHAPES:
            m = reduce_case(op, shape, axes, keep, tfl.FLOAT32)
            family.write_case(f"{op.lower()}_f32_{name}", m, [rng.uniform(-3, 3, size=shape).astype(np.float32)])
            extremum_quant = [(q, q) for q in EXTREMUM_QUANT]
            quants = SUM_QUANT if op == "SUM" else extremum_quant if op != "MEAN" else SUM_QUANT + extremum_quant[:1]
            for k, quant in enumerate(quants):
                m = reduce_case(op, shape, axes, keep, tfl.INT8, quant)
                family.write_case(f"{op.lower()}_i8_{name}_q{k}", m, [op_tests.int8_range(rng, shape, quant[0][1])])
    # float specials: TFLM's max/min skip a NaN (its compare is `in > current`), sums carry inf
    shape = [2, 6]
    x = np.array([[0.0, -0.0, np.inf, 1.0, -2.0, 3.0], [np.nan, 1.0, -np.inf, -1e30, 1e30, 2.0]], np.float32)
    for op in ("SUM", "REDUCE_MAX", "REDUCE_MIN"):
        family.write_case(f"{op.lower()}_f32_specials", reduce_case(op, shape, [0], False, tfl.FLOAT32), [x])


# ONNX: (op, NumPy float64 reference of (x, axes tuple, keepdims))
ONNX_REDUCE = {
    "ReduceSum": lambda x, a, k: np.sum(x, axis=a, keepdims=k),
    "ReduceMean": lambda x, a, k: np.mean(x, axis=a, keepdims=k),
    "ReduceMax": lambda x, a, k: np.max(x, axis=a, keepdims=k),
    "ReduceMin": lambda x, a, k: np.min(x, axis=a, keepdims=k),
    "ReduceProd": lambda x, a, k: np.prod(x, axis=a, keepdims=k),
    "ReduceSumSquare": lambda x, a, k: np.sum(x * x, axis=a, keepdims=k),
    "ReduceL1": lambda x, a, k: np.sum(np.abs(x), axis=a, keepdims=k),
    "ReduceL2": lambda x, a, k: np.sqrt(np.sum(x * x, axis=a, keepdims=k)),
    "ReduceLogSum": lambda x, a, k: np.log(np.sum(x, axis=a, keepdims=k)),
    "ReduceLogSumExp": lambda x, a, k: np.log(np.sum(np.exp(x), axis=a, keepdims=k)),
}
# (case, opset, shape, axes (None: absent), keepdims, noop_with_empty_axes)
ONNX_SHAPES = [
    ("rank4_attribute_axes", 13, [2, 3, 4, 5], [1, -1], 1, 0),
    ("rank5_input_axes", 18, [3, 2, 2, 3, 2], [-4, 0, 4], 0, 0),
    ("rank2_no_axes", 18, [3, 4], None, 1, 0),
    ("rank3_no_axes_scalar", 18, [2, 3, 2], None, 0, 0),
    ("rank3_empty_axes_noop", 18, [2, 3, 2], [], 1, 1),
]


def onnx_model(node, inputs, outputs, initializers, opset: int) -> bytes:
    graph = helper.make_graph([node], "reduce", inputs, outputs, initializer=initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="ctnn")
    model.ir_version = 8
    return model.SerializeToString()


def onnx_reduce_cases(family: op_tests.Family, rng: np.random.RandomState) -> None:
    """Inputs are multiples of 1/8 in [-2, 2] (1/4 and 1/2 for the product), so that float32 sums and
    products are exact and the float64 reference is the answer to the last bit but for sqrt and mean."""
    for op, reference in ONNX_REDUCE.items():
        for name, opset, shape, axes, keep, noop in ONNX_SHAPES:
            axes_as_input = opset >= (13 if op == "ReduceSum" else 18)
            step = 0.5 if op == "ReduceProd" else 0.125
            low = 1 if op == "ReduceLogSum" else -int(2 / step)  # the log of a positive sum
            x = (rng.randint(low, int(2 / step) + 1, size=shape) * step).astype(np.float32)
            attrs = dict(keepdims=keep)
            initializers, names = [], ["x"]
            if axes is not None and axes_as_input:
                initializers.append(numpy_helper.from_array(np.array(axes, np.int64), "axes"))
                names.append("axes")
            elif axes is not None:
                attrs["axes"] = axes
            if noop:
                attrs["noop_with_empty_axes"] = 1
            if not axes_as_input and (noop or axes == []):
                continue  # the attribute form has neither
            reduced = tuple(axes) if axes else None
            y = x.astype(np.float64) if (noop and not axes) else reference(x.astype(np.float64), reduced, bool(keep))
            y = np.asarray(y, np.float32)
            node = helper.make_node(op, names, ["y"], **attrs)
            model = onnx_model(node, [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                               [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(y.shape))], initializers, opset)
            family.write_computed_case(f"onnx_{op.lower()}_{name}", "model.onnx", model, [x], [y])


# (case, shape, axis, keepdims, select_last_index)
ONNX_ARG_SHAPES = [
    ("rank1", [9], 0, 0, 0),
    ("rank3_last_select_last", [3, 4, 5], -1, 0, 1),
    ("rank5_keepdims", [2, 3, 4, 2, 3], 2, 1, 0),
    ("rank4_first_select_last_keepdims", [4, 2, 3, 2], 0, 1, 1),
]


def onnx_arg_cases(family: op_tests.Family, rng: np.random.RandomState) -> None:
    for op, pick in (("ArgMax", np.argmax), ("ArgMin", np.argmin)):
        for name, shape, axis, keep, last in ONNX_ARG_SHAPES:
            x = (rng.randint(-2, 3, size=shape) * 0.5).astype(np.float32)  # many ties
            if last:  # the last extremum: the first of the reversed axis
                y = shape[axis] - 1 - pick(np.flip(x, axis=axis), axis=axis)
            else:
                y = pick(x, axis=axis)
            y = np.expand_dims(y, axis) if keep else y
            y = np.asarray(y, np.int64)
            node = helper.make_node(op, ["x"], ["y"], axis=axis, keepdims=keep, select_last_index=last)
            model = onnx_model(node, [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                               [helper.make_tensor_value_info("y", TensorProto.INT64, list(y.shape))], [], 13)
            family.write_computed_case(f"onnx_{op.lower()}_{name}", "model.onnx", model, [x], [y])


# TopK: (case, opset, shape, axis, k, largest); both outputs, Values and Indices.
ONNX_TOP_K = [
    ("rank2_last_axis_ties", 11, [4, 9], -1, 3, 1),
    ("rank3_axis1_smallest", 11, [2, 5, 3], 1, 2, 0),
    ("rank1_full_sort", 11, [7], 0, 7, 1),
    ("rank4_axis0_k_attribute_opset1", 1, [3, 2, 2, 3], 0, 2, 1),
    ("rank3_negative_axis_opset10", 10, [2, 3, 6], -2, 1, 1),
]


def top_k_reference(x, axis, k, largest):
    """ONNX's TopK: a stable sort of the negated (largest) or plain values keeps equal values in index order."""
    order = np.argsort(-x if largest else x, axis=axis, kind="stable")
    indices = np.take(order, np.arange(k), axis=axis)
    return np.take_along_axis(x, indices, axis=axis), indices.astype(np.int64)


def onnx_top_k_cases(family: op_tests.Family, rng: np.random.RandomState) -> None:
    """Inputs of few distinct values (many ties, a signed zero): the order of equal values is ONNX's."""
    for name, opset, shape, axis, k, largest in ONNX_TOP_K:
        x = (rng.randint(-3, 4, size=shape) * 0.5).astype(np.float32)
        x.reshape(-1)[1] = -0.0
        values, indices = top_k_reference(x, axis, k, largest)
        initializers, names, attrs = [], ["x"], dict(axis=axis)
        if opset >= 10:
            initializers.append(numpy_helper.from_array(np.array([k], np.int64), "k"))
            names.append("k")
        else:
            attrs["k"] = k
        if opset >= 11:
            attrs["largest"] = largest
        node = helper.make_node("TopK", names, ["values", "indices"], **attrs)
        model = onnx_model(node, [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                           [helper.make_tensor_value_info("values", TensorProto.FLOAT, list(values.shape)),
                            helper.make_tensor_value_info("indices", TensorProto.INT64, list(indices.shape))],
                           initializers, opset)
        family.write_computed_case(f"onnx_top_k_{name}", "model.onnx", model, [x], [values, indices])


# Hardmax: (case, opset, shape, axis or None for the default)
ONNX_HARDMAX = [
    ("rank2_default_axis_ties", 13, [5, 6], None),
    ("rank3_axis0", 13, [3, 2, 4], 0),
    ("rank4_axis1_nan", 13, [2, 3, 2, 2], 1),
    ("rank3_coerced_opset11", 11, [2, 3, 4], None),
    ("rank4_coerced_axis2_opset11", 11, [2, 2, 3, 2], 2),
]


def hardmax_reference(x, axis, coerced):
    """ONNX's Hardmax: 1 at numpy's argmax (the first largest; a NaN counts as the largest) along the axis; before
    opset 13 along the flattened dims from the axis on."""
    shape = x.shape
    if coerced:
        x = x.reshape(int(np.prod(shape[:axis])), -1)
        axis = 1
    y = np.zeros_like(x)
    np.put_along_axis(y, np.expand_dims(np.argmax(x, axis=axis), axis), 1.0, axis=axis)
    return y.reshape(shape)


def onnx_hardmax_cases(family: op_tests.Family, rng: np.random.RandomState) -> None:
    for name, opset, shape, axis in ONNX_HARDMAX:
        x = (rng.randint(-2, 3, size=shape) * 0.5).astype(np.float32)  # many ties
        if "nan" in name:
            x.reshape(-1)[[1, 5]] = np.nan
        attrs = {} if axis is None else {"axis": axis}
        along = axis if axis is not None else (1 if opset < 13 else len(shape) - 1)
        y = hardmax_reference(x, along, opset < 13).astype(np.float32)
        node = helper.make_node("Hardmax", ["x"], ["y"], **attrs)
        model = onnx_model(node, [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                           [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)], [], opset)
        family.write_computed_case(f"onnx_hardmax_{name}", "model.onnx", model, [x], [y])


def onnx_bool_reduce_cases(family: op_tests.Family, rng: np.random.RandomState) -> None:
    """ReduceMax and ReduceMin of bools (opset 20): any and all along the axes."""
    for op, pick in (("ReduceMax", np.any), ("ReduceMin", np.all)):
        for name, shape, axes, keep in (("rank2_axis1_keepdims", [4, 3], [1], 1), ("rank3_axes02", [2, 3, 4], [0, 2], 0)):
            x = rng.rand(*shape) < (0.8 if op == "ReduceMin" else 0.2)
            y = pick(x, axis=tuple(axes), keepdims=bool(keep))
            node = helper.make_node(op, ["x", "axes"], ["y"], keepdims=keep)
            model = onnx_model(node, [helper.make_tensor_value_info("x", TensorProto.BOOL, shape)],
                               [helper.make_tensor_value_info("y", TensorProto.BOOL, list(y.shape))],
                               [numpy_helper.from_array(np.array(axes, np.int64), "axes")], 20)
            family.write_computed_case(f"onnx_{op.lower()}_bool_{name}", "model.onnx", model, [x], [y])


def refused_onnx_models() -> dict[str, bytes]:
    """ONNX models ctnn refuses (tests/frontend/frontend_onnx_math_refusals.cpp): tests/data/onnx/reduce_refused_*.onnx."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 5])
    k = helper.make_tensor_value_info("k", TensorProto.INT64, [1])
    outputs = [helper.make_tensor_value_info("values", TensorProto.FLOAT, None),
               helper.make_tensor_value_info("indices", TensorProto.INT64, None)]
    return {
        # TopK whose K is computed (a graph input): the result's shape would be known at run time only.
        "top_k_computed_k": onnx_model(helper.make_node("TopK", ["x", "k"], ["values", "indices"]), [x, k], outputs, [], 11),
        # Hardmax with an axis outside the input's rank.
        "hardmax_axis_outside": onnx_model(helper.make_node("Hardmax", ["x"], ["y"], axis=2), [x],
                                           [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [], 13),
        # TopK with K larger than the axis' extent.
        "top_k_k_too_large": onnx_model(helper.make_node("TopK", ["x", "k"], ["values", "indices"]), [x], outputs,
                                        [numpy_helper.from_array(np.array([6], np.int64), "k")], 11),
    }


# Models the TFLite importer refuses as TFLM would fail them (tests/frontend/tflite/frontend_tflite_errors.cpp).
REFUSED_DIR = op_tests.HERE.parent / "tests" / "data" / "tflite"
INT64 = 4


def refused_models() -> dict[str, tfl.Model]:
    models = {}
    # int8 REDUCE_MAX whose output is quantized differently (TFLM's EvalMinMaxHelper fails)
    m = reduce_case("REDUCE_MAX", [2, 3], [1], False, tfl.INT8, ((0.1, 0), (0.2, 0)))
    models["bad_reduce_max_requantized"] = m
    # ARG_MAX over two axes, and with an int64 result (TFLM's ArgMinMax writes int32 only)
    m = arg_case("ARG_MAX", [2, 3], 1, tfl.FLOAT32)
    m.tensors[1]["shape"], m.buffers[m.tensors[1]["buffer"]] = [2], np.array([0, 1], np.int32).tobytes()
    models["bad_arg_max_two_axes"] = m
    m = arg_case("ARG_MAX", [2, 3], 1, tfl.FLOAT32)
    m.tensors[2]["type"] = INT64
    models["bad_arg_max_int64"] = m
    return models


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tflm", metavar="TFLM_RUN", help="the TFLM host oracle: records the reference outputs")
    args = parser.parse_args()
    family = op_tests.Family("reduce", args.tflm)
    rng = np.random.RandomState(11)
    tflite_cases(family, rng)
    tflite_arg_cases(family, rng)
    onnx_reduce_cases(family, rng)
    onnx_arg_cases(family, rng)
    onnx_top_k_cases(family, np.random.RandomState(12))
    onnx_hardmax_cases(family, np.random.RandomState(13))
    onnx_bool_reduce_cases(family, np.random.RandomState(14))
    family.finish()
    for name, model in refused_models().items():
        (REFUSED_DIR / f"{name}.tflite").write_bytes(model.serialize())
    for name, model in refused_onnx_models().items():
        (op_tests.HERE.parent / "tests" / "data" / "onnx" / f"reduce_refused_{name}.onnx").write_bytes(model)


if __name__ == "__main__":
    main()
