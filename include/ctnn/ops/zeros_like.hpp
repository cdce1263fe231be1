#pragma once
// zeros_like: zeros of its input's shape and element type (an int8 one: the integer 0, whatever the
// quantization, as TFLM's ZEROS_LIKE writes it). Its input's values are not read: the input only orders it.
// The descriptor of op_kind::zeros_like (ops/descriptor.hpp).
#include <cstdint>

#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct zeros_like : any_type_move {
  static constexpr op_kind kind = op_kind::zeros_like;
  static constexpr std::size_t operands_read(const kernel_params&) { return 0; }
  template <class Module>
  static constexpr std::int64_t macs(const Module&, const node&, const shape&) {
    return 0;
  }

  template <class Params, class T>
  static constexpr void fill_zeros(Params p, T* output) {
    const std::int64_t elements = p->out.elements();
    for (std::int64_t i = 0; i < elements; ++i) output[i] = T{};
  }
  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const*, float* result) {
    fill_zeros(p, result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const*, void* result, const kernel::requant_arrays&) {
    with_integer_type(p, [&]<class T>(T) { fill_zeros(p, static_cast<T*>(result)); });
  }
};

}  // namespace ctnn::ops
