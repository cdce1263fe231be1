// Real torch.onnx.export models (tests/data/onnx_exports, scripts/export_torch_models.py) through the
// compile-time route: the embedded bytes compiled by ctnn::compile, run on the stored inputs against
// onnxruntime's outputs. The float models within the float tolerance (float_model_check.hpp); the QDQ model
// of onnxruntime's quantizer within 1 LSB of its output's quantization (the DequantizeLinear's scale).
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "float_model_check.hpp"

#include <ctnn/ctnn.hpp>
#include <ctnn/models/export_transformer_block_opset17.hpp>
#include <ctnn/models/export_unet.hpp>
#include <ctnn/models/export_unet_qdq.hpp>

namespace {

const std::string exports_dir = CTNN_ONNX_EXPORTS_DIR;

// The QDQ model's outputs within `lsb` (its output scale) of onnxruntime's output_<k>.qdq.bin.
template <class Net>
void check_within_one_lsb(const std::string& dir, float lsb) {
  for (int k = 0; k < 2; ++k) {
    CAPTURE(k);
    const std::vector<float> input = ctnn_test::read_floats(dir + "/input_" + std::to_string(k) + ".bin");
    const std::vector<float> expected = ctnn_test::read_floats(dir + "/output_" + std::to_string(k) + ".qdq.bin");
    REQUIRE(input.size() == Net::template input<0>::elements);
    REQUIRE(expected.size() == Net::template output<0>::elements);
    std::vector<float> output(expected.size(), std::nanf(""));
    Net::run(input.data(), output.data());
    for (std::size_t i = 0; i < output.size(); ++i) {
      CAPTURE(i);
      CHECK(std::fabs(output[i] - expected[i]) <= lsb * 1.001f);
    }
  }
}

}  // namespace

TEST_CASE("unet (float, opset 13): ConvTranspose, BatchNormalization, Resize, skip Concats") {
  ctnn_test::check_float_model<ctnn::compile<ctnn::models::export_unet>>(exports_dir + "/unet", ".bin", 2);
}

TEST_CASE("unet QDQ (onnxruntime's quantizer, per-channel int8 weights) within 1 LSB") {
  check_within_one_lsb<ctnn::compile<ctnn::models::export_unet_qdq>>(exports_dir + "/unet", CTNN_UNET_QDQ_OUTPUT_SCALE);
}

TEST_CASE("transformer block (opset 17): LayerNormalization, attention as torch writes it, Erf GELU") {
  ctnn_test::check_float_model<ctnn::compile<ctnn::models::export_transformer_block_opset17>>(
      exports_dir + "/transformer_block_opset17", ".bin", 2);
}
