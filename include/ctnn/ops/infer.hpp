#pragma once
// The shape rule of any op: its descriptor's (ops/descriptor.hpp; the helpers of ir/shape_rules.hpp serve
// them). infer_types, the fusion and patch passes and the ONNX
// importer (shapes of folded constants) call it.
#include <cstdint>

#include <ctnn/ir/shape_rules.hpp>
#include <ctnn/ops/registry.hpp>

namespace ctnn::ops {

// A described op given fewer or more inputs than its descriptor's `operands` fails with
// input_count_mismatch (count_expected: the bound it broke) before its rule runs.
template <class Module>
constexpr shape infer_shape(Module& m, std::int32_t node_id) {
  shape out{};
  const node& n = m.node_at(node_id);
  const bool described = visit(n.kind, [&](auto d) {
    if (n.input_count < d.operands.min || n.input_count > d.operands.max) {
      const std::int32_t broken = n.input_count < d.operands.min ? d.operands.min : d.operands.max;
      m.fail({error_code::input_count_mismatch, node_id, n.kind, {}, {}, {.count_expected = broken, .count_actual = n.input_count}});
      return;
    }
    out = d.infer(m, node_id);
  });
  return described ? out : m.tensor_at(n.inputs[0]).dims;  // op_kind::none
}

// The element type of an op's result: attrs.out_type for a descriptor that says so, else shape_rules'.
template <class Module>
constexpr dtype result_type(const Module& m, const node& n) {
  const bool from_attributes = facts(n.kind).result_type_from_attributes;
  return from_attributes ? n.attrs.out_type : shape_rules::result_type(m, n);
}

}  // namespace ctnn::ops
