#!/usr/bin/python3
"""Compile-time benchmark of ctnn: wall time and compiler peak memory of whole models (docs/compile_time.md).

For each case it generates one translation unit (in a build directory, never in the source tree), compiles
it with each compiler (`-std=c++20 -O2 -I include -c`) under `/usr/bin/time -v`, the best of --repeat runs,
links and runs the binary (it must exit 0 and its output must match a reference), and prints a table, the
growth ratios (time(400)/time(100) among them), and the goals of issues #7 and #14 with a verdict each (judged
with no extra flag and with --flags=-march=native, the SIMD kernels host users build). --json: one
JSON object per case and compiler on stdout (case, compiler, seconds, peak_rss_mb, ...).

Cases (`--cases`, comma-separated; default chain,dag,weights,digits,mlperf):
  chain     dsl::sequential: repeated [conv2d 3x3 same + relu, depthwise 3x3 same + relu6, conv2d 1x1,
            relu (a layer of its own, fused by fuse_ops)], then global_avg_pool, dense, softmax.
  dag       dsl::graph: the same blocks ending in a join; blocks alternate between a residual
            add<relu>(block input, 1x1 conv) and a concat(3x3 conv, 1x1 conv) of 4-channel convs.
  weights   the baseline: the chain's weight arrays, no ctnn; main() sums them. Its cost is subtracted
            from the flow cases of the same size and compiler ("flow s", "flow MB").
  digits    examples/digits/digits_demo.cpp as it is (exits 0 when it agrees with PyTorch).
  mlperf    mlperf-kws, mlperf-vww, mlperf-ic, mlperf-ad (int8) and mlperf-vww-float: the .tflite file
            embedded by ctnn_add_model's generator, ctnn::compile, run() on the TFLM reference input and
            compared with its output (int8: bit-exact). From --shared; skipped when absent.

"layers" (--layers, default 25,50,100,200,400) counts the DSL layers of a synthetic model (every op, the
3 head layers included; the input is not a layer). Every layer with weights has arrays of its own with
distinct deterministic pseudo-random values; the script evaluates the model in float64 as the reference.
Input 1x8x8x8 NHWC, 8 channels, 10 classes.

Other modes:
  --stages        compile, for each case, one TU per K = 0..11 that static_asserts the model after the
                  first K passes of ctnn::default_pipeline (-fsyntax-only): what each pass costs.
  --limits        for each case and K, the smallest -fconstexpr-steps (clang) / -fconstexpr-ops-limit
                  (g++) with which the stage TU compiles: how much of the per-evaluation budget passes use.
  --time-trace N  compile the flow case(s) of N layers with clang -ftime-trace and summarise the trace.
  --time-report N compile the flow case(s) of N layers with g++ -ftime-report and summarise it.
  --named         declare the model as `struct model : dsl::...<...> {};` rather than `using model = ...;`.
  --include DIR   measure another copy of the headers (a candidate fix) against the same sources.
When a flow TU fails to compile, the stage TUs are compiled one by one to name the pass that fails,
and the compiler's first error lines are shown (limits are never raised).

Adding a case: write a function `layers -> Model` (see chain_model) and register it in CASES. A model
that is not made of these synthetic layers (an imported .tflite/.onnx, a hand-written DSL model) needs
its own source generator next to flow_source/stage_source (same templates: @WEIGHTS@ takes whatever
declarations the model needs, @MODEL@ the declaration of `model`) and no float64 reference (--no-verify,
or a reference of its own).

Python 3 standard library only; use /usr/bin/python3.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
TEMPLATES = HERE / "templates"
INCLUDE = REPO / "include"  # --include: measure another copy of the headers (e.g. a candidate fix)

CHANNELS = 8
HEIGHT = WIDTH = 8
CLASSES = 10
HEAD_LAYERS = 3  # global_avg_pool, dense, softmax
STAGES = 11      # passes in ctnn::default_pipeline
PASS_NAMES = ["build (DSL -> module)", "infer_types", "fold_constants", "fold_batch_norm", "fuse_ops",
              "alias_reshapes", "lower_te", "plan_memory", "select_kernels", "create_function_metadata",
              "create_executor_metadata", "aot_lower_main"]

LIMIT_PATTERNS = [
    ("clang -fconstexpr-steps", r"constexpr evaluation hit maximum step limit|-fconstexpr-steps"),
    ("g++ -fconstexpr-ops-limit", r"constexpr-ops-limit|constexpr evaluation operation count exceeds"),
    ("g++ -fconstexpr-loop-limit", r"constexpr loop iteration count exceeds|constexpr-loop-limit"),
    ("constexpr call depth", r"constexpr evaluation depth|constexpr-depth"),
    ("template depth", r"template instantiation depth|recursive template instantiation exceeded|-ftemplate-depth"),
    ("bracket depth", r"bracket nesting level exceeded|-fbracket-depth"),
    ("out of memory", r"out of memory|virtual memory exhausted|std::bad_alloc|Killed signal"),
    ("timeout (--timeout)", r"run\.py: timed out"),
]


# ---------------------------------------------------------------------------------------------------
# Deterministic pseudo-random numbers (splitmix64), keyed by (layer, array) so every array is distinct.
def splitmix64(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return state, z ^ (z >> 31)


def uniform_values(seed: int, count: int, low: float, high: float) -> list[float]:
    state, out = seed * 0x100000001B3 + 12345, []
    for _ in range(count):
        state, z = splitmix64(state)
        u = (z >> 11) / float(1 << 53)
        # Rounded to 6 decimals: the C++ literal and the reference use the same value.
        out.append(round(low + (high - low) * u, 6))
    return out


def f32(x: float) -> float:
    """Rounds a Python float to float32 (the reference follows the kernels' float32 storage)."""
    import struct
    return struct.unpack("f", struct.pack("f", x))[0]


# ---------------------------------------------------------------------------------------------------
# Synthetic models.
@dataclass
class Layer:
    kind: str                      # conv3x3, dwconv3x3, conv1x1, relu, add, concat, gap, dense, softmax
    name: str
    inputs: list[str]              # graph node names (sequential: the previous layer)
    arrays: dict[str, list[float]] = field(default_factory=dict)  # "w", "b"
    fused: str = "none"            # none, relu, relu6
    channels_in: int = CHANNELS    # of the (first) input
    channels_out: int = CHANNELS


@dataclass
class Model:
    kind: str                      # "sequential" or "graph"
    layers: list[Layer]

    def weight_arrays(self):
        for layer in self.layers:
            for suffix, values in layer.arrays.items():
                yield f"{layer.name}_{suffix}", values


def weights_for(kind: str, index: int, channels_in: int, channels_out: int, damped: bool = False) -> dict[str, list[float]]:
    """He-uniform weights and small biases; `index` keys the values (distinct per layer). `damped`: the 1x1
    conv that ends a residual block is scaled down (weights x0.3, biases in [-0.15, 0.05]) so that the sum
    along the skip connections neither dies nor grows with depth (the softmax would saturate)."""
    if kind == "conv3x3":
        fan_in, count = 9 * channels_in, channels_out * 9 * channels_in        # OHWI
    elif kind == "dwconv3x3":
        fan_in, count = 9, 9 * channels_in                                     # 1HWC
    elif kind == "conv1x1":
        fan_in, count = channels_in, channels_out * channels_in                # OHWI
    elif kind == "dense":
        fan_in, count = channels_in, channels_out * channels_in                # [out][in]
    else:
        return {}
    bound = math.sqrt(6.0 / fan_in)
    low, high = -0.05, 0.15
    if damped:
        bound, low, high = 0.3 * bound, -0.15, 0.05
    return {"w": uniform_values(2 * index + 1, count, -bound, bound),
            "b": uniform_values(2 * index + 2, channels_out, low, high)}


BLOCK = ["conv3x3", "dwconv3x3", "conv1x1", "join"]


def synthetic_model(layers: int, joins: bool) -> Model:
    """Blocks of BLOCK. Without joins (chain): the join is a relu layer of its own. With joins (dag), blocks
    alternate between a residual join, add<relu>(block input, 1x1 conv), and a concat join,
    concat(3x3 conv, 1x1 conv), whose three convs have CHANNELS / 2 channels (so the concat has CHANNELS).
    The last block may be cut short by the layer count; the head follows whatever channels it ends with."""
    if layers < HEAD_LAYERS + 1:
        raise SystemExit(f"run.py: a model needs at least {HEAD_LAYERS + 1} layers (got {layers}).")
    result: list[Layer] = []
    previous, block_input, block_first, channels = "x", "x", "x", CHANNELS
    for i in range(layers - HEAD_LAYERS):
        kind, name = BLOCK[i % len(BLOCK)], f"l{i}"
        concat_block = joins and (i // len(BLOCK)) % 2 == 1
        if kind == "conv3x3":
            block_input, block_first = previous, name
            out = CHANNELS // 2 if concat_block else CHANNELS
            layer = Layer("conv3x3", name, [previous], weights_for(kind, i, channels, out), "relu", channels, out)
        elif kind == "dwconv3x3":
            layer = Layer("dwconv3x3", name, [previous], weights_for(kind, i, channels, channels), "relu6", channels, channels)
        elif kind == "conv1x1":
            damped = joins and not concat_block
            layer = Layer("conv1x1", name, [previous], weights_for(kind, i, channels, channels, damped), "none",
                          channels, channels)
        elif concat_block:
            layer = Layer("concat", name, [block_first, previous], channels_in=channels, channels_out=2 * channels)
        elif joins:
            layer = Layer("add", name, [block_input, previous], fused="relu", channels_in=channels, channels_out=channels)
        else:
            layer = Layer("relu", name, [previous], channels_in=channels, channels_out=channels)
        result.append(layer)
        previous, channels = name, layer.channels_out
    n = layers - HEAD_LAYERS
    result.append(Layer("gap", "gap", [previous], channels_in=channels, channels_out=channels))
    result.append(Layer("dense", "fc", ["gap"], weights_for("dense", n, channels, CLASSES), "none", channels, CLASSES))
    result.append(Layer("softmax", "out", ["fc"], channels_in=CLASSES, channels_out=CLASSES))
    return Model("graph" if joins else "sequential", result)


def chain_model(layers: int) -> Model:
    return synthetic_model(layers, joins=False)


def dag_model(layers: int) -> Model:
    return synthetic_model(layers, joins=True)


CASES = {"chain": chain_model, "dag": dag_model}   # synthetic flow cases; "weights" is the baseline

# Fixed models, compiled whole (import or DSL, passes, planning, kernels, executor and a call to run()).
# The MLPerf Tiny files come from <shared>/models/mlperf-tiny (--shared; skipped when absent) and are
# embedded by ctnn_add_model's own generator (cmake -P cmake/ctnnAddModel.cmake).
MLPERF_MODELS = {
    "mlperf-kws": "kws_ref_model",             # keyword spotting, DS-CNN, int8
    "mlperf-vww": "vww_96_int8",               # visual wake words, MobileNet 0.25, int8
    "mlperf-ic": "pretrainedResnet_quant",     # image classification, ResNet-8, int8
    "mlperf-ad": "ad01_int8",                  # anomaly detection, FC auto-encoder, int8
    "mlperf-vww-float": "vww_96_float",        # the float VWW
}
FIXED_CASES = ["digits"] + list(MLPERF_MODELS)
CASE_GROUPS = {"mlperf": list(MLPERF_MODELS), "synthetic": ["chain", "dag", "weights"]}
DEFAULT_CASES = "chain,dag,weights,digits,mlperf"

# The goals of issues #7 and #14 (2-core machine, -O2, the compilers' default limits): judged with no extra
# flag and with -march=native (issue #14: the SIMD kernels that host users build; every MLPerf Tiny TU, the
# float VWW included); any other --flags leaves them "not judged".
JUDGED_FLAGS = ((), ("-march=native",))
GOAL_MLPERF_SECONDS, GOAL_MLPERF_STRETCH_SECONDS, GOAL_MLPERF_MB = 10.0, 5.0, 1024.0
GOAL_CHAIN_LAYERS, GOAL_CHAIN_SECONDS, GOAL_CHAIN_MB = 400, 60.0, 4096.0
GOAL_GROWTH_FROM, GOAL_GROWTH = 100, 4.5   # time(400) / time(100) of the chain


# ---------------------------------------------------------------------------------------------------
# C++ emission.
def cpp_float(v: float) -> str:
    return f"{v:.6f}f"


def emit_weights(model: Model) -> str:
    lines = []
    for name, values in model.weight_arrays():
        body = []
        for start in range(0, len(values), 12):
            body.append("    " + ", ".join(cpp_float(v) for v in values[start:start + 12]) + ",")
        lines.append(f"inline constexpr float {name}[{len(values)}] = {{\n" + "\n".join(body) + "\n};")
    return "\n".join(lines)


def layer_type(layer: Layer) -> str:
    w, b = f"bench::{layer.name}_w", f"bench::{layer.name}_b"
    act = {"none": "", "relu": ", dsl::relu", "relu6": ", dsl::relu6"}[layer.fused]
    if layer.kind == "conv3x3":
        return f"dsl::conv2d<{w}, {b}, dsl::kernel<3>, dsl::same{act}>"
    if layer.kind == "dwconv3x3":
        return f"dsl::depthwise_conv2d<{w}, {b}, dsl::kernel<3>, dsl::same{act}>"
    if layer.kind == "conv1x1":
        return f"dsl::conv2d<{w}, {b}, dsl::kernel<1>{act}>"
    if layer.kind == "relu":
        return "dsl::relu"
    if layer.kind == "add":
        return "dsl::add<dsl::relu>" if layer.fused == "relu" else "dsl::add<>"
    if layer.kind == "concat":
        return "dsl::concat<>"
    if layer.kind == "gap":
        return "dsl::global_avg_pool"
    if layer.kind == "dense":
        return f"dsl::dense<{w}, {b}>"
    if layer.kind == "softmax":
        return "dsl::softmax"
    raise ValueError(layer.kind)


def emit_model(model: Model) -> str:
    input_type = f"dsl::input<ctnn::f32, 1, {HEIGHT}, {WIDTH}, {CHANNELS}>"
    if model.kind == "sequential":
        parts = [input_type] + [layer_type(layer) for layer in model.layers]
        return "dsl::sequential<\n    " + ",\n    ".join(parts) + ">"
    parts = [f'dsl::node<"x", {input_type}>']
    for layer in model.layers:
        names = ", ".join(f'"{i}"' for i in layer.inputs)
        parts.append(f'dsl::node<"{layer.name}", {layer_type(layer)}, {names}>')
    return 'dsl::graph<dsl::outputs<"out">,\n    ' + ",\n    ".join(parts) + ">"


def render(template: str, **values) -> str:
    text = (TEMPLATES / template).read_text()
    for key, value in values.items():
        text = text.replace(f"@{key}@", str(value))
    left = re.findall(r"@[A-Z_]+@", text)
    if left:
        raise RuntimeError(f"{template}: placeholders left unfilled: {sorted(set(left))}")
    return text


NAMED = False  # --named: declare the model as `struct model : dsl::...<...> {};` instead of a type alias


def model_declaration(model: Model) -> str:
    if NAMED:
        return f"struct model : {emit_model(model)} {{}};"
    return f"using model = {emit_model(model)};"


HEADERS_DESCRIPTION = None  # set by --commit


def headers_version() -> str:
    """The commit of the measured headers and whether include/ has uncommitted changes."""
    if HEADERS_DESCRIPTION:
        return HEADERS_DESCRIPTION
    try:
        top = subprocess.run(["git", "-C", str(INCLUDE), "rev-parse", "--show-toplevel"], capture_output=True,
                             text=True, check=True).stdout.strip()
        commit = subprocess.run(["git", "-C", top, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", top, "status", "--porcelain", "--", str(INCLUDE)], capture_output=True,
                               text=True).stdout.strip()
        return f"commit {commit}{', include/ modified' if dirty else ''}"
    except (subprocess.CalledProcessError, FileNotFoundError):
        return "not a git checkout"


def label(case: str) -> str:
    return f"{case}-named" if NAMED and case in CASES else case


def flow_source(case: str, layers: int, model: Model) -> str:
    return render("flow.cpp.in", CASE=case, LAYERS=layers, WEIGHTS=emit_weights(model), MODEL=model_declaration(model))


def baseline_source(layers: int, model: Model) -> str:
    refs = [f"    {{bench::{name}, {len(values)}}}," for name, values in model.weight_arrays()]
    elements = sum(len(values) for _, values in model.weight_arrays())
    return render("baseline.cpp.in", CASE="weights", LAYERS=layers, WEIGHTS=emit_weights(model),
                  ARRAY_REFS="\n".join(refs), ELEMENTS=elements)


def stage_source(case: str, layers: int, model: Model, stage: int) -> str:
    return render("stage.cpp.in", CASE=case, LAYERS=layers, STAGE=stage, WEIGHTS=emit_weights(model),
                  MODEL=model_declaration(model))


@dataclass
class Prepared:
    """A fixed case ready to compile: its source, extra include directories, and how to run the binary."""
    source: Path | None
    includes: tuple[Path, ...] = ()
    run_args: tuple[str, ...] = ()
    run: bool = True   # False: compiled and linked only (no reference data to run it on)
    skip: str = ""     # why the case is not measured


def source_tree(folder: str) -> Path:
    """cmake/ or examples/ next to the measured include/ (--commit extracts them too), else this checkout's."""
    candidate = INCLUDE.parent / folder
    return candidate if candidate.is_dir() else REPO / folder


def generate_model_header(model_file: Path, name: str, include_dir: Path) -> None:
    """<include_dir>/ctnn/models/<name>.hpp, by ctnn_add_model's own generator (cmake -P)."""
    header = include_dir / "ctnn" / "models" / f"{name}.hpp"
    generate = subprocess.run([shutil.which("cmake") or "cmake", f"-DCTNN_MODEL_FILE={model_file}",
                               f"-DCTNN_MODEL_HEADER={header}", f"-DCTNN_MODEL_NAME={name}",
                               "-DCTNN_MODEL_NAMESPACE=ctnn::models",
                               "-P", str(source_tree("cmake") / "ctnnAddModel.cmake")], capture_output=True, text=True)
    if generate.returncode != 0:
        raise SystemExit(f"run.py: the model header generator failed for {model_file}:\n{generate.stderr}")


def prepare_fixed(case: str, work: Path, shared: Path) -> Prepared:
    if not shutil.which("cmake"):
        return Prepared(None, skip="cmake not found (it generates the model header, as ctnn_add_model does)")
    include_dir = work / "models"
    if case == "digits":  # examples/digits/digits_demo.cpp as it is (its model embedded from digits.onnx, as
        # its CMakeLists.txt does with ctnn_add_model); it exits 0 when it agrees with PyTorch
        source = source_tree("examples") / "digits" / "digits_demo.cpp"
        if not source.exists():
            return Prepared(None, skip=f"{source} not found")
        model_file = source.parent / "digits.onnx"
        if not model_file.exists():  # before the demo embedded its model file
            return Prepared(source)
        generate_model_header(model_file, "digits", include_dir)
        return Prepared(source, (include_dir,))
    stem = MLPERF_MODELS[case]
    mlperf = shared / "models" / "mlperf-tiny"
    model_file = mlperf / f"{stem}.tflite"
    if not model_file.exists():
        return Prepared(None, skip=f"{model_file} not found (give the shared data folder with --shared)")
    generate_model_header(model_file, stem, include_dir)
    source = work / f"{case}.cpp"
    source.write_text(render("tflite.cpp.in", CASE=case, NAME=stem))
    reference_in, reference_out = mlperf / "refs" / stem / "input_0.bin", mlperf / "refs" / stem / "output_0.bin"
    if reference_in.exists() and reference_out.exists():
        return Prepared(source, (include_dir,), (str(reference_in), str(reference_out)))
    return Prepared(source, (include_dir,), run=False)


# ---------------------------------------------------------------------------------------------------
# float64 reference of the synthetic models (NHWC), with float32 rounding of every stored tensor.
def reference_input() -> list[float]:
    n = HEIGHT * WIDTH * CHANNELS
    return [f32(f32(float((i * 37) % 17)) / f32(17.0) - f32(0.5)) for i in range(n)]


def activate(x: float, fused: str) -> float:
    if fused == "relu":
        return x if x > 0.0 else 0.0
    if fused == "relu6":
        return 0.0 if x < 0.0 else (6.0 if x > 6.0 else x)
    return x


def conv(x: list[float], layer: Layer, k: int, depthwise: bool) -> list[float]:
    w, b = layer.arrays["w"], layer.arrays["b"]
    h, wd, cin, cout, pad = HEIGHT, WIDTH, layer.channels_in, layer.channels_out, k // 2
    out = [0.0] * (h * wd * cout)
    for oy in range(h):
        for ox in range(wd):
            for oc in range(cout):
                acc = b[oc]
                for ky in range(k):
                    iy = oy - pad + ky
                    if iy < 0 or iy >= h:
                        continue
                    for kx in range(k):
                        ix = ox - pad + kx
                        if ix < 0 or ix >= wd:
                            continue
                        base = (iy * wd + ix) * cin
                        if depthwise:
                            acc += x[base + oc] * w[(ky * k + kx) * cin + oc]
                        else:
                            f = ((oc * k + ky) * k + kx) * cin
                            acc += sum(x[base + ic] * w[f + ic] for ic in range(cin))
                out[(oy * wd + ox) * cout + oc] = f32(activate(acc, layer.fused))
    return out


def reference_output(model: Model) -> list[float]:
    values = {"x": reference_input()}
    for layer in model.layers:
        x = values[layer.inputs[0]]
        a, c = layer.arrays, layer.channels_in
        if layer.kind in ("conv3x3", "dwconv3x3", "conv1x1"):
            y = conv(x, layer, 1 if layer.kind == "conv1x1" else 3, layer.kind == "dwconv3x3")
        elif layer.kind == "relu":
            y = [activate(v, "relu") for v in x]
        elif layer.kind == "add":
            y = [f32(activate(p + q, layer.fused)) for p, q in zip(x, values[layer.inputs[1]])]
        elif layer.kind == "concat":  # along channels (NHWC): every input's channels, pixel by pixel
            parts = [values[i] for i in layer.inputs]
            widths = [len(p) // (HEIGHT * WIDTH) for p in parts]
            y = [v for pixel in range(HEIGHT * WIDTH) for p, n in zip(parts, widths) for v in p[pixel * n:(pixel + 1) * n]]
        elif layer.kind == "gap":
            y = [f32(sum(x[p * c + ch] for p in range(HEIGHT * WIDTH)) / (HEIGHT * WIDTH)) for ch in range(c)]
        elif layer.kind == "dense":
            y = [f32(a["b"][o] + sum(x[i] * a["w"][o * c + i] for i in range(c))) for o in range(CLASSES)]
        elif layer.kind == "softmax":
            top = max(x)
            e = [math.exp(v - top) for v in x]
            y = [v / sum(e) for v in e]
        else:
            raise ValueError(layer.kind)
        values[layer.name] = y
    return values[model.layers[-1].name]


# ---------------------------------------------------------------------------------------------------
# Measuring one compiler run.
@dataclass
class Measurement:
    ok: bool
    seconds: float
    user_seconds: float
    peak_rss_mb: float
    exit_code: int
    log: Path


_RSS_WRAPPER = (
    "import resource, subprocess, sys, time\n"
    "t = time.monotonic(); r = subprocess.run(sys.argv[2:]); t = time.monotonic() - t\n"
    "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "open(sys.argv[1], 'w').write(f'wall {t}\\nuser {u.ru_utime + u.ru_stime}\\nrss {u.ru_maxrss}\\n')\n"
    "sys.exit(r.returncode)\n")


def measure(command: list[str], log: Path, timeout: float) -> Measurement:
    """Runs `command` under /usr/bin/time -v (or a getrusage wrapper if it is missing)."""
    stats = log.with_suffix(".time")
    if HAVE_GNU_TIME:
        full = ["/usr/bin/time", "-v", "-o", str(stats)] + command
    else:
        full = [sys.executable, "-c", _RSS_WRAPPER, str(stats)] + command
    start = time.monotonic()
    with open(log, "w") as out:
        # A session of its own, so that a timeout ends the compiler too, not only /usr/bin/time.
        process = subprocess.Popen(full, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            code = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            out.write(f"\nrun.py: timed out after {timeout:g} s\n")
            return Measurement(False, time.monotonic() - start, math.nan, math.nan, -1, log)
    wall, user, rss_kb = time.monotonic() - start, math.nan, math.nan
    text = stats.read_text() if stats.exists() else ""
    if HAVE_GNU_TIME:
        if m := re.search(r"Elapsed \(wall clock\) time.*?: (?:(\d+):)?(\d+):([\d.]+)", text):
            wall = int(m.group(1) or 0) * 3600 + int(m.group(2)) * 60 + float(m.group(3))
        u = re.search(r"User time \(seconds\): ([\d.]+)", text)
        s = re.search(r"System time \(seconds\): ([\d.]+)", text)
        if u and s:
            user = float(u.group(1)) + float(s.group(1))
        if m := re.search(r"Maximum resident set size \(kbytes\): (\d+)", text):
            rss_kb = float(m.group(1))
    else:
        fields = dict(line.split() for line in text.splitlines() if line.strip())
        wall, user, rss_kb = float(fields.get("wall", wall)), float(fields.get("user", "nan")), float(fields.get("rss", "nan"))
    return Measurement(code == 0, wall, user, rss_kb / 1024.0, code, log)


def first_errors(log: Path, lines: int = 14, width: int = 260) -> str:
    """The compiler's first error and the notes that say where a limit was hit (call chain of the evaluation)."""
    text = log.read_text(errors="replace").splitlines() if log.exists() else []
    wanted = (r"error:|fatal|Killed|timed out|step limit|operation count|iteration count|depth|"
              r"note: in call to|note: use|note: in instantiation of|constexpr. expansion of")
    picked, seen = [], set()
    for line in text:
        if not re.search(wanted, line):
            continue
        key = re.sub(r"\d+", "#", line[:120])
        if key in seen:  # the same error repeated for each user of the failed constant
            continue
        seen.add(key)
        picked.append(line if len(line) <= width else line[:width] + " ...")
    return "\n".join((picked or text)[:lines])


def limit_hit(log: Path) -> str | None:
    text = log.read_text(errors="replace") if log.exists() else ""
    for name, pattern in LIMIT_PATTERNS:
        if re.search(pattern, text):
            return name
    return None


# ---------------------------------------------------------------------------------------------------
@dataclass
class Result:
    case: str
    compiler: str
    layers: int
    seconds: float
    peak_rss_mb: float
    user_seconds: float
    ok: bool
    note: str = ""
    load: float = 0.0   # 1-minute load average before the compile (other work on the machine skews wall time)
    run_ok: bool | None = None
    output: str = ""


# --pch: compiler -> the flags that make a TU read the precompiled <ctnn/ctnn.hpp> and TFLite frontend (build_pch).
PCH_FLAGS: dict[str, list[str]] = {}


def compiler_command(compiler: str, source: Path, output: Path, flags: list[str], syntax_only=False,
                     includes: tuple[Path, ...] = ()) -> list[str]:
    base = ([compiler, "-std=c++20", "-O2", "-I", str(INCLUDE)] + [f"-I{d}" for d in includes] + flags
            + PCH_FLAGS.get(compiler, []))
    if syntax_only:
        return base + ["-fsyntax-only", str(source)]
    return base + ["-c", str(source), "-o", str(output)]


def short(compiler: str) -> str:
    return Path(compiler).name


def is_clang(compiler: str) -> bool:
    return "clang" in short(compiler)


def build_pch(compiler: str, flags: list[str], work: Path, timeout: float) -> tuple[Measurement, list[str]]:
    """Precompiles <ctnn/ctnn.hpp> and <ctnn/frontend/tflite.hpp> with the TUs' flags, as CMake's
    target_precompile_headers does for ctnn_add_model(... PRECOMPILE_HEADERS) of a TFLite model (the umbrella
    leaves the frontends out; the MLPerf cases are TFLite models): the flags that make a TU use it, and what
    building it cost.
    g++ finds <header>.gch next to the -include'd header (-Winvalid-pch: an unusable one is an error, not a
    silent re-parse); clang reads the file given to -include-pch."""
    folder = work / f"pch.{short(compiler)}"
    folder.mkdir(parents=True, exist_ok=True)
    header = folder / "ctnn_pch.hpp"
    header.write_text("#include <ctnn/ctnn.hpp>\n#include <ctnn/frontend/tflite.hpp>\n")
    output = folder / ("ctnn_pch.hpp.pch" if is_clang(compiler) else "ctnn_pch.hpp.gch")
    command = [compiler, "-std=c++20", "-O2", "-I", str(INCLUDE)] + flags + ["-x", "c++-header", str(header), "-o",
                                                                            str(output)]
    m = measure(command, folder / "pch.log", timeout)
    use = (["-include-pch", str(output)] if is_clang(compiler)
           else ["-include", str(header), "-Winvalid-pch", "-Werror=invalid-pch"])
    return m, use


def check_run(binary: Path, expected: list[float] | None, log: Path, args: tuple[str, ...] = ()) -> tuple[bool, str]:
    r = subprocess.run([str(binary), *args], capture_output=True, text=True, timeout=300)
    log.write_text(r.stdout + r.stderr)
    if r.returncode != 0:
        return False, f"binary exited {r.returncode}: {r.stdout.strip()} {r.stderr.strip()}"
    lines = r.stdout.splitlines()
    summary = next((line for line in lines if "accuracy" in line), lines[0] if lines else "")  # digits: its verdict
    if expected is not None:
        m = re.search(r"^output=(.*)$", r.stdout, re.M)
        got = [float(v) for v in m.group(1).split(",")] if m else []
        if len(got) != len(expected):
            return False, f"output has {len(got)} values, expected {len(expected)}"
        worst = max(abs(g - e) for g, e in zip(got, expected))
        if worst > 1e-5 + 1e-4 * max(abs(e) for e in expected):
            return False, f"output differs from the float64 reference by {worst:.3g}: {got} vs {expected}"
        summary += f" (matches the float64 reference, max |diff| {worst:.1e})"
    return True, summary


def locate_failure(case: str, layers: int, model: Model, compiler: str, work: Path, flags, timeout, say) -> str:
    """Compiles the stage TUs K = 0..11 (-fsyntax-only) and returns which one first fails, and why."""
    for stage in range(STAGES + 1):
        src = work / f"{case}_{layers}_stage{stage}.cpp"
        src.write_text(stage_source(case, layers, model, stage))
        log = work / f"{case}_{layers}_stage{stage}.{short(compiler)}.log"
        m = measure(compiler_command(compiler, src, src.with_suffix(".o"), flags, syntax_only=True), log, timeout)
        say(f"    stage {stage:2d} ({PASS_NAMES[stage]}): {'ok' if m.ok else 'FAILS'} "
            f"{m.seconds:.1f} s {m.peak_rss_mb:.0f} MB")
        if not m.ok:
            limit = limit_hit(log)
            return (f"first failing stage K={stage} ({PASS_NAMES[stage]})"
                    + (f", limit: {limit}" if limit else "") + f"; log {log}\n" + first_errors(log))
    return "every stage TU compiles: the failure is in the executor/kernels (after aot_lower_main)"


def summarize_time_trace(trace: Path, top: int) -> dict:
    """Aggregates a clang -ftime-trace file: the 'Total ...' lines, and self time (time not inside a child
    event) grouped by event and template name without arguments. Clang 14 has no events for constant
    evaluation or for emitting global variables: that time shows up as self time of 'Frontend'."""
    events = [e for e in json.loads(trace.read_text())["traceEvents"] if e.get("ph") == "X"]
    totals = sorted(((e["name"][len("Total "):], e["dur"] / 1e6) for e in events if e["name"].startswith("Total ")),
                    key=lambda kv: -kv[1])
    spans = sorted((e for e in events if not e["name"].startswith("Total ")), key=lambda e: (e["ts"], -e["dur"]))
    self_time, counts, stack = {}, {}, []
    for e in spans:
        start, dur = e["ts"], e["dur"]
        while stack and stack[-1][0] + stack[-1][1] <= start:
            stack.pop()
        detail = re.sub(r"<.*", "<...>", e.get("args", {}).get("detail", ""))[:160]
        key = f"{e['name']} {detail}".strip()
        if stack:
            self_time[stack[-1][2]] -= dur
        self_time[key] = self_time.get(key, 0) + dur
        counts[key] = counts.get(key, 0) + 1
        stack.append((start, dur, key))
    grouped = sorted(((k, counts[k], v / 1e6) for k, v in self_time.items()), key=lambda x: -x[2])
    return {"totals": totals[:top], "self": grouped[:top]}


def summarize_time_report(log: Path, top: int) -> list[tuple[str, float, str]]:
    """The largest g++ -ftime-report timers: (name, wall seconds, 'usr s, GC memory')."""
    rows = []
    for line in log.read_text(errors="replace").splitlines():
        m = re.match(r"\s*(.+?)\s*:\s*([\d.]+)\s*\(\s*\d+%\)\s*([\d.]+)\s*\(\s*\d+%\)\s*([\d.]+)\s*\(\s*\d+%\)"
                     r"\s*(\S+)", line)
        if m and not m.group(1).startswith("TOTAL"):
            rows.append((m.group(1), float(m.group(4)), f"usr {m.group(2)} s, sys {m.group(3)} s, {m.group(5)} GC memory"))
    return sorted(rows, key=lambda r: -r[1])[:top]


# ---------------------------------------------------------------------------------------------------
# How much of the constant-evaluation budget the passes use: the smallest -fconstexpr-steps (clang) or
# -fconstexpr-ops-limit (g++) with which the stage TU K still compiles. Limits apply per evaluation and
# each stage is an evaluation of its own, so for stage K this is the largest need of the passes 0..K
# (a running maximum): a pass that raises it is the costliest so far.
DEFAULT_LIMITS = {"clang": 1_048_576, "g++": 33_554_432}


def limit_kind(compiler: str) -> str:
    return "clang" if "clang" in short(compiler) else "g++"


def limit_flag(compiler: str, value: int) -> str:
    return f"-fconstexpr-steps={value}" if limit_kind(compiler) == "clang" else f"-fconstexpr-ops-limit={value}"


def stage_needs(case, layers, model, compiler, work, flags, timeout, say) -> list[tuple[int, int]]:
    """[(stage, smallest limit that compiles)] for K = 0..11, to 0.5 %."""
    results, known_ok = [], 0

    def compiles(stage: int, value: int) -> bool:
        src = work / f"{case}_{layers}_stage{stage}.cpp"
        if not src.exists():
            src.write_text(stage_source(case, layers, model, stage))
        log = work / f"{case}_{layers}_stage{stage}.{short(compiler)}.limit.log"
        return measure(compiler_command(compiler, src, src.with_suffix(".o"), flags + [limit_flag(compiler, value)],
                                        syntax_only=True), log, timeout).ok

    for stage in range(STAGES + 1):
        if known_ok and compiles(stage, known_ok):
            results.append((stage, known_ok))
            continue
        low, high = known_ok, max(known_ok * 2, 1024)
        while not compiles(stage, high):
            low, high = high, high * 2
            if high > 1 << 34:
                say(f"    stage {stage}: does not compile even with {limit_flag(compiler, high)}")
                return results
        while high - low > max(1, high // 200):
            mid = (low + high) // 2
            if compiles(stage, mid):
                high = mid
            else:
                low = mid
        known_ok = high
        results.append((stage, high))
        say(f"    {case} {layers} {short(compiler)}: stage {stage} ({PASS_NAMES[stage]}) raises the need to {high:,}")
    return results


# ---------------------------------------------------------------------------------------------------
def evaluate_goals(results: list[Result], compilers: list[str], flags: list[str], chain: str) -> list[tuple]:
    """(goal, compiler, measured, verdict) for every goal of issues #7 and #14 whose case was asked for. Verdicts:
    met, MISSED, not measured (the case failed or was skipped), not judged (--flags other than JUDGED_FLAGS)."""
    asked = {r.case for r in results}
    index = {(r.case, r.compiler, r.layers): r for r in results}
    rows = []

    judged = tuple(flags) in JUDGED_FLAGS

    def verdict(ok: bool) -> str:
        return ("met" if ok else "MISSED") if judged else "not judged (--flags)"

    for case in [c for c in MLPERF_MODELS if c in asked]:
        for c in compilers:
            r = index.get((case, c, 0))
            if not r or not r.ok:
                rows.append((f"{case}: < {GOAL_MLPERF_SECONDS:g} s, < 1 GB", c, r.note if r else "", "not measured"))
                continue
            stretch = "stretch < 5 s met" if r.seconds < GOAL_MLPERF_STRETCH_SECONDS else "stretch < 5 s missed"
            rows.append((f"{case}: < {GOAL_MLPERF_SECONDS:g} s, < 1 GB", c, f"{r.seconds:.2f} s, {r.peak_rss_mb:.0f} MB",
                         verdict(r.seconds < GOAL_MLPERF_SECONDS and r.peak_rss_mb < GOAL_MLPERF_MB) + f" ({stretch})"))
    if any(k[0] == chain and k[2] == GOAL_CHAIN_LAYERS for k in index):
        for c in compilers:
            r = index.get((chain, c, GOAL_CHAIN_LAYERS))
            if not r or not r.ok:
                rows.append((f"chain {GOAL_CHAIN_LAYERS}: < {GOAL_CHAIN_SECONDS:g} s, < 4 GB", c, r.note if r else "",
                             "not measured"))
                continue
            rows.append((f"chain {GOAL_CHAIN_LAYERS}: < {GOAL_CHAIN_SECONDS:g} s, < 4 GB", c,
                         f"{r.seconds:.2f} s, {r.peak_rss_mb:.0f} MB",
                         verdict(r.seconds < GOAL_CHAIN_SECONDS and r.peak_rss_mb < GOAL_CHAIN_MB)))
            a = index.get((chain, c, GOAL_GROWTH_FROM))
            goal = f"chain time({GOAL_CHAIN_LAYERS})/time({GOAL_GROWTH_FROM}) < {GOAL_GROWTH:g}"
            if not a or not a.ok:
                rows.append((goal, c, f"no {GOAL_GROWTH_FROM}-layer result", "not measured"))
            else:
                g = r.seconds / a.seconds
                rows.append((goal, c, f"{r.seconds:.2f} / {a.seconds:.2f} = {g:.2f}", verdict(g < GOAL_GROWTH)))
    return rows


# ---------------------------------------------------------------------------------------------------
def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--layers", default="25,50,100,200,400",
                   help="comma-separated layer counts of the synthetic cases (default 25,50,100,200,400)")
    p.add_argument("--cases", default=None,
                   help=f"comma-separated: chain, dag, weights, digits, {', '.join(MLPERF_MODELS)}, or the groups "
                        f"mlperf and synthetic (default {DEFAULT_CASES})")
    p.add_argument("--shared", default=None,
                   help="the shared data folder with models/mlperf-tiny (default: ../shared next to the checkout); "
                        "the MLPerf cases are skipped when it is absent")
    p.add_argument("--dag", action="store_true", help="also the residual (dsl::graph) variant: adds 'dag' to --cases")
    p.add_argument("--compilers", default="g++,clang++", help="comma-separated compilers (default g++,clang++)")
    p.add_argument("--flags", default="", help="extra compiler flags (one string, split on spaces)")
    p.add_argument("--include", default=None,
                   help="the ctnn headers to measure (default: this checkout's include/), e.g. a patched copy")
    p.add_argument("--commit", default=None,
                   help="measure the headers of this commit (extracted with git archive into the build dir): "
                        "results that do not move while others edit the work tree, or two commits compared")
    p.add_argument("--build-dir", default=None, help="where to write TUs, objects and logs (default: a new temp dir)")
    p.add_argument("--keep", action="store_true", help="keep the default temp build dir")
    p.add_argument("--repeat", type=int, default=3,
                   help="compile each TU this many times and report the fastest (default 3: the machine is shared)")
    p.add_argument("--timeout", type=float, default=1800.0, help="seconds per compiler run (default 1800)")
    p.add_argument("--json", action="store_true", help="print one JSON object per case and compiler (no table)")
    p.add_argument("--stages", action="store_true", help="also time the stage TUs K=0..11 of each flow case")
    p.add_argument("--time-trace", type=int, metavar="N", default=None,
                   help="compile the flow case(s) of N layers with clang -ftime-trace and summarise it")
    p.add_argument("--time-report", type=int, metavar="N", default=None,
                   help="compile the flow case(s) of N layers with g++ -ftime-report and summarise it")
    p.add_argument("--limits", action="store_true",
                   help="find, per flow case and stage K, the smallest -fconstexpr-steps / -fconstexpr-ops-limit "
                        "that compiles (slow: a bisection of -fsyntax-only compiles)")
    p.add_argument("--top", type=int, default=15, help="entries shown per trace/report summary (default 15)")
    p.add_argument("--named", action="store_true",
                   help="declare each model as `struct model : dsl::...<...> {};` (a short type name in every "
                        "mangled symbol) instead of `using model = dsl::...<...>;`; flow cases get a '-named' suffix")
    p.add_argument("--no-verify", action="store_true", help="skip the float64 reference check of the outputs")
    p.add_argument("--pch", action="store_true",
                   help="precompile <ctnn/ctnn.hpp> once per compiler (as ctnn_add_model(... PRECOMPILE_HEADERS) "
                        "does) and compile every TU with it; the PCH's own cost is printed as a row 'pch'")
    return p.parse_args(argv)


def main(argv=None) -> int:
    global HAVE_GNU_TIME, NAMED, INCLUDE
    args = parse_args(argv)
    NAMED = args.named
    if args.include and args.commit:
        raise SystemExit("run.py: give --include or --commit, not both")
    if args.include:
        INCLUDE = Path(args.include).resolve()
    layers_list = [int(v) for v in args.layers.split(",") if v.strip()]
    cases: list[str] = []
    for c in (args.cases or DEFAULT_CASES).split(","):
        for name in CASE_GROUPS.get(c.strip(), [c.strip()] if c.strip() else []):
            if name not in cases:
                cases.append(name)
    if args.dag and "dag" not in cases:
        cases.insert(cases.index("weights") if "weights" in cases else len(cases), "dag")
    unknown = [c for c in cases if c not in CASES and c not in FIXED_CASES and c != "weights"]
    if unknown:
        raise SystemExit(f"run.py: unknown case(s) {unknown}; known: {sorted(CASES)}, weights, {FIXED_CASES}, "
                         f"and the groups {sorted(CASE_GROUPS)}")
    shared = Path(args.shared).resolve() if args.shared else REPO.parent / "shared"
    compilers = [c.strip() for c in args.compilers.split(",") if c.strip()]
    flags = args.flags.split()
    for c in compilers:
        if not shutil.which(c):
            raise SystemExit(f"run.py: compiler {c} not found")

    HAVE_GNU_TIME = os.access("/usr/bin/time", os.X_OK)
    log = sys.stderr if args.json else sys.stdout

    def say(text=""):
        print(text, file=log, flush=True)

    if args.build_dir:
        work = Path(args.build_dir).resolve()
        if work == REPO or REPO in work.parents:
            if not (work == REPO / "build" or (REPO / "build") in work.parents):
                raise SystemExit(f"run.py: --build-dir {work} is inside the source tree; use a temp dir or {REPO}/build/...")
        work.mkdir(parents=True, exist_ok=True)
        temporary = False
    else:
        work = Path(tempfile.mkdtemp(prefix="ctnn-compile-time-"))
        temporary = not args.keep

    if args.commit:
        commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", args.commit], capture_output=True,
                                text=True, check=True).stdout.strip()
        target = work / f"headers-{commit}"
        if not (target / "include").is_dir():
            target.mkdir(parents=True, exist_ok=True)
            archive = subprocess.run(["git", "-C", str(REPO), "archive", commit, "include", "cmake", "examples"],
                                     capture_output=True,
                                     check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
        INCLUDE = target / "include"
        global HEADERS_DESCRIPTION
        HEADERS_DESCRIPTION = f"commit {commit}, extracted with git archive"

    versions = {c: subprocess.run([c, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
                for c in compilers}
    say(f"# ctnn compile-time benchmark; build dir {work}")
    say(f"# /usr/bin/time: {'present (GNU time -v)' if HAVE_GNU_TIME else 'MISSING: getrusage fallback (apt-get install -y time)'}")
    for c, v in versions.items():
        say(f"# {c}: {v}")
    say(f"# headers: {INCLUDE} ({headers_version()})")
    say(f"# flags: -std=c++20 -O2 -I include {' '.join(flags)}; one compilation at a time; seconds = wall time of "
        f"the compile (-c), best of {args.repeat}")
    if args.pch:
        say("# --pch: every TU reads a precompiled <ctnn/ctnn.hpp> + <ctnn/frontend/tflite.hpp> built once per "
            "compiler (row 'pch')")

    results: list[Result] = []
    skipped: list[tuple[str, str]] = []
    failures: list[str] = []
    stage_rows: list[tuple] = []
    limit_rows: list[tuple] = []

    def compile_link_run(case_label: str, layers: int, src: Path, compiler: str, expected=None, includes=(),
                         run_args=(), run=True, on_compile_failure=None) -> Result:
        """Compiles src (the best of --repeat), links and runs it; records failures."""
        tag = f"{case_label}_{layers}.{short(compiler)}" if layers else f"{case_label}.{short(compiler)}"
        obj, exe = work / f"{tag}.o", work / f"{tag}.exe"
        best, load = None, os.getloadavg()[0]
        for _ in range(args.repeat):
            m = measure(compiler_command(compiler, src, obj, flags, includes=includes), work / f"{tag}.log", args.timeout)
            if not m.ok:
                best = m
                break
            best = m if best is None or m.seconds < best.seconds else best
        res = Result(case_label, short(compiler), layers, round(best.seconds, 3), round(best.peak_rss_mb, 1),
                     round(best.user_seconds, 3), best.ok, load=round(load, 2))
        if not best.ok:
            limit = limit_hit(best.log)
            res.note = "compile FAILED" + (f" ({limit})" if limit else "")
            detail = f"{tag}: {res.note}; log {best.log}\n{first_errors(best.log)}"
            say(f"  {detail}")
            if on_compile_failure:
                detail += "\n" + on_compile_failure()
            failures.append(detail)
        else:
            link = subprocess.run([compiler, str(obj), "-o", str(exe)], capture_output=True, text=True)
            if link.returncode != 0:
                res.ok, res.note = False, "link FAILED"
                failures.append(f"{tag}: link failed\n{link.stderr[:2000]}")
            elif run:
                res.run_ok, res.output = check_run(exe, expected, work / f"{tag}.run", tuple(run_args))
                if not res.run_ok:
                    res.ok, res.note = False, "run FAILED"
                    failures.append(f"{tag}: {res.output}")
            else:
                res.note = "not run (no reference data)"
        results.append(res)
        say(f"  {case_label:16s} {layers or '':>4} {short(compiler):9s} {res.seconds:8.2f} s {res.peak_rss_mb:8.1f} MB "
            f"{res.note or ('run ok' if res.run_ok else '')}")
        if res.output and res.run_ok:
            say(f"      {res.output}")
        return res

    if args.pch:
        for compiler in compilers:
            m, use = build_pch(compiler, flags, work, args.timeout)
            results.append(Result("pch", short(compiler), 0, round(m.seconds, 3), round(m.peak_rss_mb, 1),
                                  round(m.user_seconds, 3), m.ok, note="<ctnn/ctnn.hpp> precompiled once",
                                  load=round(os.getloadavg()[0], 2)))
            say(f"  {'pch':16s} {'':>4} {short(compiler):9s} {m.seconds:8.2f} s {m.peak_rss_mb:8.1f} MB "
                f"<ctnn/ctnn.hpp> precompiled once{'' if m.ok else ': FAILED, log ' + str(m.log)}")
            if not m.ok:
                failures.append(f"pch with {compiler}: {first_errors(m.log)}")
                continue
            PCH_FLAGS[compiler] = use

    for case in [c for c in cases if c in FIXED_CASES]:
        prepared = prepare_fixed(case, work, shared)
        if prepared.skip:
            say(f"  {case:16s} SKIPPED: {prepared.skip}")
            skipped.append((case, prepared.skip))
            continue
        for compiler in compilers:
            compile_link_run(case, 0, prepared.source, compiler, includes=prepared.includes,
                             run_args=prepared.run_args, run=prepared.run)

    for layers in layers_list:
        models = {case: CASES[case](layers) for case in cases if case in CASES}
        weights_model = chain_model(layers)
        for case in [c for c in cases if c in CASES or c == "weights"]:
            model = weights_model if case == "weights" else models[case]
            src = work / f"{label(case)}_{layers}.cpp"
            src.write_text(baseline_source(layers, model) if case == "weights" else flow_source(case, layers, model))
            expected = None
            if case != "weights" and not args.no_verify:
                expected = reference_output(model)
            for compiler in compilers:
                locate = None
                if case != "weights":
                    def locate(case=case, model=model, compiler=compiler):
                        say("  locating the failing pass with the stage TUs:")
                        return locate_failure(label(case), layers, model, compiler, work, flags, args.timeout, say)
                compile_link_run(label(case), layers, src, compiler, expected, on_compile_failure=locate)

            if args.limits and case != "weights":
                for compiler in compilers:
                    for stage, need in stage_needs(label(case), layers, model, compiler, work, flags, args.timeout, say):
                        limit_rows.append((label(case), layers, short(compiler), stage, need,
                                           need / DEFAULT_LIMITS[limit_kind(compiler)]))

            if args.stages and case != "weights":
                for compiler in compilers:
                    previous = None
                    for stage in range(STAGES + 1):
                        s = work / f"{label(case)}_{layers}_stage{stage}.cpp"
                        s.write_text(stage_source(case, layers, model, stage))
                        m = None
                        for _ in range(args.repeat):  # the fastest of --repeat runs
                            r = measure(compiler_command(compiler, s, s.with_suffix(".o"), flags, syntax_only=True),
                                        work / f"{label(case)}_{layers}_stage{stage}.{short(compiler)}.log",
                                        args.timeout)
                            m = r if m is None or not r.ok or r.user_seconds < m.user_seconds else m
                            if not r.ok:
                                break
                        delta = m.user_seconds - previous.user_seconds if previous and m.ok else math.nan
                        stage_rows.append((label(case), layers, short(compiler), stage, m.seconds, m.user_seconds,
                                           m.peak_rss_mb, delta, m.ok))
                        if not m.ok:
                            failures.append(f"{label(case)}_{layers} stage {stage} ({PASS_NAMES[stage]}) with {compiler}: "
                                            f"{limit_hit(m.log) or 'error'}\n{first_errors(m.log)}")
                            break
                        previous = m

    # Flow cost = case - baseline of the same size and compiler.
    baseline = {(r.layers, r.compiler): r for r in results if r.case == "weights" and r.ok}

    def flow_cost(r: Result):
        b = baseline.get((r.layers, r.compiler))
        if r.case == "weights" or not b or not r.ok:
            return None, None
        return r.seconds - b.seconds, r.peak_rss_mb - b.peak_rss_mb

    def case_key(r: Result) -> str:  # unique per row of one compiler: chain-400, mlperf-kws
        return f"{r.case}-{r.layers}" if r.layers else r.case

    order = {name: i for i, name in enumerate(FIXED_CASES)}
    ordered = sorted(results, key=lambda r: (r.compiler, order.get(r.case, len(order)), r.case, r.layers))
    if args.json:  # stdout: one object per case and compiler; the tables below go to stderr
        for r in ordered:
            fs, fm = flow_cost(r)
            obj = {"case": case_key(r), "compiler": r.compiler, "seconds": r.seconds, "peak_rss_mb": r.peak_rss_mb,
                   "family": r.case, "cpu_seconds": r.user_seconds, "ok": r.ok, "load_average": r.load,
                   "repeat": args.repeat, "compiler_version": versions[next(c for c in compilers if short(c) == r.compiler)]}
            if r.layers:
                obj["layers"] = r.layers
            if fs is not None:
                obj["flow_seconds"], obj["flow_peak_rss_mb"] = round(fs, 3), round(fm, 1)
            if r.note:
                obj["note"] = r.note
            print(json.dumps(obj), flush=True)
    say()
    say(f"Seconds: wall time of the compile (-c), the best of {args.repeat}; peak RSS of the compiler process.")
    say("| case | layers | compiler | seconds | CPU s | peak RSS MB | flow s (- weights) | flow MB (- weights) | status |")
    say("|---|---:|---|---:|---:|---:|---:|---:|---|")
    for r in ordered:
        fs, fm = flow_cost(r)
        status = r.note or ("ok, run ok" if r.run_ok else "ok")
        say(f"| {r.case} | {r.layers or ''} | {r.compiler} | {r.seconds:.2f} | {r.user_seconds:.2f} | {r.peak_rss_mb:.0f} | "
            f"{'' if fs is None else f'{fs:.2f}'} | {'' if fm is None else f'{fm:.0f}'} | {status} |")
    for case, reason in skipped:
        say(f"| {case} | | | | | | | | SKIPPED: {reason} |")

    def ratio(x, y):
        return f"{y / x:.2f}" if x and y is not None and x > 0 else ""

    index = {(r.case, r.compiler, r.layers): r for r in results if r.ok}
    synthetic = [label(c) for c in cases if c in CASES or c == "weights"]
    if any(len([n for (k, cc, n) in index if k == case_label]) > 1 for case_label in synthetic):
        say()
        say("Growth between consecutive sizes (time ratio; 'flow' subtracts the weights baseline; linear growth "
            "gives the layer ratio):")
        say("| case | compiler | layers | layer ratio | time ratio | CPU ratio | flow time ratio | RSS ratio | flow RSS ratio |")
        say("|---|---|---|---:|---:|---:|---:|---:|---:|")
        for case_label in synthetic:
            for compiler in compilers:
                c = short(compiler)
                sizes = sorted(n for (k, cc, n) in index if k == case_label and cc == c)
                for a, b in zip(sizes, sizes[1:]):
                    ra, rb = index[(case_label, c, a)], index[(case_label, c, b)]
                    fa, fb = flow_cost(ra), flow_cost(rb)
                    say(f"| {case_label} | {c} | {a} -> {b} | {b / a:.2f} | {ratio(ra.seconds, rb.seconds)} | "
                        f"{ratio(ra.user_seconds, rb.user_seconds)} | "
                        f"{ratio(fa[0], fb[0]) if fa[0] is not None else ''} | "
                        f"{ratio(ra.peak_rss_mb, rb.peak_rss_mb)} | "
                        f"{ratio(fa[1], fb[1]) if fa[1] is not None else ''} |")

    # The growth ratio of the goals, time(400) / time(100), for every synthetic flow case.
    growth_rows = []
    for case_label in [label(c) for c in cases if c in CASES]:
        for compiler in compilers:
            a = index.get((case_label, short(compiler), GOAL_GROWTH_FROM))
            b = index.get((case_label, short(compiler), GOAL_CHAIN_LAYERS))
            if a and b:
                growth_rows.append((case_label, short(compiler), a.seconds, b.seconds, b.seconds / a.seconds))
    if growth_rows:
        say()
        say(f"Growth ratio time({GOAL_CHAIN_LAYERS})/time({GOAL_GROWTH_FROM}) (linear: "
            f"{GOAL_CHAIN_LAYERS / GOAL_GROWTH_FROM:.1f}):")
        for case_label, c, ta, tb, g in growth_rows:
            say(f"  {case_label:12s} {c:9s} {tb:7.2f} s / {ta:5.2f} s = {g:.2f}")

    goals = evaluate_goals(results, [short(c) for c in compilers], flags, label("chain"))
    missed = [g for g in goals if g[3] == "MISSED"]
    if goals:
        say()
        say(f"Goals (issues #7 and #14; 2-core machine, -O2 {' '.join(flags)}, default compiler limits; wall time):")
        say("| goal | compiler | measured | verdict |")
        say("|---|---|---|---|")
        for goal, compiler, measured, verdict in goals:
            say(f"| {goal} | {compiler} | {measured} | {verdict} |")
        say(f"{sum(g[3].startswith('met') for g in goals)} of {len(goals)} goals met"
            + (f"; MISSED: {len(missed)}" if missed else "") + ".")

    if stage_rows:
        say()
        say("Stage TUs (-fsyntax-only; static_assert on stage_v<Model, default_pipeline, K>); delta = CPU cost of pass K:")
        say("| case | layers | compiler | K | after | seconds | CPU s | peak RSS MB | delta CPU s |")
        say("|---|---:|---|---:|---|---:|---:|---:|---:|")
        for case, layers, c, stage, s, cpu, mb, d, ok in stage_rows:
            say(f"| {case} | {layers} | {c} | {stage} | {PASS_NAMES[stage]} | {s:.2f}{'' if ok else ' FAILED'} | "
                f"{cpu:.2f} | {mb:.0f} | {'' if math.isnan(d) else f'{d:+.2f}'} |")

    if limit_rows:
        say()
        say("Constant-evaluation budget: smallest limit with which stage TU K compiles (running max over passes "
            "0..K; clang: -fconstexpr-steps, default 1,048,576; g++: -fconstexpr-ops-limit, default 33,554,432):")
        say("Only the stages that raise it are shown (the pass of that stage needs that much in one evaluation).")
        say("| case | layers | compiler | K | pass | smallest limit | of the default |")
        say("|---|---:|---|---:|---|---:|---:|")
        previous = None
        for case, layers, c, stage, need, share in limit_rows:
            key = (case, layers, c)
            if previous is None or previous[0] != key or need != previous[1]:
                say(f"| {case} | {layers} | {c} | {stage} | {PASS_NAMES[stage]} | {need:,} | {100 * share:.1f} % |")
            previous = (key, need)

    for n, flag, kind in ((args.time_trace, "-ftime-trace", "trace"), (args.time_report, "-ftime-report", "report")):
        if n is None:
            continue
        want_clang = kind == "trace"  # -ftime-trace is clang's, -ftime-report is read in g++'s format
        compiler = next((c for c in compilers if ("clang" in short(c)) == want_clang), "clang++" if want_clang else "g++")
        for case in [c for c in cases if c in CASES]:
            model = CASES[case](n)
            src = work / f"{label(case)}_{n}_{kind}.cpp"
            src.write_text(flow_source(case, n, model))
            obj = work / f"{label(case)}_{n}_{kind}.o"
            extra = [flag, "-ftime-trace-granularity=1"] if kind == "trace" else [flag]
            m = measure(compiler_command(compiler, src, obj, flags + extra), work / f"{label(case)}_{n}_{kind}.log",
                        args.timeout)
            say()
            say(f"## {flag} of {label(case)} {n} layers with {compiler}: {m.seconds:.2f} s (instrumented), "
                f"{m.peak_rss_mb:.0f} MB, {'ok' if m.ok else 'FAILED'}")
            if kind == "trace":
                trace = obj.with_suffix(".json")
                if not trace.exists():
                    say(f"no trace file at {trace}")
                    continue
                s = summarize_time_trace(trace, args.top)
                say(f"trace: {trace}")
                say("Totals (s, nested events counted in each of their parents):")
                for name, secs in s["totals"]:
                    say(f"  {secs:8.3f}  {name}")
                say("Self time (s) by event and template (arguments elided), with counts:")
                for key, count, secs in s["self"]:
                    say(f"  {secs:8.3f}  x{count:<6d} {key[:200]}")
            else:
                for name, secs, extra_info in summarize_time_report(m.log, args.top):
                    say(f"  {secs:8.2f} s  {name}  ({extra_info})")

    if failures:
        say()
        say("FAILURES:")
        for f in failures:
            say(f)
    if temporary:
        shutil.rmtree(work, ignore_errors=True)
    else:
        say(f"# outputs kept in {work}")
    return 1 if failures or missed else 0


HAVE_GNU_TIME = True

if __name__ == "__main__":
    sys.exit(main())
