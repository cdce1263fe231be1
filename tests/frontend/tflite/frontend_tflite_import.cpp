// The modules the TFLite importer builds from the generated test models (scripts/gen_tflite_test_models.py
// lists their ops): structure as static_asserts, then infer_types keeping every file shape; at run time
// the same import on the bytes read from the file, and the embedded bytes equal to the file.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/models/branch_net.hpp>
#include <ctnn/models/conv_net.hpp>
#include <ctnn/models/int8_net.hpp>
#include <ctnn/models/mean_net.hpp>
#include <ctnn/models/multi_io.hpp>

#include "frontend/import_checks.hpp"

namespace models = ctnn::models;
namespace data = ctnn::models::ctnn_model_data;
using ctnn::make_shape;
using ctnn::op_kind;

// Node k: kind, inputs and output.
template <class Module, std::size_t N>
constexpr bool node_is(const Module& m, std::int32_t k, op_kind kind, const std::int32_t (&inputs)[N], std::int32_t output) {
  const ctnn::node& n = m.node_at(k);
  if (n.kind != kind || n.input_count != static_cast<std::int32_t>(N) || n.output != output) return false;
  for (std::size_t i = 0; i < N; ++i)
    if (n.inputs[i] != inputs[i]) return false;
  return m.tensor_at(output).producer == k;
}

// ---------------------------------------------------------------------------------------------------
// conv_net: CONV_2D, DEPTHWISE_CONV_2D, MAX_POOL_2D + fused RELU (a relu node of its own), RESHAPE,
// FULLY_CONNECTED, SOFTMAX; old-style operator codes.
constexpr auto& conv = models::conv_net::imported;
static_assert(!conv.error.failed());
static_assert(std::is_same_v<std::remove_cvref_t<decltype(conv)>, ctnn::module<15, 7>>, "sized exactly: 14 + 1 tensors, 6 + 1 nodes");
static_assert(conv.tensor_count == 15 && conv.node_count == 7);
static_assert(conv.model_name.view() == "conv_net");
static_assert(conv.input_count == 1 && conv.inputs[0] == 0 && conv.output_count == 1 && conv.outputs[0] == 13);
static_assert(conv.tensor_at(0).role == ctnn::tensor_role::input && conv.tensor_at(0).dims == make_shape(1, 9, 9, 2));
static_assert(conv.tensor_at(13).role == ctnn::tensor_role::output && conv.tensor_at(13).io_index == 0);
static_assert(node_is(conv, 0, op_kind::conv2d, {0, 1, 2}, 3));
static_assert(conv.node_at(0).attrs.win.kernel_h == 3 && conv.node_at(0).attrs.win.kernel_w == 3 &&
              conv.node_at(0).attrs.win.stride_h == 2 && conv.node_at(0).attrs.win.stride_w == 2 &&
              conv.node_at(0).attrs.win.mode == ctnn::padding::same && conv.node_at(0).attrs.fused == ctnn::activation::relu &&
              conv.node_at(0).attrs.units == 4 && conv.node_at(0).attrs.groups == 1);
static_assert(node_is(conv, 1, op_kind::depthwise_conv2d, {3, 4, 5}, 6));
static_assert(conv.node_at(1).attrs.depth_multiplier == 2 && conv.node_at(1).attrs.win.mode == ctnn::padding::valid &&
              conv.node_at(1).attrs.fused == ctnn::activation::relu6);
static_assert(node_is(conv, 2, op_kind::max_pool, {6}, 14));  // writes the tensor the importer added
static_assert(conv.node_at(2).attrs.fused == ctnn::activation::none && conv.node_at(2).attrs.win.kernel_h == 2);
static_assert(node_is(conv, 3, op_kind::relu, {14}, 7));
static_assert(node_is(conv, 4, op_kind::reshape, {7}, 9) && conv.node_at(4).attrs.target == make_shape(-1, 32));
static_assert(node_is(conv, 5, op_kind::dense, {9, 10, 11}, 12) && conv.node_at(5).attrs.units == 6);
static_assert(node_is(conv, 6, op_kind::softmax, {12}, 13));
static_assert(conv.tensor_at(8).role == ctnn::tensor_role::constant && conv.tensor_at(8).type == ctnn::dtype::i32);
static_assert(conv.tensor_at(3).label.view() == "conv/Relu", "the name up to the first ';'");
static_assert(ctnn_test::constants_point_into(conv, data::conv_net_bytes, data::conv_net_size));
static_assert(ctnn_test::infer_types_keeps_file_shapes(conv));

