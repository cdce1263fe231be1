// sub_net.tflite (float32: SUB with broadcast and a fused RELU, then SUB of a constant) against NumPy, and
// sub_int8.tflite (int8: SUB with broadcast both ways, a fused RELU6, different scales) bit-exact against
// TensorFlow Lite Micro's reference kernels (the expected bytes are TFLM's: tests/data/tflite).
#include <cmath>
#include <cstddef>
#include <cstdint>

#include <ctnn/ctnn.hpp>
#include <ctnn/models/sub_int8.hpp>
#include <ctnn/models/sub_net.hpp>

#include "e2e/reference_check.hpp"
#include "sub_int8_expected.hpp"
#include "sub_net_expected.hpp"

namespace {

namespace float_data = ctnn_test_data::tflite_sub_net;
namespace int8_data = ctnn_test_data::tflite_sub_int8;
using float_net = ctnn::compile<ctnn::models::sub_net>;
using int8_net = ctnn::compile<ctnn::models::sub_int8>;

static_assert(float_net::input_count == 2 && float_net::output_count == 2);
static_assert(int8_net::input_count == 2 && int8_net::output_count == 2);

}  // namespace

TEST_CASE("sub_net.tflite (float32 SUB, broadcast, fused RELU) matches the NumPy reference") {
  for (std::size_t c = 0; c < float_data::case_count; ++c) {
    float first[float_data::output0_elements], second[float_data::output1_elements];
    for (auto& v : first) v = std::nanf("");
    for (auto& v : second) v = std::nanf("");
    float_net::run(float_data::input0 + c * float_data::input0_elements, float_data::input1 + c * float_data::input1_elements,
                   first, second);
    for (std::size_t i = 0; i < float_data::output0_elements; ++i) {
      CAPTURE(c);
      CAPTURE(i);
      CHECK(first[i] == doctest::Approx(float_data::expected0[c * float_data::output0_elements + i]).epsilon(1e-6));
      CHECK(second[i] == doctest::Approx(float_data::expected1[c * float_data::output1_elements + i]).epsilon(1e-6));
    }
  }
}

TEST_CASE("sub_int8.tflite (int8 SUB) is bit-exact with TFLite Micro's reference kernels") {
  for (std::size_t c = 0; c < int8_data::case_count; ++c) {
    std::int8_t first[int8_data::output0_elements], second[int8_data::output1_elements];
    for (auto& v : first) v = 0x55;
    for (auto& v : second) v = 0x55;
    int8_net::run(int8_data::input0 + c * int8_data::input0_elements, int8_data::input1 + c * int8_data::input1_elements,
                  first, second);
    for (std::size_t i = 0; i < int8_data::output0_elements; ++i) {
      CAPTURE(c);
      CAPTURE(i);
      CHECK(int{first[i]} == int{int8_data::expected0[c * int8_data::output0_elements + i]});
      CHECK(int{second[i]} == int{int8_data::expected1[c * int8_data::output1_elements + i]});
    }
  }
}
