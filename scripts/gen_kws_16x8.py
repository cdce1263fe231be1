#!/usr/bin/env python3
"""Writes benchmarks/cortex_m/models/kws_16x8/: the MLPerf Tiny KWS architecture (DS-CNN) quantized "16x8" (int16
activations with zero point 0, int8 per-channel weights, int64 biases), and its four reference cases from TFLM's
reference kernels (the host oracle tflm_run): model.tflite, input_<k>.bin, output_<k>.bin, as the Cortex-M
benchmark reads a model's reference cases (benchmarks/cortex_m/run.py --models kws16).

The layers are KWS's: CONV_2D 10x4 stride 2 (64 channels, RELU) on the [1, 49, 10, 1] features, four blocks of
DEPTHWISE_CONV_2D 3x3 + CONV_2D 1x1 (RELU), then the classifier. KWS pools with AVERAGE_POOL_2D 25x5, which ctnn
has no int16 kernel for yet: here a DEPTHWISE_CONV_2D 25x5 (a weighted global pool, the same 8,000 MACs) takes its
place; FULLY_CONNECTED 12 and SOFTMAX (int16, TFLM's tables) close it. Weights are random (fixed seed: re-running
reproduces every file byte for byte), He-scaled, per-channel weight scales (FULLY_CONNECTED: one); activation
scales from a float forward pass over the cases.

Usage: /usr/bin/python3 scripts/gen_kws_16x8.py --tflm /work/oracle/tflm/tflm_run
"""
import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import gen_tflite_test_models as tfl  # noqa: E402

OUT = HERE.parent / "benchmarks" / "cortex_m" / "models" / "kws_16x8"
CASES = 4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tflm", required=True, metavar="TFLM_RUN", help="the TFLM host oracle: records the outputs")
    args = parser.parse_args()
    rng = np.random.RandomState(2616)
    # Inputs: case 0 a ramp (as the MLPerf cases' first), the others random MFCC-like features in [-1, 1].
    cases = [np.linspace(-1.0, 1.0, 490).reshape(1, 49, 10, 1)]
    cases += [np.clip(rng.normal(0.0, 0.4, (1, 49, 10, 1)), -1.0, 1.0) for _ in range(CASES - 1)]

    # Layers: (kind, float weights, float bias, options); the weights in TFLite's layouts (OHWI, 1HWC, [out, in]).
    def he(shape, fan_in):
        return rng.normal(0.0, np.sqrt(2.0 / fan_in), shape)

    layers = [("CONV_2D", he((64, 10, 4, 1), 40), rng.normal(0, 0.05, 64), dict(stride=(2, 2), padding=tfl.SAME, act="RELU"))]
    for _ in range(4):
        layers.append(("DEPTHWISE_CONV_2D", he((1, 3, 3, 64), 9), rng.normal(0, 0.05, 64),
                       dict(stride=(1, 1), padding=tfl.SAME, act="RELU", multiplier=1)))
        layers.append(("CONV_2D", he((64, 1, 1, 64), 64), rng.normal(0, 0.05, 64), dict(stride=(1, 1), padding=tfl.SAME, act="RELU")))
    # (with a bias: TFLM's int16 depthwise kernel requires one)
    layers.append(("DEPTHWISE_CONV_2D", rng.uniform(0.5, 1.5, (1, 25, 5, 64)) / 125, rng.normal(0, 0.05, 64),
                   dict(stride=(1, 1), padding=tfl.VALID, multiplier=1)))
    layers.append(("FULLY_CONNECTED", he((12, 64), 64), rng.normal(0, 0.05, 12), {}))

    # Float forward pass: each activation's largest magnitude over the cases sets its int16 scale.
    def forward(x):
        values = [x]
        for kind, w, b, o in layers:
            if kind == "FULLY_CONNECTED":
                x = tfl.fully_connected(x, w, b, o.get("act"))
            else:
                x = tfl.conv2d(x, w, b, o["stride"], o["padding"], act=o.get("act"),
                               depthwise_multiplier=1 if kind == "DEPTHWISE_CONV_2D" else None)
            values.append(x)
        return values

    runs = [forward(x) for x in cases]
    scales = [max(float(np.abs(r[k]).max()) for r in runs) * 1.25 / 32767 for k in range(len(layers) + 1)]

    m = tfl.Model(new_opcodes=True)
    q = lambda s: dict(scale=[s], zero_point=[0])  # noqa: E731
    current = m.tensor("input", [1, 49, 10, 1], tfl.INT16, quant=q(scales[0]))
    m.inputs = [current]
    shape = [1, 49, 10, 1]
    for k, (kind, w, b, o) in enumerate(layers):
        axis = 3 if kind == "DEPTHWISE_CONV_2D" else 0
        channel_max = np.abs(w).max(axis=tuple(a for a in range(w.ndim) if a != axis))
        if kind == "FULLY_CONNECTED":  # one scale (TFLM's CMSIS-NN FULLY_CONNECTED takes per-channel int8 only)
            channel_max = np.array([channel_max.max()])
        w_scales = np.maximum(channel_max, 1e-9) / 127
        shaped = w_scales.reshape([-1 if a == axis else 1 for a in range(w.ndim)]) if len(w_scales) > 1 else w_scales[0]
        wq = np.clip(np.round(w / shaped), -127, 127).astype(np.int8)
        inputs = [current, m.tensor(f"w{k}", list(w.shape), tfl.INT8, data=wq,
                                    quant=dict(scale=list(w_scales), zero_point=[0] * len(w_scales), axis=axis))]
        if b is not None:
            b_scales = scales[k] * w_scales
            inputs.append(m.tensor(f"b{k}", [len(b)], tfl.INT64, data=np.round(b / b_scales).astype(np.int64),
                                   quant=dict(scale=list(b_scales), zero_point=[0] * len(b_scales))))
        shape = list(runs[0][k + 1].shape)
        current = m.tensor(f"t{k}", shape, tfl.INT16, quant=q(scales[k + 1]))
        m.op(kind, inputs, [current], **o)
    probabilities = m.tensor("probabilities", shape, tfl.INT16, quant=q(1.0 / 32768))
    m.op("SOFTMAX", [current], [probabilities], beta=1.0)
    m.outputs = [probabilities]

    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "model.tflite").write_bytes(m.serialize())
    with tempfile.TemporaryDirectory() as work:
        for k, x in enumerate(cases):
            xq = np.clip(np.round(x / scales[0]), -32768, 32767).astype("<i2")
            (OUT / f"input_{k}.bin").write_bytes(xq.tobytes())
            prefix = Path(work) / f"case{k}_"
            subprocess.run([args.tflm, str(OUT / "model.tflite"), str(prefix), str(OUT / f"input_{k}.bin")], check=True,
                           stdout=subprocess.DEVNULL)
            (OUT / f"output_{k}.bin").write_bytes((Path(work) / f"case{k}_0.bin").read_bytes())
    print(f"{OUT.relative_to(HERE.parent)}: model ({(OUT / 'model.tflite').stat().st_size} bytes) and {CASES} cases")


if __name__ == "__main__":
    main()