// ---------------------------------------------------------------------------------------------------
// branch_net: a bias-less 1x1 CONV_2D, ADD, RELU, PAD, AVERAGE_POOL_2D, dilated CONV_2D, MUL by a constant,
// CONCATENATION + fused RELU6, LOGISTIC, RELU6, TANH, FULLY_CONNECTED on a rank-4 input (a flatten node
// before it), SOFTMAX; new-style operator codes; vtables after their tables.
constexpr auto& branch = models::branch_net::imported;
static_assert(!branch.error.failed());
static_assert(branch.tensor_count == 23 && branch.node_count == 15);
static_assert(node_is(branch, 0, op_kind::conv2d, {0, 1, -1}, 2) && branch.node_at(0).attrs.units == 3);
static_assert(node_is(branch, 1, op_kind::add, {0, 2}, 3));
static_assert(node_is(branch, 2, op_kind::relu, {3}, 4));
static_assert(node_is(branch, 3, op_kind::pad, {4}, 6));
static_assert(branch.node_at(3).attrs.pad.before_after == std::array<std::int32_t, 12>{0, 0, 1, 1, 2, 0, 0, 0});
static_assert(node_is(branch, 4, op_kind::avg_pool, {6}, 7) && branch.node_at(4).attrs.win.kernel_h == 3 &&
              branch.node_at(4).attrs.win.stride_w == 2 && branch.node_at(4).attrs.win.mode == ctnn::padding::same);
static_assert(node_is(branch, 5, op_kind::conv2d, {7, 8, 9}, 10) && branch.node_at(5).attrs.win.dilation_h == 2 &&
              branch.node_at(5).attrs.win.dilation_w == 2);
static_assert(node_is(branch, 6, op_kind::mul, {7, 11}, 12));
static_assert(node_is(branch, 7, op_kind::concat, {10, 12}, 21) && branch.node_at(7).attrs.axis == -1);
static_assert(node_is(branch, 8, op_kind::relu6, {21}, 13));
static_assert(node_is(branch, 9, op_kind::sigmoid, {13}, 14));
static_assert(node_is(branch, 10, op_kind::relu6, {14}, 15));
static_assert(node_is(branch, 11, op_kind::tanh, {15}, 16));
static_assert(node_is(branch, 12, op_kind::reshape, {16}, 22) && branch.node_at(12).attrs.target == make_shape(16, 8));
static_assert(node_is(branch, 13, op_kind::dense, {22, 17, 18}, 19) && branch.node_at(13).attrs.units == 10);
static_assert(node_is(branch, 14, op_kind::softmax, {19}, 20));
static_assert(branch.tensor_at(19).dims == make_shape(16, 10));
static_assert(ctnn_test::constants_point_into(branch, data::branch_net_bytes, data::branch_net_size));
static_assert(ctnn_test::infer_types_keeps_file_shapes(branch));

// ---------------------------------------------------------------------------------------------------
// multi_io: outputs (sum, input a, sum): the input and the repeated output get copy nodes.
constexpr auto& io = models::multi_io::imported;
static_assert(!io.error.failed());
static_assert(io.tensor_count == 5 && io.node_count == 3);
static_assert(io.input_count == 2 && io.inputs[0] == 0 && io.inputs[1] == 1);
static_assert(io.output_count == 3 && io.outputs[0] == 2 && io.outputs[1] == 3 && io.outputs[2] == 4);
static_assert(node_is(io, 0, op_kind::add, {0, 1}, 2) && io.node_at(0).attrs.fused == ctnn::activation::relu);
static_assert(node_is(io, 1, op_kind::reshape, {0}, 3) && io.node_at(1).attrs.target.rank == 0);
static_assert(node_is(io, 2, op_kind::reshape, {2}, 4));
static_assert(io.tensor_at(3).io_index == 1 && io.tensor_at(4).io_index == 2 && io.tensor_at(3).label.view() == "a");
static_assert(ctnn_test::infer_types_keeps_file_shapes(io));

