#pragma once
// mean: the average over the axes of attrs.mean.reduce_axes (bit d: axis d), the reduced axes kept as
// extent 1 with attrs.keep_dims (TFLite MEAN, ONNX ReduceMean). The descriptor of op_kind::mean
// (ops/descriptor.hpp); its shape rule is every reduction's (ops/reduction.hpp).
#include <cstdint>

#include <ctnn/kernel/reference/int8/mean.hpp>
#include <ctnn/kernel/reference/reduce.hpp>
#include <ctnn/ops/reduction.hpp>

namespace ctnn::ops {

struct mean : reduction_base {
  static constexpr op_kind kind = op_kind::mean;
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || type == dtype::i8 || type == dtype::i16; }

  // TFLM's PrepareMeanOrSumHelper: the output multiplier input scale / output scale (the kernel absorbs
  // 1 / count).
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    q.set_multiplier(p.output_multiplier, p.output_shift, static_cast<double>(q.in.scale) / static_cast<double>(q.out.scale));
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::mean(p, operands[0], result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    with_activation_type(p, [&]<class T>(T) {
      kernel::reference::int8::mean(p, static_cast<const T*>(operands[0]), static_cast<T*>(result));
    });
  }
};

}  // namespace ctnn::ops
