// Unit tests of pass::lower_te: one kernel call per node, in execution order, with the kernel's
// compile-time parameters (kernel_params) taken from the node's attributes and its tensors' shapes.
#include <cstdint>
#include <type_traits>

#include <doctest/doctest.h>

#include <ctnn/frontend/dsl.hpp>
#include <ctnn/pass/infer_types.hpp>
#include <ctnn/kernel/scratch.hpp>
#include <ctnn/pass/lower_te.hpp>

#include "test_modules.hpp"

namespace {

namespace dsl = ctnn::dsl;
using ctnn::kernel_params;
using ctnn::make_shape;
using ctnn::op_kind;
using ctnn_test::zeros;

template <class Model>
constexpr auto lowered = ctnn::pass::lower_te::run(ctnn::pass::infer_types::run(Model::build()));

template <class Module>
constexpr bool calls_mirror_nodes(const Module& m) {
  if (m.call_count != m.node_count) return false;
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    const auto& call = m.calls[static_cast<std::size_t>(c)];
    const auto& n = m.node_at(c);
    if (call.node != c || call.result != n.output || call.operand_count != n.input_count) return false;
    for (std::int32_t i = 0; i < n.input_count; ++i)
      if (call.operands[static_cast<std::size_t>(i)] != n.inputs[static_cast<std::size_t>(i)]) return false;
    if (call.params.kind != n.kind || !(call.params.in == m.tensor_at(n.inputs[0]).dims) ||
        !(call.params.out == m.tensor_at(n.output).dims) || call.params.fused != n.attrs.fused)
      return false;
  }
  return true;
}

// A kernel_params with only the fields every op has; the rest at their defaults.
constexpr kernel_params basic(op_kind kind, ctnn::shape in, ctnn::shape out,
                              ctnn::activation fused = ctnn::activation::none) {
  kernel_params p{};
  p.kind = kind;
  p.in = in;
  p.out = out;
  p.fused = fused;
  return p;
}

// ---------------------------------------------------------------------------------------------------
using tiny = ctnn_test::tiny_cnn;
constexpr auto& tiny_m = lowered<tiny>;
static_assert(tiny_m.call_count == 5 && calls_mirror_nodes(tiny_m));
static_assert(tiny_m.has(ctnn::fact::kernels_lowered) && tiny_m.has(ctnn::fact::shapes_inferred) && !tiny_m.error.failed());
static_assert(ctnn::pass::lower_te::requires_facts == ctnn::fact::shapes_inferred);
static_assert(ctnn::pass::lower_te::establishes == ctnn::fact::kernels_lowered);

// conv 3x3 SAME + relu: the window with its resolved pads (1 on every side), a bias.
static_assert([] {
  kernel_params p = basic(op_kind::conv2d, make_shape(1, 6, 6, 3), make_shape(1, 6, 6, 4), ctnn::activation::relu);
  p.win = ctnn::window{3, 3, 1, 1, 1, 1, ctnn::padding::same, 1, 1, 1, 1};
  p.has_bias = true;
  return tiny_m.calls[0].params == p;
}());
// max pool 2/2 VALID.
static_assert([] {
  kernel_params p = basic(op_kind::max_pool, make_shape(1, 6, 6, 4), make_shape(1, 3, 3, 4));
  p.win = ctnn::window{2, 2, 2, 2, 1, 1, ctnn::padding::valid, 0, 0, 0, 0};
  return tiny_m.calls[1].params == p;
}());
// flatten: nothing but shapes.
static_assert(tiny_m.calls[2].params == basic(op_kind::reshape, make_shape(1, 3, 3, 4), make_shape(1, 36)));
// dense with bias.
static_assert([] {
  kernel_params p = basic(op_kind::dense, make_shape(1, 36), make_shape(1, 3));
  p.has_bias = true;
  return tiny_m.calls[3].params == p;
}());
// softmax over the last axis (1 for rank 2).
static_assert([] {
  kernel_params p = basic(op_kind::softmax, make_shape(1, 3), make_shape(1, 3));
  p.axis = 1;
  return tiny_m.calls[4].params == p;
}());

