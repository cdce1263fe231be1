#!/usr/bin/env python3
"""Builds and runs the Cortex-M peer of a model (run.py's OWN_PEER_TOTALS, PEER_TOTALS): TFLM + CMSIS-NN running the
model's four reference cases on a core's qemu board under qemu -icount shift=0, counted as run.py counts ctnn
(SysTick, instruction_counter.cpp), outputs compared with the cases.

--cpu (default m4) takes the core's -mcpu, -mfpu, linker script and qemu board from the repository's toolchain file
(cmake/toolchains/arm-none-eabi-cortex-<cpu>.cmake), as run.py builds ctnn: CMSIS-NN then takes its MVE path on
the M55 (__ARM_FEATURE_MVE), its DSP path on the M4, M7 and M33 (__ARM_FEATURE_DSP), its portable C on the M0+
(run on mps2-an385, a Cortex-M3). --opt O2|Os (default O2). --model-file names the .tflite when the folder of cases
has no model.tflite (the MLPerf Tiny models: ../shared/models/mlperf-tiny/<name>.tflite beside refs/<name>). The
folder given to --out keeps its objects: the next model with the same --cpu and --opt recompiles only its main.

The sources are snapshots outside the repository: a TFLM tree prepared as the host oracle's (its downloads of
flatbuffers, gemmlowp and ruy in tensorflow/lite/micro/tools/make/downloads) and CMSIS-NN at the commit TFLM pins
(tensorflow/lite/micro/tools/make/ext_libs/cmsis_nn_download.sh). It compiles TFLM's framework, the CMSIS-NN
versions of CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, SOFTMAX, ADD, MUL, MAXIMUM/MINIMUM, TRANSPOSE_CONV,
AVERAGE_POOL_2D/MAX_POOL_2D and UNIDIRECTIONAL_SEQUENCE_LSTM, TFLM's RESHAPE (each falls back to TFLM's reference code where CMSIS-NN has no kernel, e.g. broadcast
ADD and MUL, int16 TRANSPOSE_CONV), TFLM's own SUB, SQUARED_DIFFERENCE and PRELU (CMSIS-NN has none), and CMSIS-NN's
integer sources with arm-none-eabi-g++ for the core (Ninja, one job), links them with the bare-metal tests'
start-up file and the core's linker script, and prints JSON lines: instructions of Invoke() on case 0, TFLM's arena, outputs
equal; then one line per operator of a second Invoke() of case 0 with a MicroProfilerInterface counting its
instructions (run.py's OWN_PEER_PER_OP). With --reference it builds TFLM's reference kernels instead of CMSIS-NN's (the per-operator
figures of TFLM's reference kernels).

With --op-case (and --reference) the folder is one case of an op family (tests/data/ops/<family>/<case>: input_<i>.bin
per input, output_<o>.bin per output, `invocations` for a model with state): TFLM's reference kernels of every
TFLite operator the model uses (--ops, MicroMutableOpResolver's Add<Op>() by name), every input loaded, the model run
`invocations` times from its initial state, the last run profiled; one line per operator, then whether each output
equals the case's (benchmarks/cortex_m/op_table.py's OP_TABLE_PEER).

  python3 benchmarks/cortex_m/build_peer.py --tflm /work/oracle/tflm/src/tflite-micro \\
      --cmsis-nn <CMSIS-NN 4ab83cc3 tree> --model benchmarks/cortex_m/models/kws_16x8 --out /tmp/peer_kws16 [--reference]
  python3 benchmarks/cortex_m/build_peer.py --tflm /work/oracle/tflm --cmsis-nn <CMSIS-NN 4ab83cc3 tree> --cpu m0plus \
      --model ../shared/models/mlperf-tiny/refs/kws_ref_model --model-file ../shared/models/mlperf-tiny/kws_ref_model.tflite \
      --out /tmp/peer-m0plus
  python3 benchmarks/cortex_m/build_peer.py --tflm /work/oracle/tflm --reference --op-case --ops ADD \\
      --model tests/data/ops/binary/add_i8_... --out /tmp/peer_ops
"""
import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The framework files of TFLM's microlite library that an interpreter with these four kernels links.
FRAMEWORK = """
tensorflow/compiler/mlir/lite/core/api/error_reporter.cc tensorflow/compiler/mlir/lite/schema/schema_utils.cc
tensorflow/lite/core/api/flatbuffer_conversions.cc tensorflow/lite/core/api/tensor_utils.cc tensorflow/lite/core/c/common.cc
tensorflow/lite/kernels/internal/common.cc tensorflow/lite/kernels/internal/portable_tensor_utils.cc
tensorflow/lite/kernels/internal/quantization_util.cc tensorflow/lite/kernels/internal/reference/portable_tensor_utils.cc
tensorflow/lite/kernels/internal/runtime_shape.cc tensorflow/lite/kernels/internal/tensor_ctypes.cc
tensorflow/lite/kernels/internal/tensor_utils.cc tensorflow/lite/kernels/kernel_util.cc
tensorflow/lite/micro/arena_allocator/non_persistent_arena_buffer_allocator.cc
tensorflow/lite/micro/arena_allocator/persistent_arena_buffer_allocator.cc
tensorflow/lite/micro/arena_allocator/single_arena_buffer_allocator.cc tensorflow/lite/micro/debug_log.cc
tensorflow/lite/micro/flatbuffer_utils.cc tensorflow/lite/micro/kernels/conv_common.cc
tensorflow/lite/micro/kernels/depthwise_conv_common.cc tensorflow/lite/micro/kernels/fully_connected_common.cc
tensorflow/lite/micro/kernels/kernel_util.cc tensorflow/lite/micro/kernels/micro_tensor_utils.cc
tensorflow/lite/micro/kernels/softmax_common.cc tensorflow/lite/micro/kernels/add_common.cc
tensorflow/lite/micro/kernels/mul_common.cc tensorflow/lite/micro/kernels/sub_common.cc
tensorflow/lite/micro/kernels/prelu_common.cc tensorflow/lite/micro/kernels/sub.cc
tensorflow/lite/micro/kernels/squared_difference.cc tensorflow/lite/micro/kernels/prelu.cc
tensorflow/lite/micro/memory_helpers.cc
tensorflow/lite/micro/memory_planner/greedy_memory_planner.cc tensorflow/lite/micro/memory_planner/linear_memory_planner.cc
tensorflow/lite/micro/memory_planner/non_persistent_buffer_planner_shim.cc tensorflow/lite/micro/micro_allocation_info.cc
tensorflow/lite/micro/micro_allocator.cc tensorflow/lite/micro/micro_context.cc tensorflow/lite/micro/micro_interpreter.cc
tensorflow/lite/micro/micro_interpreter_context.cc tensorflow/lite/micro/micro_interpreter_graph.cc
tensorflow/lite/micro/micro_log.cc tensorflow/lite/micro/micro_op_resolver.cc tensorflow/lite/micro/micro_profiler.cc
tensorflow/lite/micro/micro_resource_variable.cc tensorflow/lite/micro/micro_time.cc tensorflow/lite/micro/micro_utils.cc
tensorflow/lite/micro/system_setup.cc tensorflow/lite/micro/tflite_bridge/flatbuffer_conversions_bridge.cc
tensorflow/lite/micro/tflite_bridge/micro_error_reporter.cc
""".split()
# The kernels of which CMSIS-NN has a version (tensorflow/lite/micro/kernels/cmsis_nn/<name>.cc; --reference:
# tensorflow/lite/micro/kernels/<name>.cc).
KERNELS = "conv depthwise_conv fully_connected softmax add mul maximum_minimum transpose_conv pooling".split()
# AVERAGE_POOL_2D / MAX_POOL_2D (the MLPerf Tiny models: cmsis_nn/pooling.cc) and RESHAPE (TFLM's only).
FRAMEWORK += ["tensorflow/lite/micro/kernels/pooling_common.cc", "tensorflow/lite/micro/kernels/reshape.cc",
              "tensorflow/lite/micro/kernels/reshape_common.cc"]
