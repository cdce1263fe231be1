#pragma once
// int8 convolution operands at the int32 limits (issue #23), shared by the SIMD kernel tests
// (simd_i8_*.cpp) and the Armv7E-M DSP kernel tests (tests/baremetal/arm_kernels_*.cpp): TFLite computes
// in int32, which wraps on its targets, and every kernel must wrap as the reference kernels do, without
// undefined behaviour. Per output channel c, by c % 8:
//   * a bias at or near INT32_MAX / INT32_MIN, with weights +-127 whose products with the inputs below
//     ((x + 128) * w for an input offset of 128) all have one sign: the accumulator wraps;
//   * zero weights and a multiplier of nearly one (2^31 - 1, shift 0): the rescaled accumulator lies within
//     128 of INT32_MIN / INT32_MAX, and an output zero point of +-100 wraps it to the other end;
//   * a left shift of a wrapped accumulator, a right shift of 31, multipliers below one half.
// Dependency-free (bare metal): the callers give the random numbers.
#include <cstddef>
#include <cstdint>

namespace int8_extreme {

inline constexpr std::int32_t int32_max = 2147483647;
inline constexpr std::int32_t int32_min = -int32_max - 1;

struct channel {
  std::int32_t bias;
  std::int32_t weights;  // every weight 127, -127 or 0; or 1: random weights in [-127, 127]
  std::int32_t multiplier, shift;
};
inline constexpr channel channels[8] = {{int32_max, 127, 1 << 30, -24},     {int32_min, -127, 1 << 30, -24},
                                        {int32_min, 0, int32_max, 0},       {int32_max, 0, int32_max, 0},
                                        {int32_max - 50000, 1, 1 << 30, 1}, {int32_min + 50000, 1, 1 << 30, -31},
                                        {-1000000, 127, 1518500250, -8},    {int32_max - 1000000, -127, 1 << 30, -24}};

constexpr const channel& of(std::size_t c) { return channels[c % 8]; }

// The input offset the channels assume (zero point -128), and the output zero points that make the rescaled
// extremes wrap.
inline constexpr std::int32_t input_offset = 128;
inline constexpr std::int32_t output_offsets[2] = {100, -100};

// A weight of channel c; random(): an int in [-127, 127].
template <class Random>
constexpr std::int8_t weight(std::size_t c, Random&& random) {
  const std::int32_t w = of(c).weights;
  return static_cast<std::int8_t>(w == 1 ? random() : w);
}

// An input value, large (x + 128 in [192, 255], 127 one time in four); random(): an int in [0, 255].
template <class Random>
constexpr std::int8_t input(Random&& random) {
  const std::int32_t r = random();
  return static_cast<std::int8_t>(r < 64 ? 127 : 64 + r % 64);
}

}  // namespace int8_extreme
