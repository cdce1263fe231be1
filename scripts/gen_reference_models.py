#!/usr/bin/env -S /usr/bin/python3
"""Generate independent PyTorch reference data for ctnn's end-to-end tests.

Run from anywhere:  /usr/bin/python3 scripts/gen_reference_models.py

For every model below this script
  * builds the network in PyTorch with a fixed seed (random weights, random non-zero biases),
  * draws 3 random inputs, uniform in [-1, 1],
  * runs the network in float32 and in float64 (the same weights cast to double),
  * re-computes the float64 result a second time with a small NumPy NHWC implementation that
    only uses the exported (C++-layout) arrays -- this checks the layout conversions below,
  * writes tests/e2e/data/<name>.hpp with the weights in ctnn's layouts, the inputs (NHWC)
    and the expected outputs (the float64 run rounded to float).

Layout conventions of the C++ side (torch is NCHW):
  activations NHWC; conv2d weights OHWI (grouped: OHW(I/groups)); depthwise weights 1HWC
  (channel oc = ic * multiplier + m); dense weights [out][in], where a dense layer that follows
  a flatten of an NHWC tensor sees its inputs in H, W, C order; "same" padding follows
  TensorFlow (extra padding at the bottom/right); average pooling divides by the number of
  in-bounds elements.

The script is deterministic (fixed seeds, one thread) and overwrites the headers.
"""

import math
import os
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(REPO_ROOT, "tests", "e2e", "data")
SCRIPT_REL = "scripts/gen_reference_models.py"
CASE_COUNT = 3


# --------------------------------------------------------------------------------------------
# C++ formatting helpers
# --------------------------------------------------------------------------------------------

def fmt_float(v):
    """Shortest-safe decimal for a float32 value ('%.9g' round-trips every float32), with 'f'."""
    f = np.float32(v)
    if not np.isfinite(f):
        raise ValueError("non-finite value %r cannot be written" % (v,))
    s = "%.9g" % float(f)
    if "." not in s and "e" not in s and "n" not in s:
        s += "."
    assert np.float32(s) == f, (s, f)  # exact round trip
    return s + "f"


def fmt_float_array(name, values, per_line=8):
    vals = np.asarray(values, dtype=np.float32).reshape(-1)
    lines = []
    for i in range(0, len(vals), per_line):
        lines.append("    " + ", ".join(fmt_float(v) for v in vals[i:i + per_line]) + ",")
    return "inline constexpr float %s[] = {\n%s\n};\n" % (name, "\n".join(lines))


def comment_block(lines):
    return "".join(("//" + (" " + l if l else "")).rstrip() + "\n" for l in lines)


# --------------------------------------------------------------------------------------------
# Layout conversions torch -> ctnn
# --------------------------------------------------------------------------------------------

def conv_w_ohwi(w):
    """torch Conv2d weight [O, I/g, kh, kw] -> OHW(I/g)."""
    return w.detach().permute(0, 2, 3, 1).contiguous()


def depthwise_w_1hwc(w):
    """torch depthwise weight [C = in*mult, 1, kh, kw] -> [1, kh, kw, C]."""
    assert w.shape[1] == 1
    return w.detach().permute(1, 2, 3, 0).contiguous()


def dense_w_after_nhwc_flatten(w, c, h, wd):
    """torch Linear weight [out, C*H*W] (torch flattens CHW) -> [out, H*W*C] (ctnn flattens HWC)."""
    out = w.shape[0]
    return w.detach().reshape(out, c, h, wd).permute(0, 2, 3, 1).reshape(out, c * h * wd).contiguous()


