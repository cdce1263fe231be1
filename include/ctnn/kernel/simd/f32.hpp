#pragma once
// Vectorised float32 kernels (xsimd) for the host; kernel::invoke calls them at run time for the calls
// they support and falls back to the reference kernels otherwise (and always at compile time).
// The vector width is xsimd's default architecture, fixed by -march (AVX-512, AVX2, SSE, NEON); without
// one (XSIMD_NO_SUPPORTED_ARCHITECTURE: bare metal) nothing of xsimd's is included and no call is
// supported. Kernels: kernel/simd/f32/*.hpp.
#include <ctnn/kernel/simd/detail/xsimd_config.hpp>

#include <cstddef>
#include <type_traits>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>  // no_f32_kernel's packing interface, with or without an architecture

#ifndef XSIMD_NO_SUPPORTED_ARCHITECTURE
#include <ctnn/kernel/simd/f32/binary.hpp>
#include <ctnn/kernel/simd/f32/conv2d.hpp>
#include <ctnn/kernel/simd/f32/dense.hpp>
#include <ctnn/kernel/simd/f32/depthwise_conv2d.hpp>
#include <ctnn/kernel/simd/f32/elementwise.hpp>
#include <ctnn/kernel/simd/f32/layer_norm.hpp>
#include <ctnn/kernel/simd/f32/pool.hpp>
#include <ctnn/kernel/simd/f32/reduce.hpp>
#include <ctnn/kernel/simd/f32/resize.hpp>
#include <ctnn/kernel/simd/f32/softmax.hpp>
#include <ctnn/kernel/simd/f32/transpose.hpp>
#include <ctnn/kernel/simd/f32/transpose_conv2d.hpp>
#include <ctnn/kernel/simd/f32/unary.hpp>
#include <ctnn/kernel/simd/f32/winograd.hpp>
#endif

namespace ctnn::kernel::simd {

namespace detail {

// No vector kernel for these parameters (run is never called).
struct no_f32_kernel : kernel::detail::reads_constants_as_stored {
  static constexpr bool supports = false;
  static void run(const float* const* operands, float* result);
};

#ifndef XSIMD_NO_SUPPORTED_ARCHITECTURE
// The vector kernel for P's op kind; the chosen kernel's `supports` decides whether it is used.
template <kernel_params P>
constexpr auto f32_kernel_for() {
  if constexpr (P.type != dtype::f32) return std::type_identity<no_f32_kernel>{};
  else if constexpr (P.kind == op_kind::conv2d && f32::winograd_conv2d<P>::supports) return std::type_identity<f32::winograd_conv2d<P>>{};
  else if constexpr (P.kind == op_kind::conv2d) return std::type_identity<f32::conv2d<P>>{};
  else if constexpr (P.kind == op_kind::transpose_conv2d) return std::type_identity<f32::transpose_conv2d<P>>{};
  else if constexpr (P.kind == op_kind::depthwise_conv2d) return std::type_identity<f32::depthwise_conv2d<P>>{};
  else if constexpr (P.kind == op_kind::dense) return std::type_identity<f32::dense<P>>{};
  else if constexpr (P.kind == op_kind::max_pool || P.kind == op_kind::avg_pool) return std::type_identity<f32::pool2d<P>>{};
  else if constexpr (P.kind == op_kind::global_avg_pool) return std::type_identity<f32::global_avg_pool<P>>{};
  else if constexpr (binary_kind(P.kind)) return std::type_identity<f32::binary<P>>{};
  else if constexpr (P.kind == op_kind::relu || P.kind == op_kind::relu6) return std::type_identity<f32::rectifier<P>>{};
  else if constexpr (P.kind == op_kind::resize_nearest) return std::type_identity<f32::resize_nearest<P>>{};
  else if constexpr (P.kind == op_kind::resize_linear) return std::type_identity<f32::resize_bilinear<P>>{};
  else if constexpr (P.kind == op_kind::transpose) return std::type_identity<f32::transpose<P>>{};
  else if constexpr (P.kind == op_kind::binary_function) return std::type_identity<f32::scalar_power<P>>{};
  else if constexpr (P.kind == op_kind::softmax) return std::type_identity<f32::softmax<P>>{};
  else if constexpr (P.kind == op_kind::layer_norm) return std::type_identity<f32::layer_norm<P>>{};
  else if constexpr (P.kind == op_kind::mean) return std::type_identity<f32::mean<P>>{};
  else if constexpr (unary_activation_kind(P)) return std::type_identity<f32::unary_activation<P>>{};
  else return std::type_identity<no_f32_kernel>{};
}
template <kernel_params P>
using f32_kernel_t = typename decltype(f32_kernel_for<P>())::type;
#else
template <kernel_params P>
using f32_kernel_t = no_f32_kernel;
#endif

}  // namespace detail

// supports: whether run() handles a call with these parameters. run: operands in the op's input order.
// packs(k): whether operand k (a constant) is passed re-laid out by pack<k>(read) (kernel/kernel_family.hpp).
template <kernel_params P>
struct f32_kernel : detail::f32_kernel_t<P> {};

}  // namespace ctnn::kernel::simd
