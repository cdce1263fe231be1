// The generated quantized ONNX models (tests/data/onnx/q_*, scripts/gen_onnx_quant_test_models.py) against
// their NumPy expectations (ONNX semantics), bit for bit: compiled with the full and the shared
// specialisation policy, and run at run time by module_runner (ctnn-run's path).
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/ctnn.hpp>
#include <ctnn/kernel/run_module.hpp>
#include <ctnn/models/q_conv_net.hpp>
#include <ctnn/models/q_integer_net.hpp>

#include "q_conv_net_expected.hpp"
#include "q_integer_net_expected.hpp"

namespace conv_data = ctnn_test_data::onnx_q_conv_net;
namespace integer_data = ctnn_test_data::onnx_q_integer_net;

using conv_full = ctnn::compile<ctnn::models::q_conv_net>;
using conv_shared = ctnn::compile<ctnn::models::q_conv_net, ctnn::specialisation<ctnn::shared>>;
using integer_full = ctnn::compile<ctnn::models::q_integer_net>;
using integer_shared = ctnn::compile<ctnn::models::q_integer_net, ctnn::specialisation<ctnn::shared>>;

static_assert(ctnn::models::q_conv_net::imported.requantization == ctnn::requantization_policy::onnx);
static_assert(conv_full::input<0>::dims == ctnn::make_shape(1, 3, 6, 6) && conv_full::output<0>::dims == ctnn::make_shape(1, 4, 3, 3));
static_assert(conv_full::output<1>::dims == ctnn::make_shape(1, 4, 6, 6));
static_assert(integer_full::input<0>::dims == ctnn::make_shape(1, 2, 5, 5) && integer_full::input<1>::dims == ctnn::make_shape(2, 3, 5));
static_assert(integer_full::output<0>::dims == ctnn::make_shape(1, 3, 6, 3) && integer_full::output<1>::dims == ctnn::make_shape(2, 3, 4));

namespace {

template <class T>
void check_equal(const T* got, const T* want, std::size_t n, std::size_t c) {
  for (std::size_t i = 0; i < n; ++i) {
    CAPTURE(c);
    CAPTURE(i);
    CHECK(got[i] == want[i]);
  }
}

template <class Net>
void check_conv_net(const char* policy) {
  INFO(policy);
  constexpr std::size_t in = conv_data::input0_elements / 3, out0 = conv_data::expected0_elements / 3, out1 = conv_data::expected1_elements / 3;
  for (std::size_t c = 0; c < 3; ++c) {
    float y[out0]{};
    std::uint8_t y1[out1]{};
    Net::run(conv_data::input0 + c * in, y, y1);
    check_equal(y, conv_data::expected0 + c * out0, out0, c);
    check_equal(y1, conv_data::expected1 + c * out1, out1, c);
  }
}

template <class Net>
void check_integer_net(const char* policy) {
  INFO(policy);
  constexpr std::size_t in0 = integer_data::input0_elements / 3, in1 = integer_data::input1_elements / 3;
  constexpr std::size_t out0 = integer_data::expected0_elements / 3, out1 = integer_data::expected1_elements / 3;
  for (std::size_t c = 0; c < 3; ++c) {
    std::int32_t conv[out0]{};
    std::int8_t mm[out1]{};
    Net::run(integer_data::input0 + c * in0, integer_data::input1 + c * in1, conv, mm);
    check_equal(conv, integer_data::expected0 + c * out0, out0, c);
    check_equal(mm, integer_data::expected1 + c * out1, out1, c);
  }
}

}  // namespace

TEST_CASE("q_conv_net.onnx: Quantize, QLinearConv (per-channel int8), depthwise QLinearConv (uint8), Dequantize") {
  check_conv_net<conv_full>("full");
  check_conv_net<conv_shared>("shared");
}

TEST_CASE("q_integer_net.onnx: ConvInteger (per-channel zero points), QLinearMatMul (per-column scales)") {
  check_integer_net<integer_full>("full");
  check_integer_net<integer_shared>("shared");
}

TEST_CASE("q_conv_net.onnx at run time (module_runner, invoke_dynamic)") {
  ctnn::kernel::module_runner runner{conv_shared::module};
  REQUIRE(runner.status() == ctnn::kernel::run_status::ok);
  constexpr std::size_t out0 = conv_data::expected0_elements / 3, out1 = conv_data::expected1_elements / 3;
  std::vector<float> y(out0);
  std::vector<std::uint8_t> y1(out1);
  const void* const inputs[] = {conv_data::input0};
  void* const outputs[] = {y.data(), y1.data()};
  REQUIRE(runner.run(inputs, outputs) == ctnn::kernel::run_status::ok);
  check_equal(y.data(), conv_data::expected0, out0, 0);
  check_equal(y1.data(), conv_data::expected1, out1, 0);
}
