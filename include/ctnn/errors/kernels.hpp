#pragma once
// Compile errors of kernel selection: under ctnn::require_fast_kernels, a call that would run a reference
// kernel on a Cortex-M target (pass::select_kernels).
#include <ctnn/errors/graph.hpp>
#include <ctnn/ir/kernel_choice.hpp>
#include <ctnn/ir/kernel_decline.hpp>

namespace ctnn::errors {

// The fast family asked for the call (its kernel_impl).
template <kernel_impl Family> struct family;
// Why it declines (ctnn::kernel_decline; in words: ctnn::describe, docs/design.md §4), and the number the
// reason is about (the depth multiplier, the groups, the window's taps...; -1: none).
template <kernel_decline Reason, std::int64_t Value> struct declined_because;

template <class Op, class Family, class Reason>
struct reference_kernel_call {
  static_assert(detail::always_false<Op>,
                "ctnn::require_fast_kernels: this call would run a reference kernel on a Cortex-M target (the op, the "
                "fast family asked and why it declines the call are the template arguments; docs/design.md §4 lists "
                "the shapes each family takes).");
};

}  // namespace ctnn::errors
