// sub_net.onnx (tests/data/onnx, from scripts/gen_onnx_test_models.py): Sub of a per-channel constant,
// then Sub of a second input (the operand order matters), NCHW, against NumPy.
#include <cmath>
#include <cstddef>

#include <ctnn/ctnn.hpp>
#include <ctnn/models/sub_net.hpp>

#include "e2e/reference_check.hpp"
#include "sub_net_expected.hpp"

namespace data = ctnn_test_data::onnx_sub_net;
using net = ctnn::compile<ctnn::models::sub_net>;

static_assert(net::input_count == 2 && net::output_count == 1);

TEST_CASE("sub_net.onnx matches the NumPy reference") {
  for (std::size_t c = 0; c < data::case_count; ++c) {
    float out[data::output0_elements];
    for (auto& v : out) v = std::nanf("");
    net::run(data::input0 + c * data::input0_elements, data::input1 + c * data::input1_elements, out);
    for (std::size_t i = 0; i < data::output0_elements; ++i) {
      CAPTURE(c);
      CAPTURE(i);
      const float want = data::expected0[c * data::output0_elements + i];
      CHECK(std::fabs(out[i] - want) <= 1e-6f * std::fabs(want) + 1e-7f);
    }
  }
}