# SVDF (svdf8): TFLM's svdf_common.cc (Prepare, the reference Eval) and its svdf.cc / cmsis_nn/svdf.cc (CMSIS-NN's
# arm_svdf_s8 and arm_svdf_state_s16_s8, among its integer sources below).
SVDF_FRAMEWORK = ["tensorflow/lite/micro/kernels/svdf_common.cc"]
SVDF_KERNELS = ["svdf"]
# UNIDIRECTIONAL_SEQUENCE_LSTM (lstm8): TFLM's kernel (cmsis_nn/: arm_lstm_unidirectional_s8 and s16) and the TFLM
# sources it shares with the reference kernel.
KERNELS += ["unidirectional_sequence_lstm"]
FRAMEWORK += ["tensorflow/lite/micro/kernels/lstm_eval.cc", "tensorflow/lite/micro/kernels/lstm_eval_common.cc"]
# --op-case: the source files (tensorflow/lite/micro/kernels/<name>.cc) of an operator whose file is not its name.
OP_KERNEL_SOURCES = {
    "ARG_MAX": ["arg_min_max"], "ARG_MIN": ["arg_min_max"], "REDUCE_MAX": ["reduce"], "REDUCE_MIN": ["reduce"],
    "SUM": ["reduce"], "MEAN": ["reduce"], "MAXIMUM": ["maximum_minimum"], "MINIMUM": ["maximum_minimum"],
    "EQUAL": ["comparisons"], "NOT_EQUAL": ["comparisons"], "LESS": ["comparisons"], "LESS_EQUAL": ["comparisons"],
    "GREATER": ["comparisons"], "GREATER_EQUAL": ["comparisons"], "LOGICAL_AND": ["logical"], "LOGICAL_OR": ["logical"],
    "LOGICAL_NOT": ["elementwise"], "ABS": ["elementwise"], "RSQRT": ["elementwise"], "SQRT": ["elementwise"],
    "SIN": ["elementwise"], "COS": ["elementwise"], "LOG": ["elementwise"], "SQUARE": ["elementwise"],
    "SELECT_V2": ["select"], "PADV2": ["pad"], "REVERSE_V2": ["reverse"], "L2_NORMALIZATION": ["l2norm"],
    "CONV_2D": ["conv"], "DEPTHWISE_CONV_2D": ["depthwise_conv", "conv_common"], "TRANSPOSE_CONV": ["transpose_conv"],
    "SUB": ["sub"], "PRELU": ["prelu"], "SQUARED_DIFFERENCE": ["squared_difference"], "SVDF": ["svdf"],
    "UNIDIRECTIONAL_SEQUENCE_LSTM": ["unidirectional_sequence_lstm", "lstm_eval", "fully_connected_common"], "RELU": ["activations"],
    "RELU6": ["activations"], "AVERAGE_POOL_2D": ["pooling"], "MAX_POOL_2D": ["pooling"], "BATCH_MATMUL": ["batch_matmul"],
    "TFLite_Detection_PostProcess": ["detection_postprocess", "detection_postprocess_flexbuffers_generated_data"],
}
# The cores (--cpu): their -mcpu, -mfpu, qemu board and linker script, read from the repository's toolchain file
# (cmake/toolchains/arm-none-eabi-cortex-<cpu>.cmake), so that the peer is built and run as run.py builds and runs ctnn.
CPUS = ("m0plus", "m4", "m7", "m33", "m55")