// ---------------------------------------------------------------------------------------------------
// mean_net: MEAN over H and W with keep_dims, then over axis -1 without.
constexpr auto& mean = models::mean_net::imported;
static_assert(!mean.error.failed());
static_assert(node_is(mean, 0, op_kind::mean, {0}, 2) && mean.node_at(0).attrs.mean.reduce_axes == 0b0110u &&
              mean.node_at(0).attrs.keep_dims);
static_assert(node_is(mean, 1, op_kind::mean, {2}, 4) && mean.node_at(1).attrs.mean.reduce_axes == 0b1000u &&
              !mean.node_at(1).attrs.keep_dims);
static_assert(mean.tensor_at(4).dims == make_shape(1, 1, 1));
static_assert(ctnn_test::infer_types_keeps_file_shapes(mean));

// ---------------------------------------------------------------------------------------------------
// int8_net: QUANTIZE, per-channel CONV_2D (axis 0) and DEPTHWISE_CONV_2D (axis 3) with int32 per-channel
// biases, AVERAGE_POOL_2D, RESHAPE (new_shape option), FULLY_CONNECTED, SOFTMAX, DEQUANTIZE.
constexpr auto& q = models::int8_net::imported;
static_assert(!q.error.failed());
static_assert(q.tensor_count == 15 && q.node_count == 8);
static_assert(node_is(q, 0, op_kind::quantize, {0}, 1) && q.node_at(0).attrs.out_type == ctnn::dtype::i8);
static_assert(node_is(q, 1, op_kind::conv2d, {1, 2, 3}, 4) && q.node_at(1).attrs.fused == ctnn::activation::relu);
static_assert(node_is(q, 2, op_kind::depthwise_conv2d, {4, 5, 6}, 7) && q.node_at(2).attrs.depth_multiplier == 1);
static_assert(node_is(q, 4, op_kind::reshape, {8}, 9) && q.node_at(4).attrs.target == make_shape(1, 4));
static_assert(node_is(q, 7, op_kind::dequantize, {13}, 14) && q.node_at(7).attrs.out_type == ctnn::dtype::f32);
static_assert(q.tensor_at(0).type == ctnn::dtype::f32 && !q.tensor_at(0).quant.quantized());
static_assert(q.tensor_at(1).type == ctnn::dtype::i8 && q.tensor_at(1).quant.scale == 0.0078125f &&
              q.tensor_at(1).quant.zero_point == -1 && !q.tensor_at(1).quant.per_channel());
static_assert(q.tensor_at(2).quant.per_channel() && q.tensor_at(2).quant.channel_count == 4 && q.tensor_at(2).quant.axis == 0 &&
              q.tensor_at(2).quant.zero_point == 0 && q.tensor_at(2).quant.scale_bytes - data::int8_net_bytes > 8);
static_assert(q.tensor_at(2).quant.scale_of(0) == q.tensor_at(2).quant.scale && q.tensor_at(2).quant.scale_of(3) > 0.0f);
// A bias's per-channel parameters are not kept: no kernel reads them (TFLM derives them; issue #25).
static_assert(q.tensor_at(3).type == ctnn::dtype::i32 && !q.tensor_at(3).quant.quantized());
static_assert(q.tensor_at(5).quant.axis == 3 && q.tensor_at(5).quant.channel_count == 4);
static_assert(q.tensor_at(12).quant.scale == 0.1f && q.tensor_at(12).quant.zero_point == 3);
static_assert(q.tensor_at(13).quant.scale == 0.00390625f && q.tensor_at(13).quant.zero_point == -128);
static_assert(ctnn_test::constants_point_into(q, data::int8_net_bytes, data::int8_net_size));
static_assert(ctnn_test::infer_types_keeps_file_shapes(q));
// Per-channel scales are the file's float32 values (the depthwise weights' scales, tensor 5, axis 3).
static_assert(q.tensor_at(5).quant.scale_of(0) == q.tensor_at(5).quant.scale && q.tensor_at(5).quant.scale_of(3) > 0.0f);

