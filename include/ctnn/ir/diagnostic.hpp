#pragma once
// Errors found while compiling a model. Passes never throw: a pass that finds a problem records it in
// the module's `error` field and later passes leave the module unchanged; compile<> then turns the
// diagnostic into a compile error whose template arguments carry the numbers (op index, shapes, bytes).
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include <ctnn/ir/name.hpp>
#include <ctnn/ir/op_kind.hpp>
#include <ctnn/ir/shape.hpp>

namespace ctnn {

enum class error_code : std::int32_t {
  none,
  input_shapes_differ,        // add/mul/concat inputs do not agree: `expected` vs `actual`
  weight_count_mismatch,      // a constant has `value_b` elements where the op needs `value_a`
  bias_count_mismatch,        // a bias has `value_b` elements where the op needs `value_a`
  weights_and_bias_disagree,  // no units<>: weights (`value_a` elements) imply another output count than the
                              // bias (`value_b` elements); `expected` is the weights' shape per output
  channels_not_divisible,     // conv2d groups do not divide the channels (`value_a` channels, `value_b` groups)
  window_larger_than_input,   // a conv/pool window does not fit: input `actual`, window `value_a` x `value_b`
  reshape_element_count,      // reshape changes the element count: `value_a` -> `value_b`
  invalid_reshape_target,     // a reshape extent below -1, or more than one -1: target `expected`
  window_all_padding,         // a pool window at output position `value_b` (along dim `value_a`) lies only
                              // in padding; input `actual`
  pads_beyond_rank,           // pad pairs given for dim `value_a` of a rank-`value_b` input
  unsupported_rank,           // the op needs rank `value_a`, the input has rank `value_b`
  invalid_axis,               // axis `value_a` out of range for rank `value_b`
  unknown_input_name,         // a DSL graph node names an input no earlier node has (`value_a`: input slot)
  too_many_inputs,            // an op has `value_a` inputs, more than ctnn::max_node_inputs (`value_b`)
  input_count_mismatch,       // an op takes `value_a` inputs but was given `value_b`
  unsupported_dtype,          // the op has no kernel for this dtype
  pass_prerequisite_missing,  // a pass ran before the pass that produces what it reads
  pipeline_rejected,          // the pipeline's pass order was rejected at the type level (already reported)
};

// Errors of the model-file frontends (ctnn::tflite). They are values of error_code numbered from 100,
// named here rather than as enumerators of error_code so that exhaustive switches over error_code (the
// printer's names) keep compiling until they learn them; ctnn::tflite::describe() words them and
// errors.hpp turns them into compile errors. Fields of the diagnostic, per code:
//   node:    the op index in the file's execution order (-1 when the problem is not an op's)
//   kind:    the IR op kind the TFLite op maps to (conv2d when none)
//   value_a, value_b, expected, actual: as listed per code.
enum class frontend_error : std::int32_t {
  tflite_malformed_model = 100,     // value_a: byte offset, value_b: ctnn::flatbuffers::expectation
  tflite_unsupported_operator,      // value_a: builtin code (ctnn::tflite::builtin_operator)
  tflite_unsupported_activation,    // value_a: builtin code, value_b: fused ActivationFunctionType
  tflite_unsupported_padding,       // value_a: builtin code, value_b: Padding value
  tflite_invalid_window,            // value_a: builtin code, value_b: a stride, dilation or filter size < 1
  tflite_softmax_beta,              // value_a: builtin code, value_b: beta in millionths (only 1.0 is supported)
  tflite_unsupported_fully_connected,  // value_a: builtin code, value_b: ctnn::tflite::fully_connected_feature
  tflite_hybrid_model,              // value_a: builtin code, value_b: the int8 weight tensor's index
  tflite_unsupported_tensor_type,   // value_a: tensor index, value_b: ctnn::tflite::tensor_type
  tflite_no_static_shape,           // value_a: tensor index, value_b: rank; actual: the shape (-1 = unknown)
  tflite_rank_too_high,             // value_a: tensor index, value_b: rank (ctnn::max_rank is 6)
  tflite_unsupported_tensor_feature,  // value_a: tensor index, value_b: ctnn::tflite::tensor_feature
  tflite_constant_size_mismatch,    // value_a: tensor index, value_b: the buffer's bytes; expected: the shape
  tflite_unsupported_operand,       // value_a: builtin code, value_b: operand slot (must be a constant of
                                    // the type the op reads: int32 shapes/pads/axes, weights, bias)
  tflite_output_count,              // value_a: builtin code, value_b: the op's output count (1 supported)
  tflite_too_many_model_io,         // value_a: 0 = inputs, 1 = outputs; value_b: their count (max 8)
  tflite_invalid_quantization,      // value_a: tensor index, value_b: ctnn::tflite::quantization_problem
  tflite_unrepresentable_multiplier,  // value_a: builtin code, value_b: the shift of the requantization
                                      // multiplier the op's scales give (TFLite's QuantizeMultiplier accepts at
                                      // most 31; LOGISTIC, TANH and SOFTMAX need 0 to 31)
};
constexpr error_code code_of(frontend_error e) { return static_cast<error_code>(e); }
constexpr std::string_view name_of(frontend_error e) {
  switch (e) {
    case frontend_error::tflite_malformed_model: return "tflite_malformed_model";
    case frontend_error::tflite_unsupported_operator: return "tflite_unsupported_operator";
    case frontend_error::tflite_unsupported_activation: return "tflite_unsupported_activation";
    case frontend_error::tflite_unsupported_padding: return "tflite_unsupported_padding";
    case frontend_error::tflite_invalid_window: return "tflite_invalid_window";
    case frontend_error::tflite_softmax_beta: return "tflite_softmax_beta";
    case frontend_error::tflite_unsupported_fully_connected: return "tflite_unsupported_fully_connected";
    case frontend_error::tflite_hybrid_model: return "tflite_hybrid_model";
    case frontend_error::tflite_unsupported_tensor_type: return "tflite_unsupported_tensor_type";
    case frontend_error::tflite_no_static_shape: return "tflite_no_static_shape";
    case frontend_error::tflite_rank_too_high: return "tflite_rank_too_high";
    case frontend_error::tflite_unsupported_tensor_feature: return "tflite_unsupported_tensor_feature";
    case frontend_error::tflite_constant_size_mismatch: return "tflite_constant_size_mismatch";
    case frontend_error::tflite_unsupported_operand: return "tflite_unsupported_operand";
    case frontend_error::tflite_output_count: return "tflite_output_count";
    case frontend_error::tflite_too_many_model_io: return "tflite_too_many_model_io";
    case frontend_error::tflite_invalid_quantization: return "tflite_invalid_quantization";
    case frontend_error::tflite_unrepresentable_multiplier: return "tflite_unrepresentable_multiplier";
  }
  return "?";
}
constexpr bool is_frontend_error(error_code c) {
  return static_cast<std::int32_t>(c) >= static_cast<std::int32_t>(frontend_error::tflite_malformed_model) &&
         static_cast<std::int32_t>(c) <= static_cast<std::int32_t>(frontend_error::tflite_unrepresentable_multiplier);
}

// Errors of the memory planner (plan_memory), numbered from 200 for the same reason as frontend_error.
enum class memory_error : std::int32_t {
  pool_budget_exceeded = 200,  // pool `expected.dims[0]` needs `value_a` bytes, its limit is `value_b`;
                               // `node`/`kind`: the op at that pool's liveness peak (-1: the constants of
                               // a read-only pool)
  pin_unknown_tensor,          // pin number `value_a` names no tensor (or op) that has a buffer to place
  pin_unknown_pool,            // pin number `value_a` names no writable pool
  pin_ambiguous_tensor_name,   // pin number `expected.dims[0]` names a tensor name that tensors `value_a` and
                               // `value_b` share, each with a buffer of its own
};
constexpr error_code code_of(memory_error e) { return static_cast<error_code>(e); }
constexpr std::string_view name_of(memory_error e) {
  switch (e) {
    case memory_error::pool_budget_exceeded: return "pool_budget_exceeded";
    case memory_error::pin_unknown_tensor: return "pin_unknown_tensor";
    case memory_error::pin_unknown_pool: return "pin_unknown_pool";
    case memory_error::pin_ambiguous_tensor_name: return "pin_ambiguous_tensor_name";
  }
  return "?";
}
constexpr bool is_memory_error(error_code c) {
  return static_cast<std::int32_t>(c) >= static_cast<std::int32_t>(memory_error::pool_budget_exceeded) &&
         static_cast<std::int32_t>(c) <= static_cast<std::int32_t>(memory_error::pin_ambiguous_tensor_name);
}

// A template argument of diagnostic_check, so it has no padding bytes (clang 14 miscompiles class-type
// template arguments with padding); hence the member order.
struct diagnostic {
  std::int64_t value_a = 0;
  std::int64_t value_b = 0;
  error_code code = error_code::none;
  std::int32_t node = -1;  // op index in execution order
  op_kind kind = op_kind::conv2d;
  std::int32_t reserved = 0;
  shape expected{};
  shape actual{};
  // The name of op `node` in the model (docs/design.md §3): its result's (a TFLite tensor, an ONNX output, a
  // DSL node), or the ONNX node's own name in the ONNX importer's errors. Empty when no op is at fault.
  name op_name{};