def core_of(cpu):
    """{cpu, fpu, board, linker_script} of a core's toolchain file (its set(CTNN_CORTEX_M_<KEY> value) lines)."""
    import re
    text = (ROOT / "cmake" / "toolchains" / f"arm-none-eabi-cortex-{cpu}.cmake").read_text()
    core = {key.lower(): value.strip('"') for key, value in re.findall(r"^set\(CTNN_CORTEX_M_(\w+) ([^)]*)\)", text, re.M)}
    return core


def cpu_flags(core, opt):
    float_abi = f"-mfloat-abi=hard -mfpu={core['fpu']}" if core["fpu"] else "-mfloat-abi=soft"
    return f"-mcpu={core['cpu']} -mthumb {float_abi} --specs=nano.specs -{opt} -ffunction-sections -fdata-sections"


DEFINES = "-DTF_LITE_STATIC_MEMORY -DCMSIS_NN -DKERNELS_OPTIMIZED_FOR_SPEED -DTF_LITE_DISABLE_X86_NEON"

# The per-operator profiler both generated mains install (SysTick ticks of each operator's Invoke()), and the
# instructions of a number of ticks as run.py counts them: ticks x the calibration loop's instructions per tick to
# 1/100 (31.25 on mps3-an547, where the firmware's integer figure would be 31; 40 and 50 on the MPS2 boards).
PROFILER = r"""unsigned long instructions_of(std::uint64_t ticks, const cm_bench::calibration& calibration) {
  const std::uint64_t per_100_ticks = (200 * std::uint64_t{calibration.loop_instructions} + calibration.ticks) / (2 * calibration.ticks);
  return static_cast<unsigned long>(ticks * per_100_ticks / 100);
}

class op_profiler : public tflite::MicroProfilerInterface {
 public:
  bool on = false;
  int events = 0;
  const char* tags[64] = {};
  std::uint64_t begin[64] = {}, end[64] = {};
  uint32_t BeginEvent(const char* tag) override {
    if (!on || events == 64) return 64;
    tags[events] = tag;
    begin[events] = cm_bench::ticks();
    return static_cast<uint32_t>(events++);
  }
  void EndEvent(uint32_t handle) override {
    if (handle < 64) end[handle] = cm_bench::ticks();
  }
};
op_profiler profiler;
"""

