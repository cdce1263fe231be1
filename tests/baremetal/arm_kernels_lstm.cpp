// The DSP int8 LSTM kernel (kernel/arm/sequence_lstm.hpp) against the reference kernel
// (reference/int8/sequence_lstm.hpp), bit for bit, on pseudo-random layers drawn at compile time (arm_kernels_test.hpp's
// generator): 1 to 24 features and cells (odd counts, counts below one word), the benchmark's 28 x 64 and 64 x 64
// layers, 1 to 6 steps (28 in those), batches of 1 to 3, batch-major and time-major, input and output-state zero
// points including -128 and 127, gate multipliers with right shifts and left shifts, the product rescales of cell
// state scales 2^-8 to 2^-15 (the cell tanh's left shift from -3 to 4), a cell clip one layer in three; the
// weights (their packing at run time, as the compiler does it), biases within +-2^16 (the kernel's short rescale of the
// input sums) or, one layer in three, up to +-2^30 (its full one), states and inputs at run time.
// Each layer runs twice from the states the first run left (the carried state).
#include <array>
#include <new>
#include <type_traits>

#include "arm_kernels_test.hpp"

namespace {

namespace t = arm_kernels_test;

constexpr ctnn::kernel_params lstm_layer(std::uint32_t family, std::size_t index, bool firmware) {
  t::random r{{t::seed_of(family, index)}};
  ctnn::kernel_params p{};
  p.kind = ctnn::op_kind::sequence_lstm;
  p.type = ctnn::dtype::i8;
  p.out_type = ctnn::dtype::i8;
  p.requantization = ctnn::requantization_policy::tflite;
  const bool time_major = r.in(0, 1) == 1;
  const std::int32_t batch = firmware ? 1 : r.in(1, 3), steps = firmware ? 28 : r.in(1, 6);
  const std::int32_t features = firmware ? (index % 2 == 0 ? 28 : 64) : r.in(1, 24), cells = firmware ? 64 : r.in(1, 24);
  ctnn::sequence_lstm_fields f{};
  f.time_major = time_major ? 1 : 0;
  p.set(f);
  p.in = time_major ? ctnn::make_shape(steps, batch, features) : ctnn::make_shape(batch, steps, features);
  p.out = time_major ? ctnn::make_shape(steps, batch, cells) : ctnn::make_shape(batch, steps, cells);
  p.in2 = ctnn::make_shape(4 * cells, features);
  p.input_offset = -r.zero_point();
  p.input2_offset = -r.zero_point();
  p.output_offset = -p.input2_offset;  // the output is quantized as the output state
  ctnn::sequence_lstm_quant_fields gates{};
  for (std::size_t g = 0; g < 8; ++g) {
    gates.gate_multiplier[g] = t::multiplier(r);
    const std::int32_t pick = r.in(0, 7);
    gates.gate_shift[g] = static_cast<std::int8_t>(pick == 0 ? r.in(0, 3) : r.in(-12, -1));
  }
  p.set(gates);
  // TFLM's products: forget x cell 2^-15 (scale-free), input x cell gate 2^-30 / cell scale, tanh(c) x output
  // 2^-30 / output scale; cell scale 2^-power.
  const std::int32_t power = r.in(8, 15);
  p.input_multiplier = 1 << 30;
  p.input_shift = -14;
  p.input2_multiplier = 1 << 30;
  p.input2_shift = -14 - (15 - power);
  p.output_multiplier = t::multiplier(r);
  p.output_shift = r.in(-24, -18);
  p.left_shift = 15 - power - 3;
  const bool clip = r.in(0, 2) == 0;
  const std::int32_t bound = r.in(1, 32767);
  p.activation_min = clip ? -bound : -32768;
  p.activation_max = clip ? bound : 32767;
  return p;
}

constexpr ctnn::kernel_params small_layer(std::uint32_t family, std::size_t index) { return lstm_layer(family, index, false); }
constexpr ctnn::kernel_params firmware_layer(std::uint32_t family, std::size_t index) { return lstm_layer(family, index, true); }

constexpr std::size_t max_input = 3 * 28 * 64, max_cells = 64, max_output = 3 * 28 * 64;
struct lstm_operands {
  std::int8_t input[max_input];
  std::int8_t input_weights[4 * max_cells * 64];
  std::int8_t state_weights[4 * max_cells * max_cells];
  std::int32_t biases[4 * max_cells];
  std::int8_t output_state[3 * max_cells];
  std::int16_t cell_state[3 * max_cells];
};
lstm_operands operands;
std::int8_t expected_output[max_output], actual_output[max_output];
std::int8_t expected_h[3 * max_cells], actual_h[3 * max_cells];
std::int16_t expected_c[3 * max_cells], actual_c[3 * max_cells];
std::int32_t packed_input_weights[max_cells * (4 + 2 * 64)], packed_state_weights[max_cells * (4 + 2 * max_cells)];
std::int32_t packed_biases[4 * max_cells + 1];

// The packing's reader (runtime/packed_operands.hpp's constant_reader): int8 weights, int32 biases.
struct operand_reader {
  const std::int8_t* weights = nullptr;
  const std::int32_t* biases = nullptr;
  constexpr std::int8_t i8(std::size_t i) const { return weights[i]; }
  constexpr std::int32_t i32(std::size_t i) const { return biases[i]; }
};

void fill(std::uint32_t seed, bool large_biases) {
  t::random r{{seed | 1u}};
  for (auto& v : operands.input) v = static_cast<std::int8_t>(r.in(-128, 127));
  for (auto& v : operands.input_weights) v = static_cast<std::int8_t>(r.in(0, 7) == 0 ? (r.in(0, 1) == 0 ? -127 : 127) : r.in(-127, 127));
  for (auto& v : operands.state_weights) v = static_cast<std::int8_t>(r.in(0, 7) == 0 ? (r.in(0, 1) == 0 ? -127 : 127) : r.in(-127, 127));
  for (auto& v : operands.biases) v = large_biases && r.in(0, 7) == 0 ? r.in(-(1 << 30), 1 << 30) : r.in(-(1 << 16), 1 << 16);
  for (auto& v : operands.output_state) v = static_cast<std::int8_t>(r.in(-128, 127));
  for (auto& v : operands.cell_state) v = static_cast<std::int16_t>(r.in(0, 7) == 0 ? (r.in(0, 1) == 0 ? -32768 : 32767) : r.in(-32768, 32767));
}

template <ctnn::kernel_params P>
void check_layer(std::uint32_t seed, bool large_biases) {
  using kernel = ctnn::kernel::arm::detail::sequence_lstm_kernel<P>;
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  static_assert(kernel::supports && ctnn::pass::with_kernel_choice<P>.choice.impl == t::expected_family,
                "select_kernels should choose the DSP LSTM kernel for every layer of this test");
#else
  static_assert(!kernel::supports, "without the DSP extension no DSP kernel may be selected");
#endif
  static_assert(P.in.elements() <= static_cast<std::int64_t>(max_input) && P.out.elements() <= static_cast<std::int64_t>(max_output));
  fill(seed, large_biases);
  // Packed straight into the buffers (the arrays, up to 34 KB, would not fit the M55 board's stack).
  using input_packed = decltype(kernel::template pack<1>(operand_reader{}));
  using state_packed = decltype(kernel::template pack<2>(operand_reader{}));
  using biases_packed = decltype(kernel::template pack<3>(operand_reader{}));
  static_assert(sizeof(input_packed) <= sizeof packed_input_weights && sizeof(state_packed) <= sizeof packed_state_weights &&
                sizeof(biases_packed) <= sizeof packed_biases);
  ::new (static_cast<void*>(packed_input_weights)) input_packed(kernel::template pack<1>(operand_reader{operands.input_weights, nullptr}));
  ::new (static_cast<void*>(packed_state_weights)) state_packed(kernel::template pack<2>(operand_reader{operands.state_weights, nullptr}));
  ::new (static_cast<void*>(packed_biases)) biases_packed(kernel::template pack<3>(operand_reader{nullptr, operands.biases}));
  std::memcpy(expected_h, operands.output_state, sizeof expected_h);
  std::memcpy(actual_h, operands.output_state, sizeof actual_h);
  std::memcpy(expected_c, operands.cell_state, sizeof expected_c);
  std::memcpy(actual_c, operands.cell_state, sizeof actual_c);
  const void* const reference_args[6] = {operands.input, operands.input_weights, operands.state_weights, operands.biases, expected_h, expected_c};
  const void* const kernel_args[6] = {operands.input, packed_input_weights, packed_state_weights, packed_biases, actual_h, actual_c};
  constexpr auto outputs = static_cast<std::size_t>(P.out.elements());
  constexpr auto states = static_cast<std::size_t>(P.out.elements() / (P.sequence_lstm().time_major != 0 ? P.out[0] : P.out[1]));
  const ctnn::kernel::requant_arrays rq{};
  std::size_t first_difference = outputs, first_state_difference = states;
  for (int run = 0; run < 2; ++run) {  // the second from the states the first left
    ctnn::kernel::detail::run_i8<P.kind>(ctnn::kernel::static_params<P>{}, reference_args, expected_output, rq);
    for (auto& v : actual_output) v = 0x5A;
    kernel::run(kernel_args, actual_output, rq);
    for (std::size_t i = 0; i < outputs && first_difference == outputs; ++i)
      if (actual_output[i] != expected_output[i]) first_difference = i;
    for (std::size_t i = 0; i < states && first_state_difference == states; ++i)
      if (actual_h[i] != expected_h[i] || actual_c[i] != expected_c[i]) first_state_difference = i;
  }
  INFO("sequence_lstm ", P.sequence_lstm().time_major != 0 ? "time-major " : "batch-major ", P.in[0], "x", P.in[1], "x", P.in[2], " cells ",
       P.out[2], " offsets ", P.input_offset, ",", P.input2_offset, " clip ", P.activation_max, " left shift ", P.left_shift, " large biases ", large_biases,
       " first difference at ", static_cast<unsigned>(first_difference), " (states ", static_cast<unsigned>(first_state_difference), ")");
  CHECK(first_difference == outputs);
  CHECK(first_state_difference == states);
}

template <auto Layer, std::uint32_t Family, std::size_t... I>
void check_layers(std::index_sequence<I...>) {
  (check_layer<Layer(Family, I)>(t::seed_of(Family + 3000, I), I % 3 == 2), ...);
}

}  // namespace

TEST_CASE("arm int8 sequence_lstm equals the reference kernel on random layers") {
  check_layers<small_layer, 51>(std::make_index_sequence<16>{});
  check_layers<firmware_layer, 52>(std::make_index_sequence<2>{});
}
