#!/usr/bin/env python3
"""Writes the op-conformance cases of the detection family: tests/data/ops/detection/<case>/ with model.tflite,
input_<k>.bin and output_<k>.bin, and the refused models tests/data/tflite/detection_refused_*.tflite.
PROVENANCE.md in that folder says what produced each file.

  TFLite op: the custom operator TFLite_Detection_PostProcess (builtin code CUSTOM; its options a FlexBuffers map
  in custom_options, written by `flexbuffer_map` below). Float32 cases: outputs from TensorFlow Lite Micro's
  reference kernel, the host oracle tflm_run, only with --tflm (without it the committed outputs are kept).
  int8 cases: TFLM runs DETECTION_POSTPROCESS on float32 only (its Eval returns an error for other types), so their
  outputs are the oracle's on the float32 twin of the model whose inputs and anchors are the int8 values
  dequantized as TFLite's kernel dequantizes them, (float(q) - zero point) * scale in float32.

Deterministic: every input comes from a fixed seed, so re-running reproduces every file byte for byte.

Usage: /usr/bin/python3 scripts/gen_op_tests_detection.py [--tflm /work/oracle/tflm/tflm_run]
"""
import argparse
import hashlib
import struct
import sys
import tempfile
from pathlib import Path

import numpy as np

import op_tests
from op_tests import tfl

tfl.OPS.update({"DETECTION_POSTPROCESS": 32, "OTHER_CUSTOM": 32})
tfl.CUSTOM_CODES.update({"DETECTION_POSTPROCESS": "TFLite_Detection_PostProcess", "OTHER_CUSTOM": "TFLite_Other"})

F32 = np.float32

# FlexBuffers value types (flexbuffers.h: FBT_INT, FBT_UINT, FBT_FLOAT, FBT_MAP, FBT_BOOL).
FBT_INT, FBT_UINT, FBT_FLOAT, FBT_MAP, FBT_BOOL = 1, 2, 3, 9, 26


def flexbuffer_map(items: dict, width: int = 4) -> bytes:
    """A FlexBuffers map of scalars, as flexbuffers' Builder lays it out: the keys (0-terminated) first, then the
    sorted keys' vector (its size, then offsets back to each key), the map (keys vector offset, keys width, size,
    the values, one packed type byte per value), then the root (its offset back to the values, the packed type,
    the root's width). items: key -> int, float or bool; every value stored inline in `width` bytes."""
    log2 = {1: 0, 2: 1, 4: 2, 8: 3}[width]
    unsigned = {1: "B", 2: "H", 4: "I", 8: "Q"}[width]
    signed = unsigned.lower()
    buf = bytearray()
    keys = sorted(items)
    key_at = {}
    for k in keys:
        key_at[k] = len(buf)
        buf += k.encode() + b"\0"

    def align():
        while len(buf) % width:
            buf.append(0)

    align()
    buf += struct.pack("<" + unsigned, len(keys))
    keys_vector = len(buf)
    for k in keys:
        buf += struct.pack("<" + unsigned, len(buf) - key_at[k])
    align()
    buf += struct.pack("<" + unsigned, len(buf) - keys_vector)
    buf += struct.pack("<" + unsigned, width)
    buf += struct.pack("<" + unsigned, len(keys))
    values = len(buf)
    types = bytearray()
    for k in keys:
        v = items[k]
        if isinstance(v, bool):
            buf += struct.pack("<" + unsigned, int(v))
            types.append(FBT_BOOL << 2)
        elif isinstance(v, float):
            buf += struct.pack("<" + {4: "f", 8: "d"}[width], v)
            types.append(FBT_FLOAT << 2 | log2)
        else:
            buf += struct.pack("<" + signed, v)
            types.append(FBT_INT << 2 | log2)
    buf += types
    root = len(buf)
    buf += struct.pack("<B", root - values) if root - values < 256 else b""
    assert root - values < 256, "a map this large needs a wider root"
    buf += bytes([FBT_MAP << 2 | log2, 1])
    return bytes(buf)


def options(max_detections, num_classes, score=0.0, iou=0.5, scales=(10.0, 10.0, 5.0, 5.0), regular=None,
            per_class=None, classes_per_detection=1):
    o = {"max_detections": max_detections, "max_classes_per_detection": classes_per_detection,
         "nms_score_threshold": float(score), "nms_iou_threshold": float(iou), "num_classes": num_classes,
         "y_scale": scales[0], "x_scale": scales[1], "h_scale": scales[2], "w_scale": scales[3]}
    if regular is not None:
        o["use_regular_nms"] = regular
    if per_class is not None:
        o["detections_per_class"] = per_class
    return o


def anchors_grid(rng, n):
    """n anchors (y, x, h, w): centres on a coarse grid, so that neighbours overlap and non-max suppression acts."""
    y = rng.randint(0, 4, n) * 0.2 + 0.2
    x = rng.randint(0, 4, n) * 0.2 + 0.2
    h = rng.choice([0.2, 0.4, 0.5], n)
    w = rng.choice([0.2, 0.4, 0.5], n)
    return np.stack([y, x, h, w], axis=1).astype(F32)


