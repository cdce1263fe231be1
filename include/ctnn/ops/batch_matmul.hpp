#pragma once
// batch_matmul: numpy's matmul of two activations, A [..., M, K] x B [..., K, N] -> [..., M, N], the batch
// dims (all but the last two) broadcast (ONNX MatMul whose B is not a constant; TFLite BATCH_MATMUL, its
// adj_x/adj_y as transposes before it). Float32, and int8 and int16 with TFLM's recipe. The descriptor of
// op_kind::batch_matmul (ops/descriptor.hpp).
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/shape_rules.hpp>
#include <ctnn/kernel/reference/matmul.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct batch_matmul : op_defaults {
  static constexpr op_kind kind = op_kind::batch_matmul;
  static constexpr operand_range operands{2, 2};
  static constexpr std::size_t operands_read(const kernel_params&) { return 2; }
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || type == dtype::i8 || type == dtype::i16; }
  // TFLM's Prepare requires zero points 0 on int16.
  static constexpr bool int16_symmetric = true;

  // Both operands of one element type and of rank >= 2 (the importer promotes 1-D operands), A's K equal
  // to B's; the result's batch dims are the broadcast of theirs.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const shape a = m.tensor_at(n.inputs[0]).dims, b = m.tensor_at(n.inputs[1]).dims;
    if (!shape_rules::operands_share_type(m, node_id, 2)) return a;
    shape out{};
    if (a.rank < 2 || b.rank < 2 || a.last() != b.at(-2) || !shape_rules::broadcast(matrix_batch(a), matrix_batch(b), out)) {
      m.fail({error_code::input_shapes_differ, node_id, n.kind, a, b, {.input_slot = 1}});
      return a;
    }
    out.dims[static_cast<std::size_t>(out.rank)] = a.at(-2);
    out.dims[static_cast<std::size_t>(out.rank + 1)] = b.last();
    out.rank += 2;
    return out;
  }
  template <class Module>
  static constexpr void prepare(const Module& m, const node& n, kernel_params& p) {
    p.in2 = m.tensor_at(n.inputs[1]).dims;
  }
  // K per result element.
  template <class Module>
  static constexpr std::int64_t macs(const Module& m, const node& n, const shape& out) {
    return out.elements() * m.tensor_at(n.inputs[0]).dims.last();
  }

  // TFLM's BatchMatMulPrepare: QuantizeMultiplier of double(lhs scale) * double(rhs scale) / double(output
  // scale) (GetQuantizedConvolutionMultipler), the rhs's offset, the whole range of the type (no activation).
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    p.input2_offset = ctnn::detail::quant::wrapping_neg(q.in2.zero_point);
    q.set_multiplier(p.output_multiplier, p.output_shift,
                     static_cast<double>(q.in.scale) * static_cast<double>(q.in2.scale) / static_cast<double>(q.out.scale));
    q.set_activation_range(activation::none, p);
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::batch_matmul(p, operands[0], operands[1], result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    with_activation_type(p, [&]<class T>(T) {
      kernel::reference::batch_matmul_quantized(p, static_cast<const T*>(operands[0]), static_cast<const T*>(operands[1]),
                                                static_cast<T*>(result));
    });
  }
};

}  // namespace ctnn::ops
