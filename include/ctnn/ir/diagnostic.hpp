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
  input_shapes_differ,        // inputs do not agree: `expected` (input 0) vs `actual` (the input at `input_slot`;
                              // crop, paste and fetch_rows: the window vs the map; slice: the input vs the
                              // window, first outside it along `axis`)
  weight_count_mismatch,      // a constant has `count_actual` elements where the op needs `count_expected`
  bias_count_mismatch,        // a bias has `count_actual` elements where the op needs `count_expected`
  weights_and_bias_disagree,  // no units<>: the weights (`weight_elements`) imply another output count than the
                              // bias (`bias_elements`); `expected` is the weights' shape per output
  channels_not_divisible,     // conv2d `groups` do not divide the `channels`
  window_larger_than_input,   // a conv/pool window does not fit: input `actual`, window `expected` (H, W)
  reshape_element_count,      // reshape changes the element count: `count_expected` (the input's) -> `count_actual`
  invalid_reshape_target,     // a reshape extent below -1, or more than one -1: target `expected`
  window_all_padding,         // a pool window at `output_position` (along dimension `axis`) lies only in
                              // padding; input `actual`
  pads_beyond_rank,           // pad pairs given for dimension `axis` of a rank-`rank_actual` input
  unsupported_rank,           // the op needs rank `rank_expected`, the input has rank `rank_actual`
  invalid_axis,               // `axis` out of range for rank `rank_actual`
  unknown_input_name,         // a DSL graph node (at `position` in the graph) names, as its input `input_slot`,
                              // a node no earlier node has
  too_many_inputs,            // an op has `count_actual` inputs, more than ctnn::max_node_inputs (`count_expected`)
  input_count_mismatch,       // an op takes `count_expected` inputs but was given `count_actual`
  unsupported_dtype,          // the op has no kernel for this dtype (`rejected_value`: ctnn::dtype; input `actual`),
                              // or an int8 operand lacks its quantization (`faulty_operand`)
  pass_prerequisite_missing,  // a pass (at `position` in the pipeline) ran before the pass that produces what
                              // it reads (`missing_facts`)
  no_model_outputs,           // the model declares no outputs (`count_expected`: its inputs): nothing it computes
  extent_too_large,           // the result's extent along `axis` would be `count_actual`, above 2^31 - 1 (concat, pad)
                              // would be kept
  pipeline_rejected,          // the pipeline (a pass's interface or order) was rejected at the type level (already reported)
};

