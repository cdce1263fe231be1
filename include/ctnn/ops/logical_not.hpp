#pragma once
// logical_not: !a on bools (TFLite LOGICAL_NOT, ONNX Not). The descriptor of op_kind::logical_not
// (ops/descriptor.hpp).
#include <cstdint>

#include <ctnn/kernel/reference/logic.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct logical_not : unary_elementwise {
  static constexpr op_kind kind = op_kind::logical_not;
  static constexpr bool plain_integer_kernel = true;
  static constexpr bool has_kernel(dtype type) { return type == dtype::b8; }

  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result,
                                            const kernel::requant_arrays&) {
    const auto* in = static_cast<const kernel::reference::logic::bool_byte*>(operands[0]);
    auto* out = static_cast<kernel::reference::logic::bool_byte*>(result);
    const std::int64_t elements = p->out.elements();
    for (std::int64_t i = 0; i < elements; ++i) out[i] = !in[i];
  }
};

}  // namespace ctnn::ops
