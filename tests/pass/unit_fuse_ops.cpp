// Unit tests of pass::fuse_ops: activations fused into the conv/depthwise/dense/add/mul before them, a
// constant per-channel add made the bias of a conv without one, and zero H/W pads folded into the window
// of the conv (always) or max pool (inputs provably >= 0, every window keeping an input element) after
// them. Each rewrite is checked on the module, and the rewrites that must not change a single bit are
// checked on executors: fused vs unfused outputs compared with ==.
#include <bit>
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
using ctnn::activation;
using ctnn::op_kind;
using ctnn::padding;
using ctnn_test::ramp;

// Stages of the default pipeline: 1 = after infer_types, 4 = after the graph passes up to fuse_ops.
template <class Model>
constexpr auto& typed = ctnn::stage_v<Model, ctnn::default_pipeline, 1>;
template <class Model>
constexpr auto& fused = ctnn::stage_v<Model, ctnn::default_pipeline, 4>;
static_assert(std::is_same_v<ctnn::default_pipeline::pass<3>, pass::fuse_ops>);
static_assert(pass::fuse_ops::requires_facts == ctnn::fact::shapes_inferred);

using unfused_pipeline = ctnn_test::without<pass::fuse_ops>;

using w1x1 = ramp<6, 31>;   // conv 1x1, 2 -> 3 channels, OHWI
using b3 = ramp<3, 32>;
using dw1x1 = ramp<2, 33>;  // depthwise 1x1 on 2 channels, 1HWC
using b2 = ramp<2, 34>;
using fc = ramp<12, 35>;    // dense 4 -> 3
using w3x3 = ramp<54, 36>;  // conv 3x3, 2 -> 3 channels
using dw3x3 = ramp<18, 37>; // depthwise 3x3 on 2 channels

// ---------------------------------------------------------------------------------------------------
// Activations: every producer kind x every activation kind.
template <class Producer, class Act>
using conv_like_then = dsl::sequential<dsl::input<ctnn::f32, 1, 3, 3, 2>, Producer, Act>;
template <class Act>
using conv_then = conv_like_then<dsl::conv2d<w1x1::values, b3::values, dsl::kernel<1>>, Act>;
template <class Act>
using depthwise_then = conv_like_then<dsl::depthwise_conv2d<dw1x1::values, b2::values, dsl::kernel<1>>, Act>;
template <class Act>
using dense_then = dsl::sequential<dsl::input<ctnn::f32, 1, 4>, dsl::dense<fc::values, b3::values>, Act>;
template <class Join, class Act>
using join_then = dsl::graph<dsl::outputs<"z">, dsl::node<"x", dsl::input<ctnn::f32, 1, 2, 2, 2>>,
                             dsl::node<"y", dsl::input<ctnn::f32, 1, 2, 2, 2>>, dsl::node<"a", Join, "x", "y">,
                             dsl::node<"z", Act, "a">>;
template <class Act>
using add_then = join_then<dsl::add<>, Act>;
template <class Act>
using mul_then = join_then<dsl::mul<>, Act>;

// Two nodes before, one after: the producer, with the activation fused, writing the activation's result.
template <class Model>
constexpr bool fused_into_producer(op_kind producer, activation act) {
  constexpr auto& before = typed<Model>;
  constexpr auto& after = fused<Model>;
  return before.node_count == 2 && before.node_at(0).attrs.fused == activation::none && after.node_count == 1 &&
         after.node_at(0).kind == producer && after.node_at(0).attrs.fused == act &&
         after.node_at(0).output == before.node_at(1).output && after.tensor_at(after.node_at(0).output).producer == 0;
}

template <template <class> class Model, op_kind Producer>
constexpr bool all_activations_fuse() {
  return fused_into_producer<Model<dsl::relu>>(Producer, activation::relu) &&
         fused_into_producer<Model<dsl::relu6>>(Producer, activation::relu6) &&
         fused_into_producer<Model<dsl::sigmoid>>(Producer, activation::sigmoid) &&
         fused_into_producer<Model<dsl::tanh>>(Producer, activation::tanh);
}
static_assert(all_activations_fuse<conv_then, op_kind::conv2d>());
static_assert(all_activations_fuse<depthwise_then, op_kind::depthwise_conv2d>());
static_assert(all_activations_fuse<dense_then, op_kind::dense>());
static_assert(all_activations_fuse<add_then, op_kind::add>());
static_assert(all_activations_fuse<mul_then, op_kind::mul>());

