#!/usr/bin/env -S /usr/bin/python3
"""Train the small CNN of ctnn's digits example on scikit-learn's 8x8 digits and export it.

Run from anywhere:  /usr/bin/python3 scripts/train_digits.py

Writes
  examples/digits/digits_weights.hpp  -- the trained weights in ctnn's layouts (namespace digits)
  examples/digits/digits_heldout.hpp  -- the held-out images/labels and PyTorch's own predictions
  examples/digits/digits.onnx         -- the same network as an ONNX model, which the demo imports with
                                         ctnn_add_model (written from digits_weights.hpp by
                                         examples/digits/export_digits_onnx.py, which can run alone)

Architecture (activations NHWC on the C++ side):
  input [1,8,8,1] (pixel / 16)
  conv1 3x3 same, 8 filters, ReLU    -> [1,8,8,8]
  max pool 2x2 stride 2              -> [1,4,4,8]
  conv2 3x3 same, 16 filters, ReLU   -> [1,4,4,16]
  max pool 2x2 stride 2              -> [1,2,2,16]
  flatten (NHWC order)               -> [1,64]
  dense 64 -> 10, softmax            -> [1,10]

Deterministic: fixed seeds, one thread, minibatches drawn from a seeded generator.
"""

import os
import subprocess
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(REPO_ROOT, "examples", "digits")
SCRIPT_REL = "scripts/train_digits.py"

SEED = 1234
EPOCHS = 40
BATCH = 32
LR = 3e-3


# --------------------------------------------------------------------------------------------
# C++ formatting helpers
# --------------------------------------------------------------------------------------------

def fmt_float(v):
    """'%.9g' round-trips every float32; always emit a floating literal with an 'f' suffix."""
    f = np.float32(v)
    if not np.isfinite(f):
        raise ValueError("non-finite value %r cannot be written" % (v,))
    s = "%.9g" % float(f)
    if "." not in s and "e" not in s:
        s += "."
    assert np.float32(s) == f, (s, f)  # exact round trip
    return s + "f"


def fmt_array(ctype, name, values, fmt, per_line, size_expr=""):
    vals = list(values)
    lines = []
    for i in range(0, len(vals), per_line):
        lines.append("    " + ", ".join(fmt(v) for v in vals[i:i + per_line]) + ",")
    return "inline constexpr %s %s[%s] = {\n%s\n};\n" % (ctype, name, size_expr, "\n".join(lines))


def float_array(name, values, per_line=8, size_expr=""):
    return fmt_array("float", name, np.asarray(values, dtype=np.float32).reshape(-1), fmt_float,
                     per_line, size_expr)


def comment_block(lines):
    return "".join(("//" + (" " + l if l else "")).rstrip() + "\n" for l in lines)


def write(path, text):
    with open(path, "w", newline="\n") as fh:
        fh.write(text)
    print("wrote %s (%d bytes)" % (os.path.relpath(path, REPO_ROOT), len(text)))


# --------------------------------------------------------------------------------------------

class DigitsNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)   # 3x3 stride 1: TF same = pad 1 each side
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc = nn.Linear(64, 10)

    def logits(self, x):  # x: NCHW [N,1,8,8]
        x = F.max_pool2d(F.relu(self.conv1(x)), 2, 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2, 2)
        return self.fc(torch.flatten(x, 1))  # torch flattens C,H,W

    def forward(self, x):
        return F.softmax(self.logits(x), dim=1)


ARCHITECTURE = [
    "input (pixel / 16)                   [1,8,8,1]",
    "conv1 3x3 same, 8 filters, ReLU      [1,8,8,8]     conv1_w OHWI [8][3][3][1], conv1_b [8]",
    "max pool 2x2, stride 2               [1,4,4,8]",
    "conv2 3x3 same, 16 filters, ReLU     [1,4,4,16]    conv2_w OHWI [16][3][3][8], conv2_b [16]",
    "max pool 2x2, stride 2               [1,2,2,16]",
    "flatten (NHWC order: h, w, c)        [1,64]",
    "dense 64 -> 10                       [1,10]        fc_w [10][64] (inputs in h,w,c order), fc_b [10]",
    "softmax                              [1,10]  (output: class probabilities)",
]


