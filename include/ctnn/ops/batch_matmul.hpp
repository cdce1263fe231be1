#pragma once
// batch_matmul: numpy's matmul of two activations, A [..., M, K] x B [..., K, N] -> [..., M, N], the batch
// dims (all but the last two) broadcast (ONNX MatMul whose B is not a constant). Float32 only: there is no
// quantized recipe. The descriptor of op_kind::batch_matmul (ops/descriptor.hpp).
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/shape_rules.hpp>
#include <ctnn/kernel/reference/matmul.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct batch_matmul : op_defaults {
  static constexpr op_kind kind = op_kind::batch_matmul;
  static constexpr operand_range operands{2, 2};
  static constexpr std::size_t operands_read(const kernel_params&) { return 2; }
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32; }

  // Both operands of one element type and of rank >= 2 (the importer promotes 1-D operands), A's K equal
  // to B's; the result's batch dims are the broadcast of theirs.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const shape a = m.tensor_at(n.inputs[0]).dims, b = m.tensor_at(n.inputs[1]).dims;
    if (!shape_rules::operands_share_type(m, node_id, 2)) return a;
    shape out{};
    if (a.rank < 2 || b.rank < 2 || a.last() != b.at(-2) || !shape_rules::broadcast(matrix_batch(a), matrix_batch(b), out)) {
      m.fail({error_code::input_shapes_differ, node_id, n.kind, a, b, {.input_slot = 1}});
      return a;
    }
    out.dims[static_cast<std::size_t>(out.rank)] = a.at(-2);
    out.dims[static_cast<std::size_t>(out.rank + 1)] = b.last();
    out.rank += 2;
    return out;
  }
  template <class Module>
  static constexpr void prepare(const Module& m, const node& n, kernel_params& p) {
    p.in2 = m.tensor_at(n.inputs[1]).dims;
  }
  // K per result element.
  template <class Module>
  static constexpr std::int64_t macs(const Module& m, const node& n, const shape& out) {
    return out.elements() * m.tensor_at(n.inputs[0]).dims.last();
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::batch_matmul(p, operands[0], operands[1], result);
  }
};

}  // namespace ctnn::ops
