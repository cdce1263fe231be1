// Patch execution (pass::patch_execution, docs/memory.md "Patch execution"): the geometry as static_asserts,
// the option on DSL models through ctnn::compile (outputs equal to whole-tensor execution, arena smaller),
// and a property test on random conv chains, int8 and float (random kernels, strides, dilations, padding and
// grids), run at run time patched and whole: outputs equal bit for bit.
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/ctnn.hpp>
#include <ctnn/kernel/run_module.hpp>
#include <ctnn/pass/patch_option.hpp>

#include "pass_test_modules.hpp"
#include "patch_test_pipeline.hpp"

namespace {

namespace dsl = ctnn::dsl;
namespace pd = ctnn::pass::detail;

using w_conv = ctnn_test::ramp<8 * 3 * 3 * 3, 1>;
using b_conv = ctnn_test::ramp<8, 2>;
using w_dw = ctnn_test::ramp<1 * 3 * 3 * 8, 3>;
using b_dw = ctnn_test::ramp<8, 4>;
using w_pw = ctnn_test::ramp<16 * 1 * 1 * 8, 5>;
using b_pw = ctnn_test::ramp<16, 6>;
using w_fc = ctnn_test::ramp<4 * 16, 7>;
using b_fc = ctnn_test::ramp<4, 8>;

// A MobileNet-like head: stride-2 conv, depthwise, pointwise, max pool, then ops a prefix cannot hold.
using head = dsl::sequential<dsl::input<ctnn::f32, 1, 20, 18, 3>,
                             dsl::conv2d<w_conv::values, b_conv::values, dsl::kernel<3>, dsl::stride<2>, dsl::same, dsl::relu6>,
                             dsl::depthwise_conv2d<w_dw::values, b_dw::values, dsl::kernel<3>, dsl::same, dsl::relu>,
                             dsl::conv2d<w_pw::values, b_pw::values, dsl::kernel<1>, dsl::relu>,
                             dsl::max_pool<dsl::kernel<2>, dsl::stride<2>>,
                             dsl::global_avg_pool, dsl::flatten, dsl::dense<w_fc::values, b_fc::values>>;

// The geometry, checked by hand (maps: image 20x18, conv s2 SAME 10x9 with pads top 0 bottom 1, depthwise
// SAME pads 1/1, pool 5x4). Output rows [0, 3) of the max pool (k 2, s 2) read rows [0, 6) of the
// pointwise result, which reads the same rows of the depthwise; that one reads [-1, 7): [0, 7) with its
// top pad 1 and no bottom pad (rows 6 is real data, the halo); the conv reads [0, 15) of the image. Rows
// [3, 5) read [5, 11) of the conv result, clipped to [5, 10) with the bottom pad 1, and [10, 21) of the
// image, clipped to [10, 20) with SAME's bottom pad 1.
constexpr auto& inferred = ctnn::stage_v<head, ctnn::default_pipeline, 5>;
constexpr pd::axis_regions top = pd::regions_along(inferred, 4, 1, 0, 3);
static_assert(top.begin[4] == 0 && top.end[4] == 3);
static_assert(top.begin[3] == 0 && top.end[3] == 6);                            // max pool: [0, 6)
static_assert(top.begin[2] == 0 && top.end[2] == 6);                            // pointwise
static_assert(top.begin[1] == 0 && top.end[1] == 7 && top.pad_before[1] == 1 && top.pad_after[1] == 0);  // depthwise
static_assert(top.begin[0] == 0 && top.end[0] == 15 && top.pad_before[0] == 0 && top.pad_after[0] == 0);  // conv s2
constexpr pd::axis_regions bottom = pd::regions_along(inferred, 4, 1, 3, 5);
static_assert(bottom.begin[1] == 5 && bottom.end[1] == 10 && bottom.pad_before[1] == 0 && bottom.pad_after[1] == 1);
static_assert(bottom.begin[0] == 10 && bottom.end[0] == 20 && bottom.pad_before[0] == 0 && bottom.pad_after[0] == 1);
static_assert(pd::split_point(10, 3, 1) == 3 && pd::split_point(10, 3, 3) == 10);
// A prefix cannot hold global_avg_pool (op 4), nor end at the model's last op.
static_assert(pd::check_prefix(inferred, 5).problem == ctnn::pass::patch_problem::op_not_patchable);
static_assert(pd::check_prefix(inferred, 5).op == 4);
static_assert(pd::check_prefix(inferred, 4).problem == ctnn::pass::patch_problem::none);
// Patches recompute their halos: more MACs than the whole prefix. One patch computes only what the output
// reads: the max pool (2x2, valid) never reads column 8 of its 9, so the 1x1 grid skips it.
constexpr ctnn::pass::patch_figures two_by_two = pd::figures_of(inferred, 4, 2, 2);
static_assert(two_by_two.patched_macs > two_by_two.whole_macs && two_by_two.halo_rows > 0 && two_by_two.halo_columns > 0);
static_assert(pd::figures_of(inferred, 4, 1, 1).patched_macs < pd::figures_of(inferred, 4, 1, 1).whole_macs);

using whole = ctnn::compile<head>;
using patched_2x2 = ctnn::compile<head, ctnn::patch_execution<ctnn::patch_prefix<4>, ctnn::patch_grid<2, 2>>>;
using patched_3x1 = ctnn::compile<head, ctnn::patch_execution<ctnn::patch_prefix<2>, ctnn::patch_grid<3, 1>>, ctnn::io_in_arena>;
using automatic = ctnn::compile<head, ctnn::patch_execution<ctnn::max_extra_macs<40>>>;
using automatic_none = ctnn::compile<head, ctnn::patch_execution<ctnn::max_extra_macs<0>>>;
static_assert(patched_2x2::arena_bytes < whole::arena_bytes, "the patch stage lowers the arena");
static_assert(automatic_none::arena_bytes == whole::arena_bytes, "no candidate within 0 % extra MACs: nothing changes");

template <class Net>
std::vector<float> run_net(const std::vector<float>& input) {
  std::vector<float> out(Net::template output<0>::elements);
  Net::run(input.data(), out.data());
  return out;
}
template <class Net>
std::vector<float> run_net_io_in_arena(const std::vector<float>& input) {
  std::memcpy(Net::template input<0>::data(), input.data(), input.size() * sizeof(float));
  Net::run();
  const float* o = Net::template output<0>::data();
  return {o, o + Net::template output<0>::elements};
}

TEST_CASE("ctnn::patch_execution on a DSL model: the whole-tensor outputs bit for bit, a smaller arena") {
  std::vector<float> input(whole::input<0>::elements);
  for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(static_cast<int>(i * 7919 % 101) - 50) / 25.0f;
  const auto expected = run_net<whole>(input);
  CHECK(run_net<patched_2x2>(input) == expected);
  CHECK(run_net_io_in_arena<patched_3x1>(input) == expected);
  CHECK(run_net<automatic>(input) == expected);
  CHECK(run_net<automatic_none>(input) == expected);
  MESSAGE("arena: whole " << whole::arena_bytes << " B, 2x2 over 4 ops " << patched_2x2::arena_bytes << " B, automatic "
                          << automatic::arena_bytes << " B");
}

// ---- streamed input (ctnn::streamed_input, docs/memory.md "Streamed input") ----

// A row_source over an image in memory that records every request and checks it: rows in order, top to
// bottom, each at most once, inside the image, into a span exactly that long.
struct recording_rows {
  const std::vector<char>* image = nullptr;
  std::size_t row_bytes = 0;
  std::int32_t height = 0;
  std::int32_t next_row = 0;  // the first row not asked for yet
  int calls = 0, rows = 0;
  bool in_order = true, in_bounds = true, sized = true;
  void operator()(std::int32_t first_row, std::int32_t row_count, std::span<std::byte> destination) {
    ++calls;
    rows += row_count;
    in_order = in_order && first_row >= next_row && row_count >= 1;
    in_bounds = in_bounds && first_row >= 0 && first_row + row_count <= height;
    sized = sized && destination.size() == static_cast<std::size_t>(row_count) * row_bytes;
    next_row = first_row + row_count;
    if (!in_bounds || !sized) return;
    std::memcpy(destination.data(), image->data() + static_cast<std::size_t>(first_row) * row_bytes, destination.size());
  }
  void check() const {
    CHECK(calls > 0);
    CHECK(in_order);
    CHECK(in_bounds);
    CHECK(sized);
  }
};

using streamed_2x2 = ctnn::compile<head, ctnn::patch_execution<ctnn::patch_prefix<4>, ctnn::patch_grid<2, 2>, ctnn::streamed_input>>;
static_assert(streamed_2x2::input<0>::streamed && !patched_2x2::input<0>::streamed);
static_assert(streamed_2x2::input<0>::row_bytes == 18 * 3 * sizeof(float));
// The whole input (20 x 18 x 3 floats) is no longer RAM: only the row buffer in the arena.
static_assert(streamed_2x2::total_ram_bytes < patched_2x2::total_ram_bytes);
// The automatic choice with a streamed input is compiled by compile_fail_streamed_input_without_patches_control
// and ctnn-vww-streamed, and run at run time below and in unit_patch_mlperf: here it would cost this file 13 s
// of compile time (it plans a 16-patch stage in the compiler).

template <class Net>
std::vector<float> run_streamed(const std::vector<float>& input, recording_rows& rows) {
  std::vector<char> image(input.size() * sizeof(float));
  std::memcpy(image.data(), input.data(), image.size());
  rows = {&image, Net::template input<0>::row_bytes, Net::template input<0>::dims[1]};
  const ctnn::row_source source{rows};
  std::vector<float> out(Net::template output<0>::elements);
  Net::run(&source, out.data());
  return out;
}

TEST_CASE("ctnn::streamed_input: rows from a row_source, in order and each once; the whole-tensor outputs bit for bit") {
  std::vector<float> input(whole::input<0>::elements);
  for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(static_cast<int>(i * 7907 % 97) - 48) / 24.0f;
  const auto expected = run_net<whole>(input);
  recording_rows rows{};
  CHECK(run_streamed<streamed_2x2>(input, rows) == expected);
  rows.check();
  CHECK(rows.calls == 2);  // one request per patch row
  CHECK(rows.rows <= 20);  // each row at most once (the last may be one the prefix never reads)
  MESSAGE("total RAM: whole " << whole::total_ram_bytes << " B, 2x2 " << patched_2x2::total_ram_bytes << " B, 2x2 streamed "
                              << streamed_2x2::total_ram_bytes << " B");
}

TEST_CASE("a row_source from a function pointer and a context") {
  struct image_rows {
    std::array<std::int8_t, 12> pixels{};
    static void fill(void* context, std::int32_t first_row, std::int32_t row_count, std::span<std::byte> rows) {
      const auto& self = *static_cast<const image_rows*>(context);
      std::memcpy(rows.data(), self.pixels.data() + first_row * 4, static_cast<std::size_t>(row_count) * 4);
    }
  } image{{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}};
  const ctnn::row_source source{&image_rows::fill, &image};
  std::array<std::byte, 8> two_rows{};
  source.fill_rows(1, 2, two_rows);
  CHECK(static_cast<int>(two_rows[0]) == 5);
  CHECK(static_cast<int>(two_rows[7]) == 12);
}

// ---- random conv chains, built at run time ----

using chain_module = ctnn::module<320, 192>;

struct chain_model {
  std::unique_ptr<chain_module> m{new chain_module{}};
  std::vector<std::unique_ptr<float[]>> floats;
  std::vector<std::unique_ptr<std::int8_t[]>> bytes;
  std::vector<std::unique_ptr<std::int32_t[]>> words;
  std::int32_t chain_ops = 0;
};

struct chain_builder {
  std::mt19937& rng;
  chain_model& model;
  ctnn::dtype type;

