// Unit tests of lower_te's kernel dedup (module::kernels, kernel_call::kernel) and of the metadata passes:
// create_function_metadata (per kernel: calls, io/constant/workspace bytes of one call) and
// create_executor_metadata (model name, inputs/outputs, pools, totals). Expected numbers are worked out
// by hand in the comments.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/compile.hpp>
#include <ctnn/frontend/dsl.hpp>
#include <ctnn/kernel/scratch.hpp>

#include "pass_test_modules.hpp"
#include "test_modules.hpp"

namespace {

namespace dsl = ctnn::dsl;
namespace pass = ctnn::pass;
using ctnn::fact;
using ctnn::op_kind;
using ctnn_test::ramp;

constexpr std::uint32_t bits(fact f) { return static_cast<std::uint32_t>(f); }

static_assert(pass::create_function_metadata::requires_facts == fact::kernels_lowered &&
              pass::create_function_metadata::establishes == fact::function_metadata);
static_assert(bits(pass::create_executor_metadata::requires_facts) == (bits(fact::memory_planned) | bits(fact::function_metadata)) &&
              pass::create_executor_metadata::establishes == fact::executor_metadata);
static_assert(std::is_same_v<ctnn::default_pipeline::pass<8>, pass::create_function_metadata> &&
              std::is_same_v<ctnn::default_pipeline::pass<9>, pass::create_executor_metadata>);
// Executor metadata needs function metadata first (and a plan).
static_assert(ctnn::detail::first_order_problem(ctnn::pipeline<pass::infer_types, pass::lower_te, pass::plan_memory<>,
                                                               pass::create_executor_metadata, pass::create_function_metadata>{})
                  .position == 3);
static_assert(ctnn::detail::first_order_problem(ctnn::pipeline<pass::infer_types, pass::lower_te, pass::plan_memory<>,
                                                               pass::create_executor_metadata, pass::create_function_metadata>{})
                  .missing == bits(fact::function_metadata));

// ---------------------------------------------------------------------------------------------------
// Kernel dedup. Six layers on [1,6,6,4]: conv 3x3 SAME (4 -> 4) three times with different weights, once
// more with a fused relu, then conv 1x1 (4 -> 2) and a global average pool.
// Distinct kernels: conv3x3 (calls 0, 1, 3), conv3x3+relu (2), conv1x1 (4), global_avg_pool (5).
using wa = ramp<144, 61>;
using wb = ramp<144, 62>;
using wc = ramp<144, 63>;
using wd = ramp<144, 64>;
using ba = ramp<4, 65>;
using bb = ramp<4, 66>;
using bc = ramp<4, 67>;
using bd = ramp<4, 68>;
using we = ramp<8, 69>;
using be = ramp<2, 70>;
using repeated = dsl::sequential<dsl::input<ctnn::f32, 1, 6, 6, 4>, dsl::conv2d<wa::values, ba::values, dsl::kernel<3>, dsl::same>,
                                 dsl::conv2d<wb::values, bb::values, dsl::kernel<3>, dsl::same>,
                                 dsl::conv2d<wc::values, bc::values, dsl::kernel<3>, dsl::same, dsl::relu>,
                                 dsl::conv2d<wd::values, bd::values, dsl::kernel<3>, dsl::same>,
                                 dsl::conv2d<we::values, be::values, dsl::kernel<1>>, dsl::global_avg_pool>;
constexpr auto& rep = ctnn::compiled_v<repeated>;
static_assert(rep.call_count == 6 && rep.kernel_count == 4);
static_assert(rep.calls[0].kernel == 0 && rep.calls[1].kernel == 0 && rep.calls[2].kernel == 1 && rep.calls[3].kernel == 0 &&
              rep.calls[4].kernel == 2 && rep.calls[5].kernel == 3);
static_assert(rep.kernel(0).kind == op_kind::conv2d && rep.kernel(0).fused == ctnn::activation::none &&
              rep.kernel(1).fused == ctnn::activation::relu && rep.kernel(2).win.kernel_h == 1 &&
              rep.kernel(3).kind == op_kind::global_avg_pool);
// Calls sharing a kernel keep their own operands (weights).
static_assert(rep.calls[0].operands[1] != rep.calls[1].operands[1] && rep.calls[1].operands[1] != rep.calls[3].operands[1]);

template <class Module>
constexpr bool kernels_consistent(const Module& m) {
  for (std::int32_t c = 0; c < m.call_count; ++c)
    if (!(m.kernel(m.calls[static_cast<std::size_t>(c)].kernel) == m.calls[static_cast<std::size_t>(c)].params))
      return false;
  for (std::int32_t a = 0; a < m.kernel_count; ++a)
    for (std::int32_t b = a + 1; b < m.kernel_count; ++b)
      if (m.kernel(a) == m.kernel(b)) return false;
  return true;
}
static_assert(kernels_consistent(rep));

// Different shapes, different kernels: 6x6 -> 6x6, 6x6 -> 3x3 (stride 2), 3x3 -> 3x3.
using shapes_differ = dsl::sequential<dsl::input<ctnn::f32, 1, 6, 6, 4>, dsl::conv2d<wa::values, ba::values, dsl::kernel<3>, dsl::same>,
                                      dsl::conv2d<wb::values, bb::values, dsl::kernel<3>, dsl::same, dsl::stride<2>>,
                                      dsl::conv2d<wc::values, bc::values, dsl::kernel<3>, dsl::same>>;
static_assert(ctnn::compiled_v<shapes_differ>.call_count == 3 && ctnn::compiled_v<shapes_differ>.kernel_count == 3 &&
              kernels_consistent(ctnn::compiled_v<shapes_differ>));
// The dedup is lower_te's: right after it, before any metadata pass.
static_assert(pass::lower_te::run(pass::infer_types::run(repeated::build())).kernel_count == 4);

// Functions of the repeated model: conv3x3 is used 3 times; one call reads 576 + writes 576 B of
// activations and reads 144 + 4 floats = 592 B of constants.
static_assert(rep.functions[0].calls == 3 && rep.functions[0].io_bytes == 1152 && rep.functions[0].constant_bytes == 592 &&
              rep.functions[0].workspace_bytes == 0);
static_assert(rep.functions[1].calls == 1 && rep.functions[2].calls == 1 && rep.functions[3].calls == 1 && rep.functions[4].calls == 0);
// conv1x1: in 576 + out 6*6*2*4 = 288; constants 8 + 2 floats = 40. global pool: 288 + 8.
static_assert(rep.functions[2].io_bytes == 864 && rep.functions[2].constant_bytes == 40);
static_assert(rep.functions[3].io_bytes == 296 && rep.functions[3].constant_bytes == 0);

// The executor runs each call with its own weights, through the shared kernel: checked against a direct
// double-precision evaluation of the six layers.
std::vector<double> conv_nhwc(const std::vector<double>& in, int h, int w, int ci, const float* weights, const float* bias,
                              int co, int k, bool relu) {
  const int pad = k / 2;
  std::vector<double> out(static_cast<std::size_t>(h * w * co));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int o = 0; o < co; ++o) {
        double acc = bias[o];
        for (int ky = 0; ky < k; ++ky)
          for (int kx = 0; kx < k; ++kx) {
            const int iy = y - pad + ky, ix = x - pad + kx;
            if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
            for (int i = 0; i < ci; ++i)
              acc += in[static_cast<std::size_t>((iy * w + ix) * ci + i)] *
                     static_cast<double>(weights[((o * k + ky) * k + kx) * ci + i]);
          }
        out[static_cast<std::size_t>((y * w + x) * co + o)] = relu && acc < 0.0 ? 0.0 : acc;
      }
  return out;
}

