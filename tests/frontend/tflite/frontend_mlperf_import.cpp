// An MLPerf Tiny model (../shared/models/mlperf-tiny; CTNN_MLPERF_MODEL names it), embedded by
// ctnn_add_model as ctnn::models::mlperf_model and imported at compile time with the default limits:
// op counts and kinds and the interface (shapes, types, quantization) as the folder's README lists them,
// every weight of the int8 models quantized per channel on its output axis, and infer_types (stage 1 of
// the default pipeline) with no diagnostic and the file's shape and type for every tensor.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <type_traits>

#include <doctest/doctest.h>

#include <ctnn/models/mlperf_model.hpp>
#include <ctnn/pass/pipeline.hpp>

#include "frontend/import_checks.hpp"

#define CTNN_STRINGIZE2(x) #x
#define CTNN_STRINGIZE(x) CTNN_STRINGIZE2(x)

using model = ctnn::models::mlperf_model;
using ctnn::make_shape;
using ctnn::op_kind;
namespace data = ctnn::models::ctnn_model_data;

constexpr auto& m = model::imported;
constexpr std::string_view name = CTNN_STRINGIZE(CTNN_MLPERF_MODEL);

constexpr std::int32_t count_of(op_kind kind) {
  std::int32_t n = 0;
  for (std::int32_t k = 0; k < m.node_count; ++k) n += m.node_at(k).kind == kind ? 1 : 0;
  return n;
}

// What the README says of each model: ops, tensors, interface.
struct expectation {
  std::int32_t tensors, conv2d, depthwise, add, avg_pool, reshape, dense, softmax;
  ctnn::shape input, output;
  ctnn::dtype type;
  float input_scale;
  std::int32_t input_zero_point;
  float output_scale;
  std::int32_t output_zero_point;
};

constexpr expectation expected() {
  constexpr auto i8 = ctnn::dtype::i8, f32 = ctnn::dtype::f32;
  const ctnn::shape kws_in = make_shape(1, 49, 10, 1), kws_out = make_shape(1, 12);
  const ctnn::shape vww_in = make_shape(1, 96, 96, 3), vww_out = make_shape(1, 2);
  const ctnn::shape ic_in = make_shape(1, 32, 32, 3), ic_out = make_shape(1, 10);
  const ctnn::shape ad = make_shape(1, 640);
  if (name == "kws_ref_model") return {35, 5, 4, 0, 1, 1, 1, 1, kws_in, kws_out, i8, 0.584702909f, 83, 0.00390625f, -128};
  if (name == "vww_96_int8") return {89, 14, 13, 0, 1, 1, 1, 1, vww_in, vww_out, i8, 0.00392156886f, -128, 0.00390625f, -128};
  if (name == "pretrainedResnet_quant") return {38, 9, 0, 3, 1, 1, 1, 1, ic_in, ic_out, i8, 1.0f, -128, 0.00390625f, -128};
  if (name == "ad01_int8") return {31, 0, 0, 0, 0, 0, 10, 0, ad, ad, i8, 0.391015232f, 89, 0.364498466f, 96};
  if (name == "vww_96_float") return {89, 14, 13, 0, 1, 1, 1, 1, vww_in, vww_out, f32, 0, 0, 0, 0};
  if (name == "pretrainedResnet") return {38, 9, 0, 3, 1, 1, 1, 1, ic_in, ic_out, f32, 0, 0, 0, 0};
  if (name == "ad01_fp32") return {31, 0, 0, 0, 0, 0, 10, 0, ad, ad, f32, 0, 0, 0, 0};
  return {};
}
constexpr expectation e = expected();
static_assert(e.tensors > 0, "CTNN_MLPERF_MODEL names a model this test knows");

static_assert(!m.error.failed());
static_assert(m.tensor_count == e.tensors, "no tensor added: no fused pool/concat activation, no flatten, no output copy");
static_assert(m.node_count == e.conv2d + e.depthwise + e.add + e.avg_pool + e.reshape + e.dense + e.softmax);
static_assert(count_of(op_kind::conv2d) == e.conv2d && count_of(op_kind::depthwise_conv2d) == e.depthwise);
static_assert(count_of(op_kind::add) == e.add && count_of(op_kind::avg_pool) == e.avg_pool);
static_assert(count_of(op_kind::reshape) == e.reshape && count_of(op_kind::dense) == e.dense);
static_assert(count_of(op_kind::softmax) == e.softmax);
// The ops are in the file's order and the head is AVERAGE_POOL_2D, RESHAPE, FULLY_CONNECTED, SOFTMAX.
static_assert(e.softmax == 0 || (m.node_at(m.node_count - 1).kind == op_kind::softmax &&
                                 m.node_at(m.node_count - 2).kind == op_kind::dense &&
                                 m.node_at(m.node_count - 3).kind == op_kind::reshape &&
                                 m.node_at(m.node_count - 4).kind == op_kind::avg_pool));

