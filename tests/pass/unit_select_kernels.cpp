// Unit tests of pass/select_kernels.hpp: which implementation runs each call and the layout of its
// constant operands, per target and policy; the fallback to the reference kernel when no SIMD kernel
// supports a call (shape, in-place placement, ONNX semantics); the run-time form of the pass; the
// compile options that reach it; the printed module; and the executor running what was recorded.
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/compile.hpp>
#include <ctnn/print/printer.hpp>
#include <ctnn/pass/select_kernels.hpp>

#include "test_modules.hpp"

namespace {

using ctnn::dtype;
using ctnn::instruction_set;
using ctnn::kernel_choice;
using ctnn::kernel_impl;
using ctnn::kernel_params;
using ctnn::make_shape;
using ctnn::op_kind;
using ctnn::pass::choose_kernel;
namespace targets = ctnn::targets;

// Whether this build has the xsimd float kernels and the x86 int8 kernels at a level.
constexpr bool has_vector_f32 = ctnn::pass::detail::has_vector_f32(targets::native::isa);
template <instruction_set L>
constexpr bool has_i8_level = ctnn::enabled_by_compiler(L) && ctnn::kernel::detail::i8_isa_of<L>::type::available;

// An int8 1x1 convolution [1,8,8,16] -> [1,8,8,32], per-channel, as lower_te makes it.
constexpr kernel_params int8_conv(std::int32_t in_place = 0, std::int32_t weights_offset = 0) {
  kernel_params p{};
  p.kind = op_kind::conv2d;
  p.type = dtype::i8;
  p.in = make_shape(1, 8, 8, 16);
  p.out = make_shape(1, 8, 8, 32);
  p.has_bias = 1;
  p.per_channel = 1;
  p.input_offset = 5;
  p.weights_offset = weights_offset;
  p.output_offset = -3;
  p.activation_min = -128;
  p.activation_max = 127;
  p.in_place = in_place;
  return p;
}

// ---------------------------------------------------------------------------------------------------
// The rule, per call parameters.

// No SIMD instruction set: the reference kernel, constants as stored.
static_assert(choose_kernel<int8_conv(), instruction_set::none>() == kernel_choice{});
// The shared policy: the shared kernel for every call, constants as stored.
static_assert(choose_kernel<int8_conv(), instruction_set::x86_avx2, ctnn::kernel::shared>() ==
              kernel_choice{kernel_impl::shared, instruction_set::none, 0});
// ONNX integer semantics: always the reference (ONNX) kernel.
static_assert([] {
  constexpr kernel_params p = [] {
    kernel_params q = int8_conv();
    q.requantization = ctnn::requantization_policy::onnx;
    return q;
  }();
  return choose_kernel<p, instruction_set::x86_avx2>() == kernel_choice{};
}());
// A DSP target asks the Armv7E-M kernels; whatever they support, a call stays on an int8 family there.
static_assert(choose_kernel<int8_conv(), instruction_set::armv7em_dsp>().impl == kernel_impl::reference ||
              choose_kernel<int8_conv(), instruction_set::armv7em_dsp>().impl == kernel_impl::arm_dsp_i8);
// An MVE target asks the Armv8.1-M family (its kernels, or the DSP ones it falls back to).
static_assert(choose_kernel<int8_conv(), instruction_set::armv81m_mve>().impl == kernel_impl::reference ||
              choose_kernel<int8_conv(), instruction_set::armv81m_mve>().impl == kernel_impl::arm_mve_i8);

TEST_CASE("select_kernels: an int8 convolution at each x86 level, packed weights, fallbacks") {
  if constexpr (has_i8_level<instruction_set::x86_sse4_1>) {
    constexpr kernel_choice c = choose_kernel<int8_conv(), instruction_set::x86_sse4_1>();
    CHECK(c.impl == kernel_impl::simd_i8);
    CHECK(c.isa == instruction_set::x86_sse4_1);
    CHECK(c.packs(1));   // the weights, interleaved for the GEMM
    CHECK(!c.packs(2));  // the bias as stored
  }
  if constexpr (has_i8_level<instruction_set::x86_avx2>) {
    constexpr kernel_choice c = choose_kernel<int8_conv(), instruction_set::x86_avx2>();
    CHECK(c == kernel_choice{kernel_impl::simd_i8, instruction_set::x86_avx2, 0b10});
    // Placed over its own input by plan_memory: the SIMD kernels' order of writes is not safe there.
    CHECK(choose_kernel<int8_conv(1), instruction_set::x86_avx2>() == kernel_choice{});
    // Asymmetric weights (weights_offset != 0): no SIMD kernel supports it, the reference runs it.
    CHECK(choose_kernel<int8_conv(0, 3), instruction_set::x86_avx2>() == kernel_choice{});
  }
  // Whatever the build: x86 levels never choose a float or DSP family for an int8 call.
  constexpr kernel_impl at_sse = choose_kernel<int8_conv(), instruction_set::x86_sse4_1>().impl;
  CHECK((at_sse == kernel_impl::simd_i8 || at_sse == kernel_impl::reference));
}

// ---------------------------------------------------------------------------------------------------
// The pass on a compiled DSL model (tiny_cnn: conv 3x3 relu, max pool, flatten (a view), dense, softmax).

using tiny = ctnn_test::tiny_cnn;
using generic_net = ctnn::compile<tiny, ctnn::target<targets::generic>>;
using native_net = ctnn::compile<tiny>;
using shared_net = ctnn::compile<tiny, ctnn::specialisation<ctnn::shared>>;

// The default pipeline selects after planning, before the metadata passes.
static_assert(std::is_same_v<ctnn::default_pipeline::pass<7>, ctnn::pass::select_kernels<>>);
static_assert(std::is_same_v<ctnn::pass::select_kernels<>, ctnn::pass::select_kernels<targets::native, ctnn::kernel::full>>);
// The options reach the pass.
static_assert(std::is_same_v<ctnn::detail::compile_options<ctnn::target<targets::generic>>::type::pass<7>,
                             ctnn::pass::select_kernels<targets::generic, ctnn::kernel::full>>);
static_assert(std::is_same_v<ctnn::detail::compile_options<ctnn::specialisation<ctnn::shared>, ctnn::target<targets::generic>>::type::pass<7>,
                             ctnn::pass::select_kernels<targets::generic, ctnn::kernel::shared>>);
static_assert(ctnn::detail::is_compile_option<ctnn::target<targets::cortex_m0plus>>);
static_assert(std::is_same_v<ctnn::detail::compile_options<ctnn::require_fast_kernels, ctnn::target<targets::generic>>::type::pass<7>,
                             ctnn::pass::select_kernels<targets::generic, ctnn::kernel::full, ctnn::require_fast_kernels>>);
static_assert(ctnn::detail::is_compile_option<ctnn::require_fast_kernels>);
// require_fast_kernels binds on the Cortex-M cores with fast kernels only (a float model on the generic target compiles).
static_assert(!ctnn::pass::select_kernels<targets::generic, ctnn::kernel::full, ctnn::require_fast_kernels>::fast_kernels_required &&
              ctnn::pass::select_kernels<targets::cortex_m4, ctnn::kernel::full, ctnn::require_fast_kernels>::fast_kernels_required &&
              ctnn::pass::select_kernels<targets::cortex_m85, ctnn::kernel::full, ctnn::require_fast_kernels>::fast_kernels_required &&
              !ctnn::pass::select_kernels<targets::cortex_m0plus, ctnn::kernel::full, ctnn::require_fast_kernels>::fast_kernels_required);
using generic_required_net = ctnn::compile<tiny, ctnn::target<targets::generic>, ctnn::require_fast_kernels>;
static_assert(generic_required_net::module.has(ctnn::fact::kernels_selected));
static_assert(ctnn::enabled_by_compiler(instruction_set::none) && ctnn::enabled_by_compiler(targets::native::isa));
static_assert(targets::cortex_m0plus::isa == instruction_set::armv6m && targets::cortex_m3::isa == instruction_set::armv6m &&
              targets::cortex_m7::isa == instruction_set::armv7em_dsp && targets::cortex_m33::isa == instruction_set::armv7em_dsp);
static_assert(targets::cortex_m55::isa == instruction_set::armv81m_mve && targets::cortex_m85::isa == instruction_set::armv81m_mve);
// The DSP kernels compile on a DSP core and on an MVE one (which has the DSP extension); the MVE ones only there.
static_assert(!ctnn::enabled_by_compiler(instruction_set::armv7em_dsp) || targets::native::isa == instruction_set::armv7em_dsp ||
              targets::native::isa == instruction_set::armv81m_mve);
static_assert(!ctnn::enabled_by_compiler(instruction_set::armv81m_mve) || targets::native::isa == instruction_set::armv81m_mve);

template <auto& M, class Predicate>
constexpr bool every_call(Predicate predicate) {
  for (std::int32_t c = 0; c < M.call_count; ++c)
    if (!predicate(M.calls[static_cast<std::size_t>(c)])) return false;
  return M.call_count > 0;
}

static_assert(generic_net::module.has(ctnn::fact::kernels_selected));
static_assert(every_call<generic_net::module>([](const ctnn::kernel_call& c) { return c.params.choice == kernel_choice{}; }));
static_assert(every_call<shared_net::module>([](const ctnn::kernel_call& c) {
  return c.params.choice == kernel_choice{kernel_impl::shared, instruction_set::none, 0};
}));
// The distinct kernels carry their calls' choice.
static_assert(every_call<native_net::module>([](const ctnn::kernel_call& c) {
  return native_net::module.kernel(c.kernel).choice == c.params.choice;
}));

TEST_CASE("select_kernels: the native target runs float calls on xsimd where a kernel supports them") {
  constexpr auto& m = native_net::module;
  REQUIRE(m.call_count == 4);  // conv, max pool, dense, softmax (flatten is a view)
  const auto kind_of = [&](std::int32_t c) { return m.calls[static_cast<std::size_t>(c)].params.kind; };
  CHECK(kind_of(0) == op_kind::conv2d);
  CHECK(kind_of(3) == op_kind::softmax);
  // softmax over its last axis (10 classes) too (kernel/simd/f32/softmax.hpp).
  if constexpr (has_vector_f32) {
    CHECK(m.calls[0].params.choice.impl == kernel_impl::simd_f32);
    CHECK(m.calls[1].params.choice.impl == kernel_impl::simd_f32);
    CHECK(m.calls[2].params.choice.impl == kernel_impl::simd_f32);
    CHECK(m.calls[3].params.choice.impl == kernel_impl::simd_f32);
  } else {
    CHECK(m.calls[0].params.choice == kernel_choice{});
    CHECK(m.calls[3].params.choice == kernel_choice{});
  }
}

TEST_CASE("select_kernels: every target computes the same network (the executor runs what is recorded)") {
  const std::vector<float> x = ctnn_test::random_floats(native_net::input<0>::elements, 11);
  std::vector<float> by_native(native_net::output<0>::elements), by_generic(by_native.size()), by_shared(by_native.size());
  native_net::run(x.data(), by_native.data());
  generic_net::run(x.data(), by_generic.data());
  shared_net::run(x.data(), by_shared.data());
  for (std::size_t i = 0; i < by_native.size(); ++i) {
    CAPTURE(i);
    CHECK(std::fabs(by_native[i] - by_generic[i]) <= 1e-5f);
    CHECK(by_shared[i] == by_generic[i]);  // the same reference arithmetic, shapes at run time
  }
}

// ---------------------------------------------------------------------------------------------------
// In-place calls: a depthwise convolution that ctnn::in_place_windows places over its own input.

inline constexpr float dw_w[3 * 3 * 8] = {0.1f, -0.2f, 0.3f, 0.05f, -0.1f, 0.2f, 0.15f, -0.25f, 0.12f, 0.3f, -0.1f, 0.2f,
                                          0.1f, 0.0f, -0.3f, 0.2f,  0.25f, 0.1f, -0.2f, 0.05f, 0.3f,  -0.1f, 0.2f, 0.1f,
                                          0.2f, 0.1f, -0.1f, 0.3f,  0.05f, 0.1f, 0.2f,  -0.2f, 0.1f,  0.1f, 0.0f, 0.2f,
                                          -0.1f, 0.2f, 0.1f, 0.3f, 0.1f,  0.2f, -0.3f, 0.1f,  0.2f,  0.1f, 0.1f, -0.2f,
                                          0.3f, 0.1f, 0.2f, 0.1f,  -0.1f, 0.2f, 0.1f,  0.1f,  0.2f,  -0.1f, 0.3f, 0.1f,
                                          0.2f, 0.1f, 0.1f, -0.2f, 0.1f,  0.3f, 0.1f,  0.2f,  -0.1f, 0.1f, 0.2f, 0.1f};
inline constexpr float dw_b[8] = {0.1f, -0.1f, 0.2f, 0.0f, 0.05f, -0.05f, 0.1f, 0.2f};
inline constexpr float pw_w[8 * 8] = {0.1f, 0.2f, -0.1f, 0.3f, 0.1f, 0.0f, 0.2f, -0.2f, 0.1f, 0.1f, 0.2f, 0.3f, -0.1f,
                                      0.2f, 0.1f, 0.0f, 0.3f, 0.1f, 0.2f, 0.1f, 0.1f, -0.3f, 0.2f, 0.1f, 0.0f, 0.2f,
                                      0.1f, 0.1f, 0.3f, 0.2f, -0.1f, 0.1f, 0.2f, 0.1f, 0.0f, 0.1f, 0.2f, 0.3f, 0.1f,
                                      -0.2f, 0.1f, 0.3f, 0.2f, 0.1f, 0.1f, 0.0f, 0.2f, 0.1f, -0.1f, 0.2f, 0.1f, 0.3f,
                                      0.1f, 0.2f, 0.0f, 0.1f, 0.2f, -0.1f, 0.1f, 0.2f, 0.3f, 0.1f, 0.0f, 0.2f};
inline constexpr float pw_b[8] = {0.0f, 0.1f, -0.1f, 0.2f, 0.1f, 0.0f, -0.2f, 0.1f};
namespace dsl = ctnn::dsl;
using dw_block = dsl::sequential<dsl::input<ctnn::f32, 1, 6, 6, 8>, dsl::conv2d<pw_w, pw_b, dsl::kernel<1>, dsl::relu>,
                                 dsl::depthwise_conv2d<dw_w, dw_b, dsl::kernel<3>, dsl::same, dsl::relu>,
                                 dsl::conv2d<pw_w, pw_b, dsl::kernel<1>>>;
using in_place_net = ctnn::compile<dw_block, ctnn::memory_reuse, ctnn::in_place_windows>;

TEST_CASE("select_kernels: a call placed in place keeps the reference kernel") {
  constexpr auto& m = in_place_net::module;
  std::int32_t in_place = 0;
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    const kernel_params& p = m.calls[static_cast<std::size_t>(c)].params;
    if (p.in_place != 0) {
      ++in_place;
      CHECK(p.choice == kernel_choice{});
    }
  }
  CHECK(in_place >= 1);
}

