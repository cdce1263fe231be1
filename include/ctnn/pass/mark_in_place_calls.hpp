#pragma once
// mark_in_place_calls: the fourth step of memory planning. A call whose result place_buffers put over its
// dying input (module::result_over_input: an in-place convolution, ctnn::in_place_windows) gets
// kernel_params::in_place = 1, which the kernels read (the x86 vectorised ones refuse such calls, so the
// reference kernel runs there; the Armv7E-M DSP kernels take them; docs/memory.md). A call whose result's
// bytes are already where its kernel would copy them (a slice stored inside its input, ctnn::slice_in_place;
// a concat whose producers wrote into it, ctnn::concat_in_place) gets 2: the executor runs nothing for it,
// and module::copies_skipped / bytes_not_copied count them. Every other call gets 0. When a call's parameters change, the
// kernel table is rebuilt: structurally equal calls share one kernel, in call order, and no kernel is left
// unused (the table has room for one kernel per call, not for the old and the new variants side by side).
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/ops/registry.hpp>
#include <ctnn/pass/aot_lower_main.hpp>
#include <ctnn/pass/detail/in_place_pass.hpp>
#include <ctnn/pass/detail/kernel_table.hpp>

namespace ctnn::pass {

namespace detail {

// Whether the call only copies bytes onto themselves: its operands (a window of one, or all of them one
// after another) already lie where its result's bytes are, in the same pool (the addresses the executor
// will use, location_of).
template <class Module>
constexpr bool copies_onto_itself(const Module& m, const kernel_call& call) {
  const node& n = m.node_at(call.node);
  const ops::op_facts& f = ops::facts(n.kind);
  const location out = location_of(m, call.result);
  if (out.where != storage::arena) return false;
  const auto at = [&](std::int32_t tensor_id, std::int64_t shift) {
    const location in = location_of(m, tensor_id);
    return in.where == storage::arena && in.index == out.index && in.offset + shift == out.offset;
  };
  const std::int64_t element = static_cast<std::int64_t>(size_of(m.tensor_at(call.result).type));
  if (f.windows_its_input) {
    const tensor& in = m.tensor_at(n.inputs[0]);
    const std::int64_t first = ops::slice::contiguous_offset(in.dims, n.attrs.slice);
    return first >= 0 && size_of(in.type) == size_of(m.tensor_at(call.result).type) && at(n.inputs[0], first * element);
  }
  if (f.joins_operands && call.params.concat().rescales_inputs == 0) {
    const shape& dims = m.tensor_at(call.result).dims;
    const std::int32_t axis = n.attrs.axis < 0 ? n.attrs.axis + dims.rank : n.attrs.axis;
    for (std::int32_t d = 0; d < axis; ++d)
      if (dims[d] != 1) return false;  // the operands are interleaved in the result
    std::int64_t offset = 0;
    for (std::int32_t k = 0; k < n.input_count; ++k) {
      const std::int32_t operand = n.inputs[static_cast<std::size_t>(k)];
      if (!at(operand, -offset)) return false;
      offset += m.tensor_at(operand).bytes();
    }
    return true;
  }
  return false;
}

}  // namespace detail

struct mark_in_place_calls : detail::in_place_pass<mark_in_place_calls> {
  static constexpr fact requires_facts = fact::kernels_lowered;

  template <class Module>
  static constexpr void run_in_place(Module& m) {
    bool changed = false;
    m.copies_skipped = 0;
    m.bytes_not_copied = 0;
    for (std::int32_t c = 0; c < m.call_count; ++c) {
      kernel_call& call = m.calls[static_cast<std::size_t>(c)];
      const bool over_input = m.result_over_input[static_cast<std::size_t>(call.node)];
      const bool copies_nothing = !over_input && detail::copies_onto_itself(m, call);
      if (copies_nothing) {
        ++m.copies_skipped;
        m.bytes_not_copied += m.tensor_at(call.result).bytes();
      }
      const std::int32_t wanted = over_input ? 1 : copies_nothing ? 2 : 0;
      changed = changed || call.params.in_place != wanted;
      call.params.in_place = wanted;
    }
    if (changed) detail::rebuild_kernel_table(m);
  }
};

}  // namespace ctnn::pass