TEST_CASE("kernel dedup: calls that share a kernel use their own weights") {
  const auto x = ctnn_test::random_floats(144, 17);
  float out[2] = {};
  ctnn::compile<repeated>::run(x.data(), out);
  std::vector<double> t(x.begin(), x.end());
  t = conv_nhwc(t, 6, 6, 4, wa::values, ba::values, 4, 3, false);
  t = conv_nhwc(t, 6, 6, 4, wb::values, bb::values, 4, 3, false);
  t = conv_nhwc(t, 6, 6, 4, wc::values, bc::values, 4, 3, true);
  t = conv_nhwc(t, 6, 6, 4, wd::values, bd::values, 4, 3, false);
  t = conv_nhwc(t, 6, 6, 4, we::values, be::values, 2, 1, false);
  for (std::size_t c = 0; c < 2; ++c) {
    double mean = 0.0;
    for (std::size_t p = 0; p < 36; ++p) mean += t[p * 2 + c];
    mean /= 36.0;
    CHECK(ctnn_test::close(out[c], mean, 1e-5));
  }
}

// ---------------------------------------------------------------------------------------------------
// create_function_metadata / create_executor_metadata on a small model:
//   input [1,4,4,2] -> conv 3x3 SAME 2->2 -> conv 3x3 SAME 2->2 -> flatten (a view) -> dense 32->3 -> softmax.
// Calls: conv, conv, dense, softmax; kernels: conv (2 calls), dense, softmax.
//   conv:    io = 128 in + 128 out = 256 B;  constants = (36 + 2) floats = 152 B
//   dense:   io = 128 in + 12 out = 140 B;   constants = (96 + 3) floats = 396 B
//   softmax: io = 12 + 12 = 24 B;            constants = 0
// Arena: conv0 out 128 B (ops 0..1), conv1 out 128 B (ops 1..2, read through the view), dense out 12 B
// (ops 2..3): greedy places them at 0, 128, 0 -> 256 B; the liveness bound is 256 B at op 1.
// Constants read by the executor: 2 x 152 + 396 = 700 B.
using c1w = ramp<36, 51>;
using c1b = ramp<2, 52>;
using c2w = ramp<36, 53>;
using c2b = ramp<2, 54>;
using fcw = ramp<96, 55>;
using fcb = ramp<3, 56>;
using meta_model = dsl::named<"meta", dsl::sequential<dsl::input<ctnn::f32, 1, 4, 4, 2>,
                                                      dsl::conv2d<c1w::values, c1b::values, dsl::kernel<3>, dsl::same>,
                                                      dsl::conv2d<c2w::values, c2b::values, dsl::kernel<3>, dsl::same>, dsl::flatten,
                                                      dsl::dense<fcw::values, fcb::values>, dsl::softmax>>;