// ---------------------------------------------------------------------------------------------------
// The run-time pass (tools): what the values decide, undecided where only the compiler can tell.

TEST_CASE("select_kernels::run at run time records what the values decide") {
  constexpr auto& planned = ctnn::stage_v<tiny, ctnn::default_pipeline, 7>;  // after plan_memory
  static_assert(planned.has(ctnn::fact::memory_planned) && !planned.has(ctnn::fact::kernels_selected));
  auto shared = ctnn::pass::select_kernels<targets::x86_avx2, ctnn::kernel::shared>::run(planned);
  auto generic = ctnn::pass::select_kernels<targets::generic>::run(planned);
  auto avx2 = ctnn::pass::select_kernels<targets::x86_avx2>::run(planned);
  CHECK(generic.has(ctnn::fact::kernels_selected));
  for (std::int32_t c = 0; c < planned.call_count; ++c) {
    CAPTURE(c);
    const auto at = static_cast<std::size_t>(c);
    CHECK(shared.calls[at].params.choice.impl == kernel_impl::shared);
    CHECK(generic.calls[at].params.choice == kernel_choice{});
    CHECK(avx2.calls[at].params.choice.impl ==
          (ctnn::pass::detail::has_vector_f32(instruction_set::x86_avx2) ? kernel_impl::undecided : kernel_impl::reference));
  }
}

