#pragma once
// QLinearAdd as onnxruntime runs it (com.microsoft QLinearAdd, into which its QDQ transformers fuse a
// DequantizeLinear -> Add -> QuantizeLinear group; docs/frontends.md, "QDQ models"): the x86-64 kernel that
// onnxruntime 1.30 dispatches on AVX2 hardware (MLAS's MlasQLinearAddKernelAvx2Helper), whose float operations
// ctnn repeats one by one, so that the results are onnxruntime's bit for bit on every target:
//   a_ratio = a_scale / y_scale, b_ratio = b_scale / y_scale                      (float divisions)
//   fixed   = float(y_zp) - fma(a_ratio, float(a_zp), b_ratio * float(b_zp))      (as its compiler fused it)
//   y       = saturate(round_half_even(fma(float(a), a_ratio, fma(float(b), b_ratio, fixed))))
// with a and b the stored integers (their zero points are in `fixed`), fma single-rounded, the rounding
// _mm256_cvtps_epi32's (half to even) and the saturation its packs'. (MLAS's portable kernel computes
// (a_scale * (a - a_zp) + b_scale * (b - b_zp)) / y_scale instead, its NEON one fixed point: they differ
// from this in the last bit of some sums.) Broadcasting (numpy's): onnxruntime's scalar spans fold the scalar
// into `fixed` with one more fma, which is the inner fma above when the scalar is b; when it is a (its
// broadcaster's "input0 scalar": a is broadcast along the innermost output dim longer than 1, or the result
// has one element) onnxruntime swaps the operands, and so does the importer (frontend/onnx/import_qdq.hpp's
// lower_binary): the kernel computes the formula above for every broadcast.
#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include <ctnn/ir/kernel_params.hpp>
#include <ctnn/kernel/reference/elementwise.hpp>

namespace ctnn::kernel::reference::onnx_quant {

// An Add of 8-bit values whose operands and result all have a scale (the importer's lowered DequantizeLinear ->
// Add -> QuantizeLinear): QLinearAdd, not ONNX's plain integer Add (which wraps around; its tensors have no
// scales, or at most the one a DequantizeLinear reading its result gives that).
constexpr bool is_quantized_add(const kernel_params& p) {
  return p.kind == op_kind::add && (p.type == dtype::u8 || p.type == dtype::i8) && p.onnx.output_scale_bits != 0 &&
         p.onnx.input_scale_bits != 0 && p.onnx.input2_scale_bits != 0;
}
// The reference kernels (add, mul.hpp's mul) take operands of one 8-bit type, the result's, broadcast (numpy's).
constexpr bool quantized_binary_supported(const kernel_params& p) { return p.out_type == p.type; }
// Operands of the result's shape (the Cortex-M4 kernel, kernel/arm/onnx_add.hpp, takes no other).
constexpr bool quantized_add_supported(const kernel_params& p) { return p.in == p.out && p.in2 == p.out && p.out_type == p.type; }

// A converted result as onnxruntime's x86 kernels store it: rounded half to even, converted to int32
// (_mm_cvtps_epi32: a value beyond int32, or NaN, gives INT_MIN) and saturated to T (packs).
template <class T>
inline T converted(float x) {
  constexpr float lowest = std::is_signed_v<T> ? -128.0f : 0.0f, highest = std::is_signed_v<T> ? 127.0f : 255.0f;
  float r = std::nearbyint(x);
  if (!(r >= -2147483648.0f && r < 2147483648.0f)) r = lowest;
  r = r < lowest ? lowest : r > highest ? highest : r;
  return static_cast<T>(static_cast<std::int32_t>(r));
}

// The three floats of a call (computed once per call, as MLAS does).
struct add_coefficients {
  float a_ratio = 0.0f, b_ratio = 0.0f, fixed = 0.0f;
};

inline add_coefficients add_coefficients_of(float a_scale, std::int32_t a_zero_point, float b_scale, std::int32_t b_zero_point,
                                            float y_scale, std::int32_t y_zero_point) {
  add_coefficients c;
  c.a_ratio = a_scale / y_scale;
  c.b_ratio = b_scale / y_scale;
  // One product rounded, the other fused into the sum (an fma's addend: no compiler contracts it further).
  const float b_part = c.b_ratio * static_cast<float>(b_zero_point);
  c.fixed = static_cast<float>(y_zero_point) - std::fma(c.a_ratio, static_cast<float>(a_zero_point), b_part);
  return c;
}

// One element: the sum before rounding.
inline float add_sum(const add_coefficients& c, std::int32_t a, std::int32_t b) {
  return std::fma(static_cast<float>(a), c.a_ratio, std::fma(static_cast<float>(b), c.b_ratio, c.fixed));
}

// The kernel: a (p->in), b (p->in2) broadcast to y (p->out), T uint8 or int8. The scales are the parameters'
// float bits (onnx.input_scale_bits, onnx.input2_scale_bits, onnx.output_scale_bits), the zero points
// -input_offset, -input2_offset and output_offset. Each result is written after its inputs are read (in place
// over either input is safe).
template <class T, class Params>
void add(Params p, const T* a, const T* b, T* y) {
  const add_coefficients c = add_coefficients_of(std::bit_cast<float>(p->onnx.input_scale_bits), -p->input_offset,
                                                 std::bit_cast<float>(p->onnx.input2_scale_bits), -p->input2_offset,
                                                 std::bit_cast<float>(p->onnx.output_scale_bits), p->output_offset);
  reference::detail::for_each_broadcast(p, [&](std::int64_t i, std::int64_t ia, std::int64_t ib) { y[i] = converted<T>(add_sum(c, a[ia], b[ib])); });
}

}  // namespace ctnn::kernel::reference::onnx_quant
