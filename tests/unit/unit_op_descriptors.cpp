// The op descriptors (ops/descriptor.hpp) and their registry (ops/registry.hpp): the dispatch finds each
// listed kind and no other, the passes see what the descriptors say (shape rule, in-place slots, fusion,
// patch execution), and a descriptor's reference kernels are the ones the dispatch runs.
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include <doctest/doctest.h>

#include <ctnn/ctnn.hpp>
#include <ctnn/ops/cost.hpp>
#include <ctnn/ops/infer.hpp>
#include <ctnn/ops/registry.hpp>

namespace {

using ctnn::op_kind;
namespace ops = ctnn::ops;

// Every kind the registry lists is found by visit and by descriptor_of, with its own kind.
template <class... Descriptors>
constexpr bool every_listed_kind_dispatches(ops::op_list<Descriptors...>) {
  return ((ops::has_descriptor<Descriptors::kind> &&
           std::is_same_v<ops::descriptor_of<Descriptors::kind>, Descriptors> &&
           ops::visit_or(Descriptors::kind, op_kind::none, [](auto d) { return d.kind; }) == Descriptors::kind) &&
          ...);
}
static_assert(every_listed_kind_dispatches(ops::all{}));

// The kinds' shared field storage (ir/kind_fields.hpp): a struct not held reads as its defaults (a non-zero one
// among them), setting the defaults holds nothing (one representation per value: kernel_params compare equal),
// and the words past a struct's stay zero.
constexpr bool shared_fields_read_as_members() {
  ctnn::kernel_params p{};
  if (p.svdf().rank != 1 || p.resize().cubic_coeff_a() != -0.75f || p.detection().detections_per_class != 100) return false;
  ctnn::svdf_fields s{};
  s.rank = 3;
  p.set(s);
  if (p.svdf().rank != 3 || p.resize() != ctnn::resize_fields{} || p.kind_specific.words[3] != 0) return false;
  p.set(ctnn::svdf_fields{});
  ctnn::kernel_params q{};
  q.set(ctnn::negative_side_fields{5, -2});  // the second storage: beside a struct of the first
  q.set(ctnn::concat_fields{{2, 3}, 2, 1});
  return p == ctnn::kernel_params{} && p.kind_specific.held == 0 && q.negative_side().multiplier == 5 &&
         q.concat().extents[1] == 3 && q.gather() == ctnn::gather_fields{};
}
static_assert(shared_fields_read_as_members());
// Parameters kept as words (module::constant_recipe) come back as a template argument.
template <ctnn::kernel_params P>
constexpr std::int32_t concat_count_of = P.concat().count;
constexpr ctnn::kernel_params concat_of_two = [] {
  ctnn::kernel_params p{};
  p.set(ctnn::concat_fields{{2, 3}, 2, 0});
  return p;
}();
static_assert(concat_count_of<ctnn::constant_recipe::evaluating(ctnn::node{}, concat_of_two).params()> == 2);

// none reaches no descriptor.
static_assert(!ops::has_descriptor<op_kind::none>);
static_assert(!ops::visit(op_kind::none, [](auto) {}));
static_assert(ops::visit_or(op_kind::none, 7, [](auto) { return 1; }) == 7);

// What the activations declare.
static_assert(ops::descriptor_of<op_kind::relu>::fuses_as == ctnn::activation::relu);
static_assert(ops::descriptor_of<op_kind::sigmoid>::fuses_as == ctnn::activation::sigmoid);
static_assert(ops::descriptor_of<op_kind::clip>::fuses_as == ctnn::activation::none);
static_assert(ops::descriptor_of<op_kind::relu6>::non_negative_result && !ops::descriptor_of<op_kind::tanh>::non_negative_result);
static_assert(ops::descriptor_of<op_kind::clip>::plain_integer_kernel && !ops::descriptor_of<op_kind::relu>::plain_integer_kernel);

// The layers ask the descriptors: the memory planner's in-place slots, the kernels' existence.
static_assert(ctnn::memory::may_write_over(op_kind::tanh, 0) && !ctnn::memory::may_write_over(op_kind::tanh, 1));
static_assert(!ctnn::memory::may_write_over(op_kind::clip, 0));
static_assert(ctnn::kernel::has_kernel(op_kind::sigmoid, ctnn::dtype::i8) &&
              !ctnn::kernel::has_kernel(op_kind::sigmoid, ctnn::dtype::u8) &&
              !ctnn::kernel::has_kernel(op_kind::none, ctnn::dtype::f32));

// A module of one op of kind K over a [2, 3] float input.
template <op_kind K>
constexpr auto one_op_module() {
  ctnn::module<4, 2> m{};
  ctnn::tensor x{};
  x.dims = ctnn::make_shape(2, 3);
  x.role = ctnn::tensor_role::input;
  const std::int32_t in = m.add_tensor(x);
  ctnn::tensor y = x;
  y.dims = {};
  y.role = ctnn::tensor_role::output;
  const std::int32_t out = m.add_tensor(y);
  ctnn::node n{};
  n.kind = K;
  n.inputs[0] = in;
  n.input_count = 1;
  n.output = out;
  n.attrs.clip = {std::bit_cast<std::uint32_t>(-0.5f), std::bit_cast<std::uint32_t>(0.25f)};
  m.nodes[0] = n;
  m.node_count = 1;
  return m;
}

// The shape rule through ops::infer_shape: the activations keep their input's shape.
template <op_kind K>
constexpr bool keeps_shape() {
  auto m = one_op_module<K>();
  return ops::infer_shape(m, 0) == ctnn::make_shape(2, 3) && !m.error.failed();
}
static_assert(keeps_shape<op_kind::relu>() && keeps_shape<op_kind::relu6>() && keeps_shape<op_kind::sigmoid>() &&
              keeps_shape<op_kind::tanh>() && keeps_shape<op_kind::clip>());
static_assert(keeps_shape<op_kind::leaky_relu>() && keeps_shape<op_kind::hard_swish>() && keeps_shape<op_kind::elu>() &&
              keeps_shape<op_kind::relu_n1_to_1>() && keeps_shape<op_kind::relu_0_to_1>() &&
              keeps_shape<op_kind::hard_sigmoid>());

// The activation family: no fused activation of ctnn's is a clamp to [-1, 1] or [0, 1], so fuse_ops leaves
// these ops as they are; prelu, maximum and minimum take none either. hard_sigmoid has no int8 kernel.
static_assert(ops::descriptor_of<op_kind::relu_n1_to_1>::fuses_as == ctnn::activation::none &&
              ops::descriptor_of<op_kind::relu_0_to_1>::fuses_as == ctnn::activation::none &&
              ops::descriptor_of<op_kind::leaky_relu>::fuses_as == ctnn::activation::none);
static_assert(!ops::descriptor_of<op_kind::prelu>::takes_fused_activation &&
              !ops::descriptor_of<op_kind::maximum>::takes_fused_activation &&
              ops::descriptor_of<op_kind::sub>::takes_fused_activation);
static_assert(ops::descriptor_of<op_kind::relu_0_to_1>::non_negative_result &&
              !ops::descriptor_of<op_kind::relu_n1_to_1>::non_negative_result &&
              ops::descriptor_of<op_kind::hard_sigmoid>::non_negative_result);
static_assert(ctnn::kernel::has_kernel(op_kind::elu, ctnn::dtype::i8) &&
              !ctnn::kernel::has_kernel(op_kind::hard_sigmoid, ctnn::dtype::i8));

// A described op given too few or too many inputs fails before its rule runs, naming both counts: a sub
// with one input (it takes 2), a relu with two (it takes 1).
template <op_kind K>
constexpr ctnn::diagnostic infer_with_inputs(std::int32_t count) {
  auto m = one_op_module<K>();
  m.nodes[0].inputs[1] = m.nodes[0].inputs[0];
  m.nodes[0].input_count = count;
  ops::infer_shape(m, 0);
  return m.error;
}
static_assert(infer_with_inputs<op_kind::sub>(1).code == ctnn::error_code::input_count_mismatch &&
              infer_with_inputs<op_kind::sub>(1).count_expected == 2 && infer_with_inputs<op_kind::sub>(1).count_actual == 1);
static_assert(infer_with_inputs<op_kind::relu>(2).code == ctnn::error_code::input_count_mismatch &&
              infer_with_inputs<op_kind::relu>(2).count_expected == 1 && infer_with_inputs<op_kind::relu>(2).count_actual == 2);
static_assert(!infer_with_inputs<op_kind::sub>(2).failed() && !infer_with_inputs<op_kind::relu>(1).failed());
static_assert(infer_with_inputs<op_kind::prelu>(1).count_expected == 2 &&
              !infer_with_inputs<op_kind::minimum>(2).failed());

// The operands a kernel reads: a paste's second input (the whole tensor's previous view) and a fetch's
// ordering inputs are not read.
constexpr ctnn::kernel_params call_of(op_kind kind) {
  ctnn::kernel_params p{};
  p.kind = kind;
  return p;
}
static_assert(ctnn::kernel::operands_read(call_of(op_kind::sub)) == 2 && ctnn::kernel::operands_read(call_of(op_kind::paste)) == 1 &&
              ctnn::kernel::operands_read(call_of(op_kind::fetch_rows)) == 1);

// A module of one op of kind K with these attributes over inputs of these shapes (float32, but the second
// input's type `second`), its result's shape inferred.
template <op_kind K, class... Shapes>
constexpr auto inferred_op_with(const ctnn::op_attributes& attrs, ctnn::dtype second, const Shapes&... shapes) {
  ctnn::module<sizeof...(Shapes) + 1, 1> m{};
  ctnn::node n{};
  n.kind = K;
  n.attrs = attrs;
  for (const ctnn::shape& dims : {shapes...}) {
    ctnn::tensor x{};
    x.dims = dims;
    x.role = ctnn::tensor_role::input;
    x.type = n.input_count == 1 ? second : ctnn::dtype::f32;
    n.inputs[static_cast<std::size_t>(n.input_count++)] = m.add_tensor(x);
  }
  ctnn::tensor y{};
  y.role = ctnn::tensor_role::output;
  n.output = m.add_tensor(y);
  m.nodes[0] = n;
  m.node_count = 1;
  m.tensor_at(n.output).dims = ops::infer_shape(m, 0);
  return m;
}
// The same over float inputs, with default attributes.
template <op_kind K, class... Shapes>
constexpr auto inferred_op(const Shapes&... shapes) {
  return inferred_op_with<K>(ctnn::op_attributes{}, ctnn::dtype::f32, shapes...);
}

// batch_matmul: the batch dims broadcast ([2, 1] with [5]), K = 4 multiply-accumulates per result element;
// float32, and int8 and int16 (TFLite BATCH_MATMUL's recipe).
static_assert([] {
  const auto m = inferred_op<op_kind::batch_matmul>(ctnn::make_shape(2, 1, 3, 4), ctnn::make_shape(5, 4, 6));
  return !m.error.failed() && m.tensor_at(m.node_at(0).output).dims == ctnn::make_shape(2, 5, 3, 6) &&
         ops::macs_of(m, m.node_at(0), m.tensor_at(m.node_at(0).output).dims) == 2 * 5 * 3 * 6 * 4 &&
         ctnn::kernel::prepare_params(m, m.node_at(0)).in2 == ctnn::make_shape(5, 4, 6);
}());
static_assert(inferred_op<op_kind::batch_matmul>(ctnn::make_shape(3, 4), ctnn::make_shape(5, 6)).error.code ==
              ctnn::error_code::input_shapes_differ);
static_assert(ctnn::kernel::has_kernel(op_kind::batch_matmul, ctnn::dtype::f32) &&
              ctnn::kernel::has_kernel(op_kind::batch_matmul, ctnn::dtype::i8) &&
              ctnn::kernel::has_kernel(op_kind::batch_matmul, ctnn::dtype::i16) &&
              !ctnn::kernel::has_kernel(op_kind::batch_matmul, ctnn::dtype::u8));

// concat: the axis normalised (-1: the last), the extents summed along it; each call reads as many operands as
// its op has inputs; an int8 call whose inputs are quantized otherwise than its result reads a table of
// per-input rescaling.
static_assert([] {
  const auto m = inferred_op<op_kind::concat>(ctnn::make_shape(2, 3), ctnn::make_shape(2, 4));
  ctnn::kernel_params p = ctnn::kernel::prepare_params(m, m.node_at(0));
  const bool structure = !m.error.failed() && m.tensor_at(m.node_at(0).output).dims == ctnn::make_shape(2, 7) &&
                         p.axis == 1 && p.concat().count == 2 && p.concat().extents[0] == 3 && p.concat().extents[1] == 4 &&
                         ctnn::kernel::operands_read(p) == 2;
  p.type = ctnn::dtype::i8;
  ops::quantized_operands q{{0.5f, 1}, {}, {0.5f, 1}};
  ops::descriptor_of<op_kind::concat>::requantize(q, m.node_at(0), p);
  const bool copies = p.concat().rescales_inputs == 0 &&
                      ops::descriptor_of<op_kind::concat>::table_recipe(p).table == ctnn::requantization_table::none &&
                      ctnn::kernel::has_requantization(p, {});
  q.inputs_quantized_as_result = false;
  ops::descriptor_of<op_kind::concat>::requantize(q, m.node_at(0), p);
  const ctnn::requantization_recipe table = ops::descriptor_of<op_kind::concat>::table_recipe(p);
  return structure && copies && table.table == ctnn::requantization_table::concat_inputs && table.channels == 2 &&
         !ctnn::kernel::has_requantization(p, {});
}());

// batch_norm: the input's shape, one scale, offset, mean and variance per channel (the last axis); float32
// only; its result may overwrite its input, and patch execution may run it on a patch.
static_assert([] {
  const ctnn::shape x = ctnn::make_shape(2, 3), channels = ctnn::make_shape(3);
  auto m = inferred_op<op_kind::batch_norm>(x, channels, channels, channels, channels);
  m.nodes[0].attrs.batch_norm.epsilon_bits = std::bit_cast<std::uint32_t>(0.001f);
  return !m.error.failed() && m.tensor_at(m.node_at(0).output).dims == x &&
         ctnn::kernel::prepare_params(m, m.node_at(0)).batch_norm.epsilon() == 0.001f;
}());
static_assert(inferred_op<op_kind::batch_norm>(ctnn::make_shape(2, 3), ctnn::make_shape(3), ctnn::make_shape(4),
                                               ctnn::make_shape(3), ctnn::make_shape(3))
                  .error.code == ctnn::error_code::weight_count_mismatch);
static_assert(ctnn::kernel::has_kernel(op_kind::batch_norm, ctnn::dtype::f32) &&
              !ctnn::kernel::has_kernel(op_kind::batch_norm, ctnn::dtype::i8) &&
              ctnn::memory::may_write_over(op_kind::batch_norm, 0) && !ctnn::memory::may_write_over(op_kind::batch_norm, 1));

// slice: the window (begin, stride, extent per input dim) must lie inside the input, a negative stride
// included; its result is the extents, or attrs.target when that holds as many elements.
constexpr auto sliced(const ctnn::shape& in, const ctnn::slice_fields& window, const ctnn::shape& target = {}) {
  ctnn::op_attributes a{};
  a.slice = window;
  a.target = target;
  return inferred_op_with<op_kind::slice>(a, ctnn::dtype::f32, in);
}
inline constexpr ctnn::slice_fields backwards{{1, 2}, {-1, -2}, {2, 2}};  // rows 1, 0; columns 2, 0
static_assert([] {
  const auto m = sliced(ctnn::make_shape(2, 3), backwards);
  const ctnn::kernel_params p = ctnn::kernel::prepare_params(m, m.node_at(0));
  return !m.error.failed() && m.tensor_at(m.node_at(0).output).dims == ctnn::make_shape(2, 2) && p.slice == backwards;
}());
static_assert(sliced(ctnn::make_shape(2, 3), backwards, ctnn::make_shape(4)).tensor_at(1).dims == ctnn::make_shape(4));
static_assert(sliced(ctnn::make_shape(2, 3), backwards, ctnn::make_shape(3)).error.code == ctnn::error_code::reshape_element_count);
static_assert([] {
  const auto m = sliced(ctnn::make_shape(2, 3), ctnn::slice_fields{{1, 2}, {-1, -2}, {2, 3}});  // column -2: outside
  return m.error.code == ctnn::error_code::input_shapes_differ && m.error.axis == 1;
}());
static_assert(sliced(ctnn::make_shape(2, 3), ctnn::slice_fields{{0, 0}, {1, 1}, {0, 3}}).error.code ==
              ctnn::error_code::input_shapes_differ);  // an empty window
static_assert([] {
  ctnn::kernel_params p{};
  p.kind = op_kind::slice;
  p.in = ctnn::make_shape(2, 3);
  p.out = ctnn::make_shape(4);
  p.slice = backwards;
  const std::array<float, 6> x{0.0f, 1.0f, 2.0f, 10.0f, 11.0f, 12.0f};
  std::array<float, 4> y{};
  const float* operands[] = {x.data()};
  ctnn::kernel::detail::run_f32<op_kind::slice>(&p, operands, y.data());
  return y == std::array<float, 4>{12.0f, 10.0f, 2.0f, 0.0f};
}());

// gather: data[:axis] + indices + data[axis + 1:], the axis normalised; integer indices only; two operands read.
template <ctnn::dtype Indices>
constexpr auto gathered(std::int32_t axis) {
  ctnn::op_attributes a{};
  a.axis = axis;
  return inferred_op_with<op_kind::gather>(a, Indices, ctnn::make_shape(2, 3), ctnn::make_shape(4, 1));
}
static_assert([] {
  const auto m = gathered<ctnn::dtype::i64>(-1);
  const ctnn::kernel_params p = ctnn::kernel::prepare_params(m, m.node_at(0));
  return !m.error.failed() && m.tensor_at(m.node_at(0).output).dims == ctnn::make_shape(2, 4, 1) && p.gather().axis == 1 &&
         p.gather().indices == ctnn::dtype::i64 && p.in2 == ctnn::make_shape(4, 1) && ctnn::kernel::operands_read(p) == 2;
}());
static_assert(gathered<ctnn::dtype::i32>(0).tensor_at(2).dims == ctnn::make_shape(4, 1, 3));
static_assert(gathered<ctnn::dtype::f32>(0).error.code == ctnn::error_code::unsupported_dtype);
static_assert(gathered<ctnn::dtype::i32>(2).error.code == ctnn::error_code::invalid_axis);

// prepare_params copies clip's attribute struct (one vocabulary for the graph and the kernel).
static_assert([] {
  const auto m = one_op_module<op_kind::clip>();
  const ctnn::kernel_params p = ctnn::kernel::prepare_params(m, m.node_at(0));
  return p.clip == m.node_at(0).attrs.clip && p.clip.min() == -0.5f && p.clip.max() == 0.25f;
}());

// The float32 kernel the dispatch runs for a kind is its descriptor's: evaluated at compile time.
template <op_kind K>
constexpr std::array<float, 4> run_f32(std::array<float, 4> x) {
  ctnn::kernel_params p{};
  p.kind = K;
  p.in = p.out = ctnn::make_shape(4);
  p.clip = {std::bit_cast<std::uint32_t>(-0.5f), std::bit_cast<std::uint32_t>(0.25f)};
  std::array<float, 4> y{};
  const float* operands[] = {x.data()};
  ctnn::kernel::detail::run_f32<K>(&p, operands, y.data());
  return y;
}
static_assert(run_f32<op_kind::relu>({-2.0f, -0.0f, 3.0f, 7.0f}) == std::array<float, 4>{0.0f, 0.0f, 3.0f, 7.0f});
static_assert(run_f32<op_kind::relu6>({-2.0f, 0.5f, 6.0f, 7.0f}) == std::array<float, 4>{0.0f, 0.5f, 6.0f, 6.0f});
static_assert(run_f32<op_kind::clip>({-2.0f, 0.0f, 0.1f, 7.0f}) == std::array<float, 4>{-0.5f, 0.0f, 0.1f, 0.25f});

}  // namespace

