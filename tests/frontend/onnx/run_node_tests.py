#!/usr/bin/python3
"""ONNX backend node tests through ctnn-run (issue #5 conformance).

    run_node_tests.py <ctnn-run> <tests folder> [--only SUBSTRING] [--verbose] [--known-failures FILE]

For every test folder (<folder>/model.onnx, <folder>/test_data_set_*/input_K.pb and output_K.pb; see the
folder's README.md) runs `ctnn-run model.onnx input_*.pb -o <tmp>` and compares each output with
output_K.pb as the ONNX backend tests do: |got - ref| <= atol + rtol * |ref| with rtol 1e-3, atol 1e-7 for
float32, exact equality for integer types.

Every folder ends up in one of:
  pass          ctnn-run's outputs match (inputs that ctnn reads as constants -- weights, shapes, pads,
                bounds, which these tests pass as graph inputs -- are folded into the model: --constant);
  rejected      ctnn-run refused the model (exit status 1, its message printed with --verbose) and the model
                falls in a category ctnn leaves out (named: 3-D conv, pool or batch norm, training-mode batch
                norm, MaxPool's Indices output, zero-size tensors, tensors of rank above 6 (ctnn::max_rank), blocked
                quantization, floating-point Range, element types other than
                float32, int8, uint8, int32, int64, opset-6 forms that onnxruntime cannot run either, Pow and Mod
                of other types than float32, Dropout's mask output, training-mode Dropout); 1-D conv,
                pools and batch norm (rank-3 inputs) must run;
  not in scope  the model uses an op outside issue #5's list;
  failed        anything else: wrong values, a crash, or a refusal outside the categories above;
  known failure a failure of a folder listed in node_tests_known_failures.txt (next to this script: one
                folder name per line, '#' starts the reason) -- work still to do, not counted as failed;
  unexpected pass  a listed folder that did not fail: counted as failed, so that the list is kept current.
The categories are read from the model itself (not from folder names), so held-out tests are classified
the same way. Exit status: 0 when nothing failed (known failures aside), 1 otherwise, 77 (ctest's SKIP) when the tests folder or
python3-onnx is absent.
"""

from __future__ import annotations

import argparse
import collections
import subprocess
import sys
import tempfile
from pathlib import Path

SKIP = 77

try:
    import numpy as np
    import onnx
    from onnx import numpy_helper
except ImportError as e:  # a fresh clone's machine may lack them
    print(f"SKIP: python3-onnx and NumPy are needed ({e})")
    sys.exit(SKIP)

