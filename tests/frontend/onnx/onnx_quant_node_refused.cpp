// ONNX's node test quantizelinear_blocked_asymmetric (../shared/onnx-node-tests), its operands after the
// first bound as initializers (tests/frontend/onnx/CMakeLists.txt): blocked quantization (QuantizeLinear's
// block_size) is not supported, and the import says so with the attribute's name instead of compiling the
// model without it. (The supported quantized node tests run in the case suite onnx_quant_node_compiled.)
#include <cstdint>

#include <doctest/doctest.h>

#include <ctnn/ctnn.hpp>
#include <ctnn/models/node_test.hpp>

static_assert(ctnn::models::node_test::imported.error.code == ctnn::onnx::code_of(ctnn::onnx::onnx_error::unsupported_attribute) &&
              ctnn::models::node_test::imported.error.attribute == static_cast<std::int64_t>(ctnn::onnx::attribute::block_size));

TEST_CASE("blocked quantization is refused with a diagnostic naming block_size") {
  CHECK(ctnn::models::node_test::imported.error.failed());
}
