// ONNX's QLinearAdd on the Cortex-M kernels (kernel/arm/onnx_add.hpp, on the FPU; on the Cortex-M55
// kernel/arm/mve/onnx_add.hpp, on MVE-F's float lanes) against kernel::reference::onnx_quant::add, bit for bit, on
// odd shapes of uint8 and int8 and vectors of every length up to 16 (the MVE kernel's tails), scales of any ratio and
// of ratio 1/2 (ties), in place over either input too; sums next to ties where the fmas' order or fusion decides;
// scale ratios below 2^-100, which the MVE kernel leaves to the FPU one (its lanes flush denormals).
#include "arm_kernels_onnx_test.hpp"

#include <bit>
#include <cmath>
#include <type_traits>

#include <ctnn/kernel/arm/decline.hpp>
#include <ctnn/kernel/arm/mve/onnx_add.hpp>
#include <ctnn/kernel/arm/onnx_add.hpp>

namespace {

using namespace arm_kernels_onnx_test;

// QLinearAdd: an odd shape of rank 1 to 4, one 8-bit type, three scales in [1/512, 1/2) (every third call: the
// inputs' scales half the result's, so that odd sums are ties), any zero points.
constexpr ctnn::kernel_params qlinear_add(std::uint32_t family, std::size_t index) {
  t::random r{{t::seed_of(family, index)}};
  ctnn::kernel_params p{};
  p.kind = op_kind::add;
  p.type = p.out_type = r.in(0, 1) == 0 ? dtype::u8 : dtype::i8;
  p.requantization = ctnn::requantization_policy::onnx;
  const std::int32_t rank = r.in(1, 4);
  std::int32_t dims[4] = {1, 1, 1, 1};
  for (std::int32_t k = 0; k < rank; ++k) dims[k] = 2 * r.in(0, 6) + 1;
  p.in = p.in2 = p.out = rank == 1   ? ctnn::make_shape(dims[0])
                         : rank == 2 ? ctnn::make_shape(dims[0], dims[1])
                         : rank == 3 ? ctnn::make_shape(dims[0], dims[1], dims[2])
                                     : ctnn::make_shape(dims[0], dims[1], dims[2], dims[3]);
  const auto scale = [&] { return static_cast<float>(r.in(1, 256)) / 512.0f; };
  const float y_scale = scale();
  const bool ties = index % 3 == 0;
  p.onnx.input_scale_bits = std::bit_cast<std::uint32_t>(ties ? y_scale * 0.5f : scale());
  p.onnx.input2_scale_bits = std::bit_cast<std::uint32_t>(ties ? y_scale * 0.5f : scale());
  p.onnx.output_scale_bits = std::bit_cast<std::uint32_t>(y_scale);
  p.input_offset = -zero_point_of(p.type, r);
  p.input2_offset = -zero_point_of(p.type, r);
  p.output_offset = zero_point_of(p.type, r);
  return p;
}

// The same calls as vectors of 1 to 16 elements and a few longer (the MVE kernel's four-element steps with every
// remainder: its predicated last step; the FPU kernel's pairs).
constexpr ctnn::kernel_params qlinear_add_of_length(std::uint32_t family, std::size_t index) {
  ctnn::kernel_params p = qlinear_add(family, index);
  const auto i = static_cast<std::int32_t>(index);
  p.in = p.in2 = p.out = ctnn::make_shape(i < 16 ? i + 1 : 8 * i + i % 8);
  return p;
}

// The family under test: on MVE-F targets (the Cortex-M55) the MVE kernel (kernel/arm/mve/onnx_add.hpp) where its
// float lanes, which flush denormals, meet none (scale ratios of 2^-100 or more), else the DSP one (on the FPU; tested
// on the Cortex-M4 and M33 too).
inline constexpr bool family_add_compiled =
    ctnn::kernel::arm::detail::dsp_available && ctnn::kernel::arm::detail::fpu_fma_available;
#if CTNN_ARM_MVE
template <ctnn::kernel_params P>
inline constexpr bool mve_add_expected =
    ctnn::kernel::arm::mve::detail::mve_onnx_available && ctnn::kernel::arm::onnx_add_ratios_normal(P);
#else
template <ctnn::kernel_params P>
inline constexpr bool mve_add_expected = false;
#endif
template <ctnn::kernel_params P>
using family_add_kernel = std::conditional_t<mve_add_expected<P>, ctnn::kernel::arm::mve::detail::onnx_add_kernel<P>,
                                             ctnn::kernel::arm::detail::onnx_add_kernel<P>>;

// A kernel's run against `expected` (bytes elements of the given type): out of place, and in place over either
// input. Not a template (one copy of the checks for every call).
using qlinear_add_run = void (*)(const void* const (&)[2], void*, const ctnn::kernel::requant_arrays&);
void check_qlinear_add_run(qlinear_add_run run, std::size_t bytes, dtype type) {
  const void* operands[2] = {input, scratch};
  for (std::size_t i = 0; i < bytes; ++i) actual[i] = 0x5a;
  run(operands, actual, ctnn::kernel::requant_arrays{});
  CHECK_MESSAGE(std::memcmp(actual, expected, bytes) == 0,
                "QLinearAdd of " << bytes << " elements, type " << static_cast<int>(type) << " differs");
  for (std::size_t k = 0; k < 2; ++k) {
    std::memcpy(arena, k == 0 ? input : scratch, bytes);
    operands[k] = arena;
    run(operands, arena, ctnn::kernel::requant_arrays{});
    CHECK_MESSAGE(std::memcmp(arena, expected, bytes) == 0, "QLinearAdd in place over input " << k << " differs");
    operands[k] = k == 0 ? static_cast<const void*>(input) : static_cast<const void*>(scratch);
  }
}

// The family's kernel against the reference on the inputs fill() writes (into input and scratch).
template <ctnn::kernel_params P, class Fill>
void check_qlinear_add(Fill fill) {
  CHECK(family_add_kernel<P>::supports == family_add_compiled);
  if constexpr (family_add_compiled) CHECK(ctnn::pass::with_kernel_choice<P>.choice.impl == family_impl);
#if CTNN_ARM_MVE
  // The MVE family (family_impl) runs its own kernel or the FPU one.
  CHECK(ctnn::kernel::arm::mve::detail::onnx_add_kernel<P>::supports == mve_add_expected<P>);
  CHECK(ctnn::kernel::arm::mve::i8_kernel<P>::runs ==
        (mve_add_expected<P> ? ctnn::kernel_impl::arm_mve_i8 : ctnn::kernel_impl::arm_dsp_i8));
#endif
  if constexpr (family_add_compiled) {
    static_assert(P.out.elements() <= static_cast<std::int64_t>(max_bytes));
    fill();
    const void* operands[2] = {input, scratch};
    ctnn::kernel::invoke<P>(operands, expected);  // no recorded choice: the reference kernel
    check_qlinear_add_run(&family_add_kernel<P>::template run<2>, static_cast<std::size_t>(P.out.elements()), P.type);
  }
}
template <ctnn::kernel_params P>
void check_qlinear_add(std::uint32_t seed) {
  check_qlinear_add<P>([seed] {
    t::random r{{seed}};
    for (std::size_t i = 0; i < static_cast<std::size_t>(P.out.elements()); ++i)
      input[i] = static_cast<std::uint8_t>(r.next()), scratch[i] = static_cast<std::uint8_t>(r.next());
  });
}

// The same calls with an input's scale ratio below 2^-100 (where MVE's lanes would flush denormal terms): on the
// M55 too the FPU kernel runs them. Index 0: a's ratio 2^-110, 1: b's 2^-101 (just below the bound); 2: 2^-99 (the
// MVE kernel's, just above it).
constexpr ctnn::kernel_params qlinear_add_small_ratio(std::size_t index) {
  ctnn::kernel_params p = qlinear_add_of_length(44, index + 5);
  const float y_scale = std::bit_cast<float>(p.onnx.output_scale_bits);
  const float ratio = index == 0 ? 0x1p-110f : index == 1 ? 0x1p-101f : 0x1p-99f;
  (index == 0 ? p.onnx.input_scale_bits : p.onnx.input2_scale_bits) = std::bit_cast<std::uint32_t>(y_scale * ratio);
  return p;
}
static_assert(!ctnn::kernel::arm::onnx_add_ratios_normal(qlinear_add_small_ratio(0)) &&
              !ctnn::kernel::arm::onnx_add_ratios_normal(qlinear_add_small_ratio(1)) &&
              ctnn::kernel::arm::onnx_add_ratios_normal(qlinear_add_small_ratio(2)));

// QLinearAdds whose sums, for some pairs of inputs, lie so close to a tie that computing them another way rounds them
// to another integer: the two fmas in the other order (fma(b, b_ratio, fma(a, a_ratio, fixed))), or b * b_ratio
// rounded before its sum with fixed. Scales (in 512ths) and zero points from a search over random ones for those with
// the most such pairs; the inputs are those pairs, found here (45 elements: half of either kind), so that a kernel
// that computes either way fails. {type, a_scale, b_scale, y_scale, a_zero_point, b_zero_point, y_zero_point}
struct near_tie_add {
  dtype type;
  std::int32_t a_scale, b_scale, y_scale, a_zero_point, b_zero_point, y_zero_point;
};
inline constexpr near_tie_add near_tie_adds[] = {{dtype::i8, 126, 172, 156, -77, -81, -3}, {dtype::u8, 93, 53, 158, 96, 190, 49}};

constexpr ctnn::kernel_params qlinear_add_near_ties(std::size_t index) {
  const near_tie_add& n = near_tie_adds[index];
  ctnn::kernel_params p{};
  p.kind = op_kind::add;
  p.type = p.out_type = n.type;
  p.requantization = ctnn::requantization_policy::onnx;
  p.in = p.in2 = p.out = ctnn::make_shape(45);
  p.onnx.input_scale_bits = std::bit_cast<std::uint32_t>(static_cast<float>(n.a_scale) / 512.0f);
  p.onnx.input2_scale_bits = std::bit_cast<std::uint32_t>(static_cast<float>(n.b_scale) / 512.0f);
  p.onnx.output_scale_bits = std::bit_cast<std::uint32_t>(static_cast<float>(n.y_scale) / 512.0f);
  p.input_offset = -n.a_zero_point;
  p.input2_offset = -n.b_zero_point;
  p.output_offset = n.y_zero_point;
  return p;
}

template <ctnn::kernel_params P>
void fill_near_ties() {
  namespace q = ctnn::kernel::reference::onnx_quant;
  const q::add_coefficients c = q::add_coefficients_of(std::bit_cast<float>(P.onnx.input_scale_bits), -P.input_offset,
                                                       std::bit_cast<float>(P.onnx.input2_scale_bits), -P.input2_offset,
                                                       std::bit_cast<float>(P.onnx.output_scale_bits), P.output_offset);
  constexpr std::int32_t lowest = P.type == dtype::u8 ? 0 : -128, highest = lowest + 255;
  const auto rounded = [](float x) {
    const float r = std::nearbyint(x);
    return r < static_cast<float>(lowest) ? lowest : r > static_cast<float>(highest) ? highest : static_cast<std::int32_t>(r);
  };
  constexpr std::size_t bytes = static_cast<std::size_t>(P.out.elements()), swapped_wanted = bytes / 2;
  std::size_t swapped = 0, unfused = 0;
  for (std::int32_t a = lowest; a <= highest && swapped + unfused < bytes; ++a) {
    for (std::int32_t b = lowest; b <= highest && swapped + unfused < bytes; ++b) {
      const std::int32_t expected_value = rounded(q::add_sum(c, a, b));
      const float fa = static_cast<float>(a), fb = static_cast<float>(b);
      volatile float b_part = fb * c.b_ratio;  // rounded on its own (volatile: not contracted into the sum)
      const bool swap_differs = rounded(std::fma(fb, c.b_ratio, std::fma(fa, c.a_ratio, c.fixed))) != expected_value;
      const bool unfused_differs = rounded(std::fma(fa, c.a_ratio, b_part + c.fixed)) != expected_value;
      const bool take_swapped = swap_differs && swapped < swapped_wanted;
      const bool take_unfused = !take_swapped && unfused_differs && unfused < bytes - swapped_wanted;
      if (take_swapped || take_unfused) {
        input[swapped + unfused] = static_cast<std::uint8_t>(a);
        scratch[swapped + unfused] = static_cast<std::uint8_t>(b);
        swapped += take_swapped ? 1 : 0;
        unfused += take_unfused ? 1 : 0;
      }
    }
  }
  const bool found = swapped == swapped_wanted && unfused == bytes - swapped_wanted;
  CHECK_MESSAGE(found, "only " << swapped << " + " << unfused << " pairs next to ties");
}

template <std::uint32_t Family, std::size_t... I>
void check_qlinear_adds(std::index_sequence<I...>) {
  (check_qlinear_add<qlinear_add(Family, I)>(t::seed_of(Family + 1000, I)), ...);
}
template <std::uint32_t Family, std::size_t... I>
void check_qlinear_adds_of_lengths(std::index_sequence<I...>) {
  (check_qlinear_add<qlinear_add_of_length(Family, I)>(t::seed_of(Family + 1000, I)), ...);
}
template <std::size_t... I>
void check_qlinear_adds_of_small_ratios(std::index_sequence<I...>) {
  (check_qlinear_add<qlinear_add_small_ratio(I)>(t::seed_of(1044, I)), ...);
}
template <std::size_t... I>
void check_qlinear_adds_near_ties(std::index_sequence<I...>) {
  (check_qlinear_add<qlinear_add_near_ties(I)>(fill_near_ties<qlinear_add_near_ties(I)>), ...);
}


}  // namespace

TEST_CASE("arm ONNX QLinearAdd (on the FPU; MVE-F's lanes on the M55) equals ONNX's reference kernel, in place too") {
  check_qlinear_adds<42>(std::make_index_sequence<12>{});
}

TEST_CASE("arm ONNX QLinearAdd of 1 to 16 elements and longer (every tail) equals ONNX's reference kernel") {
  check_qlinear_adds_of_lengths<43>(std::make_index_sequence<20>{});
}

TEST_CASE("arm ONNX QLinearAdd of scale ratios below 2^-100 runs on the FPU (no flushed denormals) and equals the reference") {
  check_qlinear_adds_of_small_ratios(std::make_index_sequence<3>{});
}

TEST_CASE("arm ONNX QLinearAdd of sums next to ties (the fmas' order and fusion decide) equals ONNX's reference kernel") {
  check_qlinear_adds_near_ties(std::make_index_sequence<std::size(near_tie_adds)>{});
}

