// Patch execution on the Cortex-M4 (docs/memory.md, "Patch execution"): MLPerf Tiny int8 models compiled by
// ctnn with ctnn::patch_execution for the Armv7E-M DSP kernels, run under qemu. Each patched executor must
// give TFLM's reference outputs bit for bit (embedded by embed_refs.cmake) and the same bytes as the model
// compiled without patches, also on inputs of its own (pseudo-random bytes). Both with
// ctnn::memory_reuse + ctnn::io_in_arena:
//   VWW, the first 4 ops on a 4 x 4 grid: what the automatic choice (max_extra_macs<10>) picks and keeps
//        (asserted at compile time);
//   KWS, the first 3 ops on a 3 x 2 grid, given explicitly (uneven patches: rows 8/8/9, columns 2/3), and
//        the automatic choice, which drops the patch stage on KWS (asserted: its executor is the whole one).
// Every call of a patch stage is printed with the kernel family select_kernels picked for it on this core
// (arm_dsp_i8 or reference): the patch convolutions carry asymmetric explicit pads, and the DSP kernels
// must take every one whose whole-tensor call they take (asserted at compile time).
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include <ctnn/ctnn.hpp>
#include <ctnn/models/patch_kws.hpp>
#include <ctnn/models/patch_vww.hpp>
#include <ctnn/pass/edit_pipeline.hpp>

#include "ctnn_baremetal.h"
#include "kws_refs.hpp"
#include "vww_refs.hpp"

namespace {

using vww_whole = ctnn::compile<ctnn::models::patch_vww, ctnn::memory_reuse, ctnn::io_in_arena>;
// The prefix and grid the automatic choice picks for VWW (asserted below), given explicitly: the automatic
// option's RAM check plans the module twice more in the compiler (~10 s here); it is target-independent
// and checked on the host (tool_memory_report_mlperf_vww_patches, unit_patch_mlperf).
using vww_patched = ctnn::compile<ctnn::models::patch_vww, ctnn::memory_reuse, ctnn::io_in_arena,
                                  ctnn::patch_execution<ctnn::patch_prefix<4>, ctnn::patch_grid<4, 4>>>;
using kws_whole = ctnn::compile<ctnn::models::patch_kws, ctnn::memory_reuse, ctnn::io_in_arena>;
using kws_patched = ctnn::compile<ctnn::models::patch_kws, ctnn::memory_reuse, ctnn::io_in_arena,
                                  ctnn::patch_execution<ctnn::patch_prefix<3>, ctnn::patch_grid<3, 2>>>;
using kws_automatic = ctnn::compile<ctnn::models::patch_kws, ctnn::memory_reuse, ctnn::io_in_arena,
                                    ctnn::patch_execution<ctnn::max_extra_macs<10>>>;

// What a test reads of a call, copied out of the module at compile time (the module stays out of .rodata).
struct call_info {
  const char* kind = "";
  const char* kernel = "";
  bool dsp_kind = false;  // a kind the DSP kernels implement (conv2d, depthwise_conv2d)
  bool on_dsp = false;
  std::int32_t kernel_h = 0, kernel_w = 0, stride = 0;
  std::int32_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
  std::int32_t in_h = 0, in_w = 0, out_h = 0, out_w = 0, out_c = 0;
};

// The nodes of Net's patch stage: crop, paste and every op whose data input a patch op wrote (node order
// is an execution order, so one pass over the nodes finds them all).
template <class Net>
constexpr auto patch_nodes() {
  const auto& m = Net::module;
  std::array<bool, std::remove_cvref_t<decltype(m)>::node_capacity> in_patch{};
  for (std::int32_t i = 0; i < m.node_count; ++i) {
    const ctnn::node& n = m.node_at(i);
    const std::int32_t producer = n.input_count > 0 ? m.tensor_at(n.inputs[0]).producer : -1;
    in_patch[static_cast<std::size_t>(i)] = n.kind == ctnn::op_kind::crop || n.kind == ctnn::op_kind::paste ||
                                            (producer >= 0 && in_patch[static_cast<std::size_t>(producer)] &&
                                             m.node_at(producer).kind != ctnn::op_kind::paste);
  }
  return in_patch;
}

template <class Net>
constexpr std::size_t patch_call_count() {
  const auto in_patch = patch_nodes<Net>();
  std::size_t count = 0;
  for (std::int32_t c = 0; c < Net::module.call_count; ++c)
    count += in_patch[static_cast<std::size_t>(Net::module.calls[static_cast<std::size_t>(c)].node)];
  return count;
}

template <class Net>
constexpr auto patch_calls() {
  const auto& m = Net::module;
  const auto in_patch = patch_nodes<Net>();
  std::array<call_info, patch_call_count<Net>() + 1> infos{};
  std::size_t k = 0;
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    const ctnn::kernel_call& call = m.calls[static_cast<std::size_t>(c)];
    if (!in_patch[static_cast<std::size_t>(call.node)]) continue;
    const ctnn::node& n = m.node_at(call.node);
    const ctnn::shape in = m.tensor_at(n.inputs[0]).dims, out = m.tensor_at(n.output).dims;
    const bool windowed = n.kind == ctnn::op_kind::conv2d || n.kind == ctnn::op_kind::depthwise_conv2d ||
                          n.kind == ctnn::op_kind::max_pool || n.kind == ctnn::op_kind::avg_pool;
    const ctnn::window w =
        windowed ? n.attrs.win : ctnn::window{0, 0, 0, 0, 1, 1, ctnn::padding::valid, 0, 0, 0, 0};  // 0: none
    const bool dsp_kind = n.kind == ctnn::op_kind::conv2d || n.kind == ctnn::op_kind::depthwise_conv2d;
    infos[k++] = {ctnn::name_of(n.kind),
                  ctnn::name_of(call.params.choice.impl),
                  dsp_kind,
                  call.params.choice.impl == ctnn::kernel_impl::arm_dsp_i8,
                  w.kernel_h,
                  w.kernel_w,
                  w.stride_h,
                  w.pad_top,
                  w.pad_bottom,
                  w.pad_left,
                  w.pad_right,
                  in[1],
                  in[2],
                  out[1],
                  out[2],
                  out[3]};
  }
  return infos;
}

