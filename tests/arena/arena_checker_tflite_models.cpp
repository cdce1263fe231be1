// The generated TFLite models of tests/data/tflite (scripts/gen_tflite_test_models.py), each compiled with
// the default plan and with ctnn::in_place_windows and run on the same inputs (both_plans.hpp): under the
// arena checker (AddressSanitizer trees) no kernel touches pool bytes outside its call's planned ranges,
// and the two plans give the same outputs.
#include <doctest/doctest.h>

#include <ctnn/ctnn.hpp>
#include <ctnn/models/branch_net.hpp>
#include <ctnn/models/conv_net.hpp>
#include <ctnn/models/int8_net.hpp>
#include <ctnn/models/mean_net.hpp>
#include <ctnn/models/multi_io.hpp>

#include "both_plans.hpp"

TEST_CASE_TEMPLATE("a generated TFLite model runs within its plan, with and without in-place windows", Model,
                   ctnn::models::conv_net, ctnn::models::branch_net, ctnn::models::multi_io, ctnn::models::mean_net,
                   ctnn::models::int8_net) {
  ctnn_test::check_both_plans_agree<ctnn::compile<Model>, ctnn::compile<Model, ctnn::in_place_windows>>();
}