MAIN = r"""// Generated by benchmarks/cortex_m/build_peer.py: TFLM + CMSIS-NN running one model's reference cases.
#include <cstdio>
#include <cstring>

#include "instruction_counter.hpp"
#include "model_data.h"
#include "tensorflow/lite/micro/micro_interpreter.h"
#include "tensorflow/lite/micro/micro_mutable_op_resolver.h"

namespace {
alignas(16) unsigned char arena[160 * 1024];

// Counts the SysTick ticks of each operator's Invoke() while on (the interpreter calls it around every one).
""" + PROFILER + r"""
// A case of a model with state (variable tensors): from the initial state, CASE_INVOCATIONS runs of its input, the
// last one timed and compared; these are the runs before it, the input loaded before each (the arena's planner
// may place later tensors over it).
bool run_warm_up(tflite::MicroInterpreter& interpreter, const unsigned char* input) {
  if (interpreter.Reset() != kTfLiteOk) return false;
  TfLiteTensor* in = interpreter.input(0);
  for (int run = 1; run < CASE_INVOCATIONS; ++run) {
    std::memcpy(in->data.raw, input, in->bytes);
    if (interpreter.Invoke() != kTfLiteOk) return false;
  }
  return true;
}
}  // namespace

int main() {
  cm_bench::start_counter();
  const cm_bench::calibration calibration = cm_bench::calibrate(4000000);
  static tflite::MicroMutableOpResolver<20> resolver;
  resolver.AddAveragePool2D();
  resolver.AddMaxPool2D();
  resolver.AddReshape();
  resolver.AddSvdf();
  resolver.AddConv2D();
  resolver.AddDepthwiseConv2D();
  resolver.AddFullyConnected();
  resolver.AddSoftmax();
  resolver.AddAdd();
  resolver.AddMul();
  resolver.AddSub();
  resolver.AddMaximum();
  resolver.AddMinimum();
  resolver.AddSquaredDifference();
  resolver.AddPrelu();
  resolver.AddTransposeConv();
  resolver.AddUnidirectionalSequenceLSTM();
  static tflite::MicroInterpreter interpreter(tflite::GetModel(model_data), resolver, arena, sizeof(arena), nullptr,
                                              &profiler);
  if (interpreter.AllocateTensors() != kTfLiteOk) {
    std::printf("AllocateTensors failed\n");
    return 1;
  }
  TfLiteTensor* in = interpreter.input(0);
  TfLiteTensor* out = interpreter.output(0);
  int equal = 0;
  unsigned long ticks0 = 0;
  for (int k = 3; k >= 0; --k) {
    if (!run_warm_up(interpreter, inputs[k])) return 1;
    std::memcpy(in->data.raw, inputs[k], in->bytes);
    const std::uint64_t before = cm_bench::ticks();
    if (interpreter.Invoke() != kTfLiteOk) {
      std::printf("Invoke failed\n");
      return 1;
    }
    const std::uint64_t after = cm_bench::ticks();
    if (k == 0) ticks0 = static_cast<unsigned long>(after - before);
    equal += std::memcmp(out->data.raw, outputs[k], out->bytes) == 0;
  }
  std::printf("{\"peer\": \"TFLM + CMSIS-NN\", \"instructions\": %lu, \"arena_used_bytes\": %lu, \"equal\": %d}\n",
              instructions_of(ticks0, calibration), static_cast<unsigned long>(interpreter.arena_used_bytes()),
              equal);
  if (!run_warm_up(interpreter, inputs[0])) return 1;
  std::memcpy(in->data.raw, inputs[0], in->bytes);
  profiler.on = true;
  if (interpreter.Invoke() != kTfLiteOk) return 1;
  for (int k = 0; k < profiler.events; ++k)
    std::printf("{\"op\": %d, \"tag\": \"%s\", \"instructions\": %lu}\n", k, profiler.tags[k],
                instructions_of(profiler.end[k] - profiler.begin[k], calibration));
  cm_bench::stop_counter();
  return equal == 4 ? 0 : 1;
}
"""

