#pragma once
// fetch_rows (patch execution with a streamed input, docs/memory.md): its result, the row buffer
// attrs.target (a view of the previous one's, its second input), keeps attrs.fetch().kept_rows rows from
// row kept_from at its top; below them the caller writes fetched_rows rows of the model input (its first
// input, a ctnn::row_source) from row first_row. The descriptor of op_kind::fetch_rows (ops/descriptor.hpp).
#include <cstdint>

#include <ctnn/ir/shape_rules.hpp>
#include <ctnn/kernel/reference/patch_copy.hpp>
#include <ctnn/kernel/row_source.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct fetch_rows : op_defaults {
  static constexpr op_kind kind = op_kind::fetch_rows;
  // The model input; after the first fetch also the previous row buffer (its result is a view of it) and
  // the latest view of the output, which orders it after the previous patch row's crops.
  static constexpr operand_range operands{1, 3};
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || type == dtype::i8; }

  // Whole rows of the input, kept and fetched ones, fit in the row buffer attrs.target.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    shape_rules::fit_rows(m, node_id, m.tensor_at(n.inputs[0]).dims, n.attrs.target);
    return n.attrs.target;
  }
  template <class Module>
  static constexpr void prepare(const Module&, const node& n, kernel_params& p) {
    p.set(n.attrs.fetch());
  }

  // The first operand is the caller's row_source, not a tensor's data.
  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::fetch_rows(p, static_cast<const row_source*>(static_cast<const void*>(operands[0])), result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    kernel::reference::fetch_rows(p, static_cast<const row_source*>(operands[0]), static_cast<std::int8_t*>(result));
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    w.field("  keeps ", a.fetch().kept_rows);
    w.field(" rows, fetches ", a.fetch().fetched_rows);
    w.field(" from row ", a.fetch().first_row);
  }
};

}  // namespace ctnn::ops