// ---------------------------------------------------------------------------------------------------
// The printed module names each call's kernel and its constants' layouts.

TEST_CASE("select_kernels: the printed module names the kernel of each call") {
  std::string text;
  ctnn::print_module(generic_net::module, [&](std::string_view s) { text += s; });
  CHECK(text.find("kernels_selected") != std::string::npos);
  CHECK(text.find("runs reference  constants: 1 stored, 2 stored") != std::string::npos);  // the conv
  std::string shared_text;
  ctnn::print_module(shared_net::module, [&](std::string_view s) { shared_text += s; });
  CHECK(shared_text.find("runs shared") != std::string::npos);
  if constexpr (has_vector_f32) {
    std::string native_text;
    ctnn::print_module(native_net::module, [&](std::string_view s) { native_text += s; });
    CHECK(native_text.find("runs simd_f32") != std::string::npos);
  }
}

// ---------------------------------------------------------------------------------------------------
// Why a Cortex-M family declines a call (ir/kernel_decline.hpp, kernel/arm/decline.hpp): the reasons in
// words, the families' rows, and what require_fast_kernels reports (here, on the host, a dry run of the rows).

using ctnn::kernel_decline;
namespace arm = ctnn::kernel::arm;

constexpr kernel_params int8_depthwise(std::int32_t channels, std::int32_t multiplier) {
  kernel_params p = int8_conv();
  p.kind = op_kind::depthwise_conv2d;
  p.in = make_shape(1, 8, 8, channels);
  p.out = make_shape(1, 8, 8, channels * multiplier);
  p.depth_multiplier = multiplier;
  p.win.kernel_h = p.win.kernel_w = 3;
  p.win.mode = ctnn::padding::same;
  p.win.pad_top = p.win.pad_left = p.win.pad_bottom = p.win.pad_right = 1;
  return p;
}
constexpr kernel_params int8_of(op_kind kind) {
  kernel_params p = int8_conv();
  p.kind = kind;
  p.in = p.out = make_shape(1, 10);
  return p;
}

