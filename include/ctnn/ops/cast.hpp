#pragma once
// cast: each element converted to attrs.out_type (TFLite CAST, ONNX Cast), as static_cast converts a value
// that fits (kernel/reference/logic.hpp: converted). The descriptor of op_kind::cast (ops/descriptor.hpp).
#include <cstdint>

#include <ctnn/kernel/reference/logic.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

// Between any two of ctnn's element types. TFLM's CAST reads an int8 tensor's raw integers (its
// quantization is ignored), and so does this kernel.
struct cast : op_defaults {
  static constexpr op_kind kind = op_kind::cast;
  static constexpr bool result_type_from_attributes = true;
  static constexpr bool plain_integer_kernel = true;
  static constexpr bool has_kernel(dtype) { return true; }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    w.put("  to ");
    w.put(name_of(a.out_type));
  }

  // float32 to float32 (a copy) is also what fold_constants runs, in constant evaluation.
  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    if (p->out_type == dtype::f32) {
      const std::int64_t elements = p->out.elements();
      for (std::int64_t i = 0; i < elements; ++i) result[i] = operands[0][i];
    } else {
      kernel::reference::logic::cast(p, operands[0], static_cast<void*>(result));
    }
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result,
                                            const kernel::requant_arrays&) {
    kernel::reference::logic::cast(p, operands[0], result);
  }
};

}  // namespace ctnn::ops
