#pragma once
// Small models and helpers shared by the pass, unit and kernel tests (tests/pass, tests/unit, tests/kernel,
// tests/arena). Every test includes only what it needs; the models here are tiny on purpose (fast to compile,
// numbers easy to reason about).
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <ctnn/frontend/dsl.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn_test {

namespace dsl = ctnn::dsl;

// Zero-filled weight arrays of any length, for models whose values do not matter (shapes, plans).
template <std::size_t N>
inline constexpr float zeros[N] = {};

// ---------------------------------------------------------------------------------------------------
// "tiny": conv 3x3 same + relu (3 -> 4 channels), max pool 2/2, flatten, dense 36 -> 3, softmax.
//   tensors: input, conv w, conv b, conv out, pool out, flatten out, fc w, fc b, dense out, softmax out (10)
//   shapes:  [1,6,6,3] -> [1,6,6,4] -> [1,3,3,4] -> [1,36] -> [1,3] -> [1,3]
inline constexpr float cnn_conv_w[108] = {
    -0.176f, -0.349f, 0.151f, -0.428f, 0.036f, -0.134f, -0.442f, 0.007f, -0.463f, -0.066f, -0.43f, -0.409f,
    -0.075f, 0.327f, -0.376f, -0.277f, 0.127f, 0.448f, 0.077f, -0.103f, 0.476f, -0.453f, 0.358f, -0.21f,
    -0.356f, -0.382f, -0.192f, 0.316f, -0.319f, 0.082f, 0.139f, -0.128f, 0.048f, -0.437f, -0.44f, -0.294f,
    0.18f, -0.072f, -0.186f, 0.086f, -0.047f, -0.2f, 0.294f, 0.199f, -0.256f, 0.074f, 0.025f, 0.375f, 0.229f,
    -0.212f, 0.48f, -0.382f, -0.082f, 0.257f, -0.348f, -0.011f, -0.461f, 0.168f, 0.265f, 0.073f, 0.375f,
    -0.186f, 0.195f, 0.094f, 0.08f, -0.044f, 0.34f, 0.445f, -0.026f, 0.164f, -0.439f, 0.201f, 0.147f, 0.493f,
    0.322f, -0.215f, -0.114f, 0.169f, -0.477f, -0.038f, -0.332f, -0.383f, -0.441f, 0.268f, -0.371f, -0.252f,
    -0.109f, 0.371f, -0.419f, -0.051f, 0.049f, 0.383f, 0.319f, 0.364f, -0.222f, -0.085f, -0.141f, 0.384f,
    0.458f, -0.349f, -0.324f, -0.268f, -0.267f, -0.015f, 0.089f, -0.237f, -0.496f, -0.081f};
inline constexpr float cnn_conv_b[4] = {-0.131f, 0.066f, 0.453f, 0.19f};
inline constexpr float cnn_fc_w[108] = {
    0.015f, 0.118f, 0.176f, -0.446f, 0.4f, 0.28f, 0.375f, 0.298f, -0.108f, -0.101f, -0.396f, 0.134f, -0.438f,
    -0.433f, -0.291f, -0.338f, -0.16f, -0.447f, -0.5f, -0.349f, -0.399f, -0.136f, -0.474f, 0.374f, 0.114f,
    -0.351f, -0.248f, -0.153f, -0.136f, -0.377f, 0.349f, 0.493f, -0.034f, -0.016f, -0.414f, -0.398f, -0.157f,
    -0.235f, 0.329f, -0.339f, -0.477f, 0.451f, 0.028f, -0.353f, 0.043f, -0.473f, 0.028f, 0.479f, 0.363f,
    0.196f, -0.239f, -0.133f, -0.333f, 0.272f, 0.033f, 0.279f, -0.17f, -0.277f, 0.312f, 0.485f, 0.353f,
    0.306f, 0.318f, 0.24f, -0.273f, 0.018f, -0.144f, -0.471f, -0.472f, -0.221f, -0.241f, 0.193f, 0.457f,
    -0.053f, 0.437f, 0.488f, 0.455f, -0.135f, -0.28f, -0.273f, -0.303f, -0.296f, 0.124f, 0.4f, 0.34f,
    -0.021f, 0.153f, 0.3f, -0.415f, 0.161f, 0.41f, 0.282f, 0.25f, -0.022f, -0.321f, 0.289f, -0.167f, 0.301f,
    0.472f, -0.104f, -0.099f, 0.447f, 0.225f, -0.33f, -0.373f, -0.349f, 0.405f, 0.307f};
inline constexpr float cnn_fc_b[3] = {-0.354f, 0.327f, 0.48f};

using tiny_cnn = dsl::named<"tiny", dsl::sequential<dsl::input<ctnn::f32, 1, 6, 6, 3>,
                                                     dsl::conv2d<cnn_conv_w, cnn_conv_b, dsl::kernel<3>, dsl::same, dsl::relu>,
                                                     dsl::max_pool<dsl::kernel<2>, dsl::stride<2>>, dsl::flatten,
                                                     dsl::dense<cnn_fc_w, cnn_fc_b>, dsl::softmax>>;

// ---------------------------------------------------------------------------------------------------
// A DAG whose intermediates have overlapping lifetimes (ops in order 0..4):
//   a = conv1x1(x) + bias    [1,4,4,2]  128 B  live ops 0..2
//   b = relu(a)              [1,4,4,2]  128 B  live ops 1..3
//   c = a + b                [1,4,4,2]  128 B  live ops 2..3
//   d = concat(c, b) on C    [1,4,4,4]  256 B  live ops 3..4
//   out = global_avg_pool(d) [1,1,1,4]  model output (caller's buffer)
// Bytes live per op: 128, 256, 384, 128+128+256 = 512, 256: the liveness bound is 512 at op 3.
inline constexpr float graph_conv_w[4] = {0.757f, -0.65f, 0.449f, -0.869f};  // [oc][ic]
inline constexpr float graph_conv_b[2] = {-0.186f, 0.271f};

using small_graph = dsl::graph<dsl::outputs<"out">,                                                 //
                               dsl::node<"x", dsl::input<ctnn::f32, 1, 4, 4, 2>>,                  //
                               dsl::node<"a", dsl::conv2d<graph_conv_w, graph_conv_b, dsl::kernel<1>>, "x">,
                               dsl::node<"b", dsl::relu, "a">,                                     //
                               dsl::node<"c", dsl::add<>, "a", "b">,                               //
                               dsl::node<"d", dsl::concat<>, "c", "b">,                            //
                               dsl::node<"out", dsl::global_avg_pool, "d">>;

// Two inputs, two outputs (listed in the opposite order of their nodes):
//   s = x + y (arena), t = relu(s) (output 1), p = s * y (output 0)
using two_io_graph = dsl::graph<dsl::outputs<"p", "t">,                          //
                                dsl::node<"x", dsl::input<ctnn::f32, 1, 2, 2, 2>>,  //
                                dsl::node<"y", dsl::input<ctnn::f32, 1, 2, 2, 2>>,  //
                                dsl::node<"s", dsl::add<>, "x", "y">,               //
                                dsl::node<"t", dsl::relu, "s">,                     //
                                dsl::node<"p", dsl::mul<>, "s", "y">>;

// Two branches, each a wide dense (4 -> 64, 256 B) then a narrow one (64 -> 2, 8 B), added: as written
// (a, b, a2, b2, out) both wide results and a2 live at op 2 (520 B); the memory-aware order runs a branch to
// its end first (a, a2, b, b2, out: 272 B at op 3).
using wide_dense = dsl::dense<zeros<256>, zeros<64>>;
using narrow_dense = dsl::dense<zeros<128>, zeros<2>>;
using branches = dsl::graph<dsl::outputs<"out">,                              //
                            dsl::node<"x", dsl::input<ctnn::f32, 1, 4>>,      //
                            dsl::node<"a", wide_dense, "x">,                  //
                            dsl::node<"b", wide_dense, "x">,                  //
                            dsl::node<"a2", narrow_dense, "a">,               //
                            dsl::node<"b2", narrow_dense, "b">,               //
                            dsl::node<"out", dsl::add<>, "a2", "b2">>;

// ---------------------------------------------------------------------------------------------------
// Field-by-field equality of two modules (module has no operator==): used to compare a module built at
// run time with the constexpr one.
template <class A, class B>
bool same_module(const A& a, const B& b) {
  if (!(a.model_name == b.model_name) || a.tensor_count != b.tensor_count || a.node_count != b.node_count ||
      a.input_count != b.input_count || a.output_count != b.output_count || a.facts != b.facts ||
      a.error.code != b.error.code || a.error.node != b.error.node ||
      !(static_cast<const ctnn::diagnostic_details&>(a.error) == static_cast<const ctnn::diagnostic_details&>(b.error)) ||
      a.call_count != b.call_count || a.arena_bytes() != b.arena_bytes() ||
      a.liveness_lower_bound != b.liveness_lower_bound || a.peak_node != b.peak_node)
    return false;
  for (std::int32_t t = 0; t < a.tensor_count; ++t) {
    const auto &x = a.tensor_at(t), &y = b.tensor_at(t);
    if (!(x.label == y.label) || !(x.dims == y.dims) || x.type != y.type || x.role != y.role ||
        x.data.f32 != y.data.f32 || x.producer != y.producer || x.io_index != y.io_index)
      return false;
  }
  for (std::int32_t n = 0; n < a.node_count; ++n) {
    const auto &x = a.node_at(n), &y = b.node_at(n);
    if (x.kind != y.kind || !(x.label == y.label) || !(x.attrs == y.attrs) || x.input_count != y.input_count ||
        x.output != y.output)
      return false;
    for (std::int32_t i = 0; i < x.input_count; ++i)
      if (x.inputs[static_cast<std::size_t>(i)] != y.inputs[static_cast<std::size_t>(i)]) return false;
  }
  for (std::int32_t i = 0; i < a.input_count; ++i)
    if (a.inputs[static_cast<std::size_t>(i)] != b.inputs[static_cast<std::size_t>(i)]) return false;
  for (std::int32_t i = 0; i < a.output_count; ++i)
    if (a.outputs[static_cast<std::size_t>(i)] != b.outputs[static_cast<std::size_t>(i)]) return false;
  return true;
}

// Deterministic pseudo-random floats in [lo, hi).
inline std::vector<float> random_floats(std::size_t n, std::uint32_t seed, float lo = -1.0f, float hi = 1.0f) {
  std::mt19937 rng{seed};
  std::uniform_real_distribution<float> dist{lo, hi};
  std::vector<float> v(n);
  for (auto& x : v) x = dist(rng);
  return v;
}

// For kernel tests' parameter builders: resolves TensorFlow SAME padding (out = ceil(in / stride), the
// odd pad at the end) when asked, and sets the NHWC output shape, independently of infer_types.
constexpr void resolve_window(ctnn::kernel_params& p, bool same_padding, std::int32_t out_channels) {
  const auto same_1d = [](std::int32_t in, std::int32_t k, std::int32_t s, std::int32_t d, std::int32_t& before,
                          std::int32_t& after) {
    const std::int32_t out = (in + s - 1) / s;
    const std::int32_t needed = (out - 1) * s + (k - 1) * d + 1 - in;
    const std::int32_t total = needed > 0 ? needed : 0;
    before = total / 2;
    after = total - before;
  };
  if (same_padding) {
    p.win.mode = ctnn::padding::same;
    same_1d(p.in[1], p.win.kernel_h, p.win.stride_h, p.win.dilation_h, p.win.pad_top, p.win.pad_bottom);
    same_1d(p.in[2], p.win.kernel_w, p.win.stride_w, p.win.dilation_w, p.win.pad_left, p.win.pad_right);
  }
  const auto& w = p.win;
  const std::int32_t oh = (p.in[1] + w.pad_top + w.pad_bottom - ((w.kernel_h - 1) * w.dilation_h + 1)) / w.stride_h + 1;
  const std::int32_t ow = (p.in[2] + w.pad_left + w.pad_right - ((w.kernel_w - 1) * w.dilation_w + 1)) / w.stride_w + 1;
  p.out = ctnn::make_shape(p.in[0], oh, ow, out_channels);
}

// kernel_params: whether every kind-specific field struct of another op kind (and the ONNX fields of a
// TFLite-policy call) is at its default, so that calls of one kind are deduplicated by their own fields
// alone (docs/design.md §4, ir/kernel_params.hpp).
constexpr bool only_own_kind_fields(const ctnn::kernel_params& p) {
  using ctnn::op_kind;
  const auto is = [&](auto... kinds) { return ((p.kind == kinds) || ...); };
  return (is(op_kind::pad) || p.pad == ctnn::pad_fields{}) && (is(op_kind::crop, op_kind::paste) || p.patch() == ctnn::patch_fields{}) &&
         (is(op_kind::fetch_rows) || p.fetch() == ctnn::row_fetch_fields{}) &&
         (is(op_kind::clip) || p.clip == ctnn::clip_fields{}) && (is(op_kind::concat) || p.concat() == ctnn::concat_fields{}) &&
         (is(op_kind::transpose) || p.transpose == ctnn::transpose_fields{}) &&
         (is(op_kind::batch_norm) || p.batch_norm == ctnn::batch_norm_fields{}) &&
         (is(op_kind::quantize, op_kind::dequantize) || p.quantize() == ctnn::quantize_fields{}) &&
         (is(op_kind::mean) || p.mean == ctnn::mean_fields{}) &&
         (p.requantization == ctnn::requantization_policy::onnx || p.onnx == ctnn::onnx_quant_fields{});
}
template <class Module>
constexpr bool calls_set_only_own_kind_fields(const Module& m) {
  for (std::int32_t c = 0; c < m.call_count; ++c)
    if (!only_own_kind_fields(m.calls[static_cast<std::size_t>(c)].params)) return false;
  return true;
}

}  // namespace ctnn_test
