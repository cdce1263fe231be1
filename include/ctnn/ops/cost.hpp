#pragma once
// The multiply-accumulates of any op (ir/op_cost.hpp counts them as docs/memory.md does): its descriptor's
// `macs`, or, for the op kinds not yet written as descriptors, the switch of ir/op_cost.hpp. Patch
// execution and the run-time tools' bound on a model's work (ctnn-run --max-macs, the fuzz targets) call it.
#include <cstdint>

#include <ctnn/ir/op_cost.hpp>
#include <ctnn/ops/registry.hpp>

namespace ctnn::ops {

// MACs of op `n` of `m` whose result has extents `out` (its own result's, or a patch's).
template <class Module>
constexpr std::int64_t macs_of(const Module& m, const node& n, const shape& out) {
  std::int64_t macs = 0;
  if (visit(n.kind, [&](auto d) { macs = d.macs(m, n, out); })) return macs;
  return op_cost::macs_of_node(m, n, out);
}

// MACs of a whole module: the sum over its ops.
template <class Module>
constexpr std::int64_t model_macs(const Module& m) {
  std::int64_t total = 0;
  for (std::int32_t i = 0; i < m.node_count; ++i) total += macs_of(m, m.node_at(i), m.tensor_at(m.node_at(i).output).dims);
  return total;
}

}  // namespace ctnn::ops
