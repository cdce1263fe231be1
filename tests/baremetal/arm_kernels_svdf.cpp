// The DSP int8 SVDF kernel (kernel/arm/svdf.hpp) against the reference kernel (ops::svdf::run_i8), bit for bit, on
// pseudo-random layers drawn at compile time (arm_kernels_test.hpp's generator): int16 and int8 state and time
// weights, batches of 1 to 3, 1 to 70 inputs (odd counts and counts that are no multiple of 4), 1 to 13 filters in
// ranks 1 to 3, memories 1 to 12 (odd and even), with and without bias, input and output zero points including
// -128 and 127, state zero points (int8 state), multipliers with left and right shifts. Each layer runs five times
// from the same random state on both kernels, the state carrying over: every output and the whole state after
// every run must be equal (the state's layout is the reference's).
#include "arm_kernels_test.hpp"

#include <ctnn/kernel/arm/svdf.hpp>
#include <ctnn/ops/svdf.hpp>

namespace {

namespace t = arm_kernels_test;

constexpr ctnn::kernel_params svdf_layer(std::uint32_t family, std::size_t index, bool state16) {
  t::random r{{t::seed_of(family, index)}};
  ctnn::kernel_params p{};
  p.kind = ctnn::op_kind::svdf;
  p.type = ctnn::dtype::i8;
  p.out_type = ctnn::dtype::i8;
  const std::int32_t batch = r.in(0, 3) == 0 ? r.in(2, 3) : 1;
  const std::int32_t input_size = r.in(0, 3) == 0 ? r.in(1, 7) : r.in(8, 70);
  const std::int32_t rank = r.in(0, 2) == 0 ? r.in(2, 3) : 1;
  const std::int32_t units = r.in(1, 13 / rank);
  const std::int32_t memory = r.in(1, 12);
  p.in = ctnn::make_shape(batch, input_size);
  p.in2 = ctnn::make_shape(units * rank, input_size);
  p.in3 = ctnn::make_shape(units * rank, memory);
  p.out = ctnn::make_shape(batch, units);
  p.has_bias = r.in(0, 3) != 0 ? 1 : 0;
  ctnn::svdf_fields f{};
  f.rank = rank;
  f.state_type = state16 ? ctnn::dtype::i16 : ctnn::dtype::i8;
  f.state_offset = state16 ? 0 : -r.zero_point();
  p.set(f);
  p.input_offset = -r.zero_point();
  p.output_offset = r.zero_point();
  p.activation_min = -128;
  p.activation_max = 127;
  p.input_multiplier = t::multiplier(r);
  p.output_multiplier = t::multiplier(r);
  const std::int32_t pick = r.in(0, 5);
  p.input_shift = pick == 0 ? r.in(0, 3) : r.in(-14, -1);
  p.output_shift = pick == 1 ? r.in(0, 3) : r.in(-20, -1);
  return p;
}

constexpr ctnn::kernel_params state16_layer(std::uint32_t family, std::size_t index) { return svdf_layer(family, index, true); }
constexpr ctnn::kernel_params state8_layer(std::uint32_t family, std::size_t index) { return svdf_layer(family, index, false); }

constexpr std::size_t max_filters = 13, max_inputs = 3 * 70, max_weights = 13 * 70, max_state = 3 * 13 * 12, max_outputs = 3 * 13;
constexpr int runs = 5;

struct svdf_operands {
  std::int8_t input[max_inputs];
  std::int8_t features[max_weights];
  std::int16_t time16[max_filters * 12];
  std::int8_t time8[max_filters * 12];
  std::int32_t bias[max_filters];
  std::int16_t state16[max_state];
  std::int8_t state8[max_state];
};
svdf_operands operands;
std::int16_t expected_state[max_state], actual_state[max_state];
std::int8_t expected_output[max_outputs], actual_output[max_outputs];

void fill(std::uint32_t seed) {
  t::random r{{seed | 1u}};
  for (auto& v : operands.input) v = static_cast<std::int8_t>(r.in(-128, 127));
  for (auto& v : operands.features) v = static_cast<std::int8_t>(r.in(0, 7) == 0 ? (r.in(0, 1) == 0 ? -127 : 127) : r.in(-127, 127));
  for (auto& v : operands.time16) v = static_cast<std::int16_t>(r.in(0, 7) == 0 ? (r.in(0, 1) == 0 ? -32767 : 32767) : r.in(-32767, 32767));
  for (auto& v : operands.time8) v = static_cast<std::int8_t>(r.in(-127, 127));
  for (auto& v : operands.bias) v = r.in(0, 7) == 0 ? r.in(-(1 << 30), 1 << 30) : r.in(-(1 << 16), 1 << 16);
  for (auto& v : operands.state16) v = static_cast<std::int16_t>(r.in(-32768, 32767));
  for (auto& v : operands.state8) v = static_cast<std::int8_t>(r.in(-128, 127));
}

template <ctnn::kernel_params P>
void check_layer(std::uint32_t seed) {
  using kernel = ctnn::kernel::arm::detail::svdf_kernel<P>;
  constexpr bool state16 = P.svdf().state_type == ctnn::dtype::i16;
  using state_t = std::conditional_t<state16, std::int16_t, std::int8_t>;
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  static_assert(kernel::supports && ctnn::pass::with_kernel_choice<P>.choice.impl == t::expected_family,
                "select_kernels should choose the DSP SVDF kernel for every layer of this test");
#else
  static_assert(!kernel::supports, "without the DSP extension no DSP kernel may be selected");
#endif
  constexpr auto state_elements = static_cast<std::size_t>(P.in[0] * P.in2[0] * P.in3[1]);
  constexpr auto outputs = static_cast<std::size_t>(P.out.elements());
  static_assert(static_cast<std::size_t>(P.in.elements()) <= max_inputs && state_elements <= max_state && outputs <= max_outputs);
  fill(seed);
  const state_t* initial = nullptr;
  const void* time = nullptr;
  if constexpr (state16) {
    initial = operands.state16;
    time = operands.time16;
  } else {
    initial = operands.state8;
    time = operands.time8;
  }
  auto* expected_slots = reinterpret_cast<state_t*>(expected_state);
  auto* actual_slots = reinterpret_cast<state_t*>(actual_state);
  for (std::size_t i = 0; i < state_elements; ++i) expected_slots[i] = actual_slots[i] = initial[i];
  const void* bias = P.has_bias != 0 ? operands.bias : nullptr;
  const void* const reference_args[5] = {operands.input, operands.features, time, bias, expected_slots};
  const void* const kernel_args[5] = {operands.input, t::weights_for<P, kernel>(operands.features), time, bias, actual_slots};
  const ctnn::kernel::requant_arrays rq{};
  for (int run = 0; run < runs; ++run) {
    // Another input each run (the state then holds different responses).
    for (std::size_t i = 0; i < static_cast<std::size_t>(P.in.elements()); ++i)
      operands.input[i] = static_cast<std::int8_t>(operands.input[i] * 5 + 17 + run);
    ctnn::kernel::detail::run_i8<P.kind>(ctnn::kernel::static_params<P>{}, reference_args, expected_output, rq);
    for (auto& v : actual_output) v = 0x5A;
    kernel::run(kernel_args, actual_output, rq);
    std::size_t first_output_difference = outputs, first_state_difference = state_elements;
    for (std::size_t i = 0; i < outputs && first_output_difference == outputs; ++i)
      if (actual_output[i] != expected_output[i]) first_output_difference = i;
    for (std::size_t i = 0; i < state_elements && first_state_difference == state_elements; ++i)
      if (actual_slots[i] != expected_slots[i]) first_state_difference = i;
    INFO("svdf ", state16 ? "int16" : "int8", " state: batch ", P.in[0], " inputs ", P.in[1], " filters ", P.in2[0], " rank ", P.svdf().rank,
         " memory ", P.in3[1], " bias ", P.has_bias, " run ", run, " first output difference at ", static_cast<unsigned>(first_output_difference),
         " first state difference at ", static_cast<unsigned>(first_state_difference));
    CHECK(first_output_difference == outputs);
    CHECK(first_state_difference == state_elements);
  }
}

template <auto Layer, std::uint32_t Family, std::size_t... I>
void check_layers(std::index_sequence<I...>) {
  (check_layer<Layer(Family, I)>(t::seed_of(Family + 4000, I)), ...);
}

}  // namespace

TEST_CASE("arm int8 SVDF with int16 state equals the reference kernel on random layers, run after run") {
  check_layers<state16_layer, 51>(std::make_index_sequence<20>{});
}

TEST_CASE("arm int8 SVDF with int8 state equals the reference kernel on random layers, run after run") {
  check_layers<state8_layer, 52>(std::make_index_sequence<12>{});
}
