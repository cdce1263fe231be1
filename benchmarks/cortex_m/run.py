#!/usr/bin/env python3
"""The Cortex-M benchmark: ctnn's MLPerf Tiny int8 models (and models of the repository's own: a 16x8 KWS, an int8
TRANSPOSE_CONV decoder, an int8 model of broadcast binary ops, a 16x8 1-D audio model with transpose convs, an int8
SVDF keyword spotter with state, an int8 two-layer LSTM) on emulated Cortex-M cores, against TFLM + CMSIS-NN.

The cores (--cpu) and their qemu boards: m0plus (mps2-an385: a Cortex-M3, qemu having no Cortex-M0+ board with the
memory of a model; Armv6-M code runs on it unchanged), m4 (mps2-an386), m7 (mps2-an500), m33 (mps2-an505, secure
state), m55 (mps3-an547, secure state). qemu 7.2 has no Cortex-M85 (no board, no -cpu cortex-m85): no m85.

For each core (--cpu), optimisation level (--opt) and model (--models) it builds cm_bench_<model>.elf
(as firmware) and cm_bench_<model>_calls.elf (with the executor's per-call hook) from
benchmarks/cortex_m/CMakeLists.txt with the repository's toolchain file, runs them under
`qemu-system-arm -M <board> -icount shift=0` (1 ns of virtual time per instruction), and prints:

  * the SysTick calibration: a subs/bne loop of known length, its ticks, the instructions per tick
    (40 on mps2-an385/an386/an500, 50 on mps2-an505, 31.25 on mps3-an547: the loop's ratio to 1/100, not the
    firmware's integer); every count is ticks x that figure;
  * whether the outputs equal TFLM's reference outputs byte for byte (4 cases, both builds; exit status 1
    if not);
  * instructions of one inference (case 0, the ramp input, as the shared README's TFLM figures), MACs
    (from the module's shapes), instructions per MAC, and the ratio to TFLM + CMSIS-NN: on the M4
    ../shared/models/mlperf-tiny/README.md's Cortex-M4 -O2 figures (per model and per operator), on the
    other cores PEER_TOTALS below (TFLM + CMSIS-NN built for that core by build_peer.py and run on the same
    board: its MVE kernels on the M55, its DSP ones on the M7 and M33, its portable C on the M0+; per model);
  * per kernel call (the build with the hook) and per op kind: instructions, MACs, per MAC (per element
    for ADD), CMSIS-NN's figure; for the repository's own models TFLM + CMSIS-NN's and TFLM's reference
    kernels' figures per operator (OWN_PEER_PER_OP, build_peer.py) beside each call and op kind;
  * (svdf8, lstm8) TFLM's arena on the same core (OWN_PEER_ARENA) against the planner's RAM;
  * (the firmware build) .text split into ctnn code and the rest, .rodata into the model (file literal + ctnn's constants),
    the embedded reference cases and the rest, .bss (arena and rest), the planner's RAM, peak stack;
  * the goals of issue #13 (the MLPerf models, kws16), of issue #25 (tconv8, bcast8: also no int8 op kind slower
    than TFLM's reference kernels), #26 (audio16) or #27 (svdf8, lstm8: instructions <= 0.4x TFLM + CMSIS-NN, RAM
    <= 0.5x TFLM's arena), met or not.

With --patches it builds each model twice instead, with memory_reuse + io_in_arena without and with the
automatic patch stage (ctnn::patch_execution<ctnn::max_extra_macs<10>>; cm_bench_<model>_reuse_io and
cm_bench_<model>_patches), prints both reports and a table of the two: instructions, RAM, calls, and the
instructions of the patch stage's calls (docs/memory.md, "Patch execution").

  python3 benchmarks/cortex_m/run.py                       # all models, -O2 and -Os, Cortex-M4
  python3 benchmarks/cortex_m/run.py --models kws --opt O2 --cpu m4,m33 --json
  python3 benchmarks/cortex_m/run.py --opt O2 --cpu m55                  # Helium (MVE) kernels
  python3 benchmarks/cortex_m/run.py --models vww --opt O2 --patches
  python3 benchmarks/cortex_m/run.py --models kws16 --opt O2            # 16x8: int16 activations (kernel/arm/s16.hpp)
  python3 benchmarks/cortex_m/run.py --models tconv8,bcast8,audio16 --opt O2   # TRANSPOSE_CONV, broadcast ops
  python3 benchmarks/cortex_m/run.py --models svdf8 --opt O2            # SVDF (kernel/arm/svdf.hpp), with state
  python3 benchmarks/cortex_m/run.py --models lstm8 --opt O2            # int8 LSTM (kernel/arm/sequence_lstm.hpp)
  python3 benchmarks/cortex_m/run.py --models kws,kws_qdq --opt O2        # an int8 model and its QDQ ONNX rendering
  python3 benchmarks/cortex_m/run.py --models kws,vww,ic,ad --opt O2 --cpu m0plus,m4,m7,m33,m55 --record  # every core

The docs' Cortex-M tables (README's Cortex-M4 table, docs/benchmarks.md's per-core table) are generated from the
recorded figures (benchmarks/cortex_m/results.json, which --record updates): --markdown prints them, --write-docs
rewrites them in the docs, --check-docs (the ctest docs_cortex_m_tables) fails when the docs differ from the
record. These need no toolchain:

  python3 benchmarks/cortex_m/run.py --markdown                    # from the recorded figures
  python3 benchmarks/cortex_m/run.py --check-docs

Standard library only. Needs arm-none-eabi-g++, qemu-system-arm, cmake and ninja (or make).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE_DIR = ROOT / "benchmarks" / "cortex_m"

# key: (name in ../shared and its README's tables, prefix of its rows in the README's per-operator table)
MODELS = {
    "kws": ("kws_ref_model", "KWS"),
    "vww": ("vww_96_int8", "VWW"),
    "ic": ("pretrainedResnet_quant", "IC"),
    "ad": ("ad01_int8", "AD"),
    "kws16": ("kws_16x8", "KWS16"),
    "tconv8": ("tconv_decoder_int8", "TCONV8"),
    "bcast8": ("broadcast_int8", "BCAST8"),
    "audio16": ("audio_16x8", "AUDIO16"),
    "svdf8": ("svdf_kws_int8", "SVDF8"),
    "lstm8": ("lstm_int8", "LSTM8"),
    # The int8 models' QDQ renderings (scripts/qlinear_to_qdq.py at configure time; CMakeLists.txt): checked against
    # onnxruntime's outputs (tests/data/onnx/mlperf_qdq), which ctnn gives byte for byte; the peer, TFLM + CMSIS-NN
    # on the TFLite form.
    "kws_qdq": ("kws_ref_model", "KWS"),
    "vww_qdq": ("vww_96_int8", "VWW"),
    "ic_qdq": ("pretrainedResnet_quant", "IC"),
    "ad_qdq": ("ad01_int8", "AD"),
}
# The repository's own models: their folder of model.tflite and TFLM reference cases (scripts/gen_kws_16x8.py,
# scripts/gen_cortex_m_models.py), in place of ../shared's; their peer figures in OWN_PEER_TOTALS and OWN_PEER_PER_OP.
OWN_MODELS = {"kws16": SOURCE_DIR / "models" / "kws_16x8", "tconv8": SOURCE_DIR / "models" / "tconv_decoder_int8",
              "bcast8": SOURCE_DIR / "models" / "broadcast_int8", "audio16": SOURCE_DIR / "models" / "audio_16x8"}
OWN_MODELS["svdf8"] = SOURCE_DIR / "models" / "svdf_kws_int8"
OWN_MODELS["lstm8"] = SOURCE_DIR / "models" / "lstm_int8"
# TFLM 90b983c2b + CMSIS-NN 4ab83cc3 (its s16 convolution, depthwise, fully connected and softmax kernels, the DSP
# path) built for the Cortex-M4 at -O2 from the same snapshots by benchmarks/cortex_m/build_peer.py (outside the
# repository's build), counted the same way (qemu -icount shift=0, SysTick), outputs equal to the reference
# cases; Invoke() of case 0. audio16: CMSIS-NN's int16 CONV_2D (arm_convolve_s16 and its wrappers) gives outputs
# that differ from TFLM's reference kernels on all four cases (its TRANSPOSE_CONV is TFLM's reference one at int16);
# the reference kernels alone give the cases' outputs (238,752,360 instructions).
OWN_PEER_TOTALS = {"m4": {"O2": {"kws16": 16_108_480, "tconv8": 6_903_000, "bcast8": 4_683_280, "audio16": 153_973_280}}}
# Per operator of the same Invoke() (build_peer.py's MicroProfilerInterface, SysTick: +-40 instructions), in the
# model's order: (TFLite operator, TFLM + CMSIS-NN, TFLM's reference kernels alone (build_peer.py --reference)).
OWN_PEER_PER_OP = {"m4": {"O2": {
    "tconv8": [("CONV_2D", 145_360, 2_785_880), ("CONV_2D", 158_400, 4_444_600), ("TRANSPOSE_CONV", 1_941_440, 23_407_240),
               ("TRANSPOSE_CONV", 2_405_040, 31_416_920), ("TRANSPOSE_CONV", 1_360_240, 33_426_480), ("CONV_2D", 892_400, 5_314_720)],
    "bcast8": [("SUB", 950_880, 950_880), ("MUL", 437_080, 437_120), ("PRELU", 431_680, 431_680), ("MAXIMUM", 71_280, 96_480),
               ("MINIMUM", 71_280, 96_520), ("SQUARED_DIFFERENCE", 942_440, 942_440), ("ADD", 894_960, 895_040),
               ("SUB", 883_600, 883_600)],
    "audio16": [("CONV_2D", 407_760, 4_434_360), ("CONV_2D", 1_350_440, 41_143_000), ("CONV_2D", 1_218_080, 39_811_600),
                ("TRANSPOSE_CONV", 59_617_760, 59_617_760), ("TRANSPOSE_CONV", 60_287_200, 60_287_200),
                ("TRANSPOSE_CONV", 30_742_200, 30_742_200), ("CONV_2D", 349_600, 2_716_200)],
}}}
# svdf8 (issue #27): TFLM + CMSIS-NN with its SVDF (cmsis_nn/svdf.cc: arm_svdf_state_s16_s8, the state shifted by
# memmove), each case 12 runs from the initial state (Reset()), the 12th timed; outputs equal to the cases with both
# kernel sets. TFLM's arena (arena_used_bytes) holds the seven int16 states (14,336 B).
OWN_PEER_TOTALS["m4"]["O2"]["svdf8"] = 320_240
OWN_PEER_PER_OP["m4"]["O2"]["svdf8"] = [
    ("SVDF", 38_320, 83_720), ("SVDF", 57_360, 184_920), ("SVDF", 57_360, 184_960), ("SVDF", 57_400, 184_960),
    ("SVDF", 41_080, 135_960), ("SVDF", 35_600, 108_200), ("SVDF", 24_000, 72_360), ("FULLY_CONNECTED", 2_560, 6_560),
    ("SOFTMAX", 6_560, 5_880)]
# TFLM's arena_used_bytes with CMSIS-NN's kernels (reference kernels: 17,220 B), per model: issue #27's RAM goal (at
# every level: the arena's size does not depend on the compiler's).
OWN_PEER_ARENA = {"m4": {"svdf8": 17_252}}
# The issue whose goals a model's report lists (the others: #13).
MODEL_ISSUE = {"tconv8": 25, "bcast8": 25, "audio16": 26, "svdf8": 27}

# lstm8 (issue #27): TFLM + CMSIS-NN with its LSTM (cmsis_nn/unidirectional_sequence_lstm.cc:
# arm_lstm_unidirectional_s8), each case one run from the initial state (Reset()); outputs equal to the cases with both
# kernel sets; TFLM's reference kernels alone: 18,903,320 instructions. TFLM's arena (arena_used_bytes, the states
# included): 11,316 B; with the reference kernels 6,868 B (OWN_PEER_REFERENCE_ARENA, shown beside the goal).
OWN_PEER_TOTALS["m4"]["O2"]["lstm8"] = 5_128_200
OWN_PEER_PER_OP["m4"]["O2"]["lstm8"] = [
    ("UNIDIRECTIONAL_SEQUENCE_LSTM", 2_261_000, 8_078_000), ("UNIDIRECTIONAL_SEQUENCE_LSTM", 2_744_800, 10_659_320),
    ("FULLY_CONNECTED", 31_720, 85_560), ("SOFTMAX", 90_520, 80_360)]
OWN_PEER_ARENA["m4"]["lstm8"] = 11_316
OWN_PEER_REFERENCE_ARENA = {"m4": {"lstm8": 6_868}}
MODEL_ISSUE["lstm8"] = 27
# key: (toolchain file in cmake/toolchains, qemu board)
# qemu 7.2 has no Cortex-M0+ board with the memory of a model: the M0+ (Armv6-M) programs run on mps2-an385, a
# Cortex-M3 (Armv7-M runs Armv6-M code unchanged; both sides are counted on it alike). It has no Cortex-M85 (no
# machine, no -cpu cortex-m85): no m85 here.
CPUS = {
    "m0plus": ("arm-none-eabi-cortex-m0plus.cmake", "mps2-an385"),
    "m4": ("arm-none-eabi-cortex-m4.cmake", "mps2-an386"),
    "m7": ("arm-none-eabi-cortex-m7.cmake", "mps2-an500"),
    "m33": ("arm-none-eabi-cortex-m33.cmake", "mps2-an505"),
    "m55": ("arm-none-eabi-cortex-m55.cmake", "mps3-an547"),
}
# The peer on cores whose figures the shared README does not have: TFLM 90b983c2b + CMSIS-NN 4ab83cc3 built
# for that core (its MVE kernels on the M55: ARM_MATH_MVEI from __ARM_FEATURE_MVE; its DSP kernels on the M7 and
# M33: __ARM_FEATURE_DSP; its portable C on the M0+), counted the same way (qemu -icount shift=0, SysTick, the
# same board as ctnn), outputs equal to the references; instructions per Invoke() of case 0, per level.
# M55: ../shared/DESIGN.md section 6 ("TFLM + CMSIS-NN as the Cortex-M peer", checked 2026-12-04).
# M0+, M7, M33: benchmarks/cortex_m/build_peer.py --cpu m0plus|m7|m33 (2026-12-06, the toolchain file's flags at -O2,
# run on mps2-an385 / mps2-an500 / mps2-an505 as ctnn's programs; the four outputs equal to the references on every
# model; TFLM's arena 22,820 / 100,708 / 54,980 (M7, M33 54,996) / 2,580 B; the M7's and M33's within 0.1 % of
# DESIGN.md's: M7 7,643,040 / 24,025,520 / 30,019,560 / 583,240, M33 7,679,600 / 24,046,700 / 29,963,850 / 583,450), e.g.
#   build_peer.py --tflm /work/oracle/tflm --cmsis-nn <CMSIS-NN 4ab83cc3> --cpu m0plus --out /tmp/peer-m0plus \
#       --model ../shared/models/mlperf-tiny/refs/kws_ref_model --model-file ../shared/models/mlperf-tiny/kws_ref_model.tflite
# The M55's re-measured the same way on 2026-12-06 (build_peer.py --cpu m55, outputs 4/4): KWS 1,813,937, IC 4,914,687,
# AD 150,593 (within 0.4 % of the figures below); VWW's image does not fit mps3-an547's 512 KB ITCM with every kernel
# the builder registers and the four cases (121 KB over), so the M55 keeps DESIGN.md's figures.
# No per-operator figures: the per-op column stays empty on these cores. A level without figures of its own is
# compared with the core's -O2 peer (the label says which).
PEER_TOTALS = {
    "m0plus": {"O2": {"kws": 28_992_560, "vww": 86_895_680, "ic": 97_559_040, "ad": 1_763_240}},
    "m7": {"O2": {"kws": 7_643_880, "vww": 24_027_560, "ic": 30_020_440, "ad": 583_800}},
    "m33": {"O2": {"kws": 7_680_450, "vww": 24_048_850, "ic": 29_964_800, "ad": 584_050}},
    "m55": {"O2": {"kws": 1_813_031, "vww": 6_558_250, "ic": 4_913_750, "ad": 150_000},
            "Os": {"kws": 2_454_875, "vww": 8_498_406, "ic": 5_303_875, "ad": 243_250}},
}
PEER_LABEL = {"m0plus": "Cortex-M0+, -{opt}", "m7": "Cortex-M7, -{opt}", "m33": "Cortex-M33, -{opt}",
              "m55": "Cortex-M55 MVE, -{opt}"}
DEFAULT_PEER_LABEL = "Cortex-M4, -O2"
CORE_NAME = {"m0plus": "Cortex-M0+", "m4": "Cortex-M4", "m7": "Cortex-M7", "m33": "Cortex-M33", "m55": "Cortex-M55"}
OPTS = ("O2", "Os")
# The builds of one model: the firmware's memory options, or (--patches) reuse + io without and with patches.
FIRMWARE_BUILDS = ("",)
PATCH_BUILDS = ("_reuse_io", "_patches")
# ctnn op kind -> TFLite operator of the README's per-operator table
TFLITE_OP = {"conv2d": "CONV_2D", "depthwise_conv2d": "DEPTHWISE_CONV_2D", "dense": "FULLY_CONNECTED", "add": "ADD",
             "transpose_conv2d": "TRANSPOSE_CONV", "sub": "SUB", "mul": "MUL", "maximum": "MAXIMUM", "minimum": "MINIMUM",
             "squared_difference": "SQUARED_DIFFERENCE", "prelu": "PRELU", "svdf": "SVDF", "softmax": "SOFTMAX",
             "sequence_lstm": "UNIDIRECTIONAL_SEQUENCE_LSTM"}

# Issue #13's goals.
GOAL_RATIO = {"O2": 0.7, "Os": 1.0}  # instructions <= this x TFLM + CMSIS-NN
GOAL_DEPTHWISE_PER_MAC = 4.0
GOAL_POINTWISE_PER_MAC = 1.6  # 1x1 convolutions
GOAL_ADD_PER_ELEMENT = 10.0
GOAL_RODATA_FACTOR = 1.02  # model .rodata <= this x (weight and bias bytes + requantization tables)
GOAL_KWS_CODE_OS = 8 * 1024  # ctnn code of KWS at -Os
GOAL_STACK = 1024
GOAL_RAM = {"kws": 10048, "vww": 36896, "ic": 33312}  # the planner's figure with in_place_windows (unchanged)
# Issue #27's goals (svdf8, lstm8): instructions <= this x TFLM + CMSIS-NN at -O2; RAM (arena + state) <= this x
# TFLM's arena.
GOAL_ISSUE_27_RATIO = 0.4
GOAL_ISSUE_27_RAM = 0.5

# Symbol classes (mangled names): ctnn's functions and data (namespace ctnn, local entities of its functions,
# guard variables), the model file embedded by ctnn_add_model, the reference cases of the harness.
CTNN_SYMBOL = re.compile(r"^_Z(?:Z|GV)?N[KVrO]*4ctnn")
MODEL_FILE_SYMBOL = re.compile(r"^_ZN4ctnn6models15ctnn_model_data\d+\w+_bytesE$")
REFS_SYMBOL = re.compile(r"^_ZN11mlperf_refs")


class Skip(Exception):
    """The benchmark cannot run here (a tool or the shared data is missing)."""


def tool(name):
    path = shutil.which(name)
    if path is None:
        raise Skip(f"{name} not found on PATH (scripts/install_deps.sh installs the Arm toolchain and qemu)")
    return path


def number(text):
    return int(text.replace(",", ""))


def read_tflm_figures(readme):
    """The README's TFLM instruction counts: per model (MACs, reference kernels, CMSIS-NN kernels) and per
    (model prefix, TFLite operator) (count, reference, CMSIS-NN)."""
    totals, per_op = {}, {}
    if not readme.exists():
        return totals, per_op
    total_row = re.compile(r"^\|\s*(\w+)\s*\|\s*([\d,]+)\s*\|\s*([\d,]+)\s*\|\s*[\d.]+\s*\|\s*([\d,]+)\s*\|\s*[\d.]+\s*\|\s*$")
    op_row = re.compile(r"^\|\s*(KWS|VWW|IC|AD) (\w+)[^|]*\|\s*(\d+)\s*\|\s*([\d,]+)\s*\|[^|]*\|\s*([\d,]+)\s*\|[^|]*\|\s*$")
    for line in readme.read_text().splitlines():
        if m := total_row.match(line):
            totals[m.group(1)] = {"macs": number(m.group(2)), "reference": number(m.group(3)), "cmsis_nn": number(m.group(4))}
        elif m := op_row.match(line):
            per_op[(m.group(1), m.group(2))] = {"count": int(m.group(3)), "reference": number(m.group(4)),
                                                "cmsis_nn": number(m.group(5))}
    return totals, per_op


def clean_environment():
    env = dict(os.environ)
    # The host's flags must not leak into the cross build (CMake reads them on the first configure).
    for name in ("CFLAGS", "CXXFLAGS", "ASMFLAGS", "LDFLAGS", "CPPFLAGS", "CC", "CXX", "CMAKE_BUILD_TYPE", "CMAKE_TOOLCHAIN_FILE"):
        env.pop(name, None)
    return env


def build(build_dir, cpu, opt, models, builds, args, log):
    toolchain = ROOT / "cmake" / "toolchains" / CPUS[cpu][0]
    env = clean_environment()
    # Configured every time (cheap once cached), so that --shared applies; one folder per core and level
    # (the level is part of the compile flags the toolchain file sets on the first configure).
    command = [args.cmake, "-S", str(SOURCE_DIR), "-B", str(build_dir), f"-DCMAKE_TOOLCHAIN_FILE={toolchain}",
               f"-DCTNN_BAREMETAL_OPTIMIZATION=-{opt}", f"-DCTNN_SHARED_DIR={args.shared}"]
    if not (build_dir / "CMakeCache.txt").exists() and shutil.which("ninja"):
        command += ["-G", "Ninja"]
    run_logged(command, env, log, f"configuring {build_dir}")
    command = [args.cmake, "--build", str(build_dir), "--parallel", str(args.jobs), "--target"]
    command += [f"cm_bench_{model}{name}{variant}" for model in models for name in builds for variant in ("", "_calls")]
    run_logged(command, env, log, f"building {', '.join(models)} for {cpu} -{opt}")


def run_logged(command, env, log, what):
    print(f"-- {what}", file=log, flush=True)
    result = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stdout)
        sys.exit(f"run.py: {what} failed ({' '.join(command)})")


def run_on_qemu(elf, board, args):
    command = [args.qemu, "-M", board, "-icount", "shift=0", "-nographic", "-monitor", "none",
               "-semihosting-config", "enable=on,target=native", "-kernel", str(elf)]
    try:
        result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        sys.exit(f"run.py: {elf.name} did not finish within {args.timeout} s under qemu ({' '.join(command)})")
    records = {"calls": [], "cases": []}
    for line in result.stdout.splitlines():
        if not line.startswith("{"):
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            sys.exit(f"run.py: {elf.name} printed a line that is not JSON: {line}")
        if "call" in record:
            records["calls"].append(record)
        elif "case" in record:
            records["cases"].append(record)
        else:
            records.update(record)
    expected = ("calibration", "inference", "model") + (("observed_inference",) if elf.stem.endswith("_calls") else ())
    missing = [key for key in expected if key not in records]
    if missing:
        sys.exit(f"run.py: {elf.name} (exit status {result.returncode}) printed no {', '.join(missing)}:\n{result.stdout}")
    records["exit_status"] = result.returncode
    return records


def section_sizes(elf, args):
    """{section: (address, size)} of the ELF's allocated sections."""
    out = subprocess.run([args.size, "-A", str(elf)], stdout=subprocess.PIPE, text=True, check=True).stdout
    sections = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0].startswith(".") and parts[1].isdigit():
            sections[parts[0]] = (int(parts[2]), int(parts[1]))
    return sections


