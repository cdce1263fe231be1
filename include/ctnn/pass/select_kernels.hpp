#pragma once
// select_kernels: records, per lowered call, which implementation runs it and the layout of each of its
// constant operands (kernel_params::choice), for a target (ctnn::targets) and a specialisation policy
// (kernel::full or kernel::shared). The executor and kernel::invoke only carry the choice out.
//
// The rule, for a call with parameters P under the full policy: the target's fastest kernel family that
// supports P, asked in this order: Armv8.1-M MVE int8 on MVE targets (arm::mve::i8_kernel<P>, which falls
// back to the DSP kernel of P where no MVE kernel applies) or Armv7E-M DSP int8 (arm::i8_kernel<P>::supports,
// in-place calls included: those kernels decide themselves) or Armv6-M int8 on Armv6-M targets
// (arm::v6m::i8_kernel<P>), x86 int8 at the target's level (simd_i8_kernel), xsimd float
// (simd::f32_kernel); the SIMD families only for calls that plan_memory did not place over their own input
// (their order of writes is not the reference's); otherwise the reference kernel. ONNX integer calls run the
// x86 int8 family's conv2d, dense and quantize where it supports them (ONNX's rounding), the reference otherwise; u8
// byte moves other than NHWC <-> NCHW transposes, and TFLite's float->int8 quantize, run the reference kernel. Each family's packs(k) gives the
// layout of constant operand k. Under the shared policy every call runs its op kind's shared kernel, with
// constants as stored.
//
// Under ctnn::require_fast_kernels (the Requirement argument) on a Cortex-M target with fast kernels, a call
// that runs the reference kernel is a compile error (errors::reference_kernel_call: the op, the family asked,
// its reason, ir/kernel_decline.hpp). Calls that compute nothing (kernel_params::in_place 2: a copy onto
// itself; views are no calls) do not count; every other call does, ops of kinds no family has a kernel for
// among them (kernel_decline::no_kernel_for_op). Where the family is not compiled in (a host build naming a
// Cortex-M target in its own pipeline) the reasons come from the family's rows (kernel/arm/decline.hpp) alone,
// which makes the check a dry run of the model's shapes on the host.
//
// Whether a family supports P is a compile-time fact (a template over kernel_params), so the pass reads
// the module before it as a template argument (run_on<M>, what ctnn::compile's pipeline runs). At run time
// (the tools' pipelines) run(m) records what the values decide and kernel_impl::undecided for the calls
// where a SIMD family would be asked.
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include <ctnn/errors/graph.hpp>
#include <ctnn/errors/kernels.hpp>
#include <ctnn/ir/kernel_decline.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/decline.hpp>
#include <ctnn/kernel/dispatch.hpp>
#include <ctnn/kernel/kernel_family.hpp>
#include <ctnn/kernel/reference/onnx_quant/add.hpp>
#include <ctnn/pass/detail/in_place_pass.hpp>
#include <ctnn/target.hpp>

