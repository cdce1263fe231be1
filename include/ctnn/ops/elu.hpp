#pragma once
// elu: x < 0 ? alpha (e^x - 1) : x (TFLite ELU, whose alpha is 1; ONNX Elu). The descriptor of
// op_kind::elu (ops/descriptor.hpp).
#include <bit>
#include <cstdint>

#include <ctnn/kernel/reference/activation.hpp>
#include <ctnn/kernel/reference/int8/activation.hpp>
#include <ctnn/ops/coefficients.hpp>

namespace ctnn::ops {

struct elu : parametrised_activation<op_kind::elu> {
  // int8 (TFLM's ELU, alpha 1): the kernel computes TFLM's lookup table from the two scales and the zero
  // points (input_offset, output_offset).
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    p.set(lookup_table_fields{std::bit_cast<std::uint32_t>(q.in.scale), std::bit_cast<std::uint32_t>(q.out.scale)});
  }
  template <class Writer>
  static void put_requantization(Writer& w, const kernel_params& p) {
    w.real_field(", lookup table of scales in ", static_cast<double>(p.lookup_table().input_scale()));
    w.real_field(" out ", static_cast<double>(p.lookup_table().output_scale()));
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    const float alpha = p->coefficients.alpha();
    kernel::reference::unary_with(p, operands[0], result,
                                  [alpha](float x) { return kernel::reference::elu(x, alpha); });
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result,
                                            const kernel::requant_arrays&) {
    kernel::reference::int8::elu(p, static_cast<const std::int8_t*>(operands[0]), static_cast<std::int8_t*>(result));
  }
};

}  // namespace ctnn::ops
