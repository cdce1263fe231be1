// QDQ models (frontend/onnx/import_qdq.hpp; docs/frontends.md, "QDQ models"): the groups the importer lowers
// leave integer ops only, and the ones it cannot lower are refused with onnx_qdq_group, naming the node and the
// operand. The models: tests/data/ops/qdq (the op-conformance cases, both routes against onnxruntime) and
// tests/data/onnx/bad_qdq_*.onnx (scripts/gen_op_tests_qdq.py).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/frontend/onnx.hpp>

namespace onnx = ctnn::onnx;

namespace {

constexpr std::size_t tensors = 1024, nodes = 1024, values = 512, relayouts = 256;
using result = onnx::import_result<tensors, nodes, relayouts>;

std::unique_ptr<result> import_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path);
  const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const onnx::import_counts b = onnx::bounds(bytes.data(), bytes.size());
  REQUIRE((b.tensors <= tensors && b.nodes <= nodes && b.values <= values && b.relayouts <= relayouts));
  auto r = std::make_unique<result>();
  onnx::import_into<values>(*r, bytes.data(), bytes.size());
  return r;
}

std::string words(const std::string& path, const ctnn::diagnostic& d) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::string text;
  onnx::describe(d, bytes.data(), bytes.size(), [&](std::string_view s) { text += s; });
  return text;
}

std::vector<ctnn::op_kind> kinds(const result& r) {
  std::vector<ctnn::op_kind> out;
  for (std::int32_t i = 0; i < r.ir.node_count; ++i) out.push_back(r.ir.node_at(i).kind);
  return out;
}

const std::string cases = CTNN_QDQ_CASES_DIR;
const std::string data = CTNN_ONNX_TEST_DATA_DIR;

}  // namespace

TEST_CASE("a QDQ Conv group is one integer conv2d on NHWC data; its DequantizeLinear nodes are gone") {
  // The model's NCHW input and output are transposed once each; the conv reads and writes NHWC (onnx_nhwc).
  const auto r = import_file(cases + "/conv_u8_per_tensor/model.onnx");
  REQUIRE_FALSE(r->ir.error.failed());
  REQUIRE(kinds(*r) == std::vector{ctnn::op_kind::transpose, ctnn::op_kind::conv2d, ctnn::op_kind::transpose});
  const ctnn::node& conv = r->ir.node_at(1);
  CHECK(conv.attrs.layout == ctnn::data_layout::onnx_nhwc);
  CHECK(r->ir.tensor_at(conv.inputs[0]).type == ctnn::dtype::u8);
  CHECK(r->ir.tensor_at(conv.inputs[1]).type == ctnn::dtype::i8);
  CHECK(r->ir.tensor_at(conv.inputs[2]).type == ctnn::dtype::i32);
  CHECK(r->ir.tensor_at(conv.output).quant.scale == 0.05f);
  CHECK(r->ir.tensor_at(conv.output).quant.zero_point == 120);
}

TEST_CASE("Gemm with transB = 1 is a 1x1 conv2d over the [M, K, 1, 1] view; MatMul a dense") {
  const auto gemm = import_file(cases + "/gemm_s8_per_channel_bias/model.onnx");
  REQUIRE_FALSE(gemm->ir.error.failed());
  CHECK(kinds(*gemm) == std::vector{ctnn::op_kind::reshape, ctnn::op_kind::conv2d, ctnn::op_kind::reshape});
  const auto matmul = import_file(cases + "/matmul_s8_per_channel/model.onnx");
  REQUIRE_FALSE(matmul->ir.error.failed());
  CHECK(kinds(*matmul) == std::vector{ctnn::op_kind::dense});
}

TEST_CASE("MaxPool and data movement of a DequantizeLinear run on the integers") {
  for (const char* name : {"maxpool_u8", "reshape_transpose_flatten_u8"}) {
    CAPTURE(name);
    const auto r = import_file(cases + "/" + name + "/model.onnx");
    REQUIRE_FALSE(r->ir.error.failed());
    for (const ctnn::op_kind k : kinds(*r)) {
      CHECK(k != ctnn::op_kind::quantize);
      CHECK(k != ctnn::op_kind::dequantize);
    }
  }
}

