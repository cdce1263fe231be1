#pragma once
// assign_variable: copies its operand 0 (the value) into its operand 1, a state tensor (tensor_role::state, a
// TFLite resource variable: ASSIGN_VARIABLE), which it writes in place (state_operands). TFLite's op has no
// result; the IR's node has one, a one-element tensor nobody reads and the kernel does not write, so that the
// node keeps the IR's shape (one result per node) and no pass removes it: nothing removes an op for want of
// readers. A read of the variable (READ_VARIABLE) is a copy (a reshape without target) of the state tensor; the
// memory-aware order keeps the file's order of a state's readers and writers (memory/schedule.hpp). The
// descriptor of op_kind::assign_variable (ops/descriptor.hpp).
#include <cstdint>

#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct assign_variable : any_type_move {
  static constexpr op_kind kind = op_kind::assign_variable;
  static constexpr operand_range operands{2, 2};
  static constexpr std::uint32_t state_operands = 1u << 1;

  // The value and the variable of one shape (the TFLite importer makes the variable from its uses); the result: one
  // element.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const shape value = m.tensor_at(n.inputs[0]).dims;
    const shape state = m.tensor_at(n.inputs[1]).dims;
    if (!(value == state)) m.fail({error_code::input_shapes_differ, node_id, n.kind, state, value, {.input_slot = 0}});
    return shape{};
  }
  template <class Module>
  static constexpr void prepare(const Module& m, const node& n, kernel_params& p) {
    p.in2 = m.tensor_at(n.inputs[1]).dims;
  }
  static constexpr std::size_t operands_read(const kernel_params&) { return 2; }
  template <class Module>
  static constexpr std::int64_t macs(const Module&, const node&, const shape&) {
    return 0;
  }

  template <class Params, class T>
  static constexpr void copy_into_state(Params p, const T* value, T* variable) {
    const std::int64_t elements = p->in.elements();
    for (std::int64_t i = 0; i < elements; ++i) variable[i] = value[i];
  }
  // state_operands: operand 1 is writable by construction.
  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float*) {
    copy_into_state(p, operands[0], const_cast<float*>(operands[1]));
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void*, const kernel::requant_arrays&) {
    with_integer_type(p, [&]<class T>(T) {
      copy_into_state(p, static_cast<const T*>(operands[0]), static_cast<T*>(const_cast<void*>(operands[1])));
    });
  }
};

}  // namespace ctnn::ops
