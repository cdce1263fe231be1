#pragma once
// Kernels with run-time parameters (docs/design.md §4, the "shared" specialisation policy; docs/design.md §2, ctnn-run):
// one out-of-line function per op kind and element type, reading shapes, strides and quantization from
// a kernel_params value, and a dispatcher that picks it from the parameters.
//
//   kernel::shared_kernel<op_kind::conv2d, dtype::i8>(params, operands, result, rq);   // one kind
//   kernel::invoke_dynamic(params, operands, result, rq);   // any kind: false if there is no kernel
//
// Operands are untyped addresses in the op's input order (as kernel::invoke takes them); `rq` holds a
// per-channel int8 call's requantization arrays (runtime/requantization.hpp has the math).
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/onnx_integer.hpp>
#include <ctnn/kernel/reference_by_kind.hpp>
#include <ctnn/kernel/requant_arrays.hpp>
#include <ctnn/ops/registry.hpp>

// A shared kernel stays one function: never inlined into, nor cloned for (g++'s IPA constant
// propagation would make a copy per constant parameter set), its callers.
#if __has_cpp_attribute(gnu::noipa)
#define CTNN_DETAIL_SHARED_KERNEL [[gnu::noipa]]
#else
#define CTNN_DETAIL_SHARED_KERNEL [[gnu::noinline]]
#endif

namespace ctnn::kernel {

// Whether op kind K has a kernel for some element type other than float32: its run_i8, which reads the
// element type from the parameters (int8, and the untyped kernels of uint8, int16, int32, int64 and bool),
// so that shared_kernel<K, dtype::i8> serves them all.
constexpr bool has_untyped_kernel(op_kind kind) {
  constexpr dtype types[] = {dtype::i8, dtype::u8, dtype::i16, dtype::i32, dtype::i64, dtype::b8};
  for (const dtype type : types)
    if (has_kernel(kind, type)) return true;
  return false;
}

// The shared kernel of op kind K on element type T (the first input's; i8: any but float32), for any
// parameters of that kind (kernel_params_problem(p) == none). Out of line: every call of the kind runs this
// one copy.
template <op_kind K, dtype T>
CTNN_DETAIL_SHARED_KERNEL void shared_kernel(const kernel_params& p, std::span<const void* const> operands,
                                              void* result, const requant_arrays& rq) {
  static_assert(T == dtype::i8 ? has_untyped_kernel(K) : has_kernel(K, T),
                "ctnn: no kernel for this op kind and element type (kernel/reference_by_kind.hpp).");
  if constexpr (T == dtype::f32) {
    std::array<const float*, max_node_inputs> typed{};
    for (std::size_t k = 0; k < operands.size() && k < typed.size(); ++k) typed[k] = static_cast<const float*>(operands[k]);
    detail::run_f32<K>(&p, typed.data(), static_cast<float*>(result));
  } else {
    detail::run_i8<K>(&p, operands.data(), result, rq);
  }
}

// The shared kernel of ONNX's integer op kind K (kernel_params::requantization == onnx), for any element
// types (kernel/onnx_integer.hpp). Out of line, as shared_kernel.
template <op_kind K>
CTNN_DETAIL_SHARED_KERNEL void onnx_quant_shared_kernel(const kernel_params& p, std::span<const void* const> operands, void* result) {
  onnx_integer::run<K>(&p, operands.data(), result);
}

// The operands a kernel of these parameters reads (conv/dense: data, weights and the bias if any; ONNX's
// integer ops: also their per-axis scales and zero points).
// (This and has_requantization are templates only so that their visits, a function per descriptor, are
// compiled where invoke_dynamic or a caller uses them, not in every translation unit: Params is
// kernel_params, a braced argument included.)
template <class Params = kernel_params>
constexpr std::size_t operands_read(const Params& p) {
  static_assert(std::is_same_v<Params, kernel_params>, "operands_read takes a kernel_params");
  if (p.requantization == requantization_policy::onnx) return onnx_integer::operand_count(p.kind);
  return ops::visit_or(p.kind, std::size_t{1}, [&](auto d) { return d.operands_read(p); });
}

// Whether the requantization arrays a call of these parameters reads are given (its descriptor's
// has_table_arrays).
template <class Params = kernel_params>
constexpr bool has_requantization(const Params& p, const requant_arrays& rq) {
  static_assert(std::is_same_v<Params, kernel_params>, "has_requantization takes a kernel_params");
  if (p.type != dtype::i8) return true;
  return ops::visit_or(p.kind, true, [&](auto d) { return d.has_table_arrays(p, rq); });
}

namespace detail {

template <op_kind K, dtype T>
bool run_if_kind(const kernel_params& p, std::span<const void* const> operands, void* result, const requant_arrays& rq) {
  if constexpr (T == dtype::i8 ? has_untyped_kernel(K) : has_kernel(K, T)) {
    if (p.kind == K) {
      shared_kernel<K, T>(p, operands, result, rq);
      return true;
    }
  }
  return false;
}

template <dtype T, std::size_t... K>
bool invoke_dynamic_of(const kernel_params& p, std::span<const void* const> operands, void* result,
                       const requant_arrays& rq, std::index_sequence<K...>) {
  return (run_if_kind<static_cast<op_kind>(K), T>(p, operands, result, rq) || ...);
}

// The same for ONNX's integer ops (kernel_params::requantization == onnx): one shared kernel per op kind
// that has one, the element types read from the parameters.
template <op_kind K>
bool run_onnx_if_kind(const kernel_params& p, std::span<const void* const> operands, void* result) {
  if constexpr (onnx_integer::has_kernel_of_kind(K)) {
    if (p.kind == K) {
      onnx_quant_shared_kernel<K>(p, operands, result);
      return true;
    }
  }
  return false;
}

template <std::size_t... K>
bool invoke_onnx_of(const kernel_params& p, std::span<const void* const> operands, void* result, std::index_sequence<K...>) {
  return (run_onnx_if_kind<static_cast<op_kind>(K)>(p, operands, result) || ...);
}

}  // namespace detail

// Runs the shared kernel for `p`. Returns false, writing nothing, when there is none for these
// parameters (kernel_params_problem), fewer operands are given than the kernel reads, or a per-channel
// int8 call lacks its requantization arrays.
// (A template only so that the dispatch, every shared kernel of every kind, is compiled where a call is,
// not in every translation unit that includes this header: Params is kernel_params.)
template <class Params>
bool invoke_dynamic(const Params& p, std::span<const void* const> operands, void* result, const requant_arrays& rq = {}) {
  static_assert(std::is_same_v<Params, kernel_params>, "invoke_dynamic takes a kernel_params");
  if (kernel_params_problem(p) != params_problem::none || operands.size() < operands_read(p) || !has_requantization(p, rq))
    return false;
  constexpr auto kinds = std::make_index_sequence<static_cast<std::size_t>(op_kind_count)>{};
  if (p.requantization == requantization_policy::onnx) return detail::invoke_onnx_of(p, operands, result, kinds);
  if (p.type == dtype::f32) return detail::invoke_dynamic_of<dtype::f32>(p, operands, result, rq, kinds);
  return detail::invoke_dynamic_of<dtype::i8>(p, operands, result, rq, kinds);
}

}  // namespace ctnn::kernel