def symbol_bytes(elf, sections, args):
    """Bytes of the ELF's sized symbols per (section, class), class in ctnn / model_file / refs / other."""
    out = subprocess.run([args.nm, "-S", "--defined-only", str(elf)], stdout=subprocess.PIPE, text=True, check=True).stdout
    totals = {}
    for line in out.splitlines():
        parts = line.split(maxsplit=3)
        if len(parts) != 4:
            continue  # no size
        address, size, name = int(parts[0], 16), int(parts[1], 16), parts[3]
        section = next((s for s, (start, length) in sections.items() if start <= address < start + length and length > 0), None)
        if section is None:
            continue
        kind = ("model_file" if MODEL_FILE_SYMBOL.match(name) else "ctnn" if CTNN_SYMBOL.match(name)
                else "refs" if REFS_SYMBOL.match(name) else "other")
        totals[(section, kind)] = totals.get((section, kind), 0) + size
    return totals


def sizes_of(elf, args):
    sections = section_sizes(elf, args)
    symbols = symbol_bytes(elf, sections, args)

    def size(section):
        return sections.get(section, (0, 0))[1]

    text, rodata, bss = size(".text"), size(".rodata"), size(".bss")
    result = {
        "text": text, "text_ctnn": symbols.get((".text", "ctnn"), 0),
        "rodata": rodata, "rodata_model_file": symbols.get((".rodata", "model_file"), 0),
        "rodata_ctnn_constants": symbols.get((".rodata", "ctnn"), 0), "rodata_reference_cases": symbols.get((".rodata", "refs"), 0),
        "bss": bss, "bss_ctnn": symbols.get((".bss", "ctnn"), 0),
    }
    result["text_other"] = text - result["text_ctnn"]
    result["rodata_model"] = result["rodata_model_file"] + result["rodata_ctnn_constants"]
    result["rodata_other"] = rodata - result["rodata_model"] - result["rodata_reference_cases"]
    result["bss_other"] = bss - result["bss_ctnn"]
    return result


