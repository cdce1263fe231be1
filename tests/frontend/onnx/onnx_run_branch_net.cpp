// branch_net.onnx (tests/data/onnx, from scripts/gen_onnx_test_models.py), embedded by ctnn_add_model, compiled
// by the default pipeline and run on NCHW inputs against the NumPy float64 reference of the same file.
#include <ctnn/ctnn.hpp>
#include <ctnn/models/branch_net.hpp>

#include "branch_net_expected.hpp"
#include "e2e/reference_check.hpp"

namespace data = ctnn_test_data::onnx_branch_net;
using net = ctnn::compile<ctnn::models::branch_net>;

static_assert(net::input_count == 1 && net::output_count == 1);
static_assert(net::input<0>::elements == data::input0_elements);
static_assert(net::output<0>::elements == data::output0_elements);

TEST_CASE("branch_net.onnx matches the NumPy reference") {
  ctnn_test::check_against_reference<net, data::case_count>(data::input0, data::expected0);
}
