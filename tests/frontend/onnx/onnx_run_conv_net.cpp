// conv_net.onnx (tests/data/onnx, from scripts/gen_onnx_test_models.py), embedded by ctnn_add_model, compiled
// by the default pipeline and run on NCHW inputs against the NumPy float64 reference of the same file; and
// conv_net_dynamic_batch.onnx, the same graph with a symbolic batch ("batch", as torch.onnx.export's
// dynamic_axes writes it), bound to 1 by default: the same outputs.
#include <ctnn/ctnn.hpp>
#include <ctnn/models/conv_net.hpp>
#include <ctnn/models/conv_net_dynamic_batch.hpp>

#include "conv_net_expected.hpp"
#include "e2e/reference_check.hpp"

namespace data = ctnn_test_data::onnx_conv_net;
using net = ctnn::compile<ctnn::models::conv_net>;
using dynamic_batch_net = ctnn::compile<ctnn::models::conv_net_dynamic_batch>;

static_assert(net::input_count == 1 && net::output_count == 1);
static_assert(net::input<0>::elements == data::input0_elements);
static_assert(net::output<0>::elements == data::output0_elements);
static_assert(dynamic_batch_net::input<0>::elements == data::input0_elements);
static_assert(dynamic_batch_net::output<0>::elements == data::output0_elements);

TEST_CASE("conv_net.onnx matches the NumPy reference") {
  ctnn_test::check_against_reference<net, data::case_count>(data::input0, data::expected0);
}

TEST_CASE("conv_net_dynamic_batch.onnx (symbolic batch bound to 1) matches the same reference") {
  ctnn_test::check_against_reference<dynamic_batch_net, data::case_count>(data::input0, data::expected0);
}