def summarise(key, cpu, opt, board, records, per_call, sizes, tflm):
    """One model's figures: `records` from the firmware build, `per_call` from the build with the hook."""
    name, prefix = MODELS[key]
    totals, per_op = tflm
    per_tick = instructions_per_tick(records["calibration"])
    model = records["model"]
    instructions = round(records["inference"]["ticks"] * per_tick)
    macs = model["macs"]
    reference = totals.get(name)
    own_peer = OWN_PEER_TOTALS.get(cpu, {}).get(opt, {}).get(key)
    peer_label = PEER_LABEL.get(cpu, DEFAULT_PEER_LABEL).format(opt=opt)
    result_peer_ops = []
    if key in OWN_MODELS:
        own_ops = OWN_PEER_PER_OP.get(cpu, {}).get(opt, {}).get(key, [])
        result_peer_ops = own_ops
        reference = None if own_peer is None else {"macs": None, "reference": sum(op[2] for op in own_ops) or None,
                                                   "cmsis_nn": own_peer}
        per_op = {}
        for op, cmsis_nn, reference_kernels in own_ops:
            figures = per_op.setdefault((prefix, op), {"count": 0, "reference": 0, "cmsis_nn": 0})
            figures["count"] += 1
            figures["reference"] += reference_kernels
            figures["cmsis_nn"] += cmsis_nn
    elif cpu in PEER_LABEL:  # this core's own peer figures (no reference-kernel or per-operator ones)
        peer_label, peer = core_peer(key, cpu, opt)
        reference = None if peer is None else {"macs": None, "reference": None, "cmsis_nn": peer}
        per_op = {}
    result = {
        "model": key, "name": name, "cpu_key": cpu, "cpu": records["calibration"]["cpu"], "board": board, "opt": opt, "options": model["options"],
        "calibration": dict(records["calibration"], instructions_per_tick=per_tick),
        "peer": peer_label,
        "outputs_equal": min(sum(1 for c in r["cases"] if c["equal"]) for r in (records, per_call)), "cases": model["cases"],
        "hook_complete": per_call["observed_inference"]["hook_complete"] and len(per_call["calls"]) == model["calls"],
        "instructions": instructions, "macs": macs, "instructions_per_mac": instructions / macs if macs else None,
        "tflm_macs": reference["macs"] if reference else None,
        "tflm_reference_instructions": reference["reference"] if reference else None,
        "cmsis_nn_instructions": reference["cmsis_nn"] if reference else None,
        "ratio_to_cmsis_nn": instructions / reference["cmsis_nn"] if reference else None,
        "constant_bytes": model["constant_bytes"], "requantization_bytes": model["requantization_bytes"],
        "arena_bytes": model["arena_bytes"], "total_ram": model["total_ram"], "stack_peak": model["stack_peak"],
        "sizes": sizes,
    }
    layers, kinds = [], {}
    for call in per_call["calls"]:
        count = round(call["ticks"] * instructions_per_tick(per_call["calibration"]))
        layer = {"call": call["call"], "kind": call["kind"], "result": call["result"], "kernel": call["kernel"],
                 "in_place": call["in_place"], "macs": call["macs"], "elements": call["elements"], "instructions": count,
                 "per_mac": count / call["macs"] if call["macs"] else None}
        layers.append(layer)
        group = kinds.setdefault(call["kind"], {"kind": call["kind"], "calls": 0, "instructions": 0, "macs": 0, "elements": 0})
        group["calls"] += 1
        group["instructions"] += count
        group["macs"] += call["macs"]
        group["elements"] += call["elements"]
    for group in kinds.values():
        group["per_mac"] = group["instructions"] / group["macs"] if group["macs"] else None
        cmsis = per_op.get((prefix, TFLITE_OP.get(group["kind"], "")))
        group["cmsis_nn_instructions"] = cmsis["cmsis_nn"] if cmsis else None
        group["ratio_to_cmsis_nn"] = group["instructions"] / cmsis["cmsis_nn"] if cmsis else None
        group["tflm_reference_instructions"] = cmsis["reference"] if cmsis else None
    # The peer's operators beside ctnn's calls where they correspond one to one (the repository's own models).
    if result_peer_ops and len(result_peer_ops) == len(layers) and all(
            TFLITE_OP.get(layer["kind"]) == op[0] for layer, op in zip(layers, result_peer_ops)):
        for layer, (_, cmsis_nn, reference_kernels) in zip(layers, result_peer_ops):
            layer["tflm_cmsis_nn"], layer["tflm_reference"] = cmsis_nn, reference_kernels
    result["layers"] = layers
    result["op_kinds"] = list(kinds.values())
    # With the per-call hook on (its own cost falls mostly between calls).
    result["observed_instructions"] = round(per_call["observed_inference"]["ticks"] * instructions_per_tick(per_call["calibration"]))
    result["instructions_outside_calls"] = result["observed_instructions"] - sum(layer["instructions"] for layer in layers)
    result["goals"] = goals_of(key, opt, result)
    return result