// Errors of the model-file frontends (ctnn::tflite). They are values of error_code numbered from 100,
// named here rather than as enumerators of error_code so that exhaustive switches over error_code (the
// printer's names) keep compiling until they learn them; ctnn::tflite::describe() words them and
// errors.hpp turns them into compile errors. Fields of the diagnostic, per code:
//   node:    the op index in the file's execution order (-1 when the problem is not an op's)
//   kind:    the IR op kind the TFLite op maps to (conv2d when none)
//   the named fields (diagnostic_details), expected, actual: as listed per code.
enum class frontend_error : std::int32_t {
  tflite_malformed_model = 100,        // byte_offset; reason: ctnn::flatbuffers::expectation
  tflite_unsupported_operator,         // operator_code (ctnn::tflite::builtin_operator)
  tflite_unsupported_activation,       // operator_code; rejected_value: fused ActivationFunctionType
  tflite_unsupported_padding,          // operator_code; rejected_value: Padding value
  tflite_invalid_window,               // operator_code; rejected_value: a stride, dilation or filter size < 1
  tflite_softmax_beta,                 // operator_code; rejected_value: beta in millionths (only 1.0 is supported)
  tflite_unsupported_fully_connected,  // operator_code; reason: ctnn::tflite::fully_connected_feature
  tflite_hybrid_model,                 // operator_code; tensor: the int8 weight tensor
  tflite_unsupported_tensor_type,      // tensor; rejected_value: ctnn::tflite::tensor_type
  tflite_no_static_shape,              // tensor, rank_actual; actual: the shape (-1 = unknown)
  tflite_rank_too_high,                // tensor, rank_actual (ctnn::max_rank is 6)
  tflite_unsupported_tensor_feature,   // tensor; reason: ctnn::tflite::tensor_feature
  tflite_constant_size_mismatch,       // tensor; bytes_available: the buffer's size; expected: the shape
  tflite_unsupported_operand,          // operator_code, input_slot (the operand must be a constant of
                                       // the type the op reads: int32 shapes/pads/axes, weights, bias)
  tflite_output_count,                 // operator_code; count_actual: the op's outputs (1 supported)
  tflite_too_many_model_io,            // io_side; count_actual: their count (max 8)
  tflite_invalid_quantization,         // tensor; reason: ctnn::tflite::quantization_problem
  tflite_unrepresentable_multiplier,   // operator_code; rejected_value: the shift of the requantization
                                       // multiplier the op's scales give (TFLite's QuantizeMultiplier accepts at
                                       // most 31; LOGISTIC, TANH and SOFTMAX need 0 to 31)
  tflite_unsupported_option,           // operator_code; reason: the option's field in the op's options table
                                       // (schema.hpp); rejected_value: its value (STRIDED_SLICE's ellipsis and
                                       // new-axis masks, which TFLM ignores; a block size below 1)
  tflite_invalid_custom_options,       // operator_code; reason: ctnn::tflite::custom_options_problem; byte_offset
                                       // (malformed: where in the file), position (the key), rejected_value
  tflite_uint8_operand,                // operator_code; tensor: a UINT8 tensor of an op TFLM does not run on
                                       // uint8 (tflite/uint8_operators.hpp)
  tflite_unsupported_init_subgraph,    // node: the CALL_ONCE; position: its init subgraph (an index out of range
                                       // too); input_slot: the op there that is not VAR_HANDLE or an ASSIGN_VARIABLE
                                       // of a constant (-1: none, the subgraph itself); operator_code: that op's
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
    case frontend_error::tflite_unsupported_option: return "tflite_unsupported_option";
    case frontend_error::tflite_invalid_custom_options: return "tflite_invalid_custom_options";
    case frontend_error::tflite_uint8_operand: return "tflite_uint8_operand";
    case frontend_error::tflite_unsupported_init_subgraph: return "tflite_unsupported_init_subgraph";
  }
  return "?";
}
constexpr bool is_frontend_error(error_code c) {
  return static_cast<std::int32_t>(c) >= static_cast<std::int32_t>(frontend_error::tflite_malformed_model) &&
         static_cast<std::int32_t>(c) <= static_cast<std::int32_t>(frontend_error::tflite_unsupported_init_subgraph);
}

// Errors of the memory planner (plan_memory), numbered from 200 for the same reason as frontend_error.
enum class memory_error : std::int32_t {
  pool_budget_exceeded = 200,  // pool `expected.dims[0]` needs `bytes_needed`, its limit is `bytes_available`;
                               // `node`/`kind`: the op at that pool's liveness peak (-1: the constants of
                               // a read-only pool)
  pin_unknown_tensor,          // the pin at `position` names no tensor (or op) that has a buffer to place
  pin_unknown_pool,            // the pin at `position` names no writable pool
  pin_ambiguous_tensor_name,   // the pin at `position` names a tensor name that `tensor` and `other_tensor`
                               // share, each with a buffer of its own
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

// The numbers a diagnostic carries besides its op and shapes, each named for what it is. A code sets the
// few its enum comment lists and leaves the rest 0; a field serves several codes only where it means the
// same thing in each. Construct with designated initializers in this order:
// `{.count_expected = 8, .count_actual = 4}`.
struct diagnostic_details {
  // Where.
  std::int64_t operator_code = 0;   // the op's code in the model file: TFLite builtin_operator, ONNX op_type
  std::int64_t tensor = 0;          // a tensor's index (in the model file for the frontends, else in the module)
  std::int64_t other_tensor = 0;    // a second tensor's index
  std::int64_t byte_offset = 0;     // a position in the model file (where reading failed; an ONNX value's name)
  std::int64_t input_slot = 0;      // an operand of the op, by its position among the op's inputs
  std::int64_t faulty_operand = 0;  // unsupported_dtype: the operand at fault + 1 (0: the op's element type
                                    // itself; -1: the fused activation)
  std::int64_t position = 0;        // a position in a list the user wrote: a pin, a pipeline's pass, a graph node
  std::int64_t attribute = 0;       // an ONNX attribute (ctnn::onnx::attribute)
  // How many.
  std::int64_t count_expected = 0;  // elements, inputs or outputs the op or the format takes (or at most takes)
  std::int64_t count_actual = 0;    // elements, inputs or outputs it has
  std::int64_t weight_elements = 0;
  std::int64_t bias_elements = 0;
  std::int64_t channels = 0;
  std::int64_t groups = 0;
  std::int64_t bytes_needed = 0;
  std::int64_t bytes_available = 0;  // a pool's limit, a constant buffer's size
  std::int64_t prefix_ops = 0;       // ops in a patch_execution prefix
  std::int64_t added_ops = 0;        // ops a pass would add to the module
  std::int64_t added_tensors = 0;    // tensors a pass would add to the module
  // Shape.
  std::int64_t axis = 0;             // a dimension of the input
  std::int64_t output_position = 0;  // an index along that dimension of the output
  std::int64_t rank_expected = 0;
  std::int64_t rank_actual = 0;
  // What.
  std::int64_t reason = 0;          // why, as an enumerator of the enum its code names (a reader's expectation,
                                    // a feature, a problem)
  std::int64_t rejected_value = 0;  // the value ctnn does not accept, as its code says (an enumerator, a count,
                                    // a fixed-point number)
  std::int64_t missing_facts = 0;   // ctnn::fact bits a pass needs that no earlier pass established
  std::int64_t io_side = 0;         // the model's interface: 0 = its inputs, 1 = its outputs

