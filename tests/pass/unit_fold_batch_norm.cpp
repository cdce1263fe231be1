// Unit tests of pass::fold_batch_norm: a batch_norm after a conv2d, depthwise_conv2d or dense (no fused
// activation, result read only by the batch norm, weights and bias private raw constants) disappears;
// the producer's weights and bias get batch_norm_weights / batch_norm_bias recipes, materialised at
// compile time as
//   w' = w * scale / sqrt(variance + epsilon)           (per output channel)
//   b' = (b - mean) * scale / sqrt(variance + epsilon) + offset   (b = 0 without a bias)
// and checked here against the same formulas evaluated in double precision.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/compile.hpp>
#include <ctnn/frontend/dsl.hpp>
#include <ctnn/runtime/constants.hpp>

#include "pass_test_modules.hpp"
#include "test_modules.hpp"

namespace {

namespace dsl = ctnn::dsl;
namespace pass = ctnn::pass;
using ctnn::op_kind;
using ctnn::recipe_kind;
using ctnn_test::ramp;

// Stages of the default pipeline: 1 = after infer_types, 3 = after fold_constants + fold_batch_norm.
template <class Model>
constexpr auto& typed = ctnn::stage_v<Model, ctnn::default_pipeline, 1>;
template <class Model>
constexpr auto& folded = ctnn::stage_v<Model, ctnn::default_pipeline, 3>;
static_assert(std::is_same_v<ctnn::default_pipeline::pass<2>, pass::fold_batch_norm>);
static_assert(pass::fold_batch_norm::requires_facts == ctnn::fact::shapes_inferred);
static_assert(ctnn::detail::established_facts<pass::fold_batch_norm>() == 0);

// The default pipeline without fold_batch_norm: the batch norm runs as its own kernel.
using unfolded_pipeline = ctnn_test::without<pass::fold_batch_norm>;

// Batch-norm parameters (3 and 4 channels); variances and scales are positive.
using scale3 = ramp<3, 11, true>;
using offset3 = ramp<3, 12>;
using mean3 = ramp<3, 13>;
using var3 = ramp<3, 14, true>;
using scale4 = ramp<4, 21, true>;
using offset4 = ramp<4, 22>;
using mean4 = ramp<4, 23>;
using var4 = ramp<4, 24, true>;
using bn3 = dsl::batch_norm<scale3::values, offset3::values, mean3::values, var3::values, dsl::epsilon<1, 1000>>;
using bn4 = dsl::batch_norm<scale4::values, offset4::values, mean4::values, var4::values, dsl::epsilon<1, 1000>>;
constexpr double bn_epsilon = 1e-3;

// Weights: conv OHWI [3][3][3][2], depthwise 1HWC [1][3][3][4] (multiplier 2), dense [3][5].
using conv_w = ramp<54, 1>;
using conv_b = ramp<3, 2>;
using dw_w = ramp<36, 3>;
using dw_b = ramp<4, 4>;
using fc_w = ramp<15, 5>;
using fc_b = ramp<3, 6>;

// ---------------------------------------------------------------------------------------------------
// conv2d (with a bias) -> batch_norm, the batch norm being the model's output.
// Tensors: input 0, w 1, b 2, conv out 3, scale 4, offset 5, mean 6, variance 7, bn out 8 (output).
using conv_bn = dsl::sequential<dsl::input<ctnn::f32, 1, 4, 4, 2>,
                                dsl::conv2d<conv_w::values, conv_b::values, dsl::kernel<3>, dsl::same>, bn3>;
static_assert(typed<conv_bn>.node_count == 2 && typed<conv_bn>.node_at(1).kind == op_kind::batch_norm);
static_assert(folded<conv_bn>.node_count == 1 && folded<conv_bn>.node_at(0).kind == op_kind::conv2d);
static_assert(ctnn_test::count_kind(folded<conv_bn>, op_kind::batch_norm) == 0);
// The conv writes the batch norm's result (here the model output) and reads the same tensor ids.
static_assert(folded<conv_bn>.node_at(0).output == 8 && folded<conv_bn>.tensor_at(8).producer == 0 &&
              folded<conv_bn>.tensor_at(8).role == ctnn::tensor_role::output);
static_assert(folded<conv_bn>.node_at(0).inputs[1] == 1 && folded<conv_bn>.node_at(0).inputs[2] == 2);
static_assert(folded<conv_bn>.recipe_count == 2 && folded<conv_bn>.tensor_at(1).recipe == 0 && folded<conv_bn>.tensor_at(2).recipe == 1);
// Weights: per output channel, dim 0 of OHWI: a channel is 3 * 3 * 2 = 18 consecutive weights.
static_assert(folded<conv_bn>.recipes[0].kind == recipe_kind::batch_norm_weights &&
              folded<conv_bn>.recipes[0].channel_stride == 18 && folded<conv_bn>.recipes[0].channel_count == 3);
static_assert(folded<conv_bn>.recipes[1].kind == recipe_kind::batch_norm_bias && !folded<conv_bn>.recipes[1].own_data_is_offset);
// Both recipes keep the batch norm itself (its parameter tensors and epsilon).
static_assert(folded<conv_bn>.recipes[0].operand_count == 5 && folded<conv_bn>.recipes[0].operands[1] == 4 &&
              folded<conv_bn>.recipes[0].operands[4] == 7 && folded<conv_bn>.recipes[1].epsilon == 1e-3f);

// conv2d without a bias: the batch norm's offset tensor becomes the bias.
// Tensors: input 0, w 1, conv out 2, scale 3, offset 4, mean 5, variance 6, bn out 7.
using conv_nobias_bn = dsl::sequential<dsl::input<ctnn::f32, 1, 4, 4, 2>,
                                       dsl::conv2d<conv_w::values, dsl::no_bias, dsl::units<3>, dsl::kernel<3>, dsl::same>, bn3>;
static_assert(typed<conv_nobias_bn>.node_at(0).inputs[2] == -1);
static_assert(folded<conv_nobias_bn>.node_count == 1 && folded<conv_nobias_bn>.node_at(0).inputs[2] == 4 &&
              folded<conv_nobias_bn>.node_at(0).input_count == 3);
static_assert(folded<conv_nobias_bn>.tensor_at(1).recipe == 0 && folded<conv_nobias_bn>.tensor_at(4).recipe == 1);
static_assert(folded<conv_nobias_bn>.recipes[1].kind == recipe_kind::batch_norm_bias && folded<conv_nobias_bn>.recipes[1].own_data_is_offset);
static_assert(folded<conv_nobias_bn>.recipes[0].channel_stride == 18 && folded<conv_nobias_bn>.recipes[0].channel_count == 3);

// depthwise (multiplier 2: 2 -> 4 channels), with and without a bias: the channel is the last dim of 1HWC.
// Tensors: input 0, w 1, b 2, dw out 3, scale 4, offset 5, ... / without a bias: input 0, w 1, dw out 2, scale 3, offset 4.
using dw_bn = dsl::sequential<dsl::input<ctnn::f32, 1, 4, 4, 2>,
                              dsl::depthwise_conv2d<dw_w::values, dw_b::values, dsl::kernel<3>, dsl::same, dsl::multiplier<2>>, bn4>;
using dw_nobias_bn =
    dsl::sequential<dsl::input<ctnn::f32, 1, 4, 4, 2>,
                    dsl::depthwise_conv2d<dw_w::values, dsl::no_bias, dsl::kernel<3>, dsl::same, dsl::multiplier<2>>, bn4>;
static_assert(folded<dw_bn>.node_count == 1 && folded<dw_bn>.node_at(0).kind == op_kind::depthwise_conv2d);
static_assert(folded<dw_bn>.recipes[0].channel_stride == 1 && folded<dw_bn>.recipes[0].channel_count == 4);
static_assert(folded<dw_bn>.tensor_at(1).recipe == 0 && folded<dw_bn>.tensor_at(2).recipe == 1 && !folded<dw_bn>.recipes[1].own_data_is_offset);
static_assert(folded<dw_nobias_bn>.node_count == 1 && folded<dw_nobias_bn>.node_at(0).inputs[2] == 4 &&
              folded<dw_nobias_bn>.recipes[1].own_data_is_offset && folded<dw_nobias_bn>.recipes[0].channel_stride == 1 &&
              folded<dw_nobias_bn>.recipes[0].channel_count == 4);

// dense -> batch_norm -> relu (the batch norm is not the output here; fuse_ops later fuses the relu).
// Tensors: input 0, w 1, b 2, dense out 3, scale 4, offset 5, mean 6, variance 7, bn out 8, relu out 9.
using dense_bn = dsl::sequential<dsl::input<ctnn::f32, 1, 5>, dsl::dense<fc_w::values, fc_b::values>, bn3, dsl::relu>;
using dense_nobias_bn =
    dsl::sequential<dsl::input<ctnn::f32, 1, 5>, dsl::dense<fc_w::values, dsl::no_bias, dsl::units<3>>, bn3, dsl::relu>;
static_assert(folded<dense_bn>.node_count == 2 && folded<dense_bn>.node_at(0).kind == op_kind::dense &&
              folded<dense_bn>.node_at(0).output == 8 && folded<dense_bn>.node_at(1).inputs[0] == 8);
static_assert(folded<dense_bn>.recipes[0].channel_stride == 5 && folded<dense_bn>.recipes[0].channel_count == 3);
static_assert(folded<dense_nobias_bn>.node_count == 2 && folded<dense_nobias_bn>.node_at(0).inputs[2] == 4 &&
              folded<dense_nobias_bn>.recipes[1].own_data_is_offset && folded<dense_nobias_bn>.recipes[0].channel_stride == 5);
// After the whole pipeline: one dense kernel with the relu fused.
static_assert(ctnn::compiled_v<dense_bn>.call_count == 1 && ctnn::compiled_v<dense_bn>.calls[0].params.fused == ctnn::activation::relu &&
              ctnn::compiled_v<dense_bn>.calls[0].params.has_bias == 1);
static_assert(ctnn::compiled_v<dense_nobias_bn>.calls[0].params.has_bias == 1);

// The stage equals the pass run on the previous stage (fold_constants changes nothing here).
TEST_CASE("fold_batch_norm: stage_v equals the pass run on the typed module") {
  const auto direct = pass::fold_batch_norm::run(typed<conv_bn>);
  CHECK(ctnn_test::same_module(direct, folded<conv_bn>));
  CHECK(direct.recipe_count == 2);
}

// ---------------------------------------------------------------------------------------------------
// Materialised values against double precision. Channel of weight i: conv OHWI i / 18, depthwise 1HWC
// i % 4, dense [out][in] i / 5. Tolerance: 1e-6 relative (the recipes compute in double and round once).
bool rel_close(float got, double expected) { return std::fabs(static_cast<double>(got) - expected) <= 1e-6 * std::fabs(expected); }

struct bn_values {
  const float* scale;
  const float* offset;
  const float* mean;
  const float* variance;
};
double factor(const bn_values& bn, std::size_t c) {
  return static_cast<double>(bn.scale[c]) / std::sqrt(static_cast<double>(bn.variance[c]) + bn_epsilon);
}

template <class ChannelOf>
void check_weights(const float* got, const float* raw, std::size_t n, const bn_values& bn, ChannelOf channel_of) {
  for (std::size_t i = 0; i < n; ++i) {
    const double expected = static_cast<double>(raw[i]) * factor(bn, channel_of(i));
    INFO("weight " << i);
    CHECK(rel_close(got[i], expected));
  }
}
// raw_bias == nullptr: the op had no bias (b = 0).
void check_bias(const float* got, const float* raw_bias, std::size_t channels, const bn_values& bn) {
  for (std::size_t c = 0; c < channels; ++c) {
    const double b = raw_bias != nullptr ? static_cast<double>(raw_bias[c]) : 0.0;
    const double expected = (b - bn.mean[c]) * factor(bn, c) + bn.offset[c];
    INFO("bias " << c);
    CHECK(rel_close(got[c], expected));
  }
}

constexpr bn_values bn3_values{scale3::values, offset3::values, mean3::values, var3::values};
constexpr bn_values bn4_values{scale4::values, offset4::values, mean4::values, var4::values};

TEST_CASE("fold_batch_norm: folded conv2d weights and bias") {
  const auto by_filter = [](std::size_t i) { return i / 18; };
  constexpr auto& w = ctnn::constant_values_v<folded<conv_bn>, 1>;
  constexpr auto& b = ctnn::constant_values_v<folded<conv_bn>, 2>;
  static_assert(w.size() == 54 && b.size() == 3);
  check_weights(w.data(), conv_w::values, 54, bn3_values, by_filter);
  check_bias(b.data(), conv_b::values, 3, bn3_values);
  // Without a bias: the bias is made from the offset tensor (4).
  check_weights(ctnn::constant_values_v<folded<conv_nobias_bn>, 1>.data(), conv_w::values, 54, bn3_values, by_filter);
  check_bias(ctnn::constant_values_v<folded<conv_nobias_bn>, 4>.data(), nullptr, 3, bn3_values);
  // The raw arrays are untouched, and the executor reads the folded ones.
  CHECK(ctnn::constant_data_of<folded<conv_bn>, 1>() == w.data());
  CHECK(folded<conv_bn>.tensor_at(1).data.f32 == conv_w::values);
}

TEST_CASE("fold_batch_norm: folded depthwise weights and bias") {
  const auto by_last_dim = [](std::size_t i) { return i % 4; };
  check_weights(ctnn::constant_values_v<folded<dw_bn>, 1>.data(), dw_w::values, 36, bn4_values, by_last_dim);
  check_bias(ctnn::constant_values_v<folded<dw_bn>, 2>.data(), dw_b::values, 4, bn4_values);
  check_weights(ctnn::constant_values_v<folded<dw_nobias_bn>, 1>.data(), dw_w::values, 36, bn4_values, by_last_dim);
  check_bias(ctnn::constant_values_v<folded<dw_nobias_bn>, 4>.data(), nullptr, 4, bn4_values);
}

TEST_CASE("fold_batch_norm: folded dense weights and bias") {
  const auto by_row = [](std::size_t i) { return i / 5; };
  check_weights(ctnn::constant_values_v<folded<dense_bn>, 1>.data(), fc_w::values, 15, bn3_values, by_row);
  check_bias(ctnn::constant_values_v<folded<dense_bn>, 2>.data(), fc_b::values, 3, bn3_values);
  check_weights(ctnn::constant_values_v<folded<dense_nobias_bn>, 1>.data(), fc_w::values, 15, bn3_values, by_row);
  check_bias(ctnn::constant_values_v<folded<dense_nobias_bn>, 4>.data(), nullptr, 3, bn3_values);
}

// ---------------------------------------------------------------------------------------------------
// Not folded.
// (a) A fused activation between conv and batch norm, or an activation op between them.
using conv_relu_bn = dsl::sequential<dsl::input<ctnn::f32, 1, 4, 4, 2>,
                                     dsl::conv2d<conv_w::values, conv_b::values, dsl::kernel<3>, dsl::same, dsl::relu>, bn3>;
using conv_then_relu_bn = dsl::sequential<dsl::input<ctnn::f32, 1, 4, 4, 2>,
                                          dsl::conv2d<conv_w::values, conv_b::values, dsl::kernel<3>, dsl::same>, dsl::relu, bn3>;
static_assert(folded<conv_relu_bn>.node_count == 2 && folded<conv_relu_bn>.recipe_count == 0 &&
              folded<conv_relu_bn>.node_at(1).kind == op_kind::batch_norm);
static_assert(folded<conv_then_relu_bn>.node_count == 3 && folded<conv_then_relu_bn>.recipe_count == 0);

// (b) The conv's result has a second reader; (c) the conv's result is itself a model output.
using conv_bn_two_readers = dsl::graph<dsl::outputs<"n", "r">, dsl::node<"x", dsl::input<ctnn::f32, 1, 4, 4, 2>>,
                                       dsl::node<"c", dsl::conv2d<conv_w::values, conv_b::values, dsl::kernel<3>, dsl::same>, "x">,
                                       dsl::node<"n", bn3, "c">, dsl::node<"r", dsl::relu, "c">>;
static_assert(folded<conv_bn_two_readers>.node_count == 3 && folded<conv_bn_two_readers>.recipe_count == 0);
using conv_and_bn_outputs = dsl::graph<dsl::outputs<"c", "n">, dsl::node<"x", dsl::input<ctnn::f32, 1, 4, 4, 2>>,
                                       dsl::node<"c", dsl::conv2d<conv_w::values, conv_b::values, dsl::kernel<3>, dsl::same>, "x">,
                                       dsl::node<"n", bn3, "c">>;
static_assert(folded<conv_and_bn_outputs>.node_count == 2 && folded<conv_and_bn_outputs>.recipe_count == 0);
// (d) The batch norm being a model output does not prevent folding (documented: the conv then writes the
// output; see conv_bn above). A batch norm after a non-weighted op stays (here after an add).
using add_bn = dsl::graph<dsl::outputs<"n">, dsl::node<"x", dsl::input<ctnn::f32, 1, 2, 2, 3>>,
                          dsl::node<"y", dsl::input<ctnn::f32, 1, 2, 2, 3>>, dsl::node<"a", dsl::add<>, "x", "y">,
                          dsl::node<"n", bn3, "a">>;
static_assert(folded<add_bn>.node_count == 2 && folded<add_bn>.recipe_count == 0);

// (e) Weights or bias shared with another op (edited by hand: the DSL gives each layer its own tensors).
// Nodes: c 0, n 1, d 2 (a second conv of x).
using two_convs = dsl::graph<dsl::outputs<"n", "d">, dsl::node<"x", dsl::input<ctnn::f32, 1, 4, 4, 2>>,
                             dsl::node<"c", dsl::conv2d<conv_w::values, conv_b::values, dsl::kernel<3>, dsl::same>, "x">,
                             dsl::node<"n", bn3, "c">,
                             dsl::node<"d", dsl::conv2d<conv_w::values, conv_b::values, dsl::kernel<3>, dsl::same>, "x">>;
constexpr auto share_operand(std::size_t slot) {
  auto m = typed<two_convs>;
  m.node_at(2).inputs[slot] = m.node_at(0).inputs[slot];
  return m;
}
static_assert(pass::fold_batch_norm::run(typed<two_convs>).node_count == 2);  // control: private weights fold
static_assert(pass::fold_batch_norm::run(share_operand(1)).node_count == 3 && pass::fold_batch_norm::run(share_operand(1)).recipe_count == 0);
static_assert(pass::fold_batch_norm::run(share_operand(2)).node_count == 3 && pass::fold_batch_norm::run(share_operand(2)).recipe_count == 0);

// (f) Weights that already carry a recipe: of two batch norms in a row only the first folds.
using conv_bn_bn = dsl::sequential<dsl::input<ctnn::f32, 1, 4, 4, 2>,
                                   dsl::conv2d<conv_w::values, conv_b::values, dsl::kernel<3>, dsl::same>, bn3, bn3>;
static_assert(folded<conv_bn_bn>.node_count == 2 && folded<conv_bn_bn>.recipe_count == 2 &&
              folded<conv_bn_bn>.node_at(1).kind == op_kind::batch_norm && folded<conv_bn_bn>.node_at(1).inputs[0] == 8);

// ---------------------------------------------------------------------------------------------------
// Regression (fixed): a conv/dense without a bias may also be written with input_count 2 (infer_types,
// lower_te and fuse_ops all accept "input_count > 2 && inputs[2] >= 0" as "has a bias"). fold_batch_norm
// (fold_batch_norm.hpp:41) then stores the offset in inputs[2] without raising input_count, so lower_te
// sees no bias and the folded bias (offset - mean * factor) is silently dropped.
constexpr auto two_operand_conv() {
  auto m = typed<conv_nobias_bn>;
  m.node_at(0).input_count = 2;  // data, weights: no bias slot
  return m;
}
TEST_CASE("fold_batch_norm: the folded bias of a conv written without a bias slot is used") {
  constexpr auto m = pass::lower_te::run(pass::fold_batch_norm::run(two_operand_conv()));
  REQUIRE(m.call_count == 1);
  CHECK(m.node_at(0).inputs[2] == 4);
  CHECK(m.calls[0].params.has_bias == 1);
  CHECK(m.calls[0].operand_count == 3);
}

// ---------------------------------------------------------------------------------------------------
// Executors with and without folding agree: |folded - unfolded| <= 1e-5 * max(|unfolded|, 1) (relative
// for outputs of magnitude >= 1, absolute below, where sums of products can cancel). Inputs in [-1, 1).
template <class Model>
void check_folding_preserves_outputs(std::uint32_t seed) {
  using with_folding = ctnn::compile<Model>;
  using without_folding = ctnn::compile<Model, unfolded_pipeline>;
  static_assert(with_folding::call_count < without_folding::call_count, "the batch norm was folded");
  const auto x = ctnn_test::random_floats(with_folding::template input<0>::elements, seed);
  std::vector<float> folded_out(with_folding::template output<0>::elements), plain_out(folded_out.size());
  with_folding::run(x.data(), folded_out.data());
  without_folding::run(x.data(), plain_out.data());
  for (std::size_t i = 0; i < folded_out.size(); ++i) {
    INFO("output " << i);
    CHECK(ctnn_test::close(folded_out[i], plain_out[i], 1e-5));
  }
}

TEST_CASE("fold_batch_norm: executors with and without folding agree") {
  for (std::uint32_t seed : {1u, 2u, 3u}) {
    check_folding_preserves_outputs<conv_bn>(seed);
    check_folding_preserves_outputs<conv_nobias_bn>(seed);
    check_folding_preserves_outputs<dw_bn>(seed);
    check_folding_preserves_outputs<dw_nobias_bn>(seed);
    check_folding_preserves_outputs<dense_bn>(seed);
    check_folding_preserves_outputs<dense_nobias_bn>(seed);
  }
}

}  // namespace
