#!/usr/bin/env python3
"""Issue #25's per-op table: for one representative int8 case of each TFLite operator ctnn maps (the largest
single-operator int8 case of tests/data/ops/<family>/, by the bytes of its inputs and outputs), the instructions of
ctnn's kernel call(s) on the Cortex-M4 at -O2 against those of TFLM's reference kernel for the same operator.

ctnn: the cases compiled by ctnn::compile for the Cortex-M4 (benchmarks/cortex_m/CMakeLists.txt's cm_op_table_<n>
programs, CTNN_OP_TABLE_CASES), run on mps2-an386 under qemu -icount shift=0, the SysTick ticks of the kernel calls
summed by the executor's per-call hook (op_table_counter.hpp; the executor's work between calls left out, as run.py
counts calls), per run of the case; outputs compared with the case's (tests/baremetal/op_case.hpp: integers exact).
TFLM: OP_TABLE_PEER below, TFLM's reference kernels counted the same way by build_peer.py --reference --op-case
(the MicroProfiler's figure per operator, summed), outputs equal to the case's; with --tflm the script measures them
again and prints the dictionary to paste.

  python3 benchmarks/cortex_m/op_table.py                     # ctnn's side; TFLM's from OP_TABLE_PEER
  python3 benchmarks/cortex_m/op_table.py --tflm /work/oracle/tflm --peer-out /tmp/op_table_peer

Standard library only. Needs arm-none-eabi-g++, qemu-system-arm, cmake and ninja.
"""
import argparse
import json
import shutil
import struct
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE_DIR = ROOT / "benchmarks" / "cortex_m"
OPS_DIR = ROOT / "tests" / "data" / "ops"

