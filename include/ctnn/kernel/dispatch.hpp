#pragma once
// Runs a call with compile-time parameters P by the kernel recorded in P.choice (pass::select_kernels;
// nothing here chooses). Operands arrive in the op's input order (conv/dense: data, weights, bias).
// kernel_params::type is the element type of the op's first input: f32 runs the float kernels (quantize
// from f32 writes int8 or int16), the integer types the integer kernels (TFLite semantics; dequantize
// writes f32), whose per-channel multipliers come in a requant_arrays.
//
// Implementations (kernel_impl): reference (constant-folded scalar kernels, also run by the compiler),
// simd_f32 / simd_i8 (host vector kernels), arm_dsp_i8 (Armv7E-M), arm_mve_i8 (Armv8.1-M MVE), arm_v6m_i8 (Armv6-M), shared (kernel/dynamic.hpp: one kernel
// per op kind and element type with run-time parameters, the ctnn::shared policy: less code when a model
// has many distinct layers of few kinds, and 2-3x slower, measured on the MLPerf Tiny int8 models).
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/dynamic.hpp>
#include <ctnn/kernel/onnx_integer.hpp>
#include <ctnn/kernel/reference_by_kind.hpp>
#include <ctnn/kernel/requant_arrays.hpp>
#include <ctnn/kernel/simd/f32.hpp>

// A translation unit reads only the kernel families its compiler flags can run (target.hpp's
// enabled_by_compiler refuses a target above them): the Armv7E-M and MVE int8 families where the DSP
// extension is on, the Armv6-M one on every M-profile core, the x86 int8 family on x86. Parsing the others cost every translation unit time for
// nothing (docs/compile_time.md). Their tests include their headers themselves.
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#define CTNN_DETAIL_ARM_KERNEL_FAMILIES 1
#include <ctnn/kernel/arm/i8.hpp>
#include <ctnn/kernel/arm/mve/i8.hpp>
#endif
#if defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'
#define CTNN_DETAIL_ARMV6M_KERNEL_FAMILY 1
#include <ctnn/kernel/arm/v6m/i8.hpp>
#endif
#if defined(__x86_64__) || defined(__i386__)
#define CTNN_DETAIL_X86_KERNEL_FAMILY 1
#include <ctnn/kernel/simd/i8.hpp>
#endif

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
                "ctnn: no ONNX integer kernel for these parameters (kernel/onnx_integer.hpp).");
  static_assert(problem != params_problem::no_kernel || P.type == dtype::f32 || P.type == dtype::i8 ||
                    P.requantization == requantization_policy::onnx,
                "ctnn: no kernel for this element type (kernel/dispatch.hpp).");
  static_assert(problem != params_problem::unsupported_result_type,
                "ctnn: this op kind's kernel does not write this result element type (its descriptor's has_result_kernel).");
  static_assert(problem != params_problem::int8_fused_activation, "ctnn: an int8 kernel can only fuse relu or relu6.");
  static_assert(problem != params_problem::int8_softmax_output,
                "ctnn: an int8 softmax's output must have zero point -128 (and scale 1/256), as in TFLite.");
  return problem == params_problem::none;
}

}  // namespace detail

// The float32 kernels, with typed operands: also run by the compiler (fold_constants). A kernel whose result
// is of another type (quantize, arg_max) writes it through `result`.
template <kernel_params P>
constexpr void invoke_f32(const float* const* operands, float* result) {
  static_assert(P.type == dtype::f32, "ctnn: kernel::invoke_f32 runs the float32 kernels (float32 first input).");
  if constexpr (detail::check_params<P>()) detail::run_f32<P.kind>(static_params<P>{}, operands, result);
}

// The int8 kernels (TFLite's integer recipes). Activations are int8, weights int8, biases int32; `rq`
// holds what kernel_params cannot (per-channel multipliers, per-input concat rescaling).
template <kernel_params P, std::size_t N>
void invoke_i8(const void* const (&operands)[N], void* result, const requant_arrays& rq) {
  static_assert(P.type == dtype::i8, "ctnn: kernel::invoke_i8 runs the int8 kernels (int8 first input).");
  if constexpr (detail::check_params<P>()) detail::run_i8<P.kind>(static_params<P>{}, operands, result, rq);
}