TEST_CASE("DequantizeLinear -> Add -> QuantizeLinear of one shape and type is one integer add (QLinearAdd)") {
  for (const char* name : {"add_u8", "qlinear_add_odd_u8", "qlinear_add_odd_s8", "qlinear_add_ties_s8", "qlinear_add_one_u8"}) {
    CAPTURE(name);
    const auto r = import_file(cases + "/" + name + "/model.onnx");
    REQUIRE_FALSE(r->ir.error.failed());
    REQUIRE(kinds(*r) == std::vector{ctnn::op_kind::add});
    const ctnn::node& add = r->ir.node_at(0);
    const ctnn::dtype type = r->ir.tensor_at(add.output).type;
    CHECK((type == ctnn::dtype::u8 || type == ctnn::dtype::i8));
    CHECK(r->ir.tensor_at(add.inputs[0]).type == type);
    CHECK(r->ir.tensor_at(add.inputs[1]).type == type);
    CHECK(r->ir.tensor_at(add.output).quant.scale != 0.0f);
    CHECK(r->ir.tensor_at(add.inputs[1]).quant.scale != 0.0f);
  }
  // add_u8's quantization: a (0.05, 128), b (0.02, 30), y (0.07, 100).
  const auto r = import_file(cases + "/add_u8/model.onnx");
  const ctnn::node& add = r->ir.node_at(0);
  CHECK(r->ir.tensor_at(add.inputs[0]).quant.scale == 0.05f);
  CHECK(r->ir.tensor_at(add.inputs[0]).quant.zero_point == 128);
  CHECK(r->ir.tensor_at(add.inputs[1]).quant.scale == 0.02f);
  CHECK(r->ir.tensor_at(add.inputs[1]).quant.zero_point == 30);
  CHECK(r->ir.tensor_at(add.output).quant.scale == 0.07f);
  CHECK(r->ir.tensor_at(add.output).quant.zero_point == 100);
}

TEST_CASE("DequantizeLinear -> Mul/Add -> QuantizeLinear with broadcasting is one integer mul/add (QLinearMul, QLinearAdd)") {
  struct expected {
    const char* name;
    ctnn::op_kind kind;
    float first_scale;  // the node's first operand's scale: a broadcast first Add operand comes second
  };
  for (const expected& e : {expected{"mul_s8_broadcast", ctnn::op_kind::mul, 0.04f}, expected{"qlinear_mul_ties_u8", ctnn::op_kind::mul, 0.5f},
                            expected{"qlinear_mul_channel_u8", ctnn::op_kind::mul, 0.02f},
                            expected{"qlinear_mul_scalar_first_s8", ctnn::op_kind::mul, 0.03f},
                            expected{"qlinear_add_channel_first_s8", ctnn::op_kind::add, 2.0f / 3.0f},
                            expected{"qlinear_add_channel_second_u8", ctnn::op_kind::add, 1.0f},
                            expected{"qlinear_add_row_u8", ctnn::op_kind::add, 1.0f},
                            expected{"qlinear_add_scalar_first_s8", ctnn::op_kind::add, 2.0f / 3.0f}}) {
    CAPTURE(e.name);
    const auto r = import_file(cases + "/" + e.name + "/model.onnx");
    REQUIRE_FALSE(r->ir.error.failed());
    const auto k = kinds(*r);
    REQUIRE(std::find(k.begin(), k.end(), e.kind) != k.end());
    CHECK(std::find(k.begin(), k.end(), ctnn::op_kind::dequantize) == k.end());
    CHECK(std::find(k.begin(), k.end(), ctnn::op_kind::quantize) == k.end());
    for (std::int32_t i = 0; i < r->ir.node_count; ++i) {
      const ctnn::node& n = r->ir.node_at(i);
      if (n.kind != e.kind) continue;
      CHECK(r->ir.tensor_at(n.output).type != ctnn::dtype::f32);
      CHECK(r->ir.tensor_at(n.inputs[0]).quant.scale == e.first_scale);
      CHECK(r->ir.tensor_at(n.inputs[1]).quant.scale != 0.0f);
    }
  }
}

TEST_CASE("an Add of a quantized constant (a broadcast) stays float between DequantizeLinear and QuantizeLinear") {
  const auto r = import_file(cases + "/add_constant_u8/model.onnx");
  REQUIRE_FALSE(r->ir.error.failed());
  const auto k = kinds(*r);
  CHECK(std::find(k.begin(), k.end(), ctnn::op_kind::dequantize) != k.end());
  CHECK(std::find(k.begin(), k.end(), ctnn::op_kind::quantize) != k.end());
}