namespace ctnn::pass {

namespace detail {

constexpr bool is_x86(instruction_set s) {
  return s == instruction_set::x86_sse2 || s == instruction_set::x86_sse4_1 || s == instruction_set::x86_avx2 ||
         s == instruction_set::x86_avx512_vnni;
}

// Whether the xsimd float kernels exist for a target (an x86 level or NEON, and an xsimd architecture).
constexpr bool has_vector_f32(instruction_set s) {
#ifdef XSIMD_NO_SUPPORTED_ARCHITECTURE
  (void)s;
  return false;
#else
  return is_x86(s) || s == instruction_set::arm_neon;
#endif
}

// What the parameters' values decide alone: the choice, or kernel_impl::undecided when a SIMD family
// must be asked whether it supports them.
template <class Policy>
constexpr kernel_choice choice_by_values(const kernel_params& p, instruction_set isa) {
  if (std::is_same_v<Policy, kernel::shared>) return {kernel_impl::shared};
  const bool x86_int8 = is_x86(isa) && isa != instruction_set::x86_sse2 && p.in_place == 0;
  // 8-bit NHWC <-> NCHW transposes (byte moves, whatever the policy): the x86 int8 family.
  if (p.kind == op_kind::transpose && (p.type == dtype::i8 || p.type == dtype::u8) && x86_int8)
    return {kernel_impl::undecided, isa};
  // ONNX's integer conv2d, dense, quantize and pools: the x86 int8 family (kernel/simd/i8/onnx_conv.hpp,
  // onnx_quantize.hpp, onnx_pool.hpp), and conv2d, dense and QLinearAdd the Armv7E-M DSP family
  // (kernel/arm/onnx_conv.hpp, onnx_add.hpp) and the MVE one (kernel/arm/mve/onnx_conv.hpp, onnx_add.hpp), which
  // say which calls.
  if (p.requantization == requantization_policy::onnx) {
    const bool weighted = p.kind == op_kind::conv2d || p.kind == op_kind::dense;
    const bool pool = p.kind == op_kind::global_avg_pool;
    const bool fpu_add = kernel::reference::onnx_quant::is_quantized_add(p);  // kernel/arm/onnx_add.hpp
    return ((weighted || pool || p.kind == op_kind::quantize) && x86_int8) || ((weighted || fpu_add) && is_cortex_m_with_fast_kernels(isa))
               ? kernel_choice{kernel_impl::undecided, isa}
               : kernel_choice{};
  }
  // uint8 -> int8 QUANTIZE (a QDQ model's uint8 result made int8): the DSP family's table (kernel/arm/lookup.hpp),
  // on MVE targets read by gather loads (kernel/arm/mve/lookup.hpp); uint8 resize nearest (an ONNX model's Resize, a byte move: kernel/arm/resize.hpp).
  if (p.type == dtype::u8)
    return (p.kind == op_kind::quantize || p.kind == op_kind::resize_nearest) && is_cortex_m_with_fast_kernels(isa) ? kernel_choice{kernel_impl::undecided, isa} : kernel_choice{};
  if (p.type == dtype::f32 && p.out_type == dtype::f32 && has_vector_f32(isa) && p.in_place == 0)
    return {kernel_impl::undecided, isa};
  if (p.type == dtype::i8 && (isa == instruction_set::armv7em_dsp || isa == instruction_set::armv81m_mve ||
                               isa == instruction_set::armv6m || (is_x86(isa) && isa != instruction_set::x86_sse2 && p.in_place == 0)))
    return {kernel_impl::undecided, isa};
  // int16 (16x8) convolutions and dense layers: the DSP family (kernel/arm/s16.hpp); on x86 the int8 family's
  // 16x8 GEMM and depthwise kernel (kernel/simd/i8/gemm16.hpp, depthwise.hpp).
  if (p.type == dtype::i16 && (p.kind == op_kind::conv2d || p.kind == op_kind::dense || p.kind == op_kind::depthwise_conv2d) &&
      (isa == instruction_set::armv7em_dsp || isa == instruction_set::armv81m_mve || x86_int8))
    return {kernel_impl::undecided, isa};
  // int16 (16x8) transposed convolutions: the DSP family (kernel/arm/transpose_conv.hpp).
  if (p.type == dtype::i16 && p.kind == op_kind::transpose_conv2d &&
      (isa == instruction_set::armv7em_dsp || isa == instruction_set::armv81m_mve))
    return {kernel_impl::undecided, isa};
  return {};
}

// Bit k set: Kernel::packs(k).
template <class Kernel>
constexpr std::uint8_t packed_mask() {
  std::uint8_t mask = 0;
  for (std::size_t k = 0; k < max_node_inputs; ++k)
    if (Kernel::packs(k)) mask = static_cast<std::uint8_t>(mask | 1u << k);
  return mask;
}

// A family's kernel for one call against ctnn::kernel_family (kernel/kernel_family.hpp), where
// choose_kernel asks it: the static_assert that fails names the first member missing.
template <class Kernel>
struct check_kernel_family {
  static_assert(ctnn::detail::kernel_has_supports<Kernel>,
                "ctnn::pass::select_kernels: a kernel family's kernel (check_kernel_family<kernel>) has no "
                "`static constexpr bool supports` (whether its run() handles the call).");
  static_assert(!ctnn::detail::kernel_has_supports<Kernel> || ctnn::detail::kernel_has_packs<Kernel>,
                "ctnn::pass::select_kernels: a kernel family's kernel (check_kernel_family<kernel>) has no "
                "`static constexpr bool packs(std::size_t k)` (whether constant operand k is passed re-laid out).");
  static_assert(!ctnn::detail::kernel_has_supports<Kernel> || !ctnn::detail::kernel_has_packs<Kernel> ||
                    ctnn::detail::kernel_has_pack<Kernel>,
                "ctnn::pass::select_kernels: a kernel family's kernel (check_kernel_family<kernel>) has no "
                "`template <std::size_t K, class Reader> static constexpr auto pack(const Reader&)` (none packed: "
                "the members of reads_constants_as_stored, kernel/detail/unpacked.hpp).");
  static_assert(!ctnn::detail::kernel_has_supports<Kernel> || !ctnn::detail::kernel_has_packs<Kernel> ||
                    !ctnn::detail::kernel_has_pack<Kernel> || ctnn::detail::kernel_has_run<Kernel>,
                "ctnn::pass::select_kernels: a kernel family's kernel (check_kernel_family<kernel>) has no "
                "`static void run(operands, result[, rq])`.");
};

// The one family a call of this element type asks on this target (where the values leave it undecided).
// ONNX's integer calls (quantize: float32 input) ask the int8 family.
constexpr kernel_choice family_asked(const kernel_params& p, instruction_set isa) {
  const bool float_call = p.type == dtype::f32 && p.requantization != requantization_policy::onnx;
  const kernel_impl family = float_call                           ? kernel_impl::simd_f32
                             : isa == instruction_set::armv7em_dsp ? kernel_impl::arm_dsp_i8
                             : isa == instruction_set::armv81m_mve ? kernel_impl::arm_mve_i8
                             : isa == instruction_set::armv6m      ? kernel_impl::arm_v6m_i8
                                                                   : kernel_impl::simd_i8;
  return {family, family == kernel_impl::simd_f32 ? instruction_set::none : isa};
}

// A Cortex-M family's rows (kernel/arm/decline.hpp) against its kernel: where a kernel runs a call, the rows
// name the same family (the rows are what ctnn-inspect and the docs show); they may take a call that a
// kernel's finer conditions decline (other_shape).
template <kernel_params P, instruction_set Isa, class Kernel>
constexpr bool rows_agree_with_supports() {
  if constexpr (is_cortex_m_family(Isa) && requires { Kernel::runs; })
    return Kernel::runs == kernel_impl::reference || kernel::arm::verdict_on(P, Isa).runs == Kernel::runs;
  else return true;
}

// The family named in require_fast_kernels' error: the target's int8 family.
constexpr kernel_impl cortex_m_family(instruction_set isa) {
  return isa == instruction_set::armv81m_mve ? kernel_impl::arm_mve_i8 : kernel_impl::arm_dsp_i8;
}

}  // namespace detail

// The choice for a call with parameters P on a target with instruction set Isa, under Policy.
template <kernel_params P, instruction_set Isa, class Policy = kernel::full>
constexpr kernel_choice choose_kernel() {
  constexpr kernel_choice by_values = detail::choice_by_values<Policy>(P, Isa);
  if constexpr (by_values.impl != kernel_impl::undecided) {
    return by_values;
  } else {
    constexpr kernel_choice candidate = detail::family_asked(P, Isa);
    using family_kernel = kernel::implementation_t<P, candidate>;
    if constexpr (std::is_void_v<family_kernel>) {
      return {};  // a family the compiler flags cannot run, which this translation unit does not read (kernel/dispatch.hpp)
    } else {
      static_assert(sizeof(detail::check_kernel_family<family_kernel>) > 0);  // ctnn::kernel_family, member by member
      static_assert(detail::rows_agree_with_supports<P, Isa, family_kernel>(),
                    "ctnn::pass::select_kernels: the rows of kernel/arm/decline.hpp (dsp_rules, mve_rules, v6m_rules) name another "
                    "family than the kernel that runs this call (Kernel::runs): update the rows with the kernels' `supports`.");
      if constexpr (!kernel_family<family_kernel>) return {};
      else if constexpr (family_kernel::supports) return {candidate.impl, candidate.isa, detail::packed_mask<family_kernel>()};
      else return {};
    }
  }
}

// What call p's values decide about its kernel on instruction set isa (the full policy), before any family's
// templates are asked: kernel_impl::undecided where a family must be asked, family_to_ask names which (what
// ctnn-inspect --target prints for a host's SIMD families, which it cannot instantiate at run time).
constexpr kernel_impl kernel_by_values(const kernel_params& p, instruction_set isa) {
  return detail::choice_by_values<kernel::full>(p, isa).impl;
}
constexpr kernel_impl family_to_ask(const kernel_params& p, instruction_set isa) { return detail::family_asked(p, isa).impl; }

// Why a call with parameters P runs the reference kernel on a Cortex-M target of instruction set Isa under
// Policy: none where it does not (or computes nothing: in_place 2), else the family's reason (its
// `declined`), or where this translation unit does not read the family, its rows' reason
// (kernel/arm/decline.hpp; none when they take the call and the compiler flags cannot build the family: a
// host's dry run).
template <kernel_params P, instruction_set Isa, class Policy = kernel::full>
constexpr kernel_decline reference_reason() {
  if constexpr (choose_kernel<P, Isa, Policy>().impl != kernel_impl::reference || P.in_place == 2) {
    return kernel_decline::none;
  } else {
    constexpr bool asked = detail::choice_by_values<Policy>(P, Isa).impl == kernel_impl::undecided;
    using family_kernel = kernel::implementation_t<P, detail::family_asked(P, Isa)>;
    if constexpr (asked && !std::is_void_v<family_kernel> && requires { family_kernel::declined; }) {
      return family_kernel::declined;
    } else {
      constexpr kernel_decline by_rows = kernel::arm::verdict_on(P, Isa).reason;
      if constexpr (by_rows != kernel_decline::none) return by_rows;
      else return enabled_by_compiler(Isa) ? kernel_decline::family_not_compiled : kernel_decline::none;
    }
  }
}

// P with its kernel recorded for Target (what select_kernels writes): for code that runs one kernel
// outside a module, as the kernel tests do.
template <kernel_params P, class Target = targets::native, class Policy = kernel::full>
inline constexpr kernel_params with_kernel_choice = [] {
  kernel_params p = P;
  p.choice = choose_kernel<P, Target::isa, Policy>();
  return p;
}();

namespace detail {

// The first call that runs a reference kernel it must not (require_fast_kernels), with its reason.
struct refused_call {
  std::int32_t call = -1;
  kernel_decline reason = kernel_decline::none;
};
template <const auto& M, std::size_t Count>
constexpr refused_call first_refused_call(const std::array<kernel_decline, Count>& reasons, instruction_set isa) {
  for (std::int32_t c = 0; c < M.call_count; ++c) {
    const kernel_call& call = M.calls[static_cast<std::size_t>(c)];
    const std::int32_t k = call.kernel;
    const bool listed = k >= 0 && k < M.kernel_count && M.kernel(k) == call.params;
    // A call off the kernel table runs the reference kernel (run_on): its rows' reason, or other_shape.
    const auto off_table_reason = [&] {
      if (call.params.in_place == 2) return kernel_decline::none;
      const kernel_decline by_rows = kernel::arm::verdict_on(call.params, isa).reason;
      return by_rows != kernel_decline::none ? by_rows : kernel_decline::other_shape;
    };
    const kernel_decline reason = listed ? reasons[static_cast<std::size_t>(k)] : off_table_reason();
    if (reason != kernel_decline::none) return {c, reason};
  }
  return {};
}

}  // namespace detail

// Requirement: void, or ctnn::require_fast_kernels (target.hpp).
template <class Target = targets::native, class Policy = kernel::full, class Requirement = void>
struct select_kernels : detail::in_place_pass<select_kernels<Target, Policy, Requirement>> {
  static_assert(target_description<Target>, "ctnn::pass::select_kernels<Target, Policy>: Target is a ctnn::targets:: type.");
  static_assert(std::is_same_v<Policy, kernel::full> || std::is_same_v<Policy, kernel::shared>,
                "ctnn::pass::select_kernels<Target, Policy>: Policy is ctnn::full or ctnn::shared.");
  static_assert(std::is_void_v<Requirement> || std::is_same_v<Requirement, require_fast_kernels>,
                "ctnn::pass::select_kernels<Target, Policy, Requirement>: Requirement is void or ctnn::require_fast_kernels.");
  using target = Target;
  using policy = Policy;
  using requirement = Requirement;
  static constexpr bool fast_kernels_required =
      std::is_same_v<Requirement, require_fast_kernels> && is_cortex_m_with_fast_kernels(Target::isa);
  static constexpr const char* name = "select_kernels";