def core_peer(key, cpu, opt):
    """(label, instructions) of TFLM + CMSIS-NN for an MLPerf model on a core of PEER_TOTALS: the level's own figure,
    else the core's -O2 one; (label, None) where the core has none. A QDQ rendering's peer runs the TFLite form."""
    key = key.removesuffix("_qdq")
    figures = PEER_TOTALS.get(cpu, {})
    level = opt if key in figures.get(opt, {}) else "O2"
    return PEER_LABEL[cpu].format(opt=level), figures.get(level, {}).get(key)


def instructions_per_tick(calibration):
    """The calibration loop's instructions per SysTick tick to 1/100: 40 and 50 on the MPS2 boards, 31.25 on
    mps3-an547 (the firmware prints that ratio rounded to an integer, 31 there: 0.8 % off). The few
    instructions of the wrap handler during the loop (~20 per 65,536 ticks) vanish in the rounding."""
    return round(calibration["loop_instructions"] / calibration["ticks"], 2)


def goals_of(key, opt, r):
    goals = []

    def goal(text, value, limit, shown):
        goals.append({"goal": text, "value": value, "limit": limit, "met": value <= limit, "shown": shown})

    if MODEL_ISSUE.get(key) == 27:
        issue_27_goals(opt, r, goal)
        return goals
    if r["ratio_to_cmsis_nn"] is not None and opt in GOAL_RATIO:
        goal(f"instructions <= {GOAL_RATIO[opt]} x TFLM + CMSIS-NN at -{opt}", r["ratio_to_cmsis_nn"], GOAL_RATIO[opt],
             f"{r['ratio_to_cmsis_nn']:.2f}x ({r['instructions'] / 1e6:.3f} M, limit {GOAL_RATIO[opt] * r['cmsis_nn_instructions'] / 1e6:.3f} M)")
    if key in MODEL_ISSUE:  # issues #25 and #26: the ratio above, every int8 op kind against TFLM's reference kernels
        if MODEL_ISSUE[key] == 25:
            for k in r["op_kinds"]:
                if k.get("tflm_reference_instructions"):
                    ratio = k["instructions"] / k["tflm_reference_instructions"]
                    goal(f"int8 {TFLITE_OP.get(k['kind'], k['kind'])} no slower than TFLM's reference kernel", ratio, 1.0,
                         f"{k['instructions']:,} for {k['tflm_reference_instructions']:,} ({ratio:.2f}x)")
        goal(f"peak stack <= {GOAL_STACK} B", r["stack_peak"], GOAL_STACK, f"{r['stack_peak']:,} B")
        return goals
    depthwise = [l for l in r["layers"] if l["kind"] == "depthwise_conv2d"]
    if depthwise:
        per_mac = sum(l["instructions"] for l in depthwise) / sum(l["macs"] for l in depthwise)
        goal(f"depthwise <= {GOAL_DEPTHWISE_PER_MAC} instructions/MAC", per_mac, GOAL_DEPTHWISE_PER_MAC, f"{per_mac:.2f}")
    pointwise = [l for l in r["layers"] if l["kind"] == "conv2d" and l["kernel"] == [1, 1]]
    if pointwise:
        per_mac = sum(l["instructions"] for l in pointwise) / sum(l["macs"] for l in pointwise)
        goal(f"1x1 convolution <= {GOAL_POINTWISE_PER_MAC} instructions/MAC", per_mac, GOAL_POINTWISE_PER_MAC, f"{per_mac:.2f}")
    adds = [l for l in r["layers"] if l["kind"] == "add"]
    if adds:
        per_element = sum(l["instructions"] for l in adds) / sum(l["elements"] for l in adds)
        goal(f"int8 ADD <= {GOAL_ADD_PER_ELEMENT} instructions/element", per_element, GOAL_ADD_PER_ELEMENT, f"{per_element:.1f}")
    budget = r["constant_bytes"] + r["requantization_bytes"]
    model_rodata = r["sizes"]["rodata_model"]
    goal(f".rodata of the model <= {GOAL_RODATA_FACTOR} x (weights and biases + requantization tables)", model_rodata,
         GOAL_RODATA_FACTOR * budget, f"{model_rodata:,} B for {r['constant_bytes']:,} + {r['requantization_bytes']:,} B ({model_rodata / budget:.3f}x)")
    if key == "kws" and opt == "Os":
        goal(f"ctnn code <= {GOAL_KWS_CODE_OS // 1024} KB (KWS, -Os)", r["sizes"]["text_ctnn"], GOAL_KWS_CODE_OS, f"{r['sizes']['text_ctnn']:,} B")
    if key in GOAL_RAM and r["options"] == "reuse+io+win":  # the firmware's options
        goal("RAM: the planner's figure unchanged", r["total_ram"], GOAL_RAM[key], f"{r['total_ram']:,} B (issue: {GOAL_RAM[key]:,} B)")
    goal(f"peak stack <= {GOAL_STACK} B", r["stack_peak"], GOAL_STACK, f"{r['stack_peak']:,} B")
    return goals