TEST_CASE("the small CNNs' residual Add runs on the integers: no float op is left") {
  for (const char* name : {"cnn_u8", "cnn_s8"}) {
    CAPTURE(name);
    const auto r = import_file(cases + "/" + name + "/model.onnx");
    REQUIRE_FALSE(r->ir.error.failed());
    std::int32_t adds = 0;
    for (std::int32_t i = 0; i < r->ir.node_count; ++i) {
      const ctnn::node& n = r->ir.node_at(i);
      CHECK(n.kind != ctnn::op_kind::dequantize);
      if (n.kind != ctnn::op_kind::add) continue;
      ++adds;
      CHECK(r->ir.tensor_at(n.output).type != ctnn::dtype::f32);
    }
    CHECK(adds == 1);
  }
}

TEST_CASE("DequantizeLinear -> GlobalAveragePool -> QuantizeLinear is ONNX's integer pool on the 8-bit data") {
  for (const char* name : {"global_avgpool_u8", "global_avgpool_ties_u8"}) {
    CAPTURE(name);
    const auto r = import_file(cases + "/" + name + "/model.onnx");
    REQUIRE_FALSE(r->ir.error.failed());
    std::int32_t pools = 0;
    for (std::int32_t i = 0; i < r->ir.node_count; ++i) {
      const ctnn::node& n = r->ir.node_at(i);
      CHECK(n.kind != ctnn::op_kind::quantize);
      CHECK(n.kind != ctnn::op_kind::dequantize);
      if (n.kind != ctnn::op_kind::global_avg_pool) continue;
      ++pools;
      CHECK(r->ir.tensor_at(n.inputs[0]).type == ctnn::dtype::u8);
      CHECK(r->ir.tensor_at(n.output).type == ctnn::dtype::u8);
    }
    CHECK(pools == 1);
  }
  // In the small CNN too, between its integer Add and its Gemm.
  const auto cnn = import_file(cases + "/cnn_s8/model.onnx");
  REQUIRE_FALSE(cnn->ir.error.failed());
  const auto k = kinds(*cnn);
  const auto pool = std::find(k.begin(), k.end(), ctnn::op_kind::global_avg_pool);
  REQUIRE(pool != k.end());
  CHECK(cnn->ir.tensor_at(cnn->ir.node_at(static_cast<std::int32_t>(pool - k.begin())).output).type == ctnn::dtype::i8);
}

TEST_CASE("DequantizeLinear -> AveragePool -> QuantizeLinear is onnxruntime's QLinearAveragePool on the 8-bit data") {
  // A window: avg_pool on the integers (count_include_pad: after a pad of x's zero point); the whole image
  // without pads: the integer global pool; count_include_pad with ceil_mode: the float pool.
  struct expectation {
    const char* name;
    ctnn::op_kind pool;
    bool padded;
  };
  for (const expectation e : {expectation{"avgpool_s8", ctnn::op_kind::avg_pool, false},
                              expectation{"avgpool_include_pad_u8", ctnn::op_kind::avg_pool, true},
                              expectation{"avgpool_ceil_s8", ctnn::op_kind::avg_pool, false},
                              expectation{"avgpool_1d_u8", ctnn::op_kind::avg_pool, false},
                              expectation{"avgpool_ties_s8", ctnn::op_kind::avg_pool, false},
                              expectation{"avgpool_whole_image_u8", ctnn::op_kind::global_avg_pool, false}}) {
    CAPTURE(e.name);
    const auto r = import_file(cases + "/" + e.name + "/model.onnx");
    REQUIRE_FALSE(r->ir.error.failed());
    std::int32_t pools = 0, pads = 0;
    for (std::int32_t i = 0; i < r->ir.node_count; ++i) {
      const ctnn::node& n = r->ir.node_at(i);
      CHECK(n.kind != ctnn::op_kind::quantize);
      CHECK(n.kind != ctnn::op_kind::dequantize);
      const ctnn::tensor& in = r->ir.tensor_at(n.inputs[0]);
      if (n.kind == ctnn::op_kind::pad) {
        ++pads;
        CHECK(n.attrs.pad.fill_value() == static_cast<float>(in.quant.zero_point));
      }
      if (n.kind != e.pool) continue;
      ++pools;
      CHECK(in.type == r->ir.tensor_at(n.output).type);
      CHECK(in.quant.scale > 0.0f);
      CHECK(r->ir.tensor_at(n.output).quant.scale > 0.0f);
    }
    CHECK(pools == 1);
    CHECK(pads == (e.padded ? 1 : 0));
  }
  const auto float_pool = import_file(cases + "/avgpool_ceil_include_pad_s8/model.onnx");
  REQUIRE_FALSE(float_pool->ir.error.failed());
  const auto k = kinds(*float_pool);
  CHECK(std::find(k.begin(), k.end(), ctnn::op_kind::dequantize) != k.end());
}