TEST_CASE("fuse_ops: stage_v equals the pass run on the previous stage") {
  const auto direct = pass::fuse_ops::run(ctnn::stage_v<conv_then<dsl::relu>, ctnn::default_pipeline, 3>);
  CHECK(ctnn_test::same_module(direct, fused<conv_then<dsl::relu>>));
  CHECK(direct.node_at(0).attrs.fused == activation::relu);
}

// Not fused: the intermediate has two readers; it is a model output; the producer already has an
// activation (of two activations in a row only the first fuses); the producer takes no activation.
using two_readers = dsl::graph<dsl::outputs<"s">, dsl::node<"x", dsl::input<ctnn::f32, 1, 3, 3, 2>>,
                               dsl::node<"c", dsl::conv2d<w1x1::values, b3::values, dsl::kernel<1>>, "x">,
                               dsl::node<"r", dsl::relu, "c">, dsl::node<"s", dsl::add<>, "c", "r">>;
static_assert(fused<two_readers>.node_count == 3 && fused<two_readers>.node_at(0).attrs.fused == activation::none &&
              fused<two_readers>.node_at(1).kind == op_kind::relu);
using intermediate_is_output = dsl::graph<dsl::outputs<"c", "r">, dsl::node<"x", dsl::input<ctnn::f32, 1, 3, 3, 2>>,
                                          dsl::node<"c", dsl::conv2d<w1x1::values, b3::values, dsl::kernel<1>>, "x">,
                                          dsl::node<"r", dsl::relu, "c">>;
static_assert(fused<intermediate_is_output>.node_count == 2 && fused<intermediate_is_output>.node_at(0).attrs.fused == activation::none);
using already_activated = conv_like_then<dsl::conv2d<w1x1::values, b3::values, dsl::kernel<1>, dsl::relu>, dsl::sigmoid>;
static_assert(fused<already_activated>.node_count == 2 && fused<already_activated>.node_at(0).attrs.fused == activation::relu &&
              fused<already_activated>.node_at(1).kind == op_kind::sigmoid);
using relu_then_relu6 = dsl::sequential<dsl::input<ctnn::f32, 1, 3, 3, 2>, dsl::conv2d<w1x1::values, b3::values, dsl::kernel<1>>,
                                        dsl::relu, dsl::relu6>;
static_assert(fused<relu_then_relu6>.node_count == 2 && fused<relu_then_relu6>.node_at(0).attrs.fused == activation::relu &&
              fused<relu_then_relu6>.node_at(1).kind == op_kind::relu6 &&
              fused<relu_then_relu6>.node_at(1).inputs[0] == fused<relu_then_relu6>.node_at(0).output);
using pool_then_relu = dsl::sequential<dsl::input<ctnn::f32, 1, 4, 4, 2>, dsl::max_pool<dsl::kernel<2>, dsl::stride<2>>, dsl::relu>;
static_assert(fused<pool_then_relu>.node_count == 2);

// ---------------------------------------------------------------------------------------------------
// A constant per-channel add after a conv without a bias becomes its bias (and the add's activation the
// conv's). Tensors: x 0, b 1, w 2, k 3, y 4.
template <class Bias, class Add = dsl::add<>>
using conv_plus_constant = dsl::graph<dsl::outputs<"y">, dsl::node<"x", dsl::input<ctnn::f32, 1, 3, 3, 2>>, dsl::node<"b", Bias>,
                                      dsl::node<"k", dsl::conv2d<w1x1::values, dsl::no_bias, dsl::units<3>, dsl::kernel<1>>, "x">,
                                      dsl::node<"y", Add, "k", "b">>;
using bias_add = conv_plus_constant<dsl::constant<b3::values, 3>>;
using bias_add_4d_relu = conv_plus_constant<dsl::constant<b3::values, 1, 1, 1, 3>, dsl::add<dsl::relu>>;
static_assert(typed<bias_add>.node_count == 2 && typed<bias_add>.node_at(0).inputs[2] == -1);
static_assert(fused<bias_add>.node_count == 1 && fused<bias_add>.node_at(0).kind == op_kind::conv2d &&
              fused<bias_add>.node_at(0).inputs[2] == 1 && fused<bias_add>.node_at(0).output == 4 &&
              fused<bias_add>.node_at(0).attrs.fused == activation::none);