// ---------------------------------------------------------------------------------------------------
// The same code at run time.

namespace {

std::vector<char> read_file(const std::string& name) {
  // A path built by appending: g++ 12 -O2 flags `std::string{...} + "/" + name` (-Warray-bounds, a known false positive).
  std::string path = CTNN_TFLITE_TEST_DATA_DIR;
  path.append("/").append(name);
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

template <class Model>
void check_runtime_import(const std::string& file, const char* embedded, std::size_t size) {
  const std::vector<char> bytes = read_file(file);
  CAPTURE(file);
  // ctnn_add_model embedded the file byte for byte, with a terminating 0 after it.
  REQUIRE(bytes.size() == size);
  CHECK(std::equal(bytes.begin(), bytes.end(), embedded));
  CHECK(embedded[size] == '\0');
  CHECK(reinterpret_cast<std::uintptr_t>(embedded) % 16 == 0);

  constexpr auto& at_compile_time = Model::imported;
  const auto counts = ctnn::tflite::count(bytes.data(), bytes.size());
  CHECK(counts.tensors == static_cast<std::size_t>(at_compile_time.tensor_count));
  CHECK(counts.nodes == static_cast<std::size_t>(at_compile_time.node_count));
  using module_type = std::remove_cvref_t<decltype(at_compile_time)>;
  const auto m = std::make_unique<module_type>(
      ctnn::tflite::import<module_type::tensor_capacity, module_type::node_capacity>(bytes.data(), bytes.size(),
                                                                                     at_compile_time.model_name.view()));
  REQUIRE_FALSE(m->error.failed());
  CHECK(m->tensor_count == at_compile_time.tensor_count);
  CHECK(m->node_count == at_compile_time.node_count);
  for (std::int32_t t = 0; t < m->tensor_count; ++t) {
    CAPTURE(t);
    const ctnn::tensor& a = m->tensor_at(t);
    const ctnn::tensor& b = at_compile_time.tensor_at(t);
    CHECK(a.dims == b.dims);
    CHECK(a.type == b.type);
    CHECK(a.role == b.role);
    CHECK(a.label == b.label);
    CHECK(a.quant.scale == b.quant.scale);
    CHECK(a.quant.zero_point == b.quant.zero_point);
    CHECK(a.quant.channel_count == b.quant.channel_count);
    // Constants point into each one's own copy of the bytes, at the same offset.
    CHECK((a.data.bytes == nullptr) == (b.data.bytes == nullptr));
    if (a.data.bytes != nullptr) CHECK(a.data.bytes - bytes.data() == b.data.bytes - embedded);
  }
  for (std::int32_t k = 0; k < m->node_count; ++k) {
    CAPTURE(k);
    CHECK(m->node_at(k).kind == at_compile_time.node_at(k).kind);
    CHECK(m->node_at(k).attrs == at_compile_time.node_at(k).attrs);
    CHECK(m->node_at(k).inputs == at_compile_time.node_at(k).inputs);
    CHECK(m->node_at(k).output == at_compile_time.node_at(k).output);
  }
  CHECK(ctnn_test::infer_types_keeps_file_shapes(*m));
}

}  // namespace

TEST_CASE("the import at run time equals the import at compile time") {
  check_runtime_import<models::conv_net>("conv_net.tflite", data::conv_net_bytes, data::conv_net_size);
  check_runtime_import<models::branch_net>("branch_net.tflite", data::branch_net_bytes, data::branch_net_size);
  check_runtime_import<models::multi_io>("multi_io.tflite", data::multi_io_bytes, data::multi_io_size);
  check_runtime_import<models::mean_net>("mean_net.tflite", data::mean_net_bytes, data::mean_net_size);
  check_runtime_import<models::int8_net>("int8_net.tflite", data::int8_net_bytes, data::int8_net_size);
}