# TFLM 90b983c2b's reference kernels (tensorflow/lite/micro/kernels/<op>.cc) built for the Cortex-M4 at -O2 by
# build_peer.py --reference --op-case (arm-none-eabi-g++ 12, -mcpu=cortex-m4 -mfloat-abi=hard), run on mps2-an386 under
# qemu -icount shift=0; instructions of the profiled Invoke() (the case's last run), the MicroProfiler's per-operator
# figures summed (SysTick: +-40 instructions per operator); every output equal to the case's. Regenerated with --tflm
# (2026-12-06). None: TFLM has no kernel of the operator (RELU_N1_TO_1, RELU_0_TO_1: ctnn's own, docs/frontends.md).
# SVDF and UNIDIRECTIONAL_SEQUENCE_LSTM: the case's last run (ctnn's figure: its runs' mean).
OP_TABLE_PEER = {
    "unary/abs_i8_zp_extremes": ("ABS", 13_680),
    "int16/add_i8_32x32x16": ("ADD", 1_668_920),
    "spatial/add_n_i8_four_rank4": ("ADD_N", 3_120),
    "reduce/arg_max_i8_rank5": ("ARG_MAX", 2_000),
    "reduce/arg_min_i8_rank5": ("ARG_MIN", 2_000),
    "int16/avg_pool_i8_32x32x16_same_s2": ("AVERAGE_POOL_2D", 1_684_680),
    "transpose_conv/bmm_i8_rank5_broadcast_both": ("BATCH_MATMUL", 9_480),
    "spatial/batch_to_space_i8_rank4": ("BATCH_TO_SPACE_ND", 2_920),
    "spatial/broadcast_to_i8_int64_shape": ("BROADCAST_TO", 1_400),
    "logic/cast_i8_to_i32": ("CAST", 400),
    "int16/concatenation_i8_32x32x16": ("CONCATENATION", 90_840),
    "linear/conv_i8_bias_axis3": ("CONV_2D", 112_480),
    "gather/cumsum_i8_exclusive_reverse": ("CUMSUM", 3_640),
    "linear/depthwise_i8_bias_axis0": ("DEPTHWISE_CONV_2D", 156_440),
    "shape/depth_to_space_i8_block3": ("DEPTH_TO_SPACE", 9_200),
    "logic/div_i8_q2": ("DIV", 3_920),
    "gather/dynamic_update_slice_i8_clamped_int64_start": ("DYNAMIC_UPDATE_SLICE", 720),
    "activation/elu_i8_every_value": ("ELU", 2_320),
    "gather/embedding_lookup_i8_rank3": ("EMBEDDING_LOOKUP", 280),
    "logic/equal_i8_2x3x4": ("EQUAL", 2_280),
    "shape/expand_dims_i8_middle": ("EXPAND_DIMS", 240),
    "gather/fill_i8_int64_dims": ("FILL", 280),
    "int16/fully_connected_i8_256_to_64": ("FULLY_CONNECTED", 118_880),
    "shape/gather_i8_rank4": ("GATHER", 1_000),
    "gather/gather_nd_i8_slices_constant": ("GATHER_ND", 480),
    "logic/greater_i8_1x2x3x4": ("GREATER", 3_040),
    "logic/greater_equal_i8_2x2x2x2x3": ("GREATER_EQUAL", 6_880),
    "activation/hard_swish_i8_every_value": ("HARD_SWISH", 25_600),
    "spatial/l2_norm_i8_rank3_zero_point_max": ("L2_NORMALIZATION", 7_880),
    "activation/leaky_relu_i8_every_value": ("LEAKY_RELU", 13_160),
    "logic/less_i8_3x1x4": ("LESS", 6_320),
    "logic/less_equal_i8_33": ("LESS_EQUAL", 2_880),
    "int16/logistic_i8_32x32x16": ("LOGISTIC", 5_982_320),
    "transpose_conv/log_softmax_i8_coarse_scale": ("LOG_SOFTMAX", 5_560),
    "activation/maximum_i8_broadcast": ("MAXIMUM", 2_600),
    "int16/max_pool_i8_32x32x16_valid_s2": ("MAX_POOL_2D", 1_046_000),
    "reduce/mean_i8_rank4_hw_keep_q0": ("MEAN", 21_240),
    "activation/minimum_i8_broadcast": ("MINIMUM", 2_600),
    "spatial/mirror_pad_i8_symmetric_rank3": ("MIRROR_PAD", 27_640),
    "int16/mul_i8_32x32x16_relu": ("MUL", 828_280),
    "logic/not_equal_i8_5x7": ("NOT_EQUAL", 3_400),
    "shape/pack_i8_rank4": ("PACK", 680),
    "int16/pad_i8_32x32x16": ("PAD", 701_360),
    "transpose_conv/padv2_i8_value": ("PADV2", 2_840),
    "activation/prelu_i8_constant_alpha": ("PRELU", 4_440),
    "int16/quantize_i8_to_i32": ("QUANTIZE", 1_520),
    "int16/quantize_i8_to_u8_shift128": ("QUANTIZE", 1_440),
    "reduce/reduce_max_i8_rank4_hw_keep_q0": ("REDUCE_MAX", 21_000),
    "reduce/reduce_min_i8_rank4_hw_keep_q0": ("REDUCE_MIN", 21_000),
    "int16/relu_i8_32x32x16": ("RELU", 841_560),
    "int16/relu6_i8_32x32x16": ("RELU6", 196_120),
    "activation/relu_0_to_1_i8_every_value": ("RELU_0_TO_1", None),
    "activation/relu_n1_to_1_i8_every_value": ("RELU_N1_TO_1", None),
    "int16/reshape_i8_32x32x16": ("RESHAPE", 8_920),
    "spatial/resize_bilinear_i8_24x24x32_up2": ("RESIZE_BILINEAR", 10_147_960),
    "spatial/resize_bilinear_i8_half_pixel_down": ("RESIZE_BILINEAR", 9_440),
    "spatial/resize_nearest_i8_24x24x32_up2": ("RESIZE_NEAREST_NEIGHBOR", 217_520),
    "spatial/resize_nearest_i8_both_flags": ("RESIZE_NEAREST_NEIGHBOR", 4_360),
    "gather/reverse_i8_rank4_axes_1_2": ("REVERSE_V2", 840),
    "unary/rsqrt_i8_basic": ("RSQRT", 118_480),
    "logic/select_v2_i8": ("SELECT_V2", 1_080),
    "shape/slice_i8_rank2": ("SLICE", 1_160),
    "int16/softmax_i8_32x64": ("SOFTMAX", 915_280),
    "spatial/space_to_batch_i8_zero_point_127": ("SPACE_TO_BATCH_ND", 4_880),
    "shape/space_to_depth_i8_block3": ("SPACE_TO_DEPTH", 2_920),
    "shape/split_i8_rank1": ("SPLIT", 400),
    "shape/split_v_i8_rank5": ("SPLIT_V", 1_200),
    "logic/squared_difference_i8_q1": ("SQUARED_DIFFERENCE", 13_360),
    "shape/squeeze_i8_rank4": ("SQUEEZE", 280),
    "shape/strided_slice_i8_rank4": ("STRIDED_SLICE", 1_520),
    "binary/sub_i8_rank5_q0": ("SUB", 21_560),
    "reduce/sum_i8_rank4_hw_keep_q0": ("SUM", 21_160),
    "state/svdf_i8_state_i16_rank1": ("SVDF", 6_120),
    "int16/tanh_i8_32x32x16": ("TANH", 6_122_200),
    "shape/transpose_i8_rank4": ("TRANSPOSE", 880),
    "transpose_conv/tconv_i8_same_s2_per_channel_relu6": ("TRANSPOSE_CONV", 149_200),
    "state/lstm_i8_20_steps_16_cells": ("UNIDIRECTIONAL_SEQUENCE_LSTM", 680_320),
    "shape/unpack_i8_rank1": ("UNPACK", 440),
    "gather/zeros_like_i8": ("ZEROS_LIKE", 320),
}

