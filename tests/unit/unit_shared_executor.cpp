// The "shared" specialisation policy (docs/design.md §4) and run-time execution of a compiled module (docs/design.md §2):
//   * ctnn::compile<M, ctnn::specialisation<ctnn::shared>> runs one kernel per op kind with run-time
//     parameters and gives what the default (full) policy gives;
//   * kernel::module_runner runs the compiled module at run time (constants made by passes and
//     requantization computed there, pools on the heap) and gives what the executor gives;
//   * kernel::invoke_dynamic refuses parameters it has no kernel for, and too few operands.
// The int8 kernels of both policies are checked bit for bit in unit_int8_kernels_* and, on the MLPerf
// Tiny models, by ctnn-run (tests/tools/CMakeLists.txt).
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/compile.hpp>
#include <ctnn/kernel/dynamic.hpp>
#include <ctnn/kernel/run_module.hpp>

#include "pass/pass_test_modules.hpp"
#include "test_modules.hpp"

namespace {

namespace dsl = ctnn::dsl;
using ctnn::kernel_params;
using ctnn::op_kind;
using ctnn::kernel::run_status;
using ctnn_test::ramp;

// Models with constants made by passes: a folded batch norm (recipes batch_norm_weights / _bias), the
// same batch norm left as a kernel (the pipeline without fold_batch_norm), and ops of constants folded by
// fold_constants (recipes evaluate_op).
using scale3 = ramp<3, 11, true>;
using offset3 = ramp<3, 12>;
using mean3 = ramp<3, 13>;
using var3 = ramp<3, 14, true>;
using conv_w = ramp<54, 1>;
using conv_b = ramp<3, 2>;
using bn3 = dsl::batch_norm<scale3::values, offset3::values, mean3::values, var3::values, dsl::epsilon<1, 1000>>;
using conv_bn = dsl::sequential<dsl::input<ctnn::f32, 1, 4, 4, 2>,
                                dsl::conv2d<conv_w::values, conv_b::values, dsl::kernel<3>, dsl::same>, bn3, dsl::relu>;
using unfolded_pipeline = ctnn_test::without<ctnn::pass::fold_batch_norm>;

inline constexpr float c4[4] = {-1.0f, 0.25f, 2.0f, -0.5f};
using consts_graph =
    dsl::graph<dsl::outputs<"y">, dsl::node<"x", dsl::input<ctnn::f32, 1, 4>>, dsl::node<"c", dsl::constant<c4, 1, 4>>,
               dsl::node<"t", dsl::tanh, "c">, dsl::node<"g", dsl::sigmoid, "t">, dsl::node<"y", dsl::mul<>, "x", "g">>;
static_assert(ctnn::compiled_v<consts_graph>.recipe_count == 2 && ctnn::compiled_v<conv_bn>.recipe_count == 2);

// The option: full is the default, shared another executor.
using tiny = ctnn_test::tiny_cnn;
static_assert(std::is_same_v<ctnn::compile<tiny, ctnn::specialisation<ctnn::full>>, ctnn::compile<tiny>>);
static_assert(!std::is_same_v<ctnn::compile<tiny, ctnn::specialisation<ctnn::shared>>, ctnn::compile<tiny>>);
static_assert(ctnn::detail::is_compile_option<ctnn::specialisation<ctnn::shared>>);
static_assert(!ctnn::detail::is_compile_option<ctnn::shared>);  // the policy goes inside specialisation<>
static_assert(std::is_same_v<ctnn::detail::compile_options<ctnn::io_in_arena, ctnn::specialisation<ctnn::shared>>::kernels,
                             ctnn::shared>);

// |got - want| <= 1e-5 * max(|want|, 1) for every element.
void check_close(const std::vector<float>& got, const std::vector<float>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    CAPTURE(i);
    CHECK(std::fabs(got[i] - want[i]) <= 1e-5f * std::fmax(std::fabs(want[i]), 1.0f));
  }
}

// One input, one output: the full and the shared executor, and the module run at run time.
template <class Model, class... Options>
void check_one_in_one_out(std::uint32_t seed) {
  using full = ctnn::compile<Model, Options...>;
  using shared = ctnn::compile<Model, Options..., ctnn::specialisation<ctnn::shared>>;
  const std::vector<float> x = ctnn_test::random_floats(full::template input<0>::elements, seed);
  std::vector<float> want(full::template output<0>::elements), got(want.size()), ran(want.size());
  full::run(x.data(), want.data());
  shared::run(x.data(), got.data());
  check_close(got, want);

  ctnn::kernel::module_runner runner{shared::module};
  REQUIRE(runner.status() == run_status::ok);
  const void* const inputs[] = {x.data()};
  void* const outputs[] = {ran.data()};
  CHECK(runner.run(inputs, outputs) == run_status::ok);
  check_close(ran, got);
}

