// Runs an ONNX model with onnxruntime-node (the peer of scripts/gen_op_tests_qdq.py --ort): reads a JSON job
// {model, inputs: [{name, type, dims, path}], outputs: [{name, path}]} from argv[2] and writes each output's raw
// little-endian elements. NODE_PATH names the folder holding onnxruntime-node (installed outside the repository).
const fs = require('fs');
const ort = require('onnxruntime-node');

const arrays = {uint8: Uint8Array, int8: Int8Array, int32: Int32Array, int64: BigInt64Array, float32: Float32Array, bool: Uint8Array};

async function main() {
  const job = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  const session = await ort.InferenceSession.create(job.model, {graphOptimizationLevel: 'all'});
  const feeds = {};
  for (const input of job.inputs) {
    const bytes = fs.readFileSync(input.path);
    const data = new arrays[input.type](bytes.buffer, bytes.byteOffset, bytes.length / arrays[input.type].BYTES_PER_ELEMENT);
    feeds[input.name] = new ort.Tensor(input.type, data.slice(), input.dims);
  }
  const results = await session.run(feeds);
  for (const output of job.outputs) {
    const data = results[output.name].data;
    fs.writeFileSync(output.path, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
