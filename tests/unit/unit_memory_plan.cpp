// Plans of DSL models with plan_memory's options, checked at compile time where the numbers are worked
// out here, and through the executor at run time: pools with fallback, pins (tensor, op, kind), budgets
// that fit (a model asserting its own figures) and diagnostics that do not, in-place ops, concat in
// place, the memory-aware op order, inputs/outputs in the arena, planned scratch (a fake workspace set
// by a pass), several pools in the executor (static and caller memory), pools shared by two models,
// options in any order, a user-supplied placement algorithm, and in-place convolutions, depthwise and
// ordinary (the shift rule against a brute force and against the reference kernels run in place; the
// search that keeps them only where they lower the peak; models bit for bit).
#include <array>
#include <algorithm>
#include <random>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

// A test kernel that uses scratch (below: "a kernel's declared scratch..."): the max pool's kernel, which
// copies its input (float32) there first. The executor calls a call that has scratch (module::scratch_bytes)
// with its address as a fourth argument. Declared before the executor so that its call finds it.
namespace ctnn::kernel {
constexpr std::int32_t pool_scratch_bytes(const kernel_params& p) { return static_cast<std::int32_t>(p.in.elements() * 4); }
template <kernel_params P, std::size_t N>
  requires(P.kind == op_kind::max_pool)
void invoke(const void* const (&operands)[N], void* result, const requant_arrays& rq, void* scratch);
}  // namespace ctnn::kernel

#include <ctnn/compile.hpp>
#include <ctnn/memory/algorithms.hpp>
#include <ctnn/memory/in_place_window.hpp>
#include <ctnn/memory/shared_pools.hpp>

#include "pass/pass_test_modules.hpp"
#include "test_modules.hpp"

