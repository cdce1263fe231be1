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
  const std::int64_t elements = out.elements();
  const window& w = n.attrs.win;
  const shape& in = m.tensor_at(n.inputs[0]).dims;
  switch (n.kind) {
    case op_kind::conv2d: {
      const std::int32_t in_channels = n.attrs.layout == data_layout::onnx && in.rank > 1 ? in[1] : in.last();
      return elements * w.kernel_h * w.kernel_w * (in_channels / (n.attrs.groups > 0 ? n.attrs.groups : 1));
    }
    case op_kind::depthwise_conv2d: return elements * w.kernel_h * w.kernel_w;
    case op_kind::dense:
      if (n.attrs.layout == data_layout::onnx) return elements * in.last();  // A [..., M, K] x B [K, N]
      return elements * (in.elements() / (out.rank > 0 && out[0] > 0 ? out[0] : 1));
    default: return elements;
  }
}

}  // namespace ctnn::op_cost