  // After planning: plan_memory decides which calls run in place, which rules SIMD families out.
  static constexpr fact requires_facts = fact::memory_planned;
  static constexpr fact establishes = fact::kernels_selected;
  static constexpr bool reads_module_constant = true;  // run_on<M> (pass/pipeline.hpp)

  // The compile-time pass: the choice of each distinct kernel (module::kernels, which lower_te and
  // plan_memory keep equal to their calls' parameters), asked of the kernel families: one template
  // argument per distinct kernel, not per call (each costs the compiler a kernel_params value), none named
  // after the module. A call whose parameters differ from its kernel's (a pass of one's own that did not
  // keep the table) runs the reference kernel, which supports every call.
  template <const auto& M>
  static constexpr auto run_on() {
    auto m = M;
    constexpr auto choices = []<std::size_t... K>(std::index_sequence<K...>) {
      return std::array<kernel_choice, sizeof...(K) + 1>{choose_kernel<M.kernel(K), Target::isa, Policy>()..., {}};
    }(std::make_index_sequence<static_cast<std::size_t>(M.kernel_count)>{});
    record(m, [&](std::int32_t c, const kernel_params& p) {
      const std::int32_t k = M.calls[static_cast<std::size_t>(c)].kernel;
      const bool listed = k >= 0 && k < M.kernel_count && M.kernel(k) == p;
      return listed ? choices[static_cast<std::size_t>(k)] : detail::choice_by_values<Policy>(p, instruction_set::none);
    });
    if constexpr (fast_kernels_required) check_fast_kernels<M>();
    return m;
  }

