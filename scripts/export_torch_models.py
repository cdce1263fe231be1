#!/usr/bin/python3
"""Exports the real PyTorch models of tests/data/onnx_exports/ (issue #28): torch.onnx.export of small CNNs and a
transformer block, as a PyTorch user writes them, so that the ONNX importer meets what torch actually emits.

Run with Debian's python3 (torch 1.13.1, torchvision 0.14.1, onnx 1.12):

    /usr/bin/python3 scripts/export_torch_models.py tests/data/onnx_exports /tmp/ort-exports/calibration \
        [--ort /tmp/ort-exports/node_modules]

The recurrent models (issue #27: LSTM, GRU and RNN as PyTorch users write them, RECURRENT_MODELS below) have
several inputs or outputs, some symbolic extents (dynamic_axes) and no QDQ form (so have index_updates, PyTorch's
index updates: ScatterND, ScatterElements, and constant_index_gathers, F.unfold and x[:, idx]: Gathers of many
constant indices); with --ort (the folder holding
onnxruntime-node 1.30.0) their reference outputs are written too, by scripts/ort_run.js.

Every model: fixed seeds, 10 classes, seeded conv and linear biases, eval mode after BatchNorm running statistics
were accumulated in train mode on seeded random batches (so the folded Conv+BatchNorm weights are not the
identity), small inputs. Writes
<name>.onnx and <name>/input_<k>.bin (raw little-endian float32, k = 0, 1) to the first folder, and
<name>/calibration_<k>.bin (k = 0..7, the inputs the QDQ quantizer calibrates on; not committed) to the second. The float outputs and the QDQ models come from
onnxruntime (see tests/data/onnx_exports/README.md); this script does not produce references.

Models whose torchvision width would not fit the test-data budget (6 MB for all) keep torchvision's topology and
building blocks at a reduced width, written here: SqueezeNet 1.1 at half width (torchvision's Fire modules) and
ResNet-18 (torchvision's BasicBlock, [2, 2, 2, 2]) at widths 8/16/32/64 instead of 64/128/256/512.
"""
import argparse
import os
import sys
import types
from pathlib import Path

import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
import torchvision
from torchvision.models import mobilenetv3, resnet, squeezenet

from gen_op_tests_qdq import run_ort

NUM_CLASSES = 10
CALIBRATION_BATCHES = 8
REFERENCE_INPUTS = 2


def squeezenet_1_1_half_width():
    """torchvision's SqueezeNet 1.1 layer for layer, squeeze and expand channels halved."""
    model = squeezenet.SqueezeNet(version="1_1", num_classes=NUM_CLASSES)
    model.features = nn.Sequential(
        nn.Conv2d(3, 32, kernel_size=3, stride=2),
        nn.ReLU(inplace=True),
        nn.MaxPool2d(kernel_size=3, stride=2, ceil_mode=True),
        squeezenet.Fire(32, 8, 32, 32),
        squeezenet.Fire(64, 8, 32, 32),
        nn.MaxPool2d(kernel_size=3, stride=2, ceil_mode=True),
        squeezenet.Fire(64, 16, 64, 64),
        squeezenet.Fire(128, 16, 64, 64),
        nn.MaxPool2d(kernel_size=3, stride=2, ceil_mode=True),
        squeezenet.Fire(128, 24, 96, 96),
        squeezenet.Fire(192, 24, 96, 96),
        squeezenet.Fire(192, 32, 128, 128),
        squeezenet.Fire(256, 32, 128, 128),
    )
    model.classifier[1] = nn.Conv2d(256, NUM_CLASSES, kernel_size=1)
    return model


