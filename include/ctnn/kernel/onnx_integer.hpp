#pragma once
// ONNX's integer kernels (kernel_params::requantization == onnx) by op kind: the one each kind runs is its
// descriptor's onnx_integer (ops/descriptor.hpp); here, the element types and operands each takes, whether
// a call's parameters describe one it runs (pass::compute_requantization sets them: its ONNX recipe), and
// the call on untyped operands in the op's input order, with the element types as template arguments
// (run_typed: the full policy knows them at compile time) or chosen from the parameters at run time (run:
// the shared kernels, ctnn-run). The kernels: kernel/reference/onnx_quant/kernels.hpp (the quantized
// ones) and the reference kernels on integer elements (the plain ones).
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <ctnn/ir/dtype.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/data_movement.hpp>
#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/kernel/reference/onnx_quant/add.hpp>
#include <ctnn/kernel/reference/onnx_quant/kernels.hpp>
#include <ctnn/kernel/reference/onnx_quant/mul.hpp>
#include <ctnn/kernel/reference/pool.hpp>
#include <ctnn/kernel/reference/transpose.hpp>
#include <ctnn/ops/registry.hpp>

namespace ctnn::kernel::onnx_integer {

using ops::onnx_integer_kernel;

constexpr bool is_8_bit(dtype t) { return t == dtype::u8 || t == dtype::i8; }
constexpr bool is_integer(dtype t) { return is_8_bit(t) || t == dtype::i32 || t == dtype::i64; }

// The ONNX integer kernel of op kind `kind` (none when it has none).
constexpr onnx_integer_kernel kernel_of(op_kind kind) { return ops::facts(kind).onnx_integer; }

// Whether ONNX models run op kind `kind` on plain integers (ONNX's semantics: integer arithmetic wraps
// around in the element type; no quantization), keeping the element type.
constexpr bool is_plain_integer_kind(op_kind kind) { return kernel_of(kind) >= onnx_integer_kernel::binary; }

// Whether an ONNX integer kernel exists for an op kind reading `in` and writing `out`. The 8-bit
// transposes and reshapes are the int8 kernels' byte moves (kernel::has_kernel), not these.
constexpr bool has_kernel(op_kind kind, dtype in, dtype out) {
  switch (kernel_of(kind)) {
    case onnx_integer_kernel::convolution:
    case onnx_integer_kernel::matmul: return is_8_bit(in) && (is_8_bit(out) || out == dtype::i32);
    case onnx_integer_kernel::quantize: return in == dtype::f32 && is_8_bit(out);
    case onnx_integer_kernel::dequantize: return is_8_bit(in) && out == dtype::f32;
    case onnx_integer_kernel::average:
    case onnx_integer_kernel::window_average: return is_8_bit(in) && out == in;
    case onnx_integer_kernel::binary:
    case onnx_integer_kernel::pad: return is_integer(in) && out == in;
    case onnx_integer_kernel::window_max: return is_8_bit(in) && out == in;
    case onnx_integer_kernel::transpose:
    case onnx_integer_kernel::copy: return (in == dtype::i32 || in == dtype::i64) && out == in;
    case onnx_integer_kernel::none: return false;
  }
  return false;
}

// Whether op kind `kind` has an ONNX integer kernel for some element types.
constexpr bool has_kernel_of_kind(op_kind kind) { return kernel_of(kind) != onnx_integer_kernel::none; }

// The operands a kernel of kind `kind` reads (op input order).
constexpr std::size_t operand_count(op_kind kind) {
  switch (kernel_of(kind)) {
    case onnx_integer_kernel::convolution:
    case onnx_integer_kernel::matmul: return 5;  // x, w, bias, w_scale, w_zero_point
    case onnx_integer_kernel::quantize:
    case onnx_integer_kernel::dequantize: return 3;  // x, scale, zero point
    case onnx_integer_kernel::binary: return 2;
    default: return 1;
  }
}

using reference::onnx_quant::is_quantized_add;
using reference::onnx_quant::is_quantized_mul;
using reference::onnx_quant::quantized_binary_supported;

// Whether parameters describe a call the kernels run (the element types, the layout, the per-axis
// counts); invoke_dynamic checks it at run time, kernel::invoke at compile time.
constexpr bool supports(const kernel_params& p) {
  if (!has_kernel(p.kind, p.type, p.out_type)) return false;
  if (p.onnx.scale_count < 0 || p.onnx.zero_point_count < 0) return false;
  switch (kernel_of(p.kind)) {
    case onnx_integer_kernel::convolution: {
      const std::int32_t channel_dim = p.onnx.layout == data_layout::onnx_nhwc ? 3 : 1;
      return is_onnx_layout(p.onnx.layout) && is_8_bit(p.onnx.weights_type) && p.in.rank == 4 && p.out.rank == 4 && p.groups > 0 &&
             p.in[channel_dim] % p.groups == 0 && p.out[channel_dim] % p.groups == 0 &&
             (p.out_type == dtype::i32 || p.onnx.scale_count > 0);
    }
    case onnx_integer_kernel::matmul:
      return p.onnx.layout == data_layout::onnx && is_8_bit(p.onnx.weights_type) && p.has_bias == 0 && p.in.rank >= 2 &&
             (p.out_type == dtype::i32 || p.onnx.scale_count > 0);
    case onnx_integer_kernel::quantize:
    case onnx_integer_kernel::dequantize:
      return p.onnx.scale_count <= 1 || (p.axis >= 0 && p.axis < p.out.rank && p.out[p.axis] == p.onnx.scale_count);
    case onnx_integer_kernel::average:
      return p.in.rank == 4 && p.out.rank == 4 && static_cast<std::int64_t>(p.in[1]) * p.in[2] > 0 &&
             static_cast<std::int64_t>(p.in[1]) * p.in[2] < 0x1000000 && p.out[3] == p.in[3];
    case onnx_integer_kernel::window_average:
      return p.in.rank == 4 && p.out.rank == 4 && p.out[3] == p.in[3] && p.win.dilation_h == 1 && p.win.dilation_w == 1;
    default: return is_plain_integer_kind(p.kind) && (!(is_quantized_add(p) || is_quantized_mul(p)) || quantized_binary_supported(p));
  }
}

// X: the first input's element type, W: the weights', Y: the result's (the plain integer kinds keep X).
template <op_kind K, class X, class W, class Y, class Params>
inline void run_typed(Params p, const void* const* operands, void* result) {
  using descriptor = ops::descriptor_of<K>;
  constexpr onnx_integer_kernel kernel = descriptor::onnx_integer;
  namespace quantized = reference::onnx_quant;
  const auto* x = static_cast<const X*>(operands[0]);
  auto* y = static_cast<Y*>(result);
  static_assert(kernel < onnx_integer_kernel::binary || std::is_same_v<X, Y>, "ctnn: plain integer ops keep their element type.");
  if constexpr (kernel == onnx_integer_kernel::binary && (K == op_kind::add || K == op_kind::mul) && sizeof(X) == 1) {
    // QLinearAdd / QLinearMul (8-bit operands with scales), else ONNX's plain integer Add / Mul.
    if constexpr (K == op_kind::add) {
      if (is_quantized_add(*p)) return quantized::add(p, x, static_cast<const X*>(operands[1]), y);
    } else {
      if (is_quantized_mul(*p)) return quantized::mul(p, x, static_cast<const X*>(operands[1]), y);
    }
    reference::integer_binary<descriptor::on_known_integers.apply>(p, x, static_cast<const X*>(operands[1]), y);
  } else if constexpr (kernel == onnx_integer_kernel::binary)
    reference::integer_binary<descriptor::on_known_integers.apply>(p, x, static_cast<const X*>(operands[1]), y);
  else if constexpr (kernel == onnx_integer_kernel::window_max) reference::pool2d<true>(p, x, y);
  else if constexpr (kernel == onnx_integer_kernel::pad) reference::pad(p, x, y);
  else if constexpr (kernel == onnx_integer_kernel::transpose) reference::transpose(p, x, y);
  else if constexpr (kernel == onnx_integer_kernel::copy) reference::copy(p, x, y);
  else if constexpr (kernel == onnx_integer_kernel::convolution)
    quantized::conv<X, W, Y>(p, x, static_cast<const W*>(operands[1]), operands[2], operands[3], operands[4], y);
  else if constexpr (kernel == onnx_integer_kernel::matmul)
    quantized::matmul(p, x, static_cast<const W*>(operands[1]), operands[3], operands[4], y);
  else if constexpr (kernel == onnx_integer_kernel::quantize) quantized::quantize_linear(p, x, operands[1], operands[2], y);
  else if constexpr (kernel == onnx_integer_kernel::dequantize) quantized::dequantize_linear(p, x, operands[1], operands[2], y);
  else if constexpr (kernel == onnx_integer_kernel::average) quantized::global_average_pool(p, x, y);
  else if constexpr (kernel == onnx_integer_kernel::window_average) quantized::average_pool(p, x, y);
  else static_assert(kernel != onnx_integer_kernel::none, "ctnn: no ONNX integer kernel for this op kind (its descriptor's onnx_integer).");
}

namespace detail {

template <op_kind K, class X, class W, class Params>
inline void run_with_result(Params p, const void* const* operands, void* result) {
  constexpr onnx_integer_kernel kernel = kernel_of(K);
  if constexpr (kernel == onnx_integer_kernel::dequantize) run_typed<K, X, W, float>(p, operands, result);
  else if (p->out_type == dtype::u8) run_typed<K, X, W, std::uint8_t>(p, operands, result);
  else if (p->out_type == dtype::i8) run_typed<K, X, W, std::int8_t>(p, operands, result);
  else if constexpr (kernel == onnx_integer_kernel::convolution || kernel == onnx_integer_kernel::matmul)
    run_typed<K, X, W, std::int32_t>(p, operands, result);
}

template <op_kind K, class X, class Params>
inline void run_with_weights(Params p, const void* const* operands, void* result) {
  constexpr onnx_integer_kernel kernel = kernel_of(K);
  if constexpr (kernel == onnx_integer_kernel::convolution || kernel == onnx_integer_kernel::matmul) {
    if (p->onnx.weights_type == dtype::u8) run_with_result<K, X, std::uint8_t>(p, operands, result);
    else run_with_result<K, X, std::int8_t>(p, operands, result);
  } else {
    run_with_result<K, X, X>(p, operands, result);
  }
}

}  // namespace detail

// The element types from the parameters (supports(p) holds: the caller checked).
template <op_kind K, class Params>
inline void run(Params p, const void* const* operands, void* result) {
  if constexpr (is_plain_integer_kind(K)) {
    if (p->type == dtype::u8) run_typed<K, std::uint8_t, std::uint8_t, std::uint8_t>(p, operands, result);
    else if (p->type == dtype::i8) run_typed<K, std::int8_t, std::int8_t, std::int8_t>(p, operands, result);
    else if (p->type == dtype::i32) run_typed<K, std::int32_t, std::int32_t, std::int32_t>(p, operands, result);
    else run_typed<K, std::int64_t, std::int64_t, std::int64_t>(p, operands, result);
  } else if constexpr (kernel_of(K) == onnx_integer_kernel::quantize) {
    detail::run_with_weights<K, float>(p, operands, result);
  } else if (p->type == dtype::u8) {
    detail::run_with_weights<K, std::uint8_t>(p, operands, result);
  } else {
    detail::run_with_weights<K, std::int8_t>(p, operands, result);
  }
}

}  // namespace ctnn::kernel::onnx_integer
