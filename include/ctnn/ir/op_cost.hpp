#pragma once
// The work of an op: its multiply-accumulates (MACs), counted as docs/memory.md counts them (pooling and
// elementwise ops: one per window tap or output element; a reduction reads more, but its input is bounded
// by the arena). Patch execution weighs its extra work with it
// (pass/detail/patch_geometry.hpp), and the run-time tools bound the work a model file may ask for
// (ctnn-run --max-macs, the fuzz targets): a hostile file must not pin a machine. macs_of_node counts the
// op kinds not yet written as descriptors; ops/cost.hpp asks the descriptor first: call that one.
#include <cstdint>

#include <ctnn/ir/module.hpp>

namespace ctnn::op_cost {

// MACs of op `n` of `m` whose result has extents `out` (its own result's, or a patch's), when its kind has
// no descriptor (ops::macs_of).
template <class Module>
constexpr std::int64_t macs_of_node(const Module& m, const node& n, const shape& out) {
  static_cast<void>(m);
  static_cast<void>(n);
  return out.elements();
}

}  // namespace ctnn::op_cost