def tf_same_pads(in_size, k, stride, dilation=1):
    out = -(-in_size // stride)
    total = max((out - 1) * stride + (k - 1) * dilation + 1 - in_size, 0)
    return total // 2, total - total // 2


# --------------------------------------------------------------------------------------------
# Independent NumPy NHWC implementation working on the exported arrays (float64)
# --------------------------------------------------------------------------------------------

def np_pad(x, top, bottom, left, right, value=0.0):
    return np.pad(x, ((0, 0), (top, bottom), (left, right), (0, 0)), constant_values=value)


def np_conv2d(x, w_ohwi, b, stride=1, pads=(0, 0, 0, 0), dilation=1, groups=1):
    """x NHWC, w [O, kh, kw, I/g], pads (top, bottom, left, right)."""
    x = np_pad(x, *pads)
    n, h, wd, cin = x.shape
    o, kh, kw, ig = w_ohwi.shape
    assert ig * groups == cin
    og = o // groups
    oh = (h - (kh - 1) * dilation - 1) // stride + 1
    ow = (wd - (kw - 1) * dilation - 1) // stride + 1
    y = np.zeros((n, oh, ow, o))
    for oc in range(o):
        g = oc // og
        for i in range(kh):
            for j in range(kw):
                patch = x[:, i * dilation: i * dilation + (oh - 1) * stride + 1: stride,
                          j * dilation: j * dilation + (ow - 1) * stride + 1: stride,
                          g * ig:(g + 1) * ig]
                y[..., oc] += patch @ w_ohwi[oc, i, j, :]
        y[..., oc] += b[oc]
    return y


def np_depthwise(x, w_1hwc, b, mult, pads=(0, 0, 0, 0)):
    x = np_pad(x, *pads)
    n, h, wd, cin = x.shape
    _, kh, kw, c = w_1hwc.shape
    assert c == cin * mult
    oh, ow = h - kh + 1, wd - kw + 1
    xe = np.repeat(x, mult, axis=3)  # channel oc = ic * mult + m
    y = np.zeros((n, oh, ow, c))
    for i in range(kh):
        for j in range(kw):
            y += xe[:, i:i + oh, j:j + ow, :] * w_1hwc[0, i, j, :]
    return y + b


def np_pool(x, k, stride, pads=(0, 0, 0, 0), kind="max"):
    n, h, wd, c = x.shape
    top, bottom, left, right = pads
    oh = (h + top + bottom - k) // stride + 1
    ow = (wd + left + right - k) // stride + 1
    y = np.zeros((n, oh, ow, c))
    for r in range(oh):
        for s in range(ow):
            r0, s0 = r * stride - top, s * stride - left
            rs, re = max(r0, 0), min(r0 + k, h)
            ss, se = max(s0, 0), min(s0 + k, wd)
            win = x[:, rs:re, ss:se, :]
            y[:, r, s, :] = win.max(axis=(1, 2)) if kind == "max" else win.mean(axis=(1, 2))
    return y


def np_dense(x, w, b):
    return x @ w.T + b


def np_softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def np_sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


# --------------------------------------------------------------------------------------------
# torch helpers
# --------------------------------------------------------------------------------------------

def avg_pool_in_bounds(x, k, stride, pads):
    """Average pooling over a padded window dividing by the in-bounds element count (TFLite)."""
    top, bottom, left, right = pads
    xp = F.pad(x, (left, right, top, bottom))
    s = F.avg_pool2d(xp, k, stride, divisor_override=1)
    ones = F.pad(torch.ones_like(x[:1, :1]), (left, right, top, bottom))
    cnt = F.avg_pool2d(ones, k, stride, divisor_override=1)
    return s / cnt


def random_inputs(shape_nhwc, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand((CASE_COUNT,) + tuple(shape_nhwc), generator=g, dtype=torch.float32) * 2 - 1)


def to_nchw(x):
    return x.permute(0, 3, 1, 2).contiguous() if x.dim() == 4 else x


def randomize_biases(model, seed, scale=0.3):
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name.endswith("bias"):
                p.copy_((torch.rand(p.shape, generator=g) * 2 - 1) * scale)
                assert torch.all(p != 0)


# --------------------------------------------------------------------------------------------
# Models. Each forward takes NCHW (or flat) and returns the network output in torch layout.
# `nhwc_out` converts it to ctnn's layout; `export` returns {array name: C++-layout tensor};
# `np_forward` recomputes the network from the exported arrays in NHWC float64.
# --------------------------------------------------------------------------------------------

class CnnPool(nn.Module):
    name = "cnn_pool"
    input_shape = (1, 12, 12, 3)
    output_shape = (1, 10)
    architecture = [
        "input                                               [1,12,12,3]",
        "conv1 3x3, 8 filters, stride 1, same (pad 1), ReLU  [1,12,12,8]   conv1_w OHWI [8][3][3][3], conv1_b [8]",
        "max pool 2x2, stride 2                              [1,6,6,8]",
        "conv2 3x3, 12 filters, stride 2, pad 1 all sides,   [1,3,3,12]    conv2_w OHWI [12][3][3][8], conv2_b [12]",
        "  ReLU6",
        "average pool 2x2, stride 1, TF same padding         [1,3,3,12]",
        "  (top/left 0, bottom/right 1), divides by the",
        "  number of in-bounds elements",
        "global average pool                                 [1,1,1,12]",
        "flatten                                             [1,12]",
        "dense 12 -> 10                                      [1,10]        fc_w [10][12], fc_b [10]",
        "softmax                                             [1,10]  (output)",
    ]

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 12, 3, stride=2, padding=1)
        self.fc = nn.Linear(12, 10)

    def adjust(self):
        # Default init shrinks activations; scale so that ReLU6 clips below, passes and
        # saturates some values (checked in generate()).
        with torch.no_grad():
            self.conv1.weight.mul_(3.0)
            self.conv2.weight.mul_(8.0)

    def forward(self, x, stats=None):
        x = F.relu(self.conv1(x))
        x = F.max_pool2d(x, 2, 2)
        pre = self.conv2(x)
        if stats is not None:
            stats["conv2 pre-ReLU6 values"] = pre
        x = torch.clamp(pre, 0.0, 6.0)
        x = avg_pool_in_bounds(x, 2, 1, tf_same_pads(3, 2, 1) + tf_same_pads(3, 2, 1))
        x = x.mean(dim=(2, 3))
        return F.softmax(self.fc(x), dim=1)

    def nhwc_out(self, y):
        return y

    def export(self):
        return {
            "conv1_w": conv_w_ohwi(self.conv1.weight), "conv1_b": self.conv1.bias,
            "conv2_w": conv_w_ohwi(self.conv2.weight), "conv2_b": self.conv2.bias,
            "fc_w": self.fc.weight, "fc_b": self.fc.bias,
        }

    @staticmethod
    def np_forward(x, a):
        x = np.maximum(np_conv2d(x, a["conv1_w"], a["conv1_b"], pads=tf_same_pads(12, 3, 1) * 2), 0)
        x = np_pool(x, 2, 2)
        x = np.clip(np_conv2d(x, a["conv2_w"], a["conv2_b"], stride=2, pads=(1, 1, 1, 1)), 0, 6)
        x = np_pool(x, 2, 1, pads=(0, 1, 0, 1), kind="avg")
        x = x.mean(axis=(1, 2))
        return np_softmax(np_dense(x, a["fc_w"], a["fc_b"]))


