// mlp.onnx (tests/data/onnx, from scripts/gen_onnx_test_models.py): Gemm, BatchNormalization (folded into
// the dense layer), Relu, MatMul, Add, with the result listed twice among the outputs (the second is a
// copy); both outputs against the NumPy float64 reference.
#include <cmath>
#include <cstddef>

#include <ctnn/ctnn.hpp>
#include <ctnn/models/mlp.hpp>

#include "e2e/reference_check.hpp"
#include "mlp_expected.hpp"

namespace data = ctnn_test_data::onnx_mlp;
using net = ctnn::compile<ctnn::models::mlp>;

static_assert(net::input_count == 1 && net::output_count == 2);
static_assert(net::input<0>::dims == ctnn::make_shape(2, 16));
static_assert(net::output<0>::dims == ctnn::make_shape(2, 4) && net::output<1>::dims == ctnn::make_shape(2, 4));

TEST_CASE("mlp.onnx: both outputs match the NumPy reference") {
  for (std::size_t c = 0; c < data::case_count; ++c) {
    float first[data::output0_elements], second[data::output1_elements];
    for (auto& v : first) v = std::nanf("");
    for (auto& v : second) v = std::nanf("");
    net::run(data::input0 + c * data::input0_elements, first, second);
    for (std::size_t i = 0; i < data::output0_elements; ++i) {
      CAPTURE(c);
      CAPTURE(i);
      const float want = data::expected0[c * data::output0_elements + i];
      const float tolerance = ctnn_test::absolute_tolerance + ctnn_test::relative_tolerance * std::fabs(want);
      CHECK(std::fabs(first[i] - want) <= tolerance);
      CHECK(std::fabs(second[i] - data::expected1[c * data::output1_elements + i]) <= tolerance);
    }
  }
}
