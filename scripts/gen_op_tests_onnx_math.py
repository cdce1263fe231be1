#!/usr/bin/python3
"""Op-conformance cases of the `onnx_math` family (ONNX operators as exporters write them, float32):
tests/data/ops/onnx_math/<case>/, and the family's refused models tests/data/onnx/onnx_math_refused_<name>.onnx.

  unary_function: Erf, Gelu (approximate none and tanh, opset 20), Softplus, Softsign, Selu, Celu,
                  ThresholdedRelu, Sign, Tan, Sinh, Cosh, Asin, Acos, Atan, Asinh, Acosh, Atanh, Shrink, Mish (default
                  and other attributes; special values), and each of an initializer (folded at compile time:
                  ctnn::detail::math in constant evaluation);
  layer_norm:     LayerNormalization (opset 17: axes, epsilon, with and without B), InstanceNormalization,
                  MeanVarianceNormalization (default and other axes), GroupNormalization (opset 18 per group,
                  opset 21 per channel; constant and computed scale and bias; 1-D, 2-D, rank 2);
  binary_function: Pow (tensor, constant and broadcast exponents; C's special cases), Mod with fmod 1;
  Mean:           the sum over the operand count (add, unary_function divide), broadcast;
  TFLite GELU:    float32, approximate false and true (int8: refused, tests/data/tflite/onnx_math_refused_gelu_int8.tflite);
  other rows:     LogSoftmax (opset 13 axes, opset 11's flattened form), GlobalMaxPool (2-D and 1-D), Dropout
                  (opset 12 with ratio and training_mode false, opset 7).

Outputs: NumPy in float64 with ONNX's definitions (onnx/backend/test/case/node), rounded to float32. The
models and inputs are deterministic (fixed seeds): re-running reproduces every file byte for byte.

    /usr/bin/python3 scripts/gen_op_tests_onnx_math.py
"""

from __future__ import annotations

import math

import numpy as np
from onnx import TensorProto, helper, numpy_helper

import op_tests
from op_tests import tfl

# TFLite GELU (builtin 150, GeluOptions: union tag 116, field 0 approximate), float32 only here.
tfl.OPS.update({"GELU": 150})
tfl.OPTIONS.update({"GELU": 116})
_writer_options = tfl.options_table


def options_table(code: str, o: dict, va: bool):
    if code == "GELU":
        return tfl.Table({0: ("bool", 1)} if o.get("approximate") else {}, va)
    return _writer_options(code, o, va)


tfl.options_table = options_table

SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1.0, -1.0, 30.0, -30.0], np.float32)
erf = np.vectorize(math.erf, otypes=[np.float64])


def rng_for(name: str) -> np.random.RandomState:
    return np.random.RandomState(sum(ord(c) * (k + 1) for k, c in enumerate(name)) % (2**31))


def float_input(name: str, shape, low, high, specials=None) -> np.ndarray:
    x = rng_for(name).uniform(low, high, size=shape).astype(np.float32)
    if specials is not None:
        flat = x.reshape(-1)
        flat[: min(len(specials), flat.size)] = specials[: flat.size]
    return x


def model(nodes, inputs, outputs, initializers=(), opset=13):
    graph = helper.make_graph(nodes, "onnx_math", inputs, outputs, list(initializers))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="ctnn-test")
    m.ir_version = 8
    return m


def tensor(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


# ONNX's definitions in float64 (onnx/backend/test/case/node/<op>.py), with the node's attributes.
def gelu(x, approximate="none"):
    if approximate == "tanh":
        return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))
    return 0.5 * x * (1 + erf(x / np.sqrt(2)))


def selu(x, alpha=1.67326319217681884765625, gamma=1.05070102214813232421875):
    return np.where(x > 0, gamma * x, gamma * alpha * (np.exp(np.minimum(x, 0)) - 1))


def celu(x, alpha=1.0):
    return np.maximum(0, x) + np.minimum(0, alpha * (np.exp(np.minimum(x, 0) / alpha) - 1))


def shrink(x, lambd=0.5, bias=0.0):
    return np.where(x < -lambd, x + bias, np.where(x > lambd, x - bias, 0))


def thresholded_relu(x, alpha=1.0):
    """ONNX's reference: clip to [alpha, inf), then alpha to 0 (NaN stays)."""
    y = np.clip(x, alpha, np.inf)
    y[y == alpha] = 0
    return y