OP_CASE_MAIN = r"""// Generated by benchmarks/cortex_m/build_peer.py --op-case: TFLM's reference kernels running one op case.
#include <cstdio>
#include <cstring>

#include "instruction_counter.hpp"
#include "model_data.h"
#include "tensorflow/lite/micro/micro_interpreter.h"
#include "tensorflow/lite/micro/micro_mutable_op_resolver.h"

namespace {
alignas(16) unsigned char arena[160 * 1024];

""" + PROFILER + r"""}  // namespace

int main() {
  cm_bench::start_counter();
  const cm_bench::calibration calibration = cm_bench::calibrate(4000000);
  static tflite::MicroMutableOpResolver<OP_COUNT> resolver;
  REGISTER_OPS
  static tflite::MicroInterpreter interpreter(tflite::GetModel(model_data), resolver, arena, sizeof(arena), nullptr,
                                              &profiler);
  if (interpreter.AllocateTensors() != kTfLiteOk) {
    std::printf("AllocateTensors failed\n");
    return 1;
  }
  if (interpreter.inputs_size() != INPUT_COUNT || interpreter.outputs_size() != OUTPUT_COUNT) {
    std::printf("the case's files do not match the model's inputs and outputs\n");
    return 1;
  }
  for (int run = 0; run < CASE_INVOCATIONS; ++run) {
    for (int i = 0; i < INPUT_COUNT; ++i) {
      TfLiteTensor* in = interpreter.input(i);
      if (in->bytes != input_bytes[i]) return 1;
      std::memcpy(in->data.raw, inputs[i], in->bytes);
    }
    profiler.on = run + 1 == CASE_INVOCATIONS;
    if (interpreter.Invoke() != kTfLiteOk) {
      std::printf("Invoke failed\n");
      return 1;
    }
  }
  int equal = 0;
  for (int o = 0; o < OUTPUT_COUNT; ++o) {
    TfLiteTensor* out = interpreter.output(o);
    equal += out->bytes == output_bytes[o] && std::memcmp(out->data.raw, outputs[o], out->bytes) == 0;
  }
  for (int k = 0; k < profiler.events; ++k)
    std::printf("{\"op\": %d, \"tag\": \"%s\", \"instructions\": %lu}\n", k, profiler.tags[k],
                instructions_of(profiler.end[k] - profiler.begin[k], calibration));
  std::printf("{\"peer\": \"TFLM reference\", \"outputs\": %d, \"equal\": %d}\n", OUTPUT_COUNT, equal);
  cm_bench::stop_counter();
  return equal == OUTPUT_COUNT ? 0 : 1;
}
"""


def resolver_methods(tflm):
    """MicroMutableOpResolver's Add<Op>() methods by normalised name (lower case, no underscores): CONV_2D -> AddConv2D."""
    import re
    header = (tflm / "tensorflow/lite/micro/micro_mutable_op_resolver.h").read_text()
    return {name.lower(): name for name in re.findall(r"TfLiteStatus Add(\w+)\(", header)}


