// The DSP int8 broadcast binary kernel (kernel/arm/broadcast.hpp: ADD, SUB, MUL, SQUARED_DIFFERENCE, MAXIMUM, MINIMUM,
// PRELU) against the reference kernels (ops/<kind>.hpp), bit for bit, on pseudo-random layers drawn at compile time
// (arm_kernels_test.hpp's generator): results of rank 1 to 4 with extents 1 to 9 (odd row lengths: the scalar tails of
// MAXIMUM/MINIMUM), each operand keeping or collapsing each axis at random and at times of a lower rank (numpy
// broadcasting both ways: the constant first or second), zero points including -128 and 127, TFLite's ranges of
// multipliers and shifts (PRELU's negative side of either sign), fused activation ranges. Where the first operand
// has the result's shape the kernel also runs in place, its result over that operand.
// On MVE targets (Cortex-M55) the MVE family's kernel runs each layer (kernel/arm/mve/mul.hpp for MUL, the DSP kernel
// for the others), and MUL also runs on layers of its own: rows of 1 to 40 elements (whole 16-byte steps and
// predicated tails), output shifts from -16 to +16 (the zero point added in int16 or, past a left shift of 14, in
// int32).
#include "arm_kernels_test.hpp"

#include <ctnn/kernel/arm/broadcast.hpp>
#include <ctnn/kernel/arm/mve/i8.hpp>