class Residual(nn.Module):
    name = "residual"
    input_shape = (1, 8, 8, 6)
    output_shape = (1, 1, 1, 6)
    architecture = [
        "x = input                                           [1,8,8,6]",
        "a = relu(conv_a(x))  3x3 same, 6 filters            [1,8,8,6]     conv_a_w OHWI [6][3][3][6], conv_a_b [6]",
        "b = conv_b(a)        3x3 same, 6 filters, linear    [1,8,8,6]     conv_b_w OHWI [6][3][3][6], conv_b_b [6]",
        "c = relu(x + b)                                     [1,8,8,6]",
        "d = relu(depthwise(c)) 3x3 same, multiplier 2       [1,8,8,12]    dw_w 1HWC [1][3][3][12], dw_b [12]",
        "                       (channel oc = ic*2 + m)",
        "e = conv_e(d)        1x1, 6 filters, linear         [1,8,8,6]     conv_e_w OHWI [6][1][1][12], conv_e_b [6]",
        "f = c + e                                           [1,8,8,6]",
        "g = tanh(f)                                         [1,8,8,6]",
        "h = g * f  (elementwise)                            [1,8,8,6]",
        "output = global average pool(h)                     [1,1,1,6]",
    ]

    def __init__(self):
        super().__init__()
        self.conv_a = nn.Conv2d(6, 6, 3, padding=1)
        self.conv_b = nn.Conv2d(6, 6, 3, padding=1)
        self.dw = nn.Conv2d(6, 12, 3, padding=1, groups=6)
        self.conv_e = nn.Conv2d(12, 6, 1)

    def adjust(self):
        pass

    def forward(self, x, stats=None):
        a = F.relu(self.conv_a(x))
        b = self.conv_b(a)
        c = F.relu(x + b)
        d = F.relu(self.dw(c))
        e = self.conv_e(d)
        f = c + e
        g = torch.tanh(f)
        h = g * f
        return h.mean(dim=(2, 3), keepdim=True)

    def nhwc_out(self, y):
        return y.permute(0, 2, 3, 1)

    def export(self):
        return {
            "conv_a_w": conv_w_ohwi(self.conv_a.weight), "conv_a_b": self.conv_a.bias,
            "conv_b_w": conv_w_ohwi(self.conv_b.weight), "conv_b_b": self.conv_b.bias,
            "dw_w": depthwise_w_1hwc(self.dw.weight), "dw_b": self.dw.bias,
            "conv_e_w": conv_w_ohwi(self.conv_e.weight), "conv_e_b": self.conv_e.bias,
        }

    @staticmethod
    def np_forward(x, p):
        same = tf_same_pads(8, 3, 1) * 2
        a = np.maximum(np_conv2d(x, p["conv_a_w"], p["conv_a_b"], pads=same), 0)
        b = np_conv2d(a, p["conv_b_w"], p["conv_b_b"], pads=same)
        c = np.maximum(x + b, 0)
        d = np.maximum(np_depthwise(c, p["dw_w"], p["dw_b"], 2, pads=same), 0)
        e = np_conv2d(d, p["conv_e_w"], p["conv_e_b"])
        f = c + e
        h = np.tanh(f) * f
        return h.mean(axis=(1, 2), keepdims=True)


