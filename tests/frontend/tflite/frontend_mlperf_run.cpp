// A float MLPerf Tiny model (CTNN_MLPERF_MODEL), embedded by ctnn_add_model, compiled by the default
// pipeline and run on the TFLM reference inputs of ../shared/models/mlperf-tiny/refs/<model>: every output
// within the README's tolerance, |got - ref| <= 1e-5 * max|ref| + 1e-4 * |ref|.
#include <string>
#include <type_traits>

#include <doctest/doctest.h>

#include "float_model_check.hpp"

#include <ctnn/ctnn.hpp>
#include <ctnn/models/mlperf_model.hpp>

#define CTNN_STRINGIZE2(x) #x
#define CTNN_STRINGIZE(x) CTNN_STRINGIZE2(x)

using net = ctnn::compile<ctnn::models::mlperf_model>;
static_assert(net::input_count == 1 && net::output_count == 1);
static_assert(std::is_same_v<net::input<0>::element_type, float>, "the float models only (int8: frontend_mlperf_*)");

TEST_CASE("the float MLPerf Tiny model matches the TFLM reference outputs") {
  ctnn_test::check_float_model<net>(ctnn_test::path_of(CTNN_MLPERF_REFS_DIR, CTNN_STRINGIZE(CTNN_MLPERF_MODEL)), ".bin", 4);
}
