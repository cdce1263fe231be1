#pragma once
// crop (patch execution, docs/memory.md): a copy of the NHWC window of its input that starts at row
// attrs.patch().row, column attrs.patch().column and has the shape attrs.target. The descriptor of
// op_kind::crop (ops/descriptor.hpp), and what it shares with paste.
#include <cstdint>

#include <ctnn/ir/shape_rules.hpp>
#include <ctnn/kernel/reference/patch_copy.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

// crop and paste move the bytes of a window (any element type the kernels run: its quantization is the
// whole tensor's), placed by attrs.patch().
struct patch_window_copy : op_defaults {
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || type == dtype::i8; }

  template <class Module>
  static constexpr void prepare(const Module&, const node& n, kernel_params& p) {
    p.set(n.attrs.patch());
  }
  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    put_place(w, a.patch());
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    put_place(w, p.patch());
  }
  template <class Writer>
  static void put_place(Writer& w, const patch_fields& at) {
    w.field("  at row ", at.row);
    w.field(" column ", at.column);
  }
};

struct crop : patch_window_copy {
  static constexpr op_kind kind = op_kind::crop;

  // The window attrs.target lies inside the input.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    shape_rules::fit_window(m, node_id, m.tensor_at(n.inputs[0]).dims, n.attrs.target);
    return n.attrs.target;
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::crop(p, operands[0], result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    kernel::reference::crop(p, static_cast<const std::int8_t*>(operands[0]), static_cast<std::int8_t*>(result));
  }
};

}  // namespace ctnn::ops
