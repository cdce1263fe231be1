// Batch norms after a conv without bias, a depthwise with bias and a dense, and a constant subgraph:
// the default pipeline folds every batch norm into weights at compile time, computes relu(k) at compile
// time and fuses the add of the result into conv2 as its bias. Checked against the float64 PyTorch
// reference, and against the same model through a pipeline that folds and fuses nothing.
#include <ctnn/ctnn.hpp>

#include "e2e/data/bn_block.hpp"
#include "e2e/reference_check.hpp"

namespace data = ctnn_test_data::bn_block;
namespace dsl = ctnn::dsl;
namespace pass = ctnn::pass;

using block = dsl::graph<
    dsl::outputs<"y">,
    dsl::node<"x", dsl::input<ctnn::f32, 1, 6, 6, 3>>,
    dsl::node<"k", dsl::constant<data::k, 8>>,
    dsl::node<"c1", dsl::conv2d<data::conv1_w, dsl::no_bias, dsl::kernel<3>, dsl::same, dsl::units<8>>, "x">,
    dsl::node<"bn1", dsl::batch_norm<data::bn1_scale, data::bn1_offset, data::bn1_mean, data::bn1_var>, "c1">,
    dsl::node<"a", dsl::relu, "bn1">,
    dsl::node<"dw", dsl::depthwise_conv2d<data::dw_w, data::dw_b, dsl::kernel<3>, dsl::same>, "a">,
    dsl::node<"bn2", dsl::batch_norm<data::bn2_scale, data::bn2_offset, data::bn2_mean, data::bn2_var>, "dw">,
    dsl::node<"d", dsl::relu, "bn2">,
    dsl::node<"c2", dsl::conv2d<data::conv2_w, dsl::no_bias, dsl::kernel<1>, dsl::units<8>>, "d">,
    dsl::node<"rk", dsl::relu, "k">,
    dsl::node<"e", dsl::add<>, "c2", "rk">,
    dsl::node<"pool", dsl::global_avg_pool, "e">,
    dsl::node<"g", dsl::flatten, "pool">,
    dsl::node<"fc", dsl::dense<data::fc_w, data::fc_b>, "g">,
    dsl::node<"y", dsl::batch_norm<data::bn3_scale, data::bn3_offset, data::bn3_mean, data::bn3_var, dsl::epsilon<1, 1000>>, "fc">>;

using net = ctnn::compile<block>;
using unfolded_pipeline = ctnn::pipeline<pass::infer_types, pass::lower_te, pass::plan_memory<>, pass::aot_lower_main>;
using unfolded = ctnn::compile<block, unfolded_pipeline>;

// 13 ops as written; folded and fused: conv1(+bn1,+relu), dw(+bn2,+relu), conv2(+relu(k) as bias),
// global pool, dense(+bn3, writing the model output itself); the flatten is a view.
static_assert(unfolded::call_count == 13);
static_assert(net::call_count == 5);
static_assert(net::module.calls[2].params.kind == ctnn::op_kind::conv2d && net::module.calls[2].params.has_bias);
static_assert(net::module.node_at(0).attrs.fused == ctnn::activation::relu);
static_assert(net::module.recipe_count == 7);  // weights and bias for bn1, bn2, bn3; relu(k)

TEST_CASE("bn block matches the float64 PyTorch reference, folded and unfolded") {
  ctnn_test::check_against_reference<net, data::case_count>(data::inputs, data::expected);
  ctnn_test::check_against_reference<unfolded, data::case_count>(data::inputs, data::expected);
}
