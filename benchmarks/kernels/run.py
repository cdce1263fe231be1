#!/usr/bin/env python3
"""ctnn's kernel speed benchmark: ctnn against onnxruntime (and TFLM's recorded figures), side by side in
one run, single thread. See docs/benchmarks.md.

    benchmarks/kernels/run.py                      configure + build (build/kernel-bench), run, print the table
    benchmarks/kernels/run.py --json               one JSON object per model instead of the table
    benchmarks/kernels/run.py --build-dir B --no-build --models kws_ref_model,digits --repetitions 5

Steps: builds the Google Benchmark programs (benchmarks/kernels/CMakeLists.txt, -O3 -march=native by
default); installs onnxruntime-node 1.30.0 into <build>/ort-node when it is not there
(ONNXRUNTIME_NODE_INSTALL=skip npm install); writes the digits demo as ONNX (make_digits_onnx.py); measures
the machine's peak (ctnn-bench-peak); then per model runs ctnn's program (which checks its output against
the reference first and fails when it is wrong) and right after it onnxruntime on the same model
(ort_bench.mjs, which checks onnxruntime's output too). Both sides report the median over R repetitions
of the mean time per call in a batch of calls lasting at least 50 ms. --clock cpu (default) compares
process CPU time, which the other processes of a shared machine disturb less than wall time; --clock wall
compares wall time. Exit status: 0 when every model ran and passed its check, 1 otherwise.
"""
import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
SOURCE = HERE.parent.parent
ORT_VERSION = "1.30.0"

# TFLM reference kernels, host x86-64, one thread, ms per inference (shared/models/mlperf-tiny/README.md).
TFLM_HOST_MS = {"kws_ref_model": 37.4, "vww_96_int8": 55.3, "pretrainedResnet_quant": 105.2}
# onnxruntime's int8 QLinear renderings differ from TFLM by up to 10 int8 steps after the softmax
# (shared/models/mlperf-tiny-onnx-int8/README.md): the peer's check allows that much.
ORT_INT8_TOLERANCE = 10
FLOAT_TOLERANCE = 1e-4
MLPERF_INT8 = ["kws_ref_model", "vww_96_int8", "pretrainedResnet_quant", "ad01_int8"]
ONNX_FLOAT = ["ds_cnn", "ds_cnn_bn", "mobilenet_v1_025", "resnet8", "fc_autoencoder"]
# PyTorch exports in the repository (tests/data/onnx_exports): their input shapes, two cases each.
ONNX_EXPORTS = {"transformer_block": [1, 8, 32], "transformer_block_opset17": [1, 8, 32], "mobilenet_v3_small": [1, 3, 32, 32]}
RECURRENT = ["lstm_64", "lstm_128", "gru_128"]
# The repository's own 16x8 KWS, with the vectorised kernels and with the reference ones (no onnxruntime peer).
OWN_INT16 = ["kws_16x8", "kws_16x8_reference"]
LAYER_MACS_SHOWN = 1_000_000


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def run(cmd, **kwargs):
    log("+", " ".join(str(c) for c in cmd))
    return subprocess.run([str(c) for c in cmd], check=True, **kwargs)


def build(args):
    build_dir = args.build_dir
    if not (build_dir / "CMakeCache.txt").exists():
        cmd = ["cmake", "-S", args.source_dir, "-B", build_dir, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
               "-DCTNN_BUILD_BENCHMARKS=ON", "-DCTNN_BUILD_TESTS=OFF", "-DCTNN_BUILD_EXAMPLES=OFF",
               "-DCTNN_BUILD_TOOLS=OFF", f"-DCTNN_SHARED_DIR={args.shared}", f"-DCTNN_BENCHMARK_ARCH={args.arch}"]
        if args.cxx:
            cmd.append(f"-DCMAKE_CXX_COMPILER={args.cxx}")
        run(cmd, stdout=sys.stderr)
    run(["cmake", "--build", build_dir, "--target", "ctnn-kernel-benchmarks", "-j", args.jobs], stdout=sys.stderr)


def ensure_ort(ort_dir):
    """onnxruntime-node in ort_dir/node_modules (installed there when missing); False without npm."""
    if (ort_dir / "node_modules" / "onnxruntime-node" / "package.json").exists():
        return True
    if not shutil.which("npm") or not shutil.which("node"):
        log("node/npm not found: onnxruntime is not measured")
        return False
    ort_dir.mkdir(parents=True, exist_ok=True)
    package = ort_dir / "package.json"
    if not package.exists():
        package.write_text('{"name": "ctnn-kernel-bench-ort", "private": true}\n')
    # The plain install downloads CUDA parts and fails offline (docs/design.md §6).
    env = dict(os.environ, ONNXRUNTIME_NODE_INSTALL="skip")
    run(["npm", "install", "--no-audit", "--no-fund", f"onnxruntime-node@{ORT_VERSION}"], cwd=ort_dir, env=env,
        stdout=sys.stderr)
    return True