constexpr auto& meta = ctnn::compiled_v<meta_model>;
static_assert(meta.has(fact::function_metadata) && meta.has(fact::executor_metadata) && !meta.error.failed());
static_assert(meta.call_count == 4 && meta.kernel_count == 3);
static_assert(meta.functions[0].calls == 2 && meta.functions[0].io_bytes == 256 && meta.functions[0].constant_bytes == 152);
static_assert(meta.functions[1].calls == 1 && meta.functions[1].io_bytes == 140 && meta.functions[1].constant_bytes == 396);
static_assert(meta.functions[2].calls == 1 && meta.functions[2].io_bytes == 24 && meta.functions[2].constant_bytes == 0);
static_assert(meta.functions[3].calls == 0 && meta.functions[3].io_bytes == 0);
static_assert(meta.arena_bytes() == 256 && meta.liveness_lower_bound == 256 && meta.peak_node == 1);

constexpr const ctnn::executor_info& info = meta.metadata;
static_assert(info.model.view() == "meta");
static_assert(info.input_count == 1 && info.inputs[0].label.view() == "input" && info.inputs[0].dims == ctnn::make_shape(1, 4, 4, 2) &&
              info.inputs[0].type == ctnn::dtype::f32 && info.inputs[0].bytes == 128 && info.inputs[0].scale == 0.0f &&
              info.inputs[0].zero_point == 0);
