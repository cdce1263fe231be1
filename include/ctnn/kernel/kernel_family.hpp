#pragma once
// ctnn::kernel_family<K>: what pass::select_kernels asks of a kernel family, for the type K the family gives
// for one call's kernel_params P (arm::i8_kernel<P>, simd::f32_kernel<P>, kernel::simd_i8_kernel<P, L>;
// kernel/dispatch.hpp, implementation_t):
//
//   static constexpr bool supports;                          whether run() handles a call with parameters P
//   static constexpr bool packs(std::size_t k);              whether constant operand k is passed re-laid out
//   template <std::size_t K, class Reader>
//   static constexpr auto pack(const Reader& read);          the re-laid-out operand K (none: derive from
//                                                            kernel::detail::reads_constants_as_stored)
//   static void run(operands, result[, rq]);                 the call (float: typed operands; int8: untyped
//                                                            ones and the requantization arrays)
//
// supports and packs are checked with their types; pack and run by name (their parameters differ between
// the families, and pack's body is not instantiated to check it). select_kernels checks each family's
// kernel where it asks it (one static_assert per member, naming the first missing).
#include <concepts>
#include <cstddef>
#include <type_traits>

#include <ctnn/detail/member_named.hpp>

namespace ctnn {

namespace detail {

// One concept per member of the interface.
template <class K>
concept kernel_has_supports = std::same_as<decltype(K::supports), const bool>;
template <class K>
concept kernel_has_packs = requires(std::size_t k) {
  { K::packs(k) } -> std::convertible_to<bool>;
};
template <class K>
concept kernel_has_pack = has_member_named_pack<K>;
template <class K>
concept kernel_has_run = has_member_named_run<K>;

}  // namespace detail

template <class K>
concept kernel_family = std::is_class_v<K> && detail::kernel_has_supports<K> && detail::kernel_has_packs<K> &&
                        detail::kernel_has_pack<K> && detail::kernel_has_run<K>;

}  // namespace ctnn