// ---------------------------------------------------------------------------------------------------
// The graph: add carries its second operand's shape, concat its axis and per-input extents.
constexpr auto& graph_m = lowered<ctnn_test::small_graph>;
static_assert(graph_m.call_count == 5 && calls_mirror_nodes(graph_m));
static_assert([] {
  kernel_params p = basic(op_kind::add, make_shape(1, 4, 4, 2), make_shape(1, 4, 4, 2));
  p.in2 = make_shape(1, 4, 4, 2);
  return graph_m.calls[2].params == p;
}());
static_assert([] {
  kernel_params p = basic(op_kind::concat, make_shape(1, 4, 4, 2), make_shape(1, 4, 4, 4));
  p.axis = 3;  // concat<> is -1, normalised by infer_types
  p.set(ctnn::concat_fields{{2, 2}, 2, 0});
  return graph_m.calls[3].params == p;
}());
static_assert(graph_m.calls[4].params == basic(op_kind::global_avg_pool, make_shape(1, 4, 4, 4), make_shape(1, 1, 1, 4)));
// conv 1x1 VALID.
static_assert(graph_m.calls[0].params.win == ctnn::window{} && graph_m.calls[0].params.has_bias);

using concat3 = dsl::graph<dsl::outputs<"k">, dsl::node<"a", dsl::input<ctnn::f32, 1, 2, 1, 4>>,
                           dsl::node<"b", dsl::input<ctnn::f32, 1, 2, 3, 4>>, dsl::node<"c", dsl::input<ctnn::f32, 1, 2, 2, 4>>,
                           dsl::node<"k", dsl::concat<-2>, "a", "b", "c">>;
static_assert(lowered<concat3>.calls[0].params.axis == 2 && lowered<concat3>.calls[0].params.concat().count == 3 &&
              lowered<concat3>.calls[0].params.concat().extents[0] == 1 &&
              lowered<concat3>.calls[0].params.concat().extents[1] == 3 &&
              lowered<concat3>.calls[0].params.concat().extents[2] == 2 &&
              lowered<concat3>.calls[0].params.concat().extents[3] == 0);
static_assert(lowered<concat3>.calls[0].operand_count == 3);

// Broadcasting mul: in2 is the second operand's own shape.
using mul_bc = dsl::graph<dsl::outputs<"o">, dsl::node<"a", dsl::input<ctnn::f32, 1, 4, 1, 3>>,
                          dsl::node<"b", dsl::input<ctnn::f32, 1, 1, 5, 1>>, dsl::node<"o", dsl::mul<dsl::tanh>, "a", "b">>;
static_assert([] {
  kernel_params p = basic(op_kind::mul, make_shape(1, 4, 1, 3), make_shape(1, 4, 5, 3), ctnn::activation::tanh);
  p.in2 = make_shape(1, 1, 5, 1);
  return lowered<mul_bc>.calls[0].params == p;
}());

// pad: the pads array and value.
static_assert([] {
  kernel_params p = basic(op_kind::pad, make_shape(1, 4, 4, 3), make_shape(1, 7, 7, 4));
  p.pad.before_after = {0, 0, 1, 2, 3, 0, 0, 1, 0, 0, 0, 0};
  return lowered<dsl::sequential<dsl::input<ctnn::f32, 1, 4, 4, 3>, dsl::pad<0, 0, 1, 2, 3, 0, 0, 1>>>.calls[0].params == p;
}());

// depthwise: multiplier and pads; groups stay 1.
using dw = dsl::sequential<dsl::input<ctnn::f32, 1, 5, 5, 2>,
                           dsl::depthwise_conv2d<zeros<36>, zeros<4>, dsl::kernel<3>, dsl::stride<2>, dsl::pads<0, 1, 2, 0>,
                                                 dsl::multiplier<2>, dsl::relu6>>;