def softplus(x):
    return np.where(x > 0, x + np.log1p(np.exp(-np.abs(x))), np.log1p(np.exp(np.minimum(x, 0))))


# op -> [(case label, attributes, float64 reference, (shape, low, high, specials))]
UNARY = {
    "Erf": [("", {}, erf, ([3, 4, 5], -4, 4, SPECIAL))],
    "Gelu": [("", {}, gelu, ([2, 3, 7], -6, 6, SPECIAL)),
             ("tanh", {"approximate": "tanh"}, lambda x: gelu(x, "tanh"), ([1, 3, 4, 4], -6, 6, SPECIAL))],
    "Softplus": [("", {}, softplus, ([17], -40, 40, SPECIAL))],
    "Softsign": [("", {}, lambda x: x / (1 + np.abs(x)), ([2, 9], -20, 20, SPECIAL[:5]))],
    "Selu": [("", {}, selu, ([3, 5], -5, 5, SPECIAL)),
             ("alpha_gamma", {"alpha": 2.0, "gamma": 3.0}, lambda x: selu(x, 2.0, 3.0), ([1, 2, 3, 3], -5, 5, None))],
    "Celu": [("", {}, celu, ([13], -6, 6, SPECIAL)),
             ("alpha", {"alpha": 2.5}, lambda x: celu(x, 2.5), ([2, 3, 4], -6, 6, None))],
    "ThresholdedRelu": [("", {}, thresholded_relu, ([3, 7], -3, 3, SPECIAL)),
                        ("alpha", {"alpha": -0.5}, lambda x: thresholded_relu(x, -0.5), ([11], -3, 3, None))],
    "Sign": [("", {}, np.sign, ([2, 2, 5], -3, 3, SPECIAL))],
    "Tan": [("", {}, np.tan, ([15], -1.5, 1.5, SPECIAL[:5]))],
    "Sinh": [("", {}, np.sinh, ([3, 5], -10, 10, np.array([0, -0.0, 89, -89, 100, 1e-6, -1e-30], np.float32)))],
    "Cosh": [("", {}, np.cosh, ([3, 5], -10, 10, np.array([0, -0.0, 89, -89, 100, 1e-6], np.float32)))],
    "Asin": [("", {}, np.arcsin, ([13], -1, 1, np.array([1, -1, 0, -0.0, 1.5, np.nan, 1e-30], np.float32)))],
    "Acos": [("", {}, np.arccos, ([13], -1, 1, np.array([1, -1, 0, 0.9999999, -1.5], np.float32)))],
    "Atan": [("", {}, np.arctan, ([2, 3, 4], -20, 20, np.array([0, 1, -1, 1e30, -1e30, np.inf, -np.inf, 0.2, 1e-30], np.float32)))],
    "Asinh": [("", {}, np.arcsinh, ([15], -20, 20, np.array([0, 1e-5, -1e-5, 1e30, -1e30, np.inf, 1e-30], np.float32)))],
    "Acosh": [("", {}, np.arccosh, ([15], 1, 30, np.array([1, 1.0000001, 3e38, 0.5, np.inf], np.float32)))],
    "Atanh": [("", {}, np.arctanh, ([15], -1, 1, np.array([0, 1, -1, 1e-5, -2, 0.9999999], np.float32)))],
    "Shrink": [("", {}, shrink, ([3, 5], -2, 2, SPECIAL)),
               ("lambd_bias", {"lambd": 1.5, "bias": 1.5}, lambda x: shrink(x, 1.5, 1.5), ([2, 1, 5, 3], -4, 4, None))],
    "Mish": [("", {}, lambda x: x * np.tanh(softplus(x)), ([3, 17], -40, 40, SPECIAL))],
}
OPSET = {"Gelu": 20, "Celu": 12, "Mish": 18}
# Positive operands for the folded case (acosh's domain starts at 1, the others' include [0.2, 0.9]).
FOLDED_RANGE = {"Acosh": (1.2, 4.0)}


