// plain_integer_net.onnx (tests/data/onnx, from scripts/gen_onnx_test_models.py): ONNX's plain integer
// arithmetic (uint8 Add with broadcasting and Mul by a uint8 constant, int32 Mul, int64 Add: results wrap
// around), a uint8 MaxPool with pads (run in NHWC between uint8 transposes), an int32 Pad in mode reflect,
// and MatMul of two activations (batch_matmul: batch dims broadcast, a 1-D A). Compiled with the full and
// the shared specialisation policy and run at run time by module_runner (ctnn-run's path), against NumPy:
// integers bit for bit, floats within the e2e tolerance.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/ctnn.hpp>
#include <ctnn/kernel/run_module.hpp>
#include <ctnn/models/plain_integer_net.hpp>

#include "e2e/reference_check.hpp"
#include "plain_integer_net_expected.hpp"

namespace {

namespace data = ctnn_test_data::onnx_plain_integer_net;
using model = ctnn::models::plain_integer_net;
using full_net = ctnn::compile<model>;
using shared_net = ctnn::compile<model, ctnn::specialisation<ctnn::shared>>;
using ctnn::op_kind;

static_assert(std::is_same_v<full_net::input<0>::element_type, std::uint8_t> && std::is_same_v<full_net::input<2>::element_type, std::int32_t> &&
              std::is_same_v<full_net::input<3>::element_type, std::int64_t> && std::is_same_v<full_net::output<1>::element_type, std::int32_t>);
static_assert(full_net::output<0>::dims == ctnn::make_shape(1, 2, 3, 3) && full_net::output<1>::dims == ctnn::make_shape(2, 5, 7) &&
              full_net::output<2>::dims == ctnn::make_shape(2, 3) && full_net::output<4>::dims == ctnn::make_shape(1, 2));

// Every plain integer call runs an ONNX integer kernel (requantization onnx); both MatMuls are batch_matmul.
constexpr bool lowered_as_expected() {
  const auto& m = full_net::module;
  std::int32_t integer_calls = 0, matmuls = 0;
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    const ctnn::kernel_params& p = m.calls[static_cast<std::size_t>(c)].params;
    if (p.type != ctnn::dtype::f32 && p.kind != op_kind::transpose && p.kind != op_kind::reshape) {
      if (p.requantization != ctnn::requantization_policy::onnx || p.out_type != p.type) return false;
      ++integer_calls;
    }
    matmuls += p.kind == op_kind::batch_matmul ? 1 : 0;
  }
  return integer_calls == 6 && matmuls == 2;  // uint8 add, max_pool, mul; int32 mul, pad; int64 add
}
static_assert(lowered_as_expected());

template <class T>
void check_values(const T* got, const T* want, std::size_t n, std::size_t c, std::size_t output) {
  for (std::size_t i = 0; i < n; ++i) {
    CAPTURE(c);
    CAPTURE(output);
    CAPTURE(i);
    if constexpr (std::is_floating_point_v<T>)
      CHECK(std::fabs(got[i] - want[i]) <= ctnn_test::absolute_tolerance + ctnn_test::relative_tolerance * std::fabs(want[i]));
    else
      CHECK(got[i] == want[i]);
  }
}

// Case c's inputs and room for its five outputs, checked against NumPy.
struct run_case {
  std::size_t c;
  std::vector<std::uint8_t> q = std::vector<std::uint8_t>(data::output0_elements);
  std::vector<std::int32_t> r = std::vector<std::int32_t>(data::output1_elements);
  std::vector<std::int64_t> s = std::vector<std::int64_t>(data::output2_elements);
  std::vector<float> mm = std::vector<float>(data::output3_elements, std::nanf(""));
  std::vector<float> mv = std::vector<float>(data::output4_elements, std::nanf(""));

  template <class Net>
  void run() {
    Net::run(data::input0 + c * data::input0_elements, data::input1 + c * data::input1_elements, data::input2 + c * data::input2_elements,
             data::input3 + c * data::input3_elements, data::input4 + c * data::input4_elements, data::input5 + c * data::input5_elements,
             data::input6 + c * data::input6_elements, data::input7 + c * data::input7_elements, q.data(), r.data(), s.data(), mm.data(),
             mv.data());
  }
  std::vector<const void*> inputs() const {
    return {data::input0 + c * data::input0_elements, data::input1 + c * data::input1_elements, data::input2 + c * data::input2_elements,
            data::input3 + c * data::input3_elements, data::input4 + c * data::input4_elements, data::input5 + c * data::input5_elements,
            data::input6 + c * data::input6_elements, data::input7 + c * data::input7_elements};
  }
  std::vector<void*> outputs() { return {q.data(), r.data(), s.data(), mm.data(), mv.data()}; }
  void check() const {
    check_values(q.data(), data::expected0 + c * data::output0_elements, q.size(), c, 0);
    check_values(r.data(), data::expected1 + c * data::output1_elements, r.size(), c, 1);
    check_values(s.data(), data::expected2 + c * data::output2_elements, s.size(), c, 2);
    check_values(mm.data(), data::expected3 + c * data::output3_elements, mm.size(), c, 3);
    check_values(mv.data(), data::expected4 + c * data::output4_elements, mv.size(), c, 4);
  }
};

}  // namespace

TEST_CASE("plain_integer_net.onnx matches NumPy with the full and the shared kernels") {
  for (std::size_t c = 0; c < data::case_count; ++c) {
    run_case full{c}, shared{c};
    full.run<full_net>();
    full.check();
    shared.run<shared_net>();
    shared.check();
  }
}

TEST_CASE("plain_integer_net.onnx at run time (module_runner, invoke_dynamic)") {
  ctnn::kernel::module_runner runner{shared_net::module};
  REQUIRE(runner.status() == ctnn::kernel::run_status::ok);
  for (std::size_t c = 0; c < data::case_count; ++c) {
    run_case at_run_time{c};
    const std::vector<const void*> inputs = at_run_time.inputs();
    const std::vector<void*> outputs = at_run_time.outputs();
    REQUIRE(runner.run(inputs, outputs) == ctnn::kernel::run_status::ok);
    at_run_time.check();
  }
}
