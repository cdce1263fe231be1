// Unit tests of pass::alias_reshapes: a reshape or flatten becomes a view of its input (tensor::alias_of;
// the op and its buffer disappear), which shrinks the arena when the copy was at the peak; a view of a
// model input reads the caller's buffer; a reshape that writes a model output stays a copy; the planner
// keeps a view's root alive as long as the view is read; executor results do not change.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/compile.hpp>
#include <ctnn/frontend/dsl.hpp>

#include "pass_test_modules.hpp"
#include "test_modules.hpp"

namespace {

namespace dsl = ctnn::dsl;
namespace pass = ctnn::pass;
using ctnn::op_kind;
using ctnn::storage;
using ctnn_test::ramp;

// Stages of the default pipeline: 4 = before alias_reshapes, 5 = after it.
template <class Model>
constexpr auto& before = ctnn::stage_v<Model, ctnn::default_pipeline, 4>;
template <class Model>
constexpr auto& after = ctnn::stage_v<Model, ctnn::default_pipeline, 5>;
static_assert(std::is_same_v<ctnn::default_pipeline::pass<4>, pass::alias_reshapes>);
static_assert(pass::alias_reshapes::requires_facts == ctnn::fact::shapes_inferred);

using no_alias_pipeline = ctnn_test::without<pass::alias_reshapes>;
template <class Model>
constexpr auto& with_views = ctnn::compiled_v<Model>;
template <class Model>
constexpr auto& with_copies = ctnn::compiled_v<Model, no_alias_pipeline>;

using fc64 = ramp<128, 41>;  // dense 64 -> 2
using fc24 = ramp<48, 43>;   // dense 24 -> 2
using b2 = ramp<2, 42>;

// ---------------------------------------------------------------------------------------------------
// relu [1,4,4,4] (256 B) -> flatten [1,64] -> dense -> output [1,2].
// Tensors: input 0, relu out 1, flatten out 2, w 3, b 4, dense out 5.
using flatten_at_peak = dsl::sequential<dsl::input<ctnn::f32, 1, 4, 4, 4>, dsl::relu, dsl::flatten, dsl::dense<fc64::values, b2::values>>;
static_assert(before<flatten_at_peak>.node_count == 3 && before<flatten_at_peak>.node_at(1).kind == op_kind::reshape);
static_assert(after<flatten_at_peak>.node_count == 2 && ctnn_test::count_kind(after<flatten_at_peak>, op_kind::reshape) == 0);
static_assert(after<flatten_at_peak>.tensor_at(2).alias_of == 1 && after<flatten_at_peak>.tensor_at(2).producer == -1 &&
              after<flatten_at_peak>.tensor_at(2).dims == ctnn::make_shape(1, 64));
static_assert(after<flatten_at_peak>.storage_root(2) == 1 && after<flatten_at_peak>.storage_root(1) == 1);
static_assert(after<flatten_at_peak>.node_at(1).kind == op_kind::dense && after<flatten_at_peak>.node_at(1).inputs[0] == 2);
// No reshape call; the dense reads the relu's buffer.
static_assert(with_views<flatten_at_peak>.call_count == 2 && ctnn_test::count_calls(with_views<flatten_at_peak>, op_kind::reshape) == 0);
static_assert(with_copies<flatten_at_peak>.call_count == 3 && ctnn_test::count_calls(with_copies<flatten_at_peak>, op_kind::reshape) == 1);
static_assert(with_views<flatten_at_peak>.calls[1].operand_at[0].where == storage::arena &&
              with_views<flatten_at_peak>.calls[1].operand_at[0].offset == with_views<flatten_at_peak>.calls[0].result_at.offset);
// Arena: with the copy, relu out (ops 0..1) and flatten out (ops 1..2) are both live at op 1: 2 x 256 =
// 512 B. With the view, one 256 B buffer (ops 0..1).
static_assert(with_copies<flatten_at_peak>.liveness_lower_bound == 512 && with_copies<flatten_at_peak>.arena_bytes() == 512 &&
              with_copies<flatten_at_peak>.peak_node == 1);
static_assert(with_views<flatten_at_peak>.liveness_lower_bound == 256 && with_views<flatten_at_peak>.arena_bytes() == 256);
static_assert(ctnn::compile<flatten_at_peak>::arena_bytes == 256);

TEST_CASE("alias_reshapes: the stage equals the pass run on the previous stage; a view has no buffer") {
  const auto direct = pass::alias_reshapes::run(before<flatten_at_peak>);
  CHECK(ctnn_test::same_module(direct, after<flatten_at_peak>));
  CHECK(direct.tensor_at(2).alias_of == 1);
  // The planner's buffers: only the relu's result, kept alive until the dense (op 1) reads its view.
  std::int32_t count = 0;
  const auto buffers = pass::arena_buffers(with_views<flatten_at_peak>, count);
  REQUIRE(count == 1);
  CHECK(buffers[0].tensor == 1);
  CHECK(buffers[0].bytes == 256);
  CHECK(buffers[0].first_use == 0);
  CHECK(buffers[0].last_use == 1);
  CHECK(with_views<flatten_at_peak>.allocations[2].offset == -1);  // the view is not placed
}

// ---------------------------------------------------------------------------------------------------
// A reshape of the model input: the view reads the caller's buffer; no arena at all.
// Tensors: input 0, reshape out 1, w 2, b 3, dense out 4.
using reshape_input = dsl::sequential<dsl::input<ctnn::f32, 1, 2, 3, 4>, dsl::reshape<1, 24>, dsl::dense<fc24::values, b2::values>>;
static_assert(after<reshape_input>.node_count == 1 && after<reshape_input>.tensor_at(1).alias_of == 0);
static_assert(with_views<reshape_input>.call_count == 1 && with_views<reshape_input>.calls[0].operand_at[0].where == storage::model_input &&
              with_views<reshape_input>.calls[0].operand_at[0].index == 0);
static_assert(with_views<reshape_input>.arena_bytes() == 0 && with_copies<reshape_input>.arena_bytes() == 96);  // 24 floats

// A reshape that writes a model output stays a copy. Tensors: input 0, relu out 1, reshape out 2 (output).
using reshape_output = dsl::sequential<dsl::input<ctnn::f32, 1, 2, 3, 4>, dsl::relu, dsl::reshape<1, -1>>;
static_assert(after<reshape_output>.node_count == 2 && after<reshape_output>.node_at(1).kind == op_kind::reshape &&
              after<reshape_output>.tensor_at(2).alias_of == -1);
static_assert(with_views<reshape_output>.call_count == 2 && with_views<reshape_output>.calls[1].params.kind == op_kind::reshape &&
              with_views<reshape_output>.calls[1].result_at.where == storage::model_output);
static_assert(with_views<reshape_output>.arena_bytes() == 96);

// A chain of views: relu -> reshape [1,16,4] -> flatten. Tensors: input 0, relu 1, r1 2, r2 3, w 4, b 5, out 6.
using view_of_view = dsl::sequential<dsl::input<ctnn::f32, 1, 4, 4, 4>, dsl::relu, dsl::reshape<1, 16, 4>, dsl::flatten,
                                     dsl::dense<fc64::values, b2::values>>;
static_assert(after<view_of_view>.node_count == 2 && after<view_of_view>.tensor_at(2).alias_of == 1 &&
              after<view_of_view>.tensor_at(3).alias_of == 2 && after<view_of_view>.storage_root(3) == 1);
static_assert(with_views<view_of_view>.calls[1].operand_at[0].where == storage::arena &&
              with_views<view_of_view>.calls[1].operand_at[0].offset == with_views<view_of_view>.calls[0].result_at.offset);
static_assert(with_views<view_of_view>.arena_bytes() == 256 && with_copies<view_of_view>.arena_bytes() == 512);

// A view read late keeps its root alive: a = relu(x) is read (through v) only by the last op, while b and
// c are made. Ops after aliasing: a 0, b 1, c 2, y 3; buffers a (ops 0..3), b (1..2), c (2..3), 256 B
// each: all three live at op 2, 768 B. (Were a freed after op 0, the bound would be 512.)
using late_view = dsl::graph<dsl::outputs<"y">, dsl::node<"x", dsl::input<ctnn::f32, 1, 4, 4, 4>>,
                             dsl::node<"a", dsl::relu, "x">, dsl::node<"v", dsl::flatten, "a">,
                             dsl::node<"b", dsl::sigmoid, "x">, dsl::node<"c", dsl::tanh, "b">,
                             dsl::node<"d", dsl::flatten, "c">, dsl::node<"y", dsl::add<>, "v", "d">>;
static_assert(after<late_view>.node_count == 4 && with_views<late_view>.call_count == 4 && with_copies<late_view>.call_count == 6);
static_assert(with_views<late_view>.liveness_lower_bound == 768 && with_views<late_view>.peak_node == 2 &&
              with_views<late_view>.arena_bytes() == 768);

// ---------------------------------------------------------------------------------------------------
// Executor results do not change (same kernels, so identical).
template <class Model>
std::size_t differing_outputs(std::uint32_t seed) {
  using views = ctnn::compile<Model>;
  using copies = ctnn::compile<Model, no_alias_pipeline>;
  static_assert(views::call_count < copies::call_count || ctnn_test::count_calls(views::module, op_kind::reshape) > 0);
  const auto x = ctnn_test::random_floats(views::template input<0>::elements, seed);
  std::vector<float> a(views::template output<0>::elements), b(a.size());
  views::run(x.data(), a.data());
  copies::run(x.data(), b.data());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < a.size(); ++i) differing += a[i] == b[i] ? 0 : 1;
  return differing;
}

TEST_CASE("alias_reshapes: executors with views and with copies agree") {
  for (std::uint32_t seed : {1u, 2u, 3u}) {
    CAPTURE(seed);
    CHECK(differing_outputs<flatten_at_peak>(seed) == 0);
    CHECK(differing_outputs<reshape_input>(seed) == 0);
    CHECK(differing_outputs<reshape_output>(seed) == 0);
    CHECK(differing_outputs<view_of_view>(seed) == 0);
    CHECK(differing_outputs<late_view>(seed) == 0);
  }
}

TEST_CASE("alias_reshapes: a late view reads its root's values (independent computation)") {
  const auto x = ctnn_test::random_floats(64, 9);
  float y[64] = {};
  ctnn::compile<late_view>::run(x.data(), y);
  for (std::size_t i = 0; i < 64; ++i) {
    const double relu = x[i] > 0.0f ? x[i] : 0.0;
    const double expected = relu + std::tanh(1.0 / (1.0 + std::exp(-static_cast<double>(x[i]))));
    CHECK(ctnn_test::close(y[i], expected, 1e-6));
  }
}

}  // namespace