namespace {

namespace t = arm_kernels_test;

constexpr ctnn::op_kind kinds[] = {ctnn::op_kind::add,     ctnn::op_kind::sub,     ctnn::op_kind::mul,  ctnn::op_kind::squared_difference,
                                   ctnn::op_kind::maximum, ctnn::op_kind::minimum, ctnn::op_kind::prelu};

constexpr ctnn::kernel_params binary_layer(std::uint32_t family, std::size_t index) {
  t::random r{{t::seed_of(family, index)}};
  ctnn::kernel_params p{};
  p.kind = kinds[index % 7];
  p.type = p.out_type = ctnn::dtype::i8;
  const std::int32_t rank = r.in(1, 4);
  std::int64_t out_dims[4]{}, a_dims[4]{}, b_dims[4]{};
  for (std::int32_t d = 0; d < rank; ++d) {
    out_dims[d] = r.in(1, 9);
    a_dims[d] = r.in(0, 3) == 0 ? 1 : out_dims[d];
    b_dims[d] = r.in(0, 1) == 0 ? 1 : out_dims[d];
  }
  // Most layers: one operand the result's shape (a model's tensor and a constant); PRELU's input always is.
  if (p.kind == ctnn::op_kind::prelu || r.in(0, 3) != 0) {
    for (std::int32_t d = 0; d < rank; ++d) (p.kind == ctnn::op_kind::prelu || r.in(0, 1) == 0 ? a_dims : b_dims)[d] = out_dims[d];
  }
  for (std::int32_t d = 0; d < rank; ++d) {  // the result: the broadcast of the two
    out_dims[d] = a_dims[d] > b_dims[d] ? a_dims[d] : b_dims[d];
  }
  const std::int32_t a_rank = r.in(0, 2) == 0 ? r.in(1, rank) : rank, b_rank = r.in(0, 2) == 0 ? r.in(1, rank) : rank;
  // A lower rank drops leading axes, which must then be 1 in the result unless the other operand has them.
  p.out.rank = rank;
  p.in.rank = a_rank;
  p.in2.rank = b_rank;
  for (std::int32_t d = 0; d < rank; ++d) {
    const bool a_has = d >= rank - a_rank, b_has = d >= rank - b_rank;
    const std::int64_t a_extent = a_has ? a_dims[d] : 1, b_extent = b_has ? b_dims[d] : 1;
    p.out.dims[static_cast<std::size_t>(d)] = a_extent > b_extent ? a_extent : b_extent;
    if (a_has) p.in.dims[static_cast<std::size_t>(d - (rank - a_rank))] = a_extent;
    if (b_has) p.in2.dims[static_cast<std::size_t>(d - (rank - b_rank))] = b_extent;
  }
  if (p.kind == ctnn::op_kind::prelu) {  // the input has the result's shape
    p.in = p.out;
  }
  p.input_offset = -r.zero_point();
  p.input2_offset = -r.zero_point();
  p.output_offset = r.zero_point();
  p.activation_min = -128;
  p.activation_max = 127;
  switch (p.kind) {
    case ctnn::op_kind::add:
    case ctnn::op_kind::sub:
      p.left_shift = 20;
      p.input_multiplier = t::multiplier(r);
      p.input_shift = r.in(0, 1) == 0 ? -1 : r.in(-6, -1);
      p.input2_multiplier = t::multiplier(r);
      p.input2_shift = r.in(-6, -1);
      p.output_multiplier = t::multiplier(r);
      p.output_shift = r.in(-24, -14);
      t::set_activation(p, r);
      break;
    case ctnn::op_kind::squared_difference:
      p.left_shift = 7;
      p.input_multiplier = t::multiplier(r);
      p.input_shift = r.in(0, 1) == 0 ? -1 : r.in(-6, -1);
      p.input2_multiplier = t::multiplier(r);
      p.input2_shift = r.in(-6, -1);
      p.output_multiplier = t::multiplier(r);
      p.output_shift = r.in(-24, -8);
      break;
    case ctnn::op_kind::mul:
      p.output_multiplier = t::multiplier(r);
      p.output_shift = r.in(-16, -6);
      t::set_activation(p, r);
      break;
    case ctnn::op_kind::prelu:
      p.output_multiplier = t::multiplier(r);
      p.output_shift = r.in(-3, 1);
    {
      ctnn::negative_side_fields negative{};
      negative.multiplier = r.in(0, 2) == 0 ? -t::multiplier(r) : t::multiplier(r);
      negative.shift = r.in(-10, -3);
      p.set(negative);
      break;
    }
    default:
      break;
  }
  return p;
}

constexpr std::size_t max_elements = 9 * 9 * 9 * 9;
std::int8_t input[max_elements], input2[max_elements], expected_output[max_elements], actual_output[max_elements];

// MUL over rows of 1 to 40 elements: the last axis up to 40 (an operand of extent 1 there: a staying one), the
// output shift over its whole range.
constexpr ctnn::kernel_params mul_layer(std::uint32_t family, std::size_t index) {
  ctnn::kernel_params p = binary_layer(family, index * 7 + 2);  // kinds[2]: MUL
  t::random r{{t::seed_of(family + 1, index)}};
  const std::int32_t rank = p.out.rank;
  const std::int32_t last = index == 0 ? 1 : r.in(1, 40);
  const auto widen_last = [&](ctnn::shape& s) {
    if (s.dims[static_cast<std::size_t>(s.rank - 1)] != 1) s.dims[static_cast<std::size_t>(s.rank - 1)] = last;  // axes align at the end
  };
  widen_last(p.in);
  widen_last(p.in2);
  p.out.dims[static_cast<std::size_t>(rank - 1)] = last;
  if (!(p.in.dims[static_cast<std::size_t>(p.in.rank - 1)] == last || p.in2.dims[static_cast<std::size_t>(p.in2.rank - 1)] == last)) {
    p.in.dims[static_cast<std::size_t>(p.in.rank - 1)] = last;  // one operand has the result's last extent
  }
  // Keep within the buffers: the outer axes at most 4 x 4 x 4.
  for (std::int32_t d = 0; d + 1 < rank; ++d) {
    const auto du = static_cast<std::size_t>(d);
    if (p.out.dims[du] > 4) {
      p.out.dims[du] = 4;
      const std::int32_t da = d - (rank - p.in.rank), db = d - (rank - p.in2.rank);
      if (da >= 0 && p.in.dims[static_cast<std::size_t>(da)] != 1) p.in.dims[static_cast<std::size_t>(da)] = 4;
      if (db >= 0 && p.in2.dims[static_cast<std::size_t>(db)] != 1) p.in2.dims[static_cast<std::size_t>(db)] = 4;
    }
  }
  p.output_shift = r.in(-16, 16);
  return p;
}

template <ctnn::kernel_params P>
void check_layer(std::uint32_t seed) {
#if CTNN_ARM_MVE
  using kernel = ctnn::kernel::arm::mve::i8_kernel<P>;
  static_assert(P.kind != ctnn::op_kind::mul || kernel::runs == ctnn::kernel_impl::arm_mve_i8, "MUL runs the MVE kernel");
#else
  using kernel = ctnn::kernel::arm::detail::broadcast_binary_kernel<P>;
#endif
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  static_assert(kernel::supports && ctnn::kernel::arm::i8_kernel<P>::supports &&
                    ctnn::pass::with_kernel_choice<P>.choice.impl == t::expected_family,
                "select_kernels should choose the DSP kernels for every layer of this test");
#else
  static_assert(!kernel::supports, "without the DSP extension no DSP kernel may be selected");
#endif
  t::random r{{seed | 1u}};
  for (auto& v : input) v = static_cast<std::int8_t>(r.in(-128, 127));
  for (auto& v : input2) v = static_cast<std::int8_t>(r.in(0, 7) == 0 ? (r.in(0, 1) == 0 ? -128 : 127) : r.in(-128, 127));
  const void* const args[2] = {input, input2};
  constexpr auto outputs = static_cast<std::size_t>(P.out.elements());
  ctnn::kernel::detail::run_i8<P.kind>(ctnn::kernel::static_params<P>{}, args, expected_output, {});
  constexpr int placements = P.in == P.out ? 2 : 1;
  for (int placement = 0; placement < placements; ++placement) {
    std::memset(actual_output, 0x5A, max_elements);
    if (placement == 0) {
      kernel::run(args, actual_output, {});
    } else {  // in place: the result over the first operand
      std::memcpy(actual_output, input, outputs);
      const void* const in_place_args[2] = {actual_output, input2};
      kernel::run(in_place_args, actual_output, {});
    }
    std::size_t first_difference = outputs;
    for (std::size_t i = 0; i < outputs && first_difference == outputs; ++i)
      if (actual_output[i] != expected_output[i]) first_difference = i;
    INFO("binary ", doctest::String(ctnn::name_of(P.kind)), " rank ", P.out.rank, " out ", P.out[0], "x", P.out.rank > 1 ? P.out[1] : 0,
         "x", P.out.rank > 2 ? P.out[2] : 0, "x", P.out.rank > 3 ? P.out[3] : 0, " a rank ", P.in.rank, " b rank ", P.in2.rank,
         " in place ", placement, " first difference at ", static_cast<unsigned>(first_difference));
    CHECK(first_difference == outputs);
  }
}

template <std::uint32_t Family, std::size_t... I>
void check_layers(std::index_sequence<I...>) {
  (check_layer<binary_layer(Family, I)>(t::seed_of(Family + 4000, I)), ...);
}
template <std::uint32_t Family, std::size_t... I>
void check_mul_layers(std::index_sequence<I...>) {
  (check_layer<mul_layer(Family, I)>(t::seed_of(Family + 4000, I)), ...);
}

}  // namespace

TEST_CASE("arm int8 broadcast binary ops equal the reference kernels on random layers") {
  check_layers<51>(std::make_index_sequence<56>{});
}

TEST_CASE("arm int8 MUL equals the reference kernel on rows of 1 to 40 elements and any output shift") {
  check_mul_layers<52>(std::make_index_sequence<16>{});
}
