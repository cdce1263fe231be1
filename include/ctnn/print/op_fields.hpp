#pragma once
// The printer's text of an op's attributes and of a kernel call's parameters (print/printer.hpp): the op
// kinds print themselves (ops/descriptor.hpp: put_attributes, put_params).
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/ir/op_kind.hpp>
#include <ctnn/ir/printer_params.hpp>
#include <ctnn/ir/printer_text.hpp>
#include <ctnn/ir/printer_view.hpp>
#include <ctnn/ops/registry.hpp>

namespace ctnn::detail {

// The attributes an op kind reads (after its fused activation).
inline void put_attributes(text_writer& w, const module_view& m, const node& n) {
  const op_attributes& a = n.attrs;
  const std::int32_t rank = m.valid_tensor(n.inputs[0]) ? m.tensor_at(n.inputs[0]).dims.rank : 0;
  const bool resolved = m.has(fact::shapes_inferred);
  ops::visit(n.kind, [&](auto d) { d.put_attributes(w, a, ops::printed_op{rank, resolved}); });
}

// A kernel's compile-time parameters in one line: "conv2d f32 +relu [1,8,8,1] -> [1,8,8,8] window ...".
inline void put_kernel_params(text_writer& w, const kernel_params& p) {
  w.put(name_of(p.kind));
  w.put(" ");
  w.put(name_of(p.type));
  if (p.fused != activation::none) {
    w.put(" +");
    w.put(name_of(p.fused));
  }
  w.put(" ");
  put_shape(w, p.in);
  if (p.in2.rank > 0) {  // a second operand: binary ops, batch_matmul, ONNX's MatMul (its weights)
    w.put(", ");
    put_shape(w, p.in2);
  }
  if (p.in3.rank > 0) {  // a third operand: select
    w.put(", ");
    put_shape(w, p.in3);
  }
  w.put(" -> ");
  put_shape(w, p.out);
  if (p.out_type != p.type) {  // quantize, dequantize, ONNX's integer ops with an int32 result
    w.put(" ");
    w.put(name_of(p.out_type));
  }
  ops::visit(p.kind, [&](auto d) { d.put_params(w, p); });
}

}  // namespace ctnn::detail