  std::int32_t pick(std::int32_t lo, std::int32_t hi) { return std::uniform_int_distribution<std::int32_t>(lo, hi)(rng); }
  float real(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); }

  ctnn::quantization activation_quant() { return {real(0.02f, 0.2f), pick(-20, 20)}; }

  std::int32_t activation(ctnn::shape dims, ctnn::quantization q) {
    ctnn::tensor t{};
    t.label = ctnn::numbered("t", static_cast<std::size_t>(model.m->tensor_count));
    t.dims = dims;
    t.type = type;
    if (type == ctnn::dtype::i8) t.quant = q;
    return model.m->add_tensor(t);
  }
  // A constant of `n` values: int8 weights (or float), int32 biases for int8 ops.
  std::int32_t constant(ctnn::shape dims, bool bias) {
    ctnn::tensor t{};
    t.label = ctnn::numbered("c", static_cast<std::size_t>(model.m->tensor_count));
    t.dims = dims;
    t.role = ctnn::tensor_role::constant;
    const auto n = static_cast<std::size_t>(dims.elements());
    if (type == ctnn::dtype::f32) {
      model.floats.emplace_back(new float[n]);
      for (std::size_t i = 0; i < n; ++i) model.floats.back()[i] = real(-1.0f, 1.0f);
      t.data.f32 = model.floats.back().get();
    } else if (bias) {
      t.type = ctnn::dtype::i32;
      model.words.emplace_back(new std::int32_t[n]);
      for (std::size_t i = 0; i < n; ++i) model.words.back()[i] = pick(-2000, 2000);
      t.data.i32 = model.words.back().get();
    } else {
      t.type = ctnn::dtype::i8;
      t.quant = {real(0.005f, 0.03f), 0};
      model.bytes.emplace_back(new std::int8_t[n]);
      for (std::size_t i = 0; i < n; ++i) model.bytes.back()[i] = static_cast<std::int8_t>(pick(-127, 127));
      t.data.i8 = model.bytes.back().get();
    }
    return model.m->add_tensor(t);
  }

