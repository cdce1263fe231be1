// The generated ONNX models of tests/data/onnx (scripts/gen_onnx_test_models.py,
// gen_onnx_quant_test_models.py), each compiled with the default plan and with ctnn::in_place_windows and
// run on the same inputs (both_plans.hpp): under the arena checker (AddressSanitizer trees) no kernel
// touches pool bytes outside its call's planned ranges, and the two plans give the same outputs.
#include <doctest/doctest.h>

#include <ctnn/ctnn.hpp>
#include <ctnn/models/branch_net.hpp>
#include <ctnn/models/conv_net.hpp>
#include <ctnn/models/mlp.hpp>
#include <ctnn/models/plain_integer_net.hpp>
#include <ctnn/models/q_conv_net.hpp>
#include <ctnn/models/q_integer_net.hpp>
#include <ctnn/models/transpose_net.hpp>

#include "both_plans.hpp"

TEST_CASE_TEMPLATE("a generated ONNX model runs within its plan, with and without in-place windows", Model,
                   ctnn::models::conv_net, ctnn::models::branch_net, ctnn::models::mlp, ctnn::models::transpose_net,
                   ctnn::models::plain_integer_net, ctnn::models::q_conv_net, ctnn::models::q_integer_net) {
  ctnn_test::check_both_plans_agree<ctnn::compile<Model>, ctnn::compile<Model, ctnn::in_place_windows>>();
}