  // The run-time pass (tools): what the values decide; undecided where only the compiler can tell.
  template <class Module>
  static constexpr void run_in_place(Module& m) {
    record(m, [](std::int32_t, const kernel_params& p) { return detail::choice_by_values<Policy>(p, Target::isa); });
  }

 private:
  // require_fast_kernels: the first call that runs a reference kernel is the compile error.
  template <const auto& M>
  static constexpr void check_fast_kernels() {
    constexpr auto reasons = []<std::size_t... K>(std::index_sequence<K...>) {
      return std::array<kernel_decline, sizeof...(K) + 1>{reference_reason<M.kernel(K), Target::isa, Policy>()..., {}};
    }(std::make_index_sequence<static_cast<std::size_t>(M.kernel_count)>{});
    constexpr detail::refused_call refused = detail::first_refused_call<M>(reasons, Target::isa);
    if constexpr (refused.call >= 0) {
      constexpr kernel_call call = M.calls[static_cast<std::size_t>(refused.call)];
      static_assert(sizeof(errors::reference_kernel_call<errors::module_op<M, call.node>, errors::family<detail::cortex_m_family(Target::isa)>,
                                                         errors::declined_because<refused.reason, decline_value(refused.reason, call.params)>>) > 0);
    }
  }

  template <class Module, class Choice>
  static constexpr void record(Module& m, Choice choice_of) {
    for (std::int32_t c = 0; c < m.call_count; ++c) {
      kernel_call& call = m.calls[static_cast<std::size_t>(c)];
      call.params.choice = choice_of(c, call.params);
    }
    // Equal parameters, equal choice: the distinct kernels (their first calls) stay distinct and carry it too.
    m.establish(fact::kernels_selected);
  }
};

}  // namespace ctnn::pass