def unary_cases():
    cases = {}
    for op, variants in UNARY.items():
        for label, attrs, reference, (shape, low, high, specials) in variants:
            name = f"{op.lower()}{'_' + label if label else ''}"

            def build(op=op, attrs=attrs, reference=reference, shape=shape, low=low, high=high, specials=specials, name=name):
                x = float_input(name, shape, low, high, specials)
                with np.errstate(all="ignore"):
                    y = reference(x.astype(np.float64)).astype(np.float32)
                m = model([helper.make_node(op, ["x"], ["y"], **attrs)], [tensor("x", shape)], [tensor("y", shape)],
                          opset=OPSET.get(op, 13))
                return m, [x], [y]
            cases[name] = build
    return cases


def folded_constants():
    """y = x + Erf(c0) + Gelu(c1) + ... + Shrink(c17): every function of an initializer, which fold_constants
    computes at compile time in the compiled route. Reference: each op in float64 rounded to float32, the sums
    in float32 (as the model's Adds)."""
    rng = rng_for("folded_constants")
    shape = [2, 3]
    x = float_input("folded_constants_x", shape, -1, 1)
    nodes, initializers, total, y = [], [], "x", x.copy()
    ops = [(op, variants[0]) for op, variants in UNARY.items()]
    for k, (op, (_, attrs, reference, _)) in enumerate(ops):
        low, high = FOLDED_RANGE.get(op, (0.2, 0.9))
        c = rng.uniform(low, high, size=shape).astype(np.float32)
        c[0, 0] = -c[0, 0] if op not in FOLDED_RANGE else c[0, 0]
        initializers.append(numpy_helper.from_array(c, f"c{k}"))
        nodes.append(helper.make_node(op, [f"c{k}"], [f"f{k}"], **attrs))
        out = "y" if k == len(ops) - 1 else f"sum{k}"
        nodes.append(helper.make_node("Add", [total, f"f{k}"], [out]))
        total = out
        y = (y + reference(c.astype(np.float64)).astype(np.float32)).astype(np.float32)
    return model(nodes, [tensor("x", shape)], [tensor("y", shape)], initializers, opset=20), [x], [y]


def normalized(x, axes, epsilon):
    mean = x.mean(axis=axes, keepdims=True)
    variance = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(variance + epsilon)


def layer_norm_case(name, shape, axis, epsilon=None, bias=True, scale_shape=None, runtime_scale=False,
                    statistics=False):
    def build():
        rng = rng_for(name)
        x = float_input(name, shape, -3, 3) * rng.uniform(0.5, 4.0)
        x = x.astype(np.float32)
        a = axis if axis >= 0 else axis + len(shape)
        normalized_shape = scale_shape or shape[a:]
        scale = rng.uniform(-2, 2, size=normalized_shape).astype(np.float32)
        b = rng.uniform(-1, 1, size=normalized_shape).astype(np.float32)
        attrs = {"axis": axis}
        if epsilon is not None:
            attrs["epsilon"] = epsilon
        eps = 1e-5 if epsilon is None else epsilon
        y = normalized(x.astype(np.float64), tuple(range(a, len(shape))), np.float64(np.float32(eps))) * scale
        if bias:
            y = y + b
        inputs, initializers, data = [tensor("x", shape)], [], [x]
        if runtime_scale:
            inputs.append(tensor("scale", list(normalized_shape)))
            data.append(scale)
        else:
            initializers.append(numpy_helper.from_array(scale, "scale"))
        if bias:
            initializers.append(numpy_helper.from_array(b, "b"))
        outputs, expected = ["y"], [y.astype(np.float32)]
        if statistics:  # Mean and InvStdDev, the normalised axes kept as extent 1 (ONNX's reference)
            axes = tuple(range(a, len(shape)))
            x64 = x.astype(np.float64)
            mean = x64.mean(axis=axes, keepdims=True)
            inv_std_dev = 1 / np.sqrt(((x64 - mean) ** 2).mean(axis=axes, keepdims=True) + np.float32(eps))
            outputs += ["mean", "inv_std_dev"]
            expected += [mean.astype(np.float32), inv_std_dev.astype(np.float32)]
        node = helper.make_node("LayerNormalization", ["x", "scale"] + (["b"] if bias else []), outputs, **attrs)
        infos = [tensor("y", shape)] + [tensor(o, list(e.shape)) for o, e in zip(outputs[1:], expected[1:])]
        return model([node], inputs, infos, initializers, opset=17), data, expected
    return build


