// One of ONNX's node tests of the quantized ops (../shared/onnx-node-tests/test_<name>), its operands after
// the first bound as initializers (tests/onnx/CMakeLists.txt): the compiled model (full and shared
// policies) and the module run at run time give test_data_set_0's output exactly. A test ctnn does not
// support (CTNN_NODE_TEST_UNSUPPORTED) must fail its import with a diagnostic instead.
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/ctnn.hpp>
#include <ctnn/kernel/run_module.hpp>
#include <ctnn/models/node_test.hpp>

#include "node_test_data.hpp"

namespace data = ctnn_test_data::node_test;

#ifdef CTNN_NODE_TEST_UNSUPPORTED
// Blocked quantization (QuantizeLinear block_size): reported as the attribute block_size.
static_assert(ctnn::models::node_test::imported.error.code == ctnn::onnx::code_of(ctnn::onnx::onnx_error::unsupported_attribute) &&
              ctnn::models::node_test::imported.error.attribute == static_cast<std::int64_t>(ctnn::onnx::attribute::block_size));
TEST_CASE("the node test is refused with a diagnostic") { CHECK(ctnn::models::node_test::imported.error.failed()); }
#else
using full = ctnn::compile<ctnn::models::node_test>;
using shared = ctnn::compile<ctnn::models::node_test, ctnn::specialisation<ctnn::shared>>;
static_assert(full::input<0>::elements == data::input0_elements && full::output<0>::elements == data::expected0_elements);

template <class T>
void check_equal(const std::vector<T>& got) {
  for (std::size_t i = 0; i < got.size(); ++i) {
    CAPTURE(i);
    CHECK(got[i] == data::expected0[i]);
  }
}

using element = std::remove_cv_t<std::remove_extent_t<decltype(data::expected0)>>;

TEST_CASE("the node test's output, full and shared policies") {
  std::vector<element> got(data::expected0_elements);
  full::run(data::input0, got.data());
  check_equal(got);
  std::vector<element> got_shared(data::expected0_elements);
  shared::run(data::input0, got_shared.data());
  check_equal(got_shared);
}

TEST_CASE("the node test's output at run time (module_runner)") {
  ctnn::kernel::module_runner runner{shared::module};
  REQUIRE(runner.status() == ctnn::kernel::run_status::ok);
  std::vector<element> got(data::expected0_elements);
  const void* const inputs[] = {data::input0};
  void* const outputs[] = {got.data()};
  REQUIRE(runner.run(inputs, outputs) == ctnn::kernel::run_status::ok);
  check_equal(got);
}
#endif
