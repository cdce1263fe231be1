#pragma once
// int16 LOGISTIC and TANH (TFLite's 16x8 quantization; TFLM's reference_integer_ops::Logistic / Tanh of
// int16): the input, zero point 0, rescaled to 1 / (3 * 4096) units (input_multiplier, input_shift: TFLM's
// Prepare, ops/logistic_tanh.hpp; a multiplier of 0 means a power-of-two input scale: 3 << shift, no
// shift), its magnitude looked up in a table of sigmoid(i / 24) with linear interpolation between entries,
// and the result in the output's fixed scale (2^-15; zero point 0). tanh(x) = 2 sigmoid(2x) - 1 reads the
// same table at twice the resolution.
#include <array>
#include <cstdint>

#include <ctnn/ir/module.hpp>

namespace ctnn::kernel::reference::int16 {

// TFLite's sigmoid_table_uint16 (kernels/internal/common.h): sigmoid(i / 24), i = 0..255, in unsigned 0.16
// fixed point, as TFLite tabulates it. Data, not computed: 44 of its entries are one above the nearest 0.16
// value of the function, and bit-exactness needs the same entries.
inline constexpr std::array<std::uint16_t, 256> sigmoid_table{
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149, 40794, 41432, 42064, 42688,
    43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369, 47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409,
    51865, 52311, 52745, 53169, 53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433,
    57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110,
    61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186,
    63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835, 63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308,
    64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786, 64816, 64845, 64873, 64900,
    64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079, 65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208,
    65221, 65234, 65246, 65258, 65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367,
    65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433, 65438, 65442, 65445, 65449,
    65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474, 65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491,
    65493, 65495, 65497, 65498, 65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513,
    65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524,
    65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530,
    65530, 65530, 65531, 65531, 65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
    65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65535,
};

// The input in the table's units: (x * multiplier + half) >> shift, as TFLM (int32 arithmetic).
struct table_input_scaling {
  std::int32_t multiplier = 0, shift = 0, half = 0;
  template <class Params>
  constexpr explicit table_input_scaling(Params p)
      : multiplier(p->input_multiplier == 0 ? 3 << p->input_shift : p->input_multiplier),
        shift(p->input_multiplier == 0 ? 0 : p->input_shift),
        half(shift > 0 ? 1 << (shift - 1) : 0) {}
  constexpr std::int32_t operator()(std::int16_t x) const {
    // int32 as TFLM's; the wrap (a multiplier above 32767, which TFLM's Prepare does not make) is defined here.
    const auto product = static_cast<std::int32_t>(static_cast<std::uint32_t>(x) * static_cast<std::uint32_t>(multiplier));
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(product) + static_cast<std::uint32_t>(half)) >> shift;
  }
};

// The interpolated table value of magnitude `a` (FractionBits below each entry), scaled by 2^FractionBits;
// past the table, its saturated value.
template <std::int32_t FractionBits>
constexpr std::uint32_t interpolated_sigmoid(std::uint32_t a, std::uint32_t saturated) {
  const std::uint32_t entry = a >> FractionBits;
  if (entry >= 255) return saturated;
  const std::uint32_t low = sigmoid_table[entry], high = sigmoid_table[entry + 1];
  const std::uint32_t fraction = a & ((1u << FractionBits) - 1);
  return (low << FractionBits) + fraction * (high - low);
}

template <class Params>
constexpr void logistic(Params p, const std::int16_t* input, std::int16_t* output) {
  const table_input_scaling scale(p);
  const std::int64_t elements = p->out.elements();
  for (std::int64_t i = 0; i < elements; ++i) {
    const std::int32_t x = scale(input[i]);
    const std::uint32_t magnitude = x < 0 ? 0u - static_cast<std::uint32_t>(x) : static_cast<std::uint32_t>(x);
    std::uint32_t v = interpolated_sigmoid<9>(magnitude, 0x7FFFu << 10);
    v = x >= 0 ? v + (1u << 9) : (1u << (16 + 9)) - v + (1u << 9) - 1;  // sigmoid(-x) = 1 - sigmoid(x)
    output[i] = static_cast<std::int16_t>(v >> 10);
  }
}

template <class Params>
constexpr void tanh(Params p, const std::int16_t* input, std::int16_t* output) {
  const table_input_scaling scale(p);
  const std::int64_t elements = p->out.elements();
  for (std::int64_t i = 0; i < elements; ++i) {
    const std::int32_t x = scale(input[i]);
    const std::uint32_t magnitude = x < 0 ? 0u - static_cast<std::uint32_t>(x) : static_cast<std::uint32_t>(x);
    const auto v = static_cast<std::int32_t>(interpolated_sigmoid<8>(magnitude, 0xFFFFu << 8));
    const std::int32_t centred = x >= 0 ? v - (1 << (14 + 9)) + (1 << (9 - 2)) : -v + (1 << (14 + 9)) + (1 << (9 - 2)) - 1;
    output[i] = static_cast<std::int16_t>(centred >> (9 - 1));
  }
}

}  // namespace ctnn::kernel::reference::int16