def instance_norm_case(name, shape, epsilon=None):
    def build():
        rng = rng_for(name)
        x = float_input(name, shape, -2, 5)
        channels = shape[1]
        scale = rng.uniform(-2, 2, size=[channels]).astype(np.float32)
        b = rng.uniform(-1, 1, size=[channels]).astype(np.float32)
        eps = 1e-5 if epsilon is None else epsilon
        per_channel = [channels] + [1] * (len(shape) - 2)
        y = normalized(x.astype(np.float64), tuple(range(2, len(shape))), np.float64(np.float32(eps)))
        y = y * scale.reshape(per_channel) + b.reshape(per_channel)
        attrs = {} if epsilon is None else {"epsilon": epsilon}
        node = helper.make_node("InstanceNormalization", ["x", "scale", "b"], ["y"], **attrs)
        m = model([node], [tensor("x", shape)], [tensor("y", shape)],
                  [numpy_helper.from_array(scale, "scale"), numpy_helper.from_array(b, "b")])
        return m, [x], [y.astype(np.float32)]
    return build


def mvn_case(name, shape, axes=None):
    def build():
        x = float_input(name, shape, -4, 4)
        attrs = {} if axes is None else {"axes": axes}
        reduced = tuple(a % len(shape) for a in (axes if axes is not None else [0, 2, 3]))
        y = normalized(x.astype(np.float64), reduced, np.float64(np.float32(1e-9)))
        node = helper.make_node("MeanVarianceNormalization", ["x"], ["y"], **attrs)
        return model([node], [tensor("x", shape)], [tensor("y", shape)]), [x], [y.astype(np.float32)]
    return build


def group_norm_case(name, shape, groups, opset, epsilon=None, runtime_scale=False):
    """GroupNormalization: each group of C / G channels normalised over its channels and spatial dims; scale and
    bias per group (opset 18) or per channel (opset 21), float64."""
    def build():
        rng = rng_for(name)
        x = float_input(name, shape, -3, 3)
        channels = shape[1]
        count = channels if opset >= 21 else groups
        scale = rng.uniform(0.5, 2, size=[count]).astype(np.float32)
        bias = rng.uniform(-1, 1, size=[count]).astype(np.float32)
        eps = 1e-5 if epsilon is None else epsilon
        grouped = x.astype(np.float64).reshape(shape[0], groups, -1)
        mean = grouped.mean(axis=-1, keepdims=True)
        variance = ((grouped - mean) ** 2).mean(axis=-1, keepdims=True)
        y = ((grouped - mean) / np.sqrt(variance + eps)).reshape(shape)
        per_channel = [1, channels] + [1] * (len(shape) - 2)
        repeat = 1 if opset >= 21 else channels // groups
        y = y * np.repeat(scale, repeat).reshape(per_channel) + np.repeat(bias, repeat).reshape(per_channel)
        attrs = {"num_groups": groups, **({} if epsilon is None else {"epsilon": epsilon})}
        node = helper.make_node("GroupNormalization", ["x", "scale", "bias"], ["y"], **attrs)
        if runtime_scale:
            m = model([node], [tensor("x", shape), tensor("scale", [count]), tensor("bias", [count])], [tensor("y", shape)],
                      opset=opset)
            return m, [x, scale, bias], [y.astype(np.float32)]
        m = model([node], [tensor("x", shape)], [tensor("y", shape)],
                  [numpy_helper.from_array(scale, "scale"), numpy_helper.from_array(bias, "bias")], opset=opset)
        return m, [x], [y.astype(np.float32)]
    return build


def log_softmax(x, axis):
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def log_softmax_case(name, shape, axis, opset=13):
    def build():
        x = float_input(name, shape, -20, 20)
        x64 = x.astype(np.float64)
        if opset < 13:  # the input flattened at `axis` into 2-D, the last axis of that
            a = axis % len(shape)
            flat = x64.reshape(int(np.prod(shape[:a])), -1)
            y = log_softmax(flat, 1).reshape(shape)
        else:
            y = log_softmax(x64, axis)
        node = helper.make_node("LogSoftmax", ["x"], ["y"], axis=axis)
        return model([node], [tensor("x", shape)], [tensor("y", shape)], opset=opset), [x], [y.astype(np.float32)]
    return build


def global_max_pool_case(name, shape):
    def build():
        x = float_input(name, shape, -10, 10)
        y = x.max(axis=tuple(range(2, len(shape))), keepdims=True)
        node = helper.make_node("GlobalMaxPool", ["x"], ["y"])
        return model([node], [tensor("x", shape)], [tensor("y", list(y.shape))]), [x], [y]
    return build


