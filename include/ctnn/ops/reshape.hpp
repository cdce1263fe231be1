#pragma once
// reshape: the input's elements in their order under the shape attrs.target (0 in a dim: the input's
// extent there; -1: inferred; rank 0: the input's own shape, a copy), as TFLite RESHAPE and ONNX Reshape
// and Flatten say. The descriptor of op_kind::reshape (ops/descriptor.hpp). It moves no byte:
// alias_reshapes makes its result a view of its input unless that result is a model output.
#include <cstdint>

#include <ctnn/kernel/reference/data_movement.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct reshape : byte_move {
  static constexpr op_kind kind = op_kind::reshape;
  static constexpr onnx_integer_kernel onnx_integer = onnx_integer_kernel::copy;

  // The target with its 0 and -1 extents resolved; the element counts must agree. The known extents'
  // product is bounded above any tensor's element count (the frontends bound those): a target of huge
  // extents (a model file's constant) cannot match, and must not overflow.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    if (n.attrs.target.rank == 0) return in;
    shape out = n.attrs.target;
    constexpr std::int64_t bound = std::int64_t{1} << 40;
    std::int64_t known = 1;
    std::int32_t inferred = -1, inferred_count = 0;
    bool too_large = false;
    for (std::int32_t d = 0; d < out.rank; ++d) {
      auto& extent = out.dims[static_cast<std::size_t>(d)];
      if (extent == 0) extent = d < in.rank ? in[d] : 1;
      if (extent < -1) inferred_count = 2;
      if (extent == -1) inferred = d, ++inferred_count;
      else if (extent > 0 && known > bound / extent) too_large = true;
      else known *= extent;
    }
    if (inferred_count > 1) {
      m.fail({error_code::invalid_reshape_target, node_id, n.kind, n.attrs.target, in});
      return in;
    }
    if (too_large) {
      m.fail({error_code::reshape_element_count, node_id, n.kind, in, n.attrs.target,
              {.count_expected = in.elements(), .count_actual = bound}});
      return in;
    }
    if (inferred >= 0 && known > 0) out.dims[static_cast<std::size_t>(inferred)] = static_cast<std::int32_t>(in.elements() / known);
    if (out.elements() != in.elements())
      m.fail({error_code::reshape_element_count, node_id, n.kind, in, out,
              {.count_expected = in.elements(), .count_actual = out.elements()}});
    return out;
  }
  template <class Module>
  static constexpr bool is_view(const Module&, const node&) { return true; }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::reshape(p, operands[0], result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    with_integer_type(p, [&]<class T>(T) { kernel::reference::copy(p, static_cast<const T*>(operands[0]), static_cast<T*>(result)); });
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    if (a.target.rank > 0) {
      w.put("  target ");
      put_shape(w, a.target);
    } else {
      w.put("  copy");
    }
  }
};

}  // namespace ctnn::ops
