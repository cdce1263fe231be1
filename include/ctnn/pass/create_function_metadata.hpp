#pragma once
// create_function_metadata: for each distinct kernel, the bytes one call touches (activations read and
// written, weights read, scratch) and how many calls use it: the facts a memory or cost report needs,
// as typed fields (module::functions), like TVM's per-function metadata. Calls that share a kernel have
// equal shapes but may differ in which operands are constants (add(x, const) and add(x, y)) or in the
// scratch a pass reserved for one of them: the figures are the largest over the kernel's calls.
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/pass/detail/in_place_pass.hpp>

namespace ctnn::pass {

struct create_function_metadata : detail::in_place_pass<create_function_metadata> {
  static constexpr fact requires_facts = fact::kernels_lowered;
  static constexpr fact establishes = fact::function_metadata;

  template <class Module>
  static constexpr void run_in_place(Module& m) {
    for (auto& f : m.functions) f = function_info{};
    for (std::int32_t c = 0; c < m.call_count; ++c) {
      const kernel_call& call = m.calls[static_cast<std::size_t>(c)];
      function_info& f = m.functions[static_cast<std::size_t>(call.kernel)];
      ++f.calls;
      std::int64_t io = m.tensor_at(call.result).bytes(), constant = 0;
      for (std::int32_t k = 0; k < call.operand_count; ++k) {
        const std::int32_t t = call.operands[static_cast<std::size_t>(k)];
        if (t < 0) continue;
        (m.tensor_at(t).role == tensor_role::constant ? constant : io) += m.tensor_at(t).bytes();
      }
      f.io_bytes = io > f.io_bytes ? io : f.io_bytes;
      f.constant_bytes = constant > f.constant_bytes ? constant : f.constant_bytes;
      // Scratch: module::scratch_bytes, the one per-call figure (lower_te's declaration, or more where a
      // pass reserved more for this call).
      const std::int64_t scratch = m.scratch_bytes[static_cast<std::size_t>(c)];
      f.workspace_bytes = scratch > f.workspace_bytes ? scratch : f.workspace_bytes;
    }
  }
};

}  // namespace ctnn::pass