TEST_CASE("a GlobalAveragePool another op reads, or a model output, is the float pool") {
  const auto relu = import_file(cases + "/global_avgpool_relu_u8/model.onnx");
  REQUIRE_FALSE(relu->ir.error.failed());
  const auto k = kinds(*relu);
  CHECK(std::find(k.begin(), k.end(), ctnn::op_kind::dequantize) != k.end());
  CHECK(std::find(k.begin(), k.end(), ctnn::op_kind::relu) != k.end());
  const auto output = import_file(cases + "/global_avgpool_float_output_s8/model.onnx");
  REQUIRE_FALSE(output->ir.error.failed());
  for (const auto* r : {relu.get(), output.get()})
    for (std::int32_t i = 0; i < r->ir.node_count; ++i)
      if (r->ir.node_at(i).kind == ctnn::op_kind::global_avg_pool) CHECK(r->ir.tensor_at(r->ir.node_at(i).output).type == ctnn::dtype::f32);
}

TEST_CASE("DequantizeLinear -> QuantizeLinear of one scale into another type is an integer requantization") {
  const auto r = import_file(cases + "/requantize_s8_u8/model.onnx");
  REQUIRE_FALSE(r->ir.error.failed());
  std::int32_t requantizations = 0;
  for (std::int32_t i = 0; i < r->ir.node_count; ++i) {
    const ctnn::node& n = r->ir.node_at(i);
    CHECK(n.kind != ctnn::op_kind::dequantize);
    if (n.kind != ctnn::op_kind::quantize) continue;
    ++requantizations;
    CHECK(r->ir.tensor_at(n.inputs[0]).type == ctnn::dtype::i8);
    CHECK(r->ir.tensor_at(n.output).type == ctnn::dtype::u8);
    CHECK(r->ir.tensor_at(n.output).quant.zero_point == 140);
  }
  CHECK(requantizations == 1);
}

TEST_CASE("QDQ groups that cannot be lowered are refused with onnx_qdq_group") {
  struct refusal {
    const char* model;
    std::int32_t node;
    std::uint32_t slot;
    const char* where;
  };
  // Node 0 dequantizes x, node 1 the weights (node 2 the bias, if any), then the Conv. A Relu of the Conv's
  // result (bad_qdq_two_readers: beside its QuantizeLinear) joins the group: its float result, a model output,
  // is the Conv's.
  for (const refusal& c : {refusal{"bad_qdq_float_result.onnx", 2, 0, "node 2 (Conv), operand 0"},
                           refusal{"bad_qdq_two_readers.onnx", 2, 0, "node 2 (Conv), operand 0"},
                           refusal{"bad_qdq_bias_scale.onnx", 3, 2, "node 3 (Conv), operand 2"},
                           refusal{"bad_qdq_weights_axis.onnx", 2, 1, "node 2 (Conv), operand 1"}}) {
    CAPTURE(c.model);
    const auto r = import_file(data + "/" + c.model);
    CHECK(r->ir.error.code == onnx::code_of(onnx::onnx_error::qdq_group));
    CHECK(r->ir.error.node == c.node);
    CHECK(r->ir.error.input_slot == c.slot);
    const std::string text = words(data + "/" + c.model, r->ir.error);
    CAPTURE(text);
    CHECK(text.starts_with("error: ctnn::onnx: this operand of the node is part of a QDQ group"));
    CHECK(text.find(c.where) != std::string::npos);
  }
}