def benchmark_json(program, args, extra=()):
    """Runs a Google Benchmark program; returns (context, {family: median entry}) or None when it failed."""
    cmd = [program, "--benchmark_format=json", *extra]
    result = subprocess.run([str(c) for c in cmd], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        log(f"{program.name} FAILED (exit {result.returncode}):\n{result.stderr.strip()}")
        return None
    data = json.loads(result.stdout)
    medians, singles = {}, {}
    for entry in data["benchmarks"]:
        family = entry["run_name"].split("/min_time")[0].split("/repeats")[0]
        if entry.get("run_type") == "aggregate":
            if entry.get("aggregate_name") == "median":
                medians[family] = entry
        else:
            singles.setdefault(family, entry)
    return data["context"], {**singles, **medians}


def measure_peak(args):
    program = args.build_dir / "benchmarks" / "kernels" / "ctnn-bench-peak"
    got = benchmark_json(program, args)
    if got is None:
        return {}
    _, entries = got
    peak = {}
    for family, entry in entries.items():
        if family.startswith("f32_fma/"):
            peak["float32"] = max(peak.get("float32", 0.0), entry["FMA/s"] / 1e9)
        elif family.startswith("i8_vpdpbusd/"):
            peak["int8"] = max(peak.get("int8", 0.0), entry["MAC/s"] / 1e9)
    return peak


def time_of(entry, clock):
    return entry["cpu_time" if clock == "cpu" else "real_time"]


def models(args, work):
    """The models of the run: name, the ctnn program, and onnxruntime's spec (None: no peer)."""
    shared = args.shared / "models"
    found = []
    digits_dir = work / "digits_onnx"
    if args.python and shutil.which(args.python):
        run([args.python, HERE / "make_digits_onnx.py", args.source_dir / "examples" / "digits", digits_dir],
            stdout=sys.stderr)
        peer = {"file": digits_dir / "digits.onnx", "dtype": "float32", "shape": [1, 1, 8, 8],
                "input": digits_dir / "input_0.bin",
                "checks": [{"input": digits_dir / f"input_{k}.bin", "output": digits_dir / f"output_{k}.bin",
                            "tolerance": FLOAT_TOLERANCE} for k in range(4)]}
    else:
        log(f"{args.python} not found: the digits model has no onnxruntime peer")
        peer = None
    found.append(("digits", peer))
    for name in MLPERF_INT8:
        refs = shared / "mlperf-tiny" / "refs" / name
        onnx_file = shared / "mlperf-tiny-onnx-int8" / f"{name}.onnx"
        peer = None
        if onnx_file.exists() and (refs / "manifest.json").exists():
            shape = json.loads((refs / "manifest.json").read_text())["input"]["shape"]
            peer = {"file": onnx_file, "dtype": "int8", "shape": shape, "input": refs / "input_0.bin",
                    "checks": [{"input": refs / f"input_{k}.bin", "output": refs / f"output_{k}.bin",
                                "tolerance": ORT_INT8_TOLERANCE} for k in range(4)]}
        found.append((name, peer))
        # Its QDQ rendering (scripts/qlinear_to_qdq.py): onnxruntime fuses it back into the same integer kernels.
        found.append((f"{name}_qdq", peer))
    for name in ONNX_FLOAT:
        folder = shared / "onnx" / name
        peer = None
        if (folder / "manifest.json").exists():
            shape = json.loads((folder / "manifest.json").read_text())["inputs"][0]["shape"]
            peer = {"file": shared / "onnx" / f"{name}.onnx", "dtype": "float32", "shape": shape,
                    "input": folder / "input_0.bin",
                    "checks": [{"input": folder / f"input_{k}.bin", "output": folder / f"output_{k}.ort.bin",
                                "tolerance": FLOAT_TOLERANCE} for k in range(4)]}
        found.append((name, peer))
    for name, shape in ONNX_EXPORTS.items():
        folder = SOURCE / "tests" / "data" / "onnx_exports" / name
        peer = {"file": folder.parent / f"{name}.onnx", "dtype": "float32", "shape": shape, "input": folder / "input_0.bin",
                "checks": [{"input": folder / f"input_{k}.bin", "output": folder / f"output_{k}.bin",
                            "tolerance": FLOAT_TOLERANCE} for k in range(2)]}
        found.append((name, peer))
    # The recurrent layers (make_recurrent_onnx.py, written where CMake configured the programs).
    recurrent = args.build_dir / "benchmarks" / "kernels" / "recurrent"
    for name in RECURRENT:
        peer = None
        if (recurrent / f"{name}.onnx").exists():
            peer = {"file": recurrent / f"{name}.onnx", "dtype": "float32", "shape": [28, 1, 28],
                    "input": recurrent / name / "input_0.bin",
                    "checks": [{"input": recurrent / name / f"input_{k}.bin", "output": recurrent / name / f"output_{k}.bin",
                                "tolerance": FLOAT_TOLERANCE} for k in range(4)]}
        found.append((name, peer))
    found.extend((name, None) for name in OWN_INT16)
    if args.models:
        wanted = set(args.models.split(","))
        found = [m for m in found if m[0] in wanted]
    return found


def run_ort(peer_spec, name, args, work):
    spec = {"ort_dir": str(args.ort_dir), "repetitions": args.repetitions, "min_batch_seconds": 0.05,
            "warmup": 50, "models": [{"name": name, **{k: v for k, v in peer_spec.items()}}]}
    spec_file = work / f"ort_{name}.json"
    spec_file.write_text(json.dumps(spec, default=str))
    result = subprocess.run(["node", str(HERE / "ort_bench.mjs"), str(spec_file)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        return {"error": result.stderr.strip()[-2000:]}
    return json.loads(result.stdout.strip().splitlines()[-1])


def measure(args, peak, work):
    rows = []
    has_ort = not args.no_ort and ensure_ort(args.ort_dir)
    for name, peer in models(args, work):
        program = args.build_dir / "benchmarks" / "kernels" / f"ctnn-bench-{name}"
        row = {"model": name}
        if not program.exists():
            log(f"{program.name} not built (model or importer absent): skipped")
            continue
        log(f"== {name}")
        got = benchmark_json(program, args, [f"--benchmark_repetitions={args.repetitions}"])
        if got is None:
            row["error"] = "ctnn's output differs from the reference (or the program failed)"
            rows.append(row)
            continue
        context, entries = got
        model = entries["model"]
        row.update(dtype=context["dtype"], macs=int(context["macs"]), ctnn_us=time_of(model, args.clock),
                   ctnn_wall_us=model["real_time"], ctnn_cpu_us=model["cpu_time"], check=context["reference_check"],
                   calls=int(context["calls"]), arena_bytes=int(context["arena_bytes"]))
        row["ctnn_gmacs"] = row["macs"] / row["ctnn_us"] / 1e3
        layer_peak = peak.get(row["dtype"])
        row["peak_gmacs"] = layer_peak
        row["layers"] = []
        for family, entry in sorted(entries.items()):
            if not family.startswith("layer/"):
                continue
            macs = int(entry["macs"])
            us = time_of(entry, args.clock)
            layer = {"layer": family.split("/", 1)[1], "macs": macs, "us": us,
                     "gmacs": macs / us / 1e3 if us > 0 else 0.0}
            if layer_peak and macs:
                layer["pct_of_peak"] = 100.0 * layer["gmacs"] / layer_peak
            row["layers"].append(layer)
        row["layers_us"] = sum(layer["us"] for layer in row["layers"])
        if peer is not None and has_ort:
            result = run_ort(peer, name, args, work)
            if "error" in result:
                log(f"onnxruntime on {name} FAILED: {result['error']}")
                row["peer_error"] = result["error"]
            else:
                row.update(peer="onnxruntime " + result["version"],
                           peer_us=result["cpu_us" if args.clock == "cpu" else "wall_us"],
                           peer_wall_us=result["wall_us"], peer_cpu_us=result["cpu_us"],
                           peer_check=f"{result['checked']} cases, max abs diff {result['max_abs_diff']:.3g}")
                row["ratio"] = row["ctnn_us"] / row["peer_us"]
        if name in TFLM_HOST_MS:
            row["tflm_us"] = TFLM_HOST_MS[name] * 1e3
            row["tflm_ratio"] = row["ctnn_us"] / row["tflm_us"]
        row["clock"] = args.clock
        rows.append(row)
    return rows


def print_table(rows, peak, args):
    print(f"ctnn kernel speed, single thread, median of {args.repetitions} repetitions, {args.clock} time "
          f"(benchmarks/kernels/run.py)")
    print("peak (measured now): float32 {} GFMA/s, int8 {} GMAC/s".format(
        f"{peak['float32']:.1f}" if "float32" in peak else "n/a",
        f"{peak['int8']:.1f} (vpdpbusd)" if "int8" in peak else "n/a (no AVX512-VNNI in this build)"))
    print()
    header = f"{'model':<24} {'dtype':<8} {'MACs':>11} {'ctnn us':>10} {'peer':<22} {'peer us':>10} {'ratio':>7} {'ctnn GMAC/s':>12}"
    print(header)
    print("-" * len(header))
    for row in rows:
        if "error" in row:
            print(f"{row['model']:<24} FAILED: {row['error']}")
            continue
        lines = []
        if "peer_us" in row:
            lines.append((row["peer"], row["peer_us"], row["ratio"]))
        elif "peer_error" in row:
            lines.append(("onnxruntime FAILED", None, None))
        if "tflm_us" in row:
            lines.append(("TFLM ref (recorded)", row["tflm_us"], row["tflm_ratio"]))
        if not lines:
            lines.append(("-", None, None))
        for i, (peer, peer_us, ratio) in enumerate(lines):
            first = i == 0
            print(f"{row['model'] if first else '':<24} {row['dtype'] if first else '':<8} "
                  f"{row['macs'] if first else '':>11} {format(row['ctnn_us'], '.1f') if first else '':>10} "
                  f"{peer:<22} {format(peer_us, '.1f') if peer_us else '-':>10} "
                  f"{format(ratio, '.3f') if ratio else '-':>7} {format(row['ctnn_gmacs'], '.2f') if first else '':>12}")
    ok = [r for r in rows if "error" not in r]
    if ok:
        print()
        print("MACs per second across models (linear latency in MACs means equal figures):")
        for dtype in ("float32", "int8"):
            figures = [(r["model"], r["ctnn_gmacs"]) for r in ok if r["dtype"] == dtype]
            if figures:
                low, high = min(f[1] for f in figures), max(f[1] for f in figures)
                print(f"  {dtype}: " + ", ".join(f"{m} {g:.2f}" for m, g in figures) +
                      f" GMAC/s (max/min {high / low:.1f})")
    print()
    limit = 0 if args.all_layers else LAYER_MACS_SHOWN
    print(f"layers with >= {limit:,} MACs (each call alone; % of the measured peak of its dtype):")
    header = f"{'model':<24} {'layer':<22} {'MACs':>10} {'us':>9} {'GMAC/s':>8} {'% peak':>7}"
    print(header)
    print("-" * len(header))
    for row in ok:
        for layer in row["layers"]:
            if layer["macs"] >= limit and (layer["macs"] > 0 or args.all_layers):
                pct = layer.get("pct_of_peak")
                print(f"{row['model']:<24} {layer['layer']:<22} {layer['macs']:>10} {layer['us']:>9.1f} "
                      f"{layer['gmacs']:>8.2f} {format(pct, '.1f') if pct is not None else '-':>7}")
    print()
    print("every call timed alone, summed, against the whole inference (the calls' share of the time):")
    for row in ok:
        print(f"  {row['model']}: {row['calls']} calls, {row['layers_us']:.1f} us summed, whole model "
              f"{row['ctnn_us']:.1f} us ({100.0 * row['layers_us'] / row['ctnn_us']:.0f} %)")
    print()
    print("reference checks (before timing):")
    for r in ok:
        print(f"  {r['model']}: ctnn {r['check']}" + (f"; onnxruntime {r['peer_check']}" if "peer_check" in r else ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source-dir", type=pathlib.Path, default=SOURCE, help="the ctnn tree to build (default: this one)")
    parser.add_argument("--build-dir", type=pathlib.Path, default=SOURCE / "build" / "kernel-bench")
    parser.add_argument("--no-build", action="store_true", help="use the build directory as it is")
    parser.add_argument("--cxx", help="the C++ compiler of a new build directory")
    parser.add_argument("--arch", default="native", help="CTNN_BENCHMARK_ARCH of a new build directory")
    parser.add_argument("--jobs", default="2")
    parser.add_argument("--shared", type=pathlib.Path, default=SOURCE.parent / "shared")
    parser.add_argument("--ort-dir", type=pathlib.Path, help="where onnxruntime-node is (default <build>/ort-node)")
    parser.add_argument("--no-ort", action="store_true", help="measure ctnn only")
    parser.add_argument("--python", default="/usr/bin/python3", help="a python3 with onnx and numpy (digits ONNX)")
    parser.add_argument("--models", help="comma-separated model names (default: all that are built)")
    parser.add_argument("--repetitions", type=int, default=15)
    parser.add_argument("--clock", choices=["cpu", "wall"], default="cpu")
    parser.add_argument("--all-layers", action="store_true", help="list every call, not only those >= 1 M MACs")
    parser.add_argument("--json", action="store_true", help="one JSON object per model instead of the table")
    args = parser.parse_args()
    args.build_dir = args.build_dir.resolve()
    args.shared = args.shared.resolve()
    args.ort_dir = (args.ort_dir or args.build_dir / "ort-node").resolve()

    if not args.no_build:
        build(args)
    peak = measure_peak(args)
    with tempfile.TemporaryDirectory(prefix="ctnn-kernel-bench-") as tmp:
        rows = measure(args, peak, pathlib.Path(tmp))
    if args.json:
        for row in rows:
            print(json.dumps(row))
    else:
        print_table(rows, peak, args)
    failed = [r["model"] for r in rows if "error" in r or "peer_error" in r]
    if failed or not rows:
        log("failed: " + (", ".join(failed) if failed else "no model was measured"))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