namespace {

namespace dsl = ctnn::dsl;
namespace memory = ctnn::memory;
namespace pass = ctnn::pass;
using ctnn_test::tiny_cnn;
using ctnn_test::zeros;

template <class Module>
constexpr std::int32_t tensor_named(const Module& m, std::string_view name) {
  for (std::int32_t t = 0; t < m.tensor_count; ++t)
    if (m.tensor_at(t).label.view() == name) return t;
  return -1;
}
template <class Module>
constexpr memory::pool_allocation where(const Module& m, std::string_view name) {
  return m.allocations[static_cast<std::size_t>(tensor_named(m, name))];
}

// Equal outputs, bit for bit.
template <std::size_t N>
bool same_bits(const float (&a)[N], const float (&b)[N]) {
  return std::memcmp(a, b, sizeof a) == 0;
}

// ---------------------------------------------------------------------------------------------------
// tiny_cnn after the default pipeline (alias_reshapes makes the flatten a view):
//   op 0 conv2d_0   576 B  live 0..1
//   op 1 max_pool_1 144 B  live 1..2 (read by the dense through the view reshape_2)
//   op 2 dense_3     12 B  live 2..3
//   op 3 softmax_4: the model output
// Liveness bound 720 at op 1; one pool: 720.
using tiny_net = ctnn::compile<tiny_cnn>;
static_assert(tiny_net::pool_count == 1 && tiny_net::pool<0>::name == "arena" && tiny_net::pool<0>::bytes == 720);
static_assert(tiny_net::pool<0>::size_limit == -1 && tiny_net::pool_index("arena") == 0);
static_assert(tiny_net::total_ram_bytes == 720 + 6 * 6 * 3 * 4 + 3 * 4);  // arena + caller's input and output

// Fallback: "dtcm" (256 B) first. All three do not fit: conv (at 0, 576 B) and pool (at 576) are above
// the limit and leave for "sram"; dense alone needs 12 -> 16 B.
using two_pools = ctnn::pools<ctnn::pool<"dtcm", 256>, ctnn::pool<"sram", 1024>>;
using fallback_net = ctnn::compile<tiny_cnn, two_pools>;
constexpr auto& fallback = fallback_net::module;
static_assert(fallback_net::pool_count == 2 && fallback_net::pool<0>::name == "dtcm" && fallback_net::pool<1>::name == "sram");
static_assert(fallback_net::pool<0>::bytes == 16 && fallback_net::pool<1>::bytes == 720);
static_assert(where(fallback, "dense_3").pool == 0 && where(fallback, "dense_3").offset == 0);
static_assert(where(fallback, "conv2d_0").pool == 1 && where(fallback, "max_pool_1").pool == 1);
static_assert(fallback_net::pool_index("sram") == 1 && fallback_net::pool_index("flash") == 2);
// A model that fits can assert its own figures.
static_assert(fallback_net::pool<0>::bytes <= 256 && fallback_net::pool<1>::bytes <= 1024);
static_assert(fallback_net::arena_bytes == fallback_net::pool<0>::bytes);
static_assert(fallback.pool_usage[1].lower_bound == 720 && fallback.pool_usage[1].peak_node == 1);

// Pin the pool result to "dtcm": conv (movable, above the limit) leaves; pool and dense stay and
// overlap at op 2: pool at 0, dense at 144 -> 156 -> 160 B.
using pinned_net = ctnn::compile<tiny_cnn, two_pools, ctnn::pin<"max_pool_1", "dtcm">>;
static_assert(pinned_net::pool<0>::bytes == 160 && pinned_net::pool<1>::bytes == 576);
static_assert(where(pinned_net::module, "max_pool_1").pool == 0 && where(pinned_net::module, "dense_3").offset == 144);
// The same by op index (op 1 is the max pool), and the pool's view follows its root.
using pinned_op_net = ctnn::compile<tiny_cnn, ctnn::pin_op<1, "dtcm">, two_pools>;
static_assert(pinned_op_net::pool<0>::bytes == 160 && where(pinned_op_net::module, "max_pool_1").pool == 0);
// Pin the conv result to "sram" and everything else fits in "dtcm".
using pinned_conv_net = ctnn::compile<tiny_cnn, two_pools, ctnn::pin<"conv2d_0", "sram">>;
static_assert(pinned_conv_net::pool<0>::bytes == 160 && pinned_conv_net::pool<1>::bytes == 576);

// Budgets that do not fit, and bad pins: diagnostics with the numbers (the compile errors are in
// tests/compile_fail; here the module value is read without instantiating the executor).
template <class Model>
constexpr auto lowered = ctnn::stage_v<Model, ctnn::default_pipeline, 6>;  // after lower_te
static_assert(std::is_same_v<ctnn::default_pipeline::pass<6>, pass::plan_memory<>>);
constexpr auto over = pass::plan_memory<memory::default_planner, ctnn::pools<ctnn::pool<"sram", 512>>>::run(lowered<tiny_cnn>);
static_assert(over.error.code == ctnn::code_of(ctnn::memory_error::pool_budget_exceeded));
static_assert(over.error.bytes_needed == 720 && over.error.bytes_available == 512 && over.error.node == 1 &&
              over.error.kind == ctnn::op_kind::max_pool && over.error.expected.dims[0] == 0);
// Pinned to a full pool: nothing may leave "dtcm" (48 B): the conv result alone needs 576.
constexpr auto pinned_over = pass::plan_memory<memory::default_planner, ctnn::pools<ctnn::pool<"dtcm", 48>, ctnn::pool<"sram">>,
                                               ctnn::pin<"conv2d_0", "dtcm">>::run(lowered<tiny_cnn>);
static_assert(pinned_over.error.code == ctnn::code_of(ctnn::memory_error::pool_budget_exceeded));
static_assert(pinned_over.error.bytes_needed == 576 && pinned_over.error.bytes_available == 48 && pinned_over.error.expected.dims[0] == 0 &&
              pinned_over.error.node == 0 && pinned_over.error.kind == ctnn::op_kind::conv2d);
constexpr auto no_tensor = pass::plan_memory<memory::default_planner, ctnn::pin<"max_pool_1", "arena">, ctnn::pin<"nope", "arena">>::run(
    lowered<tiny_cnn>);
static_assert(no_tensor.error.code == ctnn::code_of(ctnn::memory_error::pin_unknown_tensor) && no_tensor.error.position == 1);
constexpr auto no_pool = pass::plan_memory<memory::default_planner, ctnn::pin<"max_pool_1", "tcm">>::run(lowered<tiny_cnn>);
static_assert(no_pool.error.code == ctnn::code_of(ctnn::memory_error::pin_unknown_pool) && no_pool.error.position == 0);
// A read-only pool counts the constants the kernels read: 108 + 4 + 108 + 3 floats.
using flash_net = ctnn::compile<tiny_cnn, ctnn::pools<ctnn::pool<"sram">, ctnn::read_only_pool<"flash", 4096>>>;
static_assert(flash_net::pool<1>::read_only && flash_net::pool<1>::bytes == 0 && flash_net::module.pool_usage[1].bytes == 223 * 4);
constexpr auto flash_over = pass::plan_memory<memory::default_planner, ctnn::pools<ctnn::pool<"sram">, ctnn::read_only_pool<"flash", 800>>>::run(
    lowered<tiny_cnn>);
static_assert(flash_over.error.code == ctnn::code_of(ctnn::memory_error::pool_budget_exceeded) && flash_over.error.bytes_needed == 892 &&
              flash_over.error.bytes_available == 800 && flash_over.error.expected.dims[0] == 1 && flash_over.error.node == -1);

TEST_CASE("several pools: run() with static pools and run_with_pools() with caller memory give the standard results") {
  const auto x = ctnn_test::random_floats(tiny_net::input<0>::elements, 11);
  float standard[3], a[3], b[3], c[3];
  tiny_net::run(x.data(), standard);
  fallback_net::run(x.data(), a);
  alignas(16) std::byte dtcm[fallback_net::pool<0>::bytes], sram[fallback_net::pool<1>::bytes];
  fallback_net::run_with_pools({dtcm, sram}, x.data(), b);
  pinned_net::run(x.data(), c);
  CHECK(same_bits(standard, a));
  CHECK(same_bits(standard, b));
  CHECK(same_bits(standard, c));
}

// ---------------------------------------------------------------------------------------------------
// In place: relu -> sigmoid -> tanh on a [1,3,3,1] input (36 B). A = relu(x) lives 0..1 (x is the
// caller's); sigmoid writes B over A, which dies there; tanh writes the output. One 36 B buffer.
using three_ops = dsl::sequential<dsl::input<ctnn::f32, 1, 3, 3, 1>, dsl::relu, dsl::sigmoid, dsl::tanh>;
using three_plain = ctnn::compile<three_ops>;
using three_in_place = ctnn::compile<three_ops, ctnn::in_place_ops>;
static_assert(three_plain::arena_bytes == 96 && three_plain::liveness_lower_bound == 72);
static_assert(three_in_place::arena_bytes == 48 && three_in_place::liveness_lower_bound == 36 && three_in_place::module.in_place_ops == 1);
static_assert(where(three_in_place::module, "relu_0").offset == 0 && where(three_in_place::module, "sigmoid_1").offset == 0);

// A DAG: r = relu(x) is read until the last op, s = sigmoid(x) dies at m = s * r, m dies at t = m + x.
// (Not an activation after m: fuse_ops would fold it into the mul. Broadcasting operands are covered by
// the random DAGs of unit_memory_properties.)
using dag_graph = dsl::graph<dsl::outputs<"out">,                                //
                             dsl::node<"x", dsl::input<ctnn::f32, 1, 2, 2, 4>>,  //
                             dsl::node<"r", dsl::relu, "x">,                    //
                             dsl::node<"s", dsl::sigmoid, "x">,                 //
                             dsl::node<"m", dsl::mul<>, "s", "r">,              //
                             dsl::node<"t", dsl::add<>, "m", "x">,              //
                             dsl::node<"out", dsl::mul<>, "t", "r">>;
using dag_in_place = ctnn::compile<dag_graph, ctnn::in_place_ops>;
// m over s (s dies at m; r does not: it is read by out), t over m.
static_assert(dag_in_place::module.in_place_ops == 2);
static_assert(where(dag_in_place::module, "m").offset == where(dag_in_place::module, "s").offset);
static_assert(where(dag_in_place::module, "t").offset == where(dag_in_place::module, "s").offset);
static_assert(dag_in_place::liveness_lower_bound == 128 && ctnn::compile<dag_graph>::liveness_lower_bound == 192);

TEST_CASE("in-place ops give the same outputs") {
  const auto x = ctnn_test::random_floats(16, 3);
  float a[9], b[9];
  three_plain::run(x.data(), a);
  three_in_place::run(x.data(), b);
  CHECK(same_bits(a, b));
  float c[16], d[16];
  ctnn::compile<dag_graph>::run(x.data(), c);
  dag_in_place::run(x.data(), d);
  CHECK(same_bits(c, d));
}

// ---------------------------------------------------------------------------------------------------
// Concat in place: a = relu(x), b = sigmoid(x) ([1,8] each), c = concat(a, b) along the last axis (its
// slices are contiguous), out = tanh(c). Without it: a 0..2, b 1..2, c 2..3: 32 + 32 + 64 = 128 at op 2.
// With it, a and b are written into c: one 64 B buffer live 0..3.
using concat_graph = dsl::graph<dsl::outputs<"out">,                                  //
                                dsl::node<"x", dsl::input<ctnn::f32, 1, 8>>,          //
                                dsl::node<"a", dsl::relu, "x">,                       //
                                dsl::node<"b", dsl::sigmoid, "x">,                    //
                                dsl::node<"c", dsl::concat<1>, "a", "b">,             //
                                dsl::node<"out", dsl::tanh, "c">>;
using concat_plain = ctnn::compile<concat_graph>;
using concat_reused = ctnn::compile<concat_graph, ctnn::concat_in_place>;
static_assert(concat_plain::liveness_lower_bound == 128 && concat_plain::arena_bytes == 128);
static_assert(concat_reused::liveness_lower_bound == 64 && concat_reused::arena_bytes == 64 && concat_reused::module.concats_in_place == 1);
static_assert(where(concat_reused::module, "a").offset == where(concat_reused::module, "c").offset &&
              where(concat_reused::module, "b").offset == where(concat_reused::module, "c").offset + 32);
// The concat's call then copies nothing: the executor skips it (kernel_params::in_place 2).
static_assert(concat_reused::module.copies_skipped == 1 && concat_reused::module.bytes_not_copied == 64 &&
              concat_reused::module.calls[2].params.in_place == 2 && concat_plain::module.copies_skipped == 0);
// A channel concat of NHWC maps is not contiguous: it stays a copy.
using channel_concat = dsl::graph<dsl::outputs<"out">,                                       //
                                  dsl::node<"x", dsl::input<ctnn::f32, 1, 2, 2, 2>>,         //
                                  dsl::node<"a", dsl::relu, "x">,                            //
                                  dsl::node<"b", dsl::sigmoid, "x">,                         //
                                  dsl::node<"c", dsl::concat<>, "a", "b">,                   //
                                  dsl::node<"out", dsl::tanh, "c">>;
static_assert(ctnn::compile<channel_concat, ctnn::concat_in_place>::module.concats_in_place == 0 &&
              ctnn::compile<channel_concat, ctnn::concat_in_place>::module.copies_skipped == 0);

TEST_CASE("concat in place gives the same outputs") {
  const auto x = ctnn_test::random_floats(8, 5);
  float a[16], b[16];
  concat_plain::run(x.data(), a);
  concat_reused::run(x.data(), b);
  CHECK(same_bits(a, b));
}

// ---------------------------------------------------------------------------------------------------
// Memory-aware order: two branches, each a wide dense (4 -> 64, 256 B) then a narrow one (64 -> 2, 8 B),
// added. As written (a, b, a2, b2, out) both wide results and a2 live at op 2: 520 B. The greedy order
// runs a branch to its end first (a, a2, b, b2, out): 256 + 8 + 8 = 272 at op 3.
using ctnn_test::branches;  // test_modules.hpp
using branches_plain = ctnn::compile<branches>;
using branches_ordered = ctnn::compile<branches, ctnn::memory_aware_order>;
static_assert(branches_plain::liveness_lower_bound == 520 && branches_plain::module.reordered == 0);
static_assert(branches_ordered::liveness_lower_bound == 272 && branches_ordered::module.reordered == 1);
static_assert(branches_ordered::module.node_at(1).label.view() == "a2" && branches_ordered::module.node_at(2).label.view() == "b");
static_assert(branches_ordered::arena_bytes < branches_plain::arena_bytes);
// A sequential model is never reordered.
static_assert(ctnn::compile<tiny_cnn, ctnn::memory_reuse>::module.reordered == 0);

TEST_CASE("the memory-aware order gives the same outputs") {
  const auto x = ctnn_test::random_floats(4, 9);
  float a[2], b[2];
  branches_plain::run(x.data(), a);
  branches_ordered::run(x.data(), b);
  CHECK(same_bits(a, b));
}

// ---------------------------------------------------------------------------------------------------
// Inputs and outputs in the arena: run() takes no buffers; the input (432 B, live from op 0) and the
// output (12 B, live to the end) are planned with the rest.
using io_net = ctnn::compile<tiny_cnn, ctnn::io_in_arena>;
static_assert(io_net::input<0>::in_arena && io_net::output<0>::in_arena && !tiny_net::input<0>::in_arena);
static_assert(io_net::module.io_bytes_outside == 0 && io_net::total_ram_bytes == io_net::arena_bytes);
static_assert(io_net::liveness_lower_bound == 432 + 576 && io_net::arena_bytes >= 432 + 576);
static_assert(io_net::arena_bytes == 1008 && io_net::total_ram_bytes < tiny_net::total_ram_bytes);

TEST_CASE("inputs and outputs in the arena") {
  const auto x = ctnn_test::random_floats(tiny_net::input<0>::elements, 17);
  float standard[3];
  tiny_net::run(x.data(), standard);
  std::memcpy(io_net::input<0>::data(), x.data(), io_net::input<0>::bytes);
  io_net::run();
  float got[3];
  std::memcpy(got, io_net::output<0>::data(), sizeof got);
  CHECK(same_bits(standard, got));
  // In caller memory too.
  alignas(16) std::byte arena[io_net::arena_bytes];
  const io_net::pool_pointers pools{arena};
  std::memcpy(io_net::input<0>::data(pools), x.data(), io_net::input<0>::bytes);
  io_net::run_with_pools(pools);
  std::memcpy(got, io_net::output<0>::data(pools), sizeof got);
  CHECK(same_bits(standard, got));
}

// ---------------------------------------------------------------------------------------------------
// Scratch: kernels declare none yet; a pass between lower_te and plan_memory gives every conv2d call a
// fake workspace, which plan_memory places with the activations (live during its call only).
template <std::int64_t Bytes>
struct fake_workspace {
  static constexpr ctnn::fact requires_facts = ctnn::fact::kernels_lowered;
  template <class Module>
  static constexpr Module run(Module m) {
    for (std::int32_t c = 0; c < m.call_count; ++c)
      if (m.calls[static_cast<std::size_t>(c)].params.kind == ctnn::op_kind::conv2d) m.scratch_bytes[static_cast<std::size_t>(c)] = Bytes;
    return m;
  }
};
template <class Pass>
using with_pass_before_planning =
    ctnn::pipeline<pass::infer_types, pass::fold_constants, pass::fold_batch_norm, pass::fuse_ops, pass::alias_reshapes, pass::lower_te,
                   Pass, pass::plan_memory<>, pass::create_function_metadata, pass::create_executor_metadata, pass::aot_lower_main>;
// 200 B at op 0 next to the conv result (576): the bound becomes 776 at op 0, and the scratch does not
// overlap the conv result.
using scratch_net = ctnn::compile<tiny_cnn, with_pass_before_planning<fake_workspace<200>>>;
constexpr auto& scratched = scratch_net::module;
static_assert(scratched.scratch[0].offset >= 0 && scratched.scratch[1].offset == -1);
static_assert(scratch_net::liveness_lower_bound == 776 && scratched.peak_node == 0);
static_assert(scratched.scratch[0].offset >= where(scratched, "conv2d_0").offset + 576 ||
              scratched.scratch[0].offset + 200 <= where(scratched, "conv2d_0").offset);
// Pinned by kind to a small pool of its own.
using scratch_pinned = ctnn::compile<tiny_cnn, with_pass_before_planning<fake_workspace<200>>,
                                     ctnn::pools<ctnn::pool<"dtcm", 256>, ctnn::pool<"sram">>,
                                     ctnn::pin_kind<memory::buffer_kind::scratch, "dtcm">, ctnn::pin_kind<memory::buffer_kind::intermediate, "sram">>;
static_assert(scratch_pinned::module.scratch[0].pool == 0 && scratch_pinned::pool<0>::bytes == 208 && scratch_pinned::pool<1>::bytes == 720);

TEST_CASE("planned scratch leaves the results unchanged") {
  const auto x = ctnn_test::random_floats(tiny_net::input<0>::elements, 23);
  float standard[3], a[3], b[3];
  tiny_net::run(x.data(), standard);
  scratch_net::run(x.data(), a);
  scratch_pinned::run(x.data(), b);
  CHECK(same_bits(standard, a));
  CHECK(same_bits(standard, b));
}

// ---------------------------------------------------------------------------------------------------
// A kernel's declared scratch (module::scratch_bytes), planned and passed to the kernel. The
// pass below stands for the kernel layer declaring it when the call is lowered: the max pool's kernel
// asks for a copy of its input (576 B). plan_memory places it live during op 1 only, next to the conv
// result (576) and the pool result (144): bound 1296 at op 1. The test kernel (defined after the
// namespace) copies its input into the scratch and pools from there, so the results are right only if
// the address is valid and nothing live is written over.
struct declare_pool_scratch {
  static constexpr ctnn::fact requires_facts = ctnn::fact::kernels_lowered;
  template <class Module>
  static constexpr Module run(Module m) {
    for (std::int32_t c = 0; c < m.call_count; ++c) {
      const ctnn::kernel_params& p = m.calls[static_cast<std::size_t>(c)].params;
      if (p.kind == ctnn::op_kind::max_pool) m.scratch_bytes[static_cast<std::size_t>(c)] = ctnn::kernel::pool_scratch_bytes(p);
    }
    return m;
  }
};
using declared_net = ctnn::compile<tiny_cnn, with_pass_before_planning<declare_pool_scratch>>;
constexpr auto& declared = declared_net::module;
static_assert(declared.calls[1].params.kind == ctnn::op_kind::max_pool && declared.scratch_bytes[1] == 576);
static_assert(declared.scratch[1].offset >= 0 && declared.scratch[0].offset == -1 && declared.scratch[2].offset == -1);
static_assert(declared_net::liveness_lower_bound == 1296 && declared.peak_node == 1 && declared_net::arena_bytes == 1296);
// In a pool of its own when pinned by kind.
using declared_pinned = ctnn::compile<tiny_cnn, with_pass_before_planning<declare_pool_scratch>,
                                      ctnn::pools<ctnn::pool<"sram">, ctnn::pool<"scratchpad", 576>>,
                                      ctnn::pin_kind<memory::buffer_kind::scratch, "scratchpad">>;
static_assert(declared_pinned::module.scratch[1].pool == 1 && declared_pinned::pool<1>::bytes == 576 &&
              declared_pinned::pool<0>::bytes == 720);

void* scratch_seen = nullptr;  // the address the test kernel got

}  // namespace

