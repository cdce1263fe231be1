#pragma once
// The kernel parameters of ONNX's integer ops (kernel_params::requantization == onnx; kernels.hpp), filled
// by lower_te from the module: what the importer (frontend/onnx/quantized.hpp) put in the nodes and tensors.
//   conv2d, dense (layout onnx): x's quantization gives input_offset (-x_zero_point) and the input scale,
//     the result's its zero point (output_offset) and scale (for int32 results: none); the weights'
//     per-tensor scale and zero point (weights_offset) are their tensor's quantization, per-channel ones
//     operands 3 and 4 (scale_count, zero_point_count: their element counts); multiplier_bits =
//     float(x_scale * w_scale) / y_scale for a per-tensor weight scale. The result is `out_type`.
//   quantize: the result's scale (output_scale_bits) and zero point (output_offset), or per axis
//     (`axis`) operands 1 and 2.
//   dequantize: the input's scale (input_scale_bits) and zero point (input_offset = -zero point), or per
//     axis operands 1 and 2.
//   add, mul, max_pool, pad, transpose, reshape on plain integers (ONNX's integer arithmetic, no
//     quantization: run.hpp): the ctnn fields of the op kind (lower_te); the result keeps the input's type.
#include <bit>
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/onnx_quant/rounding.hpp>

namespace ctnn::kernel::reference::onnx_quant {

constexpr bool is_8_bit(dtype t) { return t == dtype::u8 || t == dtype::i8; }
constexpr bool is_integer(dtype t) { return is_8_bit(t) || t == dtype::i32 || t == dtype::i64; }

// The op kinds that ONNX models run on plain integers (ONNX's semantics: integer arithmetic wraps around
// in the element type; no quantization), keeping the element type.
constexpr bool is_plain_integer_kind(op_kind kind) {
  return kind == op_kind::add || kind == op_kind::mul || kind == op_kind::max_pool || kind == op_kind::pad ||
         kind == op_kind::transpose || kind == op_kind::reshape;
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
    case op_kind::mul:
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
    case op_kind::mul: return 2;
    default: return 1;
  }
}

// Whether parameters describe a call the kernels run (the element types, the layout, the per-axis
// counts); invoke_dynamic checks it at run time, kernel::invoke at compile time.
constexpr bool supports(const kernel_params& p) {
  if (!has_kernel(p.kind, p.type, p.out_type)) return false;
  if (p.scale_count < 0 || p.zero_point_count < 0) return false;
  switch (p.kind) {
    case op_kind::conv2d:
      return p.layout == data_layout::onnx && is_8_bit(p.weights_type) && p.in.rank == 4 && p.out.rank == 4 && p.groups > 0 &&
             p.in[1] % p.groups == 0 && p.out[1] % p.groups == 0 && (p.out_type == dtype::i32 || p.scale_count > 0);
    case op_kind::dense:
      return p.layout == data_layout::onnx && is_8_bit(p.weights_type) && p.has_bias == 0 && p.in.rank >= 2 &&
             (p.out_type == dtype::i32 || p.scale_count > 0);
    case op_kind::quantize:
    case op_kind::dequantize:
      return p.scale_count <= 1 || (p.axis >= 0 && p.axis < p.out.rank && p.out[p.axis] == p.scale_count);
    default:
      return is_plain_integer_kind(p.kind);
  }
}

namespace detail {
template <class Module>
constexpr std::int32_t elements_of(const Module& m, std::int32_t tensor) {
  return tensor >= 0 ? static_cast<std::int32_t>(m.tensor_at(tensor).dims.elements()) : 0;
}
template <class Module>
constexpr std::int32_t operand(const Module& m, const node& n, std::int32_t k) {
  (void)m;
  return k < n.input_count ? n.inputs[static_cast<std::size_t>(k)] : -1;
}
}  // namespace detail

template <class Module>
constexpr void fill_params(const Module& m, const node& n, kernel_params& p) {
  const tensor& x = m.tensor_at(n.inputs[0]);
  const tensor& y = m.tensor_at(n.output);
  p.requantization = requantization_policy::onnx;
  p.out_type = y.type;
  p.input_offset = -x.quant.zero_point;
  p.output_offset = y.quant.zero_point;
  p.input_scale_bits = std::bit_cast<std::uint32_t>(x.quant.scale);
  p.output_scale_bits = std::bit_cast<std::uint32_t>(y.quant.scale);
  switch (n.kind) {
    case op_kind::conv2d:
    case op_kind::dense: {
      const tensor& w = m.tensor_at(n.inputs[1]);
      p.layout = n.attrs.layout;
      p.weights_type = w.type;
      p.weights_offset = -w.quant.zero_point;
      const std::int32_t scales = detail::operand(m, n, 3), zero_points = detail::operand(m, n, 4);
      p.scale_count = scales >= 0 ? detail::elements_of(m, scales) : (w.quant.scale != 0.0f ? 1 : 0);
      p.zero_point_count = zero_points >= 0 ? detail::elements_of(m, zero_points) : 1;
      if (p.scale_count == 1 && y.type != dtype::i32)
        p.multiplier_bits = std::bit_cast<std::uint32_t>(output_multiplier(x.quant.scale, w.quant.scale, y.quant.scale));
      if (n.kind == op_kind::dense) p.in2 = w.dims;
      break;
    }
    case op_kind::quantize:
    case op_kind::dequantize: {
      const std::int32_t scales = detail::operand(m, n, 1), zero_points = detail::operand(m, n, 2);
      p.axis = n.attrs.axis;
      p.scale_count = scales >= 0 ? detail::elements_of(m, scales) : 1;
      p.zero_point_count = zero_points >= 0 ? detail::elements_of(m, zero_points) : 1;
      break;
    }
    default:
      break;
  }
}

}  // namespace ctnn::kernel::reference::onnx_quant
