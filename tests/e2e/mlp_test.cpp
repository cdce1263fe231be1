// MLP: reshape, dense + tanh/relu, softmax.
#include <ctnn/ctnn.hpp>

#include "e2e/data/mlp.hpp"
#include "e2e/reference_check.hpp"

namespace data = ctnn_test_data::mlp;
namespace dsl = ctnn::dsl;

using mlp = dsl::sequential<dsl::input<ctnn::f32, 1, 4, 5>, dsl::reshape<1, 20>,
                            dsl::dense<data::fc1_w, data::fc1_b, dsl::tanh>,
                            dsl::dense<data::fc2_w, data::fc2_b, dsl::relu>, dsl::dense<data::fc3_w, data::fc3_b>,
                            dsl::softmax>;
using net = ctnn::compile<mlp>;

static_assert(net::input<0>::dims == ctnn::make_shape(1, 4, 5));
static_assert(net::output<0>::dims == ctnn::make_shape(1, 4));
static_assert(net::call_count == 4);  // the reshape of the input is a view (alias_reshapes)
static_assert(net::arena_bytes >= net::liveness_lower_bound);

TEST_CASE("mlp matches the float64 PyTorch reference") {
  ctnn_test::check_against_reference<net, data::case_count>(data::inputs, data::expected);
}