template <ctnn::kernel_params P, std::size_t N>
  requires(P.kind == ctnn::op_kind::max_pool)
void ctnn::kernel::invoke(const void* const (&operands)[N], void* result, const requant_arrays& rq, void* scratch) {
  scratch_seen = scratch;
  std::memcpy(scratch, operands[0], static_cast<std::size_t>(pool_scratch_bytes(P)));
  const void* const from_scratch[] = {scratch, nullptr};
  ctnn::kernel::invoke<P>(from_scratch, result, rq);
}

namespace {

TEST_CASE("a kernel's declared scratch is planned with the activations and passed to the kernel") {
  const auto x = ctnn_test::random_floats(tiny_net::input<0>::elements, 29);
  float standard[3], got[3], pinned[3];
  tiny_net::run(x.data(), standard);
  alignas(16) std::byte arena[declared_net::arena_bytes];
  std::memset(arena, 0xA5, sizeof arena);  // garbage where the scratch goes
  declared_net::run_with_arena(arena, x.data(), got);
  CHECK(scratch_seen == arena + declared.scratch[1].offset);
  CHECK(same_bits(standard, got));
  alignas(16) std::byte sram[declared_pinned::pool<0>::bytes], pad[declared_pinned::pool<1>::bytes];
  declared_pinned::run_with_pools({sram, pad}, x.data(), pinned);
  CHECK(scratch_seen == pad + declared_pinned::module.scratch[1].offset);
  CHECK(same_bits(standard, pinned));
}

// ---------------------------------------------------------------------------------------------------
// Options in any order, with a pipeline and a planner; a user-supplied algorithm.

// Places buffers by first use, each by first fit: a user's own algorithm, as simple as it gets.
struct by_first_use {
  template <class Buffers, class Allocations>
  static constexpr std::int64_t plan(const Buffers& buffers, std::int32_t count, Allocations& allocations) {
    std::array<std::int64_t, std::tuple_size_v<Buffers>> key{};
    for (std::int32_t b = 0; b < count; ++b) key[static_cast<std::size_t>(b)] = buffers[static_cast<std::size_t>(b)].first_use;
    return memory::first_fit(buffers, count, memory::detail::sorted_by_key<std::tuple_size_v<Buffers>>(count, key.data()), allocations);
  }
};
using user_planned = ctnn::compile<tiny_cnn, ctnn::planner<by_first_use>>;
// conv at 0, pool above it at 576, dense back at 0: 720.
static_assert(user_planned::arena_bytes == 720 && where(user_planned::module, "max_pool_1").offset == 576);
static_assert(std::is_same_v<ctnn::default_pipeline::pass<6>, pass::plan_memory<>>);

using any_order_a = ctnn::compile<tiny_cnn, ctnn::planner<memory::hill_climb<7>>, two_pools, ctnn::default_pipeline, ctnn::in_place_ops>;
using any_order_b = ctnn::compile<tiny_cnn, ctnn::in_place_ops, ctnn::default_pipeline, two_pools, ctnn::planner<memory::hill_climb<7>>>;
static_assert(std::is_same_v<any_order_a, any_order_b> || (any_order_a::pool<0>::bytes == any_order_b::pool<0>::bytes &&
                                                            any_order_a::pool<1>::bytes == any_order_b::pool<1>::bytes));
static_assert(any_order_a::pool<0>::bytes == 16 && any_order_a::pool<1>::bytes == 720);
// compile<Model> and compile<Model, Pipeline> are the executors they were.
static_assert(std::is_same_v<ctnn::compile<tiny_cnn>, ctnn::executor<ctnn::compiled_v<tiny_cnn>>>);
static_assert(std::is_same_v<ctnn::compile<tiny_cnn, ctnn::default_pipeline>, ctnn::executor<ctnn::compiled_v<tiny_cnn>>>);

TEST_CASE("a user-supplied algorithm and options in any order give the standard results") {
  const auto x = ctnn_test::random_floats(tiny_net::input<0>::elements, 29);
  float standard[3], a[3], b[3];
  tiny_net::run(x.data(), standard);
  user_planned::run(x.data(), a);
  any_order_a::run(x.data(), b);
  CHECK(same_bits(standard, a));
  CHECK(same_bits(standard, b));
}

// ---------------------------------------------------------------------------------------------------
// In-place depthwise (ctnn::in_place_depthwise). The rule (memory/in_place_window.hpp): 3x3, stride 1,
// padding 1, C channels: the result starts (W + 2) * C elements below the input.
constexpr ctnn::window window_of(std::int32_t k, std::int32_t stride, std::int32_t dilation, std::int32_t top, std::int32_t left,
                                 std::int32_t bottom, std::int32_t right) {
  return ctnn::window{k, k, stride, stride, dilation, dilation, ctnn::padding::explicit_pads, top, left, bottom, right};
}
static_assert(memory::in_place_window_shift(ctnn::make_shape(1, 9, 7, 8), ctnn::make_shape(1, 9, 7, 8), window_of(3, 1, 1, 1, 1, 1, 1)) ==
              -(7 + 2) * 8);
static_assert(memory::in_place_window_shift_per_pixel(ctnn::make_shape(1, 9, 7, 8), ctnn::make_shape(1, 9, 7, 8),
                                                      window_of(3, 1, 1, 1, 1, 1, 1)) == -(7 + 2) * 8);
// 1x1 window, stride 1, equal channels: one pixel below; stride 2, no padding: pixel 0 reads pixel 0.
static_assert(memory::in_place_window_shift(ctnn::make_shape(1, 4, 4, 2), ctnn::make_shape(1, 4, 4, 2), window_of(1, 1, 1, 0, 0, 0, 0)) == -2);
static_assert(memory::in_place_window_shift(ctnn::make_shape(1, 8, 8, 4), ctnn::make_shape(1, 4, 4, 4), window_of(2, 2, 1, 0, 0, 0, 0)) == -4);

// Ordinary convolutions (ctnn::in_place_conv): Cin and Cout differ. A 1x1 conv over P pixels:
// min(-Cout, (P - 1) * (Cin - Cout) - Cout). VWW's op 2 (48x48x8 -> 48x48x16): the input at the result's
// tail, 18,440 elements below; 16 -> 4 channels: the result one output pixel below the input.
static_assert(memory::in_place_window_shift(ctnn::make_shape(1, 48, 48, 8), ctnn::make_shape(1, 48, 48, 16), window_of(1, 1, 1, 0, 0, 0, 0)) ==
              -(2303 * 8 + 16));
static_assert(memory::in_place_window_shift_per_pixel(ctnn::make_shape(1, 48, 48, 8), ctnn::make_shape(1, 48, 48, 16),
                                                      window_of(1, 1, 1, 0, 0, 0, 0)) == -(2303 * 8 + 16));
static_assert(memory::in_place_window_shift(ctnn::make_shape(1, 6, 5, 16), ctnn::make_shape(1, 6, 5, 4), window_of(1, 1, 1, 0, 0, 0, 0)) == -4);
static_assert(memory::in_place_window_shift_per_pixel(ctnn::make_shape(1, 6, 5, 16), ctnn::make_shape(1, 6, 5, 4),
                                                      window_of(1, 1, 1, 0, 0, 0, 0)) == -4);
// A 3x3 conv, stride 2, padding 1, 3 -> 10 channels (9x7 -> 5x4): the fast rule equals the brute force.
static_assert(memory::in_place_window_shift(ctnn::make_shape(2, 9, 7, 3), ctnn::make_shape(2, 5, 4, 10), window_of(3, 2, 1, 1, 1, 1, 1)) ==
              memory::in_place_window_shift_per_pixel(ctnn::make_shape(2, 9, 7, 3), ctnn::make_shape(2, 5, 4, 10),
                                                      window_of(3, 2, 1, 1, 1, 1, 1)));

// A random windowed layer of `kind` (depthwise_conv2d or conv2d): odd and even sizes, strides 1 and 2,
// dilation, asymmetric padding (also padding wider than the window), batch 1 or 2; depthwise: depth
// multiplier 1 or 2; conv: Cin and Cout 1 to 8 (any order), sometimes 2 groups.
ctnn::kernel_params random_window_layer(std::mt19937& rng, ctnn::dtype type, ctnn::op_kind kind) {
  const auto pick = [&](std::int32_t lo, std::int32_t hi) { return std::uniform_int_distribution<std::int32_t>{lo, hi}(rng); };
  while (true) {
    const std::int32_t n = pick(1, 2), h = pick(1, 9), w = pick(1, 9), c = pick(1, kind == ctnn::op_kind::conv2d ? 8 : 5);
    const ctnn::window win = window_of(pick(1, 5), pick(1, 2), pick(1, 2), pick(0, 2), pick(0, 2), pick(0, 3), pick(0, 3));
    const std::int32_t extent = (win.kernel_h - 1) * win.dilation_h + 1;
    const std::int32_t oh = (h + win.pad_top + win.pad_bottom - extent) / win.stride_h + 1;
    const std::int32_t ow = (w + win.pad_left + win.pad_right - extent) / win.stride_w + 1;
    if (h + win.pad_top + win.pad_bottom < extent || w + win.pad_left + win.pad_right < extent) continue;
    ctnn::kernel_params p{};
    p.kind = kind;
    p.type = type;
    p.in = ctnn::make_shape(n, h, w, c);
    p.win = win;
    if (kind == ctnn::op_kind::depthwise_conv2d) {
      p.depth_multiplier = pick(1, 2);
      p.out = ctnn::make_shape(n, oh, ow, c * p.depth_multiplier);
    } else {
      const std::int32_t out_channels = pick(1, 8);
      p.groups = c % 2 == 0 && out_channels % 2 == 0 && pick(0, 2) == 0 ? 2 : 1;
      p.out = ctnn::make_shape(n, oh, ow, out_channels);
    }
    p.has_bias = 1;
    p.output_offset = 3;
    p.input_offset = 5;
    p.activation_min = -128;
    p.activation_max = 127;
    return p;
  }
}

// Runs the reference kernel of p (conv or depthwise) with its result `shift` elements from its input in
// one buffer (the input first filled with `input`); true when the result equals the out-of-place one,
// bit for bit.
template <class T>
bool runs_in_place(const ctnn::kernel_params& p, std::int64_t shift, std::mt19937& rng) {
  const std::int64_t in_elements = p.in.elements(), out_elements = p.out.elements();
  const std::int64_t low = std::min<std::int64_t>(0, shift), high = std::max(in_elements, shift + out_elements);
  const std::int32_t channels = p.out[3];
  const bool depthwise = p.kind == ctnn::op_kind::depthwise_conv2d;
  const std::int64_t weight_count = p.win.kernel_h * p.win.kernel_w * (depthwise ? channels : channels * (p.in[3] / p.groups));
  std::vector<T> input(static_cast<std::size_t>(in_elements)), weights(static_cast<std::size_t>(weight_count));
  std::vector<std::conditional_t<std::is_same_v<T, float>, float, std::int32_t>> bias(static_cast<std::size_t>(channels));
  std::vector<std::int32_t> multiplier(static_cast<std::size_t>(channels), 1 << 30), right_shift(static_cast<std::size_t>(channels), -4);
  const auto fill = [&](auto& v) {
    for (auto& x : v) x = static_cast<std::remove_reference_t<decltype(x)>>(std::uniform_int_distribution<int>{-100, 100}(rng)) /
                          static_cast<std::remove_reference_t<decltype(x)>>(std::is_same_v<T, float> ? 16 : 1);
  };
  fill(input), fill(weights), fill(bias);
  std::vector<T> expected(static_cast<std::size_t>(out_elements)), buffer(static_cast<std::size_t>(high - low));
  const auto run = [&](const T* in, T* out) {
    namespace ref = ctnn::kernel::reference;
    if constexpr (std::is_same_v<T, float>) {
      if (depthwise) ref::depthwise_conv2d(&p, in, weights.data(), bias.data(), out);
      else ref::conv2d(&p, in, weights.data(), bias.data(), out);
    } else {
      if (depthwise) ref::int8::depthwise_conv2d(&p, in, weights.data(), bias.data(), out, multiplier.data(), right_shift.data());
      else ref::int8::conv2d(&p, in, weights.data(), bias.data(), out, multiplier.data(), right_shift.data());
    }
  };
  run(input.data(), expected.data());
  T* in_place_input = buffer.data() - low;
  std::copy(input.begin(), input.end(), in_place_input);
  run(in_place_input, in_place_input + shift);
  return std::memcmp(expected.data(), in_place_input + shift, expected.size() * sizeof(T)) == 0;
}

// 600 random layers of one kind: the fast rule equals the brute force, the reference kernels (float and
// int8) run in place at that shift (and lower) and give the out-of-place bytes; one output pixel higher
// corrupts the result of many layers (the rule is tight).
void check_in_place_rule(ctnn::op_kind kind, std::uint32_t seed) {
  std::mt19937 rng{seed};
  std::int32_t corrupted_one_pixel_higher = 0, channels_differ = 0;
  for (std::int32_t trial = 0; trial < 600; ++trial) {
    const ctnn::kernel_params p = random_window_layer(rng, trial % 2 == 0 ? ctnn::dtype::f32 : ctnn::dtype::i8, kind);
    CAPTURE(trial);
    channels_differ += p.in[3] != p.out[3] ? 1 : 0;
    const std::int64_t shift = memory::in_place_window_shift(p.in, p.out, p.win);
    REQUIRE(shift == memory::in_place_window_shift_per_pixel(p.in, p.out, p.win));
    const bool is_float = p.type == ctnn::dtype::f32;
    CHECK((is_float ? runs_in_place<float>(p, shift, rng) : runs_in_place<std::int8_t>(p, shift, rng)));
    // Lower is safe too (the planner rounds the shift down to the alignment).
    CHECK((is_float ? runs_in_place<float>(p, shift - 5, rng) : runs_in_place<std::int8_t>(p, shift - 5, rng)));
    const bool higher = is_float ? runs_in_place<float>(p, shift + p.out[3], rng) : runs_in_place<std::int8_t>(p, shift + p.out[3], rng);
    corrupted_one_pixel_higher += higher ? 0 : 1;
  }
  CHECK(corrupted_one_pixel_higher > 150);
  CHECK(channels_differ > 200);
}

TEST_CASE("in-place depthwise: the shift rule equals a brute force; the reference kernels run in place with it") {
  check_in_place_rule(ctnn::op_kind::depthwise_conv2d, 2024);
}

TEST_CASE("in-place conv (Cin != Cout, strided, padded, grouped): the shift rule equals a brute force; the reference kernels run in place with it") {
  check_in_place_rule(ctnn::op_kind::conv2d, 2025);
}

// A float DSL model: conv 1x1 -> depthwise 3x3 SAME -> depthwise 3x3 stride 2, pads 1 -> depthwise 5x5
// dilation 1, pads 2/1 (odd sizes) -> global average pool -> dense. Plain peak: 2 x 9 x 7 x 6 x 4 = 3024 B
// at the first depthwise; in place: its input plus (7 + 2) x 6 x 4 = 216 B (rounded to 224) below it.
using dw_c1w = ctnn_test::ramp<36, 81>;
using dw_c1b = ctnn_test::ramp<6, 82>;
using dw_aw = ctnn_test::ramp<54, 83>;
using dw_ab = ctnn_test::ramp<6, 84>;
using dw_bw = ctnn_test::ramp<54, 85>;
using dw_bb = ctnn_test::ramp<6, 86>;
using dw_cw = ctnn_test::ramp<150, 87>;
using dw_cb = ctnn_test::ramp<6, 88>;
using dw_fw = ctnn_test::ramp<18, 89>;
using dw_fb = ctnn_test::ramp<3, 90>;
using depthwise_model = dsl::sequential<dsl::input<ctnn::f32, 1, 9, 7, 6>, dsl::conv2d<dw_c1w::values, dw_c1b::values, dsl::kernel<1>>,
                                        dsl::depthwise_conv2d<dw_aw::values, dw_ab::values, dsl::kernel<3>, dsl::same, dsl::relu>,
                                        dsl::depthwise_conv2d<dw_bw::values, dw_bb::values, dsl::kernel<3>, dsl::stride<2>, dsl::pads<1, 1>>,
                                        dsl::depthwise_conv2d<dw_cw::values, dw_cb::values, dsl::kernel<5>, dsl::pads<2, 2, 1, 1>, dsl::relu6>,
                                        dsl::global_avg_pool, dsl::flatten, dsl::dense<dw_fw::values, dw_fb::values>>;
using dw_plain = ctnn::compile<depthwise_model>;
using dw_in_place = ctnn::compile<depthwise_model, ctnn::in_place_depthwise>;
using dw_in_place_reuse = ctnn::compile<depthwise_model, ctnn::memory_reuse, ctnn::io_in_arena, ctnn::in_place_depthwise>;
static_assert(dw_plain::liveness_lower_bound == 3024 && dw_plain::module.peak_node == 1);
static_assert(dw_in_place::liveness_lower_bound == 1512 + 216 &&
              dw_in_place::module.in_place_ops >= 1);
static_assert(dw_in_place::module.calls[1].params.in_place == 1 && dw_in_place::module.calls[0].params.in_place == 0);
static_assert(where(dw_in_place::module, "depthwise_conv2d_1").offset + 224 == where(dw_in_place::module, "conv2d_0").offset);
static_assert(dw_in_place::arena_bytes < dw_plain::arena_bytes && dw_in_place_reuse::total_ram_bytes < dw_plain::total_ram_bytes);
// Marked calls have kernels of their own; every kernel is used (pass_test_modules.hpp).
using ctnn_test::kernels_match_calls;
static_assert(kernels_match_calls(dw_in_place::module) && kernels_match_calls(dw_in_place_reuse::module));
// Off by default, and not part of memory_reuse.
static_assert(ctnn::compile<depthwise_model, ctnn::memory_reuse>::module.calls[1].params.in_place == 0);
// Where in place would not lower the peak (it is at a conv), nothing is marked: tiny_cnn has no
// depthwise; the residual e2e block below keeps its plan.
static_assert(ctnn::compile<tiny_cnn, ctnn::in_place_depthwise>::arena_bytes == tiny_net::arena_bytes);

TEST_CASE("in-place depthwise (float DSL model): outputs bit for bit") {
  const auto x = ctnn_test::random_floats(dw_plain::input<0>::elements, 37);
  float plain[3], in_place[3], reused[3];
  dw_plain::run(x.data(), plain);
  dw_in_place::run(x.data(), in_place);
  std::memcpy(dw_in_place_reuse::input<0>::data(), x.data(), dw_in_place_reuse::input<0>::bytes);
  dw_in_place_reuse::run();
  std::memcpy(reused, dw_in_place_reuse::output<0>::data(), sizeof reused);
  CHECK(same_bits(plain, in_place));
  CHECK(same_bits(plain, reused));
}

// An int8 model (TFLite semantics), built by hand: x [1,9,7,8] -> conv 1x1 -> depthwise 3x3 SAME relu
// -> depthwise 3x3 stride 2, pads 1 -> depthwise 3x3 VALID -> global average pool (the output).
constexpr std::array<std::int8_t, 128> int8_values(std::uint32_t seed) {
  std::array<std::int8_t, 128> v{};
  for (std::size_t i = 0; i < v.size(); ++i) {
    seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
    v[i] = static_cast<std::int8_t>(static_cast<std::int32_t>(seed % 201) - 100);
  }
  return v;
}
inline constexpr auto q_conv_w = int8_values(11), q_dw1_w = int8_values(12), q_dw2_w = int8_values(13), q_dw3_w = int8_values(14);
inline constexpr std::int32_t q_bias[8] = {120, -340, 560, -780, 900, -1100, 1300, -1500};
inline constexpr float q_scales[8] = {0.011f, 0.007f, 0.013f, 0.009f, 0.015f, 0.006f, 0.012f, 0.008f};
struct int8_depthwise_model {
  static constexpr auto build() {
    ctnn::module<24, 8> m{};
    m.model_name = ctnn::name{"int8_depthwise"};
    const auto quant = [](float scale, std::int32_t zero) {
      ctnn::quantization r{};
      r.scale = scale, r.zero_point = zero;
      return r;
    };
    const auto add = [&](ctnn::shape dims, ctnn::dtype type, ctnn::tensor_role role, ctnn::quantization q) {
      ctnn::tensor t{};
      t.dims = dims, t.type = type, t.role = role, t.quant = q;
      return m.add_tensor(t);
    };
    const auto weights = [&](ctnn::shape dims, const std::int8_t* data, std::int32_t axis) {
      ctnn::quantization q{};
      q.scale = q_scales[0], q.scales = q_scales, q.channel_count = 8, q.axis = axis;
      const std::int32_t w = add(dims, ctnn::dtype::i8, ctnn::tensor_role::constant, q);
      m.tensor_at(w).data.i8 = data;
      return w;
    };
    const auto bias = [&] {
      const std::int32_t b = add(ctnn::make_shape(8), ctnn::dtype::i32, ctnn::tensor_role::constant, {});
      m.tensor_at(b).data.i32 = q_bias;
      return b;
    };
    const auto node = [&](ctnn::op_kind kind, std::int32_t in, std::int32_t w, std::int32_t b, std::int32_t out, ctnn::window win,
                          ctnn::activation fused) {
      ctnn::node n{};
      n.kind = kind;
      n.inputs.fill(-1);
      n.inputs[0] = in, n.inputs[1] = w, n.inputs[2] = b;
      n.input_count = w >= 0 ? 3 : 1;
      n.output = out;
      n.attrs.win = win;
      n.attrs.units = 8;
      n.attrs.fused = fused;
      n.label = ctnn::numbered("layer", static_cast<std::size_t>(m.node_count));
      m.tensor_at(out).label = n.label;
      m.tensor_at(out).producer = m.node_count;
      m.nodes[static_cast<std::size_t>(m.node_count++)] = n;
    };
    const std::int32_t x = add(ctnn::make_shape(1, 9, 7, 8), ctnn::dtype::i8, ctnn::tensor_role::input, quant(0.02f, -3));
    m.tensor_at(x).io_index = 0;
    m.tensor_at(x).label = ctnn::name{"x"};
    const std::int32_t a = add({}, ctnn::dtype::i8, ctnn::tensor_role::intermediate, quant(0.05f, -10));
    const std::int32_t b = add({}, ctnn::dtype::i8, ctnn::tensor_role::intermediate, quant(0.04f, -128));
    const std::int32_t c = add({}, ctnn::dtype::i8, ctnn::tensor_role::intermediate, quant(0.06f, 7));
    const std::int32_t d = add({}, ctnn::dtype::i8, ctnn::tensor_role::intermediate, quant(0.08f, -2));
    const std::int32_t y = add({}, ctnn::dtype::i8, ctnn::tensor_role::output, quant(0.08f, -2));
    m.tensor_at(y).io_index = 0;
    node(ctnn::op_kind::conv2d, x, weights(ctnn::make_shape(8, 1, 1, 8), q_conv_w.data(), 0), bias(), a, ctnn::window{}, ctnn::activation::none);
    ctnn::window same3{};
    same3.kernel_h = same3.kernel_w = 3, same3.mode = ctnn::padding::same;
    node(ctnn::op_kind::depthwise_conv2d, a, weights(ctnn::make_shape(1, 3, 3, 8), q_dw1_w.data(), 3), bias(), b, same3, ctnn::activation::relu);
    node(ctnn::op_kind::depthwise_conv2d, b, weights(ctnn::make_shape(1, 3, 3, 8), q_dw2_w.data(), 3), bias(), c, window_of(3, 2, 1, 1, 1, 1, 1),
         ctnn::activation::none);
    ctnn::window valid3{};
    valid3.kernel_h = valid3.kernel_w = 3;
    node(ctnn::op_kind::depthwise_conv2d, c, weights(ctnn::make_shape(1, 3, 3, 8), q_dw3_w.data(), 3), bias(), d, valid3, ctnn::activation::none);
    node(ctnn::op_kind::global_avg_pool, d, -1, -1, y, ctnn::window{}, ctnn::activation::none);
    m.inputs[0] = x, m.input_count = 1;
    m.outputs[0] = y, m.output_count = 1;
    return m;
  }
};
using q_plain = ctnn::compile<int8_depthwise_model>;
using q_in_place = ctnn::compile<int8_depthwise_model, ctnn::in_place_depthwise>;
using q_in_place_io = ctnn::compile<int8_depthwise_model, ctnn::io_in_arena, ctnn::in_place_depthwise>;
// Plain: a (504 B) and b (504 B) at op 1. In place: b starts (7 + 2) x 8 = 72 B (rounded to 80) below a.
static_assert(!q_plain::module.error.failed() && q_plain::liveness_lower_bound == 1008 && q_plain::module.peak_node == 1);
static_assert(q_in_place::module.calls[1].params.in_place == 1 && q_in_place::liveness_lower_bound < 1008);
static_assert(where(q_in_place::module, "layer_1").offset + 80 == where(q_in_place::module, "layer_0").offset);
static_assert(kernels_match_calls(q_in_place::module) && kernels_match_calls(q_in_place_io::module));
// With the input in the arena, the peak is at the conv (x + a = 1008 B) as well: in place would not
// lower it, so it is not kept (the calls keep their vectorised kernels).
static_assert(q_in_place_io::module.calls[1].params.in_place == 0 && q_in_place_io::module.in_place_ops == 0 &&
              q_in_place_io::total_ram_bytes == ctnn::compile<int8_depthwise_model, ctnn::io_in_arena>::total_ram_bytes);

// With ctnn::in_place_windows both ops at the peak (op 0: x + a, op 1: a + b, 1008 B each) may go in
// place: the conv (1x1, 8 -> 8: its result at most one pixel, 8 B, below x; 16 with the alignment) and
// the depthwise (72 B below a; 80). The bound counts each pair's smallest footprint: 504 + 72 = 576 B at
// op 1. The placement realises both, and the stride-2 depthwise's result (160 B) goes over b's start
// too; the last depthwise's result fits beside its input: no reason to slow it down.
using q_windows_io = ctnn::compile<int8_depthwise_model, ctnn::io_in_arena, ctnn::in_place_windows>;
static_assert(q_windows_io::module.calls[0].params.in_place == 1 && q_windows_io::module.calls[1].params.in_place == 1 &&
              q_windows_io::module.calls[2].params.in_place == 1 && q_windows_io::module.calls[3].params.in_place == 0);
static_assert(q_windows_io::liveness_lower_bound == 576 && q_windows_io::module.peak_node == 1 && q_windows_io::total_ram_bytes == 624);
static_assert(where(q_windows_io::module, "layer_0").offset + 16 == where(q_windows_io::module, "x").offset &&
              where(q_windows_io::module, "layer_1").offset + 80 == where(q_windows_io::module, "layer_0").offset);
static_assert(kernels_match_calls(q_windows_io::module));
// ctnn::in_place_conv alone: the conv goes in place, the peak moves to op 1 (a + b = 1008 B): no lower.
static_assert(ctnn::compile<int8_depthwise_model, ctnn::io_in_arena, ctnn::in_place_conv>::module.in_place_ops == 0);

TEST_CASE("in-place depthwise (int8 model): outputs bit for bit") {
  std::mt19937 rng{41};
  std::int8_t x[9 * 7 * 8];
  for (auto& v : x) v = static_cast<std::int8_t>(std::uniform_int_distribution<int>{-128, 127}(rng));
  std::int8_t plain[8], in_place[8], in_arena[8], windows[8];
  q_plain::run(x, plain);
  q_in_place::run(x, in_place);
  std::memcpy(q_in_place_io::input<0>::data(), x, sizeof x);
  q_in_place_io::run();
  std::memcpy(in_arena, q_in_place_io::output<0>::data(), sizeof in_arena);
  std::memcpy(q_windows_io::input<0>::data(), x, sizeof x);
  q_windows_io::run();
  std::memcpy(windows, q_windows_io::output<0>::data(), sizeof windows);
  CHECK(std::memcmp(plain, in_place, sizeof plain) == 0);
  CHECK(std::memcmp(plain, in_arena, sizeof plain) == 0);
  CHECK(std::memcmp(plain, windows, sizeof plain) == 0);
}

// A float DSL model where the peak is at ordinary convolutions: x [1,8,8,4] -> conv 1x1 4 -> 12 ->
// conv 3x3 stride 2, pads 1, 12 -> 6, relu -> global average pool -> dense. With x in the arena the peak
// is op 0: x (1,024 B) + its result (3,072 B) = 4,096 B. In place, x sits at the result's tail:
// 63 x (4 - 12) - 12 = -516 elements = 2,064 B below it: the pair covers 3,088 B. Then the peak is op 1
// (the result, 3,072 B, + 384 B) and the strided conv goes in place as well.
using conv_model =
    dsl::sequential<dsl::input<ctnn::f32, 1, 8, 8, 4>,
                    dsl::conv2d<ctnn_test::ramp<48, 91>::values, ctnn_test::ramp<12, 92>::values, dsl::kernel<1>>,
                    dsl::conv2d<ctnn_test::ramp<648, 93>::values, ctnn_test::ramp<6, 94>::values, dsl::kernel<3>,
                                dsl::stride<2>, dsl::pads<1, 1>, dsl::relu>,
                    dsl::global_avg_pool, dsl::flatten,
                    dsl::dense<ctnn_test::ramp<18, 95>::values, ctnn_test::ramp<3, 96>::values>>;
using cv_plain = ctnn::compile<conv_model, ctnn::io_in_arena>;
using cv_windows = ctnn::compile<conv_model, ctnn::io_in_arena, ctnn::in_place_windows>;
using cv_conv_only = ctnn::compile<conv_model, ctnn::io_in_arena, ctnn::in_place_conv>;
using cv_depthwise_only = ctnn::compile<conv_model, ctnn::io_in_arena, ctnn::in_place_depthwise>;
static_assert(cv_plain::liveness_lower_bound == 4096 && cv_plain::module.peak_node == 0);
static_assert(where(cv_windows::module, "conv2d_0").offset + 2064 ==
              cv_windows::module.allocations[static_cast<std::size_t>(cv_windows::module.inputs[0])].offset);
static_assert(cv_windows::module.calls[0].params.in_place == 1 && cv_windows::module.calls[1].params.in_place == 1);
static_assert(cv_windows::liveness_lower_bound < 3088 + 384 && cv_windows::total_ram_bytes < cv_plain::total_ram_bytes);
static_assert(cv_conv_only::total_ram_bytes == cv_windows::total_ram_bytes && kernels_match_calls(cv_windows::module));
static_assert(cv_depthwise_only::total_ram_bytes == cv_plain::total_ram_bytes && cv_depthwise_only::module.in_place_ops == 0);

TEST_CASE("in-place conv (float DSL model, 1x1 Cin < Cout and strided 3x3): outputs bit for bit") {
  const auto x = ctnn_test::random_floats(cv_plain::input<0>::elements, 43);
  float plain[3], windows[3];
  std::memcpy(cv_plain::input<0>::data(), x.data(), cv_plain::input<0>::bytes);
  cv_plain::run();
  std::memcpy(plain, cv_plain::output<0>::data(), sizeof plain);
  std::memcpy(cv_windows::input<0>::data(), x.data(), cv_windows::input<0>::bytes);
  cv_windows::run();
  std::memcpy(windows, cv_windows::output<0>::data(), sizeof windows);
  CHECK(same_bits(plain, windows));
}

// ---------------------------------------------------------------------------------------------------
// Pools shared by two models (run one after the other): each shared pool is as large as the largest.
using shared = ctnn::shared_pools<fallback_net, three_plain>;  // pools: dtcm, sram / arena
static_assert(shared::pool_count == 3 && shared::bytes<"dtcm"> == 16 && shared::bytes<"sram"> == 720 && shared::bytes<"arena"> == 96);
static_assert(shared::total_bytes == 16 + 720 + 96);  // a name no model has is a compile error (compile_fail_shared_pool_name)
using shared_sram = ctnn::shared_pools<fallback_net, pinned_net>;  // both: dtcm and sram
static_assert(shared_sram::pool_count == 2 && shared_sram::bytes<"dtcm"> == 160 && shared_sram::bytes<"sram"> == 720);

TEST_CASE("models sharing pools give their own results") {
  const auto x = ctnn_test::random_floats(tiny_net::input<0>::elements, 31);
  float standard[3], a[3], b[3];
  tiny_net::run(x.data(), standard);
  fallback_net::run_with_pools(shared_sram::pools_for<fallback_net>(), x.data(), a);
  pinned_net::run_with_pools(shared_sram::pools_for<pinned_net>(), x.data(), b);
  CHECK(same_bits(standard, a));
  CHECK(same_bits(standard, b));
  CHECK(shared_sram::pools_for<fallback_net>()[1] == shared_sram::data<"sram">());
  CHECK(shared_sram::pools_for<pinned_net>()[0] == shared_sram::data<"dtcm">());
}

}  // namespace