IN_SCOPE = {
    "Constant", "Conv", "Gemm", "MatMul", "MaxPool", "AveragePool", "GlobalAveragePool", "Relu", "Clip", "Add",
    "Mul", "Softmax", "Reshape", "Flatten", "Concat", "Pad", "Sigmoid", "Tanh", "BatchNormalization", "Transpose",
    "QuantizeLinear", "DequantizeLinear", "QLinearConv", "QLinearMatMul", "ConvInteger", "MatMulInteger",
    # issue #28: element-wise math of one operand (float32)
    "Abs", "Neg", "Sqrt", "Reciprocal", "Exp", "Log", "Sin", "Cos", "Floor", "Ceil", "Round",
    # the shape family (issue #28)
    "Squeeze", "Unsqueeze", "Slice", "Split", "Gather", "DepthToSpace", "SpaceToDepth", "Identity",
    # issue #28: reductions (float32; ArgMax/ArgMin: int64 results)
    "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceSumSquare", "ReduceL1", "ReduceL2",
    "ReduceLogSum", "ReduceLogSumExp", "ArgMax", "ArgMin",
    # the activation family (issue #28)
    "LeakyRelu", "Elu", "HardSigmoid", "HardSwish", "PRelu", "Max", "Min",
    # the logic family (issue #28)
    "Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual", "And", "Or", "Xor", "Not", "Where", "Cast", "Div",
    # the spatial family (issue #28)
    "Resize", "Upsample", "Sum", "Expand", "Tile", "LpNormalization",
    # the transpose_conv family (issue #28)
    "ConvTranspose",
    # the gather/scatter family (issue #28)
    "GatherND", "CumSum", "ConstantOfShape", "ScatterND", "ReverseSequence",
    # integers computed at import (issues #28, #25)
    "Shape", "Size", "Range",
    # the onnx_math family (issue #28)
    "Erf", "Gelu", "Softplus", "Softsign", "Selu", "Celu", "ThresholdedRelu", "Sign", "Tan", "Sinh", "Cosh", "Asin",
    "Acos", "Atan", "Asinh", "Acosh", "Atanh", "Shrink", "LayerNormalization", "InstanceNormalization",
    "MeanVarianceNormalization", "LogSoftmax", "GlobalMaxPool", "Dropout", "Pow", "Mod", "Mean",
    # issue #28: ONNX operators as exporters write them
    "GatherElements", "ScatterElements", "TopK", "Hardmax", "Mish", "LpPool", "LRN", "GroupNormalization", "Einsum",
}
QUANTIZED = {"QuantizeLinear", "DequantizeLinear", "QLinearConv", "QLinearMatMul", "ConvInteger", "MatMulInteger"}
# TensorProto data types ctnn's ONNX frontend targets: FLOAT, UINT8, INT8, INT32, INT64, BOOL.
SUPPORTED_TYPES = {1, 2, 3, 6, 7, 9}
# Ops whose opset-6 (or older) form onnxruntime no longer runs (the shared README's ORT check).
LEGACY_UNRUNNABLE = {"AveragePool", "BatchNormalization", "Gemm", "Add", "Mul"}
WINDOWED = {"Conv", "MaxPool", "AveragePool", "ConvInteger", "QLinearConv", "ConvTranspose", "LpPool"}
# Ranks of the windowed ops' input that ctnn reads: 1-D (as an image of height 1) and 2-D.
WINDOWED_RANKS = {3, 4}
# Operands ctnn reads as constants (weights, biases, shapes, pads, bounds), by op: the node tests pass them
# as graph inputs, which ctnn-run folds into the model (--constant), as a compile-time user would embed
# them as initializers. MatMul's B is not among them: ctnn multiplies two activations (batch_matmul).
CONSTANT_OPERANDS = {
    "Conv": {1, 2}, "Gemm": {1, 2}, "BatchNormalization": {1, 2, 3, 4}, "Clip": {1, 2},
    "Reshape": {1}, "Pad": {1, 2, 3}, "Squeeze": {1}, "Unsqueeze": {1}, "Slice": {1, 2, 3, 4}, "Split": {1},
    # The axes of the reductions (an input from opset 18, ReduceSum's from 13).
    **{op: {1} for op in ("ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceSumSquare",
                          "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp")},
    # Quantization parameters and the weights of the quantized ops.
    "QuantizeLinear": {1, 2}, "DequantizeLinear": {1, 2}, "QLinearConv": {1, 2, 3, 4, 5, 6, 7, 8},
    "QLinearMatMul": {1, 2, 3, 4, 5, 6, 7}, "ConvInteger": {1, 2, 3}, "MatMulInteger": {1, 2, 3},
    # Resize's roi, scales and sizes, Upsample's scales.
    "Resize": {1, 2, 3}, "Upsample": {1}, "Expand": {1}, "Tile": {1},
    "ConvTranspose": {1, 2},
    "CumSum": {1}, "ConstantOfShape": {0}, "Range": {0, 1, 2},
    # Dropout's ratio and training_mode.
    "Dropout": {1, 2},
    # TopK's K (a computed K would make the result's shape a run-time one).
    "TopK": {1},
}
# Ops ctnn runs on float32 operands only where ONNX also defines them on integers (Pow's base or exponent, Mod).
FLOAT_ONLY = {"Pow", "Mod"}
TensorProto_FLOAT = 1
# Ops whose extra outputs ctnn does not compute (an inference has no use for them): a model naming one is refused.
EXTRA_OUTPUTS = {"Dropout": "mask"}
RTOL, ATOL = 1e-3, 1e-7
# ctnn::max_rank: a model input or output of more dims is refused (onnx_error::rank_too_high).
MAX_RANK = 6
KNOWN_FAILURES = Path(__file__).with_name("node_tests_known_failures.txt")


def read_known_failures(path: Path) -> dict[str, str]:
    """Folder name -> reason, from a list file (one name per line, '#' starts a comment)."""
    known = {}
    for line in path.read_text().splitlines():
        name, _, reason = line.partition("#")
        if name.strip():
            known[name.strip()] = reason.strip()
    return known


def opset_of(model) -> int:
    for o in model.opset_import:
        if o.domain in ("", "ai.onnx"):
            return o.version
    return 0


def value_types(model):
    """(name, elem_type, dims) of the graph's inputs, outputs and value_info; dims None when unknown."""
    for v in list(model.graph.input) + list(model.graph.output) + list(model.graph.value_info):
        t = v.type.tensor_type
        dims = [d.dim_value if d.HasField("dim_value") else None for d in t.shape.dim] if t.HasField("shape") else None
        yield v.name, t.elem_type, dims


def type_name(t: int) -> str:
    """A TensorProto data type's name (its number for types newer than the installed onnx)."""
    try:
        return onnx.TensorProto.DataType.Name(t)
    except ValueError:
        return f"data type {t}"