TEST_CASE("the activation descriptors' kernels run through the dispatch, float32 and int8") {
  const std::array<float, 4> s = run_f32<op_kind::sigmoid>({-1.0f, 0.0f, 1.0f, 20.0f});
  CHECK(s[1] == doctest::Approx(0.5f));
  CHECK(s[2] == doctest::Approx(0.7310586f));
  CHECK(s[3] == doctest::Approx(1.0f));
  const std::array<float, 4> t = run_f32<op_kind::tanh>({-1.0f, 0.0f, 0.5f, 20.0f});
  CHECK(t[0] == doctest::Approx(-0.7615942f));
  CHECK(t[2] == doctest::Approx(0.4621172f));

  // int8 relu6: a raw clamp to [activation_min, activation_max] (its recipe's, here set by hand).
  ctnn::kernel_params p{};
  p.kind = op_kind::relu6;
  p.type = p.out_type = ctnn::dtype::i8;
  p.in = p.out = ctnn::make_shape(5);
  p.activation_min = -10;
  p.activation_max = 20;
  const std::array<std::int8_t, 5> x{-128, -11, 0, 20, 127};
  std::array<std::int8_t, 5> y{};
  const void* operands[] = {x.data()};
  ctnn::kernel::detail::run_i8<op_kind::relu6>(&p, operands, y.data(), ctnn::kernel::requant_arrays{});
  CHECK(y == std::array<std::int8_t, 5>{-10, -10, 0, 20, 20});
}

