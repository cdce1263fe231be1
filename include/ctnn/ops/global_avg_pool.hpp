#pragma once
// global_avg_pool: the mean over all of H x W per channel, NHWC -> [N,1,1,C] (ONNX GlobalAveragePool; a
// TFLite AVERAGE_POOL_2D or MEAN over the whole input; a QDQ GlobalAveragePool of 8-bit data: ONNX's integer
// kernel, onnxruntime's QLinearGlobalAveragePool arithmetic). The descriptor of op_kind::global_avg_pool;
// fast paths: kernel/simd (f32, i8).
#include <cstdint>

#include <ctnn/kernel/reference/int8/pool.hpp>
#include <ctnn/kernel/reference/pool.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct global_avg_pool : op_defaults {
  static constexpr op_kind kind = op_kind::global_avg_pool;
  static constexpr onnx_integer_kernel onnx_integer = onnx_integer_kernel::average;
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || type == dtype::i8; }

  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    if (in.rank != 4)
      m.fail({error_code::unsupported_rank, node_id, n.kind, {}, in, {.rank_expected = 4, .rank_actual = in.rank}});
    return make_shape(in[0], 1, 1, in[3]);
  }
  // Input and output share one quantization: the recipe is the fused activation's range.
  static constexpr void requantize(const quantized_operands& q, const node& n, kernel_params& p) {
    q.set_activation_range(n.attrs.fused, p);
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::global_avg_pool(p, operands[0], result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    kernel::reference::int8::global_avg_pool(p, static_cast<const std::int8_t*>(operands[0]), static_cast<std::int8_t*>(result));
  }
};

}  // namespace ctnn::ops