  friend constexpr bool operator==(const diagnostic_details&, const diagnostic_details&) = default;
};

// Every detail by name, in declaration order: for output that lists them all (the printer's diagnostic line,
// executor metadata JSON), so that a new field is named in one place.
struct diagnostic_detail_field {
  std::string_view name;
  std::int64_t diagnostic_details::*member;
};
inline constexpr diagnostic_detail_field diagnostic_detail_fields[] = {
    {"operator_code", &diagnostic_details::operator_code},
    {"tensor", &diagnostic_details::tensor},
    {"other_tensor", &diagnostic_details::other_tensor},
    {"byte_offset", &diagnostic_details::byte_offset},
    {"input_slot", &diagnostic_details::input_slot},
    {"faulty_operand", &diagnostic_details::faulty_operand},
    {"position", &diagnostic_details::position},
    {"attribute", &diagnostic_details::attribute},
    {"count_expected", &diagnostic_details::count_expected},
    {"count_actual", &diagnostic_details::count_actual},
    {"weight_elements", &diagnostic_details::weight_elements},
    {"bias_elements", &diagnostic_details::bias_elements},
    {"channels", &diagnostic_details::channels},
    {"groups", &diagnostic_details::groups},
    {"bytes_needed", &diagnostic_details::bytes_needed},
    {"bytes_available", &diagnostic_details::bytes_available},
    {"prefix_ops", &diagnostic_details::prefix_ops},
    {"added_ops", &diagnostic_details::added_ops},
    {"added_tensors", &diagnostic_details::added_tensors},
    {"axis", &diagnostic_details::axis},
    {"output_position", &diagnostic_details::output_position},
    {"rank_expected", &diagnostic_details::rank_expected},
    {"rank_actual", &diagnostic_details::rank_actual},
    {"reason", &diagnostic_details::reason},
    {"rejected_value", &diagnostic_details::rejected_value},
    {"missing_facts", &diagnostic_details::missing_facts},
    {"io_side", &diagnostic_details::io_side},
};
static_assert(sizeof(diagnostic_detail_fields) / sizeof(diagnostic_detail_field) * sizeof(std::int64_t) ==
                  sizeof(diagnostic_details),
              "diagnostic_detail_fields must list every field of diagnostic_details.");

// A template argument of diagnostic_check, so it has no padding bytes (clang 14 miscompiles class-type
// template arguments with padding); hence the member order. The details are a public base so that the
// named fields read as the diagnostic's own (D.bytes_needed).
struct diagnostic : diagnostic_details {
  error_code code = error_code::none;
  std::int32_t node = -1;  // op index in execution order
  op_kind kind = op_kind::none;
  std::int32_t reserved = 0;
  shape expected{};
  shape actual{};
  // The name of op `node` in the model (docs/design.md §3): its result's (a TFLite tensor, an ONNX output, a
  // DSL node), or the ONNX node's own name in the ONNX importer's errors. Empty when no op is at fault.
  name op_name{};

  constexpr diagnostic() = default;
  constexpr diagnostic(error_code c, std::int32_t at_node, op_kind op, const shape& want, const shape& got,
                       const diagnostic_details& details = {}, const name& op_named = {})
      : diagnostic_details(details), code(c), node(at_node), kind(op), expected(want), actual(got), op_name(op_named) {}

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