class ReducedWidthResNet18(resnet.ResNet):
    """ResNet-18's topology (torchvision's ResNet forward and BasicBlock, layers [2, 2, 2, 2]) at widths 8..64."""

    def __init__(self, widths=(8, 16, 32, 64)):
        super().__init__(resnet.BasicBlock, [2, 2, 2, 2], num_classes=NUM_CLASSES)
        self.inplanes = widths[0]
        self.conv1 = nn.Conv2d(3, widths[0], kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(widths[0])
        self.layer1 = self._make_layer(resnet.BasicBlock, widths[0], 2)
        self.layer2 = self._make_layer(resnet.BasicBlock, widths[1], 2, stride=2)
        self.layer3 = self._make_layer(resnet.BasicBlock, widths[2], 2, stride=2)
        self.layer4 = self._make_layer(resnet.BasicBlock, widths[3], 2, stride=2)
        self.fc = nn.Linear(widths[3], NUM_CLASSES)


def conv_bn_relu(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class TinyUNet(nn.Module):
    """Two-level encoder/decoder: skip connections by Concat, one up-sampling by ConvTranspose (followed by a
    BatchNorm torch does not fold), one by bilinear Upsample (ONNX Resize); per-pixel class scores."""

    def __init__(self):
        super().__init__()
        self.enc1 = conv_bn_relu(3, 8)
        self.enc2 = conv_bn_relu(8, 16)
        self.bottleneck = conv_bn_relu(16, 32)
        self.pool = nn.MaxPool2d(2)
        self.up2 = nn.Sequential(nn.ConvTranspose2d(32, 16, kernel_size=2, stride=2), nn.BatchNorm2d(16), nn.ReLU())
        self.dec2 = conv_bn_relu(32, 16)
        self.up1 = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
        self.dec1 = conv_bn_relu(24, 8)
        self.head = nn.Conv2d(8, NUM_CLASSES, kernel_size=1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(self.pool(e1))
        b = self.bottleneck(self.pool(e2))
        d2 = self.dec2(torch.cat([self.up2(b), e2], dim=1))
        d1 = self.dec1(torch.cat([self.up1(d2), e1], dim=1))
        return self.head(d1)


class TinyTransformerBlock(nn.Module):
    """A pre-norm encoder block as PyTorch users write it (nn.LayerNorm, nn.MultiheadAttention, nn.GELU), then
    mean pooling over the sequence and a linear classifier."""

    def __init__(self, d_model=32, heads=4, hidden=64):
        super().__init__()
        self.norm1 = nn.LayerNorm(d_model)
        self.attention = nn.MultiheadAttention(d_model, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, hidden), nn.GELU(), nn.Linear(hidden, d_model))
        self.classifier = nn.Linear(d_model, NUM_CLASSES)

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.attention(h, h, h, need_weights=False)[0]
        x = x + self.mlp(self.norm2(x))
        return self.classifier(x.mean(dim=1))


class SharedZeroBias(nn.Module):
    """Two 1x1 convs with torchvision's zero bias initialisation kept: torch.onnx.export writes the second bias as
    an Identity of the first (equal parameters), which onnxruntime's quantizer quantizes once, with the first
    conv's scale."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, kernel_size=1)
        self.conv2 = nn.Conv2d(4, 4, kernel_size=1)  # a bias of the same shape as conv1's
        for conv in (self.conv1, self.conv2):
            nn.init.zeros_(conv.bias)

    def forward(self, x):
        return self.conv2(torch.relu(self.conv1(x)))


def mobilenet_v3_small():
    setting, last_channel = mobilenetv3._mobilenet_v3_conf("mobilenet_v3_small", width_mult=0.35, reduced_tail=True)
    return mobilenetv3.MobileNetV3(setting, last_channel, num_classes=NUM_CLASSES)


# name: (constructor, input shape, opset)
MODELS = {
    "mobilenet_v2": (lambda: torchvision.models.MobileNetV2(num_classes=NUM_CLASSES, width_mult=0.35), (1, 3, 32, 32), 13),
    "mobilenet_v3_small": (mobilenet_v3_small, (1, 3, 32, 32), 17),
    "squeezenet1_1": (squeezenet_1_1_half_width, (1, 3, 32, 32), 13),
    "resnet18_narrow": (ReducedWidthResNet18, (1, 3, 32, 32), 13),
    "unet": (TinyUNet, (1, 3, 32, 32), 13),
    "transformer_block": (TinyTransformerBlock, (1, 8, 32), 13),
    "transformer_block_opset17": (TinyTransformerBlock, (1, 8, 32), 17),
    "shared_zero_bias": (SharedZeroBias, (1, 3, 4, 4), 13),
}
KEEPS_ZERO_BIASES = {"shared_zero_bias"}


class KeywordSpottingLSTM(nn.Module):
    """A keyword-spotting classifier: MFCC frames [batch, time, 10] through a 2-layer LSTM (batch_first, dropout
    between the layers, which eval mode drops), the last step's hidden state -> Linear -> softmax over 12
    keywords."""

    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(10, 32, num_layers=2, batch_first=True, dropout=0.2)
        self.classifier = nn.Linear(32, 12)

    def forward(self, x):
        y, _ = self.lstm(x)
        return torch.softmax(self.classifier(y[:, -1]), dim=-1)


class GruTagger(nn.Module):
    """A sequence tagger: a bidirectional 2-layer GRU over token features [batch, time, 16], a Linear per step."""

    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(16, 16, num_layers=2, batch_first=True, bidirectional=True)
        self.tags = nn.Linear(32, 5)

    def forward(self, x):
        return self.tags(self.gru(x)[0])


class ReluRnn(nn.Module):
    """nn.RNN with nonlinearity='relu', sequence-major [time, batch, 8]: per-step scores and the final state."""

    def __init__(self):
        super().__init__()
        self.rnn = nn.RNN(8, 20, nonlinearity="relu")
        self.head = nn.Linear(20, 3)

    def forward(self, x):
        y, h = self.rnn(x)
        return self.head(y), h


class StreamingLSTM(nn.Module):
    """A streaming 2-layer LSTM: the caller carries h and c from chunk to chunk (graph inputs h0, c0; outputs
    h, c), per-step Linear outputs."""

    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(12, 24, num_layers=2, batch_first=True)
        self.head = nn.Linear(24, 4)

    def forward(self, x, h0, c0):
        y, (h, c) = self.lstm(x, (h0, c0))
        return self.head(y), h, c


class Crnn(nn.Module):
    """A CRNN (text-line / spectrogram recogniser): Conv2d-BatchNorm-ReLU-MaxPool blocks over [batch, 1, 16,
    width], the columns as a sequence through a bidirectional GRU, per-column log-probabilities of 11 classes."""

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d((2, 1)),
                                      nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d((2, 1)))
        self.gru = nn.GRU(16 * 4, 24, batch_first=True, bidirectional=True)
        self.classifier = nn.Linear(48, 11)

    def forward(self, x):
        f = self.features(x)
        n, c, h, w = f.shape
        y, _ = self.gru(f.permute(0, 3, 1, 2).reshape(n, w, c * h))
        return self.classifier(y).log_softmax(-1)


class PackedLSTM(nn.Module):
    """Variable-length sequences: pack_padded_sequence through a bidirectional LSTM, padded back to the input's
    length; torch exports the lengths as LSTM's sequence_lens. Lengths sorted (enforce_sorted, the default), or
    in any order: torch then sorts the batch (TopK, Gather) and exports the inverse permutation that restores its
    order as a ScatterElements of an arange into a constant INT64 tensor."""

    def __init__(self, enforce_sorted=True):
        super().__init__()
        self.lstm = nn.LSTM(10, 16, batch_first=True, bidirectional=True)
        self.enforce_sorted = enforce_sorted

    def forward(self, x, lengths):
        packed = nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=self.enforce_sorted)
        y, (h, _) = self.lstm(packed)
        y, _ = nn.utils.rnn.pad_packed_sequence(y, batch_first=True, total_length=x.shape[1])
        return y, h


class UnrolledCells(nn.Module):
    """A decoder loop as users write it: nn.LSTMCell then nn.GRUCell per step from zero states, a Linear per
    step, stacked; tracing unrolls the loop into Gemm, Split, Sigmoid and Tanh nodes (no LSTM/GRU node), and the
    first step's Gemm reads the zero state, a constant."""

    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTMCell(6, 16)
        self.gru = nn.GRUCell(16, 12)
        self.head = nn.Linear(12, 2)

    def forward(self, x):
        h, c, g = torch.zeros(x.shape[1], 16), torch.zeros(x.shape[1], 16), torch.zeros(x.shape[1], 12)
        steps = []
        for t in range(x.shape[0]):
            h, c = self.lstm(x[t], (h, c))
            g = self.gru(h, g)
            steps.append(self.head(g))
        return torch.stack(steps)


class IndexUpdates(nn.Module):
    """Index updates as users write them: x[:, [0, 3]] = v[:, :2] (index_put_: a ScatterND whose constant index
    rows torch expands with Expand), scatter_ and scatter_add along dim 1 by computed indices (ScatterElements,
    reduction none and add, repeated indices)."""

    def forward(self, x, v, idx):
        y = x.clone()
        y[:, torch.tensor([0, 3])] = v[:, :2]
        return y, torch.zeros_like(x).scatter_(1, idx, v), torch.zeros_like(x).scatter_add(1, idx, v)


class ConstantIndexGathers(nn.Module):
    """Gathers by more constant indices than ctnn slices apart (8): F.unfold (Gathers of rows and columns by
    [kernel, positions] grids of integers computed from Range, known at import) and y[:, idx] with a 12-index
    list (an INT64 initializer, a repeated and a negative index among them)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 12, 1)

    def forward(self, x):
        y = self.conv(x)
        return F.unfold(y, 3, padding=1), y[:, [11, 0, 3, 3, 5, 7, 9, 1, 2, 4, 6, -1]]


# name: (constructor, opset, inputs {name: export shape, or the lengths of an int64 input per case}, outputs,
# dynamic_axes, each reference case's input shapes where they differ from the export's (ctnn-run's bindings are
# in tests/frontend/onnx/CMakeLists.txt)).
RECURRENT_MODELS = {
    "kws_lstm": (KeywordSpottingLSTM, 13, {"input": (1, 20, 10)}, ["output"],
                 {"input": {0: "batch", 1: "time"}}, {"input": (1, 16, 10)}),
    "gru_tagger": (GruTagger, 17, {"input": (1, 12, 16)}, ["output"], None, {}),
    "relu_rnn": (ReluRnn, 13, {"input": (9, 1, 8)}, ["output", "h"], {"input": {0: "time", 1: "batch"}},
                 {"input": (7, 3, 8)}),
    "lstm_streaming": (StreamingLSTM, 17, {"input": (1, 5, 12), "h0": (2, 1, 24), "c0": (2, 1, 24)}, ["output", "h", "c"],
                       None, {}),
    "crnn": (Crnn, 13, {"input": (1, 1, 16, 24)}, ["output"], {"input": {0: "batch", 3: "width"}},
             {"input": (2, 1, 16, 32)}),
    "lstm_gru_cells": (UnrolledCells, 17, {"input": (5, 2, 6)}, ["output"], None, {}),
    "packed_lstm": (PackedLSTM, 13, {"input": (3, 6, 10), "lengths": [[6, 4, 2], [5, 5, 1]]}, ["output", "h"], None, {}),
    "packed_lstm_unsorted": (lambda: PackedLSTM(enforce_sorted=False), 13,
                             {"input": (4, 6, 10), "lengths": [[5, 6, 2, 4], [3, 1, 6, 6]]}, ["output", "h"], None, {}),
    "index_updates": (IndexUpdates, 16, {"x": (3, 5), "v": (3, 4),
                                         "idx": [[[0, 4, 4, 1], [2, 2, 2, 0], [1, 3, 0, 4]], [[3, 3, 3, 3], [0, 1, 2, 3], [4, 0, 4, 0]]]},
                      ["y", "z", "w"], None, {}),
    "constant_index_gathers": (ConstantIndexGathers, 13, {"input": (1, 3, 8, 8)}, ["patches", "picked"], None, {}),
}


def export_recurrent(name, out_dir, node_modules):
    """<name>.onnx; <name>/input_<k>_<j>.bin (k: the case, j: the graph input; raw little-endian float32, int64
    for lengths) and, with onnxruntime, <name>/output_<k>_<j>.bin (j: the graph output)."""
    build, opset, inputs, outputs, dynamic_axes, case_shapes = RECURRENT_MODELS[name]
    torch.manual_seed(28)
    generator = torch.Generator().manual_seed(28)
    model = build()
    if any(isinstance(m, nn.BatchNorm2d) for m in model.modules()):
        settle_batch_norms(model, inputs["input"], generator, seed_biases=False)
    model.eval()
    example = tuple(torch.tensor(shape[0]) if isinstance(shape, list) else torch.randn(shape, generator=generator)
                    for shape in inputs.values())
    path = os.path.join(out_dir, name + ".onnx")
    torch.onnx.export(model, example, path, opset_version=opset, input_names=list(inputs), output_names=outputs,
                      dynamic_axes=dynamic_axes, do_constant_folding=True)
    case_dir = Path(out_dir) / name
    case_dir.mkdir(exist_ok=True)
    rng = np.random.default_rng(28)
    for k in range(REFERENCE_INPUTS):
        feeds = []
        for input_name, shape in inputs.items():
            if isinstance(shape, list):
                feeds.append(np.asarray(shape[k], "<i8"))
            else:
                feeds.append(rng.standard_normal(case_shapes.get(input_name, shape)).astype("<f4"))
        for j, x in enumerate(feeds):
            x.tofile(case_dir / f"input_{k}_{j}.bin")
        if node_modules is None:
            continue
        with torch.no_grad():
            shapes = model(*(torch.from_numpy(x) for x in feeds))  # the outputs' shapes and types
        shapes = shapes if isinstance(shapes, tuple) else (shapes,)
        graph_inputs = [types.SimpleNamespace(name=n) for n in inputs]
        results = run_ort(node_modules, Path(path).read_bytes(), feeds, graph_inputs,
                          [(n, np.zeros(y.shape, np.float32)) for n, y in zip(outputs, shapes)])
        for j, y in enumerate(results):
            y.astype("<f4").tofile(case_dir / f"output_{k}_{j}.bin")
    params = sum(p.numel() for p in model.parameters())
    print(f"{name}: opset {opset}, {params} parameters, {os.path.getsize(path)} bytes")


def settle_batch_norms(model, shape, generator, seed_biases):
    """Gives the conv and linear biases (zero at torchvision's init) seeded values, as a trained model has, and
    accumulates BatchNorm running statistics (cumulative average) over seeded random batches."""
    for module in model.modules():
        if seed_biases and isinstance(module, (nn.Conv2d, nn.ConvTranspose2d, nn.Linear)) and module.bias is not None:
            with torch.no_grad():
                module.bias.uniform_(-0.1, 0.1, generator=generator)
        if isinstance(module, nn.BatchNorm2d):
            module.momentum = None
            module.reset_running_stats()
            with torch.no_grad():
                module.weight.uniform_(0.5, 1.5, generator=generator)
                module.bias.uniform_(-0.2, 0.2, generator=generator)
    model.train()
    with torch.no_grad():
        for _ in range(4):
            model(torch.randn((8,) + shape[1:], generator=generator))
    model.eval()


def export(name, out_dir, calibration_dir):
    build, shape, opset = MODELS[name]
    torch.manual_seed(28)
    generator = torch.Generator().manual_seed(28)
    model = build()
    settle_batch_norms(model, shape, generator, name not in KEEPS_ZERO_BIASES)
    example = torch.randn(shape, generator=generator)
    path = os.path.join(out_dir, name + ".onnx")
    torch.onnx.export(model, (example,), path, opset_version=opset, input_names=["input"], output_names=["output"],
                      do_constant_folding=True)
    case_dir = os.path.join(out_dir, name)
    os.makedirs(case_dir, exist_ok=True)
    inputs = np.random.default_rng(28).standard_normal((REFERENCE_INPUTS + CALIBRATION_BATCHES,) + shape[1:])
    for k in range(REFERENCE_INPUTS):
        inputs[k:k + 1].astype("<f4").tofile(os.path.join(case_dir, f"input_{k}.bin"))
    os.makedirs(os.path.join(calibration_dir, name), exist_ok=True)
    for k in range(CALIBRATION_BATCHES):
        inputs[REFERENCE_INPUTS + k:REFERENCE_INPUTS + k + 1].astype("<f4").tofile(
            os.path.join(calibration_dir, name, f"calibration_{k}.bin"))
    params = sum(p.numel() for p in model.parameters())
    print(f"{name}: opset {opset}, {params} parameters, {os.path.getsize(path)} bytes")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out_dir", help="the test-data folder (tests/data/onnx_exports)")
    parser.add_argument("calibration_dir", help="the QDQ quantizer's calibration inputs (not committed)")
    parser.add_argument("--ort", type=Path, help="node_modules folder holding onnxruntime-node 1.30.0: write the "
                                                 "recurrent models' reference outputs")
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    for name in MODELS:
        export(name, args.out_dir, args.calibration_dir)
    for name in RECURRENT_MODELS:
        export_recurrent(name, args.out_dir, args.ort)


if __name__ == "__main__":
    main()
