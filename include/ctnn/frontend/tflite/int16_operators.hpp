#pragma once
// int16 activations (TFLite's 16x8 quantization) at an operator: the TFLite operators whose TFLM kernels take
// int16 tensors at the snapshot the conformance tests check against (tflite-micro 90b983c2b), and the zero
// point 0 that most of those kernels require (their Prepare checks it; an op kind's descriptor says so:
// ops::op_defaults::int16_symmetric). A model breaking either is refused here, with the operator, even where
// ctnn's kernel of the op kind would run it (the byte moves behind GATHER, DEPTH_TO_SPACE, SPACE_TO_DEPTH):
// a 16x8 model is one TFLM runs.
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/frontend/tflite/import_plan.hpp>
#include <ctnn/frontend/tflite/import_state.hpp>
#include <ctnn/frontend/tflite/schema.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/ops/registry.hpp>

namespace ctnn::tflite::detail {

// The operators ctnn imports whose TFLM kernels take int16 activations (checked against TFLM's kernels at
// 90b983c2b, and by running int16 models on them); PRELU's takes an int8 alpha (ops/prelu.hpp checks it).
// Absent: what TFLM refuses at int16 (HARD_SWISH,
// L2_POOL_2D, REDUCE_MAX/MIN, GATHER, DEPTH_TO_SPACE, SPACE_TO_DEPTH), GREATER (TFLM leaves its int16
// rescaling unset: ops/comparison.hpp) and RSQRT (TFLM's Prepare type check does not run: the result is
// its int16 kernel only by accident).
constexpr bool tflm_runs_int16(builtin_operator code) {
  using b = builtin_operator;
  switch (code) {
    case b::quantize:
    case b::dequantize:
    case b::relu:
    case b::relu6:
    case b::logistic:
    case b::tanh:
    case b::softmax:
    case b::leaky_relu:
    case b::prelu:
    case b::maximum:
    case b::minimum:
    case b::abs:
    case b::add:
    case b::sub:
    case b::mul:
    case b::squared_difference:
    case b::mean:
    case b::sum:
    case b::reshape:
    case b::squeeze:
    case b::expand_dims:
    case b::transpose:
    case b::concatenation:
    case b::pack:
    case b::unpack:
    case b::split:
    case b::split_v:
    case b::slice:
    case b::strided_slice:
    case b::pad:
    case b::conv_2d:
    case b::depthwise_conv_2d:
    case b::fully_connected:
    case b::average_pool_2d:
    case b::max_pool_2d:
    case b::svdf:  // int8 SVDF's int16 time weights and state (import_svdf checks its types)
    case b::unidirectional_sequence_lstm:  // int8 LSTM's int16 cell state (import_sequence_lstm checks its types)
    case b::cast:
    case b::select_v2:
    case b::resize_nearest_neighbor:
    case b::transpose_conv:
    case b::batch_matmul:
    case b::padv2: return true;
    case b::reverse_v2:
    case b::broadcast_to:  // TFLM's copies elements of any size
    case b::dynamic_update_slice: return true;
    default: return false;
  }
}

// Refuses op `n` (the import of operator `op`) if an int16 tensor of it is one TFLM does not run: at an
// operator without an int16 kernel in TFLM (unsupported_dtype, int16), or with a zero point other than 0
// where the op kind's int16 kernel needs 0 (tflite_invalid_quantization, int16_zero_point), or a result
// scale other than the one the kernel writes (int16_result_scale: LOGISTIC's and TANH's 2^-15).
template <class S>
constexpr bool check_int16_operands(S& s, std::int32_t op, const op_plan& p, const node& n) {
  const bool symmetric = ops::facts(n.kind).int16_symmetric;
  const std::int32_t result_exponent = ops::facts(n.kind).int16_result_exponent;
  for (std::int32_t k = -1; k < n.input_count; ++k) {
    const std::int32_t t = k < 0 ? n.output : n.inputs[static_cast<std::size_t>(k)];
    if (t < 0 || s.m.tensor_at(t).type != dtype::i16) continue;
    if (!tflm_runs_int16(p.code)) {
      s.fail(error_code::unsupported_dtype, op, p.kind, {.rejected_value = static_cast<std::int64_t>(dtype::i16)}, {},
             s.m.tensor_at(t).dims);
      return false;
    }
    if (symmetric && s.m.tensor_at(t).quant.zero_point != 0) {
      s.fail(frontend_error::tflite_invalid_quantization, op, p.kind,
             {.tensor = t, .reason = static_cast<std::int64_t>(quantization_problem::int16_zero_point)});
      return false;
    }
    const ctnn::detail::quant::rounded_log2 scale = ctnn::detail::quant::checked_log2(s.m.tensor_at(t).quant.scale);
    if (t == n.output && result_exponent != 0 && !(scale.power_of_two && scale.exponent == result_exponent)) {
      s.fail(frontend_error::tflite_invalid_quantization, op, p.kind,
             {.tensor = t, .reason = static_cast<std::int64_t>(quantization_problem::int16_result_scale)});
      return false;
    }
  }
  return true;
}

}  // namespace ctnn::tflite::detail