def issue_27_goals(opt, r, goal):
    """Issue #27's goals (the SVDF keyword model, the LSTM model): instructions against TFLM + CMSIS-NN (its SVDF or
    LSTM kernel), the RAM of the plan (arena, state, buffers outside it) against TFLM's arena (and, where known, TFLM's
    arena with its reference kernels, shown), bit-exact outputs (the report's first line), the stack."""
    if r["ratio_to_cmsis_nn"] is not None and opt == "O2":
        goal(f"instructions <= {GOAL_ISSUE_27_RATIO} x TFLM + CMSIS-NN at -O2", r["ratio_to_cmsis_nn"], GOAL_ISSUE_27_RATIO,
             f"{r['ratio_to_cmsis_nn']:.2f}x ({r['instructions']:,} for {r['cmsis_nn_instructions']:,}, limit "
             f"{GOAL_ISSUE_27_RATIO * r['cmsis_nn_instructions']:,.0f})")
    arena = OWN_PEER_ARENA.get(r["cpu_key"], {}).get(r["model"])
    if arena:
        ratio = r["total_ram"] / arena
        reference = OWN_PEER_REFERENCE_ARENA.get(r["cpu_key"], {}).get(r["model"])
        beside = f"; TFLM's reference kernels' arena {reference:,} B: {r['total_ram'] / reference:.2f}x" if reference else ""
        goal(f"RAM (arena + state) <= {GOAL_ISSUE_27_RAM} x TFLM's arena", ratio, GOAL_ISSUE_27_RAM,
             f"{ratio:.2f}x ({r['total_ram']:,} B for {arena:,} B, limit {GOAL_ISSUE_27_RAM * arena:,.0f} B{beside})")
    goal(f"peak stack <= {GOAL_STACK} B", r["stack_peak"], GOAL_STACK, f"{r['stack_peak']:,} B")