  ctnn::window random_window(bool pool) {
    ctnn::window w{};
    w.kernel_h = pick(1, 4) == 4 ? 5 : pick(1, 3);
    w.kernel_w = pick(1, 4) == 4 ? 5 : pick(1, 3);
    w.stride_h = pick(1, 3);
    w.stride_w = pick(1, 3);
    w.dilation_h = pool ? 1 : pick(1, 2);
    w.dilation_w = pool ? 1 : pick(1, 2);
    const std::int32_t mode = pick(0, 2);
    w.mode = mode == 0 ? ctnn::padding::same : mode == 1 ? ctnn::padding::valid : ctnn::padding::explicit_pads;
    if (w.mode == ctnn::padding::explicit_pads) {
      w.pad_top = pick(0, w.kernel_h - 1);
      w.pad_bottom = pick(0, w.kernel_h - 1);
      w.pad_left = pick(0, w.kernel_w - 1);
      w.pad_right = pick(0, w.kernel_w - 1);
    }
    return w;
  }

  // Appends op `kind` reading `data` (H x W x C) and returns its result.
  std::int32_t add_op(std::int32_t data, std::int32_t channels) {
    ctnn::node n{};
    n.label = ctnn::numbered("op", static_cast<std::size_t>(model.m->node_count));
    n.inputs[0] = data;
    n.input_count = 1;
    ctnn::quantization q = activation_quant();
    std::int32_t out_channels = channels;
    const std::int32_t choice = pick(0, 9);
    if (choice <= 3) {  // conv2d, sometimes grouped
      n.kind = ctnn::op_kind::conv2d;
      n.attrs.win = random_window(false);
      out_channels = pick(1, 6);
      n.attrs.groups = channels % 2 == 0 && out_channels % 2 == 0 && pick(0, 2) == 0 ? 2 : 1;
      n.attrs.units = out_channels;
      n.inputs[1] = constant(ctnn::make_shape(out_channels, n.attrs.win.kernel_h, n.attrs.win.kernel_w, channels / n.attrs.groups), false);
      n.inputs[2] = constant(ctnn::make_shape(out_channels), true);
      n.input_count = 3;
      n.attrs.fused = static_cast<ctnn::activation>(pick(0, 2));  // none, relu, relu6
    } else if (choice <= 5) {
      n.kind = ctnn::op_kind::depthwise_conv2d;
      n.attrs.win = random_window(false);
      n.attrs.depth_multiplier = pick(1, 2);
      out_channels = channels * n.attrs.depth_multiplier;
      n.inputs[1] = constant(ctnn::make_shape(1, n.attrs.win.kernel_h, n.attrs.win.kernel_w, out_channels), false);
      n.inputs[2] = constant(ctnn::make_shape(out_channels), true);
      n.input_count = 3;
      n.attrs.fused = static_cast<ctnn::activation>(pick(0, 2));
    } else if (choice <= 7) {
      n.kind = choice == 6 ? ctnn::op_kind::max_pool : ctnn::op_kind::avg_pool;
      n.attrs.win = random_window(true);
      q = model.m->tensor_at(data).quant;  // int8 pooling keeps its input's quantization
    } else if (choice == 8 || type == ctnn::dtype::i8) {
      n.kind = ctnn::op_kind::add;  // a per-channel constant
      ctnn::shape per_channel = ctnn::make_shape(1, 1, 1, channels);
      if (type == ctnn::dtype::f32) {
        n.inputs[1] = constant(per_channel, false);
      } else {
        n.inputs[1] = constant(per_channel, false);
        model.m->tensor_at(n.inputs[1]).quant = activation_quant();
      }
      n.input_count = 2;
    } else {
      n.kind = ctnn::op_kind::tanh;
    }
    const ctnn::shape in = model.m->tensor_at(data).dims;
    n.output = activation(ctnn::make_shape(1, in[1], in[2], out_channels), q);  // shapes: infer_types
    model.m->tensor_at(n.output).producer = model.m->node_count;
    model.m->nodes[static_cast<std::size_t>(model.m->node_count++)] = n;
    return n.output;
  }
};

