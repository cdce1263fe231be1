#pragma once
// maximum and minimum (ops/maximum.hpp, ops/minimum.hpp): the larger or smaller of two operands, numpy
// broadcasting. int8 and int16 compare the raw values, as TFLM (which requantizes nothing: a converter gives
// both operands the result's quantization).
#include <cstdint>

#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/ops/binary.hpp>

namespace ctnn::ops {

// Picks `a` when Prefer(a, b) (TFLM's MaximumOp: a > b, MinimumOp: a < b; else b, so a NaN in a is dropped and
// one in b kept).
template <op_kind K, class Prefer>
struct extremum_op : binary_elementwise {
  static constexpr op_kind kind = K;
  static constexpr bool takes_fused_activation = false;
  static constexpr bool has_kernel(dtype type) { return binary_elementwise::has_kernel(type) || type == dtype::i16; }
  static constexpr bool int8_result_is_an_input_value = true;

  template <class T>
  static constexpr T pick(T a, T b) {
    return Prefer{}(a, b) ? a : b;
  }
  static constexpr integer_evaluation on_known_integers{&pick<std::int64_t>};
  static constexpr onnx_integer_kernel onnx_integer = onnx_integer_kernel::binary;
  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::binary_with(p, operands[0], operands[1], result, pick<float>);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result,
                                            const kernel::requant_arrays&) {
    with_activation_type(p, [&]<class T>(T) {
      const auto* a = static_cast<const T*>(operands[0]);
      const auto* b = static_cast<const T*>(operands[1]);
      auto* out = static_cast<T*>(result);
      kernel::reference::detail::for_each_broadcast(
          p, [&](std::int64_t i, std::int64_t ia, std::int64_t ib) { out[i] = pick(a[ia], b[ib]); });
    });
  }
};

}  // namespace ctnn::ops
