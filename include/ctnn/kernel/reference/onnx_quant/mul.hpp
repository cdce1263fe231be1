#pragma once
// QLinearMul as onnxruntime runs it (com.microsoft QLinearMul, into which its QDQ transformers fuse a
// DequantizeLinear -> Mul -> QuantizeLinear group; docs/frontends.md, "QDQ models"): MLAS's SSE2 kernel, the one
// onnxruntime 1.30 runs on every x86-64 machine (MLAS has no AVX2 form of it), whose float operations ctnn
// repeats, so that the results are onnxruntime's bit for bit on every target:
//   ratio = (a_scale * b_scale) / y_scale                                   (float, in that order)
//   y     = saturate(round_half_even(float((a - a_zp) * (b - b_zp)) * ratio + float(y_zp)))
// the product of the two integers exact (int16 x int16 in int32), the multiply by `ratio` and the add of the
// zero point each rounded (not fused: an fma differs in the last bit of some products), the rounding
// _mm_cvtps_epi32's (half to even; beyond int32 INT_MIN, so the type's lowest value) and the saturation its
// packs' (converted, add.hpp). a and b enter symmetrically, so every broadcast computes this (onnxruntime's
// scalar spans swap the operands when a is the scalar: the same product, the same ratio). (MLAS's portable
// kernel computes (a_scale (a - a_zp)) (b_scale (b - b_zp)) / y_scale instead: it differs from this in the
// last bit of some products.)
#include <bit>
#include <cmath>
#include <cstdint>

#include <ctnn/ir/kernel_params.hpp>
#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/kernel/reference/onnx_quant/add.hpp>

namespace ctnn::kernel::reference::onnx_quant {

// A Mul of 8-bit values whose operands and result all have a scale (the importer's lowered DequantizeLinear ->
// Mul -> QuantizeLinear): QLinearMul, not ONNX's plain integer Mul (which wraps around).
constexpr bool is_quantized_mul(const kernel_params& p) {
  return p.kind == op_kind::mul && (p.type == dtype::u8 || p.type == dtype::i8) && p.onnx.output_scale_bits != 0 &&
         p.onnx.input_scale_bits != 0 && p.onnx.input2_scale_bits != 0;
}

// The call's multiplier (computed once per call, as MLAS does).
inline float mul_ratio(float a_scale, float b_scale, float y_scale) {
  const float product = a_scale * b_scale;
  return product / y_scale;
}

// One element before the conversion: the product of the integers less their zero points, scaled, plus the
// result's zero point, the scaled product rounded on its own. Where the target has a fused multiply-add (which
// g++ contracts a plain x * r + z into, even in ISO mode and across statements; clang with -ffp-contract=fast
// too), std::fma with a zero addend: one rounding, one instruction, and no compiler contracts it with the add
// that follows. Elsewhere nothing can be contracted, and the plain product (no library fmaf) is the one rounding.
inline float mul_value(float ratio, float y_zero_point, std::int32_t product) {
#if defined(__FP_FAST_FMAF) || defined(__FMA__) || defined(__ARM_FEATURE_FMA)
  const float scaled = std::fma(static_cast<float>(product), ratio, 0.0f);
#else
  const float scaled = static_cast<float>(product) * ratio;
#endif
  return scaled + y_zero_point;
}

// The kernel: a (p->in), b (p->in2) broadcast to y (p->out), T uint8 or int8. The scales are the parameters'
// float bits (onnx.input_scale_bits, onnx.input2_scale_bits, onnx.output_scale_bits), the zero points
// -input_offset, -input2_offset and output_offset (8-bit values: the product fits int32). Each result is written
// after its inputs are read (in place over either input is safe).
template <class T, class Params>
void mul(Params p, const T* a, const T* b, T* y) {
  const float ratio = mul_ratio(std::bit_cast<float>(p->onnx.input_scale_bits), std::bit_cast<float>(p->onnx.input2_scale_bits),
                                std::bit_cast<float>(p->onnx.output_scale_bits));
  const auto y_zero_point = static_cast<float>(p->output_offset);
  const std::int32_t a_offset = p->input_offset, b_offset = p->input2_offset;
  reference::detail::for_each_broadcast(p, [&](std::int64_t i, std::int64_t ia, std::int64_t ib) {
    const std::int32_t product = (static_cast<std::int32_t>(a[ia]) + a_offset) * (static_cast<std::int32_t>(b[ib]) + b_offset);
    y[i] = converted<T>(mul_value(ratio, y_zero_point, product));
  });
}

}  // namespace ctnn::kernel::reference::onnx_quant
