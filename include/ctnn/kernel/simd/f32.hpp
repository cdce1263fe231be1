#pragma once
// Vectorised float32 kernels (xsimd) for the host; kernel::invoke calls them at run time for the calls
// they support and falls back to the reference kernels otherwise (and always at compile time).
#include <cstddef>

#include <ctnn/ir/module.hpp>

namespace ctnn::kernel::simd {

// supports: whether run() handles a call with these parameters. run: operands in the op's input order.
// packs(k): whether operand k (a constant) is passed re-laid out by pack<k>(read) (kernel/dispatch.hpp).
template <kernel_params P>
struct f32_kernel {
  static constexpr bool supports = false;
  static constexpr bool packs(std::size_t) { return false; }
  template <std::size_t K, class Reader>
  static constexpr auto pack(const Reader&) { return 0; }
  static void run(const float* const* operands, float* result);
};

}  // namespace ctnn::kernel::simd