static_assert(typed<bias_add_4d_relu>.tensor_at(1).dims == ctnn::make_shape(1, 1, 1, 3));
static_assert(fused<bias_add_4d_relu>.node_count == 1 && fused<bias_add_4d_relu>.node_at(0).inputs[2] == 1 &&
              fused<bias_add_4d_relu>.tensor_at(1).dims == ctnn::make_shape(1, 1, 1, 3) &&  // shape kept: indexed by channel
              fused<bias_add_4d_relu>.node_at(0).attrs.fused == activation::relu);
static_assert(ctnn::compiled_v<bias_add_4d_relu>.calls[0].params.has_bias == 1 && ctnn::compiled_v<bias_add_4d_relu>.call_count == 1);
// Not a bias: the conv has one already; the constant is not one value per channel; it is read twice.
using conv_with_bias_plus_constant =
    dsl::graph<dsl::outputs<"y">, dsl::node<"x", dsl::input<ctnn::f32, 1, 3, 3, 2>>, dsl::node<"b", dsl::constant<b3::values, 3>>,
               dsl::node<"k", dsl::conv2d<w1x1::values, b3::values, dsl::kernel<1>>, "x">, dsl::node<"y", dsl::add<>, "k", "b">>;
static_assert(fused<conv_with_bias_plus_constant>.node_count == 2);
using full_constant = ramp<27, 38>;
static_assert(fused<conv_plus_constant<dsl::constant<full_constant::values, 1, 3, 3, 3>>>.node_count == 2);
using bias_read_twice = dsl::graph<dsl::outputs<"z">, dsl::node<"x", dsl::input<ctnn::f32, 1, 3, 3, 2>>,
                                   dsl::node<"b", dsl::constant<b3::values, 3>>,
                                   dsl::node<"k", dsl::conv2d<w1x1::values, dsl::no_bias, dsl::units<3>, dsl::kernel<1>>, "x">,
                                   dsl::node<"y", dsl::add<>, "k", "b">, dsl::node<"z", dsl::add<>, "y", "b">>;
static_assert(fused<bias_read_twice>.node_count == 3 && fused<bias_read_twice>.node_at(0).inputs[2] == -1);

TEST_CASE("fuse_ops: a bias made from a constant add computes conv + bias (up to summation order)") {
  for (std::uint32_t seed : {5u, 6u}) {
    const auto x = ctnn_test::random_floats(18, seed);
    float with_bias[27] = {}, with_add[27] = {};
    ctnn::compile<bias_add_4d_relu>::run(x.data(), with_bias);
    ctnn::compile<bias_add_4d_relu, unfused_pipeline>::run(x.data(), with_add);
    for (std::size_t i = 0; i < 27; ++i) CHECK(ctnn_test::close(with_bias[i], with_add[i], 1e-6));
  }
}

// ---------------------------------------------------------------------------------------------------
// Zero pads of H/W folded into the conv after them: pad H (1, 2), W (0, 1) of [1,4,4,2] -> [1,7,5,2],
// then conv 3x3 SAME, whose own pads are (1, 1) in both dims: fused pads top 2, bottom 3, left 1, right 2.
// Tensors: input 0, pad out 1, w 2, b 3, conv out 4.
template <class Pad, class Conv>
using padded = dsl::sequential<dsl::input<ctnn::f32, 1, 4, 4, 2>, Pad, Conv>;
using pad_conv = padded<dsl::pad<0, 0, 1, 2, 0, 1, 0, 0>, dsl::conv2d<w3x3::values, b3::values, dsl::kernel<3>, dsl::same>>;
static_assert(typed<pad_conv>.node_count == 2 && typed<pad_conv>.tensor_at(4).dims == ctnn::make_shape(1, 7, 5, 3));
static_assert(typed<pad_conv>.node_at(1).attrs.win.pad_top == 1 && typed<pad_conv>.node_at(1).attrs.win.pad_bottom == 1);
static_assert(fused<pad_conv>.node_count == 1 && fused<pad_conv>.node_at(0).kind == op_kind::conv2d &&
              fused<pad_conv>.node_at(0).inputs[0] == 0 && fused<pad_conv>.tensor_at(4).dims == ctnn::make_shape(1, 7, 5, 3));
