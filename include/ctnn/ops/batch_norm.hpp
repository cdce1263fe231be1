#pragma once
// batch_norm: inference batch normalisation per channel of the last axis, y = (x - mean) * scale /
// sqrt(variance + epsilon) + offset; inputs x, scale, offset, mean, variance (ONNX BatchNormalization).
// Float32 only: fold_batch_norm folds it into a preceding conv2d, depthwise_conv2d or dense where it can,
// and its kernel runs where it cannot. The descriptor of op_kind::batch_norm (ops/descriptor.hpp).
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/shape_rules.hpp>
#include <ctnn/kernel/reference/batch_norm.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct batch_norm : op_defaults {
  static constexpr op_kind kind = op_kind::batch_norm;
  static constexpr operand_range operands{5, 5};
  static constexpr std::size_t operands_read(const kernel_params&) { return 5; }
  // Element-wise but for its per-channel constants: patch execution may run it on a patch, and its result
  // may overwrite x.
  static constexpr bool elementwise = true;
  static constexpr std::uint32_t in_place_slots = 1;
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32; }

  // The input's shape; scale, offset, mean and variance are constants of one value per channel.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    for (std::int32_t k = 1; k < operands.max; ++k)
      shape_rules::expect_constant(m, node_id, n.inputs[static_cast<std::size_t>(k)], make_shape(in.last()),
                                   error_code::weight_count_mismatch);
    return in;
  }
  template <class Module>
  static constexpr void prepare(const Module&, const node& n, kernel_params& p) {
    p.batch_norm = n.attrs.batch_norm;
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::batch_norm(p, operands[0], operands[1], operands[2], operands[3], operands[4], result);
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    put_epsilon(w, a.batch_norm);
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    put_epsilon(w, p.batch_norm);
  }
  template <class Writer>
  static void put_epsilon(Writer& w, const batch_norm_fields& fields) {
    w.real_field("  epsilon ", static_cast<double>(fields.epsilon()));
  }
};

}  // namespace ctnn::ops
