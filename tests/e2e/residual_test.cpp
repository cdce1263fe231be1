// Residual block as a DAG: conv, add + relu, depthwise with multiplier 2, 1x1 conv, add, tanh, mul,
// global average pool.
#include <ctnn/ctnn.hpp>

#include "e2e/data/residual.hpp"
#include "e2e/reference_check.hpp"

namespace data = ctnn_test_data::residual;
namespace dsl = ctnn::dsl;

using residual = dsl::graph<
    dsl::outputs<"out">,
    dsl::node<"x", dsl::input<ctnn::f32, 1, 8, 8, 6>>,
    dsl::node<"a", dsl::conv2d<data::conv_a_w, data::conv_a_b, dsl::kernel<3>, dsl::same, dsl::relu>, "x">,
    dsl::node<"b", dsl::conv2d<data::conv_b_w, data::conv_b_b, dsl::kernel<3>, dsl::same>, "a">,
    dsl::node<"c", dsl::add<dsl::relu>, "x", "b">,
    dsl::node<"d", dsl::depthwise_conv2d<data::dw_w, data::dw_b, dsl::kernel<3>, dsl::same, dsl::multiplier<2>, dsl::relu>, "c">,
    dsl::node<"e", dsl::conv2d<data::conv_e_w, data::conv_e_b, dsl::kernel<1>>, "d">,
    dsl::node<"f", dsl::add<>, "c", "e">,
    dsl::node<"g", dsl::tanh, "f">,
    dsl::node<"h", dsl::mul<>, "g", "f">,
    dsl::node<"out", dsl::global_avg_pool, "h">>;
using net = ctnn::compile<residual>;

static_assert(net::output<0>::dims == ctnn::make_shape(1, 1, 1, 6));
static_assert(net::output<0>::name == "out");

TEST_CASE("residual block matches the float64 PyTorch reference") {
  ctnn_test::check_against_reference<net, data::case_count>(data::inputs, data::expected);
}