TEST_CASE("the int8 recipes of the activation descriptors are compute_requantization's") {
  // relu6: quantized 0 and 6 in the input's quantization (scale 0.05, zero point -20: -20 and 100).
  ctnn::kernel_params p{};
  const ops::quantized_operands q{{0.05f, -20}, {}, {0.1f, 3}};
  ops::descriptor_of<op_kind::relu6>::requantize(q, ctnn::node{}, p);
  CHECK(p.activation_min == -20);
  CHECK(p.activation_max == 100);
  // relu: requantized to the output, clamped below at the output's zero point.
  ctnn::kernel_params r{};
  ops::descriptor_of<op_kind::relu>::requantize(q, ctnn::node{}, r);
  CHECK(r.activation_min == 3);
  CHECK(r.activation_max == 127);
  CHECK(r.output_multiplier == 1073741824);  // 0.5 = 2^30 * 2^-31 ...
  CHECK(r.output_shift == 0);                // ... with no shift
}

TEST_CASE("sub's int8 recipe is TFLite Micro's (CalculateOpDataSub: its ratios in float)") {
  // The parameters TFLM 90b983c2b's Prepare computes for the two SUBs of tests/data/tflite/sub_int8.tflite
  // (read from the host oracle's OpDataSub).
  ctnn::node n{};
  n.attrs.fused = ctnn::activation::relu6;
  ctnn::kernel_params p{};
  ops::descriptor_of<op_kind::sub>::requantize({{0.05f, -3}, {0.11f, 7}, {0.08f, 2}}, n, p);
  CHECK(p.input2_offset == -7);
  CHECK(p.left_shift == 20);
  CHECK(p.input_multiplier == 1952257920);
  CHECK(p.input_shift == -2);
  CHECK(p.input2_multiplier == 1073741824);
  CHECK(p.input2_shift == 0);
  CHECK(p.output_multiplier == 1476395008);
  CHECK(p.output_shift == -18);
  CHECK(p.activation_min == 2);
  CHECK(p.activation_max == 77);

  ctnn::kernel_params swapped{};
  ops::descriptor_of<op_kind::sub>::requantize({{0.11f, 7}, {0.05f, -3}, {0.2f, -10}}, ctnn::node{}, swapped);
  CHECK(swapped.input_multiplier == 1073741824);
  CHECK(swapped.input_shift == 0);
  CHECK(swapped.input2_multiplier == 1952257920);
  CHECK(swapped.input2_shift == -2);
  CHECK(swapped.output_multiplier == 1181116032);
  CHECK(swapped.output_shift == -19);
  CHECK(swapped.activation_min == -128);
  CHECK(swapped.activation_max == 127);
}

