#pragma once
// The requantization tables of the calls, materialised at compile time (docs/design.md §2, §4): what
// pass::compute_requantization recorded for each call (kernel_call::requantization) becomes one
// `inline constexpr` array in .rodata, computed in a constant evaluation of its own by that pass's
// functions. Nothing is decided here: the recipe says which table a call reads.
//   channel_multipliers: keyed by the recipe alone, so that calls and executors with the same scales share
//     one table;
//   channel_multipliers_of_call, concat_inputs: keyed by module and call (requantization_v, which also
//     holds any call's table, for tests).
// requantization_of<M, C>() is the executor's hook: the kernel::requant_arrays of call C.
#include <cstddef>

#include <ctnn/ir/module.hpp>
#include <ctnn/ir/requantization_recipe.hpp>
#include <ctnn/kernel/requant_arrays.hpp>
#include <ctnn/pass/compute_requantization.hpp>

namespace ctnn {

namespace detail {

// The table of call C of module M, from the call's own tensors.
template <auto& M, std::size_t C>
constexpr auto call_requantization_table() {
  constexpr const kernel_call& call = M.calls[C];
  constexpr requantization_recipe recipe = call.requantization;
  constexpr auto length = static_cast<std::size_t>(recipe.channels);
  if constexpr (recipe.table == requantization_table::concat_inputs) {
    return pass::requantization::concat_input_rescaling_of<length>(M, call);
  } else {
    static_assert(recipe.table != requantization_table::none, "ctnn: requantization_v<M, C> of a call without a table.");
    return pass::requantization::channel_multipliers_of<length>(M.tensor_at(call.operands[0]).quant.scale,
                                                                M.tensor_at(call.operands[1]).quant,
                                                                M.tensor_at(call.result).quant.scale);
  }
}

}  // namespace detail

// The requantization table of call C of module M, in .rodata.
template <auto& M, std::size_t C>
inline constexpr auto requantization_v = detail::call_requantization_table<M, C>();

// A channel_multipliers table, keyed by its recipe, in .rodata.
template <requantization_recipe R>
inline constexpr auto channel_requantization_v = pass::requantization::channel_multipliers_of<R>();

// The executor's hook: what kernel::invoke receives for call C of module M.
template <auto& M, std::size_t C>
constexpr kernel::requant_arrays requantization_of() {
  constexpr requantization_recipe recipe = M.calls[C].requantization;
  if constexpr (recipe.table == requantization_table::none) {
    return {};
  } else if constexpr (recipe.table == requantization_table::concat_inputs) {
    return {nullptr, nullptr, requantization_v<M, C>.scale.data(), requantization_v<M, C>.bias.data(),
            requantization_v<M, C>.requantize.data()};
  } else if constexpr (recipe.table == requantization_table::channel_multipliers) {
    return {channel_requantization_v<recipe>.multiplier.data(), channel_requantization_v<recipe>.shift.data(), nullptr,
            nullptr, nullptr};
  } else {
    return {requantization_v<M, C>.multiplier.data(), requantization_v<M, C>.shift.data(), nullptr, nullptr, nullptr};
  }
}

}  // namespace ctnn
