#pragma once
// Which implementation runs a lowered call, and in which layout it reads its constant operands: a fact of
// the module that pass::select_kernels records (in kernel_params::choice) and the executor only carries
// out. lower_te records the reference kernel with every constant as stored; a pipeline without
// select_kernels runs that.
#include <cstdint>

namespace ctnn {

// The kernel family that runs a call.
enum class kernel_impl : std::uint8_t {
  reference,   // the scalar reference kernel of the call's semantics (TFLite's integer recipes, or ONNX's)
  simd_f32,    // kernel/simd/f32: xsimd, the architecture -march gives
  simd_i8,     // kernel/simd/i8: x86 intrinsics at the level in kernel_choice::isa
  arm_dsp_i8,  // kernel/arm: Armv7E-M DSP (ACLE) int8 kernels
  shared,      // kernel/dynamic.hpp: one kernel per op kind with run-time parameters (ctnn::shared)
  undecided,   // select_kernels ran at run time (ctnn-inspect): the family's support for the call's shape
               // is a compile-time fact (a template over kernel_params), known only to the compiler
  arm_mve_i8,  // kernel/arm/mve: Armv8.1-M MVE (Helium) int8 kernels, the DSP ones for the shapes they leave
  arm_v6m_i8,  // kernel/arm/v6m: Armv6-M (Thumb-1, 32-bit MULS only) int8 kernels, also Armv7-M without DSP
};

// The instruction set a target offers kernels (ctnn::targets) and a SIMD choice uses.
enum class instruction_set : std::uint8_t {
  none,             // portable C++ only
  x86_sse2,         // x86-64 (the baseline: float kernels through xsimd, no int8 ones)
  x86_sse4_1,       // x86-64-v2
  x86_avx2,         // x86-64-v3
  x86_avx512_vnni,  // AVX-512 BW with VNNI (vpdpbusd)
  arm_neon,         // AArch64 / Armv7-A NEON (float kernels through xsimd)
  armv7em_dsp,      // Cortex-M4/M7/M33/M55: SMLAD, SXTB16 (__ARM_FEATURE_DSP)
  armv81m_mve,      // Cortex-M55/M85: MVE integer vectors (__ARM_FEATURE_MVE), and the DSP extension
  armv6m,           // Cortex-M0/M0+ (Armv6-M: __ARM_ARCH_6M__), and M3 (Armv7-M without DSP): plain Thumb code
};

// Four bytes, no padding (kernel_params is a template argument; clang 14 template-argument bug).
struct kernel_choice {
  kernel_impl impl = kernel_impl::reference;
  instruction_set isa = instruction_set::none;
  std::uint8_t packed = 0;  // bit k: constant operand k is passed re-laid out for this kernel (else as stored)
  std::uint8_t reserved = 0;

  constexpr bool packs(std::int32_t operand) const { return operand >= 0 && operand < 8 && (packed >> operand & 1u) != 0; }
  friend constexpr bool operator==(const kernel_choice&, const kernel_choice&) = default;
};

constexpr const char* name_of(kernel_impl k) {
  switch (k) {
    case kernel_impl::reference: return "reference";
    case kernel_impl::simd_f32: return "simd_f32";
    case kernel_impl::simd_i8: return "simd_i8";
    case kernel_impl::arm_dsp_i8: return "arm_dsp_i8";
    case kernel_impl::shared: return "shared";
    case kernel_impl::undecided: return "undecided";
    case kernel_impl::arm_mve_i8: return "arm_mve_i8";
    case kernel_impl::arm_v6m_i8: return "arm_v6m_i8";
  }
  return "?";
}

constexpr const char* name_of(instruction_set s) {
  switch (s) {
    case instruction_set::none: return "none";
    case instruction_set::x86_sse2: return "sse2";
    case instruction_set::x86_sse4_1: return "sse4.1";
    case instruction_set::x86_avx2: return "avx2";
    case instruction_set::x86_avx512_vnni: return "avx512-vnni";
    case instruction_set::arm_neon: return "neon";
    case instruction_set::armv7em_dsp: return "armv7e-m-dsp";
    case instruction_set::armv81m_mve: return "armv8.1-m-mve";
    case instruction_set::armv6m: return "armv6-m";
  }
  return "?";
}

}  // namespace ctnn