TEST_CASE("sub's kernels: float32 a - b with broadcast and the fused activation; int8 as TFLite's raw_sub") {
  ctnn::kernel_params p{};
  p.kind = op_kind::sub;
  p.in = ctnn::make_shape(2, 2);
  p.in2 = ctnn::make_shape(2);
  p.out = ctnn::make_shape(2, 2);
  p.fused = ctnn::activation::relu;
  const std::array<float, 4> a{1.0f, 2.0f, 3.0f, 4.0f};
  const std::array<float, 2> b{1.5f, 1.0f};
  std::array<float, 4> y{};
  const float* operands[] = {a.data(), b.data()};
  ctnn::kernel::detail::run_f32<op_kind::sub>(&p, operands, y.data());
  CHECK(y == std::array<float, 4>{0.0f, 1.0f, 1.5f, 3.0f});
}

TEST_CASE("gather's kernel: int32 and int64 indices, a negative index counted from the end, one outside clamped") {
  ctnn::kernel_params p{};
  p.kind = op_kind::gather;
  p.in = ctnn::make_shape(2, 3);
  p.in2 = ctnn::make_shape(4);
  p.out = ctnn::make_shape(2, 4);
  p.set(ctnn::gather_fields{1, ctnn::dtype::i64});
  const std::array<float, 6> x{0.0f, 1.0f, 2.0f, 10.0f, 11.0f, 12.0f};
  const std::array<std::int64_t, 4> wide{2, -1, 7, -9};
  std::array<float, 8> y{};
  const float* operands[] = {x.data(), static_cast<const float*>(static_cast<const void*>(wide.data()))};
  ctnn::kernel::detail::run_f32<op_kind::gather>(&p, operands, y.data());
  CHECK(y == std::array<float, 8>{2.0f, 2.0f, 2.0f, 0.0f, 12.0f, 12.0f, 12.0f, 10.0f});

  p.type = p.out_type = ctnn::dtype::i8;
  p.set(ctnn::gather_fields{0, ctnn::dtype::i32});
  p.in2 = ctnn::make_shape(3);
  p.out = ctnn::make_shape(3, 3);
  const std::array<std::int8_t, 6> q{-128, 0, 127, 5, 6, 7};
  const std::array<std::int32_t, 3> narrow{1, 0, 1};
  std::array<std::int8_t, 9> z{};
  const void* raw[] = {q.data(), narrow.data()};
  ctnn::kernel::detail::run_i8<op_kind::gather>(&p, raw, z.data(), ctnn::kernel::requant_arrays{});
  CHECK(z == std::array<std::int8_t, 9>{5, 6, 7, -128, 0, 127, 5, 6, 7});
}

