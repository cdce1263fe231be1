"""Writes the op-conformance cases of tests/data/ops (tests/ops/CMakeLists.txt): one folder per case,
tests/data/ops/<family>/<case>/, with model.tflite, input_<k>.bin and output_<k>.bin (raw little-endian
elements in the model's own type and layout). The family generators (scripts/gen_op_tests_<family>.py)
build the models with the FlatBuffers writer of gen_tflite_test_models.py and call `write_case`; the
reference outputs come from the TensorFlow Lite Micro host oracle (tflm_run, built outside the repository
from fetched sources; never committed). Without the oracle a case keeps its committed outputs, after a
check that they still belong to the model and inputs just written (their digest is in the family's
CASES.sha256), so a generator can be re-run on any machine.
"""

from __future__ import annotations

import hashlib
import shutil
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import gen_tflite_test_models as tfl  # noqa: E402  (the writer; its main() only runs as a script)

OPS_DIR = HERE.parent / "tests" / "data" / "ops"
TFLM_COMMIT = tfl.TFLM_COMMIT


class Family:
    """The cases of one family. `write_case` for each, then `finish` (writes CASES.sha256, removes the
    folders of cases no longer generated)."""

    def __init__(self, name: str, tflm: str | None):
        self.dir = OPS_DIR / name
        self.tflm = tflm
        self.digests: dict[str, str] = {}
        old = self.dir / "CASES.sha256"
        self.committed = {}
        if old.exists():
            for line in old.read_text().splitlines():
                digest, case = line.split()
                self.committed[case] = digest

    def write_case(self, case: str, model: tfl.Model, inputs: list[np.ndarray], invocations: int = 1) -> None:
        """`invocations` > 1: a stateful model run that many times on the same inputs (its state carries from
        one run to the next); the outputs are the last run's, and the file `invocations` says how many."""
        folder = self.dir / case
        folder.mkdir(parents=True, exist_ok=True)
        data = model.serialize()
        (folder / "model.tflite").write_bytes(data)
        digest = hashlib.sha256(data)
        if invocations > 1:
            (folder / "invocations").write_text(f"{invocations}\n")
            digest.update(f"invocations {invocations}".encode())
        for k, (tensor, x) in enumerate(zip(model.inputs, inputs)):
            t = model.tensors[tensor]
            array = np.ascontiguousarray(np.asarray(x).astype(tfl.NP_TYPES[t["type"]]).reshape(t["shape"]))
            (folder / f"input_{k}.bin").write_bytes(array.tobytes())
            digest.update(array.tobytes())
        self.digests[case] = digest.hexdigest()
        if self.tflm is not None:
            types = [tfl.NP_TYPES[model.tensors[o]["type"]] for o in model.outputs]
            outputs, _ = tfl.run_tflm(self.tflm, folder / "model.tflite", list(inputs), types, invocations)
            for k, y in enumerate(outputs):
                (folder / f"output_{k}.bin").write_bytes(y.tobytes())
        elif self.committed.get(case) != self.digests[case] or not (folder / "output_0.bin").exists():
            sys.exit(f"{folder}: the model or inputs changed (or are new) and no oracle was given: "
                     f"re-run with --tflm <tflm_run> to record the reference outputs")

    def write_computed_case(self, case: str, model_name: str, model_bytes: bytes, inputs: list[np.ndarray],
                            outputs: list[np.ndarray], invocations: int = 1) -> None:
        """A case whose reference outputs the generator computes itself (NumPy: ONNX's definitions, or an op
        the oracle lacks): `model_name` is model.tflite or model.onnx, the arrays are written as they are;
        `invocations` as write_case's (the outputs: the last run's)."""
        folder = self.dir / case
        folder.mkdir(parents=True, exist_ok=True)
        (folder / model_name).write_bytes(model_bytes)
        digest = hashlib.sha256(model_bytes)
        if invocations > 1:
            (folder / "invocations").write_text(f"{invocations}\n")
            digest.update(f"invocations {invocations}".encode())
        for k, x in enumerate(inputs):
            (folder / f"input_{k}.bin").write_bytes(np.ascontiguousarray(x).tobytes())
            digest.update(np.ascontiguousarray(x).tobytes())
        for k, y in enumerate(outputs):
            (folder / f"output_{k}.bin").write_bytes(np.ascontiguousarray(y).tobytes())
        self.digests[case] = digest.hexdigest()

    def finish(self) -> None:
        for folder in self.dir.iterdir():
            if folder.is_dir() and folder.name not in self.digests:
                shutil.rmtree(folder)
        lines = [f"{d} {c}" for c, d in sorted(self.digests.items())]
        (self.dir / "CASES.sha256").write_text("\n".join(lines) + "\n")
        print(f"{self.dir.relative_to(HERE.parent)}: {len(self.digests)} cases"
              + ("" if self.tflm else " (outputs kept: no --tflm)"))


def write_checked_cases(family: Family, cases) -> None:
    """TFLite cases whose reference outputs (the oracle's, or the committed ones) must equal NumPy's bit for bit:
    `cases` maps a case name to a builder of (model, inputs, NumPy's outputs or None where NumPy has none)."""
    for name, build in cases.items():
        model, inputs, expected = build()
        family.write_case(name, model, inputs)
        for k, y in enumerate(expected or []):
            got = (family.dir / name / f"output_{k}.bin").read_bytes()
            if got != np.ascontiguousarray(y).tobytes():
                sys.exit(f"{name}: the reference's output {k} differs from NumPy's")


def write_onnx_cases(family: Family, cases, output_type=None) -> None:
    """ONNX cases with NumPy's outputs, written every run (their digest joins CASES.sha256): `cases` maps a case
    name to a builder of (model, inputs, outputs); `output_type` converts the outputs first."""
    for name, build in cases.items():
        model, inputs, outputs = build()
        if output_type is not None:
            outputs = [np.asarray(y, dtype=output_type) for y in outputs]
        family.write_computed_case(name, "model.onnx", model.SerializeToString(), inputs, outputs)


def write_refused(prefix: str, tflite_models: dict, onnx_models: dict | None = None) -> None:
    """Models ctnn must refuse: tests/data/tflite/<prefix>_refused_<name>.tflite and tests/data/onnx/<prefix>_refused_<name>.onnx."""
    root = OPS_DIR.parent
    for name, model in tflite_models.items():
        (root / "tflite" / f"{prefix}_refused_{name}.tflite").write_bytes(model.serialize())
    for name, model in (onnx_models or {}).items():
        (root / "onnx" / f"{prefix}_refused_{name}.onnx").write_bytes(model.SerializeToString())


def int8_range(rng: np.random.RandomState, shape, zero_point: int = 0) -> np.ndarray:
    """int8 values over the whole range, both extremes and the zero point included."""
    x = rng.randint(-128, 128, size=shape).astype(np.int8)
    flat = x.reshape(-1)
    for i, v in enumerate([-128, 127, zero_point]):
        if i < flat.size:
            flat[rng.randint(flat.size)] = v
    return x