def op_case_sources(args, out):
    """The op case's header (every input and output of its one case) and main."""
    model = args.model
    inputs = sorted(model.glob("input_*.bin"), key=lambda p: int(p.stem.split("_")[1]))
    outputs = sorted(model.glob("output_*.bin"), key=lambda p: int(p.stem.split("_")[1]))
    header = c_array("model_data", (model / "model.tflite").read_bytes())
    for kind, files in (("input", inputs), ("output", outputs)):
        for k, f in enumerate(files):
            header += c_array(f"{kind}_{k}", f.read_bytes() or b"\0")
        names = ", ".join(f"{kind}_{k}" for k in range(len(files))) or "nullptr"
        sizes = ", ".join(str(f.stat().st_size) for f in files) or "0"
        header += f"const unsigned char* const {kind}s[] = {{{names}}};\n"
        header += f"const unsigned long {kind}_bytes[] = {{{sizes}}};\n#define {kind.upper()}_COUNT {len(files)}\n"
    invocations = model / "invocations"
    header += f"#define CASE_INVOCATIONS {int(invocations.read_text()) if invocations.exists() else 1}\n"
    methods = resolver_methods(args.tflm.resolve())
    calls = []
    for op in args.ops.split(","):
        key = "detectionpostprocess" if op == "TFLite_Detection_PostProcess" else op.replace("_", "").lower()
        if key not in methods:
            sys.exit(f"build_peer.py: TFLM's op resolver has no Add<Op>() for {op}")
        calls.append(f"resolver.Add{methods[key]}();")
    header += f"#define OP_COUNT {len(calls)}\n#define REGISTER_OPS {' '.join(calls)}\n"
    (out / "model_data.h").write_text(header)
    (out / "peer_main.cc").write_text(OP_CASE_MAIN)


def c_array(name, data):
    return f"alignas(16) const unsigned char {name}[{len(data)}] = {{{','.join(str(b) for b in data)}}};\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tflm", type=Path, required=True, help="a prepared TFLM tree (the host oracle's src/tflite-micro)")
    parser.add_argument("--cmsis-nn", type=Path, help="CMSIS-NN at the commit TFLM pins (not with --op-case)")
    parser.add_argument("--model", type=Path, required=True, help="a folder of model.tflite, input_<k>.bin, output_<k>.bin")
    parser.add_argument("--out", type=Path, required=True, help="the build folder")
    parser.add_argument("--reference", action="store_true", help="TFLM's reference kernels instead of CMSIS-NN's")
    parser.add_argument("--op-case", action="store_true", help="the folder is one op case (tests/data/ops/<family>/<case>)")
    parser.add_argument("--ops", default="", help="(--op-case) the TFLite operators to register, comma-separated")
    parser.add_argument("--model-file", type=Path,
                        help="the .tflite file when it is not --model's model.tflite (e.g. ../shared/models/mlperf-tiny/"
                             "kws_ref_model.tflite with --model ../shared/models/mlperf-tiny/refs/kws_ref_model)")
    parser.add_argument("--cpu", choices=CPUS, default="m4",
                        help="the core (its toolchain file's -mcpu, -mfpu, qemu board and linker script; default m4)")
    parser.add_argument("--opt", choices=("O2", "Os"), default="O2", help="the optimisation level (default O2)")
    args = parser.parse_args()
    out = args.out.resolve()
    (out / "obj").mkdir(parents=True, exist_ok=True)
    if args.op_case:
        if not args.reference:
            parser.error("--op-case runs TFLM's reference kernels: give --reference")
        op_case_sources(args, out)
        return build_and_run(args, out, op_case=True)
    if args.cmsis_nn is None:
        parser.error("--cmsis-nn is required (but with --op-case)")
    header = c_array("model_data", (args.model_file or args.model / "model.tflite").read_bytes())
    for k in range(4):
        header += c_array(f"input_{k}", (args.model / f"input_{k}.bin").read_bytes())
        header += c_array(f"output_{k}", (args.model / f"output_{k}.bin").read_bytes())
    # Models with state: each case runs `invocations` times from the initial state (scripts/gen_cortex_m_models.py).
    invocations = args.model / "invocations"
    header += f"#define CASE_INVOCATIONS {int(invocations.read_text()) if invocations.exists() else 1}\n"
    header += "const unsigned char* const inputs[4] = {input_0, input_1, input_2, input_3};\n"
    header += "const unsigned char* const outputs[4] = {output_0, output_1, output_2, output_3};\n"
    (out / "model_data.h").write_text(header)
    (out / "peer_main.cc").write_text(MAIN)
    return build_and_run(args, out, op_case=False)