// Whether the whole-tensor executor runs every conv2d and depthwise_conv2d call on the DSP kernels.
template <class Net>
constexpr bool whole_convolutions_on_dsp() {
  const auto& m = Net::module;
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    const ctnn::kernel_call& call = m.calls[static_cast<std::size_t>(c)];
    const ctnn::op_kind kind = m.node_at(call.node).kind;
    if ((kind == ctnn::op_kind::conv2d || kind == ctnn::op_kind::depthwise_conv2d) &&
        call.params.choice.impl != ctnn::kernel_impl::arm_dsp_i8)
      return false;
  }
  return true;
}

template <class Net>
inline constexpr auto patch_call_infos = patch_calls<Net>();

template <class Net>
constexpr bool patch_convolutions_on_dsp() {
  for (std::size_t k = 0; k < patch_call_count<Net>(); ++k)
    if (patch_call_infos<Net>[k].dsp_kind && !patch_call_infos<Net>[k].on_dsp) return false;
  return true;
}

// The automatic choice's search on VWW as the graph passes leave it (the stage before lower_te, where
// ctnn::compile runs the patch pass).
constexpr std::size_t graph_stages = ctnn::passes_before<ctnn::pass::lower_te, ctnn::default_pipeline>::size;
constexpr ctnn::pass::patch_plan vww_automatic_plan = ctnn::pass::plan_patches(
    ctnn::stage_v<ctnn::models::patch_vww, ctnn::default_pipeline, graph_stages>, ctnn::pass::patch_request{});
static_assert(
    vww_automatic_plan.ops == 4 && vww_automatic_plan.rows == 4 && vww_automatic_plan.columns == 4,
    "the automatic choice should pick VWW's first 4 ops on a 4 x 4 grid (docs/memory.md); update vww_patched");
static_assert(vww_patched::call_count > vww_whole::call_count &&
                  vww_patched::total_ram_bytes < vww_whole::total_ram_bytes,
              "VWW's patch stage should lower its RAM with memory_reuse + io_in_arena (docs/memory.md)");
static_assert(kws_automatic::call_count == kws_whole::call_count &&
                  kws_automatic::total_ram_bytes == kws_whole::total_ram_bytes,
              "the automatic choice should drop the patch stage on KWS: none lowers its RAM (docs/memory.md)");
static_assert(patch_call_count<vww_patched>() == 4 * 4 * (4 + 2) && patch_call_count<kws_patched>() == 3 * 2 * (3 + 2),
              "the patch stages: per patch a crop, the prefix's ops and a paste (VWW 16 x 6 calls, KWS 6 x 5)");
static_assert(whole_convolutions_on_dsp<vww_whole>() && whole_convolutions_on_dsp<kws_whole>(),
              "every convolution of VWW and KWS runs on the Armv7E-M DSP kernels on this core");
static_assert(
    patch_convolutions_on_dsp<vww_patched>() && patch_convolutions_on_dsp<kws_patched>(),
    "the DSP kernels take every patch convolution (asymmetric explicit pads) whose whole-tensor call they take");
static_assert(vww_whole::input<0>::bytes == vww_refs::input_bytes &&
                  vww_whole::output<0>::bytes == vww_refs::output_bytes &&
                  kws_whole::input<0>::bytes == kws_refs::input_bytes &&
                  kws_whole::output<0>::bytes == kws_refs::output_bytes,
              "the reference cases do not match the models' interfaces");