def dropout_case(name, shape, opset):
    def build():
        x = float_input(name, shape, -10, 10)
        initializers = []
        inputs = ["x"]
        if opset >= 12:
            initializers = [numpy_helper.from_array(np.array(0.3, np.float32), "ratio"),
                            numpy_helper.from_array(np.array(False), "training_mode")]
            inputs += ["ratio", "training_mode"]
        node = helper.make_node("Dropout", inputs, ["d"], **({} if opset >= 12 else {"ratio": 0.3}))
        relu = helper.make_node("Relu", ["d"], ["y"])  # Dropout's result read by another op
        return (model([node, relu], [tensor("x", shape)], [tensor("y", shape)], initializers, opset=opset), [x],
                [np.maximum(x, 0)])
    return build


def binary_case(name, op, a_shape, b_shape, reference, a_range, b_range, attrs=None, b_constant=False, specials=None):
    def build():
        a = float_input(name + "_a", a_shape, *a_range, specials[0] if specials else None)
        b = float_input(name + "_b", b_shape, *b_range, specials[1] if specials else None)
        with np.errstate(all="ignore"):
            y = reference(a.astype(np.float64), b.astype(np.float64)).astype(np.float32)
        node = helper.make_node(op, ["a", "b"], ["y"], **(attrs or {}))
        inputs, data, initializers = [tensor("a", a_shape)], [a], []
        if b_constant:
            initializers.append(numpy_helper.from_array(b, "b"))
        else:
            inputs.append(tensor("b", b_shape))
            data.append(b)
        return model([node], inputs, [tensor("y", list(y.shape))], initializers), data, [y]
    return build


def mean_case(name, shapes):
    def build():
        xs = [float_input(f"{name}_{k}", shape, -10, 10) for k, shape in enumerate(shapes)]
        total = xs[0].astype(np.float64)
        for x in xs[1:]:
            total = total + x
        y = (total / len(xs)).astype(np.float32)
        names = [f"x{k}" for k in range(len(xs))]
        node = helper.make_node("Mean", names, ["y"])
        return model([node], [tensor(n, s) for n, s in zip(names, shapes)], [tensor("y", list(y.shape))]), xs, [y]
    return build


def folded_binary():
    """y = x + Pow(c0, c1) + Mod(c2, c3) + Mean(c0, c2): the binary functions (and Mean's divide) of initializers,
    which fold_constants computes at compile time in the compiled route (constant_pow, constant_fmod)."""
    shape = [2, 5]
    c0 = np.array([[2, -2, 0.5, 9, 0], [3, -1.5, 10, 1e-3, 7]], np.float32)
    c1 = np.array([[3, 3, -2, 0.5, 2], [-0.5, 2, 30, 2, 0]], np.float32)
    c2 = np.array([[7, -7, 5.5, 1e20, -0.0], [100, 3, -2.25, 9, 1]], np.float32)
    c3 = np.array([[3, 3, -2, 7, 1], [0.3, 5, 0.5, -4, 1e-3]], np.float32)
    x = float_input("folded_binary_x", shape, -1, 1)
    y = (x + np.power(c0.astype(np.float64), c1).astype(np.float32)).astype(np.float32)
    y = (y + np.fmod(c2.astype(np.float64), c3).astype(np.float32)).astype(np.float32)
    y = (y + ((c0.astype(np.float64) + c2) / 2).astype(np.float32)).astype(np.float32)
    nodes = [helper.make_node("Pow", ["c0", "c1"], ["p"]), helper.make_node("Mod", ["c2", "c3"], ["m"], fmod=1),
             helper.make_node("Mean", ["c0", "c2"], ["a"]), helper.make_node("Add", ["x", "p"], ["s0"]),
             helper.make_node("Add", ["s0", "m"], ["s1"]), helper.make_node("Add", ["s1", "a"], ["y"])]
    initializers = [numpy_helper.from_array(c, f"c{k}") for k, c in enumerate([c0, c1, c2, c3])]
    return model(nodes, [tensor("x", shape)], [tensor("y", shape)], initializers), [x], [y]


