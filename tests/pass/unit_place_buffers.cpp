// pass::place_buffers, before and after, on tiny_cnn lowered (test_modules.hpp; its plan is worked out in
// unit_memory_plan.cpp: conv2d_0 576 B live 0..1, max_pool_1 144 B live 1..2, dense_3 12 B live 2..3; bound
// 720 B at op 1): the allocations, the pools' usage and the bound it records; the pins it applies; a pool
// over its limit left for check_budgets; the scratch it merges and places; nothing marked in place
// without the in-place options.
#include <cstdint>
#include <memory>
#include <string_view>
#include <type_traits>

#include <doctest/doctest.h>

#include <ctnn/compile.hpp>
#include <ctnn/frontend/dsl.hpp>
#include <ctnn/pass/assign_pools.hpp>
#include <ctnn/pass/place_buffers.hpp>

#include "pass_test_modules.hpp"
#include "test_modules.hpp"

namespace {

namespace pass = ctnn::pass;
namespace memory = ctnn::memory;
using ctnn_test::tensor_named;  // pass_test_modules.hpp
using ctnn_test::tiny_cnn;

constexpr auto lowered = ctnn::stage_v<tiny_cnn, ctnn::default_pipeline, 6>;
template <class Module>
constexpr memory::pool_allocation where(const Module& m, std::string_view name) {
  for (std::int32_t t = 0; t < m.tensor_count; ++t)
    if (m.tensor_at(t).label.view() == name) return m.allocations[static_cast<std::size_t>(t)];
  return {};
}

// Before: nothing placed.
static_assert(where(lowered, "conv2d_0").offset == -1 && lowered.pool_usage[0].bytes == 0 && lowered.peak_node == -1);

// After (one arena): conv at 0, pool at 576 (both live at op 1), dense over the dead conv at 0.
constexpr auto placed = pass::place_buffers<>::run(pass::assign_pools<>::run(lowered));
static_assert(!placed.error.failed() && placed.pool_usage[0].bytes == 720 && placed.arena_bytes() == 720);
static_assert(placed.liveness_lower_bound == 720 && placed.peak_node == 1 && placed.pool_usage[0].peak_node == 1);
static_assert(where(placed, "conv2d_0").offset == 0 && where(placed, "max_pool_1").offset == 576 &&
              where(placed, "dense_3").offset == 0);
static_assert(where(placed, "input").offset == -1 && where(placed, "softmax_4").offset == -1);  // the caller's buffers
static_assert(placed.io_bytes_outside == 6 * 6 * 3 * 4 + 3 * 4 && placed.in_place_ops == 0);
// Placing is not the end of planning: check_budgets establishes memory_planned.
static_assert(!placed.has(ctnn::fact::memory_planned));
constexpr bool nothing_over_input(const decltype(lowered)& m) {
  for (const bool over : m.result_over_input)
    if (over) return false;
  return true;
}
static_assert(nothing_over_input(placed));

// Pins from assign_pools: max_pool_1 to "dtcm" (256 B) keeps it there; the conv leaves for "sram".
using two_pools = ctnn::pools<ctnn::pool<"dtcm", 256>, ctnn::pool<"sram", 1024>>;
constexpr auto pinned = pass::place_buffers<>::run(pass::assign_pools<two_pools, ctnn::pin<"max_pool_1", "dtcm">>::run(lowered));
static_assert(where(pinned, "max_pool_1").pool == 0 && where(pinned, "conv2d_0").pool == 1 && where(pinned, "dense_3").offset == 144);
static_assert(pinned.pool_usage[0].bytes == 160 && pinned.pool_usage[1].bytes == 576);
// A pin that names no buffer fails with its position.
constexpr auto no_tensor = pass::place_buffers<>::run(pass::assign_pools<ctnn::pin<"max_pool_1", "arena">, ctnn::pin<"nope", "arena">>::run(lowered));
static_assert(no_tensor.error.code == ctnn::code_of(ctnn::memory_error::pin_unknown_tensor) && no_tensor.error.position == 1);

// A pin by a name that two tensors with buffers of their own share (max_pool_1 renamed "conv2d_0") is an
// error naming the pin, the name and both tensors; a name shared with a tensor that has no buffer (the
// model's input) is not: the pin places the one buffer it names.
template <class Module>
constexpr auto renamed(Module m, std::int32_t tensor, std::string_view name) {
  m.tensor_at(tensor).label = ctnn::name{name};
  return m;
}
constexpr std::int32_t conv_tensor = tensor_named(lowered, "conv2d_0");
constexpr std::int32_t pool_tensor = tensor_named(lowered, "max_pool_1");
constexpr auto shared_name = pass::place_buffers<>::run(
    pass::assign_pools<two_pools, ctnn::pin<"dense_3", "sram">, ctnn::pin<"conv2d_0", "sram">>::run(renamed(lowered, pool_tensor, "conv2d_0")));
static_assert(shared_name.error.code == ctnn::code_of(ctnn::memory_error::pin_ambiguous_tensor_name) &&
              shared_name.error.position == 1 && shared_name.error.tensor == conv_tensor &&
              shared_name.error.other_tensor == pool_tensor && conv_tensor >= 0 && pool_tensor > conv_tensor);
static_assert(shared_name.error.actual.rank == 8 && ctnn::diagnostic_name_char(shared_name.error.actual, 0) == 'c' &&
              ctnn::diagnostic_name_char(shared_name.error.actual, 7) == '0');
constexpr auto shared_with_input = pass::place_buffers<>::run(
    pass::assign_pools<two_pools, ctnn::pin<"conv2d_0", "sram">>::run(renamed(lowered, lowered.inputs[0], "conv2d_0")));
static_assert(!shared_with_input.error.failed() && shared_with_input.allocations[static_cast<std::size_t>(conv_tensor)].pool == 1);

// Over a limit: the plan is recorded, the verdict is check_budgets'.
constexpr auto over = pass::place_buffers<>::run(pass::assign_pools<ctnn::pools<ctnn::pool<"sram", 512>>>::run(lowered));
static_assert(!over.error.failed() && over.pool_usage[0].bytes == 720 && over.pool_usage[0].peak_node == 1);
// A read-only pool holds the constants the kernels read: 108 + 4 + 108 + 3 floats.
constexpr auto flash = pass::place_buffers<>::run(
    pass::assign_pools<ctnn::pools<ctnn::pool<"sram">, ctnn::read_only_pool<"flash", 100>>>::run(lowered));
static_assert(flash.pool_usage[1].bytes == 223 * 4 && !flash.error.failed());

// Scratch: module::scratch_bytes per call (here set by hand on calls 0 and 2), live during its call only.
constexpr auto with_scratch = [] {
  auto m = pass::assign_pools<>::run(lowered);
  m.scratch_bytes[0] = 100;
  m.scratch_bytes[2] = 64;
  return m;
}();
constexpr auto scratch_placed = pass::place_buffers<>::run(with_scratch);
static_assert(scratch_placed.scratch_bytes[0] == 100 && scratch_placed.scratch_bytes[2] == 64 && scratch_placed.scratch_bytes[1] == 0);
static_assert(scratch_placed.scratch[0].offset >= 0 && scratch_placed.scratch[2].offset >= 0 && scratch_placed.scratch[1].offset == -1);
static_assert(scratch_placed.liveness_lower_bound == 720 && scratch_placed.pool_usage[0].bytes >= 720);

// The scratch of an ONNX integer conv or dense over uint8 (kernel/arm/onnx_scratch.hpp: its input's size) where
// that input dies at the call in the pools: none placed, the call's scratch_bytes 0 (the kernel makes the dying
// input int8 in place; memory::scratch_made_in_place). Here dense_3 (call 2) pretends to be one, reading the
// flattened max_pool_1, which dies there; conv2d_0 (call 0) too, but its input is the model's, in the caller's
// buffer: its scratch stays.
constexpr auto onnx_uint8_scratch = [] {
  auto m = pass::assign_pools<>::run(lowered);
  for (const std::int32_t c : {0, 2}) {
    ctnn::node& n = m.nodes[static_cast<std::size_t>(m.calls[static_cast<std::size_t>(c)].node)];
    n.attrs.layout = c == 0 ? ctnn::data_layout::onnx_nhwc : ctnn::data_layout::onnx;
    ctnn::tensor& x = m.tensor_at(n.inputs[0]);
    x.type = ctnn::dtype::u8;
    if (x.alias_of >= 0) m.tensor_at(x.alias_of).type = ctnn::dtype::u8;
    m.scratch_bytes[static_cast<std::size_t>(c)] = x.bytes();
  }
  return m;
}();
constexpr auto onnx_uint8_placed = pass::place_buffers<>::run(onnx_uint8_scratch);
static_assert(onnx_uint8_scratch.scratch_bytes[2] == 36 && onnx_uint8_placed.scratch_bytes[2] == 0 && onnx_uint8_placed.scratch[2].offset == -1);
static_assert(onnx_uint8_placed.scratch_bytes[0] == 108 && onnx_uint8_placed.scratch[0].offset >= 0);
static_assert(onnx_uint8_placed.calls[2].params.input_restored == 0);  // its input dies there: left int8

// Where that uint8 input is read after the call, no scratch either: the kernel makes it int8 in place and uint8
// again before it returns (kernel_params::input_restored; the kernel table follows). Here call 1 pretends to be
// such a conv reading conv2d_0 (made uint8: 144 B), which dense_3 (op 2) is made to read too. The bound: 300 B at
// op 2 (conv2d_0, max_pool_1 and dense_3's 12 B), where a scratch of 144 B beside them at op 1 would make it 432 B.
constexpr auto onnx_uint8_read_later = [] {
  auto m = pass::assign_pools<>::run(lowered);
  ctnn::node& n = m.nodes[static_cast<std::size_t>(m.calls[1].node)];
  n.kind = ctnn::op_kind::conv2d;
  n.attrs.layout = ctnn::data_layout::onnx_nhwc;
  ctnn::tensor& x = m.tensor_at(n.inputs[0]);
  x.type = ctnn::dtype::u8;
  m.scratch_bytes[1] = x.bytes();
  ctnn::node& later = m.nodes[static_cast<std::size_t>(m.calls[2].node)];
  later.inputs[static_cast<std::size_t>(later.input_count++)] = n.inputs[0];
  return m;
}();
constexpr auto onnx_uint8_restored = pass::place_buffers<>::run(onnx_uint8_read_later);
static_assert(onnx_uint8_read_later.scratch_bytes[1] == 144 && onnx_uint8_restored.scratch_bytes[1] == 0 &&
              onnx_uint8_restored.scratch[1].offset == -1);
static_assert(onnx_uint8_restored.calls[1].params.input_restored == 1 && onnx_uint8_restored.calls[2].params.input_restored == 0 &&
              onnx_uint8_restored.kernel(onnx_uint8_restored.calls[1].kernel).input_restored == 1);
static_assert(!onnx_uint8_restored.error.failed() && onnx_uint8_restored.liveness_lower_bound == 300 && onnx_uint8_restored.peak_node == 2);

TEST_CASE("place_buffers: the same at run time; placed buffers that live together do not overlap") {
  auto m = std::make_unique<std::remove_const_t<decltype(lowered)>>(lowered);
  pass::assign_pools_and_pins(*m, memory::plan_config{});
  pass::place_module_buffers<memory::default_planner>(*m, memory::plan_config{});
  CHECK(ctnn_test::same_module(*m, placed));
  CHECK(where(*m, "max_pool_1").offset == 576);
  // conv2d_0 [0, 576) and max_pool_1 [576, 720) are both live at op 1.
  CHECK(where(*m, "conv2d_0").offset + 576 <= where(*m, "max_pool_1").offset);
}

}  // namespace
