#pragma once
// How a kernel reads its parameters (docs/design.md §4, the specialisation policy): `p->field`, with p either
//   * static_params<P>: the parameters of one call, known at compile time (the "full" policy): every
//     read is a constant, also inside a lambda the compiler keeps out of line, since each P makes its
//     own instantiation of the kernel, as a `template <kernel_params P>` kernel would; or
//   * const kernel_params*: parameters read at run time (the "shared" policy and ctnn-run): one
//     instantiation per kernel for all calls.
// So one kernel source serves both policies.
#include <ctnn/ir/module.hpp>

namespace ctnn::kernel {

template <kernel_params P>
struct static_params {
  constexpr const kernel_params* operator->() const { return &P; }
  constexpr const kernel_params& operator*() const { return P; }
};

// Whether a kernel's parameters are constants (static_params<P>: the compiled executor), and which: a kernel can
// then keep what depends on them alone in tables the compiler computes (in flash).
template <class Params>
struct constant_params {
  static constexpr bool value = false;
};
template <kernel_params P>
struct constant_params<static_params<P>> {
  static constexpr bool value = true;
  static constexpr kernel_params params = P;
};

}  // namespace ctnn::kernel
