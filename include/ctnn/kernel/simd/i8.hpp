#pragma once
// Vectorised int8 kernels (xsimd / VNNI) for the host, bit-exact with the reference int8 kernels;
// kernel::invoke calls them at run time for the calls they support and falls back to the reference.
#include <cstddef>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::simd {

// supports: whether run() handles a call with these parameters. run: operands as in kernel::invoke.
// packs(k): whether operand k (a constant) is passed re-laid out by pack<k>(read) (kernel/dispatch.hpp).
template <kernel_params P>
struct i8_kernel {
  static constexpr bool supports = false;
  static constexpr bool packs(std::size_t) { return false; }
  template <std::size_t K, class Reader>
  static constexpr auto pack(const Reader&) { return 0; }
  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays& rq);
};

}  // namespace ctnn::kernel::simd