# schema.fbs's BuiltinOperator (the codes up to 160).
BUILTIN = {0: 'ADD', 1: 'AVERAGE_POOL_2D', 2: 'CONCATENATION', 3: 'CONV_2D', 4: 'DEPTHWISE_CONV_2D', 5: 'DEPTH_TO_SPACE', 6: 'DEQUANTIZE', 7: 'EMBEDDING_LOOKUP', 8: 'FLOOR', 9: 'FULLY_CONNECTED', 10: 'HASHTABLE_LOOKUP', 11: 'L2_NORMALIZATION', 12: 'L2_POOL_2D', 13: 'LOCAL_RESPONSE_NORMALIZATION', 14: 'LOGISTIC', 15: 'LSH_PROJECTION', 16: 'LSTM', 17: 'MAX_POOL_2D', 18: 'MUL', 19: 'RELU', 20: 'RELU_N1_TO_1', 21: 'RELU6', 22: 'RESHAPE', 23: 'RESIZE_BILINEAR', 24: 'RNN', 25: 'SOFTMAX', 26: 'SPACE_TO_DEPTH', 27: 'SVDF', 28: 'TANH', 29: 'CONCAT_EMBEDDINGS', 30: 'SKIP_GRAM', 31: 'CALL', 32: 'CUSTOM', 33: 'EMBEDDING_LOOKUP_SPARSE', 34: 'PAD', 35: 'UNIDIRECTIONAL_SEQUENCE_RNN', 36: 'GATHER', 37: 'BATCH_TO_SPACE_ND', 38: 'SPACE_TO_BATCH_ND', 39: 'TRANSPOSE', 40: 'MEAN', 41: 'SUB', 42: 'DIV', 43: 'SQUEEZE', 44: 'UNIDIRECTIONAL_SEQUENCE_LSTM', 45: 'STRIDED_SLICE', 46: 'BIDIRECTIONAL_SEQUENCE_RNN', 47: 'EXP', 48: 'TOPK_V2', 49: 'SPLIT', 50: 'LOG_SOFTMAX', 51: 'DELEGATE', 52: 'BIDIRECTIONAL_SEQUENCE_LSTM', 53: 'CAST', 54: 'PRELU', 55: 'MAXIMUM', 56: 'ARG_MAX', 57: 'MINIMUM', 58: 'LESS', 59: 'NEG', 60: 'PADV2', 61: 'GREATER', 62: 'GREATER_EQUAL', 63: 'LESS_EQUAL', 64: 'SELECT', 65: 'SLICE', 66: 'SIN', 67: 'TRANSPOSE_CONV', 68: 'SPARSE_TO_DENSE', 69: 'TILE', 70: 'EXPAND_DIMS', 71: 'EQUAL', 72: 'NOT_EQUAL', 73: 'LOG', 74: 'SUM', 75: 'SQRT', 76: 'RSQRT', 77: 'SHAPE', 78: 'POW', 79: 'ARG_MIN', 80: 'FAKE_QUANT', 81: 'REDUCE_PROD', 82: 'REDUCE_MAX', 83: 'PACK', 84: 'LOGICAL_OR', 85: 'ONE_HOT', 86: 'LOGICAL_AND', 87: 'LOGICAL_NOT', 88: 'UNPACK', 89: 'REDUCE_MIN', 90: 'FLOOR_DIV', 91: 'REDUCE_ANY', 92: 'SQUARE', 93: 'ZEROS_LIKE', 94: 'FILL', 95: 'FLOOR_MOD', 96: 'RANGE', 97: 'RESIZE_NEAREST_NEIGHBOR', 98: 'LEAKY_RELU', 99: 'SQUARED_DIFFERENCE', 100: 'MIRROR_PAD', 101: 'ABS', 102: 'SPLIT_V', 103: 'UNIQUE', 104: 'CEIL', 105: 'REVERSE_V2', 106: 'ADD_N', 107: 'GATHER_ND', 108: 'COS', 109: 'WHERE', 110: 'RANK', 111: 'ELU', 112: 'REVERSE_SEQUENCE', 113: 'MATRIX_DIAG', 114: 'QUANTIZE', 115: 'MATRIX_SET_DIAG', 116: 'ROUND', 117: 'HARD_SWISH', 118: 'IF', 119: 'WHILE', 120: 'NON_MAX_SUPPRESSION_V4', 121: 'NON_MAX_SUPPRESSION_V5', 122: 'SCATTER_ND', 123: 'SELECT_V2', 124: 'DENSIFY', 125: 'SEGMENT_SUM', 126: 'BATCH_MATMUL', 127: 'PLACEHOLDER_FOR_GREATER_OP_CODES', 128: 'CUMSUM', 129: 'CALL_ONCE', 130: 'BROADCAST_TO', 131: 'RFFT2D', 132: 'CONV_3D', 133: 'IMAG', 134: 'REAL', 135: 'COMPLEX_ABS', 136: 'HASHTABLE', 137: 'HASHTABLE_FIND', 138: 'HASHTABLE_IMPORT', 139: 'HASHTABLE_SIZE', 140: 'REDUCE_ALL', 141: 'CONV_3D_TRANSPOSE', 142: 'VAR_HANDLE', 143: 'READ_VARIABLE', 144: 'ASSIGN_VARIABLE', 145: 'BROADCAST_ARGS', 146: 'RANDOM_STANDARD_NORMAL', 147: 'BUCKETIZE', 148: 'RANDOM_UNIFORM', 149: 'MULTINOMIAL', 150: 'GELU', 151: 'DYNAMIC_UPDATE_SLICE', 152: 'RELU_0_TO_1', 153: 'UNSORTED_SEGMENT_PROD', 154: 'UNSORTED_SEGMENT_MAX', 155: 'UNSORTED_SEGMENT_SUM', 156: 'ATAN2', 157: 'UNSORTED_SEGMENT_MIN', 158: 'SIGN', 159: 'BITCAST', 160: 'BITWISE_XOR'}
TENSOR_TYPES = {0: "f32", 2: "i32", 3: "u8", 4: "i64", 6: "bool", 7: "i16", 9: "i8"}
INT8 = 9