static_assert(info.output_count == 1 && info.outputs[0].label.view() == "softmax_4" && info.outputs[0].dims == ctnn::make_shape(1, 3) &&
              info.outputs[0].type == ctnn::dtype::f32 && info.outputs[0].bytes == 12);
static_assert(info.pool_count == 2 && std::string_view{info.pools[0].name} == "arena" && info.pools[0].bytes == 256 && info.pools[0].size_limit == -1 &&
              info.pools[0].alignment == 16 && !info.pools[0].read_only);
static_assert(std::string_view{info.pools[1].name} == "constants" && info.pools[1].bytes == 700 && info.pools[1].read_only);
static_assert(info.alignment == 16 && info.constant_bytes == 700 && info.kernel_count == 3 && info.call_count == 4);

// The function metadata pass needs lowered kernels only (no plan): run directly on a lowered module.
TEST_CASE("create_function_metadata runs on a lowered module; executor metadata after it") {
  constexpr auto lowered = pass::lower_te::run(pass::alias_reshapes::run(pass::infer_types::run(meta_model::build())));
  const auto with_functions = pass::create_function_metadata::run(lowered);
  CHECK(with_functions.functions[0].calls == 2);
  CHECK(with_functions.functions[1].constant_bytes == 396);
  CHECK(with_functions.metadata.call_count == 0);  // not this pass's job
  const auto with_info = pass::create_executor_metadata::run(pass::plan_memory<>::run(with_functions));
  CHECK(with_info.metadata.constant_bytes == 700);
  CHECK(with_info.metadata.pools[0].bytes == 256);
  CHECK(with_info.metadata.call_count == 4);
}

// Workspace: the largest scratch among a kernel's calls (module::scratch_bytes), whether its kernel
// declares it (lower_te's rules) or a pass reserved more for one call. `repeated` above: conv3x3 calls 0, 1, 3 share kernel 0.
struct conv3x3_rows {  // a made-up kernel's rule: three rows of the input, 4 bytes per element
  static constexpr std::int32_t bytes(const ctnn::kernel_params& p) {
    return p.kind == op_kind::conv2d && p.win.kernel_h == 3 ? 3 * p.in[2] * p.in[3] * 4 : 0;
  }
};
template <std::int32_t Call, std::int64_t Bytes>
struct reserve_scratch {  // a pass between lower_te and plan_memory: more scratch for one call
  static constexpr fact requires_facts = fact::kernels_lowered;
  template <class Module>
  static constexpr Module run(Module m) {
    m.scratch_bytes[Call] = Bytes;
    return m;
  }
};
template <class... Between>
using scratch_pipeline = ctnn::pipeline<pass::infer_types, pass::lower_te::with_scratch<ctnn::kernel::scratch_rule_list<conv3x3_rows>>,
                                        Between..., pass::plan_memory<>, pass::create_function_metadata,
                                        pass::create_executor_metadata, pass::aot_lower_main>;
// 3 rows x 6 x 4 channels x 4 B = 288 B for each conv3x3 call; conv1x1 and the pool none.
constexpr auto& declared = ctnn::compiled_v<repeated, scratch_pipeline<>>;
static_assert(!declared.error.failed() && declared.scratch_bytes[0] == 288 && declared.scratch_bytes[4] == 0);
static_assert(declared.functions[0].calls == 3 && declared.functions[0].workspace_bytes == 288);
static_assert(declared.functions[1].workspace_bytes == 288 && declared.functions[2].workspace_bytes == 0 &&
              declared.functions[3].workspace_bytes == 0);
static_assert(declared.scratch[0].offset >= 0 && declared.scratch[4].offset == -1);
// Call 3 (kernel 0) gets 1000 B reserved: kernel 0's workspace is 1000; call 4's kernel gets 40 B.
constexpr auto& reserved = ctnn::compiled_v<repeated, scratch_pipeline<reserve_scratch<3, 1000>, reserve_scratch<4, 40>>>;
static_assert(reserved.functions[0].workspace_bytes == 1000 && reserved.functions[2].workspace_bytes == 40 &&
              reserved.functions[1].workspace_bytes == 288);
