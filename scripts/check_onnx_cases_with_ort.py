#!/usr/bin/env python3
"""Runs committed ONNX op-conformance cases (tests/data/ops/<family>/<case>/model.onnx with input_<k>.bin) through
onnxruntime-node (scripts/ort_run.js) and compares its outputs with the committed output_<k>.bin: a check that the
generators' NumPy references of ONNX's definitions agree with onnxruntime (float32: |got - want| <= 1e-5 |want|
+ 1e-6, integers exact). Exit status 1 when some output differs (a model onnxruntime refuses is reported, not
counted as a difference).

Usage: /usr/bin/python3 scripts/check_onnx_cases_with_ort.py <node_modules> <family>/<case prefix> ...
  e.g. scripts/check_onnx_cases_with_ort.py /tmp/ort/node_modules gather/onnx_gather_elements reduce/onnx_top_k
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx

HERE = Path(__file__).resolve().parent
OPS_DIR = HERE.parent / "tests" / "data" / "ops"
JS_TYPES = {np.dtype(np.float32): "float32", np.dtype(np.int64): "int64", np.dtype(np.int32): "int32",
            np.dtype(np.int8): "int8", np.dtype(np.uint8): "uint8", np.dtype(np.bool_): "bool"}


def check_case(node_modules: Path, folder: Path) -> bool | None:
    """Whether onnxruntime's outputs equal the committed ones (None: onnxruntime refused the model)."""
    model = onnx.load(str(folder / "model.onnx"))
    initializers = {t.name for t in model.graph.initializer}
    inputs = [i for i in model.graph.input if i.name not in initializers]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        job = {"model": str(folder / "model.onnx"), "inputs": [], "outputs": []}
        for k, info in enumerate(inputs):
            dtype = np.dtype(onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[info.type.tensor_type.elem_type])
            dims = [d.dim_value for d in info.type.tensor_type.shape.dim]
            job["inputs"].append({"name": info.name, "type": JS_TYPES[dtype], "dims": dims, "path": str(folder / f"input_{k}.bin")})
        for k, info in enumerate(model.graph.output):
            job["outputs"].append({"name": info.name, "path": str(tmp / f"out{k}.bin")})
        (tmp / "job.json").write_text(json.dumps(job))
        run = subprocess.run(["node", str(HERE / "ort_run.js"), str(tmp / "job.json")], capture_output=True, text=True,
                             env={**os.environ, "NODE_PATH": str(node_modules)})
        if run.returncode != 0:  # a form ONNX defines that onnxruntime refuses (LRN of an even size)
            print(f"{folder.relative_to(OPS_DIR)}: onnxruntime does not run it: {run.stderr.strip().splitlines()[0]}")
            return None
        same = True
        for k, info in enumerate(model.graph.output):
            dtype = np.dtype(onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[info.type.tensor_type.elem_type])
            got = np.frombuffer((tmp / f"out{k}.bin").read_bytes(), dtype)
            want = np.frombuffer((folder / f"output_{k}.bin").read_bytes(), dtype)
            if dtype == np.float32:
                with np.errstate(invalid="ignore"):  # inf - inf
                    close = (got == want) | (np.abs(got - want) <= 1e-5 * np.abs(want) + 1e-6)
                ok = got.shape == want.shape and bool(np.all(close | (np.isnan(got) & np.isnan(want))))
            else:
                ok = got.shape == want.shape and bool(np.all(got == want))
            if not ok:
                print(f"{folder.relative_to(OPS_DIR)}: output {k} differs from onnxruntime's")
            same = same and ok
        return same


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    node_modules, failures, refused, count = Path(sys.argv[1]), 0, 0, 0
    for prefix in sys.argv[2:]:
        family, _, start = prefix.partition("/")
        for folder in sorted((OPS_DIR / family).iterdir()):
            if folder.is_dir() and folder.name.startswith(start) and (folder / "model.onnx").exists():
                count += 1
                same = check_case(node_modules, folder)
                refused += same is None
                failures += same is False
    print(f"{count} cases, {count - failures - refused} equal onnxruntime's outputs, {failures} differ, "
          f"{refused} not run by onnxruntime")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
