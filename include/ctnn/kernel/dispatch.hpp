#pragma once
// Chooses the kernel for a call's compile-time parameters. Operands arrive in the op's input order
// (conv/dense: data, weights, bias). kernel_params::type is the element type of the op's first input:
// f32 runs the float kernels (quantize from f32 writes int8), i8 the int8 kernels (TFLite semantics;
// dequantize writes f32), whose per-channel multipliers come in a requant_arrays.
//
// The specialisation policy (DESIGN §4) decides what runs a call: kernel::full (the default) one kernel
// per call, its parameters compile-time constants (a vectorised kernel where one supports the call, else
// the reference kernel constant-folded); kernel::shared one kernel per op kind and element type with
// run-time parameters (kernel/dynamic.hpp): less code when a model has many distinct layers of few
// kinds, and 2-3x slower (measured on the MLPerf Tiny int8 models).
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/i8.hpp>
#include <ctnn/kernel/dynamic.hpp>
#include <ctnn/kernel/reference/onnx_quant/run.hpp>
#include <ctnn/kernel/reference_by_kind.hpp>
#include <ctnn/kernel/requant_arrays.hpp>
#include <ctnn/kernel/simd/f32.hpp>
#include <ctnn/kernel/simd/i8.hpp>

namespace ctnn::kernel {

namespace detail {

// The parameters' problem as a compile error (kernel_params_problem).
template <kernel_params P>
consteval bool check_params() {
  constexpr params_problem problem = kernel_params_problem(P);
  static_assert(problem != params_problem::no_kernel || P.type != dtype::f32,
                "ctnn: no float32 kernel for this op kind (kernel/reference_by_kind.hpp).");
  static_assert(problem != params_problem::no_kernel || P.type != dtype::i8,
                "ctnn: no int8 kernel for this op kind (kernel/reference_by_kind.hpp).");
  static_assert(problem != params_problem::no_kernel || P.requantization != requantization_policy::onnx,
                "ctnn: no ONNX integer kernel for these parameters (kernel/reference/onnx_quant/params.hpp).");
  static_assert(problem != params_problem::no_kernel || P.type == dtype::f32 || P.type == dtype::i8 ||
                    P.requantization == requantization_policy::onnx,
                "ctnn: no kernel for this element type (kernel/dispatch.hpp).");
  static_assert(problem != params_problem::quantize_not_to_int8, "ctnn: QUANTIZE writes int8 only.");
  static_assert(problem != params_problem::dequantize_not_to_float, "ctnn: DEQUANTIZE writes float32 only.");
  static_assert(problem != params_problem::int8_fused_activation, "ctnn: an int8 kernel can only fuse relu or relu6.");
  static_assert(problem != params_problem::int8_softmax_output,
                "ctnn: an int8 softmax's output must have zero point -128 (and scale 1/256), as in TFLite.");
  return problem == params_problem::none;
}

}  // namespace detail

// The float32 kernels, with typed operands: also run by the compiler (fold_constants).
template <kernel_params P>
constexpr void invoke_f32(const float* const* operands, float* result) {
  static_assert(P.type == dtype::f32 && P.kind != op_kind::quantize && P.kind != op_kind::dequantize,
                "ctnn: kernel::invoke_f32 runs the float32 kernels (float32 in and out).");
  if constexpr (detail::check_params<P>()) detail::run_f32<P.kind>(static_params<P>{}, operands, result);
}

// The int8 kernels (TFLite's integer recipes). Activations are int8, weights int8, biases int32; `rq`
// holds what kernel_params cannot (per-channel multipliers, per-input concat rescaling).
template <kernel_params P, std::size_t N>
void invoke_i8(const void* const (&operands)[N], void* result, const requant_arrays& rq) {
  static_assert(P.type == dtype::i8, "ctnn: kernel::invoke_i8 runs the int8 kernels (int8 first input).");
  if constexpr (detail::check_params<P>()) detail::run_i8<P.kind>(static_params<P>{}, operands, result, rq);
}

// Whether the vectorised kernels run call P: not for a call plan_memory placed over its own input
// (kernel_params::in_place), whose safety holds for the reference kernels' order of writes only.
template <kernel_params P>
inline constexpr bool uses_simd_f32 = P.in_place == 0 && simd::f32_kernel<P>::supports;
template <kernel_params P>
inline constexpr bool uses_simd_i8 = P.in_place == 0 && simd::i8_kernel<P>::supports;
// The Armv7E-M DSP kernels decide themselves whether they run an in-place call (kernel/arm/i8.hpp).
template <kernel_params P>
inline constexpr bool uses_arm_i8 = P.type == dtype::i8 && arm::i8_kernel<P>::supports;

// Whether the run-time kernel for P reads operand K (a constant: weights, bias) in a layout of its own,
// made at compile time by pack_operand (the executor then passes packed_operand_v instead of the stored
// constant; runtime/packed_operands.hpp).
template <kernel_params P>
constexpr bool packs_operand(std::size_t k) {
  if constexpr (P.requantization == requantization_policy::onnx || P.type == dtype::u8)
    return false;  // the ONNX integer kernels read constants as stored
  else if constexpr (P.type == dtype::f32 && P.kind != op_kind::quantize && uses_simd_f32<P>)
    return simd::f32_kernel<P>::packs(k);
  else if constexpr (P.type == dtype::i8 && uses_arm_i8<P>)
    return arm::i8_kernel<P>::packs(k);
  else if constexpr (P.type == dtype::i8 && uses_simd_i8<P>)
    return simd::i8_kernel<P>::packs(k);
  else
    return false;
}

// Operand K re-laid out for the run-time kernel of P: `read` gives the stored constant's elements
// (read.f32(i) or all at once read.f32_values(), read.i8(i), read.i32(i), read.count()); returns an array
// (in .rodata once materialised).
template <kernel_params P, std::size_t K, class Reader>
constexpr auto pack_operand(const Reader& read) {
  if constexpr (P.type == dtype::f32) return simd::f32_kernel<P>::template pack<K>(read);
  else if constexpr (uses_arm_i8<P>) return arm::i8_kernel<P>::template pack<K>(read);
  else return simd::i8_kernel<P>::template pack<K>(read);
}

// The executor's entry under the full policy: operands as untyped addresses (activations, weights and
// biases of a quantized op have different element types), cast here to what the kernel for P.type takes.
// `rq`: the call's per-channel requantization arrays (runtime/requantization.hpp), empty for calls that
// need none.
template <kernel_params P, std::size_t N>
void invoke(const void* const (&operands)[N], void* result, const requant_arrays& rq = {}) {
  if constexpr (!detail::check_params<P>()) {
    return;  // reported by check_params
  } else if constexpr (P.requantization == requantization_policy::onnx) {
    reference::onnx_quant::run_typed<P.kind, element_t<P.type>, element_t<P.weights_type>, element_t<P.out_type>>(
        static_params<P>{}, operands, result);
  } else if constexpr (P.type == dtype::u8) {
    detail::run_i8<P.kind>(static_params<P>{}, operands, result, rq);  // byte moves (has_kernel)
  } else if constexpr (P.type == dtype::f32 && P.kind == op_kind::quantize) {
    detail::run_quantize(static_params<P>{}, operands[0], result);
  } else if constexpr (P.type == dtype::f32) {
    const float* typed[N]{};
    for (std::size_t k = 0; k < N; ++k) typed[k] = static_cast<const float*>(operands[k]);
    if constexpr (uses_simd_f32<P>) simd::f32_kernel<P>::run(typed, static_cast<float*>(result));
    else invoke_f32<P>(typed, static_cast<float*>(result));
  } else {
    if constexpr (uses_arm_i8<P>) arm::i8_kernel<P>::run(operands, result, rq);
    else if constexpr (uses_simd_i8<P>) simd::i8_kernel<P>::run(operands, result, rq);
    else invoke_i8<P>(operands, result, rq);
  }
}

// As above, for a call whose kernel declares scratch (kernel_params::scratch_bytes; plan_memory places
// it, the executor passes its address). No kernel declares any yet: the reference kernels need none.
template <kernel_params P, std::size_t N>
void invoke(const void* const (&operands)[N], void* result, const requant_arrays& rq, [[maybe_unused]] void* scratch) {
  invoke<P>(operands, result, rq);
}

// The specialisation policies, as the executor uses them: invoke<P>(operands, result, rq[, scratch]) runs
// a call with parameters P, packs_operand<P>(k) says whether its constant operand k comes re-laid out
// (packed_operand_v) instead of as stored.
struct full {
  template <kernel_params P>
  static constexpr bool packs_operand(std::size_t k) {
    return kernel::packs_operand<P>(k);
  }
  template <kernel_params P, std::size_t N>
  static void invoke(const void* const (&operands)[N], void* result, const requant_arrays& rq, void* scratch = nullptr) {
    kernel::invoke<P>(operands, result, rq, scratch);
  }
};

struct shared {
  template <kernel_params P>
  static constexpr bool packs_operand(std::size_t) {
    return false;  // the shared kernels read constants as stored
  }
  template <kernel_params P, std::size_t N>
  static void invoke(const void* const (&operands)[N], void* result, const requant_arrays& rq, void* /*scratch*/ = nullptr) {
    if constexpr (!detail::check_params<P>()) return;
    else if constexpr (P.requantization == requantization_policy::onnx) onnx_quant_shared_kernel<P.kind>(P, operands, result);
    else shared_kernel<P.kind, P.type>(P, operands, result, rq);
  }
};

}  // namespace ctnn::kernel