def millions(value):
    return f"{value / 1e6:.3f} M"


def optional(value, form):
    return "-" if value is None else form.format(value)


def print_report(r, out):
    c = r["calibration"]
    print(f"\n== {r['model'].upper()} ({r['name']}) on {r['cpu']} ({r['board']}), -{r['opt']}, {r['options']}: outputs {r['outputs_equal']}/{r['cases']} "
          f"equal to TFLM's byte for byte", file=out)
    print(f"calibration: {c['loop_instructions']:,} loop instructions in {c['ticks']:,} ticks = "
          f"{c['loop_instructions'] / c['ticks']:.4f} instructions per tick (used: {c['instructions_per_tick']})", file=out)
    tflm = "" if r["cmsis_nn_instructions"] is None else (
        f"; TFLM + CMSIS-NN ({r['peer']}) {millions(r['cmsis_nn_instructions'])}: {r['ratio_to_cmsis_nn']:.2f}x")
    if r["tflm_reference_instructions"] is not None:
        tflm += f"; TFLM reference kernels {millions(r['tflm_reference_instructions'])}"
    per_mac = f" = {r['instructions_per_mac']:.2f} per MAC" if r["macs"] else ""
    print(f"instructions: {millions(r['instructions'])} for {r['macs']:,} MACs{per_mac}{tflm}", file=out)
    if r["tflm_macs"] is not None and r["tflm_macs"] != r["macs"]:
        print(f"note: the README counts {r['tflm_macs']:,} MACs for this model", file=out)
    peer_columns = all("tflm_cmsis_nn" in l for l in r["layers"]) and r["layers"]
    peer_header = f" {'TFLM+CMSIS-NN':>14} {'ratio':>6} {'TFLM ref.':>12} {'ratio':>6}" if peer_columns else ""
    print(f"{'call':>4} {'kind':<17} {'kernel':>6} {'MACs':>11} {'instructions':>13} {'per MAC':>8}{peer_header}  result", file=out)
    for l in r["layers"]:
        kernel = f"{l['kernel'][0]}x{l['kernel'][1]}" if l["macs"] and l["kind"] not in ("dense", "svdf", "sequence_lstm") else ""
        per = optional(l["per_mac"], "{:.2f}") if l["macs"] else f"{l['instructions'] / max(l['elements'], 1):.1f}/el"
        place = " (in place)" if l["in_place"] else ""
        peer = (f" {l['tflm_cmsis_nn']:>14,} {l['instructions'] / l['tflm_cmsis_nn']:>5.2f}x {l['tflm_reference']:>12,} "
                f"{l['instructions'] / l['tflm_reference']:>5.2f}x" if peer_columns else "")
        print(f"{l['call']:>4} {l['kind']:<17} {kernel:>6} {l['macs']:>11,} {l['instructions']:>13,} {per:>8}{peer}  {l['result']}{place}", file=out)
    print(f"{'':>4} {'(between calls)':<17} {'':>6} {'':>11} {r['instructions_outside_calls']:>13,}  executor and the per-call hook "
          f"(inference with the hook: {r['observed_instructions']:,})", file=out)
    source = ("none for this core" if r["cpu_key"] in PEER_LABEL
              else "TFLM + CMSIS-NN and TFLM's reference kernels per operator, OWN_PEER_PER_OP" if r["model"] in OWN_MODELS
              else "the README per-operator figures, Cortex-M4 -O2")
    print(f"by op kind (CMSIS-NN: {source}):", file=out)
    for k in r["op_kinds"]:
        cmsis = "" if k["cmsis_nn_instructions"] is None else (
            f"; CMSIS-NN {k['cmsis_nn_instructions']:,} ({k['ratio_to_cmsis_nn']:.2f}x)")
        if k.get("tflm_reference_instructions") and r["model"] in OWN_MODELS:
            cmsis += (f"; TFLM reference {k['tflm_reference_instructions']:,} "
                      f"({k['instructions'] / k['tflm_reference_instructions']:.2f}x)")
        per = f"{k['per_mac']:.2f}/MAC" if k["per_mac"] is not None else f"{k['instructions'] / max(k['elements'], 1):.1f}/element"
        print(f"  {k['kind']:<17} {k['calls']:>3} calls {k['instructions']:>13,} instructions, {per}{cmsis}", file=out)
    s = r["sizes"]
    print(f".text {s['text']:,} B: ctnn {s['text_ctnn']:,}, other {s['text_other']:,} (newlib, start-up, harness)", file=out)
    print(f".rodata {s['rodata']:,} B: model {s['rodata_model']:,} (file literal {s['rodata_model_file']:,}, ctnn constants "
          f"{s['rodata_ctnn_constants']:,}), reference cases {s['rodata_reference_cases']:,}, other {s['rodata_other']:,}; "
          f"weights and biases {r['constant_bytes']:,}, requantization tables {r['requantization_bytes']:,}", file=out)
    print(f".bss {s['bss']:,} B: ctnn {s['bss_ctnn']:,} (arena {r['arena_bytes']:,}), other {s['bss_other']:,}; "
          f"RAM of the plan {r['total_ram']:,} B; peak stack of an inference {r['stack_peak']:,} B", file=out)
    print(f"goals (issue #{MODEL_ISSUE.get(r['model'], 13)}):", file=out)
    for g in r["goals"]:
        print(f"  [{'met' if g['met'] else 'NOT met':>7}] {g['goal']}: {g['shown']}", file=out)


def print_table(results, out):
    print("\n| model | core | opt | options | instructions | per MAC | TFLM + CMSIS-NN | peer | ratio | ctnn .text | model .rodata | RAM | stack | outputs |", file=out)
    print("|---|---|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---|", file=out)
    for r in results:
        cmsis = optional(r["cmsis_nn_instructions"], "{:,}")
        ratio = optional(r["ratio_to_cmsis_nn"], "{:.2f}x")
        print(f"| {r['model'].upper()} | {r['cpu']} | -{r['opt']} | {r['options']} | {r['instructions']:,} | {optional(r['instructions_per_mac'], '{:.2f}')} | {cmsis} | {r['peer']} | {ratio} | "
              f"{r['sizes']['text_ctnn']:,} | {r['sizes']['rodata_model']:,} | {r['total_ram']:,} | {r['stack_peak']:,} | "
              f"{r['outputs_equal']}/{r['cases']} |", file=out)
    met = sum(g["met"] for r in results for g in r["goals"])
    print(f"\ngoals met: {met} of {sum(len(r['goals']) for r in results)}", file=out)