// The specialisation policies (ctnn::specialisation<>), read by pass::select_kernels: full, every call its
// own kernel with compile-time parameters (the fastest implementation that supports it); shared, one
// kernel per op kind.
struct full {};
struct shared {};

namespace detail {

#if CTNN_DETAIL_X86_KERNEL_FAMILY
// The x86 int8 kernels' vector primitives for an instruction set (no_isa when the flags do not enable it,
// or with CTNN_I8_REFERENCE_KERNELS: every `supports` is then false).
template <instruction_set L>
struct i8_isa_of {
  using type = simd::i8_detail::no_isa;
};
#if !defined(CTNN_I8_REFERENCE_KERNELS)
#if XSIMD_WITH_SSE4_1
template <>
struct i8_isa_of<instruction_set::x86_sse4_1> {
  using type = simd::i8_detail::sse4_1;
};
#endif
#if XSIMD_WITH_AVX2
template <>
struct i8_isa_of<instruction_set::x86_avx2> {
  using type = simd::i8_detail::avx2;
};
#endif
#if XSIMD_WITH_AVX512BW && defined(__AVX512VNNI__)
template <>
struct i8_isa_of<instruction_set::x86_avx512_vnni> {
  using type = simd::i8_detail::avx512_vnni;
};
#endif
#endif
#endif

template <bool>
inline constexpr bool dependent_false = false;

}  // namespace detail

#if CTNN_DETAIL_X86_KERNEL_FAMILY
// The x86 int8 kernel for P at instruction set L (supports, packs(k), pack<K>, run).
template <kernel_params P, instruction_set L>
using simd_i8_kernel = decltype(simd::i8_detail::select<P, typename detail::i8_isa_of<L>::type>());
#endif

// P without its recorded choice: the SIMD and DSP kernel families are instantiated with these parameters,
// by select_kernels (which asks them before there is a choice) and here (which runs them), so each
// distinct kernel is one instantiation.
constexpr kernel_params unselected(kernel_params p) {
  p.choice = {};
  return p;
}

// The kernel of an implementation for P, as a type with supports, packs(k), pack<K>(read) and run; void for
// the reference and shared kernels (they support every valid P and read constants as stored).
template <kernel_params P, kernel_choice C>
struct implementation {
  using type = void;
};
template <kernel_params P, kernel_choice C>
  requires(C.impl == kernel_impl::simd_f32)
struct implementation<P, C> {
  using type = simd::f32_kernel<unselected(P)>;
};
#if CTNN_DETAIL_X86_KERNEL_FAMILY
template <kernel_params P, kernel_choice C>
  requires(C.impl == kernel_impl::simd_i8)
struct implementation<P, C> {
  using type = simd_i8_kernel<unselected(P), C.isa>;
};
#endif
#if CTNN_DETAIL_ARM_KERNEL_FAMILIES
template <kernel_params P, kernel_choice C>
  requires(C.impl == kernel_impl::arm_dsp_i8)
struct implementation<P, C> {
  using type = arm::i8_kernel<unselected(P)>;
};
template <kernel_params P, kernel_choice C>
  requires(C.impl == kernel_impl::arm_mve_i8)
struct implementation<P, C> {
  using type = arm::mve::i8_kernel<unselected(P)>;
};
#endif
#if CTNN_DETAIL_ARMV6M_KERNEL_FAMILY
template <kernel_params P, kernel_choice C>
  requires(C.impl == kernel_impl::arm_v6m_i8)
struct implementation<P, C> {
  using type = arm::v6m::i8_kernel<unselected(P)>;
};
#endif
template <kernel_params P, kernel_choice C = P.choice>
using implementation_t = typename implementation<P, C>::type;

// Whether the kernel recorded for P reads constant operand k re-laid out (pack_operand; the executor then
// passes packed_constant_v instead of the stored constant; runtime/packed_operands.hpp).
template <kernel_params P>
constexpr bool packs_operand(std::size_t k) {
  return P.choice.packs(static_cast<std::int32_t>(k));
}