TEST_CASE("shared policy: conv, max pool, flatten, dense, softmax (tiny_cnn)") { check_one_in_one_out<ctnn_test::tiny_cnn>(1); }
TEST_CASE("shared policy: a DAG with add and concat (small_graph)") { check_one_in_one_out<ctnn_test::small_graph>(2); }
TEST_CASE("shared policy: a folded batch norm (constants made at run time by module_runner)") {
  check_one_in_one_out<conv_bn>(3);
}
TEST_CASE("shared policy: an unfolded batch norm kernel") { check_one_in_one_out<conv_bn, unfolded_pipeline>(4); }
TEST_CASE("shared policy: folded tanh and sigmoid of a constant (run-time recipes)") { check_one_in_one_out<consts_graph>(5); }

TEST_CASE("shared policy: two inputs, two outputs (two_io_graph)") {
  using full = ctnn::compile<ctnn_test::two_io_graph>;
  using shared = ctnn::compile<ctnn_test::two_io_graph, ctnn::specialisation<ctnn::shared>>;
  const std::vector<float> x = ctnn_test::random_floats(8, 6), y = ctnn_test::random_floats(8, 7);
  std::vector<float> p(8), t(8), p_shared(8), t_shared(8), p_ran(8), t_ran(8);
  full::run(x.data(), y.data(), p.data(), t.data());
  shared::run(x.data(), y.data(), p_shared.data(), t_shared.data());
  check_close(p_shared, p);
  check_close(t_shared, t);
  ctnn::kernel::module_runner runner{shared::module};
  const void* const inputs[] = {x.data(), y.data()};
  void* const outputs[] = {p_ran.data(), t_ran.data()};
  CHECK(runner.run(inputs, outputs) == run_status::ok);
  check_close(p_ran, p);
  check_close(t_ran, t);
  CHECK(runner.run({inputs, 1}, outputs) == run_status::wrong_io_count);
}

TEST_CASE("module_runner: a module that has not been lowered, or carries a diagnostic, is refused") {
  constexpr auto& typed = ctnn::stage_v<ctnn_test::tiny_cnn, ctnn::default_pipeline, 1>;
  CHECK(ctnn::kernel::module_runner{typed}.status() == run_status::not_lowered);
  auto failed = ctnn::compiled_v<ctnn_test::tiny_cnn>;
  failed.fail({ctnn::error_code::unsupported_dtype, 0, op_kind::conv2d, {}, {}});
  CHECK(ctnn::kernel::module_runner{failed}.status() == run_status::module_failed);
}

// ---------------------------------------------------------------------------------------------------
// invoke_dynamic's refusals: nothing is written.

kernel_params relu_params(ctnn::dtype type) {
  kernel_params p{};
  p.kind = op_kind::relu;
  p.type = type;
  p.in = p.out = ctnn::make_shape(1, 4);
  p.activation_min = -128;
  p.activation_max = 127;
  return p;
}

TEST_CASE("invoke_dynamic runs what it has a kernel for and refuses the rest") {
  const float x[4] = {-1.0f, 2.0f, -3.0f, 4.0f};
  float y[4] = {9.0f, 9.0f, 9.0f, 9.0f};
  const void* const one[] = {x};
  CHECK(ctnn::kernel::invoke_dynamic(relu_params(ctnn::dtype::f32), one, y));
  CHECK((y[0] == 0.0f && y[1] == 2.0f && y[2] == 0.0f && y[3] == 4.0f));

  float untouched[4] = {9.0f, 9.0f, 9.0f, 9.0f};
  const auto refused = [&](const kernel_params& p, std::span<const void* const> operands,
                           const ctnn::kernel::requant_arrays& rq = {}) {
    const bool ran = ctnn::kernel::invoke_dynamic(p, operands, untouched, rq);
    return !ran && untouched[0] == 9.0f && untouched[3] == 9.0f;
  };
  kernel_params p = relu_params(ctnn::dtype::f32);
  p.kind = op_kind::dequantize;  // float32 input: no kernel
  CHECK(refused(p, one));
  p = relu_params(ctnn::dtype::i8);
  p.kind = op_kind::batch_norm;  // int8: no kernel
  CHECK(refused(p, one));
  p = relu_params(ctnn::dtype::u8);  // no kernels for uint8
  CHECK(refused(p, one));
  p = relu_params(ctnn::dtype::i8);
  p.kind = op_kind::add;
  p.fused = ctnn::activation::sigmoid;  // int8 kernels fuse clamps only
  CHECK(refused(p, {one, 1}));
  p.fused = ctnn::activation::none;  // an add reads two operands
  CHECK(refused(p, one));
  p = relu_params(ctnn::dtype::i8);
  p.kind = op_kind::softmax;  // TFLite's int8 softmax writes zero point -128
  p.output_offset = 0;
  CHECK(refused(p, one));
  p = relu_params(ctnn::dtype::f32);
  p.kind = op_kind::quantize;
  p.out_type = ctnn::dtype::f32;  // quantize writes int8
  CHECK(refused(p, one));
  p = relu_params(ctnn::dtype::i8);
  p.kind = op_kind::dense;
  p.per_channel = 1;  // without its per-channel multipliers
  const void* const three[] = {x, x, x};
  CHECK(refused(p, three));
  CHECK(ctnn::kernel::operands_read(p) == 2);
  p.has_bias = 1;
  CHECK(ctnn::kernel::operands_read(p) == 3);
}

}  // namespace
