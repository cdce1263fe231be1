// Unit tests of pass::infer_types: output shapes (and resolved pads, canonical weight shapes) of every op
// kind, and the diagnostic for each error_code the pass can record. Expected shapes are worked out in
// the comments from the op's definition (TensorFlow SAME: out = ceil(in / stride); VALID/explicit:
// out = floor((in + pads - span) / stride) + 1 with span = (kernel - 1) * dilation + 1).
#include <cstdint>

#include <doctest/doctest.h>

#include <ctnn/frontend/dsl.hpp>
#include <ctnn/pass/infer_types.hpp>

#include "test_modules.hpp"

namespace {

namespace dsl = ctnn::dsl;
namespace detail = ctnn::shape_rules;
using ctnn::error_code;
using ctnn::make_shape;
using ctnn::op_kind;
using ctnn_test::zeros;

template <class Model>
constexpr auto inferred = ctnn::pass::infer_types::run(Model::build());

template <class Model>
constexpr ctnn::shape out_dims = inferred<Model>.output_tensor(0).dims;

template <class Model>
constexpr ctnn::diagnostic error_of = inferred<Model>.error;

// The shape of node `n`'s operand `k` after the pass (weights get canonical shapes).
template <class Model>
constexpr ctnn::shape operand_dims(std::int32_t n, std::size_t k) {
  return inferred<Model>.tensor_at(inferred<Model>.node_at(n).inputs[k]).dims;
}

template <class Layer, std::int32_t... Dims>
using one_layer = dsl::sequential<dsl::input<ctnn::f32, Dims...>, Layer>;

// A reshape layer whose target the DSL would reject (dsl::reshape static_asserts the same rule), to
// reach infer_types' own check.
template <std::int32_t... Dims>
struct raw_reshape {
  static constexpr dsl::layer_spec spec() {
    dsl::layer_spec s{op_kind::reshape, {}, {}, 0, 1};
    s.attrs.target = make_shape(Dims...);
    return s;
  }
};


// ---------------------------------------------------------------------------------------------------
// Pure functions.
constexpr auto same_pads(std::int32_t in, std::int32_t k, std::int32_t s, std::int32_t d) {
  struct pads {
    std::int32_t before, after;
  } p{};
  detail::same_padding(in, k, s, d, p.before, p.after);
  return p;
}
// 7, k3, s2: out 4, needed (4-1)*2 + 3 - 7 = 2 -> 1/1.
static_assert(same_pads(7, 3, 2, 1).before == 1 && same_pads(7, 3, 2, 1).after == 1);
// 8, k3, s2: out 4, needed 6 + 3 - 8 = 1 -> the odd pixel goes after: 0/1.
static_assert(same_pads(8, 3, 2, 1).before == 0 && same_pads(8, 3, 2, 1).after == 1);
// 5, k3, s1, d2: span 5, out 5, needed 4 + 5 - 5 = 4 -> 2/2.
static_assert(same_pads(5, 3, 1, 2).before == 2 && same_pads(5, 3, 1, 2).after == 2);
// 5, k1, s3: out 2, needed 3 + 1 - 5 < 0 -> no padding.
static_assert(same_pads(5, 1, 3, 1).before == 0 && same_pads(5, 1, 3, 1).after == 0);
// 6, k4, s1: needed 5 + 4 - 6 = 3 -> 1/2.
static_assert(same_pads(6, 4, 1, 1).before == 1 && same_pads(6, 4, 1, 1).after == 2);

static_assert(detail::windowed_extent(7, 3, 2, 1, 0, 0) == 3);  // (7 - 3) / 2 + 1
static_assert(detail::windowed_extent(8, 3, 2, 1, 0, 0) == 3);  // (8 - 3) / 2 + 1 (floor)
static_assert(detail::windowed_extent(7, 3, 1, 2, 1, 1) == 5);  // 7 + 2 - 5 + 1
static_assert(detail::windowed_extent(3, 3, 1, 1, 0, 0) == 1);  // exact fit
static_assert(detail::windowed_extent(2, 3, 1, 1, 0, 0) == 0);  // does not fit
static_assert(detail::windowed_extent(2, 3, 1, 1, 1, 0) == 1);  // fits thanks to the padding
static_assert(detail::windowed_extent(4, 3, 1, 2, 0, 0) == 0);  // dilated span 5 > 4

constexpr auto broadcast_of(const ctnn::shape& a, const ctnn::shape& b) {
  struct result {
    bool ok;
    ctnn::shape out;
  } r{};
  r.ok = detail::broadcast(a, b, r.out);
  return r;
}
static_assert(broadcast_of(make_shape(1, 4, 4, 3), make_shape(3)).ok);
static_assert(broadcast_of(make_shape(1, 4, 4, 3), make_shape(3)).out == make_shape(1, 4, 4, 3));
static_assert(broadcast_of(make_shape(3), make_shape(1, 4, 4, 3)).out == make_shape(1, 4, 4, 3));
static_assert(broadcast_of(make_shape(1, 4, 1, 3), make_shape(1, 1, 5, 1)).out == make_shape(1, 4, 5, 3));
static_assert(broadcast_of(make_shape(5), make_shape(1, 1, 1)).out == make_shape(1, 1, 5));
static_assert(broadcast_of(make_shape(2, 1), make_shape(3)).out == make_shape(2, 3));
static_assert(broadcast_of(make_shape(2, 3), make_shape(2, 3)).out == make_shape(2, 3));
static_assert(!broadcast_of(make_shape(2, 3), make_shape(4, 3)).ok);
static_assert(!broadcast_of(make_shape(1, 4, 4, 3), make_shape(2)).ok);

TEST_CASE("same_padding realises TensorFlow SAME for every small case (run time)") {
  // SAME's definition: output ceil(in / stride); pads sum to what that output needs; after - before is
  // 0 or 1. Checked with windowed_extent, over a grid, at run time.
  for (std::int32_t in = 1; in <= 20; ++in)
    for (std::int32_t k = 1; k <= 5; ++k)
      for (std::int32_t s = 1; s <= 4; ++s)
        for (std::int32_t d = 1; d <= 3; ++d) {
          std::int32_t before = -1, after = -1;
          detail::same_padding(in, k, s, d, before, after);
          const std::int32_t out = (in + s - 1) / s;
          CAPTURE(in);
          CAPTURE(k);
          CAPTURE(s);
          CAPTURE(d);
          REQUIRE(before >= 0);
          REQUIRE((after == before || after == before + 1));
          REQUIRE(detail::windowed_extent(in, k, s, d, before, after) == out);
          // No more padding than needed: one pixel less and the last window no longer fits.
          if (before + after > 0) REQUIRE(detail::windowed_extent(in, k, s, d, before, after - 1) < out);
        }
}

// ---------------------------------------------------------------------------------------------------
// conv2d
using conv_same = one_layer<dsl::conv2d<zeros<108>, zeros<4>, dsl::kernel<3>, dsl::same>, 1, 7, 9, 3>;
static_assert(out_dims<conv_same> == make_shape(1, 7, 9, 4));  // SAME, stride 1: spatial size kept
static_assert(operand_dims<conv_same>(0, 1) == make_shape(4, 3, 3, 3));  // OHWI
static_assert(operand_dims<conv_same>(0, 2) == make_shape(4));
static_assert(inferred<conv_same>.node_at(0).attrs.win ==
              ctnn::window{3, 3, 1, 1, 1, 1, ctnn::padding::same, 1, 1, 1, 1});

// SAME stride 2 on 7x8: out ceil(7/2) = 4, ceil(8/2) = 4; pads h 1/1, w 0/1 (see same_pads above).
using conv_same_s2 = one_layer<dsl::conv2d<zeros<135>, zeros<5>, dsl::kernel<3>, dsl::stride<2>, dsl::same>, 1, 7, 8, 3>;
static_assert(out_dims<conv_same_s2> == make_shape(1, 4, 4, 5));
static_assert(inferred<conv_same_s2>.node_at(0).attrs.win.pad_top == 1 &&
              inferred<conv_same_s2>.node_at(0).attrs.win.pad_bottom == 1 &&
              inferred<conv_same_s2>.node_at(0).attrs.win.pad_left == 0 &&
              inferred<conv_same_s2>.node_at(0).attrs.win.pad_right == 1);

// VALID, kernel 3x5, stride 2x3 on [2,7,9,3]: h (7-3)/2+1 = 3, w (9-5)/3+1 = 2; batch kept.
using conv_valid = one_layer<dsl::conv2d<zeros<90>, zeros<2>, dsl::kernel<3, 5>, dsl::stride<2, 3>>, 2, 7, 9, 3>;
static_assert(out_dims<conv_valid> == make_shape(2, 3, 2, 2));
static_assert(operand_dims<conv_valid>(0, 1) == make_shape(2, 3, 5, 3));

// Explicit pads top 1, left 2, bottom 0, right 3, kernel 3 on 5x5: h 5+1+0-3+1 = 4, w 5+2+3-3+1 = 8.
using conv_explicit = one_layer<dsl::conv2d<zeros<18>, zeros<2>, dsl::kernel<3>, dsl::pads<1, 2, 0, 3>>, 1, 5, 5, 1>;
static_assert(out_dims<conv_explicit> == make_shape(1, 4, 8, 2));
static_assert(inferred<conv_explicit>.node_at(0).attrs.win.pad_left == 2 &&
              inferred<conv_explicit>.node_at(0).attrs.win.pad_right == 3);

// `valid` after `pads<>` wins and the pass zeroes the pads.
using conv_pads_then_valid = one_layer<dsl::conv2d<zeros<18>, zeros<2>, dsl::kernel<3>, dsl::pads<1, 1>, dsl::valid>, 1, 5, 5, 1>;
static_assert(conv_pads_then_valid::build().node_at(0).attrs.win.pad_top == 1);
static_assert(inferred<conv_pads_then_valid>.node_at(0).attrs.win.pad_top == 0 &&
              inferred<conv_pads_then_valid>.node_at(0).attrs.win.pad_right == 0);
static_assert(out_dims<conv_pads_then_valid> == make_shape(1, 3, 3, 2));

// Dilation 2: span 5; VALID on 9x8: 5x4. SAME keeps 9x8 with pads 2/2 both ways.
using conv_dilated = one_layer<dsl::conv2d<zeros<54>, zeros<3>, dsl::kernel<3>, dsl::dilation<2>>, 1, 9, 8, 2>;
static_assert(out_dims<conv_dilated> == make_shape(1, 5, 4, 3));
using conv_dilated_same = one_layer<dsl::conv2d<zeros<54>, zeros<3>, dsl::kernel<3>, dsl::dilation<2>, dsl::same>, 1, 9, 8, 2>;
static_assert(out_dims<conv_dilated_same> == make_shape(1, 9, 8, 3));
static_assert(inferred<conv_dilated_same>.node_at(0).attrs.win ==
              ctnn::window{3, 3, 1, 1, 2, 2, ctnn::padding::same, 2, 2, 2, 2});

// Groups 3 on 6 channels, 9 filters: weights [9, 1, 1, 6/3].
using conv_grouped = one_layer<dsl::conv2d<zeros<18>, zeros<9>, dsl::kernel<1>, dsl::groups<3>>, 1, 5, 5, 6>;
static_assert(out_dims<conv_grouped> == make_shape(1, 5, 5, 9));
static_assert(operand_dims<conv_grouped>(0, 1) == make_shape(9, 1, 1, 2));

// No bias: units<> gives the filters.
using conv_units = one_layer<dsl::conv2d<zeros<48>, dsl::no_bias, dsl::units<4>, dsl::kernel<2>>, 1, 3, 3, 3>;
static_assert(out_dims<conv_units> == make_shape(1, 2, 2, 4));
static_assert(operand_dims<conv_units>(0, 1) == make_shape(4, 2, 2, 3));

// ---------------------------------------------------------------------------------------------------
// depthwise_conv2d: output channels = channels * multiplier, weights [1, kh, kw, C * M].
using dw_mult = one_layer<dsl::depthwise_conv2d<zeros<54>, zeros<6>, dsl::kernel<3>, dsl::same, dsl::multiplier<2>>, 1, 6, 6, 3>;
static_assert(out_dims<dw_mult> == make_shape(1, 6, 6, 6));
static_assert(operand_dims<dw_mult>(0, 1) == make_shape(1, 3, 3, 6));
static_assert(operand_dims<dw_mult>(0, 2) == make_shape(6));
// Stride 2, VALID on 7x7: (7-3)/2+1 = 3.
using dw_s2 = one_layer<dsl::depthwise_conv2d<zeros<45>, zeros<5>, dsl::kernel<3>, dsl::stride<2>>, 1, 7, 7, 5>;
static_assert(out_dims<dw_s2> == make_shape(1, 3, 3, 5));

// ---------------------------------------------------------------------------------------------------
// dense: the input is flattened per batch (dim 0).
using dense_rank4 = one_layer<dsl::dense<zeros<120>, zeros<5>>, 1, 2, 3, 4>;  // 24 features
static_assert(out_dims<dense_rank4> == make_shape(1, 5));
static_assert(operand_dims<dense_rank4>(0, 1) == make_shape(5, 24));
using dense_batch2 = one_layer<dsl::dense<zeros<36>, dsl::no_bias, dsl::units<3>>, 2, 3, 4>;  // 12 features
static_assert(out_dims<dense_batch2> == make_shape(2, 3));
static_assert(operand_dims<dense_batch2>(0, 1) == make_shape(3, 12));

// ---------------------------------------------------------------------------------------------------
// Pools.
using max_same_s2 = one_layer<dsl::max_pool<dsl::kernel<3>, dsl::stride<2>, dsl::same>, 1, 7, 7, 2>;
static_assert(out_dims<max_same_s2> == make_shape(1, 4, 4, 2));  // ceil(7/2)
static_assert(inferred<max_same_s2>.node_at(0).attrs.win.pad_top == 1 && inferred<max_same_s2>.node_at(0).attrs.win.pad_bottom == 1);
using avg_valid_s2 = one_layer<dsl::avg_pool<dsl::kernel<2>, dsl::stride<2>>, 1, 5, 5, 1>;
static_assert(out_dims<avg_valid_s2> == make_shape(1, 2, 2, 1));  // (5-2)/2+1
using max_default_stride = one_layer<dsl::max_pool<dsl::kernel<2>>, 1, 3, 4, 2>;
static_assert(out_dims<max_default_stride> == make_shape(1, 2, 3, 2));  // stride 1
using avg_padded = one_layer<dsl::avg_pool<dsl::kernel<3>, dsl::stride<2>, dsl::pads<1, 1>>, 1, 6, 6, 3>;
static_assert(out_dims<avg_padded> == make_shape(1, 3, 3, 3));  // (6+2-3)/2+1
using global_pool = one_layer<dsl::global_avg_pool, 2, 5, 3, 7>;
static_assert(out_dims<global_pool> == make_shape(2, 1, 1, 7));

// ---------------------------------------------------------------------------------------------------
// add / mul broadcasting (numpy rules, right-aligned).
template <class Op, class A, class B>
using binary_graph = dsl::graph<dsl::outputs<"o">, dsl::node<"a", A>, dsl::node<"b", B>, dsl::node<"o", Op, "a", "b">>;

using add_channel = binary_graph<dsl::add<>, dsl::input<ctnn::f32, 1, 4, 4, 3>, dsl::input<ctnn::f32, 3>>;
static_assert(out_dims<add_channel> == make_shape(1, 4, 4, 3));
using mul_outer = binary_graph<dsl::mul<>, dsl::input<ctnn::f32, 1, 4, 1, 3>, dsl::input<ctnn::f32, 1, 1, 5, 1>>;
static_assert(out_dims<mul_outer> == make_shape(1, 4, 5, 3));
using add_lower_rank_first = binary_graph<dsl::add<dsl::relu>, dsl::input<ctnn::f32, 3>, dsl::input<ctnn::f32, 2, 1>>;
static_assert(out_dims<add_lower_rank_first> == make_shape(2, 3));
using mul_same = binary_graph<dsl::mul<>, dsl::input<ctnn::f32, 2, 3>, dsl::input<ctnn::f32, 2, 3>>;
static_assert(out_dims<mul_same> == make_shape(2, 3));

// ---------------------------------------------------------------------------------------------------
// reshape: 0 keeps the input's extent (1 past the input's rank), -1 takes what is left.
static_assert(out_dims<one_layer<dsl::flatten, 2, 3, 4, 5>> == make_shape(2, 60));
static_assert(out_dims<one_layer<dsl::reshape<0, 0, -1>, 2, 3, 4, 5>> == make_shape(2, 3, 20));
static_assert(out_dims<one_layer<dsl::reshape<-1>, 2, 3, 4, 5>> == make_shape(120));
static_assert(out_dims<one_layer<dsl::reshape<0, -1, 0>, 2, 3, 4, 5>> == make_shape(2, 15, 4));  // 120/(2*4)
static_assert(out_dims<one_layer<dsl::reshape<0, 0, 0, 0, 0>, 2, 3, 4, 5>> == make_shape(2, 3, 4, 5, 1));
static_assert(out_dims<one_layer<dsl::reshape<6, 20>, 2, 3, 4, 5>> == make_shape(6, 20));

// ---------------------------------------------------------------------------------------------------
// concat: extents add up along the axis; negative axes are normalised in the node.
template <std::int32_t Axis, class A, class B>
using concat2 = dsl::graph<dsl::outputs<"k">, dsl::node<"a", A>, dsl::node<"b", B>, dsl::node<"k", dsl::concat<Axis>, "a", "b">>;

using concat_axis1 = concat2<1, dsl::input<ctnn::f32, 1, 2, 3, 4>, dsl::input<ctnn::f32, 1, 5, 3, 4>>;
static_assert(out_dims<concat_axis1> == make_shape(1, 7, 3, 4));
static_assert(inferred<concat_axis1>.node_at(0).attrs.axis == 1);
using concat_last = concat2<-1, dsl::input<ctnn::f32, 1, 2, 3, 4>, dsl::input<ctnn::f32, 1, 2, 3, 1>>;
static_assert(out_dims<concat_last> == make_shape(1, 2, 3, 5));
static_assert(inferred<concat_last>.node_at(0).attrs.axis == 3);
using concat_first = concat2<-4, dsl::input<ctnn::f32, 1, 2, 3, 4>, dsl::input<ctnn::f32, 2, 2, 3, 4>>;
static_assert(out_dims<concat_first> == make_shape(3, 2, 3, 4));
static_assert(inferred<concat_first>.node_at(0).attrs.axis == 0);
using concat_axis2_three = dsl::graph<dsl::outputs<"k">, dsl::node<"a", dsl::input<ctnn::f32, 1, 2, 1, 4>>,
                                      dsl::node<"b", dsl::input<ctnn::f32, 1, 2, 3, 4>>,
                                      dsl::node<"c", dsl::input<ctnn::f32, 1, 2, 2, 4>>,
                                      dsl::node<"k", dsl::concat<2>, "a", "b", "c">>;
static_assert(out_dims<concat_axis2_three> == make_shape(1, 2, 6, 4));

// ---------------------------------------------------------------------------------------------------
// pad, softmax, activations, dtypes.
static_assert(out_dims<one_layer<dsl::pad<0, 0, 1, 2, 3, 0, 0, 1>, 1, 4, 4, 3>> == make_shape(1, 7, 7, 4));
static_assert(out_dims<one_layer<dsl::pad<2, 3>, 5>> == make_shape(10));
static_assert(out_dims<one_layer<dsl::pad<1, 1, 1, 1, 1, 1, 1, 1>, 1, 2, 2, 1>> == make_shape(3, 4, 4, 3));
using softmax_2d = one_layer<dsl::softmax, 2, 5>;
static_assert(out_dims<softmax_2d> == make_shape(2, 5) && inferred<softmax_2d>.node_at(0).attrs.axis == 1);
static_assert(inferred<one_layer<dsl::softmax, 1, 1, 1, 4>>.node_at(0).attrs.axis == 3);
static_assert(out_dims<one_layer<dsl::tanh, 3, 1, 2>> == make_shape(3, 1, 2));
using i8_relu = dsl::sequential<dsl::input<ctnn::i8, 1, 4>, dsl::relu>;
static_assert(inferred<i8_relu>.output_tensor(0).type == ctnn::dtype::i8);
static_assert(inferred<i8_relu>.output_tensor(0).dims == make_shape(1, 4));

// A whole chain: the shared tiny CNN.
static_assert(out_dims<ctnn_test::tiny_cnn> == make_shape(1, 3));
static_assert(inferred<ctnn_test::tiny_cnn>.tensor_at(inferred<ctnn_test::tiny_cnn>.node_at(2).output).dims == make_shape(1, 36));

// Facts.
static_assert(ctnn::pass::infer_types::establishes == ctnn::fact::shapes_inferred);
static_assert(inferred<ctnn_test::tiny_cnn>.has(ctnn::fact::shapes_inferred) &&
              !inferred<ctnn_test::tiny_cnn>.has(ctnn::fact::kernels_lowered));
static_assert(!ctnn_test::tiny_cnn::build().has(ctnn::fact::shapes_inferred));

TEST_CASE("infer_types at run time gives the constexpr result") {
  using ctnn_test::same_module;
  const auto run = [](const auto& m) {
    auto copy = m;
    auto (*volatile pass)(decltype(copy)) = &ctnn::pass::infer_types::run<decltype(copy)>;
    return pass(copy);
  };
  CHECK(same_module(run(ctnn_test::tiny_cnn::build()), inferred<ctnn_test::tiny_cnn>));
  CHECK(same_module(run(ctnn_test::small_graph::build()), inferred<ctnn_test::small_graph>));
  CHECK(same_module(run(conv_same_s2::build()), inferred<conv_same_s2>));
  CHECK(same_module(run(concat_axis2_three::build()), inferred<concat_axis2_three>));
  const auto shapes = run(conv_dilated_same::build());
  CHECK(shapes.output_tensor(0).dims == make_shape(1, 9, 8, 3));
  CHECK(shapes.node_at(0).attrs.win.pad_left == 2);
}

// ---------------------------------------------------------------------------------------------------
// Diagnostics: one model per error code the pass records.

// input_shapes_differ (add): [1,4,4,3] vs [1,4,4,2] do not broadcast.
using add_mismatch = binary_graph<dsl::add<>, dsl::input<ctnn::f32, 1, 4, 4, 3>, dsl::input<ctnn::f32, 1, 4, 4, 2>>;
static_assert(error_of<add_mismatch>.code == error_code::input_shapes_differ && error_of<add_mismatch>.node == 0 &&
              error_of<add_mismatch>.kind == op_kind::add);
static_assert(error_of<add_mismatch>.expected == make_shape(1, 4, 4, 3) && error_of<add_mismatch>.actual == make_shape(1, 4, 4, 2));
using mul_mismatch = binary_graph<dsl::mul<>, dsl::input<ctnn::f32, 2, 3>, dsl::input<ctnn::f32, 4, 3>>;
static_assert(error_of<mul_mismatch>.code == error_code::input_shapes_differ && error_of<mul_mismatch>.kind == op_kind::mul);

// input_shapes_differ (concat): the third input differs off the axis; input_slot is its slot.
using concat_mismatch = dsl::graph<dsl::outputs<"k">, dsl::node<"a", dsl::input<ctnn::f32, 1, 2, 3, 4>>,
                                   dsl::node<"b", dsl::input<ctnn::f32, 1, 2, 3, 1>>,
                                   dsl::node<"c", dsl::input<ctnn::f32, 1, 3, 3, 1>>,
                                   dsl::node<"k", dsl::concat<>, "a", "b", "c">>;
static_assert(error_of<concat_mismatch>.code == error_code::input_shapes_differ && error_of<concat_mismatch>.kind == op_kind::concat);
static_assert(error_of<concat_mismatch>.expected == make_shape(1, 2, 3, 4) && error_of<concat_mismatch>.actual == make_shape(1, 3, 3, 1));
static_assert(error_of<concat_mismatch>.input_slot == 2);
using concat_rank_mismatch = concat2<0, dsl::input<ctnn::f32, 1, 2, 3, 4>, dsl::input<ctnn::f32, 2, 3, 4>>;
static_assert(error_of<concat_rank_mismatch>.code == error_code::input_shapes_differ && error_of<concat_rank_mismatch>.input_slot == 1);

// weight_count_mismatch (units<> given, so the weights are checked against it): 3x3 conv, 2 -> 4
// channels needs 4*3*3*2 = 72 weights, given 70.
using conv_weights_short = one_layer<dsl::conv2d<zeros<70>, zeros<4>, dsl::units<4>, dsl::kernel<3>>, 1, 5, 5, 2>;
static_assert(error_of<conv_weights_short>.code == error_code::weight_count_mismatch && error_of<conv_weights_short>.node == 0);
static_assert(error_of<conv_weights_short>.expected == make_shape(4, 3, 3, 2) && error_of<conv_weights_short>.actual == make_shape(70));
static_assert(error_of<conv_weights_short>.count_expected == 72 && error_of<conv_weights_short>.count_actual == 70);
// dense on 12 features, 3 units, no bias: 36 weights needed; node 1 (after a relu).
using dense_weights_long = dsl::sequential<dsl::input<ctnn::f32, 1, 12>, dsl::relu, dsl::dense<zeros<37>, dsl::no_bias, dsl::units<3>>>;
static_assert(error_of<dense_weights_long>.code == error_code::weight_count_mismatch && error_of<dense_weights_long>.node == 1 &&
              error_of<dense_weights_long>.kind == op_kind::dense && error_of<dense_weights_long>.count_expected == 36 &&
              error_of<dense_weights_long>.count_actual == 37);

// weights_and_bias_disagree (no units<>: the output count would come from the bias): 70 weights are
// not 4 biases x (3*3*2) per filter; 37 weights are not 3 x 12 features.
using conv_disagree = one_layer<dsl::conv2d<zeros<70>, zeros<4>, dsl::kernel<3>>, 1, 5, 5, 2>;
static_assert(error_of<conv_disagree>.code == error_code::weights_and_bias_disagree && error_of<conv_disagree>.node == 0 &&
              error_of<conv_disagree>.expected == make_shape(3, 3, 2) && error_of<conv_disagree>.weight_elements == 70 &&
              error_of<conv_disagree>.bias_elements == 4);
using dense_disagree = dsl::sequential<dsl::input<ctnn::f32, 1, 12>, dsl::relu, dsl::dense<zeros<37>, zeros<3>>>;
static_assert(error_of<dense_disagree>.code == error_code::weights_and_bias_disagree && error_of<dense_disagree>.node == 1 &&
              error_of<dense_disagree>.expected == make_shape(12) && error_of<dense_disagree>.weight_elements == 37 &&
              error_of<dense_disagree>.bias_elements == 3);
// Grouped: 6 channels, groups 2, 4 biases -> 4 x (1*1*3) = 12 weights expected, 13 given.
using grouped_disagree = one_layer<dsl::conv2d<zeros<13>, zeros<4>, dsl::groups<2>>, 1, 3, 3, 6>;
static_assert(error_of<grouped_disagree>.code == error_code::weights_and_bias_disagree &&
              error_of<grouped_disagree>.expected == make_shape(1, 1, 3));
// depthwise with multiplier 2 on 3 channels: 1*3*3*6 = 54.
using dw_weights = one_layer<dsl::depthwise_conv2d<zeros<27>, zeros<6>, dsl::kernel<3>, dsl::multiplier<2>>, 1, 5, 5, 3>;
static_assert(error_of<dw_weights>.code == error_code::weight_count_mismatch && error_of<dw_weights>.count_expected == 54 &&
              error_of<dw_weights>.count_actual == 27);

// bias_count_mismatch: units<4> with a 5-element bias.
using conv_bias = one_layer<dsl::conv2d<zeros<8>, zeros<5>, dsl::units<4>>, 1, 3, 3, 2>;
static_assert(error_of<conv_bias>.code == error_code::bias_count_mismatch && error_of<conv_bias>.expected == make_shape(4) &&
              error_of<conv_bias>.actual == make_shape(5) && error_of<conv_bias>.count_expected == 4 && error_of<conv_bias>.count_actual == 5);
using dw_bias = one_layer<dsl::depthwise_conv2d<zeros<9>, zeros<2>>, 1, 3, 3, 9>;  // 9 channels, bias 2
static_assert(error_of<dw_bias>.code == error_code::bias_count_mismatch && error_of<dw_bias>.count_expected == 9 && error_of<dw_bias>.count_actual == 2);
using dense_bias = one_layer<dsl::dense<zeros<6>, zeros<3>, dsl::units<2>>, 1, 3>;
static_assert(error_of<dense_bias>.code == error_code::bias_count_mismatch && error_of<dense_bias>.count_expected == 2 &&
              error_of<dense_bias>.count_actual == 3);

// channels_not_divisible: 3 channels, 2 groups.
using conv_groups = one_layer<dsl::conv2d<zeros<12>, zeros<4>, dsl::groups<2>>, 1, 3, 3, 3>;
static_assert(error_of<conv_groups>.code == error_code::channels_not_divisible && error_of<conv_groups>.node == 0 &&
              error_of<conv_groups>.channels == 3 && error_of<conv_groups>.groups == 2);
// 6 channels divide by 3 groups but 4 filters do not.
using conv_groups_units = one_layer<dsl::conv2d<zeros<8>, zeros<4>, dsl::groups<3>>, 1, 3, 3, 6>;
static_assert(error_of<conv_groups_units>.code == error_code::channels_not_divisible && error_of<conv_groups_units>.groups == 3);

// window_larger_than_input: 5x5 VALID on 3x3; the actual shape is the input.
using conv_window = one_layer<dsl::conv2d<zeros<25>, zeros<1>, dsl::kernel<5>>, 1, 3, 3, 1>;
static_assert(error_of<conv_window>.code == error_code::window_larger_than_input && error_of<conv_window>.actual == make_shape(1, 3, 3, 1) &&
              error_of<conv_window>.expected[0] == 5 && error_of<conv_window>.expected[1] == 5);
using pool_window = dsl::sequential<dsl::input<ctnn::f32, 1, 3, 3, 1>, dsl::relu, dsl::max_pool<dsl::kernel<2, 4>>>;
static_assert(error_of<pool_window>.code == error_code::window_larger_than_input && error_of<pool_window>.node == 1 &&
              error_of<pool_window>.kind == op_kind::max_pool && error_of<pool_window>.expected[0] == 2 &&
              error_of<pool_window>.expected[1] == 4);
using dilated_window = one_layer<dsl::avg_pool<dsl::kernel<3>, dsl::dilation<2>>, 1, 4, 4, 1>;  // span 5 > 4
static_assert(error_of<dilated_window>.code == error_code::window_larger_than_input);
// The same window fits once padded, and SAME always fits.
static_assert(!error_of<one_layer<dsl::avg_pool<dsl::kernel<3>, dsl::dilation<2>, dsl::pads<1, 1>>, 1, 4, 4, 1>>.failed());
static_assert(!error_of<one_layer<dsl::max_pool<dsl::kernel<7>, dsl::same>, 1, 2, 2, 1>>.failed());

// reshape_element_count: 9 elements into [5, 2]; and [2, -1] (-1 -> 9/2 = 4, 8 elements).
using reshape_count = one_layer<dsl::reshape<5, 2>, 1, 3, 3, 1>;
static_assert(error_of<reshape_count>.code == error_code::reshape_element_count && error_of<reshape_count>.expected == make_shape(1, 3, 3, 1) &&
              error_of<reshape_count>.actual == make_shape(5, 2) && error_of<reshape_count>.count_expected == 9 &&
              error_of<reshape_count>.count_actual == 10);
using reshape_inexact = one_layer<dsl::reshape<2, -1>, 1, 3, 3, 1>;
static_assert(error_of<reshape_inexact>.code == error_code::reshape_element_count && error_of<reshape_inexact>.actual == make_shape(2, 4) &&
              error_of<reshape_inexact>.count_actual == 8);
static_assert(error_of<one_layer<raw_reshape<-1, -1>, 2, 2>>.code == error_code::invalid_reshape_target);

// unsupported_rank: NHWC ops on other ranks.
using conv_rank2 = one_layer<dsl::conv2d<zeros<8>, zeros<1>>, 2, 8>;
static_assert(error_of<conv_rank2>.code == error_code::unsupported_rank && error_of<conv_rank2>.actual == make_shape(2, 8) &&
              error_of<conv_rank2>.rank_expected == 4 && error_of<conv_rank2>.rank_actual == 2);
using gap_rank3 = one_layer<dsl::global_avg_pool, 1, 4, 4>;
static_assert(error_of<gap_rank3>.code == error_code::unsupported_rank && error_of<gap_rank3>.kind == op_kind::global_avg_pool &&
              error_of<gap_rank3>.rank_actual == 3);
static_assert(error_of<one_layer<dsl::max_pool<>, 4, 4>>.code == error_code::unsupported_rank);
static_assert(error_of<one_layer<dsl::depthwise_conv2d<zeros<2>, zeros<2>>, 1, 1, 2, 2, 2>>.code == error_code::unsupported_rank);

// invalid_axis: the axis as written and the rank.
using concat_axis4 = concat2<4, dsl::input<ctnn::f32, 1, 2, 3, 4>, dsl::input<ctnn::f32, 1, 2, 3, 4>>;
static_assert(error_of<concat_axis4>.code == error_code::invalid_axis && error_of<concat_axis4>.axis == 4 &&
              error_of<concat_axis4>.rank_actual == 4);
using concat_axis_m5 = concat2<-5, dsl::input<ctnn::f32, 1, 2, 3, 4>, dsl::input<ctnn::f32, 1, 2, 3, 4>>;
static_assert(error_of<concat_axis_m5>.code == error_code::invalid_axis && error_of<concat_axis_m5>.axis == -5);

TEST_CASE("infer_types stops at the first failing node and keeps its diagnostic") {
  // The reshape (node 1) fails; the dense after it is never inferred: its output keeps rank 0.
  using model = dsl::sequential<dsl::input<ctnn::f32, 1, 3, 3, 1>, dsl::relu, dsl::reshape<5, 2>, dsl::dense<zeros<20>, zeros<2>>>;
  const auto& m = inferred<model>;
  CHECK(m.error.code == error_code::reshape_element_count);
  CHECK(m.error.node == 1);
  CHECK(m.error.kind == op_kind::reshape);
  CHECK(m.tensor_at(m.node_at(0).output).dims == make_shape(1, 3, 3, 1));
  CHECK(m.output_tensor(0).dims.rank == 0);
  // The dense weights keep their rank-1 shape (never checked).
  CHECK(m.tensor_at(m.node_at(2).inputs[1]).dims == make_shape(20));
  // module::fail keeps the first diagnostic.
  auto again = m;
  again.fail({error_code::invalid_axis, 2, op_kind::concat, {}, {}, {.axis = 9, .rank_actual = 9}});
  CHECK(again.error.code == error_code::reshape_element_count);
}

// ---------------------------------------------------------------------------------------------------
// Validation added after review: each case used to pass unchecked.

TEST_CASE("reshape rejects extents below -1 and more than one -1") {
  CHECK(error_of<one_layer<raw_reshape<-2, -3>, 1, 2, 3>>.code == error_code::invalid_reshape_target);
  CHECK(error_of<one_layer<raw_reshape<-1, -1, -1>, 1>>.code == error_code::invalid_reshape_target);
  CHECK_FALSE(error_of<one_layer<raw_reshape<-1, 3>, 1, 2, 3>>.failed());
}

TEST_CASE("channels_not_divisible names the count that groups do not divide") {
  // 6 input channels and 4 filters with 3 groups: the 4 filters are the problem.
  CHECK(error_of<conv_groups_units>.channels == 4);
}

TEST_CASE("pad with more (before, after) pairs than the input's rank is rejected") {
  using model = one_layer<dsl::pad<0, 0, 1, 1, 1, 1, 0, 0, 5, 5>, 1, 2, 2, 1>;
  CHECK(error_of<model>.code == error_code::pads_beyond_rank);
  CHECK(error_of<model>.axis == 4);
  CHECK(error_of<model>.rank_actual == 4);
}

TEST_CASE("pools whose window lies entirely in the padding are rejected") {
  // Explicit pads >= the window span leave windows with no input element (avg would divide by 0).
  using explicit_pads = one_layer<dsl::avg_pool<dsl::kernel<1>, dsl::pads<1, 1>>, 1, 2, 2, 1>;
  CHECK(error_of<explicit_pads>.code == error_code::window_all_padding);
  CHECK(error_of<explicit_pads>.axis == 1);  // along H
  CHECK(error_of<explicit_pads>.output_position == 0);  // the first output row
  using max_pads = one_layer<dsl::max_pool<dsl::kernel<1>, dsl::pads<0, 1>>, 1, 2, 2, 1>;
  CHECK(error_of<max_pads>.code == error_code::window_all_padding);
  CHECK(error_of<max_pads>.axis == 2);  // along W
  // SAME with dilation: a 2-tap window with dilation 3 on a 1-pixel input gets pads 1/2; both taps miss.
  using dilated = one_layer<dsl::avg_pool<dsl::kernel<2>, dsl::dilation<3>, dsl::same>, 1, 1, 1, 1>;
  CHECK(error_of<dilated>.code == error_code::window_all_padding);
  // Padding smaller than the window is fine.
  CHECK_FALSE(error_of<one_layer<dsl::avg_pool<dsl::kernel<3>, dsl::same>, 1, 2, 2, 1>>.failed());
}

}  // namespace