// The activation family's int8 recipes: the values TFLM 90b983c2b's Prepare computes (its expressions,
// evaluated with TFLM's own QuantizeMultiplier and DownScaleInt32ToInt16Multiplier on the host).
namespace activation_recipes {

ctnn::kernel_params recipe_of(op_kind kind, ops::quantized_operands q, float alpha = 0.0f) {
  ctnn::node n{};
  n.kind = kind;
  n.attrs.coefficients.alpha_bits = std::bit_cast<std::uint32_t>(alpha);
  ctnn::kernel_params p{};
  ops::visit(kind, [&](auto d) { d.requantize(q, n, p); });
  return p;
}

}  // namespace activation_recipes

TEST_CASE("leaky_relu's int8 recipe is TFLM's CalculateOpDataLeakyRelu (ratios in float, a negative alpha kept)") {
  using activation_recipes::recipe_of;
  struct expected {
    float in, alpha, out;
    std::int32_t alpha_multiplier, alpha_shift, identity_multiplier, identity_shift;
  };
  // 0.05 * 0.1 / 0.04 in float is 1073741952 * 2^-33, in double 1073741824 * 2^-33: the float ratio is TFLM's.
  for (const expected& e : {expected{0.05f, 0.1f, 0.04f, 1073741952, -2, 1342177280, 1},
                            expected{0.02f, -0.3f, 0.01f, -1288490240, 0, 1073741824, 2},
                            expected{50.0f, 2.5f, 100.0f, 1342177280, 1, 1073741824, 0},
                            expected{1e-6f, 0.5f, 2e-6f, 1073741824, -1, 1073741824, 0},
                            expected{1e-3f, 0.0f, 5e-4f, 0, 0, 1073741824, 2}}) {
    CAPTURE(e.alpha);
    const ctnn::kernel_params p = recipe_of(op_kind::leaky_relu, {{e.in, 0}, {}, {e.out, 0}}, e.alpha);
    CHECK(p.negative_side().multiplier == e.alpha_multiplier);
    CHECK(p.negative_side().shift == e.alpha_shift);
    CHECK(p.output_multiplier == e.identity_multiplier);
    CHECK(p.output_shift == e.identity_shift);
  }
}

TEST_CASE("hard_swish's int8 recipe is TFLM's HardSwishPrepare (int16 multipliers, exponents)") {
  using activation_recipes::recipe_of;
  struct expected {
    float in, out;
    std::int32_t output_multiplier, output_exponent, reluish_multiplier, reluish_exponent;
  };
  for (const expected& e : {expected{0.05f, 0.03f, 27307, -6, 17476, 3}, expected{20.0f, 40.0f, 16384, -7, 27307, 11},
                            expected{1e-4f, 1e-4f, 16384, -6, 17896, -6},
                            expected{0.2f, 0.2f / 127, 32512, 0, 17476, 5}}) {
    CAPTURE(e.out);
    const ctnn::kernel_params p = recipe_of(op_kind::hard_swish, {{e.in, 0}, {}, {e.out, 0}});
    CHECK(p.output_multiplier == e.output_multiplier);
    CHECK(p.output_shift == e.output_exponent);
    CHECK(p.input_multiplier == e.reluish_multiplier);
    CHECK(p.input_shift == e.reluish_exponent);
  }
  // TFLM refuses an output exponent above 0 (an output scale of at most the input's / 128): the importer's check.
  const ctnn::kernel_params refused = recipe_of(op_kind::hard_swish, {{0.2f, 0}, {}, {0.2f / 128, 0}});
  const ops::recipe_shift checked = ops::descriptor_of<op_kind::hard_swish>::checked_shift(refused);
  CHECK(checked.shift == 1);
  CHECK(checked.largest == 0);
  CHECK(ctnn::ops::int16_multiplier(2147483647 - 32768) == 32767);  // DownScaleInt32ToInt16Multiplier saturates
}

