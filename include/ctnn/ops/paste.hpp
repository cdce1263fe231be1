#pragma once
// paste (patch execution, docs/memory.md): writes its first input into its result, the whole tensor
// attrs.target (a view of its second input, absent for the first paste), at row attrs.patch().row, column
// attrs.patch().column; the rest of the result is untouched. The descriptor of op_kind::paste
// (ops/descriptor.hpp).
#include <cstdint>

#include <ctnn/ir/shape_rules.hpp>
#include <ctnn/kernel/reference/patch_copy.hpp>
#include <ctnn/ops/crop.hpp>

namespace ctnn::ops {

struct paste : patch_window_copy {
  static constexpr op_kind kind = op_kind::paste;
  static constexpr operand_range operands{1, 2};  // the patch; then the whole tensor's previous view

  // The input fits inside attrs.target at its place.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    shape_rules::fit_window(m, node_id, n.attrs.target, m.tensor_at(n.inputs[0]).dims);
    return n.attrs.target;
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::paste(p, operands[0], result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    kernel::reference::paste(p, static_cast<const std::int8_t*>(operands[0]), static_cast<std::int8_t*>(result));
  }
};

}  // namespace ctnn::ops
