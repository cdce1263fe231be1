// Plans of DSL models with plan_memory's options, checked at compile time where the numbers are worked
// out here, and through the executor at run time: pools with fallback, pins (tensor, op, kind), budgets
// that fit (a model asserting its own figures) and diagnostics that do not, in-place ops, concat in
// place, the memory-aware op order, inputs/outputs in the arena, planned scratch (a fake workspace set
// by a pass), several pools in the executor (static and caller memory), pools shared by two models,
// options in any order, and a user-supplied placement algorithm.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/compile.hpp>
#include <ctnn/memory/algorithms.hpp>
#include <ctnn/memory/shared_pools.hpp>

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
static_assert(over.error.value_a == 720 && over.error.value_b == 512 && over.error.node == 1 &&
              over.error.kind == ctnn::op_kind::max_pool && over.error.expected.dims[0] == 0);
// Pinned to a full pool: nothing may leave "dtcm" (48 B): the conv result alone needs 576.
constexpr auto pinned_over = pass::plan_memory<memory::default_planner, ctnn::pools<ctnn::pool<"dtcm", 48>, ctnn::pool<"sram">>,
                                               ctnn::pin<"conv2d_0", "dtcm">>::run(lowered<tiny_cnn>);
static_assert(pinned_over.error.code == ctnn::code_of(ctnn::memory_error::pool_budget_exceeded));
static_assert(pinned_over.error.value_a == 576 && pinned_over.error.value_b == 48 && pinned_over.error.expected.dims[0] == 0 &&
              pinned_over.error.node == 0 && pinned_over.error.kind == ctnn::op_kind::conv2d);
constexpr auto no_tensor = pass::plan_memory<memory::default_planner, ctnn::pin<"max_pool_1", "arena">, ctnn::pin<"nope", "arena">>::run(
    lowered<tiny_cnn>);
static_assert(no_tensor.error.code == ctnn::code_of(ctnn::memory_error::pin_unknown_tensor) && no_tensor.error.value_a == 1);
constexpr auto no_pool = pass::plan_memory<memory::default_planner, ctnn::pin<"max_pool_1", "tcm">>::run(lowered<tiny_cnn>);
static_assert(no_pool.error.code == ctnn::code_of(ctnn::memory_error::pin_unknown_pool) && no_pool.error.value_a == 0);
// A read-only pool counts the constants the kernels read: 108 + 4 + 108 + 3 floats.
using flash_net = ctnn::compile<tiny_cnn, ctnn::pools<ctnn::pool<"sram">, ctnn::read_only_pool<"flash", 4096>>>;
static_assert(flash_net::pool<1>::read_only && flash_net::pool<1>::bytes == 0 && flash_net::module.pool_usage[1].bytes == 223 * 4);
constexpr auto flash_over = pass::plan_memory<memory::default_planner, ctnn::pools<ctnn::pool<"sram">, ctnn::read_only_pool<"flash", 800>>>::run(
    lowered<tiny_cnn>);
static_assert(flash_over.error.code == ctnn::code_of(ctnn::memory_error::pool_budget_exceeded) && flash_over.error.value_a == 892 &&
              flash_over.error.value_b == 800 && flash_over.error.expected.dims[0] == 1 && flash_over.error.node == -1);

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
// A channel concat of NHWC maps is not contiguous: it stays a copy.
using channel_concat = dsl::graph<dsl::outputs<"out">,                                       //
                                  dsl::node<"x", dsl::input<ctnn::f32, 1, 2, 2, 2>>,         //
                                  dsl::node<"a", dsl::relu, "x">,                            //
                                  dsl::node<"b", dsl::sigmoid, "x">,                         //
                                  dsl::node<"c", dsl::concat<>, "a", "b">,                   //
                                  dsl::node<"out", dsl::tanh, "c">>;
static_assert(ctnn::compile<channel_concat, ctnn::concat_in_place>::module.concats_in_place == 0);

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
using wide_dense = dsl::dense<zeros<256>, zeros<64>>;
using narrow_dense = dsl::dense<zeros<128>, zeros<2>>;
using branches = dsl::graph<dsl::outputs<"out">,                              //
                            dsl::node<"x", dsl::input<ctnn::f32, 1, 4>>,      //
                            dsl::node<"a", wide_dense, "x">,                  //
                            dsl::node<"b", wide_dense, "x">,                  //
                            dsl::node<"a2", narrow_dense, "a">,               //
                            dsl::node<"b2", narrow_dense, "b">,               //
                            dsl::node<"out", dsl::add<>, "a2", "b2">>;
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
// Pools shared by two models (run one after the other): each shared pool is as large as the largest.
using shared = ctnn::shared_pools<fallback_net, three_plain>;  // pools: dtcm, sram / arena
static_assert(shared::pool_count == 3 && shared::bytes<"dtcm"> == 16 && shared::bytes<"sram"> == 720 && shared::bytes<"arena"> == 96);
static_assert(shared::bytes<"nothing"> == 0 && shared::total_bytes == 16 + 720 + 96);
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