POW_SPECIALS = (np.array([0, -0.0, 2, -2, np.inf, -np.inf, np.nan, 1, -8, 0.5, 4], np.float32),
                np.array([-1, -3, 0.5, 3, 2, -1, 0, np.nan, 1 / 3, -np.inf, np.inf], np.float32))
FMOD_SPECIALS = (np.array([7, -7, 7, -7, 1e30, 5, np.inf, 3, -0.0, 1e-40, 6], np.float32),
                 np.array([3, 3, -3, -3, 7, 0, 2, np.inf, 2, 3e-41, 1.5], np.float32))

CASES = {
    **unary_cases(),
    "folded_constants": folded_constants,
    "layer_norm_last_axis": layer_norm_case("layer_norm_last_axis", [2, 3, 16], -1),
    "layer_norm_axis1_no_bias": layer_norm_case("layer_norm_axis1_no_bias", [2, 3, 4, 5], 1, bias=False),
    "layer_norm_axis0_epsilon": layer_norm_case("layer_norm_axis0_epsilon", [3, 7], 0, epsilon=0.1),
    "layer_norm_broadcast_scale": layer_norm_case("layer_norm_broadcast_scale", [4, 2, 6], 1, scale_shape=[1, 6]),
    "layer_norm_runtime_scale": layer_norm_case("layer_norm_runtime_scale", [5, 8], -1, runtime_scale=True),
    "layer_norm_statistics": layer_norm_case("layer_norm_statistics", [2, 3, 4], 1, epsilon=0.01, statistics=True),
    "instance_norm": instance_norm_case("instance_norm", [2, 3, 4, 5]),
    "instance_norm_1d_epsilon": instance_norm_case("instance_norm_1d_epsilon", [3, 4, 9], epsilon=0.01),
    "mvn_default": mvn_case("mvn_default", [3, 3, 2, 4]),
    "mvn_axes": mvn_case("mvn_axes", [2, 5, 3], [-1, 1]),
    "log_softmax_last": log_softmax_case("log_softmax_last", [3, 4, 5], -1),
    "log_softmax_axis1": log_softmax_case("log_softmax_axis1", [2, 6, 3], 1),
    "log_softmax_opset11": log_softmax_case("log_softmax_opset11", [2, 3, 4], 1, opset=11),
    "global_max_pool": global_max_pool_case("global_max_pool", [2, 3, 5, 4]),
    "global_max_pool_1d": global_max_pool_case("global_max_pool_1d", [1, 4, 9]),
    "dropout_opset12": dropout_case("dropout_opset12", [2, 3, 4], 12),
    "dropout_opset7": dropout_case("dropout_opset7", [6, 5], 7),
    "pow": binary_case("pow", "Pow", [11], [11], np.power, (0.1, 5), (-3, 3), specials=POW_SPECIALS),
    "pow_constant_exponent": binary_case("pow_constant_exponent", "Pow", [2, 3, 4], [], np.power, (-4, 4), (2, 2),
                                         b_constant=True),
    "pow_broadcast": binary_case("pow_broadcast", "Pow", [3, 1, 5], [4, 1], np.power, (0.5, 3), (-2, 2)),
    "mod_fmod": binary_case("mod_fmod", "Mod", [11], [11], np.fmod, (-20, 20), (-5, 5), {"fmod": 1},
                            specials=FMOD_SPECIALS),
    "mod_fmod_broadcast": binary_case("mod_fmod_broadcast", "Mod", [2, 3, 4], [4], np.fmod, (-100, 100), (0.5, 9),
                                      {"fmod": 1}),
    "folded_binary": folded_binary,
    "group_norm_per_group_opset18": group_norm_case("group_norm_per_group_opset18", [2, 6, 3, 4], 3, 18),
    "group_norm_per_channel_opset21": group_norm_case("group_norm_per_channel_opset21", [2, 4, 5, 3], 2, 21, epsilon=1e-3),
    "group_norm_1d_runtime_scale_opset21": group_norm_case("group_norm_1d_runtime_scale_opset21", [3, 6, 7], 6, 21,
                                                           runtime_scale=True),
    "group_norm_one_group_rank2_opset18": group_norm_case("group_norm_one_group_rank2_opset18", [4, 8], 1, 18),
    "mean_three": mean_case("mean_three", [[2, 3, 4], [2, 3, 4], [2, 3, 4]]),
    "mean_broadcast": mean_case("mean_broadcast", [[3, 1], [1, 5], [5]]),
}