static_assert(fused<pad_conv>.node_at(0).attrs.win.mode == padding::explicit_pads && fused<pad_conv>.node_at(0).attrs.win.pad_top == 2 &&
              fused<pad_conv>.node_at(0).attrs.win.pad_bottom == 3 && fused<pad_conv>.node_at(0).attrs.win.pad_left == 1 &&
              fused<pad_conv>.node_at(0).attrs.win.pad_right == 2);
// lower_te gives the kernel the unpadded input.
static_assert(ctnn::compiled_v<pad_conv>.calls[0].params.in == ctnn::make_shape(1, 4, 4, 2) &&
              ctnn::compiled_v<pad_conv>.calls[0].params.win.pad_bottom == 3);
// A valid conv and a depthwise conv take the pad's amounts as they are.
using pad_conv_valid = padded<dsl::pad<0, 0, 1, 1, 1, 1, 0, 0>, dsl::conv2d<w3x3::values, b3::values, dsl::kernel<3>>>;
using pad_depthwise = padded<dsl::pad<0, 0, 1, 1, 1, 1, 0, 0>, dsl::depthwise_conv2d<dw3x3::values, b2::values, dsl::kernel<3>>>;
static_assert(fused<pad_conv_valid>.node_count == 1 && fused<pad_conv_valid>.node_at(0).attrs.win.pad_top == 1 &&
              fused<pad_conv_valid>.node_at(0).attrs.win.pad_left == 1 && fused<pad_conv_valid>.node_at(0).attrs.win.pad_right == 1 &&
              fused<pad_conv_valid>.node_at(0).attrs.win.pad_bottom == 1);
static_assert(fused<pad_depthwise>.node_count == 1 && fused<pad_depthwise>.node_at(0).kind == op_kind::depthwise_conv2d &&
              fused<pad_depthwise>.node_at(0).attrs.win.mode == padding::explicit_pads &&
              fused<pad_depthwise>.node_at(0).attrs.win.pad_bottom == 1);
// Not folded: padding N or C, and a pad whose result has two readers.
using w3x3_c3 = ramp<81, 39>;  // conv 3x3, 3 -> 3 channels
static_assert(fused<padded<dsl::pad<0, 0, 1, 1, 1, 1, 0, 1>, dsl::conv2d<w3x3_c3::values, b3::values, dsl::kernel<3>>>>.node_count == 2);
static_assert(fused<padded<dsl::pad<1, 0, 1, 1, 1, 1, 0, 0>, dsl::conv2d<w3x3::values, b3::values, dsl::kernel<3>>>>.node_count == 2);
using pad_two_readers = dsl::graph<dsl::outputs<"c", "r">, dsl::node<"x", dsl::input<ctnn::f32, 1, 4, 4, 2>>,
                                   dsl::node<"p", dsl::pad<0, 0, 1, 1, 1, 1, 0, 0>, "x">,
                                   dsl::node<"c", dsl::conv2d<w3x3::values, b3::values, dsl::kernel<3>>, "p">,
                                   dsl::node<"r", dsl::relu, "p">>;
static_assert(fused<pad_two_readers>.node_count == 3);
// Not folded: a non-zero pad value (the DSL pads with 0; set by hand on the typed module).
constexpr auto pad_value_one() {
  auto m = typed<pad_conv_valid>;
  m.node_at(0).attrs.pad.fill_value_bits = std::bit_cast<std::uint32_t>(1.0f);
  return m;
}
static_assert(pass::fuse_ops::run(typed<pad_conv_valid>).node_count == 1);  // control
static_assert(pass::fuse_ops::run(pad_value_one()).node_count == 2 &&
              pass::fuse_ops::run(pad_value_one()).node_at(1).attrs.win.mode == padding::valid);

// Max pool: folded when its input is >= 0 by construction (relu, or a fused relu) and every window keeps
// an input element: relu [1,5,5,2] -> pad 1 -> [1,7,7,2] -> max pool 3/2 -> [1,3,3,2]. Nodes: relu, pad, pool.
template <class Pad, class Pool, class First = dsl::relu>
using pooled = dsl::sequential<dsl::input<ctnn::f32, 1, 5, 5, 2>, First, Pad, Pool>;
using pad1 = dsl::pad<0, 0, 1, 1, 1, 1, 0, 0>;
using pad2 = dsl::pad<0, 0, 2, 2, 2, 2, 0, 0>;
using relu_pad_max = pooled<pad1, dsl::max_pool<dsl::kernel<3>, dsl::stride<2>>>;
static_assert(fused<relu_pad_max>.node_count == 2 && fused<relu_pad_max>.node_at(1).kind == op_kind::max_pool &&
              fused<relu_pad_max>.node_at(1).inputs[0] == fused<relu_pad_max>.node_at(0).output);
