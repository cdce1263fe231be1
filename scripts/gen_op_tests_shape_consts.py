#!/usr/bin/python3
"""The op-conformance cases of the shape_consts family (tests/data/ops/shape_consts; scripts/op_tests.py): the
shape arithmetic of real ONNX exports, which ctnn computes at import (issues #28, #25; docs/frontends.md,
"Integers computed at import"): Shape, Size, Range, integer ConstantOfShape, and Gather, Unsqueeze, Squeeze,
Concat, Slice, Cast, Add/Sub/Mul/Div, Max/Min, Equal, Where, ReduceProd over their results, feeding Reshape,
Expand and Gather. The models are written as torch.onnx writes these chains (the onnx Python helper); the
outputs are NumPy's (the ONNX definitions). TFLite: SHAPE and BROADCAST_ARGS, folded through STRIDED_SLICE,
PACK, CONCATENATION into RESHAPE and BROADCAST_TO (NumPy's outputs: the ops move bytes). Also the models ctnn
refuses (tests/data/{onnx,tflite}/shape_consts_refused_*).

    /usr/bin/python3 scripts/gen_op_tests_shape_consts.py
    /usr/bin/python3 scripts/gen_op_tests_shape_consts.py --ort /tmp/ortnode/node_modules   # and checks the ONNX
        # outputs against onnxruntime-node's (ONNXRUNTIME_NODE_INSTALL=skip npm install onnxruntime-node, or
        # npm install --ignore-scripts: the package ships its Linux x64 binary)
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from onnx import TensorProto, helper, numpy_helper

import op_tests

I64 = np.int64


def const(name, value):
    """A Constant node, as torch.onnx writes scalars and small vectors."""
    return helper.make_node("Constant", [], [name], value=numpy_helper.from_array(np.asarray(value), name))


def model(nodes, inputs, output, opset=13, inits=()):
    """A graph of `nodes` over float32 graph inputs [(name, array)], output `output` (name, array)."""
    ins = [helper.make_tensor_value_info(n, TensorProto.FLOAT, list(x.shape)) for n, x in inputs]
    out = helper.make_tensor_value_info(output[0], TensorProto.FLOAT, list(output[1].shape))
    graph = helper.make_graph(nodes, "shape_consts", ins, [out], [numpy_helper.from_array(v, n) for n, v in inits])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="ctnn-test")
    m.ir_version = 7
    return m


def floats(rng, shape):
    return rng.uniform(-2, 2, size=shape).astype(np.float32)


def cases(rng):
    out = {}

    # PyTorch's x.view(x.size(0), -1) (torch.onnx, opset 13): Shape -> Gather(0) -> Unsqueeze -> Concat with
    # [-1] -> Reshape, then a Relu.
    def flatten_chain():
        x = floats(rng, [2, 3, 4, 5])
        nodes = [helper.make_node("Shape", ["x"], ["s"]), const("i0", I64(0)),
                 helper.make_node("Gather", ["s", "i0"], ["b"], axis=0), const("ax", np.array([0], I64)),
                 helper.make_node("Unsqueeze", ["b", "ax"], ["bu"]), const("m1", np.array([-1], I64)),
                 helper.make_node("Concat", ["bu", "m1"], ["shape"], axis=0),
                 helper.make_node("Reshape", ["x", "shape"], ["r"]), helper.make_node("Relu", ["r"], ["y"])]
        y = np.maximum(x.reshape(2, -1), 0)
        return model(nodes, [("x", x)], ("y", y)), [x], [y]
    out["onnx_flatten_chain"] = flatten_chain

    # The same before opset 13 (Unsqueeze's axes an attribute), with a Cast to int64 as older exports have.
    def flatten_chain_opset11():
        x = floats(rng, [3, 2, 2, 2])
        nodes = [helper.make_node("Shape", ["x"], ["s"]), const("i0", I64(0)),
                 helper.make_node("Gather", ["s", "i0"], ["b"], axis=0),
                 helper.make_node("Unsqueeze", ["b"], ["bu"], axes=[0]),
                 helper.make_node("Cast", ["bu"], ["bc"], to=TensorProto.INT64), const("m1", np.array([-1], I64)),
                 helper.make_node("Concat", ["bc", "m1"], ["shape"], axis=0),
                 helper.make_node("Reshape", ["x", "shape"], ["y"])]
        y = x.reshape(3, -1)
        return model(nodes, [("x", x)], ("y", y), opset=11), [x], [y]
    out["onnx_flatten_chain_opset11"] = flatten_chain_opset11

    # x.view(b, c, h * w) from the dims (Gather each, Mul, Unsqueeze, Concat) and a Slice of the shape.
    def dynamic_reshape():
        x = floats(rng, [1, 4, 6, 2])
        nodes = [helper.make_node("Shape", ["x"], ["s"]), const("st", np.array([0], I64)), const("en", np.array([2], I64)),
                 helper.make_node("Slice", ["s", "st", "en"], ["bc"]), const("i2", I64(2)), const("i3", I64(3)),
                 helper.make_node("Gather", ["s", "i2"], ["h"]), helper.make_node("Gather", ["s", "i3"], ["w"]),
                 helper.make_node("Mul", ["h", "w"], ["hw"]), const("ax", np.array([0], I64)),
                 helper.make_node("Unsqueeze", ["hw", "ax"], ["hwu"]),
                 helper.make_node("Concat", ["bc", "hwu"], ["shape"], axis=0),
                 helper.make_node("Reshape", ["x", "shape"], ["y"])]
        y = x.reshape(1, 4, 12)
        return model(nodes, [("x", x)], ("y", y)), [x], [y]
    out["onnx_dynamic_reshape_mul"] = dynamic_reshape

    # A reshape with -1 resolved by the export itself: Equal(shape, 0) and Where to take the input's extent,
    # Sub and Div on the dims (b, c / 2, -1).
    def reshape_where():
        x = floats(rng, [2, 8, 3])
        nodes = [helper.make_node("Shape", ["x"], ["s"]), const("i0", I64(0)), const("i1", I64(1)),
                 helper.make_node("Gather", ["s", "i0"], ["b"]), helper.make_node("Gather", ["s", "i1"], ["c"]),
                 const("two", I64(2)), helper.make_node("Div", ["c", "two"], ["half"]),
                 const("zero", I64(0)), helper.make_node("Sub", ["b", "zero"], ["b2"]),
                 const("ax", np.array([0], I64)),
                 helper.make_node("Unsqueeze", ["b2", "ax"], ["bu"]), helper.make_node("Unsqueeze", ["half", "ax"], ["hu"]),
                 const("m1", np.array([-1], I64)),
                 helper.make_node("Concat", ["bu", "hu", "m1"], ["want"], axis=0),
                 const("z3", np.zeros([3], I64)), helper.make_node("Equal", ["want", "z3"], ["is0"]),
                 helper.make_node("Where", ["is0", "s", "want"], ["shape"]),
                 helper.make_node("Reshape", ["x", "shape"], ["y"])]
        y = x.reshape(2, 4, -1)
        return model(nodes, [("x", x)], ("y", y)), [x], [y]
    out["onnx_reshape_equal_where"] = reshape_where

    # x.expand(4, -1) as torch.onnx writes it: ConstantOfShape(int64 1) * -1, Equal, Where, Expand.
    def expand_chain():
        x = floats(rng, [1, 3])
        nodes = [const("want", np.array([4, -1], I64)), const("n", np.array([2], I64)),
                 helper.make_node("ConstantOfShape", ["n"], ["ones"], value=numpy_helper.from_array(np.array([1], I64))),
                 const("m1", I64(-1)), helper.make_node("Mul", ["ones", "m1"], ["minus"]),
                 helper.make_node("Equal", ["want", "minus"], ["eq"]),
                 helper.make_node("Where", ["eq", "ones", "want"], ["shape"]),
                 helper.make_node("Expand", ["x", "shape"], ["y"])]
        y = np.broadcast_to(x, [4, 3]).copy()
        return model(nodes, [("x", x)], ("y", y)), [x], [y]
    out["onnx_constant_of_shape_expand"] = expand_chain

    # Range feeding Gather: every other position along axis 1 (arange(0, x.size(1), 2)).
    def range_gather():
        x = floats(rng, [2, 6, 3])
        nodes = [helper.make_node("Shape", ["x"], ["s"]), const("i1", I64(1)),
                 helper.make_node("Gather", ["s", "i1"], ["n"]), const("start", I64(0)), const("step", I64(2)),
                 helper.make_node("Range", ["start", "n", "step"], ["idx"]),
                 helper.make_node("Gather", ["x", "idx"], ["y"], axis=1)]
        y = x[:, 0:6:2, :]
        return model(nodes, [("x", x)], ("y", y)), [x], [y]
    out["onnx_range_gather"] = range_gather

    # A negative Range step and an int32 Cast: positions reversed (arange(n - 1, -1, -1)).
    def range_reverse_int32():
        x = floats(rng, [5, 2])
        nodes = [helper.make_node("Shape", ["x"], ["s"]), const("i0", I64(0)),
                 helper.make_node("Gather", ["s", "i0"], ["n"]),
                 helper.make_node("Cast", ["n"], ["n32"], to=TensorProto.INT32),
                 const("one", np.int32(1)), helper.make_node("Sub", ["n32", "one"], ["last"]),
                 const("stop", np.int32(-1)), const("step", np.int32(-1)),
                 helper.make_node("Range", ["last", "stop", "step"], ["idx"]),
                 helper.make_node("Gather", ["x", "idx"], ["y"], axis=0)]
        y = x[::-1].copy()
        return model(nodes, [("x", x)], ("y", y)), [x], [y]
    out["onnx_range_reverse_int32"] = range_reverse_int32

    # Size, ReduceProd of a shape's Slice, Max/Min and Squeeze: x.reshape(x.size(0), numel // x.size(0)).
    def size_reduce_prod():
        x = floats(rng, [3, 2, 5])
        nodes = [helper.make_node("Shape", ["x"], ["s"]), helper.make_node("Size", ["x"], ["numel"]),
                 const("st", np.array([0], I64)), const("en", np.array([1], I64)),
                 helper.make_node("Slice", ["s", "st", "en"], ["b1"]),
                 const("ax", np.array([0], I64)), helper.make_node("Squeeze", ["b1", "ax"], ["b"]),
                 helper.make_node("Div", ["numel", "b"], ["rest"]),
                 const("st1", np.array([1], I64)), const("big", np.array([2**62], I64)),
                 helper.make_node("Slice", ["s", "st1", "big"], ["tail"]),
                 helper.make_node("ReduceProd", ["tail"], ["prod"], keepdims=1),
                 helper.make_node("Unsqueeze", ["rest", "ax"], ["ru"]),
                 helper.make_node("Min", ["ru", "prod"], ["lo"]), helper.make_node("Max", ["lo", "prod"], ["inner"]),
                 helper.make_node("Concat", ["b1", "inner"], ["shape"], axis=0),
                 helper.make_node("Reshape", ["x", "shape"], ["y"])]
        y = x.reshape(3, 10)
        return model(nodes, [("x", x)], ("y", y)), [x], [y]
    out["onnx_size_reduce_prod"] = size_reduce_prod

    # Shape with start and end (opset 15): the spatial dims of an NCHW tensor, Add 0, into a Reshape.
    def shape_start_end():
        x = floats(rng, [1, 2, 3, 4])
        nodes = [helper.make_node("Shape", ["x"], ["hw"], start=2), const("zero", np.array([0, 0], I64)),
                 helper.make_node("Add", ["hw", "zero"], ["hw2"]),
                 helper.make_node("Shape", ["x"], ["nc"], start=0, end=-2),
                 helper.make_node("ReduceProd", ["nc"], ["ncp"], keepdims=1),
                 helper.make_node("Concat", ["ncp", "hw2"], ["shape"], axis=0),
                 helper.make_node("Reshape", ["x", "shape"], ["y"])]
        y = x.reshape(2, 3, 4)
        return model(nodes, [("x", x)], ("y", y), opset=15), [x], [y]
    out["onnx_shape_start_end"] = shape_start_end

    # A small CNN as torch.onnx exports `torch.flatten(self.pool(F.relu(self.conv(x))), 1)` then a Linear
    # (opset 11: Shape, Gather, Unsqueeze with axes, Concat, Reshape, Gemm).
    def cnn_flatten_gemm():
        x = floats(rng, [2, 1, 6, 6])
        w = floats(rng, [3, 1, 3, 3]) * 0.5
        bias = floats(rng, [3]) * 0.1
        fc = floats(rng, [4, 12]) * 0.3
        fcb = floats(rng, [4]) * 0.1
        nodes = [helper.make_node("Conv", ["x", "w", "bias"], ["c"], kernel_shape=[3, 3]),
                 helper.make_node("Relu", ["c"], ["r"]),
                 helper.make_node("MaxPool", ["r"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
                 helper.make_node("Shape", ["p"], ["s"]), const("i0", I64(0)),
                 helper.make_node("Gather", ["s", "i0"], ["b"], axis=0),
                 helper.make_node("Unsqueeze", ["b"], ["bu"], axes=[0]), const("m1", np.array([-1], I64)),
                 helper.make_node("Concat", ["bu", "m1"], ["shape"], axis=0),
                 helper.make_node("Reshape", ["p", "shape"], ["flat"]),
                 helper.make_node("Gemm", ["flat", "fc", "fcb"], ["y"], transB=1)]
        x64 = x.astype(np.float64)
        conv = np.zeros([2, 3, 4, 4])
        for i in range(4):
            for j in range(4):
                conv[:, :, i, j] = np.einsum("nchw,ochw->no", x64[:, :, i:i + 3, j:j + 3], w.astype(np.float64))
        conv += bias[None, :, None, None]
        relu = np.maximum(conv, 0)
        pool = relu.reshape(2, 3, 2, 2, 2, 2).max(axis=(3, 5))
        y = (pool.reshape(2, -1) @ fc.T.astype(np.float64) + fcb).astype(np.float32)
        return model(nodes, [("x", x)], ("y", y), opset=11, inits=[("w", w), ("bias", bias), ("fc", fc), ("fcb", fcb)]), [x], [y]
    out["onnx_cnn_flatten_gemm"] = cnn_flatten_gemm

    # Known values as graph outputs and as tensors of ops (a constant tensor of their elements): Shape itself
    # (INT64), Size cast to INT32, an Equal's BOOL, and a Shape cast to FLOAT that scales an activation.
    def typed_model(nodes, x, outputs, opset=13):
        ins = [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape))]
        types = {np.dtype(np.int64): TensorProto.INT64, np.dtype(np.int32): TensorProto.INT32,
                 np.dtype(np.bool_): TensorProto.BOOL, np.dtype(np.float32): TensorProto.FLOAT}
        outs = [helper.make_tensor_value_info(n, types[y.dtype], list(y.shape)) for n, y in outputs]
        m = helper.make_model(helper.make_graph(nodes, "shape_consts", ins, outs),
                              opset_imports=[helper.make_opsetid("", opset)], producer_name="ctnn-test")
        m.ir_version = 7
        return m

    def shape_outputs():
        x = floats(rng, [2, 3, 4, 5])
        s = np.array(x.shape, I64)
        size = np.array(x.size, np.int32)
        is3 = s == 3
        nodes = [helper.make_node("Shape", ["x"], ["s"]), helper.make_node("Size", ["x"], ["n"]),
                 helper.make_node("Cast", ["n"], ["n32"], to=TensorProto.INT32), const("three", I64(3)),
                 helper.make_node("Equal", ["s", "three"], ["is3"])]
        return typed_model(nodes, x, [("s", s), ("n32", size), ("is3", is3)]), [x], [s, size.reshape(1), is3]
    out["onnx_shape_size_equal_outputs"] = shape_outputs

    def shape_as_float():
        x = floats(rng, [3, 2])
        nodes = [helper.make_node("Shape", ["x"], ["s"]), helper.make_node("Cast", ["s"], ["f"], to=TensorProto.FLOAT),
                 helper.make_node("Mul", ["x", "f"], ["y"])]
        y = x * np.array([3, 2], np.float32)
        return typed_model(nodes, x, [("y", y)]), [x], [y]
    out["onnx_shape_cast_float_mul"] = shape_as_float

    # Integer arithmetic on known values, read back as outputs: Sub to negatives, Div truncating toward zero
    # (onnxruntime's and C++'s), INT32 Mul wrapping around, Max/Min, Less, a Where over them, Neg-free.
    def arithmetic_outputs():
        x = floats(rng, [6, 4])
        s = np.array(x.shape, I64)
        diff = s - np.array([10, 1], I64)                                 # [-4, 3]
        quotient = np.trunc(diff / np.array([3, -2])).astype(I64)           # [-1, -1]
        wrapped = (s.astype(np.int32) * np.int32(2**30)).astype(np.int32)   # [-2^31, 0] (wraps)
        low = np.minimum(diff, quotient)
        picked = np.where(diff < quotient, np.array([7, 8], I64), s)
        nodes = [helper.make_node("Shape", ["x"], ["s"]), const("ten_one", np.array([10, 1], I64)),
                 helper.make_node("Sub", ["s", "ten_one"], ["diff"]), const("divisor", np.array([3, -2], I64)),
                 helper.make_node("Div", ["diff", "divisor"], ["quotient"]),
                 helper.make_node("Cast", ["s"], ["s32"], to=TensorProto.INT32), const("big", np.int32(2**30)),
                 helper.make_node("Mul", ["s32", "big"], ["wrapped"]),
                 helper.make_node("Min", ["diff", "quotient"], ["low"]),
                 helper.make_node("Less", ["diff", "quotient"], ["less"]), const("seven_eight", np.array([7, 8], I64)),
                 helper.make_node("Where", ["less", "seven_eight", "s"], ["picked"])]
        outs = [("quotient", quotient), ("wrapped", wrapped), ("low", low), ("picked", picked)]
        return typed_model(nodes, x, outs), [x], [y for _, y in outs]
    out["onnx_known_arithmetic_outputs"] = arithmetic_outputs

    # torch.onnx.export's Identity of a parameter equal to an earlier one (torchvision's zero conv biases, a
    # LayerNorm's ones): the Identity's result is read as that initializer, here a second conv's bias and the
    # factor of a Mul.
    def identity_of_parameters():
        x = floats(rng, [1, 3, 2, 2])
        w1, w2 = floats(rng, [4, 3, 1, 1]), floats(rng, [4, 4, 1, 1])
        b, scale = floats(rng, [4]), floats(rng, [4, 1, 1])
        nodes = [helper.make_node("Identity", ["b"], ["b_again"]), helper.make_node("Identity", ["scale"], ["scale_again"]),
                 helper.make_node("Conv", ["x", "w1", "b"], ["c1"]), helper.make_node("Relu", ["c1"], ["r1"]),
                 helper.make_node("Conv", ["r1", "w2", "b_again"], ["c2"]),
                 helper.make_node("Mul", ["c2", "scale_again"], ["y"])]
        conv = lambda v, w, bias: np.einsum("nchw,oc->nohw", v, w[:, :, 0, 0]) + bias.reshape(1, -1, 1, 1)
        y = (conv(np.maximum(conv(x, w1, b), 0), w2, b) * scale).astype(np.float32)
        return model(nodes, [("x", x)], ("y", y), inits=[("w1", w1), ("w2", w2), ("b", b), ("scale", scale)]), [x], [y]
    out["onnx_identity_of_parameters"] = identity_of_parameters

    # torchvision's channel_shuffle as torch.onnx.export (opset 13) writes it, 7 times (ShuffleNetV2 has 13):
    # Shape -> Gather each dim -> Div of the channels by the groups -> Unsqueeze -> Concat -> Reshape to 5-D,
    # Transpose, Concat -> Reshape back; each stage computes 12 known values, 84 in all, more than the store
    # holds at once: the ones the later nodes no longer read are reclaimed (issue #28); the third stage's Shape
    # cast to FLOAT is a graph output, a constant tensor of the store's elements that moves when the store compacts.
    def channel_shuffle_chain():
        x = floats(rng, [1, 8, 3, 2])
        nodes, v, y = [], "x", x
        for k in range(7):
            p = f"s{k}_"
            factor = np.float32(1 + k / 16)
            nodes += [const(p + "f", factor), helper.make_node("Mul", [v, p + "f"], [p + "m"]),
                      helper.make_node("Shape", [p + "m"], [p + "shape"])]
            dims = []
            for d, dim in enumerate("bchw"):
                nodes += [const(p + "i" + dim, I64(d)), helper.make_node("Gather", [p + "shape", p + "i" + dim], [p + dim], axis=0)]
            nodes += [const(p + "g", I64(2)), helper.make_node("Div", [p + "c", p + "g"], [p + "cpg"]), const(p + "ax", np.array([0], I64))]
            for dim in ["b", "cpg", "h", "w"]:
                nodes.append(helper.make_node("Unsqueeze", [p + dim, p + "ax"], [p + dim + "u"]))
                dims.append(p + dim + "u")
            nodes += [const(p + "gv", np.array([2], I64)), const(p + "m1", np.array([-1], I64)),
                      helper.make_node("Concat", [dims[0], p + "gv", dims[1], dims[2], dims[3]], [p + "shape5"], axis=0),
                      helper.make_node("Reshape", [p + "m", p + "shape5"], [p + "r5"]),
                      helper.make_node("Transpose", [p + "r5"], [p + "t"], perm=[0, 2, 1, 3, 4]),
                      helper.make_node("Concat", [dims[0], p + "m1", dims[2], dims[3]], [p + "shape4"], axis=0),
                      helper.make_node("Reshape", [p + "t", p + "shape4"], [p + "out"])]
            if k == 2:  # a known value read as a tensor (a relayout of the store's elements) that outlives a reclaim
                nodes.append(helper.make_node("Cast", [p + "shape"], ["dims"], to=TensorProto.FLOAT))
            v = p + "out"
            m = (y * factor).astype(np.float32)
            y = m.reshape(1, 2, 4, 3, 2).transpose(0, 2, 1, 3, 4).reshape(1, 8, 3, 2)
        nodes.append(helper.make_node("Relu", [v], ["y"]))
        y = np.maximum(y, 0)
        dims = np.array(x.shape, np.float32)
        m = model(nodes, [("x", x)], ("y", y))
        m.graph.output.append(helper.make_tensor_value_info("dims", TensorProto.FLOAT, [4]))
        return m, [x], [y, dims]
    out["onnx_channel_shuffle_chain"] = channel_shuffle_chain

    # torch's F.pad with computed pads (opset 11 on; Swin's padding to whole windows, (w - H % w) % w): Mod of
    # integer constants (fmod 0: the divisor's sign, fmod 1: the dividend's), the pads list Concat, Reshape to
    # [-1, 2], reversed by a Slice, Transposed and flattened, Cast, Pad. Also a Dropout (opset 13) whose mask
    # output is named but read by nothing, as torch.onnx.export writes F.dropout.
    def computed_pads():
        x = floats(rng, [1, 5, 7, 3])
        z = lambda name: const(name, np.array([0], I64))
        nodes = [const("h", I64(5)), const("win", I64(4)), helper.make_node("Mod", ["h", "win"], ["hm"], fmod=0),
                 helper.make_node("Sub", ["win", "hm"], ["hs"]), helper.make_node("Mod", ["hs", "win"], ["ph"], fmod=0),
                 const("m7", I64(-7)), const("three", I64(3)), helper.make_node("Mod", ["m7", "three"], ["pw"]),
                 const("seven", I64(7)), const("m3", I64(-3)), helper.make_node("Mod", ["seven", "m3"], ["pc"], fmod=1),
                 const("ax", np.array([0], I64))]
        for v in ["ph", "pw", "pc"]:
            nodes.append(helper.make_node("Unsqueeze", [v, "ax"], [v + "u"]))
        nodes += [z("z0"), const("z2", np.array([0, 0], I64)),
                  helper.make_node("Concat", ["z0", "pcu", "z0", "pwu", "z0", "phu", "z2"], ["torch_pads"], axis=0),
                  const("pairs", np.array([-1, 2], I64)), helper.make_node("Reshape", ["torch_pads", "pairs"], ["p2"]),
                  const("st", np.array([-1], I64)), const("en", np.array([-2**63], I64)), const("sp", np.array([-1], I64)),
                  helper.make_node("Slice", ["p2", "st", "en", "ax", "sp"], ["rev"]),
                  helper.make_node("Transpose", ["rev"], ["tr"], perm=[1, 0]), const("flat", np.array([-1], I64)),
                  helper.make_node("Reshape", ["tr", "flat"], ["onnx_pads"]),
                  helper.make_node("Cast", ["onnx_pads"], ["pads"], to=TensorProto.INT64),
                  helper.make_node("Pad", ["x", "pads"], ["padded"], mode="constant"),
                  helper.make_node("Dropout", ["padded"], ["dropped", "mask"]), helper.make_node("Relu", ["dropped"], ["y"])]
        y = np.maximum(np.pad(x, [(0, 0), (0, 3), (0, 2), (0, 1)]), 0)  # ph (4 - 1) % 4, pw -7 mod 3, pc fmod(7, -3)
        return model(nodes, [("x", x)], ("y", y)), [x], [y]
    out["onnx_computed_pads_mod_transpose_dropout"] = computed_pads

    # A Concat of 64 known values (an operand tree of 8 inner concats, frontend/detail/operand_tree.hpp) made when
    # the store holds 60 entries, 20 of them Shapes nothing reads: the fifth inner concat fills the store, whose
    # reclaim frees the dead Shapes and keeps the inner results made so far (no name finds them; the fuzzers'
    # wide-concat crash: they were dropped and the last concat read them as tensors -1).
    def known_concat_tree_reclaim():
        x = floats(rng, [2, 3])
        live = [f"s{k}" for k in range(40)]
        nodes = ([helper.make_node("Shape", ["x"], [f"dead{k}"]) for k in range(20)] +
                 [helper.make_node("Shape", ["x"], [name]) for name in live] +
                 [helper.make_node("Concat", live + live[:24], ["all"], axis=0)])
        all_ = np.tile(np.array(x.shape, I64), 64)
        return typed_model(nodes, x, [("all", all_)]), [x], [all_]
    out["onnx_known_concat_tree_reclaim"] = known_concat_tree_reclaim
    return out


def tflite_cases(rng):
    """TF/Keras's shape chains as the TFLite converter writes them (SHAPE -> STRIDED_SLICE -> PACK -> RESHAPE,
    BROADCAST_ARGS -> BROADCAST_TO, CONCATENATION of int32 shapes): ctnn computes them at import. Outputs: NumPy
    (the ops move bytes: the references are the reshaped, broadcast inputs)."""
    import gen_op_tests_shape  # noqa: F401  (its STRIDED_SLICE/PACK codes and options, added to the writer's)
    tfl = op_tests.tfl
    tfl.OPS.update({"SHAPE": 77, "BROADCAST_ARGS": 145, "BROADCAST_TO": 130, "FLOOR_DIV": 90})
    F32, I32, I64T = tfl.FLOAT32, tfl.INT32, tfl.INT64
    out = {}

    def leading_dim(m, t, rank, out_type, shrink):
        """SHAPE of `t` (as `out_type`), then a STRIDED_SLICE of its first element (a scalar when `shrink`)."""
        shape = m.tensor("shape", [rank], out_type)
        begin, end, strides = (m.tensor(n, [1], I32, data=np.array([v], np.int32)) for n, v in (("begin", 0), ("end", 1), ("strides", 1)))
        lead = m.tensor("lead", [] if shrink else [1], out_type)
        m.op("SHAPE", [t], [shape])
        m.op("STRIDED_SLICE", [shape, begin, end, strides], [lead], **({"shrink_axis_mask": 1} if shrink else {}))
        return lead

    def keras_flatten():
        # tf.reshape(x, [tf.shape(x)[0], -1]): SHAPE, STRIDED_SLICE (shrink axis 0), PACK with -1, RESHAPE.
        x = rng.uniform(-2, 2, size=[3, 4, 5]).astype(np.float32)
        m = tfl.Model(new_opcodes=True)
        t = m.tensor("x", [3, 4, 5], F32)
        batch = leading_dim(m, t, 3, I32, True)
        minus = m.tensor("minus_one", [], I32, data=np.array(-1, np.int32))
        target = m.tensor("target", [2], I32)
        y = m.tensor("y", [3, 20], F32)
        m.inputs, m.outputs = [t], [y]
        m.op("PACK", [batch, minus], [target], values_count=2, axis=0)
        m.op("RESHAPE", [t, target], [y])
        return m, [x], [x.reshape(3, 20)]
    out["tflite_shape_strided_slice_pack_reshape"] = keras_flatten

    def concat_shape():
        # tf.reshape(x, tf.concat([tf.shape(x, out_type=tf.int64)[:1], [2, -1]], 0)): an INT64 SHAPE, a
        # STRIDED_SLICE that keeps its axis, a CONCATENATION of int64 vectors.
        x = rng.uniform(-2, 2, size=[2, 6, 2]).astype(np.float32)
        m = tfl.Model(new_opcodes=True)
        t = m.tensor("x", [2, 6, 2], F32)
        lead = leading_dim(m, t, 3, I64T, False)
        rest = m.tensor("rest", [2], I64T, data=np.array([2, -1], np.int64))
        target = m.tensor("target", [3], I64T)
        y = m.tensor("y", [2, 2, 6], F32)
        m.inputs, m.outputs = [t], [y]
        m.op("CONCATENATION", [lead, rest], [target], axis=0)
        m.op("RESHAPE", [t, target], [y])
        return m, [x], [x.reshape(2, 2, 6)]
    out["tflite_shape_concat_reshape"] = concat_shape

    def dims_product():
        # tf.reshape(x, [tf.shape(x)[0], tf.shape(x)[1] * tf.shape(x)[2], tf.shape(x)[3] // 2, 2]): a dim per
        # STRIDED_SLICE, MUL and FLOOR_DIV of them, PACK, RESHAPE.
        x = rng.uniform(-2, 2, size=[2, 3, 4, 6]).astype(np.float32)
        m = tfl.Model(new_opcodes=True)
        t = m.tensor("x", [2, 3, 4, 6], F32)
        shape = m.tensor("shape", [4], I32)
        m.op("SHAPE", [t], [shape])
        dims = []
        for d in range(4):
            begin, end, strides = (m.tensor(f"{n}{d}", [1], I32, data=np.array([v], np.int32))
                                   for n, v in (("begin", d), ("end", d + 1), ("strides", 1)))
            dims.append(m.tensor(f"dim{d}", [], I32))
            m.op("STRIDED_SLICE", [shape, begin, end, strides], [dims[-1]], shrink_axis_mask=1)
        hw, two, half = m.tensor("hw", [], I32), m.tensor("two", [], I32, data=np.array(2, np.int32)), m.tensor("half", [], I32)
        m.op("MUL", [dims[1], dims[2]], [hw])
        m.op("FLOOR_DIV", [dims[3], two], [half])
        target = m.tensor("target", [4], I32)
        y = m.tensor("y", [2, 12, 3, 2], F32)
        m.inputs, m.outputs = [t], [y]
        m.op("PACK", [dims[0], hw, half, two], [target], values_count=4, axis=0)
        m.op("RESHAPE", [t, target], [y])
        return m, [x], [x.reshape(2, 12, 3, 2)]
    out["tflite_shape_mul_floor_div_pack_reshape"] = dims_product

    def broadcast_args():
        # BROADCAST_ARGS of the input's SHAPE and a constant shape, then BROADCAST_TO (its shape the output's).
        x = rng.uniform(-2, 2, size=[1, 3]).astype(np.float32)
        m = tfl.Model(new_opcodes=True)
        t = m.tensor("x", [1, 3], F32)
        shape = m.tensor("shape", [2], I32)
        other = m.tensor("other", [3], I32, data=np.array([2, 4, 1], np.int32))
        both = m.tensor("both", [3], I32)
        y = m.tensor("y", [2, 4, 3], F32)
        m.inputs, m.outputs = [t], [y]
        m.op("SHAPE", [t], [shape])
        m.op("BROADCAST_ARGS", [shape, other], [both])
        m.op("BROADCAST_TO", [t, both], [y])
        return m, [x], [np.broadcast_to(x, [2, 4, 3]).copy()]
    out["tflite_broadcast_args_broadcast_to"] = broadcast_args

    def flatten_chain():
        # 25 times tf.reshape(x, [tf.shape(x)[0], -1]): 3 known tensors each, 75 in all, more than the store holds at
        # once: the ones no later op reads are reclaimed (issue #28).
        x = rng.uniform(-2, 2, size=[3, 4, 5]).astype(np.float32)
        m = tfl.Model(new_opcodes=True)
        t = m.tensor("x", [3, 4, 5], F32)
        minus = m.tensor("minus_one", [], I32, data=np.array(-1, np.int32))
        v, ins = t, [t]
        for k in range(25):
            batch = leading_dim(m, v, 2 if k else 3, I32, True)
            target = m.tensor(f"target{k}", [2], I32)
            y = m.tensor(f"y{k}", [3, 20], F32)
            m.op("PACK", [batch, minus], [target], values_count=2, axis=0)
            m.op("RESHAPE", [v, target], [y])
            v = y
        m.inputs, m.outputs = ins, [v]
        return m, [x], [x.reshape(3, 20)]
    out["tflite_shape_flatten_chain_25"] = flatten_chain
    return out


def tflite_refused():
    """TFLite models ctnn refuses: SHAPE as a graph output (no tensor holds a known value), a known value read by
    an op that does not fold it (ADD)."""
    tfl = op_tests.tfl
    m = tfl.Model(new_opcodes=True)
    t = m.tensor("x", [2, 3], tfl.FLOAT32)
    shape = m.tensor("shape", [2], tfl.INT32)
    m.inputs, m.outputs = [t], [shape]
    m.op("SHAPE", [t], [shape])
    output = m
    m = tfl.Model(new_opcodes=True)
    t = m.tensor("x", [2], tfl.INT32)
    shape = m.tensor("shape", [1], tfl.INT32)
    y = m.tensor("y", [2], tfl.INT32)
    m.inputs, m.outputs = [t], [y]
    m.op("SHAPE", [t], [shape])
    m.op("ADD", [t, shape], [y])
    return {"shape_output": output, "shape_added": m}


def refused():
    """ONNX models ctnn refuses: a known value of rank 5 as a graph output, more known values than the store
    holds, a Range longer than a known value holds, a float Range, a Div by a known 0."""
    x = np.zeros([2, 3], np.float32)

    def graph(nodes, out_name, out_type, out_shape, opset=13):
        ins = [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape))]
        out = helper.make_tensor_value_info(out_name, out_type, out_shape)
        m = helper.make_model(helper.make_graph(nodes, "refused", ins, [out]),
                              opset_imports=[helper.make_opsetid("", opset)], producer_name="ctnn-test")
        m.ir_version = 7
        return m

    shape = helper.make_node("Shape", ["x"], ["s"])
    # 70 Shapes that one later Concat reads: all still read when the 65th is computed (nothing to reclaim)
    many_shapes = ([helper.make_node("Shape", ["x"], [f"s{k}"]) for k in range(70)] +
                   [helper.make_node("Concat", [f"s{k}" for k in range(70)], ["all"], axis=0), helper.make_node("Relu", ["x"], ["y"])])
    return {
        # a known value of rank 5 as a graph output: a relayout holds rank 4 at most
        "rank5_output": graph([const("dims", np.array([1, 1, 1, 1, 2], I64)),
                               helper.make_node("ConstantOfShape", ["dims"], ["ones"], value=numpy_helper.from_array(np.array([1], I64)))],
                              "ones", TensorProto.INT64, [1, 1, 1, 1, 2]),
        # 70 known values read by one later node: more than the store's 64
        "store_full": graph(many_shapes, "y", TensorProto.FLOAT, [2, 3]),
        "range_too_long": graph([const("a", I64(0)), const("b", I64(100000)), const("c", I64(1)),
                                 helper.make_node("Range", ["a", "b", "c"], ["r"]),
                                 helper.make_node("Gather", ["x", "r"], ["y"], axis=1)], "y", TensorProto.FLOAT, [2, 100000]),
        "range_float": graph([const("a", np.float32(0)), const("b", np.float32(3)), const("c", np.float32(1)),
                              helper.make_node("Range", ["a", "b", "c"], ["y"])], "y", TensorProto.FLOAT, [3]),
        "div_by_zero": graph([shape, const("z", I64(0)), helper.make_node("Div", ["s", "z"], ["q"]),
                              helper.make_node("Reshape", ["x", "q"], ["y"])], "y", TensorProto.FLOAT, [2, 3]),
    }


def checked_with_ort(node_modules: Path, onnx_cases):
    """The ONNX cases, each checked first: onnxruntime-node's outputs must equal NumPy's (floats within 1e-5)."""
    from gen_op_tests_qdq import run_ort  # the job runner of scripts/ort_run.js

    def checked(name, build):
        def run():
            model, inputs, outputs = build()
            graph_inputs = [v for v in model.graph.input if v.name not in {i.name for i in model.graph.initializer}]
            names = [v.name for v in model.graph.output]
            got = run_ort(node_modules, model.SerializeToString(), inputs, graph_inputs,
                          [(n, np.asarray(y)) for n, y in zip(names, outputs)])
            for k, (g, y) in enumerate(zip(got, outputs)):
                y = np.asarray(y)
                same = np.allclose(g, y, rtol=1e-5, atol=1e-6) if y.dtype == np.float32 else np.array_equal(g.reshape(y.shape), y)
                if not same:
                    raise SystemExit(f"{name}: output {k}: onnxruntime gives {g.reshape(-1)[:6]}, NumPy {y.reshape(-1)[:6]}")
            return model, inputs, outputs
        return run
    return {name: checked(name, build) for name, build in onnx_cases.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ort", type=Path, help="node_modules folder holding onnxruntime-node: checks the ONNX outputs")
    args = parser.parse_args()
    family = op_tests.Family("shape_consts", None)
    onnx_cases = cases(np.random.RandomState(2805))
    op_tests.write_onnx_cases(family, checked_with_ort(args.ort, onnx_cases) if args.ort else onnx_cases)
    for name, build in tflite_cases(np.random.RandomState(2506)).items():
        model, inputs, outputs = build()
        family.write_computed_case(name, "model.tflite", model.serialize(), inputs, outputs)
    family.finish()
    op_tests.write_refused("shape_consts", tflite_refused(), refused())


if __name__ == "__main__":
    main()
