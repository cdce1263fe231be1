#pragma once
// UINT8 tensors at an operator (issue #25). TFLM runs uint8 only at a model's edges, as the converter writes
// them for inference_input_type / inference_output_type tf.uint8: a QUANTIZE from a uint8 input to int8 and
// one from int8 to a uint8 output (quantize_common.cc: Requantize, a multiplier and shift from the ratio of
// the scales, both zero points), a DEQUANTIZE of uint8 to float32 (dequantize_common.cc), REVERSE_V2
// (reverse.cc), and the kernels that copy bytes whatever the type (RESHAPE, SQUEEZE, BROADCAST_TO, and
// SHAPE, which reads only the dims); every other kernel refuses uint8 in its Prepare or Eval (checked against
// TFLM's kernels at the snapshot the conformance tests use, tflite-micro 90b983c2b: kTfLiteUInt8 appears in
// quantize_common.cc, dequantize.cc, dequantize_common.cc and reverse.cc only). An old fully-uint8 model (a
// uint8 CONV_2D) is thus refused, naming its op and tensor, before anything else of the op is read; the
// importer (import_graph.hpp) and the tools' list of a file's unsupported parts (operators.hpp) ask the same
// function, on the file's own tensors.
#include <cstdint>

#include <ctnn/frontend/flatbuffers.hpp>
#include <ctnn/frontend/tflite/import_plan.hpp>
#include <ctnn/frontend/tflite/import_state.hpp>
#include <ctnn/frontend/tflite/schema.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::tflite::detail {

// Whether TFLM runs operator `code` with a UINT8 tensor at it, `in` its first input's type and `out` its
// first output's.
constexpr bool tflm_runs_uint8(builtin_operator code, tensor_type in, tensor_type out) {
  using b = builtin_operator;
  using t = tensor_type;
  switch (code) {
    case b::quantize: return (in == t::uint8 && out == t::int8) || (in == t::int8 && out == t::uint8);
    case b::dequantize: return in == t::uint8 && out == t::float32;
    case b::reverse_v2:
    case b::reshape:
    case b::squeeze:
    case b::broadcast_to:
    case b::shape: return true;
    default: return false;
  }
}

// The first UINT8 tensor of operator `o` (its inputs, then its outputs) that TFLM does not run there, or -1
// when there is none (also when the file's lists cannot be read: the importer reports that itself).
constexpr std::int32_t refused_uint8_tensor(model_file& f, builtin_operator code, const operator_view& o) {
  const auto type_of = [&f](std::int32_t t) {
    if (t < 0 || static_cast<std::uint32_t>(t) >= f.tensor_count()) return tensor_type::float32;
    const tensor_type type = f.tensor(static_cast<std::uint32_t>(t)).type;
    return f.failed() ? tensor_type::float32 : type;
  };
  const auto index = [&f](const flatbuffers::vector& list, std::uint32_t k) {
    const std::int32_t t = k < list.length ? f.index_at(list, k) : -1;
    return f.failed() ? -1 : t;
  };
  std::int32_t first = -1;
  for (std::uint32_t k = 0; first < 0 && k < o.inputs.length + o.outputs.length; ++k) {
    const std::int32_t t = k < o.inputs.length ? index(o.inputs, k) : index(o.outputs, k - o.inputs.length);
    if (type_of(t) == tensor_type::uint8) first = t;
  }
  if (first < 0 || tflm_runs_uint8(code, type_of(index(o.inputs, 0)), type_of(index(o.outputs, 0)))) return -1;
  return first;
}

// Refuses op `op` (operator `o`, its plan `p`) if it reads or writes a UINT8 tensor TFLM does not run there
// (tflite_uint8_operand, the tensor), or a QUANTIZE writes a UINT8 result without a scale (TFLM's Prepare
// requires one: tflite_invalid_quantization, uint8_result_scale).
template <class S>
constexpr bool check_uint8_operands(S& s, std::int32_t op, const op_plan& p, const operator_view& o) {
  if (const std::int32_t t = refused_uint8_tensor(s.f, p.code, o); t >= 0) {
    s.fail(frontend_error::tflite_uint8_operand, op, p.kind, {.operator_code = static_cast<std::int64_t>(p.code), .tensor = t});
    return false;
  }
  const std::int32_t out = o.outputs.length > 0 ? s.f.index_at(o.outputs, 0) : -1;
  if (s.take_reader_error()) return false;
  if (p.code == builtin_operator::quantize && out >= 0 && out < s.m.tensor_count &&
      s.m.tensor_at(out).type == dtype::u8 && !s.m.tensor_at(out).quant.quantized()) {
    s.fail(frontend_error::tflite_invalid_quantization, op, p.kind,
           {.tensor = out, .reason = static_cast<std::int64_t>(quantization_problem::uint8_result_scale)});
    return false;
  }
  return true;
}

}  // namespace ctnn::tflite::detail