TEST_CASE("prelu's int8 recipe is TFLM's CalculatePreluParams (ratios in double)") {
  using activation_recipes::recipe_of;
  // 0.05 / 0.04 in double is 1342177330 * 2^-30 (in float it would be 1342177280).
  ctnn::kernel_params p = recipe_of(op_kind::prelu, {{0.05f, 3}, {0.01f, -7}, {0.04f, -2}});
  CHECK(p.output_multiplier == 1342177330);
  CHECK(p.output_shift == 1);
  CHECK(p.negative_side().multiplier == 1717986944);
  CHECK(p.negative_side().shift == -6);
  CHECK(p.input2_offset == 7);
  p = recipe_of(op_kind::prelu, {{30.0f, 0}, {1e-3f, 10}, {20.0f, 1}});
  CHECK(p.output_multiplier == 1610612736);
  CHECK(p.output_shift == 1);
  CHECK(p.negative_side().multiplier == 1649267520);
  CHECK(p.negative_side().shift == -9);
}

TEST_CASE("relu_n1_to_1 and relu_0_to_1 requantize as TFLite's QuantizedReluX; relu with the same recipe") {
  using activation_recipes::recipe_of;
  ctnn::kernel_params p = recipe_of(op_kind::relu_n1_to_1, {{0.02f, 0}, {}, {0.01f, 3}});
  CHECK(p.output_multiplier == 1073741824);
  CHECK(p.output_shift == 2);
  CHECK(p.activation_min == -97);
  CHECK(p.activation_max == 103);
  p = recipe_of(op_kind::relu_0_to_1, {{2.0f, 0}, {}, {0.5f, -2}});
  CHECK(p.output_multiplier == 1073741824);
  CHECK(p.output_shift == 3);
  CHECK(p.activation_min == -2);
  CHECK(p.activation_max == 0);
  p = recipe_of(op_kind::relu, {{0.07f, 0}, {}, {0.03f, 5}});
  CHECK(p.output_multiplier == 1252698880);  // 0.07 / 0.03 in float, as TFLM's CalculateReluOpData
  CHECK(p.output_shift == 2);
  CHECK(p.activation_min == 5);
  CHECK(p.activation_max == 127);
}

TEST_CASE("the activation family's kernels") {
  ctnn::kernel_params p{};
  p.in = p.out = ctnn::make_shape(4);
  const std::array<float, 4> x{-2.0f, -0.5f, 0.0f, 3.0f};
  const float* operands[] = {x.data()};
  std::array<float, 4> y{};
  p.kind = op_kind::leaky_relu;
  p.coefficients.alpha_bits = std::bit_cast<std::uint32_t>(-0.5f);
  ctnn::kernel::detail::run_f32<op_kind::leaky_relu>(&p, operands, y.data());
  CHECK(y == std::array<float, 4>{1.0f, 0.25f, 0.0f, 3.0f});
  p.kind = op_kind::hard_sigmoid;
  p.coefficients = {std::bit_cast<std::uint32_t>(0.2f), std::bit_cast<std::uint32_t>(0.5f)};
  ctnn::kernel::detail::run_f32<op_kind::hard_sigmoid>(&p, operands, y.data());
  CHECK(y[0] == doctest::Approx(0.1f));
  CHECK(y[1] == doctest::Approx(0.4f));
  CHECK(y[2] == 0.5f);
  CHECK(y[3] == 1.0f);
  p.kind = op_kind::relu_n1_to_1;
  ctnn::kernel::detail::run_f32<op_kind::relu_n1_to_1>(&p, operands, y.data());
  CHECK(y == std::array<float, 4>{-1.0f, -0.5f, 0.0f, 1.0f});
  p.kind = op_kind::elu;
  p.coefficients.alpha_bits = std::bit_cast<std::uint32_t>(1.0f);
  ctnn::kernel::detail::run_f32<op_kind::elu>(&p, operands, y.data());
  CHECK(y[0] == std::expm1(-2.0f));
  CHECK(y[3] == 3.0f);
  // expm1 in constant evaluation (fold_constants) agrees with <cmath> to float precision, also near 0.
  static_assert(ctnn::kernel::reference::expm1(-1e-10f) < 0.0f);
  constexpr float folded = ctnn::kernel::reference::expm1(-1e-10f);
  CHECK(folded == doctest::Approx(std::expm1(-1e-10f)).epsilon(1e-7));
  constexpr float folded_large = ctnn::kernel::reference::expm1(-3.0f);
  CHECK(folded_large == doctest::Approx(std::expm1(-3.0f)).epsilon(1e-7));

  // maximum and minimum: TFLM's a > b ? a : b (the second operand wins ties and NaN in the first).
  p.kind = op_kind::maximum;
  p.in2 = ctnn::make_shape(1);
  const std::array<float, 1> floor{-1.0f};
  const float* pair[] = {x.data(), floor.data()};
  ctnn::kernel::detail::run_f32<op_kind::maximum>(&p, pair, y.data());
  CHECK(y == std::array<float, 4>{-1.0f, -0.5f, 0.0f, 3.0f});
}

// Concat and pad add extents in int64: a result beyond 2^31 - 1 is extent_too_large, not an overflow (the
// fuzz regression onnx_import/concat_extent_overflow.onnx).
static_assert([] {
  ctnn::module<4, 2> m{};
  ctnn::tensor x{};
  x.dims = ctnn::make_shape(2, 2147483647);
  x.role = ctnn::tensor_role::input;
  const std::int32_t a = m.add_tensor(x), b = m.add_tensor(x);
  ctnn::tensor y{};
  y.role = ctnn::tensor_role::output;
  const std::int32_t out = m.add_tensor(y);
  ctnn::node n{};
  n.kind = op_kind::concat;
  n.inputs[0] = a;
  n.inputs[1] = b;
  n.input_count = 2;
  n.attrs.axis = 1;
  n.output = out;
  m.nodes[0] = n;
  m.node_count = 1;
  ops::infer_shape(m, 0);
  return m.error.code == ctnn::error_code::extent_too_large && m.error.axis == 1 &&
         m.error.count_actual == 4294967294;
}());

