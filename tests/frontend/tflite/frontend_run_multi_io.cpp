// multi_io.tflite: two inputs, three outputs (the sum, input a itself, the sum again): the outputs that
// are an input or repeated are written by copies.
#include <cmath>
#include <cstddef>

#include <ctnn/ctnn.hpp>
#include <ctnn/models/multi_io.hpp>

#include "multi_io_expected.hpp"
#include "e2e/reference_check.hpp"

namespace data = ctnn_test_data::tflite_multi_io;
using net = ctnn::compile<ctnn::models::multi_io>;

static_assert(net::input_count == 2 && net::output_count == 3);
static_assert(net::input<0>::name == "a" && net::input<1>::name == "b");
static_assert(net::output<0>::name == "sum" && net::output<1>::name == "a" && net::output<2>::name == "sum");

TEST_CASE("multi_io.tflite matches the NumPy reference") {
  for (std::size_t c = 0; c < data::case_count; ++c) {
    float sum[4], copy[4], again[4];
    for (std::size_t i = 0; i < 4; ++i) sum[i] = copy[i] = again[i] = std::nanf("");
    net::run(data::input0 + 4 * c, data::input1 + 4 * c, sum, copy, again);
    for (std::size_t i = 0; i < 4; ++i) {
      CAPTURE(c);
      CAPTURE(i);
      CHECK(sum[i] == doctest::Approx(data::expected0[4 * c + i]).epsilon(1e-6));
      CHECK(copy[i] == data::expected1[4 * c + i]);
      CHECK(again[i] == doctest::Approx(data::expected2[4 * c + i]).epsilon(1e-6));
    }
  }
}