class Flatbuffer:
    """A minimal reader of a .tflite file: tables, vectors, scalars (schema.fbs)."""

    def __init__(self, data):
        self.data = data

    def u32(self, at):
        return struct.unpack_from("<I", self.data, at)[0]

    def field(self, table, index):
        vtable = table - struct.unpack_from("<i", self.data, table)[0]
        size = struct.unpack_from("<H", self.data, vtable)[0]
        if 4 + 2 * index >= size:
            return None
        offset = struct.unpack_from("<H", self.data, vtable + 4 + 2 * index)[0]
        return table + offset if offset else None

    def tables(self, table, index):
        at = self.field(table, index)
        if at is None:
            return []
        vector = at + self.u32(at)
        return [vector + 4 + 4 * k + self.u32(vector + 4 + 4 * k) for k in range(self.u32(vector))]

    def ints(self, table, index):
        at = self.field(table, index)
        if at is None:
            return []
        vector = at + self.u32(at)
        return list(struct.unpack_from(f"<{self.u32(vector)}i", self.data, vector + 4))

    def scalar(self, table, index, form, default=0):
        at = self.field(table, index)
        return default if at is None else struct.unpack_from(form, self.data, at)[0]


def describe(model_path):
    """(operator names, [(type, shape) of the first operator's inputs and outputs]) of a one-subgraph model."""
    fb = Flatbuffer(model_path.read_bytes())
    model = fb.u32(0)
    codes = []
    for code in fb.tables(model, 1):
        codes.append(max(fb.scalar(code, 0, "<b"), fb.scalar(code, 3, "<i")))
    subgraph = fb.tables(model, 2)[0]
    tensors = [(fb.scalar(t, 1, "<b"), fb.ints(t, 0)) for t in fb.tables(subgraph, 0)]
    operators = fb.tables(subgraph, 3)
    names = [BUILTIN.get(codes[fb.scalar(op, 0, "<I")], "?") for op in operators]
    first = operators[0]
    operands = [tensors[i] for i in fb.ints(first, 1) + fb.ints(first, 2) if i >= 0]
    return names, operands, [tensors[i] for i in fb.ints(first, 1) if i >= 0]