static_assert(fused<relu_pad_max>.node_at(1).attrs.win.mode == padding::explicit_pads &&
              fused<relu_pad_max>.node_at(1).attrs.win.pad_top == 1 && fused<relu_pad_max>.node_at(1).attrs.win.pad_left == 1 &&
              fused<relu_pad_max>.node_at(1).attrs.win.pad_bottom == 1 && fused<relu_pad_max>.node_at(1).attrs.win.pad_right == 1);
static_assert(fused<relu_pad_max>.tensor_at(fused<relu_pad_max>.node_at(1).output).dims == ctnn::make_shape(1, 3, 3, 2));
// relu6 guarantees >= 0 as well.
static_assert(fused<pooled<pad1, dsl::max_pool<dsl::kernel<3>, dsl::stride<2>>, dsl::relu6>>.node_count == 2);
// Not folded: the input may be negative (a tanh); average pooling; a window lying only in padding
// (pad 2, window 2, stride 2: output 0's window is rows -2 and -1). Control: the same pool after pad 1.
static_assert(fused<pooled<pad1, dsl::max_pool<dsl::kernel<3>, dsl::stride<2>>, dsl::tanh>>.node_count == 3);
static_assert(fused<pooled<pad1, dsl::avg_pool<dsl::kernel<3>, dsl::stride<2>>>>.node_count == 3);
static_assert(fused<pooled<pad2, dsl::max_pool<dsl::kernel<2>, dsl::stride<2>>>>.node_count == 3);
static_assert(fused<pooled<pad1, dsl::max_pool<dsl::kernel<2>, dsl::stride<2>>>>.node_count == 2);

// ---------------------------------------------------------------------------------------------------
// Fused and unfused executors give identical results, bit for bit.
using conv_relu = dsl::sequential<dsl::input<ctnn::f32, 1, 5, 5, 2>,
                                  dsl::conv2d<w3x3::values, b3::values, dsl::kernel<3>, dsl::same>, dsl::relu>;
using add_relu = add_then<dsl::relu>;
// conv -> relu -> pad -> max pool: the relu fuses into the conv, then the pad into the pool (the pool's
// input is >= 0 through the conv's fused relu).
using conv_relu_pad_max = dsl::sequential<dsl::input<ctnn::f32, 1, 5, 5, 2>,
                                          dsl::conv2d<w3x3::values, b3::values, dsl::kernel<3>, dsl::same>, dsl::relu, pad1,
                                          dsl::max_pool<dsl::kernel<3>, dsl::stride<2>>>;
static_assert(ctnn::compile<conv_relu>::call_count == 1 && ctnn::compile<conv_relu, unfused_pipeline>::call_count == 2);
static_assert(ctnn::compile<add_relu>::call_count == 1 && ctnn::compile<add_relu, unfused_pipeline>::call_count == 2);
static_assert(ctnn::compile<pad_conv>::call_count == 1 && ctnn::compile<pad_conv, unfused_pipeline>::call_count == 2);
static_assert(ctnn::compile<conv_relu_pad_max>::call_count == 2 && ctnn::compile<conv_relu_pad_max, unfused_pipeline>::call_count == 4);
static_assert(ctnn::compiled_v<conv_relu_pad_max>.calls[1].params.kind == op_kind::max_pool &&
              ctnn::compiled_v<conv_relu_pad_max>.calls[1].params.win.pad_top == 1);

// Runs both executors on random inputs in [-1, 1) and counts the output elements that differ.
template <class Model>
std::size_t differing_outputs(std::uint32_t seed) {
  using with = ctnn::compile<Model>;
  using without = ctnn::compile<Model, unfused_pipeline>;
  std::vector<float> a(with::template output<0>::elements), b(a.size());
  if constexpr (with::input_count == 1) {
    const auto x = ctnn_test::random_floats(with::template input<0>::elements, seed);
    with::run(x.data(), a.data());
    without::run(x.data(), b.data());
  } else {
    const auto x = ctnn_test::random_floats(with::template input<0>::elements, seed);
    const auto y = ctnn_test::random_floats(with::template input<1>::elements, seed + 100);
    with::run(x.data(), y.data(), a.data());
    without::run(x.data(), y.data(), b.data());
  }
  std::size_t differing = 0;
  bool some_positive = false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    differing += a[i] == b[i] ? 0 : 1;
    some_positive = some_positive || a[i] > 0.0f;
  }
  CHECK(some_positive);  // not a comparison of all-zero outputs
  return differing;
}