def build_and_run(args, out, op_case):
    """Compiles TFLM (and CMSIS-NN's integer sources unless op_case) with the generated main, runs it under qemu."""
    tflm = args.tflm.resolve()
    core = core_of(args.cpu)
    cpu = cpu_flags(core, args.opt)
    cmsis = args.cmsis_nn.resolve() if args.cmsis_nn else out
    downloads = tflm / "tensorflow/lite/micro/tools/make/downloads"
    includes = (f"-I{tflm} -I{downloads} -I{downloads}/gemmlowp -I{downloads}/flatbuffers/include -I{downloads}/ruy "
                f"-I{cmsis} -I{cmsis}/Include -I{ROOT}/benchmarks/cortex_m -I{out}")
    # CMSIS-NN's integer kernels (its float sources need ARM_NN_ENABLE_F32/F16).
    cmsis_sources = [] if op_case else sorted(
        p for p in (cmsis / "Source").rglob("*.c") if not p.stem.endswith(("_f32", "_f16")))
    lines = [f"cxxflags = {cpu} -std=c++17 -fno-rtti -fno-exceptions -fno-threadsafe-statics -Wno-psabi {DEFINES} {includes}",
             f"cflags = {cpu} -std=c11 {DEFINES} {includes}",
             "rule cxx\n  command = arm-none-eabi-g++ $cxxflags -MD -MF $out.d -c $in -o $out\n  depfile = $out.d",
             "rule cc\n  command = arm-none-eabi-gcc $cflags -c $in -o $out",
             "rule ar\n  command = rm -f $out && arm-none-eabi-ar rcs $out $in",
             f"rule link\n  command = arm-none-eabi-g++ {cpu} --specs=rdimon.specs -L {ROOT}/tests/baremetal "
             f"-T {ROOT}/tests/baremetal/{core['linker_script']} -Wl,--gc-sections $in -o $out -lm"]
    objects = []
    kernels = [f"tensorflow/lite/micro/kernels/{'' if args.reference else 'cmsis_nn/'}{name}.cc" for name in KERNELS]
    kernels += [f"tensorflow/lite/micro/kernels/{'' if args.reference else 'cmsis_nn/'}{name}.cc" for name in SVDF_KERNELS]
    sources = FRAMEWORK + SVDF_FRAMEWORK + kernels
    if op_case:
        # The framework and the reference kernels of the registered operators (OP_KERNEL_SOURCES, else the operator's
        # name in lower case), each with its <name>_common.cc where TFLM has one.
        folder = "tensorflow/lite/micro/kernels/"
        sources = [s for s in FRAMEWORK if not s.startswith(folder) or s in (folder + "kernel_util.cc", folder + "micro_tensor_utils.cc")]
        for op in args.ops.split(","):
            for stem in OP_KERNEL_SOURCES.get(op, [op.lower()]):
                for name in (stem, stem + "_common"):
                    if (tflm / folder / f"{name}.cc").exists() and folder + f"{name}.cc" not in sources:
                        sources.append(folder + f"{name}.cc")
    for source in sources:
        obj = "obj/" + source.replace("/", "_") + ".o"
        lines.append(f"build {obj}: cxx {tflm / source}")
        objects.append(obj)
    for source in cmsis_sources:
        obj = f"obj/cmsis_{source.name}.o"
        lines.append(f"build {obj}: cc {source}")
        objects.append(obj)
    lines += [f"build libpeer.a: ar {' '.join(objects)}",
              f"build obj/peer_main.o: cxx {out / 'peer_main.cc'}",
              f"build obj/instruction_counter.o: cxx {ROOT / 'benchmarks/cortex_m/instruction_counter.cpp'}",
              f"build obj/startup.o: cc {ROOT / 'tests/baremetal/startup_cortex_m4.c'}",
              "build peer.elf: link obj/peer_main.o obj/instruction_counter.o obj/startup.o libpeer.a",
              "default peer.elf", ""]
    (out / "build.ninja").write_text("\n".join(lines))
    built = subprocess.run(["ninja", "-C", str(out), "-j1"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if built.returncode != 0:
        sys.stderr.write(built.stdout[-4000:])
        return 1
    result = subprocess.run(["qemu-system-arm", "-M", core["board"], "-icount", "shift=0", "-nographic", "-monitor", "none",
                             "-semihosting-config", "enable=on,target=native", "-kernel", str(out / "peer.elf")],
                            stdout=subprocess.PIPE, text=True, timeout=600)
    sys.stdout.write(result.stdout)
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