// A chain of 1 to 4 random ops on a random map, then a 1x1 max pool (outside every prefix, a copy).
chain_model random_chain(std::mt19937& rng, ctnn::dtype type) {
  chain_model model{};
  chain_builder b{rng, model, type};
  chain_module& m = *model.m;
  m.model_name = ctnn::name{"chain"};
  const std::int32_t input = b.activation(ctnn::make_shape(1, b.pick(4, 24), b.pick(4, 24), b.pick(1, 5)), b.activation_quant());
  m.tensor_at(input).role = ctnn::tensor_role::input;
  m.tensor_at(input).io_index = 0;
  m.inputs[0] = input;
  m.input_count = 1;
  std::int32_t data = input;
  model.chain_ops = b.pick(1, 4);
  for (std::int32_t i = 0; i < model.chain_ops; ++i) data = b.add_op(data, m.tensor_at(data).dims[3]);
  ctnn::node last{};
  last.kind = ctnn::op_kind::max_pool;
  last.label = ctnn::name{"last"};
  last.inputs[0] = data;
  last.input_count = 1;
  last.output = b.activation(m.tensor_at(data).dims, m.tensor_at(data).quant);  // infer_types sets the shape
  m.tensor_at(last.output).role = ctnn::tensor_role::output;
  m.tensor_at(last.output).io_index = 0;
  m.tensor_at(last.output).producer = m.node_count;
  m.nodes[static_cast<std::size_t>(m.node_count++)] = last;
  m.outputs[0] = last.output;
  m.output_count = 1;
  return model;
}