class ConcatBlock(nn.Module):
    name = "concat_block"
    input_shape = (1, 9, 9, 4)
    output_shape = (1, 5)
    architecture = [
        "x = input                                           [1,9,9,4]",
        "a = relu(conv_a(x))  1x1, 5 filters                 [1,9,9,5]     conv_a_w OHWI [5][1][1][4], conv_a_b [5]",
        "b = sigmoid(conv_b(x)) 3x3, dilation 2, pad 2 all   [1,9,9,3]     conv_b_w OHWI [3][3][3][4], conv_b_b [3]",
        "  sides (= same), 3 filters",
        "c = conv_c(x)        3x3 same, groups 2, 6 filters  [1,9,9,6]     conv_c_w OHW(I/g) [6][3][3][2], conv_c_b [6]",
        "  linear (filters 0-2 read channels 0-1, 3-5 read 2-3)",
        "k = concat channels (a, b, c)                       [1,9,9,14]",
        "p = pad k: H top 1 bottom 0, W left 0 right 2, 0.0  [1,10,11,14]",
        "m = max pool 3x3, stride 2, valid                   [1,4,5,14]",
        "q = relu6(conv_q(m)) 3x3, stride 2, TF same         [1,2,3,8]     conv_q_w OHWI [8][3][3][14], conv_q_b [8]",
        "  (H: top 0 bottom 1; W: left 1 right 1), 8 filters",
        "flatten (NHWC order: h, w, c)                       [1,48]",
        "dense 48 -> 5                                       [1,5]         fc_w [5][48] (inputs in h,w,c order), fc_b [5]",
        "sigmoid                                             [1,5]  (output)",
    ]

    def __init__(self):
        super().__init__()
        self.conv_a = nn.Conv2d(4, 5, 1)
        self.conv_b = nn.Conv2d(4, 3, 3, dilation=2, padding=2)
        self.conv_c = nn.Conv2d(4, 6, 3, padding=1, groups=2)
        self.conv_q = nn.Conv2d(14, 8, 3, stride=2)
        self.fc = nn.Linear(48, 5)

    def adjust(self):
        # Default init shrinks activations; scale so that ReLU6 clips below, passes and
        # saturates some values (checked in generate()).
        with torch.no_grad():
            for conv in (self.conv_a, self.conv_b, self.conv_c):
                conv.weight.mul_(3.0)
            self.conv_q.weight.mul_(8.0)

    def forward(self, x, stats=None):
        a = F.relu(self.conv_a(x))
        b = torch.sigmoid(self.conv_b(x))
        c = self.conv_c(x)
        k = torch.cat([a, b, c], dim=1)
        p = F.pad(k, (0, 2, 1, 0))  # (W left, W right, H top, H bottom)
        m = F.max_pool2d(p, 3, 2)
        pt, pb = tf_same_pads(4, 3, 2)
        pl, pr = tf_same_pads(5, 3, 2)
        assert (pt, pb, pl, pr) == (0, 1, 1, 1)
        pre = self.conv_q(F.pad(m, (pl, pr, pt, pb)))
        if stats is not None:
            stats["conv_q pre-ReLU6 values"] = pre
        q = torch.clamp(pre, 0.0, 6.0)
        return torch.sigmoid(self.fc(torch.flatten(q, 1)))  # torch flattens C,H,W

    def nhwc_out(self, y):
        return y

    def export(self):
        return {
            "conv_a_w": conv_w_ohwi(self.conv_a.weight), "conv_a_b": self.conv_a.bias,
            "conv_b_w": conv_w_ohwi(self.conv_b.weight), "conv_b_b": self.conv_b.bias,
            "conv_c_w": conv_w_ohwi(self.conv_c.weight), "conv_c_b": self.conv_c.bias,
            "conv_q_w": conv_w_ohwi(self.conv_q.weight), "conv_q_b": self.conv_q.bias,
            "fc_w": dense_w_after_nhwc_flatten(self.fc.weight, 8, 2, 3), "fc_b": self.fc.bias,
        }

    @staticmethod
    def np_forward(x, p):
        a = np.maximum(np_conv2d(x, p["conv_a_w"], p["conv_a_b"]), 0)
        b = np_sigmoid(np_conv2d(x, p["conv_b_w"], p["conv_b_b"], pads=(2, 2, 2, 2), dilation=2))
        c = np_conv2d(x, p["conv_c_w"], p["conv_c_b"], pads=(1, 1, 1, 1), groups=2)
        k = np.concatenate([a, b, c], axis=3)
        k = np_pad(k, 1, 0, 0, 2)
        m = np_pool(k, 3, 2)
        q = np.clip(np_conv2d(m, p["conv_q_w"], p["conv_q_b"], stride=2, pads=(0, 1, 1, 1)), 0, 6)
        return np_sigmoid(np_dense(q.reshape(q.shape[0], -1), p["fc_w"], p["fc_b"]))