def select_cases():
    """The largest int8 single-operator case of each operator: {operator: (case folder, input shapes)}."""
    best = {}
    for model in sorted(OPS_DIR.glob("*/*/model.tflite")):
        case = model.parent
        try:
            names, operands, inputs = describe(model)
        except (struct.error, IndexError):
            continue
        if not operands:  # a first operator without tensors (CALL_ONCE): not a single-operator case
            continue
        # int8 activations: the first input or output int8, no float32 operand (an int16 state or bias is fine).
        activations = {operands[0][0], operands[len(inputs)][0] if len(operands) > len(inputs) else operands[0][0]}
        if len(set(names)) != 1 or INT8 not in activations or 7 in activations or 0 in {t for t, _ in operands}:
            continue
        size = sum(p.stat().st_size for p in case.glob("*put_*.bin"))
        if size > best.get(names[0], (None, -1))[1]:
            best[names[0]] = (case, size, [shape for _, shape in inputs])
    return {op: (case, shapes) for op, (case, _, shapes) in sorted(best.items())}


def run_qemu(elf, timeout):
    result = subprocess.run(["qemu-system-arm", "-M", "mps2-an386", "-icount", "shift=0", "-nographic", "-monitor", "none",
                             "-semihosting-config", "enable=on,target=native", "-kernel", str(elf)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
    return result.stdout


def measure_ctnn(cases, args):
    """{case key: {"instructions", "calls", "equal"}} from the cm_op_table_<n> programs."""
    build_dir = args.build_dir
    per_program = 8
    toolchain = ROOT / "cmake" / "toolchains" / "arm-none-eabi-cortex-m4.cmake"
    command = ["cmake", "-S", str(SOURCE_DIR), "-B", str(build_dir), f"-DCMAKE_TOOLCHAIN_FILE={toolchain}",
               "-DCTNN_BAREMETAL_OPTIMIZATION=-O2", f"-DCTNN_OP_TABLE_CASES={';'.join(str(c) for c in cases)}",
               f"-DCTNN_OP_TABLE_PER_PROGRAM={per_program}", f"-DCTNN_SHARED_DIR={build_dir / 'no-shared'}", "-G", "Ninja"]
    if (build_dir / "CMakeCache.txt").exists():
        command.remove("-G")
        command.remove("Ninja")
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    programs = [f"cm_op_table_{n}" for n in range((len(cases) + per_program - 1) // per_program)]
    subprocess.run(["cmake", "--build", str(build_dir), "--parallel", str(args.jobs), "--target"] + programs, check=True,
                   stdout=subprocess.DEVNULL)
    results = {}
    for program in programs:
        for line in run_qemu(build_dir / f"{program}.elf", args.timeout).splitlines():
            if line.startswith("{"):
                record = json.loads(line)
                results[record["case"]] = record
            elif line.strip():
                print(f"  {program}: {line}", file=sys.stderr)
    return results


def measure_tflm(op, case, args):
    """(instructions, outputs equal) of TFLM's reference kernels on one case (build_peer.py --reference --op-case)."""
    op_name = "TFLite_Detection_PostProcess" if op == "CUSTOM" else op
    result = subprocess.run([sys.executable, str(SOURCE_DIR / "build_peer.py"), "--tflm", str(args.tflm), "--reference",
                             "--op-case", "--ops", op_name, "--model", str(case), "--out", str(args.peer_out)],
                            stdout=subprocess.PIPE, text=True)
    instructions, equal = 0, False
    for line in result.stdout.splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            instructions += record.get("instructions", 0) if "op" in record else 0
            equal = equal or ("equal" in record and record["equal"] == record["outputs"])
    return instructions, equal and result.returncode == 0


def shape_text(shapes):
    return " ".join("x".join(str(d) for d in s) or "scalar" for s in shapes)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build" / "cortex-m-op-table")
    parser.add_argument("--tflm", type=Path, help="a TFLM tree prepared as the host oracle's: measure TFLM's side again")
    parser.add_argument("--peer-out", type=Path, default=Path("/tmp/op_table_peer"), help="(--tflm) build_peer.py's folder")
    parser.add_argument("--ops", help="comma-separated TFLite operators (default: every one with an int8 case)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--timeout", type=int, default=600)
    args = parser.parse_args()
    missing = [name for name in ("cmake", "ninja", "arm-none-eabi-g++", "qemu-system-arm") if shutil.which(name) is None]
    if missing:
        print(f"SKIP: {', '.join(missing)} not found on PATH (scripts/install_deps.sh installs the Arm toolchain and qemu)")
        return 0
    selected = select_cases()
    if args.ops:
        selected = {op: selected[op] for op in args.ops.split(",") if op in selected}
    key = {op: f"{case.parent.name}/{case.name}" for op, (case, _) in selected.items()}
    ctnn = measure_ctnn([case for case, _ in selected.values()], args)
    peer = dict(OP_TABLE_PEER)
    if args.tflm:
        for op, (case, _) in selected.items():
            instructions, equal = measure_tflm(op, case, args)
            peer[key[op]] = (op, instructions if equal else None)
            print(f"  TFLM reference {op} ({key[op]}): {instructions:,}{'' if equal else ' (outputs differ or failed)'}",
                  file=sys.stderr, flush=True)
        print("OP_TABLE_PEER = {")
        for case_key, (op, instructions) in sorted(peer.items()):
            print(f'    "{case_key}": ("{op}", {"None" if instructions is None else f"{instructions:_}"}),')
        print("}")
    print("| op | case | input shapes | ctnn | TFLM reference | ratio | outputs |")
    print("|---|---|---|---:|---:|---:|---|")
    slower, failed = [], []
    for op, (case, shapes) in selected.items():
        mine = ctnn.get(key[op])
        theirs = peer.get(key[op], (op, None))[1]
        count = f"{mine['instructions']:,}" if mine else "-"
        ratio = mine["instructions"] / theirs if mine and theirs else None
        if ratio is not None and ratio > 1:
            slower.append(op)
        if not mine or not mine["equal"]:
            failed.append(op)
        print(f"| {op} | {key[op]} | {shape_text(shapes)} | {count} | {'-' if theirs is None else f'{theirs:,}'} | "
              f"{'-' if ratio is None else f'{ratio:.2f}x'} | {'equal' if mine and mine['equal'] else 'DIFFER'} |")
    print(f"\n{len(selected)} operators; slower than TFLM's reference kernel: {', '.join(slower) or 'none'}")
    if failed:
        print(f"op_table.py: outputs differ or the program failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