// The logic family (ops/comparison.hpp, logical.hpp, select.hpp, cast.hpp, div.hpp, ...): what the layers ask.
static_assert(ctnn::kernel::has_kernel(op_kind::equal, ctnn::dtype::b8) &&
              !ctnn::kernel::has_kernel(op_kind::less, ctnn::dtype::b8) &&
              ctnn::kernel::has_kernel(op_kind::greater_equal, ctnn::dtype::i32));
static_assert(ctnn::kernel::has_kernel(op_kind::logical_and, ctnn::dtype::b8) &&
              !ctnn::kernel::has_kernel(op_kind::logical_or, ctnn::dtype::f32));
static_assert(ctnn::kernel::has_kernel(op_kind::select, ctnn::dtype::b8) &&
              !ctnn::kernel::has_kernel(op_kind::select, ctnn::dtype::f32));
static_assert(!ctnn::kernel::has_kernel(op_kind::floor_mod, ctnn::dtype::i8) &&
              ctnn::kernel::has_kernel(op_kind::squared_difference, ctnn::dtype::i32));
// A comparison's result (bool) cannot overwrite its operands; a logical op's can.
static_assert(!ctnn::memory::may_write_over(op_kind::less, 0) && ctnn::memory::may_write_over(op_kind::logical_or, 1));
static_assert(ctnn::kernel::has_untyped_kernel(op_kind::select) &&
              !ctnn::kernel::has_untyped_kernel(op_kind::floor_div));

TEST_CASE("the comparisons' int8 recipe is TFLM's ComparisonsPrepare; without quantization they compare raw values") {
  namespace logic = ctnn::kernel::reference::logic;
  ctnn::kernel_params p{};
  ops::descriptor_of<op_kind::less>::requantize({{0.5f, -3}, {0.25f, 7}, {}}, ctnn::node{}, p);
  CHECK(p.left_shift == 8);
  CHECK(p.input2_offset == -7);
  CHECK(p.input_multiplier == 1073741824);  // 0.5 = 2^30 / 2^31, shift 0
  CHECK(p.input_shift == 0);
  CHECK(p.input2_multiplier == 1073741824);
  CHECK(p.input2_shift == -1);
  p.kind = op_kind::less;
  p.type = ctnn::dtype::i8;
  p.input_offset = 3;
  p.in = p.in2 = p.out = ctnn::make_shape(3);
  // Reals: a = (x + 3) 0.5, b = (y - 7) 0.25.
  const std::array<std::int8_t, 3> a{-3, 1, 5}, b{7, 15, 39};
  std::array<bool, 3> less{};
  const void* operands[] = {a.data(), b.data()};
  ctnn::kernel::detail::run_i8<op_kind::less>(&p, operands, less.data(), {});
  CHECK(less == std::array<bool, 3>{false, false, true});  // 0 < 0, 2 < 2, 4 < 8
  ctnn::kernel_params raw{};
  ops::descriptor_of<op_kind::less>::requantize({{}, {}, {}}, ctnn::node{}, raw);
  CHECK(raw.left_shift == 0);
  raw.kind = op_kind::less;
  raw.type = ctnn::dtype::i8;
  raw.in = raw.in2 = raw.out = ctnn::make_shape(3);
  ctnn::kernel::detail::run_i8<op_kind::less>(&raw, operands, less.data(), {});
  CHECK(less == std::array<bool, 3>{true, true, true});
  CHECK(logic::converted<std::int8_t>(300.0f) == 127);  // out of range: saturated
  CHECK(logic::converted<std::int32_t>(std::nanf("")) == 0);
  CHECK(logic::converted<bool>(-0.0f) == false);
  CHECK(logic::converted<std::int32_t>(-2.9f) == -2);
}

TEST_CASE("floor division, floor remainder and division in constant evaluation equal the run-time results") {
  namespace logic = ctnn::kernel::reference::logic;
  constexpr float inf = std::numeric_limits<float>::infinity();
  static_assert(logic::floor_divided(7.0f, -2.0f) == -4.0f && logic::floor_divided(-0.5f, 3.0f) == -1.0f);
  static_assert(logic::floor_modulo(7.0f, -2.0f) == -1.0f && logic::floor_modulo(-7.5f, 2.0f) == 0.5f);
  static_assert(logic::divided(1.0f, -0.0f) == -inf && logic::divided(-3.0f, 0.0f) == -inf);
  static_assert(logic::floor_modulo(1e30f, 3.0f) >= 0.0f && logic::floor_modulo(1e30f, 3.0f) < 3.0f);
  volatile float run_time_divisor = 3.0f;  // not folded: <cmath> at run time
  constexpr float folded_remainder = logic::floor_modulo(1e30f, 3.0f);
  CHECK(logic::floor_modulo(1e30f, run_time_divisor) == folded_remainder);
  CHECK(logic::floor_divided(-1e-30f, run_time_divisor) == -1.0f);
  constexpr float folded = logic::floor_divided(16777217.0f, 3.0f);
  CHECK(folded == logic::floor_divided(16777217.0f, run_time_divisor));
  CHECK(std::isnan(logic::floor_modulo(1.0f, run_time_divisor * 0.0f)));
}

TEST_CASE("int8 division: TFLM's DivElementwise; a zero divisor gives a clamp bound, a shift beyond 31 the zero point") {
  namespace logic = ctnn::kernel::reference::logic;
  ctnn::kernel_params p{};
  ctnn::node n{};
  // a 0.05 (zero point -3), b 0.002 (10), result 0.2 (2): the real multiplier 125.
  ops::descriptor_of<op_kind::div>::requantize({{0.05f, -3}, {0.002f, 10}, {0.2f, 2}}, n, p);
  p.input_offset = 3;
  p.output_offset = 2;
  CHECK(p.output_shift == 7);
  CHECK(logic::divide_int8(&p, 17, 110) == 27);     // (20 * 0.05) / (100 * 0.002) = 5: 5 / 0.2 + 2
  CHECK(logic::divide_int8(&p, 17, 10) == 127);      // x / 0: the bound of the dividend's sign
  CHECK(logic::divide_int8(&p, -23, 10) == -128);
  CHECK(logic::divide_int8(&p, -3, 127) == 2);       // 0 / y: the zero point
  p.output_shift = -20;                              // a shift beyond 31: less than half a unit
  CHECK(logic::divide_int8(&p, -2, 127) == 2);
}