TEST_CASE("fuse_ops: fused and unfused executors are bit-identical") {
  for (std::uint32_t seed : {1u, 2u, 3u, 4u}) {
    CAPTURE(seed);
    CHECK(differing_outputs<conv_relu>(seed) == 0);
    CHECK(differing_outputs<add_relu>(seed) == 0);
    CHECK(differing_outputs<pad_conv>(seed) == 0);
    CHECK(differing_outputs<conv_relu_pad_max>(seed) == 0);
  }
}

// ---------------------------------------------------------------------------------------------------
// Regression (fixed): fuse_bias rewrites the bias tensor's dims to [C] (fuse_ops.hpp:93). When that constant
// was computed by fold_constants, its evaluate_op recipe derives the kernel's output shape from the
// tensor's dims (runtime/constants.hpp:43, kernel_params_of(M, recipe.op)), so the dense that computes it
// sees out = [3] (batch 3, 0 units) and writes nothing: the bias materialises as zeros.
// bias d = dense(c) = W c + cb with W = [[1, 0], [0, 1], [1, 1]], c = [1, 2], cb = [0.5, 0.25, 0.125].
inline constexpr float d_w[6] = {1.0f, 0.0f, 0.0f, 1.0f, 1.0f, 1.0f};
inline constexpr float d_b[3] = {0.5f, 0.25f, 0.125f};
inline constexpr float d_in[2] = {1.0f, 2.0f};
inline constexpr float k_w[6] = {1.0f, 0.0f, 0.0f, 1.0f, 1.0f, 1.0f};  // conv 1x1 2 -> 3: [x0, x1, x0 + x1]
using folded_bias = dsl::graph<dsl::outputs<"y">, dsl::node<"x", dsl::input<ctnn::f32, 1, 1, 1, 2>>,
                               dsl::node<"c", dsl::constant<d_in, 1, 2>>, dsl::node<"d", dsl::dense<d_w, d_b>, "c">,
                               dsl::node<"k", dsl::conv2d<k_w, dsl::no_bias, dsl::units<3>, dsl::kernel<1>>, "x">,
                               dsl::node<"y", dsl::add<>, "k", "d">>;
static_assert(ctnn::compiled_v<folded_bias>.call_count == 1 && ctnn::compiled_v<folded_bias>.calls[0].params.has_bias == 1);
TEST_CASE("fuse_ops: a folded constant made a bias keeps its values") {
  const float x[2] = {0.25f, -1.0f};
  float y[3] = {};
  ctnn::compile<folded_bias>::run(x, y);
  CHECK(y[0] == 0.25f + 1.5f);
  CHECK(y[1] == -1.0f + 2.25f);
  CHECK(y[2] == -0.75f + 3.125f);
  // Without fuse_ops the same constant is read by the add, with its own dims, and is right.
  float plain[3] = {};
  ctnn::compile<folded_bias, unfused_pipeline>::run(x, plain);
  CHECK(plain[0] == 1.75f);
  CHECK(plain[1] == 1.25f);
  CHECK(plain[2] == 2.375f);
}

// Regression (fixed): a conv written with input_count 2 (no bias slot; accepted by infer_types and lower_te)
// gets the bias in inputs[2] (fuse_ops.hpp:94) without input_count being raised: lower_te then sees no
// bias and the add's constant is lost.
constexpr auto two_operand_conv() {
  auto m = typed<bias_add>;
  m.node_at(0).input_count = 2;
  return m;
}
TEST_CASE("fuse_ops: the bias of a conv written without a bias slot is used") {
  constexpr auto m = pass::lower_te::run(pass::fuse_ops::run(two_operand_conv()));
  REQUIRE(m.call_count == 1);  // the add was fused
  CHECK(m.calls[0].params.has_bias == 1);
  CHECK(m.calls[0].operand_count == 3);
}

}  // namespace
