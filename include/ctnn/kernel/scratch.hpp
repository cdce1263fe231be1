#pragma once
// The scratch a kernel needs for one call: lower_te asks kernel::scratch_bytes(params) when it lowers a
// call and records it in module::scratch_bytes (the one per-call figure; a pass before planning may
// reserve more), plan_memory places that many bytes with the activations (live during the call only) and
// the executor passes their address as kernel::invoke<P>(operands, result, rq, scratch) (docs/memory.md,
// "Scratch").
//
// The reference kernels need none, nor do the vectorised kernels but the Armv7E-M DSP ones of ONNX's integer
// convolutions on uint8 data (their input made int8: arm/onnx_scratch.hpp). A kernel that needs some (a
// line buffer, packed input patches, a 32-bit accumulator row) declares it here, in two steps:
//
//   1. next to the kernel, a rule: a type with one static function of the call's parameters, which
//      returns the bytes when pass::select_kernels will choose that kernel for them and
//      0 otherwise (mirror the kernel's `supports` condition, as a function of a run-time value:
//      lower_te also runs at run time, in the tools):
//
//        namespace ctnn::kernel::simd::f32 {
//        struct conv2d_patch_scratch {
//          static constexpr std::int32_t bytes(const kernel_params& p) {
//            return uses_patches(p) ? p.win.kernel_h * p.win.kernel_w * p.in[3] * 4 : 0;
//          }
//        };
//        }
//
//   2. its name in the list `scratch_rules` below. A call's scratch is the largest any rule asks.
//
// A rule is a function of the parameters alone (it sees nothing else), so structurally equal calls get
// equal scratch and stay one kernel. A call plan_memory marks in place (kernel_params::in_place) gets
// no SIMD kernel (pass::select_kernels): the reference kernel runs it, which reads no scratch, or on
// Armv7E-M a DSP kernel that handles in-place calls itself.
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/onnx_scratch.hpp>

namespace ctnn::kernel {

// The bytes the rules ask for a call: the largest of Rules::bytes(p).
template <class... Rules>
struct scratch_rule_list {
  static constexpr std::int32_t bytes([[maybe_unused]] const kernel_params& p) {
    std::int32_t largest = 0;
    ((largest = Rules::bytes(p) > largest ? Rules::bytes(p) : largest), ...);
    return largest;
  }
};

// Every kernel's scratch rule (add yours here, see above).
using scratch_rules = scratch_rule_list<arm::onnx_input_scratch>;

// The scratch bytes one call of the kernel chosen for `p` needs.
constexpr std::int32_t scratch_bytes(const kernel_params& p) { return scratch_rules::bytes(p); }

}  // namespace ctnn::kernel