def input_value(model, folder: Path, name: str):
    """The value of an initializer or graph input `name` (its test_data_set_0 file), None when unknown."""
    for t in model.graph.initializer:
        if t.name == name:
            return numpy_helper.to_array(t)
    initializers = {t.name for t in model.graph.initializer}
    runtime = [v.name for v in model.graph.input if v.name not in initializers]
    path = folder / "test_data_set_0" / f"input_{runtime.index(name)}.pb" if name in runtime else None
    if path is None or not path.exists():
        return None
    tensor = onnx.TensorProto()
    tensor.ParseFromString(path.read_bytes())
    return numpy_helper.to_array(tensor)


def allowed_rejections(model, folder: Path) -> list[str]:
    """The categories of this model that ctnn may refuse (empty: it must run)."""
    reasons = []
    shapes = {name: dims for name, _, dims in value_types(model)}
    types_by_name = {name: t for name, t, _ in value_types(model)} | {t.name: t.data_type for t in model.graph.initializer}
    types = {t for _, t, _ in value_types(model)} | {t.data_type for t in model.graph.initializer}
    for pb in sorted(folder.glob("test_data_set_*/*.pb")):
        tensor = onnx.TensorProto()
        tensor.ParseFromString(pb.read_bytes())
        types.add(tensor.data_type)
        if any(d == 0 for d in tensor.dims):
            reasons.append("zero-size tensor")
        if len(tensor.dims) > MAX_RANK:
            reasons.append(f"rank above {MAX_RANK}")
    if types - SUPPORTED_TYPES:
        reasons.append("element type " + ",".join(type_name(t) for t in sorted(types - SUPPORTED_TYPES)))
    for node in model.graph.node:
        attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
        if node.op_type in WINDOWED:
            dims = shapes.get(node.input[0])
            rank = len(dims) if dims is not None else len(attrs.get("kernel_shape", [0, 0])) + 2
            if rank not in WINDOWED_RANKS:
                reasons.append(f"{rank - 2}-D {node.op_type}")
        if node.op_type == "BatchNormalization":
            dims = shapes.get(node.input[0])
            if dims is not None and len(dims) > 4:
                reasons.append(f"{len(dims) - 2}-D BatchNormalization")
            if attrs.get("training_mode", 0):
                reasons.append("training-mode BatchNormalization")
        if node.op_type == "MaxPool" and len([o for o in node.output if o]) > 1:
            reasons.append("MaxPool Indices output")
        if node.op_type in ("QuantizeLinear", "DequantizeLinear") and attrs.get("block_size", 0) > 0:
            reasons.append("blocked quantization")
        # Range computes integers at import (frontend/onnx/import_known.hpp): a FLOAT range is a tensor ctnn
        # does not compute.
        if node.op_type == "Range" and any(types_by_name.get(i) in (1, 11) for i in node.input):
            reasons.append("floating-point Range")
        if node.op_type in FLOAT_ONLY:
            operand_types = {types_by_name.get(name) for name in node.input if name}
            if operand_types - {TensorProto_FLOAT, None}:
                reasons.append(f"{node.op_type} of other types than float32")
        if node.op_type == "Dropout" and len(node.input) > 2 and node.input[2]:
            training, ratio = (input_value(model, folder, name) for name in (node.input[2], node.input[1] if len(node.input) > 1 else ""))
            if training is None or (bool(training) and (ratio is None or float(ratio) != 0.0)):
                reasons.append("training-mode Dropout")
        if node.op_type in EXTRA_OUTPUTS and len([o for o in node.output if o]) > 1:
            reasons.append(f"{node.op_type} {EXTRA_OUTPUTS[node.op_type]} output")
        if node.op_type in LEGACY_UNRUNNABLE and opset_of(model) < 7:
            reasons.append(f"opset-{opset_of(model)} {node.op_type}")
    return sorted(set(reasons))


def constant_inputs(model) -> list[int]:
    """Positions (among the graph inputs that are not initializers) of the inputs ctnn needs as constants."""
    initializers = {t.name for t in model.graph.initializer}
    runtime = [v.name for v in model.graph.input if v.name not in initializers]
    wanted = set()
    for node in model.graph.node:
        for slot in CONSTANT_OPERANDS.get(node.op_type, ()):
            if slot < len(node.input) and node.input[slot] in runtime:
                wanted.add(runtime.index(node.input[slot]))
    return sorted(wanted)


def compare(got: np.ndarray, ref: np.ndarray) -> str:
    """'' when equal within the tolerance, else what differs."""
    if got.shape != ref.shape:
        return f"shape {got.shape}, expected {ref.shape}"
    if np.issubdtype(ref.dtype, np.floating):
        bad = np.abs(got.astype(np.float64) - ref) > ATOL + RTOL * np.abs(ref.astype(np.float64))
        bad |= np.isnan(got) != np.isnan(ref)
    else:
        bad = got != ref
    if not bad.any():
        return ""
    k = int(np.flatnonzero(bad.reshape(-1))[0])
    return f"{int(bad.sum())} of {ref.size} values differ; first at {k}: {got.reshape(-1)[k]} vs {ref.reshape(-1)[k]}"


