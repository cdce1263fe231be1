// CNN with pooling: conv same/explicit/stride 2, relu/relu6, max pool, avg pool (same, in-bounds
// count), global average pool, flatten, dense, softmax.
#include <ctnn/ctnn.hpp>

#include "e2e/data/cnn_pool.hpp"
#include "e2e/reference_check.hpp"

namespace data = ctnn_test_data::cnn_pool;
namespace dsl = ctnn::dsl;

using cnn = dsl::sequential<
    dsl::input<ctnn::f32, 1, 12, 12, 3>,
    dsl::conv2d<data::conv1_w, data::conv1_b, dsl::kernel<3>, dsl::same, dsl::relu>,
    dsl::max_pool<dsl::kernel<2>, dsl::stride<2>>,
    dsl::conv2d<data::conv2_w, data::conv2_b, dsl::kernel<3>, dsl::stride<2>, dsl::pads<1, 1>, dsl::relu6>,
    dsl::avg_pool<dsl::kernel<2>, dsl::same>, dsl::global_avg_pool, dsl::flatten, dsl::dense<data::fc_w, data::fc_b>,
    dsl::softmax>;
using net = ctnn::compile<cnn>;

static_assert(net::output<0>::dims == ctnn::make_shape(1, 10));
static_assert(net::module.tensor_at(net::module.node_at(2).output).dims == ctnn::make_shape(1, 3, 3, 12));

TEST_CASE("cnn with pooling matches the float64 PyTorch reference") {
  ctnn_test::check_against_reference<net, data::case_count>(data::inputs, data::expected);
}
