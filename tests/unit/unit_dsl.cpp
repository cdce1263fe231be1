// Unit tests of the C++ DSL (frontend/dsl.hpp, dsl_options.hpp): the module value a model type builds.
// What is known at compile time is checked with static_assert; the same constexpr build() is also
// called at run time (through a volatile function pointer, so it really runs) and compared field by
// field with the constexpr module.
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <type_traits>

#include <doctest/doctest.h>

#include <ctnn/frontend/dsl.hpp>
#include <ctnn/ir/module.hpp>

#include "test_modules.hpp"

namespace {

namespace dsl = ctnn::dsl;
using ctnn::op_kind;
using ctnn::tensor_role;
using ctnn_test::zeros;

// Calls Model::build() at run time: the pointer is read from a volatile object, so the compiler cannot
// fold the call into a constant.
template <class Model>
auto build_at_run_time() {
  auto (*volatile build)() = &Model::build;
  return build();
}

template <class Module>
constexpr int count_role(const Module& m, tensor_role role) {
  int n = 0;
  for (std::int32_t t = 0; t < m.tensor_count; ++t) n += m.tensor_at(t).role == role ? 1 : 0;
  return n;
}

// ---------------------------------------------------------------------------------------------------
// sequential
using ctnn_test::cnn_conv_b;
using ctnn_test::cnn_conv_w;
using ctnn_test::cnn_fc_b;
using ctnn_test::cnn_fc_w;
using tiny = ctnn_test::tiny_cnn;
constexpr auto tiny_m = tiny::build();

// 1 input + 5 layer outputs + 4 constants (conv w/b, dense w/b); 5 ops. Capacities are exact.
static_assert(decltype(tiny_m)::tensor_capacity == 10 && decltype(tiny_m)::node_capacity == 5);
static_assert(tiny_m.tensor_count == 10 && tiny_m.node_count == 5);
static_assert(tiny_m.input_count == 1 && tiny_m.output_count == 1);
static_assert(count_role(tiny_m, tensor_role::input) == 1 && count_role(tiny_m, tensor_role::constant) == 4 &&
              count_role(tiny_m, tensor_role::output) == 1 && count_role(tiny_m, tensor_role::intermediate) == 4);
static_assert(tiny_m.model_name.view() == "tiny");
static_assert(tiny_m.facts == 0 && !tiny_m.error.failed() && tiny_m.call_count == 0);

// The chain: each node reads the previous node's output; the first reads the model input.
static_assert([] {
  if (tiny_m.node_at(0).inputs[0] != tiny_m.inputs[0]) return false;
  for (std::int32_t i = 1; i < tiny_m.node_count; ++i)
    if (tiny_m.node_at(i).inputs[0] != tiny_m.node_at(i - 1).output) return false;
  return tiny_m.outputs[0] == tiny_m.node_at(4).output;
}());

// Weights point at the user's arrays (never copied) and are rank-1 until infer_types shapes them.
static_assert(tiny_m.tensor_at(tiny_m.node_at(0).inputs[1]).data.f32 == cnn_conv_w);
static_assert(tiny_m.tensor_at(tiny_m.node_at(0).inputs[2]).data.f32 == cnn_conv_b);
static_assert(tiny_m.tensor_at(tiny_m.node_at(3).inputs[1]).data.f32 == cnn_fc_w);
static_assert(tiny_m.tensor_at(tiny_m.node_at(3).inputs[2]).data.f32 == cnn_fc_b);
static_assert(tiny_m.tensor_at(tiny_m.node_at(0).inputs[1]).dims == ctnn::make_shape(108));
static_assert(tiny_m.tensor_at(tiny_m.node_at(3).inputs[2]).dims == ctnn::make_shape(3));

// Generated names: "<kind>_<position>" for ops and their outputs, "<op>_<k>" for the k-th constant.
static_assert(tiny_m.node_at(0).label.view() == "conv2d_0" && tiny_m.node_at(1).label.view() == "max_pool_1" &&
              tiny_m.node_at(2).label.view() == "reshape_2" && tiny_m.node_at(3).label.view() == "dense_3" &&
              tiny_m.node_at(4).label.view() == "softmax_4");
static_assert(tiny_m.input_tensor(0).label.view() == "input" && tiny_m.output_tensor(0).label.view() == "softmax_4");
static_assert(tiny_m.tensor_at(tiny_m.node_at(0).inputs[1]).label.view() == "conv2d_0_0" &&
              tiny_m.tensor_at(tiny_m.node_at(0).inputs[2]).label.view() == "conv2d_0_1");

// Attributes from options.
static_assert(tiny_m.node_at(0).kind == op_kind::conv2d && tiny_m.node_at(0).attrs.win.kernel_h == 3 &&
              tiny_m.node_at(0).attrs.win.kernel_w == 3 && tiny_m.node_at(0).attrs.win.mode == ctnn::padding::same &&
              tiny_m.node_at(0).attrs.fused == ctnn::activation::relu);
static_assert(tiny_m.node_at(1).attrs.win.kernel_h == 2 && tiny_m.node_at(1).attrs.win.stride_w == 2 &&
              tiny_m.node_at(1).attrs.win.mode == ctnn::padding::valid);
static_assert(tiny_m.node_at(2).attrs.target == ctnn::make_shape(0, -1));

TEST_CASE("sequential: roles, producers, io indices and operands") {
  const auto& m = tiny_m;
  for (std::int32_t t = 0; t < m.tensor_count; ++t) {
    const auto& info = m.tensor_at(t);
    CAPTURE(t);
    if (info.role == tensor_role::input || info.role == tensor_role::constant) {
      CHECK(info.producer == -1);
    } else {
      REQUIRE(info.producer >= 0);
      CHECK(m.node_at(info.producer).output == t);
    }
    if (info.role == tensor_role::constant) CHECK(info.data.f32 != nullptr);
    else CHECK(info.data.f32 == nullptr);
    if (info.role == tensor_role::input || info.role == tensor_role::output) CHECK(info.io_index == 0);
    else CHECK(info.io_index == -1);
  }
  // conv and dense take (data, weights, bias); the rest take their data only.
  const std::array<std::int32_t, 5> expected_inputs{3, 1, 1, 3, 1};
  for (std::int32_t n = 0; n < m.node_count; ++n) CHECK(m.node_at(n).input_count == expected_inputs[static_cast<std::size_t>(n)]);
  CHECK(m.tensor_at(m.node_at(0).inputs[1]).data.f32 == &cnn_conv_w[0]);
  CHECK(m.tensor_at(m.node_at(3).inputs[1]).data.f32 == &cnn_fc_w[0]);
}

// ---------------------------------------------------------------------------------------------------
// Options and layer specs.
using opt_conv = dsl::conv2d<zeros<1>, zeros<2>, dsl::kernel<3, 5>, dsl::stride<2, 1>, dsl::dilation<1, 2>,
                             dsl::pads<1, 2, 3, 4>, dsl::groups<2>, dsl::units<8>, dsl::tanh>;
constexpr auto opt_conv_spec = opt_conv::spec();
static_assert(opt_conv_spec.kind == op_kind::conv2d && opt_conv_spec.arity == 1 && opt_conv_spec.constant_count == 2);
static_assert(opt_conv_spec.attrs.win.kernel_h == 3 && opt_conv_spec.attrs.win.kernel_w == 5);
static_assert(opt_conv_spec.attrs.win.stride_h == 2 && opt_conv_spec.attrs.win.stride_w == 1);
static_assert(opt_conv_spec.attrs.win.dilation_h == 1 && opt_conv_spec.attrs.win.dilation_w == 2);
static_assert(opt_conv_spec.attrs.win.mode == ctnn::padding::explicit_pads);
static_assert(opt_conv_spec.attrs.win.pad_top == 1 && opt_conv_spec.attrs.win.pad_left == 2 &&
              opt_conv_spec.attrs.win.pad_bottom == 3 && opt_conv_spec.attrs.win.pad_right == 4);
static_assert(opt_conv_spec.attrs.groups == 2 && opt_conv_spec.attrs.units == 8 &&
              opt_conv_spec.attrs.fused == ctnn::activation::tanh);
static_assert(opt_conv_spec.constants[0].data == zeros<1> && opt_conv_spec.constants[0].elements == 1 &&
              opt_conv_spec.constants[1].data == zeros<2> && opt_conv_spec.constants[1].elements == 2);

// Defaults: kernel<H> is HxH, pads<T, L> mirrors to bottom/right, nothing else changes.
static_assert(dsl::attributes_from<dsl::kernel<4>, dsl::pads<1, 2>>().win ==
              ctnn::window{4, 4, 1, 1, 1, 1, ctnn::padding::explicit_pads, 1, 2, 1, 2});
static_assert(dsl::attributes_from<>() == ctnn::op_attributes{});
// The last option that writes a field wins.
static_assert(dsl::attributes_from<dsl::same, dsl::valid>().win.mode == ctnn::padding::valid);
static_assert(dsl::attributes_from<dsl::kernel<3>, dsl::kernel<5, 1>>().win.kernel_h == 5);
static_assert(dsl::attributes_from<dsl::relu, dsl::sigmoid>().fused == ctnn::activation::sigmoid);

static_assert(dsl::depthwise_conv2d<zeros<1>, zeros<1>, dsl::multiplier<3>, dsl::relu6>::spec().attrs.depth_multiplier == 3);
static_assert(dsl::depthwise_conv2d<zeros<1>, zeros<1>, dsl::multiplier<3>, dsl::relu6>::spec().attrs.fused ==
              ctnn::activation::relu6);
static_assert(dsl::dense<zeros<6>, zeros<2>, dsl::sigmoid>::spec().kind == op_kind::dense);
static_assert(dsl::avg_pool<dsl::kernel<2>, dsl::stride<2>, dsl::same>::spec().attrs.win.mode == ctnn::padding::same);
static_assert(dsl::max_pool<>::spec().kind == op_kind::max_pool && dsl::max_pool<>::spec().constant_count == 0);
static_assert(dsl::global_avg_pool::spec().kind == op_kind::global_avg_pool);
static_assert(dsl::relu::spec().kind == op_kind::relu && dsl::relu::spec().attrs.fused == ctnn::activation::none);
static_assert(dsl::relu6::spec().kind == op_kind::relu6 && dsl::sigmoid::spec().kind == op_kind::sigmoid &&
              dsl::tanh::spec().kind == op_kind::tanh && dsl::softmax::spec().kind == op_kind::softmax);
static_assert(dsl::add<dsl::relu6>::spec().kind == op_kind::add && dsl::add<dsl::relu6>::spec().arity == 2 &&
              dsl::add<dsl::relu6>::spec().attrs.fused == ctnn::activation::relu6);
static_assert(dsl::mul<>::spec().kind == op_kind::mul && dsl::mul<>::spec().attrs.fused == ctnn::activation::none);
static_assert(dsl::concat<>::spec().attrs.axis == -1 && dsl::concat<2>::spec().attrs.axis == 2 &&
              dsl::concat<2>::spec().arity == -1);
static_assert(std::is_same_v<dsl::flatten, dsl::reshape<0, -1>>);
static_assert(dsl::reshape<2, 0, -1>::spec().attrs.target == ctnn::make_shape(2, 0, -1));
static_assert([] {
  const auto pads = dsl::pad<1, 2, 3, 4>::spec().attrs.pad.before_after;
  for (std::size_t i = 4; i < pads.size(); ++i)
    if (pads[i] != 0) return false;
  return pads[0] == 1 && pads[1] == 2 && pads[2] == 3 && pads[3] == 4;
}());

// What counts as an option: a type with static apply(op_attributes&).
static_assert(dsl::layer_option<dsl::kernel<3>> && dsl::layer_option<dsl::same> && dsl::layer_option<dsl::relu>);
static_assert(!dsl::layer_option<int> && !dsl::layer_option<dsl::softmax> && !dsl::layer_option<dsl::global_avg_pool>);

TEST_CASE("options: run-time evaluation of attributes_from agrees with the constexpr one") {
  ctnn::op_attributes (*volatile attrs)() = &dsl::attributes_from<dsl::kernel<3, 5>, dsl::stride<2, 1>, dsl::dilation<1, 2>,
                                                         dsl::pads<1, 2, 3, 4>, dsl::groups<2>, dsl::units<8>, dsl::tanh>;
  CHECK(attrs() == opt_conv_spec.attrs);
}

// ---------------------------------------------------------------------------------------------------
// no_bias: one constant, and the bias slot kept as -1 so operands stay (data, weights, bias).
using no_bias_model = dsl::sequential<dsl::input<ctnn::f32, 1, 4, 4, 2>,
                                      dsl::conv2d<zeros<36>, dsl::no_bias, dsl::units<2>, dsl::kernel<3>, dsl::same>,
                                      dsl::flatten, dsl::dense<zeros<96>, dsl::no_bias, dsl::units<3>>>;
constexpr auto no_bias_m = no_bias_model::build();
static_assert(dsl::conv2d<zeros<36>, dsl::no_bias>::spec().constant_count == 1);
static_assert(dsl::conv2d<zeros<36>, dsl::no_bias>::spec().constants[1].data == nullptr);
// 1 input + 3 outputs + 2 weight arrays.
static_assert(decltype(no_bias_m)::tensor_capacity == 6 && no_bias_m.tensor_count == 6);
static_assert(no_bias_m.node_at(0).input_count == 3 && no_bias_m.node_at(0).inputs[2] == -1);
static_assert(no_bias_m.node_at(2).input_count == 3 && no_bias_m.node_at(2).inputs[2] == -1);
static_assert(no_bias_m.tensor_at(no_bias_m.node_at(0).inputs[1]).data.f32 == zeros<36>);
static_assert(no_bias_m.tensor_at(no_bias_m.node_at(2).inputs[1]).data.f32 == zeros<96>);
static_assert(no_bias_m.node_at(0).attrs.units == 2 && no_bias_m.node_at(2).attrs.units == 3);

// ---------------------------------------------------------------------------------------------------
// named<>: the wrapped model's module, renamed.
using unnamed = dsl::sequential<dsl::input<ctnn::f32, 1, 4, 4, 2>,
                                dsl::conv2d<zeros<36>, dsl::no_bias, dsl::units<2>, dsl::kernel<3>, dsl::same>,
                                dsl::flatten, dsl::dense<zeros<96>, dsl::no_bias, dsl::units<3>>>;
using renamed = dsl::named<"my_model", unnamed>;
static_assert(unnamed::build().model_name.view() == "sequential");
static_assert(renamed::build().model_name.view() == "my_model");
static_assert(dsl::named<"a_name_longer_than_thirty_one_characters", unnamed>::build().model_name.view() ==
              "a_name_longer_...one_characters");  // over name::capacity (31): head and tail

TEST_CASE("named<>: same module as the wrapped model except for the name") {
  auto m = renamed::build();
  CHECK(m.model_name.view() == "my_model");
  m.model_name = ctnn::name{"sequential"};
  CHECK(ctnn_test::same_module(m, unnamed::build()));
}

// ---------------------------------------------------------------------------------------------------
// graph
using ctnn_test::small_graph;
constexpr auto graph_m = small_graph::build();
static_assert(small_graph::input_nodes == 1 && small_graph::layer_nodes == 5);
// 6 nodes' outputs + conv weights and bias, + room for one output copy per output; 5 ops (+1 copy).
static_assert(decltype(graph_m)::tensor_capacity == 9 && decltype(graph_m)::node_capacity == 6);
static_assert(graph_m.tensor_count == 8 && graph_m.node_count == 5 && graph_m.model_name.view() == "graph");
static_assert(!graph_m.error.failed());

template <class Module>
constexpr std::int32_t output_of(const Module& m, std::string_view label) {
  for (std::int32_t n = 0; n < m.node_count; ++n)
    if (m.node_at(n).label.view() == label) return m.node_at(n).output;
  return -2;
}

TEST_CASE("graph: names resolve to the producing nodes' outputs") {
  const auto& m = graph_m;
  const std::int32_t x = m.inputs[0];
  CHECK(m.tensor_at(x).label.view() == "x");
  CHECK(m.tensor_at(x).role == tensor_role::input);
  const std::int32_t a = output_of(m, "a"), b = output_of(m, "b"), c = output_of(m, "c"), d = output_of(m, "d");
  CHECK(m.node_at(0).inputs[0] == x);
  CHECK(m.tensor_at(m.node_at(0).inputs[1]).data.f32 == ctnn_test::graph_conv_w);
  CHECK(m.tensor_at(m.node_at(0).inputs[2]).data.f32 == ctnn_test::graph_conv_b);
  CHECK(m.node_at(1).inputs[0] == a);
  CHECK((m.node_at(2).input_count == 2 && m.node_at(2).inputs[0] == a && m.node_at(2).inputs[1] == b));
  CHECK((m.node_at(3).input_count == 2 && m.node_at(3).inputs[0] == c && m.node_at(3).inputs[1] == b));
  CHECK(m.node_at(4).inputs[0] == d);
  CHECK(m.outputs[0] == output_of(m, "out"));
  CHECK(m.output_tensor(0).role == tensor_role::output);
  CHECK(m.output_tensor(0).label.view() == "out");
  for (const std::int32_t t : {a, b, c, d}) CHECK(m.tensor_at(t).role == tensor_role::intermediate);
  CHECK(m.node_at(3).kind == op_kind::concat);
  CHECK(m.node_at(3).attrs.axis == -1);
}

using ctnn_test::two_io_graph;
constexpr auto two_io_m = two_io_graph::build();
static_assert(two_io_m.input_count == 2 && two_io_m.output_count == 2);

TEST_CASE("graph: inputs and outputs get their positions (outputs in outputs<> order)") {
  const auto& m = two_io_m;
  CHECK(m.input_tensor(0).label.view() == "x");
  CHECK(m.input_tensor(1).label.view() == "y");
  CHECK(m.input_tensor(0).io_index == 0);
  CHECK(m.input_tensor(1).io_index == 1);
  // outputs<"p", "t">: p first although it is the last node.
  CHECK(m.outputs[0] == output_of(m, "p"));
  CHECK(m.outputs[1] == output_of(m, "t"));
  CHECK(m.output_tensor(0).io_index == 0);
  CHECK(m.output_tensor(1).io_index == 1);
  CHECK(m.tensor_at(output_of(m, "s")).role == tensor_role::intermediate);
  // p = s * y reads the second model input.
  CHECK(m.node_at(2).inputs[1] == m.inputs[1]);
}

// A name used twice refers to the latest earlier definition (search backwards), for inputs and outputs.
using shadowing = dsl::graph<dsl::outputs<"h">, dsl::node<"x", dsl::input<ctnn::f32, 1, 3>>,
                             dsl::node<"h", dsl::relu, "x">, dsl::node<"h", dsl::tanh, "h">,
                             dsl::node<"o", dsl::sigmoid, "h">>;
constexpr auto shadow_m = shadowing::build();
static_assert(shadow_m.node_at(1).inputs[0] == shadow_m.node_at(0).output);  // second h reads the first
static_assert(shadow_m.node_at(2).inputs[0] == shadow_m.node_at(1).output);  // o reads the second h
static_assert(shadow_m.outputs[0] == shadow_m.node_at(1).output);

// ---------------------------------------------------------------------------------------------------
// Graph diagnostics.
using unknown_input = dsl::graph<dsl::outputs<"y">, dsl::node<"x", dsl::input<ctnn::f32, 1, 4>>,
                                 dsl::node<"z", dsl::relu, "x">, dsl::node<"y", dsl::add<>, "z", "w">>;
constexpr auto unknown_input_m = unknown_input::build();
// "w" is slot 1 of the second layer node (node index 1), the third graph entry (index 2).
static_assert(unknown_input_m.error.code == ctnn::error_code::unknown_input_name);
static_assert(unknown_input_m.error.node == 1 && unknown_input_m.error.kind == op_kind::add);
static_assert(unknown_input_m.error.input_slot == 1 && unknown_input_m.error.position == 2);

// Only earlier nodes are visible: a forward reference is unknown.
using forward_reference = dsl::graph<dsl::outputs<"b">, dsl::node<"x", dsl::input<ctnn::f32, 1, 4>>,
                                     dsl::node<"a", dsl::relu, "b">, dsl::node<"b", dsl::relu, "x">>;
constexpr auto forward_m = forward_reference::build();
static_assert(forward_m.error.code == ctnn::error_code::unknown_input_name && forward_m.error.node == 0 &&
              forward_m.error.input_slot == 0 && forward_m.error.position == 1);

using unknown_output = dsl::graph<dsl::outputs<"y", "nope">, dsl::node<"x", dsl::input<ctnn::f32, 1, 4>>,
                                  dsl::node<"y", dsl::relu, "x">>;
constexpr auto unknown_output_m = unknown_output::build();
static_assert(unknown_output_m.error.code == ctnn::error_code::unknown_input_name && unknown_output_m.error.node == -1 &&
              unknown_output_m.error.input_slot == -1 && unknown_output_m.error.position == -1);

using add_one_input = dsl::graph<dsl::outputs<"y">, dsl::node<"x", dsl::input<ctnn::f32, 1, 4>>,
                                 dsl::node<"r", dsl::relu, "x">, dsl::node<"y", dsl::add<>, "r">>;
constexpr auto add_one_m = add_one_input::build();
static_assert(add_one_m.error.code == ctnn::error_code::input_count_mismatch && add_one_m.error.node == 1 &&
              add_one_m.error.kind == op_kind::add && add_one_m.error.count_expected == 2 && add_one_m.error.count_actual == 1);

using relu_two_inputs = dsl::graph<dsl::outputs<"y">, dsl::node<"x", dsl::input<ctnn::f32, 1, 4>>,
                                   dsl::node<"y", dsl::relu, "x", "x">>;
constexpr auto relu_two_m = relu_two_inputs::build();
static_assert(relu_two_m.error.code == ctnn::error_code::input_count_mismatch && relu_two_m.error.node == 0 &&
              relu_two_m.error.count_expected == 1 && relu_two_m.error.count_actual == 2);

// concat takes any number of inputs.
using concat_three = dsl::graph<dsl::outputs<"k">, dsl::node<"x", dsl::input<ctnn::f32, 1, 4>>,
                                dsl::node<"k", dsl::concat<>, "x", "x", "x">>;
static_assert(!concat_three::build().error.failed() && concat_three::build().node_at(0).input_count == 3);

// too_many_inputs cannot come from dsl::graph (node<> allows at most max_node_inputs names, and only
// concat takes more than 2), so it is checked on the builder's add_layer directly: a conv (2
// constants) given 7 data inputs needs 9 slots.
constexpr auto too_many_m = [] {
  ctnn::module<16, 2> m{};
  const std::int32_t x = dsl::detail::add_input(m, ctnn::f32, ctnn::make_shape(1, 2, 2, 1), ctnn::name{"x"});
  const std::array<std::int32_t, 7> from{x, x, x, x, x, x, x};
  dsl::detail::add_layer(m, dsl::conv2d<zeros<1>, zeros<1>>::spec(), ctnn::name{"c"}, from, 7);
  return m;
}();
static_assert(too_many_m.error.code == ctnn::error_code::too_many_inputs && too_many_m.error.node == 0 &&
              too_many_m.error.count_actual == 7 && too_many_m.error.count_expected == static_cast<std::int64_t>(ctnn::max_node_inputs));
// The builder keeps going with one data input, so the node stays well formed: data, weights, bias.
static_assert(too_many_m.node_at(0).input_count == 3 && too_many_m.node_at(0).inputs[0] == 0);

TEST_CASE("graph diagnostics: the first failure is kept") {
  // unknown_input fails at node 1 and returns; nothing after it is built.
  CHECK(unknown_input_m.node_count == 1);
  CHECK(unknown_input_m.output_count == 0);
  // input_count_mismatch does not stop the build: the node is still added.
  CHECK(add_one_m.node_count == 2);
  CHECK(add_one_m.output_count == 1);
}

// ---------------------------------------------------------------------------------------------------
// The same constexpr functions at run time.
TEST_CASE("build() at run time equals the constexpr module") {
  CHECK(ctnn_test::same_module(build_at_run_time<tiny>(), tiny_m));
  CHECK(ctnn_test::same_module(build_at_run_time<small_graph>(), graph_m));
  CHECK(ctnn_test::same_module(build_at_run_time<two_io_graph>(), two_io_m));
  CHECK(ctnn_test::same_module(build_at_run_time<shadowing>(), shadow_m));
  CHECK(ctnn_test::same_module(build_at_run_time<no_bias_model>(), no_bias_m));
  CHECK(ctnn_test::same_module(build_at_run_time<unknown_input>(), unknown_input_m));
  CHECK(ctnn_test::same_module(build_at_run_time<add_one_input>(), add_one_m));
  // A mismatch is seen: the comparison is not vacuous.
  auto other = build_at_run_time<tiny>();
  other.node_at(1).attrs.win.stride_h = 3;
  CHECK_FALSE(ctnn_test::same_module(other, tiny_m));
}

// ---------------------------------------------------------------------------------------------------
// names
static_assert(ctnn::numbered("conv2d", 3).view() == "conv2d_3");
static_assert(ctnn::numbered("x", 0).view() == "x_0");
static_assert(ctnn::numbered("dense", 1207).view() == "dense_1207");
static_assert(ctnn::numbered("", 42).view() == "_42");
static_assert(ctnn::name{"abc"}.size() == 3 && ctnn::name{}.empty() && !ctnn::name{"a"}.empty());

TEST_CASE("numbered() at run time") {
  std::size_t (*volatile number)() = [] { return std::size_t{905}; };
  CHECK(ctnn::numbered("pool", number()).view() == "pool_905");
  // A base that fills the capacity leaves no room for the suffix; the name stays 31 characters.
  CHECK(ctnn::numbered("0123456789012345678901234567890123", number()).size() == ctnn::name::capacity);
}

// ---------------------------------------------------------------------------------------------------
// A graph output that names an input node, and an output named twice: each gets a copy op, so every
// output buffer is written by exactly one op.
using output_is_input = dsl::graph<dsl::outputs<"x", "y">, dsl::node<"x", dsl::input<ctnn::f32, 1, 2>>,
                                   dsl::node<"y", dsl::relu, "x">>;

TEST_CASE("graph: an output naming an input node leaves the input an input") {
  // The input stays model input 0; output 0 is a copy of it.
  const auto m = output_is_input::build();
  CHECK(m.input_tensor(0).role == tensor_role::input);
  CHECK(m.input_tensor(0).io_index == 0);
  CHECK(m.node_at(0).inputs[0] == m.inputs[0]);
}

using output_twice = dsl::graph<dsl::outputs<"y", "y">, dsl::node<"x", dsl::input<ctnn::f32, 1, 2>>,
                                dsl::node<"y", dsl::relu, "x">>;

TEST_CASE("graph: every output's io_index is its position in outputs<>") {
  const auto m = output_twice::build();
  REQUIRE(m.output_count == 2);
  for (std::int32_t o = 0; o < m.output_count; ++o) {
    CAPTURE(o);
    CHECK(m.output_tensor(o).io_index == o);
  }
}

}  // namespace