def patch_stage_instructions(r):
    """Instructions and calls of a patched build's patch stage: the calls up to its last paste (the prefix
    starts at op 0, and every op after the prefix reads the whole output the last paste completes)."""
    pastes = [layer["call"] for layer in r["layers"] if layer["kind"] == "paste"]
    if not pastes:
        return 0, 0
    stage = r["layers"][:pastes[-1] + 1]
    return sum(layer["instructions"] for layer in stage), len(stage)


def print_patch_table(results, out):
    """(--patches) Each model with and without the patch stage, side by side."""
    print("\n| model | core | opt | calls | instructions | per MAC | MACs | RAM (B) | patch stage: calls, instructions | outputs |", file=out)
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---|", file=out)
    for r in results:
        stage = "-"
        if r["options"].endswith("patches"):
            instructions, calls = patch_stage_instructions(r)
            stage = f"{calls} calls, {instructions:,}" if calls else "none (not kept)"
        print(f"| {r['model'].upper()} {r['options']} | {r['cpu']} | -{r['opt']} | {len(r['layers'])} | {r['instructions']:,} | "
              f"{optional(r['instructions_per_mac'], '{:.2f}')} | {r['macs']:,} | {r['total_ram']:,} | {stage} | {r['outputs_equal']}/{r['cases']} |", file=out)
    pairs = {}
    for r in results:
        pairs.setdefault((r["model"], r["cpu"], r["opt"]), {})[r["options"]] = r
    for (model, cpu, opt), pair in pairs.items():
        whole, patched = pair.get("reuse+io"), pair.get("reuse+io+patches")
        if whole and patched:
            print(f"{model.upper()} {cpu} -{opt}: patches {patched['instructions'] / whole['instructions']:.3f}x the instructions, "
                  f"{patched['total_ram'] / whole['total_ram']:.3f}x the RAM ({patched['total_ram']:,} B for {whole['total_ram']:,} B)", file=out)


# The recorded figures (--record writes them, --markdown and --check-docs read them): one row per model, core,
# level and memory options, the fields of ROW_FIELDS. The docs' Cortex-M tables are made from them, not typed.
RESULTS_FILE = SOURCE_DIR / "results.json"
ROW_FIELDS = ("model", "cpu_key", "cpu", "board", "opt", "options", "instructions", "macs", "peer", "cmsis_nn_instructions",
              "outputs_equal", "cases", "text_ctnn", "rodata_model", "total_ram", "stack_peak")
# The generated tables: name -> (document, what it holds). In the document each sits between the lines
# "<!-- generated: python3 benchmarks/cortex_m/run.py --markdown <name> ... -->" and "<!-- end of <name> -->".
DOC_TABLES = {"readme": (ROOT / "README.md", "the Cortex-M4, -O2 and -Os"),
              "cores": (ROOT / "docs" / "benchmarks.md", "every core at -O2, each against TFLM + CMSIS-NN on the same core")}
TABLE_MODELS = ("kws", "vww", "ic", "ad")


def row_of(result):
    """A result (a run's, or a line of --json output) as a recorded row; the peer of a core of PEER_LABEL is taken
    from this file's tables (a row recorded before its core's figures were, gets them)."""
    row = {field: result[field] for field in ROW_FIELDS if field in result and field not in ("text_ctnn", "rodata_model")}
    if "sizes" in result:
        row["text_ctnn"], row["rodata_model"] = result["sizes"]["text_ctnn"], result["sizes"]["rodata_model"]
    else:
        row["text_ctnn"], row["rodata_model"] = result["text_ctnn"], result["rodata_model"]
    if row["cpu_key"] in PEER_LABEL and row["model"] in TABLE_MODELS:
        row["peer"], row["cmsis_nn_instructions"] = core_peer(row["model"], row["cpu_key"], row["opt"])
    return row


def load_rows(files):
    """Rows from recorded files (a JSON list) or run.py --json output (one object per line), later files winning."""
    rows = {}
    for file in files:
        text = Path(file).read_text()
        items = json.loads(text) if text.lstrip().startswith("[") else [json.loads(l) for l in text.splitlines() if l.strip()]
        for item in items:
            row = row_of(item)
            rows[(row["cpu_key"], row["opt"], row["model"], row["options"])] = row
    return rows


def record_rows(rows, file):
    """Merges rows into the recorded file (sorted: core, level, model)."""
    merged = load_rows([file]) if Path(file).exists() else {}
    merged.update(rows)
    order = {key: k for k, key in enumerate(CPUS)}
    models = {key: k for k, key in enumerate(MODELS)}
    ordered = sorted(merged.values(), key=lambda r: (order.get(r["cpu_key"], 99), r["opt"], models.get(r["model"], 99), r["options"]))
    Path(file).write_text("[\n" + ",\n".join(json.dumps(r) for r in ordered) + "\n]\n")


def firmware_row(rows, cpu, opt, model):
    """The row of the firmware build (memory_reuse, io_in_arena, in_place_windows), or None."""
    return rows.get((cpu, opt, model, "reuse+io+win"))


def megas(value):
    return f"{value / 1e6:.3f} M" if value < 1e6 else f"{value / 1e6:.2f} M"


