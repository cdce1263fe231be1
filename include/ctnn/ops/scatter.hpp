#pragma once
// What scatter_nd and scatter_elements share: how an update combines with the element it lands on (ONNX's
// `reduction` attribute, kernel_params::axis) and scatter_op<D>, their kernels' frame: the result starts as the
// data (operand 0), then D::scatter_into(p, indices, updates, result) writes the updates (operand 2) at the
// places the indices (operand 1, int32 or int64 whatever the data's type) name.
#include <cstdint>

#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

// How an update combines with the element it lands on (ONNX ScatterND's and ScatterElements' reduction).
enum class scatter_reduction : std::int32_t { none, add, mul, max, min };

template <class T>
constexpr T combined(scatter_reduction r, T old, T update) {
  switch (r) {
    case scatter_reduction::add: return static_cast<T>(old + update);
    case scatter_reduction::mul: return static_cast<T>(old * update);
    case scatter_reduction::max: return old < update ? update : old;
    case scatter_reduction::min: return update < old ? update : old;
    case scatter_reduction::none: break;
  }
  return update;
}

template <class D>
struct scatter_op : any_type_move {
  static constexpr operand_range operands{3, 3};  // the data, the indices, the updates
  static constexpr std::size_t operands_read(const kernel_params&) { return 3; }
  // Whether the indices (operand 1) are int32 or int64; otherwise a diagnostic naming them.
  template <class Module>
  static constexpr bool integer_indices(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const tensor& indices = m.tensor_at(n.inputs[1]);
    if (indices.type == dtype::i32 || indices.type == dtype::i64) return true;
    m.fail({error_code::unsupported_dtype, node_id, n.kind, {}, indices.dims,
            {.faulty_operand = 2, .rejected_value = static_cast<std::int64_t>(indices.type)}});
    return false;
  }
  template <class Module>
  static constexpr std::int64_t macs(const Module&, const node&, const shape&) {
    return 0;  // a copy
  }

  template <class Params, class T>
  static constexpr void scatter(Params p, const T* data, const void* indices, const T* updates, T* output) {
    if (output != data)
      for (std::int64_t i = 0, elements = p->out.elements(); i < elements; ++i) output[i] = data[i];
    if (p->gather().indices == dtype::i64) D::scatter_into(p, static_cast<const std::int64_t*>(indices), updates, output);
    else D::scatter_into(p, static_cast<const std::int32_t*>(indices), updates, output);
  }

  // The indices are integers whatever the data's type: the float32 kernel's second operand is not a float.
  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    scatter(p, operands[0], static_cast<const void*>(operands[1]), operands[2], result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    with_integer_type(p, [&]<class T>(T) {
      scatter(p, static_cast<const T*>(operands[0]), operands[1], static_cast<const T*>(operands[2]), static_cast<T*>(result));
    });
  }
};

}  // namespace ctnn::ops
