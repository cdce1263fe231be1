#pragma once
// lower_te: replaces each graph op by a call of a kernel with compile-time parameters (kernel_params):
// the structural ones (kernel/prepare.hpp), the quantized ones (pass::compute_requantization, run on each
// call here, in the same constant evaluation) and the scratch the kernel declares (kernel/scratch.hpp),
// written to module::scratch_bytes, the one per-call figure that planning, metadata and the executor read.
// Structurally equal calls share one kernel. Graph nodes stay in the module next to the calls, so later
// passes see both levels.
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/dispatch.hpp>
#include <ctnn/kernel/prepare.hpp>
#include <ctnn/kernel/scratch.hpp>
#include <ctnn/pass/compute_requantization.hpp>
#include <ctnn/pass/detail/in_place_pass.hpp>
#include <ctnn/pass/detail/kernel_table.hpp>

namespace ctnn::pass {

struct lower_te : detail::in_place_pass<lower_te> {
  static constexpr fact requires_facts = fact::shapes_inferred;
  static constexpr fact establishes = fact::kernels_lowered;

  template <class Module>
  static constexpr void run_in_place(Module& m) {
    with_scratch<kernel::scratch_rules>::run_in_place(m);
  }

  // The same pass with other scratch rules than the kernels' (kernel::scratch_rule_list<...>): how a
  // test or a target with kernels of its own declares their scratch.
  template <class ScratchRules>
  struct with_scratch : detail::in_place_pass<with_scratch<ScratchRules>> {
    static constexpr fact requires_facts = fact::shapes_inferred;
    static constexpr fact establishes = fact::kernels_lowered;
    template <class Module>
    static constexpr void run_in_place(Module& m);
  };
};

template <class ScratchRules>
template <class Module>
constexpr void lower_te::with_scratch<ScratchRules>::run_in_place(Module& m) {
  m.call_count = 0;
  for (auto& bytes : m.scratch_bytes) bytes = 0;
  detail::kernel_table_builder<Module> kernels(m);
  for (std::int32_t i = 0; i < m.node_count; ++i) {
    const node& n = m.node_at(i);
    const bool onnx_integer = kernel::is_onnx_integer_op(m, n);
    if (!onnx_integer && !kernel::has_kernel(n.kind, m.tensor_at(n.inputs[0]).type)) {
      m.fail({error_code::unsupported_dtype, i, n.kind, {}, m.tensor_at(n.inputs[0]).dims,
              {.rejected_value = static_cast<std::int64_t>(m.tensor_at(n.inputs[0]).type)}});
      return;
    }
    // An int8 op needs the quantization of its tensors (faulty_operand: the operand at fault + 1; -1: the fused
    // activation, which int8 kernels can only apply as a clamp); kernel::needs_quantization says which.
    if (kernel::needs_quantization(m, n)) {
      if (const std::int32_t fault = kernel::unpreparable_operand(m, n); fault != -1) {
        m.fail({error_code::unsupported_dtype, i, n.kind, {}, m.tensor_at(n.inputs[0]).dims,
                {.faulty_operand = fault + 1, .rejected_value = static_cast<std::int64_t>(m.tensor_at(n.inputs[0]).type)}});
        return;
      }
    }
    kernel_call& c = m.calls[static_cast<std::size_t>(m.call_count++)];
    c = kernel_call{};
    c.node = i;
    c.operands = n.inputs;
    c.operand_count = n.input_count;
    c.result = n.output;
    c.params = kernel::prepare_params(m, n);
    compute_requantization::requantize_call(m, n, c);
    // What the kernels need of the finished parameters (both routes: ctnn::compile's kernel::invoke and the
    // run-time kernels check the same), said here with the op rather than deep inside a kernel.
    if (const kernel::params_problem problem = kernel::kernel_params_problem(c.params); problem != kernel::params_problem::none) {
      const bool output_type = problem == kernel::params_problem::unsupported_result_type;
      m.fail({error_code::unsupported_dtype, i, n.kind, {}, m.tensor_at(n.inputs[0]).dims,
              {.faulty_operand = problem == kernel::params_problem::int8_fused_activation ? -1 : 0,
               .rejected_value = static_cast<std::int64_t>(output_type ? c.params.out_type : c.params.type)}});
      return;
    }
    // From the parameters alone: equal params, equal scratch. Later passes may reserve more.
    m.scratch_bytes[static_cast<std::size_t>(m.call_count - 1)] = ScratchRules::bytes(c.params);
    c.kernel = kernels.kernel_of(m.call_count - 1);
  }
  m.establish(fact::kernels_lowered);
}

}  // namespace ctnn::pass