static_assert([] {
  kernel_params p = basic(op_kind::depthwise_conv2d, make_shape(1, 5, 5, 2), make_shape(1, 3, 2, 4), ctnn::activation::relu6);
  // h (5+0+2-3)/2+1 = 3, w (5+1+0-3)/2+1 = 2
  p.win = ctnn::window{3, 3, 2, 2, 1, 1, ctnn::padding::explicit_pads, 0, 1, 2, 0};
  p.depth_multiplier = 2;
  p.has_bias = true;
  return lowered<dw>.calls[0].params == p;
}());

// Grouped conv without bias: has_bias false, the bias operand slot is -1.
using grouped = dsl::sequential<dsl::input<ctnn::f32, 1, 3, 3, 4>,
                                dsl::conv2d<zeros<8>, dsl::no_bias, dsl::units<4>, dsl::groups<2>>>;
static_assert(lowered<grouped>.calls[0].params.groups == 2 && !lowered<grouped>.calls[0].params.has_bias);
static_assert(lowered<grouped>.calls[0].operand_count == 3 && lowered<grouped>.calls[0].operands[2] == -1);

// ---------------------------------------------------------------------------------------------------
// Deduplication: equal params for ops that differ only in name/position mean one kernel instantiation.
using repeated = dsl::sequential<dsl::input<ctnn::f32, 1, 8>, dsl::relu, dsl::relu, dsl::tanh, dsl::relu>;
static_assert(lowered<repeated>.calls[0].params == lowered<repeated>.calls[1].params);
static_assert(lowered<repeated>.calls[0].params == lowered<repeated>.calls[3].params);
static_assert(!(lowered<repeated>.calls[0].params == lowered<repeated>.calls[2].params));
static_assert(!(lowered<repeated>.node_at(0).label == lowered<repeated>.node_at(1).label));

// ---------------------------------------------------------------------------------------------------
// unsupported_dtype: no i8 kernels yet. Node 1 reads an i8 input; node 0 was lowered before.
using mixed = dsl::graph<dsl::outputs<"a", "b">, dsl::node<"x", dsl::input<ctnn::f32, 1, 4>>,
                         dsl::node<"y", dsl::input<ctnn::i8, 1, 4>>, dsl::node<"a", dsl::relu, "x">,
                         dsl::node<"b", dsl::relu, "y">>;
constexpr auto& mixed_m = lowered<mixed>;
static_assert(mixed_m.error.code == ctnn::error_code::unsupported_dtype && mixed_m.error.node == 1 &&
              mixed_m.error.kind == op_kind::relu && mixed_m.error.actual == make_shape(1, 4) &&
              mixed_m.error.rejected_value == static_cast<std::int64_t>(ctnn::dtype::i8));
static_assert(mixed_m.call_count == 1 && !mixed_m.has(ctnn::fact::kernels_lowered));

// ---------------------------------------------------------------------------------------------------
// Scratch (kernel/scratch.hpp): lower_te writes module::scratch_bytes from the kernel layer's rules.
// No kernel needs scratch yet: every call of every test model declares none.
template <class Module>
constexpr bool declares_no_scratch(const Module& m) {
  for (std::int32_t c = 0; c < m.call_count; ++c)
    if (m.scratch_bytes[static_cast<std::size_t>(c)] != 0 || ctnn::kernel::scratch_bytes(m.calls[static_cast<std::size_t>(c)].params) != 0)
      return false;
  return true;
}
static_assert(declares_no_scratch(tiny_m) && declares_no_scratch(graph_m) && declares_no_scratch(lowered<dw>) &&
              declares_no_scratch(lowered<repeated>));

