#pragma once
// The shape rule of any op: its descriptor's (ops/descriptor.hpp), or, for the op kinds not yet written as
// descriptors, the switch of ir/shape_rules.hpp. infer_types, the fusion and patch passes and the ONNX
// importer (shapes of folded constants) call it.
#include <cstdint>

#include <ctnn/ir/shape_rules.hpp>
#include <ctnn/ops/registry.hpp>

namespace ctnn::ops {

template <class Module>
constexpr shape infer_shape(Module& m, std::int32_t node_id) {
  shape out{};
  if (visit(m.node_at(node_id).kind, [&](auto d) { out = d.infer(m, node_id); })) return out;
  return shape_rules::infer_node(m, node_id);
}

}  // namespace ctnn::ops