// Without rules and reservations (the default pipeline: the kernels declare none), no workspace.
static_assert(ctnn::compiled_v<repeated>.functions[0].workspace_bytes == 0 && ctnn::compiled_v<repeated>.functions[0].calls == 3);

TEST_CASE("declared scratch is planned and passed; the results do not change") {
  const auto x = ctnn_test::random_floats(144, 23);
  float plain[2] = {}, with_scratch[2] = {};
  ctnn::compile<repeated>::run(x.data(), plain);
  ctnn::executor<declared>::run(x.data(), with_scratch);
  CHECK(std::memcmp(plain, with_scratch, sizeof plain) == 0);
}

// Two io entries each, in the model's output order (outputs listed in the opposite order of their nodes).
constexpr auto& two_io = ctnn::compiled_v<ctnn_test::two_io_graph>.metadata;
static_assert(two_io.input_count == 2 && two_io.output_count == 2 && two_io.inputs[1].label.view() == "y" &&
              two_io.outputs[0].label.view() == "p" && two_io.outputs[1].label.view() == "t" && two_io.outputs[1].bytes == 32);
static_assert(two_io.constant_bytes == 0 && two_io.pools[1].bytes == 0 && two_io.pools[0].bytes == 32);

// ---------------------------------------------------------------------------------------------------
// Constants that passes folded away are not counted.
// conv [3][3][3][2] + bias 3 = 57 floats = 228 B, then a batch norm of 4 x 3 floats = 48 B.
using bn_scale = ramp<3, 71, true>;
using bn_offset = ramp<3, 72>;
using bn_mean = ramp<3, 73>;
using bn_var = ramp<3, 74, true>;
using conv_w = ramp<54, 75>;
using conv_b = ramp<3, 76>;
using conv_bn = dsl::sequential<dsl::input<ctnn::f32, 1, 4, 4, 2>, dsl::conv2d<conv_w::values, conv_b::values, dsl::kernel<3>, dsl::same>,
                                dsl::batch_norm<bn_scale::values, bn_offset::values, bn_mean::values, bn_var::values>>;
static_assert(ctnn::compiled_v<conv_bn>.metadata.constant_bytes == 228 && ctnn::compiled_v<conv_bn>.metadata.call_count == 1);
static_assert(ctnn::compiled_v<conv_bn, ctnn_test::without<pass::fold_batch_norm>>.metadata.constant_bytes == 276 &&
              ctnn::compiled_v<conv_bn, ctnn_test::without<pass::fold_batch_norm>>.metadata.call_count == 2);
// fold_constants: y = x + relu(c) * d. Folded, only the 4-float product is read; unfolded, c and d are.
inline constexpr float c4[4] = {-1.0f, 2.0f, 3.0f, -4.0f};
inline constexpr float d4[4] = {0.5f, 0.5f, 2.0f, 2.0f};
using chain = dsl::graph<dsl::outputs<"y">, dsl::node<"x", dsl::input<ctnn::f32, 1, 4>>, dsl::node<"c", dsl::constant<c4, 1, 4>>,
                         dsl::node<"d", dsl::constant<d4, 1, 4>>, dsl::node<"r", dsl::relu, "c">, dsl::node<"p", dsl::mul<>, "r", "d">,
                         dsl::node<"y", dsl::add<>, "x", "p">>;
static_assert(ctnn::compiled_v<chain>.metadata.constant_bytes == 16 && ctnn::compiled_v<chain>.metadata.kernel_count == 1);
static_assert(ctnn::compiled_v<chain, ctnn_test::without<pass::fold_constants>>.metadata.constant_bytes == 32 &&
              ctnn::compiled_v<chain, ctnn_test::without<pass::fold_constants>>.metadata.kernel_count == 3);

}  // namespace
