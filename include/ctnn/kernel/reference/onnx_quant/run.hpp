#pragma once
// Runs the ONNX integer kernel of op kind K (kernels.hpp; the plain integer kinds: the reference kernels
// on integer elements, ONNX's wrap-around arithmetic) on untyped operands, in the op's input order:
// with the element types as template arguments (run_typed: the full policy knows them at compile time),
// or chosen from the parameters at run time (run: the shared kernels, ctnn-run).
#include <cstdint>
#include <type_traits>

#include <ctnn/ir/dtype.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/data_movement.hpp>
#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/kernel/reference/onnx_quant/kernels.hpp>
#include <ctnn/kernel/reference/onnx_quant/params.hpp>
#include <ctnn/kernel/reference/pool.hpp>
#include <ctnn/kernel/reference/transpose.hpp>

namespace ctnn::kernel::reference::onnx_quant {

// X: the first input's element type, W: the weights', Y: the result's (the plain integer kinds keep X).
template <op_kind K, class X, class W, class Y, class Params>
inline void run_typed(Params p, const void* const* operands, void* result) {
  const auto* x = static_cast<const X*>(operands[0]);
  static_assert(!is_plain_integer_kind(K) || std::is_same_v<X, Y>, "ctnn: plain integer ops keep their element type.");
  if constexpr (K == op_kind::add || K == op_kind::sub || K == op_kind::mul || K == op_kind::maximum ||
                K == op_kind::minimum)
    reference::integer_binary(p, x, static_cast<const X*>(operands[1]), static_cast<Y*>(result));
  else if constexpr (K == op_kind::max_pool) reference::pool2d<true>(p, x, static_cast<Y*>(result));
  else if constexpr (K == op_kind::pad) reference::pad(p, x, static_cast<Y*>(result));
  else if constexpr (K == op_kind::transpose) reference::transpose(p, x, static_cast<Y*>(result));
  else if constexpr (K == op_kind::reshape) reference::copy(p, x, static_cast<Y*>(result));
  else if constexpr (K == op_kind::conv2d)
    conv_nchw(p, x, static_cast<const W*>(operands[1]), operands[2], operands[3], operands[4], static_cast<Y*>(result));
  else if constexpr (K == op_kind::dense)
    matmul(p, x, static_cast<const W*>(operands[1]), operands[3], operands[4], static_cast<Y*>(result));
  else if constexpr (K == op_kind::quantize) quantize_linear(p, x, operands[1], operands[2], static_cast<Y*>(result));
  else if constexpr (K == op_kind::dequantize) dequantize_linear(p, x, operands[1], operands[2], static_cast<Y*>(result));
  else static_assert(K == op_kind::conv2d, "ctnn: no ONNX integer kernel for this op kind (kernel/reference/onnx_quant).");
}

namespace detail {

template <op_kind K, class X, class W, class Params>
inline void run_with_result(Params p, const void* const* operands, void* result) {
  if constexpr (K == op_kind::dequantize) run_typed<K, X, W, float>(p, operands, result);
  else if (p->out_type == dtype::u8) run_typed<K, X, W, std::uint8_t>(p, operands, result);
  else if (p->out_type == dtype::i8) run_typed<K, X, W, std::int8_t>(p, operands, result);
  else if constexpr (K == op_kind::conv2d || K == op_kind::dense) run_typed<K, X, W, std::int32_t>(p, operands, result);
}

template <op_kind K, class X, class Params>
inline void run_with_weights(Params p, const void* const* operands, void* result) {
  if constexpr (K == op_kind::conv2d || K == op_kind::dense) {
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
  } else if constexpr (K == op_kind::quantize) {
    detail::run_with_weights<K, float>(p, operands, result);
  } else if (p->type == dtype::u8) {
    detail::run_with_weights<K, std::uint8_t>(p, operands, result);
  } else {
    detail::run_with_weights<K, std::int8_t>(p, operands, result);
  }
}

}  // namespace ctnn::kernel::reference::onnx_quant
