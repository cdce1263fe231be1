#pragma once
// Targets: the instruction set whose kernels pass::select_kernels may choose, as a type (ctnn::compile's
// option ctnn::target<T>). The default, targets::native, is what the compiler's predefined macros say
// (-march, -mcpu): __ARM_FEATURE_DSP, an M-profile core without it (Armv6-M: __ARM_ARCH_6M__), __AVX512VNNI__ (with AVX-512 BW), __AVX2__, __SSE4_1__, NEON, else
// none. A target above what the flags enable is refused (its kernels could not be compiled).
//
//   using net = ctnn::compile<model, ctnn::target<ctnn::targets::cortex_m4>>;   // Armv7E-M DSP kernels
//   using ref = ctnn::compile<model, ctnn::target<ctnn::targets::generic>>;     // reference kernels only
#include <type_traits>

#include <ctnn/ir/kernel_choice.hpp>

namespace ctnn {

namespace targets {

// A target: the instruction set its kernels may use.
template <instruction_set I>
struct with_isa {
  static constexpr instruction_set isa = I;
};

// Portable C++ kernels (the reference kernels) on any machine.
struct generic : with_isa<instruction_set::none> {};
// x86-64 levels (the int8 kernels' instruction sets, from SSE4.1; the float kernels use xsimd's, fixed
// by -march).
struct x86_64 : with_isa<instruction_set::x86_sse2> {};
struct x86_sse4_1 : with_isa<instruction_set::x86_sse4_1> {};
struct x86_avx2 : with_isa<instruction_set::x86_avx2> {};
struct x86_avx512_vnni : with_isa<instruction_set::x86_avx512_vnni> {};
struct arm_neon : with_isa<instruction_set::arm_neon> {};
// Cortex-M cores: with the DSP extension (M4, M7, M33) the Armv7E-M kernels; without (M0+, M3) the
// Armv6-M ones (plain Thumb code, which Armv7-M runs too).
struct cortex_m0plus : with_isa<instruction_set::armv6m> {};
struct cortex_m3 : cortex_m0plus {};
struct cortex_m4 : with_isa<instruction_set::armv7em_dsp> {};
struct cortex_m7 : cortex_m4 {};
struct cortex_m33 : cortex_m4 {};
// Armv8.1-M with MVE (Helium): the MVE int8 kernels (kernel/arm/mve), the DSP ones where they do not apply.
struct cortex_m55 : with_isa<instruction_set::armv81m_mve> {};
struct cortex_m85 : cortex_m55 {};

// The best instruction set the compiler flags enable.
struct native {
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  static constexpr instruction_set isa = instruction_set::armv81m_mve;
#elif defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  static constexpr instruction_set isa = instruction_set::armv7em_dsp;
#elif defined(__ARM_ARCH_6M__) || (defined(__ARM_ARCH_ISA_THUMB) && __ARM_ARCH_ISA_THUMB == 1) || \
    (defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M')
  static constexpr instruction_set isa = instruction_set::armv6m;
#elif defined(__AVX512VNNI__) && defined(__AVX512BW__)
  static constexpr instruction_set isa = instruction_set::x86_avx512_vnni;
#elif defined(__AVX2__)
  static constexpr instruction_set isa = instruction_set::x86_avx2;
#elif defined(__SSE4_1__)
  static constexpr instruction_set isa = instruction_set::x86_sse4_1;
#elif defined(__SSE2__)
  static constexpr instruction_set isa = instruction_set::x86_sse2;
#elif defined(__ARM_NEON)
  static constexpr instruction_set isa = instruction_set::arm_neon;
#else
  static constexpr instruction_set isa = instruction_set::none;
#endif
};

}  // namespace targets

// Whether the compiler flags let kernels for `isa` be compiled (x86 levels include the lower ones).
constexpr bool enabled_by_compiler(instruction_set isa) {
  constexpr instruction_set best = targets::native::isa;
  switch (isa) {
    case instruction_set::none: return true;
    case instruction_set::x86_sse2:
    case instruction_set::x86_sse4_1:
    case instruction_set::x86_avx2:
    case instruction_set::x86_avx512_vnni:
      return best >= instruction_set::x86_sse2 && best <= instruction_set::x86_avx512_vnni && isa <= best;
    case instruction_set::arm_neon:
    case instruction_set::armv81m_mve: return isa == best;
    case instruction_set::armv7em_dsp: return isa == best || best == instruction_set::armv81m_mve;
    // Plain C++ (Thumb-1 assembly where the compiler targets Armv6-M, which every M-profile core runs): any
    // compiler builds it. Off Arm M-profile the family is not read (kernel/dispatch.hpp): the reference runs.
    case instruction_set::armv6m: return true;
  }
  return false;
}

template <class T>
concept target_description = requires { T::isa; } && std::is_same_v<std::remove_cv_t<decltype(T::isa)>, instruction_set>;

// ctnn::compile's option: the target the kernels are chosen for (default: targets::native).
template <class T>
struct target {
  static_assert(target_description<T>, "ctnn::target<T>: T is a target description, a ctnn::targets:: type (a struct with "
                                       "`static constexpr ctnn::instruction_set isa`).");
  static_assert(!target_description<T> || enabled_by_compiler(T::isa),
                "ctnn::target<T>: the compiler flags do not enable T's instruction set (set -march / -mcpu for it, "
                "or choose a lower target such as ctnn::targets::generic).");
  using ctnn_target_option = void;
  using type = T;
};

// Whether a target is a Cortex-M core with fast int8 kernels (the Armv7E-M DSP or Armv8.1-M MVE family).
constexpr bool is_cortex_m_with_fast_kernels(instruction_set isa) {
  return isa == instruction_set::armv7em_dsp || isa == instruction_set::armv81m_mve;
}
// Whether a target's int8 family is a Cortex-M one with rows in kernel/arm/decline.hpp (also Armv6-M's, whose
// few kernels leave require_fast_kernels out: most op kinds run the reference kernel there).
constexpr bool is_cortex_m_family(instruction_set isa) { return is_cortex_m_with_fast_kernels(isa) || isa == instruction_set::armv6m; }

// ctnn::compile's option: on a Cortex-M target with fast kernels (cortex_m4, m7, m33, m55, m85), a call that
// would run a reference kernel is a compile error naming the op and why the fast family declines it
// (pass::select_kernels; calls that compute nothing, views and skipped copies, do not count). No effect on
// other targets.
struct require_fast_kernels {
  using ctnn_kernel_requirement_option = void;
};

}  // namespace ctnn
