#pragma once
// Errors found while compiling a model. Passes never throw: a pass that finds a problem records it in
// the module's `error` field and later passes leave the module unchanged; compile<> then turns the
// diagnostic into a compile error whose template arguments carry the numbers (op index, shapes, bytes).
#include <cstdint>
#include <type_traits>

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

  constexpr diagnostic() = default;
  constexpr diagnostic(error_code c, std::int32_t at_node, op_kind op, const shape& want, const shape& got,
                       std::int64_t a = 0, std::int64_t b = 0)
      : value_a(a), value_b(b), code(c), node(at_node), kind(op), expected(want), actual(got) {}

  constexpr bool failed() const { return code != error_code::none; }
};
static_assert(std::has_unique_object_representations_v<diagnostic>,
              "ctnn::diagnostic must have no padding bytes (clang 14 template-argument bug).");

}  // namespace ctnn