// The interface keeps the model's layout and element type.
static_assert(m.input_count == 1 && m.output_count == 1);
static_assert(m.input_tensor(0).dims == e.input && m.input_tensor(0).type == e.type);
static_assert(m.output_tensor(0).dims == e.output && m.output_tensor(0).type == e.type);
static_assert(m.input_tensor(0).quant.scale == e.input_scale && m.input_tensor(0).quant.zero_point == e.input_zero_point);
static_assert(m.output_tensor(0).quant.scale == e.output_scale && m.output_tensor(0).quant.zero_point == e.output_zero_point);

// int8: conv weights per channel on axis 0, depthwise on axis 3, biases int32 (their per-channel scales,
// input scale x weight scale in the file, are not kept); FULLY_CONNECTED weights per tensor. float: nothing
// quantized.
constexpr bool weights_quantized_as_tflite() {
  for (std::int32_t k = 0; k < m.node_count; ++k) {
    const ctnn::node& n = m.node_at(k);
    if (n.kind != op_kind::conv2d && n.kind != op_kind::depthwise_conv2d && n.kind != op_kind::dense) continue;
    const ctnn::tensor& in = m.tensor_at(n.inputs[0]);
    const ctnn::tensor& w = m.tensor_at(n.inputs[1]);
    const ctnn::tensor& b = m.tensor_at(n.inputs[2]);
    if (w.role != ctnn::tensor_role::constant || b.role != ctnn::tensor_role::constant) return false;
    if (e.type == ctnn::dtype::f32) {
      if (w.type != ctnn::dtype::f32 || b.type != ctnn::dtype::f32 || w.quant.quantized() || b.quant.quantized()) return false;
      continue;
    }
    if (w.type != ctnn::dtype::i8 || b.type != ctnn::dtype::i32) return false;
    if (n.kind == op_kind::dense) {
      if (w.quant.per_channel() || w.quant.zero_point != 0) return false;
      continue;
    }
    const std::int32_t axis = n.kind == op_kind::conv2d ? 0 : 3;
    if (w.quant.axis != axis || w.quant.channel_count != w.dims[axis] || !(w.quant.scale_of(0) > 0.0f)) return false;
    // A bias's per-channel scales are not kept (TFLM derives them from the input's and the weights'; issue #25).
    if (b.quant.quantized() || !in.quant.quantized()) return false;
  }
  return true;
}
static_assert(weights_quantized_as_tflite());

static_assert(ctnn_test::constants_point_into(m, data::mlperf_model_bytes, data::mlperf_model_size));

// Stage 1 of the default pipeline (infer_types) in a constant evaluation of its own.
constexpr auto& inferred = ctnn::stage_v<model, ctnn::default_pipeline, 1>;
static_assert(!inferred.error.failed() && inferred.has(ctnn::fact::shapes_inferred));
static_assert([] {
  for (std::int32_t t = 0; t < m.tensor_count; ++t)
    if (!(inferred.tensor_at(t).dims == m.tensor_at(t).dims) || inferred.tensor_at(t).type != m.tensor_at(t).type) return false;
  return true;
}());

TEST_CASE("the MLPerf Tiny model imports at run time as at compile time") {
  CAPTURE(name);
  const auto counts = ctnn::tflite::count(data::mlperf_model_bytes, data::mlperf_model_size);
  CHECK(counts.tensors == static_cast<std::size_t>(m.tensor_count));
  CHECK(counts.nodes == static_cast<std::size_t>(m.node_count));
  using module_type = std::remove_cvref_t<decltype(m)>;
  const auto runtime = std::make_unique<module_type>(
      ctnn::tflite::import<module_type::tensor_capacity, module_type::node_capacity>(data::mlperf_model_bytes,
                                                                                     data::mlperf_model_size, "mlperf_model"));
  REQUIRE_FALSE(runtime->error.failed());
  for (std::int32_t t = 0; t < m.tensor_count; ++t) {
    CAPTURE(t);
    CHECK(runtime->tensor_at(t).dims == m.tensor_at(t).dims);
    CHECK(runtime->tensor_at(t).data.bytes == m.tensor_at(t).data.bytes);  // the same embedded bytes
    CHECK(runtime->tensor_at(t).quant.scale == m.tensor_at(t).quant.scale);
  }
  for (std::int32_t k = 0; k < m.node_count; ++k) CHECK(runtime->node_at(k).attrs == m.node_at(k).attrs);
}
