// Concat block as a DAG: 1x1 conv, dilated conv + sigmoid, grouped conv, concat, explicit pad, max pool
// valid stride 2, conv stride 2 with asymmetric same padding + relu6, flatten, dense + sigmoid.
#include <ctnn/ctnn.hpp>

#include "e2e/data/concat_block.hpp"
#include "e2e/reference_check.hpp"

namespace data = ctnn_test_data::concat_block;
namespace dsl = ctnn::dsl;

using block = dsl::graph<
    dsl::outputs<"out">,
    dsl::node<"x", dsl::input<ctnn::f32, 1, 9, 9, 4>>,
    dsl::node<"a", dsl::conv2d<data::conv_a_w, data::conv_a_b, dsl::kernel<1>, dsl::relu>, "x">,
    dsl::node<"b", dsl::conv2d<data::conv_b_w, data::conv_b_b, dsl::kernel<3>, dsl::dilation<2>, dsl::same, dsl::sigmoid>, "x">,
    dsl::node<"c", dsl::conv2d<data::conv_c_w, data::conv_c_b, dsl::kernel<3>, dsl::same, dsl::groups<2>>, "x">,
    dsl::node<"k", dsl::concat<>, "a", "b", "c">,
    dsl::node<"p", dsl::pad<0, 0, 1, 0, 0, 2, 0, 0>, "k">,
    dsl::node<"m", dsl::max_pool<dsl::kernel<3>, dsl::stride<2>, dsl::valid>, "p">,
    dsl::node<"q", dsl::conv2d<data::conv_q_w, data::conv_q_b, dsl::kernel<3>, dsl::stride<2>, dsl::same, dsl::relu6>, "m">,
    dsl::node<"flat", dsl::flatten, "q">,
    dsl::node<"out", dsl::dense<data::fc_w, data::fc_b, dsl::sigmoid>, "flat">>;
using net = ctnn::compile<block>;

static_assert(net::module.tensor_at(net::module.node_at(3).output).dims == ctnn::make_shape(1, 9, 9, 14));
static_assert(net::module.node_at(6).attrs.win.pad_top == 0 && net::module.node_at(6).attrs.win.pad_bottom == 1 &&
              net::module.node_at(6).attrs.win.pad_left == 1 && net::module.node_at(6).attrs.win.pad_right == 1);
static_assert(net::output<0>::dims == ctnn::make_shape(1, 5));

TEST_CASE("concat block matches the float64 PyTorch reference") {
  ctnn_test::check_against_reference<net, data::case_count>(data::inputs, data::expected);
}