// `streamed`: the input comes from a recording row_source (checked: in order, in bounds, each row once).
std::vector<char> run_module(const chain_module& m, const std::vector<char>& input, bool streamed = false) {
  ctnn::kernel::module_runner<chain_module> runner{m};
  REQUIRE(runner.status() == ctnn::kernel::run_status::ok);
  std::vector<char> output(static_cast<std::size_t>(m.output_tensor(0).bytes()), 0x55);
  const ctnn::shape dims = m.input_tensor(0).dims;
  recording_rows rows{&input, input.size() / static_cast<std::size_t>(dims[1]), dims[1]};
  const ctnn::row_source source{rows};
  const void* inputs[1] = {streamed ? static_cast<const void*>(&source) : input.data()};
  void* outputs[1] = {output.data()};
  REQUIRE(runner.run(inputs, outputs) == ctnn::kernel::run_status::ok);
  if (streamed) rows.check();
  return output;
}

void check_random_chains(ctnn::dtype type, std::uint32_t seed, int wanted) {
  std::mt19937 rng{seed};
  int tried = 0, checked = 0, patched_calls = 0, streamed = 0;
  while (checked < wanted && tried < 20 * wanted) {
    ++tried;
    chain_model model = random_chain(rng, type);
    // Shapes first: a random window may not fit its input (the generator does not check); then skip it.
    chain_model& copy_source = model;
    auto probe_storage = std::make_unique<chain_module>(*copy_source.m);
    chain_module& probe = *probe_storage;
    patch_test::graph_passes(probe);
    if (probe.error.failed()) continue;
    const std::int32_t prefix = probe.node_count - 1;  // every op but the last (fusion may have merged some)
    const ctnn::shape out = probe.tensor_at(probe.node_at(prefix - 1).output).dims;
    ctnn::pass::patch_request request{prefix, std::uniform_int_distribution<std::int32_t>(1, std::min(4, out[1]))(rng),
                                      std::uniform_int_distribution<std::int32_t>(1, std::min(4, out[2]))(rng), 0,
                                      std::uniform_int_distribution<std::int32_t>(0, 1)(rng)};
    const ctnn::memory::plan_config config =
        std::uniform_int_distribution<int>(0, 1)(rng) == 0 ? ctnn::memory::plan_config{}
                                                          : ctnn::memory::make_plan_config<ctnn::memory_reuse, ctnn::io_in_arena, ctnn::in_place_windows>();
    auto whole = std::make_unique<chain_module>(*copy_source.m);
    auto patched = std::make_unique<chain_module>(*copy_source.m);
    patch_test::compile(*whole, false, request, config);
    patch_test::compile(*patched, true, request, config);
    CAPTURE(tried);
    CAPTURE(request.ops);
    CAPTURE(request.rows);
    CAPTURE(request.columns);
    if (whole->error.failed()) continue;  // e.g. an int8 avg pool window without data
    CAPTURE(static_cast<int>(patched->error.code));
    CAPTURE(patched->error.node);
    CAPTURE(patched->error.prefix_ops);
    CAPTURE(patched->error.reason);
    REQUIRE(!patched->error.failed());
    const std::int32_t fetches = request.streamed_input != 0 ? request.rows : 0;
    CHECK(patched->node_count == whole->node_count + request.rows * request.columns * (request.ops + 2) + fetches - request.ops);
    CAPTURE(request.streamed_input);
    std::vector<char> input(static_cast<std::size_t>(whole->input_tensor(0).bytes()));
    for (char& c : input) c = static_cast<char>(std::uniform_int_distribution<int>(-128, 127)(rng));
    if (type == ctnn::dtype::f32)
      for (std::size_t i = 0; i < input.size() / 4; ++i) {
        const float v = std::uniform_real_distribution<float>(-2.0f, 2.0f)(rng);
        std::memcpy(input.data() + 4 * i, &v, 4);
      }
    // The model's output is a copy of the prefix's (a 1x1 max pool): every element of it is compared.
    CHECK(run_module(*patched, input, request.streamed_input != 0) == run_module(*whole, input));
    patched_calls += patched->call_count;
    streamed += request.streamed_input;
    ++checked;
  }
  MESSAGE(std::string{ctnn::name_of(type)} << ": " << checked << " random chains patched and whole, bit for bit (" << tried << " drawn, "
                              << patched_calls << " calls run, " << streamed << " with a streamed input)");
  CHECK(checked == wanted);
  CHECK(streamed > wanted / 4);
}

TEST_CASE("random conv chains, float32: patched equals whole bit for bit") { check_random_chains(ctnn::dtype::f32, 11, 150); }
TEST_CASE("random conv chains, int8: patched equals whole bit for bit") { check_random_chains(ctnn::dtype::i8, 23, 150); }

}  // namespace
