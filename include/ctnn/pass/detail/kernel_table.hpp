#pragma once
// The module's kernel table: structurally equal calls share one kernel, in call order, recorded as the first
// call that uses it (module::kernel_first_call; lower_te fills it, passes that change calls' parameters
// rebuild it). A cheap fingerprint of the parameters means full
// parameters are compared only on a fingerprint match (O(calls x kernels) in cheap steps; docs/design.md §2).
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>

namespace ctnn::pass::detail {

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

// The kernel table under construction: the module's kernels and their fingerprints.
template <class Module>
struct kernel_table_builder {
  Module& m;
  std::array<std::uint32_t, Module::node_capacity> fingerprints{};

  constexpr explicit kernel_table_builder(Module& module) : m(module) { m.kernel_count = 0; }

  // The kernel of call `c` (its parameters final): an equal earlier call's, else a new one, first used by c.
  constexpr std::int32_t kernel_of(std::int32_t c) {
    const kernel_params& params = m.calls[static_cast<std::size_t>(c)].params;
    const std::uint32_t print = fingerprint(params);
    for (std::int32_t k = 0; k < m.kernel_count; ++k)
      if (fingerprints[static_cast<std::size_t>(k)] == print && m.kernel(k) == params) return k;
    const std::int32_t added = m.kernel_count++;
    m.kernel_first_call[static_cast<std::size_t>(added)] = c;
    fingerprints[static_cast<std::size_t>(added)] = print;
    return added;
  }
};

// Rebuilds the kernel table from the calls' parameters; no kernel is left unused.
template <class Module>
constexpr void rebuild_kernel_table(Module& m) {
  for (auto& first : m.kernel_first_call) first = 0;
  kernel_table_builder<Module> table(m);
  for (std::int32_t c = 0; c < m.call_count; ++c) m.calls[static_cast<std::size_t>(c)].kernel = table.kernel_of(c);
}

// The kernel table across a change of call order (order_for_memory moves calls with their nodes): each
// kernel's first call found again by its result tensor, which does not move; the kernels keep their numbers.
template <class Module, class Reorder>
constexpr void keep_kernel_table_across(Module& m, Reorder reorder) {
  std::array<std::int32_t, Module::node_capacity> first_result{};
  for (std::int32_t k = 0; k < m.kernel_count; ++k)
    first_result[static_cast<std::size_t>(k)] = m.calls[static_cast<std::size_t>(m.kernel_first_call[static_cast<std::size_t>(k)])].result;
  reorder();
  std::array<std::int32_t, Module::tensor_capacity> call_of_result{};
  for (std::int32_t c = 0; c < m.call_count; ++c)
    call_of_result[static_cast<std::size_t>(m.calls[static_cast<std::size_t>(c)].result)] = c;
  for (std::int32_t k = 0; k < m.kernel_count; ++k)
    m.kernel_first_call[static_cast<std::size_t>(k)] = call_of_result[static_cast<std::size_t>(first_result[static_cast<std::size_t>(k)])];
}

}  // namespace ctnn::pass::detail