def model(n, columns, opts, anchors, encoding=4, capacity=None, box_type=tfl.FLOAT32, quant=None, anchor_type=None,
          flex=None, anchors_input=False, code="DETECTION_POSTPROCESS", outputs=4):
    """A model of one TFLite_Detection_PostProcess: box encodings and class predictions are its inputs, the anchors
    a constant (or a third input: refused). quant: (box, scores, anchors) quantization dicts of int8 operands."""
    capacity = capacity if capacity is not None else opts["max_detections"]
    m = tfl.Model()
    q = quant or (None, None, None)
    anchor_type = anchor_type if anchor_type is not None else box_type
    boxes = m.tensor("box_encodings", [1, n, encoding], box_type, quant=q[0])
    scores = m.tensor("class_predictions", [1, n, columns], box_type, quant=q[1])
    a = m.tensor("anchors", [n, 4], anchor_type, data=None if anchors_input else anchors, quant=q[2])
    outs = [m.tensor("detection_boxes", [1, capacity, 4]), m.tensor("detection_classes", [1, capacity]),
            m.tensor("detection_scores", [1, capacity]), m.tensor("num_detections", [1])][:outputs]
    m.op(code, [boxes, scores, a], outs, custom_options=flex if flex is not None else flexbuffer_map(opts))
    m.inputs, m.outputs = [boxes, scores] + ([a] if anchors_input else []), outs
    return m


def float_case(rng, n, columns, opts, encoding=4, capacity=None, scores=None, boxes=None):
    anchors = anchors_grid(rng, n)
    boxes = boxes if boxes is not None else rng.uniform(-1.5, 1.5, (1, n, encoding)).astype(F32)
    scores = scores if scores is not None else rng.uniform(0, 1, (1, n, columns)).astype(F32)
    return model(n, columns, opts, anchors, encoding, capacity), [boxes, scores]


def tied_scores(rng, n, columns, levels):
    """Scores drawn from a few levels only: many exact ties (within an anchor and across anchors)."""
    return rng.choice(np.array(levels, dtype=F32), (1, n, columns)).astype(F32)


def quantize(x, scale, zero_point):
    return np.clip(np.round(x / scale) + zero_point, -128, 127).astype(np.int8)


def dequantize(q, scale, zero_point):
    """TFLite's Dequantizer: (float(q) - zero_point) * scale, in float32."""
    return ((q.astype(F32) - F32(zero_point)) * F32(scale)).astype(F32)


def int8_case(rng, n, columns, opts, quant_anchors=True):
    """An int8 model and its float32 twin (inputs and anchors dequantized) that the oracle runs."""
    qb, qs, qa = (0.05, 3), (1.0 / 255, -128), (0.004, -100)
    anchors = anchors_grid(rng, n)
    anchors_q = quantize(anchors, qa[0], qa[1])
    boxes_q = op_tests.int8_range(rng, (1, n, 4), qb[1])
    scores_q = rng.randint(-128, 128, (1, n, columns)).astype(np.int8)
    quant = ({"scale": [qb[0]], "zero_point": [qb[1]]}, {"scale": [qs[0]], "zero_point": [qs[1]]},
             {"scale": [qa[0]], "zero_point": [qa[1]]} if quant_anchors else None)
    int8_model = model(n, columns, opts, anchors_q if quant_anchors else anchors, box_type=tfl.INT8, quant=quant,
                       anchor_type=tfl.INT8 if quant_anchors else tfl.FLOAT32)
    twin = model(n, columns, opts, dequantize(anchors_q, *qa) if quant_anchors else anchors)
    return int8_model, [boxes_q, scores_q], twin, [dequantize(boxes_q, *qb), dequantize(scores_q, *qs)]


def float_cases():
    r = np.random.RandomState
    return {
        # fast non-max suppression, background column, suppression among overlapping anchors
        "fast_f32": lambda: float_case(r(1), 12, 4, options(5, 3, score=0.2)),
        # fewer detections than max_detections: a high threshold; the entries past the count are 0
        "fast_f32_fewer": lambda: float_case(r(2), 10, 3, options(6, 2, score=0.85)),
        # ties: scores from three levels, 40 anchors (TFLM's merge sort past its insertion sort of 20); encodings of 6
        "fast_f32_ties_merge_sort": lambda: float_case(r(3), 40, 4, options(10, 3, score=0.1, iou=0.4), encoding=6,
                                                       scores=tied_scores(r(30), 40, 4, [0.25, 0.5, 0.75])),
        # several classes per detection: TFLM's placement (entry c * k + col of the k-th pair, gaps at 0)
        "fast_f32_two_classes_per_detection": lambda: float_case(
            r(4), 8, 4, options(3, 3, score=0.3, classes_per_detection=2), capacity=12),
        # no background column (classes with background == num_classes)
        "fast_f32_no_background": lambda: float_case(r(5), 9, 3, options(4, 3, score=0.4)),
        # regular non-max suppression: per class, detections_per_class, the best across classes
        "regular_f32": lambda: float_case(r(6), 12, 4, options(6, 3, score=0.3, regular=True, per_class=3)),
        # regular, fewer than max_detections, ties across classes and anchors
        "regular_f32_ties_fewer": lambda: float_case(r(7), 10, 3, options(8, 2, score=0.5, regular=True, per_class=2),
                                                     scores=tied_scores(r(70), 10, 3, [0.1, 0.6, 0.9])),
        # regular over 30 anchors and 5 classes (the merge sort, the cross-class partial sort), default per class
        "regular_f32_many": lambda: float_case(r(8), 30, 6, options(7, 5, score=0.2, iou=0.3, regular=True)),
    }