class Mlp(nn.Module):
    name = "mlp"
    input_shape = (1, 4, 5)
    output_shape = (1, 4)
    architecture = [
        "input                                               [1,4,5]",
        "reshape                                             [1,20]",
        "dense 20 -> 32, tanh                                [1,32]        fc1_w [32][20], fc1_b [32]",
        "dense 32 -> 16, relu                                [1,16]        fc2_w [16][32], fc2_b [16]",
        "dense 16 -> 4                                       [1,4]         fc3_w [4][16], fc3_b [4]",
        "softmax                                             [1,4]  (output)",
    ]

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(20, 32)
        self.fc2 = nn.Linear(32, 16)
        self.fc3 = nn.Linear(16, 4)

    def adjust(self):
        pass

    def forward(self, x, stats=None):
        x = x.reshape(x.shape[0], 20)
        x = torch.tanh(self.fc1(x))
        x = F.relu(self.fc2(x))
        return F.softmax(self.fc3(x), dim=1)

    def nhwc_out(self, y):
        return y

    def export(self):
        return {
            "fc1_w": self.fc1.weight, "fc1_b": self.fc1.bias,
            "fc2_w": self.fc2.weight, "fc2_b": self.fc2.bias,
            "fc3_w": self.fc3.weight, "fc3_b": self.fc3.bias,
        }

    @staticmethod
    def np_forward(x, p):
        x = x.reshape(x.shape[0], 20)
        x = np.tanh(np_dense(x, p["fc1_w"], p["fc1_b"]))
        x = np.maximum(np_dense(x, p["fc2_w"], p["fc2_b"]), 0)
        return np_softmax(np_dense(x, p["fc3_w"], p["fc3_b"]))


