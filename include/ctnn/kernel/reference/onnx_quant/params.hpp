#pragma once
// What ONNX's integer kernels (kernel_params::requantization == onnx; kernels.hpp) support: which op
// kinds and element types have one, the operands each reads, and whether a call's parameters describe
// a call they run. pass::compute_requantization sets those parameters (its ONNX recipe).
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>

namespace ctnn::kernel::reference::onnx_quant {

constexpr bool is_8_bit(dtype t) { return t == dtype::u8 || t == dtype::i8; }
constexpr bool is_integer(dtype t) { return is_8_bit(t) || t == dtype::i32 || t == dtype::i64; }

// The op kinds that ONNX models run on plain integers (ONNX's semantics: integer arithmetic wraps around
// in the element type; no quantization), keeping the element type.
constexpr bool is_plain_integer_kind(op_kind kind) {
  return kind == op_kind::add || kind == op_kind::sub || kind == op_kind::mul || kind == op_kind::maximum ||
         kind == op_kind::minimum || kind == op_kind::max_pool || kind == op_kind::pad || kind == op_kind::transpose ||
         kind == op_kind::reshape;
}

// Whether an ONNX integer kernel exists for an op kind reading `in` and writing `out`. The 8-bit
// transposes and reshapes are the int8 kernels' byte moves (kernel::has_kernel), not these.
constexpr bool has_kernel(op_kind kind, dtype in, dtype out) {
  switch (kind) {
    case op_kind::conv2d:
    case op_kind::dense: return is_8_bit(in) && (is_8_bit(out) || out == dtype::i32);
    case op_kind::quantize: return in == dtype::f32 && is_8_bit(out);
    case op_kind::dequantize: return is_8_bit(in) && out == dtype::f32;
    case op_kind::add:
    case op_kind::sub:
    case op_kind::mul:
    case op_kind::maximum:
    case op_kind::minimum:
    case op_kind::pad: return is_integer(in) && out == in;
    case op_kind::max_pool: return is_8_bit(in) && out == in;
    case op_kind::transpose:
    case op_kind::reshape: return (in == dtype::i32 || in == dtype::i64) && out == in;
    default: return false;
  }
}

// Whether op kind `kind` has an ONNX integer kernel for some element types.
constexpr bool has_kernel_of_kind(op_kind kind) {
  return is_plain_integer_kind(kind) || kind == op_kind::conv2d || kind == op_kind::dense || kind == op_kind::quantize ||
         kind == op_kind::dequantize;
}

// The operands a kernel of kind `kind` reads (op input order).
constexpr std::size_t operand_count(op_kind kind) {
  switch (kind) {
    case op_kind::conv2d:
    case op_kind::dense: return 5;  // x, w, bias, w_scale, w_zero_point
    case op_kind::quantize:
    case op_kind::dequantize: return 3;  // x, scale, zero point
    case op_kind::add:
    case op_kind::sub:
    case op_kind::mul:
    case op_kind::maximum:
    case op_kind::minimum: return 2;
    default: return 1;
  }
}

// Whether parameters describe a call the kernels run (the element types, the layout, the per-axis
// counts); invoke_dynamic checks it at run time, kernel::invoke at compile time.
constexpr bool supports(const kernel_params& p) {
  if (!has_kernel(p.kind, p.type, p.out_type)) return false;
  if (p.onnx.scale_count < 0 || p.onnx.zero_point_count < 0) return false;
  switch (p.kind) {
    case op_kind::conv2d:
      return p.onnx.layout == data_layout::onnx && is_8_bit(p.onnx.weights_type) && p.in.rank == 4 && p.out.rank == 4 && p.groups > 0 &&
             p.in[1] % p.groups == 0 && p.out[1] % p.groups == 0 && (p.out_type == dtype::i32 || p.onnx.scale_count > 0);
    case op_kind::dense:
      return p.onnx.layout == data_layout::onnx && is_8_bit(p.onnx.weights_type) && p.has_bias == 0 && p.in.rank >= 2 &&
             (p.out_type == dtype::i32 || p.onnx.scale_count > 0);
    case op_kind::quantize:
    case op_kind::dequantize:
      return p.onnx.scale_count <= 1 || (p.axis >= 0 && p.axis < p.out.rank && p.out[p.axis] == p.onnx.scale_count);
    default:
      return is_plain_integer_kind(p.kind);
  }
}

}  // namespace ctnn::kernel::reference::onnx_quant
