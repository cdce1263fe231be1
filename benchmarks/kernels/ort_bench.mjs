// The onnxruntime side of the kernel speed benchmarks (run.py starts it; docs/benchmarks.md).
//   node ort_bench.mjs <spec.json>
// spec.json: {"ort_dir": <folder whose node_modules holds onnxruntime-node>, "repetitions": R,
//             "min_batch_seconds": S, "warmup": W,
//             "models": [{"name", "file", "dtype": "float32"|"int8", "shape": [...], "input": <raw file>,
//                         "checks": [{"input": <raw file>, "output": <raw file>, "tolerance": T}, ...]}]}
// Per model: one session (1 intra-op and 1 inter-op thread, sequential, all graph optimisations), the
// checks (the output within T of the reference, else the model is reported failed and not timed), W
// warm-up runs, then R batches of calls on "input", each batch at least S seconds; a batch's time per
// call is its wall (and process CPU) time over its calls; the result is the median over the batches,
// the statistic Google Benchmark reports for ctnn's side with --benchmark_repetitions. Prints one JSON
// object per model on stdout.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const require = createRequire(path.join(spec.ort_dir, 'package.json'));
const ort = require('onnxruntime-node');

const sessionOptions = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
};

const typedArrays = { float32: Float32Array, int8: Int8Array };

function readTensor(file, dtype, shape) {
  const bytes = readFileSync(file);
  const Type = typedArrays[dtype];
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  const data = new Type(copy.buffer, 0, bytes.length / Type.BYTES_PER_ELEMENT);
  const elements = shape.reduce((a, b) => a * b, 1);
  if (data.length !== elements) throw new Error(`${file}: ${data.length} elements, the model takes ${elements}`);
  return new ort.Tensor(dtype, data, shape);
}

function readValues(file, dtype) {
  const bytes = readFileSync(file);
  const Type = typedArrays[dtype];
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return new Type(copy.buffer, 0, bytes.length / Type.BYTES_PER_ELEMENT);
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function benchmark(model) {
  const session = await ort.InferenceSession.create(model.file, sessionOptions);
  const inputName = session.inputNames[0];
  const outputName = session.outputNames[0];
  const run = (tensor) => session.run({ [inputName]: tensor });

  let worst = 0;
  for (const check of model.checks) {
    const out = (await run(readTensor(check.input, model.dtype, model.shape)))[outputName].data;
    const expected = readValues(check.output, out instanceof Float32Array ? 'float32' : 'int8');
    if (out.length !== expected.length)
      return { model: model.name, error: `output has ${out.length} elements, ${check.output} ${expected.length}` };
    for (let i = 0; i < out.length; ++i) {
      const difference = Math.abs(Number(out[i]) - Number(expected[i]));
      if (!(difference <= check.tolerance))
        return { model: model.name, error: `${check.output}[${i}]: onnxruntime ${out[i]}, reference ${expected[i]}` };
      worst = Math.max(worst, difference);
    }
  }

  const input = readTensor(model.input, model.dtype, model.shape);
  for (let i = 0; i < spec.warmup; ++i) await run(input);
  // Calls per batch: enough for min_batch_seconds, from the warm-up's speed.
  const probeStart = process.hrtime.bigint();
  const probeCalls = 20;
  for (let i = 0; i < probeCalls; ++i) await run(input);
  const probeSeconds = Number(process.hrtime.bigint() - probeStart) / 1e9 / probeCalls;
  const callsPerBatch = Math.max(1, Math.ceil(spec.min_batch_seconds / probeSeconds));

  const wallUs = [];
  const cpuUs = [];
  for (let r = 0; r < spec.repetitions; ++r) {
    const cpuStart = process.cpuUsage();
    const wallStart = process.hrtime.bigint();
    for (let i = 0; i < callsPerBatch; ++i) await run(input);
    const wall = Number(process.hrtime.bigint() - wallStart) / 1e3;
    const cpu = process.cpuUsage(cpuStart);
    wallUs.push(wall / callsPerBatch);
    cpuUs.push((cpu.user + cpu.system) / callsPerBatch);
  }
  await session.release();
  return {
    model: model.name,
    wall_us: median(wallUs),
    cpu_us: median(cpuUs),
    repetitions: spec.repetitions,
    calls_per_batch: callsPerBatch,
    checked: model.checks.length,
    max_abs_diff: worst,
    version: ort.env.versions?.node ?? 'unknown',
  };
}

for (const model of spec.models) {
  let result;
  try {
    result = await benchmark(model);
  } catch (error) {
    result = { model: model.name, error: String(error?.message ?? error) };
  }
  process.stdout.write(JSON.stringify(result) + '\n');
}