def run_folder(ctnn_run: str, folder: Path, scratch: Path) -> tuple[str, str]:
    """(outcome, detail): outcome is pass, rejected, not in scope or failed."""
    model = onnx.load(str(folder / "model.onnx"), load_external_data=False)
    ops = {n.op_type for n in model.graph.node if n.domain in ("", "ai.onnx")}
    foreign = sorted(ops - IN_SCOPE) + sorted({f"{n.domain}.{n.op_type}" for n in model.graph.node if n.domain not in ("", "ai.onnx")})
    if foreign:
        return "not in scope", ",".join(foreign)
    allowed = allowed_rejections(model, folder)
    sets = sorted(p for p in folder.glob("test_data_set_*") if p.is_dir())
    if not sets:
        return "failed", "no test_data_set_* folder"
    for data in sets:
        inputs = sorted(data.glob("input_*.pb"), key=lambda p: int(p.stem.split("_")[1]))
        outputs = sorted(data.glob("output_*.pb"), key=lambda p: int(p.stem.split("_")[1]))
        prefix = scratch / folder.name
        try:
            constants = [a for k in constant_inputs(model) for a in ("--constant", str(k))]
            proc = subprocess.run([ctnn_run, str(folder / "model.onnx"), *map(str, inputs), "-o", str(prefix), *constants],
                                  capture_output=True, text=True, timeout=600)
        except subprocess.TimeoutExpired:
            return "failed", "ctnn-run timed out"
        message = (proc.stderr.strip().splitlines() or [""])
        message = " | ".join(line.strip() for line in message[-3:])
        if proc.returncode == 1 and allowed:
            return "rejected", "; ".join(allowed) + " -- " + message
        if proc.returncode != 0:
            return "failed", f"ctnn-run exit {proc.returncode}: {message}"
        for k, out in enumerate(outputs):
            ref_proto = onnx.TensorProto()
            ref_proto.ParseFromString(out.read_bytes())
            ref = numpy_helper.to_array(ref_proto)
            got_path = Path(f"{prefix}_{k}.bin")
            if not got_path.exists():
                return "failed", f"no output {k}"
            got = np.frombuffer(got_path.read_bytes(), dtype=ref.dtype)
            if got.size != ref.size:
                return "failed", f"output {k}: {got.size} values, expected {ref.size}"
            problem = compare(got.reshape(ref.shape), ref)
            if problem:
                return "failed", f"{data.name} output {k}: {problem}"
    return "pass", "; ".join(allowed)  # allowed categories it runs anyway


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ctnn_run")
    parser.add_argument("tests")
    parser.add_argument("--only", default="", help="run the folders whose name contains this")
    parser.add_argument("--verbose", action="store_true", help="print every folder, not only failures")
    parser.add_argument("--known-failures", type=Path, default=KNOWN_FAILURES,
                        help="the folders expected to fail (default: %(default)s)")
    args = parser.parse_args()
    known = read_known_failures(args.known_failures) if args.known_failures.exists() else {}
    root = Path(args.tests)
    if not root.is_dir():
        print(f"SKIP: {root} is absent (the ONNX node tests are in ../shared/onnx-node-tests)")
        return SKIP
    folders = sorted(p for p in root.iterdir() if (p / "model.onnx").exists() and args.only in p.name)
    counts = collections.Counter()
    reasons = collections.Counter()
    pending_quantized = 0
    with tempfile.TemporaryDirectory() as scratch:
        for folder in folders:
            outcome, detail = run_folder(args.ctnn_run, folder, Path(scratch))
            if folder.name in known:
                if outcome == "failed":
                    outcome, detail = "known failure", f"{known[folder.name]} -- {detail}"
                else:
                    outcome, detail = "failed", f"listed in {args.known_failures.name} but {outcome}: remove it from the list"
            counts[outcome] += 1
            if outcome == "rejected":
                for r in detail.split(" -- ")[0].split("; "):
                    reasons[r.split(" ", 1)[0] if r.startswith("element type") else r] += 1
            model_ops = {n.op_type for n in onnx.load(str(folder / "model.onnx")).graph.node}
            if outcome == "failed" and model_ops & QUANTIZED:
                pending_quantized += 1
            if outcome in ("failed", "known failure") or args.verbose:
                print(f"{outcome:12} {folder.name}: {detail}")
    print(f"\n{len(folders)} folders: {counts['pass']} pass, {counts['rejected']} rejected, "
          f"{counts['not in scope']} not in scope, {counts['known failure']} known failures, {counts['failed']} failed")
    for r, n in sorted(reasons.items()):
        print(f"  rejected: {r}: {n}")
    if pending_quantized:
        print(f"  failed with quantized ops (QuantizeLinear ... MatMulInteger) among them: {pending_quantized}")
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