def np_batch_norm(x, scale, offset, mean, var, eps):
    return (x - mean) / np.sqrt(var + eps) * scale + offset


class BnBlock(nn.Module):
    """Batch norms after conv (no bias), depthwise (bias) and dense, and a constant subgraph."""
    name = "bn_block"
    input_shape = (1, 6, 6, 3)
    output_shape = (1, 4)
    architecture = [
        "x = input                                           [1,6,6,3]",
        "a = relu(bn1(conv1(x)))  3x3 same, 8 filters, NO bias [1,6,6,8]   conv1_w OHWI [8][3][3][3]",
        "                         bn1: bn1_scale/offset/mean/var [8], epsilon 1e-5",
        "d = relu(bn2(dw(a)))     depthwise 3x3 same, mult 1   [1,6,6,8]   dw_w 1HWC [1][3][3][8], dw_b [8]",
        "                         bn2: bn2_* [8], epsilon 1e-5",
        "e = conv2(d) + relu(k)   1x1, 8 filters, NO bias      [1,6,6,8]   conv2_w OHWI [8][1][1][8], k [8]",
        "                         (k is a constant: relu(k) folds at compile time, then becomes conv2's bias)",
        "g = flatten(global average pool(e))                 [1,8]",
        "y = bn3(fc(g))           dense 8 -> 4               [1,4]  (output)  fc_w [4][8], fc_b [4]",
        "                         bn3: bn3_* [4], epsilon 1e-3",
    ]

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(8, eps=1e-5)
        self.dw = nn.Conv2d(8, 8, 3, padding=1, groups=8)
        self.bn2 = nn.BatchNorm2d(8, eps=1e-5)
        self.conv2 = nn.Conv2d(8, 8, 1, bias=False)
        self.k = nn.Parameter(torch.zeros(8))
        self.fc = nn.Linear(8, 4)
        self.bn3 = nn.BatchNorm1d(4, eps=1e-3)

    def adjust(self):
        g = torch.Generator().manual_seed(77)
        with torch.no_grad():
            for bn in (self.bn1, self.bn2, self.bn3):
                n = bn.num_features
                bn.weight.copy_(torch.rand(n, generator=g) + 0.5)
                bn.running_mean.copy_((torch.rand(n, generator=g) * 2 - 1) * 0.2)
                bn.running_var.copy_(torch.rand(n, generator=g) * 1.5 + 0.5)
            self.k.copy_((torch.rand(8, generator=g) * 2 - 1) * 0.5)
            assert (self.k < 0).any() and (self.k > 0).any(), "relu(k) must zero some and keep some values"

    def forward(self, x, stats=None):
        a = F.relu(self.bn1(self.conv1(x)))
        d = F.relu(self.bn2(self.dw(a)))
        e = self.conv2(d) + F.relu(self.k).reshape(1, 8, 1, 1)
        g = torch.flatten(F.adaptive_avg_pool2d(e, 1), 1)
        return self.bn3(self.fc(g))

    def nhwc_out(self, y):
        return y

    def export(self):
        out = {"conv1_w": conv_w_ohwi(self.conv1.weight)}
        for i, bn in ((1, self.bn1), (2, self.bn2), (3, self.bn3)):
            if i == 2:
                out["dw_w"] = depthwise_w_1hwc(self.dw.weight)
                out["dw_b"] = self.dw.bias
            if i == 3:
                out["conv2_w"] = conv_w_ohwi(self.conv2.weight)
                out["k"] = self.k
                out["fc_w"] = self.fc.weight
                out["fc_b"] = self.fc.bias
            out["bn%d_scale" % i] = bn.weight
            out["bn%d_offset" % i] = bn.bias
            out["bn%d_mean" % i] = bn.running_mean
            out["bn%d_var" % i] = bn.running_var
        return out

    @staticmethod
    def np_forward(x, p):
        bn = lambda v, i, eps: np_batch_norm(v, p["bn%d_scale" % i], p["bn%d_offset" % i], p["bn%d_mean" % i],
                                             p["bn%d_var" % i], eps)
        a = np.maximum(bn(np_conv2d(x, p["conv1_w"], np.zeros(8), pads=(1, 1, 1, 1)), 1, 1e-5), 0)
        d = np.maximum(bn(np_depthwise(a, p["dw_w"], p["dw_b"], 1, pads=(1, 1, 1, 1)), 2, 1e-5), 0)
        e = np_conv2d(d, p["conv2_w"], np.zeros(8)) + np.maximum(p["k"], 0)
        g = e.mean(axis=(1, 2)).reshape(e.shape[0], -1)
        return bn(np_dense(g, p["fc_w"], p["fc_b"]), 3, 1e-3)