def refused_models():
    """ctnn's refusals: Gelu's approximate neither none nor tanh; Celu alpha 0; InstanceNormalization's scale not
    of the channels' extent; Dropout in training mode; LayerNormalization's axis outside the rank; a float Mod without fmod 1
    (ONNX's integer form); Pow of an integer exponent."""
    shape = [2, 4]
    x, y = tensor("x", shape), tensor("y", shape)
    scale = numpy_helper.from_array(np.ones([4], np.float32), "scale")
    return {
        "gelu_approximate": model([helper.make_node("Gelu", ["x"], ["y"], approximate="erf")], [x], [y], opset=20),
        "celu_alpha_zero": model([helper.make_node("Celu", ["x"], ["y"], alpha=0.0)], [x], [y], opset=12),
        "instance_norm_scale_shape": model([helper.make_node("InstanceNormalization", ["x3", "s5", "s5"], ["y3"])],
                                           [tensor("x3", [1, 4, 3])], [tensor("y3", [1, 4, 3])],
                                           [numpy_helper.from_array(np.ones([5], np.float32), "s5")]),
        "layer_norm_axis": model([helper.make_node("LayerNormalization", ["x", "scale"], ["y"], axis=2)], [x], [y],
                                 [scale], opset=17),
        "mod_integer_form": model([helper.make_node("Mod", ["x", "x"], ["y"])], [x], [y]),
        "pow_integer_exponent": model([helper.make_node("Pow", ["x", "e"], ["y"])], [x], [y],
                                      [numpy_helper.from_array(np.array(2, np.int64), "e")]),
        # GroupNormalization of 4 groups over 6 channels (C must be a multiple of num_groups).
        "group_norm_groups": model([helper.make_node("GroupNormalization", ["x", "gs", "gs"], ["y"], num_groups=4)],
                                   [tensor("x", [1, 6, 2])], [tensor("y", [1, 6, 2])],
                                   [numpy_helper.from_array(np.ones([6], np.float32), "gs")], opset=21),
        # Mish of an integer tensor (ONNX defines it on floating-point types only).
        "mish_integer": model([helper.make_node("Mish", ["i"], ["y"])],
                              [helper.make_tensor_value_info("i", TensorProto.INT32, shape)],
                              [helper.make_tensor_value_info("y", TensorProto.INT32, shape)], opset=18),
        "dropout_training": model([helper.make_node("Dropout", ["x", "ratio", "training_mode"], ["y"])], [x], [y],
                                  [numpy_helper.from_array(np.array(0.5, np.float32), "ratio"),
                                   numpy_helper.from_array(np.array(True), "training_mode")], opset=12),
    }


def tflite_gelu(shape, approximate, dtype=tfl.FLOAT32):
    m = tfl.Model(new_opcodes=True)
    quant = dict(scale=[0.05], zero_point=[0]) if dtype == tfl.INT8 else None
    x = m.tensor("x", shape, dtype, quant=quant)
    y = m.tensor("y", shape, dtype, quant=quant)
    m.inputs, m.outputs = [x], [y]
    m.op("GELU", [x], [y], approximate=approximate)
    return m


def write_tflite_cases(family: op_tests.Family) -> None:
    """TFLite GELU, float32 (TFLM's reference in float; here NumPy in float64, rounded)."""
    for name, shape, approximate in [("tflite_gelu", [2, 3, 7], False), ("tflite_gelu_approximate", [1, 4, 4, 3], True)]:
        x = float_input(name, shape, -6, 6, SPECIAL)
        with np.errstate(all="ignore"):
            y = gelu(x.astype(np.float64), "tanh" if approximate else "none").astype(np.float32)
        family.write_computed_case(name, "model.tflite", tflite_gelu(shape, approximate).serialize(), [x], [y])


def main() -> None:
    family = op_tests.Family("onnx_math", None)
    op_tests.write_onnx_cases(family, CASES, output_type=np.float32)
    write_tflite_cases(family)
    family.finish()
    # TFLite: an int8 GELU (TFLM's lookup-table kernel; ctnn has the float32 one only).
    op_tests.write_refused("onnx_math", {"gelu_int8": tflite_gelu([1, 8], False, tfl.INT8)}, refused_models())


if __name__ == "__main__":
    main()
