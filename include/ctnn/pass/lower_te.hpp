#pragma once
// lower_te: replaces each graph op by a call of a kernel with compile-time parameters (kernel_params),
// including the scratch the kernel declares (kernel/scratch.hpp). Graph nodes stay in the module next to
// the calls, so later passes see both levels.
#include <array>
#include <bit>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/dispatch.hpp>
#include <ctnn/kernel/prepare.hpp>
#include <ctnn/kernel/scratch.hpp>
#include <ctnn/pass/detail/in_place_pass.hpp>

namespace ctnn::pass {

namespace detail {

// A cheap fingerprint of kernel params, so that finding structurally equal kernels compares full params
// only on a fingerprint match (keeps lower_te O(calls x kernels) in cheap steps; docs/design.md §2).
constexpr std::uint32_t fingerprint(const kernel_params& p) {
  std::uint32_t h = 2166136261u;
  const auto mix = [&h](std::int64_t v) { h = (h ^ static_cast<std::uint32_t>(v)) * 16777619u; };
  mix(static_cast<std::int64_t>(p.kind));
  mix(static_cast<std::int64_t>(p.fused));
  for (std::int32_t d = 0; d < p.in.rank; ++d) mix(p.in[d]);
  for (std::int32_t d = 0; d < p.out.rank; ++d) mix(p.out[d]);
  mix(p.win.kernel_h * 131 + p.win.stride_h * 17 + p.win.pad_top);
  mix(p.win.kernel_w * 131 + p.win.stride_w * 17 + p.win.pad_left);
  mix(p.output_multiplier ^ p.input_offset);
  return h;
}

// The kernels' Prepare step is kernel/prepare.hpp; this name keeps runtime/constants.hpp compiling.
template <class Module>
constexpr kernel_params kernel_params_of(const Module& m, const node& n) {
  return kernel::prepare_params(m, n);
}

}  // namespace detail

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
  std::array<std::uint32_t, Module::node_capacity> fingerprints{};
  m.call_count = 0;
  m.kernel_count = 0;
  for (std::int32_t i = 0; i < m.node_count; ++i) {
    const node& n = m.node_at(i);
    const bool onnx_integer = kernel::is_onnx_integer_op(m, n);
    if (!onnx_integer && !kernel::has_kernel(n.kind, m.tensor_at(n.inputs[0]).type)) {
      m.fail({error_code::unsupported_dtype, i, n.kind, {}, m.tensor_at(n.inputs[0]).dims,
              static_cast<std::int64_t>(m.tensor_at(n.inputs[0]).type), 0});
      return;
    }
    // An int8 op needs the quantization of its tensors (value_b: the tensor at fault + 1; -1: the fused
    // activation, which int8 kernels can only apply as a clamp).
    // (ONNX's quantized tensors need no scale: ConvInteger's have none.)
    if (m.requantization == requantization_policy::tflite && kernel::is_quantized_op(m, n)) {
      if (const std::int32_t fault = kernel::unpreparable_operand(m, n); fault != -1) {
        m.fail({error_code::unsupported_dtype, i, n.kind, {}, m.tensor_at(n.inputs[0]).dims,
                static_cast<std::int64_t>(m.tensor_at(n.inputs[0]).type), fault + 1});
        return;
      }
    }
    kernel_call& c = m.calls[static_cast<std::size_t>(m.call_count++)];
    c = kernel_call{};
    c.node = i;
    c.params = kernel::prepare_params(m, n);
    c.params.scratch_bytes = ScratchRules::bytes(c.params);  // from the other fields: equal params, equal scratch
    const std::uint32_t print = detail::fingerprint(c.params);
    for (std::int32_t k = 0; k < m.kernel_count && c.kernel < 0; ++k)
      if (fingerprints[static_cast<std::size_t>(k)] == print && m.kernels[static_cast<std::size_t>(k)] == c.params) c.kernel = k;
    if (c.kernel < 0) {
      c.kernel = m.kernel_count++;
      m.kernels[static_cast<std::size_t>(c.kernel)] = c.params;
      fingerprints[static_cast<std::size_t>(c.kernel)] = print;
    }
    c.operands = n.inputs;
    c.operand_count = n.input_count;
    c.result = n.output;
  }
  m.establish(fact::kernels_lowered);
}

}  // namespace ctnn::pass
