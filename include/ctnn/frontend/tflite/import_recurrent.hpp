#pragma once
// The TFLite importer's stateful ops (import.hpp): SVDF, whose activation state is a variable tensor
// (tensor_role::state), and the checks that a variable tensor is read only where an op keeps its state.
#include <cstdint>

#include <ctnn/frontend/tflite/import_operands.hpp>
#include <ctnn/frontend/tflite/import_shape_ops.hpp>
#include <ctnn/frontend/tflite/schema.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/ops/registry.hpp>

namespace ctnn::tflite::detail {

// SVDF as TFLM's PrepareSvdf takes it: five operands (input, feature weights, time weights, bias or none, the
// activation state: a variable tensor); float32 throughout, or int8 input, feature weights and output with
// time weights and state both int16 or both int8 and an int32 bias whose scale is the state's times the time
// weights'. Hybrid models (float input, int8 weights) are refused, as TFLM refuses them.
template <class S>
constexpr void import_svdf(S& s, op_import& im) {
  if (!expect_inputs(s, im.op, im.plan, im.view, 5, 5)) return;
  im.inputs = {operand(s, im.view, 0), operand(s, im.view, 1), operand(s, im.view, 2), operand(s, im.view, 3, true),
               operand(s, im.view, 4)};
  im.input_count = 5;
  if (s.failed()) return;
  const std::int32_t rank = s.f.reader().template scalar<std::int32_t>(im.plan.options, schema::svdf::rank, 0);
  if (s.take_reader_error()) return;
  if (rank <= 0) return option_error(s, im, schema::svdf::rank, rank);
  im.attrs.svdf.rank = rank;
  const tensor& in = s.m.tensor_at(im.inputs[0]);
  const tensor& time = s.m.tensor_at(im.inputs[2]);
  const tensor& state = s.m.tensor_at(im.inputs[4]);
  const bool integer = in.type == dtype::i8;
  im.attrs.fused = integer ? activation::none : im.fused;  // TFLM's int8 kernel applies none (ops/svdf.hpp)
  if (!integer && in.type != dtype::f32)
    return s.fail(error_code::unsupported_dtype, im.op, im.plan.kind, {.rejected_value = static_cast<std::int64_t>(in.type)}, {}, in.dims);
  const dtype memory_type = integer ? time.type : dtype::f32;
  if (!constant_operand(s, im.op, im.plan, im.inputs[1], 1, in.type) ||
      (integer && memory_type != dtype::i16 && memory_type != dtype::i8) ||
      !constant_operand(s, im.op, im.plan, im.inputs[2], 2, memory_type) ||
      !constant_operand(s, im.op, im.plan, im.inputs[3], 3, integer ? dtype::i32 : dtype::f32)) {
    if (!s.failed()) constant_operand(s, im.op, im.plan, im.inputs[2], 2, dtype::i16);  // names the time weights
    return;
  }
  if (state.role != tensor_role::state)
    return s.fail(frontend_error::tflite_unsupported_tensor_feature, im.op, im.plan.kind,
                  {.tensor = im.inputs[4], .reason = static_cast<std::int64_t>(tensor_feature::state_not_variable)});
  if (state.type != memory_type || s.m.tensor_at(im.out).type != in.type)
    return s.fail(error_code::unsupported_dtype, im.op, im.plan.kind,
                  {.faulty_operand = state.type != memory_type ? 4 : -1,
                   .rejected_value = static_cast<std::int64_t>(state.type != memory_type ? state.type : s.m.tensor_at(im.out).type)},
                  {}, state.dims);
  // TFLM's Prepare: |bias scale - state scale * time weights scale| < 1e-5.
  if (integer && im.inputs[3] >= 0) {
    const double difference = static_cast<double>(s.m.tensor_at(im.inputs[3]).quant.scale) -
                              static_cast<double>(state.quant.scale * time.quant.scale);
    if (difference >= 1e-5 || difference <= -1e-5)
      return s.fail(frontend_error::tflite_invalid_quantization, im.op, im.plan.kind,
                    {.tensor = im.inputs[3], .reason = static_cast<std::int64_t>(quantization_problem::bias_scale)});
  }
}

// Every variable tensor a node reads must be that node's state (its descriptor's state_operands), and no
// other node may read it: one op owns each state, so the order of its updates is the graph's. Run over the
// whole graph once the ops are imported (the nodes an import adds around an op included).
template <class S>
constexpr void check_state_operands(S& s) {
  for (std::int32_t id = 0; id < s.m.node_count; ++id) {
    const node& n = s.m.node_at(id);
    const std::uint32_t state_slots = ops::facts(n.kind).state_operands;
    for (std::int32_t k = 0; k < n.input_count; ++k) {
      const std::int32_t t = n.inputs[static_cast<std::size_t>(k)];
      if (t < 0 || s.m.tensor_at(t).role != tensor_role::state) continue;
      bool owned = ((state_slots >> k) & 1u) != 0;
      for (std::int32_t other = 0; other < s.m.node_count && owned; ++other)
        for (std::int32_t j = 0; j < s.m.node_at(other).input_count && other != id; ++j)
          owned = owned && s.m.node_at(other).inputs[static_cast<std::size_t>(j)] != t;
      if (!owned)
        return s.fail(frontend_error::tflite_unsupported_tensor_feature, -1, n.kind,
                      {.tensor = t, .reason = static_cast<std::int64_t>(tensor_feature::variable_use)});
    }
  }
}

}  // namespace ctnn::tflite::detail