def export_weights(model):
    conv = lambda w: w.detach().permute(0, 2, 3, 1).contiguous()  # [O,I,kh,kw] -> OHWI
    fc_w = model.fc.weight.detach().reshape(10, 16, 2, 2).permute(0, 2, 3, 1).reshape(10, 64)
    return {
        "conv1_w": conv(model.conv1.weight), "conv1_b": model.conv1.bias.detach(),
        "conv2_w": conv(model.conv2.weight), "conv2_b": model.conv2.bias.detach(),
        "fc_w": fc_w.contiguous(), "fc_b": model.fc.bias.detach(),
    }


def nhwc_reference(images_nhwc, w):
    """Independent NumPy forward pass from the exported arrays (checks the layouts)."""
    def conv_same(x, wt, b):
        n, h, wd, _ = x.shape
        xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
        y = np.zeros((n, h, wd, wt.shape[0]))
        for i in range(3):
            for j in range(3):
                y += xp[:, i:i + h, j:j + wd, :] @ wt[:, i, j, :].T
        return y + b

    def pool(x):
        n, h, wd, c = x.shape
        return x.reshape(n, h // 2, 2, wd // 2, 2, c).max(axis=(2, 4))

    w = {k: v.numpy().astype(np.float64) for k, v in w.items()}
    x = pool(np.maximum(conv_same(images_nhwc.astype(np.float64), w["conv1_w"], w["conv1_b"]), 0))
    x = pool(np.maximum(conv_same(x, w["conv2_w"], w["conv2_b"]), 0))
    return x.reshape(x.shape[0], -1) @ w["fc_w"].T + w["fc_b"]


def main():
    t0 = time.time()
    torch.set_num_threads(1)
    torch.manual_seed(SEED)
    np.random.seed(SEED)
    torch.use_deterministic_algorithms(True)

    digits = load_digits()
    X = (digits.data / 16.0).astype(np.float32)  # [N,64], row-major 8x8 = NHWC with C=1
    y = digits.target.astype(np.int64)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)

    xt = torch.from_numpy(X_tr).reshape(-1, 1, 8, 8)
    yt = torch.from_numpy(y_tr)
    xe = torch.from_numpy(X_te).reshape(-1, 1, 8, 8)
    ye = torch.from_numpy(y_te)

    model = DigitsNet()
    opt = torch.optim.Adam(model.parameters(), lr=LR)
    gen = torch.Generator().manual_seed(SEED + 1)
    for epoch in range(EPOCHS):
        model.train()
        perm = torch.randperm(len(xt), generator=gen)
        total = 0.0
        for i in range(0, len(xt), BATCH):
            idx = perm[i:i + BATCH]
            loss = F.cross_entropy(model.logits(xt[idx]), yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss) * len(idx)
        if (epoch + 1) % 10 == 0:
            model.eval()
            with torch.no_grad():
                acc = float((model.logits(xe).argmax(1) == ye).float().mean())
            print("epoch %2d  train loss %.4f  held-out accuracy %.2f %%"
                  % (epoch + 1, total / len(xt), 100 * acc))

    model.eval()
    weights = export_weights(model)
    with torch.no_grad():
        logits = model.logits(xe)
        probs = model(xe)
    preds = logits.argmax(1)
    assert torch.equal(preds, probs.argmax(1))
    correct = int((preds == ye).sum())
    top2 = torch.topk(logits, 2, dim=1).values
    margin = (top2[:, 0] - top2[:, 1]).numpy()

    # The exported (C++-layout) weights must compute the same function.
    ref = nhwc_reference(X_te.reshape(-1, 8, 8, 1), weights)
    ref_diff = float(np.abs(ref - logits.numpy().astype(np.float64)).max())
    assert ref_diff < 1e-4, ref_diff
    ref_disagree = int((ref.argmax(1) != preds.numpy()).sum())

    n = len(y_te)
    acc = correct / n
    print("held-out: %d images, torch_correct %d, accuracy %.2f %%" % (n, correct, 100 * acc))
    print("NumPy NHWC re-implementation from exported weights: max |logit diff| %.3g, "
          "%d argmax disagreements; smallest top-2 logit margin %.4g"
          % (ref_diff, ref_disagree, float(margin.min())))

    gen_note = [
        "GENERATED FILE -- DO NOT EDIT BY HAND.",
        "Generated by %s (PyTorch %s, seed %d, %d epochs, Adam lr %g, batch %d); re-run:"
        % (SCRIPT_REL, torch.__version__, SEED, EPOCHS, LR, BATCH),
        "    /usr/bin/python3 %s" % SCRIPT_REL,
        "",
        "Small CNN trained on scikit-learn's 8x8 digits (load_digits), train/held-out split",
        "train_test_split(test_size=0.3, random_state=0, stratify=y); input = pixel / 16.",
        "PyTorch (float32, eval mode) held-out accuracy: %d / %d = %.2f %%." % (correct, n, 100 * acc),
    ]
    arch = [""] + ["  " + l for l in ARCHITECTURE] + [
        "",
        "Layouts: activations NHWC, conv weights OHWI, dense weights [out][in] with the",
        "dense inputs in NHWC flatten order (h, w, c), biases one per output channel.",
    ]

    # ---- digits_weights.hpp
    out = ["#pragma once", "", comment_block(gen_note + arch), "#include <cstddef>", "",
           "namespace digits {", "",
           "inline constexpr std::size_t input_elements = 64;   // [1,8,8,1]",
           "inline constexpr std::size_t output_elements = 10;  // [1,10]", ""]
    for name, t in weights.items():
        out.append("// %s: shape [%s]" % (name, ",".join(str(d) for d in t.shape)))
        out.append(float_array(name, t.numpy()))
    out.append("}  // namespace digits")
    os.makedirs(OUT_DIR, exist_ok=True)
    write(os.path.join(OUT_DIR, "digits_weights.hpp"), "\n".join(out) + "\n")

    # ---- digits_heldout.hpp
    out = ["#pragma once", "", comment_block(gen_note + [
        "",
        "heldout_images:    heldout_count images of image_elements floats, NHWC [1,8,8,1]",
        "                   (row-major 8x8), values k / 16.",
        "heldout_labels:    true class of each image.",
        "torch_predictions: argmax of the PyTorch float32 model (eval mode, exactly the",
        "                   weights in digits_weights.hpp) on each image.",
        "torch_correct:     number of torch_predictions equal to heldout_labels.",
        "torch_top2_margin: per image, largest minus second-largest logit (pre-softmax) of",
        "                   the PyTorch model; a small margin marks a near-tie, where a",
        "                   different float summation order may legitimately flip the argmax.",
    ]), "#include <cstddef>", "", "namespace digits {", "",
        "inline constexpr std::size_t heldout_count = %d;" % n,
        "inline constexpr std::size_t image_elements = 64;",
        "inline constexpr std::size_t class_count = 10;",
        "inline constexpr int torch_correct = %d;  // %.2f %% accuracy" % (correct, 100 * acc),
        ""]
    out.append("// [heldout_count * image_elements]")
    out.append(float_array("heldout_images", X_te, per_line=8, size_expr="heldout_count * 64"))
    out.append(fmt_array("unsigned char", "heldout_labels", y_te.tolist(), str, 20, "heldout_count"))
    out.append(fmt_array("unsigned char", "torch_predictions", preds.tolist(), str, 20, "heldout_count"))
    out.append(float_array("torch_top2_margin", margin, size_expr="heldout_count"))
    out.append("}  // namespace digits")
    write(os.path.join(OUT_DIR, "digits_heldout.hpp"), "\n".join(out) + "\n")

    # ---- digits.onnx, from the weights just written (python3-onnx; the build itself needs no Python)
    subprocess.run([sys.executable, os.path.join(OUT_DIR, "export_digits_onnx.py")], check=True)

    print("accuracy: %.2f %% (%d / %d), %.1f s" % (100 * acc, correct, n, time.time() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
