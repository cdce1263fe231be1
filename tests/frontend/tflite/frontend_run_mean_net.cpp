// mean_net.tflite (tests/data/tflite, from scripts/gen_tflite_test_models.py), embedded by ctnn_add_model,
// compiled by the default pipeline and run against the NumPy float64 reference of the same file.
#include <ctnn/ctnn.hpp>
#include <ctnn/models/mean_net.hpp>

#include "mean_net_expected.hpp"
#include "e2e/reference_check.hpp"

namespace data = ctnn_test_data::tflite_mean_net;
using net = ctnn::compile<ctnn::models::mean_net>;

static_assert(net::input_count == 1 && net::output_count == 1);
static_assert(net::input<0>::elements == data::input0_elements);
static_assert(net::output<0>::elements == data::output0_elements);
static_assert(net::arena_bytes >= net::liveness_lower_bound);

TEST_CASE("mean_net.tflite matches the NumPy reference") {
  ctnn_test::check_against_reference<net, data::case_count>(data::input0, data::expected0);
}
