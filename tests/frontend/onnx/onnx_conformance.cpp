// A float ONNX model of ../shared/models/onnx (CTNN_ONNX_MODEL), embedded by ctnn_add_model, compiled by
// the default pipeline and run on its four stored inputs: every output within the README's tolerance of
// onnxruntime's, |got - ref| <= 1e-5 * max|ref| + 1e-4 * |ref|. Inputs and outputs are NCHW (the model's
// own layout), fed and read as onnxruntime does.
#include <string>
#include <type_traits>

#include <doctest/doctest.h>

#include "float_model_check.hpp"

#include <ctnn/ctnn.hpp>
#include <ctnn/models/onnx_model.hpp>

#define CTNN_STRINGIZE2(x) #x
#define CTNN_STRINGIZE(x) CTNN_STRINGIZE2(x)

using net = ctnn::compile<ctnn::models::onnx_model>;
static_assert(net::input_count == 1 && net::output_count == 1);
static_assert(std::is_same_v<net::input<0>::element_type, float>);

TEST_CASE("the float ONNX model matches onnxruntime's outputs") {
  ctnn_test::check_float_model<net>(ctnn_test::path_of(CTNN_ONNX_MODELS_DIR, CTNN_STRINGIZE(CTNN_ONNX_MODEL)), ".ort.bin", 4);
}