// Operand K re-laid out for the kernel recorded for P: `read` gives the stored constant's elements
// (read.f32(i) or all at once read.f32_values(), read.i8(i), read.i32(i), read.count()); returns an array
// (in .rodata once materialised).
template <kernel_params P, std::size_t K, class Reader>
constexpr auto pack_operand(const Reader& read) {
  using kernel = implementation_t<P>;
  if constexpr (std::is_void_v<kernel>) {
    static_assert(detail::dependent_false<K == 0>, "ctnn: the kernel recorded for this call packs no operand.");
    return 0;
  } else {
    return kernel::template pack<K>(read);
  }
}

// The executor's entry: operands as untyped addresses (activations, weights and biases of a quantized op
// have different element types), cast here to what the recorded kernel takes. `rq`: the call's
// per-channel requantization arrays (runtime/requantization.hpp), empty for calls that need none.
template <kernel_params P, std::size_t N>
void invoke(const void* const (&operands)[N], void* result, const requant_arrays& rq = {}) {
  constexpr kernel_choice choice = P.choice;
  using kernel = implementation_t<P>;
  static_assert(choice.impl != kernel_impl::undecided,
                "ctnn: this call's kernel is undecided (pass::select_kernels ran at run time, not in the compiler).");
  if constexpr (!detail::check_params<P>()) {
    return;  // reported by check_params
  } else if constexpr (choice.impl == kernel_impl::shared) {
    if constexpr (P.requantization == requantization_policy::onnx) onnx_quant_shared_kernel<P.kind>(P, operands, result);
    else shared_kernel<P.kind, P.type>(P, operands, result, rq);
  } else if constexpr (!std::is_void_v<kernel>) {
    static_assert(kernel::supports, "ctnn: the kernel recorded for this call (kernel_params::choice) does not support it.");
    if constexpr (choice.impl == kernel_impl::simd_f32) {
      const float* typed[N]{};
      for (std::size_t k = 0; k < N; ++k) typed[k] = static_cast<const float*>(operands[k]);
      kernel::run(typed, static_cast<float*>(result));
    } else {
      kernel::run(operands, result, rq);
    }
  } else if constexpr (P.requantization == requantization_policy::onnx) {
    onnx_integer::run_typed<P.kind, element_t<P.type>, element_t<P.onnx.weights_type>, element_t<P.out_type>>(
        static_params<P>{}, operands, result);
  } else if constexpr (P.type == dtype::u8 || P.type == dtype::i16 || P.type == dtype::i32 || P.type == dtype::i64 ||
                       P.type == dtype::b8) {
    detail::run_i8<P.kind>(static_params<P>{}, operands, result, rq);  // the integer kernels (has_kernel)
  } else if constexpr (P.type == dtype::f32) {
    const float* typed[N]{};
    for (std::size_t k = 0; k < N; ++k) typed[k] = static_cast<const float*>(operands[k]);
    invoke_f32<P>(typed, static_cast<float*>(result));
  } else {
    invoke_i8<P>(operands, result, rq);
  }
}

// As above, for a call with scratch (module::scratch_bytes, from kernel/scratch.hpp's rules; plan_memory places
// it, the executor passes its address): a kernel whose run takes it gets it (the DSP kernels of ONNX's
// uint8 convolutions); the others, and the reference kernels, need none.
template <kernel_params P, std::size_t N>
void invoke(const void* const (&operands)[N], void* result, const requant_arrays& rq, [[maybe_unused]] void* scratch) {
  using kernel = implementation_t<P>;
  if constexpr (!std::is_void_v<kernel> && P.choice.impl != kernel_impl::simd_f32 && detail::check_params<P>()) {
    if constexpr (requires { kernel::run(operands, result, rq, scratch); }) {
      static_assert(kernel::supports, "ctnn: the kernel recorded for this call (kernel_params::choice) does not support it.");
      kernel::run(operands, result, rq, scratch);
    } else {
      invoke<P>(operands, result, rq);
    }
  } else {
    invoke<P>(operands, result, rq);
  }
}

}  // namespace ctnn::kernel