MODELS = [(CnnPool, 101), (Residual, 202), (ConcatBlock, 303), (Mlp, 404), (BnBlock, 505)]


# --------------------------------------------------------------------------------------------

def generate(cls, seed):
    torch.manual_seed(seed)
    model = cls().eval()
    randomize_biases(model, seed + 1)
    model.adjust()

    x_nhwc = random_inputs(cls.input_shape[1:], seed + 2)  # [3, ...] float32
    x = to_nchw(x_nhwc)

    stats = {}
    with torch.no_grad():
        y32 = cls.nhwc_out(model, model(x, stats)).reshape(CASE_COUNT, -1)
        model64 = cls().eval()
        model64.load_state_dict(model.state_dict())
        model64 = model64.double()
        y64 = cls.nhwc_out(model64, model64(x.double())).reshape(CASE_COUNT, -1)

    for key, pre in stats.items():
        pre = pre.reshape(-1)
        print("  %s: %d total, %d <= 0, %d in (0,6), %d >= 6" % (
            key, pre.numel(), int((pre <= 0).sum()), int(((pre > 0) & (pre < 6)).sum()),
            int((pre >= 6).sum())))
        assert (pre <= 0).any() and ((pre > 0) & (pre < 6)).any() and (pre >= 6).any(), \
            "ReLU6 must clip below, pass and saturate some values"

    arrays = {k: v.detach().float().contiguous() for k, v in model.export().items()}

    # Independent check of the exported layouts: NHWC NumPy forward pass from the C++ arrays.
    np_arrays = {k: v.numpy().astype(np.float64) for k, v in arrays.items()}
    y_np = cls.np_forward(x_nhwc.numpy().astype(np.float64), np_arrays).reshape(CASE_COUNT, -1)
    np_diff = float(np.abs(y_np - y64.numpy()).max())
    assert np_diff < 1e-12, "NumPy NHWC re-implementation disagrees with torch: %g" % np_diff

    diff = float((y32.double() - y64).abs().max())
    rel = float(((y32.double() - y64).abs() / y64.abs().clamp_min(1e-30)).max())
    out_elems = int(np.prod(cls.output_shape))
    in_elems = int(np.prod(cls.input_shape))
    assert y64.shape == (CASE_COUNT, out_elems)
    expected = y64.float()
    print("  %s: max |float32 - float64| = %.3g (max relative %.3g), "
          "numpy NHWC vs torch float64 = %.3g, output range [%.4g, %.4g]" % (
              cls.name, diff, rel, np_diff, float(y64.min()), float(y64.max())))

    shape = lambda s: "[" + ",".join(str(d) for d in s) + "]"
    header = ["#pragma once", ""]
    body = comment_block([
        "GENERATED FILE -- DO NOT EDIT BY HAND.",
        "Generated by %s (PyTorch %s, seed %d); re-run:" % (SCRIPT_REL, torch.__version__, seed),
        "    /usr/bin/python3 %s" % SCRIPT_REL,
        "",
        "Model '%s': input %s, output %s (NHWC activations)." % (
            cls.name, shape(cls.input_shape), shape(cls.output_shape)),
        "",
    ] + ["  " + l for l in cls.architecture] + [
        "",
        "Layouts: conv weights OHWI (grouped: OHW(I/groups)), depthwise weights 1HWC",
        "(channel = in_channel * multiplier + m), dense weights [out][in], biases one per",
        "output channel. 'same' padding follows TensorFlow (extra padding bottom/right).",
        "",
        "inputs:   %d cases x input_elements, NHWC, uniform in [-1, 1]." % CASE_COUNT,
        "expected: %d cases x output_elements, NHWC. This is the reference: the network" % CASE_COUNT,
        "          evaluated in float64 (same weights cast to double), rounded to float.",
        "          The same network evaluated by PyTorch in float32 differs from it by at",
        "          most %.3g (absolute) on these cases." % diff,
    ])
    lines = header + [body, "#include <cstddef>", "",
                      "namespace ctnn_test_data::%s {" % cls.name, ""]
    lines.append("inline constexpr std::size_t input_elements = %d;" % in_elems)
    lines.append("inline constexpr std::size_t output_elements = %d;" % out_elems)
    lines.append("inline constexpr std::size_t case_count = %d;" % CASE_COUNT)
    lines.append("")
    for name, t in arrays.items():
        lines.append("// %s: shape %s" % (name, shape(t.shape)))
        lines.append(fmt_float_array(name, t.numpy()))
    lines.append("// inputs: [case_count * input_elements], each case %s NHWC" % shape(cls.input_shape))
    lines.append(fmt_float_array("inputs", x_nhwc.numpy()))
    lines.append("// expected: [case_count * output_elements], each case %s (float64 reference)"
                 % shape(cls.output_shape))
    lines.append(fmt_float_array("expected", expected.numpy()))
    lines.append("}  // namespace ctnn_test_data::%s" % cls.name)
    text = "\n".join(lines) + "\n"

    os.makedirs(OUT_DIR, exist_ok=True)
    path = os.path.join(OUT_DIR, cls.name + ".hpp")
    with open(path, "w", newline="\n") as fh:
        fh.write(text)
    print("  wrote %s" % os.path.relpath(path, REPO_ROOT))
    return diff


def main():
    torch.set_num_threads(1)
    np.random.seed(0)
    torch.use_deterministic_algorithms(True)
    diffs = {}
    for cls, seed in MODELS:
        print("%s:" % cls.name)
        diffs[cls.name] = generate(cls, seed)
    print("summary, max |float32 - float64|:")
    for k, v in diffs.items():
        print("  %-13s %.3g" % (k, v))
    return 0


if __name__ == "__main__":
    sys.exit(main())
