// The frontend_consumer_add_model test's program: a model file embedded by ctnn_add_model from an
// installed ctnn (generated header <ctnn/models/tiny.hpp>, type consumer::models::tiny), compiled and run.
#include <cmath>
#include <cstdio>

#include <ctnn/ctnn.hpp>
#include <ctnn/models/tiny.hpp>

#include "multi_io_expected.hpp"

namespace data = ctnn_test_data::tflite_multi_io;
using net = ctnn::compile<consumer::models::tiny>;
static_assert(net::input_count == 2 && net::output_count == 3);

int main() {
  bool ok = true;
  for (std::size_t c = 0; c < data::case_count; ++c) {
    float sum[4], a[4], again[4];
    net::run(data::input0 + 4 * c, data::input1 + 4 * c, sum, a, again);
    for (std::size_t i = 0; i < 4; ++i)
      ok = ok && std::fabs(sum[i] - data::expected0[4 * c + i]) <= 1e-6f && a[i] == data::expected1[4 * c + i] &&
           again[i] == sum[i];
  }
  std::printf("multi_io from an embedded .tflite: %s\n", ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