// Rules of a made-up target: a conv needs a row of its input per window row (4 bytes each), a relu
// 100 bytes, a max pool 64 bytes; a call gets the largest rule's figure.
struct conv_rows {
  static constexpr std::int32_t bytes(const kernel_params& p) {
    return p.kind == op_kind::conv2d ? p.win.kernel_h * p.in[2] * p.in[3] * 4 : 0;
  }
};
struct fixed_relu {
  static constexpr std::int32_t bytes(const kernel_params& p) { return p.kind == op_kind::relu ? 100 : 0; }
};
struct pool_64 {
  static constexpr std::int32_t bytes(const kernel_params& p) { return p.kind == op_kind::max_pool ? 64 : 0; }
};
struct pool_16 {
  static constexpr std::int32_t bytes(const kernel_params& p) { return p.kind == op_kind::max_pool ? 16 : 0; }
};
using made_up_rules = ctnn::kernel::scratch_rule_list<conv_rows, pool_16, fixed_relu, pool_64>;
template <class Model>
constexpr auto lowered_with_rules =
    ctnn::pass::lower_te::with_scratch<made_up_rules>::run(ctnn::pass::infer_types::run(Model::build()));

// tiny: conv 3x3 over [1,6,6,3] -> 3 * 6 * 3 * 4 = 216 B; max pool: the larger of 16 and 64; the rest none.
constexpr auto& tiny_scratch = lowered_with_rules<tiny>;
static_assert(tiny_scratch.scratch_bytes[0] == 216 && tiny_scratch.scratch_bytes[1] == 64 && tiny_scratch.scratch_bytes[2] == 0 &&
              tiny_scratch.scratch_bytes[4] == 0);
// The scratch is the module's per-call record, not a kernel parameter: the calls and kernels are the same.
static_assert([] {
  for (std::int32_t c = 0; c < tiny_m.call_count; ++c)
    if (!(tiny_scratch.calls[static_cast<std::size_t>(c)].params == tiny_m.calls[static_cast<std::size_t>(c)].params)) return false;
  return tiny_scratch.kernel_count == tiny_m.kernel_count;
}());
// Equal params still share one kernel: the three relus (100 B each) are one kernel, the tanh another.
constexpr auto& repeated_scratch = lowered_with_rules<repeated>;
static_assert(repeated_scratch.scratch_bytes[0] == 100 && repeated_scratch.scratch_bytes[2] == 0);
static_assert(repeated_scratch.kernel_count == 2 && repeated_scratch.calls[0].kernel == repeated_scratch.calls[3].kernel);
static_assert(ctnn::kernel::scratch_rule_list<>::bytes(tiny_scratch.calls[0].params) == 0);

// ---------------------------------------------------------------------------------------------------
// Named parameters (ir/kernel_params.hpp): every field struct is padding-free (a template argument),
// and lower_te sets the kind-specific struct of the call's own kind only, so calls of one kind are
// deduplicated by their own fields. Dedup is whole-value equality by design: kernel_params is the
// template argument of the kernel, and two values that differ anywhere are two instantiations to the
// compiler, so the kernel table cannot merge them either.
static_assert(std::has_unique_object_representations_v<kernel_params> &&
              std::has_unique_object_representations_v<ctnn::pad_fields> &&
              std::has_unique_object_representations_v<ctnn::patch_fields> &&
              std::has_unique_object_representations_v<ctnn::row_fetch_fields> &&
              std::has_unique_object_representations_v<ctnn::clip_fields> &&
              std::has_unique_object_representations_v<ctnn::concat_fields> &&
              std::has_unique_object_representations_v<ctnn::transpose_fields> &&
              std::has_unique_object_representations_v<ctnn::batch_norm_fields> &&
              std::has_unique_object_representations_v<ctnn::quantize_fields> &&
              std::has_unique_object_representations_v<ctnn::mean_fields> &&
              std::has_unique_object_representations_v<ctnn::onnx_quant_fields>);