// The output of one inference of Net on `input` (the model's inputs and outputs are in its arena).
template <class Net>
void infer(const void* input, std::uint8_t (&output)[Net::template output<0>::bytes]) {
  std::memcpy(Net::template input<0>::data(), input, Net::template input<0>::bytes);
  Net::run();
  std::memcpy(output, Net::template output<0>::data(), Net::template output<0>::bytes);
}

// Pseudo-random input bytes (a linear congruential generator: the same bytes on every run).
template <std::size_t Bytes>
void fill_pseudo_random(std::uint8_t (&bytes)[Bytes], std::uint32_t seed) {
  for (std::uint8_t& b : bytes) {
    seed = seed * 1664525u + 1013904223u;
    b = static_cast<std::uint8_t>(seed >> 24);
  }
}

template <class Net, class Whole>
void print_patch_calls(const char* model) {
  std::printf("%s: %u calls (%u in the patch stage) for %u without patches\n", model,
              static_cast<unsigned>(Net::call_count), static_cast<unsigned>(patch_call_count<Net>()),
              static_cast<unsigned>(Whole::call_count));
  for (std::size_t k = 0; k < patch_call_count<Net>(); ++k) {
    const call_info& c = patch_call_infos<Net>[k];
    std::printf("  patch call %2u %-16s %s", static_cast<unsigned>(k), c.kind, c.kernel);
    if (c.kernel_h > 0)
      std::printf(" %dx%d/%d pads t%d b%d l%d r%d", static_cast<int>(c.kernel_h), static_cast<int>(c.kernel_w),
                  static_cast<int>(c.stride), static_cast<int>(c.pad_top), static_cast<int>(c.pad_bottom),
                  static_cast<int>(c.pad_left), static_cast<int>(c.pad_right));
    std::printf(" [%d,%d] -> [%d,%d,%d]\n", static_cast<int>(c.in_h), static_cast<int>(c.in_w),
                static_cast<int>(c.out_h), static_cast<int>(c.out_w), static_cast<int>(c.out_c));
  }
}

// Patched and Whole on the reference cases (against TFLM) and on pseudo-random inputs (against each
// other); returns the number of mismatches.
template <class Patched, class Whole, std::size_t Cases>
unsigned compare(const char* model, const char* options, const char* const (&inputs)[Cases],
                 const char* const (&outputs)[Cases]) {
  static_assert(Patched::template input<0>::bytes == Whole::template input<0>::bytes &&
                Patched::template output<0>::bytes == Whole::template output<0>::bytes);
  static std::uint8_t patched[Patched::template output<0>::bytes], whole[Whole::template output<0>::bytes];
  static std::uint8_t input[Whole::template input<0>::bytes];
  unsigned mismatches = 0;
  for (std::size_t k = 0; k < Cases; ++k) {
    infer<Patched>(inputs[k], patched);
    infer<Whole>(inputs[k], whole);
    const bool tflm = std::memcmp(patched, outputs[k], sizeof patched) == 0;
    const bool same = std::memcmp(patched, whole, sizeof patched) == 0;
    std::printf("%s %s case %u: %s TFLM, %s without patches\n", model, options, static_cast<unsigned>(k),
                tflm ? "equal to" : "DIFFERS from", same ? "equal to" : "DIFFERS from");
    mismatches += (tflm ? 0 : 1) + (same ? 0 : 1);
  }
  for (std::uint32_t seed = 1; seed <= 2; ++seed) {
    fill_pseudo_random(input, seed);
    infer<Patched>(input, patched);
    infer<Whole>(input, whole);
    const bool same = std::memcmp(patched, whole, sizeof patched) == 0;
    std::printf("%s %s pseudo-random input %u: %s without patches\n", model, options, static_cast<unsigned>(seed),
                same ? "equal to" : "DIFFERS from");
    mismatches += same ? 0 : 1;
  }
  return mismatches;
}

}  // namespace

int main() {
  print_patch_calls<vww_patched, vww_whole>("VWW 4 ops, 4 x 4");
  print_patch_calls<kws_patched, kws_whole>("KWS 3 ops, 3 x 2");
  unsigned mismatches = 0;
  mismatches += compare<vww_patched, vww_whole>("VWW", "4 ops 4 x 4", vww_refs::input, vww_refs::output);
  mismatches += compare<kws_patched, kws_whole>("KWS", "3 ops 3 x 2", kws_refs::input, kws_refs::output);
  std::printf(
      "summary: %u mismatches; total RAM VWW %lu B patched, %lu B whole; KWS %lu B patched (3 x 2), %lu B whole; "
      "peak stack %lu bytes\n",
      mismatches, static_cast<unsigned long>(vww_patched::total_ram_bytes),
      static_cast<unsigned long>(vww_whole::total_ram_bytes), static_cast<unsigned long>(kws_patched::total_ram_bytes),
      static_cast<unsigned long>(kws_whole::total_ram_bytes), ctnn_baremetal_stack_peak());
  return mismatches == 0 ? 0 : 1;
}