// The gather/scatter family's kernels at the edges of their indices: nothing read or written outside a tensor.
namespace gather_scatter {

const float* as_floats(const void* p) { return static_cast<const float*>(p); }

TEST_CASE("gather_nd: a negative component counts from the end, a tuple outside gives zeros, batch dims") {
  ctnn::kernel_params p{};
  p.kind = op_kind::gather_nd;
  p.in = ctnn::make_shape(2, 3);
  p.in2 = ctnn::make_shape(4, 2);
  p.out = ctnn::make_shape(4);
  p.set(ctnn::gather_fields{0, ctnn::dtype::i64});
  const std::array<float, 6> x{0.0f, 1.0f, 2.0f, 10.0f, 11.0f, 12.0f};
  const std::array<std::int64_t, 8> tuples{1, 2, -1, -3, 2, 0, 0, 3};  // the last two outside (row 2, column 3)
  std::array<float, 4> y{};
  const float* operands[] = {x.data(), as_floats(tuples.data())};
  ctnn::kernel::detail::run_f32<op_kind::gather_nd>(&p, operands, y.data());
  CHECK(y == std::array<float, 4>{12.0f, 10.0f, 0.0f, 0.0f});

  // batch dims 1: row b's tuple picks a column of row b.
  p.set(ctnn::gather_fields{1, ctnn::dtype::i32});
  p.in2 = ctnn::make_shape(2, 1);
  p.out = ctnn::make_shape(2);
  const std::array<std::int32_t, 2> columns{2, 0};
  std::array<float, 2> z{};
  const float* batched[] = {x.data(), as_floats(columns.data())};
  ctnn::kernel::detail::run_f32<op_kind::gather_nd>(&p, batched, z.data());
  CHECK(z == std::array<float, 2>{2.0f, 10.0f});
}

TEST_CASE("scatter_nd: tuples in order, one outside skipped, reduction add") {
  ctnn::kernel_params p{};
  p.kind = op_kind::scatter_nd;
  p.in = p.out = ctnn::make_shape(2, 2);
  p.in2 = ctnn::make_shape(3, 2);
  p.set(ctnn::gather_fields{0, ctnn::dtype::i64});
  const std::array<float, 4> x{1.0f, 2.0f, 3.0f, 4.0f};
  const std::array<std::int64_t, 6> tuples{0, 1, 5, 0, -1, -1};  // (5, 0) outside
  const std::array<float, 3> updates{10.0f, 20.0f, 30.0f};
  std::array<float, 4> y{};
  const float* operands[] = {x.data(), as_floats(tuples.data()), updates.data()};
  ctnn::kernel::detail::run_f32<op_kind::scatter_nd>(&p, operands, y.data());
  CHECK(y == std::array<float, 4>{1.0f, 10.0f, 3.0f, 30.0f});
  p.axis = static_cast<std::int32_t>(ops::scatter_reduction::add);
  ctnn::kernel::detail::run_f32<op_kind::scatter_nd>(&p, operands, y.data());
  CHECK(y == std::array<float, 4>{1.0f, 12.0f, 3.0f, 34.0f});
}

TEST_CASE("scatter_elements: along the axis in order, negative indices from the end, one outside skipped") {
  ctnn::kernel_params p{};
  p.kind = op_kind::scatter_elements;
  p.in = p.out = ctnn::make_shape(2, 3);
  p.in2 = ctnn::make_shape(2, 2);
  p.set(ctnn::gather_fields{1, ctnn::dtype::i32});
  const std::array<float, 6> x{1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f};
  const std::array<std::int32_t, 4> indices{-1, 3, 0, 0};  // 3 outside an axis of 3; row 1's 0 twice
  const std::array<float, 4> updates{10.0f, 20.0f, 30.0f, 40.0f};
  std::array<float, 6> y{};
  const float* operands[] = {x.data(), as_floats(indices.data()), updates.data()};
  ctnn::kernel::detail::run_f32<op_kind::scatter_elements>(&p, operands, y.data());
  CHECK(y == std::array<float, 6>{1.0f, 2.0f, 10.0f, 40.0f, 5.0f, 6.0f});
  p.axis = static_cast<std::int32_t>(ops::scatter_reduction::mul);
  ctnn::kernel::detail::run_f32<op_kind::scatter_elements>(&p, operands, y.data());
  CHECK(y == std::array<float, 6>{1.0f, 2.0f, 30.0f, 4800.0f, 5.0f, 6.0f});
  const std::array<std::int32_t, 4> far{-4, 2147483647, 1, -2147483647 - 1};  // all but 1 outside
  const float* skipped[] = {x.data(), as_floats(far.data()), updates.data()};
  p.axis = static_cast<std::int32_t>(ops::scatter_reduction::none);
  ctnn::kernel::detail::run_f32<op_kind::scatter_elements>(&p, skipped, y.data());
  CHECK(y == std::array<float, 6>{1.0f, 2.0f, 3.0f, 4.0f, 30.0f, 6.0f});
}

TEST_CASE("update_slice: the start clamped at both ends so that the update lies inside") {
  ctnn::kernel_params p{};
  p.kind = op_kind::update_slice;
  p.type = p.out_type = ctnn::dtype::i8;
  p.in = p.out = ctnn::make_shape(3, 3);
  p.in2 = ctnn::make_shape(2, 2);
  p.set(ctnn::gather_fields{0, ctnn::dtype::i32});
  const std::array<std::int8_t, 9> x{};
  const std::array<std::int8_t, 4> update{1, 2, 3, 4};
  const std::array<std::int32_t, 2> start{-5, 9};  // row 0, column 1 after clamping
  std::array<std::int8_t, 9> y{};
  const void* operands[] = {x.data(), update.data(), start.data()};
  ctnn::kernel::detail::run_i8<op_kind::update_slice>(&p, operands, y.data(), ctnn::kernel::requant_arrays{});
  CHECK(y == std::array<std::int8_t, 9>{0, 1, 2, 0, 3, 4, 0, 0, 0});
}

}  // namespace gather_scatter