inline constexpr float bn_scale[2] = {1, 2}, bn_offset[2] = {}, bn_mean[2] = {}, bn_variance[2] = {1, 1};
// Two equal pads, a third with other pads, a batch norm, then a concat of the first two.
using named_fields = dsl::graph<dsl::outputs<"k", "n", "q">, dsl::node<"x", dsl::input<ctnn::f32, 1, 4, 4, 2>>,
                                dsl::node<"p1", dsl::pad<0, 0, 1, 1, 0, 0, 0, 0>, "x">,
                                dsl::node<"p2", dsl::pad<0, 0, 1, 1, 0, 0, 0, 0>, "x">,
                                dsl::node<"q", dsl::pad<0, 0, 1, 1, 1, 1, 0, 0>, "x">,
                                dsl::node<"n", dsl::batch_norm<bn_scale, bn_offset, bn_mean, bn_variance, dsl::epsilon<1, 1000>>, "x">,
                                dsl::node<"k", dsl::concat<1>, "p1", "p2">>;
constexpr auto& named_m = lowered<named_fields>;
static_assert(!named_m.error.failed() && named_m.call_count == 5 && ctnn_test::calls_set_only_own_kind_fields(named_m) &&
              ctnn_test::calls_set_only_own_kind_fields(tiny_m) && ctnn_test::calls_set_only_own_kind_fields(graph_m));
static_assert([] {
  std::int32_t pad_kernels = 0;  // p1 and p2 share one kernel, q (other pads) has its own
  for (std::int32_t k = 0; k < named_m.kernel_count; ++k) pad_kernels += named_m.kernel(k).kind == op_kind::pad;
  return pad_kernels == 2 && named_m.kernel_count == 4;
}());
static_assert([] {
  for (std::int32_t c = 0; c < named_m.call_count; ++c) {
    const kernel_params& p = named_m.calls[static_cast<std::size_t>(c)].params;
    if (p.kind == op_kind::batch_norm && p.batch_norm.epsilon() != 0.001f) return false;
    if (p.kind == op_kind::pad && (p.pad.before_after[2] != 1 || p.pad.mode != ctnn::pad_mode::constant || p.pad.fill_value() != 0.0f))
      return false;
    if (p.kind == op_kind::concat && (p.concat().count != 2 || p.concat().extents[0] != 6 || p.concat().rescales_inputs != 0)) return false;
  }
  return true;
}());

TEST_CASE("lower_te: calls mirror nodes on every test model") {
  CHECK(calls_mirror_nodes(lowered<ctnn_test::two_io_graph>));
  CHECK(calls_mirror_nodes(lowered<concat3>));
  CHECK(calls_mirror_nodes(lowered<dw>));
  CHECK(calls_mirror_nodes(lowered<grouped>));
  CHECK(calls_mirror_nodes(lowered<repeated>));
  // The checker is not vacuous.
  auto broken = tiny_m;
  broken.calls[2].operands[0] = 0;
  CHECK_FALSE(calls_mirror_nodes(broken));
}

TEST_CASE("lower_te at run time gives the constexpr calls") {
  auto shapes = ctnn::pass::infer_types::run(ctnn_test::small_graph::build());
  using module_type = decltype(shapes);
  module_type (*volatile pass)(module_type) = &ctnn::pass::lower_te::run<module_type>;
  const auto m = pass(shapes);
  REQUIRE(m.call_count == graph_m.call_count);
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    CAPTURE(c);
    const auto& got = m.calls[static_cast<std::size_t>(c)];
    const auto& want = graph_m.calls[static_cast<std::size_t>(c)];
    CHECK(got.params == want.params);
    CHECK(got.node == want.node);
    CHECK(got.result == want.result);
    CHECK(got.operand_count == want.operand_count);
    CHECK(got.operands == want.operands);
  }
  // Running it again on its own output replaces the calls rather than appending.
  const auto twice = pass(m);
  CHECK(twice.call_count == m.call_count);
}

}  // namespace