TEST_CASE("kernel_decline: every reason has its own sentence") {
  std::vector<std::string> sentences;
  for (int d = 0; d <= static_cast<int>(kernel_decline::scale_ratio_below_2_100); ++d) {
    const std::string sentence = ctnn::describe(static_cast<kernel_decline>(d));
    CAPTURE(d);
    CHECK(sentence != "?");
    for (const std::string& other : sentences) CHECK(sentence != other);
    sentences.push_back(sentence);
  }
  CHECK(std::string{ctnn::describe(kernel_decline::depthwise_multiplier_not_1)} == "depthwise channel multiplier other than 1");
  CHECK(ctnn::decline_value(kernel_decline::depthwise_multiplier_not_1, int8_depthwise(3, 2)) == 2);
  CHECK(ctnn::decline_value(kernel_decline::none, int8_depthwise(3, 2)) == -1);
  CHECK(std::string{ctnn::family_name(kernel_impl::arm_dsp_i8)} == "Armv7E-M DSP");
  CHECK(std::string{ctnn::family_name(kernel_impl::arm_mve_i8)} == "Armv8.1-M MVE");
  CHECK(std::string{ctnn::family_name(kernel_impl::arm_v6m_i8)} == "Armv6-M");
}

TEST_CASE("Cortex-M families' rows: which family runs a call, and why the reference kernel does") {
  constexpr instruction_set dsp = instruction_set::armv7em_dsp, mve = instruction_set::armv81m_mve;
  CHECK(arm::verdict_on(int8_conv(), dsp).runs == kernel_impl::arm_dsp_i8);
  CHECK(arm::verdict_on(int8_conv(), mve).runs == kernel_impl::arm_mve_i8);
  CHECK(arm::verdict_on(int8_conv(0, 3), dsp).reason == kernel_decline::weights_offset_not_0);
  // Depthwise: any multiplier on both families (the DSP one: depthwise.hpp, depthwise_multiplier.hpp); the int16 DSP
  // kernel multiplier 1 only.
  CHECK(arm::verdict_on(int8_depthwise(16, 1), mve).runs == kernel_impl::arm_mve_i8);
  CHECK(arm::verdict_on(int8_depthwise(12, 1), mve).runs == kernel_impl::arm_mve_i8);
  CHECK(arm::verdict_on(int8_depthwise(3, 2), mve).runs == kernel_impl::arm_mve_i8);
  CHECK(arm::verdict_on(int8_depthwise(3, 2), dsp).runs == kernel_impl::arm_dsp_i8);
  kernel_params int16_doubled = int8_depthwise(3, 2);
  int16_doubled.type = int16_doubled.out_type = dtype::i16;
  int16_doubled.input_offset = int16_doubled.output_offset = 0;
  const arm::cortex_m_verdict doubled = arm::verdict_on(int16_doubled, dsp);
  CHECK(doubled.runs == kernel_impl::reference);
  CHECK(doubled.reason == kernel_decline::depthwise_multiplier_not_1);
  // Op kinds without a kernel of the family, element types without one, the other recipe.
  CHECK(arm::verdict_on(int8_of(op_kind::pad), dsp).reason == kernel_decline::no_kernel_for_op);
  CHECK(arm::verdict_on(int8_of(op_kind::pad), mve).reason == kernel_decline::no_kernel_for_op);
  kernel_params f32_conv = int8_conv();
  f32_conv.type = f32_conv.out_type = dtype::f32;
  CHECK(arm::verdict_on(f32_conv, dsp).reason == kernel_decline::element_type);
  kernel_params onnx_mul = int8_of(op_kind::mul);
  onnx_mul.requantization = ctnn::requantization_policy::onnx;
  CHECK(arm::verdict_on(onnx_mul, dsp).reason == kernel_decline::requantization_not_tflite);
  // ONNX's QLinearAdd (a QDQ model's DequantizeLinear -> Add -> QuantizeLinear): the DSP family's FPU kernel, the
  // MVE family's own (kernel/arm/mve/onnx_add.hpp), int8 and uint8.
  kernel_params onnx_add = int8_of(op_kind::add);
  onnx_add.requantization = ctnn::requantization_policy::onnx;
  onnx_add.onnx.input_scale_bits = onnx_add.onnx.input2_scale_bits = onnx_add.onnx.output_scale_bits = 0x3c000000u;  // 2^-7
  CHECK(arm::verdict_on(onnx_add, dsp).runs == kernel_impl::arm_dsp_i8);
  CHECK(arm::verdict_on(onnx_add, mve).runs == kernel_impl::arm_mve_i8);
  kernel_params onnx_add_u8 = onnx_add;
  onnx_add_u8.type = onnx_add_u8.out_type = dtype::u8;
  CHECK(arm::verdict_on(onnx_add_u8, mve).runs == kernel_impl::arm_mve_i8);
  // An input's scale over the result's below 2^-100 (terms that MVE's float lanes would flush): the FPU kernel.
  kernel_params onnx_add_small_ratio = onnx_add;
  onnx_add_small_ratio.onnx.input2_scale_bits = 0x0c000000u;  // 2^-103: over 2^-7, 2^-96 (kept)
  CHECK(arm::onnx_add_ratios_normal(onnx_add_small_ratio));
  CHECK(arm::verdict_on(onnx_add_small_ratio, mve).runs == kernel_impl::arm_mve_i8);
  onnx_add_small_ratio.onnx.input2_scale_bits = 0x07800000u;  // 2^-112: 2^-105
  CHECK_FALSE(arm::onnx_add_ratios_normal(onnx_add_small_ratio));
  const arm::cortex_m_verdict small_ratio = arm::verdict_on(onnx_add_small_ratio, mve);
  CHECK(small_ratio.runs == kernel_impl::arm_dsp_i8);
  CHECK(small_ratio.mve == kernel_decline::scale_ratio_below_2_100);
  onnx_add_small_ratio.onnx.input2_scale_bits = 0xffc00000u;  // NaN
  CHECK_FALSE(arm::onnx_add_ratios_normal(onnx_add_small_ratio));
  // ONNX's integer convolutions (kernel/arm/mve/onnx_conv.hpp): MVE's conv and depthwise kernels on the restated
  // call; a depthwise conv (groups = channels) over more than 255 taps, or a window gathered past 1,024 bytes (the
  // channels at dim 1 in NCHW), on the DSP ones.
  kernel_params onnx_conv = int8_conv();
  onnx_conv.requantization = ctnn::requantization_policy::onnx;
  onnx_conv.type = dtype::u8;
  onnx_conv.onnx.layout = ctnn::data_layout::onnx_nhwc;
  onnx_conv.win.kernel_h = onnx_conv.win.kernel_w = 3;
  CHECK(arm::verdict_on(onnx_conv, mve).runs == kernel_impl::arm_mve_i8);
  kernel_params onnx_depthwise = onnx_conv;
  onnx_depthwise.out = onnx_depthwise.in;
  onnx_depthwise.groups = onnx_depthwise.in[3];
  onnx_depthwise.win.kernel_h = onnx_depthwise.win.kernel_w = 16;
  CHECK(arm::verdict_on(onnx_depthwise, mve).runs == kernel_impl::arm_dsp_i8);
  CHECK(arm::verdict_on(onnx_depthwise, mve).mve == kernel_decline::taps_over_255);
  onnx_depthwise.win.kernel_h = onnx_depthwise.win.kernel_w = 15;
  CHECK(arm::verdict_on(onnx_depthwise, mve).runs == kernel_impl::arm_mve_i8);
  kernel_params onnx_nchw = onnx_conv;
  onnx_nchw.onnx.layout = ctnn::data_layout::onnx;
  onnx_nchw.in = make_shape(1, 1100, 1, 1);  // a QDQ Gemm's 1x1 conv: 1,100 values gathered (not a multiple of 16)
  onnx_nchw.out = make_shape(1, 32, 1, 1);
  onnx_nchw.win.kernel_h = onnx_nchw.win.kernel_w = 1;
  CHECK(arm::verdict_on(onnx_nchw, mve).mve == kernel_decline::window_over_1024_bytes);
  CHECK(arm::verdict_on(onnx_nchw, mve).runs == kernel_impl::arm_dsp_i8);
  // Broadcasts: the MVE add declines them, the DSP family's broadcast kernel takes them.
  kernel_params broadcast_add = int8_of(op_kind::add);
  broadcast_add.in2 = make_shape(1, 1);
  CHECK(arm::verdict_on(broadcast_add, mve).runs == kernel_impl::arm_dsp_i8);
  CHECK(arm::verdict_on(broadcast_add, mve).mve == kernel_decline::broadcast);
  // MUL (any broadcast) and SOFTMAX have MVE kernels of their own; a MUL with a fused activation other than a clamp
  // goes to the reference kernel.
  kernel_params broadcast_mul = broadcast_add;
  broadcast_mul.kind = op_kind::mul;
  CHECK(arm::verdict_on(broadcast_mul, mve).runs == kernel_impl::arm_mve_i8);
  CHECK(arm::verdict_on(int8_of(op_kind::softmax), mve).runs == kernel_impl::arm_mve_i8);
  broadcast_mul.fused = ctnn::activation::tanh;
  CHECK(arm::verdict_on(broadcast_mul, mve).reason == kernel_decline::fused_activation);
  // Averaging windows up to 256 values.
  kernel_params pool = int8_depthwise(8, 1);
  pool.kind = op_kind::avg_pool;
  pool.win.kernel_h = pool.win.kernel_w = 17;
  CHECK(arm::verdict_on(pool, dsp).reason == kernel_decline::window_over_256);
  CHECK(ctnn::decline_value(kernel_decline::window_over_256, pool) == 289);
  // Armv6-M (Cortex-M0+, M3): convolutions, dense layers, depthwise ones of multiplier 1, ADD of equal shapes; the rest
  // the reference.
  constexpr instruction_set v6m = instruction_set::armv6m;
  CHECK(arm::verdict_on(int8_conv(), v6m).runs == kernel_impl::arm_v6m_i8);
  CHECK(arm::verdict_on(int8_depthwise(12, 1), v6m).runs == kernel_impl::arm_v6m_i8);
  CHECK(arm::verdict_on(int8_depthwise(3, 2), v6m).reason == kernel_decline::depthwise_multiplier_not_1);
  CHECK(arm::verdict_on(int8_conv(0, 3), v6m).reason == kernel_decline::weights_offset_not_0);
  CHECK(arm::verdict_on(pool, v6m).reason == kernel_decline::no_kernel_for_op);
  CHECK(arm::verdict_on(int16_doubled, v6m).reason == kernel_decline::element_type);
  kernel_params equal_add = int8_of(op_kind::add);
  equal_add.in2 = equal_add.out;
  CHECK(arm::verdict_on(equal_add, v6m).runs == kernel_impl::arm_v6m_i8);
  CHECK(arm::verdict_on(broadcast_add, v6m).reason == kernel_decline::broadcast);
  // Resize (kernel/arm/resize.hpp): int8 bilinear and int8 or uint8 nearest of rank 4 on the DSP family (the MVE family's
  // fallback); a uint8 nearest (an ONNX model's Resize) asks the family, other ranks do not take it.
  kernel_params resize = int8_of(op_kind::resize_linear);
  resize.in = make_shape(1, 3, 4, 8);
  resize.out = make_shape(1, 6, 8, 8);
  CHECK(arm::verdict_on(resize, dsp).runs == kernel_impl::arm_dsp_i8);
  CHECK(arm::verdict_on(resize, mve).runs == kernel_impl::arm_dsp_i8);
  resize.kind = op_kind::resize_nearest;
  resize.type = resize.out_type = dtype::u8;
  CHECK(arm::verdict_on(resize, dsp).runs == kernel_impl::arm_dsp_i8);
  CHECK(ctnn::pass::kernel_by_values(resize, dsp) == kernel_impl::undecided);
  resize.in = make_shape(3, 4, 8);
  resize.out = make_shape(6, 8, 8);
  CHECK(arm::verdict_on(resize, dsp).reason == kernel_decline::rank_not_4);
  // Every row names conditions its op kind has (none after the first none).
  for (const auto& rules : {std::span<const arm::fast_kernel_rule>{arm::dsp_rules}, std::span<const arm::fast_kernel_rule>{arm::mve_rules},
                            std::span<const arm::fast_kernel_rule>{arm::v6m_rules}})
    for (const arm::fast_kernel_rule& r : rules) {
      bool ended = false;
      for (kernel_decline d : r.declines_when) {
        CHECK(!(ended && d != kernel_decline::none));
        ended = ended || d == kernel_decline::none;
      }
    }
}

// What require_fast_kernels reports per call: none where a family runs it, the rows' reason where the reference
// kernel does; on the host (no DSP kernels compiled) a call the rows take is no error (the dry run).
static_assert(ctnn::pass::reference_reason<int8_depthwise(3, 2), instruction_set::armv7em_dsp>() == kernel_decline::none);
static_assert(ctnn::pass::reference_reason<int8_depthwise(16, 1), instruction_set::armv81m_mve>() == kernel_decline::none);
static_assert(ctnn::pass::reference_reason<int8_of(op_kind::pad), instruction_set::armv7em_dsp>() == kernel_decline::no_kernel_for_op);
// The shared policy runs no reference kernel.
static_assert(ctnn::pass::reference_reason<int8_of(op_kind::pad), instruction_set::armv7em_dsp, ctnn::kernel::shared>() ==
              kernel_decline::none);

}  // namespace