def markdown_table(name, rows):
    """The lines of a generated table (DOC_TABLES) from the recorded rows; "–" where a figure is missing."""
    if name == "readme":
        lines = ["| model | ctnn, Cortex-M4 -O2 | TFLM + CMSIS-NN | ratio | ctnn -Os | RAM (plan) | peak stack |",
                 "|---|---:|---:|---:|---:|---:|---:|"]
        for model in TABLE_MODELS:
            o2, os_ = firmware_row(rows, "m4", "O2", model), firmware_row(rows, "m4", "Os", model)
            if o2 is None:
                continue
            peer = o2["cmsis_nn_instructions"]
            ratio = f"{o2['instructions'] / peer:.2f}×" if peer else "–"
            small = "–" if os_ is None else (megas(os_["instructions"]) + (f" ({os_['instructions'] / peer:.2f}×)" if peer else ""))
            lines.append(f"| {model.upper()} | {megas(o2['instructions'])} | {megas(peer) if peer else '–'} | {ratio} | {small} | "
                         f"{o2['total_ram']:,} B | {o2['stack_peak']:,} B |")
        return lines
    lines = ["| model | core | qemu board | ctnn -O2 | per MAC | TFLM + CMSIS-NN, same core -O2 | ctnn ÷ peer | ctnn .text | "
             "RAM (plan) | outputs equal |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for cpu in CPUS:
        for model in TABLE_MODELS:
            r = firmware_row(rows, cpu, "O2", model)
            if r is None:
                continue
            peer = r["cmsis_nn_instructions"]
            ratio = f"{r['instructions'] / peer:.2f}×" if peer else "–"
            per_mac = f"{r['instructions'] / r['macs']:.2f}" if r["macs"] else "–"
            lines.append(f"| {model.upper()} | {CORE_NAME[cpu]} | {r['board']} | {r['instructions']:,} | {per_mac} | "
                         f"{f'{peer:,}' if peer else '–'} | {ratio} | {r['text_ctnn']:,} B | {r['total_ram']:,} B | "
                         f"{r['outputs_equal']}/{r['cases']} |")
    return lines


def doc_block(text, name):
    """(start, end) line indices of the generated table `name` in a document's lines (between its markers), or None."""
    lines = text.splitlines()
    begin = next((k for k, l in enumerate(lines) if l.startswith(f"<!-- generated: python3 benchmarks/cortex_m/run.py --markdown {name} ")), None)
    end = next((k for k, l in enumerate(lines) if l.strip() == f"<!-- end of {name} -->"), None)
    return None if begin is None or end is None or end < begin else (begin + 1, end)


def check_docs(rows, write):
    """Compares (or, write, replaces) each generated table of DOC_TABLES with the one the rows give; the problems."""
    problems = []
    for name, (document, _) in DOC_TABLES.items():
        text = document.read_text()
        block = doc_block(text, name)
        if block is None:
            problems.append(f"{document.relative_to(ROOT)}: no generated table {name} (its two marker lines)")
            continue
        lines = text.splitlines()
        wanted = markdown_table(name, rows)
        if name == "readme" and len(wanted) < 2 + len(TABLE_MODELS):
            problems.append(f"the record has no Cortex-M4 -O2 figures for some of {', '.join(TABLE_MODELS)} (README's table)")
        if lines[block[0]:block[1]] == wanted:
            continue
        if write:
            lines[block[0]:block[1]] = wanted
            document.write_text("\n".join(lines) + "\n")
            print(f"{document.relative_to(ROOT)}: table {name} rewritten")
        else:
            problems.append(f"{document.relative_to(ROOT)}: table {name} differs from the recorded figures "
                            f"({RESULTS_FILE.relative_to(ROOT)}); it should read:\n" + "\n".join(wanted))
    return problems


def parse_list(text, allowed, what):
    items = [item.strip() for item in text.split(",") if item.strip()]
    unknown = [item for item in items if item not in allowed]
    if unknown or not items:
        raise argparse.ArgumentTypeError(f"{what}: {', '.join(unknown) or '(none)'} not among {', '.join(allowed)}")
    return items


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", type=lambda t: parse_list(t, MODELS, "--models"),
                        default=[k for k in MODELS if not k.endswith("_qdq")],
                        help=f"comma-separated: {','.join(MODELS)} (default: all but the QDQ renderings)")
    parser.add_argument("--opt", type=lambda t: parse_list(t, OPTS, "--opt"), default=list(OPTS), help="O2,Os (default: both)")
    parser.add_argument("--cpu", type=lambda t: parse_list(t, CPUS, "--cpu"), default=["m4"],
                        help=f"{','.join(CPUS)} (default: m4); qemu 7.2 has no Cortex-M85 board or CPU, so no m85; the M0+ "
                             "runs on mps2-an385, a Cortex-M3")
    parser.add_argument("--patches", action="store_true",
                        help="build each model with memory_reuse + io_in_arena without and with the automatic patch stage "
                             "instead of the firmware options, and compare them")
    parser.add_argument("--json", action="store_true", help="print one JSON object per model (and run) instead of the report")
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build" / "cortex-m-bench",
                        help="where the programs are built, one folder per core and level (default: build/cortex-m-bench)")
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared", help="the shared reference data (default: ../shared)")
    parser.add_argument("--jobs", type=int, default=1, help="parallel compile jobs (default 1: each model takes a lot of memory)")
    parser.add_argument("--timeout", type=int, default=600, help="seconds per program under qemu (default 600)")
    parser.add_argument("--record", type=Path, nargs="?", const=RESULTS_FILE,
                        help=f"merge this run's figures into the recorded file (default {RESULTS_FILE.relative_to(ROOT)})")
    parser.add_argument("--from", dest="from_files", type=Path, nargs="+",
                        help="take the figures from these files (recorded, or --json output) instead of building and running")
    parser.add_argument("--markdown", nargs="?", const="all", choices=("all", *DOC_TABLES),
                        help="print the docs' generated tables (readme: README's Cortex-M4 table; cores: docs/benchmarks.md's "
                             "per-core table) from the recorded figures (--from's; with --record, after this run's); "
                             "builds and runs nothing without --record")
    parser.add_argument("--check-docs", action="store_true",
                        help="check that README.md's and docs/benchmarks.md's generated tables are the recorded figures' "
                             "(--from, default the recorded file); exit 1 if not")
    parser.add_argument("--write-docs", action="store_true", help="rewrite those tables from the figures")
    args = parser.parse_args()

    # --markdown prints the tables of recorded figures: --from's, else the record (after this run's, with --record).
    if args.from_files or args.check_docs or args.write_docs or (args.markdown and not args.record):
        rows = load_rows(args.from_files or [RESULTS_FILE])
        if args.record:
            record_rows(rows, args.record)
        if args.markdown:
            for name in DOC_TABLES if args.markdown == "all" else [args.markdown]:
                print("\n".join(markdown_table(name, rows)) + "\n")
        if args.check_docs or args.write_docs:
            problems = check_docs(rows, args.write_docs)
            for problem in problems:
                print(problem, file=sys.stderr)
            if problems:
                return 1
            print(f"cortex-m tables: {len(DOC_TABLES)} generated tables match {len(rows)} recorded rows")
        return 0

    try:
        mlperf = args.shared / "models" / "mlperf-tiny"
        for key in args.models:
            if key not in OWN_MODELS and not (mlperf / "refs" / MODELS[key][0] / "output_3.bin").exists():
                raise Skip(f"{mlperf}/refs/{MODELS[key][0]} not found (give --shared)")
        args.cmake, args.qemu = tool("cmake"), tool("qemu-system-arm")
        tool("arm-none-eabi-g++")
        args.size, args.nm = tool("arm-none-eabi-size"), tool("arm-none-eabi-nm")
    except Skip as skip:
        print(f"SKIP: {skip}")
        return 0
    args.shared = args.shared.resolve()
    tflm = read_tflm_figures(mlperf / "README.md")

    log = sys.stderr if args.json else sys.stdout
    results = []
    for cpu in args.cpu:
        for opt in args.opt:
            build_dir = args.build_dir / f"{cpu}-{opt}"
            builds = PATCH_BUILDS if args.patches else FIRMWARE_BUILDS
            build(build_dir, cpu, opt, args.models, builds, args, log)
            for key in args.models:
                for name in builds:
                    elf = build_dir / f"cm_bench_{key}{name}.elf"
                    records = run_on_qemu(elf, CPUS[cpu][1], args)
                    per_call = run_on_qemu(build_dir / f"cm_bench_{key}{name}_calls.elf", CPUS[cpu][1], args)
                    result = summarise(key, cpu, opt, CPUS[cpu][1], records, per_call, sizes_of(elf, args), tflm)
                    result["exit_status"] = records["exit_status"] or per_call["exit_status"]
                    results.append(result)
                    if args.json:
                        print(json.dumps(result))
                    else:
                        print_report(result, sys.stdout)
                    sys.stdout.flush()
    if not args.json:
        print_table(results, sys.stdout)
        if args.patches:
            print_patch_table(results, sys.stdout)
    rows = {}
    for r in results:
        row = row_of(r)
        rows[(row["cpu_key"], row["opt"], row["model"], row["options"])] = row
    if args.record and not args.patches:
        record_rows(rows, args.record)
    if args.markdown:
        recorded = load_rows([args.record])
        for name in DOC_TABLES if args.markdown == "all" else [args.markdown]:
            print("\n".join(markdown_table(name, recorded)) + "\n", file=log)
    failed = [f"{r['model']} ({r['cpu']} -{r['opt']})" for r in results
              if r["outputs_equal"] != r["cases"] or not r["hook_complete"] or r["exit_status"] != 0]
    if failed:
        print(f"run.py: outputs differ from TFLM's, the per-call hook missed calls, or the program failed: {', '.join(failed)}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