  constexpr diagnostic() = default;
  constexpr diagnostic(error_code c, std::int32_t at_node, op_kind op, const shape& want, const shape& got,
                       std::int64_t a = 0, std::int64_t b = 0, const name& op_named = {})
      : value_a(a), value_b(b), code(c), node(at_node), kind(op), expected(want), actual(got), op_name(op_named) {}

  constexpr bool failed() const { return code != error_code::none; }
};
static_assert(std::has_unique_object_representations_v<diagnostic>,
              "ctnn::diagnostic must have no padding bytes (clang 14 template-argument bug).");

// A name (of a pool or a tensor) carried by a diagnostic in its unused `actual` shape, so that the compile
// error can spell it (memory_error::pool_budget_exceeded, pin_ambiguous_tensor_name): rank = its length,
// four characters per extent. Names longer than diagnostic_name_capacity are cut.
inline constexpr std::size_t diagnostic_name_capacity = max_rank * 4;
constexpr shape diagnostic_name(std::string_view text) {
  shape packed{};
  const std::size_t length = text.size() < diagnostic_name_capacity ? text.size() : diagnostic_name_capacity;
  packed.rank = static_cast<std::int32_t>(length);
  for (std::size_t i = 0; i < length; ++i)
    packed.dims[i / 4] |= static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<unsigned char>(text[i])) << (8 * (i % 4)));
  return packed;
}
constexpr char diagnostic_name_char(const shape& packed, std::size_t i) {
  return static_cast<char>(static_cast<std::uint32_t>(packed.dims[i / 4]) >> (8 * (i % 4)) & 0xFFu);
}

}  // namespace ctnn
