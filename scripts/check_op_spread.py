#!/usr/bin/env python3
"""Checks that an op kind lives in its descriptor and its frontend table rows (docs/design.md §2, "One
descriptor per op kind"; issue #24).

For every op kind of include/ctnn/ir/op_kind.hpp without a fast path (no `op_kind::<kind>` under
kernel/simd or kernel/arm), the headers that name `op_kind::<kind>` must be its descriptor (ops/) and the
frontends' tables (frontend/onnx/import_table.hpp, frontend/tflite/import_plan.hpp, frontend/dsl_layers.hpp),
or one of the places EXCEPTIONS lists with its reason. A new mention elsewhere fails the check (move the
fact onto the descriptor, or take the row's kind from the importer state); a listed one that has disappeared
is noted so that the list shrinks. The summary also gives the issue's figure: the kinds named in at most
three headers.

Usage: check_op_spread.py [--root DIR]
Standard library only; exit status 0 when clean, 1 on a new mention.
"""
import argparse
import os
import re
import sys

HOME = ("ops/", "frontend/onnx/import_table.hpp", "frontend/tflite/import_plan.hpp", "frontend/dsl_layers.hpp")
FAST_PATH_FOLDERS = ("kernel/simd/", "kernel/arm/")

# header -> (the kinds it may name, why)
EXCEPTIONS = {
    "frontend/onnx/import_state.hpp": ({"pad", "concat"},
                                       "the ONNX importer's builders of the kinds many import functions add"),
    "frontend/tflite/import_state.hpp": ({"pad", "concat", "slice"},
                                         "the TFLite importer's builders of the kinds many import functions add"),
    "frontend/onnx/quantized.hpp": ({"dequantize"}, "the QLinear and QDQ lowerings add it around other ops"),
    "frontend/onnx/import_qdq.hpp": ({"pad"}, "a QDQ AveragePool's count_include_pad pad is filled with x's zero point"),
    "frontend/tflite/import_gather_scatter.hpp": ({"dequantize"}, "an int8 EMBEDDING_LOOKUP table read through a dequantize"),
    "frontend/onnx/import_spatial.hpp": ({"resize_cubic", "l1_normalization"},
                                         "Resize's mode picks one of three kinds, LpNormalization's p one of two"),
    "frontend/onnx/import_gather_scatter.hpp": ({"slice"}, "a Gather or GatherND of a few constant indices is slices and a concat"),
    "frontend/onnx/import_recurrent.hpp": ({"slice", "cast"}, "LSTM/GRU/RNN outputs are windows of the one packed "
                                           "result; int32 sequence_lens is cast to the kernel's float32 operand"),
    "frontend/onnx/import_einsum.hpp": ({"reduce_sum"}, "Einsum sums the labels one operand alone has before its batch_matmul"),
    "frontend/onnx/import_reduce.hpp": ({"cast"}, "ReduceMax/ReduceMin of bools: casts around the float32 reduction"),
    "pass/fold_batch_norm.hpp": ({"batch_norm"}, "the pass that removes the kind"),
    "pass/fuse_ops.hpp": ({"pad"}, "a pad folded into the convolution that reads it"),
    "pass/patch_execution.hpp": ({"crop", "paste", "fetch_rows"}, "the kinds the pass creates"),
    "ir/streamed_input.hpp": ({"fetch_rows"}, "a streamed input's rows, read by the kind"),
    "memory/buffers.hpp": ({"concat"}, "a concat's producers write into its result in place"),
}


def op_kinds(root):
    text = open(os.path.join(root, "include/ctnn/ir/op_kind.hpp"), encoding="utf-8").read()
    body = re.search(r"enum class op_kind[^{]*\{(.*?)\};", text, re.S).group(1)
    body = re.sub(r"//[^\n]*", "", body)
    return [k.split("=")[0].strip() for k in body.split(",") if k.split("=")[0].strip()]


def headers(root):
    base = os.path.join(root, "include/ctnn")
    for folder, _, files in os.walk(base):
        for f in files:
            if f.endswith(".hpp"):
                path = os.path.join(folder, f)
                yield os.path.relpath(path, base).replace(os.sep, "/"), open(path, encoding="utf-8").read()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    args = parser.parse_args()
    kinds = op_kinds(args.root)
    named = {k: set() for k in kinds}
    for rel, text in headers(args.root):
        for k in set(re.findall(r"op_kind::(\w+)\b", text)):
            if k in named:
                named[k].add(rel)
    fast = {k for k in kinds if any(h.startswith(FAST_PATH_FOLDERS) for h in named[k])}
    problems, used = [], set()
    for k in kinds:
        if k == "none" or k in fast:
            continue
        for h in sorted(named[k]):
            if h.startswith(HOME[0]) or h in HOME[1:]:
                continue
            if h in EXCEPTIONS and k in EXCEPTIONS[h][0]:
                used.add((h, k))
                continue
            problems.append(f"op_kind::{k} is named in {h}: move that fact onto ops/ (its descriptor) or take the "
                            f"row's kind from the importer state (docs/design.md §2)")
    for h, (allowed, why) in EXCEPTIONS.items():
        for k in sorted(allowed):
            if (h, k) not in used:
                print(f"note: listed exception no longer needed: {h} names no op_kind::{k} ({why})")
    for p in problems:
        print(f"error: {p}")
    slow = [k for k in kinds if k != "none" and k not in fast]
    within3 = sum(1 for k in slow if len(named[k]) <= 3)
    print(f"op spread: {len(kinds) - 1} op kinds, {len(fast)} with a fast path; of the {len(slow)} others "
          f"{within3} are named in at most 3 headers, {len(slow) - sum(1 for k in slow if any((h, k) in used for h in EXCEPTIONS))} "
          f"only in their descriptor and frontend tables; {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
