#pragma once
// select: condition ? x : y, the three operands broadcast as numpy does (TFLite SELECT_V2, ONNX Where). The
// descriptor of op_kind::select (ops/descriptor.hpp); kernel/reference/logic.hpp has the kernel.
#include <cstdint>

#include <ctnn/ir/shape_rules.hpp>
#include <ctnn/kernel/reference/logic.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

// The condition is bool; x, y and the result share an element type (attrs.out_type, which the importers set
// to x's), any of ctnn's: the kernel moves elements of its size, so an int8 select keeps x's and y's
// quantization as TFLM's does (it rescales nothing).
struct select : op_defaults {
  static constexpr op_kind kind = op_kind::select;
  static constexpr operand_range operands{3, 3};
  static constexpr std::size_t operands_read(const kernel_params&) { return 3; }
  static constexpr bool result_type_from_attributes = true;
  static constexpr bool plain_integer_kernel = true;
  static constexpr bool has_kernel(dtype type) { return type == dtype::b8; }  // the condition's

  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const tensor& condition = m.tensor_at(n.inputs[0]);
    const tensor& x = m.tensor_at(n.inputs[1]);
    const tensor& y = m.tensor_at(n.inputs[2]);
    shape partial{}, out{};
    const dtype types[3] = {condition.type, y.type, n.attrs.out_type};
    const dtype wanted[3] = {dtype::b8, x.type, x.type};
    for (std::int32_t k = 0; k < 3; ++k) {
      if (types[k] == wanted[k]) continue;
      m.fail({error_code::unsupported_dtype,
              node_id,
              n.kind,
              {},
              x.dims,
              {.faulty_operand = k == 2 ? 0 : 2 * k + 1, .rejected_value = static_cast<std::int64_t>(types[k])}});
      return x.dims;
    }
    if (!shape_rules::broadcast(condition.dims, x.dims, partial))
      m.fail({error_code::input_shapes_differ, node_id, n.kind, condition.dims, x.dims, {.input_slot = 1}});
    else if (!shape_rules::broadcast(partial, y.dims, out))
      m.fail({error_code::input_shapes_differ, node_id, n.kind, partial, y.dims, {.input_slot = 2}});
    return out;
  }
  template <class Module>
  static constexpr void prepare(const Module& m, const node& n, kernel_params& p) {
    p.in2 = m.tensor_at(n.inputs[1]).dims;
    p.in3 = m.tensor_at(n.inputs[2]).dims;
  }

  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result,
                                            const kernel::requant_arrays&) {
    kernel::reference::logic::select(p, operands, result);
  }
};

}  // namespace ctnn::ops