def int8_cases():
    r = np.random.RandomState
    return {
        "fast_i8": lambda: int8_case(r(11), 16, 4, options(5, 3, score=0.3)),
        "fast_i8_float_anchors": lambda: int8_case(r(12), 12, 3, options(4, 2, score=0.2), quant_anchors=False),
        "regular_i8": lambda: int8_case(r(13), 16, 4, options(6, 3, score=0.4, regular=True, per_class=2)),
    }


def refused():
    rng = np.random.RandomState(20)
    a = anchors_grid(rng, 6)
    good = options(3, 2, score=0.2)
    missing = dict(good)
    del missing["nms_iou_threshold"]
    flex = flexbuffer_map(good)
    return {
        "unknown_custom_code": model(6, 3, good, a, code="OTHER_CUSTOM"),
        "missing_key": model(6, 3, good, a, flex=flexbuffer_map(missing)),
        "malformed_flexbuffer": model(6, 3, good, a, flex=flex[:-1] + bytes([3])),  # a root width of 3
        "truncated_flexbuffer": model(6, 3, good, a, flex=flex[len(flex) // 2:]),
        "iou_threshold_zero": model(6, 3, dict(good, nms_iou_threshold=0.0), a),
        # a double no float holds (8-byte words): refused, not rounded (undefined in C++, as in TFLM's AsFloat)
        "scale_beyond_float": model(6, 3, good, a, flex=flexbuffer_map(dict(good, y_scale=1e300), width=8)),
        "anchors_not_constant": model(6, 3, good, a, anchors_input=True),
        "output_too_small": model(6, 3, dict(good, max_classes_per_detection=2), a, capacity=3),
        "three_outputs": model(6, 3, good, a, outputs=3),
    }


def zero_unwritten_entries(folder: Path, classes_per_detection: int) -> None:
    """The fast form with c classes per detection writes pair p (of num_detections) at entry c * p + p % c; TFLM
    leaves the other entries as the arena held them (NaN and 0 in this case's run), ctnn writes 0 there: the
    reference gets ctnn's 0 at those entries, the written ones stay the oracle's."""
    c = classes_per_detection
    count = int(np.fromfile(folder / "output_3.bin", "<f4")[0])
    written = {c * p + p % c for p in range(count)}
    for k, per_entry in ((0, 4), (1, 1), (2, 1)):
        y = np.fromfile(folder / f"output_{k}.bin", "<f4").reshape(-1, per_entry).copy()
        for e in range(y.shape[0]):
            if e not in written:
                y[e] = 0.0
        (folder / f"output_{k}.bin").write_bytes(y.astype("<f4").tobytes())


class IntCases:
    """int8 cases: outputs from the oracle on each case's float32 twin, kept without --tflm after a digest check."""

    def __init__(self, family, tflm):
        self.family, self.tflm = family, tflm

    def write(self, name, build):
        int8_model, inputs, twin, twin_inputs = build()
        folder = self.family.dir / name
        committed = self.family.committed.get(name)
        outputs = None
        if self.tflm is not None:
            with tempfile.TemporaryDirectory() as tmp:
                path = Path(tmp) / "twin.tflite"
                path.write_bytes(twin.serialize())
                outputs, _ = tfl.run_tflm(self.tflm, path, twin_inputs, ["<f4"] * 4)
        else:
            outputs = [np.frombuffer((folder / f"output_{k}.bin").read_bytes(), "<f4") for k in range(4)]
        self.family.write_computed_case(name, "model.tflite", int8_model.serialize(), inputs, outputs)
        digest = self.family.digests[name]
        if self.tflm is None and committed != digest:
            sys.exit(f"{folder}: the model or inputs changed and no oracle was given: re-run with --tflm")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tflm", help="the TFLM host oracle (tflm_run)")
    args = parser.parse_args()
    family = op_tests.Family("detection", args.tflm)
    for name, build in float_cases().items():
        m, inputs = build()
        family.write_case(name, m, inputs)
        if "two_classes_per_detection" in name and args.tflm:
            zero_unwritten_entries(family.dir / name, 2)
    ints = IntCases(family, args.tflm)
    for name, build in int8_cases().items():
        ints.write(name, build)
    family.finish()
    op_tests.write_refused("detection", refused())
    print(hashlib.sha256((family.dir / "CASES.sha256").read_bytes()).hexdigest()[:12])


if __name__ == "__main__":
    main()
